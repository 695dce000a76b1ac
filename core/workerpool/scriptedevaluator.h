#pragma once
// The one fake KForge allows (docs/architecture.md, "Tests"): an Evaluator that answers from a script
// instead of compiling and running anything, so orchestration (rounds, populations, the GUI's flow) can be
// tested where there is no GPU. It never stands in for a measurement: every result carries the flag
// "scripted", and nothing in the application creates one; only tests do.
#include "core/workerpool/evaluator.h"

#include <QList>
#include <functional>
#include <optional>

namespace kforge {

class ScriptedEvaluator : public Evaluator
{
    Q_OBJECT
public:
    using Script = std::function<EvalResult(const EvalRequest &request)>;

    explicit ScriptedEvaluator(Script script, QObject *parent = nullptr);

    void setDelayMs(int ms) { m_delayMs = ms; } // per evaluation, from submit to finished
    // Optionally, what measured() says of a request before its finished() (a worker's result after timing); none:
    // nothing. The result is sent as provisional (with its pending passes as given), and finished() follows after
    // another delay, so a test can look at what shows the provisional result.
    using MeasuredScript = std::function<std::optional<EvalResult>(const EvalRequest &request)>;
    void setMeasuredScript(MeasuredScript script) { m_measuredScript = std::move(script); }
    QList<EvalRequest> submitted() const { return m_submitted; }
    // What callers asked to be built ahead (prepare()): recorded only, nothing is built.
    QList<EvalRequest> prepared() const { return m_prepared; }

    int submit(const EvalRequest &request) override;
    void cancel(int id) override;
    void prepare(const EvalRequest &request) override { m_prepared.append(request); }

private:
    void finish(int id, const EvalRequest &request);

    Script m_script;
    MeasuredScript m_measuredScript;
    int m_delayMs = 0;
    int m_nextId = 1;
    QList<EvalRequest> m_submitted;
    QList<EvalRequest> m_prepared;
    QList<int> m_cancelled;
};

} // namespace kforge
