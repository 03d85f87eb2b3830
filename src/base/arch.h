/* SPDX-License-Identifier: BSD-3-Clause */
/* arch.h: whether the build uses the x86-64 inline assembly of the hot paths (the timer's
 * rdtsc, the location's marks and mode test, the fast leave's decrement, the plugins'
 * throttle count at a thread-pointer offset) or their portable C versions, which other
 * machines compile. A build configured with CPPFLAGS=-DSCOREP_PORTABLE=1 takes the portable
 * versions on x86-64 too, in the runtime and in both compiler plugins at once (they share
 * the throttle ABI), so that they are built and tested here (test_portable_paths.sh). */
#ifndef SCOREP_ARCH_H
#define SCOREP_ARCH_H

#ifndef SCOREP_PORTABLE
#define SCOREP_PORTABLE 0
#endif

#if defined(__x86_64__) && !SCOREP_PORTABLE
#define SCOREP_ASM_X86_64 1
#else
#define SCOREP_ASM_X86_64 0
#endif

/* A spin-wait's pause: tells the core (and an SMT sibling) that this is a busy loop. Not a
 * hot-path asm, so taken by the instruction set alone, in a portable build too: x86's
 * `pause`, AArch64's `yield`, else only a compiler barrier (the loop reloads its atomic). */
static inline void scorep_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield" ::: "memory");
#else
    __asm__ volatile("" ::: "memory");
#endif
}

#endif
