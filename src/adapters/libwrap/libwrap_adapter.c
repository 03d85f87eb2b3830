/* SPDX-License-Identifier: BSD-3-Clause */
/* libwrap_adapter.c: the part of user library wrapping (scorep-libwrap-init, docs/libwrap.md)
 * that lives in libscorep-rt: a wrapped function's region (defined on its first call, as
 * Score-P defines it: paradigm libwrap, role wrapper, the header as its file), its enter and
 * leave on the user regions' fast path, and the real function of run-time wrapping. */
#include "adapters/io/io_adapter.h"
#include "base/settings.h"
#include "core/events.h"
#include "core/subsystem.h"
#include "runtime/runtime.h"
#include "ipc/ipc.h"
#include "filter/filter.h"

#include <scorep/SCOREP_Libwrap_rt.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define API __attribute__((visibility("default")))

static pthread_mutex_t define_lock = PTHREAD_MUTEX_INITIALIZER;

/* Set while this thread defines a region: a wrapped function called by the definition (the
 * runtime's own use of a wrapped library) is only passed through, never recursed into. */
static __thread int defining __attribute__((tls_model("initial-exec")));

static __attribute__((noinline, cold)) uint32_t define(scorep_libwrap_fn *fn)
{
    if (defining)
        return SCOREP_LIBWRAP_OFF;
    defining = 1;
    uint32_t state = SCOREP_LIBWRAP_OFF;
    if (scorep_runtime_init()) {
        pthread_mutex_lock(&define_lock);
        state = __atomic_load_n(&fn->state, __ATOMIC_ACQUIRE);
        if (state == 0) {
            uint32_t id =
                scorep_defs_region_grouped(fn->name, fn->symbol, fn->file, fn->line, 0,
                                           SCOREP_PARADIGM_LIBWRAP, SCOREP_ROLE_WRAPPER, fn->group);
            /* as in Score-P: the filter sees the header, the name and the symbol */
            bool filtered =
                id == SCOREP_INVALID_ID ||
                (scorep_active_filter &&
                 scorep_filter_excluded(scorep_active_filter, fn->file, fn->name, fn->symbol));
            if (scorep_active_filter && id != SCOREP_INVALID_ID)
                scorep_filter_note_symbol(scorep_active_filter, fn->name, fn->symbol);
            state = filtered ? SCOREP_LIBWRAP_OFF : id + 2;
            __atomic_store_n(&fn->state, state, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&define_lock);
    }
    defining = 0;
    return state;
}

static __attribute__((noinline)) uint32_t enter_general(uint32_t region, uintptr_t sp)
{
    scorep_location *l = scorep_location_slow(); /* a thread's first event */
    if (!l)
        return 0;
    scorep_event_enter_general(l, region, sp);
    return region + 1;
}

API uint32_t scorep_libwrap_enter(scorep_libwrap_fn *fn, const void *caller)
{
    uint32_t state = __atomic_load_n(&fn->state, __ATOMIC_ACQUIRE);
    if (__builtin_expect(state == 0, 0))
        state = define(fn);
    if (state == SCOREP_LIBWRAP_OFF || defining)
        return 0;
    /* run-time wrapping intercepts every caller: the measurement's own calls are not the
     * program's (a table lookup per call site, see scorep_io_own_code) */
    if (caller && scorep_io_own_code(caller))
        return 0;
    uint32_t region = state - 2;
    /* sp: this function's CFA, the wrapper's stack pointer at its call, below the program's
     * frame that called the wrapper and above the wrapped function's: a jump out of the
     * wrapped library (its error handler's longjmp to the program's setjmp, as libpng's) or
     * out of a signal handler leaves the call (core/events.c, unwind_to). Kept in its
     * register: GCC would compute it twice on the traced path (plugin_adapter.c) */
    uintptr_t sp = (uintptr_t)__builtin_dwarf_cfa();
    __asm__("" : "+r"(sp));
    scorep_location *l = scorep_tls_location;
    if (__builtin_expect(l != NULL, 1)) {
        scorep_event_enter_measured(l, region, sp);
        return region + 1;
    }
    return enter_general(region, sp);
}

API void scorep_libwrap_leave(uint32_t token)
{
    scorep_location *l = scorep_tls_location;
    if (__builtin_expect(token != 0 && l != NULL, 1))
        scorep_event_leave_measured(l, token - 1);
}

API void scorep_libwrap_no_real(const char *symbol, const char *wrapper)
{
    scorep_fatal("library wrapper '%s': no definition of %s after the wrapper (is the "
                 "wrapped library loaded? it must come after the wrapper in the link or "
                 "in LD_PRELOAD)",
                 wrapper, symbol);
}

/* ------------------------------------------- SCOREP_LIBWRAP_ENABLE's wrappers */
/* Every wrapper library (both modes) says its name from a constructor. At the end of the
 * run, a wrapper SCOREP_LIBWRAP_ENABLE names that never said so was not in the program (a
 * program run without scorep-run, which preloads them): that is said once, instead of an
 * experiment silently without the library's calls. */
enum { MAX_WRAPPERS = 64 };
static const char *loaded[MAX_WRAPPERS];
static int n_loaded;

API void scorep_libwrap_register(const char *name)
{
    pthread_mutex_lock(&define_lock);
    if (n_loaded < MAX_WRAPPERS)
        loaded[n_loaded++] = name;
    pthread_mutex_unlock(&define_lock);
}

static bool is_loaded(const char *name, size_t len)
{
    bool found = false;
    pthread_mutex_lock(&define_lock);
    for (int i = 0; i < n_loaded && !found; i++)
        found = strlen(loaded[i]) == len && strncmp(loaded[i], name, len) == 0;
    pthread_mutex_unlock(&define_lock);
    return found;
}

/* NAME of an entry: NAME, .../libscorep_libwrap_NAME.so or .../NAME.libwrap */
static void entry_name(const char *e, size_t n, const char **name, size_t *len)
{
    const char *slash = memrchr(e, '/', n);
    if (slash) {
        n -= (size_t)(slash + 1 - e);
        e = slash + 1;
        static const char pre[] = "libscorep_libwrap_";
        if (n > sizeof pre - 1 && strncmp(e, pre, sizeof pre - 1) == 0)
            e += sizeof pre - 1, n -= sizeof pre - 1;
        if (n > 3 && strncmp(e + n - 3, ".so", 3) == 0)
            n -= 3;
        else if (n > 8 && strncmp(e + n - 8, ".libwrap", 8) == 0)
            n -= 8;
    }
    *name = e;
    *len = n;
}

static void check_enabled(void)
{
    const char *en = scorep_cfg.libwrap_enable;
    const char *sep = scorep_cfg.libwrap_enable_sep && *scorep_cfg.libwrap_enable_sep
                          ? scorep_cfg.libwrap_enable_sep
                          : ",";
    while (en && *en) {
        size_t n = strcspn(en, sep);
        const char *name;
        size_t len;
        entry_name(en, n, &name, &len);
        if (len > 0 && !is_loaded(name, len))
            scorep_runtime_warn_run(
                "SCOREP_LIBWRAP_ENABLE: the library wrapper '%.*s' is not in this program, its "
                "calls were not recorded: run the program under scorep-run (which preloads it) "
                "or link it with scorep-cc --libwrap=%.*s (docs/libwrap.md)",
                (int)len, name, (int)len, name);
        en += n;
        en += strspn(en, sep);
    }
}

/* A plain rule of SCOREP_FILTERING_FILE that matched the symbol of a wrapped function but no
 * region name was meant for the bare C name of before session 22 (scorep_filter_note_symbol):
 * said once per rule, with what to write instead, rather than a filter that silently keeps
 * what it was written to exclude. */
static void warn_symbol_rule(void *ctx, const char *origin, int line, bool exclude,
                             const char *pattern)
{
    (void)ctx;
    const char *action = exclude ? "EXCLUDE" : "INCLUDE";
    scorep_runtime_warn_run(
        "SCOREP_FILTERING_FILE %s:%d: '%s %s' matches no region name, only the symbol of a "
        "wrapped library function: a plain rule matches the region name (as Score-P's, "
        "'ml_add(int, int)'), a MANGLED rule the symbol: write '%s MANGLED %s' or '%s %s(*' "
        "(docs/libwrap.md)",
        origin, line, action, pattern, action, pattern, action, pattern);
}

/* An MPI job's warnings wait for the write (symbol_rules_job), where all ranks are */
static int symbol_rules_deferred;

static void libwrap_end(void)
{
    check_enabled();
    if (scorep_runtime_ending_in_mpi_finalize())
        symbol_rules_deferred = 1;
    else if (scorep_active_filter) /* one process: its own regions are all there are */
        scorep_filter_symbol_only_rules(scorep_active_filter, warn_symbol_rule, NULL);
}

/* After unification, on every rank of a job that ends in MPI_Finalize (collective): a rule
 * is reported when it matched a wrapped function's symbol on some rank and a region name on
 * none, by rank 0 once for the job (a function called on rank 1 only is covered, and the
 * ranks do not each repeat the warning). Ranks whose filters differ (another
 * SCOREP_FILTERING_FILE) each report their own, as a single process does. */
static int symbol_rules_job(const char *dir, const struct scorep_unified_s *u)
{
    (void)dir;
    (void)u;
    if (!symbol_rules_deferred)
        return 0; /* uniform: every rank of such a job deferred, no recovering process did */
    symbol_rules_deferred = 0;
    const scorep_ipc *ipc = scorep_ipc_get();
    uint64_t fp = 0;
    size_t n = scorep_active_filter ? scorep_filter_rule_words(scorep_active_filter, &fp) : 0;
    uint64_t hi = fp, lo = ~fp;
    if (ipc->allreduce_max_u64(&hi) != 0 || ipc->allreduce_max_u64(&lo) != 0 || ~lo != hi) {
        if (scorep_active_filter)
            scorep_filter_symbol_only_rules(scorep_active_filter, warn_symbol_rule, NULL);
        return 0;
    }
    if (n == 0) /* the same on every rank: no filter, or one without region rules */
        return 0;
    uint64_t *words = calloc(n, sizeof *words);
    if (words)
        scorep_filter_rule_marks(scorep_active_filter, words);
    if (scorep_ipc_allreduce_or(words, n) != 0) { /* every rank gets -1 if one lacks memory */
        scorep_filter_symbol_only_rules(scorep_active_filter, warn_symbol_rule, NULL);
        free(words);
        return 0;
    }
    if (ipc->rank() == 0)
        scorep_filter_symbol_only_rules_of(scorep_active_filter, words, warn_symbol_rule, NULL);
    free(words);
    return 0;
}

static const scorep_subsystem libwrap_subsystem = {.name = "libwrap", .end = libwrap_end};

__attribute__((constructor)) static void register_libwrap(void)
{
    if (scorep_runtime_register(&libwrap_subsystem) != 0)
        scorep_warn("library wrapping: the runtime's subsystem table is full; "
                    "SCOREP_LIBWRAP_ENABLE is not checked");
    if (scorep_runtime_at_write(symbol_rules_job) != 0)
        scorep_warn("library wrapping: the runtime's write hooks are full; filter rules that "
                    "match only a wrapped function's symbol are not reported in MPI runs");
}
