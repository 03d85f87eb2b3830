/* SPDX-License-Identifier: BSD-3-Clause */
/* metric_perf.h: the per-thread state of a perf counter group (metric_perf.c) and its read,
 * inline so that the event path reads perf counters without a call of its own. */
#ifndef SCOREP_METRIC_PERF_H
#define SCOREP_METRIC_PERF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { SCOREP_PERF_MAX_EVENTS = 32 };

/* One thread's open group. PERF_FORMAT_GROUP: the leader's read returns nr, then the
 * values in the order the events joined the group. */
typedef struct {
    int fds[SCOREP_PERF_MAX_EVENTS];
    uint32_t n;
    uint64_t buf[SCOREP_PERF_MAX_EVENTS + 1];
} scorep_perf_thread;

/* read(2) without libc's wrapper, which is a cancellation point (a thread must not be
 * cancelled inside the event path) and a call frame: after a system call every return to a
 * frame entered before it mispredicts on this project's VMs (about 10 ns each, measured),
 * so the read sits directly in the event path. */
static inline long scorep_perf_sys_read(int fd, void *buf, size_t n)
{
#if defined(__x86_64__)
    long ret;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "0"((long)SYS_read), "D"((long)fd), "S"(buf), "d"(n)
                     : "rcx", "r11", "memory");
    return ret;
#else
    return syscall(SYS_read, fd, buf, n);
#endif
}

/* Reading the counters is the one system call of the metric path: a read of the leader
 * returns all of the thread's values at once. A failed read keeps the last values. */
static inline void scorep_perf_read(void *state, uint64_t *out)
{
    scorep_perf_thread *t = state;
    long want = (long)((t->n + 1) * sizeof(uint64_t));
    if (scorep_perf_sys_read(t->fds[0], t->buf, (size_t)want) != want)
        return;
    memcpy(out, t->buf + 1, t->n * sizeof *out);
}

#endif
