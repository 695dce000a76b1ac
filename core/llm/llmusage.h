#pragma once
// Token counts of one LLM answer (or a sum of answers), as the provider reported them.
#include <QMetaType>
#include <QtGlobal>

namespace kforge {

struct LlmUsage {
    qint64 promptTokens = 0;     // everything sent, cached or not
    qint64 completionTokens = 0; // everything generated, reasoning included
    qint64 reasoningTokens = 0;  // the part of completionTokens spent thinking, when the provider says
    bool reported = false;       // false when the server sent no usage at all

    LlmUsage &operator+=(const LlmUsage &o)
    {
        promptTokens += o.promptTokens;
        completionTokens += o.completionTokens;
        reasoningTokens += o.reasoningTokens;
        reported = reported || o.reported;
        return *this;
    }
    bool operator==(const LlmUsage &) const = default;
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::LlmUsage)
