#include "core/optimizer/whyfaster.h"

#include "core/llm/llmclient.h"
#include "core/optimizer/llmexchange.h"
#include "core/optimizer/promptbuilder.h"
#include "core/session/sessionstore.h"

#include <QRegularExpression>

namespace kforge {

WhyFaster::WhyFaster(SessionStore *store, LlmClient *llm, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_llm(llm)
{
    connect(m_llm, &LlmClient::textDelta, this, [this](quint64 id, const QString &text) {
        if (const auto it = m_requests.find(id); it != m_requests.end())
            Q_EMIT textDelta(it->second.responseId, text);
    });
    connect(m_llm, &LlmClient::reasoningDelta, this, [this](quint64 id, const QString &text) {
        if (const auto it = m_requests.find(id); it != m_requests.end())
            Q_EMIT reasoningDelta(it->second.responseId, text);
    });
    connect(m_llm, &LlmClient::finished, this, &WhyFaster::onFinished);
    // A question asked of a session that is closed has nowhere to land.
    connect(m_store, &SessionStore::closed, this, [this] {
        for (const auto &[id, r] : m_requests)
            if (m_llm)
                m_llm->cancel(id);
        m_requests.clear();
    });
}

WhyFaster::~WhyFaster()
{
    for (const auto &[id, r] : m_requests)
        if (m_llm)
            m_llm->cancel(id);
}

qint64 WhyFaster::failId(const QString &message)
{
    m_error = message;
    return 0;
}

qint64 WhyFaster::ask(qint64 a, qint64 b, const QString &question)
{
    m_error.clear();
    if (!m_store || !m_store->population().contains(a) || !m_store->population().contains(b))
        return failId(tr("Choose two variants of the open session."));
    const RoundUsage used = m_used ? m_used() : m_store->rounds().sessionUsage();
    if (const QString why = m_budget.exhaustedBy(used); !why.isEmpty())
        return failId(tr("The session budget is spent: %1").arg(why));
    CompareRequest req;
    req.task = m_store->task();
    req.a = PromptBuilder::exemplar(*m_store, a);
    req.b = PromptBuilder::exemplar(*m_store, b);
    req.question = question;
    QString error;
    const QString prompt = PromptBuilder::compare(req, &error);
    if (prompt.isEmpty())
        return failId(error);
    PromptRecord p;
    p.kind = QStringLiteral("compare");
    p.templateName = req.templateName;
    p.rendered = prompt;
    p.exemplarIds = {a, b};
    const qint64 promptId = m_store->exchanges().addPrompt(p);
    const QString asked = PromptBuilder::compareContext(req).value(QStringLiteral("question")).toString();
    const qint64 pairId = m_store->analyses().addPairAnalysis(PairAnalysis{0, a, b, asked, {}, 0, {}});
    if (!promptId || !pairId)
        return failId(m_store->errorString());
    const LlmRequest r = llmexchange::request(m_template, prompt);
    const qint64 responseId = m_store->exchanges().addResponse(llmexchange::started(r, promptId));
    if (!responseId)
        return failId(m_store->errorString());
    m_requests[m_llm->send(r)] = Request{responseId, pairId};
    Q_EMIT requestStarted(responseId);
    return pairId;
}

void WhyFaster::onFinished(quint64 id, const LlmResult &result)
{
    const auto it = m_requests.find(id);
    if (it == m_requests.end())
        return;
    const Request req = it->second;
    m_requests.erase(it);
    const ParsedResponse parsed = llmexchange::parse(result);
    llmexchange::storeAnswer(*m_store, req.responseId, result, parsed, m_prices);
    QString text = result.text;
    // The answer is prose: only <think> blocks are taken out.
    static const QRegularExpression think(QStringLiteral("<think>.*?</think>\\s*"),
                                          QRegularExpression::DotMatchesEverythingOption);
    text.remove(think);
    m_store->analyses().setPairAnswer(req.pairId, llmexchange::usable(result) ? text.trimmed() : QString(), req.responseId);
    Q_EMIT pairAnswered(req.pairId);
    Q_EMIT responseFinished(req.responseId, 0, parsed);
}

} // namespace kforge
