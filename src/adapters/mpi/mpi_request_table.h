/* mpi_request_table.h: the table of the requests the adapter follows, keyed by the value of
 * their MPI_Request handle, and the free list their records come from. No fixed limit.
 *
 * - Open addressing keyed by the handle value (Open MPI's requests are pointers: one multiply
 *   hashes them), linear probing; a slot holds the handle and the oldest record of it.
 * - Records of one handle form a FIFO (oldest first): Open MPI hands out one shared, already
 *   completed request object (ompi_request_empty) for every send that completed when it
 *   started, so one handle value may stand for many outstanding requests.
 * - The Wait/Test wrappers take the records of their requests out before the PMPI call and put
 *   back those that did not complete; a slot whose records are all taken keeps its key
 *   (dormant), so putting back, and the next request MPI hands out at the same address, find
 *   it without a new slot. Dormant slots are dropped when the table is rebuilt (when keys
 *   fill 5/8 of it; at least 64 slots, twice the live keys), which also shrinks it after a
 *   burst of outstanding requests.
 * - Records (one cache-line and a half) come from a free list refilled 64 at a time; only
 *   the fields a request kind uses are written, nothing is cleared.
 * - Below MPI_THREAD_MULTIPLE MPI calls never overlap: one table, no lock. Under
 *   MPI_THREAD_MULTIPLE 64 shards (by hash), each with its own mutex, table and free list;
 *   as the records are out of the table while their Wait/Test runs, a handle value MPI
 *   recycles meanwhile (another thread's new request) never meets the old record. */
#ifndef SCOREP_MPI_REQUEST_TABLE_H
#define SCOREP_MPI_REQUEST_TABLE_H

#include <mpi.h>
#include <stddef.h>

struct scorep_mpi_req;

/* shared: threads may use the table at once (MPI_THREAD_MULTIPLE). Called at MPI_Init. */
void scorep_mpi_rtab_init(int shared);
/* A record for a new request with this handle, the newest of its handle, with handle set and
 * no other field written; NULL when memory is exhausted. */
struct scorep_mpi_req *scorep_mpi_rtab_insert(MPI_Request handle);
/* The oldest record of the handle, or NULL. */
struct scorep_mpi_req *scorep_mpi_rtab_find(MPI_Request handle);
/* Takes the oldest record of the handle out of the table (NULL if none). It goes back with
 * rtab_put_back or to the free list with rtab_free. */
struct scorep_mpi_req *scorep_mpi_rtab_take(MPI_Request handle);
/* Puts a taken record back, in front of the other records of its handle. -1 (and the record
 * is not in the table) only when memory for a larger table is exhausted. */
int scorep_mpi_rtab_put_back(struct scorep_mpi_req *r);
/* The Wait/Test calls: takes the oldest record of each handle (recs[i], NULL for
 * MPI_REQUEST_NULL and unknown handles; a handle given twice gets its two oldest records) and
 * notes in where[i] where it was, so that rtab_put_back_at puts it back without a second
 * lookup (below MPI_THREAD_MULTIPLE nothing can change the table in between: no request is
 * created while a Wait/Test runs). Returns the number of records taken. */
int scorep_mpi_rtab_take_n(int n, const MPI_Request handles[], struct scorep_mpi_req *recs[],
                           void *where[]);
int scorep_mpi_rtab_put_back_at(struct scorep_mpi_req *r, void *where);
/* A taken (or just inserted and taken) record back to the free list. */
void scorep_mpi_rtab_free(struct scorep_mpi_req *r);

/* Sizes for the benchmarks and the tests: slots of the table(s), keys in them, records
 * allocated, bytes of slots and records. */
typedef struct {
    size_t slots, keys, live, records, bytes;
} scorep_mpi_rtab_stats;
void scorep_mpi_rtab_get_stats(scorep_mpi_rtab_stats *s);

#endif
