// reference of good_task (parser test data only)
#include "kforge/kernel.h"
