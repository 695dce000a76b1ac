#pragma once
// The one readiness every view observes (the notice bar, the status bar, Round Control, the editor's Ctrl+Enter):
// the evaluator's, except that while Settings → Workers lists no worker there is none, whatever evaluator stands
// behind the runner. changed() follows every change, once; the wording is WorkerReadiness's.
#include "core/workerpool/workerreadiness.h"

#include <QObject>
#include <QPointer>

namespace kforge {

class Evaluator;
class Settings;

class ReadinessWatch : public QObject
{
    Q_OBJECT
public:
    // Either may be null: no evaluator means no worker; no settings means the evaluator alone decides.
    ReadinessWatch(Evaluator *evaluator, Settings *settings, QObject *parent = nullptr);

    WorkerReadiness readiness() const;

Q_SIGNALS:
    void changed(const kforge::WorkerReadiness &readiness);

private:
    void update();

    QPointer<Evaluator> m_evaluator;
    QPointer<Settings> m_settings;
    WorkerReadiness m_last;
};

} // namespace kforge
