#include "core/session/evaluation.h"

namespace kforge {

Evaluation Evaluation::fromResult(qint64 variantId, const QJsonObject &result, const QJsonObject &device,
                                  const QStringList &compileFlags, const QString &nvccVersion)
{
    Evaluation e;
    e.summary = EvaluationSummary::fromResultJson(result);
    e.summary.variantId = variantId;
    e.result = result;
    e.device = device;
    e.compileFlags = compileFlags;
    e.nvccVersion = nvccVersion;
    return e;
}

} // namespace kforge
