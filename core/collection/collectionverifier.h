#pragma once
// A collection's verification from its pairs to its outputs, the one implementation behind `kforge-cli verify` and
// the workbench's File → Verify Collection…: the pairs selected (--only, --limit), their problems imported
// (CollectionImporter), <out>/results.jsonl opened (what is there is kept: a verification started again on the same
// folder continues it), the runner on the evaluation queue it is given (the CLI's or the workbench's, with its
// worker pool), then results.csv and report.html written from the whole log off the calling thread. Every stage is
// asynchronous and announced, so the CLI waits in an event loop and the workbench never blocks. The folder also
// keeps <out>/collection.json, what was verified and how (VerifyManifest), so the workbench can continue it.
#include "core/collection/collection.h"
#include "core/collection/collectionimporter.h"
#include "core/collection/collectionreader.h"
#include "core/collection/resultslog.h"
#include "core/collection/verifyreport.h"
#include "core/collection/verifyrunner.h"

#include <QCoreApplication>
#include <QList>
#include <QMap>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <optional>

namespace kforge {

class EvaluationQueue;

// What <out>/collection.json keeps: the collection as the user named it and how it was read and verified.
struct VerifyManifest {
    QString collection;
    CollectionOptions read;
    bool heldOut = true;
    bool tolerances = true;

    QJsonObject toJson() const;
    static std::optional<VerifyManifest> fromJson(const QJsonObject &o);
    static QString path(const QString &outDir); // <out>/collection.json
    static std::optional<VerifyManifest> load(const QString &outDir);
    bool save(const QString &outDir, QString *error) const;
};

class CollectionVerifier : public QObject
{
    Q_OBJECT
public:
    enum class Stage { Idle, Importing, Imported, Running, Writing, Done };

    struct Options {
        QString outDir;         // absolute
        CollectionOptions read; // how the collection was read: kept in the manifest
        QStringList only;
        int limit = -1;                     // the first N pairs after `only`; -1: all
        CollectionImporter::Options import; // outDir and heldOut are set from these options
        VerifyRunner::Options run;          // heldOut and tolerances likewise; eval and maxInFlight from the caller
        bool heldOut = true;
        bool tolerances = true;
        bool rerun = false; // measure the selected pairs again (the new lines supersede the old)
    };

    explicit CollectionVerifier(QObject *parent = nullptr);
    ~CollectionVerifier() override;

    // The collection and how to verify it; selects the pairs. Writes nothing.
    void setCollection(const Collection &collection, const Options &options);
    const Collection &collection() const { return m_collection; }
    const QList<CollectionPair> &selectedPairs() const { return m_pairs; }
    const Options &options() const { return m_options; }
    Stage stage() const { return m_stage; }

    // Imports the selected pairs' problems under the output folder: fileImported() per problem text, imported()
    // once, then the stage is Imported (or Done when cancel() came first).
    void startImport();
    const QMap<QString, ImportedProblem> &problems() const { return m_importer->problems(); }
    int problemsImported() const { return m_importer->imported(); }
    int importFailures() const;
    // The pairs whose problem was imported: what the runner evaluates.
    QList<VerifyItem> items() const;

    // Opens <out>/results.jsonl (with `rerun`, forgetting the selected pairs' records) and saves the manifest;
    // false with `error` when the log cannot be read or written.
    bool openLog(QString *error);
    const ResultsLog &log() const { return m_log; }
    // Whether a selected pair still lacks a run, and how many are complete.
    bool hasWork() const;
    int pairsComplete() const;
    // Runs what the pairs still lack on `queue` (not owned; it must outlive the run): runFinished() per result,
    // noVerdict() per result without one, then the outputs are written and finished() follows. The runner is
    // there from here on (progress, ETA).
    void startRun(EvaluationQueue *queue, const VerifyRunner::Options &options);
    VerifyRunner *runner() const { return m_runner; }
    // Writes results.csv and report.html from the whole log (every pair of the collection: those not selected are
    // "not run") off the calling thread; finished() follows. startRun() does it after its last result.
    void writeOutputs();
    // Stops the import or the run: what is in flight is cancelled (not logged), what is logged stays, the outputs
    // are written from it.
    void cancel();
    bool isCancelled() const { return m_cancelled; }
    bool isBusy() const
    {
        return m_stage == Stage::Importing || m_stage == Stage::Running || m_stage == Stage::Writing;
    }

    // The table over the whole collection as it stands (every pair; the log's results so far).
    QList<VerifyRow> rows() const;
    // The report's input: rows, summary, issues, the GPUs and workers that measured the log's results.
    VerifyReportInput report() const;
    QString csvPath() const;
    QString htmlPath() const;
    QString logPath() const;

    // The problem's task folder, or the empty string, of a pair of the collection.
    QString taskFolderOf(const QString &pairId) const;
    std::optional<CollectionPair> pair(const QString &pairId) const;

Q_SIGNALS:
    void fileImported(const QString &key, const QString &error);
    void imported();
    void runFinished(const kforge::VerifyRecord &record);
    void noVerdict(const QString &pair, const QString &message);
    // The log or an output cannot be written (the run stops), or nothing could be started; translated.
    void failed(const QString &message);
    void finished();

private:
    void onImported();
    void onRunnerFinished();

    Collection m_collection;
    QList<CollectionPair> m_pairs;
    Options m_options;
    Stage m_stage = Stage::Idle;
    CollectionImporter *m_importer = nullptr;
    ResultsLog m_log;
    VerifyRunner *m_runner = nullptr;
    bool m_cancelled = false;
    bool m_logOpen = false;
};

} // namespace kforge
