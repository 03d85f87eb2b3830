/* SPDX-License-Identifier: BSD-3-Clause */
/* trace_mpi_groups.c: MPI group definitions unified by their member lists, communicators
 * numbered parents first (see trace_mpi_groups.h). */
#include "trace/trace_mpi_groups.h"

#include <stdlib.h>
#include <string.h>

static uint64_t members_hash(uint32_t n, const uint32_t *m)
{
    uint64_t h = 1469598103934665603ull ^ n;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ m[i]) * 1099511628211ull;
    return h;
}

static uint64_t entry_hash(void *ctx, uint32_t id)
{
    scorep_mpi_groups *m = ctx;
    return members_hash(m->size[id], m->members[id]);
}

typedef struct {
    scorep_mpi_groups *m;
    uint32_t n;
    const uint32_t *members;
} group_key;

static int entry_equal(void *ctx, uint32_t id)
{
    group_key *k = ctx;
    return k->m->size[id] == k->n &&
           (k->n == 0 || memcmp(k->m->members[id], k->members, k->n * sizeof *k->members) == 0);
}

static int grow(scorep_mpi_groups *m)
{
    uint32_t c = m->cap ? m->cap * 2 : 64;
    uint32_t *s = realloc(m->size, c * sizeof *s);
    if (s)
        m->size = s;
    const uint32_t **p = s ? realloc(m->members, c * sizeof *p) : NULL;
    if (!p)
        return -1;
    m->members = p;
    m->cap = c;
    return 0;
}

/* The OTF2 id of this member list (1-based), added when new; UINT32_MAX out of memory. */
static uint32_t intern(scorep_mpi_groups *m, uint32_t n, const uint32_t *members)
{
    if (hash_index_reserve(&m->index, m->n, entry_hash, m) != 0)
        return UINT32_MAX;
    group_key k = {m, n, members};
    uint32_t slot,
        found = hash_index_find(&m->index, members_hash(n, members), entry_equal, &k, &slot);
    if (found != UINT32_MAX)
        return found + 1;
    if (m->n == m->cap && grow(m) != 0)
        return UINT32_MAX;
    m->size[m->n] = n;
    m->members[m->n] = members;
    hash_index_set(&m->index, slot, m->n);
    return ++m->n;
}

static uint32_t *ids(uint32_t n)
{
    return malloc((n ? n : 1) * sizeof(uint32_t));
}

/* Numbers the communicators in unified order, except that a communicator's not yet
 * numbered ancestors take the numbers before it (a cycle, which keys cannot form, would
 * only be cut). */
static int order_comms(scorep_mpi_groups *m, const scorep_unified *u)
{
    uint32_t n = u->n[U_COMM], next = 0, *chain = ids(n);
    m->comm_id = ids(n);
    m->comm_at = ids(n);
    if (!chain || !m->comm_id || !m->comm_at) {
        free(chain);
        return -1;
    }
    for (uint32_t c = 0; c < n; c++)
        m->comm_id[c] = UINT32_MAX;
    for (uint32_t c = 0; c < n; c++) {
        uint32_t len = 0;
        for (uint32_t p = c; p < n && m->comm_id[p] == UINT32_MAX; p = u->comms[p].parent) {
            m->comm_id[p] = UINT32_MAX - 1; /* on this chain */
            chain[len++] = p;
        }
        while (len > 0) {
            uint32_t p = chain[--len];
            m->comm_id[p] = next;
            m->comm_at[next++] = p;
        }
    }
    free(chain);
    return 0;
}

int scorep_mpi_groups_build(scorep_mpi_groups *m, const scorep_unified *u)
{
    memset(m, 0, sizeof *m);
    m->of_group = ids(u->n[U_GROUP]);
    m->a = ids(u->n[U_COMM]);
    m->b = ids(u->n[U_COMM]);
    if (!m->of_group || !m->a || !m->b || order_comms(m, u) != 0)
        return -1;
    for (uint32_t i = 0; i < u->n[U_GROUP]; i++)
        if ((m->of_group[i] = intern(m, u->groups[i].size, u->groups[i].members)) == UINT32_MAX)
            return -1;
    for (uint32_t c = 0; c < u->n[U_COMM]; c++) {
        const scorep_comm_def *d = &u->comms[c];
        m->a[c] = intern(m, d->size, d->members);
        m->b[c] = d->is_inter ? intern(m, d->size_b, d->members_b) : m->a[c];
        if (m->a[c] == UINT32_MAX || m->b[c] == UINT32_MAX)
            return -1;
    }
    return 0;
}

void scorep_mpi_groups_free(scorep_mpi_groups *m)
{
    free(m->size);
    free(m->members);
    free(m->of_group);
    free(m->a);
    free(m->b);
    free(m->comm_id);
    free(m->comm_at);
    hash_index_free(&m->index);
    memset(m, 0, sizeof *m);
}
