/* SPDX-License-Identifier: BSD-3-Clause */
/* an_calltree.c: the call paths (cnodes) of one rank's trace and its growing event array.
 * A cnode is (parent cnode, region); an open-addressing table maps the pair to its id so
 * that building the tree is linear in the number of events. The loaders' open calls
 * (an_calls) give each appended event its enclosing call and call path. */
#include "analysis/an_trace.h"
#include "base/grow.h"

#include <otf2/OTF2_Definitions.h>
#include <otf2/OTF2_GeneralDefinitions.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint32_t *slots; /* cnode id + 1, 0 = empty */
    size_t cap;
} cnode_index;

static size_t hash_pair(uint32_t parent, uint32_t region)
{
    uint64_t h = ((uint64_t)parent << 32 | region) * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 17);
}

static int index_grow(an_trace *t, cnode_index *ix)
{
    size_t cap = ix->cap ? 2 * ix->cap : 256;
    uint32_t *s = calloc(cap, sizeof *s);
    if (!s)
        return -1;
    for (size_t c = 0; c < t->n_cnodes; c++) {
        size_t i = hash_pair(t->cnodes[c].parent, t->cnodes[c].region) & (cap - 1);
        while (s[i])
            i = (i + 1) & (cap - 1);
        s[i] = (uint32_t)c + 1;
    }
    free(ix->slots);
    ix->slots = s;
    ix->cap = cap;
    return 0;
}

uint32_t an_cnode_get(an_trace *t, uint32_t parent, uint32_t region)
{
    cnode_index *ix = t->cnode_index;
    if (!ix) {
        if (!(ix = calloc(1, sizeof *ix)))
            return AN_NONE;
        t->cnode_index = ix;
    }
    if (2 * (t->n_cnodes + 1) > ix->cap && index_grow(t, ix) != 0)
        return AN_NONE;
    size_t i = hash_pair(parent, region) & (ix->cap - 1);
    for (; ix->slots[i]; i = (i + 1) & (ix->cap - 1)) {
        const an_cnode *c = &t->cnodes[ix->slots[i] - 1];
        if (c->parent == parent && c->region == region)
            return ix->slots[i] - 1;
    }
    if (t->n_cnodes == t->cap_cnodes) {
        size_t cap = t->cap_cnodes ? 2 * t->cap_cnodes : 64;
        an_cnode *n = realloc(t->cnodes, cap * sizeof *n);
        if (!n)
            return AN_NONE;
        t->cnodes = n;
        t->cap_cnodes = cap;
    }
    t->cnodes[t->n_cnodes] = (an_cnode){parent, region};
    ix->slots[i] = (uint32_t)t->n_cnodes + 1;
    return (uint32_t)t->n_cnodes++;
}

an_event *an_event_append(an_trace *t)
{
    if (t->n_events == t->cap_events) {
        size_t cap = t->cap_events ? 2 * t->cap_events : 4096;
        an_event *n = realloc(t->events, cap * sizeof *n);
        if (!n)
            return NULL;
        t->events = n;
        t->cap_events = cap;
    }
    an_event *e = &t->events[t->n_events++];
    memset(e, 0, sizeof *e);
    e->comm = e->peer = e->cnode = e->enter = AN_NONE;
    return e;
}

an_event *an_calls_enter(an_trace *t, an_calls *s, uint64_t time, uint32_t region, int worker)
{
    const an_event *top = an_calls_top(t, s);
    uint32_t parent = top ? top->cnode : AN_NONE;
    if (scorep_grow((void **)&s->open, &s->cap, s->depth + 1, sizeof *s->open) != 0)
        return NULL;
    an_event *e = an_calls_event(t, s, time, AN_ENTER);
    if (!e)
        return NULL;
    e->region = region;
    e->cnode = worker ? AN_NONE : an_cnode_get(t, parent, region);
    if (e->cnode == AN_NONE && !worker)
        return NULL;
    s->open[s->depth++] = (uint32_t)(t->n_events - 1);
    return e;
}

an_event *an_calls_leave(an_trace *t, an_calls *s, uint64_t time)
{
    uint32_t region = an_calls_top(t, s)->region;
    an_event *e = an_calls_event(t, s, time, AN_LEAVE);
    if (!e)
        return NULL;
    e->region = region;
    s->depth--;
    return e;
}

void an_calls_free(an_calls *s)
{
    free(s->open);
    memset(s, 0, sizeof *s);
}

void an_trace_free(an_trace *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n_comms; i++) {
        free(t->comms[i].ranks);
        free(t->comms[i].ranks_b);
    }
    free(t->comms);
    free(t->regions);
    for (size_t i = 0; i < t->n_strings; i++)
        free(t->strings[i]);
    free(t->strings);
    free(t->events);
    for (size_t i = 0; i < t->n_threads; i++)
        free(t->threads[i].events);
    free(t->threads);
    free(t->cnodes);
    cnode_index *ix = t->cnode_index;
    if (ix)
        free(ix->slots);
    free(ix);
    memset(t, 0, sizeof *t);
}

uint32_t an_program_cnode(const an_trace *t)
{
    const an_event *e = t->n_events ? &t->events[0] : NULL;
    if (!e || e->kind != AN_ENTER || e->enter != AN_NONE || e->region >= t->n_regions)
        return AN_NONE;
    const an_region *g = &t->regions[e->region];
    return g->role == OTF2_REGION_ROLE_ARTIFICIAL && g->paradigm == OTF2_PARADIGM_MEASUREMENT_SYSTEM
               ? e->cnode
               : AN_NONE;
}
