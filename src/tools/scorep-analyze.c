/* scorep-analyze.c: post-mortem wait-state analysis of an experiment's trace (src/analysis,
 * docs/analysis.md): `mpirun -np N scorep-analyze EXPDIR` with N = the number of ranks the
 * trace has; each process reads only its rank's events, the processes replay the recorded
 * communication, and rank 0 writes EXPDIR/scout.cubex and prints a short summary. */
#include "analysis/an_load.h"
#include "analysis/analysis.h"

#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: mpirun -np N scorep-analyze EXPDIR\n"
               "  Analyses EXPDIR/traces.otf2 (a trace of N MPI ranks, recorded with\n"
               "  SCOREP_ENABLE_TRACING=true) with N processes and writes EXPDIR/scout.cubex:\n"
               "  Scalasca's wait-state patterns (Late Sender, Late Receiver, Wait at Barrier,\n"
               "  ...) by call path and rank. See docs/analysis.md.\n");
}

/* every rank learns whether any failed; the lowest failing rank prints its message */
static int agree(int rc, const char *err, int rank, int size)
{
    int who = rc ? rank : size, first;
    MPI_Allreduce(&who, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == size)
        return 0;
    if (rank == first)
        fprintf(stderr, "scorep-analyze: %s\n", err);
    return -1;
}

int main(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        usage(stdout);
        return 0;
    }
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 2) {
        if (rank == 0)
            usage(stderr);
        MPI_Finalize();
        return 2;
    }
    char anchor[4096], cubex[4096], err[512] = "";
    struct stat st;
    int rc = 0;
    if (stat(argv[1], &st) != 0) {
        snprintf(err, sizeof err, "%s: %s (give the experiment directory of a traced run)", argv[1],
                 strerror(errno));
        rc = -1;
    } else if (!S_ISDIR(st.st_mode)) {
        snprintf(err, sizeof err, "%s is not a directory (give the experiment directory)", argv[1]);
        rc = -1;
    } else {
        snprintf(anchor, sizeof anchor, "%s/traces.otf2", argv[1]);
        snprintf(cubex, sizeof cubex, "%s/scout.cubex", argv[1]);
        if (stat(anchor, &st) != 0) {
            snprintf(err, sizeof err,
                     "%s has no traces.otf2: record the run with SCOREP_ENABLE_TRACING=true",
                     argv[1]);
            rc = -1;
        }
    }
    an_trace t;
    memset(&t, 0, sizeof t);
    double t0 = MPI_Wtime(), t1 = t0, t2 = t0;
    if (agree(rc, err, rank, size) == 0)
        rc = agree(an_load_otf2(anchor, (uint32_t)rank, (uint32_t)size, &t, err, sizeof err), err,
                   rank, size);
    else
        rc = -1;
    t1 = MPI_Wtime();
    if (rc == 0) {
        an_options opt = {"post-mortem", rank == 0 ? stdout : NULL, 0, 0, 0, 0};
        rc = an_analyze(&t, MPI_COMM_WORLD, cubex, &opt, err, sizeof err);
        t2 = MPI_Wtime();
        if (rc != 0 && rank == 0)
            fprintf(stderr, "scorep-analyze: %s\n", err);
        if (rc == 0 && rank == 0) {
            if (opt.ccv)
                printf("scorep-analyze: %llu clock condition violations (a receive ends before "
                       "its send begins): their waiting times are restricted to the time in the "
                       "operation\n",
                       (unsigned long long)opt.ccv);
            if (opt.unmatched_sends || opt.unmatched_recvs)
                printf("scorep-analyze: %llu sends and %llu receives without their peer in the "
                       "trace: not analysed\n",
                       (unsigned long long)opt.unmatched_sends,
                       (unsigned long long)opt.unmatched_recvs);
            if (opt.skipped_inter_colls)
                printf("scorep-analyze: %llu collectives on intercommunicators: not analysed\n",
                       (unsigned long long)opt.skipped_inter_colls);
            if (t.reduced)
                printf("scorep-analyze: the trace was reduced or flushed: patterns of the "
                       "removed calls are missing\n");
            printf("scorep-analyze: %zu events on rank 0; read %.3f s, replay and report %.3f s\n",
                   t.n_events, t1 - t0, t2 - t1);
            printf("scorep-analyze: wrote %s\n", cubex);
        }
    }
    an_trace_free(&t);
    MPI_Finalize();
    return rc ? 1 : 0;
}
