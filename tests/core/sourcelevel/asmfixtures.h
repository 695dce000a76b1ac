// The committed compiler output and hand-made profiles under tests/fixtures/asm, as the profile, assembly,
// heat and compare tests read them. A missing file ends the run: the test could only fail later, less clearly.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

namespace kforge::test {

inline QByteArray asmBytes(const QString &name)
{
    QFile f(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/asm/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", qPrintable(name));
    return f.readAll();
}

inline QString asmText(const QString &name)
{
    return QString::fromUtf8(asmBytes(name));
}

inline QJsonObject asmJson(const QString &name)
{
    return QJsonDocument::fromJson(asmBytes(name)).object();
}

} // namespace kforge::test
