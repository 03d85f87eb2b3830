/* SPDX-License-Identifier: BSD-3-Clause */
/* score_print.c: scorep-score's text output in Score-P's layout (score_print.h). */
#include "tools/score/score_print.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

double score_time_per_visit(const score_row *w)
{
    return w->visits ? w->excl / (double)w->visits * 1e6 : 0.0;
}

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
    return (a < b) - (a > b);
}

static int cmp_double(double a, double b)
{
    return (a > b) - (a < b);
}

static int compare(const score_row *a, const score_row *b, score_sort key)
{
    switch (key) {
    case SORT_MAXBUF:
        return cmp_u64_desc(a->max_buf, b->max_buf);
    case SORT_TOTALTIME:
        return -cmp_double(a->excl, b->excl);
    case SORT_INCL:
        return -cmp_double(a->incl, b->incl);
    case SORT_TIMEPERVISIT:
        return cmp_double(score_time_per_visit(a), score_time_per_visit(b));
    case SORT_VISITS:
        return cmp_u64_desc(a->visits, b->visits);
    case SORT_NAME:
        return strcmp(a->name, b->name);
    }
    return 0;
}

/* Insertion into a merge sort's runs keeps equal rows in order, as std::stable_sort. */
static void merge_sort(score_row *rows, score_row *tmp, size_t n, score_sort key)
{
    if (n < 2)
        return;
    size_t h = n / 2, i = 0, j = h, k = 0;
    merge_sort(rows, tmp, h, key);
    merge_sort(rows + h, tmp, n - h, key);
    while (i < h && j < n)
        tmp[k++] = compare(&rows[j], &rows[i], key) < 0 ? rows[j++] : rows[i++];
    while (i < h)
        tmp[k++] = rows[i++];
    while (j < n)
        tmp[k++] = rows[j++];
    memcpy(rows, tmp, n * sizeof *rows);
}

void score_sort_rows(score_row *rows, size_t n, score_sort key)
{
    score_row *tmp = malloc((n + 1) * sizeof *tmp);
    if (tmp == NULL) /* unsorted output beats none: only the order is lost */
        return;
    merge_sort(rows, tmp, n, key);
    free(tmp);
}

const char *score_grouped(uint64_t v, char *buf)
{
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%" PRIu64, v), o = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
    return buf;
}

/* Score-P's human-readable sizes: divide while above 4 units, then round up. */
static void human_bytes(uint64_t bytes, char *buf, size_t len)
{
    static const char *const units[] = {" bytes", "kB", "MB", "GB", "TB", "PB", "EB"};
    int e = 0;
    while (bytes > 4 * 1024 && e < 6) {
        bytes /= 1024;
        e++;
    }
    snprintf(buf, len, "%" PRIu64 "%s", bytes + 1, units[e]);
}

static int max_int(int a, int b)
{
    return a > b ? a : b;
}

score_widths score_table_widths(const score_model *m)
{
    const score_row *all = &m->groups[SCORE_ALL];
    char b[64];
    score_widths w = {7, 10, 6, 7, 14};
    w.buf = max_int(w.buf, (int)strlen(score_grouped(all->max_buf, b)));
    w.visits = max_int(w.visits, (int)strlen(score_grouped(all->visits, b)));
    w.time = max_int(w.time, snprintf(b, sizeof b, "%.2f", all->excl));
    return w;
}

static void print_row(FILE *out, const score_row *w, const score_widths *wd, double total,
                      const char *name)
{
    char b1[40], b2[40];
    fprintf(out, " %c  %*s %*s %*s %*.2f %7.1f %*.2f  %s\n", w->flt, wd->type,
            score_type_name(w->type), wd->buf, score_grouped(w->max_buf, b1), wd->visits,
            score_grouped(w->visits, b2), wd->time, w->excl,
            total > 0 ? 100.0 * w->excl / total : 0.0, wd->tpv, score_time_per_visit(w), name);
}

static void print_estimate(FILE *out, const score_model *m)
{
    const uint64_t page = 2 * 1024 * 1024;
    uint64_t mem =
        (m->max_buf > page ? m->max_buf : page) + page * (uint64_t)m->max_locations_per_process;
    char b[64], hint[64];
    human_bytes(m->total_buf, b, sizeof b);
    fprintf(out, "\nEstimated aggregate size of event trace:                   %s\n", b);
    human_bytes(m->max_buf, b, sizeof b);
    fprintf(out, "Estimated requirements for largest trace buffer (max_buf): %s\n", b);
    human_bytes(mem, hint, sizeof hint);
    fprintf(out, "Estimated memory requirements (SCOREP_TOTAL_MEMORY):       %s\n", hint);
    if (mem > UINT32_MAX)
        fprintf(out, "(warning: The memory requirements cannot be satisfied by Score-P to avoid\n"
                     " intermediate flushes when tracing. Set SCOREP_TOTAL_MEMORY=4G to get the\n"
                     " maximum supported memory or reduce requirements using USR regions "
                     "filters.)\n\n");
    else
        fprintf(out,
                "(hint: When tracing set SCOREP_TOTAL_MEMORY=%s to avoid intermediate flushes\n"
                " or reduce requirements using USR regions filters.)\n\n",
                hint);
}

/* Group rows after the ALL row, sorted; groups without trace bytes are left out. */
static void print_group_rows(FILE *out, const score_row *groups, const score_widths *wd,
                             double total, score_sort key, bool kept)
{
    score_row rows[SCORE_N_TYPES];
    memcpy(rows, groups, sizeof rows);
    score_sort_rows(rows + 1, SCORE_N_TYPES - 1, key);
    for (int k = 0; k < SCORE_N_TYPES; k++) {
        if (rows[k].total_buf == 0 && !(k == 0 && !kept))
            continue;
        char name[32];
        snprintf(name, sizeof name, "%s%s", rows[k].name,
                 kept && rows[k].type != SCORE_FLT ? "-FLT" : "");
        print_row(out, &rows[k], wd, total, name);
    }
}

void score_print_groups(FILE *out, const score_model *m, score_sort key)
{
    score_widths wd = score_table_widths(m);
    double total = m->groups[SCORE_ALL].excl;
    print_estimate(out, m);
    fprintf(out, "flt %*s %*s %*s %*s %7s %*s  %s\n", wd.type, "type", wd.buf, "max_buf[B]",
            wd.visits, "visits", wd.time, "time[s]", "time[%]", wd.tpv, "time/visit[us]", "region");
    print_group_rows(out, m->groups, &wd, total, key, false);
    if (!m->has_filter)
        return;
    fputc('\n', out);
    print_group_rows(out, m->kept, &wd, total, key, true);
}

void score_print_regions(FILE *out, const score_model *m, score_sort key, long limit, bool mangled)
{
    score_row *rows = malloc(((size_t)m->n_rows + 1) * sizeof *rows);
    if (rows == NULL)
        return;
    size_t n = 0;
    for (int g = 0; g < m->n_rows; g++)
        if (m->regions[g].total_buf > 0)
            rows[n++] = m->regions[g];
    score_sort_rows(rows, n, key);
    score_widths wd = score_table_widths(m);
    fputc('\n', out);
    for (size_t i = 0; i < n && (limit == 0 || (long)i < limit); i++)
        print_row(out, &rows[i], &wd, m->groups[SCORE_ALL].excl,
                  mangled ? rows[i].mangled : rows[i].name);
    free(rows);
}

void score_print_top(FILE *out, const score_model *m, long top)
{
    score_row *rows = malloc(((size_t)m->n_rows + 1) * sizeof *rows);
    if (rows == NULL)
        return;
    memcpy(rows, m->regions, (size_t)m->n_rows * sizeof *rows);
    score_sort_rows(rows, (size_t)m->n_rows, SORT_TOTALTIME);
    long n = top < m->n_rows ? top : m->n_rows;
    /* pad to the longest name, but not beyond 40 columns: longer C++ names just push
     * their numbers right, which keeps short names readable */
    int name_w = 6;
    for (long i = 0; i < n; i++)
        name_w = max_int(name_w, (int)strlen(rows[i].name) < 40 ? (int)strlen(rows[i].name) : 40);
    fprintf(out, "%4s  %-*s %14s %14s %14s %14s %14s\n", "rank", name_w, "region", "excl_time[s]",
            "incl_time[s]", "visits", "min_excl[s]", "max_excl[s]");
    for (long i = 0; i < n; i++)
        fprintf(out, "%4ld  %-*s %14.6f %14.6f %14" PRIu64 " %14.6f %14.6f\n", i + 1, name_w,
                rows[i].name, rows[i].excl, rows[i].incl, rows[i].visits, rows[i].min_excl,
                rows[i].max_excl);
    free(rows);
}
