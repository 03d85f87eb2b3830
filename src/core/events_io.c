/* SPDX-License-Identifier: BSD-3-Clause */
/* events_io.c: records I/O events into the trace buffer (class-MPI records read as I/O
 * records, buffer.h buf_io_rec) and the bytes read and written into the profile (see
 * events_io.h). */
#include "core/events_io.h"
#include "base/atomic_file.h"
#include "base/log.h"
#include "base/state.h"
#include "core/events.h"
#include "defs/defs_io.h"
#include "ipc/ipc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether the event of l is taken by anyone (the trace or substrate plugins): only while l
 * records. */
static inline bool taken(scorep_location *l)
{
    return l && scorep_location_recording(l) && (l->tracing || l->substrates_on);
}

/* the trace record of the event at t; NULL when l does not trace (or without memory) */
static buf_io_rec *rec(scorep_location *l, uint64_t t, uint32_t type, uint32_t handle)
{
    if (!l->tracing)
        return NULL;
    buf_mpi_rec *m = scorep_buffer_mpi(&l->buffer, t, type);
    if (!m)
        return NULL;
    m->io.handle = handle;
    return &m->io;
}

/* the substrate plugins' copy of the event (one predictable branch without plugins) */
#define SUBSTRATES(l, call)                                                                   \
    do {                                                                                      \
        if (__builtin_expect((l)->substrates_on, 0))                                          \
            call;                                                                             \
    } while (0)

void scorep_event_io_create_handle(scorep_location *l, uint32_t handle, uint32_t access,
                                   uint32_t creation, uint32_t status)
{
    SCOREP_LOCATION_EVENT(l);
    if (!taken(l))
        return;
    uint64_t t = scorep_event_time(l);
    buf_io_rec *r = rec(l, t, BUF_IO_CREATE_HANDLE, handle);
    if (r) {
        r->access = access;
        r->creation = creation;
        r->status = status;
    }
    SUBSTRATES(l, scorep_substrates_io_create_handle(l, t, handle, access, creation, status));
}

void scorep_event_io_destroy_handle(scorep_location *l, uint32_t handle)
{
    SCOREP_LOCATION_EVENT(l);
    if (!taken(l))
        return;
    uint64_t t = scorep_event_time(l);
    rec(l, t, BUF_IO_DESTROY_HANDLE, handle);
    SUBSTRATES(l, scorep_substrates_io_destroy_handle(l, t, handle));
}

void scorep_event_io_duplicate_handle(scorep_location *l, uint32_t old_handle, uint32_t new_handle,
                                      uint32_t status)
{
    SCOREP_LOCATION_EVENT(l);
    if (!taken(l))
        return;
    uint64_t t = scorep_event_time(l);
    buf_io_rec *r = rec(l, t, BUF_IO_DUPLICATE_HANDLE, old_handle);
    if (r) {
        r->new_handle = new_handle;
        r->status = status;
    }
    SUBSTRATES(l, scorep_substrates_io_duplicate_handle(l, t, old_handle, new_handle, status));
}

void scorep_event_io_seek(scorep_location *l, uint32_t handle, int64_t offset, uint32_t whence,
                          uint64_t result)
{
    SCOREP_LOCATION_EVENT(l);
    if (!taken(l))
        return;
    uint64_t t = scorep_event_time(l);
    buf_io_rec *r = rec(l, t, BUF_IO_SEEK, handle);
    if (r) {
        r->whence = whence;
        r->offset = (uint64_t)offset;
        r->result = result;
    }
    SUBSTRATES(l, scorep_substrates_io_seek(l, t, handle, offset, whence, result));
}

int scorep_io_nonblocking_traced;

void scorep_event_io_operation_begin(scorep_location *l, uint32_t handle, scorep_io_op op,
                                     uint32_t flags, uint64_t requested, uint64_t matching_id)
{
    SCOREP_LOCATION_EVENT(l);
    if (!taken(l))
        return;
    uint64_t t = scorep_event_time(l);
    buf_io_rec *r = rec(l, t, BUF_IO_OPERATION_BEGIN, handle);
    if (r) {
        r->op = op;
        r->op_flags = flags;
        r->requested = requested;
        r->matching_id = matching_id;
        /* a read first: the flag's cache line stays shared once set */
        if ((flags & SCOREP_IO_OP_FLAG_NON_BLOCKING) &&
            !__atomic_load_n(&scorep_io_nonblocking_traced, __ATOMIC_RELAXED))
            __atomic_store_n(&scorep_io_nonblocking_traced, 1, __ATOMIC_RELAXED);
    }
    SUBSTRATES(l, scorep_substrates_io_operation_begin(l, t, handle, op, flags, requested,
                                                       matching_id));
}

static void request_event(scorep_location *l, uint32_t type,
                          scorep_substrates_io_request_event which, uint32_t handle,
                          uint64_t matching_id)
{
    if (!taken(l))
        return;
    uint64_t t = scorep_event_time(l);
    buf_io_rec *r = rec(l, t, type, handle);
    if (r)
        r->matching_id = matching_id;
    SUBSTRATES(l, scorep_substrates_io_operation_request(l, t, which, handle, matching_id));
}

void scorep_event_io_operation_issued(scorep_location *l, uint32_t handle, uint64_t matching_id)
{
    SCOREP_LOCATION_EVENT(l);
    request_event(l, BUF_IO_OPERATION_ISSUED, SCOREP_SUBSTRATES_IO_OPERATION_ISSUED, handle,
                  matching_id);
}

void scorep_event_io_operation_test(scorep_location *l, uint32_t handle, uint64_t matching_id)
{
    SCOREP_LOCATION_EVENT(l);
    request_event(l, BUF_IO_OPERATION_TEST, SCOREP_SUBSTRATES_IO_OPERATION_TEST, handle,
                  matching_id);
}

void scorep_event_io_operation_cancelled(scorep_location *l, uint32_t handle, uint64_t matching_id)
{
    SCOREP_LOCATION_EVENT(l);
    request_event(l, BUF_IO_OPERATION_CANCELLED, SCOREP_SUBSTRATES_IO_OPERATION_CANCELLED, handle,
                  matching_id);
}

void scorep_event_io_change_status_flags(scorep_location *l, uint32_t handle, uint32_t status)
{
    SCOREP_LOCATION_EVENT(l);
    if (!taken(l))
        return;
    uint64_t t = scorep_event_time(l);
    buf_io_rec *r = rec(l, t, BUF_IO_CHANGE_STATUS_FLAGS, handle);
    if (r)
        r->status = status;
    SUBSTRATES(l, scorep_substrates_io_change_status_flags(l, t, handle, status));
}

/* the record's handle is the file here */
void scorep_event_io_delete_file(scorep_location *l, uint32_t paradigm, uint32_t file)
{
    SCOREP_LOCATION_EVENT(l);
    if (!taken(l))
        return;
    uint64_t t = scorep_event_time(l);
    buf_io_rec *r = rec(l, t, BUF_IO_DELETE_FILE, file);
    if (r)
        r->paradigm = paradigm;
    SUBSTRATES(l, scorep_substrates_io_delete_file(l, t, paradigm, file));
}

void scorep_event_io_lock(scorep_location *l, scorep_io_lock_event which, uint32_t handle,
                          uint32_t type)
{
    SCOREP_LOCATION_EVENT(l);
    if (!taken(l))
        return;
    static const uint32_t types[] = {[SCOREP_IO_LOCK_ACQUIRE] = BUF_IO_ACQUIRE_LOCK,
                                     [SCOREP_IO_LOCK_RELEASE] = BUF_IO_RELEASE_LOCK,
                                     [SCOREP_IO_LOCK_TRY] = BUF_IO_TRY_LOCK};
    uint64_t t = scorep_event_time(l);
    buf_io_rec *r = rec(l, t, types[which], handle);
    if (r)
        r->op = type;
    SUBSTRATES(l, scorep_substrates_io_lock(l, t, (int)which, handle, type));
}

/* Score-P's metrics: exclusive, bytes, on the call path of the I/O call */
static uint32_t bytes_metric(scorep_io_op op)
{
    static uint32_t ids[2]; /* id + 1 */
    uint32_t id = __atomic_load_n(&ids[op], __ATOMIC_ACQUIRE);
    if (id)
        return id - 1;
    scorep_metric_def key = {op == SCOREP_IO_OP_READ ? "io_bytes_read" : "io_bytes_written",
                             "bytes",
                             SCOREP_METRIC_UINT64,
                             true,
                             .description =
                                 op == SCOREP_IO_OP_READ ? "I/O bytes read" : "I/O bytes written",
                             .source = SCOREP_MSRC_OTHER,
                             .mode = 4 /* absolute point */,
                             .base = 1,
                             .recorder = SCOREP_MREC_USER};
    id = scorep_defs_metric_full(&key);
    if (id != SCOREP_INVALID_ID)
        __atomic_store_n(&ids[op], id + 1, __ATOMIC_RELEASE);
    return id;
}

/* ---------------------------------------------------------------- per-handle counts */
enum { SIZE_BUCKETS = 10, STAT_CHUNK_BITS = 10, STAT_CHUNKS = 1 << 14 };
typedef struct {
    uint64_t bytes[2], flushes, failed;
    uint64_t sizes[2][SIZE_BUCKETS]; /* Darshan's access-size buckets */
    uint64_t unsized[2]; /* operations of unknown size (fscanf); with the buckets: operations */
} io_stats;
static io_stats *stat_chunks[STAT_CHUNKS]; /* published once, never freed */

void scorep_io_summary_finalize(void)
{
    scorep_io_write_summary(scorep_experiment_dir(), scorep_ipc_get()->rank());
}

int scorep_io_summary_claim(void)
{
    static int claimed;
    return !__atomic_load_n(&claimed, __ATOMIC_RELAXED) &&
           !__atomic_exchange_n(&claimed, 1, __ATOMIC_ACQ_REL);
}

/* The counters of a handle; a chunk of 1024 handles is allocated on its first use. NULL
 * without memory. */
static io_stats *stats_of(uint32_t handle)
{
    uint32_t c = handle >> STAT_CHUNK_BITS;
    if (c >= STAT_CHUNKS)
        return NULL;
    io_stats *p = __atomic_load_n(&stat_chunks[c], __ATOMIC_ACQUIRE);
    if (__builtin_expect(p == NULL, 0)) {
        io_stats *n = calloc(1u << STAT_CHUNK_BITS, sizeof *n);
        if (!n)
            return NULL;
        if (__atomic_compare_exchange_n(&stat_chunks[c], &p, n, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE))
            p = n;
        else
            free(n);
    }
    return &p[handle & ((1u << STAT_CHUNK_BITS) - 1)];
}

static int size_bucket(uint64_t b)
{
    static const uint64_t top[SIZE_BUCKETS - 1] = {100,     1024,     10240,     102400,    1048576,
                                                   4194304, 10485760, 104857600, 1073741824};
    int k = 0;
    while (k < SIZE_BUCKETS - 1 && b >= top[k])
        k++;
    return k;
}

static void count(uint32_t handle, scorep_io_op op, uint64_t transferred, uint32_t error)
{
    io_stats *s = stats_of(handle);
    if (!s)
        return;
    if (transferred == SCOREP_IO_UNKNOWN_BYTES && error)
        __atomic_fetch_add(&s->failed, 1, __ATOMIC_RELAXED);
    else if (op == SCOREP_IO_OP_FLUSH)
        __atomic_fetch_add(&s->flushes, 1, __ATOMIC_RELAXED);
    else if (transferred == SCOREP_IO_UNKNOWN_BYTES)
        __atomic_fetch_add(&s->unsized[op], 1, __ATOMIC_RELAXED);
    else {
        __atomic_fetch_add(&s->bytes[op], transferred, __ATOMIC_RELAXED);
        __atomic_fetch_add(&s->sizes[op][size_bucket(transferred)], 1, __ATOMIC_RELAXED);
    }
}

void scorep_event_io_operation_complete(scorep_location *l, uint32_t handle, scorep_io_op op,
                                        uint64_t transferred, uint64_t matching_id, uint32_t error)
{
    SCOREP_LOCATION_EVENT(l);
    if (taken(l)) {
        uint64_t t = scorep_event_time(l);
        buf_io_rec *r = rec(l, t, BUF_IO_OPERATION_COMPLETE, handle);
        if (r) {
            r->op = op;
            r->transferred = transferred;
            r->matching_id = matching_id;
            r->error = error;
        }
        SUBSTRATES(l, scorep_substrates_io_operation_complete(l, t, handle, op, transferred,
                                                              matching_id));
    }
    if (l && scorep_location_recording(l))
        count(handle, op, transferred, error);
    if (op == SCOREP_IO_OP_FLUSH || transferred == SCOREP_IO_UNKNOWN_BYTES || !l ||
        !scorep_location_recording(l) || !l->profiling)
        return;
    uint32_t m = bytes_metric(op);
    if (m != SCOREP_INVALID_ID)
        scorep_profile_metric(&l->profile, m, (double)transferred);
}

/* ------------------------------------------------------------------- the summary */
static int by_paradigm_file(const void *a, const void *b)
{
    const scorep_io_handle_def *x = scorep_defs_io_handle_get(*(const uint32_t *)a);
    const scorep_io_handle_def *y = scorep_defs_io_handle_get(*(const uint32_t *)b);
    if (x->paradigm != y->paradigm)
        return x->paradigm < y->paradigm ? -1 : 1;
    return x->file < y->file ? -1 : x->file > y->file;
}

static void add_stats(io_stats *sum, const io_stats *s)
{
    for (int w = 0; w < 2; w++) {
        sum->bytes[w] += s->bytes[w];
        sum->unsized[w] += s->unsized[w];
        for (int k = 0; k < SIZE_BUCKETS; k++)
            sum->sizes[w][k] += s->sizes[w][k];
    }
    sum->flushes += s->flushes;
    sum->failed += s->failed;
}

static void write_row(FILE *f, uint32_t paradigm, uint32_t file, const io_stats *s)
{
    uint64_t ops[2] = {s->unsized[0], s->unsized[1]};
    for (int w = 0; w < 2; w++)
        for (int k = 0; k < SIZE_BUCKETS; k++)
            ops[w] += s->sizes[w][k];
    fprintf(f, "%s\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu", scorep_io_paradigm_id(paradigm),
            (unsigned long long)s->bytes[0], (unsigned long long)s->bytes[1],
            (unsigned long long)ops[0], (unsigned long long)ops[1], (unsigned long long)s->flushes,
            (unsigned long long)s->failed);
    for (int w = 0; w < 2; w++)
        for (int k = 0; k < SIZE_BUCKETS; k++)
            fprintf(f, "%c%llu", k ? ',' : '\t', (unsigned long long)s->sizes[w][k]);
    fputc('\t', f);
    const char *name =
        file == SCOREP_INVALID_ID ? "(no file)" : scorep_defs_io_file_get(file)->name;
    for (const char *c = name; *c; c++) /* one line per row: tabs and newlines would split it */
        fputc(*c == '\t' || *c == '\n' || *c == '\r' ? '?' : *c, f);
    fputc('\n', f);
}

/* Rows sorted by paradigm and file id; handles without operations count too (a file opened
 * and closed). Written whole or not at all (base/atomic_file.h): a reader never sees half a
 * file. */
void scorep_io_write_summary(const char *dir, int rank)
{
    uint32_t n = scorep_defs_io_handle_count();
    if (!dir || !dir[0] || n == 0)
        return;
    uint32_t *order = malloc(n * sizeof *order);
    char path[4200], err[4400];
    snprintf(path, sizeof path, "%s/io_summary.%d.tsv", dir, rank);
    scorep_atomic_file af;
    if (!order)
        snprintf(err, sizeof err, "%s: out of memory", path);
    if (!order || scorep_atomic_open(&af, path, 0, err, sizeof err) != 0) {
        free(order);
        scorep_warn("%s; the report's I/O summary lacks rank %d", err, rank);
        return;
    }
    FILE *f = af.fp;
    for (uint32_t i = 0; i < n; i++)
        order[i] = i;
    qsort(order, n, sizeof *order, by_paradigm_file);
    fprintf(f,
            "# scorep-rt I/O summary of rank %d (docs/io.md): paradigm, bytes read, bytes "
            "written, reads, writes, flushes, failed operations, read sizes, write sizes "
            "(operations per access-size bucket: 0-100, 100-1K, 1K-10K, 10K-100K, 100K-1M, "
            "1M-4M, 4M-10M, 10M-100M, 100M-1G, 1G+ bytes), file\n",
            rank);
    io_stats sum;
    memset(&sum, 0, sizeof sum);
    for (uint32_t i = 0; i < n; i++) {
        const scorep_io_handle_def *h = scorep_defs_io_handle_get(order[i]);
        const io_stats *s = stats_of(order[i]);
        if (s)
            add_stats(&sum, s);
        const scorep_io_handle_def *next =
            i + 1 < n ? scorep_defs_io_handle_get(order[i + 1]) : NULL;
        if (!next || next->paradigm != h->paradigm || next->file != h->file) {
            write_row(f, h->paradigm, h->file, &sum);
            memset(&sum, 0, sizeof sum);
        }
    }
    free(order);
    if (scorep_atomic_commit(&af, err, sizeof err) != 0)
        scorep_warn("%s; the report's I/O summary lacks rank %d", err, rank);
}
