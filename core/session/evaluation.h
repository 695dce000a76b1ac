#pragma once
// One stored evaluation in full: the summary columns plus everything the worker and the compiler returned.
#include "core/session/evaluationsummary.h"

#include <QJsonObject>
#include <QMetaType>
#include <QStringList>

namespace kforge {

struct Evaluation {
    EvaluationSummary summary;
    QJsonObject result;   // the EvalResult object as the worker sent it (trace, metrics, roofline included)
    QJsonObject device;   // device_info of the worker that measured it
    QStringList compileFlags;
    QString nvccVersion;

    // An evaluation whose summary columns are taken from `result`.
    static Evaluation fromResult(qint64 variantId, const QJsonObject &result, const QJsonObject &device = {},
                                 const QStringList &compileFlags = {}, const QString &nvccVersion = {});
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::Evaluation)
