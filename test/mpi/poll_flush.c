/* SPDX-License-Identifier: BSD-3-Clause */
/* poll_flush.c [ROUNDS]: hpcc's RandomAccess pattern in small (test_mpi_poll_flush.sh): 2
 * ranks exchange ROUNDS (default 20000) messages each way with MPI_Irecv/MPI_Isend and poll
 * them with MPI_Test until both completed, nothing but MPI calls, so a trace of it holds only
 * MPI records and a small SCOREP_TOTAL_MEMORY must be flushed. Rank 0 prints "exchanged N
 * sum S" (S: the sum of the values received on both ranks). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size, rounds = argc > 1 ? atoi(argv[1]) : 20000;
    long long got = 0, total = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int peer = rank ^ 1;
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "poll_flush: run with 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int r = 0; r < rounds; r++) {
        int in = -1, out = r * 2 + rank, done_in = 0, done_out = 0;
        MPI_Request rin, rout;
        MPI_Irecv(&in, 1, MPI_INT, peer, r & 1023, MPI_COMM_WORLD, &rin);
        MPI_Isend(&out, 1, MPI_INT, peer, r & 1023, MPI_COMM_WORLD, &rout);
        while (!done_in || !done_out) { /* polling, as RandomAccess's loop */
            if (!done_in)
                MPI_Test(&rin, &done_in, MPI_STATUS_IGNORE);
            if (!done_out)
                MPI_Test(&rout, &done_out, MPI_STATUS_IGNORE);
        }
        got += in;
    }
    MPI_Reduce(&got, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("exchanged %d sum %lld\n", 2 * rounds, total);
    MPI_Finalize();
    return 0;
}
