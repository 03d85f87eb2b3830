/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_insitu.c: the in-situ analysis (SCOREP_ENABLE_ANALYSIS=true with tracing): at
 * MPI_Finalize, after the definitions are unified and before the results are written, every
 * rank analyses its in-memory trace over the program's MPI (a duplicate of MPI_COMM_WORLD)
 * and rank 0 writes scout.cubex into the experiment directory; with
 * SCOREP_ANALYSIS_TRACE_FILE=false the trace file is then not written. The MPI adapter
 * registers it (scorep_analysis_insitu_setup) when MPI is initialised. */
#include "adapters/mpi/mpi_insitu.h"
#include "analysis/an_load.h"
#include "analysis/an_net_mpi.h"
#include "analysis/analysis.h"
#include "core/location.h"
#include "runtime/runtime.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

static const scorep_location *master(void)
{
    for (const scorep_location *l = scorep_location_first(); l; l = l->next)
        if (l->id == 0)
            return l;
    return NULL;
}

static int insitu(const char *dir, const struct scorep_unified_s *u)
{
    int rank, size;
    MPI_Comm comm;
    if (PMPI_Comm_dup(MPI_COMM_WORLD, &comm) != MPI_SUCCESS)
        return 0;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    double t0 = PMPI_Wtime();
    char err[512] = "", path[4200];
    snprintf(path, sizeof path, "%s/scout.cubex", dir);
    an_trace t;
    /* collective: the thread teams' communicator ids, on every rank before any can fail
     * (an_load_buffer names tasks by them; the trace writer reuses them) */
    an_load_buffer_prepare(u);
    const scorep_location *l = master();
    int rc = l ? an_load_buffer(l, u, (uint32_t)rank, (uint32_t)size, &t, err, sizeof err) : -1;
    if (!l) {
        memset(&t, 0, sizeof t);
        snprintf(err, sizeof err, "rank %d has no master-thread location", rank);
    }
    an_net *net = an_net_mpi(comm); /* the analysis's communication (an_net.h) */
    if (!net && rc == 0) {
        snprintf(err, sizeof err, "out of memory");
        rc = -1;
    }
    int bad = rc != 0, any;
    PMPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, comm);
    an_options opt = {.mode = "in situ", .summary = rank == 0 ? stderr : NULL};
    if (!any) {
        rc = an_analyze(&t, net, path, &opt, err, sizeof err);
    } else {
        if (bad)
            fprintf(stderr, "[scorep-rt] in-situ analysis: %s\n", err);
        rc = -1;
    }
    if (rank == 0) {
        if (rc == 0)
            fprintf(stderr,
                    "[scorep-rt] in-situ analysis: %llu clock condition violations; %.3f s; "
                    "wrote %s\n",
                    (unsigned long long)opt.ccv, PMPI_Wtime() - t0, path);
        else if (!any)
            fprintf(stderr, "[scorep-rt] in-situ analysis failed: %s (the trace is written)\n", err);
    }
    an_net_free(net);
    an_trace_free(&t);
    PMPI_Comm_free(&comm);
    /* the trace file is skipped only when the analysis succeeded (on every rank alike) */
    return rc == 0 && !scorep_cfg.analysis_trace_file ? 1 : 0;
}

void scorep_analysis_insitu_setup(void)
{
    static int done;
    if (done || !scorep_cfg.enable_analysis)
        return;
    done = 1;
    if (!scorep_cfg.enable_tracing) {
        scorep_warn("SCOREP_ENABLE_ANALYSIS needs SCOREP_ENABLE_TRACING=true: no analysis");
        return;
    }
    if (scorep_runtime_at_write(insitu) != 0)
        scorep_warn("the in-situ analysis could not be registered: no analysis");
}
