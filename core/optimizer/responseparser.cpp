#include "core/optimizer/responseparser.h"

#include <QRegularExpression>
#include <algorithm>
#include <array>
#include <optional>
#include <vector>

namespace kforge {

QString ParsedResponse::statusName() const
{
    switch (status) {
    case Status::Ok: return QStringLiteral("ok");
    case Status::Partial: return QStringLiteral("partial");
    case Status::Failed: return QStringLiteral("failed");
    }
    return {};
}

namespace {

struct Fence {
    int openLine = 0;   // index of the ``` line
    int closeLine = -1; // -1: never closed
    QString info;
    QString code;
    bool closed() const { return closeLine >= 0; }
};

struct Heading {
    int line = 0;
    ResponseParser::Part part = ResponseParser::Part::None;
    bool strong = false; // a markdown heading or a bold line, rather than a "Label:" line
    QString inlineText;  // "**Analysis:** the rest of the line" -> "the rest of the line"
};

// Reasoning some servers leave inline instead of in a separate field.
QString stripThinking(const QString &text, QString *reasoning)
{
    static const QRegularExpression block(QStringLiteral("<(think|thinking|reasoning)>(.*?)</\\1>\\s*"),
                                          QRegularExpression::DotMatchesEverythingOption
                                              | QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression open(QStringLiteral("<(think|thinking|reasoning)>"),
                                         QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression closeOnly(QStringLiteral("</(think|thinking|reasoning)>"),
                                              QRegularExpression::CaseInsensitiveOption);
    QStringList parts;
    QString out = text;
    for (auto m = block.match(out); m.hasMatch(); m = block.match(out)) {
        parts << m.captured(2).trimmed();
        out.remove(m.capturedStart(), m.capturedLength());
    }
    // Still thinking when the answer ended: all of it is reasoning.
    if (const auto m = open.match(out); m.hasMatch()) {
        parts << out.mid(m.capturedEnd()).trimmed();
        out.truncate(m.capturedStart());
    }
    // The opening tag went to the reasoning channel, the closing one into the text.
    if (const auto m = closeOnly.match(out); m.hasMatch()) {
        parts.prepend(out.left(m.capturedStart()).trimmed());
        out = out.mid(m.capturedEnd());
    }
    parts.removeAll(QString());
    *reasoning = parts.join(QLatin1String("\n\n"));
    return out;
}

std::vector<Fence> findFences(const QStringList &lines)
{
    static const QRegularExpression opening(QStringLiteral("^ {0,3}(`{3,}|~{3,})\\s*([^`\\s]*)[^`]*$"));
    std::vector<Fence> out;
    for (int i = 0; i < lines.size(); ++i) {
        const auto m = opening.match(lines[i]);
        if (!m.hasMatch())
            continue;
        const QString marker = m.captured(1);
        Fence f;
        f.openLine = i;
        f.info = m.captured(2).toLower();
        QStringList body;
        int j = i + 1;
        for (; j < lines.size(); ++j) {
            const QString t = lines[j].trimmed();
            if (t.startsWith(marker.left(3)) && t.size() >= marker.size() && t == QString(t.size(), marker.front()))
                break;
            body << lines[j];
        }
        f.code = body.join(QLatin1Char('\n'));
        if (j < lines.size())
            f.closeLine = j;
        out.push_back(f);
        i = j; // continue after the closing fence (or at the end)
    }
    return out;
}

bool definesEntry(const QString &code)
{
    static const QRegularExpression entry(QStringLiteral("\\b(KF_ENTRY|kf_entry)\\s*\\("));
    return entry.match(code).hasMatch();
}

// A torch task's answer in its Python form: a module defining class ModelNew (PyTorch ops, load_inline CUDA,
// Triton), in a python/py block or an unlabelled one.
bool definesModelNew(const Fence &f)
{
    static const QRegularExpression modelNew(QStringLiteral("^class\\s+ModelNew\\b"), QRegularExpression::MultilineOption);
    return (f.info.isEmpty() || f.info == QLatin1String("python") || f.info == QLatin1String("py")
            || f.info == QLatin1String("python3"))
           && modelNew.match(f.code).hasMatch();
}

// A block that is a complete candidate: a KForge .cu (KF_ENTRY) or a ModelNew module.
bool isCandidate(const Fence &f)
{
    return definesModelNew(f) || definesEntry(f.code);
}

// Title words that name a part, matched case-insensitively in a short heading (English ones at the start of
// a word, so "explanation" is not a "plan"); the earliest wins, so "Analysis of the implementation" is an
// analysis and "Implementation" is code.
struct Keyword {
    const char16_t *text;
    ResponseParser::Part part;
};
constexpr std::array kKeywords{
    Keyword{u"analysis", ResponseParser::Part::Analysis},   Keyword{u"analyses", ResponseParser::Part::Analysis},
    Keyword{u"analyse", ResponseParser::Part::Analysis},    Keyword{u"analyze", ResponseParser::Part::Analysis},
    Keyword{u"bottleneck", ResponseParser::Part::Analysis}, Keyword{u"why ", ResponseParser::Part::Analysis},
    Keyword{u"分析", ResponseParser::Part::Analysis},       Keyword{u"瓶颈", ResponseParser::Part::Analysis},
    Keyword{u"design", ResponseParser::Part::Design},       Keyword{u"algorithm", ResponseParser::Part::Design},
    Keyword{u"approach", ResponseParser::Part::Design},     Keyword{u"plan", ResponseParser::Part::Design},
    Keyword{u"strategy", ResponseParser::Part::Design},     Keyword{u"optimization idea", ResponseParser::Part::Design},
    Keyword{u"设计", ResponseParser::Part::Design},         Keyword{u"算法", ResponseParser::Part::Design},
    Keyword{u"方案", ResponseParser::Part::Design},         Keyword{u"思路", ResponseParser::Part::Design},
    Keyword{u"策略", ResponseParser::Part::Design},         Keyword{u"code", ResponseParser::Part::Code},
    Keyword{u"implementation", ResponseParser::Part::Code}, Keyword{u"source", ResponseParser::Part::Code},
    Keyword{u"代码", ResponseParser::Part::Code},           Keyword{u"实现", ResponseParser::Part::Code},
    Keyword{u"源码", ResponseParser::Part::Code},
};

// The heading text without numbering, emphasis and trailing colon: "**2) Algorithm Design:**" -> "Algorithm Design".
QString cleanTitle(QString t)
{
    static const QRegularExpression decoration(QStringLiteral("^[\\s*_#>]+|[\\s*_]+$"));
    static const QRegularExpression numbering(
        QStringLiteral("^(?:(?:step|part|section)\\s*)?(?:\\d+|[ivx]+|[a-c])\\s*[.)、:：-]?\\s+|^(?:\\d+|[ivx]+)[.)、]|"
                       "^第?[一二三四五六七八九十]+(?:部分|步|、|\\.|：|:)?\\s*|^[(（]\\d+[)）]\\s*"),
        QRegularExpression::CaseInsensitiveOption);
    t = t.trimmed();
    for (int pass = 0; pass < 3; ++pass) {
        t.remove(decoration);
        t.remove(numbering);
    }
    t.remove(decoration);
    while (t.endsWith(QLatin1Char(':')) || t.endsWith(QChar(u'：')))
        t.chop(1);
    t.remove(decoration);
    return t.trimmed();
}

int wordCount(const QString &s)
{
    // CJK titles have no spaces: count two characters as a word so 性能分析与瓶颈 stays "short".
    int n = 0;
    bool inWord = false;
    int cjk = 0;
    for (QChar c : s) {
        if (c.unicode() >= 0x3000) {
            ++cjk;
            inWord = false;
        } else if (c.isSpace()) {
            inWord = false;
        } else if (!inWord) {
            inWord = true;
            ++n;
        }
    }
    return n + (cjk + 1) / 2;
}

std::optional<Heading> headingOf(const QStringList &lines, int index)
{
    const QString &line = lines[index];
    static const QRegularExpression atx(QStringLiteral("^ {0,3}#{1,6}\\s+(.+?)\\s*#*\\s*$"));
    // **Title** / __Title__ alone, or followed by a colon and text: **Analysis:** blah / **Analysis**: blah
    static const QRegularExpression bold(QStringLiteral("^\\s*(?:\\d+[.)]\\s*)?(\\*\\*|__)(.+?)\\1\\s*(?:[:：]\\s*(.*))?$"));
    static const QRegularExpression boldColonInside(
        QStringLiteral("^\\s*(?:\\d+[.)]\\s*)?(\\*\\*|__)(.+?[:：])\\1\\s*(.*)$"));
    // 1. Title / 1) Title: text / 一、性能分析 / Analysis: text / Step 2 - Design
    static const QRegularExpression plain(
        QStringLiteral("^\\s*((?:(?:step|part)\\s*)?(?:\\d+|[一二三四五六七八九十]+)\\s*[.)、:：-]|第[一二三四五六七八九十]+部分[:：]?)?\\s*"
                       "([^:：]{1,60}?)\\s*(?:[:：]\\s*(.*))?$"),
        QRegularExpression::CaseInsensitiveOption);
    Heading h;
    h.line = index;
    if (const auto m = atx.match(line); m.hasMatch()) {
        const QString title = cleanTitle(m.captured(1));
        if (wordCount(title) > 10)
            return std::nullopt;
        h.part = ResponseParser::classifyHeading(title);
        h.strong = true;
        return h;
    }
    auto m = bold.match(line);
    if (!m.hasMatch())
        m = boldColonInside.match(line);
    if (m.hasMatch()) {
        const QString title = cleanTitle(m.captured(2));
        if (wordCount(title) > 10)
            return std::nullopt;
        h.part = ResponseParser::classifyHeading(title);
        h.strong = true;
        h.inlineText = m.captured(3).trimmed();
        return h;
    }
    if (const auto m = plain.match(line); m.hasMatch()) {
        const bool numbered = !m.captured(1).isEmpty();
        const bool colon = m.capturedLength(3) > 0 || line.trimmed().endsWith(QLatin1Char(':'))
                           || line.trimmed().endsWith(QChar(u'：'));
        // A bare line counts only when it looks like a label: numbered or ending in a colon, and short; or
        // a very short line of its own paragraph ("Code", "Implementation").
        const QString title = cleanTitle(m.captured(2));
        const bool ownParagraph = (index == 0 || lines[index - 1].trimmed().isEmpty()) && wordCount(title) <= 3
                                  && m.capturedLength(3) == 0;
        if ((!numbered && !colon && !ownParagraph) || wordCount(title) > 4)
            return std::nullopt;
        const auto part = ResponseParser::classifyHeading(title);
        if (part == ResponseParser::Part::None)
            return std::nullopt; // an ordinary numbered list item
        h.part = part;
        h.inlineText = m.captured(3).trimmed();
        return h;
    }
    return std::nullopt;
}

// The block taken as the code, and how many complete blocks were candidates for it.
struct CodeChoice {
    const Fence *chosen = nullptr;
    int candidates = 0;
};

// The code: a complete block that defines the entry point (or, for a torch task, class ModelNew); among
// several, prefer the ones that are a complete file (the ABI header included, or a ModelNew module), then the
// last (models revise as they go).
CodeChoice chooseCode(const std::vector<Fence> &fences)
{
    const auto complete = [](const Fence &f) {
        return definesModelNew(f) || f.code.contains(QLatin1String("kforge/kernel.h"));
    };
    CodeChoice c;
    for (const auto &f : fences) {
        if (!f.closed() || !isCandidate(f))
            continue;
        ++c.candidates;
        if (!c.chosen || complete(f) || !complete(*c.chosen))
            c.chosen = &f;
    }
    return c;
}

// Takes the chosen block as the answer's code and notes what is doubtful about it, or why there is none;
// marks an answer cut off inside a block or at the token limit as truncated.
void takeCode(ParsedResponse &r, const CodeChoice &c, const std::vector<Fence> &fences, const QString &body,
              bool hitTokenLimit)
{
    const bool openAtEnd = !fences.empty() && !fences.back().closed();
    r.truncated = openAtEnd || hitTokenLimit;
    if (c.chosen) {
        const bool python = definesModelNew(*c.chosen);
        r.code = c.chosen->code.trimmed() + QLatin1Char('\n');
        r.codeLanguage = python ? QStringLiteral("python") : c.chosen->info;
        if (c.candidates > 1) {
            r.ambiguous = true;
            r.problems << ResponseParser::tr("%1 code blocks define KF_ENTRY or ModelNew; used the one at line %2")
                              .arg(c.candidates)
                              .arg(c.chosen->openLine + 1);
        }
        if (!python && !c.chosen->code.contains(QLatin1String("kforge/kernel.h")))
            r.problems << ResponseParser::tr("the code does not include \"kforge/kernel.h\"");
    } else if (openAtEnd) {
        r.problems << ResponseParser::tr(
                          "the answer was cut off inside its code block (line %1 opens a block that never closes)")
                          .arg(fences.back().openLine + 1);
    } else if (fences.empty()) {
        r.problems << (body.trimmed().isEmpty() ? ResponseParser::tr("the answer is empty")
                                                : ResponseParser::tr("the answer has no code block"));
    } else {
        r.problems << ResponseParser::tr("no code block defines KF_ENTRY or class ModelNew (%n block(s) in the answer)",
                                         nullptr, int(fences.size()));
    }
    if (hitTokenLimit && !openAtEnd)
        r.problems << ResponseParser::tr("the model stopped at its token limit");
}

// Which lines belong to a code block, its fence lines included; a block never closed runs to the end.
std::vector<bool> codeLineMask(const QStringList &lines, const std::vector<Fence> &fences)
{
    std::vector<bool> inCode(size_t(lines.size()), false);
    for (const auto &f : fences)
        for (int i = f.openLine; i <= (f.closed() ? f.closeLine : int(lines.size()) - 1); ++i)
            inCode[size_t(i)] = true;
    return inCode;
}

// The headings outside code blocks that name a part.
std::vector<Heading> findHeadings(const QStringList &lines, const std::vector<bool> &inCode)
{
    std::vector<Heading> headings;
    for (int i = 0; i < lines.size(); ++i) {
        if (inCode[size_t(i)])
            continue;
        if (auto h = headingOf(lines, i); h && h->part != ResponseParser::Part::None)
            headings.push_back(*h);
    }
    // An answer structured with markdown headings uses "Label:" lines for lists inside its sections.
    if (std::any_of(headings.begin(), headings.end(), [](const Heading &h) { return h.strong; }))
        headings.erase(std::remove_if(headings.begin(), headings.end(), [](const Heading &h) { return !h.strong; }),
                       headings.end());
    return headings;
}

// The text of heading k's section: its inline text and the lines up to the next heading, less the chosen code.
QString sectionText(const QStringList &lines, const std::vector<Heading> &headings, size_t k, const Fence *chosen)
{
    const int from = headings[k].line + 1;
    const int to = k + 1 < headings.size() ? headings[k + 1].line : int(lines.size());
    QStringList out;
    if (!headings[k].inlineText.isEmpty())
        out << headings[k].inlineText;
    for (int i = from; i < to; ++i) {
        // The chosen code is the code part, wherever it sits.
        if (chosen && i >= chosen->openLine && i <= chosen->closeLine)
            continue;
        out << lines[i];
    }
    return out.join(QLatin1Char('\n')).trimmed();
}

// Fills the analysis and the design from their sections; several sections of one part are joined.
void takeSections(ParsedResponse &r, const QStringList &lines, const std::vector<Heading> &headings,
                  const Fence *chosen)
{
    for (size_t k = 0; k < headings.size(); ++k) {
        QString *target = headings[k].part == ResponseParser::Part::Analysis ? &r.analysis
                          : headings[k].part == ResponseParser::Part::Design ? &r.design
                                                                             : nullptr;
        if (!target)
            continue;
        const QString text = sectionText(lines, headings, k, chosen);
        if (!text.isEmpty())
            *target = target->isEmpty() ? text : *target + QLatin1String("\n\n") + text;
    }
}

// The prose lines before line `end`, outside code blocks.
QString proseBefore(const QStringList &lines, const std::vector<bool> &inCode, int end)
{
    QStringList prose;
    for (int i = 0; i < end; ++i)
        if (!inCode[size_t(i)])
            prose << lines[i];
    return prose.join(QLatin1Char('\n')).trimmed();
}

// Notes a missing analysis or design and sets the status: failed without code, partial without both parts.
void judgeParts(ParsedResponse &r, bool hasCode)
{
    if (r.analysis.isEmpty())
        r.problems << ResponseParser::tr("no performance analysis");
    if (r.design.isEmpty())
        r.problems << ResponseParser::tr("no algorithm design");

    if (!hasCode)
        r.status = ParsedResponse::Status::Failed;
    else if (r.analysis.isEmpty() || r.design.isEmpty())
        r.status = ParsedResponse::Status::Partial;
    else
        r.status = ParsedResponse::Status::Ok;
}

} // namespace

ResponseParser::Part ResponseParser::classifyHeading(const QString &title)
{
    const QString t = cleanTitle(title).toLower() + QLatin1Char(' ');
    Part best = Part::None;
    qsizetype bestAt = -1;
    for (const auto &k : kKeywords) {
        const QString word = QString::fromUtf16(k.text);
        const bool latin = word.front().unicode() < 0x80;
        for (qsizetype at = t.indexOf(word); at >= 0; at = t.indexOf(word, at + 1)) {
            if (latin && at > 0 && (t[at - 1].isLetterOrNumber() || t[at - 1] == QLatin1Char('-')))
                continue; // "pseudo-code" is no code heading
            if (bestAt < 0 || at < bestAt) {
                bestAt = at;
                best = k.part;
            }
            break;
        }
    }
    return best;
}

ParsedResponse ResponseParser::parse(const QString &answer, bool hitTokenLimit)
{
    ParsedResponse r;
    QString body = stripThinking(answer, &r.reasoning);
    body.replace(QLatin1String("\r\n"), QLatin1String("\n"));
    const QStringList lines = body.split(QLatin1Char('\n'));
    const std::vector<Fence> fences = findFences(lines);
    r.codeBlocks = int(fences.size());

    const CodeChoice code = chooseCode(fences);
    takeCode(r, code, fences, body, hitTokenLimit);

    // Sections, outside code blocks.
    const std::vector<bool> inCode = codeLineMask(lines, fences);
    const std::vector<Heading> headings = findHeadings(lines, inCode);
    takeSections(r, lines, headings, code.chosen);
    if (headings.empty() && code.chosen) {
        // No headings at all: whatever prose precedes the code is the model's reasoning about it.
        r.analysis = proseBefore(lines, inCode, code.chosen->openLine);
    }
    judgeParts(r, code.chosen != nullptr);
    return r;
}

} // namespace kforge
