#include "core/eval/deviceinfo.h"

#include "core/eval/jsonfields.h"

using namespace Qt::StringLiterals;

namespace kforge {

QString DeviceInfo::smArch() const
{
    if (arch.startsWith(u"sm_"))
        return arch;
    if (ccMajor > 0)
        return u"sm_%1%2"_s.arg(ccMajor).arg(ccMinor);
    return {};
}

DeviceInfo DeviceInfo::fromJson(const QJsonObject &o)
{
    DeviceInfo d;
    d.index = int(json::number(o, "index"_L1, -1));
    d.name = o.value("name"_L1).toString();
    d.ccMajor = int(json::number(o, "cc_major"_L1));
    d.ccMinor = int(json::number(o, "cc_minor"_L1));
    d.arch = o.value("arch"_L1).toString();
    d.smCount = int(json::number(o, "sm_count"_L1));
    d.smClockMhz = int(json::number(o, "sm_clock_mhz"_L1));
    d.memClockMhz = int(json::number(o, "mem_clock_mhz"_L1));
    d.memoryBytes = qint64(json::number(o, "memory_bytes"_L1));
    d.l2Bytes = qint64(json::number(o, "l2_bytes"_L1));
    d.driverVersion = json::text(o, "driver_version"_L1);
    d.runtimeVersion = json::text(o, "runtime_version"_L1);
    d.peakCopyGbps = json::number(o, "peak_copy_gbps"_L1);
    d.peakFmaGflops = json::number(o, "peak_fma_gflops"_L1);
    return d;
}

QJsonObject DeviceInfo::toJson() const
{
    return QJsonObject{
        {u"index"_s, index},
        {u"name"_s, name},
        {u"cc_major"_s, ccMajor},
        {u"cc_minor"_s, ccMinor},
        {u"arch"_s, arch},
        {u"sm_count"_s, smCount},
        {u"sm_clock_mhz"_s, smClockMhz},
        {u"mem_clock_mhz"_s, memClockMhz},
        {u"memory_bytes"_s, double(memoryBytes)},
        {u"l2_bytes"_s, double(l2Bytes)},
        {u"driver_version"_s, driverVersion},
        {u"runtime_version"_s, runtimeVersion},
        {u"peak_copy_gbps"_s, json::toValue(peakCopyGbps)},
        {u"peak_fma_gflops"_s, json::toValue(peakFmaGflops)},
    };
}

} // namespace kforge
