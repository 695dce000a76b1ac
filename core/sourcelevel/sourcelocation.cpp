#include "core/sourcelevel/sourcelocation.h"

namespace kforge {

QString sourceBaseName(const QString &path)
{
    const qsizetype slash = qMax(path.lastIndexOf(u'/'), path.lastIndexOf(u'\\'));
    return slash < 0 ? path : path.mid(slash + 1);
}

int lineInFile(const QList<SourceLocation> &chain, const QString &baseName)
{
    for (const SourceLocation &l : chain) {
        if (l.line > 0 && sourceBaseName(l.file) == baseName)
            return l.line;
    }
    return 0;
}

int outermostLineInFile(const QList<SourceLocation> &chain, const QString &baseName)
{
    for (auto it = chain.crbegin(); it != chain.crend(); ++it) {
        if (it->line > 0 && sourceBaseName(it->file) == baseName)
            return it->line;
    }
    return 0;
}

} // namespace kforge
