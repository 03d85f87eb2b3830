/* SPDX-License-Identifier: BSD-3-Clause */
/* signal_floor.c: the floor of sampling for `make bench`: the loop of sampling_bench.c with
 * a perf_event task-clock overflow signal to this thread and an empty handler, i.e. what
 * the kernel alone costs per signal. Prints "work_us N signals M". */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile double sink;
static volatile sig_atomic_t signals;

static void on_prof(int sig)
{
    (void)sig;
    signals++;
}

__attribute__((noinline)) static double kernel(long n)
{
    double x = 0;
    for (long i = 0; i < n; i++)
        x += (double)i * 1e-9;
    return x;
}

static int start_source(long period_ns)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_SOFTWARE;
    a.config = PERF_COUNT_SW_TASK_CLOCK;
    a.sample_period = (unsigned long long)period_ns;
    a.disabled = 1;
    a.exclude_kernel = 1;
    a.wakeup_events = 1;
    int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
    if (fd < 0)
        return -1;
    struct f_owner_ex owner = {F_OWNER_TID, (pid_t)syscall(SYS_gettid)};
    if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC) != 0 ||
        fcntl(fd, F_SETSIG, SIGPROF) != 0 || fcntl(fd, F_SETOWN_EX, &owner) != 0 ||
        ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) != 0)
        return -1;
    return 0;
}

int main(int argc, char **argv)
{
    long reps = argc > 1 ? atol(argv[1]) : 10000;
    long period = argc > 2 ? atol(argv[2]) : 1000000;
    signal(SIGPROF, on_prof);
    if (start_source(period) != 0) {
        perror("perf_event_open");
        return 1;
    }
    struct timespec a, b;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
    for (long r = 0; r < reps; r++)
        sink += kernel(100000 + (r & 1));
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
    printf("work_us %ld signals %d\n",
           (b.tv_sec - a.tv_sec) * 1000000L + (b.tv_nsec - a.tv_nsec) / 1000L, (int)signals);
    return 0;
}
