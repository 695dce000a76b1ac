#include "kforge/kernel.h"
#include "nonexistent.h"
