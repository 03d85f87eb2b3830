/* SPDX-License-Identifier: BSD-3-Clause */
/* omp_depend.c: the depend items of explicit tasks (OMPT's dependences callback): one trace
 * record per item, on the creating thread right after the task's ThreadTaskCreate, with the
 * address of the item's storage and its type. Edges are not recorded: they follow from the
 * lists of sibling tasks in creation order (docs/openmp.md, "Task dependences"). */
#include "adapters/omp/omp_adapter.h"

/* OMPT's types onto the depend clause's (LLVM's libomp reports `out` as inout: it has one
 * flag pair for both) */
static scorep_dep_type dep_type(ompt_dependence_type_t t)
{
    switch (t) {
    case ompt_dependence_type_in:
        return SCOREP_DEP_IN;
    case ompt_dependence_type_out:
        return SCOREP_DEP_OUT;
    case ompt_dependence_type_inout:
        return SCOREP_DEP_INOUT;
    case ompt_dependence_type_mutexinoutset:
        return SCOREP_DEP_MUTEXINOUTSET;
    case ompt_dependence_type_inoutset:
        return SCOREP_DEP_INOUTSET;
    default:
        return SCOREP_DEP_OTHER;
    }
}

/* libomp calls it on the creating thread right after the task_create callback (which got
 * has_dependences = 1), with the list as the compiler passed it (duplicates included), for
 * deferred and undeferred tasks alike; undeferred ones are not ours. */
void omp_cb_dependences(ompt_data_t *task_data, const ompt_dependence_t *deps, int ndeps)
{
    if (!omp_task_of(task_data) || !deps)
        return;
    omp_thread *t = omp_thread_get();
    if (!t)
        return;
    uint64_t raw = scorep_timer_ticks();
    for (int i = 0; i < ndeps; i++)
        scorep_event_thread_task_depend(t->loc, dep_type(deps[i].dependence_type),
                                        (uint64_t)(uintptr_t)deps[i].variable.ptr, raw);
}
