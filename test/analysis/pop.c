/* SPDX-License-Identifier: BSD-3-Clause */
/* pop.c: MPI programs whose POP serialisation and transfer efficiencies follow from their
 * design (test_analysis_pop.sh):
 *   pop pipeline W R   (4 ranks) R rounds of a pipeline: rank i receives from rank i-1, works
 *                      W seconds, sends to rank i+1; a barrier ends each round. The ranks
 *                      work one after the other: serialisation efficiency ~ R*W / runtime,
 *                      transfer efficiency ~ 1 (tiny messages).
 *   pop transfer W N B (2 ranks) N rounds: both work W seconds, then exchange B MiB each way
 *                      with MPI_Sendrecv: the transfer time is the exchange time.
 * The program measures with its own clock (CLOCK_MONOTONIC) and prints "P rank init s" (its
 * MPI_Init), "P rank total s" (from before MPI_Init to before MPI_Finalize), "P rank comp s"
 * (the time outside its MPI calls after MPI_Init), and for transfer "X rank round s" (each
 * MPI_Sendrecv). The body after MPI_Init is the user region "body" and each piece of work the
 * user region "work", so that the time outside MPI is in call paths of the trace. */
#include <mpi.h>
#include <scorep/SCOREP_User.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "scenario.h"

/* works (spins) W seconds; returns the time it took */
static double work(double w)
{
    SCOREP_USER_REGION_DEFINE(h)
    SCOREP_USER_REGION_BEGIN(h, "work", SCOREP_USER_REGION_TYPE_COMMON)
    double t = now(), end = t + w;
    while (now() < end)
        ;
    t = now() - t;
    SCOREP_USER_REGION_END(h)
    return t;
}

/* the time of this rank's MPI calls after MPI_Init */
static double in_mpi;
#define TIMED(call)                                                                                \
    do {                                                                                           \
        double t_ = now();                                                                         \
        call;                                                                                      \
        in_mpi += now() - t_;                                                                      \
    } while (0)

int main(int argc, char **argv)
{
    double t_start = now();
    int rank, size;
    MPI_Init(&argc, &argv);
    double t_init = now() - t_start;
    TIMED(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    TIMED(MPI_Comm_size(MPI_COMM_WORLD, &size));
    if (argc < 4 || (strcmp(argv[1], "pipeline") && strcmp(argv[1], "transfer"))) {
        if (rank == 0)
            fprintf(stderr, "usage: pop pipeline W R | pop transfer W N MiB\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    SCOREP_USER_REGION_DEFINE(body)
    SCOREP_USER_REGION_BEGIN(body, "body", SCOREP_USER_REGION_TYPE_COMMON)
    double w = atof(argv[2]);
    int rounds = atoi(argv[3]);
    double *xt = calloc((size_t)rounds + 1, sizeof *xt);
    if (!strcmp(argv[1], "pipeline")) {
        for (int r = 0; r < rounds; r++) {
            int x = r;
            if (rank > 0)
                TIMED(MPI_Recv(&x, 1, MPI_INT, rank - 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            work(w);
            if (rank < size - 1)
                TIMED(MPI_Send(&x, 1, MPI_INT, rank + 1, 1, MPI_COMM_WORLD));
            TIMED(MPI_Barrier(MPI_COMM_WORLD));
        }
    } else {
        size_t n = (size_t)(argc > 4 ? atof(argv[4]) : 64) * 1024 * 1024;
        char *out = malloc(n), *in = malloc(n);
        if (!out || !in || size != 2) {
            fprintf(stderr, "pop transfer: needs 2 ranks and 2 x %zu bytes\n", n);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        memset(out, rank, n);
        memset(in, 0, n);
        for (int r = 0; r < rounds; r++) {
            work(w);
            double t = now();
            MPI_Sendrecv(out, (int)n, MPI_BYTE, 1 - rank, 2, in, (int)n, MPI_BYTE, 1 - rank, 2,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            xt[r] = now() - t;
            in_mpi += xt[r];
        }
        free(out);
        free(in);
    }
    SCOREP_USER_REGION_END(body)
    double total = now() - t_start;
    MPI_Finalize();
    printf("P %d init %.6f\nP %d total %.6f\nP %d comp %.6f\n", rank, t_init, rank, total, rank,
           total - t_init - in_mpi);
    for (int r = 0; !strcmp(argv[1], "transfer") && r < rounds; r++)
        printf("X %d %d %.6f\n", rank, r, xt[r]);
    free(xt);
    return 0;
}
