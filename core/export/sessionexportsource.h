#pragma once
// Gathers an ExportInput from an open session: the task, the variant's source, its lineage through its
// first parents, and the provenance of its latest evaluation (device, nvcc, timings, speed of light).
#include "core/export/exportinput.h"

#include <QCoreApplication>
#include <optional>

namespace kforge {

class SessionStore;

class SessionExportSource
{
    Q_DECLARE_TR_FUNCTIONS(kforge::SessionExportSource)

public:
    // "best" (the fastest correct variant but the reference, left out when suspicious and not accepted) or
    // a variant id ("12" or "#12"). 0 with *error set when there is no such variant.
    static qint64 resolveVariant(const SessionStore &store, const QString &which, QString *error);
    // The export input of `variantId`. Refuses (nullopt, *error) a variant whose latest evaluation is not
    // correct: an export claims the kernel matches the reference.
    static std::optional<ExportInput> build(const SessionStore &store, qint64 variantId, QString *error);
};

} // namespace kforge
