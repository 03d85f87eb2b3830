/* SPDX-License-Identifier: BSD-3-Clause */
/* selective_file.c: parser of the selective recording file (syntax in selective_file.h).
 * Score-P's rules (its scorep_selective_parser.c): the name is the line's first blank-separated
 * word, instances follow separated by blanks or commas, a line naming a region again adds its
 * instances. Unlike Score-P, a token that is not an instance or interval is an error that keeps
 * the whole file from being applied (Score-P drops the token with a message and applies the
 * rest), and '#' at the start of a word begins a comment (Score-P has no comments). */
#include "adapters/user/selective_file.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char blanks[] = " \t\r\v\f\n";

typedef struct {
    const char *path;
    char *err;
    size_t errlen, used;
    int n_errors;
} errors;

static void error_at(errors *e, unsigned line, const char *fmt, ...)
{
    e->n_errors++;
    if (e->used + 1 >= e->errlen)
        return;
    int k = snprintf(e->err + e->used, e->errlen - e->used, "%s%s:%u: ", e->used ? "\n" : "",
                     e->path, line);
    if (k < 0 || (size_t)k >= e->errlen - e->used) {
        e->used = e->errlen;
        return;
    }
    e->used += (size_t)k;
    va_list ap;
    va_start(ap, fmt);
    k = vsnprintf(e->err + e->used, e->errlen - e->used, fmt, ap);
    va_end(ap);
    e->used = k < 0 || (size_t)k >= e->errlen - e->used ? e->errlen : e->used + (size_t)k;
}

static scorep_selection *find_linear(scorep_selection_table *t, const char *name)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->regions[i].name, name) == 0)
            return &t->regions[i];
    return NULL;
}

static scorep_selection *add_region(scorep_selection_table *t, const char *name, unsigned line)
{
    scorep_selection *s = find_linear(t, name);
    if (s)
        return s;
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 8;
        scorep_selection *r = realloc(t->regions, cap * sizeof *r);
        if (!r)
            return NULL;
        t->regions = r;
        t->cap = cap;
    }
    s = &t->regions[t->n];
    memset(s, 0, sizeof *s);
    if (!(s->name = strdup(name)))
        return NULL;
    s->line = line;
    t->n++;
    return s;
}

static int add_interval(scorep_selection *s, uint64_t first, uint64_t last)
{
    if (s->n == s->cap) {
        uint32_t cap = s->cap ? s->cap * 2 : 4;
        scorep_sel_interval *iv = realloc(s->iv, cap * sizeof *iv);
        if (!iv)
            return -1;
        s->iv = iv;
        s->cap = cap;
    }
    s->iv[s->n++] = (scorep_sel_interval){first, last};
    return 0;
}

/* A decimal instance number of [s, end): 0, or -1 (err set) */
static int number(const char *s, const char *end, uint64_t *v, const char **why)
{
    if (s == end) {
        *why = "an empty number";
        return -1;
    }
    uint64_t x = 0;
    for (; s < end; s++) {
        if (*s < '0' || *s > '9') {
            *why = "not an instance number or interval (N, N:M or N:, instances counted from 0)";
            return -1;
        }
        unsigned d = (unsigned)(*s - '0');
        if (x > (UINT64_MAX - d) / 10) {
            *why = "an instance number beyond 2^64-1";
            return -1;
        }
        x = x * 10 + d;
    }
    *v = x;
    return 0;
}

/* One instance token: N, N:M, N: (to the end) or :M (from 0, as Score-P reads it). */
static int parse_token(const char *tok, uint64_t *first, uint64_t *last, const char **why)
{
    const char *end = tok + strlen(tok), *colon = strchr(tok, ':');
    if (!colon)
        return number(tok, end, first, why) == 0 ? (*last = *first, 0) : -1;
    if (strchr(colon + 1, ':')) {
        *why = "more than one ':' (an interval is N:M)";
        return -1;
    }
    *first = 0;
    *last = UINT64_MAX;
    if (colon > tok && number(tok, colon, first, why) != 0)
        return -1;
    if (colon + 1 < end && number(colon + 1, end, last, why) != 0)
        return -1;
    if (colon == tok && colon + 1 == end) {
        *why = "':' without numbers (an interval is N:M)";
        return -1;
    }
    if (*last < *first) {
        *why = "an interval that ends before it begins";
        return -1;
    }
    return 0;
}

/* One line: 0, -1 on a syntax error (reported), -3 out of memory */
static int parse_line(scorep_selection_table *t, char *line, unsigned no, errors *e)
{
    char *save = NULL;
    char *name = strtok_r(line, blanks, &save);
    if (!name || name[0] == '#')
        return 0;
    uint64_t iv[2];
    int bad = 0, any = 0;
    /* validate the whole line first: a bad line adds nothing */
    char *rest = save ? save : (char *)"";
    size_t rest_len = strlen(rest);
    char *copy = malloc(rest_len + 1);
    if (!copy)
        return -3;
    memcpy(copy, rest, rest_len + 1);
    char *save2 = NULL;
    for (char *tok = strtok_r(copy, " \t\r\v\f\n,", &save2); tok;
         tok = strtok_r(NULL, " \t\r\v\f\n,", &save2)) {
        if (tok[0] == '#')
            break;
        const char *why = NULL;
        if (parse_token(tok, &iv[0], &iv[1], &why) != 0) {
            error_at(e, no, "'%s' after region '%s': %s", tok, name, why);
            bad = 1;
        }
        any = 1;
    }
    if (bad) {
        free(copy);
        return -1;
    }
    scorep_selection *s = add_region(t, name, no);
    int rc = s ? 0 : -3;
    if (s && !any)
        rc = add_interval(s, 0, UINT64_MAX) == 0 ? 0 : -3;
    memcpy(copy, rest, rest_len + 1);
    save2 = NULL;
    for (char *tok = strtok_r(copy, " \t\r\v\f\n,", &save2); rc == 0 && tok && tok[0] != '#';
         tok = strtok_r(NULL, " \t\r\v\f\n,", &save2)) {
        const char *why;
        parse_token(tok, &iv[0], &iv[1], &why);
        rc = add_interval(s, iv[0], iv[1]) == 0 ? 0 : -3;
    }
    free(copy);
    return rc;
}

static int by_first(const void *a, const void *b)
{
    const scorep_sel_interval *x = a, *y = b;
    return x->first < y->first ? -1 : x->first > y->first;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const scorep_selection *)a)->name, ((const scorep_selection *)b)->name);
}

/* Sorts the intervals and merges the overlapping and adjacent ones. */
static void normalise(scorep_selection *s)
{
    qsort(s->iv, s->n, sizeof *s->iv, by_first);
    uint32_t k = 0;
    for (uint32_t i = 0; i < s->n; i++) {
        if (k > 0 && (s->iv[k - 1].last == UINT64_MAX || s->iv[i].first <= s->iv[k - 1].last + 1)) {
            if (s->iv[i].last > s->iv[k - 1].last)
                s->iv[k - 1].last = s->iv[i].last;
        } else {
            s->iv[k++] = s->iv[i];
        }
    }
    s->n = k;
}

int scorep_selection_parse(scorep_selection_table *t, const char *path, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    if (errlen)
        err[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
        return -1;
    }
    errors e = {path, err, errlen, 0, 0};
    char *line = NULL;
    size_t cap = 0;
    unsigned no = 0;
    int rc = 0;
    errno = 0;
    while (rc != -3 && getline(&line, &cap, f) >= 0) {
        no++;
        if (strlen(line) == 0)
            continue;
        int r = parse_line(t, line, no, &e);
        if (r == -3)
            rc = -3;
    }
    int read_error = ferror(f);
    int saved = errno;
    free(line);
    fclose(f);
    if (rc == 0 && read_error) {
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(saved));
        rc = -1;
    } else if (rc == -3) {
        snprintf(err, errlen, "out of memory while reading '%s'", path);
    } else if (e.n_errors) {
        rc = -2;
    }
    if (rc != 0) {
        scorep_selection_free(t);
        return rc;
    }
    for (size_t i = 0; i < t->n; i++)
        normalise(&t->regions[i]);
    if (t->n > 1) /* an empty file has no array: qsort wants one (found by fuzz_selective) */
        qsort(t->regions, t->n, sizeof *t->regions, by_name);
    return 0;
}

scorep_selection *scorep_selection_find(const scorep_selection_table *t, const char *name)
{
    if (!t->n || !name)
        return NULL;
    scorep_selection key = {.name = (char *)name};
    return bsearch(&key, t->regions, t->n, sizeof *t->regions, by_name);
}

bool scorep_selection_contains(const scorep_selection *s, uint64_t instance)
{
    /* the last interval that begins at or before instance */
    uint32_t lo = 0, hi = s->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->iv[mid].first <= instance)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 && instance <= s->iv[lo - 1].last;
}

void scorep_selection_free(scorep_selection_table *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->regions[i].name);
        free(t->regions[i].iv);
    }
    free(t->regions);
    memset(t, 0, sizeof *t);
}
