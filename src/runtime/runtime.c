/* SPDX-License-Identifier: BSD-3-Clause */
/* runtime.c: measurement life cycle: init (library constructor or first event), finalize
 * (exit from any thread, return from main, SIGINT/SIGTERM). It sets the process state
 * (base/state.h) that the other layers read. */
#include "runtime/runtime.h"
#include "core/clock_sync.h"
#include "core/events.h"
#include "writers/experiment.h"
#include "core/flush.h"
#include "base/memory.h"
#include "writers/writer.h"
#include "writers/systree_job.h"
#include "defs/unify.h"
#include "ipc/ipc.h"
#include "sampling/sampling.h"
#include "metrics/metrics.h"
#include "substrates/substrates_core.h"
#include "runtime/runtime_int.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { INIT_NONE, INIT_RUNNING, INIT_DONE, INIT_FINALIZED };
static int init_state;
static pthread_t init_thread;
static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static char experiment_dir[PATH_MAX];
static int mpi_mode;
static int in_mpi_finalize;
/* Set when the measurement's end (a finalize, a rescue, or nothing to do) is complete: a
 * signal that comes meanwhile waits for it (rescue.c) before the process dies. */
static int end_done;

/* ------------------------------------------------------------------- init */
static const char *env_lookup(const char *name)
{
    return getenv(name);
}

static void find_program_name(void)
{
    char program_name[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", program_name, sizeof program_name - 1);
    if (n > 0) {
        program_name[n] = 0;
        scorep_state_set_program_name(program_name);
        return;
    }
    scorep_state_set_program_name(
        scorep_cfg.executable && *scorep_cfg.executable ? scorep_cfg.executable : "unknown");
}

/* The program region, as Score-P defines it (SCOREP_RuntimeManagement.c): named after the
 * executable without its directory, canonical name the path (with the arguments that
 * ProgramBegin carries: none here), paradigm measurement, role artificial. Scalasca finds
 * it by these four (pearl's ProgramBegin callback) and aborts without it. */
static void define_program_region(void)
{
    const char *path = scorep_program_name(), *base = strrchr(path, '/');
    scorep_state_set_program_region(scorep_defs_region(base && base[1] ? base + 1 : path, path,
                                                       NULL, 0, 0, SCOREP_PARADIGM_MEASUREMENT,
                                                       SCOREP_ROLE_ARTIFICIAL));
}

/* SCOREP_FILTERING_FILE, else the file embedded by scorep-cc --filter. */
static void load_filter(void)
{
    const char *path = scorep_cfg.filtering_file;
    if (!path || !*path) {
        const char *embedded = dlsym(RTLD_DEFAULT, "scorep_cc_filter_file");
        if (!embedded || !*embedded)
            return;
        free(scorep_cfg.filtering_file);
        scorep_cfg.filtering_file = strdup(embedded);
        path = scorep_cfg.filtering_file;
    }
    char err[1024];
    scorep_filter *f = scorep_filter_new();
    if (!f)
        scorep_fatal("out of memory while reading the filter file '%s'", path);
    if (scorep_filter_parse_file(f, path, err, sizeof err) != 0)
        scorep_fatal("invalid filter file (SCOREP_FILTERING_FILE): %s", err);
    scorep_active_filter = f;
    scorep_verbose("filter file '%s' applied", path);
}

/* what the environment's unknown SCOREP_* variables deserve to be told (config_unknown.c);
 * said once per run, by the process that creates the experiment directory */
static char unknown_vars_note[2048];

/* scorep_runtime_warn_run: kept until this process knows that it created the directory */
static pthread_mutex_t run_notes_lock = PTHREAD_MUTEX_INITIALIZER;
static char run_notes[4096];
static int dir_created_here;

static void note_unknown_vars(void)
{
    if (unknown_vars_note[0])
        scorep_warn("%s", unknown_vars_note);
    pthread_mutex_lock(&run_notes_lock);
    dir_created_here = 1;
    for (char *p = run_notes, *nl; *p; p = nl + 1) {
        nl = strchr(p, '\x1e');
        *nl = 0;
        scorep_warn("%s", p);
    }
    run_notes[0] = 0;
    pthread_mutex_unlock(&run_notes_lock);
}

void scorep_runtime_warn_run(const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&run_notes_lock);
    size_t n = strlen(run_notes), k = strlen(msg);
    if (dir_created_here)
        scorep_warn("%s", msg);
    else if (n + k + 2 <= sizeof run_notes) /* separated by ASCII record separators */
        snprintf(run_notes + n, sizeof run_notes - n, "%s\x1e", msg);
    pthread_mutex_unlock(&run_notes_lock);
}

/* 0, or -1 when the program runs without measurement (message printed) */
static int create_experiment_dir(void)
{
    char err[2048];
    int rc =
        scorep_experiment_create(experiment_dir, sizeof experiment_dir, false, err, sizeof err);
    if (rc == -2)
        scorep_fatal("%s", err);
    if (rc != 0) {
        scorep_warn("%s; the program runs without measurement", err);
        experiment_dir[0] = 0;
        return -1;
    }
    scorep_state_set_experiment_dir(experiment_dir);
    if (scorep_experiment_write_cfg(experiment_dir) != 0)
        scorep_warn("cannot write %s/scorep.cfg", experiment_dir);
    note_unknown_vars();
    return 0;
}

int scorep_runtime_mpi_mode(void)
{
    return mpi_mode;
}

static void mpp_ready(void);

void scorep_runtime_mpi_ready(bool spawned)
{
    const scorep_ipc *ipc = scorep_ipc_get();
    /* status: 0 ok, 1 no measurement, 2 fatal (directory exists, overwriting is off) */
    struct {
        int32_t status;
        char dir[PATH_MAX];
    } msg = {0, ""};
    if (ipc->rank() == 0) {
        char err[2048];
        int rc = scorep_experiment_create(msg.dir, sizeof msg.dir, spawned, err, sizeof err);
        msg.status = rc == 0 ? 0 : rc == -2 ? 2 : 1;
        if (rc != 0)
            scorep_warn("%s", err);
        else if (scorep_experiment_write_cfg(msg.dir) != 0)
            scorep_warn("cannot write %s/scorep.cfg", msg.dir);
        if (rc == 0)
            note_unknown_vars();
    }
    ipc->bcast(&msg, sizeof msg, 0);
    if (msg.status == 2) {
        fflush(stderr);
        _exit(1);
    }
    if (msg.status == 1) {
        scorep_gate_set(SCOREP_GATE_OFF, 1);
        __atomic_store_n(&scorep_measurement_active, 0, __ATOMIC_SEQ_CST);
        if (ipc->rank() == 0)
            scorep_warn("the program runs without measurement");
        return;
    }
    snprintf(experiment_dir, sizeof experiment_dir, "%s", msg.dir);
    scorep_state_set_experiment_dir(experiment_dir);
    if (ipc->rank() == 0)
        scorep_verbose("experiment directory '%s'", experiment_dir);
    if (spawned && ipc->rank() == 0)
        scorep_experiment_note("this job was started by MPI_Comm_spawn (MPI_Comm_get_parent is "
                               "not MPI_COMM_NULL): its own experiment, apart from its parent's");
    mpp_ready();
}

static void on_exit_handler(int status, void *arg)
{
    (void)arg;
    /* The process ends by exit(status): a SIGTERM that comes now (mpirun ends the job when
     * a rank leaves without MPI_Finalize) stays pending, so that the data is written and
     * the exit status is the program's. */
    sigset_t old;
    scorep_rescue_block(&old);
    scorep_runtime_finalize(status);
}

/* A child made by fork() without exec has a copy of the parent's buffers and its experiment
 * directory: writing them at its exit would overwrite or break the parent's results. It
 * runs unmeasured and writes nothing (exec'd programs start their own measurement). The
 * lock may have been held by another thread of the parent at fork: the child's copy is
 * made anew. */
static void in_forked_child(void)
{
    scorep_gate_set(SCOREP_GATE_OFF, 1);
    __atomic_store_n(&scorep_measurement_active, 0, __ATOMIC_SEQ_CST);
    pthread_mutex_init(&init_lock, NULL);
    __atomic_store_n(&init_state, INIT_FINALIZED, __ATOMIC_RELEASE);
    __atomic_store_n(&end_done, 1, __ATOMIC_RELEASE);
    scorep_rescue_forked();
}

/* ------------------------------------------------------ trace reduction */
static uint8_t reduction_steps[BUF_MAX_STEPS], reduction_n;
static uint64_t min_duration_ticks, tick_per_us, throttle_mean_ticks;

int scorep_parse_duration(const char *s, double *ns)
{
    static const struct {
        const char *unit;
        double ns;
    } units[] = {{"", 1}, {"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
    char *end;
    double v = strtod(s, &end);
    if (end == s || v < 0)
        return -1;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(end, units[i].unit) == 0) {
            *ns = v * units[i].ns;
            return 0;
        }
    return -1;
}

static void parse_reduction(void)
{
    if (scorep_buffer_parse_steps(scorep_cfg.tracing_reduction, reduction_steps, &reduction_n) != 0)
        scorep_fatal("SCOREP_TRACING_REDUCTION='%s': expected a comma-separated list of "
                     "min_duration, depth, noncomm, flush (each at most once), or none",
                     scorep_cfg.tracing_reduction);
    double ns;
    if (scorep_parse_duration(scorep_cfg.tracing_min_duration, &ns) != 0)
        scorep_fatal("SCOREP_TRACING_MIN_DURATION='%s': expected a duration such as 0, 500ns, "
                     "10us, 2ms or 1s",
                     scorep_cfg.tracing_min_duration);
    double per_ns = (double)scorep_timer_resolution() / 1e9;
    min_duration_ticks = (uint64_t)(ns * per_ns + 0.5);
    tick_per_us = (uint64_t)(1e3 * per_ns + 0.5);
    if (scorep_parse_duration(scorep_cfg.throttling_mean, &ns) != 0)
        scorep_fatal("SCOREP_THROTTLING_MEAN='%s': expected a duration such as 500ns, 10us, "
                     "2ms or 1s",
                     scorep_cfg.throttling_mean);
    throttle_mean_ticks = (uint64_t)(ns * per_ns + 0.5);
}

/* ------------------------------------------------------------- subsystems */
/* The services of this library first, in this order; adapters append themselves
 * (scorep_runtime_register; written under init_lock, the count published last). Each
 * phase calls them in registration order; finalize in reverse. */
#define ARRAY_LEN(a) (sizeof(a) / sizeof *(a))
enum { MAX_SUBSYSTEMS = 32 };
#define BUILTIN_SUBSYSTEMS                                                                         \
    &scorep_subsystem_sampling, &scorep_subsystem_metrics, &scorep_subsystem_substrates
static const scorep_subsystem *subsystems[MAX_SUBSYSTEMS] = {BUILTIN_SUBSYSTEMS};
/* counted from the list itself (sizeof does not evaluate the compound literal) */
static int n_subsystems = (int)ARRAY_LEN(((const scorep_subsystem *[]){BUILTIN_SUBSYSTEMS}));

/* MPI or SHMEM is up (scorep_runtime_mpi_ready) */
static void mpp_ready(void)
{
    for (int i = 0, n = __atomic_load_n(&n_subsystems, __ATOMIC_ACQUIRE); i < n; i++)
        if (subsystems[i]->mpp_ready)
            subsystems[i]->mpp_ready();
}

/* A new thread's location (location.c's hook): the subsystems prepare their part. */
static void location_created(scorep_location *l)
{
    for (int i = 0, n = __atomic_load_n(&n_subsystems, __ATOMIC_ACQUIRE); i < n; i++)
        if (subsystems[i]->location_created)
            subsystems[i]->location_created(l);
}

/* What every location gets (after parse_reduction). */
static void configure_locations(void)
{
    scorep_location_setup s = {0};
    s.profiling = scorep_cfg.enable_profiling;
    s.tracing = scorep_cfg.enable_tracing;
    s.max_callpath_depth = (uint32_t)scorep_cfg.max_callpath_depth;
    if (scorep_cfg.throttling && scorep_cfg.throttling_calls != 0) {
        s.throttle_calls = scorep_cfg.throttling_calls;
        s.throttle_sum = scorep_cfg.throttling_calls * throttle_mean_ticks;
    }
    memcpy(s.steps, reduction_steps, sizeof s.steps);
    s.n_steps = reduction_n;
    s.min_dur = min_duration_ticks;
    s.min_dur_first = min_duration_ticks > tick_per_us ? min_duration_ticks : tick_per_us;
    s.min_dur_cap = tick_per_us * 1000000; /* 1 s: longer calls are never "short" */
    s.created = location_created;
    scorep_location_configure(&s);
}

/* A test-only variable (not in the configuration table): false when unset, else its
 * integer value in *val; anything else is fatal, naming what was expected. */
static bool test_knob(const char *name, const char *expected, long long *val)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return false;
    char *end;
    errno = 0;
    *val = strtoll(v, &end, 10);
    if (errno || *end)
        scorep_fatal("%s='%s': expected %s", name, v, expected);
    return true;
}

/* SCOREP_TEST_CLOCK_SKEW=NS (test/integration/test_clock_offsets.sh): shifts this process's
 * clock so that clock synchronisation has a known offset to find. */
static void apply_test_clock_skew(void)
{
    long long ns;
    if (test_knob("SCOREP_TEST_CLOCK_SKEW", "an integer number of nanoseconds", &ns) &&
        scorep_timer_set_test_skew(ns) != 0)
        scorep_fatal("SCOREP_TEST_CLOCK_SKEW needs SCOREP_TIMER=clock_gettime");
}

/* SCOREP_TEST_MEMORY_RESERVE=PAGES (test/omp/test_omp_team_starved.sh): the pool's reserve
 * for threads that start late (base/memory.h) in pages instead of an eighth of the pool; 0
 * makes the pool first come, first served, so that a test can starve a thread of memory. */
static void apply_test_memory_reserve(void)
{
    long long pages;
    if (!test_knob("SCOREP_TEST_MEMORY_RESERVE", "a number of pages", &pages))
        return;
    if (pages < 0)
        scorep_fatal("SCOREP_TEST_MEMORY_RESERVE='%lld': expected a number of pages", pages);
    scorep_memory_set_reserve((uint64_t)pages);
}

static void do_init(void)
{
    char err[2048];
    if (scorep_cfg_apply(scorep_cfg_vars, scorep_cfg_n_vars, env_lookup, err, sizeof err) != 0)
        scorep_fatal("%s", err);
    scorep_cfg_unknown_note(scorep_cfg_vars, scorep_cfg_n_vars, environ, unknown_vars_note,
                            sizeof unknown_vars_note);
    find_program_name();
    define_program_region();
    load_filter();
    scorep_timer_kind tk = scorep_timer_init((scorep_timer_kind)scorep_cfg.timer);
    if (tk != (scorep_timer_kind)scorep_cfg.timer)
        scorep_verbose("the TSC is not invariant here; using clock_gettime");
    parse_reduction();
    configure_locations();
    scorep_flush_install();
    apply_test_clock_skew();
    if (scorep_cfg.enable_tracing &&
        scorep_memory_check(scorep_cfg.total_memory, scorep_cfg.page_size, err, sizeof err) != 0)
        scorep_fatal("%s", err);
    if (scorep_cfg.enable_tracing &&
        scorep_memory_init(scorep_cfg.total_memory, scorep_cfg.page_size) != 0)
        scorep_fatal("SCOREP_TOTAL_MEMORY=%llu bytes cannot be reserved (%s); choose a smaller "
                     "value",
                     (unsigned long long)scorep_cfg.total_memory, strerror(errno));
    if (scorep_cfg.enable_tracing)
        apply_test_memory_reserve();
    /* MPI and SHMEM runs: rank 0 creates the directory once the ipc backend is up
     * (scorep_runtime_mpi_ready) */
    mpi_mode = dlsym(RTLD_DEFAULT, "scorep_mpi_adapter_present") != NULL ||
               dlsym(RTLD_DEFAULT, "scorep_shmem_adapter_present") != NULL; /* SHMEM: #11 */
    if (!mpi_mode && create_experiment_dir() != 0)
        return;
    on_exit(on_exit_handler, NULL);
    pthread_atfork(NULL, NULL, in_forked_child);
    scorep_rescue_install();
    for (int i = 0, n = __atomic_load_n(&n_subsystems, __ATOMIC_ACQUIRE); i < n; i++)
        if (subsystems[i]->init)
            subsystems[i]->init();
    scorep_location *l = scorep_location_create(0, 0);
    if (!l) {
        scorep_warn("out of memory at start; the program runs without measurement");
        return;
    }
    scorep_state_set_program_begin_ts(scorep_event_time(l));
    scorep_event_program_begin(l, scorep_program_begin_ts());
    for (int i = 0, n = __atomic_load_n(&n_subsystems, __ATOMIC_ACQUIRE); i < n; i++)
        if (subsystems[i]->begin)
            subsystems[i]->begin(mpi_mode);
    /* with MPI or SHMEM the directory is named when rank 0 has made it (after MPI_Init):
     * until session 22 this line said "experiment directory ''" in every MPI run */
    if (mpi_mode)
        scorep_verbose("measurement started, experiment directory made at MPI (SHMEM) start-up");
    else
        scorep_verbose("measurement started, experiment directory '%s'", experiment_dir);
    __atomic_store_n(&scorep_measurement_active, 1, __ATOMIC_RELEASE);
    scorep_gate_set(SCOREP_GATE_OFF, 0);
}

/* scorep-recover links the runtime to reuse its writers; it measures nothing (set by the
 * first constructor, before anything can start the measurement) */
static bool recover_tool;

int scorep_runtime_init(void)
{
    if (recover_tool)
        return 0;
    int s = __atomic_load_n(&init_state, __ATOMIC_ACQUIRE);
    if (s == INIT_DONE)
        return scorep_measurement_on();
    if (s == INIT_FINALIZED)
        return 0;
    if (s == INIT_RUNNING && pthread_equal(init_thread, pthread_self()))
        return 0; /* an event from inside init itself */
    pthread_mutex_lock(&init_lock);
    if (init_state == INIT_NONE) {
        init_thread = pthread_self();
        __atomic_store_n(&init_state, INIT_RUNNING, __ATOMIC_RELEASE);
        do_init();
        __atomic_store_n(&init_state, INIT_DONE, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&init_lock);
    return scorep_measurement_on();
}

/* The MPI backend (ipc/, below the runtime) reaches the life cycle through these: after
 * MPI_Init the experiment directory and the first clock synchronisation, inside MPI_Finalize
 * the last one and the collective finalize. */
static void ipc_ready(int spawned)
{
    scorep_runtime_mpi_ready(spawned != 0);
    scorep_clock_sync();
}

static void ipc_finalize(void)
{
    scorep_clock_sync();
    scorep_runtime_finalize_mpi();
}

static const scorep_ipc_hooks ipc_hooks = {ipc_ready, ipc_finalize};

void scorep_rt_recover_setup(const char *dir)
{
    parse_reduction();
    configure_locations();
    snprintf(experiment_dir, sizeof experiment_dir, "%s", dir);
    scorep_state_set_experiment_dir(experiment_dir);
    __atomic_store_n(&init_state, INIT_FINALIZED, __ATOMIC_RELEASE);
}

/* Before any other constructor of the library: an event that comes first starts the
 * measurement through location.c's first-use hook. */
__attribute__((constructor(101))) static void scorep_runtime_first_use_hook(void)
{
    recover_tool = dlsym(RTLD_DEFAULT, "scorep_recover_tool_present") != NULL;
    scorep_location_on_first_use(scorep_runtime_init);
    scorep_ipc_set_hooks(&ipc_hooks);
}

__attribute__((constructor)) static void scorep_runtime_constructor(void)
{
    scorep_runtime_init();
}

/* --------------------------------------------------------------- finalize */
int scorep_runtime_register(const scorep_subsystem *s)
{
    pthread_mutex_lock(&init_lock);
    int late = init_state == INIT_DONE; /* an adapter library's constructor: init has run */
    pthread_mutex_unlock(&init_lock);
    if (late && scorep_measurement_on()) {
        if (s->init)
            s->init();
        if (s->begin)
            s->begin(mpi_mode);
    }
    pthread_mutex_lock(&init_lock);
    int rc = n_subsystems < (int)ARRAY_LEN(subsystems) ? 0 : -1;
    if (rc == 0) {
        subsystems[n_subsystems] = s;
        __atomic_store_n(&n_subsystems, n_subsystems + 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&init_lock);
    return rc;
}

/* scorep_runtime_at_finalize: one subsystem with only an end phase per function. Room for
 * a few: the adapters register one each (NVTX at finalize, the in situ analysis at write). */
enum { MAX_AT_FINALIZE = 4, MAX_WRITE_HOOKS = 4 };
static scorep_subsystem at_finalize[MAX_AT_FINALIZE];
static int n_at_finalize;

int scorep_runtime_at_finalize(void (*fn)(void))
{
    pthread_mutex_lock(&init_lock);
    int k = n_at_finalize < (int)ARRAY_LEN(at_finalize) ? n_at_finalize++ : -1;
    pthread_mutex_unlock(&init_lock);
    if (k < 0)
        return -1;
    at_finalize[k].name = "at_finalize";
    at_finalize[k].end = fn;
    return scorep_runtime_register(&at_finalize[k]);
}

/* calls made after unification, before the results are written (scorep_runtime_at_write) */
static int (*write_hooks[MAX_WRITE_HOOKS])(const char *dir, const struct scorep_unified_s *u);
static int n_write_hooks;

int scorep_runtime_at_write(int (*fn)(const char *dir, const struct scorep_unified_s *u))
{
    pthread_mutex_lock(&init_lock);
    int rc = n_write_hooks < (int)ARRAY_LEN(write_hooks) ? 0 : -1;
    if (rc == 0)
        write_hooks[n_write_hooks++] = fn;
    pthread_mutex_unlock(&init_lock);
    return rc;
}

/* One line per process: how many of its locations had their traces reduced, and how far. */
static void note_reductions(void)
{
    uint32_t n = 0, total = 0, flushed = 0, n_flushes = 0;
    uint64_t min_dur = 0;
    uint32_t depth = UINT32_MAX;
    bool noncomm = false;
    for (scorep_location *l = scorep_location_first(); l; l = l->next, total++) {
        const scorep_buffer *b = &l->buffer;
        uint32_t k = b->n_log < BUF_MAX_LOG ? b->n_log : BUF_MAX_LOG, used = 0;
        for (uint32_t i = 0; b->log && i < k; i++) {
            const buf_reduction *r = &b->log[i];
            used += r->rule <= BUF_STEP_NONCOMM;
            if (r->rule == BUF_STEP_MIN_DURATION && r->param > min_dur)
                min_dur = r->param;
            if (r->rule == BUF_STEP_DEPTH && r->param < depth)
                depth = (uint32_t)r->param;
            noncomm |= r->rule == BUF_STEP_NONCOMM;
        }
        n += used > 0;
        flushed += b->n_flushes > 0;
        n_flushes += b->n_flushes;
    }
    if (flushed)
        scorep_warn("SCOREP_TOTAL_MEMORY ran short: the trace buffers of %u of %u locations were "
                    "flushed to disk %u times (each marked by a BufferFlush event; the "
                    "timings around them are disturbed)",
                    flushed, total, n_flushes);
    if (n == 0)
        return;
    char what[160] = "";
    size_t len = 0;
    if (min_dur)
        len += snprintf(what + len, sizeof what - len, ", calls shorter than %.3g us removed",
                        tick_per_us ? (double)min_dur / (double)tick_per_us : 0.0);
    if (depth != UINT32_MAX && len < sizeof what)
        len += snprintf(what + len, sizeof what - len, ", call depth %u and deeper dropped", depth);
    if (noncomm && len < sizeof what)
        snprintf(what + len, sizeof what - len, ", calls without communication dropped");
    scorep_warn("SCOREP_TOTAL_MEMORY ran short: the trace of %u of %u locations was reduced%s "
                "(the profile is complete; see MANIFEST.md and the trace's markers)",
                n, total, what);
}

/* ProgramEnd: the clock when finalize began (Score-P's end of the epoch, before its own
 * finalization), or the last event of a thread that still ran then (end_after_last_event);
 * the calls still open and the program root close there */
static uint64_t program_end_raw;

void scorep_rt_close_locations(void)
{
    note_reductions();
    const scorep_ipc *ipc = scorep_ipc_get();
    char rank_prefix[32] = "";
    if (ipc->size() > 1)
        snprintf(rank_prefix, sizeof rank_prefix, "rank %d ", ipc->rank());
    /* one line per location for the first MAX_STOP_WARNINGS, then one for the rest: a
     * team of 1000 threads (the OpenMP V&V suite's taskloop tests) wrote 335 lines;
     * MANIFEST.md lists every location's stop */
    enum { MAX_STOP_WARNINGS = 16 };
    unsigned warned = 0, more = 0;
    unsigned long long more_lost = 0;
    for (scorep_location *l = scorep_location_first(); l; l = l->next) {
        uint64_t t = scorep_location_now(l, program_end_raw);
        if (!l->finished)
            l->end_ts = t;
        scorep_unwind_close(l); /* frames of calls that ended, still current */
        if (l->profiling) {
            scorep_profile_settle_migrations(&l->profile); /* an end inside a parallel region */
            scorep_profile_close_all(&l->profile, l->end_ts);
        }
        /* a spill file that cannot be read back loses the flushed records: said here, once
         * per location, and logged (MANIFEST.md's table, an OTF2 marker, a rank-local piece
         * carries it to scorep-recover); the records still in memory are written */
        buf_unread why;
        char text[160];
        uint64_t unread = scorep_flush_check_spill(&l->buffer, &why, text, sizeof text);
        if (unread) {
            scorep_warn("%slocation %u: its spill file (SCOREP_TRACING_REDUCTION=flush) cannot "
                        "be read back: %s; the %llu trace records flushed to it before are "
                        "lost, the trace keeps the later ones (the profile is complete)",
                        rank_prefix, l->id, text, (unsigned long long)unread);
            scorep_buffer_log(&l->buffer, BUF_STEP_UNREAD, why, l->first_ts, unread);
        }
        if (!l->buffer.full)
            continue;
        if (warned++ < MAX_STOP_WARNINGS) /* location ids are per process: with several, say whose */
            scorep_warn("%slocation %u: SCOREP_TOTAL_MEMORY was used up; its trace stops early "
                        "(%llu events lost). Increase SCOREP_TOTAL_MEMORY or filter "
                        "frequent regions",
                        rank_prefix, l->id, (unsigned long long)l->buffer.lost);
        else {
            more++;
            more_lost += l->buffer.lost;
        }
    }
    if (more)
        scorep_warn("%s%u more locations: SCOREP_TOTAL_MEMORY was used up; their traces stop "
                    "early (%llu events lost; MANIFEST.md lists them)",
                    rank_prefix, more, more_lost);
}

/* After the subsystems' finalize (sampling adds its call paths below the roots it finds):
 * every location's tree below the program region, as Score-P's. */
void scorep_rt_root_locations(void)
{
    for (scorep_location *l = scorep_location_first(); l; l = l->next)
        if (l->profiling && scorep_profile_adopt_roots(&l->profile, scorep_program_region()) != 0)
            scorep_warn("out of memory: the call tree of location %u lacks the program region "
                        "at its root",
                        l->id);
}

/* Collective: rank 0 follows the experiment directory where another job with the same name
 * moved it (experiment.c) and tells the others; if it is gone, this job writes into a
 * new one. Without this, the results went into the other job's directory. */
static void follow_experiment_dir(void)
{
    const scorep_ipc *ipc = scorep_ipc_get();
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", experiment_dir);
    if (ipc->rank() == 0 && scorep_experiment_follow(dir, sizeof dir) < 0) {
        snprintf(dir, sizeof dir, "%.*s-%d", PATH_MAX - 16, experiment_dir, (int)getpid());
        if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
            scorep_warn("the experiment directory '%s' is gone and '%s' cannot be created: %s",
                        experiment_dir, dir, strerror(errno));
            snprintf(dir, sizeof dir, "%s", experiment_dir);
        } else {
            scorep_warn("the experiment directory '%s' is gone (moved or removed while the "
                        "program ran); this job's results go to '%s'",
                        experiment_dir, dir);
            if (scorep_experiment_write_cfg(dir) != 0)
                scorep_warn("cannot write %s/scorep.cfg", dir);
        }
    }
    if (ipc->bcast(dir, sizeof dir, 0) == 0 && strcmp(dir, experiment_dir) != 0) {
        snprintf(experiment_dir, sizeof experiment_dir, "%s", dir);
        scorep_state_set_experiment_dir(experiment_dir);
    }
}

/* Returns whether this process wrote MANIFEST.md. */
bool scorep_rt_write_results(int status)
{
    const scorep_ipc *ipc = scorep_ipc_get();
    follow_experiment_dir();
    scorep_unified u;
    if (scorep_unify(&u) != 0) {
        if (ipc->rank() == 0)
            scorep_warn("unifying the definitions failed; nothing is written");
        scorep_unified_free(&u);
        return false;
    }
    if (scorep_systree_prepare() != 0) {
        scorep_unified_free(&u);
        return false;
    }
    int no_trace_file = 0; /* the in-situ analysis ran and the trace file is not wanted */
    for (int i = 0; i < n_write_hooks; i++)
        no_trace_file |= write_hooks[i](experiment_dir, &u) == 1;
    char path[PATH_MAX + 300];
    snprintf(path, sizeof path, "%s/%s.cubex", experiment_dir, scorep_cfg.profiling_base_name);
    const scorep_writer_ctx w = {experiment_dir, path, &u, status};
    int profile =
        scorep_cfg.enable_profiling && scorep_cfg.profiling_format != SCOREP_PROFILING_FORMAT_NONE;
    if (profile && scorep_profile_write_cube(&w) != 0) {
        profile = 0;
        if (ipc->rank() == 0) /* the warning above says why */
            scorep_experiment_note("no profile: writing it failed (the program's error output "
                                   "says why)");
    }
    int trace = scorep_cfg.enable_tracing && !no_trace_file && scorep_trace_write_otf2(&w) == 0;
    scorep_systree_release();
    scorep_unified_free(&u);
    if (ipc->rank() == 0) {
        if (scorep_experiment_write_manifest(experiment_dir, profile, trace) != 0)
            scorep_warn("cannot write %s/MANIFEST.md: %s", experiment_dir, strerror(errno));
        scorep_verbose("measurement written to '%s'", experiment_dir);
    }
    return ipc->rank() == 0;
}

/* ------------------------------------- Score-P's runtime management entry points */
/* Score-P's Python bindings (and other tools built against Score-P) call these three; they
 * are no part of the user API, so no public header declares them (runtime.h does). */
static void finalize_at_exit(void)
{
    scorep_runtime_finalize(0);
}

/* Score-P: atexit(scorep_finalize), again (when the program replaced the exit handlers). The
 * measurement is written once, whichever handler comes first. */
__attribute__((visibility("default"))) void SCOREP_RegisterExitHandler(void)
{
    if (atexit(finalize_at_exit) != 0)
        scorep_warn("SCOREP_RegisterExitHandler: atexit failed; results are written at the "
                    "end of the process as before");
}

/* Score-P: the experiment directory's name (after init; its final name once created). */
__attribute__((visibility("default"))) const char *SCOREP_GetExperimentDirName(void)
{
    scorep_runtime_init();
    return scorep_experiment_dir();
}

/* Score-P: ends the measurement now and writes the results (events after it are not
 * recorded); a later finalize (exit, MPI_Finalize) does nothing. In an MPI run the results
 * are written collectively by MPI_Finalize: called before it, the rank writes its rank-local
 * piece (rescue.c) and says so, as a rank that exits early. */
__attribute__((visibility("default"))) void SCOREP_FinalizeMeasurement(void)
{
    scorep_runtime_finalize(0);
}

void scorep_runtime_finalize(int status)
{
    scorep_ending e = {SCOREP_END_EXIT, status, NULL, 0};
    scorep_rt_finish(&e);
}

/* A crash (SIGSEGV, ...): the crashed thread's call path gets a call of a region named
 * after the signal, at the time the signal came (the thread is stopped in the handler). */
static void mark_crash(const scorep_ending *e)
{
    scorep_location *l = e->crash_loc;
    const char *name = e->kind == SCOREP_END_SIGNAL ? scorep_rescue_crash_name(e->code) : NULL;
    if (!l || !name || l->off_depth)
        return;
    uint32_t r = scorep_defs_region(name, name, NULL, 0, 0, SCOREP_PARADIGM_MEASUREMENT,
                                    SCOREP_ROLE_ARTIFICIAL);
    if (r == SCOREP_INVALID_ID)
        return;
    uint64_t t = scorep_location_now(l, e->crash_raw);
    if (l->profiling)
        scorep_profile_enter(&l->profile, r, t);
    if (l->tracing)
        scorep_buffer_enter(&l->buffer, l->depth, t, r);
    t = scorep_location_now(l, t + 1);
    if (l->profiling)
        scorep_profile_leave(&l->profile, r, t);
    if (l->tracing)
        scorep_buffer_leave(&l->buffer, l->depth, t, r);
}

int scorep_rt_end_done(void)
{
    return __atomic_load_n(&end_done, __ATOMIC_ACQUIRE);
}

/* The program ends with the last event it recorded: threads that run on while finalize
 * begins (a return from main without joining them) record until the measurement is off and
 * quiesced, and the master's preemption between its clock read and that store can last a
 * time slice (milliseconds); the program root, which closes at ProgramEnd, must cover them.
 * GPU locations are left out: their clocks are converted later and their activities end
 * when they end. */
static uint64_t end_after_last_event(uint64_t end)
{
    for (scorep_location *l = scorep_location_first(); l; l = l->next)
        if (!l->gpu && l->last_ts > end)
            end = l->last_ts;
    return end;
}

/* Returns false when another thread already ends the measurement. */
static bool finish(const scorep_ending *e)
{
    int status = e->kind == SCOREP_END_SIGNAL ? 128 + e->code : e->code;
    pthread_mutex_lock(&init_lock);
    int was = init_state;
    /* atomic: scorep_runtime_init's fast path reads it without the lock */
    __atomic_store_n(&init_state, INIT_FINALIZED, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&init_lock);
    if (was == INIT_FINALIZED)
        return false; /* another thread ends the measurement; end_done tells when it is done */
    if (was != INIT_DONE || !scorep_measurement_on())
        return true;
    program_end_raw = scorep_timer_ticks();
    if (!e->crash_loc && e->kind != SCOREP_END_SIGNAL)
        scorep_throttle_settle(); /* this thread's throttled calls since its last event */
    scorep_substrates_program_end(status);
    scorep_gate_set(SCOREP_GATE_OFF, 1);
    __atomic_store_n(&scorep_measurement_active, 0, __ATOMIC_SEQ_CST);
    /* threads that still run (exit() or a return from main while they record) finish the
     * event they are in; from here on the locations are this thread's. A thread that a
     * signal stopped inside an event (the crashed one) will not finish it. */
    scorep_location_quiesce_except(e->crash_loc);
    program_end_raw = end_after_last_event(program_end_raw);
    /* the sources stop; adapters hand over what they buffer */
    for (int i = 0, n = __atomic_load_n(&n_subsystems, __ATOMIC_ACQUIRE); i < n; i++)
        if (subsystems[i]->end)
            subsystems[i]->end();
    /* a rank that ends without MPI_Finalize: collective writing would hang (the other
     * ranks are not here), so it writes its rank-local piece (rescue.c) */
    bool rank_local = scorep_ipc_get() != &scorep_ipc_single && !in_mpi_finalize;
    if (rank_local && !experiment_dir[0])
        return true; /* MPI_Init did not complete: no directory, nothing recorded to keep */
    if (!experiment_dir[0] && create_experiment_dir() != 0)
        return true; /* an MPI program that never initialised MPI */
    mark_crash(e);
    scorep_rt_close_locations();
    scorep_timer_finish();
    for (int i = n_subsystems - 1; i >= 0; i--)
        if (subsystems[i]->finalize)
            subsystems[i]->finalize();
    scorep_rt_root_locations();
    scorep_defs_string(scorep_program_name()); /* ProgramBegin names it */
    if (rank_local) {
        scorep_rescue_write_piece(e, program_end_raw);
        return true;
    }
    bool manifest = scorep_rt_write_results(status);
    scorep_substrates_write(experiment_dir, manifest);
    if (scorep_cfg.checkpoint_interval)
        scorep_rescue_discard_piece();
    return true;
}

void scorep_rt_finish(const scorep_ending *e)
{
    sigset_t old;
    scorep_rescue_block(&old);
    if (finish(e))
        __atomic_store_n(&end_done, 1, __ATOMIC_RELEASE);
    scorep_rescue_unblock(&old);
}

int scorep_runtime_ending_in_mpi_finalize(void)
{
    return in_mpi_finalize && scorep_ipc_get() != &scorep_ipc_single;
}

void scorep_runtime_finalize_mpi(void)
{
    in_mpi_finalize = 1;
    scorep_runtime_finalize(0);
}
