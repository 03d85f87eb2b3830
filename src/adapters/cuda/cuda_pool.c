/* SPDX-License-Identifier: BSD-3-Clause */
/* cuda_pool.c: the CUPTI activity buffers of the CUDA adapter: a pool that grows by chunks
 * when CUPTI asks for a buffer and none is free (up to SCOREP_CUDA_BUFFER_MAX), and a queue
 * of completed buffers that the adapter's consumer thread (or a sync point, or finalize)
 * processes, so that CUPTI's completion callback only hands a buffer over. */
#include "adapters/cuda/cuda_adapter.h"
#include "base/log.h"
#include "base/settings.h"
#include "base/timer.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each chunk starts with this header; CUPTI gets the bytes after it. */
typedef struct chunk {
    struct chunk *next;
    size_t valid;
    uint64_t host, gpu; /* the clock synchronisation point taken at completion */
    int has_sync;
} chunk;
#define HEADER ((sizeof(chunk) + 63) & ~(size_t)63)

int scorep_cuda_clock_from_cupti = 1;

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static chunk *free_list;
static size_t chunk_size; /* bytes handed to CUPTI */
static uint64_t n_chunks, n_free, peak_used, max_chunks, refused, dropped;
static int pool_ready;

/* the queue of completed buffers, oldest first */
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t queue_cond = PTHREAD_COND_INITIALIZER;
static chunk *q_head, *q_tail;
static int consumer_running, consumer_quit, stopped;
static pthread_t consumer;
/* one buffer processed at a time (records of a stream stay in order) */
static pthread_mutex_t process_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t buffers_done, records_done, late_buffers, late_records, failed_buffers;

static chunk *new_chunk(void)
{
    chunk *c = aligned_alloc(64, HEADER + chunk_size);
    if (c)
        memset(c, 0, HEADER);
    return c;
}

static uint8_t *data_of(chunk *c)
{
    return (uint8_t *)c + HEADER;
}

static chunk *chunk_of(uint8_t *data)
{
    return (chunk *)(data - HEADER);
}

int scorep_cuda_pool_init(void)
{
    pthread_mutex_lock(&pool_lock);
    int rc = 0;
    if (!pool_ready) {
        size_t cs = scorep_cfg.cuda_buffer_chunk < 1024 ? 1024 : scorep_cfg.cuda_buffer_chunk;
        chunk_size = (cs + 7) & ~(size_t)7; /* CUPTI wants 8-byte aligned sizes */
        uint64_t first = scorep_cfg.cuda_buffer / chunk_size;
        max_chunks = scorep_cfg.cuda_buffer_max / chunk_size;
        if (first < 2)
            first = 2;
        if (max_chunks < first)
            max_chunks = first;
        for (uint64_t i = 0; i < first && rc == 0; i++) {
            chunk *c = new_chunk();
            if (!c) {
                rc = -1;
                break;
            }
            c->next = free_list;
            free_list = c;
            n_chunks++;
            n_free++;
        }
        pool_ready = rc == 0;
    }
    pthread_mutex_unlock(&pool_lock);
    return rc;
}

static void give_back(chunk *c)
{
    pthread_mutex_lock(&pool_lock);
    c->next = free_list;
    free_list = c;
    n_free++;
    pthread_mutex_unlock(&pool_lock);
}

void CUPTIAPI scorep_cuda_buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    chunk *c = NULL;
    pthread_mutex_lock(&pool_lock);
    if (free_list) {
        c = free_list;
        free_list = c->next;
        n_free--;
    } else if (pool_ready && n_chunks < max_chunks && (c = new_chunk()) != NULL) {
        n_chunks++; /* grown: CUPTI's thread waits for one allocation, records are kept */
    } else {
        refused++;
    }
    if (c && n_chunks - n_free > peak_used)
        peak_used = n_chunks - n_free;
    pthread_mutex_unlock(&pool_lock);
    *buffer = c ? data_of(c) : NULL;
    *size = c ? chunk_size : 0;
    *max_records = 0;
}

/* Counts the records of a buffer that came after processing stopped. */
static uint64_t count_records(uint8_t *buffer, size_t valid)
{
    CUpti_Activity *r = NULL;
    uint64_t n = 0;
    while (valid > 0 && cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS)
        n++;
    return n;
}

static void process_chunk(chunk *c)
{
    pthread_mutex_lock(&process_lock);
    if (c->has_sync)
        scorep_cuda_clock_sync(&scorep_cuda_activity_clock, c->host, c->gpu);
    int n = stopped ? 0 : scorep_cuda_process_buffer(data_of(c), c->valid);
    if (stopped) {
        late_buffers++;
        late_records += count_records(data_of(c), c->valid);
    } else if (n < 0) {
        failed_buffers++;
    } else {
        buffers_done++;
        records_done += (uint64_t)n;
    }
    pthread_mutex_unlock(&process_lock);
    give_back(c);
}

/* Processes what is queued now on the calling thread; the number of buffers. */
uint64_t scorep_cuda_drain(void)
{
    uint64_t n = 0;
    for (;;) {
        pthread_mutex_lock(&queue_lock);
        chunk *c = q_head;
        if (c) {
            q_head = c->next;
            if (!q_head)
                q_tail = NULL;
        }
        pthread_mutex_unlock(&queue_lock);
        if (!c)
            return n;
        process_chunk(c);
        n++;
    }
}

void CUPTIAPI scorep_cuda_buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer,
                                           size_t size, size_t valid)
{
    (void)size;
    size_t d = 0;
    if (cuptiActivityGetNumDroppedRecords(ctx, stream, &d) == CUPTI_SUCCESS && d)
        __atomic_add_fetch(&dropped, d, __ATOMIC_RELAXED);
    if (!buffer)
        return;
    chunk *c = chunk_of(buffer);
    uint64_t gpu;
    c->has_sync = scorep_cuda_clock_from_cupti && cuptiGetTimestamp(&gpu) == CUPTI_SUCCESS;
    if (c->has_sync) {
        c->host = scorep_timer_ticks();
        c->gpu = gpu;
    }
    c->valid = valid;
    c->next = NULL;
    pthread_mutex_lock(&queue_lock);
    if (q_tail)
        q_tail->next = c;
    else
        q_head = c;
    q_tail = c;
    int late = stopped;
    pthread_cond_signal(&queue_cond);
    pthread_mutex_unlock(&queue_lock);
    if (late) /* finalize has drained already: count it here */
        scorep_cuda_drain();
}

static void *consumer_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&queue_lock);
    while (!consumer_quit) {
        if (!q_head) {
            pthread_cond_wait(&queue_cond, &queue_lock);
            continue;
        }
        pthread_mutex_unlock(&queue_lock);
        scorep_cuda_drain();
        pthread_mutex_lock(&queue_lock);
    }
    pthread_mutex_unlock(&queue_lock);
    return NULL;
}

int scorep_cuda_consumer_start(void)
{
    pthread_mutex_lock(&queue_lock);
    int rc = 0;
    if (!consumer_running && !stopped) {
        rc = pthread_create(&consumer, NULL, consumer_main, NULL) == 0 ? 0 : -1;
        consumer_running = rc == 0;
    }
    pthread_mutex_unlock(&queue_lock);
    return rc;
}

void scorep_cuda_consumer_stop(void)
{
    pthread_mutex_lock(&queue_lock);
    int join = consumer_running;
    consumer_quit = 1;
    consumer_running = 0;
    pthread_cond_signal(&queue_cond);
    pthread_mutex_unlock(&queue_lock);
    if (join)
        pthread_join(consumer, NULL);
    scorep_cuda_drain();
    pthread_mutex_lock(&queue_lock);
    pthread_mutex_lock(&process_lock);
    stopped = 1;
    pthread_mutex_unlock(&process_lock);
    pthread_mutex_unlock(&queue_lock);
    scorep_cuda_drain(); /* completed between the drain and the flag: counted as late */
}

void scorep_cuda_pool_stats(scorep_cuda_pool_info *out)
{
    pthread_mutex_lock(&pool_lock);
    out->chunk_size = chunk_size;
    out->chunks = n_chunks;
    out->free_chunks = n_free;
    out->peak_used = peak_used;
    out->max_chunks = max_chunks;
    out->refused = refused;
    pthread_mutex_unlock(&pool_lock);
    pthread_mutex_lock(&process_lock);
    out->buffers = buffers_done;
    out->records = records_done;
    out->failed_buffers = failed_buffers;
    out->late_buffers = late_buffers;
    out->late_records = late_records;
    pthread_mutex_unlock(&process_lock);
    out->dropped = __atomic_load_n(&dropped, __ATOMIC_RELAXED);
}

void scorep_cuda_pool_note(const scorep_cuda_pool_info *p, char *out, size_t len)
{
    out[0] = 0;
    if (!p->dropped && !p->late_records && !p->refused && !p->failed_buffers)
        return;
    snprintf(out, len,
             "CUDA: activity records lost: %llu dropped by CUPTI (%llu buffer requests refused "
             "at the cap SCOREP_CUDA_BUFFER_MAX=%llu bytes; pool peak %llu chunks of %llu "
             "bytes), %llu completed after finalize (%llu buffers), %llu buffers not recorded "
             "for lack of memory; the profile and trace miss them",
             (unsigned long long)p->dropped, (unsigned long long)p->refused,
             (unsigned long long)(p->max_chunks * p->chunk_size),
             (unsigned long long)p->peak_used, (unsigned long long)p->chunk_size,
             (unsigned long long)p->late_records, (unsigned long long)p->late_buffers,
             (unsigned long long)p->failed_buffers);
}
