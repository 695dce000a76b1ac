#include "core/export/codenames.h"

#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace kforge {

bool CodeNames::isReservedWord(const QString &word)
{
    // C++ keywords, Python keywords, and names the generated code itself uses at the same scope.
    static const QSet<QString> reserved = {
        u"alignas"_s,
        u"alignof"_s,
        u"and"_s,
        u"and_eq"_s,
        u"asm"_s,
        u"auto"_s,
        u"bitand"_s,
        u"bitor"_s,
        u"bool"_s,
        u"break"_s,
        u"case"_s,
        u"catch"_s,
        u"char"_s,
        u"char8_t"_s,
        u"char16_t"_s,
        u"char32_t"_s,
        u"class"_s,
        u"compl"_s,
        u"concept"_s,
        u"const"_s,
        u"consteval"_s,
        u"constexpr"_s,
        u"constinit"_s,
        u"const_cast"_s,
        u"continue"_s,
        u"co_await"_s,
        u"co_return"_s,
        u"co_yield"_s,
        u"decltype"_s,
        u"default"_s,
        u"delete"_s,
        u"do"_s,
        u"double"_s,
        u"dynamic_cast"_s,
        u"else"_s,
        u"enum"_s,
        u"explicit"_s,
        u"export"_s,
        u"extern"_s,
        u"false"_s,
        u"float"_s,
        u"for"_s,
        u"friend"_s,
        u"goto"_s,
        u"if"_s,
        u"inline"_s,
        u"int"_s,
        u"long"_s,
        u"mutable"_s,
        u"namespace"_s,
        u"new"_s,
        u"noexcept"_s,
        u"not"_s,
        u"not_eq"_s,
        u"nullptr"_s,
        u"operator"_s,
        u"or"_s,
        u"or_eq"_s,
        u"private"_s,
        u"protected"_s,
        u"public"_s,
        u"register"_s,
        u"reinterpret_cast"_s,
        u"requires"_s,
        u"return"_s,
        u"short"_s,
        u"signed"_s,
        u"sizeof"_s,
        u"static"_s,
        u"static_assert"_s,
        u"static_cast"_s,
        u"struct"_s,
        u"switch"_s,
        u"template"_s,
        u"this"_s,
        u"thread_local"_s,
        u"throw"_s,
        u"true"_s,
        u"try"_s,
        u"typedef"_s,
        u"typeid"_s,
        u"typename"_s,
        u"union"_s,
        u"unsigned"_s,
        u"using"_s,
        u"virtual"_s,
        u"void"_s,
        u"volatile"_s,
        u"wchar_t"_s,
        u"while"_s,
        u"xor"_s,
        u"xor_eq"_s,
        // Python
        u"False"_s,
        u"None"_s,
        u"True"_s,
        u"as"_s,
        u"assert"_s,
        u"async"_s,
        u"await"_s,
        u"def"_s,
        u"del"_s,
        u"elif"_s,
        u"except"_s,
        u"finally"_s,
        u"from"_s,
        u"global"_s,
        u"import"_s,
        u"in"_s,
        u"is"_s,
        u"lambda"_s,
        u"nonlocal"_s,
        u"pass"_s,
        u"raise"_s,
        u"with"_s,
        u"yield"_s,
        // common macros and names of the generated code
        u"NULL"_s,
        u"EOF"_s,
        u"assert"_s,
        u"stream"_s,
        u"run"_s,
        u"torch"_s,
        u"F"_s,
        u"math"_s,
        u"params"_s,
        u"shape"_s,
        u"numel"_s,
        u"std"_s,
        u"main"_s,
    };
    return reserved.contains(word);
}

QString CodeNames::identifier(const QString &name, QSet<QString> *taken)
{
    QString id;
    id.reserve(name.size());
    for (const QChar c : name) {
        const bool ok = (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9') || c == u'_';
        id += ok ? c : u'_';
    }
    if (id.isEmpty() || id.front().isDigit())
        id.prepend(u'_');
    // Reserved to the implementation (__x), or to the kernel ABI (kf_, KF_).
    if (id.startsWith(u"__"_s) || id.startsWith(u"kf_"_s) || id.startsWith(u"KF_"_s))
        id = u"t_"_s + id;
    while (isReservedWord(id) || (taken && taken->contains(id)))
        id += u'_';
    if (taken)
        taken->insert(id);
    return id;
}

QString CodeNames::cppType(runtime::Dtype t)
{
    switch (t) {
    case runtime::Dtype::F32: return u"float"_s;
    case runtime::Dtype::F16: return u"__half"_s;
    case runtime::Dtype::BF16: return u"__nv_bfloat16"_s;
    case runtime::Dtype::F64: return u"double"_s;
    case runtime::Dtype::I32: return u"int32_t"_s;
    case runtime::Dtype::I64: return u"int64_t"_s;
    case runtime::Dtype::U8: return u"uint8_t"_s;
    }
    return u"float"_s;
}

QString CodeNames::kfDtype(runtime::Dtype t)
{
    switch (t) {
    case runtime::Dtype::F32: return u"KF_F32"_s;
    case runtime::Dtype::F16: return u"KF_F16"_s;
    case runtime::Dtype::BF16: return u"KF_BF16"_s;
    case runtime::Dtype::F64: return u"KF_F64"_s;
    case runtime::Dtype::I32: return u"KF_I32"_s;
    case runtime::Dtype::I64: return u"KF_I64"_s;
    case runtime::Dtype::U8: return u"KF_U8"_s;
    }
    return u"KF_F32"_s;
}

QString CodeNames::torchDtype(runtime::Dtype t)
{
    switch (t) {
    case runtime::Dtype::F32: return u"torch.float32"_s;
    case runtime::Dtype::F16: return u"torch.float16"_s;
    case runtime::Dtype::BF16: return u"torch.bfloat16"_s;
    case runtime::Dtype::F64: return u"torch.float64"_s;
    case runtime::Dtype::I32: return u"torch.int32"_s;
    case runtime::Dtype::I64: return u"torch.int64"_s;
    case runtime::Dtype::U8: return u"torch.uint8"_s;
    }
    return u"torch.float32"_s;
}

QString CodeNames::atScalarType(runtime::Dtype t)
{
    switch (t) {
    case runtime::Dtype::F32: return u"torch::kFloat32"_s;
    case runtime::Dtype::F16: return u"torch::kFloat16"_s;
    case runtime::Dtype::BF16: return u"torch::kBFloat16"_s;
    case runtime::Dtype::F64: return u"torch::kFloat64"_s;
    case runtime::Dtype::I32: return u"torch::kInt32"_s;
    case runtime::Dtype::I64: return u"torch::kInt64"_s;
    case runtime::Dtype::U8: return u"torch::kUInt8"_s;
    }
    return u"torch::kFloat32"_s;
}

QString CodeNames::dtypeName(runtime::Dtype t)
{
    return QString::fromUtf8(runtime::dtypeName(t).data(), qsizetype(runtime::dtypeName(t).size()));
}

QString CodeNames::cString(const QString &text)
{
    QString out = u"\""_s;
    const QByteArray utf8 = text.toUtf8();
    for (const char ch : utf8) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '\\': out += u"\\\\"_s; break;
        case '"': out += u"\\\""_s; break;
        case '\n': out += u"\\n"_s; break;
        case '\t': out += u"\\t"_s; break;
        case '\r': out += u"\\r"_s; break;
        default:
            // Octal escapes keep non-ASCII bytes exact without the hex-escape greediness of \x.
            if (c < 0x20 || c >= 0x7f)
                out += u"\\%1"_s.arg(uint(c), 3, 8, QChar(u'0'));
            else
                out += QLatin1Char(char(c));
        }
    }
    return out + u'"';
}

QString CodeNames::pyList(const QStringList &items)
{
    QStringList quoted;
    for (const QString &i : items)
        quoted << pyString(i);
    return u"["_s + quoted.join(u", "_s) + u"]"_s;
}

QString CodeNames::pyString(const QString &text)
{
    QString out = u"\""_s;
    for (const QChar c : text) {
        if (c == u'\\')
            out += u"\\\\"_s;
        else if (c == u'"')
            out += u"\\\""_s;
        else if (c == u'\n')
            out += u"\\n"_s;
        else if (c == u'\r')
            out += u"\\r"_s;
        else if (c == u'\t')
            out += u"\\t"_s;
        else if (c.unicode() < 0x20)
            out += u"\\x%1"_s.arg(uint(c.unicode()), 2, 16, QChar(u'0'));
        else
            out += c;
    }
    return out + u'"';
}

bool CodeNames::isIntegral(double v)
{
    return std::isfinite(v) && std::floor(v) == v && std::fabs(v) < 9.0e15;
}

QString CodeNames::number(double v)
{
    if (isIntegral(v))
        return QString::number(qint64(v));
    if (std::isnan(v))
        return u"NAN"_s;
    if (std::isinf(v))
        return v > 0 ? u"INFINITY"_s : u"-INFINITY"_s;
    // Shortest text that reads back to the same double, always with a '.' or exponent so C++ sees a double.
    QString s = QString::number(v, 'g', std::numeric_limits<double>::max_digits10);
    for (int p = 6; p < std::numeric_limits<double>::max_digits10; ++p) {
        const QString shorter = QString::number(v, 'g', p);
        if (shorter.toDouble() == v) {
            s = shorter;
            break;
        }
    }
    if (!s.contains(u'.') && !s.contains(u'e'))
        s += u".0"_s;
    return s;
}

} // namespace kforge
