/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_comm.c: communicator and group handles -> definitions, communicator keys, and the
 * hooks of the functions that create or free communicators and groups (see mpi_comm.h). */
#include "adapters/mpi/mpi_comm.h"
#include "adapters/mpi/mpi_hooks.h"
#include "adapters/mpi/mpi_map.h"
#include "core/events_mpi.h"
#include "defs/defs_mpi.h"

#include <stdlib.h>
#include <string.h>

static scorep_mpi_rmap comms = SCOREP_MPI_RMAP_INIT;
static pthread_mutex_t define_lock = PTHREAD_MUTEX_INITIALIZER;
static MPI_Group world_group = MPI_GROUP_NULL;
static int world_rank;
static uint32_t key_counter, local_counter;

/* MPI_Comm_idup requests freed before completion: their keys, until the communicator is met */
typedef struct orphan {
    struct orphan *next;
    MPI_Comm comm;
    uint64_t key, parent;
} orphan;
static orphan *orphans;

uint64_t scorep_mpi_new_key(void)
{
    uint32_t c;
    do /* never 0 (world rank 0's 0 is MPI_COMM_WORLD) nor 0xffffffff (MPI_COMM_SELF) */
        c = __atomic_add_fetch(&key_counter, 1, __ATOMIC_RELAXED);
    while (c == 0 || c == UINT32_MAX);
    return (uint64_t)(uint32_t)world_rank << 32 | c;
}

static uint64_t local_key(void)
{
    uint32_t c = __atomic_add_fetch(&local_counter, 1, __ATOMIC_RELAXED);
    return 1ull << 63 | (uint64_t)(uint32_t)world_rank << 32 | c;
}

uint32_t *scorep_mpi_group_members(MPI_Group group, int *size)
{
    int n = 0;
    *size = 0;
    if (group == MPI_GROUP_NULL || PMPI_Group_size(group, &n) != MPI_SUCCESS || n < 0)
        return NULL;
    int *ranks = malloc(((size_t)n + 1) * sizeof *ranks);
    int *world = malloc(((size_t)n + 1) * sizeof *world);
    uint32_t *members = malloc(((size_t)n + 1) * sizeof *members);
    if (!ranks || !world || !members) {
        free(ranks);
        free(world);
        free(members);
        return NULL;
    }
    for (int i = 0; i < n; i++)
        ranks[i] = i;
    if (n > 0 && (world_group == MPI_GROUP_NULL ||
                  PMPI_Group_translate_ranks(group, n, ranks, world_group, world) != MPI_SUCCESS))
        for (int i = 0; i < n; i++)
            world[i] = MPI_UNDEFINED;
    for (int i = 0; i < n; i++)
        members[i] = world[i] == MPI_UNDEFINED || world[i] < 0 ? UINT32_MAX : (uint32_t)world[i];
    free(ranks);
    free(world);
    *size = n;
    return members;
}

uint32_t scorep_mpi_group_id(MPI_Group group)
{
    int n;
    uint32_t *members = scorep_mpi_group_members(group, &n);
    if (!members)
        return SCOREP_INVALID_ID;
    uint32_t id = scorep_defs_group((uint32_t)n, members);
    free(members);
    return id;
}

/* References change inside MPI calls only; below MPI_THREAD_MULTIPLE those never overlap,
 * so a plain increment does (an atomic one costs a locked instruction per request). */
void scorep_mpi_comm_ref_slow(scorep_mpi_comm *c)
{
    if (scorep_mpi_thread_level == MPI_THREAD_MULTIPLE)
        __atomic_add_fetch(&c->refs, 1, __ATOMIC_RELAXED);
    else
        c->refs++;
}

void scorep_mpi_comm_unref_slow(scorep_mpi_comm *c)
{
    if (scorep_mpi_thread_level == MPI_THREAD_MULTIPLE
            ? __atomic_sub_fetch(&c->refs, 1, __ATOMIC_ACQ_REL) != 0
            : --c->refs != 0)
        return;
    scorep_mpi_counters_free(&c->send);
    scorep_mpi_counters_free(&c->recv);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

uint64_t scorep_mpi_comm_key(const scorep_mpi_comm *c)
{
    return c && c->id != SCOREP_INVALID_ID ? scorep_defs_comm_get(c->id)->key
                                           : SCOREP_COMM_KEY_NONE;
}

/* World ranks of a communicator's local (remote: its remote) group; NULL on failure. */
static uint32_t *comm_members(MPI_Comm comm, int remote, int *n)
{
    MPI_Group g = MPI_GROUP_NULL;
    uint32_t *members = NULL;
    *n = 0;
    if ((remote ? PMPI_Comm_remote_group(comm, &g) : PMPI_Comm_group(comm, &g)) == MPI_SUCCESS) {
        members = scorep_mpi_group_members(g, n);
        PMPI_Group_free(&g);
    }
    return members;
}

static int outside_world(const uint32_t *members, int n)
{
    for (int i = 0; i < n; i++)
        if (members[i] == UINT32_MAX)
            return 1;
    return 0;
}

/* The definition of comm: an intercommunicator's groups in the order every member
 * computes alike (the group with the lower first world rank is A; they are disjoint). One
 * to processes outside MPI_COMM_WORLD (MPI_Comm_spawn, connect, join) has no ranks in the
 * trace for them: it is defined by its local group only, as an ordinary communicator. */
static uint32_t define_def(scorep_mpi_comm *c, uint64_t key, uint64_t parent, const char *name)
{
    int n = 0, nb = 0, inter = c->is_inter;
    uint32_t *a = comm_members(c->handle, 0, &n), *b = NULL, id = SCOREP_INVALID_ID;
    if (a && inter)
        b = comm_members(c->handle, 1, &nb);
    if (b && outside_world(b, nb)) {
        free(b);
        b = NULL;
        nb = 0;
        inter = 0;
    }
    if (a && (!inter || b)) {
        int swap = inter && n > 0 && nb > 0 && b[0] < a[0];
        scorep_comm_def d = {.key = key,
                             .name = name,
                             .size = (uint32_t)(swap ? nb : n),
                             .members = swap ? b : a,
                             .size_b = (uint32_t)(swap ? n : nb),
                             .members_b = swap ? a : b,
                             .parent_key = parent,
                             .parent = SCOREP_INVALID_ID,
                             .is_inter = inter};
        id = scorep_defs_comm(&d);
    }
    free(a);
    free(b);
    return id;
}

static scorep_mpi_comm *define_named(scorep_mpi_frame *f, MPI_Comm comm, uint64_t key,
                                     uint64_t parent, const char *name)
{
    scorep_mpi_comm *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->handle = comm;
    scorep_mpi_counters_init(&c->send);
    scorep_mpi_counters_init(&c->recv);
    PMPI_Comm_rank(comm, &c->rank);
    PMPI_Comm_size(comm, &c->size);
    PMPI_Comm_test_inter(comm, &c->is_inter);
    c->remote_size = c->size;
    if (c->is_inter)
        PMPI_Comm_remote_size(comm, &c->remote_size);
    c->id = define_def(c, key, parent, name);
    pthread_mutex_init(&c->lock, NULL);
    c->refs = 1;
    scorep_mpi_comm *old = scorep_mpi_rmap_put(&comms, (uintptr_t)comm, c);
    if (old == c) { /* no memory for the map */
        pthread_mutex_destroy(&c->lock);
        free(c);
        return NULL;
    }
    scorep_mpi_comm_unref(old); /* a stale record of a freed handle */
    if (f && f->record && c->id != SCOREP_INVALID_ID)
        scorep_event_mpi_comm_create(f->l, c->id);
    return c;
}

scorep_mpi_comm *scorep_mpi_comm_define(scorep_mpi_frame *f, MPI_Comm comm, uint64_t key,
                                        uint64_t parent)
{
    return define_named(f, comm, key, parent, "");
}

scorep_mpi_comm *scorep_mpi_world;
MPI_Comm scorep_mpi_world_handle = SCOREP_MPI_NO_WORLD;

scorep_mpi_comm *scorep_mpi_comm_lookup(MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL)
        return NULL;
    scorep_mpi_comm *c = scorep_mpi_rmap_get(&comms, (uintptr_t)comm);
    if (__builtin_expect(c != NULL, 1))
        return c;
    /* not seen before: an orphaned MPI_Comm_idup, or a process-local definition */
    pthread_mutex_lock(&define_lock);
    c = scorep_mpi_rmap_get(&comms, (uintptr_t)comm);
    if (!c) {
        uint64_t key = local_key(), parent = SCOREP_COMM_KEY_NONE;
        for (orphan **p = &orphans; *p; p = &(*p)->next) {
            if ((*p)->comm == comm) {
                orphan *o = *p;
                key = o->key;
                parent = o->parent;
                *p = o->next;
                free(o);
                break;
            }
        }
        c = define_named(NULL, comm, key, parent, "");
    }
    pthread_mutex_unlock(&define_lock);
    return c;
}

void scorep_mpi_comm_init(void)
{
    PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    if (world_group == MPI_GROUP_NULL)
        PMPI_Comm_group(MPI_COMM_WORLD, &world_group);
    scorep_mpi_world = define_named(NULL, MPI_COMM_WORLD, SCOREP_COMM_KEY_WORLD,
                                    SCOREP_COMM_KEY_NONE, "MPI_COMM_WORLD");
    if (scorep_mpi_world) {
        scorep_mpi_world->immortal = 1; /* kept to the end of the process */
        scorep_mpi_world_handle = MPI_COMM_WORLD;
    }
    define_named(NULL, MPI_COMM_SELF, SCOREP_COMM_KEY_SELF((uint32_t)world_rank),
                 SCOREP_COMM_KEY_NONE, "MPI_COMM_SELF");
}

void scorep_mpi_comm_finalize(void)
{
    scorep_mpi_world_handle = SCOREP_MPI_NO_WORLD;
    scorep_mpi_world = NULL;
    if (world_group != MPI_GROUP_NULL)
        PMPI_Group_free(&world_group);
    world_group = MPI_GROUP_NULL;
}

/* ---- hooks --------------------------------------------------------------------------- */

void scorep_mpi_post_comm_new(scorep_mpi_frame *f, int ret, MPI_Comm parent, MPI_Comm *newcomm)
{
    if (ret != MPI_SUCCESS || !newcomm || *newcomm == MPI_COMM_NULL)
        return;
    MPI_Comm c = *newcomm;
    int inter = 0, rank = 0;
    PMPI_Comm_test_inter(c, &inter);
    PMPI_Comm_rank(c, &rank);
    uint64_t key = rank == 0 ? scorep_mpi_new_key() : 0;
    if (!inter) {
        PMPI_Bcast(&key, 1, MPI_UINT64_T, 0, c);
    } else {
        /* an intercommunicator's collectives deliver the other group's values: the first
         * gives each group the other's key, the second hands each its own back */
        uint64_t mine = key, remote = 0;
        PMPI_Allreduce(&mine, &remote, 1, MPI_UINT64_T, MPI_MAX, c);
        PMPI_Allreduce(&remote, &key, 1, MPI_UINT64_T, MPI_MAX, c);
        key = key < remote ? key : remote;
    }
    scorep_mpi_comm_define(f, c, key, scorep_mpi_comm_key(scorep_mpi_comm_get(parent)));
}

void scorep_mpi_post_intercomm_new(scorep_mpi_frame *f, int ret, MPI_Comm local_comm, int leader,
                                   MPI_Comm bridge, MPI_Comm *newcomm)
{
    if (ret != MPI_SUCCESS || !newcomm || *newcomm == MPI_COMM_NULL)
        return;
    /* {key, bridge's key}: only the leader may name the bridge communicator */
    uint64_t mine[2] = {0, 0}, remote[2] = {0, 0};
    int rank = 0;
    PMPI_Comm_rank(local_comm, &rank);
    if (rank == leader) {
        mine[0] = scorep_mpi_new_key();
        mine[1] = scorep_mpi_comm_key(scorep_mpi_comm_get(bridge));
    }
    PMPI_Bcast(mine, 2, MPI_UINT64_T, leader, local_comm);
    PMPI_Allreduce(mine, remote, 2, MPI_UINT64_T, MPI_MAX, *newcomm);
    const uint64_t *k = mine[0] < remote[0] ? mine : remote;
    scorep_mpi_comm_define(f, *newcomm, k[0], k[1]);
}

void scorep_mpi_post_comm_new_via(scorep_mpi_frame *f, int ret, MPI_Comm via, MPI_Comm *newcomm)
{
    if (ret != MPI_SUCCESS || !newcomm || via == MPI_COMM_NULL)
        return;
    int rank = 0;
    PMPI_Comm_rank(via, &rank);
    uint64_t key = rank == 0 ? scorep_mpi_new_key() : 0;
    PMPI_Bcast(&key, 1, MPI_UINT64_T, 0, via);
    if (*newcomm != MPI_COMM_NULL)
        scorep_mpi_comm_define(f, *newcomm, key, scorep_mpi_comm_key(scorep_mpi_comm_get(via)));
}

void scorep_mpi_post_comm_new_local(scorep_mpi_frame *f, int ret, MPI_Comm *newcomm)
{
    if (ret == MPI_SUCCESS && newcomm && *newcomm != MPI_COMM_NULL)
        scorep_mpi_comm_define(f, *newcomm, local_key(), SCOREP_COMM_KEY_NONE);
}

void scorep_mpi_post_comm_parent(scorep_mpi_frame *f, int ret, MPI_Comm *parent)
{
    if (ret != MPI_SUCCESS || !parent || *parent == MPI_COMM_NULL)
        return;
    pthread_mutex_lock(&define_lock);
    if (!scorep_mpi_rmap_get(&comms, (uintptr_t)*parent))
        scorep_mpi_comm_define(f, *parent, local_key(), SCOREP_COMM_KEY_NONE);
    pthread_mutex_unlock(&define_lock);
}

/* The key of the n-th idup of an intercommunicator (see mpi_comm.h): splitmix64 of the
 * parent's key and n, in the namespace of bit 62. */
static uint64_t derived_key(uint64_t parent, uint32_t n)
{
    uint64_t z = parent ^ ((uint64_t)n * 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return 1ull << 62 | (z & ((1ull << 62) - 1));
}

void scorep_mpi_post_comm_idup(scorep_mpi_frame *f, int ret, MPI_Comm comm, MPI_Comm *newcomm,
                               MPI_Request *request)
{
    if (ret != MPI_SUCCESS || !newcomm || *newcomm == MPI_COMM_NULL)
        return;
    scorep_mpi_comm *p = scorep_mpi_comm_get(comm);
    uint64_t *key = malloc(sizeof *key);
    scorep_mpi_req *r = key ? scorep_mpi_req_create(*request, SCOREP_MPI_REQ_IDUP,
                                                    f->record ? SCOREP_MPI_REQ_EVENTS : 0)
                            : NULL;
    if (!r) {
        free(key);
        return;
    }
    r->newcomm = *newcomm;
    r->key = key;
    r->key_request = MPI_REQUEST_NULL;
    r->comm = p;
    scorep_mpi_comm_ref(p);
    if (p && !p->is_inter) {
        /* the new communicator may not be used before the request completes: broadcast the
         * key over the parent without blocking, define the communicator at completion */
        *key = p->rank == 0 ? scorep_mpi_new_key() : 0;
        if (PMPI_Ibcast(key, 1, MPI_UINT64_T, 0, comm, &r->key_request) != MPI_SUCCESS) {
            r->key_request = MPI_REQUEST_NULL;
            *key = local_key();
        }
    } else if (p) {
        uint32_t n = __atomic_add_fetch(&p->idups, 1, __ATOMIC_RELAXED);
        *key = derived_key(scorep_mpi_comm_key(p), n);
    } else {
        *key = local_key();
    }
    scorep_mpi_req_publish(r);
}

static uint64_t idup_key(scorep_mpi_req *r)
{
    if (r->key_request != MPI_REQUEST_NULL)
        PMPI_Wait(&r->key_request, MPI_STATUS_IGNORE);
    return *r->key;
}

void scorep_mpi_comm_idup_completed(scorep_mpi_frame *f, scorep_mpi_req *r)
{
    uint64_t key = idup_key(r);
    scorep_mpi_frame g = *f;
    g.record = f->record && (r->flags & SCOREP_MPI_REQ_EVENTS);
    if (r->newcomm != MPI_COMM_NULL)
        scorep_mpi_comm_define(&g, r->newcomm, key, scorep_mpi_comm_key(r->comm));
}

void scorep_mpi_comm_idup_orphaned(scorep_mpi_req *r)
{
    orphan *o = malloc(sizeof *o);
    uint64_t key = idup_key(r);
    if (!o)
        return;
    o->comm = r->newcomm;
    o->key = key;
    o->parent = scorep_mpi_comm_key(r->comm);
    pthread_mutex_lock(&define_lock);
    o->next = orphans;
    orphans = o;
    pthread_mutex_unlock(&define_lock);
}

void scorep_mpi_pre_comm_free(scorep_mpi_frame *f, MPI_Comm *comm)
{
    if (!comm || *comm == MPI_COMM_NULL || *comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
        return;
    scorep_mpi_comm *c = scorep_mpi_rmap_remove(&comms, (uintptr_t)*comm);
    if (!c)
        return;
    if (f->record && c->id != SCOREP_INVALID_ID)
        scorep_event_mpi_comm_destroy(f->l, c->id);
    scorep_mpi_comm_unref(c);
}

void scorep_mpi_post_group_new(scorep_mpi_frame *f, int ret, MPI_Group *group)
{
    (void)f;
    if (ret == MPI_SUCCESS && group && *group != MPI_GROUP_NULL)
        scorep_mpi_group_id(*group);
}

/* Names as MPI keeps them (truncated to MPI_MAX_OBJECT_NAME - 1 characters) */
void scorep_mpi_post_comm_set_name(scorep_mpi_frame *f, int ret, MPI_Comm comm, const char *name)
{
    (void)f;
    (void)name;
    scorep_mpi_comm *c = ret == MPI_SUCCESS ? scorep_mpi_comm_get(comm) : NULL;
    char kept[MPI_MAX_OBJECT_NAME + 1] = "";
    int len = 0;
    if (c && c->id != SCOREP_INVALID_ID && PMPI_Comm_get_name(comm, kept, &len) == MPI_SUCCESS)
        scorep_defs_comm_set_name(c->id, kept);
}
