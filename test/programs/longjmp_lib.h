/* SPDX-License-Identifier: BSD-3-Clause */
/* longjmp_lib.h: a library whose error path jumps back to its caller's setjmp (as libpng's
 * png_error does), wrapped by scorep-libwrap-init in test_longjmp_regions.sh */
#ifndef LONGJMP_LIB_H
#define LONGJMP_LIB_H

/* the jmp_buf to jump to on an error (a jmp_buf *, as void * so that the header needs no
 * <setjmp.h>) */
void jl_set_env(void *env);
/* x + 1; an error (jump to the set jmp_buf) when x < 0 */
int jl_step(int x);

#endif
