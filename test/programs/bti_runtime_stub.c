/* SPDX-License-Identifier: BSD-3-Clause */
/* bti_runtime_stub.c: the three symbols of the runtime that adapters/compiler/longjmp.c uses,
 * so that test_bti_aarch64.sh can build the real setjmp trampolines and longjmp wrappers into
 * a small BTI-marked library without cross-building all of libscorep-rt. No location: the
 * trampolines note nothing and jump to glibc's functions, which is what BTI is about (their
 * entry by the program's PLT, `br x17`); the depth bookkeeping is test_longjmp*.sh's. */
#include "base/log.h"
#include "core/events.h"

#include <stdio.h>
#include <stdlib.h>

__thread scorep_location *scorep_tls_location __attribute__((tls_model("initial-exec")));

void scorep_warn(const char *fmt, ...)
{
    fprintf(stderr, "bti stub: unexpected warning: %s\n", fmt);
}

void scorep_event_unwind_jump(scorep_location *l, uintptr_t sp, uint32_t depth)
{
    /* never called without a location */
    (void)l, (void)sp, (void)depth;
    abort();
}
