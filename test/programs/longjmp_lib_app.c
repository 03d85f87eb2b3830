/* SPDX-License-Identifier: BSD-3-Clause */
/* longjmp_lib_app.c: calls of a wrapped library (longjmp_lib.h) whose error path jumps to
 * the program's setjmp, for test_longjmp_regions.sh: the wrapped call the jump abandons is
 * left at the jump. With -finstrument-functions: main/run/jl_step(int) = 3 (two returned,
 * one jumped out of), main/run/recover = 1 (not below jl_step), main/jl_set_env(void *) = 1 */
#include "longjmp_lib.h"

#include <setjmp.h>
#include <stdio.h>

static jmp_buf env;
static volatile int count;

__attribute__((noinline)) static void recover(void)
{
    count++;
}

__attribute__((noinline)) static void run(void)
{
    if (setjmp(env) == 0) {
        count += jl_step(1);
        count += jl_step(2);
        count += jl_step(-1); /* jumps */
    } else {
        recover();
    }
}

int main(void)
{
    jl_set_env(&env);
    run();
    printf("done %d\n", count);
    return 0;
}
