#include "core/sourcelevel/sasslisting.h"

#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

// "/*01c0*/   @!P0 LDG.E.CONSTANT R12, desc[UR6][R12.64] ;" (cuobjdump adds "/* 0x... */" after the ';').
const QRegularExpression &instructionPattern()
{
    static const QRegularExpression re(uR"re(^\s*/\*([0-9a-fA-F]+)\*/\s+([^;]*?)\s*;)re"_s);
    return re;
}

const QRegularExpression &markerPattern()
{
    static const QRegularExpression re(uR"re(^\s*//## File "([^"]*)", line (\d+)(?: inlined at "([^"]*)", line (\d+))?)re"_s);
    return re;
}

SassInstruction parseInstruction(qint64 offset, QStringView body)
{
    SassInstruction ins;
    ins.offset = offset;
    QStringView rest = body.trimmed();
    if (rest.startsWith(u'@')) {
        const qsizetype space = rest.indexOf(u' ');
        ins.predicate = (space < 0 ? rest : rest.left(space)).toString();
        rest = space < 0 ? QStringView() : rest.mid(space + 1).trimmed();
    }
    const qsizetype space = rest.indexOf(u' ');
    ins.opcode = (space < 0 ? rest : rest.left(space)).toString();
    ins.operands = space < 0 ? QString() : rest.mid(space + 1).trimmed().toString();
    return ins;
}

// Shared by both tools: instructions, line markers, and whatever starts a function in `functionName`.
template <typename FunctionStart>
SassListing parseLines(const QString &text, SassListing::Source source, FunctionStart functionName)
{
    SassListing listing;
    listing.source = source;
    static const QRegularExpression archRe(uR"re((?:^\s*\.target\s+|arch = )(sm_\w+))re"_s);
    QList<SourceLocation> chain; // the location the following instructions belong to
    bool chainOpen = false;      // markers seen since the last instruction extend one chain
    for (QString line : text.split(u'\n')) {
        if (line.endsWith(u'\r'))
            line.chop(1);
        if (const QString name = functionName(line); !name.isEmpty()) {
            if (listing.functions.isEmpty() || listing.functions.last().name != name)
                listing.functions.append(SassFunction{name, {}});
            chain.clear();
            chainOpen = false;
            continue;
        }
        if (const auto m = markerPattern().match(line); m.hasMatch()) {
            if (!chainOpen)
                chain.clear();
            chainOpen = true;
            const SourceLocation here{m.captured(1), m.capturedView(2).toInt()};
            if (chain.isEmpty() || chain.last() != here)
                chain.append(here);
            if (m.hasCaptured(3))
                chain.append(SourceLocation{m.captured(3), m.capturedView(4).toInt()});
            continue;
        }
        if (const auto m = instructionPattern().match(line); m.hasMatch()) {
            if (listing.functions.isEmpty())
                continue; // an instruction outside any function: not a listing we understand
            bool ok = false;
            const qint64 offset = m.capturedView(1).toLongLong(&ok, 16);
            if (!ok)
                continue;
            SassInstruction ins = parseInstruction(offset, m.capturedView(2));
            ins.where = chain;
            chainOpen = false;
            listing.functions.last().instructions.append(std::move(ins));
            continue;
        }
        if (listing.arch.isEmpty()) {
            if (const auto m = archRe.match(line); m.hasMatch())
                listing.arch = m.captured(1);
        }
    }
    // A function header without instructions (cuobjdump prints empty sections for some kernels) stays out.
    listing.functions.removeIf([](const SassFunction &f) { return f.instructions.isEmpty(); });
    return listing;
}

} // namespace

QString SassInstruction::baseOpcode() const
{
    const qsizetype dot = opcode.indexOf(u'.');
    return dot < 0 ? opcode : opcode.left(dot);
}

QString SassInstruction::text() const
{
    QString s;
    if (!predicate.isEmpty())
        s += predicate + u' ';
    s += opcode;
    if (!operands.isEmpty())
        s += u' ' + operands;
    return s;
}

int SassFunction::indexOfOffset(qint64 offset) const
{
    // Offsets ascend within a function: binary search.
    const auto it = std::lower_bound(instructions.cbegin(), instructions.cend(), offset,
                                     [](const SassInstruction &i, qint64 o) { return i.offset < o; });
    return it != instructions.cend() && it->offset == offset ? int(it - instructions.cbegin()) : -1;
}

bool SassListing::hasLineInfo() const
{
    for (const SassFunction &f : functions) {
        for (const SassInstruction &i : f.instructions) {
            if (!i.where.isEmpty())
                return true;
        }
    }
    return false;
}

const SassFunction *SassListing::function(const QString &name) const
{
    for (const SassFunction &f : functions) {
        if (f.name == name)
            return &f;
    }
    return nullptr;
}

int SassListing::instructionCount() const
{
    int n = 0;
    for (const SassFunction &f : functions)
        n += int(f.instructions.size());
    return n;
}

SassListing SassListing::parse(const QString &text)
{
    static const QRegularExpression cuobjdump(uR"re(^\s*Function : )re"_s, QRegularExpression::MultilineOption);
    return cuobjdump.match(text).hasMatch() ? parseCuobjdump(text) : parseNvdisasm(text);
}

SassListing SassListing::parseNvdisasm(const QString &text)
{
    // ".section	.text._Z5scalePKfPfi,"ax",@progbits" starts a function.
    static const QRegularExpression start(uR"re(^\s*\.section\s+\.text\.([^,\s"]+))re"_s);
    return parseLines(text, Source::Nvdisasm, [](const QString &line) {
        const auto m = start.match(line);
        return m.hasMatch() ? m.captured(1) : QString();
    });
}

SassListing SassListing::parseCuobjdump(const QString &text)
{
    static const QRegularExpression start(uR"re(^\s*Function : (\S+))re"_s);
    return parseLines(text, Source::Cuobjdump, [](const QString &line) {
        const auto m = start.match(line);
        return m.hasMatch() ? m.captured(1) : QString();
    });
}

void SassListing::append(const SassListing &other)
{
    if (source == Source::None)
        source = other.source;
    if (arch.isEmpty())
        arch = other.arch;
    functions.append(other.functions);
}

} // namespace kforge
