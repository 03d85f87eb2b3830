/* SPDX-License-Identifier: BSD-3-Clause */
/* test_cube_roundtrip.c: writes cubes with every dtype, nested metrics, parameter cnodes,
 * C++ names and a tree whose wide and deep orders differ, then reads them back (plain,
 * zlib rows, gzip anchor) and compares every name and value; also checks the sparse index. */
#include "cube/cube.h"
#include "cube/cube_tar.h"
#include "unit_check.h"
#include "unit_tmp.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

enum { N_CNODES = 8, N_LOCS = 3, N_METRICS = 7 };
enum { M_VISITS, M_TIME, M_MPI, M_MIN, M_MAX, M_DELTA, M_EMPTY };

/* The tree, defined depth-first so that file ids equal these ids:
 *   0 main ( 1 vector<..>::push_back ( 2 a1, 3 a2 ), 4 b ( 5 iterations=42,
 *   6 mode=<fast & safe> ), 7 c )
 * deep order 0..7, wide order 0 1 4 7 2 3 5 6. */
static const int parent_of[N_CNODES] = {-1, 0, 1, 1, 0, 4, 4, 0};
static const int region_of[N_CNODES] = {0, 1, 2, 3, 4, 4, 4, 5};
static const int wide_pos[N_CNODES] = {0, 1, 4, 5, 2, 6, 7, 3};

static const char *const region_names[] = {
    "main",
    "std::vector<int, std::allocator<int> >::push_back(int const&)",
    "a1",
    "a2",
    "b<'q'> \"quoted\"",
    "c"};
static const char *const mangled_names[] = {
    "main", "_ZNSt6vectorIiSaIiEE9push_backERKi", "a1", "a2", "b", "c"};
static const char *const metric_names[N_METRICS] = {"visits",   "time",  "mpi_time",  "min_time",
                                                    "max_time", "delta", "bytes_sent"};

/* Values as set; 0 = never set. */
static uint64_t visits[N_CNODES][N_LOCS];
static double excl_time[N_CNODES][N_LOCS], incl_time[N_CNODES][N_LOCS];
static double mpi_incl[N_CNODES][N_LOCS], minv[N_CNODES][N_LOCS], maxv[N_CNODES][N_LOCS];
static int64_t delta[N_CNODES][N_LOCS];

static void make_values(void)
{
    for (int c = N_CNODES - 1; c >= 0; c--) {
        for (int l = 0; l < N_LOCS; l++) {
            /* cnode 3 stays all zero and cnode 7 only visits location 1 */
            bool zero = c == 3 || (c == 7 && l != 1);
            visits[c][l] = zero ? 0 : (uint64_t)(c * 10 + l + 1);
            excl_time[c][l] = zero ? 0.0 : 0.125 * (c + 1) + 0.001 * l + 1e-9 * c;
            minv[c][l] = zero ? 0.0 : 0.5 / (c + l + 1);
            maxv[c][l] = zero ? 0.0 : 2.0 * (c + l + 1);
            delta[c][l] = zero ? 0 : (int64_t)(l - 1) * (c + 1) * 1000;
        }
    }
    visits[1][2] = UINT64_C(9223372036854775813); /* beyond 2^53: must stay exact */
    for (int c = N_CNODES - 1; c >= 0; c--) {
        for (int l = 0; l < N_LOCS; l++) {
            incl_time[c][l] += excl_time[c][l];
            mpi_incl[c][l] = c == 6 ? 0.25 * (l + 1) : 0.0;
            if (parent_of[c] >= 0)
                incl_time[parent_of[c]][l] += incl_time[c][l];
        }
    }
    for (int c = N_CNODES - 1; c >= 0; c--)
        for (int l = 0; l < N_LOCS; l++)
            if (parent_of[c] >= 0)
                mpi_incl[parent_of[c]][l] += mpi_incl[c][l];
}

static void define_metrics(cube_writer *w)
{
    CHECK(cube_writer_metric(w, -1, "visits", "Visits", CUBE_DTYPE_UINT64, "occ",
                             "Number of visits", CUBE_EXCLUSIVE) == M_VISITS,
          "metric visits");
    CHECK(cube_writer_metric(w, -1, "time", "Time", CUBE_DTYPE_DOUBLE, "sec", "Total time",
                             CUBE_INCLUSIVE) == M_TIME,
          "metric time");
    CHECK(cube_writer_metric(w, M_TIME, "mpi_time", "MPI <time> & more", CUBE_DTYPE_DOUBLE, "sec",
                             "Time in \"MPI\"", CUBE_INCLUSIVE) == M_MPI,
          "metric mpi");
    CHECK(cube_writer_metric(w, -1, "min_time", "Minimum Inclusive Time", CUBE_DTYPE_MINDOUBLE,
                             "sec", "min", CUBE_EXCLUSIVE) == M_MIN,
          "metric min");
    CHECK(cube_writer_metric(w, -1, "max_time", "Maximum Inclusive Time", CUBE_DTYPE_MAXDOUBLE,
                             "sec", "max", CUBE_EXCLUSIVE) == M_MAX,
          "metric max");
    CHECK(cube_writer_metric(w, -1, "delta", "Delta", CUBE_DTYPE_INT64, "#", "signed",
                             CUBE_EXCLUSIVE) == M_DELTA,
          "metric delta");
    CHECK(cube_writer_metric(w, -1, "bytes_sent", "bytes_sent", CUBE_DTYPE_UINT64, "bytes",
                             "never set", CUBE_EXCLUSIVE) == M_EMPTY,
          "metric empty");
    CHECK(cube_writer_metric(w, 99, "bad", "bad", CUBE_DTYPE_UINT64, "", "", CUBE_EXCLUSIVE) == -1,
          "metric with an undefined parent must be refused");
}

static void define_program(cube_writer *w)
{
    for (int i = 0; i < 6; i++)
        CHECK(cube_writer_region(w, region_names[i], mangled_names[i], i == 4 ? "user" : "compiler",
                                 "function", i == 1 ? "src/vec&tor.cpp" : "main.c", 10 * i + 1,
                                 10 * i + 9, i == 1 ? "<descr>" : "") == i,
              "region %d", i);
    for (int c = 0; c < N_CNODES; c++) {
        int id;
        if (c == 5)
            id = cube_writer_cnode_param_int(w, parent_of[c], region_of[c], "iterations", 42);
        else if (c == 6)
            id = cube_writer_cnode_param_string(w, parent_of[c], region_of[c], "mode",
                                                "<fast & safe>");
        else
            id = cube_writer_cnode(w, parent_of[c], region_of[c]);
        CHECK(id == c, "cnode %d got id %d", c, id);
    }
    CHECK(cube_writer_cnode(w, 42, 0) == -1, "cnode with an undefined parent must be refused");
    CHECK(cube_writer_cnode(w, 0, 17) == -1, "cnode with an undefined region must be refused");
}

static void define_system(cube_writer *w)
{
    int mach = cube_writer_stnode(w, -1, "machine Linux", "machine");
    int n0 = cube_writer_stnode(w, mach, "node alpha", "node");
    int p0 = cube_writer_locgroup(w, n0, "MPI Rank 0", 0, "process");
    CHECK(cube_writer_location(w, p0, "Master thread", 0, "thread") == 0, "location 0");
    CHECK(cube_writer_location(w, p0, "OMP thread 1", 1, "thread") == 1, "location 1");
    int n1 = cube_writer_stnode(w, mach, "node beta", "node");
    int p1 = cube_writer_locgroup(w, n1, "MPI Rank 1", 1, "process");
    CHECK(cube_writer_location(w, p1, "Master thread", 0, "thread") == 2, "location 2");
}

static void set_values(cube_writer *w)
{
    for (int c = 0; c < N_CNODES; c++) {
        for (int l = 0; l < N_LOCS; l++) {
            int rc = 0;
            /* zero values are set too where a row exists, to prove zero rows are dropped */
            if (visits[c][l] || c == 3)
                rc |= cube_writer_set_u64(w, M_VISITS, c, l, visits[c][l]);
            if (incl_time[c][l] != 0.0)
                rc |= cube_writer_set_double(w, M_TIME, c, l, incl_time[c][l]);
            if (mpi_incl[c][l] != 0.0)
                rc |= cube_writer_set_double(w, M_MPI, c, l, mpi_incl[c][l]);
            if (minv[c][l] != 0.0)
                rc |= cube_writer_set_double(w, M_MIN, c, l, minv[c][l]);
            if (maxv[c][l] != 0.0)
                rc |= cube_writer_set_double(w, M_MAX, c, l, maxv[c][l]);
            if (delta[c][l] != 0)
                rc |= cube_writer_set_u64(w, M_DELTA, c, l, (uint64_t)delta[c][l]);
            CHECK(rc == 0, "setting values of cnode %d location %d", c, l);
        }
    }
    CHECK(cube_writer_set_u64(w, M_VISITS, N_CNODES, 0, 1) == -1, "undefined cnode accepted");
    CHECK(cube_writer_set_u64(w, M_VISITS, 0, N_LOCS, 1) == -1, "undefined location accepted");
    CHECK(cube_writer_set_double(w, M_VISITS, 0, 0, -1.0) == -1, "negative UINT64 accepted");
    CHECK(cube_writer_location(w, 0, "late", 2, "thread") == -1,
          "a location added after values must be refused");
}

static cube_writer *build_writer(void)
{
    cube_writer *w = cube_writer_new();
    CHECK(w != NULL, "cube_writer_new");
    CHECK(cube_writer_attr(w, "Creator", "scorep-rt <test> & \"friends\"") == 0, "attr");
    define_metrics(w);
    define_program(w);
    define_system(w);
    set_values(w);
    return w;
}

/* ------------------------------------------------------------------ expectations */

static void subtree(int c, int *out, int *n)
{
    out[(*n)++] = c;
    for (int k = 0; k < N_CNODES; k++)
        if (parent_of[k] == c)
            subtree(k, out, n);
}

static uint64_t bits_of(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static uint64_t expected_stored(int m, int c, int l)
{
    switch (m) {
    case M_VISITS:
        return visits[c][l];
    case M_TIME:
        return bits_of(incl_time[c][l]);
    case M_MPI:
        return bits_of(mpi_incl[c][l]);
    case M_MIN:
        return bits_of(minv[c][l]);
    case M_MAX:
        return bits_of(maxv[c][l]);
    case M_DELTA:
        return (uint64_t)delta[c][l];
    default:
        return 0;
    }
}

static void check_definitions(const cube_reader *r, const char *what)
{
    CHECK(r->n_metrics == N_METRICS && r->n_regions == 6 && r->n_cnodes == N_CNODES &&
              r->n_stnodes == 3 && r->n_locgroups == 2 && r->n_locations == N_LOCS,
          "%s: counts %d %d %d %d %d %d", what, r->n_metrics, r->n_regions, r->n_cnodes,
          r->n_stnodes, r->n_locgroups, r->n_locations);
    if (r->n_metrics != N_METRICS || r->n_cnodes != N_CNODES || r->n_locations != N_LOCS)
        return;
    static const cube_dtype dt[N_METRICS] = {
        CUBE_DTYPE_UINT64,    CUBE_DTYPE_DOUBLE, CUBE_DTYPE_DOUBLE, CUBE_DTYPE_MINDOUBLE,
        CUBE_DTYPE_MAXDOUBLE, CUBE_DTYPE_INT64,  CUBE_DTYPE_UINT64};
    for (int m = 0; m < N_METRICS; m++) {
        CHECK(strcmp(r->metrics[m].uniq_name, metric_names[m]) == 0 && r->metrics[m].dtype == dt[m],
              "%s: metric %d is %s", what, m, r->metrics[m].uniq_name);
        CHECK(r->metrics[m].parent == (m == M_MPI ? M_TIME : -1), "%s: metric %d parent", what, m);
        CHECK(r->metrics[m].kind == ((m == M_TIME || m == M_MPI) ? CUBE_INCLUSIVE : CUBE_EXCLUSIVE),
              "%s: metric %d kind", what, m);
    }
    CHECK(strcmp(r->metrics[M_MPI].disp_name, "MPI <time> & more") == 0 &&
              strcmp(r->metrics[M_MPI].descr, "Time in \"MPI\"") == 0 &&
              strcmp(r->metrics[M_VISITS].uom, "occ") == 0,
          "%s: metric texts", what);
    for (int i = 0; i < 6; i++) {
        const cube_region *g = &r->regions[i];
        CHECK(strcmp(g->name, region_names[i]) == 0 &&
                  strcmp(g->mangled_name, mangled_names[i]) == 0,
              "%s: region %d name '%s'", what, i, g->name);
        CHECK(strcmp(g->paradigm, i == 4 ? "user" : "compiler") == 0 &&
                  strcmp(g->role, "function") == 0 && g->begin_line == 10 * i + 1 &&
                  g->end_line == 10 * i + 9 &&
                  strcmp(g->file, i == 1 ? "src/vec&tor.cpp" : "main.c") == 0 &&
                  strcmp(g->descr, i == 1 ? "<descr>" : "") == 0,
              "%s: region %d attributes", what, i);
    }
    for (int c = 0; c < N_CNODES; c++) {
        const cube_cnode *n = &r->cnodes[c];
        CHECK(n->parent == parent_of[c] && n->region == region_of[c], "%s: cnode %d", what, c);
        const char *pn = c == 5 ? "iterations" : c == 6 ? "mode" : NULL;
        CHECK((pn == NULL && n->param_name == NULL) ||
                  (pn && n->param_name && !strcmp(pn, n->param_name)),
              "%s: cnode %d parameter name", what, c);
    }
    CHECK(r->cnodes[5].param_int == 42 && r->cnodes[5].param_string == NULL, "%s: int param", what);
    CHECK(r->cnodes[6].param_string && strcmp(r->cnodes[6].param_string, "<fast & safe>") == 0,
          "%s: string param", what);
    CHECK(strcmp(r->stnodes[1].name, "node alpha") == 0 && r->stnodes[1].parent == 0 &&
              strcmp(r->stnodes[2].klass, "node") == 0 && r->stnodes[2].parent == 0,
          "%s: system tree nodes", what);
    CHECK(strcmp(r->locgroups[1].name, "MPI Rank 1") == 0 && r->locgroups[1].rank == 1 &&
              r->locgroups[1].stnode == 2 && strcmp(r->locgroups[1].type, "process") == 0,
          "%s: location group", what);
    CHECK(strcmp(r->locations[1].name, "OMP thread 1") == 0 && r->locations[1].rank == 1 &&
              r->locations[1].locgroup == 0 && r->locations[2].locgroup == 1 &&
              strcmp(r->locations[2].type, "thread") == 0,
          "%s: locations", what);
    int found = 0;
    for (int i = 0; i < r->n_attrs; i++) {
        found += !strcmp(r->attr_keys[i], "Creator") &&
                 !strcmp(r->attr_values[i], "scorep-rt <test> & \"friends\"");
        found += !strcmp(r->attr_keys[i], "CUBE_CT_AGGR") && !strcmp(r->attr_values[i], "SUM");
    }
    CHECK(found == 2, "%s: attributes Creator and CUBE_CT_AGGR", what);
}

static void check_views(const cube_reader *r, const char *what, int c, int l)
{
    int sub[N_CNODES], n = 0;
    subtree(c, sub, &n);
    uint64_t vsum = 0;
    double mn = minv[c][l], mx = maxv[c][l];
    for (int i = 0; i < n; i++) {
        vsum += visits[sub[i]][l];
        mn = fmin(mn, minv[sub[i]][l]);
        mx = fmax(mx, maxv[sub[i]][l]);
    }
    CHECK(cube_reader_value_bits(r, M_VISITS, c, l, CUBE_VIEW_INCLUSIVE) == vsum,
          "%s: inclusive visits of %d/%d", what, c, l);
    CHECK(fabs(cube_reader_exclusive(r, M_TIME, c, l) - excl_time[c][l]) < 1e-12,
          "%s: exclusive time of %d/%d: %.17g vs %.17g", what, c, l,
          cube_reader_exclusive(r, M_TIME, c, l), excl_time[c][l]);
    CHECK(cube_reader_inclusive(r, M_MIN, c, l) == mn &&
              cube_reader_inclusive(r, M_MAX, c, l) == mx,
          "%s: subtree min/max of %d/%d", what, c, l);
    CHECK(cube_reader_exclusive(r, M_MIN, c, l) == minv[c][l], "%s: own min of %d/%d", what, c, l);
    CHECK(cube_reader_exclusive(r, M_DELTA, c, l) == (double)delta[c][l], "%s: delta", what);
}

static void check_values(const cube_reader *r, const char *what)
{
    for (int m = 0; m < N_METRICS; m++)
        for (int c = 0; c < N_CNODES; c++)
            for (int l = 0; l < N_LOCS; l++)
                CHECK(cube_reader_value_bits(r, m, c, l, CUBE_VIEW_STORED) ==
                          expected_stored(m, c, l),
                      "%s: stored value of metric %d cnode %d location %d", what, m, c, l);
    for (int c = 0; c < N_CNODES; c++)
        for (int l = 0; l < N_LOCS; l++)
            check_views(r, what, c, l);
    CHECK(cube_reader_stored(r, M_VISITS, 1, 2) == 9223372036854775813.0, "%s: double view", what);
    char buf[64];
    cube_format_value(buf, sizeof buf, CUBE_DTYPE_UINT64,
                      cube_reader_value_bits(r, M_VISITS, 1, 2, CUBE_VIEW_STORED));
    CHECK(strcmp(buf, "9223372036854775813") == 0, "%s: exact uint64 prints %s", what, buf);
    CHECK(!cube_reader_has_row(r, M_VISITS, 3, CUBE_VIEW_EXCLUSIVE) &&
              cube_reader_has_row(r, M_VISITS, 1, CUBE_VIEW_EXCLUSIVE),
          "%s: has_row", what);
}

/* ------------------------------------------------------------------ archive level */

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    unsigned char *buf = NULL;
    if (fp && fseek(fp, 0, SEEK_END) == 0) {
        long n = ftell(fp);
        rewind(fp);
        buf = n > 0 ? malloc((size_t)n) : NULL;
        if (buf && fread(buf, 1, (size_t)n, fp) != (size_t)n) {
            free(buf);
            buf = NULL;
        }
        *len = buf ? (size_t)n : 0;
    }
    if (fp)
        fclose(fp);
    return buf;
}

static const cube_tar_member *member(const cube_tar_member *m, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(m[i].name, name) == 0)
            return &m[i];
    return NULL;
}

/* The index lists exactly the non-zero rows, in the metric's enumeration order. */
static void check_index(const cube_tar_member *m, size_t n, const char *name, const uint32_t *want,
                        uint32_t n_want)
{
    const cube_tar_member *f = member(m, n, name);
    CHECK(f != NULL && f->size == 22 + 4 * (uint64_t)n_want, "%s missing or wrong size", name);
    if (f == NULL || f->size != 22 + 4 * (uint64_t)n_want)
        return;
    uint32_t cnt;
    memcpy(&cnt, f->data + 18, 4);
    CHECK(memcmp(f->data, "CUBEX.INDEX", 11) == 0 && f->data[17] == 1 && cnt == n_want, "%s header",
          name);
    for (uint32_t i = 0; i < n_want; i++) {
        uint32_t p;
        memcpy(&p, f->data + 22 + 4 * i, 4);
        CHECK(p == want[i], "%s entry %u: %u, expected %u", name, i, p, want[i]);
    }
}

/* The 7 rows of 0.data (visits, deep order without cnode 3) are the values as set. */
static bool check_rows(const unsigned char *rows)
{
    static const int cnode_of_row[7] = {0, 1, 2, 4, 5, 6, 7};
    for (int i = 0; i < 7; i++)
        for (int l = 0; l < N_LOCS; l++) {
            uint64_t v;
            memcpy(&v, rows + ((size_t)i * N_LOCS + (size_t)l) * 8, 8);
            if (v != visits[cnode_of_row[i]][l])
                return false;
        }
    return true;
}

/* Compressed 0.data: marker, row count 7, a table of (uncompressed offset, compressed offset,
 * compressed size) per row whose streams fill the member exactly and inflate to the rows. */
static void check_zdata(const cube_tar_member *d, const char *path)
{
    const size_t head = 11 + 8 + 7 * 24, row_bytes = N_LOCS * 8;
    CHECK(d && d->size > head && memcmp(d->data, "ZCUBEX.DATA", 11) == 0, "%s: zlib marker", path);
    if (!d || d->size <= head)
        return;
    uint64_t rows, t[3], coff = 0;
    memcpy(&rows, d->data + 11, 8);
    CHECK(rows == 7, "compressed row count %" PRIu64, rows);
    unsigned char plain[7 * N_LOCS * 8];
    for (size_t i = 0; i < 7; i++) {
        memcpy(t, d->data + 19 + 24 * i, sizeof t);
        CHECK(t[0] == i * row_bytes && t[1] == coff && head + t[1] + t[2] <= d->size,
              "%s: zlib row %zu table (%" PRIu64 ", %" PRIu64 ", %" PRIu64 ")", path, i, t[0], t[1],
              t[2]);
        if (t[0] != i * row_bytes || head + t[1] + t[2] > d->size)
            return;
        uLongf len = (uLongf)row_bytes;
        CHECK(uncompress(plain + t[0], &len, d->data + head + t[1], (uLong)t[2]) == Z_OK &&
                  len == row_bytes,
              "%s: zlib row %zu inflates to %lu bytes", path, i, (unsigned long)len);
        coff += t[2];
    }
    CHECK(head + coff == d->size, "%s: zlib streams end at %zu, member size %" PRIu64, path,
          (size_t)(head + coff), (uint64_t)d->size);
    CHECK(check_rows(plain), "%s: zlib rows inflate to the visits as set", path);
}

static void check_archive(const char *path, bool compressed)
{
    size_t len, n;
    unsigned char *buf = slurp(path, &len);
    cube_tar_member *m = NULL;
    char err[256];
    CHECK(buf && cube_tar_list(buf, len, &m, &n, err, sizeof err) == 0, "list %s", path);
    if (m == NULL) {
        free(buf);
        return;
    }
    /* visits (deep order): cnode 3 had only zeros written, so it is left out */
    static const uint32_t visits_pos[] = {0, 1, 2, 4, 5, 6, 7};
    check_index(m, n, "0.index", visits_pos, 7);
    /* time (wide order): every cnode but 3, listed by wide position */
    uint32_t time_pos[N_CNODES], k = 0;
    for (uint32_t p = 0; p < N_CNODES; p++)
        for (int c = 0; c < N_CNODES; c++)
            if (wide_pos[c] == (int)p && c != 3)
                time_pos[k++] = p;
    check_index(m, n, "1.index", time_pos, k);
    /* mpi_time: only cnode 6 and its ancestors 4 and 0 */
    static const uint32_t mpi_pos[] = {0, 2, 7};
    check_index(m, n, "2.index", mpi_pos, 3);
    CHECK(member(m, n, "6.index") == NULL && member(m, n, "6.data") == NULL,
          "metric without data must have no members");
    const cube_tar_member *d = member(m, n, "0.data");
    if (compressed)
        check_zdata(d, path);
    else
        CHECK(d && d->size == 10 + 7 * N_LOCS * 8 && memcmp(d->data, "CUBEX.DATA", 10) == 0 &&
                  check_rows(d->data + 10),
              "%s: visits data: marker, size or rows", path);
    cube_tar_members_free(m, n);
    free(buf);
}

/* Re-packs a written cube with a gzip-compressed anchor.xml, which readers must sniff. */
static int gzip_anchor_copy(const char *src, const char *dst)
{
    size_t len, n;
    unsigned char *buf = slurp(src, &len);
    cube_tar_member *m = NULL;
    char err[256];
    if (buf == NULL || cube_tar_list(buf, len, &m, &n, err, sizeof err) != 0)
        return -1;
    FILE *fp = fopen(dst, "wb");
    cube_tar_writer tw;
    cube_tar_writer_init(&tw, fp);
    int rc = fp ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        rc = cube_tar_begin_member(&tw, m[i].name);
        if (rc == 0 && strcmp(m[i].name, "anchor.xml") == 0) {
            z_stream zs = {0};
            unsigned char out[1 << 16];
            rc = deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK ? 0 : -1;
            zs.next_in = (Bytef *)m[i].data;
            zs.avail_in = (uInt)m[i].size;
            int zr = Z_OK;
            while (rc == 0 && zr != Z_STREAM_END) {
                zs.next_out = out;
                zs.avail_out = sizeof out;
                zr = deflate(&zs, Z_FINISH);
                fwrite(out, 1, sizeof out - zs.avail_out, fp);
            }
            deflateEnd(&zs);
        } else if (rc == 0) {
            fwrite(m[i].data, 1, (size_t)m[i].size, fp);
        }
        if (rc == 0)
            rc = cube_tar_end_member(&tw);
    }
    if (rc == 0)
        rc = cube_tar_finish(&tw);
    if (fp && fclose(fp) != 0)
        rc = -1;
    cube_tar_members_free(m, n);
    free(buf);
    return rc;
}

static void check_file(const char *path, const char *what)
{
    char err[512];
    cube_reader *r = cube_reader_open(path, err, sizeof err);
    CHECK(r != NULL, "%s: open: %s", what, err);
    if (r == NULL)
        return;
    check_definitions(r, what);
    if (r->n_metrics == N_METRICS && r->n_cnodes == N_CNODES && r->n_locations == N_LOCS)
        check_values(r, what);
    cube_reader_free(r);
}

/* Definitions out of depth-first order: the file renumbers them, names stay attached. */
static void check_out_of_order(const char *path)
{
    cube_writer *w = cube_writer_new();
    char err[512];
    cube_writer_metric(w, -1, "visits", "Visits", CUBE_DTYPE_UINT64, "occ", "", CUBE_EXCLUSIVE);
    cube_writer_region(w, "main", NULL, "user", "function", "", -1, -1, "");
    cube_writer_region(w, "x", NULL, "user", "function", "", -1, -1, "");
    cube_writer_region(w, "y", NULL, "user", "function", "", -1, -1, "");
    int root = cube_writer_cnode(w, -1, 0), x = cube_writer_cnode(w, root, 1);
    int y = cube_writer_cnode(w, root, 2), xy = cube_writer_cnode(w, x, 2);
    int mach = cube_writer_stnode(w, -1, "m", "machine");
    int p0 = cube_writer_locgroup(w, mach, "P0", 0, "process");
    int p1 = cube_writer_locgroup(w, mach, "P1", 1, "process");
    int a = cube_writer_location(w, p0, "p0t0", 0, "thread");
    int b = cube_writer_location(w, p1, "p1t0", 0, "thread");
    int c = cube_writer_location(w, p0, "p0t1", 1, "thread"); /* thread created late */
    cube_writer_set_u64(w, 0, xy, a, 11);
    cube_writer_set_u64(w, 0, xy, b, 22);
    cube_writer_set_u64(w, 0, xy, c, 33);
    cube_writer_set_u64(w, 0, y, c, 5);
    CHECK(cube_writer_write(w, path, false, err, sizeof err) == 0, "write: %s", err);
    cube_writer_free(w);
    cube_reader *r = cube_reader_open(path, err, sizeof err);
    CHECK(r != NULL, "open reordered: %s", err);
    if (r == NULL)
        return;
    /* file order: root, x, x/y, y and locations p0t0, p0t1, p1t0 */
    CHECK(r->n_cnodes == 4 && r->cnodes[2].parent == 1 && r->cnodes[2].region == 2 &&
              r->cnodes[3].parent == 0 && r->cnodes[3].region == 2,
          "reordered cnodes");
    CHECK(r->n_locations == 3 && !strcmp(r->locations[1].name, "p0t1") &&
              r->locations[1].locgroup == 0 && !strcmp(r->locations[2].name, "p1t0"),
          "reordered locations");
    CHECK(cube_reader_exclusive(r, 0, 2, 0) == 11 && cube_reader_exclusive(r, 0, 2, 1) == 33 &&
              cube_reader_exclusive(r, 0, 2, 2) == 22 && cube_reader_exclusive(r, 0, 3, 1) == 5 &&
              cube_reader_inclusive(r, 0, 0, 1) == 38,
          "values follow their renumbered cnodes and locations");
    cube_reader_free(r);
}

static void check_errors(const char *dir)
{
    char err[512] = "", path[4096];
    snprintf(path, sizeof path, "%s/does-not-exist.cubex", dir);
    CHECK(cube_reader_open(path, err, sizeof err) == NULL && strstr(err, path) != NULL,
          "missing file: '%s'", err);
    snprintf(path, sizeof path, "%s/garbage.cubex", dir);
    FILE *fp = fopen(path, "w");
    for (int i = 0; fp && i < 200; i++)
        fputs("not a tar archive ", fp);
    if (fp)
        fclose(fp);
    CHECK(cube_reader_open(path, err, sizeof err) == NULL && strstr(err, "tar") != NULL,
          "garbage file: '%s'", err);
    cube_writer *w = cube_writer_new();
    cube_writer_metric(w, -1, "visits", "Visits", CUBE_DTYPE_UINT64, "occ", "", CUBE_EXCLUSIVE);
    cube_writer_region(w, "main", NULL, "user", "function", "", -1, -1, "");
    cube_writer_cnode(w, -1, 0);
    int st = cube_writer_stnode(w, -1, "m", "machine");
    cube_writer_location(w, cube_writer_locgroup(w, st, "full", 0, "process"), "t", 0, "thread");
    cube_writer_locgroup(w, st, "empty", 1, "process");
    CHECK(cube_writer_write(w, path, false, err, sizeof err) == -1 && strstr(err, "no locations"),
          "group without locations: '%s'", err);
    cube_writer_free(w);
    remove(path);
}

/* cube_writer_every_metric_data: the metric without values (bytes_sent, file 6) gets an index
 * of no rows and a data member of no rows, plain and zlib, and reads back as 0 */
static void check_every_metric_data(const char *dir)
{
    for (int z = 0; z < 2; z++) {
        char path[4200], err[512];
        snprintf(path, sizeof path, "%s/every%d.cubex", dir, z);
        cube_writer *w = build_writer();
        cube_writer_every_metric_data(w);
        CHECK(cube_writer_write(w, path, z == 1, err, sizeof err) == 0, "write %s: %s", path, err);
        cube_writer_free(w);
        size_t len, n;
        unsigned char *buf = slurp(path, &len);
        cube_tar_member *m = NULL;
        CHECK(buf && cube_tar_list(buf, len, &m, &n, err, sizeof err) == 0, "list %s", path);
        if (m) {
            check_index(m, n, "6.index", NULL, 0);
            const cube_tar_member *d = member(m, n, "6.data");
            uint64_t rows = 1;
            if (d && z == 1 && d->size == 19 && memcmp(d->data, "ZCUBEX.DATA", 11) == 0)
                memcpy(&rows, d->data + 11, 8);
            CHECK(d && (z == 0 ? d->size == 10 && memcmp(d->data, "CUBEX.DATA", 10) == 0
                               : rows == 0),
                  "%s: 6.data holds no rows", path);
            cube_tar_members_free(m, n);
        }
        free(buf);
        cube_reader *r = cube_reader_open(path, err, sizeof err);
        CHECK(r != NULL, "read %s: %s", path, err);
        int b = r ? cube_reader_metric_by_name(r, "bytes_sent") : -1;
        CHECK(b >= 0 && cube_reader_stored(r, b, 0, 0) == 0 &&
                  !cube_reader_has_row(r, b, 0, CUBE_VIEW_STORED),
              "%s: bytes_sent reads as 0", path);
        cube_reader_free(r);
        remove(path);
    }
}

/* "--write FILE" only writes the plain test cube, for the tool tests to dump. */
static int write_only(const char *path)
{
    char err[512];
    make_values();
    cube_writer *w = build_writer();
    CHECK(cube_writer_write(w, path, false, err, sizeof err) == 0, "write %s: %s", path, err);
    cube_writer_free(w);
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--write") == 0)
        return write_only(argv[2]);
    char dir[2048], plain[4096], zipped[4096], gz[4096], other[4096], err[512];
    unit_tmp_template(dir, sizeof dir, "test_cube_roundtrip");
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(plain, sizeof plain, "%s/plain.cubex", dir);
    snprintf(zipped, sizeof zipped, "%s/zlib.cubex", dir);
    snprintf(gz, sizeof gz, "%s/gzanchor.cubex", dir);
    snprintf(other, sizeof other, "%s/reordered.cubex", dir);
    make_values();
    cube_writer *w = build_writer();
    CHECK(cube_writer_write(w, plain, false, err, sizeof err) == 0, "write plain: %s", err);
    CHECK(cube_writer_write(w, zipped, true, err, sizeof err) == 0, "write zlib: %s", err);
    cube_writer_free(w);
    check_archive(plain, false);
    check_archive(zipped, true);
    check_file(plain, "plain");
    check_file(zipped, "zlib");
    CHECK(gzip_anchor_copy(zipped, gz) == 0, "gzip anchor copy");
    check_file(gz, "gzip anchor");
    check_out_of_order(other);
    check_errors(dir);
    check_every_metric_data(dir);
    remove(plain);
    remove(zipped);
    remove(gz);
    remove(other);
    rmdir(dir);
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("cube round trip: all checks passed\n");
    return 0;
}
