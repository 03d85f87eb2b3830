/* sampling_mpi.c: every rank spends about 0.2 s of CPU in hot() between MPI_Init and a
 * barrier; for sampling of an unmodified MPI program under mpirun + scorep-run. */
#include <mpi.h>
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

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    hot();
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
