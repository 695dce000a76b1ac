#include "core/export/markdownhtml.h"

#include <md4c-html.h>

namespace kforge {

namespace {

// md_html() writes `<a href="` and `<img src="` as chunks of their own, then the URL (escaped, so it holds no
// `"`), then a chunk starting with `"`. The URL is held back until its end and checked as a whole.
struct Output {
    enum class Url { None, Link, Image };
    QByteArray html;
    Url url = Url::None;
    QByteArray pending;
};

void append(const MD_CHAR *text, MD_SIZE size, void *userdata)
{
    auto *out = static_cast<Output *>(userdata);
    const QByteArray chunk(text, qsizetype(size));
    if (out->url != Output::Url::None) {
        if (!chunk.startsWith('"')) {
            out->pending += chunk;
            return;
        }
        if (out->url == Output::Url::Link)
            out->html += MarkdownHtml::isSafeLink(out->pending) ? out->pending : QByteArray("#");
        // An image's src stays empty: a browser fetches nothing for it and shows the alt text.
        out->url = Output::Url::None;
        out->pending.clear();
    }
    if (chunk == "<a href=\"")
        out->url = Output::Url::Link;
    else if (chunk == "<img src=\"")
        out->url = Output::Url::Image;
    out->html += chunk;
}

} // namespace

bool MarkdownHtml::isSafeLink(const QByteArray &href)
{
    QByteArray url = href;
    url.replace("&amp;", "&");
    url = url.trimmed().toLower();
    if (url.startsWith('#'))
        return true;
    for (const char *scheme : {"http://", "https://", "mailto:"})
        if (url.startsWith(scheme))
            return true;
    return false;
}

QString MarkdownHtml::toHtml(const QString &markdown)
{
    const QByteArray input = markdown.toUtf8();
    Output out;
    const int rc = md_html(input.constData(), MD_SIZE(input.size()), &append, &out, MD_DIALECT_GITHUB | MD_FLAG_NOHTML, 0);
    if (rc != 0 || out.url != Output::Url::None) {
        // md4c gives up only on running out of memory; the text is still worth showing, escaped.
        return QStringLiteral("<p style=\"white-space: pre-wrap\">") + markdown.toHtmlEscaped() + QStringLiteral("</p>");
    }
    return QString::fromUtf8(out.html);
}

} // namespace kforge
