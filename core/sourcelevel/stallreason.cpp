#include "core/sourcelevel/stallreason.h"

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

namespace {

// Short name -> meaning, in English: the prompt uses it as is, the interface translates it.
struct Meaning {
    const char *name;
    const char *text;
};
constexpr Meaning kMeanings[] = {
    {"long_scoreboard", QT_TRANSLATE_NOOP("kforge::StallReason", "waiting on a global or local memory load (L1TEX)")},
    {"short_scoreboard",
     QT_TRANSLATE_NOOP("kforge::StallReason", "waiting on shared memory or a special-function result (MIO)")},
    {"wait", QT_TRANSLATE_NOOP("kforge::StallReason", "a fixed-latency dependency between instructions")},
    {"barrier", QT_TRANSLATE_NOOP("kforge::StallReason", "waiting at a block barrier (__syncthreads)")},
    {"membar", QT_TRANSLATE_NOOP("kforge::StallReason", "waiting on a memory barrier")},
    {"mio_throttle", QT_TRANSLATE_NOOP("kforge::StallReason", "the shared-memory/special-function queue is full")},
    {"lg_throttle",
     QT_TRANSLATE_NOOP("kforge::StallReason", "the global/local memory queue is full (too many loads in flight)")},
    {"math_pipe_throttle", QT_TRANSLATE_NOOP("kforge::StallReason", "the math pipe is busy")},
    {"tex_throttle", QT_TRANSLATE_NOOP("kforge::StallReason", "the texture unit queue is full")},
    {"branch_resolving", QT_TRANSLATE_NOOP("kforge::StallReason", "resolving a branch target")},
    {"no_instructions", QT_TRANSLATE_NOOP("kforge::StallReason", "no instruction fetched (instruction cache miss)")},
    {"dispatch_stall", QT_TRANSLATE_NOOP("kforge::StallReason", "the dispatcher could not issue")},
    {"drain", QT_TRANSLATE_NOOP("kforge::StallReason", "draining memory stores before exit")},
    {"imc_miss", QT_TRANSLATE_NOOP("kforge::StallReason", "an immediate-constant cache miss")},
    {"sleeping", QT_TRANSLATE_NOOP("kforge::StallReason", "the warp is sleeping (nanosleep or yield)")},
    {"not_selected", QT_TRANSLATE_NOOP("kforge::StallReason", "ready, but another warp was picked")},
    {"selected", QT_TRANSLATE_NOOP("kforge::StallReason", "issuing an instruction (not a stall)")},
    {"misc", QT_TRANSLATE_NOOP("kforge::StallReason", "another reason")},
    {"gmma", QT_TRANSLATE_NOOP("kforge::StallReason", "waiting on a warpgroup matrix multiply (tensor cores)")},
    {"wgmma", QT_TRANSLATE_NOOP("kforge::StallReason", "waiting on a warpgroup matrix multiply (tensor cores)")},
};

const char *englishMeaning(const QString &shortName)
{
    const QString s = canonical(shortName);
    for (const Meaning &m : kMeanings) {
        if (s == QLatin1String(m.name))
            return m.text;
    }
    return nullptr;
}

} // namespace

QString meaning(const QString &shortName)
{
    const char *m = englishMeaning(shortName);
    return m ? QCoreApplication::translate("kforge::StallReason", m) : QString();
}

QString promptText(const QString &shortName)
{
    const char *m = englishMeaning(shortName);
    return m ? label(shortName) + u": "_s + QLatin1String(m) : label(shortName);
}

QString describe(const QString &shortName)
{
    const QString m = meaning(shortName);
    return m.isEmpty() ? label(shortName) : label(shortName) + u": "_s + m;
}

} // namespace kforge::StallReason
