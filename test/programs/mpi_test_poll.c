/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_test_poll.c: MPI test program for the trace reduction's depth step
 * (test_reduction_depth_comm.sh): 2 ranks exchange ROUNDS small messages (argv[1]); each
 * round a rank posts MPI_Irecv, sends with MPI_Send and polls the receive with MPI_Test, as
 * CP2K polls with MPI_Testany: POLLS times exactly (so that the counts do not depend on the
 * machine's load; a test after completion tests MPI_REQUEST_NULL), then MPI_Wait when the
 * receive has not completed by then. With WRAP (argv[2]) 0 every MPI call is made
 * from main itself, so that below the program's outermost call there are only MPI calls;
 * with 1 each round is a call of exchange(), a compiler-instrumented function at depth 1,
 * which the depth step drops. Prints the rounds and a checksum of the received payloads. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { POLLS = 16 };

/* POLLS tests of the receive REQ, then a wait if it is still pending: a macro, not a
 * function, which the compiler instrumentation would make a call at depth 1 */
#define POLL(req)                                                                                  \
    do {                                                                                           \
        int done_ = 0;                                                                             \
        for (int k_ = 0; k_ < POLLS; k_++)                                                         \
            MPI_Test(&(req), &done_, MPI_STATUS_IGNORE);                                           \
        if (!done_)                                                                                \
            MPI_Wait(&(req), MPI_STATUS_IGNORE);                                                   \
    } while (0)

/* one round: the payload the peer sent (its rank and the round) */
__attribute__((noinline)) long exchange(int rank, int i)
{
    int peer = 1 - rank, out[2] = {rank, i}, in[2] = {-1, -1};
    MPI_Request req;
    MPI_Irecv(in, 2, MPI_INT, peer, 7, MPI_COMM_WORLD, &req);
    MPI_Send(out, 2, MPI_INT, peer, 7, MPI_COMM_WORLD);
    POLL(req);
    return (long)in[0] + in[1];
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rounds = argc > 1 ? atoi(argv[1]) : 4000, wrap = argc > 2 ? atoi(argv[2]) : 0;
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "mpi_test_poll needs exactly 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    long sum = 0;
    for (int i = 0; i < rounds; i++) {
        if (wrap) {
            sum += exchange(rank, i);
            continue;
        }
        /* the same round inline: MPI calls only below main */
        int peer = 1 - rank, out[2] = {rank, i}, in[2] = {-1, -1};
        MPI_Request req;
        MPI_Irecv(in, 2, MPI_INT, peer, 7, MPI_COMM_WORLD, &req);
        MPI_Send(out, 2, MPI_INT, peer, 7, MPI_COMM_WORLD);
        POLL(req);
        sum += (long)in[0] + in[1];
    }
    printf("rank %d rounds %d sum %ld\n", rank, rounds, sum);
    MPI_Finalize();
    return 0;
}
