#pragma once
// The prompt templates (resources/prompts/*.md, compiled in; a user's copy in
// <AppDataLocation>/prompts/ wins) and their small Mustache-like language:
//   {{name}} / {{a.b}}      the value of a key, looked up from the innermost section outwards
//   {{#name}}...{{/name}}   repeated for each item of a list, once for a true value or a map, skipped when
//                           the value is absent, false, empty or an empty list; {{.}} is the current item
//   {{^name}}...{{/name}}   rendered only when {{#name}} would be skipped
//   {{! comment }}          dropped
// A section or comment tag alone on its line takes the line with it. An unknown {{name}} is an error, so
// a template and the code that fills it cannot drift apart unnoticed.
#include <QCoreApplication>
#include <QString>
#include <QVariant>

namespace kforge {

class PromptTemplate
{
    Q_DECLARE_TR_FUNCTIONS(kforge::PromptTemplate)

public:
    // Where a user's templates override the built-in ones.
    static QString overrideFolder();
    // The built-in template `name` ("contrastive"), unless overrideFolder() holds name + ".md".
    // Empty with *error set when neither exists. *origin, when given, receives the file read.
    static QString load(const QString &name, QString *error, QString *origin = nullptr);
    static QString loadBuiltIn(const QString &name, QString *error);
    // `text` with its tags expanded from `context` (a QVariantMap of strings, numbers, bools, lists, maps).
    // On an error, the empty string and *error with the line of the offending tag.
    static QString render(const QString &text, const QVariantMap &context, QString *error);
};

} // namespace kforge
