/* SPDX-License-Identifier: BSD-3-Clause */
/* ompt_empty_tool.c: the floor of OMPT measurement for run_omp_bench.sh: an OMPT tool
 * (preloaded) that registers the callbacks scorep-rt's adapter registers (ompt_tool.c), each
 * with an empty body, so the runtime pays for calling them and nothing else. Built with
 * -I<omp-tools.h directory>. */
#include <omp-tools.h>
#include <stddef.h>

static void cb_thread_begin(ompt_thread_t t, ompt_data_t *d)
{
    (void)t;
    (void)d;
}
static void cb_parallel_begin(ompt_data_t *e, const ompt_frame_t *f, ompt_data_t *p, unsigned r,
                              int fl, const void *c)
{
    (void)e, (void)f, (void)p, (void)r, (void)fl, (void)c;
}
static void cb_parallel_end(ompt_data_t *p, ompt_data_t *e, int f, const void *c)
{
    (void)p, (void)e, (void)f, (void)c;
}
static void cb_implicit_task(ompt_scope_endpoint_t ep, ompt_data_t *p, ompt_data_t *t, unsigned a,
                             unsigned i, int f)
{
    (void)ep, (void)p, (void)t, (void)a, (void)i, (void)f;
}
static void cb_task_create(ompt_data_t *e, const ompt_frame_t *f, ompt_data_t *n, int fl, int d,
                           const void *c)
{
    (void)e, (void)f, (void)n, (void)fl, (void)d, (void)c;
}
static void cb_task_schedule(ompt_data_t *p, ompt_task_status_t s, ompt_data_t *n)
{
    (void)p, (void)s, (void)n;
}
static void cb_dependences(ompt_data_t *t, const ompt_dependence_t *d, int n)
{
    (void)t, (void)d, (void)n;
}
static void cb_sync_region(ompt_sync_region_t k, ompt_scope_endpoint_t ep, ompt_data_t *p,
                           ompt_data_t *t, const void *c)
{
    (void)k, (void)ep, (void)p, (void)t, (void)c;
}
static void cb_work(ompt_work_t w, ompt_scope_endpoint_t ep, ompt_data_t *p, ompt_data_t *t,
                    uint64_t n, const void *c)
{
    (void)w, (void)ep, (void)p, (void)t, (void)n, (void)c;
}
static void cb_dispatch(ompt_data_t *p, ompt_data_t *t, ompt_dispatch_t k, ompt_data_t i)
{
    (void)p, (void)t, (void)k, (void)i;
}
static void cb_masked(ompt_scope_endpoint_t ep, ompt_data_t *p, ompt_data_t *t, const void *c)
{
    (void)ep, (void)p, (void)t, (void)c;
}
static void cb_mutex_acquire(ompt_mutex_t k, unsigned h, unsigned i, ompt_wait_id_t w,
                             const void *c)
{
    (void)k, (void)h, (void)i, (void)w, (void)c;
}
static void cb_mutex(ompt_mutex_t k, ompt_wait_id_t w, const void *c)
{
    (void)k, (void)w, (void)c;
}
static void cb_nest_lock(ompt_scope_endpoint_t ep, ompt_wait_id_t w, const void *c)
{
    (void)ep, (void)w, (void)c;
}

static int init(ompt_function_lookup_t lookup, int dev, ompt_data_t *data)
{
    (void)dev, (void)data;
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    if (!set)
        return 0;
#define SET(e, f) set(e, (ompt_callback_t)f)
    SET(ompt_callback_thread_begin, cb_thread_begin);
    SET(ompt_callback_parallel_begin, cb_parallel_begin);
    SET(ompt_callback_parallel_end, cb_parallel_end);
    SET(ompt_callback_implicit_task, cb_implicit_task);
    SET(ompt_callback_task_create, cb_task_create);
    SET(ompt_callback_task_schedule, cb_task_schedule);
    SET(ompt_callback_dependences, cb_dependences);
    SET(ompt_callback_sync_region, cb_sync_region);
    SET(ompt_callback_work, cb_work);
    SET(ompt_callback_dispatch, cb_dispatch);
    SET(ompt_callback_masked, cb_masked);
    SET(ompt_callback_mutex_acquire, cb_mutex_acquire);
    SET(ompt_callback_mutex_acquired, cb_mutex);
    SET(ompt_callback_mutex_released, cb_mutex);
    SET(ompt_callback_nest_lock, cb_nest_lock);
#undef SET
    return 1;
}

static void fini(ompt_data_t *data)
{
    (void)data;
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int version, const char *runtime)
{
    static ompt_start_tool_result_t result = {init, fini, {0}};
    (void)version, (void)runtime;
    return &result;
}
