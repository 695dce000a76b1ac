#pragma once
// <out>/results.jsonl of `kforge-cli verify`: the records read back when a run starts (so the pairs already
// measured are skipped: a run killed with -9 loses only what was in flight), then each new record appended as
// one line and flushed the moment it is known. A line cut short by the kill is dropped from the file when it is
// opened again; where a pair's run has several records (--rerun), the last one counts.
#include "core/collection/verifyrecord.h"

#include <QCoreApplication>
#include <QFile>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace kforge {

class ResultsLog
{
    Q_DECLARE_TR_FUNCTIONS(kforge::ResultsLog)

public:
    // Reads `path` (a missing file is an empty log) and opens it for appending; false with `error`.
    bool open(const QString &path, QString *error);
    const QList<VerifyRecord> &records() const { return m_records; }
    int droppedLines() const { return m_dropped; } // lines that were no record (a cut one included)
    // The last record of this pair's run, nullptr when there is none.
    const VerifyRecord *find(const QString &pair, VerifyRun run) const;
    // Leaves the records of these pairs out of records() and find() (the file keeps them): --rerun.
    void forget(const QStringList &pairs);
    // Appends one line and flushes it to the file; false with `error`.
    bool append(const VerifyRecord &record, QString *error);

private:
    void index();

    QFile m_file;
    QList<VerifyRecord> m_records;
    QHash<QString, qsizetype> m_latest; // "pair\nrun" -> the last record of that run in m_records
    int m_dropped = 0;
};

} // namespace kforge
