#pragma once
// Per-kernel resource usage as ptxas reports it (-Xptxas -v): registers, shared memory, spills, stack.
// One entry per __global__ function of a compiled source; what limits occupancy and what the optimizer
// shows the model next to a variant's timing.
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>

namespace kforge {

struct KernelResources {
    QString mangledName; // "_Z5scalePKfPfi"
    QString name;        // demangled: "scale(float const*, float*, int)"; the mangled name if not demanglable
    QString arch;        // "sm_90"
    int registers = 0;
    int barriers = 0;
    qint64 sharedBytes = 0;   // static shared memory ("smem")
    qint64 constantBytes = 0; // sum of "N bytes cmem[k]"
    qint64 stackBytes = 0;    // stack frame
    qint64 spillStoreBytes = 0;
    qint64 spillLoadBytes = 0;

    bool spills() const { return spillStoreBytes > 0 || spillLoadBytes > 0; }

    static KernelResources fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
    static QList<KernelResources> listFromJson(const QJsonArray &a);
    static QJsonArray listToJson(const QList<KernelResources> &list);
    friend bool operator==(const KernelResources &, const KernelResources &) = default;
};

} // namespace kforge

Q_DECLARE_METATYPE(kforge::KernelResources)
