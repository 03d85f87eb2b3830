/* SPDX-License-Identifier: BSD-3-Clause */
/* jump_sp.h: the stack pointer a jmp_buf returns to, read back from glibc's mangled copy
 * (longjmp.c; a header so that a cross-built check can test it on its own). */
#ifndef SCOREP_JUMP_SP_H
#define SCOREP_JUMP_SP_H

#include <setjmp.h>
#include <stdint.h>

/* glibc stores the stack pointer of sigsetjmp's caller (its stack pointer after the call)
 * mangled with the process's pointer guard (PTR_MANGLE): on x86-64 (LP64) xor'ed with the
 * guard at %fs:0x30 (tcbhead_t.pointer_guard, the same in every thread) and rotated left
 * by 17, in __jmpbuf[6] (JB_RSP); on AArch64 xor'ed with __pointer_chk_guard (exported by
 * ld.so), in __jmpbuf[13] (JB_SP). Elsewhere, or with another C library, the layout is not
 * known here: SCOREP_JUMP_SP_KNOWN is 0 and jumps close nothing (the calls left behind are
 * closed by the next leave that does not match, as before). guard: AArch64's guard value
 * (longjmp.c finds it once); unused on x86-64. Whatever this returns is checked once at
 * start against a setjmp of known frame (longjmp.c, jump_sp_works). */
#if defined(__GLIBC__) && defined(__x86_64__) && defined(__LP64__)
#define SCOREP_JUMP_SP_KNOWN 1
static inline __attribute__((always_inline)) uintptr_t
scorep_jump_sp(const struct __jmp_buf_tag *env, uintptr_t guard)
{
    (void)guard;
    uintptr_t g, v = (uintptr_t)env->__jmpbuf[6];
    __asm__("movq %%fs:0x30, %0" : "=r"(g));
    return ((v >> 17) | (v << 47)) ^ g;
}
#elif defined(__GLIBC__) && defined(__aarch64__) && defined(__LP64__)
#define SCOREP_JUMP_SP_KNOWN 1
static inline __attribute__((always_inline)) uintptr_t
scorep_jump_sp(const struct __jmp_buf_tag *env, uintptr_t guard)
{
    return (uintptr_t)env->__jmpbuf[13] ^ guard;
}
#else
#define SCOREP_JUMP_SP_KNOWN 0
static inline uintptr_t scorep_jump_sp(const struct __jmp_buf_tag *env, uintptr_t guard)
{
    (void)env;
    (void)guard;
    return 0;
}
#endif

#endif
