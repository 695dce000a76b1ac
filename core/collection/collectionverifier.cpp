#include "core/collection/collectionverifier.h"

#include "core/async/lateresultguard.h"
#include "core/collection/verifytable.h"
#include "core/version.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QtConcurrent>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

bool saveText(const QString &path, const QByteArray &bytes, QString *error)
{
    QSaveFile f(path);
    if (f.open(QIODevice::WriteOnly) && f.write(bytes) >= 0 && f.commit())
        return true;
    *error = QCoreApplication::translate("kforge::CollectionVerifier", "cannot write %1: %2").arg(path, f.errorString());
    return false;
}

} // namespace

// ---- the manifest

QJsonObject VerifyManifest::toJson() const
{
    QJsonObject map;
    for (auto it = read.fieldMap.cbegin(); it != read.fieldMap.cend(); ++it)
        map.insert(it.key(), it.value());
    QJsonObject o{{u"collection"_s, collection}, {u"held_out"_s, heldOut}, {u"tolerances"_s, tolerances}, {u"map"_s, map}};
    if (read.format)
        o.insert(u"format"_s, formatName(*read.format));
    for (const auto &[key, value] : {std::pair{u"problems"_s, read.problems}, std::pair{u"candidates"_s, read.candidates},
                                     std::pair{u"baseline"_s, read.baseline}})
        if (!value.isEmpty())
            o.insert(key, value);
    return o;
}

std::optional<VerifyManifest> VerifyManifest::fromJson(const QJsonObject &o)
{
    VerifyManifest m;
    m.collection = o.value(u"collection"_s).toString();
    if (m.collection.isEmpty())
        return std::nullopt;
    if (o.contains(u"format"_s)) {
        m.read.format = CollectionReader::formatFromName(o.value(u"format"_s).toString());
        if (!m.read.format)
            return std::nullopt;
    }
    m.read.problems = o.value(u"problems"_s).toString();
    m.read.candidates = o.value(u"candidates"_s).toString();
    m.read.baseline = o.value(u"baseline"_s).toString();
    const QJsonObject map = o.value(u"map"_s).toObject();
    for (auto it = map.begin(); it != map.end(); ++it)
        m.read.fieldMap.insert(it.key(), it.value().toString());
    m.heldOut = o.value(u"held_out"_s).toBool(true);
    m.tolerances = o.value(u"tolerances"_s).toBool(true);
    return m;
}

QString VerifyManifest::path(const QString &outDir)
{
    return QDir(outDir).filePath(u"collection.json"_s);
}

std::optional<VerifyManifest> VerifyManifest::load(const QString &outDir)
{
    QFile f(path(outDir));
    if (!f.open(QIODevice::ReadOnly))
        return std::nullopt;
    return fromJson(QJsonDocument::fromJson(f.readAll()).object());
}

bool VerifyManifest::save(const QString &outDir, QString *error) const
{
    return saveText(path(outDir), QJsonDocument(toJson()).toJson(), error);
}

// ---- the verifier

CollectionVerifier::CollectionVerifier(QObject *parent)
    : QObject(parent)
    , m_importer(new CollectionImporter(this))
{
    connect(m_importer, &CollectionImporter::fileImported, this, &CollectionVerifier::fileImported);
    connect(m_importer, &CollectionImporter::finished, this, &CollectionVerifier::onImported);
}

CollectionVerifier::~CollectionVerifier()
{
    // What the runner has in the queue is cancelled while the log still exists; nothing more is written.
    if (m_runner) {
        m_runner->disconnect(this);
        m_runner->cancel();
        delete m_runner;
    }
}

void CollectionVerifier::setCollection(const Collection &collection, const Options &options)
{
    m_collection = collection;
    m_options = options;
    m_options.import.outDir = options.outDir;
    m_options.import.heldOut = options.heldOut;
    m_pairs = collection.selected(options.only);
    if (options.limit > 0 && m_pairs.size() > options.limit)
        m_pairs = m_pairs.mid(0, options.limit);
}

void CollectionVerifier::startImport()
{
    m_stage = Stage::Importing;
    m_cancelled = false;
    if (!QDir().mkpath(m_options.outDir)) {
        m_stage = Stage::Done;
        Q_EMIT failed(tr("cannot create %1").arg(m_options.outDir));
        Q_EMIT finished();
        return;
    }
    m_importer->start(m_pairs, m_options.import);
}

void CollectionVerifier::onImported()
{
    if (m_cancelled) {
        m_stage = Stage::Done;
        Q_EMIT imported();
        Q_EMIT finished();
        return;
    }
    m_stage = Stage::Imported;
    Q_EMIT imported();
}

int CollectionVerifier::importFailures() const
{
    const QMap<QString, ImportedProblem> &all = problems();
    return int(std::count_if(all.begin(), all.end(), [](const ImportedProblem &p) { return !p.ok(); }));
}

QList<VerifyItem> CollectionVerifier::items() const
{
    QList<VerifyItem> items;
    const QMap<QString, ImportedProblem> &all = problems();
    for (const CollectionPair &p : m_pairs)
        if (const auto it = all.constFind(p.problemKey); it != all.cend() && it->ok())
            items.append({p, it->taskFolder, m_options.heldOut ? it->heldOut : QList<HeldOutTask>()});
    return items;
}

bool CollectionVerifier::openLog(QString *error)
{
    if (!m_log.open(logPath(), error))
        return false;
    m_logOpen = true;
    if (m_options.rerun) {
        QStringList ids;
        for (const CollectionPair &p : std::as_const(m_pairs))
            ids << p.id;
        m_log.forget(ids);
    }
    VerifyManifest manifest;
    manifest.collection = m_collection.path;
    manifest.heldOut = m_options.heldOut;
    manifest.tolerances = m_options.tolerances;
    manifest.read = m_options.read;
    return manifest.save(m_options.outDir, error);
}

bool CollectionVerifier::hasWork() const
{
    const QList<VerifyItem> all = items();
    VerifyRunner::Options o;
    o.heldOut = m_options.heldOut;
    o.tolerances = m_options.tolerances;
    return std::any_of(all.begin(), all.end(),
                       [&](const VerifyItem &i) { return VerifyRunner::nextRun(i, m_log, o).has_value(); });
}

int CollectionVerifier::pairsComplete() const
{
    const QList<VerifyItem> all = items();
    VerifyRunner::Options o;
    o.heldOut = m_options.heldOut;
    o.tolerances = m_options.tolerances;
    return int(std::count_if(all.begin(), all.end(),
                             [&](const VerifyItem &i) { return !VerifyRunner::nextRun(i, m_log, o); }));
}

void CollectionVerifier::startRun(EvaluationQueue *queue, const VerifyRunner::Options &options)
{
    delete m_runner;
    m_runner = new VerifyRunner(queue, &m_log, this);
    connect(m_runner, &VerifyRunner::runFinished, this, &CollectionVerifier::runFinished);
    connect(m_runner, &VerifyRunner::noVerdict, this, &CollectionVerifier::noVerdict);
    connect(m_runner, &VerifyRunner::failed, this, &CollectionVerifier::failed);
    connect(m_runner, &VerifyRunner::finished, this, &CollectionVerifier::onRunnerFinished);
    VerifyRunner::Options o = options;
    o.heldOut = m_options.heldOut;
    o.tolerances = m_options.tolerances;
    m_stage = Stage::Running;
    m_runner->start(items(), o);
}

void CollectionVerifier::onRunnerFinished()
{
    writeOutputs();
}

void CollectionVerifier::writeOutputs()
{
    m_stage = Stage::Writing;
    const VerifyReportInput input = report();
    const QString csv = csvPath(), html = htmlPath();
    const QFuture<QString> written = QtConcurrent::run([input, csv, html] {
        QString error;
        if (!saveText(csv, VerifyReport::csv(input.rows).toUtf8(), &error)
            || !saveText(html, VerifyReport::html(input).toUtf8(), &error))
            return error;
        return QString();
    });
    whenFinished(this, written, [this](const QString &error) {
        m_stage = Stage::Done;
        if (!error.isEmpty())
            Q_EMIT failed(error);
        Q_EMIT finished();
    });
}

void CollectionVerifier::cancel()
{
    m_cancelled = true;
    if (m_stage == Stage::Importing)
        m_importer->cancel();
    else if (m_stage == Stage::Running && m_runner)
        m_runner->cancel();
}

QList<VerifyRow> CollectionVerifier::rows() const
{
    return VerifyTable::rows(m_collection.pairs, problems(), m_log);
}

VerifyReportInput CollectionVerifier::report() const
{
    VerifyReportInput report;
    report.collection = m_collection.path;
    report.format = m_collection.format;
    // The GPUs and workers of every result in the log, this run's and earlier ones'.
    QStringList devices, workers;
    for (const VerifyRecord &r : m_log.records()) {
        if (!r.result.deviceName.isEmpty() && !devices.contains(r.result.deviceName))
            devices << r.result.deviceName;
        if (!r.result.workerName.isEmpty() && !workers.contains(r.result.workerName))
            workers << r.result.workerName;
    }
    report.device = devices.join(u", "_s);
    report.workers = workers.join(u"; "_s);
    report.generated = QDateTime::currentDateTimeUtc();
    report.kforgeVersion = QStringLiteral(KFORGE_VERSION_STRING);
    report.tolerance = u"Each task judges f32 outputs at atol = rtol = 1e-4 unless its task.json says otherwise "
                       "(KernelBench: 1e-2); a pair that fails is tried again at 1e-3 and 1e-2."_s;
    report.rows = rows();
    report.summary = VerifyTable::summary(report.rows);
    report.issues = m_collection.issues;
    return report;
}

QString CollectionVerifier::csvPath() const
{
    return QDir(m_options.outDir).filePath(u"results.csv"_s);
}

QString CollectionVerifier::htmlPath() const
{
    return QDir(m_options.outDir).filePath(u"report.html"_s);
}

QString CollectionVerifier::logPath() const
{
    return QDir(m_options.outDir).filePath(u"results.jsonl"_s);
}

QString CollectionVerifier::taskFolderOf(const QString &pairId) const
{
    const std::optional<CollectionPair> p = pair(pairId);
    if (!p)
        return {};
    const auto it = problems().constFind(p->problemKey);
    return it == problems().cend() ? QString() : it->taskFolder;
}

std::optional<CollectionPair> CollectionVerifier::pair(const QString &pairId) const
{
    for (const CollectionPair &p : m_collection.pairs)
        if (p.id == pairId)
            return p;
    return std::nullopt;
}

} // namespace kforge
