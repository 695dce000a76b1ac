#include "core/export/licenseheader.h"

#include <QFileInfo>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace kforge {

LicenseHeader::Style LicenseHeader::styleFor(const QString &path)
{
    const QFileInfo fi(path);
    const QString suffix = fi.suffix().toLower();
    static const QStringList slashes = {u"c"_s, u"h"_s, u"cc"_s, u"cpp"_s, u"cxx"_s, u"hpp"_s, u"cu"_s, u"cuh"_s};
    static const QStringList hash = {u"py"_s, u"cmake"_s, u"sh"_s};
    if (slashes.contains(suffix))
        return Style::Slashes;
    if (suffix == u"txt"_s)
        return fi.fileName() == u"CMakeLists.txt"_s ? Style::Hash : Style::None;
    if (hash.contains(suffix))
        return Style::Hash;
    return Style::None;
}

QString LicenseHeader::comment(const QString &text, Style style)
{
    if (style == Style::None || text.trimmed().isEmpty())
        return {};
    const QString marker = style == Style::Slashes ? u"//"_s : u"#"_s;
    QStringList lines = text.trimmed().split(u'\n');
    QString out;
    for (QString line : lines) {
        while (line.endsWith(u'\r') || line.endsWith(u' ') || line.endsWith(u'\t'))
            line.chop(1);
        out += line.isEmpty() ? marker : marker + u' ' + line;
        out += u'\n';
    }
    return out + u'\n';
}

QByteArray LicenseHeader::apply(const QString &path, const QByteArray &content, const QString &text)
{
    const QString header = comment(text, styleFor(path));
    if (header.isEmpty())
        return content;
    if (content.startsWith("#!")) {
        const qsizetype eol = content.indexOf('\n');
        const qsizetype split = eol < 0 ? content.size() : eol + 1;
        return content.left(split) + header.toUtf8() + content.mid(split);
    }
    return header.toUtf8() + content;
}

} // namespace kforge
