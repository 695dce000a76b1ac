#include "app/gui/appicon.h"

// Q_INIT_RESOURCE must not be used inside a namespace; it also keeps the linker from dropping the icons,
// which live in the static library kforge_gui.
static void initIconResource()
{
    Q_INIT_RESOURCE(kforge);
}

namespace kforge {

QIcon AppIcon::icon()
{
    initIconResource();
    QIcon icon;
    // PNGs for every size, so no SVG icon-engine plug-in is needed.
    for (int size : {16, 22, 24, 32, 48, 64, 128, 256})
        icon.addFile(QStringLiteral(":/icons/kforge-%1.png").arg(size), QSize(size, size));
    return icon;
}

} // namespace kforge
