#pragma once
// Candidates released as a torch extension (Sakana's AI CUDA Engineer archive and others like it): a .cu that
// includes torch/extension.h and binds a `forward` with PYBIND11_MODULE, no ModelNew. Such a pair is judged as a
// ModelNew module that subclasses the problem's Model (so it is built from the same init inputs and seed, with the
// same parameters), builds the .cu with torch.utils.cpp_extension.load_inline, and calls its forward where the
// Model's own computation was:
//   - a problem in the functional form (`def forward(self, ..., fn=module_fn)`, Sakana's PyTorch_Code_Functional):
//     Model.forward(..., fn=extension.forward), so the extension gets the inputs and the parameters in the order
//     the problem passes them;
//   - a problem whose Model keeps nothing (no `self.x = ...` in __init__): extension.forward(*inputs).
// Any other problem keeps state the extension's arguments cannot be matched to without guessing; the pair is
// listed with that cause rather than judged wrong.
#include "core/collection/collection.h"

#include <QCoreApplication>
#include <QString>

namespace kforge {

class TorchExtension
{
    Q_DECLARE_TR_FUNCTIONS(kforge::TorchExtension)

public:
    // Whether a candidate text is a torch extension: PYBIND11_MODULE binding a "forward".
    static bool isExtension(const QString &source);
    // The ModelNew module that judges `extensionSource` against `problemSource`; empty with `why` (translated)
    // when the problem's Model cannot be matched to the extension's forward.
    static QString wrap(const QString &problemSource, const QString &extensionSource, const QString &origin, QString *why);
    // Wraps every TorchExtension pair of `c` in place (kind ModelNew, a .py name, a note); a pair that cannot be
    // wrapped becomes an issue with its cause.
    static void wrapPairs(Collection &c);
};

} // namespace kforge
