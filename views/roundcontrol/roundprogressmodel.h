#pragma once
// Where each answer of the running round stands: generating (characters so far), then the stages of the
// variant it produced (compiling, verifying, timing, profiling), done with its speedup or failed with the
// reason; and which exemplars its prompt showed (each candidate may have drawn its own). Fed by RoundRunner's signals
// and the store's; streaming updates are batched into one repaint per interval. A round of the session's history
// is shown from its stored answers (showRound()).
#include <QAbstractTableModel>
#include <QPointer>
#include <QSet>
#include <QTimer>

namespace kforge {

struct HistoryAnswer;
class RoundRunner;
class SessionStore;

class RoundProgressModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Candidate, Stage, Variant, Speedup, Tokens, Exemplars, ColumnCount };
    enum Role { ResponseIdRole = Qt::UserRole + 1, VariantIdRole, FinishedRole, PromptIdRole, ExemplarIdsRole };

    RoundProgressModel(SessionStore *store, RoundRunner *runner, QObject *parent = nullptr);

    qint64 round() const { return m_round; }
    // Shows a round of the history by its stored answers (SessionHistory::answersOfRound()); the running round's
    // answers that start later are added as they start.
    void showRound(qint64 roundId, const QList<HistoryAnswer> &answers);
    // Rows whose answer is in and whose variant (if any) is no longer in flight.
    int finishedCount() const;
    int rowOfResponse(qint64 responseId) const;
    // "#1 (1.00×), #4 (2.50×)": variants of the store with their speedups, as the exemplar column shows them.
    static QString exemplarText(const SessionStore *store, const QList<qint64> &ids);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void progressChanged();

private:
    struct Row {
        qint64 responseId = 0;
        QString title; // empty for a row of the history: titleOf() makes it when it is shown
        int position = 0;
        qint64 repairOf = 0;
        bool streaming = true;
        qint64 chars = 0;
        qint64 variantId = 0;
        QString problem; // why no variant came of it
        qint64 tokens = 0;
        bool repair = false;
        qint64 promptId = 0;
        QList<qint64> exemplars; // contrastive answers: what the prompt showed
        QString exemplarText;
    };

    void startRound(qint64 roundId);
    void onRequestStarted(qint64 responseId);
    void onResponseFinished(qint64 responseId, qint64 variantId, const QString &problem);
    void onVariantChanged(qint64 variantId);
    void flush();
    bool isFinished(const Row &r) const;
    QString stageText(const Row &r) const;
    static QString titleOf(const Row &r);

    QPointer<SessionStore> m_store;
    QPointer<RoundRunner> m_runner;
    qint64 m_round = 0;
    QList<Row> m_rows;
    QSet<int> m_dirty;
    QTimer m_flush;
};

} // namespace kforge
