// Issue 37, smaller item (a white notice box in the dark theme), the whole window: the H200 session in the real
// MainWindow, Settings → General → Dark applied as a user applies it, then every panel looked at. Texts that take their
// colour from the palette must stay readable on it: the model's reasoning (it was drawn in palette(mid), which the
// dark palette makes the colour of its background), the notice bar, Round Control's notice. And the links of the
// Compare page and of Reasoning's answer (the model's Markdown, whose links were drawn in the light theme's blue after
// a switch to dark) and of the Task page, light → dark → light. Screenshots go to test-artifacts/darktheme/.
#include "app/gui/mainactions.h"
#include "app/gui/mainwindow.h"
#include "app/gui/noticebar.h"
#include "core/log/loghub.h"
#include "core/settings/settings.h"
#include "guitesthelpers.h"
#include "core/session/sessionstore.h"
#include "views/compare/comparepanel.h"
#include "views/editor/varianttabbinding.h"
#include "views/reasoning/reasoningentriesmodel.h"
#include "views/reasoning/reasoningpanel.h"
#include "views/roundcontrol/roundcontrolpanel.h"
#include "views/settings/generalpage.h"
#include "views/settings/settingsdialog.h"
#include "views/task/taskpanel.h"
#include "views/variants/variantselection.h"
#include "views/variants/variantspanel.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QTest>
#include <QTextBlock>
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

// The colours the links of `doc` are drawn in (an anchor without its own colour: the palette's link colour, "-").
QStringList linkColours(const QTextDocument *doc)
{
    QStringList colours;
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it) {
            const QTextCharFormat f = it.fragment().charFormat();
            if (f.isAnchor() && !f.anchorHref().isEmpty()) {
                const QString c = f.foreground().style() == Qt::NoBrush ? u"-"_s : f.foreground().color().name();
                if (!colours.contains(c))
                    colours << c;
            }
        }
    return colours;
}

// The window at 1280×800 on a copy of the H200 session at `file`.
void openSessionCopy(MainWindow &w, const QString &file)
{
    QVERIFY(test::showAt(w, {1280, 800}));
    QVERIFY(QFile::copy(docsSession, file));
    QFile::setPermissions(file, QFile::ReadOwner | QFile::WriteOwner);
    QVERIFY(w.openSession(file));
}

// Settings → General → Theme: `name`, OK, as a user switches it.
void switchTheme(MainWindow &w, const QString &name)
{
    w.actions()->settings->trigger();
    auto *dialog = w.findChild<SettingsDialog *>();
    QVERIFY(dialog && QTest::qWaitForWindowExposed(dialog));
    dialog->showPage(SettingsDialog::General);
    auto *general = static_cast<GeneralPage *>(dialog->page(SettingsDialog::General));
    general->themeBox()->setCurrentIndex(general->themeBox()->findText(name));
    QTest::mouseClick(dialog->buttons()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    QTRY_VERIFY(!dialog->isVisible());
    QTest::qWait(100);
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
        openSessionCopy(w, m_dir.filePath(u"dark.kforge"_s));
        QVERIFY(w.tabs()->showVariant(6) >= 0);

        // Settings → General → Theme: Dark, OK, as a user switches it.
        switchTheme(w, u"Dark"_s);
        QCOMPARE(settings.theme(), Theme::Dark);
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

    // The links of the Compare page (the model's answers and the variants' analyses, Markdown that may link) and of
    // the Task page after each switch, light → dark → light: in the link colour of the palette of the moment, never
    // in the one they were first drawn in, and readable on their page.
    void linksFollowTheTheme()
    {
        Settings settings(m_dir.filePath(u"links.ini"_s));
        settings.setWorkers({});
        settings.setEndpoints({});
        LogHub log;
        MainWindow w(settings, log);
        openSessionCopy(w, m_dir.filePath(u"links.kforge"_s));
        switchTheme(w, u"Light"_s);
        PairAnalysis why;
        why.variantA = 6;
        why.variantB = 8;
        why.question = u"Why is #6 faster than #8?"_s;
        why.answer = u"#6 reads B once with float4 loads; see [the best practices guide]"
                     "(https://docs.nvidia.com/cuda/cuda-c-best-practices-guide/) and <https://example.org/roofline>."_s;
        why.created = QDateTime::currentDateTimeUtc();
        QVERIFY(w.session()->analyses().addPairAnalysis(why) > 0);
        w.selection()->setComparePair(6, 8);
        Q_EMIT w.variantsPanel()->compareRequested(6, 8);
        ComparePanel *compare = w.comparePanel();
        w.dockOf(compare)->raise();
        QTRY_VERIFY(compare->pairAnswersText().contains(u"best practices guide"_s));
        QTextBrowser *answers = nullptr;
        for (QTextBrowser *b : compare->findChildren<QTextBrowser *>())
            if (b->toPlainText().contains(u"best practices guide"_s))
                answers = b;
        QVERIFY(answers && answers->isVisible());
        // Reasoning: a variant whose analysis links.
        Variant linked;
        linked.origin = VariantOrigin::Manual;
        linked.label = u"linked"_s;
        const qint64 linkedId =
            w.session()->variants().add(linked, VariantTexts{w.session()->variants().source(6),
                                                             u"Like #6; the [roofline](https://example.org/roofline)."_s,
                                                             {}});
        QVERIFY(linkedId > 0);
        w.reasoningPanel()->showVariant(linkedId);
        w.reasoningPanel()->renderNow();
        QTextBrowser *reasoningAnswer = nullptr;
        for (QTextBrowser *b : w.reasoningPanel()->findChildren<QTextBrowser *>())
            if (b->toPlainText().contains(u"roofline"_s))
                reasoningAnswer = b;
        QVERIFY(reasoningAnswer);
        QList<QTextBrowser *> browsers = compare->findChildren<QTextBrowser *>();
        browsers << w.taskPanel()->view() << reasoningAnswer;
        const QString dir = QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/darktheme");

        QColor before;
        for (const QString &theme : {u"Light"_s, u"Dark"_s, u"Light"_s}) {
            if (theme != u"Light"_s || before.isValid())
                switchTheme(w, theme);
            const QPalette palette = w.palette();
            const QColor link = palette.color(QPalette::Link);
            for (QTextBrowser *b : std::as_const(browsers)) {
                const QStringList colours = linkColours(b->document());
                QVERIFY2(colours.isEmpty() || colours == QStringList{link.name()} || colours == QStringList{u"-"_s},
                         qPrintable(theme + u": "_s + b->parentWidget()->objectName() + u" links in "_s
                                    + colours.join(u", "_s) + u", the palette's "_s + link.name()));
            }
            QCOMPARE(linkColours(answers->document()).size(), 1);
            QCOMPARE(linkColours(reasoningAnswer->document()).size(), 1);
            // Drawn so: in the link colour, readable on the page, none left in the other theme's.
            w.dockOf(compare)->raise();
            QTest::qWait(100);
            QVERIFY2(pixelsOf(answers->viewport(), link) > 40,
                     qPrintable(theme + u": "_s + QString::number(pixelsOf(answers->viewport(), link))));
            if (before.isValid() && before != link)
                QVERIFY2(pixelsOf(answers->viewport(), before) < 5,
                         qPrintable(theme + u": "_s + QString::number(pixelsOf(answers->viewport(), before))));
            QVERIFY2(std::abs(link.lightness() - palette.color(QPalette::Base).lightness()) > 80,
                     qPrintable(link.name() + u" on "_s + palette.color(QPalette::Base).name()));
            test::saveShot(&w, dir, u"compare-links-"_s + theme.toLower());
            // The Task page: its text in the palette's, readable.
            w.dockOf(w.taskPanel())->raise();
            QTest::qWait(100);
            const int ink = inkPixels(w.taskPanel()->view()->viewport());
            QVERIFY2(ink > 1000, qPrintable(theme + u": the task's text: "_s + QString::number(ink)));
            test::saveShot(&w, dir, u"task-"_s + theme.toLower());
            before = link;
        }
    }
};

QTEST_MAIN(TestDarkTheme)
#include "tst_darktheme.moc"
