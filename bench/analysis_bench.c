/* SPDX-License-Identifier: BSD-3-Clause */
/* analysis_bench.c: traced program of the analysis benchmark (run_analysis_bench.sh): ranks
 * 2k and 2k+1 exchange MESSAGES messages of 64 bytes (argv[1], default 200000) as ping-pong
 * round trips, with an MPI_Allreduce over all ranks every 1000 round trips; so every pair
 * has the same trace (weak scaling over 2, 4, 8 ranks). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long messages = argc > 1 ? atol(argv[1]) : 200000;
    char buf[64] = {0};
    int peer = rank ^ 1;
    long sum = 0;
    for (long i = 0; i < messages / 2 && peer < size; i++) {
        if (rank % 2 == 0) {
            MPI_Send(buf, 64, MPI_CHAR, peer, 0, MPI_COMM_WORLD);
            MPI_Recv(buf, 64, MPI_CHAR, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, 64, MPI_CHAR, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, 64, MPI_CHAR, peer, 0, MPI_COMM_WORLD);
        }
        if (i % 1000 == 999) {
            long one = 1, n;
            MPI_Allreduce(&one, &n, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
            sum += n;
        }
    }
    MPI_Finalize();
    if (rank == 0)
        printf("analysis_bench %ld messages per pair, %d ranks, %ld\n", messages, size, sum);
    return 0;
}
