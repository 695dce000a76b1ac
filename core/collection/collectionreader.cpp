#include "core/collection/collectionreader.h"

#include "core/collection/kernelbenchrunreader.h"
#include "core/collection/problemfolderreader.h"
#include "core/collection/releasedjsonreader.h"
#include "core/collection/torchextension.h"

#include <QDir>
#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace kforge {

std::optional<CollectionFormat> CollectionReader::formatFromName(const QString &name)
{
    for (CollectionFormat f :
         {CollectionFormat::ProblemFolder, CollectionFormat::ReleasedJson, CollectionFormat::KernelBenchRun})
        if (formatName(f) == name)
            return f;
    return std::nullopt;
}

std::optional<CollectionFormat> CollectionReader::detect(const QString &path, const CollectionOptions &options, QString *why)
{
    if (options.format)
        return options.format;
    const QFileInfo fi(path);
    if (!fi.exists()) {
        *why = tr("no such file or folder: %1").arg(path);
        return std::nullopt;
    }
    if (fi.isFile()) {
        if (fi.suffix().compare(u"json"_s, Qt::CaseInsensitive) == 0)
            return CollectionFormat::ReleasedJson;
        *why = tr("%1 is a file but not a .json collection; a collection is a released-kernels .json, a KernelBench "
                  "run folder or a folder of problems and candidates")
                   .arg(path);
        return std::nullopt;
    }
    if (KernelBenchRunReader::isRunFolder(path))
        return CollectionFormat::KernelBenchRun;
    return CollectionFormat::ProblemFolder;
}

CollectionReadResult CollectionReader::read(const QString &path, const CollectionOptions &options)
{
    CollectionReadResult r;
    const std::optional<CollectionFormat> format = detect(path, options, &r.error);
    if (!format)
        return r;
    switch (*format) {
    case CollectionFormat::ProblemFolder: {
        // `verify DIR` reads DIR/problems and DIR/candidates; --problems P makes DIR the candidates, and
        // --candidates C makes DIR the problems.
        QString problems = options.problems, candidates = options.candidates;
        if (problems.isEmpty() && candidates.isEmpty()) {
            problems = QDir(path).filePath(u"problems"_s);
            candidates = QDir(path).filePath(u"candidates"_s);
        } else if (problems.isEmpty()) {
            problems = path;
        } else if (candidates.isEmpty()) {
            candidates = path;
        }
        for (const QString &dir : {problems, candidates})
            if (!QFileInfo(dir).isDir()) {
                r.error = tr("no folder %1: a folder collection is a folder of problems and one of candidates (DIR "
                             "with problems/ and candidates/, or --problems and --candidates)")
                              .arg(dir);
                return r;
            }
        r.collection = ProblemFolderReader::read(problems, candidates);
        break;
    }
    case CollectionFormat::ReleasedJson:
        r.collection = ReleasedJsonReader::read(path, options.fieldMap, &r.error);
        break;
    case CollectionFormat::KernelBenchRun:
        if (options.problems.isEmpty()) {
            r.error = tr("a KernelBench run folder holds the generated kernels only: name the problems with "
                         "--problems (a KernelBench checkout, or its KernelBench/ folder with level1/, level2/ ...)");
            return r;
        }
        r.collection = KernelBenchRunReader::read(path, options.problems, options.baseline, &r.error);
        break;
    }
    if (r.collection) {
        r.collection->path = path;
        TorchExtension::wrapPairs(*r.collection);
    }
    return r;
}

} // namespace kforge
