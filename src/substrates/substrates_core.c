/* SPDX-License-Identifier: BSD-3-Clause */
/* substrates_core.c: the runtime's side of substrate plugin support (substrates_bridge.h):
 * the subsystem that reads SCOREP_SUBSTRATE_PLUGINS and drives the plugins' life cycle, and
 * the answers about definitions, locations and communication that the plugin side passes
 * on to plugins through Score-P's callbacks. */
#include "substrates/substrates_core.h"
#include "substrates/substrates_bridge.h"

#include "base/log.h"
#include "base/settings.h"
#include "base/state.h"
#include "base/timer.h"
#include "core/location.h"
#include "core/subsystem.h"
#include "defs/defs.h"
#include "defs/defs_io.h"
#include "defs/defs_mpi.h"
#include "ipc/ipc.h"
#include "metrics/metrics.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static uint32_t n_loaded;

/* ----------------------------------------------------------------- subsystem */
static void new_other(scorep_defs_new_kind kind, uint32_t id)
{
    scorep_substrates_new_other((int)kind, id);
}
/* the plugin side's numbers for them (it cannot include defs.h) */
_Static_assert(SCOREP_DEFS_NEW_STRING == 0 && SCOREP_DEFS_NEW_PARAMETER == 1 &&
                   SCOREP_DEFS_NEW_METRIC == 2,
               "scorep_substrates_new_other's kinds");

static void substrates_init(void)
{
    const char *list = scorep_cfg.substrate_plugins;
    if (!list || !*list)
        return;
    n_loaded = scorep_substrates_load(list, scorep_cfg.substrate_plugins_sep);
    if (!n_loaded)
        return;
    scorep_substrates_new_system_tree();
    /* the regions defined so far (none at start-up in practice), then every new one */
    uint32_t n = scorep_defs_region_count();
    scorep_defs_on_new_region(scorep_substrates_new_region);
    for (uint32_t id = 0; id < n; id++)
        scorep_substrates_new_region(id);
    /* I/O definitions as Score-P announces them: the paradigms, then files and handles as
     * they are defined (a handle after its file) */
    scorep_substrates_new_io_paradigms();
    uint32_t nf = scorep_defs_io_file_count(), nh = scorep_defs_io_handle_count();
    scorep_defs_on_new_io(scorep_substrates_new_io_file, scorep_substrates_new_io_handle);
    for (uint32_t id = 0; id < nf; id++)
        scorep_substrates_new_io_file(id);
    for (uint32_t id = 0; id < nh; id++)
        scorep_substrates_new_io_handle(id);
    /* communicators, groups and RMA windows (MPI, SHMEM), those defined so far and the
     * ones to come */
    uint32_t nc = scorep_defs_comm_count(), ng = scorep_defs_group_count(),
             nw = scorep_defs_win_count();
    scorep_defs_on_new_mpi(scorep_substrates_new_comm, scorep_substrates_new_group,
                           scorep_substrates_new_win);
    for (uint32_t id = 0; id < nc; id++)
        scorep_substrates_new_comm(id);
    for (uint32_t id = 0; id < ng; id++)
        scorep_substrates_new_group(id);
    for (uint32_t id = 0; id < nw; id++)
        scorep_substrates_new_win(id);
    /* strings, parameters and metrics likewise, and the paradigms */
    uint32_t ns = scorep_defs_string_count(), np = scorep_defs_parameter_count(),
             nm = scorep_defs_metric_count();
    scorep_defs_on_new_other(new_other);
    for (uint32_t id = 0; id < ns; id++)
        new_other(SCOREP_DEFS_NEW_STRING, id);
    for (uint32_t id = 0; id < np; id++)
        new_other(SCOREP_DEFS_NEW_PARAMETER, id);
    for (uint32_t id = 0; id < nm; id++)
        new_other(SCOREP_DEFS_NEW_METRIC, id);
    scorep_substrates_new_paradigms();
    scorep_substrates_assign_ids();
}

static scorep_location *find_location(uint32_t id)
{
    for (scorep_location *p = scorep_location_first(); p; p = p->next)
        if (p->id == id)
            return p;
    return NULL;
}

/* set by the OpenMP adapter around the creation of a worker thread's location (on that
 * thread): the worker is activated at each team it joins, not at its creation */
static __thread bool omp_worker_next __attribute__((tls_model("initial-exec")));

void scorep_substrates_omp_worker_next(bool worker)
{
    omp_worker_next = worker;
}

static void substrates_location_created(scorep_location *l)
{
    if (!n_loaded)
        return;
    scorep_substrate_loc *d = calloc(1, sizeof *d);
    if (!d) {
        scorep_warn("out of memory: location %u is not seen by the substrate plugins", l->id);
        return;
    }
    scorep_location *parent = l->id == 0 ? NULL : find_location(l->parent_id);
    /* the plugins learn of the location before its first event reaches them */
    __atomic_store_n(&l->substrates_data, d, __ATOMIC_RELEASE);
    scorep_substrates_location_created(l, parent, !omp_worker_next, l->create_seq);
    l->substrates_on = true; /* read by this thread's events only */
    scorep_location_modes_changed(l);
}

static void substrates_begin(bool mpi)
{
    if (!n_loaded)
        return;
    scorep_location *l = scorep_location_first();
    if (l && l->substrates_on)
        scorep_substrates_program_begin(l, scorep_program_begin_ts(),
                                        scorep_defs_string(scorep_program_name()),
                                        (uint64_t)getpid(), (uint64_t)syscall(SYS_gettid));
    if (!mpi)
        scorep_substrates_init_mpp(); /* no MPP paradigm: called all the same, as Score-P */
}

static void substrates_mpp_ready(void)
{
    if (n_loaded)
        scorep_substrates_init_mpp();
}

/* WRITE_POST_MORTEM_METRICS: the ASYNC metric plugins' values (Score-P's post-mortem
 * metrics; not ASYNC_EVENT's, which Score-P hands over at events through
 * SCOREP_Metric_WriteAsynchronousMetrics), each in the plugin's order, on the location that
 * added the counter (Score-P's metric location of it), while recording is on as Score-P. */
static void post_mortem(scorep_location *l, const scorep_async_value *v, size_t n)
{
    if (!l->substrates_on || !scorep_recording_on())
        return;
    for (size_t i = 0; i < n; i++)
        if (v[i].post_mortem)
            scorep_substrates_post_mortem_metric(l, v[i].ts, v[i].id, &v[i].value);
}

/* after the locations' calls are closed, before unification; a thread that ended earlier
 * was deactivated then (scorep_substrates_thread_end) */
static void substrates_finalize(void)
{
    if (!n_loaded)
        return;
    /* Score-P's order: the metric subsystem's end (the post-mortem values) comes before the
     * locations' deactivation */
    scorep_metric_plugins_post_mortem(post_mortem);
    for (scorep_location *l = scorep_location_first(); l; l = l->next) {
        if (!scorep_substrates_location_data(l))
            continue; /* the plugins never learnt of it */
        if (l->substrates_on) {
            l->substrates_on = false; /* no events after delete_location */
            scorep_location_modes_changed(l);
        }
        scorep_substrates_location_ended(l, l->id == 0 ? NULL : find_location(l->parent_id));
    }
    scorep_substrates_pre_unify();
}

void scorep_substrates_thread_end(scorep_location *l)
{
    if (!l || !l->substrates_on)
        return;
    l->substrates_on = false; /* its last event was delivered; nothing after the deactivation */
    scorep_location_modes_changed(l);
    scorep_substrates_location_deactivated(l, l->id == 0 ? NULL : find_location(l->parent_id),
                                           false);
}

void scorep_substrates_omp_team_begin(scorep_location *l, scorep_location *master,
                                      uint32_t fork_seq)
{
    if (scorep_measurement_on())
        scorep_substrates_location_activated(l, master, fork_seq);
}

void scorep_substrates_omp_team_end(scorep_location *l, scorep_location *master)
{
    scorep_substrates_location_deactivated(l, master, true);
}

const scorep_subsystem scorep_subsystem_substrates = {
    .name = "substrate plugins",
    .init = substrates_init,
    .begin = substrates_begin,
    .location_created = substrates_location_created,
    .mpp_ready = substrates_mpp_ready,
    .finalize = substrates_finalize,
};

/* -------------------------------------------------------------- definitions */
/* scorep-rt's paradigms and region roles as Score-P's numbers (SCOREP_PublicTypes.h;
 * substrate_plugins.c checks the numbers it relies on against the header) */
static int public_paradigm(scorep_paradigm p)
{
    static const int map[] = {[SCOREP_PARADIGM_MEASUREMENT] = 0, [SCOREP_PARADIGM_USER] = 1,
                              [SCOREP_PARADIGM_COMPILER] = 2,    [SCOREP_PARADIGM_PTHREAD] = 9,
                              [SCOREP_PARADIGM_MPI] = 6,         [SCOREP_PARADIGM_OPENMP] = 8,
                              [SCOREP_PARADIGM_SHMEM] = 7,       [SCOREP_PARADIGM_CUDA] = 11,
                              [SCOREP_PARADIGM_SAMPLING] = 3,    [SCOREP_PARADIGM_MEMORY] = 4,
                              [SCOREP_PARADIGM_IO] = 14,         [SCOREP_PARADIGM_LIBWRAP] = 5};
    return (unsigned)p < sizeof map / sizeof map[0] ? map[p] : 17 /* invalid */;
}

static int public_region_type(scorep_role r)
{
    static const int map[] = {[SCOREP_ROLE_FUNCTION] = 1,      [SCOREP_ROLE_CODE] = 4,
                              [SCOREP_ROLE_LOOP] = 2,          [SCOREP_ROLE_PHASE] = 5,
                              [SCOREP_ROLE_DYNAMIC] = 6,       [SCOREP_ROLE_ARTIFICIAL] = 36,
                              [SCOREP_ROLE_WRAPPER] = 29,      [SCOREP_ROLE_POINT2POINT] = 15,
                              [SCOREP_ROLE_COLL_ONE2ALL] = 11, [SCOREP_ROLE_COLL_ALL2ONE] = 12,
                              [SCOREP_ROLE_COLL_ALL2ALL] = 13, [SCOREP_ROLE_COLL_OTHER] = 14,
                              [SCOREP_ROLE_BARRIER] = 24,      [SCOREP_ROLE_FILE_IO] = 43,
                              [SCOREP_ROLE_RMA] = 37,          [SCOREP_ROLE_THREAD_CREATE] = 38,
                              [SCOREP_ROLE_THREAD_WAIT] = 39,  [SCOREP_ROLE_ALLOCATE] = 40,
                              [SCOREP_ROLE_DEALLOCATE] = 41,   [SCOREP_ROLE_REALLOCATE] = 42,
                              [SCOREP_ROLE_ATOMIC] = 23,       [SCOREP_ROLE_FILE_IO_METADATA] = 44,
                              [SCOREP_ROLE_PARALLEL] = 16,     [SCOREP_ROLE_SECTIONS] = 17,
                              [SCOREP_ROLE_SECTION] = 18,      [SCOREP_ROLE_WORKSHARE] = 19,
                              [SCOREP_ROLE_SINGLE] = 20,       [SCOREP_ROLE_MASTER] = 21,
                              [SCOREP_ROLE_CRITICAL] = 22,     [SCOREP_ROLE_IMPLICIT_BARRIER] = 25,
                              [SCOREP_ROLE_FLUSH] = 26,        [SCOREP_ROLE_CRITICAL_SBLOCK] = 27,
                              [SCOREP_ROLE_SINGLE_SBLOCK] = 28, [SCOREP_ROLE_TASK] = 30,
                              [SCOREP_ROLE_TASK_UNTIED] = 31,  [SCOREP_ROLE_TASK_CREATE] = 33,
                              [SCOREP_ROLE_ORDERED] = 34,      [SCOREP_ROLE_ORDERED_SBLOCK] = 35};
    _Static_assert(sizeof map / sizeof map[0] == SCOREP_ROLE_COUNT, "one type per role");
    return (unsigned)r < sizeof map / sizeof map[0] ? map[r] : 0 /* unknown */;
}

int scorep_substrates_public_paradigm(int internal)
{
    return public_paradigm((scorep_paradigm)internal);
}

bool scorep_substrates_region_get(uint32_t id, scorep_substrates_region *out)
{
    if (id >= scorep_defs_region_count())
        return false;
    const scorep_region_def *d = scorep_defs_region_get(id);
    out->name = d->name;
    out->mangled = d->mangled;
    out->file = d->file;
    out->begin_line = d->begin_line > 0 ? (uint32_t)d->begin_line : 0;
    out->end_line = d->end_line > 0 ? (uint32_t)d->end_line : 0;
    out->paradigm = public_paradigm(d->paradigm);
    out->region_type = public_region_type(d->role);
    return true;
}

const char *scorep_substrates_string_get(uint32_t id)
{
    return id < scorep_defs_string_count() ? scorep_defs_string_get(id) : NULL;
}

const char *scorep_substrates_parameter_get(uint32_t id, int *type)
{
    if (id >= scorep_defs_parameter_count())
        return NULL;
    const scorep_parameter_def *d = scorep_defs_parameter_get(id);
    *type = d->type == SCOREP_PARAM_INT64 ? 0 : d->type == SCOREP_PARAM_UINT64 ? 1 : 2;
    return d->name;
}

bool scorep_substrates_metric_get(uint32_t id, scorep_substrates_metric *out)
{
    if (id >= scorep_defs_metric_count())
        return false;
    const scorep_metric_def *d = scorep_defs_metric_get(id);
    out->name = d->name;
    /* SCOREP_MetricValueType: INT64 0, UINT64 1, DOUBLE 2 */
    out->value_type = d->type == SCOREP_METRIC_INT64 ? 0 : d->type == SCOREP_METRIC_UINT64 ? 1 : 2;
    bool user = d->recorder == SCOREP_MREC_USER || d->recorder == SCOREP_MREC_MAX;
    /* user metrics as Score-P defines them: source USER (2), mode ABSOLUTE_POINT (4),
     * profiling type EXCLUSIVE, a sampling set of occurrence ASYNCHRONOUS (2) */
    out->source = user ? 2 : (int)d->source;
    out->mode = user ? 4 : (int)d->mode;
    out->exclusive = user;
    out->occurrence = user || d->recorder == SCOREP_MREC_ASYNC ? 2
                      : d->recorder == SCOREP_MREC_SYNC        ? 1
                                                               : 0;
    return true;
}

const char *scorep_substrates_paradigm_name(int paradigm)
{
    static const char *const names[] = {"measurement",   "user", "compiler", "sampling", "memory",
                                        "libwrap",       "mpi",  "shmem",    "openmp",   "pthread",
                                        "orphan thread", "cuda", "opencl",   "openacc",  "io",
                                        "kokkos",        "hip"};
    return (unsigned)paradigm < sizeof names / sizeof names[0] ? names[paradigm] : NULL;
}

/* ---------------------------------------------------------------- locations */
uint32_t scorep_substrates_location_id(const struct scorep_location *l)
{
    return l ? l->id : 0;
}

/* the trace's location id (Score-P's: local id << 32 | rank) */
uint64_t scorep_substrates_location_global_id(const struct scorep_location *l)
{
    return l ? scorep_location_global_id((uint32_t)scorep_ipc_get()->rank(), l->id) : 0;
}

const char *scorep_substrates_location_name(const struct scorep_location *l)
{
    return l ? l->name : NULL;
}

bool scorep_substrates_location_gpu(const struct scorep_location *l)
{
    return l && l->gpu;
}

scorep_substrate_loc *scorep_substrates_location_data(const struct scorep_location *l)
{
    return l ? __atomic_load_n(&l->substrates_data, __ATOMIC_ACQUIRE) : NULL;
}

bool scorep_substrates_location_metrics(const struct scorep_location *l,
                                        scorep_substrates_metric_values *out)
{
    const scorep_metric_set *m = l ? l->metrics : NULL;
    if (!m || !m->n)
        return false;
    out->n = m->n;
    out->ids = m->ids;
    out->values = m->values;
    return true;
}

uint64_t scorep_substrates_now(struct scorep_location *l)
{
    return scorep_location_now(l, scorep_timer_ticks());
}

uint64_t scorep_substrates_next_tick(struct scorep_location *l)
{
    return scorep_location_now(l, 0);
}

/* ------------------------------------------------------- process and ipc */
const char *scorep_substrates_experiment_dir(void)
{
    return scorep_experiment_dir();
}

int scorep_substrates_ipc_rank(void)
{
    return scorep_ipc_get()->rank();
}

int scorep_substrates_ipc_size(void)
{
    return scorep_ipc_get()->size();
}

int scorep_substrates_ipc_barrier(void)
{
    return scorep_ipc_get()->barrier();
}

int scorep_substrates_ipc_bcast(void *buf, size_t bytes, int root)
{
    return scorep_ipc_get()->bcast(buf, bytes, root);
}

int scorep_substrates_ipc_gather(const void *send, size_t bytes, void *recv, int root)
{
    return scorep_ipc_get()->gather(send, bytes, recv, root);
}

int scorep_substrates_ipc_gatherv(const void *send, size_t bytes, void *recv, const size_t *counts,
                                  const size_t *displs, int root)
{
    return scorep_ipc_get()->gatherv(send, bytes, recv, counts, displs, root);
}

int scorep_substrates_ipc_scatterv(const void *send, const size_t *counts, const size_t *displs,
                                   void *recv, size_t bytes, int root)
{
    return scorep_ipc_get()->scatterv(send, counts, displs, recv, bytes, root);
}

/* a tag of its own, apart from the runtime's */
enum { PLUGIN_TAG = 7411 };

int scorep_substrates_ipc_send(const void *buf, size_t bytes, int dest)
{
    return scorep_ipc_get()->send(buf, bytes, dest, PLUGIN_TAG);
}

int scorep_substrates_ipc_recv(void *buf, size_t bytes, int source)
{
    return scorep_ipc_get()->recv(buf, bytes, source, PLUGIN_TAG);
}

void scorep_substrates_warn(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    scorep_warn("%s", msg);
}
