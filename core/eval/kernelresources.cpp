#include "core/eval/kernelresources.h"

#include "core/eval/jsonfields.h"

using namespace Qt::StringLiterals;

namespace kforge {

KernelResources KernelResources::fromJson(const QJsonObject &o)
{
    KernelResources r;
    r.mangledName = o.value("mangled_name"_L1).toString();
    r.name = o.value("name"_L1).toString();
    r.arch = o.value("arch"_L1).toString();
    r.registers = int(json::number(o, "registers"_L1));
    r.barriers = int(json::number(o, "barriers"_L1));
    r.sharedBytes = qint64(json::number(o, "shared_bytes"_L1));
    r.constantBytes = qint64(json::number(o, "constant_bytes"_L1));
    r.stackBytes = qint64(json::number(o, "stack_bytes"_L1));
    r.spillStoreBytes = qint64(json::number(o, "spill_store_bytes"_L1));
    r.spillLoadBytes = qint64(json::number(o, "spill_load_bytes"_L1));
    return r;
}

QJsonObject KernelResources::toJson() const
{
    return QJsonObject{
        {u"mangled_name"_s, mangledName},
        {u"name"_s, name},
        {u"arch"_s, arch},
        {u"registers"_s, registers},
        {u"barriers"_s, barriers},
        {u"shared_bytes"_s, double(sharedBytes)},
        {u"constant_bytes"_s, double(constantBytes)},
        {u"stack_bytes"_s, double(stackBytes)},
        {u"spill_store_bytes"_s, double(spillStoreBytes)},
        {u"spill_load_bytes"_s, double(spillLoadBytes)},
    };
}

QList<KernelResources> KernelResources::listFromJson(const QJsonArray &a)
{
    QList<KernelResources> list;
    list.reserve(a.size());
    for (const QJsonValue &v : a)
        list.append(fromJson(v.toObject()));
    return list;
}

QJsonArray KernelResources::listToJson(const QList<KernelResources> &list)
{
    QJsonArray a;
    for (const KernelResources &r : list)
        a.append(r.toJson());
    return a;
}

} // namespace kforge
