/* throttle_pending.h: the per-thread counts of throttled calls that plugin-instrumented code
 * makes without calling the runtime, and the check that settles them at measured events. */
#ifndef SCOREP_THROTTLE_PENDING_H
#define SCOREP_THROTTLE_PENDING_H

#include <stdint.h>

/* [0]: bit (slot & 63) set when slot has counts; [slot]: calls since the thread's last
 * measured event. Initial-exec, so the inline code in the program reaches it with one
 * GOT load; 520 bytes fit glibc's static TLS reserve even when the runtime is dlopen'ed. */
extern __thread uint64_t scorep_throttle_pending[1 + 64] __attribute__((tls_model("initial-exec")));

/* Adds the pending calls to the calling thread's location, under its current call path. */
void scorep_throttle_pending_flush(void);

/* Every event that changes a thread's call path or recording state calls this first: the
 * pending calls were made under the call path as it is until then. */
static inline void scorep_throttle_settle(void)
{
    if (__builtin_expect(scorep_throttle_pending[0] != 0, 0))
        scorep_throttle_pending_flush();
}

#endif
