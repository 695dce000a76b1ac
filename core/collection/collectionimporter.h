#pragma once
// The problems of a collection made into task folders through the PyTorch import (core/task/torchimport*, a CPU
// and a python3 with torch are enough): each problem text once under <out>/problems/<key>.py, its task under
// <out>/tasks/<key>/; a task folder already there for the same text is kept, so a run that starts again (after a
// kill, with --limit, with --only) imports nothing twice. Then, for held-out sizes (core/collection/heldoutsizes.h),
// each imported problem's two resized texts are imported the same way as <key>_heldout1 and <key>_heldout2.
// fileImported() per problem text as the import finishes it (main and held-out, not the reused ones), then
// finished() once, when problems() says everything about each problem.
#include "core/collection/collection.h"
#include "core/task/torchimport.h"

#include <QList>
#include <QMap>
#include <QObject>
#include <QString>
#include <QStringList>

namespace kforge {

class TorchImportBatch;

struct HeldOutTask {
    int index = 0;
    QString sizes;      // "batch_size 16→13, dim 4096→3073"
    QString taskFolder; // empty when it was not imported
    QString error;      // why not: the import's step and cause
};

struct ImportedProblem {
    QString key;
    QString problemFile;    // <out>/problems/<key>.py
    QString taskFolder;     // <out>/tasks/<key>; empty when the import failed
    TorchImportError error; // step empty when imported
    bool reused = false;    // the task folder was there for the same text
    bool degenerate = false;
    QStringList notes;          // translated: the import's remarks (degenerate, FLOPs unknown)
    QList<HeldOutTask> heldOut; // none when held-out sizes were not asked for or not possible
    QString heldOutNote;        // why there are none
    bool ok() const { return !taskFolder.isEmpty(); }
};

class CollectionImporter : public QObject
{
    Q_OBJECT
public:
    struct Options {
        QString outDir;
        QString python; // with torch (torchimport::findPython)
        QString script; // torchimport::discoverScript()
        int jobs = 2;
        double timeoutS = 120;
        bool heldOut = true;
    };

    explicit CollectionImporter(QObject *parent = nullptr);
    ~CollectionImporter() override;

    void start(const QList<CollectionPair> &pairs, const Options &options);
    // Stops the import: the problems not imported yet say so (step "discover"), no held-out sizes are imported,
    // finished() follows.
    void cancel();
    const QMap<QString, ImportedProblem> &problems() const { return m_problems; }
    int imported() const { return m_imported; } // problems run through the import (not reused), main and held-out

Q_SIGNALS:
    // `key` is a problem's or a held-out text's (<key>_heldout1); `error` empty when it was imported.
    void fileImported(const QString &key, const QString &error);
    void finished();

private:
    void runBatch(const QStringList &files, bool heldOut);
    void onDone(const TorchDiscovery &d);
    void onBatchFinished();
    void startHeldOut();
    void describe(ImportedProblem &p, const QJsonObject &task) const;

    Options m_options;
    QMap<QString, ImportedProblem> m_problems;
    QMap<QString, QString> m_sources;   // key -> problem text
    QMap<QString, QString> m_heldOutOf; // held-out key -> its problem's key
    QMap<QString, int> m_heldOutIndex;  // held-out key -> 1 or 2
    TorchImportBatch *m_batch = nullptr;
    bool m_heldOutStage = false;
    bool m_cancelled = false;
    int m_imported = 0;
};

} // namespace kforge
