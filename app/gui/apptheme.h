#pragma once
// Applies the theme setting to the whole application: the platform's look for "follow the system", Fusion
// with a light or dark palette otherwise.
#include "core/settings/settings.h"

namespace kforge {

class AppTheme
{
public:
    // Call after QApplication exists; may be called again when the setting changes.
    static void apply(Theme theme);
};

} // namespace kforge
