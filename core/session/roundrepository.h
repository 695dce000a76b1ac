#pragma once
// The session's optimisation rounds: starting one, its state, the requests, tokens and cost it spent, and the
// whole session's spending. Each change is announced by the store's roundChanged().
#include "core/session/roundrecord.h"
#include "core/session/sessionrepository.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <optional>

namespace kforge {

class RoundRepository : public SessionRepository
{
public:
    using SessionRepository::SessionRepository;

    qint64 add(const QJsonObject &settings);
    // Also takes the round off SessionStore::interruptedRounds().
    bool setState(qint64 roundId, RoundState state, const QString &message = {});
    bool addUsage(qint64 roundId, const RoundUsage &usage);
    std::optional<RoundRecord> find(qint64 roundId) const;
    QList<RoundRecord> all() const;
    RoundUsage sessionUsage() const;
};

} // namespace kforge
