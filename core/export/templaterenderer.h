#pragma once
// The export templates (resources/export, compiled in as Qt resources): `{{key}}` placeholders filled from a
// table. A placeholder without a value is an error rather than an empty string, so a template and its
// generator cannot drift apart silently.
#include <QHash>
#include <QString>

namespace kforge {

class TemplateRenderer
{
public:
    using Values = QHash<QString, QString>;

    // The template `name` ("cmake/CMakeLists.txt.in") from :/kforge/export; empty with *error set when missing.
    static QString load(const QString &name, QString *error);
    // `text` with every {{key}} replaced; on an unknown key, the text so far and *error naming the key.
    static QString render(const QString &text, const Values &values, QString *error);
    // load() + render(); *error names the template.
    static QString renderResource(const QString &name, const Values &values, QString *error);
};

} // namespace kforge
