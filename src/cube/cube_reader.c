/* SPDX-License-Identifier: BSD-3-Clause */
/* cube_reader.c: reads a whole .cubex file: maps the tar archive, parses anchor.xml, decodes
 * the sparse index/data members (plain or zlib, either byte order) and derives the
 * exclusive and inclusive views of every metric once, at open time. */
#include "cube/cube.h"
#include "cube/cube_anchor.h"
#include "cube/cube_enum.h"
#include "cube/cube_error.h"
#include "cube/cube_values.h"
#include "cube/cube_tar.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

typedef struct {
    /* stored view: per cnode a pointer to its row in the file (or decompressed copy) */
    const unsigned char **row;
    int elem;
    bool is_signed, swap;
    unsigned char *owned; /* inflated rows of a compressed data member */
    /* the view that is not stored (exclusive of an INCLUSIVE metric, inclusive of an
     * EXCLUSIVE one); NULL row = all zero */
    uint64_t **derived;
} r_data;

typedef struct {
    unsigned char *file;
    size_t file_len;
    bool mapped;
    cube_tree tree;
    int *deep, *wide; /* enumeration position -> cnode */
    r_data *data;     /* per metric */
    /* kept by cube_reader_open_defs for cube_reader_load_rows */
    cube_tar_member *mem;
    size_t n_mem;
    cube_anchor_extra x;
} r_priv;

/* ------------------------------------------------------------------ values */

double cube_value_to_double(cube_dtype dtype, uint64_t bits)
{
    if (dtype == CUBE_DTYPE_UINT64)
        return (double)bits;
    if (dtype == CUBE_DTYPE_INT64)
        return (double)(int64_t)bits;
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

int cube_format_value(char *buf, size_t len, cube_dtype dtype, uint64_t bits)
{
    if (dtype == CUBE_DTYPE_UINT64)
        return snprintf(buf, len, "%" PRIu64, bits);
    if (dtype == CUBE_DTYPE_INT64)
        return snprintf(buf, len, "%" PRId64, (int64_t)bits);
    return snprintf(buf, len, "%.9g", cube_value_to_double(dtype, bits));
}

/* One stored value widened to the canonical 8-byte form of its dtype. */
static uint64_t load_value(const r_data *d, const unsigned char *p)
{
    uint64_t v = 0;
    switch (d->elem) {
    case 8:
        memcpy(&v, p, 8);
        return d->swap ? __builtin_bswap64(v) : v;
    case 4: {
        uint32_t u;
        memcpy(&u, p, 4);
        u = d->swap ? __builtin_bswap32(u) : u;
        return d->is_signed ? (uint64_t)(int64_t)(int32_t)u : u;
    }
    case 2: {
        uint16_t u;
        memcpy(&u, p, 2);
        u = d->swap ? __builtin_bswap16(u) : u;
        return d->is_signed ? (uint64_t)(int64_t)(int16_t)u : u;
    }
    default:
        return d->is_signed ? (uint64_t)(int64_t)(int8_t)p[0] : p[0];
    }
}

static uint64_t stored_bits(const r_data *d, int cnode, int loc)
{
    if (d->row == NULL || d->row[cnode] == NULL)
        return 0;
    return load_value(d, d->row[cnode] + (size_t)loc * (size_t)d->elem);
}

/* ------------------------------------------------------------------ derived views */

static const uint64_t *derived_child_row(const r_data *d, int child, bool from_stored,
                                         uint64_t *scratch, int n_loc)
{
    if (!from_stored)
        return d->derived[child];
    if (d->row[child] == NULL)
        return NULL;
    for (int l = 0; l < n_loc; l++)
        scratch[l] = load_value(d, d->row[child] + (size_t)l * (size_t)d->elem);
    return scratch;
}

/* Row of node v in the derived view, from v's stored row and its children's rows:
 * subtree sum (EXCLUSIVE), own minus children (INCLUSIVE) or subtree min/max. */
static int derive_node(const cube_reader *r, const r_priv *p, int m, int v, uint64_t *scratch)
{
    r_data *d = &p->data[m];
    const cube_metric *met = &r->metrics[m];
    int L = r->n_locations;
    bool subtract = met->kind == CUBE_INCLUSIVE && !cube_dtype_is_minmax(met->dtype);
    bool from_stored = subtract; /* own-minus-children uses the children's stored rows */
    const int *kids = p->tree.children + p->tree.child_off[v];
    int n_kids = p->tree.child_off[v + 1] - p->tree.child_off[v];
    bool any = d->row[v] != NULL;
    for (int i = 0; i < n_kids && !any; i++)
        any = from_stored ? d->row[kids[i]] != NULL : d->derived[kids[i]] != NULL;
    if (!any)
        return 0;
    uint64_t *out = malloc((size_t)L * sizeof *out);
    if (out == NULL)
        return -1;
    for (int l = 0; l < L; l++)
        out[l] = stored_bits(d, v, l);
    for (int i = 0; i < n_kids; i++) {
        const uint64_t *cr = derived_child_row(d, kids[i], from_stored, scratch, L);
        for (int l = 0; l < L; l++)
            out[l] = cube_value_combine(met->dtype, out[l], cr ? cr[l] : 0, subtract);
    }
    d->derived[v] = out;
    return 0;
}

static int derive_metric(const cube_reader *r, r_priv *p, int m, uint64_t *scratch)
{
    r_data *d = &p->data[m];
    d->derived = calloc((size_t)r->n_cnodes, sizeof *d->derived);
    if (d->derived == NULL)
        return -1;
    const cube_metric *met = &r->metrics[m];
    if (d->row == NULL || (cube_dtype_is_minmax(met->dtype) && met->kind == CUBE_INCLUSIVE))
        return 0; /* no data, or nothing to derive: the derived view stays unused */
    /* reverse pre-order visits every child before its parent */
    for (int k = r->n_cnodes - 1; k >= 0; k--)
        if (derive_node(r, p, m, p->deep[k], scratch) != 0)
            return -1;
    return 0;
}

/* ------------------------------------------------------------------ data members */

typedef struct {
    const cube_tar_member *index, *data;
} metric_files;

static uint32_t rd32(const unsigned char *p, bool swap)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return swap ? __builtin_bswap32(v) : v;
}

static uint64_t rd64(const unsigned char *p, bool swap)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return swap ? __builtin_bswap64(v) : v;
}

/* Parses an index member into enumeration positions; *pos = NULL means dense. */
static int parse_index(const cube_tar_member *f, int n_cnodes, bool *swap, uint32_t **pos,
                       uint32_t *n, char *err, size_t errlen)
{
    const unsigned char *b = f->data;
    if (f->size < 18 || memcmp(b, "CUBEX.INDEX", 11) != 0) {
        cube_set_err(err, errlen, "%s: not a Cube index", f->name);
        return -1;
    }
    uint32_t probe = rd32(b + 11, false);
    if (probe != 1 && probe != 0x01000000u) {
        cube_set_err(err, errlen, "%s: bad byte-order mark", f->name);
        return -1;
    }
    *swap = probe != 1;
    *pos = NULL;
    if (b[17] == 0) { /* dense: every cnode in enumeration order */
        *n = (uint32_t)n_cnodes;
        return 0;
    }
    if (f->size < 22 || (*n = rd32(b + 18, *swap)) > (f->size - 22) / 4 ||
        *n > (uint32_t)n_cnodes) {
        cube_set_err(err, errlen, "%s: truncated or oversized index", f->name);
        return -1;
    }
    *pos = malloc(((size_t)*n + 1) * sizeof **pos);
    if (*pos == NULL) {
        cube_set_err(err, errlen, "out of memory");
        return -1;
    }
    for (uint32_t i = 0; i < *n; i++) {
        (*pos)[i] = rd32(b + 22 + 4 * (size_t)i, *swap);
        if ((*pos)[i] >= (uint32_t)n_cnodes) {
            cube_set_err(err, errlen, "%s: position %" PRIu32 " beyond the call tree", f->name,
                    (*pos)[i]);
            return -1;
        }
    }
    return 0;
}

/* Checks a compressed member's row table read with `word`-byte integers (CubeLib writes
 * 8; the format notes in the reference describe 4, so both are accepted). */
static bool ztable_ok(const cube_tar_member *f, int word, bool swap, uint64_t rows, uint64_t total)
{
    uint64_t hdr = 11 + (uint64_t)word;
    if (f->size < hdr)
        return false;
    uint64_t count = word == 8 ? rd64(f->data + 11, swap) : rd32(f->data + 11, swap);
    if (count != rows || count > (f->size - hdr) / (3 * (uint64_t)word))
        return false;
    uint64_t streams = hdr + count * 3 * (uint64_t)word, sum = 0;
    for (uint64_t i = 0; i < count; i++) {
        const unsigned char *e = f->data + hdr + i * 3 * (uint64_t)word;
        uint64_t u = word == 8 ? rd64(e, swap) : rd32(e, swap);
        uint64_t c = word == 8 ? rd64(e + 8, swap) : rd32(e + 4, swap);
        uint64_t z = word == 8 ? rd64(e + 16, swap) : rd32(e + 8, swap);
        if (u > total || c > f->size - streams || z > f->size - streams - c)
            return false;
        sum += z;
    }
    return sum <= f->size - streams;
}

/* Inflates the rows i with slot[i] >= 0 (all when slot is NULL) into *out, row i at
 * slot[i] * row_bytes (at its own offset when slot is NULL); n_slots rows of room. */
static int inflate_rows(const cube_tar_member *f, bool swap, uint64_t rows, uint64_t row_bytes,
                        const int64_t *slot, uint64_t n_slots, unsigned char **out, char *err,
                        size_t errlen)
{
    uint64_t total = rows * row_bytes;
    int word = ztable_ok(f, 8, swap, rows, total) ? 8 : ztable_ok(f, 4, swap, rows, total) ? 4 : 0;
    if (word == 0) {
        cube_set_err(err, errlen, "%s: corrupt compressed row table", f->name);
        return -1;
    }
    uint64_t room = slot ? n_slots * row_bytes : total;
    *out = calloc((size_t)room + 1, 1);
    if (*out == NULL) {
        cube_set_err(err, errlen, "out of memory");
        return -1;
    }
    uint64_t hdr = 11 + (uint64_t)word, streams = hdr + rows * 3 * (uint64_t)word;
    for (uint64_t i = 0; i < rows; i++) {
        const unsigned char *e = f->data + hdr + i * 3 * (uint64_t)word;
        uint64_t u = word == 8 ? rd64(e, swap) : rd32(e, swap);
        uint64_t c = word == 8 ? rd64(e + 8, swap) : rd32(e + 4, swap);
        uint64_t z = word == 8 ? rd64(e + 16, swap) : rd32(e + 8, swap);
        if (slot && slot[i] < 0)
            continue;
        if (slot) /* rows stored in index order: row i's values are at i * row_bytes */
            u = (uint64_t)slot[i] * row_bytes;
        uLongf got = (uLongf)(room - u);
        if (uncompress(*out + u, &got, f->data + streams + c, (uLong)z) != Z_OK) {
            cube_set_err(err, errlen, "%s: row %" PRIu64 " does not inflate", f->name, i);
            return -1;
        }
    }
    return 0;
}

/* Index entries whose call path is wanted get consecutive slots; the others -1. */
static int64_t *want_slots(const int *seq, const uint32_t *pos, uint32_t n, const bool *want,
                           uint64_t *n_slots)
{
    int64_t *slot = malloc(((size_t)n + 1) * sizeof *slot);
    *n_slots = 0;
    for (uint32_t i = 0; slot && i < n; i++)
        slot[i] = want[seq[pos ? pos[i] : i]] ? (int64_t)(*n_slots)++ : -1;
    return slot;
}

static int load_metric(cube_reader *r, r_priv *p, const cube_anchor_extra *x, int m,
                       const metric_files *mf, const bool *want, char *err, size_t errlen)
{
    r_data *d = &p->data[m];
    d->elem = x->storage[m].elem_size;
    d->is_signed = x->storage[m].is_signed;
    if (mf->index == NULL || mf->data == NULL || d->elem == 0)
        return 0; /* no data for this metric: all values are 0 */
    uint32_t *pos = NULL, n = 0;
    int rc = parse_index(mf->index, r->n_cnodes, &d->swap, &pos, &n, err, errlen);
    uint64_t row_bytes = (uint64_t)r->n_locations * (uint64_t)d->elem;
    const unsigned char *rows = NULL;
    const cube_tar_member *f = mf->data;
    if (rc == 0 && f->size >= 10 && memcmp(f->data, "CUBEX.DATA", 10) == 0) {
        rows = f->data + 10;
        if ((f->size - 10) / row_bytes < n) {
            cube_set_err(err, errlen, "%s: fewer rows than its index lists", f->name);
            rc = -1;
        }
    } else if (rc == 0 && f->size >= 11 && memcmp(f->data, "ZCUBEX.DATA", 11) == 0) {
        uint64_t n_slots = 0;
        int64_t *slot = want ? want_slots(r->metrics[m].kind == CUBE_INCLUSIVE ? p->wide : p->deep,
                                          pos, n, want, &n_slots)
                             : NULL;
        rc = want && !slot
                 ? -1
                 : inflate_rows(f, d->swap, n, row_bytes, slot, n_slots, &d->owned, err, errlen);
        rows = d->owned;
        if (rc == 0 && slot) { /* rows of the wanted call paths only, packed */
            if ((d->row = calloc((size_t)r->n_cnodes, sizeof *d->row)) == NULL)
                rc = -1;
            const int *seq = r->metrics[m].kind == CUBE_INCLUSIVE ? p->wide : p->deep;
            for (uint32_t i = 0; rc == 0 && i < n; i++)
                if (slot[i] >= 0)
                    d->row[seq[pos ? pos[i] : i]] = rows + (size_t)slot[i] * (size_t)row_bytes;
            free(slot);
            free(pos);
            if (rc != 0)
                cube_set_err(err, errlen, "out of memory");
            return rc;
        }
        free(slot);
    } else if (rc == 0) {
        cube_set_err(err, errlen, "%s: not a Cube data member", f->name);
        rc = -1;
    }
    if (rc == 0 && (d->row = calloc((size_t)r->n_cnodes, sizeof *d->row)) == NULL) {
        cube_set_err(err, errlen, "out of memory");
        rc = -1;
    }
    /* index positions count in the metric's own enumeration of the call tree */
    const int *seq = r->metrics[m].kind == CUBE_INCLUSIVE ? p->wide : p->deep;
    for (uint32_t i = 0; rc == 0 && i < n; i++)
        if (!want || want[seq[pos ? pos[i] : i]]) /* others stay unmapped pages */
            d->row[seq[pos ? pos[i] : i]] = rows + (size_t)i * (size_t)row_bytes;
    free(pos);
    return rc;
}

/* "<digits>.index" / "<digits>.data" -> metric id and which one; -1 otherwise. */
static int member_metric(const char *name, bool *is_index)
{
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    char *end;
    errno = 0;
    long id = strtol(base, &end, 10);
    if (end == base || errno != 0 || id < 0 || id > INT32_MAX)
        return -1;
    if (strcmp(end, ".index") == 0)
        *is_index = true;
    else if (strcmp(end, ".data") == 0)
        *is_index = false;
    else
        return -1;
    return (int)id;
}

static int load_all_data(cube_reader *r, r_priv *p, const cube_anchor_extra *x,
                         const cube_tar_member *mem, size_t n_mem, const bool *want_metric,
                         const bool *want_cnode, char *err, size_t errlen)
{
    metric_files *mf = calloc((size_t)r->n_metrics + 1, sizeof *mf);
    p->data = calloc((size_t)r->n_metrics + 1, sizeof *p->data);
    uint64_t *scratch = malloc(((size_t)r->n_locations + 1) * sizeof *scratch);
    int rc = (mf && p->data && scratch) ? 0 : -1;
    if (rc != 0)
        cube_set_err(err, errlen, "out of memory");
    for (size_t i = 0; rc == 0 && i < n_mem; i++) {
        bool is_index;
        int m = member_metric(mem[i].name, &is_index);
        if (m >= 0 && m < r->n_metrics) {
            if (is_index)
                mf[m].index = &mem[i];
            else
                mf[m].data = &mem[i];
        }
    }
    for (int m = 0; rc == 0 && m < r->n_metrics; m++)
        if (!want_metric || want_metric[m])
            rc = load_metric(r, p, x, m, &mf[m], want_cnode, err, errlen);
    for (int m = 0; rc == 0 && !want_cnode && !want_metric && m < r->n_metrics; m++) {
        rc = derive_metric(r, p, m, scratch);
        if (rc != 0)
            cube_set_err(err, errlen, "out of memory while computing views");
    }
    free(scratch);
    free(mf);
    return rc;
}

/* ------------------------------------------------------------------ file + anchor */

static int map_file(r_priv *p, const char *path, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        cube_set_err(err, errlen, "cannot open %s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode) || st.st_size == 0) {
        cube_set_err(err, errlen, "%s: %s", path, S_ISREG(st.st_mode) ? "empty file" : "not a file");
        close(fd);
        return -1;
    }
    p->file_len = (size_t)st.st_size;
    p->file = mmap(NULL, p->file_len, PROT_READ, MAP_PRIVATE, fd, 0);
    p->mapped = p->file != MAP_FAILED;
    if (!p->mapped) { /* file systems without mmap: read it instead */
        p->file = malloc(p->file_len);
        size_t got = 0;
        ssize_t k = 1;
        while (p->file && got < p->file_len && (k = read(fd, p->file + got, p->file_len - got)) > 0)
            got += (size_t)k;
        if (p->file == NULL || got != p->file_len) {
            cube_set_err(err, errlen, "cannot read %s: %s", path, strerror(errno ? errno : EIO));
            close(fd);
            return -1;
        }
    }
    close(fd);
    return 0;
}

/* anchor.xml may be gzip-compressed (1f 8b); returns a NUL-terminated writable copy. */
static char *anchor_text(const cube_tar_member *a, size_t *len, char *err, size_t errlen)
{
    if (a->size < 2 || a->data[0] != 0x1f || a->data[1] != 0x8b) {
        char *s = malloc((size_t)a->size + 1);
        if (s == NULL) {
            cube_set_err(err, errlen, "out of memory");
            return NULL;
        }
        memcpy(s, a->data, (size_t)a->size);
        s[a->size] = '\0';
        *len = (size_t)a->size;
        return s;
    }
    z_stream zs = {0};
    size_t cap = (size_t)a->size * 4 + 1024, have = 0;
    char *s = malloc(cap);
    int zrc = (s && inflateInit2(&zs, 15 + 32) == Z_OK) ? Z_OK : Z_MEM_ERROR;
    zs.next_in = (Bytef *)a->data;
    zs.avail_in = (uInt)a->size;
    while (zrc == Z_OK) {
        if (cap - have < 2) {
            char *t = realloc(s, cap * 2);
            if (t == NULL) {
                zrc = Z_MEM_ERROR;
                break;
            }
            s = t;
            cap *= 2;
        }
        zs.next_out = (Bytef *)s + have;
        zs.avail_out = (uInt)(cap - have - 1);
        zrc = inflate(&zs, Z_NO_FLUSH);
        have = cap - 1 - zs.avail_out;
    }
    inflateEnd(&zs);
    if (zrc != Z_STREAM_END) {
        cube_set_err(err, errlen, "anchor.xml: gzip data is corrupt");
        free(s);
        return NULL;
    }
    s[have] = '\0';
    *len = have;
    return s;
}

static const cube_tar_member *find_member(const cube_tar_member *m, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++) {
        const char *base = strrchr(m[i].name, '/');
        if (strcmp(base ? base + 1 : m[i].name, name) == 0)
            return &m[i];
    }
    return NULL;
}

static int build_enumerations(cube_reader *r, r_priv *p, const cube_anchor_extra *x)
{
    int *parent = malloc(((size_t)r->n_cnodes + 1) * sizeof(int));
    p->deep = malloc(((size_t)r->n_cnodes + 1) * sizeof(int));
    p->wide = malloc(((size_t)r->n_cnodes + 1) * sizeof(int));
    int rc = (parent && p->deep && p->wide) ? 0 : -1;
    for (int i = 0; rc == 0 && i < r->n_cnodes; i++)
        parent[i] = r->cnodes[i].parent;
    /* children keep document order, which is what both enumerations walk */
    if (rc == 0)
        rc = cube_tree_build(&p->tree, parent, x->cnode_order, r->n_cnodes);
    if (rc == 0)
        rc = cube_tree_deep(&p->tree, p->deep);
    if (rc == 0)
        rc = cube_tree_wide(&p->tree, p->wide);
    free(parent);
    return rc;
}

static int read_archive(cube_reader *r, r_priv *p, bool defs_only, char *err, size_t errlen)
{
    cube_tar_member *mem = NULL;
    size_t n_mem = 0, xml_len = 0;
    cube_anchor_extra x = {0};
    char *xml = NULL;
    int rc = cube_tar_list(p->file, p->file_len, &mem, &n_mem, err, errlen);
    const cube_tar_member *anchor = rc == 0 ? find_member(mem, n_mem, "anchor.xml") : NULL;
    if (rc == 0 && anchor == NULL) {
        cube_set_err(err, errlen, "no anchor.xml in the archive");
        rc = -1;
    }
    if (rc == 0 && (xml = anchor_text(anchor, &xml_len, err, errlen)) == NULL)
        rc = -1;
    if (rc == 0)
        rc = cube_anchor_parse(r, &x, xml, xml_len, err, errlen);
    free(xml);
    if (rc == 0 && build_enumerations(r, p, &x) != 0) {
        cube_set_err(err, errlen, "out of memory while indexing the call tree");
        rc = -1;
    }
    if (rc == 0 && defs_only) { /* kept for cube_reader_load_rows */
        p->mem = mem;
        p->n_mem = n_mem;
        p->x = x;
        return 0;
    }
    if (rc == 0)
        rc = load_all_data(r, p, &x, mem, n_mem, NULL, NULL, err, errlen);
    cube_anchor_extra_free(&x);
    cube_tar_members_free(mem, n_mem);
    return rc;
}

static cube_reader *open_archive(const char *path, bool defs_only, char *err, size_t errlen)
{
    cube_reader *r = calloc(1, sizeof *r);
    r_priv *p = calloc(1, sizeof *p);
    if (r == NULL || p == NULL) {
        cube_set_err(err, errlen, "out of memory");
        free(r);
        free(p);
        return NULL;
    }
    r->priv = p;
    if (path == NULL || map_file(p, path, err, errlen) != 0) {
        if (path == NULL)
            cube_set_err(err, errlen, "no file name given");
        cube_reader_free(r);
        return NULL;
    }
    if (read_archive(r, p, defs_only, err, errlen) != 0) {
        /* prefix the path unless the message already names it */
        if (err != NULL && errlen > 0 && strstr(err, path) == NULL) {
            char *msg = strdup(err);
            if (msg != NULL) {
                snprintf(err, errlen, "%s: %s", path, msg);
                free(msg);
            }
        }
        cube_reader_free(r);
        return NULL;
    }
    return r;
}

cube_reader *cube_reader_open(const char *path, char *err, size_t errlen)
{
    return open_archive(path, false, err, errlen);
}

cube_reader *cube_reader_open_defs(const char *path, char *err, size_t errlen)
{
    return open_archive(path, true, err, errlen);
}

int cube_reader_load_rows(cube_reader *r, const bool *metrics, const bool *cnodes, char *err,
                          size_t errlen)
{
    r_priv *p = r ? r->priv : NULL;
    if (p == NULL || p->mem == NULL || p->data != NULL) {
        cube_set_err(err, errlen, "cube_reader_load_rows: not a reader of cube_reader_open_defs");
        return -1;
    }
    int rc = load_all_data(r, p, &p->x, p->mem, p->n_mem, metrics, cnodes, err, errlen);
    cube_anchor_extra_free(&p->x);
    cube_tar_members_free(p->mem, p->n_mem);
    p->mem = NULL;
    p->n_mem = 0;
    return rc;
}

const cube_tree *cube_reader_call_tree(const cube_reader *r)
{
    return &((const r_priv *)r->priv)->tree;
}

/* ------------------------------------------------------------------ free */

static void free_data(r_data *d, int n_cnodes)
{
    if (d->derived != NULL)
        for (int c = 0; c < n_cnodes; c++)
            free(d->derived[c]);
    free(d->derived);
    free(d->row);
    free(d->owned);
}

static void free_definitions(cube_reader *r)
{
    for (int i = 0; i < r->n_metrics; i++) {
        cube_metric *m = &r->metrics[i];
        free(m->uniq_name);
        free(m->disp_name);
        free(m->uom);
        free(m->descr);
    }
    for (int i = 0; i < r->n_regions; i++) {
        cube_region *g = &r->regions[i];
        free(g->name);
        free(g->mangled_name);
        free(g->paradigm);
        free(g->role);
        free(g->file);
        free(g->descr);
    }
    for (int i = 0; i < r->n_cnodes; i++) {
        free(r->cnodes[i].param_name);
        free(r->cnodes[i].param_string);
    }
    for (int i = 0; i < r->n_stnodes; i++) {
        free(r->stnodes[i].name);
        free(r->stnodes[i].klass);
    }
    for (int i = 0; i < r->n_locgroups; i++) {
        free(r->locgroups[i].name);
        free(r->locgroups[i].type);
        free(r->locgroups[i].creator);
    }
    for (int i = 0; i < r->n_locations; i++) {
        free(r->locations[i].name);
        free(r->locations[i].type);
    }
    for (int i = 0; i < r->n_attrs; i++) {
        free(r->attr_keys[i]);
        free(r->attr_values[i]);
    }
}

void cube_reader_free(cube_reader *r)
{
    if (r == NULL)
        return;
    r_priv *p = r->priv;
    if (p != NULL) {
        for (int m = 0; p->data != NULL && m < r->n_metrics; m++)
            free_data(&p->data[m], r->n_cnodes);
        free(p->data);
        if (p->mem) {
            cube_anchor_extra_free(&p->x);
            cube_tar_members_free(p->mem, p->n_mem);
        }
        cube_tree_free(&p->tree);
        free(p->deep);
        free(p->wide);
        if (p->mapped)
            munmap(p->file, p->file_len);
        else
            free(p->file);
        free(p);
    }
    free_definitions(r);
    free(r->metrics);
    free(r->regions);
    free(r->cnodes);
    free(r->stnodes);
    free(r->locgroups);
    free(r->locations);
    free(r->attr_keys);
    free(r->attr_values);
    free(r);
}

/* ------------------------------------------------------------------ queries */

/* sorts process group indices by name (qsort has no context: the reader in a static) */
static const cube_reader *sort_reader;

static int by_group_name(const void *a, const void *b)
{
    return strcmp(sort_reader->locgroups[*(const int *)a].name,
                  sort_reader->locgroups[*(const int *)b].name);
}

int *cube_reader_process_groups(const cube_reader *r)
{
    int n = r->n_locgroups, np = 0;
    int *of = malloc(((size_t)n + 1) * sizeof *of), *procs = malloc(((size_t)n + 1) * sizeof *procs);
    if (of == NULL || procs == NULL) {
        free(of);
        free(procs);
        return NULL;
    }
    for (int g = 0; g < n; g++)
        if (strcmp(r->locgroups[g].type, "process") == 0)
            procs[np++] = g;
    sort_reader = r;
    qsort(procs, (size_t)np, sizeof *procs, by_group_name);
    for (int g = 0; g < n; g++) {
        const cube_locgroup *lg = &r->locgroups[g];
        of[g] = g;
        if (strcmp(lg->type, "accelerator") != 0 || lg->creator == NULL)
            continue;
        int lo = 0, hi = np; /* the first process group named so */
        while (lo < hi) {
            int mid = lo + (hi - lo) / 2;
            if (strcmp(r->locgroups[procs[mid]].name, lg->creator) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < np && strcmp(r->locgroups[procs[lo]].name, lg->creator) == 0)
            of[g] = procs[lo];
    }
    free(procs);
    return of;
}

int cube_reader_metric_by_name(const cube_reader *r, const char *uniq_name)
{
    for (int i = 0; r != NULL && uniq_name != NULL && i < r->n_metrics; i++)
        if (strcmp(r->metrics[i].uniq_name, uniq_name) == 0)
            return i;
    return -1;
}

static bool in_range(const cube_reader *r, int metric, int cnode)
{
    return r != NULL && metric >= 0 && metric < r->n_metrics && cnode >= 0 && cnode < r->n_cnodes;
}

bool cube_reader_has_row(const cube_reader *r, int metric, int cnode, cube_view view)
{
    if (!in_range(r, metric, cnode))
        return false;
    const r_priv *p = r->priv;
    if (p->data == NULL)
        return false;
    const r_data *d = &p->data[metric];
    if (cube_view_is_stored(&r->metrics[metric], view))
        return d->row != NULL && d->row[cnode] != NULL;
    return d->derived != NULL && d->derived[cnode] != NULL;
}

uint64_t cube_reader_value_bits(const cube_reader *r, int metric, int cnode, int location,
                                cube_view view)
{
    if (!in_range(r, metric, cnode) || location < 0 || location >= r->n_locations ||
        ((const r_priv *)r->priv)->data == NULL)
        return 0;
    const r_data *d = &((const r_priv *)r->priv)->data[metric];
    if (cube_view_is_stored(&r->metrics[metric], view))
        return stored_bits(d, cnode, location);
    return (d->derived && d->derived[cnode]) ? d->derived[cnode][location] : 0;
}

static double value(const cube_reader *r, int metric, int cnode, int location, cube_view view)
{
    if (!in_range(r, metric, cnode))
        return 0.0;
    return cube_value_to_double(r->metrics[metric].dtype,
                                cube_reader_value_bits(r, metric, cnode, location, view));
}

double cube_reader_stored(const cube_reader *r, int metric, int cnode, int location)
{
    return value(r, metric, cnode, location, CUBE_VIEW_STORED);
}

double cube_reader_exclusive(const cube_reader *r, int metric, int cnode, int location)
{
    return value(r, metric, cnode, location, CUBE_VIEW_EXCLUSIVE);
}

double cube_reader_inclusive(const cube_reader *r, int metric, int cnode, int location)
{
    return value(r, metric, cnode, location, CUBE_VIEW_INCLUSIVE);
}
