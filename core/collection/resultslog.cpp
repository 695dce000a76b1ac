#include "core/collection/resultslog.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

QString keyOf(const QString &pair, VerifyRun run)
{
    return pair + u'\n' + runName(run);
}

} // namespace

bool ResultsLog::open(const QString &path, QString *error)
{
    m_records.clear();
    m_dropped = 0;
    m_file.close();
    m_file.setFileName(path);
    if (!QDir().mkpath(QFileInfo(path).absolutePath()) || !m_file.open(QIODevice::ReadWrite)) {
        *error = tr("cannot open %1: %2").arg(path, m_file.errorString());
        return false;
    }
    const QByteArray all = m_file.readAll();
    // A kill in the middle of a write leaves a last line without its newline: cut it off, or the next record
    // would be appended to it.
    const qsizetype end = all.lastIndexOf('\n') + 1;
    if (end < all.size()) {
        ++m_dropped;
        if (!m_file.resize(end)) {
            *error = tr("cannot truncate %1: %2").arg(path, m_file.errorString());
            return false;
        }
    }
    for (const QByteArray &line : all.left(end).split('\n')) {
        if (line.trimmed().isEmpty())
            continue;
        const std::optional<VerifyRecord> r = VerifyRecord::fromJson(QJsonDocument::fromJson(line).object());
        if (r)
            m_records << *r;
        else
            ++m_dropped;
    }
    m_file.seek(end);
    index();
    return true;
}

void ResultsLog::index()
{
    m_latest.clear();
    for (qsizetype i = 0; i < m_records.size(); ++i)
        m_latest.insert(keyOf(m_records.at(i).pair, m_records.at(i).run), i);
}

const VerifyRecord *ResultsLog::find(const QString &pair, VerifyRun run) const
{
    const auto it = m_latest.constFind(keyOf(pair, run));
    return it == m_latest.cend() ? nullptr : &m_records.at(*it);
}

void ResultsLog::forget(const QStringList &pairs)
{
    m_records.removeIf([&](const VerifyRecord &r) { return pairs.contains(r.pair); });
    index();
}

bool ResultsLog::append(const VerifyRecord &record, QString *error)
{
    const QByteArray line = QJsonDocument(record.toJson()).toJson(QJsonDocument::Compact) + '\n';
    if (m_file.write(line) != line.size() || !m_file.flush()) {
        *error = tr("cannot write %1: %2").arg(m_file.fileName(), m_file.errorString());
        return false;
    }
    m_records << record;
    m_latest.insert(keyOf(record.pair, record.run), m_records.size() - 1);
    return true;
}

} // namespace kforge
