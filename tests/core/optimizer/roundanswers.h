// The recorded round fixtures (tests/fixtures/rounds): the task and the model answers that the round and
// CLI tests replay.
#pragma once

#include <QFile>
#include <QString>

namespace kforge::test {

inline const QString kRoundFixtures = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/rounds/");

// The model answer tests/fixtures/rounds/round/<name>.md; a missing one ends the test run.
inline QString roundAnswer(const QString &name)
{
    QFile f(kRoundFixtures + QLatin1String("round/") + name + QLatin1String(".md"));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", qPrintable(name));
    return QString::fromUtf8(f.readAll());
}

} // namespace kforge::test
