/* SPDX-License-Identifier: BSD-3-Clause */
/* test_cube_samples.c: reads the real Score-P profiles in reference/cube-samples and checks
 * every value of their excl.csv/incl.csv, plus structure and view consistency of the rest. */
#include "cube/cube.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            if (failures <= 30) {                                                                  \
                fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                               \
                fprintf(stderr, __VA_ARGS__);                                                      \
                fputc('\n', stderr);                                                               \
            }                                                                                      \
        }                                                                                          \
    } while (0)

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* "$SHARED_DIR/reference/cube-samples", else ../shared next to the source tree. */
static int find_samples(char *out, size_t len)
{
    const char *shared = getenv("SHARED_DIR");
    if (shared != NULL) {
        snprintf(out, len, "%s/reference/cube-samples", shared);
        if (is_dir(out))
            return 0;
    }
    const char *top = getenv("top_srcdir");
    snprintf(out, len, "%s/../shared/reference/cube-samples", top ? top : ".");
    return is_dir(out) ? 0 : -1;
}

/* Splits a CSV line in place on commas, trimming blanks; returns the field count. */
static int split_csv(char *line, char **fields, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(line, ",\r\n", &save); tok && n < max;
         tok = strtok_r(NULL, ",\r\n", &save)) {
        while (isspace((unsigned char)*tok))
            tok++;
        char *e = tok + strlen(tok);
        while (e > tok && isspace((unsigned char)e[-1]))
            *--e = '\0';
        fields[n++] = tok;
    }
    return n;
}

/* Half a unit in the last digit the CSV printed: its values carry 6 to 12 significant
 * digits, so a fixed 1e-6 relative bound would reject correctly read values like
 * 10.0001394 printed as "10.0001". */
static double printed_resolution(const char *tok, double v)
{
    int digits = 0, leading = 1;
    for (const char *p = tok; *p && *p != 'e' && *p != 'E'; p++) {
        if (!isdigit((unsigned char)*p))
            continue;
        if (*p == '0' && leading)
            continue;
        leading = 0;
        digits++;
    }
    if (digits == 0 || v == 0.0)
        return 0.0;
    return 0.5 * pow(10.0, floor(log10(fabs(v))) - (digits - 1));
}

/* Compares one CSV token with the reader's exact value; returns 1 if it matches. */
static int value_matches(const cube_reader *r, int m, uint64_t bits, const char *tok)
{
    cube_dtype t = r->metrics[m].dtype;
    char *end;
    errno = 0;
    if (t == CUBE_DTYPE_UINT64) {
        uint64_t e = strtoull(tok, &end, 10);
        return *end == '\0' && errno == 0 && e == bits;
    }
    if (t == CUBE_DTYPE_INT64) {
        int64_t e = strtoll(tok, &end, 10);
        return *end == '\0' && errno == 0 && e == (int64_t)bits;
    }
    double e = strtod(tok, &end), a = cube_value_to_double(t, bits);
    if (*end != '\0')
        return 0;
    double tol = fmax(1e-6 * fabs(e), printed_resolution(tok, e) * (1 + 1e-9));
    if (e == 0.0)
        tol = 1e-12; /* derived exclusive values may differ from 0 by rounding only */
    return fabs(a - e) <= tol;
}

typedef struct {
    long lines, values;
} csv_stats;

/* Checks every line of one CSV against the given view; also requires that the CSV lists
 * each (cnode, location) pair exactly once. */
static csv_stats check_csv(const cube_reader *r, const char *path, cube_view view)
{
    csv_stats st = {0, 0};
    FILE *fp = fopen(path, "r");
    CHECK(fp != NULL, "cannot open %s", path);
    if (fp == NULL)
        return st;
    char line[65536], *f[64];
    int metric_of[64] = {0};
    int nf = fgets(line, sizeof line, fp) ? split_csv(line, f, 64) : 0;
    CHECK(nf > 2 && strcmp(f[0], "Cnode ID") == 0 && strcmp(f[1], "Thread ID") == 0,
          "%s: unexpected header", path);
    for (int i = 2; i < nf; i++) {
        metric_of[i] = cube_reader_metric_by_name(r, f[i]);
        CHECK(metric_of[i] >= 0, "%s: metric %s not in the cube", path, f[i]);
    }
    size_t pairs = (size_t)r->n_cnodes * (size_t)r->n_locations;
    unsigned char *seen = calloc(pairs, 1);
    while (seen && fgets(line, sizeof line, fp)) {
        int n = split_csv(line, f, 64), c = atoi(f[0]), l = n > 1 ? atoi(f[1]) : -1;
        if (n == 0)
            continue;
        CHECK(n == nf && c >= 0 && c < r->n_cnodes && l >= 0 && l < r->n_locations,
              "%s: bad line %ld", path, st.lines + 2);
        if (n != nf || c < 0 || c >= r->n_cnodes || l < 0 || l >= r->n_locations)
            continue;
        CHECK(!seen[(size_t)c * r->n_locations + l]++, "%s: pair %d/%d twice", path, c, l);
        for (int i = 2; i < nf; i++) {
            int m = metric_of[i];
            if (m < 0)
                continue;
            uint64_t bits = cube_reader_value_bits(r, m, c, l, view);
            char got[64];
            cube_format_value(got, sizeof got, r->metrics[m].dtype, bits);
            CHECK(value_matches(r, m, bits, f[i]), "%s: cnode %d loc %d %s: expected %s, got %s",
                  path, c, l, r->metrics[m].uniq_name, f[i], got);
            st.values++;
        }
        st.lines++;
    }
    CHECK((size_t)st.lines == pairs, "%s: %ld lines for %zu cnode/location pairs", path, st.lines,
          pairs);
    free(seen);
    fclose(fp);
    return st;
}

static void check_sample_with_csv(const char *dir, const char *name, const char *file)
{
    char path[4096], err[512];
    snprintf(path, sizeof path, "%s/%s/%s", dir, name, file);
    cube_reader *r = cube_reader_open(path, err, sizeof err);
    CHECK(r != NULL, "open %s: %s", path, err);
    if (r == NULL)
        return;
    snprintf(path, sizeof path, "%s/%s/excl.csv", dir, name);
    csv_stats ex = check_csv(r, path, CUBE_VIEW_EXCLUSIVE);
    snprintf(path, sizeof path, "%s/%s/incl.csv", dir, name);
    csv_stats in = check_csv(r, path, CUBE_VIEW_INCLUSIVE);
    printf("%-22s %d metrics, %d cnodes, %d locations: %ld+%ld values checked\n", name,
           r->n_metrics, r->n_cnodes, r->n_locations, ex.values, in.values);
    cube_reader_free(r);
}

/* inclusive(c) = exclusive(c) + sum of inclusive(children), for every summed metric. */
static void check_views_consistent(const cube_reader *r, const char *name)
{
    long checked = 0;
    double *sum = calloc((size_t)r->n_cnodes, sizeof *sum);
    for (int m = 0; sum != NULL && m < r->n_metrics; m++) {
        cube_dtype t = r->metrics[m].dtype;
        if (t == CUBE_DTYPE_MINDOUBLE || t == CUBE_DTYPE_MAXDOUBLE)
            continue;
        for (int l = 0; l < r->n_locations; l++) {
            for (int c = 0; c < r->n_cnodes; c++)
                sum[c] = cube_reader_exclusive(r, m, c, l);
            for (int k = 0; k < r->n_cnodes; k++)
                if (r->cnodes[k].parent >= 0)
                    sum[r->cnodes[k].parent] += cube_reader_inclusive(r, m, k, l);
            for (int c = 0; c < r->n_cnodes; c++) {
                double incl = cube_reader_inclusive(r, m, c, l);
                CHECK(fabs(sum[c] - incl) <= 1e-9 * fmax(1.0, fabs(incl)),
                      "%s: metric %s cnode %d loc %d: incl %.17g != %.17g", name,
                      r->metrics[m].uniq_name, c, l, incl, sum[c]);
                checked++;
            }
        }
    }
    free(sum);
    printf("%-22s %ld inclusive = exclusive + children checks\n", name, checked);
}

static void check_structure(const char *dir, const char *name, int metrics, int cnodes,
                            int locations)
{
    char path[4096], err[512];
    snprintf(path, sizeof path, "%s/%s/profile.cubex", dir, name);
    cube_reader *r = cube_reader_open(path, err, sizeof err);
    CHECK(r != NULL, "open %s: %s", path, err);
    if (r == NULL)
        return;
    CHECK(r->n_metrics == metrics && r->n_cnodes == cnodes && r->n_locations == locations,
          "%s: %d/%d/%d metrics/cnodes/locations, expected %d/%d/%d", name, r->n_metrics,
          r->n_cnodes, r->n_locations, metrics, cnodes, locations);
    int roots = 0;
    for (int c = 0; c < r->n_cnodes; c++) {
        CHECK(r->cnodes[c].region >= 0 && r->cnodes[c].region < r->n_regions,
              "%s: cnode %d region %d", name, c, r->cnodes[c].region);
        CHECK(r->cnodes[c].parent >= -1 && r->cnodes[c].parent < r->n_cnodes, "%s: cnode %d parent",
              name, c);
        roots += r->cnodes[c].parent < 0;
    }
    CHECK(roots >= 1, "%s: no root cnode", name);
    for (int l = 0; l < r->n_locations; l++)
        CHECK(r->locations[l].locgroup >= 0 && r->locations[l].locgroup < r->n_locgroups,
              "%s: location %d group", name, l);
    int visits = cube_reader_metric_by_name(r, "visits");
    CHECK(visits >= 0 && cube_reader_inclusive(r, visits, 0, 0) > 0, "%s: no visits", name);
    check_views_consistent(r, name);
    cube_reader_free(r);
}

int main(void)
{
    char dir[4096];
    if (find_samples(dir, sizeof dir) != 0) {
        fprintf(stderr, "cube samples not found (set SHARED_DIR); skipping\n");
        return 77;
    }
    check_sample_with_csv(dir, "call_tree_test", "call_tree_test.cubex");
    check_sample_with_csv(dir, "time.p4.n2000.x1.r0", "profile.cubex");
    check_sample_with_csv(dir, "blast.p64.r1", "profile.cubex");
    /* several roots: inclusive rows are enumerated one root at a time */
    check_sample_with_csv(dir, "pthread_roots", "profile.cubex");
    check_sample_with_csv(dir, "user_api", "profile.cubex");
    /* counts as listed in their anchor.xml */
    check_structure(dir, "kripke.p8.d2.g32.r1", 15, 14, 8);
    check_structure(dir, "fastest.p16.size131072.r1", 12, 584, 16);
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("all cube sample checks passed\n");
    return 0;
}
