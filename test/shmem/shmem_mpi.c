/* SPDX-License-Identifier: BSD-3-Clause */
/* shmem_mpi.c: MPI and OpenSHMEM in one program (test_shmem.sh): MPI_Init, shmem_init, one
 * 32-byte put and one 8-byte message per rank, then shmem_finalize only: Open MPI 4.1's
 * shmem_finalize finalizes MPI too (MPI_Finalize before or after it aborts or crashes). */
#include <mpi.h>
#include <shmem.h>
#include <stdio.h>

static long box[4];

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long v[4] = {me, me, me, me}, got = -1;
    shmem_long_put(box, v, 4, (me + 1) % n);
    shmem_barrier_all();
    MPI_Sendrecv(&v[0], 1, MPI_LONG, (rank + 1) % n, 5, &got, 1, MPI_LONG, (rank + n - 1) % n, 5,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int ok = got == (rank + n - 1) % n && box[0] == (me + n - 1) % n && rank == me;
    if (rank == 0)
        printf("shmem_mpi: %d ranks %s\n", n, ok ? "ok" : "WRONG RESULTS");
    shmem_finalize();
    return ok ? 0 : 1;
}
