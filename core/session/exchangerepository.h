#pragma once
// The session's exchanges with the model: the prompts sent (by round) and the responses received (by prompt),
// a response updated as its stream arrives. Announced by the store's promptAdded() and responseChanged().
#include "core/session/promptrecord.h"
#include "core/session/responserecord.h"
#include "core/session/sessionrepository.h"

#include <QList>
#include <optional>

namespace kforge {

class ExchangeRepository : public SessionRepository
{
public:
    using SessionRepository::SessionRepository;

    qint64 addPrompt(const PromptRecord &p);
    std::optional<PromptRecord> prompt(qint64 promptId) const;
    QList<PromptRecord> prompts(qint64 roundId) const;
    qint64 addResponse(const ResponseRecord &r);
    bool updateResponse(const ResponseRecord &r);
    std::optional<ResponseRecord> response(qint64 responseId) const;
    QList<ResponseRecord> responses(qint64 promptId) const;
};

} // namespace kforge
