#include "core/eval/diagnostic.h"

using namespace Qt::StringLiterals;

namespace kforge {

QString Diagnostic::severityName() const
{
    switch (severity) {
    case Severity::Error: return u"error"_s;
    case Severity::Warning: return u"warning"_s;
    case Severity::Note: return u"note"_s;
    }
    return {};
}

QString Diagnostic::toString() const
{
    QString where = file.isEmpty() ? tool : file;
    if (line > 0) {
        where += u':' + QString::number(line);
        if (column > 0)
            where += u':' + QString::number(column);
    }
    return where + u": "_s + severityName() + u": "_s + message;
}

Diagnostic Diagnostic::fromJson(const QJsonObject &o)
{
    Diagnostic d;
    d.file = o.value("file"_L1).toString();
    d.line = o.value("line"_L1).toInt();
    d.column = o.value("column"_L1).toInt();
    const QString sev = o.value("severity"_L1).toString();
    d.severity = sev == "warning"_L1 ? Severity::Warning : sev == "note"_L1 ? Severity::Note : Severity::Error;
    d.message = o.value("message"_L1).toString();
    d.code = o.value("code"_L1).toString();
    d.tool = o.value("tool"_L1).toString();
    return d;
}

QJsonObject Diagnostic::toJson() const
{
    QJsonObject o{{u"file"_s, file},       {u"line"_s, line}, {u"column"_s, column}, {u"severity"_s, severityName()},
                  {u"message"_s, message}, {u"tool"_s, tool}};
    if (!code.isEmpty())
        o.insert(u"code"_s, code);
    return o;
}

QList<Diagnostic> Diagnostic::listFromJson(const QJsonArray &a)
{
    QList<Diagnostic> list;
    for (const QJsonValue &v : a)
        list.append(fromJson(v.toObject()));
    return list;
}

QJsonArray Diagnostic::listToJson(const QList<Diagnostic> &list)
{
    QJsonArray a;
    for (const Diagnostic &d : list)
        a.append(d.toJson());
    return a;
}

} // namespace kforge
