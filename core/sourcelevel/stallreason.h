#pragma once
// CUPTI's warp stall reasons by their short names ("long_scoreboard": CUPTI's name without the common
// prefix), in words a kernel author and the model can act on.
#include <QString>

namespace kforge::StallReason {

// "long scoreboard" (underscores to spaces; a "_not_issued" suffix is dropped).
QString label(const QString &shortName);
// "waiting on a global or local memory load (L1TEX)"; empty for an unknown reason.
QString meaning(const QString &shortName);
// "long scoreboard: waiting on a global or local memory load (L1TEX)", or the label alone.
QString describe(const QString &shortName);

// describe() in English, untranslated: for prompts, which are model input and stay English.
QString promptText(const QString &shortName);

} // namespace kforge::StallReason
