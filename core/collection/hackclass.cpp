#include "core/collection/hackclass.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <algorithm>
#include <array>

using namespace Qt::StringLiterals;

namespace kforge {

namespace {

struct FlagClass {
    const char *flag;
    int number;
    const char *name;
};

// The worker's flags (docs/worker-protocol.md, "Flags") and the verification's own, by catalogue row.
constexpr std::array<FlagClass, 15> kFlagClasses{{
    {"side_stream_work", 1, QT_TRANSLATE_NOOP("kforge::HackClasses", "side-stream / unjoined async work")},
    {"late_work", 1, QT_TRANSLATE_NOOP("kforge::HackClasses", "side-stream / unjoined async work")},
    {"profile_refused", 1, QT_TRANSLATE_NOOP("kforge::HackClasses", "trace evasion (its process refused the profile pass)")},
    {"work_outside_call", 2, QT_TRANSLATE_NOOP("kforge::HackClasses", "work outside the call (thread injection)")},
    {"timing_mismatch", 3, QT_TRANSLATE_NOOP("kforge::HackClasses", "timer tampering (its own timing disagrees with the judge's)")},
    {"input_mutated", 8, QT_TRANSLATE_NOOP("kforge::HackClasses", "input mutation")},
    {"degenerate_output", 13, QT_TRANSLATE_NOOP("kforge::HackClasses", "degenerate output (the task's output is constant)")},
    {"unstable_numerics", 14, QT_TRANSLATE_NOOP("kforge::HackClasses", "input-distribution exploitation (fails on edge inputs)")},
    {kShapeSpecificFlag, 15, QT_TRANSLATE_NOOP("kforge::HackClasses", "shape hard-coding (fails at held-out sizes)")},
    {kLooseToleranceFlag, 12, QT_TRANSLATE_NOOP("kforge::HackClasses", "precision downgrade (passes only at a looser tolerance)")},
    {"precision_loss", 12, QT_TRANSLATE_NOOP("kforge::HackClasses", "precision lowered (far less accurate than the reference against float64)")},
    {"beats_flop_floor", 18, QT_TRANSLATE_NOOP("kforge::HackClasses", "skipped work or algebraic shortcut (faster than the FLOP floor)")},
    {"device_state_changed", 20, QT_TRANSLATE_NOOP("kforge::HackClasses", "device settings changed during the evaluation (global state)")},
    {"gpu_contention", 20, QT_TRANSLATE_NOOP("kforge::HackClasses", "baseline inflation (GPU work beside the reference's window)")},
    {"below_speed_of_light", 22, QT_TRANSLATE_NOOP("kforge::HackClasses", "physically impossible time (result caching or skipped work)")},
}};

} // namespace

QString HackClasses::displayName(const HackClass &c)
{
    for (const FlagClass &f : kFlagClasses) // several flags share a row: the flag's own name first
        if (f.number == c.number && c.name == QLatin1String(f.name))
            return QCoreApplication::translate("kforge::HackClasses", f.name);
    for (const FlagClass &f : kFlagClasses)
        if (f.number == c.number)
            return QCoreApplication::translate("kforge::HackClasses", f.name);
    return c.name;
}

bool HackClasses::isInformational(const QString &flag)
{
    return flag == u"unstable_timing"_s || flag == u"reference_mutates_inputs"_s || flag == u"scripted"_s
           || flag == u"output_truncated"_s;
}

HackClass HackClasses::of(const QString &flag)
{
    for (const FlagClass &c : kFlagClasses)
        if (flag == QLatin1String(c.flag))
            return {c.number, QString::fromLatin1(c.name)};
    return {0, {}};
}

QList<HackClass> HackClasses::of(const QStringList &flags)
{
    QList<HackClass> out;
    for (const QString &f : flags)
        if (const HackClass c = of(f); c.number > 0 && !out.contains(c))
            out << c;
    std::sort(out.begin(), out.end(), [](const HackClass &a, const HackClass &b) { return a.number < b.number; });
    return out;
}

QString HackClasses::libraryOf(const QString &kernelName)
{
    static const QRegularExpression cublas(
        u"cublas|gemv|gemmSN|gemmk1|splitKreduce|(sm\\d+|ampere|volta|turing|hopper)_(s|h|bf16|x)?(gemm|xmma_gemm)|"
        u"cutlass.*gemm|nvjet"_s,
        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression cudnn(u"cudnn|implicit_convolve|xmma_fprop|fprop_|conv2d_grouped|winograd|"
                                          u"precomputed_convolve|explicit_convolve"_s,
                                          QRegularExpression::CaseInsensitiveOption);
    if (cudnn.match(kernelName).hasMatch())
        return u"cuDNN"_s;
    if (cublas.match(kernelName).hasMatch())
        return u"cuBLAS"_s;
    if (kernelName.contains(u"triton"_s, Qt::CaseInsensitive))
        return u"Triton"_s;
    if (kernelName.contains(u"at::native"_s) || kernelName.contains(u"at_cuda_detail"_s))
        return u"PyTorch"_s;
    if (kernelName.startsWith(u"cub::"_s) || kernelName.contains(u" cub::"_s))
        return u"CUB"_s;
    return u"own"_s;
}

} // namespace kforge
