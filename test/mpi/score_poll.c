/* SPDX-License-Identifier: BSD-3-Clause */
/* score_poll.c [ROUNDS]: CP2K's (DBCSR's) waiting pattern in small, for test_score_poll.sh:
 * each of 2 ranks posts 16 MPI_Irecv a round and polls them with MPI_Testany, 40 times
 * before the peer can have sent (the barrier after the polls orders the sends after them)
 * and, after a second barrier that all sends precede, until all 16 arrived, so the run has
 * at least 56 MPI_Testany visits per round, most of which complete nothing. Nothing but MPI calls: a trace of it under scorep-run
 * holds Enters, Leaves and MPI records only. Prints "rank R rounds N sum S" (S: the sum of
 * the values received, 16 x (0 + ... + N-1) + N x (0 + ... + 15) x 2 + N x 16 x peer). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define NREQ 16

int main(int argc, char **argv)
{
    int rank, size, rounds = argc > 1 ? atoi(argv[1]) : 401;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "score_poll: run with 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int peer = rank ^ 1;
    long long sum = 0;
    for (int r = 0; r < rounds; r++) {
        int in[NREQ], out[NREQ];
        MPI_Request req[NREQ];
        for (int i = 0; i < NREQ; i++)
            MPI_Irecv(&in[i], 1, MPI_INT, peer, i, MPI_COMM_WORLD, &req[i]);
        int idx, flag, got = 0;
        for (int k = 0; k < 40; k++) { /* the peer has not sent yet: nothing completes */
            MPI_Testany(NREQ, req, &idx, &flag, MPI_STATUS_IGNORE);
            if (flag) {
                fprintf(stderr, "score_poll: a receive completed before its send\n");
                MPI_Abort(MPI_COMM_WORLD, 3);
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < NREQ; i++) {
            out[i] = 2 * i + rank + (r << 8);
            MPI_Send(&out[i], 1, MPI_INT, peer, i, MPI_COMM_WORLD);
        }
        /* both ranks' sends returned: the polls below wait for delivery, not for a peer
         * the scheduler left waiting (unbounded polling would make the trace's size, and
         * whether 64M hold it, depend on the machine's load) */
        MPI_Barrier(MPI_COMM_WORLD);
        while (got < NREQ) {
            MPI_Testany(NREQ, req, &idx, &flag, MPI_STATUS_IGNORE);
            if (flag && idx != MPI_UNDEFINED) {
                sum += in[idx];
                got++;
            }
        }
    }
    printf("rank %d rounds %d sum %lld\n", rank, rounds, sum);
    MPI_Finalize();
    return 0;
}
