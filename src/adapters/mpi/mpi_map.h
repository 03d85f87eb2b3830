/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_map.h: the two hash maps of the MPI adapter, keyed by MPI handle values, without fixed
 * limits and safe under MPI_THREAD_MULTIPLE.
 *
 * rmap: read-mostly (communicators, windows). Lookups take no lock: open addressing, an entry
 *   is published by a release store of its key, a removed entry becomes a tombstone, and a
 *   full table is replaced by a new one (old tables are never freed, so a concurrent reader
 *   stays valid). Writers serialise on a mutex. A handle is looked up only while the program
 *   may use it, so its slot is stable during the lookup.
 * smap: short-lived entries (messages matched by MPI_Mprobe/MPI_Improbe; requests have their
 *   own table, mpi_request_table.h): 64 shards, each a chained hash table under its own
 *   mutex (taken only under MPI_THREAD_MULTIPLE), with free lists so that steady state does
 *   not allocate. MPI_Mrecv/MPI_Imrecv take their entry out before the PMPI call, so a
 *   message handle value that MPI recycles meanwhile never meets the old entry. */
#ifndef SCOREP_MPI_MAP_H
#define SCOREP_MPI_MAP_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

typedef struct scorep_mpi_rtable scorep_mpi_rtable;
typedef struct {
    scorep_mpi_rtable *table; /* read with acquire */
    pthread_mutex_t lock;
    size_t used, tombs;
} scorep_mpi_rmap;
#define SCOREP_MPI_RMAP_INIT                                                                       \
    {                                                                                              \
        NULL, PTHREAD_MUTEX_INITIALIZER, 0, 0                                                      \
    }

void *scorep_mpi_rmap_get(scorep_mpi_rmap *m, uintptr_t key);
/* Inserts or replaces; returns the previous value (NULL if none), or value itself when
 * memory is exhausted (nothing inserted). */
void *scorep_mpi_rmap_put(scorep_mpi_rmap *m, uintptr_t key, void *value);
/* Removes the key; returns its value or NULL. */
void *scorep_mpi_rmap_remove(scorep_mpi_rmap *m, uintptr_t key);

/* Entries of an smap start with this node. Entries with equal keys are kept in a FIFO
 * (oldest first): Open MPI hands out one shared, already completed request object
 * (ompi_request_empty) for every send that completed when it started, so one handle value
 * may stand for many outstanding requests. */
typedef struct scorep_mpi_snode {
    struct scorep_mpi_snode *qprev, *qnext;
    struct scorep_mpi_skey *head; /* NULL while the entry is taken out */
    uintptr_t key;
} scorep_mpi_snode;

typedef struct scorep_mpi_skey {
    struct scorep_mpi_skey *next; /* bucket chain */
    uintptr_t key;
    scorep_mpi_snode *first, *last;
} scorep_mpi_skey;

#define SCOREP_MPI_SHARDS 64
typedef struct {
    pthread_mutex_t lock;
    scorep_mpi_skey **buckets;
    size_t nbuckets, count; /* count: distinct keys */
    scorep_mpi_snode *free_nodes;
    scorep_mpi_skey *free_keys;
} scorep_mpi_shard;

typedef struct {
    size_t node_size; /* size of the entry type, node first */
    int initialised;
    int shared; /* threads may use the map at once: the shards' mutexes are taken */
    scorep_mpi_shard shards[SCOREP_MPI_SHARDS];
} scorep_mpi_smap;

/* shared: several threads may use the map at the same time (MPI_THREAD_MULTIPLE); otherwise
 * the program's MPI calls, and with them all uses of the map, are serialised: no locks. */
void scorep_mpi_smap_init(scorep_mpi_smap *m, size_t node_size, int shared);
/* A zeroed entry with this key, appended to the key's FIFO; NULL when memory is exhausted. */
void *scorep_mpi_smap_insert(scorep_mpi_smap *m, uintptr_t key);
/* The oldest entry with this key, or NULL. */
void *scorep_mpi_smap_find(scorep_mpi_smap *m, uintptr_t key);
/* Takes the oldest entry with this key out of the map (NULL if none). It goes back with
 * smap_put_back (in front of the other entries of its key) or smap_release. */
void *scorep_mpi_smap_take(scorep_mpi_smap *m, uintptr_t key);
void scorep_mpi_smap_put_back(scorep_mpi_smap *m, void *node);
/* Unlinks the entry if it is in the map and puts it on the free list. */
void scorep_mpi_smap_release(scorep_mpi_smap *m, void *node);

#endif
