#include "core/session/evaluation.h"

#include "core/eval/deviceinfo.h"

namespace kforge {

const Measurement &Evaluation::measurement() const
{
    if (!m_measurement)
        m_measurement = std::make_shared<const Measurement>(Measurement::fromJson(result));
    return *m_measurement;
}

const MeasurementFigures &Evaluation::figures() const
{
    if (!m_figures) {
        MeasurementFigures f = MeasurementFigures::of(measurement(), DeviceInfo::fromJson(device));
        if (f.verdict.isEmpty()) {
            f.verdict = summary.verdictName();
            f.correct = summary.isCorrect();
        }
        m_figures = std::make_shared<const MeasurementFigures>(std::move(f));
    }
    return *m_figures;
}

Evaluation Evaluation::fromResult(qint64 variantId, const QJsonObject &result, const QJsonObject &device,
                                  const QStringList &compileFlags, const QString &nvccVersion)
{
    return fromMeasurement(variantId, Measurement::fromJson(result), device, compileFlags, nvccVersion);
}

Evaluation Evaluation::fromMeasurement(qint64 variantId, const Measurement &m, const QJsonObject &device,
                                       const QStringList &compileFlags, const QString &nvccVersion)
{
    Evaluation e;
    e.result = m.toJson();
    e.m_measurement = std::make_shared<const Measurement>(m);
    e.summary = EvaluationSummary::fromMeasurement(m);
    e.summary.variantId = variantId;
    e.device = device;
    e.compileFlags = compileFlags;
    e.nvccVersion = nvccVersion;
    return e;
}

} // namespace kforge
