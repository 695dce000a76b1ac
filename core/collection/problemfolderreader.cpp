#include "core/collection/problemfolderreader.h"

#include "core/collection/problemindex.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSet>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

// Every file below `folder` but in hidden folders and __pycache__, relative, sorted.
QStringList candidateFiles(const QString &folder)
{
    QStringList files;
    const QDir dir(QDir(folder).absolutePath());
    QDirIterator it(dir.path(), QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString relative = dir.relativeFilePath(it.next());
        const QStringList parts = relative.split(u'/');
        if (std::none_of(parts.begin(), parts.end(),
                         [](const QString &p) { return p.startsWith(u'.') || p == u"__pycache__"; }))
            files << relative;
    }
    std::sort(files.begin(), files.end(), ProblemIndex::naturalLess);
    return files;
}

QString problemList(const QList<const ProblemFile *> &problems)
{
    QStringList names;
    for (const ProblemFile *p : problems)
        names << p->relative;
    return names.join(u", "_s);
}

} // namespace

Collection ProblemFolderReader::read(const QString &problemsFolder, const QString &candidatesFolder)
{
    Collection c;
    c.format = CollectionFormat::ProblemFolder;
    const ProblemIndex index = ProblemIndex::scan(problemsFolder);
    if (index.isEmpty())
        c.issues.append({problemsFolder, tr("no problem file (*.py) in this folder or its subfolders"), true});
    QHash<QString, QString> sources; // problem path -> text
    QSet<QString> paired;            // problem paths with a candidate
    const QDir candidates(QDir(candidatesFolder).absolutePath());
    for (const QString &relative : candidateFiles(candidatesFolder)) {
        const QFileInfo fi(candidates.filePath(relative));
        const QString where = candidates.dirName() + u'/' + relative;
        const QString suffix = fi.suffix().toLower();
        if (suffix != u"py"_s && suffix != u"cu"_s) {
            c.issues.append({where, tr("not a candidate (a .py module or a .cu kernel): left out"), false});
            continue;
        }
        QFile f(fi.absoluteFilePath());
        if (!f.open(QIODevice::ReadOnly)) {
            c.issues.append({where, tr("cannot be read: %1").arg(f.errorString())});
            continue;
        }
        CollectionPair pair;
        pair.candidateSource = QString::fromUtf8(f.readAll());
        pair.kind = candidateKind(pair.candidateSource);
        if (pair.kind == CandidateKind::Unknown) {
            c.issues.append({where, suffix == u"py"_s
                                        ? tr("defines no class ModelNew: a candidate module defines ModelNew with the "
                                             "problem's constructor and forward")
                                        : tr("has no KF_ENTRY: a .cu candidate exports kforge/kernel.h's entry")});
            continue;
        }
        // By name first (the same relative path, or the same stem), then by number.
        const QString relativeStem = relative.left(relative.size() - suffix.size() - 1);
        QList<const ProblemFile *> found = index.byName(relativeStem);
        if (found.size() > 1) {
            c.issues.append({where, tr("named like several problems (%1): rename it after one").arg(problemList(found))});
            continue;
        }
        if (found.isEmpty()) {
            const int number = ProblemIndex::numberIn(fi.completeBaseName());
            const int level = ProblemIndex::levelIn(relative);
            if (number < 0) {
                c.issues.append({where, tr("pairs with no problem: no problem is named %1 and the name holds no "
                                           "problem number (19_..., level1_19_..., problem_19)")
                                            .arg(fi.completeBaseName())});
                continue;
            }
            found = index.byNumber(number, level);
            if (found.isEmpty()) {
                c.issues.append(
                    {where, level > 0 ? tr("pairs with no problem: level %1 has no problem numbered %2").arg(level).arg(number)
                                      : tr("pairs with no problem: no problem is numbered %1").arg(number)});
                continue;
            }
            if (found.size() > 1) {
                c.issues.append({where, tr("ambiguous: problem %1 is in several levels (%2); name the level (a "
                                           "level1/ folder or a level1_ prefix)")
                                            .arg(number)
                                            .arg(problemList(found))});
                continue;
            }
        }
        const ProblemFile &problem = *found.first();
        if (!sources.contains(problem.path)) {
            QFile pf(problem.path);
            sources.insert(problem.path, pf.open(QIODevice::ReadOnly) ? QString::fromUtf8(pf.readAll()) : QString());
        }
        pair.problemSource = sources.value(problem.path);
        if (pair.problemSource.isEmpty()) {
            c.issues.append({where, tr("its problem %1 is empty or cannot be read").arg(problem.relative)});
            continue;
        }
        paired.insert(problem.path);
        pair.id = relative;
        pair.problemKey = problem.key();
        pair.problemOrigin = problem.relative;
        pair.candidateName = fi.fileName();
        pair.candidateOrigin = relative;
        pair.level = problem.level;
        pair.problemNumber = problem.number;
        c.pairs << pair;
    }
    for (const ProblemFile &p : index.problems())
        if (!paired.contains(p.path))
            c.issues.append({p.relative, tr("no candidate pairs with this problem"), false});
    return c;
}

} // namespace kforge
