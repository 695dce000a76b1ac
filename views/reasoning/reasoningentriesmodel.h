#pragma once
// The model answers the Reasoning panel can show, oldest first: every answer of the session (listed from its history
// without their texts), and those streamed while the workbench runs (text kept as it arrives). A text is loaded only
// when its answer is looked at, and only the last kMaxLoaded looked at keep it, so a session of 10,000 answers costs
// a row each here.
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
    bool live = false;    // still streaming
    bool loaded = true;   // text and reasoning are here; a listed answer's are read when it is shown
    qint64 characters = 0; // of the text, while it is not loaded
};

class ReasoningEntriesModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role { ResponseIdRole = Qt::UserRole + 1, LiveRole, VariantIdRole };
    static constexpr int kMaxLoaded = 300;

    explicit ReasoningEntriesModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

    int rowOf(qint64 responseId) const;
    const ReasoningEntry *entry(int row) const;
    ReasoningEntry *find(qint64 responseId);
    // Adds (in order of response id) or replaces; returns the row. Past kMaxLoaded loaded texts, the oldest that are
    // neither live nor `keep` are unloaded (the row stays).
    int upsert(const ReasoningEntry &e, qint64 keep = 0);
    // Lists answers not listed yet, and refreshes those listed without their text; loaded ones stay as they are.
    void merge(const QList<ReasoningEntry> &entries);
    // The row's label changed (length, state).
    void touch(qint64 responseId);
    void clear();

    static QString stateText(const ReasoningEntry &e);

private:
    QList<ReasoningEntry> m_entries;
};

} // namespace kforge
