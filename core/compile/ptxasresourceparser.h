#pragma once
// Reads the per-kernel resource report ptxas prints with -Xptxas -v into KernelResources.
#include "core/eval/kernelresources.h"

#include <QList>
#include <QString>

namespace kforge {

class PtxasResourceParser
{
public:
    // One entry per (kernel, arch) in the order ptxas compiled them; device functions are left out.
    static QList<KernelResources> parse(const QString &output);
    // "_Z5scalePKfPfi" -> "scale(float const*, float*, int)"; the input when it is not a mangled name.
    static QString demangle(const QString &mangled);
};

} // namespace kforge
