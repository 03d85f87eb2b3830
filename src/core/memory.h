/* memory.h: compatibility only: the memory budget moved to base/memory.h (layer base).
 * Include that; this file goes once no branch in flight includes core/memory.h. */
#include "base/memory.h"
