#pragma once
// A folder of KernelBench problems and a folder of candidates: each candidate (*.py with ModelNew, *.cu with
// KF_ENTRY) pairs with the problem of its name (the same relative path or stem), else with the problem of the
// number in its name (`19_...`, `level1_19_...`, `problem_19`) in the level its path names, when exactly one fits.
#include "core/collection/collection.h"

#include <QCoreApplication>

namespace kforge {

class ProblemFolderReader
{
    Q_DECLARE_TR_FUNCTIONS(kforge::ProblemFolderReader)

public:
    static Collection read(const QString &problemsFolder, const QString &candidatesFolder);
};

} // namespace kforge
