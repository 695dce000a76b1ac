// The export dialog offscreen: it previews every file, marks conflicts with the disk (and shows their
// diff), refuses to overwrite until asked, writes, and shows the CMake lines for an `into` export.
#include "exportfixture.h"

#include "views/export/exportdialog.h"
#include "views/export/exportplanmodel.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace kforge;
using namespace Qt::StringLiterals;

namespace {

int rowOf(const ExportPlanModel *m, const QString &path)
{
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->index(r, ExportPlanModel::PathColumn).data().toString() == path)
            return r;
    return -1;
}

ExportPlan::State stateOf(const ExportPlanModel *m, const QString &path)
{
    return ExportPlan::State(m->index(rowOf(m, path), 0).data(ExportPlanModel::StateRole).toInt());
}

} // namespace

class TestExportDialog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void previewConflictsAndWrite();
    void intoShowsLines();
    void missingFolder();
    void modelNewOffersItsOwnFormat();
    void torchKernelOffersItsOwnFormat();

private:
    bool waitForPlan(ExportDialog &d, QSignalSpy &spy);
    QTemporaryDir m_dir;
    std::optional<ExportInput> m_input;
};

void TestExportDialog::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QString error;
    m_input = test::inputFromTask(u"diag_matmul"_s, u"good"_s, 41.0, &error);
    QVERIFY2(m_input, qPrintable(error));
}

bool TestExportDialog::waitForPlan(ExportDialog &d, QSignalSpy &spy)
{
    spy.clear();
    d.refresh();
    // The continuation may already have run (an error plan is instant): count before waiting.
    return spy.count() > 0 || spy.wait(10000);
}

void TestExportDialog::previewConflictsAndWrite()
{
    ExportDialog d(*m_input);
    QAbstractItemModelTester tester(d.planModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy ready(&d, &ExportDialog::planReady);
    const QString out = m_dir.filePath(u"dialog"_s);
    d.setOutputFolder(out);
    QVERIFY(waitForPlan(d, ready));
    ExportPlanModel *m = d.planModel();
    QCOMPARE(m->rowCount(), 11);
    QCOMPARE(stateOf(m, u"src/diag_matmul_kernel.cu"_s), ExportPlan::State::New);
    QVERIFY(d.exportButton()->isEnabled());
    QVERIFY(!d.overwriteBox()->isEnabled());
    // The first file is previewed.
    QVERIFY(!d.preview()->toPlainText().isEmpty());
    d.fileView()->setCurrentIndex(m->index(rowOf(m, u"src/diag_matmul_kernel.cu"_s), 0));
    QVERIFY(d.preview()->toPlainText().contains(u"rowscale_vec4"_s));

    QSignalSpy exported(&d, &ExportDialog::exported);
    ready.clear();
    d.exportButton()->click();
    QVERIFY(exported.wait(10000));
    QTRY_VERIFY_WITH_TIMEOUT(ready.count() > 0, 10000); // the plan after writing
    QVERIFY(QFile::exists(out + u"/CMakeLists.txt"_s));
    QCOMPARE(stateOf(m, u"CMakeLists.txt"_s), ExportPlan::State::Identical);
    QVERIFY2(d.statusText().contains(u"Exported to"_s), qPrintable(d.statusText()));

    // The user edits the kernel on disk: a conflict, marked and diffed, and no export until overwrite is ticked.
    QFile kernel(out + u"/src/diag_matmul_kernel.cu"_s);
    QVERIFY(kernel.open(QIODevice::WriteOnly));
    kernel.write("// my own kernel\n");
    kernel.close();
    QVERIFY(waitForPlan(d, ready));
    const int row = rowOf(m, u"src/diag_matmul_kernel.cu"_s);
    QCOMPARE(stateOf(m, u"src/diag_matmul_kernel.cu"_s), ExportPlan::State::Conflict);
    QCOMPARE(m->index(row, ExportPlanModel::StateColumn).data().toString(),
             ExportPlanModel::stateText(ExportPlan::State::Conflict));
    QVERIFY(m->index(row, 0).data(Qt::ForegroundRole).isValid());
    QVERIFY(!m->index(row, 0).data(ExportPlanModel::ReasonRole).toString().isEmpty());
    QVERIFY(!d.exportButton()->isEnabled());
    d.fileView()->setCurrentIndex(m->index(row, 0));
    QVERIFY(d.preview()->toPlainText().contains(u"-// my own kernel"_s));
    QVERIFY(d.preview()->toPlainText().contains(u"+__global__ void rowscale_vec4"_s));
    d.exportButton()->click(); // disabled: nothing happens
    QVERIFY(!exported.wait(300));
    d.overwriteBox()->setChecked(true);
    QVERIFY(d.exportButton()->isEnabled());
    ready.clear();
    d.exportButton()->click();
    QVERIFY(exported.wait(10000));
    QTRY_VERIFY_WITH_TIMEOUT(ready.count() > 0, 10000);
    QVERIFY(kernel.open(QIODevice::ReadOnly));
    QVERIFY(kernel.readAll().contains("rowscale_vec4"));

    // Another format previews other files.
    d.setFormat(ExportFormat::Torch);
    QVERIFY(waitForPlan(d, ready));
    QVERIFY(rowOf(m, u"setup.py"_s) >= 0);
    QVERIFY(rowOf(m, u"CMakeLists.txt"_s) < 0);
}

void TestExportDialog::intoShowsLines()
{
    const QString host = m_dir.filePath(u"host"_s);
    QVERIFY(QDir().mkpath(host));
    QFile cm(host + u"/CMakeLists.txt"_s);
    QVERIFY(cm.open(QIODevice::WriteOnly));
    cm.write("project(app LANGUAGES CXX)\n");
    cm.close();
    ExportDialog d(*m_input);
    QSignalSpy ready(&d, &ExportDialog::planReady);
    d.setFormat(ExportFormat::Into);
    d.setOutputFolder(host);
    d.setIntoSubdir(u"ext/diag"_s);
    d.setLicenseText(u"SPDX-License-Identifier: MIT"_s);
    QVERIFY(waitForPlan(d, ready));
    QVERIFY(rowOf(d.planModel(), u"ext/diag/CMakeLists.txt"_s) >= 0);
    QVERIFY(d.cmakeLinesView()->toPlainText().contains(u"add_subdirectory(ext/diag)"_s));
    QVERIFY(d.cmakeLinesView()->toPlainText().contains(u"\nenable_language(CUDA)"_s));
    d.fileView()->setCurrentIndex(d.planModel()->index(rowOf(d.planModel(), u"ext/diag/src/diag_matmul.cpp"_s), 0));
    QVERIFY(d.preview()->toPlainText().startsWith(u"// SPDX-License-Identifier: MIT"_s));

    // Not a CMake project: said so, nothing to export.
    d.setOutputFolder(m_dir.filePath(u"nothing-here"_s));
    QVERIFY(waitForPlan(d, ready));
    QCOMPARE(d.planModel()->rowCount(), 0);
    QVERIFY(d.statusText().contains(u"CMakeLists.txt"_s));
    QVERIFY(!d.exportButton()->isEnabled());
}

void TestExportDialog::missingFolder()
{
    ExportDialog d(*m_input);
    QSignalSpy ready(&d, &ExportDialog::planReady);
    d.setOutputFolder(QString());
    QVERIFY(waitForPlan(d, ready));
    QCOMPARE(d.planModel()->rowCount(), 0);
    QVERIFY(!d.exportButton()->isEnabled());
}

// A torch task's ModelNew variant: the one format it exports as is offered and chosen; the files are its own.
void TestExportDialog::modelNewOffersItsOwnFormat()
{
    QString error;
    const auto input = test::inputFromTask(u"torch_row_sum"_s, u"blocked"_s, 3.0, &error);
    QVERIFY2(input, qPrintable(error));
    ExportDialog d(*input);
    QSignalSpy ready(&d, &ExportDialog::planReady);
    const auto *format = d.findChild<QComboBox *>();
    QVERIFY(format);
    QCOMPARE(format->count(), 1);
    QCOMPARE(ExportFormat(format->currentData().toInt()), ExportFormat::Torch);
    QCOMPARE(d.options().format, ExportFormat::Torch);
    d.setFormat(ExportFormat::CMake); // not offered: the choice stays
    QCOMPARE(d.options().format, ExportFormat::Torch);
    d.setOutputFolder(m_dir.filePath(u"modelnew"_s));
    QVERIFY(waitForPlan(d, ready));
    ExportPlanModel *m = d.planModel();
    QCOMPARE(m->rowCount(), 6);
    for (const QString &file : {u"model_new.py"_s, u"reference.py"_s, u"test_model_new.py"_s, u"bench_model_new.py"_s})
        QCOMPARE(stateOf(m, file), ExportPlan::State::New);
    QVERIFY(d.exportButton()->isEnabled());
    d.fileView()->setCurrentIndex(m->index(rowOf(m, u"model_new.py"_s), 0));
    QCOMPARE(d.preview()->toPlainText(), input->variantSource);
}

// A torch task's .cu variant: the one format it exports as (the extension with a ModelNew module) is offered and chosen.
void TestExportDialog::torchKernelOffersItsOwnFormat()
{
    QString error;
    const auto input = test::inputFromTask(u"torch_softmax"_s, u"online_warp"_s, 3.0, &error);
    QVERIFY2(input, qPrintable(error));
    ExportDialog d(*input);
    QSignalSpy ready(&d, &ExportDialog::planReady);
    const auto *format = d.findChild<QComboBox *>();
    QVERIFY(format);
    QCOMPARE(format->count(), 1);
    QVERIFY2(format->currentText().contains(u"ModelNew"_s), qPrintable(format->currentText()));
    QCOMPARE(d.options().format, ExportFormat::Torch);
    d.setFormat(ExportFormat::Into); // not offered: the choice stays
    QCOMPARE(d.options().format, ExportFormat::Torch);
    d.setOutputFolder(m_dir.filePath(u"torch-kernel"_s));
    QVERIFY(waitForPlan(d, ready));
    ExportPlanModel *m = d.planModel();
    QCOMPARE(m->rowCount(), 10);
    for (const QString &file : {u"model_new.py"_s, u"setup.py"_s, u"torch_softmax_binding.cpp"_s,
                                u"torch_softmax_kernel.cu"_s, u"test_model_new.py"_s})
        QCOMPARE(stateOf(m, file), ExportPlan::State::New);
    QVERIFY(d.exportButton()->isEnabled());
    d.fileView()->setCurrentIndex(m->index(rowOf(m, u"torch_softmax_kernel.cu"_s), 0));
    QCOMPARE(d.preview()->toPlainText(), input->variantSource);
}

QTEST_MAIN(TestExportDialog)
#include "tst_exportdialog.moc"
