/* SPDX-License-Identifier: BSD-3-Clause */
/* unwind_mpi.c: MPI calls below functions that are not instrumented, for
 * test_unwind_enter.sh (SCOREP_ENABLE_UNWINDING at instrumented events): main -> solve ->
 * exchange -> MPI_Sendrecv (UW_K times) and main -> reduce_all -> MPI_Allreduce (UW_M times),
 * run with 2 ranks, built plainly (run under scorep-run) or with scorep-cc and solve
 * filtered out. noinline keeps every function a frame of its own at any optimisation. */
#include <mpi.h>
#include <stdio.h>

#define UW_K 7
#define UW_M 5

__attribute__((noinline)) void exchange(int peer, int *v)
{
    int in = 0;
    MPI_Sendrecv(v, 1, MPI_INT, peer, 0, &in, 1, MPI_INT, peer, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    *v += in;
}

__attribute__((noinline)) void solve(int peer, int *v)
{
    for (int i = 0; i < UW_K; i++)
        exchange(peer, v);
}

__attribute__((noinline)) void reduce_all(int *v)
{
    int out = 0;
    MPI_Allreduce(v, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    *v = out % 1000;
}

int main(int argc, char **argv)
{
    int rank = 0, size = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        fprintf(stderr, "unwind_mpi: needs 2 ranks, has %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int v = rank + 1;
    solve(rank ^ 1, &v);
    for (int i = 0; i < UW_M; i++)
        reduce_all(&v);
    printf("rank %d: %d\n", rank, v);
    MPI_Finalize();
    return 0;
}
