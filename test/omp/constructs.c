/* SPDX-License-Identifier: BSD-3-Clause */
/* constructs.c: the OpenMP constructs gcc compiles to libgomp entry points besides parallel
 * regions, tasks and plain worksharing, each in its own team of 2 threads, with visits fixed
 * by design: taskloops (4 tasks in a taskgroup, 2 tasks nogroup over unsigned long long),
 * a single copyprivate, doacross loops (long and unsigned long long, 8 iterations each,
 * ordered depend), a task with detach in a single that creates and waits for it, a loop with cancel and cancellation point, a
 * cancelled parallel region and taskgroup (with OMP_CANCELLATION=true), host teams.
 * Arguments name the parts to run (all without). */
#include <omp.h>
#include <stdio.h>
#include <string.h>

static int sum, a[9], b[9], part_count;
static char **parts;

void work(int i)
{
    __atomic_fetch_add(&sum, i, __ATOMIC_RELAXED);
}

static int part(const char *name)
{
    if (part_count == 0)
        return 1;
    for (int i = 0; i < part_count; i++)
        if (strcmp(parts[i], name) == 0)
            return 1;
    return 0;
}

static void taskloops(void)
{
#pragma omp parallel num_threads(2) /* TL_PAR */
#pragma omp single                  /* TL_SINGLE */
    {
#pragma omp taskloop grainsize(1) /* TASKLOOP */
        for (int i = 0; i < 4; i++)
            work(1);
#pragma omp taskloop grainsize(2) nogroup /* TASKLOOP_ULL */
        for (unsigned long long i = 0; i < 4; i++)
            work(10);
#pragma omp taskwait /* TL_WAIT */
    }
}

static void copyprivate(void)
{
#pragma omp parallel num_threads(2) /* CP_PAR */
    {
        int x = 0;
#pragma omp single copyprivate(x) /* COPY */
        x = 100;
        work(x);
    }
}

static void doacross(void)
{
#pragma omp parallel num_threads(2) /* DA_PAR */
    {
#pragma omp for ordered(1) schedule(dynamic, 1) /* DOACROSS */
        for (int i = 1; i < 9; i++) {
#pragma omp ordered depend(sink : i - 1)
            a[i] = a[i - 1] + 1;
#pragma omp ordered depend(source)
        }
#pragma omp for ordered(1) schedule(dynamic, 1) /* DOACROSS_ULL */
        for (unsigned long long i = 1; i < 9; i++) {
#pragma omp ordered depend(sink : i - 1)
            b[i] = b[i - 1] + 1;
#pragma omp ordered depend(source)
        }
    }
}

static void detach(void)
{
#pragma omp parallel num_threads(2) /* DT_PAR */
    {
#pragma omp single /* DT_SINGLE */
        {
            omp_event_handle_t ev;
#pragma omp task detach(ev) /* DETACH */
            work(1000);
            omp_fulfill_event(ev);
#pragma omp taskwait /* DT_WAIT */
        }
        work(0); /* after the single: gcc keeps its barrier */
    }
}

/* Without OMP_CANCELLATION nothing is cancelled: 4 iterations, both threads at the barrier,
 * the task after the taskgroup's cancel runs. With it: thread 0 cancels the region, thread 1
 * leaves at its barrier (it waits there for the cancel, or finds it done); task CC_TASK1
 * cancels its taskgroup, which CC_WAIT waits for, so CC_TASK2 is not created. */
static void cancel(void)
{
#pragma omp parallel num_threads(2) /* CC_PAR */
    {
#pragma omp for schedule(dynamic, 1) /* CC_FOR */
        for (int i = 0; i < 4; i++) {
#pragma omp cancel for if (i == 100)
            work(10000);
#pragma omp cancellation point for
        }
    }
#pragma omp parallel num_threads(2) /* CC_PAR2 */
    {
        if (omp_get_thread_num() == 0) {
#pragma omp cancel parallel
        }
#pragma omp barrier /* CC_BARRIER */
    }
#pragma omp parallel num_threads(2) /* CC_PAR3 */
#pragma omp single                  /* CC_SINGLE */
#pragma omp taskgroup               /* CC_GROUP */
    {
#pragma omp task /* CC_TASK1 */
        {
#pragma omp cancel taskgroup
        }
#pragma omp taskwait /* CC_WAIT */
#pragma omp task     /* CC_TASK2 */
        work(100000);
    }
}

static void teams(void)
{
#pragma omp teams num_teams(2) /* TEAMS */
    work(1000000);
}

int main(int argc, char **argv)
{
    omp_set_dynamic(0);
    part_count = argc - 1;
    parts = argv + 1;
    if (part("taskloop"))
        taskloops();
    if (part("copyprivate"))
        copyprivate();
    if (part("doacross"))
        doacross();
    if (part("detach"))
        detach();
    if (part("cancel"))
        cancel();
    if (part("teams"))
        teams();
    printf("sum %d a %d b %d\n", sum, a[8], b[8]);
    return 0;
}
