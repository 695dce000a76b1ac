#pragma once
// Names and types for generated code: task, tensor and parameter names turned into safe C++/Python
// identifiers, and each task dtype's spelling in C++, in kforge/kernel.h, in PyTorch (Python and C++).
#include "core/runtime/task/dtype.h"

#include <QSet>
#include <QString>

namespace kforge {

class CodeNames
{
public:
    // A C++ and Python identifier close to `name`: invalid characters become '_', a leading digit gets a
    // '_' prefix, names reserved to the compiler or the ABI (__, kf_) a 't_' prefix, keywords and names already in `taken` get a '_' suffix. The result is added to `taken`.
    static QString identifier(const QString &name, QSet<QString> *taken = nullptr);
    static bool isReservedWord(const QString &word);

    static QString cppType(runtime::Dtype t);      // float, __half, __nv_bfloat16, double, int32_t, int64_t, uint8_t
    static QString kfDtype(runtime::Dtype t);      // KF_F32, ...
    static QString torchDtype(runtime::Dtype t);   // torch.float32, ... (Python)
    static QString atScalarType(runtime::Dtype t); // torch::kFloat32, ... (C++)
    static QString dtypeName(runtime::Dtype t);    // f32, ...

    // A C/C++ string literal for `text` (quotes included).
    static QString cString(const QString &text);
    // A Python string literal for `text` (quotes included).
    static QString pyString(const QString &text);
    // A Python list of string literals: ["a", "b"].
    static QString pyList(const QStringList &items);
    // A number as C++/Python source: integers without a fraction, others with full precision.
    static QString number(double v);
    static bool isIntegral(double v);
};

} // namespace kforge
