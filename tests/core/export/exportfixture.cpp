#include "exportfixture.h"

#include "core/task/task.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QProcess>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace kforge::test {

QString builtinTaskFolder(const QString &name)
{
    const QString builtin = QStringLiteral(KFORGE_TEST_SOURCE_DIR "/resources/tasks/") + name;
    // Tasks made for the tests (linear_rowsum) live with the fixtures.
    return QFileInfo::exists(builtin) ? builtin : QStringLiteral(KFORGE_TEST_SOURCE_DIR "/tests/fixtures/tasks/") + name;
}

QJsonObject correctResult(double referenceMs, double candidateMs, const QStringList &flags)
{
    const QJsonObject ref{{u"median_ms"_s, referenceMs},
                          {u"mean_ms"_s, referenceMs * 1.01},
                          {u"min_ms"_s, referenceMs * 0.98},
                          {u"p10_ms"_s, referenceMs * 0.99},
                          {u"p90_ms"_s, referenceMs * 1.02},
                          {u"cv"_s, 0.012},
                          {u"runs"_s, 300}};
    const QJsonObject cand{{u"median_ms"_s, candidateMs},
                           {u"mean_ms"_s, candidateMs * 1.01},
                           {u"min_ms"_s, candidateMs * 0.98},
                           {u"p10_ms"_s, candidateMs * 0.99},
                           {u"p90_ms"_s, candidateMs * 1.02},
                           {u"cv"_s, 0.021},
                           {u"runs"_s, 300}};
    const QJsonObject verification{{u"trials"_s, 5},
                                   {u"max_abs_err"_s, 0.0},
                                   {u"max_rel_err"_s, 0.0},
                                   {u"mismatches"_s, 0},
                                   {u"nan_count"_s, 0},
                                   {u"inf_count"_s, 0},
                                   {u"input_mutated"_s, false},
                                   {u"output_depends_on_inputs"_s, true}};
    const QJsonObject roofline{{u"floor_ms"_s, candidateMs * 0.8}, {u"fraction_of_floor"_s, 0.8}};
    return QJsonObject{
        {u"verdict"_s, u"correct"_s},
        {u"message"_s, QString()},
        {u"verification"_s, verification},
        {u"timing"_s, QJsonObject{{u"reference"_s, ref}, {u"candidate"_s, cand}, {u"speedup"_s, referenceMs / candidateMs}}},
        {u"flags"_s, QJsonArray::fromStringList(flags)},
        {u"roofline"_s, roofline},
    };
}

QJsonObject h200Device()
{
    return QJsonObject{{u"index"_s, 0},
                       {u"name"_s, u"NVIDIA H200"_s},
                       {u"cc_major"_s, 9},
                       {u"cc_minor"_s, 0},
                       {u"arch"_s, u"sm_90"_s},
                       {u"sm_count"_s, 132},
                       {u"driver_version"_s, u"580.65.06"_s},
                       {u"runtime_version"_s, u"13000"_s},
                       {u"peak_copy_gbps"_s, 4100.0},
                       {u"peak_fma_gflops"_s, 60000.0}};
}

qint64 variantByLabel(const SessionStore &store, const QString &label)
{
    for (const auto &v : store.population().variants())
        if (v.label == label)
            return v.id;
    return 0;
}

bool makeSession(SessionStore &store, const QString &path, const QString &task, const QHash<QString, double> &speedups,
                 QString *error)
{
    if (!store.create(path, builtinTaskFolder(task), true)) {
        *error = store.errorString();
        return false;
    }
    const Variant *ref = store.population().reference();
    if (!ref) {
        *error = u"no reference variant"_s;
        return false;
    }
    const qint64 refId = ref->id;
    const QStringList flags{u"-O3"_s, u"-lineinfo"_s, u"-arch=sm_90"_s, u"-lcublas"_s};
    if (!store.evaluations().add(Evaluation::fromResult(refId, correctResult(3.0, 3.0), h200Device(), flags, u"13.0.88"_s))) {
        *error = store.errorString();
        return false;
    }
    for (const auto &v : store.population().variants()) {
        if (v.id == refId || !speedups.contains(v.label))
            continue;
        const double s = speedups.value(v.label);
        if (!store.evaluations().add(
                Evaluation::fromResult(v.id, correctResult(3.0, 3.0 / s), h200Device(), flags, u"13.0.88"_s))) {
            *error = store.errorString();
            return false;
        }
    }
    return true;
}

std::optional<ExportInput> inputFromTask(const QString &task, const QString &label, double speedup, QString *error)
{
    const TaskLoadResult loaded = Task::load(builtinTaskFolder(task));
    if (!loaded.ok()) {
        *error = loaded.error.message();
        return std::nullopt;
    }
    const Task &t = *loaded.task;
    const runtime::TaskSpec &spec = t.spec();
    ExportInput in;
    in.task = spec;
    QFile json(builtinTaskFolder(task) + u"/task.json"_s);
    if (json.open(QIODevice::ReadOnly))
        in.taskJson = QString::fromUtf8(json.readAll());
    in.taskKind = t.kind();
    in.referenceSource = t.referenceSource();
    for (const auto &v : spec.variants)
        if (QString::fromStdString(v.label) == label) {
            in.variantSource = QString::fromStdString(v.source);
            for (const auto &f : v.nvccFlags)
                in.variantNvccFlags << QString::fromStdString(f);
        }
    if (in.variantSource.isEmpty()) {
        *error = u"no variant %1 in %2"_s.arg(label, task);
        return std::nullopt;
    }
    in.variantId = 7;
    in.variantLabel = label;
    in.lineage = {ExportLineageStep{1, u"reference"_s, u"reference"_s, 0, 1.0},
                  ExportLineageStep{7, label, u"imported"_s, 0, speedup}};
    ExportProvenance &p = in.provenance;
    p.gpuName = u"NVIDIA H200"_s;
    p.ccMajor = 9;
    p.arch = u"sm_90"_s;
    p.driverVersion = u"580.65.06"_s;
    p.nvccVersion = u"13.0.88"_s;
    p.nvccFlags = QStringList{u"-O3"_s, u"-lineinfo"_s, u"-arch=sm_90"_s} + in.buildFlags();
    p.referenceMedianMs = 3.0;
    p.candidateMedianMs = 3.0 / speedup;
    p.speedup = speedup;
    p.speedOfLightPct = 80.0;
    p.variantCreated = QDateTime(QDate(2026, 11, 30), QTime(10, 0), Qt::UTC);
    p.evaluated = QDateTime(QDate(2026, 11, 30), QTime(10, 5), Qt::UTC);
    in.kforgeVersion = u"0.1.0-test"_s;
    return in;
}

QString scaledReference(QString source, const QVariantMap &sizes)
{
    for (auto it = sizes.cbegin(); it != sizes.cend(); ++it) {
        const QRegularExpression line(u"^%1[ \\t]*=[ \\t]*\\d+[ \\t]*$"_s.arg(it.key()),
                                      QRegularExpression::MultilineOption);
        source.replace(line, u"%1 = %2"_s.arg(it.key()).arg(it.value().toLongLong()));
    }
    return source;
}

ProcessRun runProcess(const QString &program, const QStringList &args, const QString &workDir, int timeoutMs,
                      const QProcessEnvironment &env)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.setWorkingDirectory(workDir);
    p.setProcessEnvironment(env);
    p.start(program, args);
    ProcessRun r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.output = QStringLiteral("timed out\n");
    }
    r.output += QString::fromLocal8Bit(p.readAll());
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return r;
}

} // namespace kforge::test
