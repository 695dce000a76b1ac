#pragma once
// The `torch` export of a PyTorch task's ModelNew variant: the module as KForge measured it, the task's reference,
// a test that compares the two as kforge-worker does (the reference's state dict loaded into ModelNew,
// fresh inputs from get_inputs() per seed, the task's tolerance per dtype), a benchmark of both, and the README
// with the provenance. Plain Python: nothing to build.
#include "core/export/exportbundle.h"
#include "core/export/exportinput.h"
#include "core/task/tasksummary.h"

#include <QCoreApplication>
#include <QList>
#include <QPair>

namespace kforge {

class ModelNewExporter
{
    Q_DECLARE_TR_FUNCTIONS(kforge::ModelNewExporter)

public:
    static ExportBundle generate(const ExportInput &input, const ExportOptions &options);
    // The files of the export and what each is, for the README.
    static QList<QPair<QString, QString>> fileRoles(const ExportInput &input);

    // What every export of a torch task's variant needs (a ModelNew module's, a .cu kernel's as TorchKernelExporter
    // writes it): its task.json read, the variant's and the reference's sources. The task, or nullopt with `bundle`
    // failed.
    static std::optional<TaskSummary> checkTorchInput(const ExportInput &input, ExportBundle &bundle);
    // test_model_new.py and bench_model_new.py, with the license header: they build `ModelNew` from model_new.py and
    // `Model` from reference.py, whatever model_new.py does inside.
    static QList<ExportFile> harnessFiles(const ExportInput &input, const TaskSummary &summary,
                                          const ExportOptions &options, QString *error);
    // The README rows of those two files, task.json and the README itself: the end of every torch export's roles.
    static QList<QPair<QString, QString>> harnessRoles();
};

} // namespace kforge
