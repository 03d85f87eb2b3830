/* metrics.c: test program of the metric sources: burns CPU time, touches fresh pages,
 * starts threads and sleeps, as told by its arguments, and prints its CPU time.
 * usage: metrics PAGES SPIN_MS THREADS SLEEP_MS */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

volatile double sink;

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
    return 0;
}
