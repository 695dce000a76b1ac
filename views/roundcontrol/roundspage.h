#pragma once
// Round Control's Rounds page: a line that sums the session up, the table of its rounds and, under it, the
// candidates of the chosen round (RoundProgressModel). Choosing a candidate loads the prompt it received;
// double-clicking it asks for that prompt to be read.
#include <QWidget>

class QLabel;
class QTableView;

namespace kforge {

class RoundHistoryModel;
class RoundProgressModel;

class RoundsPage : public QWidget
{
    Q_OBJECT
public:
    RoundsPage(RoundHistoryModel *rounds, RoundProgressModel *progress, QWidget *parent = nullptr);

    void setSummary(const QString &text);
    QString summary() const;
    // Marks the round's row as chosen without announcing it.
    void selectRound(qint64 roundId);

    QTableView *roundsView() const { return m_roundsView; }
    QTableView *candidatesView() const { return m_candidatesView; }

Q_SIGNALS:
    void roundChosen(qint64 roundId);
    void candidateChosen(int row);
    void candidateActivated(int row);

private:
    RoundHistoryModel *m_rounds = nullptr;
    QLabel *m_summary = nullptr;
    QTableView *m_roundsView = nullptr;
    QTableView *m_candidatesView = nullptr;
    bool m_selecting = false;
};

} // namespace kforge
