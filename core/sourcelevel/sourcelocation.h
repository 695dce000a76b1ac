#pragma once
// A place in a source file as the compiler's line tables name it. Lists of these run innermost first: an
// instruction of an inlined function names the helper's line, then the line it was inlined at, and so on.
#include <QList>
#include <QString>

namespace kforge {

struct SourceLocation {
    QString file; // as the compiler saw it (an absolute path on the machine that compiled)
    int line = 0;
    friend bool operator==(const SourceLocation &, const SourceLocation &) = default;
};

// The base name of a path ("/work/x/candidate.cu" -> "candidate.cu"): how profile lines are matched to the
// editor's tabs, since the source was compiled in another folder (often on another machine).
QString sourceBaseName(const QString &path);

// The first line of `chain` (innermost first) that lies in a file with base name `baseName`; 0 if none.
int lineInFile(const QList<SourceLocation> &chain, const QString &baseName);

// The last (outermost) line of `chain` in that file; 0 if none. The line the worker's source-level pass
// gives a sampled PC (an inlined helper's instruction counts on the line that called it in the kernel), so
// the heat gutter, the prompt's hot lines and the assembly panel's line column agree.
int outermostLineInFile(const QList<SourceLocation> &chain, const QString &baseName);

} // namespace kforge
