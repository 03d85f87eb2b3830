/* SPDX-License-Identifier: BSD-3-Clause */
/* score_model.c: scorep-score's rows from a Cube profile: region types, visits and times
 * per region and group, and the trace buffer estimate from our buffer's record sizes. */
#include "tools/score/score_model.h"

#include "buffer/buffer.h"
#include "tools/score/score_io_records.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The model's record sizes are the buffer's (a change of either fails here, not as a wrong
 * estimate; the page size is SCOREP_PAGE_SIZE's default) */
_Static_assert(SCORE_PAGE_HEADER == sizeof(buf_page) &&
                   SCORE_REGION_RECORD == sizeof(buf_region_rec) &&
                   SCORE_EVENT_RECORD == sizeof(buf_event_rec) &&
                   SCORE_MPI_RECORD == sizeof(buf_mpi_rec),
               "score_model.h's record and page sizes are src/buffer/buffer.h's");

static const char *const type_names[SCORE_N_TYPES] = {"ALL",     "FLT",  "USR", "SCOREP", "MEMORY",
                                                      "LIB",     "COM",  "MPI", "OMP",    "SHMEM",
                                                      "PTHREAD", "CUDA", "IO"};

const char *score_type_name(score_type t)
{
    return t < SCORE_N_TYPES ? type_names[t] : "?";
}

/* Score-P's filter state per type: which groups a filter can shrink ('*'), which never
 * ('-'); the FLT group holds what is removed ('+'). */
static char type_flt(score_type t)
{
    switch (t) {
    case SCORE_ALL:
    case SCORE_USR:
    case SCORE_COM:
    case SCORE_CUDA:
    case SCORE_LIB: /* Score-P's table: LIB is POSSIBLE (its filter rules apply) */
        return SCORE_FLT_MAYBE;
    case SCORE_FLT:
        return SCORE_FLT_YES;
    default:
        return SCORE_FLT_NO;
    }
}

/* ------------------------------------------------------------------ classification */

/* Paradigm without Score-P's ":group" suffix, compared case-insensitively. */
static bool paradigm_is(const char *paradigm, const char *want)
{
    size_t n = strcspn(paradigm, ":");
    return strlen(want) == n && strncasecmp(paradigm, want, n) == 0;
}

static score_type paradigm_type(const char *paradigm)
{
    static const struct {
        const char *name;
        score_type type;
    } map[] = {{"mpi", SCORE_MPI},         {"openmp", SCORE_OMP}, {"shmem", SCORE_SHMEM},
               {"pthread", SCORE_PTHREAD}, {"cuda", SCORE_CUDA},  {"measurement", SCORE_SCOREP},
               {"memory", SCORE_MEMORY},   {"io", SCORE_IO},      {"libwrap", SCORE_LIB}};
    for (size_t i = 0; paradigm && i < sizeof map / sizeof map[0]; i++)
        if (paradigm_is(paradigm, map[i].name))
            return map[i].type;
    return SCORE_USR;
}

static bool is_communication(score_type t)
{
    return t > SCORE_COM;
}

/* USR regions with a communication call anywhere below one of their cnodes become COM.
 * Each communication cnode marks its ancestors, stopping at the first one already marked,
 * so every cnode is marked at most once. */
static int classify_regions(const cube_reader *r, score_type *type_of)
{
    char *comm_below = calloc((size_t)r->n_cnodes + 1, 1);
    if (comm_below == NULL)
        return -1;
    for (int g = 0; g < r->n_regions; g++)
        type_of[g] = paradigm_type(r->regions[g].paradigm);
    for (int c = 0; c < r->n_cnodes; c++) {
        if (!is_communication(type_of[r->cnodes[c].region]))
            continue;
        for (int p = r->cnodes[c].parent; p >= 0 && !comm_below[p]; p = r->cnodes[p].parent)
            comm_below[p] = 1;
    }
    for (int c = 0; c < r->n_cnodes; c++)
        if (comm_below[c] && type_of[r->cnodes[c].region] == SCORE_USR)
            type_of[r->cnodes[c].region] = SCORE_COM;
    free(comm_below);
    return 0;
}

/* ------------------------------------------------------------------ record sizes */

static bool name_in(const char *name, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(name, *list) == 0)
            return true;
    return false;
}

/* Collectives write a begin and an end record; the non-blocking ones a request record at
 * the call and a completion record in the Wait/Test that finishes them. */
static bool is_collective(const char *mpi)
{
    static const char *const colls[] = {
        "Barrier",   "Bcast",     "Gather",     "Gatherv",        "Scatter",
        "Scatterv",  "Allgather", "Allgatherv", "Alltoall",       "Alltoallv",
        "Alltoallw", "Reduce",    "Allreduce",  "Reduce_scatter", "Reduce_scatter_block",
        "Scan",      "Exscan",    NULL};
    if (strncmp(mpi, "Neighbor_", 9) == 0 || strncmp(mpi, "Ineighbor_", 10) == 0)
        return true;
    return name_in(mpi, colls) || (mpi[0] == 'I' && name_in(mpi + 1, colls));
}

/* MPI records (buf_mpi_rec) one call of an MPI function writes, as src/core/events_mpi.c
 * records them. A non-blocking call is charged its completion record too (written by the
 * Wait/Test that completes it), so per-process totals are right while the Wait/Test rows
 * carry none. A call that makes a communicator writes its CommCreate, MPI_Comm_free and
 * MPI_Comm_disconnect a CommDestroy (CP2K: 96 of each per rank; upper bounds, a call that
 * gives MPI_COMM_NULL writes none). Not modelled (0): unsuccessful tests, probes, one-sided,
 * window creation; few records in usual programs. */
static unsigned mpi_records(const char *name)
{
    static const char *const comms[] = {
        "Cart_create",     "Cart_sub",          "Comm_accept",       "Comm_connect",
        "Comm_create",     "Comm_create_group", "Comm_dup",          "Comm_dup_with_info",
        "Comm_idup",       "Comm_idup_with_info", "Comm_join",       "Comm_spawn",
        "Comm_spawn_multiple", "Comm_split",    "Comm_split_type",   "Dist_graph_create",
        "Dist_graph_create_adjacent", "Graph_create", "Intercomm_create", "Intercomm_merge",
        "Comm_free",       "Comm_disconnect",   NULL};
    static const char *const one[] = {"Send", "Bsend", "Ssend", "Rsend", "Recv", "Mrecv", NULL};
    static const char *const two[] = {"Sendrecv", "Sendrecv_replace", "Isend",
                                      "Ibsend",   "Issend",           "Irsend",
                                      "Irecv",    "Imrecv",           NULL};
    if (strncmp(name, "MPI_", 4) != 0)
        return 0;
    const char *f = name + 4;
    if (name_in(f, one) || name_in(f, comms))
        return 1;
    if (name_in(f, two) || is_collective(f))
        return 2;
    return 0;
}

/* The profile's root above each thread's calls: no call in the buffer, but a thread
 * begin record on the thread and a create and a wait record on the thread that started it. */
static bool is_threads_root(const char *name, score_type t)
{
    return t == SCORE_SCOREP && name && strcmp(name, "THREADS") == 0;
}

/* Recording switched off (SCOREP_RECORDING_OFF): the profile shows a call of MEASUREMENT
 * OFF, the buffer holds a measurement-off and a measurement-on record instead (Score-P's
 * estimate counts it the same way). */
static bool is_measurement_off(const char *name)
{
    return name && strcmp(name, "MEASUREMENT OFF") == 0;
}

/* An OpenMP parallel region (Score-P's name "!$omp parallel @file:line"): every team
 * member writes a team begin and end record, the thread that opens the team a fork and a
 * join record besides. */
static bool is_omp_parallel(const char *name, score_type t)
{
    return t == SCORE_OMP && name && strncmp(name, "!$omp parallel", 14) == 0 &&
           (name[14] == '\0' || name[14] == ' ');
}

/* The lock records (ThreadAcquireLock, ThreadReleaseLock; 24 bytes each) of one call: an
 * OpenMP critical or ordered construct (not its "sblock", the body inside) takes and gives
 * back its lock, omp_set_lock takes one, omp_unset_lock gives one back; omp_test_lock and
 * omp_test_nest_lock take one per visit (a failed test records no region, as Score-P's OMPT
 * adapter: its visits are the acquisitions). A pthread_mutex_trylock may fail (a visit
 * without a record), so pthread mutexes are charged as Score-P's estimate charges them:
 * pthread_mutex_unlock with both records of the lock it gives back (the unlocks that are
 * recorded are exactly the recorded acquisitions' releases), pthread_mutex_lock and _trylock
 * with none; a condition wait gives its mutex back and takes it again. Exact for every
 * location that releases the mutexes it takes; a nest lock its owner takes again writes
 * none (an upper bound). Score-P's estimate counts the lock calls but not the constructs. */
static unsigned lock_records(const char *name, score_type t)
{
    static const char *const one[] = {"omp_set_lock",      "omp_unset_lock",
                                      "omp_set_nest_lock", "omp_unset_nest_lock",
                                      "omp_test_lock",     "omp_test_nest_lock",
                                      NULL};
    static const char *const two[] = {"pthread_cond_wait", "pthread_cond_timedwait",
                                      "pthread_mutex_unlock", NULL};
    if (!name || (t != SCORE_OMP && t != SCORE_PTHREAD))
        return 0;
    if (t == SCORE_OMP && (strncmp(name, "!$omp critical", 14) == 0 ||
                           strncmp(name, "!$omp ordered", 13) == 0)) {
        const char *rest = name + (name[6] == 'c' ? 14 : 13); /* "!$omp critical" */
        return (*rest == '\0' || *rest == ' ') && strncmp(rest, " sblock", 7) != 0 ? 2 : 0;
    }
    return name_in(name, one) ? 1 : name_in(name, two) ? 2 : 0;
}

/* The records of a memory call beyond its Enter and Leave: the counter "Process memory
 * usage" and Score-P's attributes (docs/memory.md, "Trace attributes"): 2 per call, a sized
 * delete 3, realloc (and reallocarray, memkind's hbw_realloc) 4 (the most it writes: the
 * estimate is an upper bound). */
static uint64_t memory_records(const char *name)
{
    uint64_t attrs = 2;
    if (name && (strcmp(name, "realloc") == 0 || strcmp(name, "reallocarray") == 0 ||
                 strcmp(name, "hbw_realloc") == 0))
        attrs = 4;
    else if (name && strncmp(name, "operator delete", 15) == 0 && strstr(name, "size_t"))
        attrs = 3;
    return 1 + attrs;
}

static int by_io_name(const void *key, const void *e)
{
    return strcmp(key, ((const score_io_records_entry *)e)->name);
}

/* The I/O records of one call of an I/O region (score_io_records.h): an operation's begin
 * and complete, one handle event (open, close, seek, delete), none for the stat family, ftell
 * and ftruncate (OTF2 has no record for them). A name the wrappers do not know: 2. */
static unsigned io_records(const char *name)
{
    const score_io_records_entry *e =
        name ? bsearch(name, score_io_records_table, score_io_records_count,
                       sizeof *score_io_records_table, by_io_name)
             : NULL;
    return e ? e->records : 2;
}

uint64_t score_visit_bytes(const char *name, score_type t, unsigned n_counters)
{
    if (is_threads_root(name, t))
        return 3 * SCORE_EVENT_RECORD;
    if (is_measurement_off(name))
        return 2 * SCORE_EVENT_RECORD;
    uint64_t b = 2 * (SCORE_REGION_RECORD + (uint64_t)n_counters * SCORE_EVENT_RECORD);
    if (t == SCORE_MPI && name)
        b += (uint64_t)mpi_records(name) * SCORE_MPI_RECORD;
    if (t == SCORE_IO)
        b += (uint64_t)io_records(name) * SCORE_MPI_RECORD;
    if (is_omp_parallel(name, t)) /* the team's; the fork and join are counted per team */
        b += 2 * SCORE_EVENT_RECORD;
    b += (uint64_t)lock_records(name, t) * SCORE_EVENT_RECORD;
    if (t == SCORE_MEMORY) /* the "Process memory usage" value after the call, attributes */
        b += memory_records(name) * SCORE_EVENT_RECORD;
    return b;
}

/* Record bytes plus the headers of the pages that hold them. */
static uint64_t with_page_headers(uint64_t b)
{
    const uint64_t room = SCORE_PAGE_SIZE - SCORE_PAGE_HEADER;
    return b + (b + room - 1) / room * SCORE_PAGE_HEADER;
}

/* The same for a stream of REC-byte records alone, which never straddle two pages: a page
 * holds 127 MPI records of 64 bytes (8,128 of its 8,160 bytes), not 127.5, so MPI's stream
 * needs a header more per 254 pages than its bytes alone say (session 26: a 2-rank
 * MPI_Testany poller's 20,000 MPI records a rank fill 158 pages, not 157; test_score_poll.sh). */
static uint64_t with_page_headers_of(uint64_t b, uint64_t rec)
{
    const uint64_t per_page = (SCORE_PAGE_SIZE - SCORE_PAGE_HEADER) / rec * rec;
    return b + (b + per_page - 1) / per_page * SCORE_PAGE_HEADER;
}

/* ------------------------------------------------------------------ aggregation */

/* outer[c]: no ancestor of c calls the same region, so c's inclusive time is not already
 * part of an enclosing call of that region (recursion). One depth-first walk with a count
 * of open calls per region keeps this linear even for very deep call paths. */
static int mark_outer_calls(const cube_reader *r, bool *outer)
{
    int n = r->n_cnodes;
    int *off = calloc((size_t)n + 2, sizeof(int)), *kids = malloc(((size_t)n + 1) * sizeof(int));
    int *open = calloc((size_t)r->n_regions + 1, sizeof(int));
    int *stack = malloc(((size_t)n + 1) * sizeof(int)); /* entries: ~c = leave c, c = enter c */
    int rc = (off && kids && open && stack) ? 0 : -1;
    for (int c = 0; rc == 0 && c < n; c++)
        if (r->cnodes[c].parent >= 0)
            off[r->cnodes[c].parent + 2]++;
    for (int c = 0; rc == 0 && c < n; c++)
        off[c + 2] += off[c + 1];
    for (int c = 0; rc == 0 && c < n; c++)
        if (r->cnodes[c].parent >= 0)
            kids[off[r->cnodes[c].parent + 1]++] = c;
    for (int root = 0; rc == 0 && root < n; root++) {
        if (r->cnodes[root].parent >= 0)
            continue;
        int top = 0;
        stack[top++] = root;
        while (top > 0) {
            int e = stack[--top];
            if (e < 0) {
                open[r->cnodes[~e].region]--;
                continue;
            }
            outer[e] = open[r->cnodes[e].region]++ == 0;
            stack[top++] = ~e; /* each cnode holds at most one slot: enter, then leave */
            for (int i = off[e]; i < off[e + 1]; i++)
                stack[top++] = kids[i];
        }
    }
    free(off);
    free(kids);
    free(open);
    free(stack);
    return rc;
}

/* Groups cnodes by region (counting sort) so each region's cnodes are visited together. */
static int cnodes_by_region(const cube_reader *r, int **off, int **items)
{
    *off = calloc((size_t)r->n_regions + 2, sizeof(int));
    *items = malloc(((size_t)r->n_cnodes + 1) * sizeof(int));
    if (*off == NULL || *items == NULL)
        return -1;
    for (int c = 0; c < r->n_cnodes; c++)
        (*off)[r->cnodes[c].region + 2]++;
    for (int g = 0; g < r->n_regions; g++)
        (*off)[g + 2] += (*off)[g + 1];
    for (int c = 0; c < r->n_cnodes; c++)
        (*items)[(*off)[r->cnodes[c].region + 1]++] = c;
    return 0;
}

/* Byte estimates saturate instead of wrapping on absurd visit counts. */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    return (b != 0 && a > UINT64_MAX / b) ? UINT64_MAX : a * b;
}

/* Scratch arrays of one computation; every region leaves them zeroed. */
typedef struct {
    const cube_reader *r;
    const score_source *src;
    uint64_t *rows; /* 3 * n_locations: visits, exclusive time, inclusive time of a cnode */
    bool failed;    /* the source could not give a row */
    int visits, time;
    const bool *outer;
    uint64_t *proc_bytes; /* per process: this region's record bytes */
    double *loc_excl;     /* 2 * n_locations: exclusive time, visited-mark */
    uint64_t *group_proc; /* 2 * SCORE_N_TYPES * n_processes: groups, then kept groups */
    const int *proc_of;   /* per location: the location group of its process */
} scratch;

/* Per location the location group whose process it belongs to (the slot of its bytes): its
 * own group, or for a GPU stream in an accelerator group (a CUDA context) the process
 * group its attribute "Creating location group" names, whose buffers it fills; Score-P's
 * scorep-score adds the contexts to their process the same way. A group without a known
 * creator stays a slot of its own. NULL when memory runs out. */
static int *process_of_locations(const cube_reader *r)
{
    int *group = cube_reader_process_groups(r);
    int *of = group ? malloc(((size_t)r->n_locations + 1) * sizeof *of) : NULL;
    for (int l = 0; of && l < r->n_locations; l++)
        of[l] = group[r->locations[l].locgroup];
    free(group);
    return of;
}

/* A parameter call path, recorded as a parameter event rather than an enter and a leave: a
 * cnode with Cube's <parameter> element, or one of a region "name=value" of paradigm user
 * and role unknown, as Score-P and scorep-rt write parameters. */
static bool is_param_cnode(const cube_reader *r, int c)
{
    const cube_cnode *n = &r->cnodes[c];
    if (n->param_name != NULL)
        return true;
    const cube_region *g = &r->regions[n->region];
    return g->role && strcmp(g->role, "unknown") == 0 && g->paradigm &&
           strcmp(g->paradigm, "user") == 0 && g->name && strchr(g->name, '=') != NULL;
}

/* The node "scorep_throttled_from_visit=N" below a throttled function (docs/user-guide.md
 * §5a) counts the calls the runtime only counted: no parameter record is written for them.
 * Their enters and leaves stay in the parent's estimate: a trace-only run
 * (SCOREP_ENABLE_PROFILING=false) throttles nothing and records them all. */
static bool is_throttled_cnode(const cube_reader *r, int c)
{
    static const char name[] = "scorep_throttled_from_visit";
    const cube_cnode *n = &r->cnodes[c];
    const char *g = r->regions[n->region].name;
    if (n->param_name != NULL)
        return strcmp(n->param_name, name) == 0;
    return is_param_cnode(r, c) && g && strncmp(g, name, sizeof name - 1) == 0 &&
           g[sizeof name - 1] == '=';
}

/* out = the per-location row of (metric, c) in view, from the source */
static void fetch(scratch *s, int metric, int c, cube_view view, uint64_t *out)
{
    if (s->src->row(s->src->ctx, metric, c, view, out) != 0) {
        s->failed = true;
        memset(out, 0, (size_t)s->r->n_locations * sizeof *out);
    }
}

/* The region's visits, times and per-process record bytes from its cnodes. */
static void sum_cnodes(scratch *s, score_row *w, const int *cn, int n, uint64_t visit_bytes)
{
    const cube_reader *r = s->r;
    size_t L = (size_t)r->n_locations;
    cube_dtype tt = r->metrics[s->time].dtype;
    for (int i = 0; i < n; i++) {
        int c = cn[i];
        bool param = is_param_cnode(r, c);
        uint64_t bytes = is_throttled_cnode(r, c) ? 0 : param ? SCORE_EVENT_RECORD : visit_bytes;
        bool own_row = r->cnodes[c].param_name == NULL; /* a region "n=5" has a row */
        fetch(s, s->visits, c, CUBE_VIEW_EXCLUSIVE, s->rows);
        fetch(s, s->time, c, CUBE_VIEW_EXCLUSIVE, s->rows + L);
        if (s->outer[c])
            fetch(s, s->time, c, CUBE_VIEW_INCLUSIVE, s->rows + 2 * L);
        for (int l = 0; l < r->n_locations; l++) {
            uint64_t v = s->rows[l];
            double t = cube_value_to_double(tt, s->rows[L + (size_t)l]);
            uint64_t *pb = &s->proc_bytes[s->proc_of[l]];
            *pb = sat_add(*pb, sat_mul(v, bytes));
            w->visits = sat_add(w->visits, own_row ? v : 0);
            w->excl += t;
            s->loc_excl[l] += t;
            if (v)
                s->loc_excl[r->n_locations + l] = 1.0;
            if (s->outer[c])
                w->incl += cube_value_to_double(tt, s->rows[2 * L + (size_t)l]);
        }
    }
}

static void finish_min_max(scratch *s, score_row *w)
{
    int nl = s->r->n_locations;
    w->min_excl = INFINITY;
    w->max_excl = -INFINITY;
    for (int l = 0; l < nl; l++) {
        if (s->loc_excl[nl + l] != 0.0) {
            w->min_excl = fmin(w->min_excl, s->loc_excl[l]);
            w->max_excl = fmax(w->max_excl, s->loc_excl[l]);
        }
        s->loc_excl[l] = 0.0;
        s->loc_excl[nl + l] = 0.0;
    }
    if (w->min_excl > w->max_excl) /* visited nowhere */
        w->min_excl = w->max_excl = 0.0;
}

static uint64_t *group_slot(scratch *s, bool kept, score_type t, int p)
{
    size_t np = (size_t)s->r->n_locgroups;
    return &s->group_proc[((kept ? SCORE_N_TYPES : 0) + (size_t)t) * np + (size_t)p];
}

/* The region's per-process record bytes into its row (with the page headers they need)
 * and into its groups (which add the headers when they are complete). */
static void spread_bytes(scratch *s, score_row *w, bool filtered, bool has_filter)
{
    for (int p = 0; p < s->r->n_locgroups; p++) {
        uint64_t b = s->proc_bytes[p];
        s->proc_bytes[p] = 0;
        uint64_t paged = with_page_headers(b);
        if (paged > w->max_buf)
            w->max_buf = paged;
        w->total_buf = sat_add(w->total_buf, paged);
        score_type into[4] = {SCORE_ALL, w->type, SCORE_FLT, SCORE_FLT};
        for (int k = 0; k < 2; k++) {
            uint64_t *g = group_slot(s, false, into[k], p);
            *g = sat_add(*g, b);
        }
        if (!has_filter)
            continue;
        for (int k = filtered ? 2 : 0; k < (filtered ? 3 : 2); k++) {
            uint64_t *g = group_slot(s, true, into[k], p);
            *g = sat_add(*g, b);
        }
    }
}

/* Excluded by the filter: Score-P's rule (only types a filter can shrink, never sampled
 * regions), and never "MEASUREMENT OFF", which the runtime does not filter either. */
static bool region_filtered(const score_params *p, const cube_region *g, score_type t)
{
    if (p->filter == NULL || type_flt(t) != SCORE_FLT_MAYBE)
        return false;
    if (strcmp(g->name, "MEASUREMENT OFF") == 0 ||
        (g->paradigm && paradigm_is(g->paradigm, "sampling")))
        return false;
    if (g->paradigm && paradigm_is(g->paradigm, "libwrap")) /* for the hint of scorep-score */
        scorep_filter_note_symbol(p->filter, g->name, g->mangled_name);
    return scorep_filter_excluded(p->filter, g->file, g->name, g->mangled_name);
}

static void add_row(score_row *d, const score_row *w)
{
    d->visits = sat_add(d->visits, w->visits);
    d->excl += w->excl;
    d->incl += w->incl;
}

/* Call depth of every cnode (a parameter cnode gets its parent's: it is no call), and
 * the deepest one. */
static int *cnode_depths(const cube_reader *r, int *max_depth)
{
    int n = r->n_cnodes, *d = malloc(((size_t)n + 1) * sizeof *d);
    int *path = malloc(((size_t)n + 1) * sizeof *path);
    *max_depth = 0;
    for (int c = 0; d && path && c < n; c++)
        d[c] = -1;
    for (int c = 0; d && path && c < n; c++) {
        int k = 0, e = c; /* climb to a cnode of known depth, then fill the path down */
        while (e >= 0 && d[e] < 0) {
            path[k++] = e;
            e = r->cnodes[e].parent;
        }
        int base = e < 0 ? -1 : d[e];
        while (k > 0) {
            e = path[--k];
            const cube_region *g = &r->regions[r->cnodes[e].region];
            bool threads = r->cnodes[e].parent < 0 && strcmp(g->name, "THREADS") == 0 &&
                           paradigm_type(g->paradigm) == SCORE_SCOREP;
            base += (!is_param_cnode(r, e) || r->cnodes[e].parent < 0) && !threads;
            d[e] = base;
            *max_depth = base > *max_depth ? base : *max_depth;
        }
    }
    bool ok = d != NULL && path != NULL;
    free(path);
    if (!ok) {
        free(d);
        return NULL;
    }
    return d;
}

/* Thread records of one visit of an OpenMP parallel cnode on location l: team begin and
 * end, and a fork and a join when l opened the team, which the profile shows as l having
 * visited the cnode's parent (a worker's call path hangs below its master's). */
static uint64_t omp_thread_records(const uint64_t *parent_visits, int l)
{
    bool opener = parent_visits == NULL || parent_visits[l] > 0;
    return (opener ? 4 : 2) * SCORE_EVENT_RECORD;
}

/* The records one cnode c with v visits on location l adds to l's streams: enters and
 * leaves go to one stream per call depth, metric values and parameters to one, MPI
 * records to another, thread events to a third; bytes[max_depth + 1] = metric and
 * parameter, [+ 2] = MPI, [+ 3] = thread events, [+ 4] = measurement on/off (the stream of
 * other events); *creator gets the create and wait records of the threads (written on the
 * thread that started them, in the same process). */
static void cnode_bytes(const score_model *m, const score_params *p, int c, int l, uint64_t v,
                        const uint64_t *parent_visits, const int *depth, int max_depth,
                        uint64_t *bytes, uint64_t *creator)
{
    const cube_reader *r = m->r;
    int g = r->cnodes[c].region;
    uint64_t *pb = &bytes[max_depth + 1];
    if (is_measurement_off(m->regions[g].name)) {
        bytes[max_depth + 4] = sat_add(bytes[max_depth + 4], sat_mul(v, 2 * SCORE_EVENT_RECORD));
        return;
    }
    if (is_threads_root(m->regions[g].name, m->regions[g].type)) {
        bytes[max_depth + 3] = sat_add(bytes[max_depth + 3], sat_mul(v, SCORE_EVENT_RECORD));
        *creator = sat_add(*creator, sat_mul(v, 2 * SCORE_EVENT_RECORD));
        return;
    }
    if (is_throttled_cnode(r, c))
        return;
    if (is_param_cnode(r, c)) {
        *pb = sat_add(*pb, sat_mul(v, SCORE_EVENT_RECORD));
        return;
    }
    const score_row *w = &m->regions[g];
    uint64_t metrics = 2 * (uint64_t)p->n_counters * SCORE_EVENT_RECORD +
                       (w->type == SCORE_MEMORY ? memory_records(w->name) * SCORE_EVENT_RECORD
                                                : 0); /* its counter and attributes */
    uint64_t mpi = w->type == SCORE_MPI  ? mpi_records(w->name) * SCORE_MPI_RECORD
                   : w->type == SCORE_IO ? (uint64_t)io_records(w->name) * SCORE_MPI_RECORD
                                         : 0; /* as score_visit_bytes */
    bytes[depth[c]] = sat_add(bytes[depth[c]], sat_mul(v, 2 * SCORE_REGION_RECORD));
    *pb = sat_add(*pb, sat_mul(v, metrics));
    bytes[max_depth + 2] = sat_add(bytes[max_depth + 2], sat_mul(v, mpi));
    if (is_omp_parallel(w->name, w->type))
        bytes[max_depth + 3] =
            sat_add(bytes[max_depth + 3], sat_mul(v, omp_thread_records(parent_visits, l)));
    /* lock records, as score_visit_bytes */
    bytes[max_depth + 3] = sat_add(bytes[max_depth + 3],
                                   sat_mul(v, lock_records(w->name, w->type) * SCORE_EVENT_RECORD));
}

/* max_buf and aggregate of the ALL rows (all / kept by the filter) from the streams of
 * every location: what the run's buffers hold, headers of partly filled pages included.
 * Call path by call path (one visits row at a time), every location's streams summed;
 * then each stream gets its page headers. */
static int stream_totals(score_model *m, scratch *s, const score_params *p)
{
    const cube_reader *r = m->r;
    int max_depth, n_kept = m->has_filter ? 2 : 1;
    int *depth = cnode_depths(r, &max_depth);
    size_t L = (size_t)r->n_locations, W = (size_t)max_depth + 5;
    uint64_t *bytes = calloc((size_t)n_kept * L * W + 1, sizeof *bytes);
    uint64_t *creator = calloc((size_t)n_kept * L + 1, sizeof *creator);
    uint64_t *proc = calloc(4 * (size_t)r->n_locgroups + 1, sizeof *proc);
    uint64_t *visits = s->rows, *parent = s->rows + L;
    int rc = depth && bytes && creator && proc ? 0 : -1;
    for (int c = 0; rc == 0 && c < r->n_cnodes; c++) {
        fetch(s, s->visits, c, CUBE_VIEW_EXCLUSIVE, visits);
        int par = r->cnodes[c].parent;
        int g = r->cnodes[c].region;
        bool omp = is_omp_parallel(m->regions[g].name, m->regions[g].type);
        if (omp && par >= 0)
            fetch(s, s->visits, par, CUBE_VIEW_EXCLUSIVE, parent);
        for (int kept = 0; kept < n_kept; kept++) {
            if (kept && m->regions[g].flt == SCORE_FLT_YES)
                continue;
            for (size_t l = 0; l < L; l++)
                if (visits[l])
                    cnode_bytes(m, p, c, (int)l, visits[l], omp && par >= 0 ? parent : NULL, depth,
                                max_depth, bytes + ((size_t)kept * L + l) * W,
                                &creator[(size_t)kept * L + l]);
        }
    }
    uint64_t *creators = rc == 0 ? proc + 2 * (size_t)r->n_locgroups : NULL; /* per process */
    for (int kept = 0; rc == 0 && kept < n_kept; kept++)
        for (size_t l = 0; l < L; l++) {
            size_t i = (size_t)kept * r->n_locgroups + (size_t)s->proc_of[l];
            uint64_t total = 0;
            for (size_t k = 0; k < W; k++) {
                uint64_t b = bytes[((size_t)kept * L + l) * W + k];
                /* the MPI stream: whole 64-byte records per page */
                total = sat_add(total, k == (size_t)max_depth + 2 ? with_page_headers_of(b, SCORE_MPI_RECORD)
                                                                   : with_page_headers(b));
            }
            proc[i] = sat_add(proc[i], total);
            creators[i] = sat_add(creators[i], creator[(size_t)kept * L + l]);
        }
    for (size_t i = 0; rc == 0 && i < 2 * (size_t)r->n_locgroups; i++)
        proc[i] = sat_add(proc[i], with_page_headers(creators[i]));
    for (int kept = 0; rc == 0 && kept < 2; kept++) {
        score_row *w = kept ? &m->kept[SCORE_ALL] : &m->groups[SCORE_ALL];
        w->max_buf = w->total_buf = 0;
        for (int q = 0; q < r->n_locgroups; q++) {
            uint64_t b = proc[(size_t)kept * r->n_locgroups + q];
            w->max_buf = b > w->max_buf ? b : w->max_buf;
            w->total_buf = sat_add(w->total_buf, b);
        }
    }
    free(depth);
    free(bytes);
    free(creator);
    free(proc);
    return rc;
}

/* Group rows: bytes from the per-process sums, the rest from the region rows. */
static void finish_groups(score_model *m, scratch *s)
{
    const cube_reader *r = m->r;
    for (int kept = 0; kept < 2; kept++) {
        score_row *rows = kept ? m->kept : m->groups;
        for (int t = 0; t < SCORE_N_TYPES; t++) {
            score_row *w = &rows[t];
            w->name = score_type_name((score_type)t);
            w->type = (score_type)t;
            w->flt = !m->has_filter ? SCORE_FLT_NONE
                     : kept         ? type_flt((score_type)t)
                                    : SCORE_FLT_NO;
            for (int p = 0; p < r->n_locgroups; p++) {
                uint64_t b = with_page_headers(*group_slot(s, kept, (score_type)t, p));
                w->max_buf = b > w->max_buf ? b : w->max_buf;
                w->total_buf = sat_add(w->total_buf, b);
            }
        }
    }
    for (int g = 0; g < r->n_regions; g++) {
        const score_row *w = &m->regions[g];
        add_row(&m->groups[SCORE_ALL], w);
        add_row(&m->groups[w->type], w);
        if (!m->has_filter)
            continue;
        bool out = w->flt == SCORE_FLT_YES;
        add_row(&m->kept[out ? SCORE_FLT : SCORE_ALL], w);
        if (!out)
            add_row(&m->kept[w->type], w);
    }
}

static void finish_totals(score_model *m)
{
    const score_row *all = m->has_filter ? &m->kept[SCORE_ALL] : &m->groups[SCORE_ALL];
    m->max_buf = all->max_buf;
    m->total_buf = all->total_buf;
}

static int max_locations_per_process(const cube_reader *r, const int *proc_of)
{
    int *per = calloc((size_t)r->n_locgroups + 1, sizeof(int)), best = 0;
    if (per == NULL || proc_of == NULL) {
        free(per);
        return -1;
    }
    for (int l = 0; l < r->n_locations; l++)
        if (++per[proc_of[l]] > best)
            best = per[proc_of[l]];
    free(per);
    return best;
}

static int fill_regions(score_model *m, scratch *s, const score_params *p, const score_type *types)
{
    const cube_reader *r = m->r;
    int *off = NULL, *items = NULL;
    if (cnodes_by_region(r, &off, &items) != 0) {
        free(off);
        free(items);
        return -1;
    }
    for (int g = 0; g < r->n_regions; g++) {
        score_row *w = &m->regions[g];
        const cube_region *reg = &r->regions[g];
        w->name = reg->name;
        w->mangled = reg->mangled_name && *reg->mangled_name ? reg->mangled_name : reg->name;
        w->file = reg->file ? reg->file : "";
        w->type = types[g];
        bool filtered = region_filtered(p, reg, types[g]);
        w->flt = !m->has_filter ? SCORE_FLT_NONE : filtered ? SCORE_FLT_YES : SCORE_FLT_NO;
        sum_cnodes(s, w, items + off[g], off[g + 1] - off[g],
                   score_visit_bytes(reg->name, types[g], p->n_counters));
        finish_min_max(s, w);
        spread_bytes(s, w, filtered, m->has_filter);
    }
    free(off);
    free(items);
    return 0;
}

static int reader_row(void *ctx, int metric, int cnode, cube_view view, uint64_t *out)
{
    const cube_reader *r = ctx;
    for (int l = 0; l < r->n_locations; l++)
        out[l] = cube_reader_value_bits(r, metric, cnode, l, view);
    return 0;
}

int score_model_compute(score_model *m, const cube_reader *r, const score_params *p, char *err,
                        size_t errlen)
{
    score_source src = {(void *)r, reader_row};
    return score_model_compute_from(m, r, &src, p, err, errlen);
}

int score_model_compute_from(score_model *m, const cube_reader *r, const score_source *src,
                             const score_params *p, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    m->r = r;
    m->n_rows = r->n_regions;
    m->has_filter = p->filter != NULL;
    scratch s = {r,
                 src,
                 NULL,
                 false,
                 cube_reader_metric_by_name(r, "visits"),
                 cube_reader_metric_by_name(r, "time"),
                 NULL,
                 NULL,
                 NULL,
                 NULL,
                 NULL};
    if (s.visits < 0 || s.time < 0) {
        snprintf(err, errlen, "the profile has no '%s' metric", s.visits < 0 ? "visits" : "time");
        return -1;
    }
    bool *outer = calloc((size_t)r->n_cnodes + 1, sizeof(bool));
    score_type *types = calloc((size_t)r->n_regions + 1, sizeof *types);
    m->regions = calloc((size_t)r->n_regions + 1, sizeof(score_row));
    s.outer = outer;
    s.proc_bytes = calloc((size_t)r->n_locgroups + 1, sizeof(uint64_t));
    s.loc_excl = calloc(2 * (size_t)r->n_locations + 1, sizeof(double));
    s.group_proc = calloc(2 * (size_t)SCORE_N_TYPES * r->n_locgroups + 1, sizeof(uint64_t));
    s.rows = calloc(3 * (size_t)r->n_locations + 1, sizeof(uint64_t));
    int *proc_of = process_of_locations(r);
    s.proc_of = proc_of;
    m->max_locations_per_process = max_locations_per_process(r, proc_of);
    int rc = (outer && types && m->regions && s.proc_bytes && s.loc_excl && s.group_proc &&
              s.rows && m->max_locations_per_process >= 0)
                 ? 0
                 : -1;
    if (rc == 0)
        rc = mark_outer_calls(r, outer);
    if (rc == 0)
        rc = classify_regions(r, types);
    if (rc == 0)
        rc = fill_regions(m, &s, p, types);
    if (rc == 0) {
        finish_groups(m, &s);
        rc = stream_totals(m, &s, p);
        finish_totals(m);
    }
    if (rc != 0)
        snprintf(err, errlen, "out of memory");
    else if (s.failed) {
        snprintf(err, errlen, "values could not be read (a process of the engine failed)");
        rc = -1;
    }
    free(s.rows);
    free(outer);
    free(types);
    free(s.proc_bytes);
    free(s.loc_excl);
    free(s.group_proc);
    free(proc_of);
    return rc;
}

void score_model_free(score_model *m)
{
    free(m->regions);
    m->regions = NULL;
}
