/* SPDX-License-Identifier: BSD-3-Clause */
/* flush.c: flush mode (SCOREP_TRACING_REDUCTION containing "flush"), Score-P's behaviour
 * for users who prefer complete traces over undisturbed timing: a full location writes all
 * its records, merged by time, to an unlinked spill file in the experiment directory, and
 * recording continues in the freed pages. The trace writer replays the file before the
 * records still in memory, with an OTF2 BufferFlush event for the time the flush took. */
#include "core/flush.h"
#include "base/fd_io.h"
#include "base/log.h"
#include "base/state.h"
#include "base/timer.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    uint64_t ts, b;
    uint32_t type, a;
    uint32_t has_mpi, pad;
    buf_mpi_rec mpi;
} spill_rec;

enum { CHUNK = 256 };

static int open_spill(void)
{
    const char *dir = scorep_experiment_dir();
    char path[PATH_MAX];
    if (!dir || !*dir)
        dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(path, sizeof path, "%s/.scorep-spill-XXXXXX", dir);
    int fd = mkstemp(path);
    if (fd >= 0)
        unlink(path); /* gone with the process, whatever happens */
    else
        scorep_warn("cannot create a spill file in '%s' for flushing the trace buffer: %s", dir,
                    strerror(errno));
    return fd;
}

/* Writes every record of b in time order; *last: the latest timestamp written. */
static int spill_records(scorep_buffer *b, int fd, uint64_t *last)
{
    buf_merge *m = buf_merge_new(b);
    spill_rec chunk[CHUNK];
    size_t n = 0;
    buf_item it;
    int rc = m ? 0 : -1;
    while (rc == 0 && m && buf_merge_next(m, &it)) {
        spill_rec *r = &chunk[n++];
        memset(r, 0, sizeof *r);
        r->ts = it.ts;
        r->b = it.b;
        r->type = it.type;
        r->a = it.a;
        if (it.mpi) {
            r->has_mpi = 1;
            r->mpi = *it.mpi;
        }
        *last = it.ts;
        if (n == CHUNK) {
            rc = scorep_write_all(fd, chunk, n * sizeof *chunk);
            n = 0;
        }
    }
    buf_merge_free(m);
    return rc == 0 && n ? scorep_write_all(fd, chunk, n * sizeof *chunk) : rc;
}

static void release_stream(scorep_buffer *b, buf_stream *s)
{
    for (buf_page *p = s->first, *next; p; p = next) {
        next = p->next;
        p->next = b->spare;
        b->spare = p;
        b->n_pages--;
    }
    memset(s, 0, sizeof *s);
}

/* The enters of the calls open now, one per depth (type 0 where none is open). */
static buf_region_rec *open_enters(const scorep_buffer *b)
{
    buf_region_rec *open = calloc(b->depth_cap, sizeof *open);
    for (uint32_t d = 0; open && d < b->depth_cap; d++) {
        const buf_stream *s = &b->depth[d];
        if (s->cur <= s->start)
            continue;
        const buf_region_rec *e = (const buf_region_rec *)(const void *)s->cur - 1;
        if ((e->type & BUF_TYPE_MASK) == BUF_ENTER)
            open[d] = *e;
    }
    return open;
}

static int flush_now(scorep_buffer *b, uint64_t ts);

static int flush(scorep_buffer *b, uint64_t ts)
{
    static __thread bool flushing;
    if (flushing)
        return -1; /* the open calls' enters alone need more pages than there are */
    if (b->spill_fd < 0 && (b->spill_fd = open_spill()) < 0)
        return -1;
    flushing = true;
    int rc = flush_now(b, ts);
    flushing = false;
    return rc;
}
static int flush_now(scorep_buffer *b, uint64_t ts)
{
    buf_region_rec *open = open_enters(b);
    uint64_t last = 0;
    if (!open || spill_records(b, b->spill_fd, &last) != 0) {
        free(open);
        scorep_warn("writing the trace buffer to its spill file failed; the trace stops here");
        return -1;
    }
    /* the flush begins after the last record written and ends now; the record that needs
     * the memory (timestamp ts) follows it. Timestamps of a location are strictly increasing
     * (scorep_location_now), but two records may be a single tick apart (the clock read no
     * later than the previous one): then the marker shares the last record's timestamp. */
    uint64_t begin = ts > last + 1 ? ts - 1 : last;
    spill_rec mark = {.ts = begin, .b = scorep_timer_ticks(), .type = BUF_EV_BUFFER_FLUSH};
    if (scorep_write_all(b->spill_fd, &mark, sizeof mark) != 0) {
        free(open);
        return -1;
    }
    for (uint32_t d = 0; d < b->depth_cap; d++)
        release_stream(b, &b->depth[d]);
    for (int k = 0; k < BUF_CLASS_COUNT; k++)
        release_stream(b, &b->cls[k]);
    /* open calls keep a placeholder enter, so that their leaves are still recorded */
    for (uint32_t d = 0; d < b->depth_cap; d++) {
        if (!open[d].type)
            continue;
        buf_region_rec *r = scorep_buffer_alloc(b, &b->depth[d], ts, sizeof *r);
        if (r) {
            *r = open[d];
            r->type = BUF_ENTER | BUF_FLUSHED;
        }
    }
    free(open);
    b->n_flushes++;
    b->last_flush_ts = mark.b;
    return 0;
}

void scorep_flush_install(void)
{
    scorep_buffer_flush_hook = flush;
}

int scorep_flush_replay(const scorep_buffer *b, void (*fn)(void *ctx, const buf_item *it),
                        void *ctx)
{
    if (b->spill_fd < 0)
        return 0;
    if (lseek(b->spill_fd, 0, SEEK_SET) != 0)
        return -1;
    spill_rec chunk[CHUNK];
    size_t have = 0;
    for (;;) {
        ssize_t n = read(b->spill_fd, (char *)chunk + have, sizeof chunk - have);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        have += (size_t)n;
        size_t k = have / sizeof *chunk;
        for (size_t i = 0; i < k; i++) {
            const spill_rec *r = &chunk[i];
            buf_item it = {r->ts, r->type, r->a, r->b, r->has_mpi ? &r->mpi : NULL};
            fn(ctx, &it);
        }
        memmove(chunk, (char *)chunk + k * sizeof *chunk, have - k * sizeof *chunk);
        have -= k * sizeof *chunk;
        if (n == 0)
            return have == 0 ? 0 : -1;
    }
}

/* The rank-local trace piece of a process that ends without the collective finalize: what
 * an earlier flush wrote, then the records still in memory, in the spill file's format. */
int scorep_flush_save(scorep_buffer *b, int fd)
{
    if (b->spill_fd >= 0) {
        char chunk[1 << 16];
        if (lseek(b->spill_fd, 0, SEEK_SET) != 0)
            return -1;
        for (;;) {
            ssize_t n = read(b->spill_fd, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                return -1;
            if (n == 0)
                break;
            if (scorep_write_all(fd, chunk, (size_t)n) != 0)
                return -1;
        }
    }
    uint64_t last = 0;
    return spill_records(b, fd, &last);
}

/* A record as spill_records writes it: zero padding, MPI fields only with has_mpi. */
static bool record_sound(const spill_rec *r, uint64_t after, uint64_t end_ts)
{
    static const buf_mpi_rec zero;
    return r->pad == 0 && r->has_mpi <= 1 && r->ts >= after && (end_ts == 0 || r->ts <= end_ts) &&
           (r->has_mpi || memcmp(&r->mpi, &zero, sizeof zero) == 0);
}

int scorep_flush_check_piece(int fd, uint64_t end_ts, uint64_t *sound, uint64_t *total,
                             uint64_t *tail)
{
    *sound = *total = *tail = 0;
    if (lseek(fd, 0, SEEK_SET) != 0)
        return -1;
    spill_rec chunk[CHUNK];
    size_t have = 0;
    uint64_t last = 0;
    bool ok = true;
    for (;;) {
        ssize_t n = read(fd, (char *)chunk + have, sizeof chunk - have);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        have += (size_t)n;
        size_t k = have / sizeof *chunk;
        for (size_t i = 0; i < k; i++) {
            ok = ok && record_sound(&chunk[i], last, end_ts);
            last = chunk[i].ts;
            *sound += ok;
        }
        *total += k;
        memmove(chunk, (char *)chunk + k * sizeof *chunk, have - k * sizeof *chunk);
        have -= k * sizeof *chunk;
        if (n == 0) {
            *tail = have;
            return lseek(fd, 0, SEEK_SET) == 0 ? 0 : -1;
        }
    }
}

int scorep_flush_copy_records(int fd, uint64_t n)
{
    FILE *tmp = tmpfile();
    int out = tmp ? dup(fileno(tmp)) : -1;
    if (tmp)
        fclose(tmp);
    if (out < 0 || lseek(fd, 0, SEEK_SET) != 0) {
        if (out >= 0)
            close(out);
        return -1;
    }
    spill_rec chunk[CHUNK];
    while (n > 0) {
        size_t want = n < CHUNK ? (size_t)n : CHUNK, have = 0;
        while (have < want * sizeof *chunk) {
            ssize_t r = read(fd, (char *)chunk + have, want * sizeof *chunk - have);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0) {
                close(out);
                return -1;
            }
            have += (size_t)r;
        }
        if (scorep_write_all(out, chunk, have) != 0) {
            close(out);
            return -1;
        }
        n -= want;
    }
    if (lseek(out, 0, SEEK_SET) != 0) {
        close(out);
        return -1;
    }
    return out;
}
