#include "core/session/roundrecord.h"
#include "core/session/enumnames.h"

namespace kforge {

namespace {
constexpr std::array<std::pair<RoundState, const char *>, 6> kRoundStates{{
    {RoundState::Running, "running"},
    {RoundState::Paused, "paused"},
    {RoundState::Finished, "finished"},
    {RoundState::Stopped, "stopped"},
    {RoundState::Interrupted, "interrupted"},
    {RoundState::Failed, "failed"},
}};
} // namespace

QString toString(RoundState state)
{
    return detail::nameOf(kRoundStates, state);
}

RoundState roundStateFromString(const QString &s, bool *ok)
{
    return detail::valueOf(kRoundStates, s, RoundState::Interrupted, ok);
}

bool isActive(RoundState state)
{
    return state == RoundState::Running || state == RoundState::Paused;
}

} // namespace kforge
