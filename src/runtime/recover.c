/* SPDX-License-Identifier: BSD-3-Clause */
/* recover.c: scorep-recover's side of the runtime. One process per rank-local piece
 * (rescue.c) restores that rank's state (settings, timer, definitions, locations with their
 * profiles and trace files) and runs the finalize's own writers over the ipc backend that
 * connects the recovering processes (ipc_mesh.c): unification, system tree, Cube and OTF2
 * are the code paths of MPI_Finalize, not a second implementation. */
#include "runtime/runtime.h"
#include "runtime/runtime_int.h"
#include "base/memory.h"
#include "base/timer.h"
#include "core/clock_sync.h"
#include "core/events_io.h"
#include "core/flush.h"
#include "defs/unify.h"
#include "ipc/ipc.h"
#include "profile/profile_ser.h"
#include "writers/experiment.h"
#include "writers/profile_cube.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { PIECE_MAGIC = 0x53525043u, PIECE_VERSION = 6 }; /* rescue.c */

uint64_t scorep_piece_hash(const unsigned char *p, size_t len)
{
    uint64_t h = 0xcbf29ce484222325u; /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 0x100000001b3u;
    return h;
}

/* Whether the piece's closing hash matches the bytes before it; *len then excludes it. */
static bool piece_hash_ok(const unsigned char *data, size_t *len)
{
    if (*len < 8)
        return false;
    ser_reader t = {data + *len - 8, data + *len, 0};
    uint64_t stored = ser_get_u64(&t);
    if (t.failed || stored != scorep_piece_hash(data, *len - 8))
        return false;
    *len -= 8;
    return true;
}

static unsigned char *read_whole(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *data = NULL;
    size_t cap = 0, n = 0, k;
    do {
        if (n == cap) {
            unsigned char *d = realloc(data, cap = cap ? 2 * cap : 1 << 16);
            if (!d) {
                free(data);
                fclose(f);
                return NULL;
            }
            data = d;
        }
        k = fread(data + n, 1, cap - n, f);
        n += k;
    } while (k > 0);
    fclose(f);
    *len = n;
    return data;
}

/* A string as ser_str writes it, skipped (ser_get_str's copy, freed). */
static void skip_str(ser_reader *r)
{
    free(ser_get_str(r));
}

static void skip_blob(ser_reader *r)
{
    uint64_t n = ser_get_u64(r);
    if (!r->failed && n > (uint64_t)(r->end - r->p))
        r->failed = 1;
    else
        (void)ser_get(r, (size_t)n);
}

/* Every section of a piece after its header is where its lengths say, up to the end of the
 * file: a piece cut short (a full disk) is left out whole rather than half restored. */
static void check_body(ser_reader *r)
{
    (void)ser_get_u64(r);   /* end_raw */
    if (ser_get_u32(r) > 1) /* the job's kind: serial 0, several processes 1 */
        r->failed = 1;
    skip_str(r); /* program */
    skip_str(r); /* node */
    (void)ser_get_u32(r);
    (void)ser_get_u64(r);
    for (int i = 0; i < SCOREP_TIMER_STATE_WORDS; i++)
        (void)ser_get_u64(r);
    uint32_t n = ser_get_u32(r);
    for (uint32_t i = 0; i < n && !r->failed; i++)
        (void)ser_get(r, 24);
    n = ser_get_u32(r);
    for (uint32_t i = 0; i < n && !r->failed; i++)
        skip_str(r);
    skip_blob(r); /* definitions */
    n = ser_get_u32(r);
    for (uint32_t i = 0; i < n && !r->failed; i++) {
        (void)ser_get_u32(r); /* id */
        skip_str(r);          /* name */
        (void)ser_get(r, 5 * 4 + 3 * 8 + 4 + 2 * 8 + 8);
        uint32_t n_log = ser_get_u32(r); /* the reduction log */
        if (n_log > BUF_MAX_LOG)
            r->failed = 1;
        else
            (void)ser_get(r, (size_t)n_log * (4 + 3 * 8));
        skip_blob(r); /* call tree */
    }
    if (!r->failed && r->p != r->end)
        r->failed = 1;
}

int scorep_runtime_piece_info(const char *path, scorep_piece_info *info)
{
    size_t len;
    unsigned char *data = read_whole(path, &len);
    if (!data)
        return -1;
    if (!piece_hash_ok(data, &len)) {
        free(data);
        return -1;
    }
    ser_reader r = {data, data + len, 0};
    uint32_t magic = ser_get_u32(&r), version = ser_get_u32(&r);
    info->rank = (int)ser_get_u32(&r);
    info->size = (int)ser_get_u32(&r);
    info->kind = (int)ser_get_u32(&r);
    info->code = (int)ser_get_u32(&r);
    info->wall_ns = ser_get_u64(&r);
    bool ok = !r.failed && magic == PIECE_MAGIC && version == PIECE_VERSION && info->size > 0 &&
              info->rank >= 0 && info->rank < info->size;
    if (ok)
        check_body(&r);
    free(data);
    if (!r.failed && magic == PIECE_MAGIC && version != PIECE_VERSION)
        return -2;
    return ok && !r.failed ? 0 : -1;
}

void scorep_runtime_ending_text(int kind, int code, char *buf, size_t len)
{
    static const struct {
        int sig;
        const char *name;
    } sigs[] = {{1, "SIGHUP"},   {2, "SIGINT"},   {4, "SIGILL"},   {6, "SIGABRT"},
                {7, "SIGBUS"},   {8, "SIGFPE"},   {10, "SIGUSR1"}, {11, "SIGSEGV"},
                {12, "SIGUSR2"}, {15, "SIGTERM"}, {24, "SIGXCPU"}};
    switch (kind) {
    case SCOREP_END_CHECKPOINT:
        snprintf(buf, len, "killed (SIGKILL?); data up to its last checkpoint");
        return;
    case SCOREP_END_EXIT:
        snprintf(buf, len, "exit(%d) without MPI_Finalize", code);
        return;
    case SCOREP_END_ABORT:
        snprintf(buf, len, "MPI_Abort (error code %d)", code);
        return;
    case SCOREP_END_SIGNAL:
        for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
            if (sigs[i].sig == code) {
                snprintf(buf, len, "signal %s", sigs[i].name);
                return;
            }
        snprintf(buf, len, "signal %d", code);
        return;
    default:
        snprintf(buf, len, "unknown (%d)", kind);
    }
}

/* the dead process's SCOREP_* environment: its settings, not scorep-recover's */
static char **piece_env;
static uint32_t n_piece_env;

static const char *piece_lookup(const char *name)
{
    size_t n = strlen(name);
    for (uint32_t i = 0; i < n_piece_env; i++)
        if (strncmp(piece_env[i], name, n) == 0 && piece_env[i][n] == '=')
            return piece_env[i] + n + 1;
    return NULL;
}

typedef struct {
    int rank, size, kind, code;
    uint64_t wall_ns, end_raw;
    uint32_t multi; /* the job ran over several processes' backend (MPI, SHMEM) */
} header;

static int restore_settings(ser_reader *r, header *h)
{
    char *program = ser_get_str(r), *node = ser_get_str(r);
    uint32_t program_region = ser_get_u32(r);
    uint64_t begin = ser_get_u64(r), timer[SCOREP_TIMER_STATE_WORDS];
    for (int i = 0; i < SCOREP_TIMER_STATE_WORDS; i++)
        timer[i] = ser_get_u64(r);
    uint32_t n_pts = ser_get_u32(r);
    scorep_clock_point pts[64];
    for (uint32_t i = 0; i < n_pts && !r->failed; i++) {
        scorep_clock_point p = {ser_get_u64(r), (int64_t)ser_get_u64(r), ser_get_f64(r)};
        if (i < 64)
            pts[i] = p;
    }
    n_piece_env = ser_get_u32(r);
    piece_env = calloc(n_piece_env + 1, sizeof *piece_env);
    for (uint32_t i = 0; piece_env && i < n_piece_env && !r->failed; i++)
        piece_env[i] = ser_get_str(r);
    char err[2048];
    if (r->failed || !program || !piece_env) {
        free(program);
        free(node);
        return -1;
    }
    if (scorep_cfg_apply(scorep_cfg_vars, scorep_cfg_n_vars, piece_lookup, err, sizeof err) != 0) {
        fprintf(stderr, "scorep-recover: rank %d's settings: %s\n", h->rank, err);
        return -1;
    }
    free(scorep_cfg.node_name); /* the rank's host, not this one */
    scorep_cfg.node_name = node;
    scorep_state_set_program_name(program);
    free(program);
    scorep_state_set_program_begin_ts(begin);
    scorep_state_set_program_region(program_region);
    scorep_state_set_job_rank(h->rank); /* a subset's ranks keep their names */
    scorep_timer_restore(timer);
    scorep_clock_points_restore(pts, n_pts < 64 ? (int)n_pts : 64);
    return 0;
}

/* A rank-local trace piece cut short (the rank died while writing it, a full disk),
 * emptied or damaged: its sound records are recovered, from a copy (the piece stays as it
 * is), and the rest is named, on stderr and in the location's log (MANIFEST.md's "What the
 * trace lacks", an OTF2 marker). expect: the records the rescue wrote into it. 0, or -1 when
 * the piece cannot be read. */
static int sound_records(scorep_buffer *b, const char *path, uint64_t end_ts, uint64_t expect,
                         uint64_t first_ts)
{
    uint64_t sound, total, tail;
    if (scorep_flush_check_piece(b->spill_fd, end_ts, &sound, &total, &tail) != 0) {
        fprintf(stderr, "scorep-recover: cannot read %s: %s\n", path, strerror(errno));
        return -1;
    }
    b->spill_recs = sound;
    if (sound == total && tail == 0 && total >= expect)
        return 0;
    uint64_t lost = expect > sound ? expect - sound : total + (tail > 0) - sound;
    buf_unread why;
    if (sound < total) {
        why = BUF_UNREAD_PIECE_DAMAGED;
        fprintf(stderr,
                "scorep-recover: %s is damaged from its record %" PRIu64 " on (of %" PRIu64
                ": not as scorep-rt writes them, or out of time order); the %" PRIu64
                " records before it are recovered, the rest is left out\n",
                path, sound + 1, total + (tail > 0), sound);
    } else if (total == 0 && tail == 0) {
        why = BUF_UNREAD_PIECE_EMPTY;
        fprintf(stderr,
                "scorep-recover: %s is empty (0 bytes; the rescue wrote %" PRIu64
                " records into it); its location has no events\n",
                path, expect);
    } else if (tail > 0) {
        why = BUF_UNREAD_PIECE_CUT;
        fprintf(stderr,
                "scorep-recover: %s is cut short (its last record has %" PRIu64 " of its "
                "bytes); its %" PRIu64 " whole records are recovered\n",
                path, tail, sound);
    } else {
        why = BUF_UNREAD_PIECE_CUT;
        fprintf(stderr,
                "scorep-recover: %s is cut short (%" PRIu64 " of the %" PRIu64
                " records the rescue wrote into it); they are recovered\n",
                path, sound, expect);
    }
    scorep_buffer_log(b, BUF_STEP_UNREAD, why, why == BUF_UNREAD_PIECE_EMPTY ? first_ts : end_ts,
                      lost);
    if (sound == total && tail == 0)
        return 0; /* whole records only: the piece itself is replayed */
    int *fd = &b->spill_fd;
    int copy = scorep_flush_copy_records(*fd, sound);
    if (copy < 0) {
        fprintf(stderr, "scorep-recover: cannot copy the sound records of %s: %s\n", path,
                strerror(errno));
        return -1;
    }
    close(*fd);
    *fd = copy;
    return 0;
}

static int restore_location(ser_reader *r, const char *dir, int rank)
{
    uint32_t id = ser_get_u32(r);
    char *name = ser_get_str(r);
    uint32_t create_seq = ser_get_u32(r), parent_id = ser_get_u32(r);
    bool gpu = ser_get_u32(r), profiling = ser_get_u32(r), trace = ser_get_u32(r);
    uint64_t first_ts = ser_get_u64(r), end_ts = ser_get_u64(r), last_ts = ser_get_u64(r);
    bool full = ser_get_u32(r);
    uint64_t full_ts = ser_get_u64(r), lost = ser_get_u64(r), records = ser_get_u64(r);
    uint32_t n_log = ser_get_u32(r);
    buf_reduction log[BUF_MAX_LOG];
    for (uint32_t i = 0; i < n_log && i < BUF_MAX_LOG && !r->failed; i++) {
        log[i].rule = ser_get_u32(r);
        log[i].param = ser_get_u64(r);
        log[i].ts = ser_get_u64(r);
        log[i].removed = ser_get_u64(r);
    }
    uint64_t plen = ser_get_u64(r);
    const unsigned char *prof = ser_get(r, plen);
    scorep_location *l =
        r->failed ? NULL
                  : scorep_location_restore(name ? name : "", create_seq, parent_id, gpu, first_ts);
    free(name);
    if (!l || l->id != id)
        return -1;
    l->end_ts = end_ts;
    l->last_ts = last_ts;
    l->finished = true;
    l->profiling = profiling && scorep_cfg.enable_profiling;
    scorep_location_modes_changed(l);
    ser_reader pr = {prof, prof + plen, 0};
    if (l->profiling && plen && scorep_profile_unpack(&l->profile, &pr) != 0)
        return -1;
    if (l->tracing) {
        l->buffer.full = full;
        l->buffer.full_ts = full_ts;
        l->buffer.lost = lost;
        for (uint32_t i = 0; i < n_log && i < BUF_MAX_LOG; i++)
            scorep_buffer_log(&l->buffer, (buf_step)log[i].rule, log[i].param, log[i].ts,
                              log[i].removed);
    }
    if (l->tracing && trace) {
        char path[PATH_MAX + 64];
        snprintf(path, sizeof path, "%s/rescue/rank-%d.loc-%u.trace", dir, rank, id);
        l->buffer.spill_fd = open(path, O_RDONLY | O_CLOEXEC);
        if (l->buffer.spill_fd < 0) {
            fprintf(stderr,
                    "scorep-recover: %s is missing; rank %d's location %u has no "
                    "events\n",
                    path, rank, id);
            scorep_buffer_log(&l->buffer, BUF_STEP_UNREAD, BUF_UNREAD_PIECE_MISSING, first_ts,
                              records);
        } else if (sound_records(&l->buffer, path, end_ts, records, first_ts) != 0)
            return -1;
    }
    return 0;
}

/* A rank that left no piece: one location named as the donor piece's first (the master
 * thread), without events or profile, so that the job keeps all its ranks in world order
 * (OTF2's MPI groups index the MPI location group by world rank). */
static int placeholder_location(ser_reader *r)
{
    (void)ser_get_u32(r); /* the donor's location id */
    char *name = ser_get_str(r);
    scorep_location *l = r->failed ? NULL
                                   : scorep_location_restore(name ? name : "", 0, 0, false,
                                                             scorep_program_begin_ts());
    free(name);
    if (!l || l->id != 0)
        return -1;
    l->end_ts = l->last_ts = l->first_ts;
    l->finished = true;
    l->profiling = scorep_cfg.enable_profiling;
    scorep_location_modes_changed(l);
    return 0;
}

/* Rank 0 of the recovery: which ranks ended how, into MANIFEST.md (a note) and the Cube
 * file (global attributes, before it is written). */
static int gather_endings(const scorep_ipc *ipc, const header *h, int orig_size,
                          const char *missing)
{
    int64_t mine[5] = {h->rank, h->kind, h->code, (int64_t)h->wall_ns, scorep_job_rank_missing()};
    int64_t *all = ipc->rank() == 0 ? malloc((size_t)ipc->size() * sizeof mine) : NULL;
    if (ipc->rank() == 0 && !all)
        return -1;
    int rc = ipc->gather(mine, sizeof mine, all, 0);
    if (ipc->rank() != 0 || rc != 0) {
        free(all);
        return rc;
    }
    char line[512];
    int recovered = 0;
    for (int i = 0; i < ipc->size(); i++)
        recovered += all[5 * i + 4] == 0;
    snprintf(line, sizeof line,
             "recovered by scorep-recover from the rank-local pieces in `rescue/` (%d of %d "
             "ranks)",
             recovered, orig_size);
    scorep_experiment_note(line);
    for (int i = 0; i < ipc->size(); i++) {
        char how[96], when[64], key[64];
        if (all[5 * i + 4])
            continue; /* a placeholder: listed as missing below */
        scorep_runtime_ending_text((int)all[5 * i + 1], (int)all[5 * i + 2], how, sizeof how);
        time_t t = (time_t)(all[5 * i + 3] / 1000000000);
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
        snprintf(line, sizeof line, "rank %d: %s, at %s", (int)all[5 * i], how, when);
        scorep_experiment_note(line);
        snprintf(key, sizeof key, "scorep-rt rank %d ended", (int)all[5 * i]);
        snprintf(line, sizeof line, "%s, at %s", how, when);
        scorep_profile_cube_add_attr(key, line);
    }
    if (missing && *missing) {
        snprintf(line, sizeof line, "missing (no whole piece): rank %s", missing);
        scorep_experiment_note(line);
        scorep_profile_cube_add_attr("scorep-rt ranks missing", missing);
    }
    free(all);
    return 0;
}

int scorep_runtime_recover(const char *dir, const char *piece, const scorep_ipc *ipc, int orig_size,
                           const char *missing, int missing_rank)
{
    size_t len;
    unsigned char *data = read_whole(piece, &len);
    if (!data) {
        fprintf(stderr, "scorep-recover: cannot read %s\n", piece);
        return -1;
    }
    bool whole = piece_hash_ok(data, &len);
    ser_reader r = {data, data + len, 0};
    header h;
    uint32_t magic = ser_get_u32(&r), version = ser_get_u32(&r);
    h.rank = (int)ser_get_u32(&r);
    h.size = (int)ser_get_u32(&r);
    h.kind = (int)ser_get_u32(&r);
    h.code = (int)ser_get_u32(&r);
    h.wall_ns = ser_get_u64(&r);
    h.end_raw = ser_get_u64(&r);
    h.multi = ser_get_u32(&r);
    int rc = whole && magic == PIECE_MAGIC && version == PIECE_VERSION && !r.failed ? 0 : -1;
    if (missing_rank >= 0) {
        h.rank = missing_rank; /* the donor's settings and definitions, this rank's name */
        scorep_state_set_job_rank_missing(true);
    }
    if (rc == 0)
        rc = restore_settings(&r, &h);
    if (rc == 0) {
        scorep_rt_recover_setup(dir);
        if (scorep_cfg.enable_tracing) {
            char err[1024];
            int bad = scorep_memory_check(scorep_cfg.total_memory, scorep_cfg.page_size, err,
                                          sizeof err);
            if (bad == 0 && scorep_memory_init(scorep_cfg.total_memory, scorep_cfg.page_size)) {
                bad = -1;
                snprintf(err, sizeof err, "SCOREP_TOTAL_MEMORY=%llu bytes cannot be reserved",
                         (unsigned long long)scorep_cfg.total_memory);
            }
            if (bad != 0) {
                fprintf(stderr, "scorep-recover: %s (the settings of the run, in %s)\n", err,
                        piece);
                rc = -1;
            }
        }
    }
    uint64_t dlen = rc == 0 ? ser_get_u64(&r) : 0;
    const unsigned char *defs = ser_get(&r, dlen);
    if (rc == 0 && (!defs || scorep_defs_restore_local(defs, dlen) != 0)) {
        fprintf(stderr, "scorep-recover: the definitions of rank %d in %s are damaged\n", h.rank,
                piece);
        rc = -1;
    }
    uint32_t n_loc = rc == 0 ? ser_get_u32(&r) : 0;
    if (missing_rank >= 0)
        rc = rc == 0 && n_loc > 0 ? placeholder_location(&r) : -1;
    for (uint32_t i = 0; i < n_loc && rc == 0 && missing_rank < 0; i++)
        rc = restore_location(&r, dir, h.rank);
    free(data);
    if (rc != 0 || r.failed) {
        fprintf(stderr, "scorep-recover: %s is damaged or incomplete\n", piece);
        rc = -1;
    }
    /* every recovering process takes part in the collectives below, failed or not */
    scorep_ipc_set(ipc);
    /* the writers name the measured job's kind, not the mesh's (a serial program's profile
     * without the MPI metrics, its process not an "MPI Rank") */
    scorep_ipc_set_job_multi(rc == 0 ? (int)h.multi : -1);
    uint64_t failed = rc != 0;
    ipc->allreduce_max_u64(&failed);
    if (failed)
        return -1;
    scorep_rt_root_locations();
    scorep_defs_string(scorep_program_name()); /* ProgramBegin names it */
    if (gather_endings(ipc, &h, orig_size, missing) != 0)
        return -1;
    int status = h.kind == SCOREP_END_SIGNAL ? 128 + h.code : h.code;
    /* the pieces' records did not pass the events: their non-blocking I/O is not known */
    scorep_io_nonblocking_traced = 1;
    scorep_rt_write_results(status);
    return 0;
}
