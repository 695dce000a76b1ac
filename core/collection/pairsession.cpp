#include "core/collection/pairsession.h"

#include "core/session/evaluation.h"
#include "core/session/sessionstore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace kforge {

QString PairSession::pathFor(const QString &outDir, const QString &pairId)
{
    static const QRegularExpression unsafe(u"[^A-Za-z0-9_.-]+"_s);
    QString name = pairId;
    name.replace(unsafe, u"_"_s);
    return QDir(outDir).filePath(u"sessions/"_s + name + u".kforge"_s);
}

bool PairSession::create(const QString &path, const QString &taskFolder, const CollectionPair &pair,
                         const VerifyRecord *main, QString *error)
{
    if (taskFolder.isEmpty()) {
        *error = tr("the problem of %1 was not imported: there is no task to open").arg(pair.id);
        return false;
    }
    if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
        *error = tr("cannot make the folder %1").arg(QFileInfo(path).absolutePath());
        return false;
    }
    bool ok = false;
    {
        SessionStore store;
        const auto fail = [&](const QString &what) {
            *error = tr("cannot make a session for %1: %2").arg(pair.id, what);
            return false;
        };
        ok = [&] {
            if (!store.create(path, taskFolder))
                return fail(store.errorString());
            Variant v;
            v.origin = VariantOrigin::Imported;
            v.label = pair.candidateName;
            v.tags = {u"collection"_s};
            QStringList notes{tr("From the collection %1: %2").arg(pair.candidateOrigin, pair.id)};
            if (pair.claimedSpeedup)
                notes << tr("Claimed speedup: %1×").arg(*pair.claimedSpeedup);
            notes << pair.notes;
            v.notes = notes.join(u'\n');
            const qint64 id = store.variants().add(v, {pair.candidateSource, {}, {}});
            if (!id)
                return fail(store.errorString());
            store.setMeta(u"collection_pair"_s, pair.id);
            if (!main)
                return true;
            QJsonObject device{{u"name"_s, main->result.deviceName}};
            if (!main->result.workerName.isEmpty())
                device.insert(u"worker"_s, main->result.workerName);
            if (!store.evaluations().add(Evaluation::fromMeasurement(id, main->result, device)))
                return fail(store.errorString());
            if (main->result.isCorrect())
                store.variants().setStatus(id, VariantStatus::Done);
            else
                store.variants().setStatus(id, VariantStatus::Failed,
                                           verdictDisplayName(main->result.verdict)
                                               + (main->result.message.isEmpty()
                                                      ? QString()
                                                      : u": "_s + main->result.message.section(u'\n', 0, 0)));
            return true;
        }();
        store.close();
    }
    if (!ok)
        QFile::remove(path);
    return ok;
}

} // namespace kforge
