/* SPDX-License-Identifier: BSD-3-Clause */
/* setjmp_lib.c: a library that jumps inside itself, for test_setjmp_semantics.sh: dlopen'ed
 * by setjmp_semantics.c (sjlib_try), and linked to it, where its constructor's setjmp runs
 * before libscorep-rt's constructors when the runtime is preloaded (ld.so initialises the
 * preloaded library after the program's other libraries). */
#include <setjmp.h>

int sjlib_ctor_result = -1;

static jmp_buf lib_env;
static __attribute__((noinline)) void lib_fail(int v)
{
    longjmp(lib_env, v * 3);
}

/* v * 3 through a jump from a callee, the mask saved and restored on the way */
int sjlib_try(int v)
{
    volatile int tries = 0;
    int r = setjmp(lib_env);
    if (tries++ == 0)
        lib_fail(v);
    sigjmp_buf s;
    int q = sigsetjmp(s, 1);
    if (q == 0)
        siglongjmp(s, v * 2);
    return r + q == v * 5 && tries == 2 ? r : -r;
}

__attribute__((constructor)) static void lib_ctor(void)
{
    sjlib_ctor_result = sjlib_try(7);
}
