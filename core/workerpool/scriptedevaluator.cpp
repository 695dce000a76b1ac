#include "core/workerpool/scriptedevaluator.h"

#include <QTimer>

using namespace Qt::StringLiterals;

namespace kforge {

ScriptedEvaluator::ScriptedEvaluator(Script script, QObject *parent)
    : Evaluator(parent)
    , m_script(std::move(script))
{
}

int ScriptedEvaluator::submit(const EvalRequest &request)
{
    const int id = m_nextId++;
    m_submitted.append(request);
    QTimer::singleShot(m_delayMs, this, [this, id, request] {
        if (!m_cancelled.contains(id)) {
            Q_EMIT progress(id, u"compiling"_s);
            if (std::optional<EvalResult> provisional = m_measuredScript ? m_measuredScript(request) : std::nullopt) {
                // As a worker sends it: after the timing, before the passes.
                Q_EMIT progress(id, u"timing"_s);
                provisional->provisional = true;
                if (!provisional->flags.contains(u"scripted"))
                    provisional->flags.append(u"scripted"_s);
                Q_EMIT measured(id, *provisional);
                QTimer::singleShot(m_delayMs, this, [this, id, request] { finish(id, request); });
                return;
            }
        }
        finish(id, request);
    });
    return id;
}

void ScriptedEvaluator::finish(int id, const EvalRequest &request)
{
    if (m_cancelled.removeAll(id) > 0) {
        Q_EMIT finished(id, EvalResult::failure(Verdict::Error, tr("The evaluation was cancelled."), u"cancelled"_s));
        return;
    }
    EvalResult r = m_script ? m_script(request) : EvalResult::failure(Verdict::Error, tr("No script."));
    if (!r.flags.contains(u"scripted"))
        r.flags.append(u"scripted"_s);
    Q_EMIT finished(id, r);
}

void ScriptedEvaluator::cancel(int id)
{
    if (id > 0 && id < m_nextId && !m_cancelled.contains(id))
        m_cancelled.append(id);
}

} // namespace kforge
