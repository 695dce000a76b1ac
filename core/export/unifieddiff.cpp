#include "core/export/unifieddiff.h"

#include <dtl/dtl.hpp>

#include <string>
#include <vector>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

std::vector<std::string> lines(const QString &text)
{
    std::vector<std::string> out;
    QString t = text;
    t.replace(u"\r\n"_s, u"\n"_s);
    if (t.endsWith(u'\n'))
        t.chop(1);
    if (t.isEmpty())
        return out;
    for (const QString &l : t.split(u'\n'))
        out.push_back(l.toStdString());
    return out;
}

} // namespace

QList<UnifiedDiff::Line> UnifiedDiff::compute(const QString &before, const QString &after, const QString &beforeName,
                                              const QString &afterName)
{
    using Seq = std::vector<std::string>;
    const Seq a = lines(before);
    const Seq b = lines(after);
    dtl::Diff<std::string, Seq> diff(a, b);
    diff.compose();
    diff.composeUnifiedHunks();
    const auto hunks = diff.getUniHunks();
    QList<Line> out;
    if (hunks.empty())
        return out;
    out << Line{Kind::Header, u"--- "_s + beforeName} << Line{Kind::Header, u"+++ "_s + afterName};
    const auto text = [](const std::string &s) { return QString::fromStdString(s); };
    for (const auto &h : hunks) {
        out << Line{Kind::Hunk, u"@@ -%1,%2 +%3,%4 @@"_s.arg(h.a).arg(h.b).arg(h.c).arg(h.d)};
        for (const auto &e : h.common[0])
            out << Line{Kind::Context, text(e.first)};
        for (const auto &e : h.change) {
            const Kind k = e.second.type == dtl::SES_ADD      ? Kind::Added
                           : e.second.type == dtl::SES_DELETE ? Kind::Removed
                                                              : Kind::Context;
            out << Line{k, text(e.first)};
        }
        for (const auto &e : h.common[1])
            out << Line{Kind::Context, text(e.first)};
    }
    return out;
}

QString UnifiedDiff::toText(const QList<Line> &diff)
{
    QString out;
    for (const Line &l : diff) {
        switch (l.kind) {
        case Kind::Header:
        case Kind::Hunk: out += l.text; break;
        case Kind::Context: out += u' ' + l.text; break;
        case Kind::Removed: out += u'-' + l.text; break;
        case Kind::Added: out += u'+' + l.text; break;
        }
        out += u'\n';
    }
    return out;
}

int UnifiedDiff::count(const QList<Line> &diff, Kind kind)
{
    return int(std::count_if(diff.begin(), diff.end(), [kind](const Line &l) { return l.kind == kind; }));
}

} // namespace kforge
