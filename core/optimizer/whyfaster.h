#pragma once
// "Why is A faster than B": asks the model to explain what makes one variant of the session faster than
// another, and keeps the question and the answer in the store's pair analyses. Outside any round; the round
// runner forwards its signals so the answer streams where a round's answers do.
#include "core/llm/llmrequest.h"
#include "core/llm/llmresult.h"
#include "core/llm/pricetable.h"
#include "core/optimizer/parsedresponse.h"
#include "core/optimizer/roundsettings.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <functional>
#include <map>

namespace kforge {

class LlmClient;
class SessionStore;

class WhyFaster : public QObject
{
    Q_OBJECT
public:
    // Neither is owned; both must outlive this object.
    WhyFaster(SessionStore *store, LlmClient *llm, QObject *parent = nullptr);
    ~WhyFaster() override;

    void setRequestTemplate(const LlmRequest &request) { m_template = request; }
    void setPriceTable(const PriceTable &prices) { m_prices = prices; }
    void setSessionBudget(const Budget &budget) { m_budget = budget; }
    // What the session has spent, requests in flight elsewhere included (the store's usage when not set).
    void setUsage(std::function<RoundUsage()> used) { m_used = std::move(used); }
    QString errorString() const { return m_error; }

    // Asks why `a` is faster than `b` (or `question`); returns the pair analysis id, 0 with errorString().
    qint64 ask(qint64 a, qint64 b, const QString &question = {});

Q_SIGNALS:
    void requestStarted(qint64 responseId);
    void textDelta(qint64 responseId, const QString &text);
    void reasoningDelta(qint64 responseId, const QString &text);
    void responseFinished(qint64 responseId, qint64 variantId, const kforge::ParsedResponse &parsed);
    void pairAnswered(qint64 analysisId);

private:
    struct Request {
        qint64 responseId = 0;
        qint64 pairId = 0;
    };
    qint64 failId(const QString &message);
    void onFinished(quint64 id, const LlmResult &result);

    QPointer<SessionStore> m_store;
    QPointer<LlmClient> m_llm;
    LlmRequest m_template;
    PriceTable m_prices;
    Budget m_budget;
    std::function<RoundUsage()> m_used;
    QString m_error;
    std::map<quint64, Request> m_requests;
};

} // namespace kforge
