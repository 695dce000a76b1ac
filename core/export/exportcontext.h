#pragma once
// What every generator derives from an ExportInput the same way: the C++ names (namespace, entry points,
// tensor and parameter identifiers), the translated build flags, and the template values they share.
#include "core/export/exportinput.h"
#include "core/export/nvccflags.h"
#include "core/export/templaterenderer.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

namespace kforge {

class ExportContext
{
    Q_DECLARE_TR_FUNCTIONS(kforge::ExportContext)

public:
    explicit ExportContext(const ExportInput &input);

    const ExportInput &input;
    QString ns;             // C++ namespace / Python module stem: the task name as an identifier
    QString nsUpper;        // for CMake option names
    QString entry;          // the exported kernel's renamed kf_entry
    QString referenceEntry; // the reference's renamed kf_entry
    QStringList inputIds;   // tensor names as identifiers, unique across inputs, outputs and params
    QStringList outputIds;
    QStringList paramIds;
    NvccFlags::Translated kernelFlags;    // task + variant flags
    NvccFlags::Translated referenceFlags; // task flags only
    QString error;                        // why this input cannot be exported; empty when it can

    bool ok() const { return error.isEmpty(); }
    bool usesHalf() const;
    bool usesBfloat16() const;
    bool linksCublas() const;

    // ns, NS, task_name, title, variant_id, variant_label, entry, reference_entry, kforge_version, cuda_arch.
    TemplateRenderer::Values baseValues() const;
    // min_runs, min_time_ms, max_runs, warmup, warmup_ms: the benchmarks' defaults, the evaluation's own
    // (EvalOptions, the one place that defines them); min_time_ms the fixed rule's (TimingDefaults).
    static void addTimingValues(TemplateRenderer::Values &v);
    // The kf_params block of a generated function body (the CMake wrapper and the torch binding), without
    // a final newline.
    static QString paramsItems(const runtime::TaskSpec &task);
    // "// " lines of the task description wrapped at `width` columns.
    QString descriptionComment(int width = 110) const;
    // "{4096, 4096}" for a tensor's evaluated shape.
    static QString shapeInitializer(const runtime::TensorSpec &t);
    // "N x M" as written in task.json, "4096" for a literal.
    static QString shapeText(const runtime::TensorSpec &t);
    // The shipped copy of kforge/kernel.h (compiled in from core/runtime/include).
    static QByteArray abiHeader();
};

} // namespace kforge
