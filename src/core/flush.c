/* SPDX-License-Identifier: BSD-3-Clause */
/* flush.c: flush mode (SCOREP_TRACING_REDUCTION containing "flush"), Score-P's behaviour
 * for users who prefer complete traces over undisturbed timing: a full location writes all
 * its records, merged by time, to an unlinked spill file in the experiment directory, and
 * recording continues in the freed pages. The trace writer replays the file before the
 * records still in memory, with an OTF2 BufferFlush event for the time the flush took. */
#include "core/flush.h"
#include "core/location.h"
#include "substrates/substrates.h"
#include "base/fd_io.h"
#include "base/log.h"
#include "base/state.h"
#include "base/timer.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* Writes every record of b in time order; *last: the latest timestamp written, *count: the
 * records written. */
static int spill_records(scorep_buffer *b, int fd, uint64_t *last, uint64_t *count)
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
        (*count)++;
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
    if (b->spill_fd < 0) {
        struct stat st;
        if ((b->spill_fd = open_spill()) < 0)
            return -1;
        if (fstat(b->spill_fd, &st) == 0) {
            b->spill_dev = (uint64_t)st.st_dev;
            b->spill_ino = (uint64_t)st.st_ino;
        }
    }
    flushing = true;
    /* Substrate plugins get Score-P's ON_TRACING_BUFFER_FLUSH_BEGIN before the records are
     * written and _END after, on the buffer's location (every trace buffer is a location's),
     * with the BufferFlush record's time (one tick before the record that needs the memory:
     * the location's earlier records lie before it) and stop time. */
    scorep_location *l = (scorep_location *)(void *)((char *)b - offsetof(scorep_location, buffer));
    bool plugins = l->substrates_on;
    if (plugins)
        scorep_substrates_buffer_flush(l, ts - 1, false);
    int rc = flush_now(b, ts);
    if (plugins)
        scorep_substrates_buffer_flush(l, rc == 0 ? b->last_flush_ts : scorep_timer_ticks(), true);
    flushing = false;
    return rc;
}
static int flush_now(scorep_buffer *b, uint64_t ts)
{
    buf_region_rec *open = open_enters(b);
    uint64_t last = 0, written = 0;
    int rc = open ? spill_records(b, b->spill_fd, &last, &written) : -1;
    b->spill_recs += written; /* (what a failed write left is replayed as far as it is whole) */
    if (rc != 0) {
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
    b->spill_recs++;
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

/* Reads the records of fd from its start, at most LIMIT, and calls FN on each in file order;
 * *COUNT: the whole records read, *TAIL: the bytes after the last one (a record cut short).
 * Returns 0, or -1 on a read error. */
static int read_records(int fd, uint64_t limit, void (*fn)(void *ctx, const spill_rec *r),
                        void *ctx, uint64_t *count, size_t *tail)
{
    *count = 0;
    *tail = 0;
    if (lseek(fd, 0, SEEK_SET) != 0)
        return -1;
    spill_rec chunk[CHUNK];
    size_t have = 0;
    for (;;) {
        uint64_t left = limit - *count;
        size_t want = left < CHUNK ? (size_t)left * sizeof *chunk : sizeof chunk;
        ssize_t n = want > have ? read(fd, (char *)chunk + have, want - have) : 0;
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        have += (size_t)n;
        size_t k = have / sizeof *chunk;
        for (size_t i = 0; i < k; i++)
            fn(ctx, &chunk[i]);
        *count += k;
        memmove(chunk, (char *)chunk + k * sizeof *chunk, have - k * sizeof *chunk);
        have -= k * sizeof *chunk;
        if (n == 0) {
            *tail = have;
            return 0;
        }
    }
}

typedef struct {
    void (*fn)(void *ctx, const buf_item *it);
    void *ctx;
} replay_ctx;

static void replay_one(void *ctx, const spill_rec *r)
{
    const replay_ctx *c = ctx;
    buf_item it = {r->ts, r->type, r->a, r->b, r->has_mpi ? &r->mpi : NULL};
    c->fn(c->ctx, &it);
}

int scorep_flush_replay(const scorep_buffer *b, void (*fn)(void *ctx, const buf_item *it),
                        void *ctx)
{
    if (b->spill_fd < 0)
        return 0;
    replay_ctx c = {fn, ctx};
    uint64_t count;
    size_t tail;
    /* what a later write into the file left beyond spill_recs is no record */
    if (read_records(b->spill_fd, b->spill_recs, replay_one, &c, &count, &tail) != 0)
        return -1;
    return tail == 0 && count == b->spill_recs ? 0 : -1;
}

/* Every flushed record is lost: the enters that the flushes kept as placeholders for the
 * calls still open (each depth's first record) are written as enters, at the last flush,
 * so that the records still in memory stay nested in their calls. */
static void placeholders_to_enters(scorep_buffer *b)
{
    for (uint32_t d = 0; d < b->depth_cap; d++) {
        const buf_stream *s = &b->depth[d];
        if (!s->first || s->cur <= (char *)(s->first + 1))
            continue;
        buf_region_rec *r = (buf_region_rec *)(void *)(s->first + 1);
        if ((r->type & BUF_TYPE_MASK) == BUF_ENTER && (r->type & BUF_FLUSHED))
            r->type &= ~(uint32_t)BUF_FLUSHED;
    }
}

uint64_t scorep_flush_check_spill(scorep_buffer *b, buf_unread *why, char *text, size_t len)
{
    struct stat st;
    if (b->spill_fd < 0 || b->spill_recs == 0)
        return 0;
    uint64_t lost = b->spill_recs;
    bool closed = fstat(b->spill_fd, &st) != 0;
    if (closed || (uint64_t)st.st_dev != b->spill_dev || (uint64_t)st.st_ino != b->spill_ino) {
        *why = BUF_UNREAD_SPILL_GONE;
        snprintf(text, len, "its descriptor %d %s", b->spill_fd,
                 closed ? "is closed" : "leads to another file now");
        b->spill_fd = -1; /* (not closed: the number may be the program's now) */
        b->spill_recs = 0;
        placeholders_to_enters(b);
        return lost;
    }
    uint64_t whole = (uint64_t)st.st_size / sizeof(spill_rec);
    if (whole >= b->spill_recs)
        return 0;
    *why = BUF_UNREAD_SPILL_CUT;
    snprintf(text, len, "it was cut short to %llu of its %llu bytes",
             (unsigned long long)st.st_size,
             (unsigned long long)(b->spill_recs * sizeof(spill_rec)));
    lost = b->spill_recs - whole;
    b->spill_recs = whole;
    if (whole == 0)
        placeholders_to_enters(b);
    return lost;
}

/* The rank-local trace piece of a process that ends without the collective finalize: what
 * an earlier flush wrote, then the records still in memory, in the spill file's format. */
int scorep_flush_save(scorep_buffer *b, int fd, uint64_t *count)
{
    *count = 0;
    if (b->spill_fd >= 0) {
        char chunk[1 << 16];
        uint64_t left = b->spill_recs * sizeof(spill_rec); /* scorep_flush_check_spill */
        if (lseek(b->spill_fd, 0, SEEK_SET) != 0)
            return -1;
        while (left > 0) {
            ssize_t n = read(b->spill_fd, chunk, left < sizeof chunk ? (size_t)left : sizeof chunk);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) /* (shorter than it was at the check: no whole piece) */
                return -1;
            if (scorep_write_all(fd, chunk, (size_t)n) != 0)
                return -1;
            left -= (uint64_t)n;
        }
        *count = b->spill_recs;
    }
    uint64_t last = 0;
    return spill_records(b, fd, &last, count);
}

uint64_t scorep_flush_count(scorep_buffer *b)
{
    uint64_t n = b->spill_fd >= 0 ? b->spill_recs : 0;
    buf_merge *m = buf_merge_new(b);
    buf_item it;
    while (m && buf_merge_next(m, &it))
        n++;
    buf_merge_free(m);
    return n;
}

/* A record as spill_records writes it: zero padding, MPI fields only with has_mpi. */
static bool record_sound(const spill_rec *r, uint64_t after, uint64_t end_ts)
{
    static const buf_mpi_rec zero;
    return r->pad == 0 && r->has_mpi <= 1 && r->ts >= after && (end_ts == 0 || r->ts <= end_ts) &&
           (r->has_mpi || memcmp(&r->mpi, &zero, sizeof zero) == 0);
}

typedef struct {
    uint64_t last, end_ts, sound;
    bool ok;
} check_ctx;

static void check_one(void *ctx, const spill_rec *r)
{
    check_ctx *c = ctx;
    c->ok = c->ok && record_sound(r, c->last, c->end_ts);
    c->last = r->ts;
    c->sound += c->ok;
}

int scorep_flush_check_piece(int fd, uint64_t end_ts, uint64_t *sound, uint64_t *total,
                             uint64_t *tail)
{
    check_ctx c = {0, end_ts, 0, true};
    size_t t;
    *sound = *total = *tail = 0;
    if (read_records(fd, UINT64_MAX, check_one, &c, total, &t) != 0)
        return -1;
    *sound = c.sound;
    *tail = t;
    return lseek(fd, 0, SEEK_SET) == 0 ? 0 : -1;
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
