#pragma once
// What a worker reported about its GPU (protocol op device_info): identity, compute capability (which
// decides the -arch a kernel is compiled for) and the measured peaks the speed-of-light check uses.
#include <QJsonObject>
#include <QMetaType>
#include <QString>

namespace kforge {

struct DeviceInfo {
    int index = -1;
    QString name;
    int ccMajor = 0;
    int ccMinor = 0;
    QString arch; // "sm_90"
    int smCount = 0;
    int smClockMhz = 0;
    int memClockMhz = 0;
    qint64 memoryBytes = 0;
    qint64 l2Bytes = 0;
    QString driverVersion; // as the worker reports it (a number or a string)
    QString runtimeVersion;
    double peakCopyGbps = 0; // measured once by the worker; 0 when not measured
    double peakFmaGflops = 0;

    bool isValid() const { return ccMajor > 0; }
    // "sm_XY" from arch, else from the compute capability; empty when unknown.
    QString smArch() const;

    static DeviceInfo fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
    friend bool operator==(const DeviceInfo &, const DeviceInfo &) = default;
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::DeviceInfo)
