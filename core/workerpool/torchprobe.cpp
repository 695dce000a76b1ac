#include "core/workerpool/torchprobe.h"

using namespace Qt::StringLiterals;

namespace kforge {

TorchProbe TorchProbe::fromReply(const QJsonObject &reply)
{
    TorchProbe p;
    const QJsonValue torch = reply.value("torch"_L1);
    if (!torch.isObject())
        return p;
    const QJsonObject o = torch.toObject();
    p.reported = true;
    p.python = o.value("python"_L1).toString();
    p.version = o.value("version"_L1).toString();
    p.error = o.value("error"_L1).toString().trimmed();
    return p;
}

} // namespace kforge
