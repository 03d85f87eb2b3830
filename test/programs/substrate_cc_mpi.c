/* SPDX-License-Identifier: BSD-3-Clause */
/* substrate_cc_mpi.c: 2 ranks under scorep-run (nothing compiler-instrumented: every
 * function of the program is an unwound frame of the MPI calls' contexts) with CPU time in
 * compute between the calls, for test_substrate_cc.sh: main/step/exchange/MPI_Sendrecv
 * CC_K times and main/step/MPI_Allreduce CC_K times per rank. Prints the rank's sum. */
#include <mpi.h>
#include <stdio.h>

#define CC_K 12

static volatile double sink;

__attribute__((noinline)) void compute(int n)
{
    double x = 0;
    for (int i = 0; i < n; i++)
        x += (double)i * 1e-9;
    sink += x;
}

__attribute__((noinline)) void exchange(int peer, int *v)
{
    int in = 0;
    compute(400000);
    MPI_Sendrecv(v, 1, MPI_INT, peer, 0, &in, 1, MPI_INT, peer, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    *v += in;
}

__attribute__((noinline)) void step(int peer, int *v)
{
    exchange(peer, v);
    compute(200000);
    int out = 0;
    MPI_Allreduce(v, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    *v = out % 1000;
}

int main(int argc, char **argv)
{
    int rank = 0, size = 0, v;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    v = rank + 1;
    for (int i = 0; i < CC_K; i++)
        step((rank + 1) % size, &v);
    printf("rank %d: %d\n", rank, v);
    MPI_Finalize();
    return 0;
}
