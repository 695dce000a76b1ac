#pragma once
// A model answer split into its parts: performance analysis, algorithm design, the kernel source, and any
// reasoning the model wrapped in <think> tags, with what was missing or doubtful.
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace kforge {

struct ParsedResponse {
    enum class Status {
        Ok,      // code, analysis and design found
        Partial, // code found, but the analysis or the design is missing
        Failed,  // no usable code: nothing to compile (the raw answer is still stored)
    };
    Status status = Status::Failed;
    QString analysis;
    QString design;
    QString code;
    QString codeLanguage;   // the fence's info string: cuda, cpp, c++, or empty; "python" for a ModelNew module
    QString reasoning;      // text of <think>...</think> blocks
    int codeBlocks = 0;     // fenced blocks in the answer
    bool ambiguous = false; // several blocks define the entry point; the last complete one was taken
    bool truncated = false; // the answer ends inside a code block (or the model hit its token limit)
    QStringList problems;   // translated, one per finding

    bool hasCode() const { return !code.isEmpty(); }
    QString statusName() const; // "ok", "partial", "failed": as stored in responses.parse_status
    QString message() const { return problems.join(QLatin1String("; ")); }
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::ParsedResponse)
