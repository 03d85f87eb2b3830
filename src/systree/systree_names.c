/* SPDX-License-Identifier: BSD-3-Clause */
/* systree_names.c: string interning and the name patterns of systree_names.h. */
#include "systree/systree_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t systree_names_max_runs = 32;

/* ---- interning: open addressing, grown at half load ---- */

static struct {
    char **slot;
    size_t cap, n;
} tab;

static uint64_t fnv(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (uint8_t)s[i]) * 1099511628211ull;
    return h;
}

static int tab_grow(void)
{
    size_t cap = tab.cap ? tab.cap * 2 : 256;
    char **slot = calloc(cap, sizeof *slot);
    if (slot == NULL)
        return -1;
    for (size_t i = 0; i < tab.cap; i++) {
        if (tab.slot[i] == NULL)
            continue;
        size_t j = fnv(tab.slot[i], strlen(tab.slot[i])) & (cap - 1);
        while (slot[j])
            j = (j + 1) & (cap - 1);
        slot[j] = tab.slot[i];
    }
    free(tab.slot);
    tab.slot = slot;
    tab.cap = cap;
    return 0;
}

const char *systree_intern_n(const char *s, size_t len)
{
    if (2 * (tab.n + 1) > tab.cap && tab_grow() != 0)
        return NULL;
    size_t j = fnv(s, len) & (tab.cap - 1);
    for (; tab.slot[j]; j = (j + 1) & (tab.cap - 1))
        if (strncmp(tab.slot[j], s, len) == 0 && tab.slot[j][len] == '\0')
            return tab.slot[j];
    char *copy = malloc(len + 1);
    if (copy == NULL)
        return NULL;
    memcpy(copy, s, len);
    copy[len] = '\0';
    tab.n++;
    return tab.slot[j] = copy;
}

const char *systree_intern(const char *s)
{
    return systree_intern_n(s, strlen(s));
}

/* ---- runs ---- */

int systree_run_parse(systree_run *r, const char *name)
{
    size_t len = strlen(name), end = len;
    while (end > 0 && (name[end - 1] < '0' || name[end - 1] > '9'))
        end--;
    size_t start = end;
    while (start > 0 && name[start - 1] >= '0' && name[start - 1] <= '9')
        start--;
    static const char *empty; /* interned once: most names have no suffix */
    memset(r, 0, sizeof *r);
    r->count = 1;
    r->reps = 1;
    r->suffix = empty ? empty : (empty = systree_intern(""));
    if (end == start || end - start > 18) { /* no number (or too long for one): a literal */
        r->prefix = systree_intern(name);
        return r->prefix && r->suffix ? 0 : -1;
    }
    r->numbered = true;
    for (size_t i = start; i < end; i++)
        r->base = r->base * 10 + (uint64_t)(name[i] - '0');
    if (name[start] == '0' && end - start > 1)
        r->width = (uint8_t)(end - start);
    r->prefix = systree_intern_n(name, start);
    r->suffix = systree_intern(name + end);
    return r->prefix && r->suffix ? 0 : -1;
}

static unsigned digits(uint64_t v)
{
    unsigned d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

uint64_t systree_run_len(const systree_run *r)
{
    return r->count * r->reps;
}

static __int128 run_at(const systree_run *r, uint64_t j)
{
    return (__int128)r->base + (__int128)r->stride * (__int128)(j % r->count) +
           (__int128)r->outer * (__int128)(j / r->count);
}

/* Whether every number of r prints the same with zero-padding to w digits. */
static bool width_ok(const systree_run *r, unsigned w)
{
    if (r->width)
        return r->width == w;
    __int128 min = r->base; /* the smallest number is at a corner */
    __int128 corner[3] = {run_at(r, r->count - 1), run_at(r, (r->reps - 1) * r->count),
                          run_at(r, r->reps * r->count - 1)};
    for (int i = 0; i < 3; i++)
        min = corner[i] < min ? corner[i] : min;
    return w <= 1 || digits((uint64_t)min) >= w;
}

/* The stride with which b continues a, or false. */
static bool continues(const systree_run *a, const systree_run *b, int64_t *stride)
{
    __int128 d = (__int128)b->base - (__int128)a->base;
    if (a->count == 1 && b->count == 1) {
        if (d < INT64_MIN || d > INT64_MAX)
            return false;
        *stride = (int64_t)d;
        return true;
    }
    if (a->count == 1) {
        *stride = b->stride;
        return d == b->stride;
    }
    *stride = a->stride;
    if (b->count > 1 && b->stride != a->stride)
        return false;
    return (__int128)b->base == (__int128)a->base + (__int128)a->stride * (__int128)a->count;
}

/* The outer stride with which b's blocks continue a's (blocks of the same numbers). */
static bool continues_blocks(const systree_run *a, const systree_run *b, int64_t *outer)
{
    if (a->count != b->count || a->count < 2 || a->stride != b->stride)
        return false;
    __int128 d = (__int128)b->base - (__int128)a->base;
    if (a->reps == 1 && b->reps == 1) {
        if (d < INT64_MIN || d > INT64_MAX)
            return false;
        *outer = (int64_t)d;
        return true;
    }
    if (a->reps == 1) {
        *outer = b->outer;
        return d == b->outer;
    }
    *outer = a->outer;
    if (b->reps > 1 && b->outer != a->outer)
        return false;
    return d == (__int128)a->outer * (__int128)a->reps;
}

bool systree_run_join(systree_run *a, const systree_run *b)
{
    if (a->numbered != b->numbered || a->prefix != b->prefix || a->suffix != b->suffix)
        return false;
    if (!a->numbered) {
        a->count += b->count;
        return true;
    }
    unsigned w = a->width ? a->width : b->width;
    int64_t step;
    if (!width_ok(a, w) || !width_ok(b, w))
        return false;
    if (a->reps == 1 && b->reps == 1 && continues(a, b, &step)) {
        a->stride = step;
        a->count += b->count;
    } else if (continues_blocks(a, b, &step)) {
        a->outer = step;
        a->reps += b->reps;
    } else {
        return false;
    }
    a->width = (uint8_t)w;
    return true;
}

/* ---- name specifications ---- */

int systree_names_single(systree_names *n, const char *name)
{
    n->runs = malloc(sizeof *n->runs);
    if (n->runs == NULL || systree_run_parse(n->runs, name) != 0) {
        free(n->runs);
        n->runs = NULL;
        return -1;
    }
    n->nruns = 1;
    n->period = 1;
    return 0;
}

void systree_names_free(systree_names *n)
{
    free(n->runs);
    memset(n, 0, sizeof *n);
}

int systree_names_copy(systree_names *dst, const systree_names *src)
{
    *dst = *src;
    if (src->nruns == 0)
        return 0;
    dst->runs = malloc(src->nruns * sizeof *dst->runs);
    if (dst->runs == NULL)
        return -1;
    memcpy(dst->runs, src->runs, src->nruns * sizeof *dst->runs);
    return 0;
}

static bool run_equal(const systree_run *a, const systree_run *b)
{
    return a->prefix == b->prefix && a->suffix == b->suffix && a->count == b->count &&
           a->numbered == b->numbered && a->reps == b->reps &&
           (!a->numbered || (a->base == b->base && a->stride == b->stride && a->outer == b->outer &&
                             a->width == b->width));
}

bool systree_names_equal(const systree_names *a, const systree_names *b)
{
    if (a->nruns != b->nruns || (a->nruns && a->period != b->period))
        return false;
    for (uint32_t i = 0; i < a->nruns; i++)
        if (!run_equal(&a->runs[i], &b->runs[i]))
            return false;
    return true;
}

bool systree_names_is_fallback(const systree_names *n)
{
    return n->nruns == 0;
}

void systree_names_fallback(systree_names *n)
{
    systree_names_free(n);
}

/* Runs being joined: in `small` while they fit (mostly they join into one), on the heap
 * beyond; runvec_take hands them over in an array of their exact size. Merges run once per
 * rank and level, and a heap array of 4 runs (256 bytes) each time was slow for glibc to
 * recycle among millions of smaller blocks. */
typedef struct runvec {
    systree_run *r;
    uint32_t n, cap;
    systree_run small[4];
} runvec;

static void runvec_init(runvec *v)
{
    v->r = v->small;
    v->n = 0;
    v->cap = sizeof v->small / sizeof v->small[0];
}

static void runvec_free(runvec *v)
{
    if (v->r != v->small)
        free(v->r);
}

static systree_run *runvec_take(runvec *v)
{
    systree_run *out = malloc(v->n * sizeof *out);
    if (out)
        memcpy(out, v->r, v->n * sizeof *out);
    runvec_free(v);
    return out;
}

/* 1: over the run limit; -1: out of memory */
static int push(runvec *v, const systree_run *r)
{
    if (v->n && systree_run_join(&v->r[v->n - 1], r))
        return 0;
    if (v->n >= systree_names_max_runs)
        return 1;
    if (v->n == v->cap) {
        uint32_t cap = 2 * v->cap;
        systree_run *g = malloc(cap * sizeof *g);
        if (g == NULL)
            return -1;
        memcpy(g, v->r, v->n * sizeof *g);
        runvec_free(v);
        v->r = g;
        v->cap = cap;
    }
    v->r[v->n++] = *r;
    return 0;
}

/* The names of ninst instances written out period after period. */
static int unroll(runvec *v, const systree_names *s, uint64_t ninst)
{
    uint64_t reps = ninst / s->period;
    const systree_run *r0 = &s->runs[0];
    if (s->nruns == 1 && (!r0->numbered || (r0->stride == 0 && r0->reps == 1))) {
        systree_run r = s->runs[0]; /* the same name over and over: one run */
        r.count *= reps;
        return push(v, &r);
    }
    for (uint64_t k = 0; k < reps; k++)
        for (uint32_t i = 0; i < s->nruns; i++) {
            int rc = push(v, &s->runs[i]);
            if (rc != 0)
                return rc;
        }
    return 0;
}

int systree_names_append(systree_names *a, uint64_t na, const systree_names *b, uint64_t nb)
{
    if (a->nruns == 0)
        return 0;
    if (b->nruns == 0) {
        systree_names_fallback(a);
        return 0;
    }
    if (systree_names_equal(a, b))
        return 0; /* the period divides both counts: the pattern repeats */
    runvec v;
    runvec_init(&v);
    int rc = unroll(&v, a, na);
    if (rc == 0)
        rc = unroll(&v, b, nb);
    systree_run *runs = rc == 0 ? runvec_take(&v) : NULL; /* v.n >= 1: a has runs */
    if (rc == 0 && runs == NULL)
        return -1;
    if (rc < 0) {
        runvec_free(&v);
        return -1;
    }
    systree_names_free(a);
    if (rc == 0) {
        a->runs = runs;
        a->nruns = v.n;
        a->period = na + nb;
    } else {
        runvec_free(&v);
    }
    return 0;
}

/* s at buf[at..] as far as it fits before the terminating NUL; the length it would take. */
static size_t render_put(char *buf, size_t size, size_t at, const char *s, size_t len)
{
    if (at < size)
        memcpy(buf + at, s, at + len < size ? len : size - 1 - at);
    return at + len;
}

/* What snprintf(buf, size, "%s%0*llu%s", prefix, width, number, suffix) writes and returns,
 * without snprintf: a walk renders every node's name (tens of millions in the simulator). */
static size_t render_numbered(const char *prefix, uint64_t number, unsigned width,
                              const char *suffix, char *buf, size_t size)
{
    char num[20 + 255]; /* the digits of a uint64_t, padded to a uint8_t width */
    size_t nd = 0, at;
    do {
        num[sizeof num - 1 - nd++] = (char)('0' + number % 10);
        number /= 10;
    } while (number);
    while (nd < width && nd < sizeof num)
        num[sizeof num - 1 - nd++] = '0';
    at = render_put(buf, size, 0, prefix, strlen(prefix));
    at = render_put(buf, size, at, num + sizeof num - nd, nd);
    at = render_put(buf, size, at, suffix, strlen(suffix));
    if (size)
        buf[at < size ? at : size - 1] = '\0';
    return at;
}

size_t systree_names_render(const systree_names *n, uint64_t k, const char *klass,
                            uint64_t class_ordinal, char *buf, size_t size)
{
    if (n->nruns == 0)
        return (size_t)snprintf(buf, size, "%s %llu", klass, (unsigned long long)class_ordinal);
    uint64_t j = k % n->period;
    const systree_run *r = n->runs;
    for (uint32_t i = 0; i + 1 < n->nruns && j >= systree_run_len(r); i++, r++)
        j -= systree_run_len(r);
    if (!r->numbered)
        return (size_t)snprintf(buf, size, "%s", r->prefix);
    return render_numbered(r->prefix, (uint64_t)run_at(r, j), r->width, r->suffix, buf, size);
}
