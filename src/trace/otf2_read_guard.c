/* SPDX-License-Identifier: BSD-3-Clause */
/* otf2_read_guard.c: OTF2 read sessions whose errors are kept, not printed, and whose files are
 * checked against their chunk structure before OTF2 reads them (the trace readers of the tools,
 * the report and the analysis share it).
 *
 * OTF2's layout (OTF2_Buffer.c, taken as facts): an event, definition or marker file is a
 * sequence of chunks of the archive's chunk size (the anchor's "chunk size events" /
 * "definitions"); every chunk but the last is written whole, the last only up to its last
 * record. A chunk starts with an 18-byte header: 0x03 (chunk header), the endianness byte (0x23
 * big, 0x42 little), the number of its first event and of its last event (8 bytes each, in that
 * endianness; in definition and marker files 1 and 0). The unused rest of a chunk is 0 (end of
 * chunk); the file's last byte is 0x01 (end of buffer). Reading a chunk, OTF2 3.0 neither checks
 * how many bytes fread gave nor the event numbers: past the end of a truncated file it reads a
 * recycled chunk buffer's old contents again and again. So the guard bounds every read by what
 * the file's intact chunks hold. */
#include "trace/otf2_read_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK_HEADER 0x03
#define END_OF_BUFFER 0x01
#define HEADER_SIZE 18
#define BIG_ENDIAN_MARK 0x23
#define LITTLE_ENDIAN_MARK 0x42

static char first_error[512];
static char damage[1024];
static char base[4096]; /* the anchor's path without ".otf2"; "" when unknown */
static OTF2_ErrorCallback previous;

static OTF2_ErrorCode keep_error(void *u, const char *file, uint64_t line, const char *func,
                                 OTF2_ErrorCode code, const char *fmt, va_list va)
{
    (void)u;
    (void)file;
    (void)line;
    (void)func;
    if (!first_error[0]) {
        int n = snprintf(first_error, sizeof first_error, "%s", OTF2_Error_GetDescription(code));
        if (fmt && *fmt && n > 0 && (size_t)n + 3 < sizeof first_error) {
            strcat(first_error, ": ");
            vsnprintf(first_error + n + 2, sizeof first_error - (size_t)n - 2, fmt, va);
        }
    }
    return code;
}

void otf2_read_guard_begin(const char *anchor)
{
    first_error[0] = '\0';
    damage[0] = '\0';
    base[0] = '\0';
    size_t n = anchor ? strlen(anchor) : 0;
    if (n > 5 && n < sizeof base && strcmp(anchor + n - 5, ".otf2") == 0)
        snprintf(base, sizeof base, "%.*s", (int)(n - 5), anchor);
    /* fresh zeroed pages for OTF2's chunk buffers: a short read then shows zeros, not an older
     * chunk left in reused heap memory (the checks below are the real bound) */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    previous = OTF2_Error_RegisterCallback(keep_error, NULL);
}

void otf2_read_guard_end(void)
{
    OTF2_Error_RegisterCallback(previous, NULL);
}

const char *otf2_read_guard_error(void)
{
    return first_error;
}

void otf2_read_guard_clear(void)
{
    first_error[0] = '\0';
}

const char *otf2_read_guard_damage(void)
{
    return damage;
}

/* ---- the check ---- */

static uint64_t get64(const unsigned char *p, int big)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[big ? 7 - i : i] << (8 * i);
    return v;
}

static void say(otf2_guard_file *out, const char *fmt, ...)
{
    va_list va;
    va_start(va, fmt);
    vsnprintf(out->what, sizeof out->what, fmt, va);
    va_end(va);
    out->damaged = 1;
}

/* Checks chunk I (LEN bytes at OFF; LAST: the file's final one). Returns 0 when it is intact,
 * 1 when it is intact but the file ends after it without its end mark (cut at a chunk
 * boundary), -1 when it is damaged. *EXPECT is the number its first event must have, then
 * (the chunk intact) the one after its last. */
static int check_chunk(int fd, const otf2_guard_file *f, uint64_t chunk, uint64_t i, int last,
                       enum otf2_guard_kind kind, uint64_t *expect, otf2_guard_file *out)
{
    uint64_t off = i * chunk, len = f->size - off < chunk ? f->size - off : chunk;
    unsigned char h[HEADER_SIZE], tail = 0;
    if (len < HEADER_SIZE + 1 || pread(fd, h, sizeof h, (off_t)off) != (ssize_t)sizeof h) {
        say(out, "truncated in the header of chunk %" PRIu64 " (%" PRIu64 " of %" PRIu64 " bytes)",
            i + 1, len, chunk);
        return -1;
    }
    if (h[0] != CHUNK_HEADER || (h[1] != BIG_ENDIAN_MARK && h[1] != LITTLE_ENDIAN_MARK)) {
        say(out, "chunk %" PRIu64 " (at byte %" PRIu64 ") has no chunk header", i + 1, off);
        return -1;
    }
    uint64_t first = get64(h + 2, h[1] == BIG_ENDIAN_MARK);
    uint64_t lastev = get64(h + 10, h[1] == BIG_ENDIAN_MARK);
    if (kind == OTF2_GUARD_EVENTS && first != *expect) {
        say(out,
            "chunk %" PRIu64 " (at byte %" PRIu64 ") has a broken header (its first event %" PRIu64
            ", expected %" PRIu64 ")",
            i + 1, off, first, *expect);
        return -1;
    }
    /* each event takes at least one byte after the header */
    int too_many =
        kind == OTF2_GUARD_EVENTS && (lastev + 1 < first || lastev - first + 1 > len - HEADER_SIZE);
    int unmarked = (last || len < chunk) &&
                   (pread(fd, &tail, 1, (off_t)(off + len - 1)) != 1 || tail != END_OF_BUFFER);
    if (len < chunk && (unmarked || too_many)) { /* events after the cut lost: none used */
        say(out, "truncated in chunk %" PRIu64 ": %" PRIu64 " of its %" PRIu64 " bytes", i + 1, len,
            chunk);
        return -1;
    }
    if (too_many) {
        say(out,
            "chunk %" PRIu64 " (at byte %" PRIu64 ") has a broken header (events %" PRIu64
            "..%" PRIu64 " in %" PRIu64 " bytes)",
            i + 1, off, first, lastev, len);
        return -1;
    }
    int rc = 0;
    if (unmarked) { /* a whole chunk (a non-final one ends with end-of-chunk padding) */
        say(out, "truncated after chunk %" PRIu64 ": the chunks after it are missing", i + 1);
        rc = 1;
    }
    if (kind == OTF2_GUARD_EVENTS)
        *expect = lastev + 1;
    return rc;
}

int otf2_guard_check_file(const char *path, uint64_t chunk, enum otf2_guard_kind kind,
                          otf2_guard_file *out)
{
    memset(out, 0, sizeof *out);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return -1;
    }
    out->size = (uint64_t)st.st_size;
    out->chunk = chunk;
    if (chunk < HEADER_SIZE + 1) {
        say(out, "the archive's chunk size (%" PRIu64 " bytes) is unusable", chunk);
        close(fd);
        return 0;
    }
    if (out->size == 0)
        say(out, "empty (no chunk at all)");
    uint64_t n_chunks = out->size / chunk + (out->size % chunk != 0), expect = 1;
    for (uint64_t i = 0; i < n_chunks; i++) {
        int rc = check_chunk(fd, out, chunk, i, i + 1 == n_chunks, kind, &expect, out);
        if (rc >= 0)
            out->chunks++;
        if (rc != 0)
            break;
    }
    close(fd);
    /* definitions and markers: each record takes at least one byte */
    out->records = kind == OTF2_GUARD_EVENTS ? expect - 1 : out->chunks * chunk;
    if (kind != OTF2_GUARD_EVENTS && out->records > out->size)
        out->records = out->size;
    return 0;
}

/* ---- the readers' entry points ---- */

/* appends S to DST (SIZE bytes) as far as it fits */
static void append(char *dst, size_t size, const char *s)
{
    size_t n = strlen(dst), k = strlen(s);
    if (n + 1 >= size)
        return;
    if (k > size - n - 1)
        k = size - n - 1;
    memcpy(dst + n, s, k);
    dst[n + k] = '\0';
}

static void note_damage(const char *path, const char *what)
{
    if (damage[0])
        append(damage, sizeof damage, "; ");
    append(damage, sizeof damage, path);
    append(damage, sizeof damage, ": ");
    append(damage, sizeof damage, what);
}

void otf2_read_guard_note(const char *path, const char *what)
{
    note_damage(path, what);
}

/* Checks the archive's file SUFFIX (".def", "/LOC.evt", ...) of KIND. Returns 1 when the file
 * is missing, -1 when it cannot be checked or is damaged (noted), 0 when intact; OUT tells. */
static int check(OTF2_Reader *r, const char *suffix, enum otf2_guard_kind kind,
                 otf2_guard_file *out)
{
    memset(out, 0, sizeof *out);
    out->records = UINT64_MAX;
    OTF2_FileSubstrate sub = OTF2_SUBSTRATE_UNDEFINED;
    OTF2_Compression comp = OTF2_COMPRESSION_UNDEFINED;
    uint64_t evt = 0, def = 0;
    if (!base[0] || OTF2_Reader_GetFileSubstrate(r, &sub) != OTF2_SUCCESS ||
        sub != OTF2_SUBSTRATE_POSIX || OTF2_Reader_GetCompression(r, &comp) != OTF2_SUCCESS ||
        comp != OTF2_COMPRESSION_NONE || OTF2_Reader_GetChunkSize(r, &evt, &def) != OTF2_SUCCESS)
        return 0; /* not a layout checked here: OTF2 alone */
    char path[sizeof base + 40] = "";
    append(path, sizeof path, base);
    append(path, sizeof path, suffix);
    if (otf2_guard_check_file(path, kind == OTF2_GUARD_EVENTS ? evt : def, kind, out) != 0) {
        if (errno == ENOENT)
            return 1;
        char what[160];
        snprintf(what, sizeof what, "cannot be read (%s)", strerror(errno));
        note_damage(path, what);
        return -1;
    }
    if (out->damaged) {
        note_damage(path, out->what);
        return -1;
    }
    return 0;
}

/* what OTF2 said reading the file SUFFIX (checked as F), kept as that file's damage: a message
 * then names the file (an interruption is the reader's own callback stopping, no damage). A
 * file cut inside its last chunk passes the check when the byte at the cut happens to be the
 * end mark (0x01 is common in records); OTF2 then fails at the cut: said as truncation. */
static OTF2_ErrorCode read_done(OTF2_ErrorCode rc, const char *suffix, const otf2_guard_file *f)
{
    if (rc == OTF2_SUCCESS || rc == OTF2_ERROR_INTERRUPTED_BY_CALLBACK)
        return rc;
    char path[sizeof base + 40] = "", what[sizeof first_error + 160] = "unreadable: ";
    append(path, sizeof path, base);
    append(path, sizeof path, suffix);
    if (f->chunk && f->size % f->chunk)
        snprintf(what, sizeof what,
                 "truncated in chunk %" PRIu64 " or damaged there (%" PRIu64 " of its %" PRIu64
                 " bytes; OTF2: ",
                 f->size / f->chunk + 1, f->size % f->chunk, f->chunk);
    append(what, sizeof what, first_error[0] ? first_error : OTF2_Error_GetDescription(rc));
    if (f->chunk && f->size % f->chunk)
        append(what, sizeof what, ")");
    note_damage(path, what);
    return rc;
}

static OTF2_ErrorCode refuse(void)
{
    if (!first_error[0])
        append(first_error, sizeof first_error, damage);
    return OTF2_ERROR_INVALID_DATA;
}

OTF2_ErrorCode otf2_read_guard_global_defs(OTF2_Reader *r, OTF2_GlobalDefReader *d, uint64_t *n)
{
    otf2_guard_file f;
    *n = 0;
    int rc = check(r, ".def", OTF2_GUARD_DEFS, &f);
    if (rc == 1) {
        char path[sizeof base + 8] = "";
        append(path, sizeof path, base);
        append(path, sizeof path, ".def");
        note_damage(path, "missing: the trace has no global definitions");
    }
    if (rc)
        return refuse();
    return read_done(OTF2_Reader_ReadGlobalDefinitions(r, d, f.records, n), ".def", &f);
}

OTF2_ErrorCode otf2_read_guard_local_defs(OTF2_Reader *r, OTF2_DefReader *d, uint64_t loc,
                                          uint64_t *n)
{
    char suffix[40];
    snprintf(suffix, sizeof suffix, "/%" PRIu64 ".def", loc);
    otf2_guard_file f;
    *n = 0;
    int rc = check(r, suffix, OTF2_GUARD_DEFS, &f);
    if (rc == 1)
        return OTF2_SUCCESS; /* no local definitions: no mappings, no clock offsets */
    if (rc)
        return refuse();
    return read_done(OTF2_Reader_ReadLocalDefinitions(r, d, f.records, n), suffix, &f);
}

OTF2_ErrorCode otf2_read_guard_markers(OTF2_Reader *r, OTF2_MarkerReader *m, uint64_t *n)
{
    otf2_guard_file f;
    *n = 0;
    int rc = check(r, ".marker", OTF2_GUARD_DEFS, &f);
    if (rc == 1)
        return OTF2_SUCCESS; /* no markers */
    if (rc)
        return refuse();
    return read_done(OTF2_Reader_ReadMarkers(r, m, f.records, n), ".marker", &f);
}

OTF2_ErrorCode otf2_read_guard_events(OTF2_Reader *r, OTF2_EvtReader *e, uint64_t loc, uint64_t *n)
{
    char suffix[40];
    snprintf(suffix, sizeof suffix, "/%" PRIu64 ".evt", loc);
    otf2_guard_file f;
    *n = 0;
    int rc = check(r, suffix, OTF2_GUARD_EVENTS, &f);
    if (rc == 1) {
        char path[sizeof base + 40] = "";
        append(path, sizeof path, base);
        append(path, sizeof path, suffix);
        note_damage(path, "missing: the location's events are lost");
        return OTF2_SUCCESS;
    }
    if (rc == -1 && f.chunks == 0) /* says what the reader uses */
        append(damage, sizeof damage, " (none of its events can be read)");
    else if (rc == -1) {
        char used[96];
        snprintf(used, sizeof used,
                 " (the %" PRIu64 " events of its first %" PRIu64 " chunk%s are read)", f.records,
                 f.chunks, f.chunks == 1 ? "" : "s");
        append(damage, sizeof damage, used);
    }
    if (f.records == 0)
        return OTF2_SUCCESS; /* no intact chunk: nothing to read */
    OTF2_ErrorCode done = read_done(OTF2_Reader_ReadLocalEvents(r, e, f.records, n), suffix, &f);
    if (done == OTF2_SUCCESS && rc == 0 && f.chunk && f.size % f.chunk && *n < f.records) {
        /* the last chunk passed the check (its last byte looked like the end mark) but OTF2
         * stopped before the events its header announces: cut there. (A later chunk cut at a
         * byte 0x01 can still pass unseen: OTF2 then reads its recycled buffer's old records
         * up to the announced number; docs/design.md) */
        char path[sizeof base + 40] = "", what[200];
        append(path, sizeof path, base);
        append(path, sizeof path, suffix);
        snprintf(what, sizeof what,
                 "truncated in chunk %" PRIu64 " or damaged there (%" PRIu64 " of its %" PRIu64
                 " bytes; %" PRIu64 " of its %" PRIu64 " events read)",
                 f.size / f.chunk + 1, f.size % f.chunk, f.chunk, *n, f.records);
        note_damage(path, what);
    }
    return done;
}
