/* sampling_hot.c: spends about 0.5 s of thread CPU time in hot() and little elsewhere, then
 * prints the process CPU time in ms ("cpu_ms N") so that tests can bound the samples. */
#include <stdio.h>
#include <time.h>

volatile double sink;

__attribute__((noinline)) static double spin(long n)
{
    double x = 0;
    for (long i = 0; i < n; i++)
        x += (double)i * 1e-9;
    return x;
}

__attribute__((noinline)) void hot(void)
{
    struct timespec a, b;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
    do {
        sink += spin(100000);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
    } while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < 500000000L);
}

__attribute__((noinline)) void cold(void)
{
    sink += spin(200000);
}

int main(void)
{
    cold();
    hot();
    cold();
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    printf("cpu_ms %ld\n", t.tv_sec * 1000L + t.tv_nsec / 1000000L);
    return 0;
}
