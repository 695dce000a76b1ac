#pragma once
// The population of the open session as a table, one row per variant in creation order. It follows the
// store's signals row by row (an insert for a new variant, dataChanged for a change), never resetting except
// when a session opens or closes, so a round keeps a 10,000-row table responsive. The measured details that
// live only in the stored result (percent of speed of light, bound, registers) are read in the background in
// small time-boxed batches, rows on screen first. With the evaluation queue given, a running evaluation's
// provisional result (the verdict and timing before the worker's last passes) shows in its row until the final one
// is stored; it is never taken for a measurement (sorting aside, every role but the shown text is the store's).
#include "core/eval/speedoflight.h"
#include "core/session/variant.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QPointer>
#include <QSet>
#include <QTimer>
#include <deque>
#include <optional>

namespace kforge {

class EvaluationQueue;
struct EvalResult;
struct QueuedEvaluation;
class SessionStore;

class VariantsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        Id,
        Label,
        Round,
        Origin,
        Status,
        Speedup,
        Time,
        SpeedOfLight,
        Bound,
        Registers,
        Flags,
        Exemplar,
        Tags,
        ColumnCount
    };
    Q_ENUM(Column)
    enum Role {
        IdRole = Qt::UserRole + 1, // qint64 variant id (every column)
        SortRole,                  // a number or a string that sorts the column naturally
        StatusRole,                // int(VariantStatus)
        CorrectRole,               // bool: measured and correct
        InFlightRole,              // bool: the pipeline still owns it
        SuspiciousRole,            // bool: suspicious and not accepted
        PinnedRole,
        ExcludedRole,
        SearchTextRole, // what the text filter matches: id, label, tags, origin, status, message
    };

    explicit VariantsModel(QObject *parent = nullptr);
    ~VariantsModel() override;

    void setStore(SessionStore *store);
    SessionStore *store() const;
    // Where the provisional results of the store's variants come from (EvaluationQueue::provisional); none: not shown.
    void setQueue(EvaluationQueue *queue);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    qint64 idAt(int row) const;
    int rowOf(qint64 variantId) const; // -1 when unknown
    const Variant *variantAt(int row) const;

    // Details read so far, and how many rows still wait for theirs (for tests and the benchmark).
    int pendingDetails() const { return int(m_queue.size()); }
    // Upper bound of GUI-thread time one batch of detail reads may take.
    void setDetailBudgetMs(int ms) { m_budgetMs = ms; }

    // Orders two rows by a column as SortRole would, without making QVariants: sorting 10,000 rows calls this
    // about 140,000 times.
    bool lessThan(int leftRow, int rightRow, int column) const;

    static QString statusText(const Variant &v);
    static QString originText(VariantOrigin origin);
    static QStringList flagTexts(const Variant &v);

private:
    // What a running evaluation's provisional result shows until its final one is stored.
    struct Provisional {
        double speedup = 0;
        double candidateMs = 0;
        QString status; // "checking: precision, trace…"
        QString tip;
    };
    struct Details {
        kforge::SpeedOfLight speedOfLight;
        QString bound;
        std::optional<int> registers; // of the longest-running kernel (MeasurementFigures)
        std::optional<qint64> sharedBytes;
        QString heaviestKernel;
        std::optional<qint64> spillBytes;
        std::optional<qint64> seed;
    };

    void reload();
    void onVariantAdded(qint64 id);
    void onVariantChanged(qint64 id);
    void onRoundChanged(qint64 roundId);
    void onProvisional(int ticket, const EvalResult &result);
    void dropProvisional(qint64 variantId);
    const Provisional *provisionalOf(const Variant &v) const;
    const Details *details(const Variant &v) const;
    void enqueue(qint64 variantId, bool urgent) const;
    void loadSomeDetails();
    QVariant display(const Variant &v, int column) const;
    QVariant sortValue(const Variant &v, int column) const;
    std::optional<double> sortNumber(const Variant &v, int column) const;

    QPointer<SessionStore> m_store;
    QList<QMetaObject::Connection> m_connections;
    QPointer<EvaluationQueue> m_evalQueue;
    QList<QMetaObject::Connection> m_queueConnections;
    QHash<qint64, Provisional> m_provisional; // by variant id, while its evaluation runs
    int m_rows = 0;
    QHash<qint64, int> m_roundNumbers;
    QHash<qint64, Details> m_details;   // by evaluation id
    mutable std::deque<qint64> m_queue; // variant ids
    mutable QSet<qint64> m_queued;
    mutable QTimer m_loadTimer;
    int m_budgetMs = 6;
};

} // namespace kforge
