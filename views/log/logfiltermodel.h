#pragma once
// Narrows the log to chosen sources, a minimum level and a text.
#include "core/log/loghub.h"

#include <QSet>
#include <QSortFilterProxyModel>

namespace kforge {

class LogFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit LogFilterModel(QObject *parent = nullptr);

    void setSourceShown(LogSource source, bool shown);
    bool isSourceShown(LogSource source) const;
    void setMinimumLevel(LogLevel level);
    LogLevel minimumLevel() const { return m_minimumLevel; }
    // Case-insensitive substring of the message or its context; empty shows all.
    void setText(const QString &text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QSet<int> m_hiddenSources;
    LogLevel m_minimumLevel = LogLevel::Info;
    QString m_text;
};

} // namespace kforge
