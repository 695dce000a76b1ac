#pragma once
// The Compare dock, "why does A beat B": a headline that says whether the time gap is real (the ratio and its
// interval from each side's spread) and what differs most, then the two measurements side by side with deltas, the bound
// of each, their kernel lists and launch configurations, the model's stored analysis of each, the stored
// answers about the pair, and a button that asks the model why the faster one is faster (through
// RoundRunner::askWhyFaster, so the answer streams into the Reasoning panel and is stored with the pair). Every pair
// the session holds an answer about is offered above, so a stored analysis is one choice away.
#include <QPointer>
#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QTextBrowser;
class QToolButton;

namespace kforge {

class CompareMetricsModel;
class HeatCompareView;
class KernelListModel;
class RoundRunner;
class SessionHistoryWatch;
class SessionStore;
class VariantSelection;

class ComparePanel : public QWidget
{
    Q_OBJECT
public:
    // `runner` may be null: the panel then only shows, and says why it cannot ask.
    ComparePanel(SessionStore *store, VariantSelection *selection, RoundRunner *runner, QWidget *parent = nullptr);
    ~ComparePanel() override;

    void setPair(qint64 a, qint64 b);
    qint64 variantA() const { return m_a; }
    qint64 variantB() const { return m_b; }
    // Asks the model why the faster of the pair beats the other. Returns the stored pair analysis' id, 0 when it
    // could not ask (the reason is in statusText()).
    qint64 askWhy();
    // The pair askWhy() would ask about, faster first.
    std::pair<qint64, qint64> askedPair() const;

    CompareMetricsModel *metricsModel() const { return m_metrics; }
    KernelListModel *kernelsA() const { return m_kernelsA; }
    KernelListModel *kernelsB() const { return m_kernelsB; }
    QPushButton *askButton() const { return m_ask; }
    // The two variants' hottest source lines and stall mixes side by side (its own tab).
    HeatCompareView *heatView() const { return m_heat; }
    QString statusText() const;
    QString noticeText() const;
    // The headline: the time ratio ("within noise" when it is) and the metrics that differ most.
    QString headlineText() const;
    QString pairAnswersText() const;
    // The pairs with stored answers, one item each (the pair in the item's data); hidden while there is none.
    QComboBox *storedBox() const { return m_stored; }
    // Shows the stored pair of the box's item `index` with its answers.
    void showStored(int index);

Q_SIGNALS:
    void errorOccurred(const QString &message);
    // The Source heat tab's "Profile A and B": run the source-level pass on this variant.
    void profileRequested(qint64 variantId);

protected:
    void changeEvent(QEvent *event) override;

private:
    void reload();
    void updateAnalyses();
    void updateHeader();
    void updateHeadline();
    void updatePairAnswers();
    void updateAskButton();
    void onPairAnswered(qint64 analysisId);
    void updateStored();
    QString describe(qint64 id) const;

    QPointer<SessionStore> m_store;
    QPointer<VariantSelection> m_selection;
    QPointer<RoundRunner> m_runner;
    QPointer<SessionHistoryWatch> m_history;
    qint64 m_a = 0;
    qint64 m_b = 0;
    qint64 m_pending = 0;
    CompareMetricsModel *m_metrics = nullptr;
    KernelListModel *m_kernelsA = nullptr;
    KernelListModel *m_kernelsB = nullptr;
    QStackedWidget *m_stack = nullptr;
    QWidget *m_storedRow = nullptr;
    QComboBox *m_stored = nullptr;
    QLabel *m_empty = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_headline = nullptr;
    QLabel *m_notice = nullptr;
    QLabel *m_status = nullptr;
    QToolButton *m_swap = nullptr;
    QPushButton *m_ask = nullptr;
    QTableView *m_metricsView = nullptr;
    QLabel *m_kernelsTitleA = nullptr;
    QLabel *m_kernelsTitleB = nullptr;
    QTabWidget *m_texts = nullptr;
    QTextBrowser *m_analysisA = nullptr;
    QTextBrowser *m_analysisB = nullptr;
    QTextBrowser *m_answers = nullptr;
    HeatCompareView *m_heat = nullptr;
};

} // namespace kforge
