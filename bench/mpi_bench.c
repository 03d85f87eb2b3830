/* mpi_bench.c: MPI micro-benchmarks of `make bench`: one-way latency of 8-byte ping-pongs,
 * cost of a trivial wrapped call (MPI_Comm_rank), and a short run for finalize cost.
 * pingpong prints the mean one-way latency and that of the fastest block of 500 round trips.
 * Usage: mpi_bench pingpong N | commrank N | short */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Mean one-way latency over all n round trips, and that of the fastest block of BLOCK round
 * trips: on a loaded machine most runs are slowed by preemption, a short block often not. */
enum { BLOCK = 500 };
static void pingpong(int rank, long n)
{
    char buf[8] = {0};
    double best = 1e30;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = now();
    for (long done = 0; done < n;) {
        long m = n - done < BLOCK ? n - done : BLOCK;
        double b0 = now();
        for (long i = 0; i < m; i++) {
            if (rank == 0) {
                MPI_Send(buf, 8, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(buf, 8, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                MPI_Recv(buf, 8, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, 8, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            }
        }
        double b = (now() - b0) / (2.0 * (double)m);
        best = m == BLOCK && b < best ? b : best;
        done += m;
    }
    double t = now() - t0;
    if (rank == 0)
        printf("pingpong one-way ns mean %.1f block %.1f\n", t / (2.0 * (double)n) * 1e9,
               (best < 1e30 ? best : t / (2.0 * (double)n)) * 1e9);
}

static void commrank(int rank, long n)
{
    int r = 0;
    double t0 = now();
    for (long i = 0; i < n; i++)
        MPI_Comm_rank(MPI_COMM_WORLD, &r);
    double t = now() - t0;
    if (rank == 0)
        printf("commrank ns %.1f\n", t / (double)n * 1e9);
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long n = argc > 2 ? atol(argv[2]) : 100000;
    if (argc > 1 && strcmp(argv[1], "pingpong") == 0)
        pingpong(rank, n);
    else if (argc > 1 && strcmp(argv[1], "commrank") == 0)
        commrank(rank, n);
    else
        MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
