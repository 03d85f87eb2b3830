/* SPDX-License-Identifier: BSD-3-Clause */
/* scenario.h: what the analysis test programs (waitstates.c, intercomm.c, omp_waits.c, pop.c,
 * mpi_threads.c) share: the node's clock, waiting until a deadline, and the marks in which a
 * program prints when it actually acted (the tests derive their expected values from them). */
#ifndef SCENARIO_H
#define SCENARIO_H

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

/* the node's monotonic clock: the same on every rank of one machine (MPI_Wtime of Open MPI
 * counts from each process's own start) */
static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* waits until END on the node's clock (absolute deadlines: a rank that was descheduled or
 * returned late from MPI still acts at the prescribed time): sleeps until 2 ms before it, so
 * that the other ranks get the processors (4 ranks may share 2 cores), then spins to it */
static inline void spin_until(double end)
{
    while (now() < end - 0.002) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    while (now() < end)
        ;
}

/* the marks, printed at the end (after MPI_Finalize, so that printing costs nothing inside a
 * scenario); threads may add them concurrently */
#define SCENARIO_MARKS 64
typedef struct {
    char line[SCENARIO_MARKS][112];
    int n;
} scenario_marks;

static inline void marks_add(scenario_marks *m, const char *fmt, ...)
{
    int i = __atomic_fetch_add(&m->n, 1, __ATOMIC_RELAXED);
    if (i >= SCENARIO_MARKS)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->line[i], sizeof m->line[i], fmt, ap);
    va_end(ap);
}

static inline void marks_print(const scenario_marks *m)
{
    for (int i = 0; i < m->n && i < SCENARIO_MARKS; i++)
        printf("%s\n", m->line[i]);
    fflush(stdout);
}

#ifdef MPI_VERSION
/* a scenario starts at the same instant on every rank of COMM: rank 0 picks it 50 ms ahead
 * and broadcasts it (now() is the node's clock; the ranks run on one machine), so that the
 * jitter of leaving a barrier on a loaded machine does not shift one rank's deadlines against
 * another's. Returns the start, after waiting for it. */
static inline double scenario_start(MPI_Comm comm)
{
    MPI_Barrier(comm);
    double t0 = now() + 0.05;
    MPI_Bcast(&t0, 1, MPI_DOUBLE, 0, comm);
    spin_until(t0);
    return t0;
}
#endif

#endif
