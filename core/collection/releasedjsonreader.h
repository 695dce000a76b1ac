#pragma once
// A released-kernels JSON file: a list of records, or an object of lists (one per level: "level1", "level_2",
// "3"), each record holding a task id, the reference's code, the candidate's code and the claimed speedup. The
// field names default to {"task_id", "ref_code", "custom_code", "score"} (and an optional "level"); other layouts
// name theirs with --map (`--map custom_code=kernel`), not with code of their own.
#include "core/collection/collection.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonValue>
#include <QMap>
#include <functional>
#include <optional>

namespace kforge {

class ReleasedJsonReader
{
    Q_DECLARE_TR_FUNCTIONS(kforge::ReleasedJsonReader)

public:
    // The canonical field names, which --map renames.
    static QStringList fields();
    // Nullopt with `error` when the file cannot be read or is no JSON list or object.
    static std::optional<Collection> read(const QString &file, const QMap<QString, QString> &fieldMap, QString *error);
    // A claimed speedup: a number, or a string like "1.4", "1.4x", "×1.4"; nullopt for anything else.
    static std::optional<double> parseSpeedup(const QJsonValue &v);

private:
    using Groups = QList<QPair<QString, QJsonArray>>;
    using FieldNames = std::function<QString(const QString &)>; // a canonical field's name in this file
    static std::optional<Groups> groupsIn(const QString &file, Collection &c, QString *error);
    static std::optional<CollectionPair> pairOf(const QJsonValue &record, const QString &where, const QString &group,
                                                const FieldNames &field, Collection &c);
};

} // namespace kforge
