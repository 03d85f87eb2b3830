/* SPDX-License-Identifier: BSD-3-Clause */
/* msgpath.c: the message path's records (test_mpi_msgpath.sh): 2 ranks, N blocking round
 * trips (MPI_Send / MPI_Recv, tag 5, 16 bytes), N non-blocking ones (MPI_Irecv / MPI_Isend /
 * MPI_Waitall, tag 6, 24 bytes), then one MPI_Send to MPI_PROC_NULL per rank (an Enter and a
 * Leave, no message). N from argv[1]. */
#include "mpi_test.h"

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    world(&rank, &size, 2);
    long n = argc > 1 ? atol(argv[1]) : 300;
    char buf[16] = {0}, out[24] = {0}, in[24];
    int peer = 1 - rank;
    for (long i = 0; i < n && rank < 2; i++) {
        buf[0] = (char)i;
        if (rank == 0) {
            CHECK_MPI(MPI_Send(buf, 16, MPI_BYTE, 1, 5, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Recv(buf, 16, MPI_BYTE, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        } else {
            CHECK_MPI(MPI_Recv(buf, 16, MPI_BYTE, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(buf[0] == (char)i);
            CHECK_MPI(MPI_Send(buf, 16, MPI_BYTE, 0, 5, MPI_COMM_WORLD));
        }
    }
    for (long i = 0; i < n && rank < 2; i++) {
        MPI_Request rq[2];
        MPI_Status st[2];
        out[0] = (char)i;
        CHECK_MPI(MPI_Irecv(in, 24, MPI_BYTE, peer, 6, MPI_COMM_WORLD, &rq[0]));
        CHECK_MPI(MPI_Isend(out, 24, MPI_BYTE, peer, 6, MPI_COMM_WORLD, &rq[1]));
        CHECK_MPI(MPI_Waitall(2, rq, st));
        CHECK(in[0] == (char)i && st[0].MPI_SOURCE == peer && st[0].MPI_TAG == 6);
    }
    CHECK_MPI(MPI_Send(buf, 4, MPI_BYTE, MPI_PROC_NULL, 7, MPI_COMM_WORLD));
    MPI_Finalize();
    return 0;
}
