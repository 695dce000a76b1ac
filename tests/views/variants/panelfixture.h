#pragma once
// Shared by the panel tests: a real session on a temporary file (the diag_matmul task), stored results
// shaped like kforge-worker's EvalResult (timing, CUPTI trace, range-profiler metrics, roofline report and
// the "compile" object RoundRunner adds), and screenshots into the test artefact folder.
#include "core/session/sessionstore.h"

#include <QJsonObject>
#include <QString>
#include <QTemporaryDir>
#include <memory>

class QWidget;

namespace kforge::test {

struct KernelSpec {
    QString name;        // demangled, as CUPTI reports it
    double meanUs = 100; // duration of one launch
    int perRun = 1;
    int registers = 32;
    int staticSmem = 0;
    double flops = 0;     // FP32 flops per launch (metrics pass)
    double dramBytes = 0; // per launch
};

struct ResultSpec {
    QString verdict = QStringLiteral("correct");
    QString message;
    double speedup = 1.0;
    double referenceMs = 11.8;
    QList<KernelSpec> kernels; // empty: one kernel named after the speedup
    bool metrics = true;       // false: the worker's metrics pass failed (CUPTI diagnosis)
    QString metricsReason = QStringLiteral("The profiler needs access to the GPU performance counters.");
    QStringList flags;
    int spillBytes = 0;
};

// An EvalResult JSON object as kforge-worker sends it (and RoundRunner stores it).
QJsonObject workerResult(const ResultSpec &spec);
// The device_info a worker on an H200 reports (peaks measured).
QJsonObject h200Device();

class SessionFixture
{
public:
    SessionFixture();
    ~SessionFixture();
    // A new session of the diag_matmul task; false with the store's error.
    bool create();
    SessionStore &store() { return *m_store; }
    QString path() const;
    qint64 reference() const;
    // Adds a model variant (with analysis and design) and its evaluation. Returns its id.
    qint64 addMeasured(const QString &label, const ResultSpec &spec, const QList<qint64> &parents = {}, qint64 roundId = 0);
    qint64 addMeasured(const QString &label, double speedup, const QList<qint64> &parents = {}, qint64 roundId = 0);
    // Evaluates the reference (speedup 1).
    qint64 measureReference();

private:
    QTemporaryDir m_dir;
    std::unique_ptr<SessionStore> m_store;
};

// The diag_matmul task folder of the repository.
QString taskFolder();
// Saves a picture of `widget` (laid out at `size` when given) as KFORGE_TEST_ARTIFACT_DIR/panels/<name>.png.
QString saveScreenshot(QWidget *widget, const QString &name);

} // namespace kforge::test
