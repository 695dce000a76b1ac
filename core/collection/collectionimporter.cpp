#include "core/collection/collectionimporter.h"

#include "core/collection/heldoutsizes.h"
#include "core/task/torchimportbatch.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>
#include <optional>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

QString heldOutKey(const QString &key, int index)
{
    return u"%1_heldout%2"_s.arg(key).arg(index);
}

QByteArray fileBytes(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Writes `bytes` to `path` unless it holds them already.
bool writeText(const QString &path, const QByteArray &bytes, QString *error)
{
    if (fileBytes(path) == bytes)
        return true;
    QSaveFile f(path);
    if (QDir().mkpath(QFileInfo(path).path()) && f.open(QIODevice::WriteOnly) && f.write(bytes) >= 0 && f.commit())
        return true;
    *error = CollectionImporter::tr("cannot write %1: %2").arg(path, f.errorString());
    return false;
}

// The task.json of `folder` when an earlier run imported this very text there: its reference is the text and its
// task.json whole (a run killed between the two writes leaves it stale, and it is imported again).
std::optional<QJsonObject> currentTask(const QString &folder, const QByteArray &bytes, const QString &key)
{
    const QJsonObject task = QJsonDocument::fromJson(fileBytes(folder + u"/task.json"_s)).object();
    if (fileBytes(folder + u"/reference.py"_s) == bytes && task.value(u"name"_s).toString() == key)
        return task;
    return std::nullopt;
}

} // namespace

CollectionImporter::CollectionImporter(QObject *parent)
    : QObject(parent)
{
}

CollectionImporter::~CollectionImporter() = default;

void CollectionImporter::start(const QList<CollectionPair> &pairs, const Options &options)
{
    m_options = options;
    m_cancelled = false;
    m_problems.clear();
    m_sources.clear();
    m_imported = 0;
    QStringList queue;
    for (const CollectionPair &pair : pairs) {
        if (m_sources.contains(pair.problemKey))
            continue;
        m_sources.insert(pair.problemKey, pair.problemSource);
        ImportedProblem &p = m_problems[pair.problemKey];
        p.key = pair.problemKey;
        p.problemFile = QDir(m_options.outDir).absoluteFilePath(u"problems/"_s + p.key + u".py"_s);
        const QString folder = QDir(m_options.outDir).absoluteFilePath(u"tasks/"_s + p.key);
        const QByteArray bytes = pair.problemSource.toUtf8();
        QString error;
        if (!writeText(p.problemFile, bytes, &error)) {
            p.error = {p.problemFile, u"write"_s, error};
        } else if (const std::optional<QJsonObject> task = currentTask(folder, bytes, p.key)) {
            p.taskFolder = folder;
            p.reused = true;
            describe(p, *task);
        } else {
            queue << p.problemFile;
        }
    }
    runBatch(queue, false);
}

void CollectionImporter::runBatch(const QStringList &files, bool heldOut)
{
    m_heldOutStage = heldOut;
    if (m_batch)
        m_batch->deleteLater(); // runBatch() is called from its finished()
    m_batch = new TorchImportBatch(this);
    connect(m_batch, &TorchImportBatch::problemDone, this, &CollectionImporter::onDone);
    connect(m_batch, &TorchImportBatch::finished, this, &CollectionImporter::onBatchFinished);
    m_batch->start(m_options.python, m_options.script, files, m_options.jobs, m_options.timeoutS);
}

void CollectionImporter::describe(ImportedProblem &p, const QJsonObject &task) const
{
    p.degenerate = task.value(u"degenerate"_s).toBool();
    if (p.degenerate)
        p.notes << tr("degenerate: the output does not depend on the inputs");
    if (task.value(u"flops"_s).isNull())
        p.notes << tr("FLOPs unknown: no compute floor");
}

void CollectionImporter::onDone(const TorchDiscovery &d)
{
    const QString key = QFileInfo(d.file).completeBaseName();
    const QString tasks = QDir(m_options.outDir).absoluteFilePath(u"tasks"_s);
    TorchImportError error = d.error;
    QString folder;
    if (d.ok())
        folder = torchimport::writeTaskFolder(d.file, d, tasks, error);
    ++m_imported;
    Q_EMIT fileImported(key, folder.isEmpty() ? error.step + u": "_s + error.cause : QString());
    if (m_heldOutStage) {
        const auto of = m_heldOutOf.constFind(key);
        if (of == m_heldOutOf.cend())
            return;
        for (HeldOutTask &h : m_problems[*of].heldOut)
            if (h.index == m_heldOutIndex.value(key)) {
                h.taskFolder = folder;
                if (folder.isEmpty())
                    h.error = error.step + u": "_s + error.cause;
            }
        return;
    }
    const auto it = m_problems.find(key);
    if (it == m_problems.end())
        return;
    it->error = error;
    it->taskFolder = folder;
    if (it->ok())
        describe(*it, d.task);
}

void CollectionImporter::cancel()
{
    m_cancelled = true;
    if (m_batch)
        m_batch->cancel();
}

void CollectionImporter::onBatchFinished()
{
    if (!m_heldOutStage && m_options.heldOut && !m_cancelled) {
        startHeldOut();
        return;
    }
    Q_EMIT finished();
}

void CollectionImporter::startHeldOut()
{
    QStringList queue;
    m_heldOutOf.clear();
    m_heldOutIndex.clear();
    for (ImportedProblem &p : m_problems) {
        p.heldOut.clear();
        if (!p.ok())
            continue;
        const QJsonObject task = QJsonDocument::fromJson(fileBytes(p.taskFolder + u"/task.json"_s)).object();
        for (const HeldOutProblem &v : HeldOutSizes::make(m_sources.value(p.key), task, &p.heldOutNote)) {
            const QString key = heldOutKey(p.key, v.index);
            const QString file = QDir(m_options.outDir).absoluteFilePath(u"problems/"_s + key + u".py"_s);
            const QString folder = QDir(m_options.outDir).absoluteFilePath(u"tasks/"_s + key);
            const QByteArray bytes = v.source.toUtf8();
            HeldOutTask h{v.index, v.describe(), {}, {}};
            if (writeText(file, bytes, &h.error)) { // else h.error says why
                if (currentTask(folder, bytes, key)) {
                    h.taskFolder = folder;
                } else {
                    m_heldOutOf.insert(key, p.key);
                    m_heldOutIndex.insert(key, v.index);
                    queue << file;
                }
            }
            p.heldOut << h;
        }
    }
    runBatch(queue, true);
}

} // namespace kforge
