#include "core/eval/kernelname.h"

#include <cstdlib>
#include <cxxabi.h>
#include <memory>
#include <vector>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

bool isIdentifier(QChar c)
{
    return c.isLetterOrNumber() || c == u'_' || c == u'$';
}

bool isOpening(QChar c)
{
    return c == u'(' || c == u'<' || c == u'{' || c == u'[';
}

bool isClosing(QChar c)
{
    return c == u')' || c == u'>' || c == u'}' || c == u']';
}

// Whether the keyword "operator" starts at i (not "my_operator", not "operators").
bool operatorAt(QStringView s, qsizetype i)
{
    constexpr QStringView kw = u"operator";
    if (!s.sliced(i).startsWith(kw) || (i > 0 && isIdentifier(s[i - 1])))
        return false;
    const qsizetype end = i + kw.size();
    return end == s.size() || !isIdentifier(s[end]);
}

// The end of the operator name that starts at i: "operator()", "operator<<=", "operator new[]",
// "operator float const*" (a conversion). Its brackets are part of the name and do not nest.
qsizetype operatorEnd(QStringView s, qsizetype i)
{
    qsizetype j = i + 8;
    const qsizetype n = s.size();
    if (j < n && s[j] == u' ') {
        // new, delete or a conversion: words up to the parameter list or a template argument list.
        while (j < n && s[j] != u'(' && s[j] != u'<' && s[j] != u',' && s[j] != u'>')
            ++j;
        while (j > i + 8 && s[j - 1] == u' ')
            --j;
        return j;
    }
    if (s.sliced(j).startsWith(u"()") || s.sliced(j).startsWith(u"[]"))
        return j + 2;
    // The longest operator token, so "operator<<=>" is "operator<<=" and then the closing '>'.
    static constexpr QStringView tokens[] = {u"<<=", u">>=", u"->*", u"<<", u">>", u"<=", u">=", u"==", u"!=",
                                             u"&&",  u"||",  u"++",  u"--", u"+=", u"-=", u"*=", u"/=", u"%=",
                                             u"^=",  u"&=",  u"|=",  u"->", u"<",  u">",  u"=",  u"!",  u"+",
                                             u"-",   u"*",   u"/",   u"%",  u"^",  u"&",  u"|",  u"~",  u","};
    for (const QStringView t : tokens)
        if (s.sliced(j).startsWith(t))
            return j + t.size();
    return j;
}

QString demangled(const QString &name)
{
    if (!name.startsWith(u"_Z"))
        return name;
    int status = 0;
    const QByteArray raw = name.toLatin1();
    std::unique_ptr<char, decltype(&std::free)> d(abi::__cxa_demangle(raw.constData(), nullptr, nullptr, &status),
                                                  &std::free);
    return status == 0 && d ? QString::fromLatin1(d.get()) : name;
}

// "ns::f<int>(float*, int) const" -> "ns::f<int>": cv/ref qualifiers of a member, then the last top-level
// parenthesised group, matched from the end so "(anonymous namespace)" in front cannot be taken for it.
QString withoutParameters(QString s)
{
    for (bool again = true; again;) {
        again = false;
        for (const QStringView suffix : {u" const", u" volatile", u" noexcept", u" &&", u" &", u"&&", u"&"}) {
            if (s.endsWith(suffix) && s.size() > suffix.size()) {
                s.chop(suffix.size());
                again = true;
            }
        }
    }
    if (!s.endsWith(u')'))
        return s;
    int depth = 0;
    for (qsizetype i = s.size() - 1; i >= 0; --i) {
        if (s[i] == u')') {
            ++depth;
        } else if (s[i] == u'(' && --depth == 0) {
            // "operator()" with no parameter list after it is the name itself.
            if (i > 0 && !(i >= 8 && operatorAt(s, i - 8) && i + 1 == s.size() - 1))
                s.truncate(i);
            break;
        }
    }
    return s.trimmed();
}

// "void ns::f<int>" -> "ns::f<int>": a return type ends at the last space outside brackets.
QString withoutReturnType(const QString &s)
{
    qsizetype depth = 0, cut = -1;
    for (qsizetype i = 0; i < s.size();) {
        if (operatorAt(s, i)) {
            i = operatorEnd(s, i);
            continue;
        }
        const QChar c = s[i];
        if (isOpening(c))
            ++depth;
        else if (isClosing(c) && depth > 0)
            --depth;
        else if (c == u' ' && depth == 0)
            cut = i;
        ++i;
    }
    return s.mid(cut + 1);
}

// Every "qualifier::" removed, at every nesting level: a qualifier is the run of text since the last
// separator (space, comma, '*', '&' or an opening bracket) at the same level, brackets included, so
// "cub::Policy<float, cub::Sum>::Policy600" -> "Policy600" and "run(float*)::{lambda(int)#1}" -> "{lambda(int)#1}".
// The class in front of an operator stays: "Functor::operator()".
QString withoutQualifiers(const QString &s)
{
    QString out;
    out.reserve(s.size());
    std::vector<qsizetype> segment{0}; // where the current qualifier would start in `out`, per level
    const qsizetype n = s.size();
    for (qsizetype i = 0; i < n;) {
        if (operatorAt(s, i)) {
            const qsizetype end = operatorEnd(s, i);
            out += QStringView(s).sliced(i, end - i);
            i = end;
            continue;
        }
        const QChar c = s[i];
        if (c == u':' && i + 1 < n && s[i + 1] == u':') {
            i += 2;
            if (i < n && operatorAt(s, i)) {
                out += u"::"_s; // keep "Functor::" before "operator()"
                continue;
            }
            out.truncate(segment.back());
            continue;
        }
        out += c;
        ++i;
        if (isOpening(c)) {
            segment.push_back(out.size());
        } else if (isClosing(c)) {
            if (segment.size() > 1)
                segment.pop_back();
        } else if (c == u' ' || c == u',' || c == u'*' || c == u'&') {
            segment.back() = out.size();
        }
    }
    return out;
}

// Where the top-level template argument list starts, or -1.
qsizetype templateStart(const QString &s)
{
    for (qsizetype i = 0; i < s.size();) {
        if (operatorAt(s, i)) {
            i = operatorEnd(s, i);
            continue;
        }
        if (s[i] == u'<')
            return i;
        if (isOpening(s[i])) {
            int depth = 0;
            for (; i < s.size(); ++i) {
                if (isOpening(s[i]))
                    ++depth;
                else if (isClosing(s[i]) && --depth == 0)
                    break;
            }
        }
        ++i;
    }
    return -1;
}

} // namespace

QString kernelDisplayName(const QString &name, int maxLength)
{
    const QString full = demangled(name.trimmed());
    if (full.isEmpty())
        return full;
    QString s = withoutQualifiers(withoutReturnType(withoutParameters(full))).trimmed();
    if (s.isEmpty())
        return full;
    if (s.size() > maxLength && s.endsWith(u'>')) {
        if (const qsizetype lt = templateStart(s); lt > 0)
            s = s.left(lt) + u"<…>"_s;
    }
    return s;
}

} // namespace kforge
