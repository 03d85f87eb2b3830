/* SPDX-License-Identifier: BSD-3-Clause */
/* timer.c: timer selection and TSC calibration against CLOCK_MONOTONIC (start and end of
 * the run, so the rate is exact over the measured interval). */
#include "base/timer.h"
#include "base/state.h"

#include <stdio.h>
#include <string.h>
#include <sys/time.h>

scorep_timer_kind scorep_timer_active = SCOREP_TIMER_CLOCK_GETTIME;

/* SCOREP_TEST_CLOCK_SKEW: lets the clock-offset test give one rank a clock that is off by a
 * known amount; only the clock_gettime timer honours it (the TSC is read inline) */
static int64_t test_skew;

/* whether the fast paths may read kind k's ticks inline (scorep_timer_tsc): the inline
 * kind, without a test skew, which only scorep_timer_slow adds */
static int inline_readable(scorep_timer_kind k)
{
    return k == SCOREP_TIMER_INLINE && test_skew == 0;
}

/* scorep_timer_active and its bit of the event gate (base/state.h): the bit that sends
 * events to the general path set before the kind changes, cleared after */
static void set_kind(scorep_timer_kind k)
{
    if (!inline_readable(k))
        scorep_gate_set(SCOREP_GATE_NOT_TSC, 1);
    scorep_timer_active = k;
    if (inline_readable(k))
        scorep_gate_set(SCOREP_GATE_NOT_TSC, 0);
}

static struct {
    uint64_t tick0, ns0, tick1, ns1, real0;
    uint64_t resolution;
} cal;

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t scorep_timer_slow(void)
{
    if (scorep_timer_active == SCOREP_TIMER_GETTIMEOFDAY) {
        struct timeval tv;
        gettimeofday(&tv, NULL);
        return (uint64_t)tv.tv_sec * 1000000u + (uint64_t)tv.tv_usec;
    }
    return mono_ns() + (uint64_t)test_skew;
}

int scorep_timer_set_test_skew(int64_t ns)
{
    if (ns != 0 && scorep_timer_active != SCOREP_TIMER_CLOCK_GETTIME)
        return -1;
    if (ns != 0) /* the fast paths' inline reading would miss the skew */
        scorep_gate_set(SCOREP_GATE_NOT_TSC, 1);
    test_skew = ns;
    set_kind(scorep_timer_active);
    return 0;
}

int64_t scorep_timer_test_skew(void)
{
    return test_skew;
}

int scorep_timer_tsc_invariant(void)
{
#if SCOREP_ASM_X86_64 || defined(__i386__)
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return 0;
    char line[4096];
    int ok = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "flags", 5) == 0) {
            ok = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc");
            break;
        }
    }
    fclose(f);
    return ok;
#else
    return 0;
#endif
}

/* Paired reading of ticks and monotonic ns, taken close together. */
static void sample(uint64_t *tick, uint64_t *ns)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 5; i++) {
        uint64_t a = scorep_timer_ticks();
        uint64_t n = mono_ns();
        uint64_t b = scorep_timer_ticks();
        if (b - a < best) {
            best = b - a;
            *tick = a + (b - a) / 2;
            *ns = n;
        }
    }
}

scorep_timer_kind scorep_timer_init(scorep_timer_kind wanted)
{
    if (wanted == SCOREP_TIMER_TSC && !scorep_timer_tsc_invariant())
        wanted = SCOREP_TIMER_CLOCK_GETTIME;
    set_kind(wanted);
    sample(&cal.tick0, &cal.ns0);
    struct timespec rt;
    clock_gettime(CLOCK_REALTIME, &rt);
    cal.real0 = (uint64_t)rt.tv_sec * 1000000000u + (uint64_t)rt.tv_nsec;
    switch (wanted) {
    case SCOREP_TIMER_GETTIMEOFDAY:
        cal.resolution = 1000000u;
        break;
    case SCOREP_TIMER_CLOCK_GETTIME:
        cal.resolution = 1000000000u;
        break;
    default:
        cal.resolution = 0;
    }
    return wanted;
}

void scorep_timer_finish(void)
{
    if (scorep_timer_active != SCOREP_TIMER_TSC || cal.tick1)
        return;
    /* A short run gives a poor rate: stretch the baseline to at least 20 ms. */
    uint64_t now = mono_ns();
    if (now - cal.ns0 < 20000000u) {
        struct timespec d = {0, (long)(20000000u - (now - cal.ns0))};
        nanosleep(&d, NULL);
    }
    sample(&cal.tick1, &cal.ns1);
    long double rate =
        (long double)(cal.tick1 - cal.tick0) * 1e9L / (long double)(cal.ns1 - cal.ns0);
    cal.resolution = (uint64_t)(rate + 0.5L);
}

uint64_t scorep_timer_resolution(void)
{
    if (!cal.resolution)
        scorep_timer_finish();
    return cal.resolution;
}

uint64_t scorep_timer_realtime_ns(uint64_t ticks)
{
    long double dt = ((long double)ticks - (long double)cal.tick0) * 1e9L /
                     (long double)scorep_timer_resolution();
    return cal.real0 + (uint64_t)(int64_t)dt;
}

/* Rank-local pieces (rescue, scorep-recover): the calibration travels with the data. */
void scorep_timer_save(uint64_t out[SCOREP_TIMER_STATE_WORDS])
{
    scorep_timer_finish();
    uint64_t s[SCOREP_TIMER_STATE_WORDS] = {(uint64_t)scorep_timer_active,
                                            cal.tick0,
                                            cal.ns0,
                                            cal.tick1,
                                            cal.ns1,
                                            cal.real0,
                                            cal.resolution};
    memcpy(out, s, sizeof s);
}

void scorep_timer_restore(const uint64_t in[SCOREP_TIMER_STATE_WORDS])
{
    set_kind((scorep_timer_kind)in[0]);
    cal.tick0 = in[1];
    cal.ns0 = in[2];
    cal.tick1 = in[3];
    cal.ns1 = in[4];
    cal.real0 = in[5];
    cal.resolution = in[6];
}
