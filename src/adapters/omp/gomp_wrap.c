/* gomp_wrap.c: OpenMP of gcc programs on GNU libgomp (no OMPT there): libscorep-rt-gomp
 * defines libgomp's GOMP_* entry points, linked ahead of libgomp by scorep-cc or preloaded by
 * scorep-run, records each construct by calling the OMPT adapter's callbacks as LLVM's libomp
 * would (same events, same regions: the code pointer is the call's return address, as
 * OMPT's codeptr_ra) and calls libgomp's function (dlsym RTLD_NEXT). docs/openmp.md. */
#include "adapters/omp/omp_adapter.h"
#include "runtime/runtime.h"

#include <dlfcn.h>
#include <stdalign.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))
#define CODEPTR __builtin_return_address(0)
/* The code pointer of a construct gcc outlines (parallel, task): one byte into the outlined
 * function, which the adapter names after the line of its address minus one, the function's
 * entry: the construct's line. The call's return address has the line of an earlier
 * statement in gcc's line tables (the outlined function's is the pragma's, as clang's
 * code pointers have it). Never a return address: a call instruction is longer than 1 byte. */
#define OUTLINED(fn) ((const void *)((const char *)(fn) + 1))

/* libgomp's flags of GOMP_task (gomp-constants.h) */
enum { TASK_UNTIED = 1 << 0, TASK_FINAL = 1 << 1, TASK_DETACH = 1 << 13 };

/* On LLVM's libomp (it has GOMP_* too) the OMPT tool records: every wrapper passes through. */
static bool passthrough;
/* A non-NULL parallel data for the end of an implicit barrier that is not a team's
 * closing one (omp_cb_sync_region tells them apart by a NULL parallel data). */
static ompt_data_t some_parallel;

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
    *real_omp_get_thread_num, *real_omp_get_num_threads, *real_omp_get_max_threads;

/* ------------------------------------------------------------------ parallel */
typedef struct {
    void (*fn)(void *);
    void *data;
    ompt_data_t parallel;
    const void *codeptr;
} parallel_ctx;

/* Runs on every member of the team: its implicit task, then the closing barrier's begin;
 * the barrier's and implicit task's ends are written when the team has joined (by the
 * master for its workers, as with libomp: omp_parallel.c). */
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
    c->fn(c->data);
    omp_cb_sync_region(ompt_sync_region_barrier_implicit_parallel, ompt_scope_begin, &c->parallel,
                       NULL, c->codeptr);
}

EXPORT void GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags)
{
    typedef void (*parallel_fn)(void (*)(void *), void *, unsigned, unsigned);
    parallel_fn real = REAL(parallel_fn, GOMP_parallel);
    if (passthrough || !omp_thread_get()) {
        real(fn, data, num_threads, flags);
        return;
    }
    parallel_ctx c = {fn, data, {0}, OUTLINED(fn)};
    /* requested: as libomp reports it, the team size asked for (nthreads-var by default) */
    unsigned requested =
        num_threads ? num_threads : (unsigned)REAL(int (*)(void), omp_get_max_threads)();
    omp_cb_parallel_begin(NULL, NULL, &c.parallel, requested, ompt_parallel_team, c.codeptr);
    if (!c.parallel.ptr) { /* out of memory: not recorded */
        real(fn, data, num_threads, flags);
        return;
    }
    real(parallel_member, &c, num_threads, flags);
    omp_cb_sync_region(ompt_sync_region_barrier_implicit_parallel, ompt_scope_end, NULL, NULL,
                       c.codeptr);
    omp_cb_implicit_task(ompt_scope_end, NULL, NULL, 0, 0, ompt_task_implicit);
    omp_cb_parallel_end(&c.parallel, NULL, ompt_parallel_team, c.codeptr);
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

/* -------------------------------------------------------------------- tasks */
/* A recorded task's argument block, as libgomp copies it into the task: this header, then
 * the compiler's block at offset `offset` (a multiple of its alignment). libgomp calls
 * task_copy to fill it (always: the compiler's block may need its copy function). */
typedef struct {
    alignas(16) void (*fn)(void *);
    void (*cpyfn)(void *, void *);
    void *data; /* the compiler's block (valid while GOMP_task runs, when copies are made) */
    long size;
    long offset;
    ompt_data_t task; /* .ptr: the adapter's omp_task */
    bool final;
} task_head;

/* Tasks inside a final task are included (run at once, undeferred): not recorded. */
static __thread unsigned final_depth __attribute__((tls_model("initial-exec")));

static void task_copy(void *dst, void *src)
{
    const task_head *h = src;
    memcpy(dst, h, sizeof *h);
    char *arg = (char *)dst + h->offset;
    if (h->cpyfn)
        h->cpyfn(arg, h->data);
    else
        memcpy(arg, h->data, (size_t)h->size);
}

static void task_run(void *p)
{
    task_head *h = p;
    omp_cb_task_schedule(NULL, ompt_task_switch, &h->task);
    final_depth += h->final;
    h->fn((char *)p + h->offset);
    final_depth -= h->final;
    omp_cb_task_schedule(&h->task, ompt_task_complete, NULL);
}

EXPORT void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,
                      long arg_align, bool if_clause, unsigned flags, void **depend, int priority,
                      void *detach)
{
    typedef void (*task_fn)(void (*)(void *), void *, void (*)(void *, void *), long, long, bool,
                            unsigned, void **, int, void *);
    task_fn real = REAL(task_fn, GOMP_task);
    /* undeferred (if(0), inside a final task) and detachable tasks (libgomp writes the event
     * handle into the first word of the block) run as the compiler made them */
    if (passthrough || !if_clause || final_depth || (flags & TASK_DETACH)) {
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
    long align = arg_align > (long)alignof(task_head) ? arg_align : (long)alignof(task_head);
    h.fn = fn;
    h.cpyfn = cpyfn;
    h.data = data;
    h.size = arg_size;
    h.offset = ((long)sizeof h + align - 1) / align * align;
    h.final = (flags & TASK_FINAL) != 0;
    real(task_run, &h, task_copy, h.offset + arg_size, align, if_clause, flags, depend, priority,
         detach);
}

/* ------------------------------------------------------------------- set-up */
/* The OMPT adapter's warning that libgomp records nothing looks for this symbol. */
EXPORT const int scorep_gomp_wrappers = 1;

__attribute__((constructor)) static void gomp_wrap_init(void)
{
    passthrough = dlsym(RTLD_DEFAULT, "__kmpc_fork_call") != NULL || !scorep_runtime_init();
    if (passthrough)
        return;
    /* resolved before the first parallel region, not inside a team */
    REAL(void *, GOMP_parallel);
    REAL(void *, GOMP_task);
    REAL(void *, GOMP_taskwait);
    REAL(void *, GOMP_barrier);
    REAL(void *, omp_get_thread_num);
    REAL(void *, omp_get_num_threads);
    REAL(void *, omp_get_max_threads);
    scorep_verbose("OpenMP: recording GNU libgomp through its GOMP_* entry points");
}
