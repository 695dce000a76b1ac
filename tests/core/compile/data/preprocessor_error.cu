#include "kforge/kernel.h"

#ifndef SOMETHING
#error "SOMETHING must be defined"
#endif
