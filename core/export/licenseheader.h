#pragma once
// The license header put on top of every generated source file, commented in the file's own syntax.
#include <QByteArray>
#include <QString>

namespace kforge {

class LicenseHeader
{
public:
    enum class Style { None, Slashes, Hash };

    // Slashes for C/C++/CUDA, Hash for CMake, Python and shell, None for Markdown, JSON and the rest.
    static Style styleFor(const QString &path);
    // `text` as comment lines in `style` (blank lines keep the comment marker); empty when text is blank.
    static QString comment(const QString &text, Style style);
    // `content` with the header in front; after a "#!" line when there is one. Unchanged when the
    // style is None or the text is blank.
    static QByteArray apply(const QString &path, const QByteArray &content, const QString &text);
};

} // namespace kforge
