/* SPDX-License-Identifier: BSD-3-Clause */
/* runtime_analysis.c: the in situ analysis of a program without MPI (SCOREP_ENABLE_ANALYSIS
 * with tracing; docs/analysis.md): after the definitions are unified and before the results
 * are written, the process analyses its own in-memory trace (all its thread locations, the
 * analysis's single-process backend, an_net_single.c) and writes scout.cubex into the
 * experiment directory. A program with MPI is analysed at MPI_Finalize by the MPI adapter's
 * hook instead (adapters/mpi/mpi_insitu.c); this one then does nothing. */
#include "analysis/an_load.h"
#include "analysis/analysis.h"
#include "base/log.h"
#include "base/settings.h"
#include "core/location.h"
#include "ipc/ipc.h"
#include "runtime/runtime.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static const scorep_location *master(void)
{
    for (const scorep_location *l = scorep_location_first(); l; l = l->next)
        if (l->id == 0)
            return l;
    return NULL;
}

static int analyse(const char *dir, an_net *net, const struct scorep_unified_s *u)
{
    char err[512] = "", path[4200];
    snprintf(path, sizeof path, "%s/scout.cubex", dir);
    an_trace t;
    memset(&t, 0, sizeof t);
    const scorep_location *l = master();
    int rc = l ? an_load_buffer(l, u, 0, 1, &t, err, sizeof err) : -1;
    if (!l)
        snprintf(err, sizeof err, "the process has no master-thread location");
    an_options opt = {.mode = "in situ", .summary = stderr};
    double t0 = now();
    if (rc == 0)
        rc = an_analyze(&t, net, path, &opt, err, sizeof err);
    if (rc == 0)
        fprintf(stderr,
                "[scorep-rt] in-situ analysis: %llu clock condition violations; %.3f s; "
                "wrote %s\n",
                (unsigned long long)opt.ccv, now() - t0, path);
    else
        fprintf(stderr, "[scorep-rt] in-situ analysis failed: %s (the trace is written)\n", err);
    an_trace_free(&t);
    return rc;
}

/* the write hook: 1 when the trace file is not to be written (the analysis succeeded and
 * SCOREP_ANALYSIS_TRACE_FILE=false) */
static int insitu_no_mpi(const char *dir, const struct scorep_unified_s *u)
{
    if (!scorep_cfg.enable_analysis || scorep_ipc_get() != &scorep_ipc_single)
        return 0; /* off, or an MPI (SHMEM) run: the MPI adapter's hook analyses */
    if (!scorep_cfg.enable_tracing) {
        scorep_warn("SCOREP_ENABLE_ANALYSIS needs SCOREP_ENABLE_TRACING=true: no analysis");
        return 0;
    }
    an_net *net = an_net_single();
    int rc = net ? analyse(dir, net, u) : -1;
    if (!net)
        fprintf(stderr, "[scorep-rt] in-situ analysis failed: out of memory\n");
    an_net_free(net);
    return rc == 0 && !scorep_cfg.analysis_trace_file ? 1 : 0;
}

/* registered before the measurement starts; the settings are read when it runs */
__attribute__((constructor)) static void register_insitu_no_mpi(void)
{
    if (scorep_runtime_at_write(insitu_no_mpi) != 0)
        scorep_warn("the in-situ analysis could not be registered: no analysis");
}
