#pragma once
// One stored evaluation in full: the summary columns plus everything the worker and the compiler returned.
#include "core/eval/measurement.h"
#include "core/eval/measurementfigures.h"
#include "core/session/evaluationsummary.h"

#include <QJsonObject>
#include <QMetaType>
#include <QStringList>
#include <memory>

namespace kforge {

struct Evaluation {
    EvaluationSummary summary;
    QJsonObject result; // the stored Measurement document (Measurement::toJson); read it through measurement()
    QJsonObject device; // device_info of the worker that measured it
    QStringList compileFlags;
    QString nvccVersion;

    // `result`, typed: parsed on first use and kept, so copies made afterwards share the one parse.
    // Set `result` before the first call; a later change to it is not seen.
    const Measurement &measurement() const;
    // What every reader shows of it (core/eval/measurementfigures.h) with the peaks of `device`, worked out on first
    // use and kept like measurement(); the verdict falls back to the summary's for a document without one.
    const MeasurementFigures &figures() const;

    // An evaluation whose summary columns are taken from the result.
    static Evaluation fromResult(qint64 variantId, const QJsonObject &result, const QJsonObject &device = {},
                                 const QStringList &compileFlags = {}, const QString &nvccVersion = {});
    static Evaluation fromMeasurement(qint64 variantId, const Measurement &m, const QJsonObject &device = {},
                                      const QStringList &compileFlags = {}, const QString &nvccVersion = {});

private:
    mutable std::shared_ptr<const Measurement> m_measurement;
    mutable std::shared_ptr<const MeasurementFigures> m_figures;
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::Evaluation)
