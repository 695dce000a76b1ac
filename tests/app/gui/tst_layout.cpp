// The main window's size and default layout on the screens of issue 14 (1280×800 and 1920×1080, English and
// Chinese), on a real H200 session: the editor has most of the space, the Variants columns and the chart
// legends are readable, no content (a failed variant's long status) raises the minimum size, a saved geometry
// comes back inside the screen, buttons are not clipped, and the labels agree (Settings → Models, the
// compiler page, the workers' names in the log, Diff's A and B as Compare's). Screenshots go to
// test-artifacts/layout/, named by platform, size and language (run it under Xvfb with QT_QPA_PLATFORM=xcb too).
#include "app/gui/mainwindow.h"
#include "core/log/loghub.h"
#include "core/session/sessionstore.h"
#include "core/settings/settings.h"
#include "core/settings/translations.h"
#include "core/workbench/workbench.h"
#include "guitesthelpers.h"
#include "views/charts/chartspanel.h"
#include "views/charts/kerneltimechart.h"
#include "views/charts/rooflinechart.h"
#include "views/charts/speedupchart.h"
#include "views/compare/comparemetricsmodel.h"
#include "views/compare/comparepanel.h"
#include "views/diff/diffview.h"
#include "views/editor/kerneleditor.h"
#include "views/editor/varianttabbinding.h"
#include "views/reasoning/reasoningpanel.h"
#include "views/roundcontrol/roundcontrolpanel.h"
#include "views/settings/compilerpage.h"
#include "views/settings/settingsdialog.h"
#include "views/settings/settingspage.h"
#include "views/settings/workerspage.h"
#include "views/variants/variantselection.h"
#include "views/variants/variantsmodel.h"
#include "views/variants/variantspanel.h"

#include <Qsci/qsciscintilla.h>
#include <qcustomplot.h>

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QScreen>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace kforge;

namespace {
constexpr qint64 incorrectVariant = 5; // R1.2 of docs/h200-diag_matmul-gui.kforge: "incorrect", a long message
constexpr qint64 fastVariant = 6;      // R1.1, 65.2×
constexpr qint64 otherVariant = 8;     // R2.1, 63.4×

QString shotPath(const QString &name)
{
    const QString dir = QStringLiteral(KFORGE_TEST_ARTIFACT_DIR "/layout");
    QDir().mkpath(dir);
    return dir + u'/' + name + u'-' + QGuiApplication::platformName() + QStringLiteral(".png");
}

void shoot(QWidget *w, const QString &name)
{
    QTest::qWait(150); // queued layouts and replots first
    const QString file = shotPath(name);
    QVERIFY(w->grab().save(file));
    qInfo("screenshot: %s", qPrintable(file));
}

int linesOnScreen(QsciScintilla *e)
{
    return int(e->SendScintilla(QsciScintilla::SCI_LINESONSCREEN));
}

// The sections of `header` whose title does not fit their width.
QStringList elidedSections(const QHeaderView *header)
{
    QStringList out;
    const QAbstractItemModel *model = header->model();
    for (int c = 0; c < header->count(); ++c) {
        if (header->isSectionHidden(c))
            continue;
        const QString title = model->headerData(c, Qt::Horizontal).toString();
        // The style's padding and the sort indicator take a little of the section.
        const int need = header->fontMetrics().horizontalAdvance(title) + 12;
        if (header->sectionSize(c) < need)
            out << QStringLiteral("%1 (%2 < %3)").arg(title).arg(header->sectionSize(c)).arg(need);
    }
    return out;
}

// Buttons with text that are shown smaller than their text needs (tool buttons in a tool bar's overflow
// are hidden, not clipped).
QStringList clippedButtons(QWidget *root)
{
    QStringList out;
    for (QAbstractButton *b : root->findChildren<QAbstractButton *>()) {
        if (!b->isVisible() || b->text().isEmpty() || qobject_cast<QCheckBox *>(b) || qobject_cast<QRadioButton *>(b))
            continue;
        if (auto *t = qobject_cast<QToolButton *>(b); t && t->toolButtonStyle() == Qt::ToolButtonIconOnly)
            continue;
        const QSize need = b->minimumSizeHint();
        if (b->width() < need.width() || b->height() < need.height())
            out << QStringLiteral("%1 %2×%3 < %4×%5")
                       .arg(b->text())
                       .arg(b->width())
                       .arg(b->height())
                       .arg(need.width())
                       .arg(need.height());
        // Cut by what holds it (a scrolled or too narrow parent); a dock behind another tab shows nothing.
        else if (const QRect seen = b->visibleRegion().boundingRect(); !seen.isEmpty() && seen.size() != b->size())
            out << QStringLiteral("%1 shows %2×%3 of %4×%5")
                       .arg(b->text())
                       .arg(seen.width())
                       .arg(seen.height())
                       .arg(b->width())
                       .arg(b->height());
    }
    return out;
}

// What each part of the window asks for at least (a failure's explanation).
QString minimumSizes(MainWindow *w)
{
    QStringList out;
    const auto sz = [](const QSize &s) { return QStringLiteral("%1×%2").arg(s.width()).arg(s.height()); };
    out << QStringLiteral("window ") + sz(w->minimumSizeHint())
        << QStringLiteral("central ") + sz(w->centralWidget()->minimumSizeHint());
    for (QDockWidget *d : w->findChildren<QDockWidget *>())
        out << d->objectName() + u' ' + sz(d->minimumSizeHint()) + QStringLiteral(" shown ") + sz(d->size());
    for (QWidget *c : w->editor()->findChildren<QWidget *>())
        if (c->isVisible() && c->minimumSizeHint().width() > 500)
            out << QStringLiteral("editor part %1 %2 %3")
                       .arg(QLatin1String(c->metaObject()->className()), c->objectName(), sz(c->minimumSizeHint()));
    return out.join(u'\n');
}

QString legendProblem(QCustomPlot *plot)
{
    if (!plot->isVisible() || !plot->legend || !plot->legend->visible() || plot->legend->itemCount() == 0)
        return {};
    // The vertical axis title is written along the axis: it must not be longer than the axis.
    if (QCPAxis *y = plot->yAxis; y && !y->label().isEmpty()) {
        const int length = QFontMetrics(y->labelFont()).horizontalAdvance(y->label());
        if (length > y->axisRect()->height())
            return QStringLiteral("%1: the axis title \"%2\" (%3 px) is longer than the axis (%4 px)")
                .arg(QLatin1String(plot->metaObject()->className()), y->label())
                .arg(length)
                .arg(y->axisRect()->height());
    }
    const QRect legend = plot->legend->outerRect();
    if (!plot->rect().contains(legend))
        return QStringLiteral("%1: legend %2,%3 %4×%5 outside the plot %6×%7")
            .arg(QLatin1String(plot->metaObject()->className()))
            .arg(legend.x())
            .arg(legend.y())
            .arg(legend.width())
            .arg(legend.height())
            .arg(plot->width())
            .arg(plot->height());
    for (int i = 0; i < plot->legend->itemCount(); ++i) {
        const QCPAbstractLegendItem *entry = plot->legend->item(i);
        if (!entry)
            continue;
        const QRect item = entry->outerRect();
        if (!legend.contains(item) || item.height() < plot->legend->font().pointSize())
            return QStringLiteral("%1: legend item %2 is cut").arg(QLatin1String(plot->metaObject()->className())).arg(i);
    }
    return {};
}
} // namespace

class TestLayout : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        const QString missing = test::guiTestSetUp(m_dir);
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
    }

    void cleanup() { Translations::install(QStringLiteral("en")); }

    void defaultLayout_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("language");
        for (const QSize size : {QSize(1280, 800), QSize(1920, 1080)})
            for (const QString &language : {QStringLiteral("en"), QStringLiteral("zh_CN")})
                QTest::addRow("%dx%d-%s", size.width(), size.height(), qPrintable(language)) << size << language;
    }

    void defaultLayout()
    {
        QFETCH(QSize, size);
        QFETCH(QString, language);
        const QString tag = QString::fromLatin1(QTest::currentDataTag());
        Translations::install(language);
        Settings settings(m_dir.filePath(QStringLiteral("layout-%1.ini").arg(tag)));
        settings.setWorkers({});
        LogHub log;
        MainWindow w(settings, log);
        QVERIFY(test::showAt(w, size));
        QVERIFY(w.openSession(sessionCopy(tag)));
        // What a user looks at after a round: a measured variant in the editor...
        QVERIFY(w.tabs()->showVariant(fastVariant) >= 0);
        QTest::qWait(300);
        if (w.size() != size)
            qInfo().noquote() << minimumSizes(&w);
        QCOMPARE(w.size(), size);

        // The code has most of the space.
        QsciScintilla *e = w.editor()->currentEditor();
        QVERIFY(e);
        const int lines = linesOnScreen(e);
        const double share = double(w.editor()->width() * w.editor()->height()) / (w.width() * w.height());
        qInfo("%s: the editor shows %d lines, %.0f%% of the window", qPrintable(tag), lines, share * 100);
        QVERIFY2(lines >= (size.height() >= 1080 ? 36 : 22), qPrintable(QString::number(lines)));
        QVERIFY2(share >= 0.35, qPrintable(QString::number(share)));
        shoot(&w, QStringLiteral("mainwindow-%1-start").arg(tag));

        // ...and two of them compared: the diff under the editor makes room for two panes of code.
        w.selection()->setComparePair(fastVariant, otherVariant);
        Q_EMIT w.variantsPanel()->compareRequested(fastVariant, otherVariant);
        QTest::qWait(300);
        QCOMPARE(w.size(), size);
        QVERIFY2(linesOnScreen(e) >= 10, qPrintable(QString::number(linesOnScreen(e))));

        // The Compare tab and the pair's diff under the editor, as comparing leaves them.
        QVERIFY2(clippedButtons(&w).isEmpty(), qPrintable(clippedButtons(&w).join(QStringLiteral(", "))));
        QVERIFY2(w.diffView()->leftEditor()->height() > 8 * w.diffView()->leftEditor()->textHeight(0),
                 qPrintable(QStringLiteral("%1 in a dock of %2")
                                .arg(w.diffView()->leftEditor()->height())
                                .arg(w.dockOf(w.diffView())->height())));
        shoot(&w, QStringLiteral("mainwindow-%1-compare").arg(tag));

        // The Variants table: no header title is cut, the main columns are on screen without scrolling, and
        // the Time column keeps its unit.
        w.dockOf(w.variantsPanel())->raise();
        QTest::qWait(150);
        QTableView *variants = w.variantsPanel()->view();
        QHeaderView *vh = variants->horizontalHeader();
        QVERIFY2(elidedSections(vh).isEmpty(), qPrintable(elidedSections(vh).join(QStringLiteral(", "))));
        for (int c : {int(VariantsModel::Id), int(VariantsModel::Label), int(VariantsModel::Status),
                      int(VariantsModel::Speedup), int(VariantsModel::Time)}) {
            const int right = vh->sectionViewportPosition(c) + vh->sectionSize(c);
            QVERIFY2(vh->sectionViewportPosition(c) >= 0 && right <= variants->viewport()->width(),
                     qPrintable(
                         QStringLiteral("column %1 ends at %2 of %3").arg(c).arg(right).arg(variants->viewport()->width())));
        }
        const QAbstractItemModel *vm = variants->model();
        for (int row = 0; row < vm->rowCount(); ++row) {
            const QString time = vm->index(row, VariantsModel::Time).data().toString();
            if (time.isEmpty())
                continue;
            QVERIFY2(variants->fontMetrics().horizontalAdvance(time) + 8 <= vh->sectionSize(VariantsModel::Time),
                     qPrintable(time));
        }

        // Compare shows its headers whole and enough metric rows to read the pair.
        QDockWidget *compareDock = w.dockOf(w.comparePanel());
        compareDock->raise();
        QTest::qWait(150);
        QVERIFY(compareDock->isVisible());
        QTableView *metrics = nullptr;
        for (QTableView *t : w.comparePanel()->findChildren<QTableView *>())
            if (t->model() == w.comparePanel()->metricsModel())
                metrics = t;
        QVERIFY(metrics);
        QVERIFY2(elidedSections(metrics->horizontalHeader()).isEmpty(),
                 qPrintable(elidedSections(metrics->horizontalHeader()).join(QStringLiteral(", "))));
        const int rowsShown = metrics->viewport()->height() / std::max(1, metrics->rowHeight(0));
        qInfo("%s: Compare shows %d metric rows", qPrintable(tag), rowsShown);
        QVERIFY2(rowsShown >= 5, qPrintable(QString::number(rowsShown)));

        // The charts, each legend and axis title inside its plot.
        w.dockOf(w.chartsPanel())->raise();
        QTest::qWait(150);
        ChartsPanel *charts = w.chartsPanel();
        QVERIFY(charts->isVisible());
        for (int i = 0; i < charts->tabs()->count(); ++i) {
            charts->tabs()->setCurrentIndex(i);
            QTest::qWait(150);
            for (QCustomPlot *plot : charts->findChildren<QCustomPlot *>()) {
                plot->replot();
                const QString problem = legendProblem(plot);
                QVERIFY2(problem.isEmpty(), qPrintable(problem));
            }
        }
        charts->tabs()->setCurrentIndex(0);
        QVERIFY2(clippedButtons(&w).isEmpty(), qPrintable(clippedButtons(&w).join(QStringLiteral(", "))));
        shoot(&w, QStringLiteral("mainwindow-%1-charts").arg(tag));
        w.dockOf(w.variantsPanel())->raise();

        // Nothing asks for more than this screen, and no button is cut short.
        QVERIFY2(w.minimumSizeHint().width() <= size.width() && w.minimumSizeHint().height() <= size.height(),
                 qPrintable(QStringLiteral("%1×%2").arg(w.minimumSizeHint().width()).arg(w.minimumSizeHint().height())));
        QVERIFY2(clippedButtons(&w).isEmpty(), qPrintable(clippedButtons(&w).join(QStringLiteral(", "))));
        shoot(&w, QStringLiteral("mainwindow-%1").arg(tag));
        // The other panels of the right column, at the same size.
        for (QWidget *panel : {static_cast<QWidget *>(w.roundControlPanel()), static_cast<QWidget *>(w.reasoningPanel())}) {
            w.dockOf(panel)->raise();
            QTest::qWait(100);
            shoot(&w, QStringLiteral("mainwindow-%1-%2").arg(tag, w.dockOf(panel)->objectName()));

            QVERIFY2(clippedButtons(&w).isEmpty(), qPrintable(clippedButtons(&w).join(QStringLiteral(", "))));
        }
    }

    void longStatusDoesNotWidenTheWindow_data()
    {
        QTest::addColumn<QString>("language");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
    }

    void longStatusDoesNotWidenTheWindow()
    {
        QFETCH(QString, language);
        Translations::install(language);
        Settings settings(m_dir.filePath(QStringLiteral("wide-%1.ini").arg(language)));
        settings.setWorkers({});
        LogHub log;
        MainWindow w(settings, log);
        QVERIFY(test::showAt(w, {1280, 800}));
        QVERIFY(w.openSession(sessionCopy(QStringLiteral("wide-") + language)));
        const int tab = w.tabs()->showVariant(incorrectVariant);
        QVERIFY(tab >= 0);
        w.selection()->setCurrent(incorrectVariant);
        QTest::qWait(200);
        const QString status = w.editor()->status(tab);
        QVERIFY2(QFontMetrics(w.font()).horizontalAdvance(status) > 700, qPrintable(status));
        QCOMPARE(w.size(), QSize(1280, 800));
        QVERIFY2(w.minimumSizeHint().width() < 1280, qPrintable(QString::number(w.minimumSizeHint().width())));
        QVERIFY2(w.minimumWidth() < 1280, qPrintable(QString::number(w.minimumWidth())));
        if (language == u"zh_CN")
            QVERIFY2(!status.contains(QLatin1String("incorrect")), qPrintable(status)); // the verdict in Chinese
        shoot(&w, QStringLiteral("mainwindow-incorrect-1280x800-%1").arg(language));

        // And the geometry saved now brings the next start back at this size.
        w.close();
        MainWindow again(settings, log);
        QVERIFY(again.width() <= 1280);
    }

    void restoredGeometryFitsTheScreen()
    {
        const QString ini = m_dir.filePath(QStringLiteral("geometry.ini"));
        const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
        {
            Settings settings(ini);
            LogHub log;
            MainWindow w(settings, log);
            // What an earlier release saved after content had widened it, placed partly off the screen.
            w.setGeometry(QRect(available.topLeft() + QPoint(-300, 40),
                                QSize(available.width() + 1180, available.height() + 400)));
            settings.setWindowGeometry(w.saveGeometry());
        }
        Settings settings(ini);
        LogHub log;
        MainWindow w(settings, log);
        QVERIFY2(available.contains(w.geometry()), qPrintable(QStringLiteral("%1,%2 %3×%4 in %5×%6")
                                                                  .arg(w.x())
                                                                  .arg(w.y())
                                                                  .arg(w.width())
                                                                  .arg(w.height())
                                                                  .arg(available.width())
                                                                  .arg(available.height())));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.width() <= available.width());
        // A first start fits too.
        Settings fresh(m_dir.filePath(QStringLiteral("first-start.ini")));
        MainWindow first(fresh, log);
        QVERIFY(available.contains(first.geometry()));
    }

    void labelsAgree()
    {
        Settings settings(m_dir.filePath(QStringLiteral("labels.ini")));
        settings.setEndpoints({});
        SettingsDialog dialog(settings);
        // The notice of Round Control names the settings page by its title.
        const QString models = dialog.page(SettingsDialog::Models)->title();
        LogHub log;
        MainWindow w(settings, log);
        QVERIFY2(w.roundControlPanel()->noticeText().contains(QStringLiteral("Settings → ") + models),
                 qPrintable(w.roundControlPanel()->noticeText()));
        // The compiler page's first label is a mnemonic for the nvcc field, not a literal "&nvcc:".
        auto *nvccLabel = dialog.page(SettingsDialog::Compiler)->findChild<QLabel *>(QStringLiteral("nvccLabel"));
        QVERIFY(nvccLabel);
        QVERIFY(qobject_cast<QLineEdit *>(nvccLabel->buddy()));
        // "Kernel transfer" is explained where it is chosen.
        auto *workers = static_cast<WorkersPage *>(dialog.page(SettingsDialog::Workers));
        auto *note = workers->findChild<QLabel *>(QStringLiteral("transferNote"));
        QVERIFY(note && note->text().contains(QLatin1String("Automatic")) && note->text().contains(QLatin1String("ssh")));
        QVERIFY(!workers->table()->horizontalHeaderItem(2)->toolTip().isEmpty());
        dialog.resize(dialog.sizeHint());
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        dialog.showPage(SettingsDialog::Compiler);
        shoot(&dialog, QStringLiteral("settings-compiler"));
        dialog.showPage(SettingsDialog::Workers);
        shoot(&dialog, QStringLiteral("settings-workers"));
    }

    void logNamesTheWorker()
    {
        Settings settings(m_dir.filePath(QStringLiteral("worker-name.ini")));
        WorkerConfig broken;
        broken.name = QStringLiteral("h200-box");
        broken.command = QStringLiteral("/bin/false");
        settings.setWorkers({broken});
        LogHub log;
        MainWindow w(settings, log);
        QCOMPARE(w.workbench()->workerName(0), QStringLiteral("h200-box"));
        const auto named = [&log] {
            const auto entries = log.entries();
            return std::any_of(entries.begin(), entries.end(), [](const LogEntry &e) {
                return e.message.contains(QLatin1String("GPU worker h200-box:"));
            });
        };
        QTRY_VERIFY_WITH_TIMEOUT(named(), 20000);
        for (const LogEntry &e : log.entries())
            QVERIFY2(!e.message.contains(QLatin1String("GPU worker 1")), qPrintable(e.message));
    }

    void diffShowsCompareAandB()
    {
        Settings settings(m_dir.filePath(QStringLiteral("diff.ini")));
        settings.setWorkers({});
        LogHub log;
        MainWindow w(settings, log);
        w.resize(1280, 800);
        w.show();
        QVERIFY(w.openSession(sessionCopy(QStringLiteral("diff"))));
        // The Variants panel makes the faster one A: R1.1 (65.2×) against R2.1 (63.4×).
        w.selection()->setComparePair(fastVariant, otherVariant);
        Q_EMIT w.variantsPanel()->compareRequested(fastVariant, otherVariant);
        QCOMPARE(w.comparePanel()->variantA(), fastVariant);
        QVERIFY2(w.diffView()->leftTitle().startsWith(QStringLiteral("A: #%1 ").arg(fastVariant)),
                 qPrintable(w.diffView()->leftTitle()));
        QVERIFY2(w.diffView()->rightTitle().startsWith(QStringLiteral("B: #%1 ").arg(otherVariant)),
                 qPrintable(w.diffView()->rightTitle()));
        QVERIFY(w.dockOf(w.diffView())->isVisible());
        QVERIFY(w.dockOf(w.comparePanel())->isVisible()); // both at once
        QCOMPARE(w.diffView()->leftEditor()->text().isEmpty(), false);
        QVERIFY(w.diffView()->leftEditor()->text() == w.session()->variants().source(fastVariant)
                || w.diffView()->model().rowCount() > 0);
        shoot(&w, QStringLiteral("mainwindow-compare-diff-1280x800"));
        // Swapped in Compare: the Diff swaps too.
        w.selection()->setComparePair(otherVariant, fastVariant);
        QCOMPARE(w.comparePanel()->variantA(), otherVariant);
        QVERIFY2(w.diffView()->leftTitle().startsWith(QStringLiteral("A: #%1 ").arg(otherVariant)),
                 qPrintable(w.diffView()->leftTitle()));
        QVERIFY2(w.diffView()->rightTitle().startsWith(QStringLiteral("B: #%1 ").arg(fastVariant)),
                 qPrintable(w.diffView()->rightTitle()));
    }

    void qtDialogsInChinese()
    {
        // Qt's own buttons (OK, Cancel, Apply) come from qtbase_zh_CN.qm, which Debian ships in qt6-translations-l10n.
        Translations::install(QStringLiteral("zh_CN"));
        QVERIFY2(Translations::qtCatalogueLoaded(),
                 "qtbase_zh_CN.qm was not found: install qt6-translations-l10n (scripts/setup.sh does)");
        Settings settings(m_dir.filePath(QStringLiteral("qt-zh.ini")));
        SettingsDialog dialog(settings);
        QCOMPARE(dialog.buttons()->button(QDialogButtonBox::Cancel)->text(), QStringLiteral("取消"));
        dialog.resize(dialog.sizeHint());
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        for (int p = 0; p < dialog.pageCount(); ++p) {
            dialog.showPage(SettingsDialog::Page(p));
            QTest::qWait(50);
            QVERIFY2(clippedButtons(&dialog).isEmpty(), qPrintable(clippedButtons(&dialog).join(QStringLiteral(", "))));
        }
        dialog.showPage(SettingsDialog::Workers);
        shoot(&dialog, QStringLiteral("settings-workers-zh_CN"));
    }

private:
    // A copy of the H200 session, so the test never writes to docs/.
    QString sessionCopy(const QString &name)
    {
        const QString file = m_dir.filePath(name + QStringLiteral(".kforge"));
        QFile::remove(file);
        if (!QFile::copy(QStringLiteral(KFORGE_TEST_SOURCE_DIR "/docs/h200-diag_matmul-gui.kforge"), file))
            return {};
        QFile::setPermissions(file, QFile::ReadOwner | QFile::WriteOwner);
        return file;
    }

    QTemporaryDir m_dir;
};

QTEST_MAIN(TestLayout)
#include "tst_layout.moc"
