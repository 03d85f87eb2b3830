/* SPDX-License-Identifier: BSD-3-Clause */
/* metric_read_cost.c: the cost of one raw counter read without the runtime, to compare with
 * the per-event cost of the metric sources: "ns_per_read <value>".
 * usage: metric_read_cost rusage|thread_cpu|papi:EVENT|perf:task-clock|perfu:task-clock|
 *                         perfsys:task-clock|perfdeep:task-clock N
 * (perf: one-event group read with libc's read(), user and kernel mode where allowed;
 * perfu: the same in user mode only, as the PAPI fallback counts; perfsys: read with the
 * bare system call the runtime makes, src/metrics/metric_perf.h; perfdeep: that call made
 * five call frames deep, to show what the returns after a kernel entry cost) */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include <linux/perf_event.h>
#include <papi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "metrics/metric_perf.h"

volatile long long sink_out; /* keeps the reads */

/* the thread's CPU time, as bench/tiny.c (TINY_CLOCK=CLOCK_THREAD_CPUTIME_ID) measures: a loaded machine's other
 * processes holding the CPU do not count */
static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int papi_set(const char *event)
{
    int es = PAPI_NULL, code;
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT ||
        PAPI_event_name_to_code(event, &code) != PAPI_OK || PAPI_create_eventset(&es) != PAPI_OK ||
        PAPI_add_event(es, code) != PAPI_OK || PAPI_start(es) != PAPI_OK)
        return -1;
    return es;
}

/* A one-event group of this thread counting task-clock, read with PERF_FORMAT_GROUP. */
static int perf_fd(int user_only)
{
    struct perf_event_attr a = {.size = sizeof a,
                                .type = PERF_TYPE_SOFTWARE,
                                .config = PERF_COUNT_SW_TASK_CLOCK,
                                .read_format = PERF_FORMAT_GROUP,
                                .exclude_kernel = (unsigned)user_only,
                                .exclude_hv = 1};
    int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
    if (fd < 0 && !user_only)
        return perf_fd(1);
    return fd;
}

static long long perf_read(int fd, int bare)
{
    uint64_t v[2] = {0, 0};
    long got = bare ? scorep_perf_sys_read(fd, v, sizeof v) : (long)read(fd, v, sizeof v);
    if (got != (long)sizeof v)
        return -1;
    return (long long)v[1];
}

/* five frames between the loop and the system call, as an event path has some */
__attribute__((noinline)) static long long deep0(int fd)
{
    return perf_read(fd, 1);
}
#define DEEP(n, m)                                                                                 \
    __attribute__((noinline)) static long long deep##n(int fd)                                     \
    {                                                                                              \
        long long v = deep##m(fd);                                                                 \
        __asm__ volatile("" ::: "memory");                                                         \
        return v;                                                                                  \
    }
DEEP(1, 0)
DEEP(2, 1)
DEEP(3, 2)
DEEP(4, 3)

int main(int argc, char **argv)
{
    const char *kind = argc > 1 ? argv[1] : "rusage";
    long n = argc > 2 ? atol(argv[2]) : 1000000L;
    int es = strncmp(kind, "papi:", 5) == 0       ? papi_set(kind + 5)
             : strncmp(kind, "perf:", 5) == 0     ? perf_fd(0)
             : strncmp(kind, "perfu:", 6) == 0    ? perf_fd(1)
             : strncmp(kind, "perfsys:", 8) == 0  ? perf_fd(0)
             : strncmp(kind, "perfdeep:", 9) == 0 ? perf_fd(0)
                                                  : 0;
    if (es < 0) {
        printf("ns_per_read n/a\n");
        return 0;
    }
    long long sink = 0, v[1];
    struct rusage r;
    struct timespec t;
    double t0 = now_ns();
    for (long i = 0; i < n; i++) {
        if (kind[0] == 'r') {
            getrusage(RUSAGE_THREAD, &r);
            sink += r.ru_minflt;
        } else if (kind[0] == 't') {
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
            sink += t.tv_nsec;
        } else if (kind[0] == 'p' && kind[1] == 'e') {
            sink += kind[4] == 'd' ? deep4(es) : perf_read(es, kind[4] == 's');
        } else {
            PAPI_read(es, v);
            sink += v[0];
        }
    }
    double t1 = now_ns();
    printf("ns_per_read %.3f\n", (t1 - t0) / (double)n);
    sink_out = sink;
    return 0;
}
