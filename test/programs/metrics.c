/* metrics.c: test program of the metric sources: burns CPU time, touches fresh pages,
 * starts threads and sleeps, as told by its arguments, and prints its CPU time; with
 * METRICS_OWN_CLOCKS set it also counts its thread's perf task-clock and cpu-clock itself.
 * usage: [METRICS_OWN_CLOCKS=1] metrics PAGES SPIN_MS THREADS SLEEP_MS */
#define _GNU_SOURCE
#include <errno.h>
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

/* at least ms milliseconds of this thread's CPU time */
__attribute__((noinline)) void spin(long ms)
{
    long long end = cpu_ns(CLOCK_THREAD_CPUTIME_ID) + ms * 1000000LL;
    double s = 0;
    while (cpu_ns(CLOCK_THREAD_CPUTIME_ID) < end)
        for (int i = 0; i < 10000; i++)
            s += i * 0.5;
    sink = s;
}

/* one write to each of 'pages' pages never touched before: one minor fault each */
__attribute__((noinline)) void touch(long pages)
{
    long size = sysconf(_SC_PAGESIZE);
    if (pages <= 0)
        return;
    char *p = mmap(NULL, (size_t)(pages * size), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return;
    for (long i = 0; i < pages; i++)
        p[i * size] = 1;
    sink = p[0];
    munmap(p, (size_t)(pages * size));
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

/* opens one software clock of this thread: user and kernel mode, or user mode where the
 * kernel allows only that (perf_event_paranoid >= 2; both clocks count the same then) */
__attribute__((no_instrument_function)) static int own_open(unsigned long long config)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_SOFTWARE;
    a.config = config;
    a.exclude_hv = 1;
    int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0UL);
    if (fd < 0 && (errno == EACCES || errno == EPERM)) {
        a.exclude_kernel = 1;
        fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0UL);
    }
    return fd;
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

__attribute__((constructor, no_instrument_function)) static void own_process_begin(void)
{
    own_on = getenv("METRICS_OWN_CLOCKS") != NULL;
    if (!own_on)
        return;
    own_begin(&own_process);
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
    spin(ms);
    touch(pages);
    pthread_t t[16];
    for (int i = 0; i < threads && i < 16; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < threads && i < 16; i++)
        pthread_join(t[i], NULL);
    if (sleep_ms > 0)
        usleep((useconds_t)(sleep_ms * 1000));
    printf("cpu_ns %lld\n", cpu_ns(CLOCK_PROCESS_CPUTIME_ID) - start);
    if (own_on)
        own_end(&own_main, "main");
    return 0;
}
