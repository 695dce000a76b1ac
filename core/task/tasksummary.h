#pragma once
// What a task asks for, as the task panel lists it, for a CUDA task (read by the runtime's parser) and a PyTorch
// task (its task.json as kforge-cli import writes it) alike: the entry's or forward's signature, each input with
// dtype and shape (as written, and with the params substituted), a torch module's parameters and buffers, the
// outputs, the tolerance per dtype, the params, FLOPs and bytes, and how discovery derived what it wrote.
#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <optional>

namespace kforge {

struct TaskTensorInfo {
    QString name;
    QString dtype;       // KForge's name (f32, i64, bool...); a Python scalar's type for a scalar argument
    QStringList written; // each dimension as task.json writes it ("batch_size", "floor((H + 1)/2)", "64")
    QList<std::optional<qint64>> dims; // each dimension with the params substituted; empty where it fails
    QString init;                      // how the inputs are filled (inputs only); empty for outputs
    QString scalarValue;               // a Python scalar argument's value; the tensor fields are then empty
    bool isScalar() const { return !scalarValue.isEmpty(); }
    // "(batch_size, in_features) = (64, 32768)", "(64)" when every dimension is a number, "()" for a 0-d tensor.
    QString shapeText() const;
    std::optional<qint64> numel() const;
    std::optional<qint64> bytes() const; // numel times the dtype's size; empty for an unknown size
};

struct TaskToleranceInfo {
    QString dtype;
    bool exact = false; // integers and bools: equal
    double atol = 0;
    double rtol = 0;
    bool fromTask = false; // written in task.json (else the default for the dtype)
};

struct TaskSummary {
    bool torch = false;
    QString name, title, description;
    QString signature; // "forward(x, dim)" / "kf_entry(A, B) → C"
    QList<QPair<QString, double>> params;
    QList<TaskTensorInfo> inputs, parameters, buffers, outputs;
    QList<TaskToleranceInfo> tolerance; // one per output dtype, in output order
    QString initInputs;                 // the constructor's arguments as JSON text (torch); empty otherwise
    QString flopsText, bytesText;       // as written; empty when not given
    std::optional<double> flops, bytes; // evaluated; empty when not given or unknown
    std::optional<bool> degenerate;     // empty: discovery could not check it
    double timeoutS = 60;
    QList<QPair<QString, QString>> derived; // task.json's "derived": what was found how (torch)

    // From task.json's text; nullopt with `error` set when it cannot be read.
    static std::optional<TaskSummary> fromTaskJson(const QByteArray &taskJson, QString *error = nullptr);
};

} // namespace kforge
