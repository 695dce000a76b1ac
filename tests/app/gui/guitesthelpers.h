// What the main-window suites share: settings in test mode with a scratch folder, a window shown at a size
// and screenshots kept as test artifacts.
#pragma once

#include <QDir>
#include <QFileInfo>
#include <QFont>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QMainWindow>
#include <QStandardPaths>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

namespace kforge::test {

// The suites measure the window in one font, not in whichever sans-serif font fontconfig prefers on the machine
// that runs them: DejaVu Sans 9 pt (fonts-dejavu-core, which scripts/setup.sh installs) for the interface. The
// editor pins its own (EditorSetup::font()). Empty, or what is missing.
inline QString pinInterfaceFont()
{
    const QString family = QStringLiteral("DejaVu Sans");
    if (!QFontDatabase::hasFamily(family))
        return QStringLiteral("the font %1 is not installed (scripts/setup.sh installs fonts-dejavu-core)").arg(family);
    QFont font(family);
    font.setPointSizeF(9);
    QGuiApplication::setFont(font);
    return {};
}

// Settings in test mode, the interface font pinned, a usable scratch folder and every file the suite reads:
// empty, or what is missing.
inline QString guiTestSetUp(const QTemporaryDir &dir, const QStringList &needed = {})
{
    QStandardPaths::setTestModeEnabled(true);
    if (const QString font = pinInterfaceFont(); !font.isEmpty())
        return font;
    if (!dir.isValid())
        return QStringLiteral("no scratch folder: ") + dir.errorString();
    for (const QString &file : needed)
        if (!QFileInfo::exists(file))
            return file;
    return {};
}

// Shown and exposed at `size`, as the user first sees it.
inline bool showAt(QWidget &w, QSize size)
{
    w.resize(size);
    w.show();
    return QTest::qWaitForWindowExposed(&w);
}

// A PNG of `w` in `dir`. Offscreen by default; under a real X server (xvfb-run, QT_QPA_PLATFORM=xcb) the
// shots are kept beside them, named after the platform.
inline void saveShot(QWidget *w, const QString &dir, const QString &name)
{
    if (qobject_cast<QMainWindow *>(w))
        QTest::qWait(400); // the charts rebuild 150 ms after the session changed, and only while shown
    QDir().mkpath(dir);
    const QString platform = QGuiApplication::platformName();
    const QString file = dir + u'/' + name + (platform == QLatin1String("offscreen") ? QString() : u'-' + platform)
                         + QStringLiteral(".png");
    QVERIFY(w->grab().save(file));
    qInfo("screenshot: %s", qPrintable(file));
}

} // namespace kforge::test
