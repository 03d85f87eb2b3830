/* SPDX-License-Identifier: BSD-3-Clause */
/* trace_threads.c: thread-team communicators derived from the team-begin records of all
 * locations, and the OTF2 records of fork-join threading (trace_threads.h). */
#include "trace/trace_threads.h"
#include "core/events_thread.h"
#include "core/location.h"
#include "defs/hash_index.h"
#include "base/ser.h"
#include "defs/unify.h"
#include "ipc/ipc.h"

#include <stdlib.h>
#include <string.h>

/* This process's teams: members of team k are members[off[k] .. off[k + 1]). */
typedef struct {
    uint32_t n, cap;
    uint32_t *off;
    uint32_t *members; /* local location ids, by thread number */
    uint32_t n_members, cap_members;
    hash_index index; /* dedup index over team ids */
} team_table;

static struct {
    uint32_t *inst2team; /* parallel region instance -> local team, UINT32_MAX unknown */
    uint32_t n_inst;
    uint32_t comm_base; /* global comm id of this rank's first team */
    uint32_t n_teams;   /* rank 0: the teams of all ranks */
    /* rank 0: every rank's teams as packed by pack_teams */
    unsigned char *all;
    size_t *counts, *displs;
} st;

/* ------------------------------------------------------------ scanning */
typedef void (*rec_fn)(const buf_event_rec *r, uint32_t loc, void *arg);

static void scan_thread_records(rec_fn fn, void *arg)
{
    for (scorep_location *l = scorep_location_first(); l; l = l->next) {
        const buf_stream *s = &l->buffer.cls[BUF_CLASS_THREAD];
        for (const buf_page *p = s->first; p; p = p->next) {
            const char *end = p->next ? p->used_end : s->cur;
            for (const char *c = (const char *)(p + 1); c + sizeof(buf_event_rec) <= end;
                 c += sizeof(buf_event_rec)) {
                const buf_event_rec *r = (const void *)c;
                if (r->type == BUF_EV_THREAD_TEAM_BEGIN)
                    fn(r, l->id, arg);
            }
        }
    }
}

typedef struct {
    uint32_t *size;  /* per instance: team size, then (after the prefix sum) offset */
    uint32_t *slots; /* members, by instance and thread number */
    uint32_t n_inst;
} instances;

static void count_instance(const buf_event_rec *r, uint32_t loc, void *arg)
{
    (void)loc;
    uint32_t *max = arg;
    if (r->a + 1 > *max)
        *max = r->a + 1;
}

static void size_instance(const buf_event_rec *r, uint32_t loc, void *arg)
{
    (void)loc;
    instances *in = arg;
    in->size[r->a] = (uint32_t)(r->b >> 32);
}

static void place_member(const buf_event_rec *r, uint32_t loc, void *arg)
{
    instances *in = arg;
    uint32_t index = (uint32_t)r->b, size = (uint32_t)(r->b >> 32);
    if (index < size && in->size[r->a + 1] - in->size[r->a] == size)
        in->slots[in->size[r->a] + index] = loc;
}

/* ------------------------------------------------------------ team table */
static uint32_t members_hash(const uint32_t *m, uint32_t n)
{
    uint32_t h = 2166136261u ^ n;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ m[i]) * 16777619u;
    return h;
}

static uint64_t team_hash(void *ctx, uint32_t k)
{
    const team_table *t = ctx;
    return members_hash(t->members + t->off[k], t->off[k + 1] - t->off[k]);
}

typedef struct {
    const team_table *t;
    const uint32_t *m;
    uint32_t n;
} team_key;

static int team_equal(void *ctx, uint32_t k)
{
    const team_key *x = ctx;
    const team_table *t = x->t;
    return t->off[k + 1] - t->off[k] == x->n &&
           memcmp(t->members + t->off[k], x->m, x->n * sizeof *x->m) == 0;
}

static int append_team(team_table *t, const uint32_t *m, uint32_t n)
{
    if (t->n + 2 > t->cap) {
        uint32_t c = t->cap ? t->cap * 2 : 16;
        uint32_t *o = realloc(t->off, c * sizeof *o);
        if (!o)
            return -1;
        t->off = o;
        t->cap = c;
    }
    while (t->n_members + n > t->cap_members) {
        uint32_t c = t->cap_members ? t->cap_members * 2 : 64;
        uint32_t *mm = realloc(t->members, c * sizeof *mm);
        if (!mm)
            return -1;
        t->members = mm;
        t->cap_members = c;
    }
    if (t->n == 0)
        t->off[0] = 0;
    memcpy(t->members + t->n_members, m, n * sizeof *m);
    t->n_members += n;
    t->off[++t->n] = t->n_members;
    return 0;
}

/* The team with exactly these members, added when new; UINT32_MAX when out of memory. */
static uint32_t team_of(team_table *t, const uint32_t *m, uint32_t n)
{
    if (hash_index_reserve(&t->index, t->n, team_hash, t) != 0)
        return UINT32_MAX;
    team_key key = {t, m, n};
    uint32_t j, k = hash_index_find(&t->index, members_hash(m, n), team_equal, &key, &j);
    if (k != UINT32_MAX)
        return k;
    if (append_team(t, m, n) != 0)
        return UINT32_MAX;
    hash_index_set(&t->index, j, t->n - 1);
    return t->n - 1;
}

/* Whether every member of an instance is known: a member whose team-begin record is missing
 * (its trace stopped early: SCOREP_TOTAL_MEMORY used up) is UINT32_MAX. */
static int all_known(const uint32_t *m, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (m[i] == UINT32_MAX)
            return 0;
    return 1;
}

/* The first team of n members that agrees with m on every member m knows; UINT32_MAX when
 * there is none. A team with an unknown member would be a group with an invalid location. */
static uint32_t team_like(const team_table *t, const uint32_t *m, uint32_t n)
{
    for (uint32_t k = 0; k < t->n; k++) {
        const uint32_t *tm = t->members + t->off[k];
        uint32_t i = 0;
        while (t->off[k + 1] - t->off[k] == n && i < n && (m[i] == UINT32_MAX || m[i] == tm[i]))
            i++;
        if (t->off[k + 1] - t->off[k] == n && i == n)
            return k;
    }
    return UINT32_MAX;
}

/* Instances -> teams: per instance its members by thread number (two passes over the
 * records: sizes, then places), then equal member lists become one team. An instance with
 * members whose records were lost takes a complete team that matches the members it knows
 * (the runtimes reuse their threads), else none: its events name no team. */
static int find_teams(team_table *t)
{
    instances in = {0};
    scan_thread_records(count_instance, &in.n_inst);
    st.n_inst = in.n_inst;
    in.size = calloc(in.n_inst + 1, sizeof *in.size);
    st.inst2team = malloc((in.n_inst ? in.n_inst : 1) * sizeof *st.inst2team);
    if (!in.size || !st.inst2team) {
        free(in.size);
        return -1;
    }
    scan_thread_records(size_instance, &in);
    uint32_t total = 0;
    for (uint32_t i = 0; i <= in.n_inst; i++) { /* exclusive prefix sum: offsets */
        uint32_t s = in.size[i];
        in.size[i] = total;
        total += s;
    }
    in.slots = malloc((total ? total : 1) * sizeof *in.slots);
    int rc = in.slots ? 0 : -1;
    if (in.slots) {
        memset(in.slots, 0xff, (total ? total : 1) * sizeof *in.slots);
        scan_thread_records(place_member, &in);
    }
    for (uint32_t i = 0; i < in.n_inst; i++) {
        uint32_t n = in.size[i + 1] - in.size[i];
        st.inst2team[i] = UINT32_MAX;
        if (n && rc == 0 && all_known(in.slots + in.size[i], n))
            st.inst2team[i] = team_of(t, in.slots + in.size[i], n);
    }
    for (uint32_t i = 0; i < in.n_inst && rc == 0; i++) {
        uint32_t n = in.size[i + 1] - in.size[i];
        if (n && !all_known(in.slots + in.size[i], n))
            st.inst2team[i] = team_like(t, in.slots + in.size[i], n);
    }
    free(in.size);
    free(in.slots);
    return rc;
}

/* ------------------------------------------------------------ gathering */
/* The OpenMP location group holds the CPU threads only (GPU streams are CUDA's): a rank packs
 * the local ids of its CPU locations, then its teams with members as indices among them. */
static void pack_teams(ser_buf *b, const team_table *t)
{
    uint32_t n = scorep_location_count(), n_cpu = 0;
    uint32_t *cpu_index = malloc((n ? n : 1) * sizeof *cpu_index);
    if (!cpu_index) {
        b->failed = 1;
        return;
    }
    memset(cpu_index, 0xff, (n ? n : 1) * sizeof *cpu_index);
    for (scorep_location *l = scorep_location_first(); l; l = l->next)
        if (!l->gpu && l->id < n)
            cpu_index[l->id] = n_cpu++;
    ser_u32(b, n_cpu);
    for (uint32_t id = 0; id < n; id++)
        if (cpu_index[id] != UINT32_MAX)
            ser_u32(b, id);
    ser_u32(b, t->n);
    for (uint32_t k = 0; k < t->n; k++) {
        ser_u32(b, t->off[k + 1] - t->off[k]);
        for (uint32_t i = t->off[k]; i < t->off[k + 1]; i++)
            ser_u32(b, t->members[i] < n ? cpu_index[t->members[i]] : UINT32_MAX);
    }
    free(cpu_index);
}

/* Rank 0 receives every rank's teams; every rank learns where its teams start. */
static int gather_teams(const ser_buf *b, uint32_t n_teams, const struct scorep_unified_s *u)
{
    const scorep_ipc *ipc = scorep_ipc_get();
    int size = ipc->size(), rank = ipc->rank();
    uint64_t len = b->failed ? 0 : b->len, *lens = calloc(size, sizeof *lens);
    uint32_t mine = n_teams, *teams = calloc(size, sizeof *teams);
    st.counts = calloc(size, sizeof *st.counts);
    st.displs = calloc(size, sizeof *st.displs);
    int rc = lens && teams && st.counts && st.displs ? 0 : -1;
    uint64_t failed = rc != 0;
    ipc->allreduce_max_u64(&failed); /* collective from here on: all or nobody */
    if (failed) {
        free(lens);
        free(teams);
        return -1;
    }
    rc = ipc->gather(&len, sizeof len, lens, 0);
    size_t total = 0;
    for (int r = 0; rank == 0 && r < size; r++) {
        st.counts[r] = lens[r];
        st.displs[r] = total;
        total += lens[r];
    }
    if (rank == 0 && !(st.all = malloc(total ? total : 1)))
        rc = -1;
    if (ipc->gatherv(b->data, len, st.all, st.counts, st.displs, 0) != 0 ||
        ipc->gather(&mine, sizeof mine, teams, 0) != 0)
        rc = -1;
    for (uint32_t r = 0, n; rank == 0 && r < (uint32_t)size; r++, st.n_teams += n) {
        n = teams[r];
        teams[r] = st.n_teams; /* exclusive prefix: the first team of rank r */
    }
    if (ipc->bcast(teams, size * sizeof *teams, 0) != 0)
        rc = -1;
    st.comm_base = u->n[U_COMM] + (uint32_t)size + teams[rank];
    free(lens);
    free(teams);
    return rc;
}

static int prepared = -2; /* -2: not yet; else the result (the teams are final by then) */

int scorep_trace_threads_prepare(const struct scorep_unified_s *u)
{
    if (prepared != -2)
        return prepared;
    team_table t = {0};
    memset(&st, 0, sizeof st);
    int rc = find_teams(&t);
    ser_buf b = {0};
    pack_teams(&b, &t);
    if (gather_teams(&b, rc == 0 ? t.n : 0, u) != 0)
        rc = -1;
    ser_free(&b);
    free(t.off);
    free(t.members);
    hash_index_free(&t.index);
    if (rc != 0)
        st.n_inst = 0; /* events then name no team */
    prepared = rc;
    return rc;
}

/* ------------------------------------------------------------ events */
static OTF2_CommRef team_comm(uint32_t instance)
{
    uint32_t k = instance < st.n_inst ? st.inst2team[instance] : UINT32_MAX;
    return k == UINT32_MAX ? OTF2_UNDEFINED_COMM : st.comm_base + k;
}

uint32_t scorep_trace_threads_team_comm(uint32_t instance)
{
    OTF2_CommRef c = team_comm(instance);
    return c == OTF2_UNDEFINED_COMM ? UINT32_MAX : c;
}

/* a lock record's paradigm (events_thread.h): pthread mutexes or OpenMP locks */
static OTF2_Paradigm lock_paradigm(uint64_t b)
{
    return b & SCOREP_LOCK_PTHREAD_BIT ? OTF2_PARADIGM_PTHREAD : OTF2_PARADIGM_OPENMP;
}

/* Comm ids are written global: they lie above every local id the comm mapping table maps,
 * and OTF2 readers keep ids the table does not hold. */
void scorep_trace_threads_event(OTF2_EvtWriter *w, const buf_item *it)
{
    uint64_t t = it->ts;
    uint32_t creator = (uint32_t)(it->b >> 32), gen = (uint32_t)it->b;
    switch (it->type) {
    case BUF_EV_THREAD_FORK:
        OTF2_EvtWriter_ThreadFork(w, NULL, t, OTF2_PARADIGM_OPENMP, it->a);
        break;
    case BUF_EV_THREAD_JOIN:
        OTF2_EvtWriter_ThreadJoin(w, NULL, t, OTF2_PARADIGM_OPENMP);
        break;
    case BUF_EV_THREAD_TEAM_BEGIN:
        OTF2_EvtWriter_ThreadTeamBegin(w, NULL, t, team_comm(it->a));
        break;
    case BUF_EV_THREAD_TEAM_END:
        OTF2_EvtWriter_ThreadTeamEnd(w, NULL, t, team_comm(it->a));
        break;
    case BUF_EV_THREAD_ACQUIRE_LOCK:
        OTF2_EvtWriter_ThreadAcquireLock(w, NULL, t, lock_paradigm(it->b), it->a, (uint32_t)it->b);
        break;
    case BUF_EV_THREAD_RELEASE_LOCK:
        OTF2_EvtWriter_ThreadReleaseLock(w, NULL, t, lock_paradigm(it->b), it->a, (uint32_t)it->b);
        break;
    case BUF_EV_THREAD_TASK_CREATE:
        OTF2_EvtWriter_ThreadTaskCreate(w, NULL, t, team_comm(it->a), creator, gen);
        break;
    case BUF_EV_THREAD_TASK_SWITCH:
        OTF2_EvtWriter_ThreadTaskSwitch(w, NULL, t, team_comm(it->a), creator, gen);
        break;
    case BUF_EV_THREAD_TASK_COMPLETE:
        OTF2_EvtWriter_ThreadTaskComplete(w, NULL, t, team_comm(it->a), creator, gen);
        break;
    case BUF_EV_THREAD_TASK_DEPEND: {
        /* a depend item of the task created last on this location (docs/openmp.md) */
        uint32_t param = scorep_task_depend_param((scorep_dep_type)it->a);
        if (param != SCOREP_INVALID_ID)
            OTF2_EvtWriter_ParameterUnsignedInt(w, NULL, t, param, it->b);
        break;
    }
    default:
        break;
    }
}

/* ------------------------------------------------------------ definitions */
/* One rank's packed teams (after its CPU locations): groups and comms. */
static void write_rank_teams(OTF2_GlobalDefWriter *g, ser_reader *rd, uint32_t first_loc,
                             uint32_t *group, uint32_t *comm, uint32_t name, uint32_t empty)
{
    uint32_t n = ser_get_u32(rd);
    for (uint32_t k = 0; k < n && !rd->failed; k++) {
        uint32_t size = ser_get_u32(rd);
        uint64_t *m = malloc((size ? size : 1) * sizeof *m);
        for (uint32_t i = 0; i < size; i++) {
            uint32_t loc = ser_get_u32(rd);
            if (m)
                m[i] = first_loc + loc; /* index into the OpenMP location group */
        }
        if (m && !rd->failed) {
            OTF2_GlobalDefWriter_WriteGroup(g, *group, empty, OTF2_GROUP_TYPE_COMM_GROUP,
                                            OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE, size, m);
            OTF2_GlobalDefWriter_WriteComm(g, *comm, name, *group, OTF2_UNDEFINED_COMM,
                                           OTF2_COMM_FLAG_NONE);
        }
        free(m);
        ++*group;
        ++*comm;
    }
}

/* A rank's blob: where its CPU locations' local ids are. */
static ser_reader rank_blob(int r)
{
    return (ser_reader){st.all + st.displs[r], st.all + st.displs[r] + st.counts[r], 0};
}

/* The OpenMP location group: the CPU locations of every rank, rank by rank. */
static void write_location_group(OTF2_GlobalDefWriter *g, uint32_t id, uint32_t empty, int size,
                                 const uint32_t *n_cpu)
{
    uint32_t total = 0;
    for (int r = 0; r < size; r++)
        total += n_cpu[r];
    uint64_t *m = malloc((total ? total : 1) * sizeof *m), k = 0;
    for (int r = 0; m && r < size; r++) {
        ser_reader rd = rank_blob(r);
        ser_get_u32(&rd);
        for (uint32_t i = 0; i < n_cpu[r]; i++)
            m[k++] = scorep_location_global_id((uint32_t)r, ser_get_u32(&rd));
    }
    if (m)
        OTF2_GlobalDefWriter_WriteGroup(g, id, empty, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                        OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE, total, m);
    free(m);
}

void scorep_trace_threads_defs(OTF2_GlobalDefWriter *g, const struct scorep_unified_s *u, int size,
                               uint32_t base, uint32_t name, uint32_t empty, uint32_t *next_group,
                               uint32_t *next_comm)
{
    uint32_t group = base + 1, comm = u->n[U_COMM] + (uint32_t)size, first = 0;
    uint32_t *n_cpu = g && st.all ? calloc(size, sizeof *n_cpu) : NULL;
    if (n_cpu) {
        for (int r = 0; r < size; r++) { /* each blob starts with its CPU location count */
            ser_reader rd = rank_blob(r);
            n_cpu[r] = ser_get_u32(&rd);
        }
        write_location_group(g, base, empty, size, n_cpu);
        for (int r = 0; r < size; first += n_cpu[r], r++) {
            ser_reader rd = rank_blob(r);
            for (uint32_t i = 0; i <= n_cpu[r]; i++) /* the count and the ids */
                ser_get_u32(&rd);
            write_rank_teams(g, &rd, first, &group, &comm, name, empty);
        }
    }
    free(n_cpu);
    *next_group = group;
    /* the teams' ids are taken by the events even where their definitions are missing */
    *next_comm = u->n[U_COMM] + (uint32_t)size + st.n_teams;
}
