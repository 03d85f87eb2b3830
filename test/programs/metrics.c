/* SPDX-License-Identifier: BSD-3-Clause */
/* metrics.c: test program of the metric sources: burns CPU time, touches fresh pages,
 * starts threads and sleeps, as told by its arguments, and prints its CPU time; with
 * METRICS_OWN_CLOCKS set it also counts its thread's perf task-clock and cpu-clock and the
 * page faults of spin() and touch() itself.
 * usage: [METRICS_OWN_CLOCKS=1] metrics PAGES SPIN_MS THREADS SLEEP_MS */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/mempolicy.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

_Thread_local volatile double sink; /* per thread: spin runs in several threads */

__attribute__((no_instrument_function)) static long long cpu_ns(clockid_t c)
{
    struct timespec t;
    clock_gettime(c, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* The program's own page-fault counters (METRICS_OWN_CLOCKS; own_faults_* below): a
 * window "body" inside spin() and touch() (after the runtime's read at their enter, before
 * its read at their leave) and a window "call" in main around the call (outside both
 * reads). */
enum { R_SPIN, R_TOUCH, R_N };
static int own_region = -1; /* R_SPIN or R_TOUCH while main calls it, -1 otherwise */
static void own_body_begin(int r);
static void own_body_end(int r);

/* at least ms milliseconds of this thread's CPU time */
__attribute__((noinline)) void spin(long ms)
{
    int r = own_region;
    own_body_begin(r);
    long long end = cpu_ns(CLOCK_THREAD_CPUTIME_ID) + ms * 1000000LL;
    double s = 0;
    while (cpu_ns(CLOCK_THREAD_CPUTIME_ID) < end)
        for (int i = 0; i < 10000; i++)
            s += i * 0.5;
    sink = s;
    own_body_end(r);
}

/* one write to each of 'pages' pages never touched before: one minor fault each (no huge
 * page: where transparent huge pages are "always", one fault would map 512 of them) */
__attribute__((noinline)) void touch(long pages)
{
    int r = own_region;
    own_body_begin(r);
    long size = sysconf(_SC_PAGESIZE);
    char *p = pages > 0 ? mmap(NULL, (size_t)(pages * size), PROT_READ | PROT_WRITE,
                               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                        : MAP_FAILED;
    if (p != MAP_FAILED) {
        madvise(p, (size_t)(pages * size), MADV_NOHUGEPAGE);
        for (long i = 0; i < pages; i++)
            p[i * size] = 1;
        sink = p[0];
        munmap(p, (size_t)(pages * size));
    }
    own_body_end(r);
}

/* The program's own clocks (METRICS_OWN_CLOCKS): perf's task-clock and cpu-clock of the main
 * thread, opened by the program itself, over two windows: "main" (main's body, inside the
 * runtime's reads at main's enter and leave) and "process" (from a constructor to an exit
 * handler, outside them). The runtime's value of main then lies between the two on the
 * same kernel clock: a bound that does not depend on the load (tests/perf_metrics.sh).
 * System calls are made directly, so that no I/O wrapper of the runtime records them. */
enum { OWN_TASK, OWN_CPU, OWN_N };
static const char *const own_name[OWN_N] = {"task-clock", "cpu-clock"};

typedef struct own_window
{
    int fd[OWN_N], err[OWN_N];
    uint64_t start[OWN_N];
} own_window;

static own_window own_main, own_process;
static int own_on;

/* opens one software event of this thread: user mode only (user_only), else user and
 * kernel mode, or user mode where the kernel allows only that (perf_event_paranoid >= 2;
 * both clocks count the same then) */
__attribute__((no_instrument_function)) static int own_open_mode(unsigned long long config,
                                                                 int user_only)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_SOFTWARE;
    a.config = config;
    a.exclude_hv = 1;
    a.exclude_kernel = user_only != 0;
    int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0UL);
    if (fd < 0 && !user_only && (errno == EACCES || errno == EPERM)) {
        a.exclude_kernel = 1;
        fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0UL);
    }
    return fd;
}

__attribute__((no_instrument_function)) static int own_open(unsigned long long config)
{
    return own_open_mode(config, 0);
}

/* the clock's value, or -1 with errno */
__attribute__((no_instrument_function)) static int own_read(int fd, uint64_t *v)
{
    long n = syscall(SYS_read, fd, v, sizeof *v);
    if (n == (long)sizeof *v)
        return 0;
    if (n >= 0)
        errno = EIO;
    return -1;
}

__attribute__((no_instrument_function)) static void own_begin(own_window *w)
{
    for (int i = 0; i < OWN_N; i++) {
        w->fd[i] = own_open(i == OWN_TASK ? PERF_COUNT_SW_TASK_CLOCK : PERF_COUNT_SW_CPU_CLOCK);
        w->err[i] = w->fd[i] < 0 ? errno : 0;
    }
    for (int i = 0; i < OWN_N; i++)
        if (w->fd[i] >= 0 && own_read(w->fd[i], &w->start[i]) != 0) {
            w->err[i] = errno;
            w->fd[i] = -1;
        }
}

/* one line per clock: "own task-clock WINDOW NS", or why it has no value */
__attribute__((no_instrument_function)) static void own_end(own_window *w, const char *window)
{
    uint64_t end[OWN_N];
    for (int i = 0; i < OWN_N; i++)
        if (w->fd[i] >= 0 && own_read(w->fd[i], &end[i]) != 0) {
            w->err[i] = errno;
            w->fd[i] = -1;
        }
    for (int i = 0; i < OWN_N; i++) {
        if (w->fd[i] < 0)
            printf("own %s %s unavailable (perf_event_open or read: %s)\n", own_name[i], window,
                   strerror(w->err[i]));
        else
            printf("own %s %s %llu\n", own_name[i], window,
                   (unsigned long long)(end[i] - w->start[i]));
    }
}

__attribute__((no_instrument_function)) static void own_process_end(void)
{
    own_end(&own_process, "process");
}

/* The page faults of spin() and touch(), counted by the program on the kernel's counters of
 * its main thread, per kind (page-faults, minor-faults, major-faults) over the two windows:
 * "body" in user mode only (the faults of the function's own code; a subset of what any
 * runtime counter of the kind sees between its reads) and "call" in user and kernel mode
 * where allowed (a superset: everything between the runtime's reads at the function's enter
 * and leave, the runtime's own work included). So body <= runtime's value <= call holds by
 * construction, whatever the kernel, the CPU or the load (tests/perf_metrics.sh). */
enum { F_PAGE, F_MIN, F_MAJ, F_N };
enum { W_BODY, W_CALL, W_N };
static const char *const fault_name[F_N] = {"page-faults", "minor-faults", "major-faults"};
static const char *const window_name[W_N] = {"body", "call"};
static const char *const region_name[R_N] = {"spin", "touch"};
static int fault_fd[W_N][F_N], fault_err[W_N][F_N];
static uint64_t fault_start[W_N][F_N], fault_count[R_N][W_N][F_N];
static int fault_done[R_N][W_N];

__attribute__((no_instrument_function)) static void own_faults_open(void)
{
    static const unsigned long long config[F_N] = {
        PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_PAGE_FAULTS_MIN, PERF_COUNT_SW_PAGE_FAULTS_MAJ};
    for (int w = 0; w < W_N; w++)
        for (int f = 0; f < F_N; f++) {
            fault_fd[w][f] = own_open_mode(config[f], w == W_BODY);
            fault_err[w][f] = fault_fd[w][f] < 0 ? errno : 0;
        }
}

/* reads window w's counters into v (-1 on a failed read: then the count is unavailable) */
__attribute__((no_instrument_function)) static void own_faults_read(int w, uint64_t *v)
{
    for (int f = 0; f < F_N; f++)
        if (fault_fd[w][f] < 0 || own_read(fault_fd[w][f], &v[f]) != 0) {
            if (fault_fd[w][f] >= 0)
                fault_err[w][f] = errno;
            fault_fd[w][f] = -1;
        }
}

__attribute__((no_instrument_function)) static void own_window_begin(int w)
{
    own_faults_read(w, fault_start[w]);
}

__attribute__((no_instrument_function)) static void own_window_end(int r, int w)
{
    uint64_t end[F_N];
    own_faults_read(w, end);
    for (int f = 0; f < F_N; f++)
        fault_count[r][w][f] = end[f] - fault_start[w][f];
    fault_done[r][w] = 1;
}

__attribute__((no_instrument_function)) static void own_body_begin(int r)
{
    if (r >= 0)
        own_window_begin(W_BODY);
}

__attribute__((no_instrument_function)) static void own_body_end(int r)
{
    if (r >= 0)
        own_window_end(r, W_BODY);
}

/* one line per region, window and kind: "own page-faults spin body N", or why it has none */
__attribute__((no_instrument_function)) static void own_faults_print(void)
{
    for (int r = 0; r < R_N; r++)
        for (int w = 0; w < W_N; w++)
            for (int f = 0; f < F_N; f++) {
                if (!fault_done[r][w])
                    continue;
                if (fault_fd[w][f] < 0)
                    printf("own %s %s %s unavailable (perf_event_open or read: %s)\n",
                           fault_name[f], region_name[r], window_name[w],
                           strerror(fault_err[w][f]));
                else
                    printf("own %s %s %s %llu\n", fault_name[f], region_name[r],
                           window_name[w], (unsigned long long)fault_count[r][w][f]);
            }
}

__attribute__((constructor, no_instrument_function)) static void own_process_begin(void)
{
    own_on = getenv("METRICS_OWN_CLOCKS") != NULL;
    if (!own_on)
        return;
    /* Local allocation as by default, but as an explicit policy: without MPOL_F_NUMA_BALANCING
     * the kernel's NUMA balancing leaves the process's pages alone, so it makes no hinting
     * faults in spin's body (where the kernel has no NUMA, the call fails: nothing to do). */
    syscall(SYS_set_mempolicy, MPOL_LOCAL, NULL, 0UL);
    own_begin(&own_process);
    own_faults_open();
    atexit(own_process_end);
}

__attribute__((noinline)) void *worker(void *arg)
{
    (void)arg;
    spin(50);
    return NULL;
}

int main(int argc, char **argv)
{
    long pages = argc > 1 ? atol(argv[1]) : 0, ms = argc > 2 ? atol(argv[2]) : 0;
    int threads = argc > 3 ? atoi(argv[3]) : 0;
    long sleep_ms = argc > 4 ? atol(argv[4]) : 0;
    if (own_on)
        own_begin(&own_main);
    long long start = cpu_ns(CLOCK_PROCESS_CPUTIME_ID);
    if (own_on) {
        own_region = R_SPIN;
        own_window_begin(W_CALL);
    }
    spin(ms);
    if (own_on) {
        own_window_end(R_SPIN, W_CALL);
        own_region = R_TOUCH;
        own_window_begin(W_CALL);
    }
    touch(pages);
    if (own_on) {
        own_window_end(R_TOUCH, W_CALL);
        own_region = -1;
    }
    pthread_t t[16];
    for (int i = 0; i < threads && i < 16; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < threads && i < 16; i++)
        pthread_join(t[i], NULL);
    if (sleep_ms > 0)
        usleep((useconds_t)(sleep_ms * 1000));
    printf("cpu_ns %lld\n", cpu_ns(CLOCK_PROCESS_CPUTIME_ID) - start);
    if (own_on) {
        own_end(&own_main, "main");
        own_faults_print();
    }
    return 0;
}
