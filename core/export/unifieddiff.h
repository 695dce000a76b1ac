#pragma once
// A unified diff of two texts, line by line (dtl), as typed lines so a report can colour them and as
// the usual text ("--- a", "+++ b", "@@ -1,3 +1,4 @@", " ", "-", "+").
#include <QList>
#include <QString>

namespace kforge {

class UnifiedDiff
{
public:
    enum class Kind { Header, Hunk, Context, Removed, Added };
    struct Line {
        Kind kind;
        QString text; // without the leading marker
    };

    // Empty when the texts are equal.
    static QList<Line> compute(const QString &before, const QString &after, const QString &beforeName,
                               const QString &afterName);
    static QString toText(const QList<Line> &lines);
    static int count(const QList<Line> &lines, Kind kind);
};

} // namespace kforge
