#pragma once
// The model's Markdown (its analysis and design) as an HTML fragment for the report, through md4c (the parser
// Qt itself uses): GitHub's dialect; raw HTML in the text is shown as text, never passed through; links keep
// their target only for http, https, mailto and in-page anchors (javascript: and the like lose it); images
// fetch nothing (the report is self-contained), so only their alt text remains.
#include <QString>

namespace kforge {

class MarkdownHtml
{
public:
    static QString toHtml(const QString &markdown);
    // Whether a link target (as md4c writes it into href, HTML-escaped) may stay.
    static bool isSafeLink(const QByteArray &href);
};

} // namespace kforge
