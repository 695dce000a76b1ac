#include "core/export/templaterenderer.h"

#include <QCoreApplication>
#include <QFile>

using namespace Qt::StringLiterals;

namespace kforge {

QString TemplateRenderer::load(const QString &name, QString *error)
{
    QFile f(u":/kforge/export/"_s + name);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QCoreApplication::translate("kforge::TemplateRenderer", "Export template %1 is missing from this build")
                         .arg(name);
        return {};
    }
    return QString::fromUtf8(f.readAll());
}

QString TemplateRenderer::render(const QString &text, const Values &values, QString *error)
{
    QString out;
    out.reserve(text.size() + text.size() / 2);
    qsizetype pos = 0;
    while (pos < text.size()) {
        const qsizetype open = text.indexOf(u"{{"_s, pos);
        if (open < 0) {
            out += QStringView(text).mid(pos);
            break;
        }
        const qsizetype close = text.indexOf(u"}}"_s, open + 2);
        if (close < 0) {
            out += QStringView(text).mid(pos);
            break;
        }
        out += QStringView(text).mid(pos, open - pos);
        const QString key = text.mid(open + 2, close - open - 2).trimmed();
        const auto it = values.constFind(key);
        if (it == values.constEnd()) {
            if (error)
                *error = QCoreApplication::translate("kforge::TemplateRenderer", "no value for placeholder {{%1}}").arg(key);
            return out;
        }
        out += *it;
        pos = close + 2;
    }
    return out;
}

QString TemplateRenderer::renderResource(const QString &name, const Values &values, QString *error)
{
    QString loadError;
    const QString text = load(name, &loadError);
    if (!loadError.isEmpty()) {
        if (error)
            *error = loadError;
        return {};
    }
    QString renderError;
    QString out = render(text, values, &renderError);
    if (!renderError.isEmpty() && error)
        *error = QCoreApplication::translate("kforge::TemplateRenderer", "Export template %1: %2").arg(name, renderError);
    return out;
}

} // namespace kforge
