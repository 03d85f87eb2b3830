/* mpi_map.h: the two hash maps of the MPI adapter, keyed by MPI handle values, without fixed
 * limits and safe under MPI_THREAD_MULTIPLE.
 *
 * rmap: read-mostly (communicators, windows). Lookups take no lock: open addressing, an entry
 *   is published by a release store of its key, a removed entry becomes a tombstone, and a
 *   full table is replaced by a new one (old tables are never freed, so a concurrent reader
 *   stays valid). Writers serialise on a mutex. A handle is looked up only while the program
 *   may use it, so its slot is stable during the lookup.
 * smap: many short-lived entries (requests, matched messages): 64 shards, each a chained
 *   hash table under its own mutex, with a free list so that steady state does not allocate.
 *   A key may be present more than once (a handle value reused by another thread before the
 *   first entry was released): find returns the newest, release unlinks the given entry. */
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
#define SCOREP_MPI_RMAP_INIT {NULL, PTHREAD_MUTEX_INITIALIZER, 0, 0}

void *scorep_mpi_rmap_get(scorep_mpi_rmap *m, uintptr_t key);
/* Inserts or replaces; returns the previous value (NULL if none), or value itself when
 * memory is exhausted (nothing inserted). */
void *scorep_mpi_rmap_put(scorep_mpi_rmap *m, uintptr_t key, void *value);
/* Removes the key; returns its value or NULL. */
void *scorep_mpi_rmap_remove(scorep_mpi_rmap *m, uintptr_t key);

/* Entries of an smap start with this node. */
typedef struct scorep_mpi_snode {
    struct scorep_mpi_snode *next;
    uintptr_t key;
} scorep_mpi_snode;

#define SCOREP_MPI_SHARDS 64
typedef struct {
    pthread_mutex_t lock;
    scorep_mpi_snode **buckets;
    size_t nbuckets, count;
    scorep_mpi_snode *free_list;
} scorep_mpi_shard;

typedef struct {
    size_t node_size; /* size of the entry type, node first */
    int initialised;
    scorep_mpi_shard shards[SCOREP_MPI_SHARDS];
} scorep_mpi_smap;

void scorep_mpi_smap_init(scorep_mpi_smap *m, size_t node_size);
/* A zeroed entry with this key, inserted; NULL when memory is exhausted. */
void *scorep_mpi_smap_insert(scorep_mpi_smap *m, uintptr_t key);
/* The newest entry with this key, or NULL. */
void *scorep_mpi_smap_find(scorep_mpi_smap *m, uintptr_t key);
/* Finds and unlinks the newest entry with this key (give it back with smap_free). */
void *scorep_mpi_smap_take(scorep_mpi_smap *m, uintptr_t key);
/* Unlinks the entry (found earlier) and puts it on the free list. */
void scorep_mpi_smap_release(scorep_mpi_smap *m, void *node);
/* Puts an entry that take() unlinked on the free list. */
void scorep_mpi_smap_free(scorep_mpi_smap *m, void *node);

#endif
