#pragma once
// Which files of an export are new, already there with the same content, or in conflict with what is
// there, and writing them: nothing is overwritten unless the caller forces it.
#include "core/export/exportbundle.h"

#include <QCoreApplication>
#include <QList>
#include <QMetaType>
#include <QString>

namespace kforge {

class ExportPlan
{
    Q_DECLARE_TR_FUNCTIONS(kforge::ExportPlan)

public:
    enum class State { New, Identical, Conflict };

    struct Entry {
        QString path; // relative to the output folder
        QString absolutePath;
        State state = State::New;
        QString reason; // Conflict: why (content differs, a folder is in the way...)
        ExportFile file;
    };

    ExportPlan() = default;
    // Compares every file of `bundle` with what is in `outDir` (which need not exist).
    static ExportPlan make(const QString &outDir, const ExportBundle &bundle);

    const QString &outDir() const { return m_outDir; }
    const QList<Entry> &entries() const { return m_entries; }
    int count(State s) const;
    bool hasConflicts() const { return count(State::Conflict) > 0; }
    QList<Entry> conflicts() const;

    // Writes the New files, and the Conflict ones when `force`; Identical files are left alone. Refuses
    // without writing anything when there are conflicts and !force. False with *error set on failure.
    bool write(bool force, QString *error) const;

    static QString stateName(State s); // "new", "identical", "conflict"

private:
    QString m_outDir;
    QList<Entry> m_entries;
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::ExportPlan)
