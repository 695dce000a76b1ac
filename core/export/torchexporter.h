#pragma once
// The `torch` export: a PyTorch C++/CUDA extension (setup.py, a binding that takes and returns tensors)
// and a Python test that compares it with a PyTorch expression of the task (resources/export/
// torch_exprs.json, keyed by task name) or, when there is none, with the task's reference built as a
// second extension module.
#include "core/export/exportbundle.h"
#include "core/export/exportcontext.h"

namespace kforge {

class TorchExporter
{
public:
    static ExportBundle generate(const ExportContext &ctx, const ExportOptions &options);
    // The PyTorch expression for a built-in task, empty when there is none.
    static QString torchExpression(const QString &taskName);
    static QList<QPair<QString, QString>> fileRoles(const ExportContext &ctx, bool withReference);
    // setup.py's values for the kernel's extension (torch_arch, libraries, kernel_nvcc_flags, py_title), shared with
    // the export of a torch task's .cu variant.
    static void addSetupValues(const ExportContext &ctx, TemplateRenderer::Values &v);
};

} // namespace kforge
