/* SPDX-License-Identifier: BSD-3-Clause */
/* clock_sync.h: offsets of this process's clock to rank 0's, measured by ping-pong (MPI
 * runs, at MPI_Init and at finalize) and written as OTF2 clock offsets, which readers
 * interpolate linearly. A single process has none. */
#ifndef SCOREP_CLOCK_SYNC_H
#define SCOREP_CLOCK_SYNC_H

#include <stdint.h>

typedef struct {
    uint64_t time;  /* local timestamp of the measurement */
    int64_t offset; /* add to local time to get rank 0's time */
    double stddev;
} scorep_clock_point;

/* Measures one offset against rank 0 over the current ipc backend (collective). */
void scorep_clock_sync(void);
int scorep_clock_points(const scorep_clock_point **points);
/* A local timestamp on rank 0's clock, interpolated between the points as OTF2 readers do
 * (for the trace's global time range, which readers take as it is). */
uint64_t scorep_clock_to_root(uint64_t t);

/* scorep-recover: the points a rank measured, read back from its rank-local piece. */
void scorep_clock_points_restore(const scorep_clock_point *p, int n);
#endif
