#pragma once
// One compiler message located in a source: what the editor marks and the CLI prints.
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>

namespace kforge {

struct Diagnostic {
    enum class Severity { Error, Warning, Note };

    QString file;   // as the tool printed it: the source's name, a header path, or empty (link, ptxas)
    int line = 0;   // 1-based; 0 when the message has no location
    int column = 0; // 1-based; 0 when unknown
    Severity severity = Severity::Error;
    QString message; // may span several lines (continuations, "detected during instantiation ...")
    QString code;    // nvcc's diagnostic number ("177-D") when it gave one
    QString tool;    // "nvcc", "gcc", "ptxas", "nvlink", "ld"

    QString severityName() const; // "error", "warning", "note"
    QString toString() const;     // "file:line:column: error: message" like a compiler would print it

    static Diagnostic fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
    static QList<Diagnostic> listFromJson(const QJsonArray &a);
    static QJsonArray listToJson(const QList<Diagnostic> &list);
    friend bool operator==(const Diagnostic &, const Diagnostic &) = default;
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::Diagnostic)
