/* SPDX-License-Identifier: BSD-3-Clause */
/* user_selective.c: selective recording at run time (see user_selective.h): the file is read
 * at init, recording is switched off at begin, and the instances of the selected user regions
 * switch it on and off through the recording switch of core/events.c, as Score-P's
 * scorep_selective_region.c does with SCOREP_EnableRecording/DisableRecording. */
#include "adapters/user/user_selective.h"
#include "base/log.h"
#include "base/settings.h"
#include "core/events.h"
#include "writers/experiment.h"
#include "runtime/runtime.h"

#include <stdio.h>

static scorep_selection_table table;
static int applied; /* a file is applied: recording starts off */

static void selective_init(void)
{
    const char *path = scorep_cfg.selective_config_file;
    if (!path || !*path)
        return;
    char err[1536];
    int rc = scorep_selection_parse(&table, path, err, sizeof err);
    if (rc == -2) {
        scorep_runtime_warn_run("invalid SCOREP_SELECTIVE_CONFIG_FILE (selective recording):\n%s\n"
                                "the file is not applied and the whole run is recorded; fix "
                                "the lines above (a line: region name, then instances N, N:M "
                                "or N:, counted from 0, separated by commas or blanks)",
                                err);
        return;
    }
    if (rc != 0) {
        scorep_runtime_warn_run("SCOREP_SELECTIVE_CONFIG_FILE: %s; selective recording is off "
                                "and the whole run is recorded",
                                err);
        return;
    }
    applied = 1;
    /* as Score-P does (its manifest entry scorep.selective) */
    scorep_experiment_keep_file(path, "scorep.selective",
                                "the selective recording file that was applied "
                                "(SCOREP_SELECTIVE_CONFIG_FILE)");
    if (table.n == 0)
        scorep_runtime_warn_run("SCOREP_SELECTIVE_CONFIG_FILE '%s' names no region: nothing is "
                                "recorded (as in Score-P); name a user region per line",
                                path);
    else
        scorep_verbose("selective recording: %zu regions of '%s'", table.n, path);
}

/* As Score-P does after ProgramBegin: recording is off until a selected instance begins. */
static void selective_begin(bool mpi)
{
    (void)mpi;
    if (applied && scorep_tls_location)
        scorep_event_recording_start_off(scorep_tls_location);
}

/* A name in the file that no user region has: most likely a misspelling, or a region of
 * another kind (compiler instrumentation, MPI), which cannot be selected. */
static void selective_end(void)
{
    for (size_t i = 0; applied && i < table.n; i++)
        if (!__atomic_load_n(&table.regions[i].defined, __ATOMIC_RELAXED))
            scorep_runtime_warn_run("SCOREP_SELECTIVE_CONFIG_FILE '%s' line %u: no user region "
                                    "named '%s' was entered (only regions of the user API, "
                                    "SCOREP_USER_REGION_*, that no filter excludes can be "
                                    "selected)",
                                    scorep_cfg.selective_config_file, table.regions[i].line,
                                    table.regions[i].name);
}

/* Registered before the runtime's own constructor starts the measurement, so that init reads
 * the file; registered late (an earlier event started it), init and begin run at once. */
static const scorep_subsystem selective_subsystem = {
    .name = "selective recording",
    .init = selective_init,
    .begin = selective_begin,
    .end = selective_end,
};

/* The walk's leave of a selected region whose frame a jump abandons (core/events.c,
 * scorep_event_unwind_to): as its END would, with the switch; its selection by the region's
 * name, as the handle found it (scorep_selective_find). */
static void unwind_selected(scorep_location *l, uint32_t region, unsigned tag)
{
    const scorep_region_def *d = scorep_defs_region_get(region);
    scorep_selection *s = d && applied ? scorep_selection_find(&table, d->name) : NULL;
    bool dynamic = tag == SCOREP_SP_USER_SELECTED_DYNAMIC;
    if (s)
        scorep_selective_region_leave(l, s, region, dynamic);
    else if (dynamic)
        scorep_event_leave_dynamic(l, region);
    else
        scorep_event_leave(l, region);
}

__attribute__((constructor(102))) static void register_selective(void)
{
    scorep_event_unwind_register(SCOREP_SP_USER_SELECTED, unwind_selected);
    scorep_event_unwind_register(SCOREP_SP_USER_SELECTED_DYNAMIC, unwind_selected);
    if (scorep_runtime_register(&selective_subsystem) != 0)
        scorep_warn("selective recording: the runtime's subsystem table is full; "
                    "SCOREP_SELECTIVE_CONFIG_FILE is not applied");
}

scorep_selection *scorep_selective_find(const char *name)
{
    scorep_selection *s = applied ? scorep_selection_find(&table, name) : NULL;
    if (s)
        __atomic_store_n(&s->defined, 1, __ATOMIC_RELAXED);
    return s;
}

void scorep_selective_enter(scorep_location *l, scorep_selection *s)
{
    /* instances are counted per process, over all threads, as in Score-P */
    uint64_t instance = __atomic_fetch_add(&s->instances, 1, __ATOMIC_RELAXED);
    if (l->selected_owner == s) { /* recursion inside the instance that switched on */
        l->selected_open++;
        return;
    }
    if (l->selected_owner || !scorep_selection_contains(s, instance))
        return;
    /* As Score-P (SCOREP_Thread_InParallel): recording is not switched inside an OpenMP
     * parallel region, where the other members' call paths began while it was off. */
    if (l->in_teams && !scorep_recording_on()) {
        scorep_warn_once("selective recording: a selected instance began inside an OpenMP "
                         "parallel region, where recording is not switched (as in Score-P); "
                         "it is not recorded. Select a region that encloses the parallel "
                         "region instead");
        return;
    }
    if (scorep_event_recording_select(l)) { /* false: recording is on already */
        l->selected_owner = s;
        l->selected_open = 1;
    }
}

void scorep_selective_leave(scorep_location *l, scorep_selection *s)
{
    if (l->selected_owner != s || --l->selected_open > 0)
        return;
    l->selected_owner = NULL;
    scorep_event_recording_deselect(l);
}

/* dynamic: a dynamic region (instance call paths in the profile), selected as any other */
void scorep_selective_region_enter(scorep_location *l, scorep_selection *s, uint32_t region,
                                   uintptr_t sp, bool dynamic)
{
    scorep_selective_enter(l, s); /* may switch recording on: before the Enter */
    if (dynamic)
        scorep_event_enter_dynamic(l, region,
                                   scorep_sp_tagged(sp, SCOREP_SP_USER_SELECTED_DYNAMIC));
    else
        scorep_event_enter_sp(l, region, scorep_sp_tagged(sp, SCOREP_SP_USER_SELECTED));
}

void scorep_selective_region_leave(scorep_location *l, scorep_selection *s, uint32_t region,
                                   bool dynamic)
{
    if (dynamic)
        scorep_event_leave_dynamic(l, region);
    else
        scorep_event_leave(l, region);
    scorep_selective_leave(l, s); /* may switch recording off: after the Leave */
}
