/* SPDX-License-Identifier: BSD-3-Clause */
/* timer.h: the measurement clock. Reads the TSC (or clock_gettime) inline on the hot path;
 * the tick rate is calibrated against CLOCK_MONOTONIC over the whole run. */
#ifndef SCOREP_BASE_TIMER_H
#define SCOREP_BASE_TIMER_H

#include "base/arch.h"

#include <stdint.h>
#include <time.h>

typedef enum {
    SCOREP_TIMER_TSC,
    SCOREP_TIMER_CLOCK_GETTIME,
    SCOREP_TIMER_GETTIMEOFDAY
} scorep_timer_kind;

extern scorep_timer_kind scorep_timer_active;

static inline uint64_t scorep_timer_tsc(void)
{
#if SCOREP_ASM_X86_64
    /* rdtsc clears the upper halves of rax and rdx: 64-bit outputs need no zero-extension
     * of the low half (one instruction fewer per event, issue #31) */
    uint64_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return (hi << 32) | lo;
#elif defined(__i386__)
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

/* The kind whose ticks scorep_timer_tsc reads inline: the TSC on x86, elsewhere (and in a
 * build with SCOREP_PORTABLE=1) CLOCK_MONOTONIC's nanoseconds, which the clock_gettime
 * timer gives too. While it is the active timer the event gate lets the fast paths read it
 * (base/state.h, SCOREP_GATE_NOT_TSC); so they run on every machine, not on x86 alone. */
#if SCOREP_ASM_X86_64 || defined(__i386__)
#define SCOREP_TIMER_INLINE SCOREP_TIMER_TSC
#else
#define SCOREP_TIMER_INLINE SCOREP_TIMER_CLOCK_GETTIME
#endif

uint64_t scorep_timer_slow(void);

/* Raw ticks (not yet strictly increasing; see scorep_location_now). */
static inline uint64_t scorep_timer_ticks(void)
{
    if (__builtin_expect(scorep_timer_active == SCOREP_TIMER_TSC, 1))
        return scorep_timer_tsc();
    return scorep_timer_slow();
}

/* Raw ticks read only after every earlier instruction has executed: for the timestamp of
 * a lock acquisition, which must follow the previous holder's release in time. A plain
 * rdtsc may execute before the load or atomic that acquired the lock has completed (out of
 * order), and then reads a time up to ~150 ticks before the acquisition: on a 2-vCPU AMD
 * EPYC VM 74 of 2e6 hand-overs between two threads came out earlier than their
 * predecessor's timestamp, none with lfence; test_omp_locks.sh once saw acquisitions out of
 * their order. lfence before rdtsc is what Linux's rdtsc_ordered does on Intel and AMD;
 * clock_gettime's vDSO orders its own read. Not for the enter/leave path (~6 cycles more). */
static inline uint64_t scorep_timer_ticks_ordered(void)
{
#if SCOREP_ASM_X86_64 || defined(__i386__)
    if (__builtin_expect(scorep_timer_active == SCOREP_TIMER_TSC, 1)) {
        uint32_t lo, hi;
        __asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi)::"memory");
        return ((uint64_t)hi << 32) | lo;
    }
#endif
    return scorep_timer_ticks();
}

/* Chooses the timer (falls back to clock_gettime when the TSC is not invariant) and takes
 * the first calibration point. Returns the kind actually used. */
scorep_timer_kind scorep_timer_init(scorep_timer_kind wanted);
/* Takes the final calibration point; afterwards scorep_timer_resolution is exact. */
void scorep_timer_finish(void);
/* Ticks per second. */
uint64_t scorep_timer_resolution(void);
/* true if /proc/cpuinfo reports constant_tsc and nonstop_tsc */
int scorep_timer_tsc_invariant(void);
/* Test only (SCOREP_TEST_CLOCK_SKEW): shift this process's clock_gettime timer by ns, as
 * if its clock were that far off rank 0's; -1 with another timer. Call after
 * scorep_timer_init, before the first timestamp. */
int scorep_timer_set_test_skew(int64_t ns);
int64_t scorep_timer_test_skew(void);
/* Wall-clock time (ns since epoch) that corresponds to tick 'ticks'. */
uint64_t scorep_timer_realtime_ns(uint64_t ticks);

/* The timer's kind and calibration (finished first), for a rank-local piece that another
 * process writes out later (scorep-recover); restore makes this process's timer that one. */
enum { SCOREP_TIMER_STATE_WORDS = 7 };
void scorep_timer_save(uint64_t out[SCOREP_TIMER_STATE_WORDS]);
void scorep_timer_restore(const uint64_t in[SCOREP_TIMER_STATE_WORDS]);
#endif
