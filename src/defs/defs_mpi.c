/* SPDX-License-Identifier: BSD-3-Clause */
/* defs_mpi.c: communicator, group and window definitions (deduplicated by key or by
 * member list). */
#include "defs/defs_mpi.h"
#include "defs/defs.h"
#include "defs/defs_table.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static defs_table comms = DEFS_TABLE_INIT(scorep_comm_def);
static defs_table groups = DEFS_TABLE_INIT(scorep_group_def);
static defs_table wins = DEFS_TABLE_INIT(scorep_win_def);

static uint32_t *copy_members(uint32_t size, const uint32_t *members)
{
    uint32_t *m = malloc((size ? size : 1) * sizeof *m);
    if (m && size)
        memcpy(m, members, size * sizeof *m);
    return m;
}

static int comm_equal(const void *e, const void *k)
{
    return ((const scorep_comm_def *)e)->key == ((const scorep_comm_def *)k)->key;
}

static int comm_init(void *e, const void *k)
{
    scorep_comm_def *d = e;
    *d = *(const scorep_comm_def *)k;
    d->name = strdup(d->name ? d->name : "");
    d->members = copy_members(d->size, d->members);
    d->members_b = copy_members(d->size_b, d->members_b);
    d->parent = SCOREP_INVALID_ID;
    return d->name && d->members && d->members_b ? 0 : -1;
}

/* substrate plugins' new_definition_handle (scorep_defs_on_new_mpi) */
static void (*comm_hook)(uint32_t id), (*group_hook)(uint32_t id), (*win_hook)(uint32_t id);

void scorep_defs_on_new_mpi(void (*on_comm)(uint32_t id), void (*on_group)(uint32_t id),
                            void (*on_win)(uint32_t id))
{
    __atomic_store_n(&comm_hook, on_comm, __ATOMIC_RELEASE);
    __atomic_store_n(&group_hook, on_group, __ATOMIC_RELEASE);
    __atomic_store_n(&win_hook, on_win, __ATOMIC_RELEASE);
}

static uint32_t announce(void (**hook)(uint32_t), bool created, uint32_t id)
{
    void (*h)(uint32_t) = __atomic_load_n(hook, __ATOMIC_ACQUIRE);
    if (created && h && id != SCOREP_INVALID_ID)
        h(id);
    return id;
}

uint32_t scorep_defs_comm(const scorep_comm_def *d)
{
    bool created = false;
    uint32_t id = defs_table_intern_new(&comms, d->key * 0x9e3779b97f4a7c15ull, d, comm_equal,
                                        comm_init, &created);
    return announce(&comm_hook, created, id);
}

/* Names change while other threads may read definitions (only unification reads names, at
 * finalize); the swap itself is serialised. */
static pthread_mutex_t name_lock = PTHREAD_MUTEX_INITIALIZER;

static int set_name_slot(const char **slot, const char *name)
{
    char *copy = strdup(name ? name : "");
    if (!copy)
        return -1;
    pthread_mutex_lock(&name_lock);
    char *old = (char *)*slot;
    *slot = copy;
    pthread_mutex_unlock(&name_lock);
    free(old);
    return 0;
}

int scorep_defs_comm_set_name(uint32_t id, const char *name)
{
    if (id >= defs_table_count(&comms))
        return -1;
    scorep_comm_def *d = defs_table_get(&comms, id);
    return set_name_slot(&d->name, name);
}

int scorep_defs_win_set_name(uint32_t id, const char *name)
{
    if (id >= defs_table_count(&wins))
        return -1;
    scorep_win_def *d = defs_table_get(&wins, id);
    return set_name_slot(&d->name, name);
}

static int group_equal(const void *e, const void *k)
{
    const scorep_group_def *a = e, *b = k;
    return a->size == b->size && memcmp(a->members, b->members, a->size * sizeof *a->members) == 0;
}

static int group_init(void *e, const void *k)
{
    scorep_group_def *d = e;
    *d = *(const scorep_group_def *)k;
    d->members = copy_members(d->size, d->members);
    return d->members ? 0 : -1;
}

uint32_t scorep_defs_group(uint32_t size, const uint32_t *members)
{
    scorep_group_def k = {size, members};
    uint64_t h = 1469598103934665603ull ^ size;
    for (uint32_t i = 0; i < size; i++)
        h = (h ^ members[i]) * 1099511628211ull;
    bool created = false;
    uint32_t id = defs_table_intern_new(&groups, h, &k, group_equal, group_init, &created);
    return announce(&group_hook, created, id);
}

static int win_equal(const void *e, const void *k)
{
    return ((const scorep_win_def *)e)->key == ((const scorep_win_def *)k)->key;
}

static int win_init(void *e, const void *k)
{
    scorep_win_def *d = e;
    *d = *(const scorep_win_def *)k;
    d->name = strdup(d->name ? d->name : "");
    return d->name ? 0 : -1;
}

uint32_t scorep_defs_win(uint64_t key, const char *name, uint32_t comm)
{
    scorep_win_def k = {key, name, comm};
    bool created = false;
    uint32_t id = defs_table_intern_new(&wins, key * 0xc2b2ae3d27d4eb4full, &k, win_equal,
                                        win_init, &created);
    return announce(&win_hook, created, id);
}

const scorep_comm_def *scorep_defs_comm_get(uint32_t id)
{
    return defs_table_get(&comms, id);
}

const scorep_group_def *scorep_defs_group_get(uint32_t id)
{
    return defs_table_get(&groups, id);
}

const scorep_win_def *scorep_defs_win_get(uint32_t id)
{
    return defs_table_get(&wins, id);
}

uint32_t scorep_defs_comm_count(void)
{
    return defs_table_count(&comms);
}

uint32_t scorep_defs_group_count(void)
{
    return defs_table_count(&groups);
}

uint32_t scorep_defs_win_count(void)
{
    return defs_table_count(&wins);
}
