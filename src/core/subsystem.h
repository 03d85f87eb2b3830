/* SPDX-License-Identifier: BSD-3-Clause */
/* subsystem.h: what a service (metrics, sampling) or an adapter (CUDA, ...) tells the
 * runtime so that the life cycle calls it at the right moments, as Score-P's subsystems
 * (SCOREP_Subsystem: init, init_location, finalize, ...). The runtime (runtime/runtime.c) keeps
 * the table and calls the phases; a subsystem never calls the runtime back for them. Every
 * member may be NULL. Cold paths only: the event path calls its sources directly. */
#ifndef SCOREP_SUBSYSTEM_H
#define SCOREP_SUBSYSTEM_H

#include <stdbool.h>

struct scorep_location;

typedef struct scorep_subsystem {
    const char *name;
    /* At init, after the settings and the filter are read and the experiment directory is
     * chosen, before the first location exists. Reports its own errors; never fatal. */
    void (*init)(void);
    /* After the first location's ProgramBegin; mpi: an MPI or SHMEM run. */
    void (*begin)(bool mpi);
    /* A new thread's location, on that thread, once it is registered. */
    void (*location_created)(struct scorep_location *l);
    /* Finalize, first (registration order): the measurement is off; stop the sources and
     * hand over what is buffered; the locations still take events. */
    void (*end)(void);
    /* After the locations' calls are closed, before unification and writing (reverse
     * registration order): complete the recorded data. */
    void (*finalize)(void);
    /* MPI or SHMEM is initialised and the inter-process communication is up (a run whose
     * begin had mpi true; scorep_runtime_mpi_ready). */
    void (*mpp_ready)(void);
} scorep_subsystem;

#endif
