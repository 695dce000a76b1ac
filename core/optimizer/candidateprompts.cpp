#include "core/optimizer/candidateprompts.h"
#include "core/optimizer/promptbuilder.h"
#include "core/session/sessionstore.h"

#include <QSet>

namespace kforge {

namespace {

// Draws that repeat an earlier candidate's set are drawn again, this many times at most: with a small
// population some repetition cannot be avoided.
constexpr int kRedraws = 8;

} // namespace

bool CandidatePrompts::draw(const SessionStore &store, const RoundSettings &s, quint64 seed, QString *error)
{
    clear();
    if (error)
        error->clear();
    ExemplarSampler sampler(seed);
    QList<SamplerCandidate> pool = ExemplarSampler::candidates(store, s.sampler.strategy == SamplingStrategy::MostDifferent);
    int usable = 0;
    for (const auto &c : std::as_const(pool))
        usable += c.eligible ? 1 : 0;
    QList<QList<qint64>> draws;
    if (s.effectiveExemplarMode(usable) == ExemplarMode::PerRound) {
        draws << sampler.sample(pool, s.sampler);
    } else {
        // The best so far is in every prompt: treated as pinned, it is always drawn and fills one slot.
        int best = -1;
        for (int i = 0; i < pool.size(); ++i)
            if (pool[i].eligible && (best < 0 || pool[i].speedup > pool[best].speedup))
                best = i;
        if (best >= 0)
            pool[best].pinned = true;
        // Only bucket sampling is random: the other strategies would draw the same set again.
        const int redraws = s.sampler.strategy == SamplingStrategy::Buckets ? kRedraws : 0;
        QSet<QSet<qint64>> seen;
        for (int c = 0; c < s.candidates; ++c) {
            QList<qint64> ids;
            for (int attempt = 0; attempt <= redraws; ++attempt) {
                ids = sampler.sample(pool, s.sampler);
                if (!seen.contains(QSet<qint64>(ids.begin(), ids.end())))
                    break;
            }
            seen.insert(QSet<qint64>(ids.begin(), ids.end()));
            draws << ids;
        }
    }
    for (const QList<qint64> &ids : std::as_const(draws)) {
        if (ids.isEmpty()) {
            clear();
            return false;
        }
        ContrastiveRequest req;
        req.task = store.task();
        req.hint = s.hint;
        req.templateName = s.templateName;
        for (qint64 id : ids)
            req.exemplars << PromptBuilder::exemplar(store, id);
        const QString text = PromptBuilder::contrastive(req, error);
        if (text.isEmpty()) {
            clear();
            return false;
        }
        m_prompts << Prompt{ids, text, 0};
    }
    assign(s.candidates);
    return true;
}

void CandidatePrompts::restore(const QList<PromptRecord> &contrastive, int candidates)
{
    clear();
    for (const PromptRecord &p : contrastive)
        m_prompts << Prompt{p.exemplarIds, p.rendered, p.id};
    assign(candidates);
}

void CandidatePrompts::assign(int candidates)
{
    m_slots.clear();
    if (m_prompts.isEmpty())
        return;
    // One prompt: every candidate gets it. Several: one each (a shorter list, from a damaged file, repeats).
    for (int c = 0; c < candidates; ++c)
        m_slots << Slot{int(c % m_prompts.size()), false};
}

bool CandidatePrompts::store(SessionStore &store, qint64 roundId, const RoundSettings &s)
{
    for (Prompt &prompt : m_prompts) {
        PromptRecord p;
        p.roundId = roundId;
        p.kind = QStringLiteral("contrastive");
        p.templateName = PromptBuilder::templateFor(s.templateName, store.task()); // contrastive_torch on a torch task
        p.rendered = prompt.text; // exactly what is sent, edits included
        p.exemplarIds = prompt.exemplars;
        p.hint = s.hint;
        prompt.id = store.exchanges().addPrompt(p);
        if (!prompt.id)
            return false;
    }
    return true;
}

void CandidatePrompts::clear()
{
    m_prompts.clear();
    m_slots.clear();
}

void CandidatePrompts::setText(int prompt, const QString &text)
{
    if (prompt >= 0 && prompt < m_prompts.size() && !m_prompts[prompt].id)
        m_prompts[prompt].text = text;
}

int CandidatePrompts::nextUnsent() const
{
    for (int c = 0; c < m_slots.size(); ++c)
        if (!m_slots[c].sent)
            return c;
    return -1;
}

int CandidatePrompts::sentCount() const
{
    int n = 0;
    for (const Slot &s : m_slots)
        n += s.sent ? 1 : 0;
    return n;
}

int CandidatePrompts::markAnswered(qint64 promptId)
{
    for (int c = 0; c < m_slots.size(); ++c)
        if (!m_slots[c].sent && m_prompts[m_slots[c].prompt].id == promptId) {
            m_slots[c].sent = true;
            return c;
        }
    return -1;
}

} // namespace kforge
