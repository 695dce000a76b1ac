#pragma once
// The KForge icon in every size it ships in (resources/icons, compiled in as :/icons).
#include <QIcon>

namespace kforge {

class AppIcon
{
public:
    static QIcon icon();
};

} // namespace kforge
