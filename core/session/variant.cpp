#include "core/session/variant.h"
#include "core/session/enumnames.h"

namespace kforge {

namespace {

constexpr std::array<std::pair<VariantOrigin, const char *>, 4> kOrigins{{
    {VariantOrigin::Reference, "reference"},
    {VariantOrigin::Manual, "manual"},
    {VariantOrigin::Model, "model"},
    {VariantOrigin::Imported, "imported"},
}};

constexpr std::array<std::pair<VariantStatus, const char *>, 7> kStatuses{{
    {VariantStatus::Generated, "generated"},
    {VariantStatus::Compiling, "compiling"},
    {VariantStatus::Verifying, "verifying"},
    {VariantStatus::Timing, "timing"},
    {VariantStatus::Profiling, "profiling"},
    {VariantStatus::Done, "done"},
    {VariantStatus::Failed, "failed"},
}};

} // namespace

QString toString(VariantOrigin origin)
{
    return detail::nameOf(kOrigins, origin);
}

VariantOrigin variantOriginFromString(const QString &s, bool *ok)
{
    return detail::valueOf(kOrigins, s, VariantOrigin::Imported, ok);
}

QString toString(VariantStatus status)
{
    return detail::nameOf(kStatuses, status);
}

VariantStatus variantStatusFromString(const QString &s, bool *ok)
{
    return detail::valueOf(kStatuses, s, VariantStatus::Failed, ok);
}

bool isInFlight(VariantStatus status)
{
    return status != VariantStatus::Done && status != VariantStatus::Failed;
}

} // namespace kforge
