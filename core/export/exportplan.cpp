#include "core/export/exportplan.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace kforge {

QString ExportPlan::stateName(State s)
{
    switch (s) {
    case State::New: return u"new"_s;
    case State::Identical: return u"identical"_s;
    case State::Conflict: return u"conflict"_s;
    }
    return {};
}

ExportPlan ExportPlan::make(const QString &outDir, const ExportBundle &bundle)
{
    ExportPlan plan;
    plan.m_outDir = QDir::cleanPath(QFileInfo(outDir).absoluteFilePath());
    const QDir root(plan.m_outDir);
    for (const ExportFile &file : bundle.files) {
        Entry e;
        e.path = file.path;
        e.absolutePath = QDir::cleanPath(root.absoluteFilePath(file.path));
        e.file = file;
        const QFileInfo fi(e.absolutePath);
        // A file standing where one of the folders must go blocks the export as much as a changed file.
        QString blocker;
        for (QFileInfo parent(fi.absolutePath()); parent.absoluteFilePath().size() > plan.m_outDir.size();
             parent = QFileInfo(parent.absolutePath())) {
            if (parent.exists() && !parent.isDir()) {
                blocker = parent.absoluteFilePath();
                break;
            }
        }
        if (!blocker.isEmpty()) {
            e.state = State::Conflict;
            e.reason = tr("%1 is a file, not a folder").arg(QDir::toNativeSeparators(blocker));
        } else if (!fi.exists() && !fi.isSymLink()) {
            e.state = State::New;
        } else if (fi.isDir()) {
            e.state = State::Conflict;
            e.reason = tr("a folder of that name is in the way");
        } else {
            QFile f(e.absolutePath);
            if (!f.open(QIODevice::ReadOnly)) {
                e.state = State::Conflict;
                e.reason = tr("the existing file cannot be read: %1").arg(f.errorString());
            } else if (f.readAll() == file.content) {
                e.state = State::Identical;
            } else {
                e.state = State::Conflict;
                e.reason = tr("a different file is there");
            }
        }
        plan.m_entries << e;
    }
    return plan;
}

int ExportPlan::count(State s) const
{
    return int(std::count_if(m_entries.begin(), m_entries.end(), [s](const Entry &e) { return e.state == s; }));
}

QList<ExportPlan::Entry> ExportPlan::conflicts() const
{
    QList<Entry> out;
    for (const auto &e : m_entries)
        if (e.state == State::Conflict)
            out << e;
    return out;
}

bool ExportPlan::write(bool force, QString *error) const
{
    if (hasConflicts() && !force) {
        if (error)
            *error = tr("%n file(s) would be overwritten", nullptr, count(State::Conflict));
        return false;
    }
    for (const Entry &e : m_entries) {
        if (e.state == State::Identical)
            continue;
        const QFileInfo fi(e.absolutePath);
        if (e.state == State::Conflict && fi.isDir() && !fi.isSymLink()) {
            if (error)
                *error = tr("cannot replace the folder %1 with a file").arg(QDir::toNativeSeparators(e.absolutePath));
            return false;
        }
        if (!QDir().mkpath(fi.absolutePath())) {
            if (error)
                *error = tr("cannot create the folder %1").arg(QDir::toNativeSeparators(fi.absolutePath()));
            return false;
        }
        // QSaveFile: a failed write leaves the old file, not half of the new one.
        QSaveFile f(e.absolutePath);
        if (!f.open(QIODevice::WriteOnly) || f.write(e.file.content) != e.file.content.size() || !f.commit()) {
            if (error)
                *error = tr("cannot write %1: %2").arg(QDir::toNativeSeparators(e.absolutePath), f.errorString());
            return false;
        }
        if (e.file.executable)
            QFile::setPermissions(e.absolutePath, QFile::permissions(e.absolutePath) | QFileDevice::ExeOwner
                                                      | QFileDevice::ExeGroup | QFileDevice::ExeOther);
    }
    return true;
}

} // namespace kforge
