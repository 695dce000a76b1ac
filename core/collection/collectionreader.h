#pragma once
// Reads a collection in any of its three layouts (docs/verify-collection.md): which one a path is, unless the
// user says, and the reader for it. Unreadable input as a whole (no such file, not JSON, no problems folder) is an
// error; a record that cannot become a pair is an issue of the collection and the rest is read.
#include "core/collection/collection.h"

#include <QCoreApplication>
#include <QMap>
#include <QString>
#include <optional>

namespace kforge {

struct CollectionOptions {
    std::optional<CollectionFormat> format; // --format; detected when not set
    QString problems;                       // --problems: the problems of a run folder or of a candidates folder
    QString candidates;                     // --candidates: the candidates of a folder of problems
    QMap<QString, QString> fieldMap;        // --map: a released JSON's field names (task_id=..., ref_code=...)
    QString baseline;                       // --baseline: KernelBench's baseline_time_torch.json for a run folder
};

struct CollectionReadResult {
    std::optional<Collection> collection;
    QString error; // translated, when there is no collection
};

class CollectionReader
{
    Q_DECLARE_TR_FUNCTIONS(kforge::CollectionReader)

public:
    static CollectionReadResult read(const QString &path, const CollectionOptions &options);
    // A .json file: ReleasedJson; a folder with level_*_problem_*_sample_*_kernel.py files: KernelBenchRun;
    // another folder: ProblemFolder (its problems/ and candidates/, or --problems/--candidates). Empty with
    // `why` when the path is none of them.
    static std::optional<CollectionFormat> detect(const QString &path, const CollectionOptions &options, QString *why);
    // The format a --format word names.
    static std::optional<CollectionFormat> formatFromName(const QString &name);
};

} // namespace kforge
