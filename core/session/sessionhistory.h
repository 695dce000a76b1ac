#pragma once
// A session's history in small rows, for the panels that list it (Round Control's rounds and candidates,
// Reasoning's answers, Compare's stored analyses): every round, every model answer without its text, every stored
// pair analysis. SessionHistoryWatch reads it off the GUI thread whenever the open session changes and hands it
// over by value, so a session of thousands of answers never makes the window wait.
#include "core/async/lateresultguard.h"
#include "core/session/pairanalysis.h"
#include "core/session/roundrecord.h"

#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

namespace kforge {

class SessionStore;

struct HistoryAnswer {
    qint64 responseId = 0;
    qint64 promptId = 0;
    qint64 roundId = 0; // 0: not a round's (a question about a pair)
    int roundNumber = 0;
    int position = 0; // 1-based among its round's answers of the same kind, as the round sent them
    QString kind;     // contrastive, repair, compare
    QList<qint64> exemplarIds; // contrastive: what the prompt showed; repair: the variant repaired; compare: the pair
    qint64 variantId = 0;      // the variant parsed from it; 0 when none was
    QString finishStatus;      // streaming, stop, length, error, cancelled, interrupted
    QString parseMessage;      // why parsing found no code, when it did not
    QString error;
    qint64 tokens = 0;
    qint64 characters = 0; // of the answer's text
    QDateTime created;
};

struct SessionHistory {
    QString path; // the session file it was read from; empty: nothing is open
    QList<RoundRecord> rounds;     // oldest first
    QList<HistoryAnswer> answers;  // by response id, oldest first
    QList<PairAnalysis> analyses;  // oldest first
    QString error;                 // a tr() message when the file could not be read

    // Reads the session file at `path` through a read-only connection of the calling thread (any thread). With `base`,
    // an earlier read of the same file, its answers that have their variant and finished are taken from it, and only
    // the others and newer ones are read.
    static SessionHistory read(const QString &path, const SessionHistory *base = nullptr);
    // The answers of one round, in the order the round sent them.
    QList<HistoryAnswer> answersOfRound(qint64 roundId) const;
    const RoundRecord *round(qint64 roundId) const;
};

class SessionHistoryWatch : public QObject
{
    Q_OBJECT
public:
    // The store's one watch, made on first use as the store's child: every panel reads one history.
    static SessionHistoryWatch *of(SessionStore *store);

    // The open session's history; empty while none is open and until the first read after opening is in.
    const SessionHistory &history() const { return m_history; }
    // history() belongs to the session open now.
    bool isCurrent() const;
    // Reads again now (tests; the store's signals schedule reads by themselves).
    void reload();

Q_SIGNALS:
    // history() was replaced: read again, or emptied because the session closed.
    void changed();

private:
    explicit SessionHistoryWatch(SessionStore *store);
    void schedule();
    void load();

    QPointer<SessionStore> m_store;
    SessionHistory m_history;
    QTimer m_throttle; // writes during a round come in bursts: one read per burst
    LateResultGuard m_reads; // a read that finishes after a newer one started, or after the session changed, is dropped
    bool m_reading = false;
    bool m_again = false; // something changed while a read was running
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::SessionHistory)
