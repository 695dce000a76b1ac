#include "core/profile/stallreason.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace kforge::StallReason {

namespace {

QString canonical(const QString &shortName)
{
    QString s = shortName;
    if (s.endsWith(u"_not_issued"))
        s.chop(int(qstrlen("_not_issued")));
    return s;
}

} // namespace

QString label(const QString &shortName)
{
    return canonical(shortName).replace(u'_', u' ');
}

QString meaning(const QString &shortName)
{
    const QString s = canonical(shortName);
    const char *ctx = "kforge::StallReason";
    if (s == u"long_scoreboard")
        return QCoreApplication::translate(ctx, "waiting on a global or local memory load (L1TEX)");
    if (s == u"short_scoreboard")
        return QCoreApplication::translate(ctx, "waiting on shared memory or a special-function result (MIO)");
    if (s == u"wait")
        return QCoreApplication::translate(ctx, "a fixed-latency dependency between instructions");
    if (s == u"barrier")
        return QCoreApplication::translate(ctx, "waiting at a block barrier (__syncthreads)");
    if (s == u"membar")
        return QCoreApplication::translate(ctx, "waiting on a memory barrier");
    if (s == u"mio_throttle")
        return QCoreApplication::translate(ctx, "the shared-memory/special-function queue is full");
    if (s == u"lg_throttle")
        return QCoreApplication::translate(ctx, "the global/local memory queue is full (too many loads in flight)");
    if (s == u"math_pipe_throttle")
        return QCoreApplication::translate(ctx, "the math pipe is busy");
    if (s == u"tex_throttle")
        return QCoreApplication::translate(ctx, "the texture unit queue is full");
    if (s == u"branch_resolving")
        return QCoreApplication::translate(ctx, "resolving a branch target");
    if (s == u"no_instructions")
        return QCoreApplication::translate(ctx, "no instruction fetched (instruction cache miss)");
    if (s == u"dispatch_stall")
        return QCoreApplication::translate(ctx, "the dispatcher could not issue");
    if (s == u"drain")
        return QCoreApplication::translate(ctx, "draining memory stores before exit");
    if (s == u"imc_miss")
        return QCoreApplication::translate(ctx, "an immediate-constant cache miss");
    if (s == u"sleeping")
        return QCoreApplication::translate(ctx, "the warp is sleeping (nanosleep or yield)");
    if (s == u"not_selected")
        return QCoreApplication::translate(ctx, "ready, but another warp was picked");
    if (s == u"selected")
        return QCoreApplication::translate(ctx, "issuing an instruction (not a stall)");
    if (s == u"misc")
        return QCoreApplication::translate(ctx, "another reason");
    if (s == u"gmma" || s == u"wgmma")
        return QCoreApplication::translate(ctx, "waiting on a warpgroup matrix multiply (tensor cores)");
    return {};
}

QString describe(const QString &shortName)
{
    const QString m = meaning(shortName);
    return m.isEmpty() ? label(shortName) : label(shortName) + u": "_s + m;
}

} // namespace kforge::StallReason
