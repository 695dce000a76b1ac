#include "core/compile/ptxasresourceparser.h"

#include <QRegularExpression>
#include <cstdlib>
#include <cxxabi.h>
#include <memory>

using namespace Qt::StringLiterals;

namespace kforge {

QString PtxasResourceParser::demangle(const QString &mangled)
{
    if (!mangled.startsWith(u"_Z"))
        return mangled;
    int status = 0;
    const QByteArray raw = mangled.toLatin1();
    std::unique_ptr<char, decltype(&std::free)> name(abi::__cxa_demangle(raw.constData(), nullptr, nullptr, &status),
                                                     &std::free);
    return status == 0 && name ? QString::fromLatin1(name.get()) : mangled;
}

QList<KernelResources> PtxasResourceParser::parse(const QString &output)
{
    static const QRegularExpression entryRe(uR"(^ptxas info\s*: Compiling entry function '([^']+)' for '([^']+)')"_s);
    static const QRegularExpression propsRe(uR"(^ptxas info\s*: Function properties for (\S+))"_s);
    static const QRegularExpression usedRe(uR"(^ptxas info\s*: Used (\d+) registers(.*)$)"_s);
    static const QRegularExpression stackRe(
        uR"(^\s*(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)"_s);
    static const QRegularExpression barriersRe(uR"((\d+) barriers)"_s);
    static const QRegularExpression smemRe(uR"((\d+) bytes smem)"_s);
    static const QRegularExpression cmemRe(uR"((\d+) bytes cmem\[\d+\])"_s);

    QList<KernelResources> out;
    qsizetype current = -1;     // the entry being compiled
    qsizetype propsTarget = -1; // the entry the next "stack frame" line belongs to, -1 for a device function
    const QStringList lines = output.split(u'\n');
    for (QString line : lines) {
        if (line.endsWith(u'\r'))
            line.chop(1);
        if (const auto m = entryRe.match(line); m.hasMatch()) {
            KernelResources r;
            r.mangledName = m.captured(1);
            r.name = demangle(r.mangledName);
            r.arch = m.captured(2);
            out.append(r);
            current = out.size() - 1;
            propsTarget = -1;
        } else if (const auto p = propsRe.match(line); p.hasMatch()) {
            propsTarget = (current >= 0 && out.at(current).mangledName == p.captured(1)) ? current : -1;
        } else if (const auto s = stackRe.match(line); s.hasMatch()) {
            if (propsTarget >= 0) {
                KernelResources &r = out[propsTarget];
                r.stackBytes = s.captured(1).toLongLong();
                r.spillStoreBytes = s.captured(2).toLongLong();
                r.spillLoadBytes = s.captured(3).toLongLong();
            }
            propsTarget = -1;
        } else if (const auto u = usedRe.match(line); u.hasMatch() && current >= 0) {
            KernelResources &r = out[current];
            r.registers = u.captured(1).toInt();
            const QString rest = u.captured(2);
            if (const auto b = barriersRe.match(rest); b.hasMatch())
                r.barriers = b.captured(1).toInt();
            if (const auto sm = smemRe.match(rest); sm.hasMatch())
                r.sharedBytes = sm.captured(1).toLongLong();
            r.constantBytes = 0;
            for (auto it = cmemRe.globalMatch(rest); it.hasNext();)
                r.constantBytes += it.next().captured(1).toLongLong();
        }
    }
    return out;
}

} // namespace kforge
