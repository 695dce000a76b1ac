#pragma once
// The session's rounds, one row each, oldest first: how each ended, how many answers it got, how many of the
// variants they made are correct, the best speedup among them, tokens and when it started. Rows come from the
// session's history (SessionHistoryWatch, read off the GUI thread); the counts follow the population as variants
// are measured. New rounds are appended, never a reset while rows stay the same.
#include <QAbstractTableModel>
#include <QDateTime>
#include <QPointer>
#include <QTimer>

#include <optional>

namespace kforge {

class SessionHistoryWatch;
class SessionStore;

class RoundHistoryModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Round, Outcome, Answers, Correct, Best, Tokens, Started, ColumnCount };
    enum Role { RoundIdRole = Qt::UserRole + 1, BestVariantRole };

    RoundHistoryModel(SessionStore *store, SessionHistoryWatch *history, QObject *parent = nullptr);

    int rowOfRound(qint64 roundId) const;
    qint64 roundAt(int row) const;
    // "Rounds: 2 · answers: 6 · correct variants: 4 · best 65.2× (#6, round 1)"; empty without rounds.
    QString summary() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        qint64 id = 0;
        int number = 0;
        int state = 0; // RoundState
        QString message;
        QDateTime started;
        qint64 tokens = 0;
        int answers = 0;
        int repairs = 0;
        int variants = 0;
        int correct = 0;
        std::optional<double> best;
        qint64 bestVariant = 0;
    };

    void reload();
    // The counts that come from the population, for every row (one pass over it); recount() announces them.
    void count();
    void recount();

    QPointer<SessionStore> m_store;
    QPointer<SessionHistoryWatch> m_history;
    QList<Row> m_rows;
    QTimer m_recount; // variants change in bursts while a round is measured
};

} // namespace kforge
