#include "core/task/tasksummary.h"

#include "core/runtime/task/expression.h"
#include "core/runtime/task/taskspec.h"
#include "core/task/task.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <functional>
#include <map>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

struct Text {
    Q_DECLARE_TR_FUNCTIONS(kforge::TaskSummary)
};

// Element sizes of every dtype a torch task may name (the runtime's seven and i8, i16, bool, c64, c128).
std::optional<qint64> dtypeBytes(const QString &dtype)
{
    static const std::map<QString, qint64> sizes{{u"f32"_s, 4}, {u"f16"_s, 2},  {u"bf16"_s, 2}, {u"f64"_s, 8},
                                                 {u"i32"_s, 4}, {u"i64"_s, 8},  {u"u8"_s, 1},   {u"i8"_s, 1},
                                                 {u"i16"_s, 2}, {u"bool"_s, 1}, {u"c64"_s, 8},  {u"c128"_s, 16}};
    const auto it = sizes.find(dtype);
    if (it == sizes.end())
        return std::nullopt;
    return it->second;
}

bool isFloatingName(const QString &dtype)
{
    return dtype == u"f32" || dtype == u"f16" || dtype == u"bf16" || dtype == u"f64" || dtype == u"c64" || dtype == u"c128";
}

QString number(double v)
{
    return QString::number(v, 'g', 12);
}

QString initText(const runtime::InitSpec &i)
{
    switch (i.kind) {
    case runtime::InitSpec::Kind::Normal: return Text::tr("normal, mean %1, std %2").arg(i.a).arg(i.b);
    case runtime::InitSpec::Kind::Uniform: return Text::tr("uniform in [%1, %2)").arg(i.a).arg(i.b);
    case runtime::InitSpec::Kind::Integers: return Text::tr("integers in [%1, %2)").arg(i.a).arg(i.b);
    case runtime::InitSpec::Kind::Constant: return Text::tr("constant %1").arg(i.a);
    }
    return {};
}

// A torch input's "init" ({"dist": ...} as docs/task-format.md writes it; null: get_inputs() computes it).
QString initText(const QJsonValue &init)
{
    if (!init.isObject())
        return Text::tr("computed by get_inputs()");
    const QJsonObject o = init.toObject();
    const QString dist = o.value(u"dist"_s).toString();
    if (dist == u"normal")
        return Text::tr("normal, mean %1, std %2").arg(o.value(u"mean"_s).toDouble(0)).arg(o.value(u"std"_s).toDouble(1));
    if (dist == u"uniform")
        return Text::tr("uniform in [%1, %2)").arg(o.value(u"low"_s).toDouble(0)).arg(o.value(u"high"_s).toDouble(1));
    if (dist == u"integers")
        return Text::tr("integers in [%1, %2)").arg(o.value(u"low"_s).toDouble()).arg(o.value(u"high"_s).toDouble());
    if (dist == u"constant")
        return Text::tr("constant %1").arg(o.value(u"value"_s).toDouble());
    return dist;
}

TaskTensorInfo fromSpec(const runtime::TensorSpec &t, bool input)
{
    TaskTensorInfo info;
    info.name = QString::fromStdString(t.name);
    info.dtype = QString::fromUtf8(runtime::dtypeName(t.dtype).data(), qsizetype(runtime::dtypeName(t.dtype).size()));
    for (const runtime::ShapeDim &d : t.shape) {
        info.written << QString::fromStdString(d.text);
        info.dims << std::optional<qint64>(d.value);
    }
    if (input)
        info.init = initText(t.init);
    return info;
}

TaskTensorInfo fromTorch(const QJsonObject &o, const std::map<std::string, double, std::less<>> &symbols, bool input)
{
    TaskTensorInfo info;
    info.name = o.value(u"name"_s).toString();
    if (o.contains(u"scalar"_s)) {
        info.dtype = o.value(u"scalar"_s).toString();
        const QJsonValue v = o.value(u"value"_s);
        info.scalarValue = v.isBool() ? (v.toBool() ? u"True"_s : u"False"_s) : number(v.toDouble());
        return info;
    }
    info.dtype = o.value(u"dtype"_s).toString();
    for (const QJsonValue &d : o.value(u"shape"_s).toArray()) {
        if (d.isDouble()) {
            info.written << QString::number(qint64(d.toDouble()));
            info.dims << qint64(d.toDouble());
            continue;
        }
        const QString text = d.toString();
        info.written << text;
        const runtime::ExpressionResult r = runtime::evaluateExpression(text.toStdString(), symbols);
        info.dims << (r.ok() ? std::optional<qint64>(qint64(std::llround(r.value))) : std::nullopt);
    }
    if (input)
        info.init = initText(o.value(u"init"_s));
    return info;
}

std::optional<double> evaluate(const QString &text, const std::map<std::string, double, std::less<>> &symbols)
{
    const runtime::ExpressionResult r = runtime::evaluateExpression(text.toStdString(), symbols);
    return r.ok() ? std::optional<double>(r.value) : std::nullopt;
}

QString signatureOf(const QString &function, const QList<TaskTensorInfo> &inputs, const QList<TaskTensorInfo> &outputs)
{
    QStringList in, out;
    for (const TaskTensorInfo &t : inputs)
        in << t.name;
    for (const TaskTensorInfo &t : outputs)
        out << t.name;
    return u"%1(%2) → %3"_s.arg(function, in.join(u", "_s), out.join(u", "_s));
}

void addTolerances(TaskSummary &s, const std::function<std::optional<TaskToleranceInfo>(const QString &)> &fromTask)
{
    QStringList seen;
    for (const TaskTensorInfo &o : std::as_const(s.outputs)) {
        if (seen.contains(o.dtype))
            continue;
        seen << o.dtype;
        if (std::optional<TaskToleranceInfo> t = fromTask(o.dtype)) {
            s.tolerance << *t;
            continue;
        }
        TaskToleranceInfo t;
        t.dtype = o.dtype;
        t.exact = !isFloatingName(o.dtype);
        if (const auto d = runtime::dtypeFromName(o.dtype.toStdString()); d && !t.exact) {
            t.atol = runtime::defaultTolerance(*d).atol;
            t.rtol = runtime::defaultTolerance(*d).rtol;
        }
        s.tolerance << t;
    }
}

std::optional<TaskSummary> fromCuda(const QByteArray &taskJson, QString *error)
{
    runtime::TaskSpecResult parsed = runtime::parseTaskSpecText(taskJson.toStdString(), "task.json");
    if (!parsed.ok()) {
        if (error)
            *error = QString::fromStdString(parsed.error.message());
        return std::nullopt;
    }
    const runtime::TaskSpec &t = *parsed.spec;
    TaskSummary s;
    s.name = QString::fromStdString(t.name);
    s.title = QString::fromStdString(t.title);
    s.description = QString::fromStdString(t.description);
    for (const auto &[name, value] : t.params)
        s.params.append({QString::fromStdString(name), value});
    for (const runtime::TensorSpec &x : t.inputs)
        s.inputs << fromSpec(x, true);
    for (const runtime::TensorSpec &x : t.outputs)
        s.outputs << fromSpec(x, false);
    s.signature = signatureOf(u"kf_entry"_s, s.inputs, s.outputs);
    addTolerances(s, [&t](const QString &dtype) -> std::optional<TaskToleranceInfo> {
        const auto d = runtime::dtypeFromName(dtype.toStdString());
        if (!d || !t.tolerance.count(*d))
            return std::nullopt;
        const runtime::Tolerance tol = t.tolerance.at(*d);
        return TaskToleranceInfo{dtype, !runtime::isFloating(*d), tol.atol, tol.rtol, true};
    });
    if (t.flops.present()) {
        s.flopsText = QString::fromStdString(t.flops.text);
        s.flops = t.flops.value;
    }
    if (t.bytes.present()) {
        s.bytesText = QString::fromStdString(t.bytes.text);
        s.bytes = t.bytes.value;
    }
    s.degenerate = t.degenerate;
    s.timeoutS = t.timeoutS;
    return s;
}

QString derivedText(const QJsonValue &v)
{
    if (v.isString())
        return v.toString();
    if (v.isDouble())
        return number(v.toDouble());
    if (v.isArray()) {
        QStringList items;
        for (const QJsonValue &item : v.toArray())
            items << derivedText(item);
        return items.join(u"; "_s);
    }
    if (v.isBool())
        return v.toBool() ? u"true"_s : u"false"_s;
    return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
}

std::optional<TaskSummary> fromTorch(const QJsonObject &j, const QByteArray &taskJson)
{
    TaskSummary s;
    s.torch = true;
    s.name = j.value(u"name"_s).toString();
    s.title = j.value(u"title"_s).toString(s.name);
    s.description = j.value(u"description"_s).toString();
    std::map<std::string, double, std::less<>> symbols;
    s.params = Task::paramsInFileOrder(taskJson);
    for (const auto &[name, value] : std::as_const(s.params))
        symbols[name.toStdString()] = value;
    const auto list = [&](const QString &key, bool input) {
        QList<TaskTensorInfo> out;
        for (const QJsonValue &v : j.value(key).toArray())
            out << fromTorch(v.toObject(), symbols, input);
        return out;
    };
    s.inputs = list(j.contains(u"inputs"_s) ? u"inputs"_s : u"forward_args"_s, true);
    s.parameters = list(u"parameters"_s, false);
    s.buffers = list(u"buffers"_s, false);
    s.outputs = list(u"outputs"_s, false);
    s.signature = signatureOf(u"forward"_s, s.inputs, s.outputs);
    const QJsonObject tolerance = j.value(u"tolerance"_s).toObject();
    addTolerances(s, [&tolerance](const QString &dtype) -> std::optional<TaskToleranceInfo> {
        if (!tolerance.contains(dtype))
            return std::nullopt;
        const QJsonObject t = tolerance.value(dtype).toObject();
        const double atol = t.value(u"atol"_s).toDouble(), rtol = t.value(u"rtol"_s).toDouble();
        return TaskToleranceInfo{dtype, atol == 0 && rtol == 0 && !isFloatingName(dtype), atol, rtol, true};
    });
    if (j.contains(u"init_inputs"_s))
        s.initInputs = QString::fromUtf8(QJsonDocument(j.value(u"init_inputs"_s).toArray()).toJson(QJsonDocument::Compact));
    const auto formula = [&symbols](const QJsonValue &v, QString &text, std::optional<double> &value) {
        if (v.isDouble()) {
            text = number(v.toDouble());
            value = v.toDouble();
        } else if (v.isString()) {
            text = v.toString();
            value = evaluate(text, symbols);
        }
    };
    formula(j.value(u"flops"_s), s.flopsText, s.flops);
    formula(j.value(u"bytes"_s), s.bytesText, s.bytes);
    if (j.value(u"degenerate"_s).isBool())
        s.degenerate = j.value(u"degenerate"_s).toBool();
    s.timeoutS = j.value(u"timeout_s"_s).toDouble(60);
    // In the order discovery wrote them (QJsonObject would sort them).
    const QJsonObject derived = j.value(u"derived"_s).toObject();
    const auto ordered = nlohmann::ordered_json::parse(taskJson.constBegin(), taskJson.constEnd(), nullptr, false);
    if (!ordered.is_discarded() && ordered.contains("derived") && ordered["derived"].is_object())
        for (const auto &[key, value] : ordered["derived"].items()) {
            const QString name = QString::fromStdString(key);
            const QString text = derivedText(derived.value(name));
            if (!text.isEmpty())
                s.derived.append({name, text});
        }
    return s;
}

} // namespace

QString TaskTensorInfo::shapeText() const
{
    if (isScalar())
        return {};
    QStringList values;
    bool symbolic = false;
    for (qsizetype i = 0; i < written.size(); ++i) {
        values << (i < dims.size() && dims[i] ? QString::number(*dims[i]) : u"?"_s);
        symbolic = symbolic || written[i] != values.last();
    }
    const QString v = u"("_s + values.join(u", "_s) + u")"_s;
    return symbolic ? u"("_s + written.join(u", "_s) + u") = "_s + v : v;
}

std::optional<qint64> TaskTensorInfo::numel() const
{
    if (isScalar())
        return std::nullopt;
    qint64 n = 1;
    for (const std::optional<qint64> &d : dims) {
        if (!d)
            return std::nullopt;
        n *= *d;
    }
    return n;
}

std::optional<qint64> TaskTensorInfo::bytes() const
{
    const std::optional<qint64> n = numel();
    const std::optional<qint64> size = dtypeBytes(dtype);
    if (!n || !size)
        return std::nullopt;
    return *n * *size;
}

std::optional<TaskSummary> TaskSummary::fromTaskJson(const QByteArray &taskJson, QString *error)
{
    QJsonParseError perr;
    const QJsonDocument doc = QJsonDocument::fromJson(taskJson, &perr);
    if (perr.error != QJsonParseError::NoError || !doc.isObject()) {
        if (error)
            *error = Text::tr("task.json: invalid JSON at offset %1: %2").arg(perr.offset).arg(perr.errorString());
        return std::nullopt;
    }
    if (taskKindOf(doc.object()) == TaskKind::Torch)
        return fromTorch(doc.object(), taskJson);
    return fromCuda(taskJson, error);
}

} // namespace kforge
