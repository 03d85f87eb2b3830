/* SPDX-License-Identifier: BSD-3-Clause */
/* omp_waits.c: MPI + OpenMP program with prescribed OpenMP wait states for the analysis tests
 * (test_analysis_omp.sh; run with OMP_NUM_THREADS=3 and 1 or 2 ranks, each rank the same on
 * its own but for mpiidle). Each scenario is a user region; in it a thread spins until a known multiple of D
 * after the scenario's start:
 *   ebarrier: thread 1 spins to D before an explicit barrier (threads 0 and 2 wait ~D each)
 *   ibarrier: thread 2 spins to D before the end of the parallel region (implicit barrier)
 *   serial:   the master spins 2D outside any parallel region (2 threads idle)
 *   limited:  a team of 2 of the 3 threads for D (1 thread idle)
 *   ompbarlt: (2 ranks or more) in a team of 3 on each rank, rank 0's master spins D and
 *             sends to rank 1's master, which waits for it in MPI_Recv and is the last into
 *             the team's barrier after it (its workers wait there through its MPI wait)
 *   mpiidle:  (2 ranks or more) rank 0's master waits D for rank 1's message outside any
 *             parallel region, its OpenMP workers idle
 * Every thread prints when it acted ("T scenario thread what seconds rank", the node's
 * monotonic clock read just before), which helps to read a failure; the test takes its
 * expected values from the trace's events (trace_threads.py), which a thread descheduled
 * between its clock reading and its construct cannot shift. The late thread of a scenario
 * is the last into its barrier however late the others come (a loaded machine may deschedule
 * one past D): the others read the clock and count themselves just before the barrier; the
 * late thread, at D, waits for that count and spins on to D/2 after the last of their readings
 * at least, so that each waits D/2 or more there but for its own time between its reading and
 * its barrier ("A" lines: the readings; test_analysis_nompi.sh checks the waits against them).
 * In the first team each thread k enters a user region "thread<k>": the test finds its
 * location. Built with -DNO_MPI it is a pure OpenMP program (test_analysis_nompi.sh: the
 * analysis without MPI), rank 0 of none. Arguments: [D [SCENARIOS]], SCENARIOS a comma list
 * of the scenarios to run (default: all); Scalasca's scout.hyb needs the same number of
 * threads in every parallel region, which "limited" breaks (test_analysis_omp.sh's part with
 * scout.hyb runs the others). */
#ifndef NO_MPI
#include <mpi.h>
#endif
#include <omp.h>
#include <scorep/SCOREP_User.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "scenario.h"

static double D = 0.2, t0;
static int rank;
/* each thread's useful time as it measured it (Scalasca's Computation: its time outside
 * OpenMP constructs and MPI calls), indexed by its thread number in the first team, "who"
 * (libomp keeps the same threads: a later team's thread k may be another one); printed as
 * "U who seconds". test_analysis_nompi.sh derives the POP design values from them: a loaded
 * machine that starts a worker late shortens its spin to a deadline, or makes the late thread
 * spin D/2 more, and the design's constants no longer hold (seen: load balance 0.59 for 0.67) */
static double work[3];
static __thread int who = -1;
static __thread double work_since;
/* the master's time in parallel regions, from before its fork to after its join ("P") */
static double in_parallel, fork_at;

/* the calling thread's useful time begins (work_on) or ends (work_off) */
static void work_on(void)
{
    work_since = now();
}
static void work_off(void)
{
    if (who >= 0 && who < 3)
        work[who] += now() - work_since;
}
/* the master around a parallel region: its useful time ends at the fork, resumes at the join */
static void fork_now(void)
{
    work_off();
    fork_at = now();
}
static void joined(void)
{
    in_parallel += now() - fork_at;
    work_on();
}
/* a team's body begins (the first team names the thread) */
static void body_on(int first)
{
    if (first)
        who = omp_get_thread_num();
    work_on();
}

static scenario_marks marks;
static const char *only; /* the scenarios to run, NULL: all */

/* rank 1's workers at the barrier of ompbarlt */
static int at_ompbarlt;

/* whether scenario S is to run */
static int runs(const char *s)
{
    if (!only)
        return 1;
    size_t n = strlen(s);
    for (const char *p = only; (p = strstr(p, s)) != NULL; p += n)
        if ((p == only || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}
static void M(const char *scen, const char *what)
{
    marks_add(&marks, "T %s %d %s %.6f %d", scen, omp_get_thread_num(), what, now() - t0, rank);
}

/* waits until k*D after the start */
static void spin_to(double k)
{
    spin_until(t0 + k * D);
}

static void start(void)
{
    t0 = now() + 0.05;
    spin_to(0);
}

/* the others' arrivals at a scenario's barrier: their count and each one's clock reading just
 * before it counted itself (by thread number) */
typedef struct {
    int n;
    double at[3];
} arrivals;
/* at the explicit barrier, at the implicit one of ibarrier, of limited */
static arrivals at_ebarrier, at_ibarrier, at_limited;

/* a thread that is not late arrives at A: its reading (also printed, "A scenario thread
 * seconds rank" on the node's clock, which the trace's ticks are under SCOREP_TIMER=clock_gettime),
 * then its count; the barrier follows at once */
static void arrive(arrivals *a, const char *scen)
{
    double t = now();
    int k = omp_get_thread_num();
    a->at[k] = t;
    marks_add(&marks, "A %s %d %.9f %d", scen, k, t, rank);
    __atomic_fetch_add(&a->n, 1, __ATOMIC_RELEASE);
}

/* the late thread at k*D: until N others have arrived at A, then until D/2 after the last of
 * their readings at least. So each other thread's barrier enter lies at least D/2 before the
 * late one's, less only its own time between its reading and that enter (a loaded machine may
 * start or deschedule a thread past 0.5 D: then the late thread spins longer, rather than the
 * others waiting less, seen: 0.072 s for D = 0.2 when the wait ended at D regardless) */
static void late_until(double k, arrivals *a, int n)
{
    spin_to(k);
    while (__atomic_load_n(&a->n, __ATOMIC_ACQUIRE) < n) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    double last = 0;
    for (int i = 0; i < 3; i++)
        if (i != omp_get_thread_num() && a->at[i] > last)
            last = a->at[i];
    spin_until(last + D / 2);
}

int main(int argc, char **argv)
{
#ifndef NO_MPI
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#endif
    if (argc > 1)
        D = atof(argv[1]);
    if (argc > 2)
        only = argv[2];
    /* the master's useful time from here to the end ("R": the program's time) */
    who = 0;
    double started = now();
    work_on();
    SCOREP_USER_REGION_DEFINE(he)
    SCOREP_USER_REGION_DEFINE(hi)
    SCOREP_USER_REGION_DEFINE(hs)
    SCOREP_USER_REGION_DEFINE(hl)

    if (runs("ebarrier")) {
        start();
        SCOREP_USER_REGION_BEGIN(he, "ebarrier", SCOREP_USER_REGION_TYPE_COMMON)
        M("ebarrier", "fork"); /* the first team: creating its threads takes the master a while */
        fork_now();
#pragma omp parallel num_threads(3) /* PAR_E */
        {
            body_on(1);
            if (omp_get_thread_num() == 0)
                M("ebarrier", "in");
            /* names this thread's location in the report: a region "thread<k>" */
            char who[16];
            snprintf(who, sizeof who, "thread%d", omp_get_thread_num());
            SCOREP_USER_REGION_BY_NAME_BEGIN(who, SCOREP_USER_REGION_TYPE_COMMON)
            SCOREP_USER_REGION_BY_NAME_END(who)
            if (omp_get_thread_num() == 1)
                late_until(1, &at_ebarrier, omp_get_num_threads() - 1);
            M("ebarrier", "bar");
            if (omp_get_thread_num() != 1)
                arrive(&at_ebarrier, "ebarrier");
            work_off();
#pragma omp barrier /* BAR_E */
            work_on();
            /* when it left the barrier: the implicit barrier at the end of the region waits for
             * the last thread to get here (on a loaded machine, one descheduled after the barrier) */
            M("ebarrier", "ibar");
            work_off();
        }
        joined();
        SCOREP_USER_REGION_END(he)
    }

    if (runs("ibarrier")) {
        start();
        SCOREP_USER_REGION_BEGIN(hi, "ibarrier", SCOREP_USER_REGION_TYPE_COMMON)
        fork_now();
#pragma omp parallel num_threads(3) /* PAR_I */
        {
            body_on(0);
            if (omp_get_thread_num() == 2)
                late_until(1, &at_ibarrier, omp_get_num_threads() - 1);
            M("ibarrier", "end");
            if (omp_get_thread_num() != 2)
                arrive(&at_ibarrier, "ibarrier");
            work_off();
        }
        joined();
        SCOREP_USER_REGION_END(hi)
    }

    if (runs("serial")) {
        start();
        SCOREP_USER_REGION_BEGIN(hs, "serial", SCOREP_USER_REGION_TYPE_COMMON)
        M("serial", "begin");
        spin_to(2);
        M("serial", "end");
        SCOREP_USER_REGION_END(hs)
    }

    if (runs("limited")) {
        start();
        SCOREP_USER_REGION_BEGIN(hl, "limited", SCOREP_USER_REGION_TYPE_COMMON)
        M("limited", "fork");
        fork_now();
#pragma omp parallel num_threads(2) /* PAR_L */
        {
            body_on(0);
            if (omp_get_thread_num() == 1)
                late_until(1, &at_limited, omp_get_num_threads() - 1);
            else
                arrive(&at_limited, "limited");
            work_off();
        }
        joined();
        M("limited", "join");
        SCOREP_USER_REGION_END(hl)
    }
    /* the OpenMP scenarios' end: each thread's useful time, the program's time R and the
     * master's time in parallel regions P (the part with MPI below is not counted) */
    work_off();
    marks_add(&marks, "R %.6f P %.6f %d", now() - started, in_parallel, rank);
    for (int k = 0; k < 3; k++)
        marks_add(&marks, "U %d %.6f %d", k, work[k], rank);

#ifndef NO_MPI
    /* mpiidle (2 ranks or more): after a barrier, rank 1 spins D, then sends to rank 0, which
     * waits for it in MPI_Recv outside any parallel region (a Late Sender of D while rank 0's
     * OpenMP workers idle: rank 1's delay costs them that long too) */
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 1) {
        SCOREP_USER_REGION_DEFINE(hb)
        SCOREP_USER_REGION_DEFINE(hm)
        int v = 0;
        /* ompbarlt: rank 1's workers wait at the barrier while its master waits in MPI_Recv
         * for rank 0's master (it waits for them too after the receive, so that it is last) */
        MPI_Barrier(MPI_COMM_WORLD);
        SCOREP_USER_REGION_BEGIN(hb, "ompbarlt", SCOREP_USER_REGION_TYPE_COMMON)
#pragma omp parallel num_threads(3) /* PAR_B */
        {
            if (omp_get_thread_num() != 0) {
                __atomic_fetch_add(&at_ompbarlt, 1, __ATOMIC_RELEASE);
            } else if (rank == 0) {
                spin_until(now() + D);
                MPI_Send(&v, 1, MPI_INT, 1, 4, MPI_COMM_WORLD);
            } else if (rank == 1) {
                MPI_Recv(&v, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                while (__atomic_load_n(&at_ompbarlt, __ATOMIC_ACQUIRE) < omp_get_num_threads() - 1) {
                    struct timespec ts = {0, 1000000};
                    nanosleep(&ts, NULL);
                }
            }
#pragma omp barrier
        }
        SCOREP_USER_REGION_END(hb)
        MPI_Barrier(MPI_COMM_WORLD);
        SCOREP_USER_REGION_BEGIN(hm, "mpiidle", SCOREP_USER_REGION_TYPE_COMMON)
        if (rank == 1) {
            spin_until(now() + D);
            MPI_Send(&v, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
        } else if (rank == 0) {
            MPI_Recv(&v, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        MPI_Barrier(MPI_COMM_WORLD); /* whoever waits here: delays inside mpiidle */
        SCOREP_USER_REGION_END(hm)
    }
    MPI_Finalize();
#endif
    marks_print(&marks);
    return 0;
}
