/* SPDX-License-Identifier: BSD-3-Clause */
/* an_trace.h: the analysis layer's event model: the global definitions it needs (regions,
 * communicators as world-rank lists, clock) and one rank's events in order, each tagged with
 * its call path (cnode). Filled by an_load_otf2.c (post-mortem) and read by the replay and
 * pattern files; nothing here depends on OTF2 or MPI. */
#ifndef SCOREP_AN_TRACE_H
#define SCOREP_AN_TRACE_H

#include <stddef.h>
#include <stdint.h>

#define AN_NONE UINT32_MAX

typedef enum {
    AN_ENTER,
    AN_LEAVE,
    AN_SEND,           /* blocking send record (MpiSend) */
    AN_ISEND,          /* MpiIsend: request in .request */
    AN_ISEND_COMPLETE, /* MpiIsendComplete */
    AN_RECV,           /* MpiRecv (blocking receive, MPI_Mrecv) */
    AN_IRECV_REQUEST,  /* MpiIrecvRequest (MPI_Irecv posted) */
    AN_IRECV,          /* MpiIrecv: completion of a nonblocking receive */
    AN_PROBE,          /* a successful probe; recorded just before the probe's Leave */
    AN_COLL_END,       /* MpiCollectiveEnd */
    /* ThreadAcquireLock / ThreadReleaseLock (an_pattern_lock.c): lock id in .request, the
     * acquisition order in .tag, the OTF2_Paradigm (PTHREAD, OPENMP) in .bytes */
    AN_LOCK_ACQUIRE,
    AN_LOCK_RELEASE,
    /* OpenMP tasks (docs/openmp.md "Task dependences"). A task instance is named as in OTF2's
     * ThreadTask* records by the triple (.comm, .peer, .request) = (the thread team's global
     * communicator id, the creating thread's index in the team, the generation number);
     * generation 0 is the implicit task of team member .peer. */
    AN_TASK_CREATE,   /* ThreadTaskCreate on the creating thread; .region = the created task's
                       * region (`!$omp task @f:L`) when the loader knows it, else AN_NONE */
    AN_TASK_SWITCH,   /* ThreadTaskSwitch: the task runs on this location from now on */
    AN_TASK_COMPLETE, /* ThreadTaskComplete of the task */
    /* one entry of the task's dependence list, on the creating thread's location after the
     * task's AN_TASK_CREATE: .msg_id = the address of the dependence's variable (the depend
     * clause's storage), .tag = an_dep_type. Edges are not recorded: they follow from the
     * lists by OpenMP's rules among sibling tasks (same parent, in creation order). */
    AN_TASK_DEPEND,
    /* ThreadFork / ThreadJoin of the thread that forks a team (the master, before its enter
     * of the parallel region and after its leave): the team's management time (an_omp.c,
     * Scalasca's omp_management, omp_fork). FORK: .tag = the requested number of threads,
     * .bytes = the OTF2_Paradigm (OPENMP). */
    AN_THREAD_FORK,
    AN_THREAD_JOIN,
    /* MPI one-sided communication (an_pattern_rma.c), on the rank's master location: .request
     * = the RMA window's global id, .comm = the window's communicator (AN_NONE: unknown).
     * RmaPut / RmaGet at the origin: .bytes = the bytes moved, .peer = the target as world
     * rank (AN_NONE: unknown) */
    AN_RMA_PUT,
    AN_RMA_GET,
    /* RmaCollectiveEnd (MPI_Win_create/free/fence/...): .tag = OTF2_CollectiveOp, .bytes2 =
     * the time of the call's RmaCollectiveBegin (as .time: ticks, offsets applied) */
    AN_RMA_COLL_END
} an_event_kind;
#define AN_IS_TASK_EVENT(kind) ((kind) >= AN_TASK_CREATE && (kind) <= AN_TASK_DEPEND)

/* AN_TASK_DEPEND's .tag: the dependence type (OMPT's ompt_dependence_type_t folded onto the
 * depend clause's types; 0 for the rest: source/sink of doacross, depobj, ...) */
typedef enum {
    AN_DEP_OTHER = 0,
    AN_DEP_IN = 1,
    AN_DEP_OUT = 2,
    AN_DEP_INOUT = 3,
    AN_DEP_MUTEXINOUTSET = 4,
    AN_DEP_INOUTSET = 5
} an_dep_type;
#define AN_IS_MPI_EVENT(kind) ((kind) >= AN_SEND && (kind) <= AN_COLL_END)

typedef struct {
    uint64_t time;   /* ticks, clock offsets applied */
    uint64_t bytes;  /* message bytes, collective bytes sent */
    uint64_t bytes2; /* collective bytes received */
    uint64_t msg_id; /* mpi_message_id attribute (0: none) */
    uint64_t request;
    uint32_t kind;   /* an_event_kind */
    uint32_t region; /* ENTER/LEAVE: global region id */
    uint32_t comm;   /* global communicator id (AN_NONE: none) */
    uint32_t peer;   /* p2p/probe: peer as world rank; COLL_END: root as world rank or AN_NONE */
    uint32_t tag;    /* p2p tag; COLL_END: OTF2_CollectiveOp */
    uint32_t cnode;  /* call path of the event (for ENTER: the entered call path) */
    uint32_t enter;  /* index of the ENTER of the call that encloses the event (AN_NONE at top) */
} an_event;

typedef struct {
    const char *name;
    int role, paradigm; /* OTF2_RegionRole, OTF2_Paradigm */
    uint32_t cls;       /* an_region_class (an_regions.c) */
    const char *file;   /* source file, "" if none (the report's module) */
    int begin, end;     /* source lines, 0 if unknown */
} an_region;

typedef struct {
    uint32_t *ranks; /* world ranks of the members (of group A of an intercommunicator), in
                      * communicator rank order */
    uint32_t n;
    /* an intercommunicator (docs/mpi.md): group A above, group B here (A is the group whose
     * first member has the lower world rank); a peer or root rank on it is a rank of the
     * group the event's process is not in (an_comm_peer) */
    uint32_t *ranks_b;
    uint32_t n_b;
    int inter;
    int in_a; /* intercommunicator: the analysed rank is in group A (an_comm_set_side) */
    int defined;
} an_comm;

/* the loaders call it once the groups are set: which group the analysed rank ME is in */
static inline void an_comm_set_side(an_comm *k, uint32_t me)
{
    k->in_a = 0;
    for (uint32_t i = 0; k->inter && i < k->n && !k->in_a; i++)
        k->in_a = k->ranks[i] == me;
}

/* the world rank of rank PEER of communicator K as the analysed rank sees it: on an
 * intercommunicator, PEER is a rank of the other group (MPI's remote group); AN_NONE when
 * there is no such member */
static inline uint32_t an_comm_peer(const an_comm *k, uint32_t peer)
{
    if (!k->defined)
        return AN_NONE;
    if (k->inter && k->in_a)
        return peer < k->n_b ? k->ranks_b[peer] : AN_NONE;
    return peer < k->n ? k->ranks[peer] : AN_NONE;
}

typedef struct {
    uint32_t parent; /* AN_NONE for a root */
    uint32_t region;
} an_cnode;

typedef struct {
    /* global definitions (every rank reads them) */
    an_region *regions;
    size_t n_regions;
    an_comm *comms;
    size_t n_comms;
    uint32_t n_ranks;    /* process location groups in the trace */
    uint64_t resolution; /* ticks per second */
    uint64_t global_offset;
    char **strings;
    size_t n_strings;
    /* this rank's analysed location (its master thread): events in order */
    uint32_t rank;
    an_event *events;
    size_t n_events, cap_events;
    /* call paths seen on this rank */
    an_cnode *cnodes;
    size_t n_cnodes, cap_cnodes;
    void *cnode_index; /* (parent, region) -> cnode (an_calltree.c) */
    /* what the loader found that limits the analysis (docs/analysis.md, "Bad input") */
    uint64_t other_threads_events; /* MPI events of this rank's other threads: not replayed */
    int reduced;                   /* the trace was reduced or flushed (buffer reduction log) */
    int has_mpi;                   /* any MPI event on this rank */
    /* this rank's other thread locations (an_omp.c): their events, with cnode AN_NONE until
     * an_omp_map gives them the call paths under the master's fork; LOCAL is the location's
     * number in its process (the trace's location id / ranks, as in profile.cubex), NAME the
     * trace's name of it; an_omp_map sorts them by LOCAL. Each has its own location in
     * scout.cubex (an_report_cube.c), after the master thread's. */
    struct an_thread {
        an_event *events;
        size_t n_events, cap_events;
        uint32_t local;
        char name[64];
    } *threads;
    size_t n_threads;
    uint32_t master_local; /* the analysed (master) location's number and name */
    char master_name[64];
} an_trace;

/* an_omp.c: gives the events of the OpenMP worker threads their call paths (the master's call
 * path of the parallel region they belong to, then their own); before the analysis sizes its
 * tables by the call paths. Returns -1 when memory runs out. */
int an_omp_map(an_trace *t);

/* an_calltree.c: the cnode of REGION called from PARENT (created on first use);
 * AN_NONE when memory runs out. */
uint32_t an_cnode_get(an_trace *t, uint32_t parent, uint32_t region);
/* The cnode of the master's call of the program region, its first event when the trace has
 * one (the loaders read ProgramBegin/ProgramEnd as that call: artificial, paradigm
 * measurement); AN_NONE otherwise. */
uint32_t an_program_cnode(const an_trace *t);
/* appends an event (grows the array); NULL when memory runs out */
an_event *an_event_append(an_trace *t);

/* The open calls of the location being read, while a loader appends its events in order
 * (an_load_otf2.c, an_load_buffer.c; test_an_sim.c builds its synthetic traces with them): the
 * indexes of their ENTER events, innermost last. The one place where an event gets its
 * enclosing call (.enter), its call path (.cnode) and the trace its has_mpi. */
typedef struct {
    uint32_t *open;
    size_t depth, cap;
} an_calls;

/* the innermost open call's ENTER; NULL when none is open */
static inline const an_event *an_calls_top(const an_trace *t, const an_calls *s)
{
    return s->depth ? &t->events[s->open[s->depth - 1]] : NULL;
}

/* appends an event of KIND at TIME inside the innermost open call (its .enter and .cnode; the
 * other fields as an_event_append leaves them); NULL when memory runs out */
static inline an_event *an_calls_event(an_trace *t, const an_calls *s, uint64_t time,
                                       an_event_kind kind)
{
    an_event *e = an_event_append(t);
    if (!e)
        return NULL;
    e->time = time;
    e->kind = kind;
    if (s->depth) {
        e->enter = s->open[s->depth - 1];
        e->cnode = t->events[e->enter].cnode;
    }
    if (AN_IS_MPI_EVENT(kind))
        t->has_mpi = 1;
    return e;
}

/* appends the ENTER of REGION at TIME and opens its call, on call path REGION below the
 * enclosing call's (WORKER: none, AN_NONE; an_omp_map gives a worker thread's later); NULL
 * when memory runs out */
an_event *an_calls_enter(an_trace *t, an_calls *s, uint64_t time, uint32_t region, int worker);
/* appends the LEAVE at TIME of the innermost open call (the caller checked that one is open)
 * and closes it; NULL when memory runs out (the call stays open) */
an_event *an_calls_leave(an_trace *t, an_calls *s, uint64_t time);
void an_calls_free(an_calls *s);
void an_trace_free(an_trace *t);

#endif
