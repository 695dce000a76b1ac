#pragma once
// A stored optimization round: its settings, where it stands, and what it has spent.
#include <QDateTime>
#include <QJsonObject>
#include <QMetaType>
#include <QString>

namespace kforge {

// `Running` and `Paused` belong to a live process only: SessionStore::open() turns any it finds into
// `Interrupted` (the process that owned it died), which RoundRunner::resume() can pick up.
enum class RoundState { Running, Paused, Finished, Stopped, Interrupted, Failed };

QString toString(RoundState state);
RoundState roundStateFromString(const QString &s, bool *ok = nullptr);
bool isActive(RoundState state);

struct RoundUsage {
    int requests = 0;
    qint64 promptTokens = 0;
    qint64 completionTokens = 0;
    double cost = 0.0;

    qint64 totalTokens() const { return promptTokens + completionTokens; }
    RoundUsage &operator+=(const RoundUsage &o)
    {
        requests += o.requests;
        promptTokens += o.promptTokens;
        completionTokens += o.completionTokens;
        cost += o.cost;
        return *this;
    }
};

struct RoundRecord {
    qint64 id = 0;
    int number = 0; // 1-based within the session
    QJsonObject settings;
    RoundState state = RoundState::Running;
    QDateTime started;
    QDateTime finished;
    RoundUsage usage;
    QString message; // why it stopped or failed
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::RoundRecord)
