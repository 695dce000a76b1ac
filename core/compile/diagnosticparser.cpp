#include "core/compile/diagnosticparser.h"

#include <QRegularExpression>

#include <optional>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

using Severity = Diagnostic::Severity;

Severity severityFrom(QStringView word)
{
    if (word.contains(u"warning"))
        return Severity::Warning;
    if (word == u"note" || word == u"remark")
        return Severity::Note;
    return Severity::Error; // error, fatal, fatal error, catastrophic error, internal error
}

// nvcc's EDG front end: `file.cu(12): error: text` or `file.cu(12): warning #177-D: text`.
const QRegularExpression &edgHeader()
{
    static const QRegularExpression re(
        uR"(^(.+?)\((\d+)\): (catastrophic error|internal error|error|warning|remark|note)(?: #([\w-]+))?: (.*)$)"_s);
    return re;
}

// gcc/g++ (preprocessor and host compiler): `file.cu:12:5: error: text`.
const QRegularExpression &gccHeader()
{
    static const QRegularExpression re(uR"(^(.+?):(\d+):(?:(\d+):)? (fatal error|error|warning|note): (.*)$)"_s);
    return re;
}

// ptxas, nvlink, nvcc itself, and the other CUDA tools: `ptxas error   : text`,
// `ptxas /tmp/x.ptx, line 54; error   : text`.
const QRegularExpression &toolLine()
{
    static const QRegularExpression re(
        uR"(^(ptxas|nvlink|nvcc|fatbinary|cicc|cudafe\+\+)\s*(?:(.+?), line (\d+);\s*)?(error|warning|fatal|info)\s*:\s*(.*)$)"_s);
    return re;
}

// Driver-level messages of the host toolchain: `g++: error: ...`, `cc1plus: fatal error: ...`,
// `collect2: error: ld returned 1 exit status`.
const QRegularExpression &hostToolLine()
{
    static const QRegularExpression re(uR"(^(g\+\+|gcc|c\+\+|cc1plus|collect2|as): (fatal error|error|warning): (.*)$)"_s);
    return re;
}

// The linker: `/usr/bin/ld: text` and `obj.o:(.text+0x16): undefined reference to 'x'`.
const QRegularExpression &ldLine()
{
    static const QRegularExpression re(uR"(^(?:\S*/)?ld(?:\.\w+)?: (.*)$)"_s);
    return re;
}
const QRegularExpression &ldLocatedLine()
{
    static const QRegularExpression re(uR"(^\S+:\(\.[\w.$]+\+0x[0-9a-fA-F]+\): (.*)$)"_s);
    return re;
}

bool isCaretLine(const QString &line)
{
    const QString t = line.trimmed();
    return t == u"^";
}

bool isNoise(const QString &line)
{
    static const QRegularExpression re(
        uR"(^(\d+ errors? detected in the compilation of|Remark: The warnings can be suppressed|compilation terminated\.|In file included from|\s+from ))"_s);
    static const QRegularExpression gccContext(
        uR"(^.+?: (In|At) (\w+ )*(function|instantiation|member function|constructor|destructor|lambda|global scope|top level).*:$)"_s);
    static const QRegularExpression gccExcerpt(uR"(^\s*\d*\s*\|)"_s);
    return re.match(line).hasMatch() || gccContext.match(line).hasMatch() || gccExcerpt.match(line).hasMatch();
}

bool isHeader(const QString &line)
{
    return edgHeader().match(line).hasMatch() || gccHeader().match(line).hasMatch() || toolLine().match(line).hasMatch()
           || hostToolLine().match(line).hasMatch() || ldLine().match(line).hasMatch()
           || ldLocatedLine().match(line).hasMatch();
}

QString stripTrailing(const QString &s)
{
    qsizetype n = s.size();
    while (n > 0 && s.at(n - 1).isSpace())
        --n;
    return s.left(n);
}

// The column of the caret when the printed excerpt is the source's line; EDG indents excerpts by 2.
int caretColumn(const QString &excerpt, const QString &caret, const QString *sourceText, int line)
{
    if (!sourceText || line < 1 || !excerpt.startsWith(u"  "))
        return 0;
    const QStringList lines = sourceText->split(u'\n');
    if (line > lines.size())
        return 0;
    QString original = lines.at(line - 1);
    if (original.endsWith(u'\r'))
        original.chop(1);
    if (stripTrailing(excerpt.mid(2)) != stripTrailing(original))
        return 0;
    const qsizetype pos = caret.indexOf(u'^');
    return pos >= 2 ? int(pos - 2 + 1) : 0;
}

// The output's lines, without the carriage returns of CRLF line ends.
QStringList outputLines(const QString &output)
{
    QStringList lines = output.split(u'\n');
    for (QString &l : lines)
        if (l.endsWith(u'\r'))
            l.chop(1);
    return lines;
}

// The lines after an EDG header, up to the next header or blank line: message continuations, the excerpt and
// its caret, then notes such as "detected during instantiation of ...".
QStringList edgBlock(const QStringList &lines, qsizetype from)
{
    QStringList block;
    for (qsizetype j = from; j < lines.size(); ++j) {
        if (lines.at(j).trimmed().isEmpty() || isHeader(lines.at(j)))
            break;
        block.append(lines.at(j));
    }
    return block;
}

// The diagnostic a "detected during instantiation ..." line after `d`'s caret belongs to: it closes a group of
// an error and its notes, so for a note it is the last error before it, not the note.
Diagnostic *noteOwner(Diagnostic &d, QList<Diagnostic> &out)
{
    if (d.severity == Severity::Note)
        for (auto it = out.rbegin(); it != out.rend(); ++it)
            if (it->severity != Severity::Note)
                return &*it;
    return &d;
}

// Appends the diagnostic of an EDG header and its block: the lines before the excerpt continue the message, the
// caret gives the column, and the lines after the caret go to the message of the error they belong to.
void appendEdgDiagnostic(const QRegularExpressionMatch &m, const QStringList &block,
                         const QHash<QString, QString> &sources, QList<Diagnostic> &out)
{
    Diagnostic d;
    d.tool = u"nvcc"_s;
    d.file = m.captured(1);
    d.line = m.captured(2).toInt();
    d.severity = severityFrom(m.captured(3));
    d.code = m.captured(4);
    d.message = m.captured(5).trimmed();
    qsizetype caretAt = -1;
    for (qsizetype k = 0; k < block.size(); ++k)
        if (isCaretLine(block.at(k))) {
            caretAt = k;
            break;
        }
    const qsizetype excerptAt = caretAt > 0 ? caretAt - 1 : block.size();
    for (qsizetype k = 0; k < excerptAt; ++k)
        d.message += u'\n' + block.at(k).trimmed();
    if (caretAt > 0) {
        const auto src = sources.constFind(d.file);
        d.column = caretColumn(block.at(caretAt - 1), block.at(caretAt), src == sources.cend() ? nullptr : &src.value(),
                               d.line);
        Diagnostic *owner = noteOwner(d, out);
        for (qsizetype k = caretAt + 1; k < block.size(); ++k)
            owner->message += u'\n' + block.at(k).trimmed();
    }
    out.append(d);
}

// A gcc/g++ header line's diagnostic.
Diagnostic gccDiagnostic(const QRegularExpressionMatch &m)
{
    Diagnostic d;
    d.tool = u"gcc"_s;
    d.file = m.captured(1);
    d.line = m.captured(2).toInt();
    d.column = m.captured(3).toInt();
    d.severity = severityFrom(m.captured(4));
    d.message = m.captured(5).trimmed();
    return d;
}

// A CUDA tool line's diagnostic (ptxas, nvlink, nvcc...), with the file and line ptxas names, if any.
Diagnostic toolDiagnostic(const QRegularExpressionMatch &m)
{
    Diagnostic d;
    d.tool = m.captured(1);
    d.file = m.captured(2);
    d.line = m.captured(3).toInt();
    d.severity = severityFrom(m.captured(4));
    d.message = m.captured(5).trimmed();
    return d;
}

// A host toolchain driver line's diagnostic; collect2 speaks for the linker.
Diagnostic hostToolDiagnostic(const QRegularExpressionMatch &m)
{
    Diagnostic d;
    d.tool = m.captured(1) == u"collect2" ? u"ld"_s : u"gcc"_s;
    d.severity = severityFrom(m.captured(2));
    d.message = m.captured(3).trimmed();
    return d;
}

// A linker message with the function the preceding "in function 'x':" line named, if any.
QString withLdFunction(const QString &message, const QString &ldFunction)
{
    return ldFunction.isEmpty() ? message : message + u" (in function "_s + ldFunction + u')';
}

// The diagnostic of the text after `ld: `, or none where the text is an "in function 'x':" line, whose function
// becomes the context of the linker errors that follow.
std::optional<Diagnostic> ldDiagnostic(const QString &text, QString *ldFunction)
{
    static const QRegularExpression inFunction(uR"(^.*: in function [`'](.+)':$)"_s);
    if (const auto f = inFunction.match(text); f.hasMatch()) {
        *ldFunction = f.captured(1);
        return std::nullopt;
    }
    Diagnostic d;
    d.tool = u"ld"_s;
    d.severity = Severity::Error;
    d.message = text;
    if (const auto located = ldLocatedLine().match(text); located.hasMatch()) {
        d.message = withLdFunction(located.captured(1).trimmed(), *ldFunction);
    } else if (text.startsWith(u"warning: ")) {
        d.severity = Severity::Warning;
        d.message = text.mid(9);
    } else if (text.startsWith(u"error: ")) {
        d.message = text.mid(7);
    }
    return d;
}

} // namespace

QList<Diagnostic> DiagnosticParser::parse(const QString &output, const QHash<QString, QString> &sources)
{
    QList<Diagnostic> out;
    const QStringList lines = outputLines(output);
    QString ldFunction; // "in function 'x':" context the next linker error belongs to
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString &line = lines.at(i);
        if (line.trimmed().isEmpty() || isNoise(line))
            continue;

        if (const auto m = edgHeader().match(line); m.hasMatch()) {
            const QStringList block = edgBlock(lines, i + 1);
            appendEdgDiagnostic(m, block, sources, out);
            i += block.size(); // continue after the block
            continue;
        }
        if (const auto m = gccHeader().match(line); m.hasMatch()) {
            out.append(gccDiagnostic(m));
            continue;
        }
        if (const auto m = toolLine().match(line); m.hasMatch()) {
            if (m.captured(4) != u"info") // "info" is ptxas's resource report, see PtxasResourceParser
                out.append(toolDiagnostic(m));
            continue;
        }
        if (const auto m = hostToolLine().match(line); m.hasMatch()) {
            out.append(hostToolDiagnostic(m));
            continue;
        }
        if (const auto m = ldLocatedLine().match(line); m.hasMatch()) {
            Diagnostic d;
            d.tool = u"ld"_s;
            d.message = withLdFunction(m.captured(1).trimmed(), ldFunction);
            out.append(d);
            continue;
        }
        if (const auto m = ldLine().match(line); m.hasMatch()) {
            if (const auto d = ldDiagnostic(m.captured(1).trimmed(), &ldFunction))
                out.append(*d);
            continue;
        }
    }
    return out;
}

} // namespace kforge
