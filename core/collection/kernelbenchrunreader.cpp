#include "core/collection/kernelbenchrunreader.h"

#include "core/collection/problemindex.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QRegularExpression>
#include <algorithm>
#include <tuple>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

const QRegularExpression &kernelName()
{
    static const QRegularExpression re(u"^level_(\\d+)_problem_(\\d+)_sample_(\\d+)_kernel\\.py$"_s);
    return re;
}

struct SampleEval {
    bool correct = false;
    double runtimeMs = -1;
    QString issue; // KernelBench's metadata about a failed sample, when it gives one
};

// eval_results.json: {"<problem>": [{"sample_id", "correctness", "runtime", "metadata"}, ...]} (or one object per
// problem, as older KernelBench versions wrote).
std::optional<QJsonObject> readJsonObject(const QString &file, QString *error)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = KernelBenchRunReader::tr("cannot read %1: %2").arg(file, f.errorString());
        return std::nullopt;
    }
    QJsonParseError e;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &e);
    if (!doc.isObject()) {
        *error = KernelBenchRunReader::tr("%1 is not a JSON object: %2").arg(file, e.errorString());
        return std::nullopt;
    }
    return doc.object();
}

} // namespace

bool KernelBenchRunReader::isRunFolder(const QString &folder)
{
    const QStringList names = QDir(folder).entryList(QDir::Files);
    return std::any_of(names.begin(), names.end(), [](const QString &n) { return kernelName().match(n).hasMatch(); });
}

namespace {

using SampleEvals = QMap<std::pair<int, int>, SampleEval>; // (problem, sample)

// KernelBench's own verdicts on the run's samples (its eval_results.json), when the folder has them; nullopt with
// `error` for a file that cannot be read as a JSON object.
std::optional<SampleEvals> sampleEvals(const QDir &run, QString *error)
{
    SampleEvals evals;
    if (!run.exists(u"eval_results.json"_s))
        return evals;
    const std::optional<QJsonObject> o = readJsonObject(run.filePath(u"eval_results.json"_s), error);
    if (!o)
        return std::nullopt;
    for (auto it = o->begin(); it != o->end(); ++it) {
        const QJsonArray samples = it.value().isArray() ? it.value().toArray() : QJsonArray{it.value()};
        for (const QJsonValue &v : samples) {
            const QJsonObject s = v.toObject();
            SampleEval e;
            e.correct = s.value(u"correctness"_s).toBool();
            e.runtimeMs = s.value(u"runtime"_s).toDouble(-1);
            const QJsonObject meta = s.value(u"metadata"_s).toObject();
            for (const QString &k : meta.keys())
                if (k.contains(u"error"_s) || k.contains(u"issue"_s))
                    e.issue = meta.value(k).toString();
            evals.insert({it.key().toInt(), s.value(u"sample_id"_s).toInt()}, e);
        }
    }
    return evals;
}

using KernelFile = std::tuple<int, int, int, QString>; // level, problem, sample, file name

// The run's generated kernels (level_L_problem_P_sample_S_kernel.py), in that order.
QList<KernelFile> kernelFiles(const QDir &run)
{
    QList<KernelFile> kernels;
    for (const QString &name : run.entryList(QDir::Files)) {
        const QRegularExpressionMatch m = kernelName().match(name);
        if (m.hasMatch())
            kernels.append({m.captured(1).toInt(), m.captured(2).toInt(), m.captured(3).toInt(), name});
    }
    std::sort(kernels.begin(), kernels.end());
    return kernels;
}

} // namespace

std::optional<Collection> KernelBenchRunReader::read(const QString &runFolder, const QString &problemsFolder,
                                                     const QString &baselineFile, QString *error)
{
    const ProblemIndex index = ProblemIndex::scan(problemsFolder);
    if (index.isEmpty()) {
        *error = tr("no problem file (*.py) in %1: --problems names a KernelBench checkout or its KernelBench/ folder")
                     .arg(problemsFolder);
        return std::nullopt;
    }
    const QDir run(runFolder);
    const std::optional<SampleEvals> evals = sampleEvals(run, error);
    if (!evals)
        return std::nullopt;
    QJsonObject baseline;
    if (!baselineFile.isEmpty()) {
        const std::optional<QJsonObject> o = readJsonObject(baselineFile, error);
        if (!o)
            return std::nullopt;
        baseline = *o;
    }

    Collection c;
    c.format = CollectionFormat::KernelBenchRun;
    const QList<KernelFile> kernels = kernelFiles(run);
    if (kernels.isEmpty())
        c.issues.append({runFolder, tr("no generated kernel (level_L_problem_P_sample_S_kernel.py) in this folder")});
    const bool levels = std::any_of(index.problems().begin(), index.problems().end(),
                                    [](const ProblemFile &p) { return p.level > 0; });
    for (const auto &[level, number, sample, name] : std::as_const(kernels)) {
        QFile f(run.filePath(name));
        if (!f.open(QIODevice::ReadOnly)) {
            c.issues.append({name, tr("cannot be read: %1").arg(f.errorString())});
            continue;
        }
        CollectionPair pair;
        pair.candidateSource = QString::fromUtf8(f.readAll());
        if (pair.candidateSource.trimmed().isEmpty()) {
            c.issues.append({name, tr("empty: the generation wrote no code for this sample")});
            continue;
        }
        pair.kind = candidateKind(pair.candidateSource);
        if (pair.kind == CandidateKind::Unknown) {
            c.issues.append({name, tr("defines no class ModelNew (the model's answer held no usable code)")});
            continue;
        }
        const QList<const ProblemFile *> found = index.byNumber(number, levels ? level : 0);
        if (found.size() != 1) {
            c.issues.append(
                {name,
                 found.isEmpty()
                     ? tr("pairs with no problem: %1 has no problem %2 in level %3").arg(index.folder()).arg(number).arg(level)
                     : tr("problem %1 of level %2 is more than one file in %3").arg(number).arg(level).arg(index.folder())});
            continue;
        }
        const ProblemFile &problem = *found.first();
        QFile pf(problem.path);
        pair.problemSource = pf.open(QIODevice::ReadOnly) ? QString::fromUtf8(pf.readAll()) : QString();
        if (pair.problemSource.isEmpty()) {
            c.issues.append({name, tr("its problem %1 is empty or cannot be read").arg(problem.relative)});
            continue;
        }
        pair.id = QFileInfo(name).completeBaseName();
        pair.problemKey = problemKeyFor(u"level%1_%2"_s.arg(level).arg(problem.stem));
        pair.problemOrigin = problem.relative;
        pair.candidateName = name;
        pair.candidateOrigin = name;
        pair.level = level;
        pair.problemNumber = number;
        pair.sample = sample;
        if (const auto e = evals->constFind({number, sample}); e != evals->cend()) {
            pair.claimedCorrect = e->correct;
            if (!e->correct)
                pair.notes << (e->issue.isEmpty() ? tr("KernelBench found it not correct")
                                                  : tr("KernelBench found it not correct: %1").arg(e->issue));
            const double baseMs = baseline.value(u"level%1"_s.arg(level))
                                      .toObject()
                                      .value(problem.stem + u".py"_s)
                                      .toObject()
                                      .value(u"mean"_s)
                                      .toDouble(-1);
            if (e->correct && e->runtimeMs > 0 && baseMs > 0)
                pair.claimedSpeedup = baseMs / e->runtimeMs;
        }
        c.pairs << pair;
    }
    return c;
}

} // namespace kforge
