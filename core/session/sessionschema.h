#pragma once
// The versioned schema of a *.kforge file: an ordered list of migrations, each applied in its own
// transaction and recorded in schema_version, so a file written by any earlier KForge opens in this one.
#include <QCoreApplication>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>
#include <vector>

namespace kforge {

struct SchemaMigration {
    int version;         // the schema version after this migration
    const char *summary; // for the schema_version table and logs
    QStringList statements;
};

class SessionSchema
{
    Q_DECLARE_TR_FUNCTIONS(kforge::SessionSchema)

public:
    static const std::vector<SchemaMigration> &migrations();
    static int latestVersion();
    // The version of an open database: 0 for an empty file, -1 when it is not a KForge session.
    static int version(const QSqlDatabase &db, QString *error = nullptr);
    // Applies every migration newer than the file's version. False with *error set when one fails (the
    // failing migration is rolled back; earlier ones stay applied) or when the file is newer than this build.
    static bool migrate(QSqlDatabase &db, QString *error);
};

} // namespace kforge
