#pragma once
// The contrastive prompts of one round and which candidate receives which. One prompt for the whole round, or
// (CUDA-L1's way) an exemplar draw and a prompt per candidate, the best variant so far always among the
// exemplars. Every prompt is stored with its exemplars before the first request, so each candidate's variant
// links to the prompt it actually received and an interrupted round resumes with the same prompts.
#include "core/optimizer/roundsettings.h"
#include "core/session/promptrecord.h"

#include <QList>
#include <QString>

namespace kforge {

class SessionStore;

class CandidatePrompts
{
public:
    struct Prompt {
        QList<qint64> exemplars;
        QString text;
        qint64 id = 0; // once stored
    };

    // Samples and renders the prompts of a round of s.candidates candidates. False when there is nothing to
    // show (*error empty) or a template does not render (*error says why).
    bool draw(const SessionStore &store, const RoundSettings &s, quint64 seed, QString *error);
    // The prompts an interrupted round stored, in order: one for every candidate, or one per candidate.
    void restore(const QList<PromptRecord> &contrastive, int candidates);
    // Records every prompt (kind contrastive, with its exemplars and the hint). False with the store's error.
    bool store(SessionStore &store, qint64 roundId, const RoundSettings &s);
    void clear();

    bool isEmpty() const { return m_prompts.isEmpty(); }
    bool isStored() const { return !m_prompts.isEmpty() && m_prompts.constFirst().id != 0; }
    bool perCandidate() const { return m_prompts.size() > 1; }
    const QList<Prompt> &prompts() const { return m_prompts; }
    // Replaces a prompt's text before it is stored (the user's edit in prompt review).
    void setText(int prompt, const QString &text);

    int candidates() const { return int(m_slots.size()); }
    const Prompt &promptOf(int candidate) const { return m_prompts[m_slots[candidate].prompt]; }
    // The first candidate whose request was not sent yet, or -1.
    int nextUnsent() const;
    bool hasUnsent() const { return nextUnsent() >= 0; }
    int sentCount() const;
    void markSent(int candidate) { m_slots[candidate].sent = true; }
    // An answer to `promptId` that is already in (resuming): its candidate counts as sent. The candidate, or -1.
    int markAnswered(qint64 promptId);

private:
    struct Slot {
        int prompt = 0;
        bool sent = false;
    };
    void assign(int candidates);

    QList<Prompt> m_prompts;
    QList<Slot> m_slots;
};

} // namespace kforge
