/* sampling_omp.c: an OpenMP team of three threads, each spending about 0.2 s of its own CPU
 * time in hot(); for sampling of an unmodified OpenMP program under scorep-run. */
#include <time.h>

static volatile double sink;

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
    } while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < 200000000L);
}

int main(void)
{
#pragma omp parallel num_threads(3)
    hot();
    return 0;
}
