/* SPDX-License-Identifier: BSD-3-Clause */
/* ompt_tool.c: the OMPT tool of the runtime. An OpenMP runtime with OMPT (LLVM's libomp) finds
 * ompt_start_tool in libscorep-rt, linked or preloaded; the tool registers the callbacks of
 * omp_adapter.h. A program on an OpenMP runtime without OMPT (GNU libgomp) is told so once. */
#include "adapters/omp/omp_adapter.h"
#include "runtime/runtime.h"

#include <dlfcn.h>

static ompt_set_callback_t set_callback;

/* Registers cb; a mandatory event the runtime cannot deliver is reported once. */
static void want(ompt_callbacks_t event, ompt_callback_t cb, bool required, const char *name)
{
    ompt_set_result_t r = set_callback(event, cb);
    if (required && r != ompt_set_always)
        scorep_warn("the OpenMP runtime does not report %s events (OMPT result %d); OpenMP "
                    "measurements are incomplete",
                    name, (int)r);
}

static void register_callbacks(void)
{
#define WANT(event, fn, required) want(event, (ompt_callback_t)fn, required, #event)
    WANT(ompt_callback_thread_begin, omp_cb_thread_begin, true);
    WANT(ompt_callback_parallel_begin, omp_cb_parallel_begin, true);
    WANT(ompt_callback_parallel_end, omp_cb_parallel_end, true);
    WANT(ompt_callback_implicit_task, omp_cb_implicit_task, true);
    WANT(ompt_callback_task_create, omp_cb_task_create, true);
    WANT(ompt_callback_task_schedule, omp_cb_task_schedule, true);
    /* depend items of each task (omp_depend.c); not ompt_callback_task_dependence, which
     * reports only the predecessors still pending at creation (docs/openmp.md) */
    WANT(ompt_callback_dependences, omp_cb_dependences, false);
    WANT(ompt_callback_sync_region, omp_cb_sync_region, false);
    WANT(ompt_callback_work, omp_cb_work, false);
    WANT(ompt_callback_dispatch, omp_cb_dispatch, false);
    WANT(ompt_callback_masked, omp_cb_masked, false);
    WANT(ompt_callback_mutex_acquire, omp_cb_mutex_acquire, false);
    WANT(ompt_callback_mutex_acquired, omp_cb_mutex_acquired, false);
    WANT(ompt_callback_mutex_released, omp_cb_mutex_released, false);
    WANT(ompt_callback_nest_lock, omp_cb_nest_lock, false);
    WANT(ompt_callback_flush, omp_cb_flush, false);
    WANT(ompt_callback_lock_init, omp_cb_lock_init, false);
    WANT(ompt_callback_lock_destroy, omp_cb_lock_destroy, false);
#undef WANT
}

static int tool_initialize(ompt_function_lookup_t lookup, int initial_device_num,
                           ompt_data_t *tool_data)
{
    (void)initial_device_num;
    (void)tool_data;
    set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
    if (!set_callback || !scorep_runtime_init())
        return 0;
    omp_runtime_range_init();
    register_callbacks();
    scorep_verbose("OpenMP: OMPT tool active");
    return 1;
}

static void tool_finalize(ompt_data_t *tool_data)
{
    (void)tool_data;
}

__attribute__((visibility("default"))) ompt_start_tool_result_t *
ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
    static ompt_start_tool_result_t result = {tool_initialize, tool_finalize, {0}};
    (void)omp_version;
    (void)runtime_version;
    return scorep_runtime_init() ? &result : NULL;
}

/* GNU libgomp exports GOMP_parallel but not LLVM's __kmpc_fork_call (libomp exports both);
 * libscorep-rt-gomp (gomp_wrap.c) records libgomp's constructs itself. */
__attribute__((constructor)) static void omp_check_runtime(void)
{
    if (dlsym(RTLD_DEFAULT, "GOMP_parallel") && !dlsym(RTLD_DEFAULT, "__kmpc_fork_call") &&
        !dlsym(RTLD_DEFAULT, "scorep_gomp_wrappers"))
        scorep_warn("the program runs on GNU libgomp, which has no OMPT interface: OpenMP "
                    "constructs are not recorded. Build with scorep-cc or run under "
                    "scorep-run, which record it (docs/openmp.md)");
}
