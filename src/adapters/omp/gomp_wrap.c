/* SPDX-License-Identifier: BSD-3-Clause */
/* gomp_wrap.c: OpenMP of gcc programs on GNU libgomp (no OMPT there): libscorep-rt-gomp
 * defines libgomp's GOMP_* entry points and lock API, linked ahead of libgomp by scorep-cc or
 * preloaded by scorep-run, records each construct by calling the OMPT adapter's callbacks as
 * LLVM's libomp would (same events, same regions: the code pointer is the call's return
 * address, as OMPT's codeptr_ra, or the outlined function's entry) and calls libgomp's
 * function (dlsym RTLD_NEXT). docs/openmp.md, "gcc programs on libgomp". */
#include "adapters/omp/omp_adapter.h"
#include "runtime/runtime.h"

#include <dlfcn.h>
#include <link.h>
#include <stdalign.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))
/* The caller's code pointer: its return address, unless that lies in this library (see
 * codeptr_of below: a tail call from the program's outlined function) */
#define CODEPTR codeptr_of(__builtin_return_address(0))
/* The code pointer of a construct gcc outlines (parallel, task): one byte into the outlined
 * function, which the adapter names after the line of its address minus one, the function's
 * entry: the construct's line. The call's return address has the line of an earlier
 * statement in gcc's line tables (the outlined function's is the pragma's, as clang's
 * code pointers have it). Never a return address: a call instruction is longer than 1 byte. */
#define OUTLINED(fn) ((const void *)((const char *)(fn) + 1))
/* The code pointer of the teams of a host teams construct: none, as LLVM's libomp (14)
 * reports them, so that both name the same regions (`!$omp parallel`). */
#define TEAMS_CODEPTR NULL

/* libgomp's flags of GOMP_task (gomp-constants.h) */
enum {
    TASK_UNTIED = 1 << 0,
    TASK_FINAL = 1 << 1,
    TASK_DEPEND = 1 << 3,
    TASK_IF = 1 << 10, /* taskloop's if clause */
    TASK_NOGROUP = 1 << 11,
    TASK_REDUCTION = 1 << 12,
    TASK_DETACH = 1 << 13
};
/* GOMP_cancellation_point's construct "taskgroup" (gomp-constants.h), which libgomp also
 * answers for a cancelled parallel region */
enum { GOMP_CANCEL_TASKGROUP = 8 };

/* On LLVM's libomp (it has GOMP_* too) the OMPT tool records: every wrapper passes through. */
static bool passthrough;
/* A non-NULL parallel data for the end of an implicit barrier that is not a team's
 * closing one (omp_cb_sync_region tells them apart by a NULL parallel data). */
static ompt_data_t some_parallel;
/* OMP_CANCELLATION (libgomp's, read at each fork: a preloaded library's constructor may run
 * before libgomp's): with it, whether a construct is cancelled is asked of libgomp */
static bool cancellation;
static void *real_GOMP_cancellation_point, *real_GOMP_taskgroup_start, *real_omp_get_cancellation;

/* The next definition of a GOMP_* function (libgomp's), found once. */
static void *next(void **slot, const char *name)
{
    void *f = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (__builtin_expect(f == NULL, 0)) {
        f = dlsym(RTLD_NEXT, name);
        if (!f) {
            scorep_warn("OpenMP: %s not found after libscorep-rt-gomp (is the program linked "
                        "with -fopenmp?)",
                        name);
            abort();
        }
        __atomic_store_n(slot, f, __ATOMIC_RELEASE);
    }
    return f;
}
#define REAL(type, name) ((type)next(&real_##name, #name))

static void *real_GOMP_parallel, *real_GOMP_task, *real_GOMP_taskwait, *real_GOMP_barrier,
    *real_omp_get_thread_num, *real_omp_get_num_threads, *real_omp_get_max_threads,
    *real_omp_get_level;

/* ------------------------------------------------------------------ parallel */
typedef struct {
    void (*fn)(void *);
    void *data;
    ompt_data_t parallel;
    const void *codeptr;
    int work;          /* combined parallel worksharing: the ompt_work_t each member begins, or 0 */
    int level;         /* omp_get_level() inside the team */
    void *copyprivate; /* a single's copyprivate data, from its executor to the others */
} parallel_ctx;

/* The recorded team this thread is a member of now (copyprivate singles), or NULL */
static __thread parallel_ctx *team_ctx __attribute__((tls_model("initial-exec")));

/* The executable segment of this library (gomp_wrap_init). gcc ends an outlined function
 * whose last statement is `#pragma omp barrier` (or a loop's end, a taskwait) with a tail
 * call, `jmp GOMP_barrier`: the return address is then the one into our own call of the
 * outlined function (parallel_member), and the region was named after this file, the same
 * `!$omp barrier @gomp_wrap.c:114` for every such barrier of every program (GROMACS 2022's
 * mdrun, session 22). Such a construct is named after the construct around it, the team's
 * parallel region (its outlined function), the closest the call still tells; NULL (no
 * location) outside a recorded team. A subtraction and a compare: no lock, no call. */
static uintptr_t own_text, own_text_size;

static inline const void *codeptr_of(const void *ra)
{
    if ((uintptr_t)ra - own_text < own_text_size) {
        const parallel_ctx *c = team_ctx;
        return c ? c->codeptr : NULL;
    }
    return ra;
}

/* dl_iterate_phdr callback: the executable PT_LOAD segment holding codeptr_of */
static int find_own_text(struct dl_phdr_info *info, size_t size, void *unused)
{
    (void)size;
    (void)unused;
    uintptr_t self = (uintptr_t)&codeptr_of;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && self - lo < ph->p_memsz) {
            own_text = lo;
            own_text_size = ph->p_memsz;
            return 1;
        }
    }
    return 0;
}

static void work_begin(ompt_work_t type, const void *codeptr);
/* Loops and sections this thread began and has not ended: an end whose begin no wrapper saw
 * (a start function not wrapped here) must not end another region. */
static __thread unsigned open_work __attribute__((tls_model("initial-exec")));

/* Runs on every member of the team: its implicit task (and the combined construct's
 * worksharing region), then the closing barrier's begin; the barrier's and implicit task's
 * ends are written when the team has joined (by the master for its workers, as with libomp:
 * omp_parallel.c). */
static void parallel_member(void *p)
{
    static __thread bool worker __attribute__((tls_model("initial-exec")));
    parallel_ctx *c = p;
    unsigned int index = REAL(int (*)(void), omp_get_thread_num)();
    unsigned int actual = REAL(int (*)(void), omp_get_num_threads)();
    if (index != 0 && !worker) { /* a thread libgomp started: named as OMPT's workers */
        ompt_data_t thread;
        omp_cb_thread_begin(ompt_thread_worker, &thread);
        worker = true;
    }
    omp_cb_implicit_task(ompt_scope_begin, &c->parallel, NULL, actual, index, ompt_task_implicit);
    if (c->work)
        work_begin((ompt_work_t)c->work, c->codeptr);
    parallel_ctx *outer = team_ctx;
    team_ctx = c;
    c->fn(c->data);
    team_ctx = outer;
    open_work = 0; /* a loop this member began and never ended is not the next team's */
    omp_cb_sync_region(ompt_sync_region_barrier_implicit_parallel, ompt_scope_begin, &c->parallel,
                       NULL, c->codeptr);
}

/* The fork: false when not recorded (the caller then runs the compiler's function). */
static bool parallel_begin(parallel_ctx *c, unsigned num_threads)
{
    if (passthrough || !omp_thread_get())
        return false;
    __atomic_store_n(&cancellation, REAL(int (*)(void), omp_get_cancellation)() != 0,
                     __ATOMIC_RELAXED);
    /* requested: as libomp reports it, the team size asked for (nthreads-var by default) */
    unsigned requested =
        num_threads ? num_threads : (unsigned)REAL(int (*)(void), omp_get_max_threads)();
    omp_cb_parallel_begin(NULL, NULL, &c->parallel, requested, ompt_parallel_team, c->codeptr);
    c->level = REAL(int (*)(void), omp_get_level)() + 1;
    return c->parallel.ptr != NULL; /* NULL: out of memory */
}

/* The master after libgomp's team ended: its closing barrier, its workers', the join. */
static void parallel_end(parallel_ctx *c)
{
    omp_cb_sync_region(ompt_sync_region_barrier_implicit_parallel, ompt_scope_end, NULL, NULL,
                       c->codeptr);
    omp_cb_implicit_task(ompt_scope_end, NULL, NULL, 0, 0, ompt_task_implicit);
    omp_cb_parallel_end(&c->parallel, NULL, ompt_parallel_team, c->codeptr);
}

EXPORT void GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags)
{
    typedef void (*parallel_fn)(void (*)(void *), void *, unsigned, unsigned);
    parallel_fn real = REAL(parallel_fn, GOMP_parallel);
    parallel_ctx c = {fn, data, {0}, OUTLINED(fn), 0, 0, NULL};
    if (!parallel_begin(&c, num_threads)) {
        real(fn, data, num_threads, flags);
        return;
    }
    real(parallel_member, &c, num_threads, flags);
    parallel_end(&c);
}

/* A parallel construct with task reductions (`reduction(task, ...)`, gcc 9 and later): as
 * GOMP_parallel, but libgomp reads the compiler's reduction descriptors through the first
 * word of the data it is given, so the members' data begins with that word, copied. Not
 * wrapped before session 19: such regions were not recorded at all (the OpenMP V&V suite's
 * test_parallel_for_reduction_task.c and test_task_in_reduction.c). */
typedef struct {
    void *reductions; /* the first word of the compiler's data: libgomp's rdata */
    parallel_ctx c;
} parallel_reductions_ctx;

static void parallel_reductions_member(void *p)
{
    parallel_member(&((parallel_reductions_ctx *)p)->c);
}

static void *real_GOMP_parallel_reductions;
EXPORT unsigned GOMP_parallel_reductions(void (*fn)(void *), void *data, unsigned num_threads,
                                         unsigned flags)
{
    typedef unsigned (*f)(void (*)(void *), void *, unsigned, unsigned);
    parallel_reductions_ctx r = {*(void **)data, {fn, data, {0}, OUTLINED(fn), 0, 0, NULL}};
    if (!parallel_begin(&r.c, num_threads))
        return REAL(f, GOMP_parallel_reductions)(fn, data, num_threads, flags);
    unsigned n = REAL(f, GOMP_parallel_reductions)(parallel_reductions_member, &r, num_threads, flags);
    parallel_end(&r.c);
    return n;
}

/* Combined parallel loops (parallel for with a schedule libgomp runs): each member begins
 * the loop, its function calls GOMP_loop_*_next and GOMP_loop_end_nowait. */
#define PARALLEL_LOOP(name)                                                                        \
    static void *real_##name;                                                                      \
    EXPORT void name(void (*fn)(void *), void *data, unsigned num_threads, long start, long end,   \
                     long incr, long chunk, unsigned flags)                                        \
    {                                                                                              \
        typedef void (*f)(void (*)(void *), void *, unsigned, long, long, long, long, unsigned);   \
        parallel_ctx c = {fn, data, {0}, OUTLINED(fn), ompt_work_loop, 0, NULL};                   \
        if (!parallel_begin(&c, num_threads)) {                                                    \
            REAL(f, name)(fn, data, num_threads, start, end, incr, chunk, flags);                  \
            return;                                                                                \
        }                                                                                          \
        REAL(f, name)(parallel_member, &c, num_threads, start, end, incr, chunk, flags);           \
        parallel_end(&c);                                                                          \
    }
PARALLEL_LOOP(GOMP_parallel_loop_static)
PARALLEL_LOOP(GOMP_parallel_loop_dynamic)
PARALLEL_LOOP(GOMP_parallel_loop_guided)
PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_dynamic)
PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_guided)

#define PARALLEL_LOOP_RUNTIME(name)                                                                \
    static void *real_##name;                                                                      \
    EXPORT void name(void (*fn)(void *), void *data, unsigned num_threads, long start, long end,   \
                     long incr, unsigned flags)                                                    \
    {                                                                                              \
        typedef void (*f)(void (*)(void *), void *, unsigned, long, long, long, unsigned);         \
        parallel_ctx c = {fn, data, {0}, OUTLINED(fn), ompt_work_loop, 0, NULL};                   \
        if (!parallel_begin(&c, num_threads)) {                                                    \
            REAL(f, name)(fn, data, num_threads, start, end, incr, flags);                         \
            return;                                                                                \
        }                                                                                          \
        REAL(f, name)(parallel_member, &c, num_threads, start, end, incr, flags);                  \
        parallel_end(&c);                                                                          \
    }
PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_runtime)
PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_nonmonotonic_runtime)
PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_maybe_nonmonotonic_runtime)

static void *real_GOMP_parallel_sections;
EXPORT void GOMP_parallel_sections(void (*fn)(void *), void *data, unsigned num_threads,
                                   unsigned count, unsigned flags)
{
    typedef void (*f)(void (*)(void *), void *, unsigned, unsigned, unsigned);
    parallel_ctx c = {fn, data, {0}, OUTLINED(fn), ompt_work_sections, 0, NULL};
    if (!parallel_begin(&c, num_threads)) {
        REAL(f, GOMP_parallel_sections)(fn, data, num_threads, count, flags);
        return;
    }
    REAL(f, GOMP_parallel_sections)(parallel_member, &c, num_threads, count, flags);
    parallel_end(&c);
}

/* Host teams: libgomp runs the teams one after the other on the encountering thread
 * (teams.c). Recorded as libomp records a league: a ThreadFork of num_teams around it, and
 * each team's initial thread as a parallel region of one thread (libomp's teams of one),
 * here all on the encountering thread. */
static void team_begin(ompt_data_t *team)
{
    omp_cb_parallel_begin(NULL, NULL, team, 1, ompt_parallel_team, TEAMS_CODEPTR);
    omp_cb_implicit_task(ompt_scope_begin, team, NULL, 1, 0, ompt_task_implicit);
}

static void team_end(ompt_data_t *team)
{
    omp_cb_implicit_task(ompt_scope_end, NULL, NULL, 0, 0, ompt_task_implicit);
    omp_cb_parallel_end(team, NULL, ompt_parallel_team, TEAMS_CODEPTR);
}

static void teams_member(void *p)
{
    parallel_ctx *c = p;
    ompt_data_t team = {0};
    team_begin(&team);
    c->fn(c->data);
    team_end(&team);
}

static void *real_GOMP_teams_reg;
EXPORT void GOMP_teams_reg(void (*fn)(void *), void *data, unsigned num_teams,
                           unsigned thread_limit, unsigned flags)
{
    typedef void (*f)(void (*)(void *), void *, unsigned, unsigned, unsigned);
    parallel_ctx c = {fn, data, {0}, TEAMS_CODEPTR, 0, 0, NULL};
    if (!passthrough && omp_thread_get())
        omp_cb_parallel_begin(NULL, NULL, &c.parallel, num_teams, ompt_parallel_league,
                              TEAMS_CODEPTR);
    if (!c.parallel.ptr) {
        REAL(f, GOMP_teams_reg)(fn, data, num_teams, thread_limit, flags);
        return;
    }
    REAL(f, GOMP_teams_reg)(teams_member, &c, num_teams, thread_limit, flags);
    omp_cb_parallel_end(&c.parallel, NULL, ompt_parallel_league, TEAMS_CODEPTR);
}

/* Teams inside a target region (host fallback: gcc's body runs `GOMP_teams4(..., first)`
 * and then loops while GOMP_teams4(..., false) is true, a team per pass): the first call
 * begins the league, each true return a team, the next call ends it, a false one the league. */
static __thread struct {
    ompt_data_t league, team;
} teams4 __attribute__((tls_model("initial-exec")));

static void *real_GOMP_teams4;
EXPORT bool GOMP_teams4(unsigned num_teams_low, unsigned num_teams_high, unsigned thread_limit,
                        bool first)
{
    bool more = REAL(bool (*)(unsigned, unsigned, unsigned, bool),
                     GOMP_teams4)(num_teams_low, num_teams_high, thread_limit, first);
    if (passthrough)
        return more;
    if (teams4.team.ptr)
        team_end(&teams4.team);
    if (first && more && omp_thread_get())
        omp_cb_parallel_begin(NULL, NULL, &teams4.league, num_teams_low, ompt_parallel_league,
                              TEAMS_CODEPTR);
    if (more && teams4.league.ptr)
        team_begin(&teams4.team);
    else if (teams4.league.ptr)
        omp_cb_parallel_end(&teams4.league, NULL, ompt_parallel_league, TEAMS_CODEPTR);
    return more;
}

/* ------------------------------------------------------------- worksharing */
/* A construct's closing barrier (loop, sections, single): implicit, not a team's last. */
static void implicit_barrier(void (*real)(void), const void *codeptr)
{
    omp_cb_sync_region(ompt_sync_region_barrier_implicit_workshare, ompt_scope_begin,
                       &some_parallel, NULL, codeptr);
    real();
    omp_cb_sync_region(ompt_sync_region_barrier_implicit_workshare, ompt_scope_end, &some_parallel,
                       NULL, codeptr);
}

/* gcc ends a single without nowait with a GOMP_barrier call, which tells nothing else: a
 * barrier after GOMP_single_start with no other construct between but tasks (created,
 * waited for: a single's block usually creates them) is taken for it. */
static __thread bool after_single __attribute__((tls_model("initial-exec")));

static void work_begin(ompt_work_t type, const void *codeptr)
{
    after_single = false;
    if (passthrough)
        return;
    if (type == ompt_work_loop || type == ompt_work_sections)
        open_work++;
    omp_cb_work(type, ompt_scope_begin, &some_parallel, NULL, 0, codeptr);
}

static void work_end(ompt_work_t type)
{
    if (passthrough)
        return;
    if (type == ompt_work_loop || type == ompt_work_sections) {
        if (!open_work)
            return;
        open_work--;
    }
    omp_cb_work(type, ompt_scope_end, &some_parallel, NULL, 0, NULL);
}

/* GOMP_loop_*_start of one schedule: the loop region begins (gcc calls the start once per
 * thread and loop; static schedules without ordered compile to inline code: no region) */
#define LOOP_START(name)                                                                           \
    static void *real_##name;                                                                      \
    EXPORT bool name(long start, long end, long incr, long chunk, long *istart, long *iend)        \
    {                                                                                              \
        work_begin(ompt_work_loop, CODEPTR);                                                       \
        return REAL(bool (*)(long, long, long, long, long *, long *), name)(start, end, incr,      \
                                                                            chunk, istart, iend);  \
    }
#define LOOP_START_RUNTIME(name)                                                                   \
    static void *real_##name;                                                                      \
    EXPORT bool name(long start, long end, long incr, long *istart, long *iend)                    \
    {                                                                                              \
        work_begin(ompt_work_loop, CODEPTR);                                                       \
        return REAL(bool (*)(long, long, long, long *, long *), name)(start, end, incr, istart,    \
                                                                      iend);                       \
    }
LOOP_START(GOMP_loop_static_start)
LOOP_START(GOMP_loop_dynamic_start)
LOOP_START(GOMP_loop_guided_start)
LOOP_START(GOMP_loop_nonmonotonic_dynamic_start)
LOOP_START(GOMP_loop_nonmonotonic_guided_start)
LOOP_START(GOMP_loop_ordered_static_start)
LOOP_START(GOMP_loop_ordered_dynamic_start)
LOOP_START(GOMP_loop_ordered_guided_start)
LOOP_START_RUNTIME(GOMP_loop_runtime_start)
LOOP_START_RUNTIME(GOMP_loop_nonmonotonic_runtime_start)
LOOP_START_RUNTIME(GOMP_loop_maybe_nonmonotonic_runtime_start)
LOOP_START_RUNTIME(GOMP_loop_ordered_runtime_start)

/* OpenMP 5 loops (reductions, schedule modifiers): one entry point for all schedules */
#define LOOP_START_GENERIC(name)                                                                   \
    static void *real_##name;                                                                      \
    EXPORT bool name(long start, long end, long incr, long sched, long chunk, long *istart,        \
                     long *iend, uintptr_t *reductions, void **mem)                                \
    {                                                                                              \
        typedef bool (*f)(long, long, long, long, long, long *, long *, uintptr_t *, void **);     \
        work_begin(ompt_work_loop, CODEPTR);                                                       \
        return REAL(f, name)(start, end, incr, sched, chunk, istart, iend, reductions, mem);       \
    }
LOOP_START_GENERIC(GOMP_loop_start)
LOOP_START_GENERIC(GOMP_loop_ordered_start)

/* The same for unsigned long long iteration variables */
typedef unsigned long long ull;
#define LOOP_ULL_START(name)                                                                       \
    static void *real_##name;                                                                      \
    EXPORT bool name(bool up, ull start, ull end, ull incr, ull chunk, ull *istart, ull *iend)     \
    {                                                                                              \
        typedef bool (*f)(bool, ull, ull, ull, ull, ull *, ull *);                                 \
        work_begin(ompt_work_loop, CODEPTR);                                                       \
        return REAL(f, name)(up, start, end, incr, chunk, istart, iend);                           \
    }
#define LOOP_ULL_START_RUNTIME(name)                                                               \
    static void *real_##name;                                                                      \
    EXPORT bool name(bool up, ull start, ull end, ull incr, ull *istart, ull *iend)                \
    {                                                                                              \
        typedef bool (*f)(bool, ull, ull, ull, ull *, ull *);                                      \
        work_begin(ompt_work_loop, CODEPTR);                                                       \
        return REAL(f, name)(up, start, end, incr, istart, iend);                                  \
    }
#define LOOP_ULL_START_GENERIC(name)                                                               \
    static void *real_##name;                                                                      \
    EXPORT bool name(bool up, ull start, ull end, ull incr, long sched, ull chunk, ull *istart,    \
                     ull *iend, uintptr_t *reductions, void **mem)                                 \
    {                                                                                              \
        typedef bool (*f)(bool, ull, ull, ull, long, ull, ull *, ull *, uintptr_t *, void **);     \
        work_begin(ompt_work_loop, CODEPTR);                                                       \
        return REAL(f, name)(up, start, end, incr, sched, chunk, istart, iend, reductions, mem);   \
    }
LOOP_ULL_START(GOMP_loop_ull_static_start)
LOOP_ULL_START(GOMP_loop_ull_dynamic_start)
LOOP_ULL_START(GOMP_loop_ull_guided_start)
LOOP_ULL_START(GOMP_loop_ull_nonmonotonic_dynamic_start)
LOOP_ULL_START(GOMP_loop_ull_nonmonotonic_guided_start)
LOOP_ULL_START(GOMP_loop_ull_ordered_static_start)
LOOP_ULL_START(GOMP_loop_ull_ordered_dynamic_start)
LOOP_ULL_START(GOMP_loop_ull_ordered_guided_start)
LOOP_ULL_START_RUNTIME(GOMP_loop_ull_runtime_start)
LOOP_ULL_START_RUNTIME(GOMP_loop_ull_nonmonotonic_runtime_start)
LOOP_ULL_START_RUNTIME(GOMP_loop_ull_maybe_nonmonotonic_runtime_start)
LOOP_ULL_START_RUNTIME(GOMP_loop_ull_ordered_runtime_start)
LOOP_ULL_START_GENERIC(GOMP_loop_ull_start)
LOOP_ULL_START_GENERIC(GOMP_loop_ull_ordered_start)

/* Doacross loops (ordered(n) with depend(sink/source)): the loop as the others; the waits
 * and posts of `ordered depend` make no region and no event on libomp (14) either. */
#define LOOP_DOACROSS(name, type)                                                                  \
    static void *real_##name;                                                                      \
    EXPORT bool name(unsigned ncounts, type *counts, type chunk, type *istart, type *iend)         \
    {                                                                                              \
        typedef bool (*f)(unsigned, type *, type, type *, type *);                                 \
        work_begin(ompt_work_loop, CODEPTR);                                                       \
        return REAL(f, name)(ncounts, counts, chunk, istart, iend);                                \
    }
#define LOOP_DOACROSS_RUNTIME(name, type)                                                          \
    static void *real_##name;                                                                      \
    EXPORT bool name(unsigned ncounts, type *counts, type *istart, type *iend)                     \
    {                                                                                              \
        typedef bool (*f)(unsigned, type *, type *, type *);                                       \
        work_begin(ompt_work_loop, CODEPTR);                                                       \
        return REAL(f, name)(ncounts, counts, istart, iend);                                       \
    }
#define LOOP_DOACROSS_GENERIC(name, type)                                                          \
    static void *real_##name;                                                                      \
    EXPORT bool name(unsigned ncounts, type *counts, long sched, type chunk, type *istart,         \
                     type *iend, uintptr_t *reductions, void **mem)                                \
    {                                                                                              \
        typedef bool (*f)(unsigned, type *, long, type, type *, type *, uintptr_t *, void **);     \
        work_begin(ompt_work_loop, CODEPTR);                                                       \
        return REAL(f, name)(ncounts, counts, sched, chunk, istart, iend, reductions, mem);        \
    }
LOOP_DOACROSS(GOMP_loop_doacross_static_start, long)
LOOP_DOACROSS(GOMP_loop_doacross_dynamic_start, long)
LOOP_DOACROSS(GOMP_loop_doacross_guided_start, long)
LOOP_DOACROSS_RUNTIME(GOMP_loop_doacross_runtime_start, long)
LOOP_DOACROSS_GENERIC(GOMP_loop_doacross_start, long)
LOOP_DOACROSS(GOMP_loop_ull_doacross_static_start, ull)
LOOP_DOACROSS(GOMP_loop_ull_doacross_dynamic_start, ull)
LOOP_DOACROSS(GOMP_loop_ull_doacross_guided_start, ull)
LOOP_DOACROSS_RUNTIME(GOMP_loop_ull_doacross_runtime_start, ull)
LOOP_DOACROSS_GENERIC(GOMP_loop_ull_doacross_start, ull)

static void *real_GOMP_loop_end, *real_GOMP_loop_end_nowait, *real_GOMP_sections_start,
    *real_GOMP_sections_end, *real_GOMP_sections_end_nowait, *real_GOMP_single_start;

EXPORT void GOMP_loop_end(void)
{
    work_end(ompt_work_loop);
    if (passthrough)
        REAL(void (*)(void), GOMP_loop_end)();
    else
        implicit_barrier(REAL(void (*)(void), GOMP_loop_end), CODEPTR);
}

/* With cancellation: the same ends, returning whether the region was cancelled. */
static void *real_GOMP_loop_end_cancel, *real_GOMP_sections_end_cancel, *real_GOMP_barrier_cancel;
static bool cancel_barrier(bool (*real)(void), const void *codeptr, ompt_sync_region_t kind)
{
    if (passthrough)
        return real();
    omp_cb_sync_region(kind, ompt_scope_begin, &some_parallel, NULL, codeptr);
    bool cancelled = real();
    omp_cb_sync_region(kind, ompt_scope_end, &some_parallel, NULL, codeptr);
    return cancelled;
}

EXPORT bool GOMP_loop_end_cancel(void)
{
    work_end(ompt_work_loop);
    return cancel_barrier(REAL(bool (*)(void), GOMP_loop_end_cancel), CODEPTR,
                          ompt_sync_region_barrier_implicit_workshare);
}

EXPORT bool GOMP_sections_end_cancel(void)
{
    work_end(ompt_work_sections);
    return cancel_barrier(REAL(bool (*)(void), GOMP_sections_end_cancel), CODEPTR,
                          ompt_sync_region_barrier_implicit_workshare);
}

EXPORT bool GOMP_barrier_cancel(void)
{
    after_single = false;
    return cancel_barrier(REAL(bool (*)(void), GOMP_barrier_cancel), CODEPTR,
                          ompt_sync_region_barrier_explicit);
}

EXPORT void GOMP_loop_end_nowait(void)
{
    work_end(ompt_work_loop);
    REAL(void (*)(void), GOMP_loop_end_nowait)();
}

EXPORT unsigned GOMP_sections_start(unsigned count)
{
    work_begin(ompt_work_sections, CODEPTR);
    return REAL(unsigned (*)(unsigned), GOMP_sections_start)(count);
}

EXPORT void GOMP_sections_end(void)
{
    work_end(ompt_work_sections);
    if (passthrough)
        REAL(void (*)(void), GOMP_sections_end)();
    else
        implicit_barrier(REAL(void (*)(void), GOMP_sections_end), CODEPTR);
}

EXPORT void GOMP_sections_end_nowait(void)
{
    work_end(ompt_work_sections);
    REAL(void (*)(void), GOMP_sections_end_nowait)();
}

/* The executing thread's single region ends where the next construct begins (gcc calls
 * nothing at its end), the other threads' at once, as on libomp's GOMP_* layer. */
EXPORT bool GOMP_single_start(void)
{
    const void *codeptr = CODEPTR;
    bool mine = REAL(bool (*)(void), GOMP_single_start)();
    if (passthrough)
        return mine;
    work_begin(mine ? ompt_work_single_executor : ompt_work_single_other, codeptr);
    if (!mine)
        work_end(ompt_work_single_other);
    after_single = true;
    return mine;
}

/* copyprivate: libgomp's GOMP_single_copy_start decides who executes the single and waits
 * for its data in one call, so the waiting is not told apart from the construct. The
 * wrapper runs it as libomp does (kmp_gsupport.cpp): a single (GOMP_single_start), then the
 * others wait at a barrier for the executor's data, which GOMP_single_copy_end publishes
 * before it; both are the construct's implicit barriers, as the GOMP_barrier gcc calls
 * after the copies. Inside a recorded team only (all members alike); else libgomp's. */
static parallel_ctx *copy_team(void)
{
    parallel_ctx *c = passthrough ? NULL : team_ctx;
    return c && c->level == REAL(int (*)(void), omp_get_level)() ? c : NULL;
}

static void *real_GOMP_single_copy_start, *real_GOMP_single_copy_end;
EXPORT void *GOMP_single_copy_start(void)
{
    parallel_ctx *c = copy_team();
    if (!c)
        return REAL(void *(*)(void), GOMP_single_copy_start)();
    const void *codeptr = CODEPTR;
    bool mine = REAL(bool (*)(void), GOMP_single_start)();
    work_begin(mine ? ompt_work_single_executor : ompt_work_single_other, codeptr);
    if (mine)
        return NULL; /* the executor: the block, then GOMP_single_copy_end */
    work_end(ompt_work_single_other);
    implicit_barrier(REAL(void (*)(void), GOMP_barrier), codeptr);
    after_single = true; /* gcc's GOMP_barrier after the copy */
    return __atomic_load_n(&c->copyprivate, __ATOMIC_ACQUIRE);
}

EXPORT void GOMP_single_copy_end(void *data)
{
    parallel_ctx *c = copy_team();
    if (!c) {
        REAL(void (*)(void *), GOMP_single_copy_end)(data);
        return;
    }
    const void *codeptr = CODEPTR;
    work_end(ompt_work_single_executor);
    /* read by the others after this barrier, not written again before the next: all pass
     * gcc's GOMP_barrier after their copy first */
    __atomic_store_n(&c->copyprivate, data, __ATOMIC_RELEASE);
    implicit_barrier(REAL(void (*)(void), GOMP_barrier), codeptr);
    after_single = true;
}

/* ---------------------------------------------------------------- mutexes */
/* critical and ordered as OMPT mutexes: the construct region spans waiting and body, the
 * sblock the body; the release is recorded before libgomp frees the lock, so acquisition
 * orders follow time. One wait id for all unnamed criticals, one per name, one for ordered. */
static char unnamed_critical, ordered_lock;

static void mutex_begin(ompt_mutex_t kind, const void *id, const void *codeptr,
                        void (*real)(void **), void **arg)
{
    after_single = false;
    if (passthrough) {
        real(arg);
        return;
    }
    omp_cb_mutex_acquire(kind, 0, 0, (ompt_wait_id_t)(uintptr_t)id, codeptr);
    real(arg);
    omp_cb_mutex_acquired(kind, (ompt_wait_id_t)(uintptr_t)id, codeptr);
}

static void mutex_end(ompt_mutex_t kind, const void *id, const void *codeptr, void (*real)(void **),
                      void **arg)
{
    if (!passthrough)
        omp_cb_mutex_released(kind, (ompt_wait_id_t)(uintptr_t)id, codeptr);
    real(arg);
}

static void *real_GOMP_critical_start, *real_GOMP_critical_end, *real_GOMP_critical_name_start,
    *real_GOMP_critical_name_end, *real_GOMP_ordered_start, *real_GOMP_ordered_end;
typedef void (*mutex_fn)(void **);

EXPORT void GOMP_critical_start(void)
{
    mutex_begin(ompt_mutex_critical, &unnamed_critical, CODEPTR,
                REAL(mutex_fn, GOMP_critical_start), NULL);
}

EXPORT void GOMP_critical_end(void)
{
    mutex_end(ompt_mutex_critical, &unnamed_critical, CODEPTR, REAL(mutex_fn, GOMP_critical_end),
              NULL);
}

EXPORT void GOMP_critical_name_start(void **name)
{
    mutex_begin(ompt_mutex_critical, name, CODEPTR, REAL(mutex_fn, GOMP_critical_name_start), name);
}

EXPORT void GOMP_critical_name_end(void **name)
{
    mutex_end(ompt_mutex_critical, name, CODEPTR, REAL(mutex_fn, GOMP_critical_name_end), name);
}

EXPORT void GOMP_ordered_start(void)
{
    mutex_begin(ompt_mutex_ordered, &ordered_lock, CODEPTR, REAL(mutex_fn, GOMP_ordered_start),
                NULL);
}

EXPORT void GOMP_ordered_end(void)
{
    mutex_end(ompt_mutex_ordered, &ordered_lock, CODEPTR, REAL(mutex_fn, GOMP_ordered_end), NULL);
}

/* ---------------------------------------------------------------- barriers */
EXPORT void GOMP_barrier(void)
{
    void (*real)(void) = REAL(void (*)(void), GOMP_barrier);
    if (passthrough) {
        real();
        return;
    }
    const void *codeptr = CODEPTR;
    if (after_single) { /* the single's closing barrier */
        after_single = false;
        implicit_barrier(real, codeptr);
        return;
    }
    omp_cb_sync_region(ompt_sync_region_barrier_explicit, ompt_scope_begin, &some_parallel, NULL,
                       codeptr);
    real();
    omp_cb_sync_region(ompt_sync_region_barrier_explicit, ompt_scope_end, &some_parallel, NULL,
                       codeptr);
}

EXPORT void GOMP_taskwait(void)
{
    void (*real)(void) = REAL(void (*)(void), GOMP_taskwait);
    if (passthrough) {
        real();
        return;
    }
    const void *codeptr = CODEPTR;
    omp_cb_sync_region(ompt_sync_region_taskwait, ompt_scope_begin, &some_parallel, NULL, codeptr);
    real();
    omp_cb_sync_region(ompt_sync_region_taskwait, ompt_scope_end, &some_parallel, NULL, codeptr);
}

/* taskgroup: the region spans the construct, from its start to the end of the wait for its
 * tasks, as libomp reports it (sync region taskgroup from __kmpc_taskgroup to the end of
 * __kmpc_end_taskgroup). */
static void *real_GOMP_taskgroup_end;
EXPORT void GOMP_taskgroup_start(void)
{
    if (!passthrough)
        omp_cb_sync_region(ompt_sync_region_taskgroup, ompt_scope_begin, &some_parallel, NULL,
                           CODEPTR);
    REAL(void (*)(void), GOMP_taskgroup_start)();
}

EXPORT void GOMP_taskgroup_end(void)
{
    REAL(void (*)(void), GOMP_taskgroup_end)();
    if (!passthrough)
        omp_cb_sync_region(ompt_sync_region_taskgroup, ompt_scope_end, &some_parallel, NULL,
                           CODEPTR);
}

/* -------------------------------------------------------------------- tasks */
/* A recorded task's argument block, as libgomp copies it into the task: this header, then
 * the compiler's block at offset `offset` (a multiple of its alignment). libgomp calls
 * task_copy to fill it (always: the compiler's block may need its copy function). libgomp
 * writes into the block it is given as if it were the compiler's: a detachable task's event
 * handle into its first word, a taskloop task's iterations into its first two; a taskloop
 * with reductions has its first two words and the pointer of its reductions in the third
 * read there: those words lead the header. */
typedef struct {
    alignas(16) unsigned long long words[2]; /* the event; a taskloop task's iterations */
    void *reductions;                        /* a taskloop's: the compiler block's third word */
    void (*fn)(void *);
    void (*cpyfn)(void *, void *);
    void *data; /* the compiler's block (valid while GOMP_task runs, when copies are made) */
    long size;
    long offset;
    ompt_data_t task; /* .ptr: the adapter's omp_task */
    int create_flags; /* a taskloop's tasks: created where libgomp copies them (0: recorded) */
    bool final;
    bool detach;
} task_head;

#define TASK_ALIGN(a) ((a) > (long)alignof(task_head) ? (a) : (long)alignof(task_head))

/* Tasks inside a final task are included (run at once, undeferred): not recorded. */
static __thread unsigned final_depth __attribute__((tls_model("initial-exec")));

/* The code pointer of a taskloop's regions and tasks: none, as LLVM's libomp (14) reports them
 * (for clang's code and gcc's), so that both name the same regions. */
#define TASKLOOP_CODEPTR NULL

static void task_copy(void *dst, void *src)
{
    task_head *h = src, *d = dst;
    if (h->detach && h->data) /* where libgomp puts the event for the task's copy */
        memcpy(h->data, h->words, sizeof(void *));
    memcpy(d, h, sizeof *h);
    char *arg = (char *)dst + h->offset;
    if (h->cpyfn)
        h->cpyfn(arg, h->data);
    else
        memcpy(arg, h->data, (size_t)h->size);
    if (h->create_flags) /* a taskloop's task, created as libomp reports them: one by one */
        omp_cb_task_create(NULL, NULL, &d->task, h->create_flags, 0, TASKLOOP_CODEPTR);
}

static void task_run(void *p)
{
    task_head *h = p;
    char *arg = (char *)p + h->offset;
    if (h->create_flags) /* the iterations libgomp gave this task */
        memcpy(arg, h->words, sizeof h->words);
    omp_cb_task_schedule(NULL, ompt_task_switch, &h->task);
    final_depth += h->final;
    h->fn(arg);
    final_depth -= h->final;
    omp_cb_task_schedule(&h->task, ompt_task_complete, NULL);
}

/* The depend items of a recorded task, from libgomp's depend array (task.c,
 * gomp_task_handle_depend): depend[0] = n items, depend[1] = how many of them (first) are
 * out/inout, the addresses from depend[2]; or depend[0] = 0 and depend[1..4] = n, out/inout,
 * mutexinoutset, in, the addresses from depend[5] in that order, then depobj items (a pointer
 * to {address, type}). out and inout are one group there, reported inout as libomp reports
 * them; passed to the adapter in chunks (no allocation). */
static void task_depends(ompt_data_t *task, void **depend)
{
    uintptr_t n = (uintptr_t)depend[0], nout, nmutex = 0, nin, first = 2;
    if (n) {
        nout = (uintptr_t)depend[1];
        nin = n - nout;
    } else {
        n = (uintptr_t)depend[1];
        nout = (uintptr_t)depend[2];
        nmutex = (uintptr_t)depend[3];
        nin = (uintptr_t)depend[4];
        first = 5;
    }
    ompt_dependence_t chunk[64];
    int k = 0;
    for (uintptr_t i = 0; i < n; i++) {
        void *addr = depend[first + i];
        ompt_dependence_type_t type = ompt_dependence_type_in;
        if (i < nout)
            type = ompt_dependence_type_inout;
        else if (i < nout + nmutex)
            type = ompt_dependence_type_mutexinoutset;
        else if (i >= nout + nmutex + nin) /* depobj: {address, type}; its type as other */
            addr = ((void **)addr)[0], type = (ompt_dependence_type_t)0;
        chunk[k].variable.ptr = addr;
        chunk[k].dependence_type = type;
        if (++k == 64 || i + 1 == n) {
            omp_cb_dependences(task, chunk, k);
            k = 0;
        }
    }
}

/* Whether libgomp drops the tasks and taskloops this thread creates now: its taskgroup or
 * parallel region is cancelled (the same test as GOMP_task's and GOMP_taskloop's). */
static bool cancelled(int which)
{
    return __atomic_load_n(&cancellation, __ATOMIC_RELAXED) &&
           REAL(bool (*)(int), GOMP_cancellation_point)(which);
}

/* The taskloop's beginning: its group and region, and the header of its tasks (create_flags
 * 0: its tasks are undeferred, not recorded); *lflags: the flags to pass libgomp. False: the
 * taskloop is not recorded. */
static bool taskloop_begin(task_head *h, void (*fn)(void *), void *data,
                           void (*cpyfn)(void *, void *), long arg_size, long arg_align,
                           unsigned *lflags, const void *codeptr)
{
    unsigned flags = *lflags;
    if (passthrough || !omp_thread_get() || cancelled(GOMP_CANCEL_TASKGROUP))
        return false;
    if (!(flags & TASK_NOGROUP)) {
        omp_cb_sync_region(ompt_sync_region_taskgroup, ompt_scope_begin, &some_parallel, NULL,
                           codeptr);
        if (!(flags & TASK_REDUCTION)) {
            REAL(void (*)(void), GOMP_taskgroup_start)();
            *lflags |= TASK_NOGROUP;
        }
    }
    omp_cb_work(ompt_work_taskloop, ompt_scope_begin, &some_parallel, NULL, 0, TASKLOOP_CODEPTR);
    h->create_flags = 0;
    if (!(flags & TASK_IF) || final_depth) /* undeferred: run in place, not recorded */
        return true;
    long align = TASK_ALIGN(arg_align);
    h->reductions = arg_size >= 3 * (long)sizeof(void *) ? ((void **)data)[2] : NULL;
    h->fn = fn;
    h->cpyfn = cpyfn;
    h->data = data;
    h->size = arg_size;
    h->offset = ((long)sizeof *h + align - 1) / align * align;
    h->create_flags = ompt_task_explicit | (flags & TASK_UNTIED ? ompt_task_untied : 0);
    h->final = (flags & TASK_FINAL) != 0;
    h->detach = false;
    return true;
}

static void taskloop_end(unsigned flags, const void *codeptr)
{
    omp_cb_work(ompt_work_taskloop, ompt_scope_end, &some_parallel, NULL, 0, TASKLOOP_CODEPTR);
    if (flags & TASK_NOGROUP)
        return;
    if (!(flags & TASK_REDUCTION))
        REAL(void (*)(void), GOMP_taskgroup_end)();
    omp_cb_sync_region(ompt_sync_region_taskgroup, ompt_scope_end, &some_parallel, NULL, codeptr);
}

EXPORT void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,
                      long arg_align, bool if_clause, unsigned flags, void **depend, int priority,
                      void *detach)
{
    typedef void (*task_fn)(void (*)(void *), void *, void (*)(void *, void *), long, long, bool,
                            unsigned, void **, int, void *);
    task_fn real = REAL(task_fn, GOMP_task);
    /* undeferred tasks (if(0), inside a final task) run as the compiler made them; so does a
     * task libgomp drops at once, its parallel region or taskgroup cancelled */
    if (passthrough || !if_clause || final_depth || cancelled(GOMP_CANCEL_TASKGROUP)) {
        real(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend, priority, detach);
        return;
    }
    task_head h;
    omp_cb_task_create(NULL, NULL, &h.task,
                       ompt_task_explicit | (flags & TASK_UNTIED ? ompt_task_untied : 0), 0,
                       OUTLINED(fn));
    if (!h.task.ptr) { /* outside parallel regions, or the measurement is off */
        real(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend, priority, detach);
        return;
    }
    if ((flags & TASK_DEPEND) && depend)
        task_depends(&h.task, depend);
    long align = TASK_ALIGN(arg_align);
    h.fn = fn;
    h.cpyfn = cpyfn;
    h.data = data;
    h.size = arg_size;
    h.offset = ((long)sizeof h + align - 1) / align * align;
    h.create_flags = 0;
    h.final = (flags & TASK_FINAL) != 0;
    h.detach = (flags & TASK_DETACH) != 0;
    real(task_run, &h, task_copy, h.offset + arg_size, align, if_clause, flags, depend, priority,
         detach);
}

/* taskloop, as libomp reports it: the taskgroup around it (unless nogroup) spans the wait at
 * its end, the taskloop region the creation of its tasks (ThreadTaskCreate each), which run
 * as other tasks. libgomp runs the group inside GOMP_taskloop: the wrapper asks it for none
 * (nogroup) and runs it itself, around the construct, so the creation ends before the wait;
 * not with reductions, whose group libgomp sets up (then the taskloop region spans the wait). */
#define TASKLOOP(name, type)                                                                       \
    static void *real_##name;                                                                      \
    EXPORT void name(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size, \
                     long arg_align, unsigned flags, unsigned long num_tasks, int priority,        \
                     type start, type end, type step)                                              \
    {                                                                                              \
        typedef void (*f)(void (*)(void *), void *, void (*)(void *, void *), long, long,          \
                          unsigned, unsigned long, int, type, type, type);                         \
        f real = REAL(f, name);                                                                    \
        task_head h;                                                                               \
        unsigned lflags = flags;                                                                   \
        bool recorded =                                                                            \
            taskloop_begin(&h, fn, data, cpyfn, arg_size, arg_align, &lflags, CODEPTR);            \
        if (!recorded)                                                                             \
            real(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks, priority, start, end,     \
                 step);                                                                            \
        else if (h.create_flags)                                                                   \
            real(task_run, &h, task_copy, h.offset + arg_size, TASK_ALIGN(arg_align), lflags,      \
                 num_tasks, priority, start, end, step);                                           \
        else                                                                                       \
            real(fn, data, cpyfn, arg_size, arg_align, lflags, num_tasks, priority, start, end,    \
                 step);                                                                            \
        if (recorded)                                                                              \
            taskloop_end(flags, CODEPTR);                                                          \
    }
TASKLOOP(GOMP_taskloop, long)
TASKLOOP(GOMP_taskloop_ull, unsigned long long)

/* ------------------------------------------------------------ the lock API */
/* omp_*_lock of libgomp, as OMPT reports them: omp_set_lock spans the wait, the acquisition
 * and release are lock events, a nest lock's inner acquisitions and releases are regions
 * only. The nest locks this thread holds, with their depth, are kept here (a few; more are
 * not recorded): whether a set or unset is the outermost one. */
typedef struct {
    const void *lock;
    int depth;
} nest_held;
enum { NEST_MAX = 16 };
static __thread nest_held nests[NEST_MAX] __attribute__((tls_model("initial-exec")));

static nest_held *nest_find(const void *lock)
{
    for (int i = 0; i < NEST_MAX; i++)
        if (nests[i].lock == lock && nests[i].depth > 0)
            return &nests[i];
    return NULL;
}

static nest_held *nest_free_slot(void)
{
    for (int i = 0; i < NEST_MAX; i++)
        if (nests[i].depth == 0)
            return &nests[i];
    return NULL;
}

#define WAIT_ID(p) ((ompt_wait_id_t)(uintptr_t)(p))
typedef void (*lock_fn)(void *);
typedef int (*test_fn)(void *);
static void *real_omp_set_lock, *real_omp_unset_lock, *real_omp_test_lock, *real_omp_set_nest_lock,
    *real_omp_unset_nest_lock, *real_omp_test_nest_lock;
/* gfortran's entry points (omp_lib): libgomp's Fortran routines call its C ones inside
 * libgomp, past the wrappers above, so they are wrapped too. Their argument is the address
 * of the program's integer(omp_lock_kind) variable (the lock itself, or a pointer to it for
 * nest locks): the lock's id here, the same at every call for the same variable. */
static void *real_omp_set_lock_, *real_omp_unset_lock_, *real_omp_test_lock_,
    *real_omp_set_nest_lock_, *real_omp_unset_nest_lock_, *real_omp_test_nest_lock_;

/* The wrappers' bodies, for the C and the Fortran entry points: `real` is the wrapped one,
 * `codeptr` the caller's return address. */
static inline __attribute__((always_inline)) void set_lock(void *lock, const void *codeptr,
                                                           lock_fn real)
{
    if (passthrough) {
        real(lock);
        return;
    }
    omp_lock_set_begin(ompt_mutex_lock);
    real(lock);
    omp_cb_mutex_acquired(ompt_mutex_lock, WAIT_ID(lock), codeptr);
}

static inline __attribute__((always_inline)) void unset_lock(void *lock, const void *codeptr,
                                                             lock_fn real)
{
    if (!passthrough)
        omp_cb_mutex_released(ompt_mutex_lock, WAIT_ID(lock), codeptr);
    real(lock);
}

static inline __attribute__((always_inline)) int test_lock(void *lock, const void *codeptr,
                                                           test_fn real)
{
    if (!passthrough) /* the test's start: its region's, should it get the lock */
        omp_cb_mutex_acquire(ompt_mutex_test_lock, 0, 0, WAIT_ID(lock), codeptr);
    int got = real(lock);
    if (got && !passthrough)
        omp_cb_mutex_acquired(ompt_mutex_test_lock, WAIT_ID(lock), codeptr);
    return got;
}

static inline __attribute__((always_inline)) void set_nest_lock(void *lock, const void *codeptr,
                                                                lock_fn real)
{
    nest_held *h = passthrough ? NULL : nest_find(lock);
    if (passthrough || (!h && !(h = nest_free_slot()))) {
        real(lock);
        return;
    }
    omp_lock_set_begin(ompt_mutex_nest_lock);
    real(lock);
    if (h->depth++ > 0) { /* held already: no acquisition */
        omp_cb_nest_lock(ompt_scope_begin, WAIT_ID(lock), codeptr);
        return;
    }
    h->lock = lock;
    omp_cb_mutex_acquired(ompt_mutex_nest_lock, WAIT_ID(lock), codeptr);
}

static inline __attribute__((always_inline)) void unset_nest_lock(void *lock, const void *codeptr,
                                                                  lock_fn real)
{
    nest_held *h = passthrough ? NULL : nest_find(lock);
    if (h && --h->depth > 0)
        omp_cb_nest_lock(ompt_scope_end, WAIT_ID(lock), codeptr);
    else if (h)
        omp_cb_mutex_released(ompt_mutex_nest_lock, WAIT_ID(lock), codeptr);
    real(lock);
}

static inline __attribute__((always_inline)) int test_nest_lock(void *lock, const void *codeptr,
                                                                test_fn real)
{
    if (!passthrough)
        omp_cb_mutex_acquire(ompt_mutex_test_nest_lock, 0, 0, WAIT_ID(lock), codeptr);
    int depth = real(lock);
    nest_held *h = passthrough || depth == 0 ? NULL : nest_find(lock);
    if (passthrough || depth == 0 || (!h && !(h = nest_free_slot())))
        return depth;
    if (h->depth++ > 0) {
        omp_cb_nest_lock(ompt_scope_begin, WAIT_ID(lock), codeptr);
    } else {
        h->lock = lock;
        omp_cb_mutex_acquired(ompt_mutex_test_nest_lock, WAIT_ID(lock), codeptr);
    }
    return depth;
}

#define LOCK_WRAPPERS(name, type, ret)                                                            \
    EXPORT type omp_##name(void *lock)                                                            \
    {                                                                                             \
        ret name(lock, CODEPTR, REAL(name##_fn_t, omp_##name));                                   \
    }                                                                                             \
    EXPORT type omp_##name##_(void *lock)                                                         \
    {                                                                                             \
        ret name(lock, CODEPTR, REAL(name##_fn_t, omp_##name##_));                                \
    }
typedef lock_fn set_lock_fn_t, unset_lock_fn_t, set_nest_lock_fn_t, unset_nest_lock_fn_t;
typedef test_fn test_lock_fn_t, test_nest_lock_fn_t;
EXPORT void omp_set_lock(void *lock);
EXPORT void omp_set_lock_(void *lock);
EXPORT void omp_unset_lock(void *lock);
EXPORT void omp_unset_lock_(void *lock);
EXPORT int omp_test_lock(void *lock);
EXPORT int omp_test_lock_(void *lock);
EXPORT void omp_set_nest_lock(void *lock);
EXPORT void omp_set_nest_lock_(void *lock);
EXPORT void omp_unset_nest_lock(void *lock);
EXPORT void omp_unset_nest_lock_(void *lock);
EXPORT int omp_test_nest_lock(void *lock);
EXPORT int omp_test_nest_lock_(void *lock);
LOCK_WRAPPERS(set_lock, void, )
LOCK_WRAPPERS(unset_lock, void, )
LOCK_WRAPPERS(test_lock, int, return)
LOCK_WRAPPERS(set_nest_lock, void, )
LOCK_WRAPPERS(unset_nest_lock, void, )
LOCK_WRAPPERS(test_nest_lock, int, return)

/* Initialisation and destruction, as libomp reports them (no duration: omp_cb_lock_init and
 * omp_cb_lock_destroy): recorded once the lock exists and before it is gone. libgomp of
 * GCC 12 has no omp_init_lock_with_hint (a program calling it does not link), so there is
 * nothing to wrap; its Fortran routines that take the address of the program's variable are
 * wrapped as the ones above. */
static void *real_omp_init_lock, *real_omp_destroy_lock, *real_omp_init_nest_lock,
    *real_omp_destroy_nest_lock, *real_omp_init_lock_, *real_omp_destroy_lock_,
    *real_omp_init_nest_lock_, *real_omp_destroy_nest_lock_;

/* init after the real call (the lock exists), destroy before it (it still exists) */
static inline __attribute__((always_inline)) void init_any(ompt_mutex_t kind, void *lock,
                                                           const void *codeptr, lock_fn real)
{
    real(lock);
    if (!passthrough)
        omp_cb_lock_init(kind, 0, 0, WAIT_ID(lock), codeptr);
}

static inline __attribute__((always_inline)) void destroy_any(ompt_mutex_t kind, void *lock,
                                                              const void *codeptr, lock_fn real)
{
    if (!passthrough)
        omp_cb_lock_destroy(kind, WAIT_ID(lock), codeptr);
    real(lock);
}

#define LOCK_LIFETIME(name, how, kind)                                                             \
    static inline __attribute__((always_inline)) void name(void *lock, const void *codeptr,     \
                                                           lock_fn real)                         \
    {                                                                                              \
        how(kind, lock, codeptr, real);                                                            \
    }
LOCK_LIFETIME(init_lock, init_any, ompt_mutex_lock)
LOCK_LIFETIME(destroy_lock, destroy_any, ompt_mutex_lock)
LOCK_LIFETIME(init_nest_lock, init_any, ompt_mutex_nest_lock)
LOCK_LIFETIME(destroy_nest_lock, destroy_any, ompt_mutex_nest_lock)

typedef lock_fn init_lock_fn_t, destroy_lock_fn_t, init_nest_lock_fn_t, destroy_nest_lock_fn_t;
EXPORT void omp_init_lock(void *lock);
EXPORT void omp_init_lock_(void *lock);
EXPORT void omp_destroy_lock(void *lock);
EXPORT void omp_destroy_lock_(void *lock);
EXPORT void omp_init_nest_lock(void *lock);
EXPORT void omp_init_nest_lock_(void *lock);
EXPORT void omp_destroy_nest_lock(void *lock);
EXPORT void omp_destroy_nest_lock_(void *lock);
LOCK_WRAPPERS(init_lock, void, )
LOCK_WRAPPERS(destroy_lock, void, )
LOCK_WRAPPERS(init_nest_lock, void, )
LOCK_WRAPPERS(destroy_nest_lock, void, )

/* ------------------------------------------------------------------ target */
/* Target constructs as libscorep-rt-omptarget records clang's on the encountering thread: a
 * region around the call (`!$omp target`, the data constructs too), named after the call's
 * return address: the pragma's line, as clang's. (The outlined function's entry names the
 * first line of the body where the optimizer left no prologue at the pragma's line: a body
 * `{ #pragma omp parallel ... }` at -O1 got the parallel construct's line.) A `target data`
 * region is its two ends, as OMPT reports it: enter data at its start, exit data (with the
 * start's code pointer) at its end. With no offload device libgomp runs the target region on
 * the calling thread (host fallback): no device location, no transfers; with nowait the
 * region is the creation of libgomp's target task. */
static omp_thread *target_begin(omp_region_kind kind, const void *codeptr)
{
    omp_thread *t = passthrough ? NULL : omp_thread_get();
    if (t)
        omp_enter(t, omp_region(kind, codeptr), TAG_NONE, scorep_timer_ticks());
    return t;
}

static void target_end(omp_thread *t)
{
    if (t)
        omp_leave(t, scorep_timer_ticks());
}

/* gomp-constants.h */
enum { TARGET_FLAG_EXIT_DATA = 1 << 1 };

static void *real_GOMP_target_ext, *real_GOMP_target_data_ext, *real_GOMP_target_end_data,
    *real_GOMP_target_update_ext, *real_GOMP_target_enter_exit_data;

EXPORT void GOMP_target_ext(int device, void (*fn)(void *), size_t mapnum, void **hostaddrs,
                            size_t *sizes, unsigned short *kinds, unsigned int flags, void **depend,
                            void **args)
{
    typedef void (*f)(int, void (*)(void *), size_t, void **, size_t *, unsigned short *,
                      unsigned int, void **, void **);
    omp_thread *t = target_begin(OMP_R_TARGET, CODEPTR);
    REAL(f, GOMP_target_ext)(device, fn, mapnum, hostaddrs, sizes, kinds, flags, depend, args);
    target_end(t);
}

/* The code pointers of the target data regions this thread is in (their exit data's). */
enum { DATA_MAX = 16 };
static __thread const void *data_sites[DATA_MAX] __attribute__((tls_model("initial-exec")));
static __thread unsigned data_depth __attribute__((tls_model("initial-exec")));

EXPORT void GOMP_target_data_ext(int device, size_t mapnum, void **hostaddrs, size_t *sizes,
                                 unsigned short *kinds)
{
    typedef void (*f)(int, size_t, void **, size_t *, unsigned short *);
    const void *codeptr = CODEPTR;
    if (data_depth < DATA_MAX)
        data_sites[data_depth] = codeptr;
    data_depth++;
    omp_thread *t = target_begin(OMP_R_TARGET_ENTER_DATA, codeptr);
    REAL(f, GOMP_target_data_ext)(device, mapnum, hostaddrs, sizes, kinds);
    target_end(t);
}

EXPORT void GOMP_target_end_data(void)
{
    const void *codeptr = CODEPTR; /* deeper than DATA_MAX: its own */
    if (data_depth > 0 && --data_depth < DATA_MAX)
        codeptr = data_sites[data_depth];
    omp_thread *t = target_begin(OMP_R_TARGET_EXIT_DATA, codeptr);
    REAL(void (*)(void), GOMP_target_end_data)();
    target_end(t);
}

EXPORT void GOMP_target_update_ext(int device, size_t mapnum, void **hostaddrs, size_t *sizes,
                                   unsigned short *kinds, unsigned int flags, void **depend)
{
    typedef void (*f)(int, size_t, void **, size_t *, unsigned short *, unsigned int, void **);
    omp_thread *t = target_begin(OMP_R_TARGET_UPDATE, CODEPTR);
    REAL(f, GOMP_target_update_ext)(device, mapnum, hostaddrs, sizes, kinds, flags, depend);
    target_end(t);
}

EXPORT void GOMP_target_enter_exit_data(int device, size_t mapnum, void **hostaddrs, size_t *sizes,
                                        unsigned short *kinds, unsigned int flags, void **depend)
{
    typedef void (*f)(int, size_t, void **, size_t *, unsigned short *, unsigned int, void **);
    omp_thread *t = target_begin(
        flags & TARGET_FLAG_EXIT_DATA ? OMP_R_TARGET_EXIT_DATA : OMP_R_TARGET_ENTER_DATA, CODEPTR);
    REAL(f, GOMP_target_enter_exit_data)(device, mapnum, hostaddrs, sizes, kinds, flags, depend);
    target_end(t);
}

/* ------------------------------------------------------------------- set-up */
/* The OMPT adapter's warning that libgomp records nothing looks for this symbol. */
EXPORT const int scorep_gomp_wrappers = 1;

__attribute__((constructor)) static void gomp_wrap_init(void)
{
    passthrough = dlsym(RTLD_DEFAULT, "__kmpc_fork_call") != NULL || !scorep_runtime_init();
    if (passthrough)
        return;
    dl_iterate_phdr(find_own_text, NULL);
    /* resolved before the first parallel region, not inside a team */
    REAL(void *, GOMP_parallel);
    REAL(void *, GOMP_task);
    REAL(void *, GOMP_taskwait);
    REAL(void *, GOMP_barrier);
    REAL(void *, omp_get_thread_num);
    REAL(void *, omp_get_num_threads);
    REAL(void *, omp_get_max_threads);
    REAL(void *, omp_get_cancellation);
    REAL(void *, omp_get_level);
    scorep_verbose("OpenMP: recording GNU libgomp through its GOMP_* entry points");
}
