/* SPDX-License-Identifier: BSD-3-Clause */
/* pthread_mutex_map.h: the pthread adapter's record of each mutex the program locks (its lock
 * id and acquisition order, as Score-P's scorep_pthread_mutex), found by the mutex's address
 * in a table read without locks. */
#ifndef SCOREP_PTHREAD_MUTEX_MAP_H
#define SCOREP_PTHREAD_MUTEX_MAP_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    uint32_t id;      /* process-local lock id, 0, 1, ... in the order mutexes are first seen */
    uint32_t order;   /* acquisitions so far (the last one's acquisition order; 1 = first) */
    uint32_t nesting; /* recursive mutexes: how often the holder locked it */
    bool pshared;     /* process-shared: no lock events (as Score-P) */
    uint64_t released; /* the last recorded release's timestamp: the next acquisition's is
                        * later, whatever the threads' clocks read */
} pthread_mutex_rec;

/* The record of the mutex at ADDR, NULL when none. Lock-free. */
pthread_mutex_rec *pthread_mutex_find(const void *addr);
/* The record of ADDR, created (under the map's own spin lock, once per mutex) when there is
 * none. NULL only when memory runs out. */
pthread_mutex_rec *pthread_mutex_get(const void *addr);
/* Forgets ADDR (pthread_mutex_destroy): a mutex initialised there later gets a new id. */
void pthread_mutex_forget(const void *addr);

#endif
