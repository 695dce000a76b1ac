#pragma once
// The model answers the Reasoning panel can show: every answer streamed while the workbench runs (its text
// kept as it arrives) and any stored answer the user opened. Only what was looked at is loaded, so a session
// of 10,000 variants costs nothing here until one is chosen.
#include <QAbstractListModel>
#include <QList>
#include <QString>

namespace kforge {

struct ReasoningEntry {
    qint64 responseId = 0;
    qint64 promptId = 0;
    qint64 variantId = 0; // the variant parsed from it, when there is one
    QString kind;         // contrastive, repair, compare
    QString title;        // "Round 2 · candidate 3", "Why #12 beats #7"
    QString text;         // the answer as streamed or stored
    QString reasoning;    // the separate reasoning ("thinking") text
    QString finish;       // streaming, stop, length, error, ...
    QString error;
    bool live = false; // still streaming
};

class ReasoningEntriesModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role { ResponseIdRole = Qt::UserRole + 1, LiveRole, VariantIdRole };
    static constexpr int kMaxEntries = 300;

    explicit ReasoningEntriesModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

    int rowOf(qint64 responseId) const;
    const ReasoningEntry *entry(int row) const;
    ReasoningEntry *find(qint64 responseId);
    // Adds or replaces; returns the row. Oldest entries that are neither live nor `keep` drop out past kMaxEntries.
    int upsert(const ReasoningEntry &e, qint64 keep = 0);
    // The row's label changed (length, state).
    void touch(qint64 responseId);
    void clear();

    static QString stateText(const ReasoningEntry &e);

private:
    QList<ReasoningEntry> m_entries;
};

} // namespace kforge
