/* timer.h: compatibility only: the timer moved to base/timer.h (layer base). Include that;
 * this file goes once no branch in flight includes core/timer.h. */
#include "base/timer.h"
