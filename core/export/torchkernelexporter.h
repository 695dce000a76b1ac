#pragma once
// The `torch` export of a PyTorch task's .cu variant (KF_ENTRY): the kernel as stored, a binding that builds it as a
// PyTorch extension (setup.py as the CUDA tasks' torch export has, or torch.utils.cpp_extension.load() on first
// import) whose forward() takes the module's forward arguments, then its parameters and buffers, as
// kforge-worker called the kernel; model_new.py, the reference Model with forward() calling it (the same
// constructor and state dict); the ModelNew export's test and benchmark, reference.py, task.json and the README.
#include "core/export/exportbundle.h"
#include "core/export/exportinput.h"

#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QPair>

#include <map>
#include <string>

namespace kforge {

class TorchKernelExporter
{
    Q_DECLARE_TR_FUNCTIONS(kforge::TorchKernelExporter)

public:
    static ExportBundle generate(const ExportInput &input, const ExportOptions &options);
    // The files of the export and what each is, for the README.
    static QList<QPair<QString, QString>> fileRoles(const ExportInput &input);
    // `self.linear.weight` for the state-dict name "linear.weight" of `owner`; getattr() for a part that is no
    // Python name ("getattr(self.layers, \"0\").weight").
    static QString pyAttribute(const QString &owner, const QString &stateName);
    // A dimension as task.json writes it (a number, or the expression language of core/runtime/task/expression.h over
    // the params) as a C++ expression in double, each param replaced by its variable in `variables`; empty with
    // *error set when it does not evaluate over `values`.
    static QString cppExpression(const QString &text, const QHash<QString, QString> &variables,
                                 const std::map<std::string, double, std::less<>> &values, QString *error);
};

} // namespace kforge
