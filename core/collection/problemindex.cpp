#include "core/collection/problemindex.h"

#include "core/collection/collection.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QRegularExpression>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace kforge {

QString ProblemFile::key() const
{
    return problemKeyFor(level > 0 && ProblemIndex::levelIn(stem) == 0 ? u"level%1_%2"_s.arg(level).arg(stem) : stem);
}

ProblemIndex ProblemIndex::scan(const QString &folder)
{
    ProblemIndex index;
    QString root = folder;
    // A KernelBench checkout holds its problems in KernelBench/level1 ...
    if (!QDir(root).exists(u"level1"_s) && QDir(root).exists(u"KernelBench/level1"_s))
        root = QDir(root).filePath(u"KernelBench"_s);
    index.m_folder = QDir(root).absolutePath();
    const QDir dir(index.m_folder);
    QDirIterator it(index.m_folder, {u"*.py"_s}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString relative = dir.relativeFilePath(path);
        const QStringList parts = relative.split(u'/');
        if (std::any_of(parts.begin(), parts.end() - 1,
                        [](const QString &p) { return p.startsWith(u'.') || p == u"__pycache__"; }))
            continue;
        ProblemFile f;
        f.path = QFileInfo(path).absoluteFilePath();
        f.relative = relative;
        f.stem = QFileInfo(path).completeBaseName();
        f.level = levelIn(relative);
        static const QRegularExpression leading(u"^(\\d+)[_\\-.]"_s);
        const QRegularExpressionMatch m = leading.match(f.stem);
        f.number = m.hasMatch() ? m.captured(1).toInt() : numberIn(f.stem);
        index.m_problems << f;
    }
    std::sort(index.m_problems.begin(), index.m_problems.end(),
              [](const ProblemFile &a, const ProblemFile &b) { return naturalLess(a.relative, b.relative); });
    return index;
}

QList<const ProblemFile *> ProblemIndex::byName(const QString &relativeStem) const
{
    QList<const ProblemFile *> exact, stems;
    const QString stem = relativeStem.section(u'/', -1);
    for (const ProblemFile &f : m_problems) {
        const QString relStem = f.relative.left(f.relative.size() - 3); // without ".py"
        if (relStem.compare(relativeStem, Qt::CaseInsensitive) == 0)
            exact << &f;
        else if (f.stem.compare(stem, Qt::CaseInsensitive) == 0)
            stems << &f;
    }
    return exact.isEmpty() ? stems : exact;
}

QList<const ProblemFile *> ProblemIndex::byNumber(int number, int level) const
{
    QList<const ProblemFile *> found;
    for (const ProblemFile &f : m_problems)
        if (f.number == number && (level == 0 || f.level == level))
            found << &f;
    return found;
}

QList<int> ProblemIndex::levelsOf(int number) const
{
    QList<int> levels;
    for (const ProblemFile &f : m_problems)
        if (f.number == number && !levels.contains(f.level))
            levels << f.level;
    return levels;
}

int ProblemIndex::levelIn(const QString &relativePath)
{
    static const QRegularExpression level(u"(?:^|[/_\\-.])level[_\\-]?(\\d+)(?=$|[/_\\-.])"_s,
                                          QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch m = level.match(relativePath);
    return m.hasMatch() ? m.captured(1).toInt() : 0;
}

int ProblemIndex::numberIn(const QString &stem)
{
    static const QRegularExpression patterns[] = {
        QRegularExpression(u"^(\\d+)(?=$|[_\\-.])"_s),
        QRegularExpression(u"(?:^|[_\\-.])level[_\\-]?\\d+[_\\-](?:problem[_\\-]?)?(\\d+)(?=$|[_\\-.])"_s,
                           QRegularExpression::CaseInsensitiveOption),
        QRegularExpression(u"(?:^|[_\\-.])(?:problem|p)[_\\-]?(\\d+)(?=$|[_\\-.])"_s,
                           QRegularExpression::CaseInsensitiveOption),
    };
    for (const QRegularExpression &re : patterns)
        if (const QRegularExpressionMatch m = re.match(stem); m.hasMatch())
            return m.captured(1).toInt();
    return -1;
}

bool ProblemIndex::naturalLess(const QString &a, const QString &b)
{
    qsizetype i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].isDigit() && b[j].isDigit()) {
            qsizetype ei = i, ej = j;
            while (ei < a.size() && a[ei].isDigit())
                ++ei;
            while (ej < b.size() && b[ej].isDigit())
                ++ej;
            const qulonglong x = a.mid(i, ei - i).toULongLong(), y = b.mid(j, ej - j).toULongLong();
            if (x != y)
                return x < y;
            i = ei;
            j = ej;
            continue;
        }
        if (a[i] != b[j])
            return a[i] < b[j];
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

} // namespace kforge
