/* SPDX-License-Identifier: BSD-3-Clause */
/* report_profile.c: the report's data from profile.cubex (read with src/cube's reader): the
 * call tree with inclusive/exclusive time, visits and min/max for the flame graph, the top-N
 * table (scorep-score's rows, from src/tools/score/score_model), the heat map of top regions
 * per location, and the bytes per rank (the profile has no per-peer data: the per-pair
 * matrix needs a trace). */
#include "cube/cube.h"
#include "report.h"
#include "tools/score/score_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { HEAT_REGIONS = 16, TOP_ROWS = 40 };

typedef struct {
    const cube_reader *r;
    int visits, time, min, max;
    score_model score; /* per region: type, visits, exclusive time summed over locations */
} profile;

static double sum_locations(const profile *p, int metric, int c, bool inclusive)
{
    double s = 0;
    for (int l = 0; metric >= 0 && l < p->r->n_locations; l++)
        s += inclusive ? cube_reader_inclusive(p->r, metric, c, l)
                       : cube_reader_exclusive(p->r, metric, c, l);
    return s;
}

/* Visits of cnode c over all locations, exact (a double's 53 bits could round them). */
static uint64_t sum_visits(const profile *p, int c)
{
    uint64_t s = 0;
    bool exact = p->r->metrics[p->visits].dtype == CUBE_DTYPE_UINT64;
    for (int l = 0; l < p->r->n_locations; l++)
        s += exact ? cube_reader_value_bits(p->r, p->visits, c, l, CUBE_VIEW_EXCLUSIVE)
                   : (uint64_t)llround(cube_reader_exclusive(p->r, p->visits, c, l));
    return s;
}

/* Smallest min_time and largest max_time over the locations that visited cnode c. */
static void min_max(const profile *p, int c, double *mn, double *mx)
{
    *mn = INFINITY;
    *mx = 0;
    for (int l = 0; l < p->r->n_locations; l++) {
        if (p->visits >= 0 && cube_reader_stored(p->r, p->visits, c, l) == 0)
            continue;
        if (p->min >= 0)
            *mn = fmin(*mn, cube_reader_stored(p->r, p->min, c, l));
        if (p->max >= 0)
            *mx = fmax(*mx, cube_reader_stored(p->r, p->max, c, l));
    }
    if (!isfinite(*mn))
        *mn = 0;
}

/* rank: the rank of the location's process (a GPU stream's: that of the process that
 * created its context; proc from cube_reader_process_groups, NULL: its group's) */
static void write_locations(FILE *out, const cube_reader *r, const int *proc)
{
    json_key(out, "locations", false);
    fputc('[', out);
    for (int l = 0; l < r->n_locations; l++) {
        const cube_location *loc = &r->locations[l];
        int g = proc ? proc[loc->locgroup] : loc->locgroup;
        fprintf(out, "%s{\"name\":", l ? "," : "");
        json_string(out, loc->name);
        json_member(out, "group", r->locgroups[loc->locgroup].name, false);
        fprintf(out, ",\"rank\":%d,\"type\":", r->locgroups[g].rank);
        json_string(out, loc->type);
        fputc('}', out);
    }
    fputc(']', out);
}

/* A parameter cnode's label "name=value"; null for a region's cnode (the page names it). */
static void write_cnode_label(FILE *out, const cube_cnode *n)
{
    if (n->param_name == NULL) {
        fputs("null", out);
        return;
    }
    char num[32];
    snprintf(num, sizeof num, "%lld", (long long)n->param_int);
    const char *value = n->param_string ? n->param_string : num;
    size_t len = strlen(n->param_name) + strlen(value) + 2;
    char *s = malloc(len);
    if (s == NULL) {
        json_string(out, n->param_name);
        return;
    }
    snprintf(s, len, "%s=%s", n->param_name, value);
    json_string(out, s);
    free(s);
}

/* tree.nodes: [parent, region, visits, inclusive, exclusive, min, max, label|null] per cnode,
 * summed over locations; ids are cube's, parents come first. */
static void write_tree(FILE *out, const profile *p)
{
    const cube_reader *r = p->r;
    json_key(out, "tree", false);
    fputs("{\"regions\":[", out);
    for (int g = 0; g < r->n_regions; g++) {
        fprintf(out, "%s{\"name\":", g ? "," : "");
        json_string(out, r->regions[g].name);
        json_member(out, "paradigm", r->regions[g].paradigm, false);
        json_member(out, "type", score_type_name(p->score.regions[g].type), false);
        json_member(out, "file", r->regions[g].file, false);
        fprintf(out, ",\"line\":%d}", r->regions[g].begin_line);
    }
    fputs("],\"nodes\":[", out);
    for (int c = 0; c < r->n_cnodes; c++) {
        double mn, mx;
        min_max(p, c, &mn, &mx);
        fprintf(out, "%s[%d,%d,", c ? "," : "", r->cnodes[c].parent, r->cnodes[c].region);
        json_u64(out, sum_visits(p, c));
        fputc(',', out);
        json_double(out, sum_locations(p, p->time, c, true));
        fputc(',', out);
        json_double(out, sum_locations(p, p->time, c, false));
        fputc(',', out);
        json_double(out, mn);
        fputc(',', out);
        json_double(out, mx);
        fputc(',', out);
        write_cnode_label(out, &r->cnodes[c]);
        fputc(']', out);
    }
    fputs("]}", out);
}

/* Region ids ordered by exclusive time, largest first (ties by id, for stable output).
 * scorep-score sorts by max_buf by default; the report is about where the time goes. */
static const score_row *sort_rows;
static int by_excl(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    double ex = sort_rows[x].excl, ey = sort_rows[y].excl;
    return ex > ey ? -1 : ex < ey ? 1 : x - y;
}

static int *regions_by_time(const profile *p)
{
    int *ids = malloc(((size_t)p->r->n_regions + 1) * sizeof *ids);
    if (ids == NULL)
        return NULL;
    for (int g = 0; g < p->r->n_regions; g++)
        ids[g] = g;
    sort_rows = p->score.regions;
    qsort(ids, (size_t)p->r->n_regions, sizeof *ids, by_excl);
    return ids;
}

static void write_top_row(FILE *out, bool first, const char *type, const char *name,
                          uint64_t visits, double time, double total)
{
    fprintf(out, "%s{\"type\":", first ? "" : ",");
    json_string(out, type);
    json_member(out, "region", name, false);
    fputs(",\"visits\":", out);
    json_u64(out, visits);
    fputs(",\"time\":", out);
    json_double(out, time);
    fputs(",\"percent\":", out);
    json_double(out, total > 0 ? 100 * time / total : 0);
    fputs(",\"per_visit_us\":", out);
    json_double(out, visits ? 1e6 * time / (double)visits : 0);
    fputc('}', out);
}

/* "top_groups": scorep-score's group rows with visits (ALL first, then in its order);
 * "top": the TOP_ROWS regions with the most exclusive time, as scorep-score -r's rows;
 * "top_regions" counts all regions with visits. */
static void write_top(FILE *out, const profile *p, const int *order)
{
    const score_model *m = &p->score;
    double total = m->groups[SCORE_ALL].excl;
    json_key(out, "top_groups", false);
    fputc('[', out);
    for (int k = SCORE_ALL, first = 1; k < SCORE_N_TYPES; k++) {
        const score_row *w = &m->groups[k];
        if (k == SCORE_FLT || (k != SCORE_ALL && w->visits == 0))
            continue;
        write_top_row(out, first, w->name, w->name, w->visits, w->excl, total);
        first = 0;
    }
    fputc(']', out);
    json_key(out, "top", false);
    fputc('[', out);
    int with_visits = 0;
    for (int i = 0, n = 0; i < m->n_rows; i++) {
        const score_row *w = &m->regions[order[i]];
        if (w->visits == 0)
            continue;
        with_visits++;
        if (n < TOP_ROWS)
            write_top_row(out, n++ == 0, score_type_name(w->type), w->name, w->visits, w->excl,
                          total);
    }
    fprintf(out, "],\"top_regions\":%d", with_visits);
}

/* "heat": exclusive time of the HEAT_REGIONS regions with the most time, per location. */
static int write_heat(FILE *out, const profile *p, const int *order)
{
    const cube_reader *r = p->r;
    int n = 0;
    while (n < HEAT_REGIONS && n < r->n_regions && p->score.regions[order[n]].excl > 0)
        n++;
    int *col = malloc(((size_t)r->n_regions + 1) * sizeof *col);
    double *v = calloc((size_t)r->n_locations * (size_t)n + 1, sizeof *v);
    if (col == NULL || v == NULL) {
        free(col);
        free(v);
        return -1;
    }
    for (int g = 0; g < r->n_regions; g++)
        col[g] = -1;
    for (int k = 0; k < n; k++)
        col[order[k]] = k;
    for (int c = 0; c < r->n_cnodes; c++)
        for (int l = 0, k = col[r->cnodes[c].region]; k >= 0 && l < r->n_locations; l++)
            v[(size_t)l * (size_t)n + (size_t)k] += cube_reader_exclusive(r, p->time, c, l);
    json_key(out, "heat", false);
    fputs("{\"regions\":[", out);
    for (int k = 0; k < n; k++)
        fprintf(out, "%s%d", k ? "," : "", order[k]);
    fputs("],\"values\":[", out);
    for (int l = 0; l < r->n_locations; l++) {
        fputs(l ? ",[" : "[", out);
        for (int k = 0; k < n; k++) {
            if (k)
                fputc(',', out);
            json_double(out, v[(size_t)l * (size_t)n + (size_t)k]);
        }
        fputc(']', out);
    }
    fputs("]}", out);
    free(col);
    free(v);
    return 0;
}

/* "profile_bytes": bytes_sent/received/put/get summed per rank (the rank of the process's
 * location group; proc as for write_locations). */
static int write_bytes(FILE *out, const cube_reader *r, const int *proc)
{
    static const char *const names[4] = {"bytes_sent", "bytes_received", "bytes_put", "bytes_get"};
    int m[4], any = 0, max_rank = -1;
    for (int g = 0; g < r->n_locgroups; g++)
        if ((!proc || proc[g] == g) && r->locgroups[g].rank > max_rank)
            max_rank = r->locgroups[g].rank;
    uint64_t *sum = calloc(4 * ((size_t)max_rank + 1) + 1, sizeof *sum);
    if (sum == NULL)
        return -1;
    json_key(out, "profile_bytes", false);
    fputs("{\"metrics\":[", out);
    for (int k = 0; k < 4; k++) {
        m[k] = cube_reader_metric_by_name(r, names[k]);
        if (m[k] >= 0)
            fprintf(out, "%s\"%s\"", any++ ? "," : "", names[k]);
        for (int l = 0; m[k] >= 0 && l < r->n_locations; l++) {
            int g = proc ? proc[r->locations[l].locgroup] : r->locations[l].locgroup;
            int rank = r->locgroups[g].rank;
            for (int c = 0; rank >= 0 && c < r->n_cnodes; c++)
                sum[4 * (size_t)rank + (size_t)k] +=
                    cube_reader_value_bits(r, m[k], c, l, CUBE_VIEW_EXCLUSIVE);
        }
    }
    fputs("],\"ranks\":[", out);
    for (int rank = 0; any && rank <= max_rank; rank++) {
        fprintf(out, "%s{\"rank\":%d", rank ? "," : "", rank);
        for (int k = 0; k < 4; k++) {
            fprintf(out, ",\"%s\":", names[k] + 6);
            json_u64(out, sum[4 * (size_t)rank + (size_t)k]);
        }
        fputc('}', out);
    }
    fputs("]}", out);
    free(sum);
    return 0;
}

static int write_all(FILE *out, profile *p)
{
    int *order = regions_by_time(p);
    int *proc = cube_reader_process_groups(p->r);
    if (order == NULL || proc == NULL) {
        free(order);
        free(proc);
        return -1;
    }
    write_locations(out, p->r, proc);
    write_tree(out, p);
    write_top(out, p, order);
    int rc = write_heat(out, p, order);
    if (rc == 0)
        rc = write_bytes(out, p->r, proc);
    free(order);
    free(proc);
    return rc;
}

int report_write_profile(FILE *out, const char *path, char *err, size_t errlen)
{
    char why[512];
    cube_reader *r = cube_reader_open(path, why, sizeof why);
    if (r == NULL) {
        snprintf(err, errlen, "cannot read the profile %s: %s", path, why);
        return -2;
    }
    profile p = {.r = r,
                 .visits = cube_reader_metric_by_name(r, "visits"),
                 .time = cube_reader_metric_by_name(r, "time"),
                 .min = cube_reader_metric_by_name(r, "min_time"),
                 .max = cube_reader_metric_by_name(r, "max_time")};
    int rc = -2;
    const score_params none = {0, NULL}; /* no metric counters, no filter: the rows only */
    if (p.time < 0 || p.visits < 0)
        snprintf(err, errlen, "the profile %s has no 'time' or 'visits' metric", path);
    else if (score_model_compute(&p.score, r, &none, why, sizeof why) != 0) {
        snprintf(err, errlen, "cannot read the profile %s: %s", path, why);
        score_model_free(&p.score);
    } else {
        rc = write_all(out, &p) != 0 ? -1 : 0;
        if (rc != 0)
            snprintf(err, errlen, "out of memory while reading %s", path);
        score_model_free(&p.score);
    }
    cube_reader_free(r);
    return rc;
}
