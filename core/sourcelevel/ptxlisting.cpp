#include "core/sourcelevel/ptxlisting.h"

#include <QHash>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

struct RawLoc {
    int file = 0, line = 0;
    int inlinedFile = 0, inlinedLine = 0; // PTX names one level of inlining per .loc
};

} // namespace

bool PtxListing::hasLineInfo() const
{
    for (const PtxLine &l : lines) {
        if (!l.where.isEmpty())
            return true;
    }
    return false;
}

const PtxFunction *PtxListing::function(const QString &name) const
{
    for (const PtxFunction &f : functions) {
        if (f.name == name)
            return &f;
    }
    return nullptr;
}

QList<int> PtxListing::linesFor(const QString &baseName, int line, const QString &functionName) const
{
    int first = 0, last = int(lines.size()) - 1;
    if (!functionName.isEmpty()) {
        const PtxFunction *f = function(functionName);
        if (!f)
            return {};
        first = f->firstLine;
        last = f->lastLine;
    }
    QList<int> out;
    for (int i = first; i <= last; ++i) {
        if (lines.at(i).instruction && outermostLineInFile(lines.at(i).where, baseName) == line)
            out.append(i);
    }
    return out;
}

PtxListing PtxListing::parse(const QString &text)
{
    // The .file table comes at the end of the module, so locations are resolved after a first pass.
    static const QRegularExpression fileRe(uR"re(^\s*\.file\s+(\d+)\s+"([^"]*)")re"_s);
    static const QRegularExpression locRe(
        uR"re(^\s*\.loc\s+(\d+)\s+(\d+)\s+\d+(?:\s*,\s*function_name\s+\S+\s*,\s*inlined_at\s+(\d+)\s+(\d+)\s+\d+)?)re"_s);
    static const QRegularExpression functionRe(
        uR"re(^\s*(?:\.visible\s+|\.weak\s+|\.extern\s+)*\.(entry|func)\s+(?:\([^)]*\)\s*)?([\w$]+))re"_s);
    static const QRegularExpression targetRe(uR"re(^\s*\.target\s+(\w+))re"_s);

    PtxListing listing;
    QHash<int, QString> files;
    QList<RawLoc> locs; // per line
    RawLoc current;
    int depth = 0;         // brace depth inside a function body
    int openFunction = -1; // index into functions while its body is open
    for (QString view : text.split(u'\n')) {
        if (view.endsWith(u'\r'))
            view.chop(1);
        const int index = int(listing.lines.size());
        PtxLine line{view, {}, false};
        const QString trimmed = view.trimmed();
        if (const auto m = fileRe.match(view); m.hasMatch()) {
            files.insert(m.capturedView(1).toInt(), m.captured(2));
        } else if (const auto m = locRe.match(view); m.hasMatch()) {
            current = RawLoc{m.capturedView(1).toInt(), m.capturedView(2).toInt(),
                             m.hasCaptured(3) ? m.capturedView(3).toInt() : 0,
                             m.hasCaptured(4) ? m.capturedView(4).toInt() : 0};
        } else if (const auto m = functionRe.match(view); m.hasMatch() && depth == 0) {
            listing.functions.append(PtxFunction{m.captured(2), m.capturedView(1) == u"entry", index, index});
            openFunction = int(listing.functions.size()) - 1;
            current = RawLoc{};
        } else if (listing.target.isEmpty()) {
            if (const auto t = targetRe.match(view); t.hasMatch())
                listing.target = t.captured(1);
        }
        if (openFunction >= 0) {
            depth += int(trimmed.count(u'{')) - int(trimmed.count(u'}'));
            listing.functions[openFunction].lastLine = index;
            if (depth == 0 && trimmed.contains(u'}')) {
                openFunction = -1;
                current = RawLoc{};
            } else if (depth == 0 && trimmed.endsWith(u';')) {
                listing.functions.removeLast(); // a declaration (".extern .func vprintf(...);"), no body
                openFunction = -1;
            }
            // An instruction: inside a body, not a directive, label, brace or comment.
            line.instruction = depth > 0 && !trimmed.isEmpty() && !trimmed.startsWith(u'.') && !trimmed.startsWith(u"//")
                               && !trimmed.startsWith(u'{') && !trimmed.startsWith(u'}') && !trimmed.endsWith(u':');
        }
        locs.append(openFunction >= 0 || line.instruction ? current : RawLoc{});
        listing.lines.append(std::move(line));
    }
    for (qsizetype i = 0; i < listing.lines.size(); ++i) {
        const RawLoc &l = locs.at(i);
        if (l.file == 0 || l.line == 0)
            continue;
        QList<SourceLocation> &where = listing.lines[i].where;
        where.append(SourceLocation{files.value(l.file), l.line});
        if (l.inlinedFile != 0 && l.inlinedLine != 0)
            where.append(SourceLocation{files.value(l.inlinedFile), l.inlinedLine});
    }
    return listing;
}

} // namespace kforge
