/* SPDX-License-Identifier: BSD-3-Clause */
/* report_taskgraph.c: the "Task graph" section of scorep-report from EXPDIR/taskgraph.dot (the
 * analysis's OpenMP task graph, docs/openmp.md "Task graph"): its nodes and edges for the
 * page's layered drawing (report.js), and the table per task region and rank: count, sum,
 * mean, minimum, maximum of the task durations, the least slack and the time on the critical
 * path. Reads the statements the analysis writes (one node or edge per line). */
#include "report.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    char *id, *label;
    double duration, slack, cp;
    long thread, rank, count;
    bool red, join;
} tg_node;

typedef struct {
    size_t from, to;
    char kind[16];
    bool red;
} tg_edge;

typedef struct {
    tg_node *n;
    size_t nn, capn;
    tg_edge *e;
    size_t ne, cape;
    bool merged;
} tg_graph;

/* a quoted string at *p (escapes \" and \\ undone) into a new string; NULL when malformed */
static char *quoted(const char **p)
{
    const char *s = *p;
    if (*s != '"')
        return NULL;
    char *out = malloc(strlen(s) + 1);
    size_t k = 0;
    for (s++; out && *s && *s != '"'; s++) {
        if (*s == '\\' && s[1])
            s++;
        out[k++] = *s;
    }
    if (!out || *s != '"') {
        free(out);
        return NULL;
    }
    out[k] = '\0';
    *p = s + 1;
    return out;
}

/* the value of attribute KEY in the list "[k=v k="v" ...]" at A (NULL: absent; new string) */
static char *attr(const char *a, const char *key)
{
    size_t kl = strlen(key);
    for (const char *s = a; (s = strstr(s, key)) != NULL; s += kl) {
        if ((s > a && s[-1] != ' ' && s[-1] != '[') || s[kl] != '=')
            continue;
        const char *v = s + kl + 1;
        if (*v == '"')
            return quoted(&v);
        size_t n = strcspn(v, " ];");
        char *out = malloc(n + 1);
        if (out) {
            memcpy(out, v, n);
            out[n] = '\0';
        }
        return out;
    }
    return NULL;
}

static double attr_num(const char *a, const char *key, double dflt)
{
    char *v = attr(a, key);
    double d = v ? strtod(v, NULL) : dflt;
    free(v);
    return d;
}

static bool attr_is(const char *a, const char *key, const char *want)
{
    char *v = attr(a, key);
    bool is = v && !strcmp(v, want);
    free(v);
    return is;
}

static long node_index(const tg_graph *g, const char *id)
{
    for (size_t i = g->nn; i-- > 0;) /* edges follow their nodes: the latest first */
        if (!strcmp(g->n[i].id, id))
            return (long)i;
    return -1;
}

/* one statement of the file; -1 when memory runs out */
static int statement(tg_graph *g, const char *line)
{
    const char *p = line + strspn(line, " \t");
    if (!strncmp(p, "//", 2)) {
        g->merged = g->merged || strstr(p, "merged:") != NULL;
        return 0;
    }
    char *a = quoted(&p);
    if (!a)
        return 0;
    p += strspn(p, " ");
    if (!strncmp(p, "->", 2)) {
        p += 2 + strspn(p + 2, " ");
        char *b = quoted(&p);
        long x = node_index(g, a), y = b ? node_index(g, b) : -1;
        free(a);
        free(b);
        if (x < 0 || y < 0)
            return 0;
        if (g->ne == g->cape) {
            size_t c = g->cape ? 2 * g->cape : 64;
            tg_edge *n = realloc(g->e, c * sizeof *n);
            if (!n)
                return -1;
            g->e = n;
            g->cape = c;
        }
        tg_edge *e = &g->e[g->ne++];
        e->from = (size_t)x;
        e->to = (size_t)y;
        char *k = attr(p, "kind");
        snprintf(e->kind, sizeof e->kind, "%s", k ? k : "dep");
        free(k);
        e->red = attr_is(p, "color", "red");
        return 0;
    }
    if (g->nn == g->capn) {
        size_t c = g->capn ? 2 * g->capn : 64;
        tg_node *n = realloc(g->n, c * sizeof *n);
        if (!n) {
            free(a);
            return -1;
        }
        g->n = n;
        g->capn = c;
    }
    tg_node *v = &g->n[g->nn++];
    v->id = a;
    v->label = attr(p, "label");
    v->duration = attr_num(p, "duration", 0);
    v->slack = attr_num(p, "slack", 0);
    v->cp = attr_num(p, "critical_path", 0);
    v->thread = (long)attr_num(p, "thread", -1);
    v->rank = (long)attr_num(p, "rank", -1);
    v->count = (long)attr_num(p, "merged", 1);
    v->red = attr_is(p, "color", "red");
    v->join = attr_is(p, "shape", "point");
    return 0;
}

/* the table: one row per (label, rank) of task nodes, in order of first appearance */
static void write_table(FILE *out, const tg_graph *g)
{
    json_key(out, "table", false);
    fputc('[', out);
    bool *done = calloc(g->nn + 1, sizeof *done);
    bool first = true;
    for (size_t i = 0; done && i < g->nn; i++) {
        const tg_node *v = &g->n[i];
        if (done[i] || v->join)
            continue;
        long count = 0;
        double sum = 0, mn = 0, mx = 0, slack = 0, cp = 0;
        for (size_t j = i; j < g->nn; j++) {
            const tg_node *w = &g->n[j];
            if (w->join || w->rank != v->rank || strcmp(w->label ? w->label : "",
                                                         v->label ? v->label : ""))
                continue;
            done[j] = true;
            /* a merged node: its count and summed duration (no single task's min/max) */
            double each = w->duration / (double)(w->count > 0 ? w->count : 1);
            mn = count == 0 || each < mn ? each : mn;
            mx = count == 0 || each > mx ? each : mx;
            slack = count == 0 || w->slack < slack ? w->slack : slack;
            count += w->count > 0 ? w->count : 1;
            sum += w->duration;
            cp += w->cp;
        }
        fputs(first ? "{" : ",{", out);
        first = false;
        json_member(out, "label", v->label, true);
        json_key(out, "rank", false);
        fprintf(out, "%ld", v->rank);
        json_key(out, "count", false);
        fprintf(out, "%ld", count);
        json_key(out, "sum", false);
        json_double(out, sum);
        json_key(out, "mean", false);
        json_double(out, count ? sum / (double)count : 0);
        json_key(out, "min", false);
        json_double(out, mn);
        json_key(out, "max", false);
        json_double(out, mx);
        json_key(out, "slack_min", false);
        json_double(out, slack);
        json_key(out, "critical_path", false);
        json_double(out, cp);
        fputc('}', out);
    }
    free(done);
    fputc(']', out);
}

static void write_graph(FILE *out, const tg_graph *g)
{
    json_key(out, "taskgraph", false);
    fputs("{\"merged\":", out);
    fputs(g->merged ? "true" : "false", out);
    json_key(out, "nodes", false);
    fputc('[', out);
    for (size_t i = 0; i < g->nn; i++) {
        const tg_node *v = &g->n[i];
        fputs(i ? ",{" : "{", out);
        json_member(out, "label", v->label, true);
        json_key(out, "duration", false);
        json_double(out, v->duration);
        json_key(out, "slack", false);
        json_double(out, v->slack);
        json_key(out, "critical_path", false);
        json_double(out, v->cp);
        fprintf(out, ",\"thread\":%ld,\"rank\":%ld,\"count\":%ld,\"red\":%s,\"join\":%s}",
                v->thread, v->rank, v->count, v->red ? "true" : "false",
                v->join ? "true" : "false");
    }
    fputc(']', out);
    json_key(out, "edges", false);
    fputc('[', out);
    for (size_t i = 0; i < g->ne; i++)
        fprintf(out, "%s{\"from\":%zu,\"to\":%zu,\"kind\":\"%s\",\"red\":%s}", i ? "," : "",
                g->e[i].from, g->e[i].to, g->e[i].kind, g->e[i].red ? "true" : "false");
    fputc(']', out);
    write_table(out, g);
    fputc('}', out);
}

int report_write_taskgraph(FILE *out, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot read %s", path);
        return -1;
    }
    tg_graph g;
    memset(&g, 0, sizeof g);
    char *line = NULL;
    size_t cap = 0;
    int rc = 0;
    while (rc == 0 && getline(&line, &cap, f) >= 0)
        rc = statement(&g, line);
    free(line);
    fclose(f);
    if (rc)
        snprintf(err, errlen, "out of memory reading %s", path);
    else
        write_graph(out, &g);
    for (size_t i = 0; i < g.nn; i++) {
        free(g.n[i].id);
        free(g.n[i].label);
    }
    free(g.n);
    free(g.e);
    return rc;
}
