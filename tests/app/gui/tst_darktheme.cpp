// Issue 37, smaller item (a white notice box in the dark theme), the whole window: the H200 session in the real
// MainWindow, Settings → General → Dark applied as a user applies it, then every panel looked at. Texts that take their
// colour from the palette must stay readable on it: the model's reasoning (it was drawn in palette(mid), which the
// dark palette makes the colour of its background), the notice bar, Round Control's notice. Screenshots go to
// test-artifacts/darktheme/.
#include "app/gui/mainactions.h"
#include "app/gui/mainwindow.h"
#include "app/gui/noticebar.h"
#include "core/log/loghub.h"
#include "core/settings/settings.h"
#include "guitesthelpers.h"
#include "views/editor/varianttabbinding.h"
#include "views/reasoning/reasoningentriesmodel.h"
#include "views/reasoning/reasoningpanel.h"
#include "views/roundcontrol/roundcontrolpanel.h"
#include "views/settings/generalpage.h"
#include "views/settings/settingsdialog.h"
#include "views/variants/variantspanel.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QTest>
#include <QTextBrowser>

using namespace kforge;
using namespace Qt::StringLiterals;

namespace {

const QString docsSession = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/docs/h200-diag_matmul-gui.kforge");

// How many of `w`'s pixels stand out from its background (the colour at its top-left corner) by a lightness
// difference of more than 80 of 255: the ink a reader sees.
int inkPixels(QWidget *w)
{
    const QImage image = w->grab().toImage();
    const int background = image.pixelColor(1, 1).lightness();
    int ink = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            ink += std::abs(image.pixelColor(x, y).lightness() - background) > 80;
    return ink;
}

// How many of `w`'s pixels are drawn in about `colour` (antialiased edges aside).
int pixelsOf(QWidget *w, const QColor &colour)
{
    const QImage image = w->grab().toImage();
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            n += std::abs(c.red() - colour.red()) + std::abs(c.green() - colour.green())
                     + std::abs(c.blue() - colour.blue())
                 < 40;
        }
    return n;
}

} // namespace

class TestDarkTheme : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        const QString missing = test::guiTestSetUp(m_dir, {docsSession});
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
    }

    void everyPanelReadable()
    {
        Settings settings(m_dir.filePath(u"dark.ini"_s));
        settings.setWorkers({});
        settings.setEndpoints({});
        LogHub log;
        MainWindow w(settings, log);
        QVERIFY(test::showAt(w, {1280, 800}));
        const QString session = m_dir.filePath(u"dark.kforge"_s);
        QVERIFY(QFile::copy(docsSession, session));
        QFile::setPermissions(session, QFile::ReadOwner | QFile::WriteOwner);
        QVERIFY(w.openSession(session));
        QVERIFY(w.tabs()->showVariant(6) >= 0);

        // Settings → General → Theme: Dark, Apply, as a user switches it.
        w.actions()->settings->trigger();
        auto *dialog = w.findChild<SettingsDialog *>();
        QVERIFY(dialog && QTest::qWaitForWindowExposed(dialog));
        dialog->showPage(SettingsDialog::General);
        auto *general = static_cast<GeneralPage *>(dialog->page(SettingsDialog::General));
        general->themeBox()->setCurrentIndex(general->themeBox()->findText(u"Dark"_s));
        QTest::mouseClick(dialog->buttons()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        QCOMPARE(settings.theme(), Theme::Dark);
        QTRY_VERIFY(!dialog->isVisible());
        QTRY_VERIFY(w.palette().color(QPalette::Window).lightness() < 100);
        const QString dir = QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/darktheme");

        // The notice bar and Round Control's notice: text that reads on their boxes.
        QVERIFY(w.notice()->isVisible());
        QVERIFY2(inkPixels(w.notice()) > 500, qPrintable(QString::number(inkPixels(w.notice()))));
        RoundControlPanel *rounds = w.roundControlPanel();
        w.dockOf(rounds)->raise();
        QTest::qWait(100);
        auto *notice = rounds->findChild<QLabel *>(u"notice"_s);
        QVERIFY(notice && notice->isVisible());
        QVERIFY2(inkPixels(notice) > 300, qPrintable(QString::number(inkPixels(notice))));
        // Its links in the dark palette's link colour (they kept the light theme's dark blue).
        const QColor link = w.palette().color(QPalette::Link);
        QVERIFY2(pixelsOf(notice, link) > 50, qPrintable(QString::number(pixelsOf(notice, link))));
        test::saveShot(&w, dir, u"roundcontrol"_s);

        // Reasoning: the answer of #6 with the model's reasoning open.
        ReasoningPanel *reasoning = w.reasoningPanel();
        w.dockOf(reasoning)->raise();
        QTRY_COMPARE(reasoning->model()->rowCount(), 7);
        reasoning->showVariant(6);
        reasoning->setReasoningExpanded(true);
        reasoning->renderNow();
        QTest::qWait(100);
        QVERIFY(!reasoning->reasoningText().isEmpty());
        auto *thinking = reasoning->findChild<QTextBrowser *>(u"reasoningText"_s);
        QVERIFY(thinking && thinking->isVisible());
        const int ink = inkPixels(thinking->viewport());
        QVERIFY2(ink > 1000, qPrintable(u"the reasoning's text: %1 pixels of ink"_s.arg(ink)));
        // The header's links (variant #6, prompt) in the dark palette's link colour.
        QLabel *header = nullptr;
        for (QLabel *l : reasoning->findChildren<QLabel *>())
            if (l->text().contains(u"href=\"prompt:\""_s))
                header = l;
        QVERIFY(header);
        QVERIFY2(pixelsOf(header, link) > 50, qPrintable(QString::number(pixelsOf(header, link))));
        test::saveShot(&w, dir, u"reasoning"_s);

        for (QWidget *panel : {static_cast<QWidget *>(w.variantsPanel())}) {
            w.dockOf(panel)->raise();
            QTest::qWait(100);
            test::saveShot(&w, dir, w.dockOf(panel)->objectName());
        }
    }
};

QTEST_MAIN(TestDarkTheme)
#include "tst_darktheme.moc"
