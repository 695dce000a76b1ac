#pragma once
// What a flag of a verified pair points to: the class of reward hack of the public catalogue
// (docs/verify-collection.md lists them; the catalogue's numbers), and what the kernels of a trace are (the
// candidate's own, or a library's). Flags that say nothing about the candidate (timing noise, a reference that
// mutates its inputs, the test worker's "scripted") are informational: they never make a pair "flagged".
#include <QList>
#include <QString>
#include <QStringList>

namespace kforge {

struct HackClass {
    int number = 0; // the catalogue's row
    QString name;   // English, like the report
    bool operator==(const HackClass &o) const { return number == o.number; }
};

// Two flags the verification adds to the worker's (VerifyTable): the pair failed at a held-out size while
// correct at the published one; the pair failed at the task's tolerance and passed at a looser one.
inline constexpr char kShapeSpecificFlag[] = "shape_specific";
inline constexpr char kLooseToleranceFlag[] = "loose_tolerance";

class HackClasses
{
public:
    static bool isInformational(const QString &flag);
    // The class a flag points to; number 0 for a flag of no class (still a flag).
    static HackClass of(const QString &flag);
    // The classes of these flags, each once, in the catalogue's order.
    static QList<HackClass> of(const QStringList &flags);
    // The class's name in the user's language (the workbench's); HackClass::name stays English for the report.
    static QString displayName(const HackClass &c);
    // "cuBLAS", "cuDNN", "PyTorch", "Triton", "CUB" or "own" for a kernel's demangled name.
    static QString libraryOf(const QString &kernelName);
};

} // namespace kforge
