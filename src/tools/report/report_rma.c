/* report_rma.c: the report's matrices of one-sided puts and gets (OpenSHMEM, MPI windows)
 * per (origin, target) rank. trace_model does not keep RMA events, so this is a second,
 * small pass over the trace: RmaWin, Comm and Group definitions map a put's or get's remote
 * (a rank in the window's communicator) to a world rank; only RmaPut and RmaGet are read
 * (atomics are not counted). */
#include "report.h"
#include "tools/trace_model.h"

#include <otf2/otf2.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { N_PARADIGMS = 64 };

typedef struct {
    uint64_t *members;
    uint32_t n;
    int type, paradigm;
} rma_group;

typedef struct {
    const tm_trace *t;
    rma_group *groups;
    size_t n_groups;
    uint32_t *comm_group, *win_comm; /* by reference; TM_NONE where undefined */
    size_t n_comms, n_wins;
    int64_t locations_group[N_PARADIGMS];    /* the COMM_LOCATIONS group per paradigm, or -1 */
    uint64_t *n_put, *b_put, *n_get, *b_get; /* [origin * n_ranks + target] */
    uint64_t puts, gets;
    bool oom;
} rma;

/* Grows a table of references to hold index i; new entries are TM_NONE. */
static bool ensure_ref(uint32_t **v, size_t *n, uint64_t i)
{
    if (i < *n)
        return true;
    size_t cap = (size_t)i + 64;
    uint32_t *p = realloc(*v, cap * sizeof *p);
    if (p == NULL)
        return false;
    for (size_t k = *n; k < cap; k++)
        p[k] = TM_NONE;
    *v = p;
    *n = cap;
    return true;
}

static OTF2_CallbackCode def_group(void *u, OTF2_GroupRef self, OTF2_StringRef name,
                                   OTF2_GroupType type, OTF2_Paradigm p, OTF2_GroupFlag f,
                                   uint32_t n, const uint64_t *members)
{
    (void)name;
    (void)f;
    rma *c = u;
    if (self >= c->n_groups) {
        size_t cap = (size_t)self + 64;
        rma_group *g = realloc(c->groups, cap * sizeof *g);
        if (g == NULL)
            return c->oom = true, OTF2_CALLBACK_INTERRUPT;
        memset(g + c->n_groups, 0, (cap - c->n_groups) * sizeof *g);
        c->groups = g;
        c->n_groups = cap;
    }
    rma_group *g = &c->groups[self];
    free(g->members);
    g->members = malloc((n ? n : 1) * sizeof *members);
    if (g->members == NULL)
        return c->oom = true, OTF2_CALLBACK_INTERRUPT;
    memcpy(g->members, members, n * sizeof *members);
    g->n = n;
    g->type = type;
    g->paradigm = p;
    if (type == OTF2_GROUP_TYPE_COMM_LOCATIONS && p < N_PARADIGMS)
        c->locations_group[p] = self;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_comm(void *u, OTF2_CommRef self, OTF2_StringRef name,
                                  OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag f)
{
    (void)name;
    (void)parent;
    (void)f;
    rma *c = u;
    if (!ensure_ref(&c->comm_group, &c->n_comms, self))
        return c->oom = true, OTF2_CALLBACK_INTERRUPT;
    c->comm_group[self] = group;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_win(void *u, OTF2_RmaWinRef self, OTF2_StringRef name,
                                 OTF2_CommRef comm, OTF2_RmaWinFlag f)
{
    (void)name;
    (void)f;
    rma *c = u;
    if (!ensure_ref(&c->win_comm, &c->n_wins, self))
        return c->oom = true, OTF2_CALLBACK_INTERRUPT;
    c->win_comm[self] = comm;
    return OTF2_CALLBACK_SUCCESS;
}

/* World rank of a location reference (TM_NONE if unknown). */
static uint32_t rank_of(const rma *c, uint64_t location)
{
    uint32_t i = tm_location_index(c->t, location);
    return i == TM_NONE ? TM_NONE : c->t->locations[i].rank;
}

/* The world rank of REMOTE, a rank in window WIN's communicator: its group's member is an
 * index into the COMM_LOCATIONS group of the group's paradigm. */
static uint32_t target_rank(const rma *c, uint32_t win, uint32_t remote)
{
    uint32_t comm = win < c->n_wins ? c->win_comm[win] : TM_NONE;
    uint32_t g = comm < c->n_comms ? c->comm_group[comm] : TM_NONE;
    if (g >= c->n_groups || remote >= c->groups[g].n)
        return TM_NONE;
    const rma_group *grp = &c->groups[g];
    int64_t lg = grp->paradigm < N_PARADIGMS ? c->locations_group[grp->paradigm] : -1;
    uint64_t idx = grp->members[remote];
    if (lg < 0 || idx >= c->groups[lg].n)
        return TM_NONE;
    return rank_of(c, c->groups[lg].members[idx]);
}

static void count(rma *c, OTF2_LocationRef loc, uint32_t win, uint32_t remote, uint64_t bytes,
                  uint64_t *n, uint64_t *b)
{
    uint32_t from = rank_of(c, loc), to = target_rank(c, win, remote), nr = c->t->n_ranks;
    if (from >= nr || to >= nr)
        return;
    n[(size_t)from * nr + to]++;
    b[(size_t)from * nr + to] += bytes;
}

static OTF2_CallbackCode ev_put(OTF2_LocationRef loc, OTF2_TimeStamp time, void *u,
                                OTF2_AttributeList *a, OTF2_RmaWinRef win, uint32_t remote,
                                uint64_t bytes, uint64_t matching)
{
    (void)time;
    (void)a;
    (void)matching;
    rma *c = u;
    c->puts++;
    count(c, loc, win, remote, bytes, c->n_put, c->b_put);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_get(OTF2_LocationRef loc, OTF2_TimeStamp time, void *u,
                                OTF2_AttributeList *a, OTF2_RmaWinRef win, uint32_t remote,
                                uint64_t bytes, uint64_t matching)
{
    (void)time;
    (void)a;
    (void)matching;
    rma *c = u;
    c->gets++;
    count(c, loc, win, remote, bytes, c->n_get, c->b_get);
    return OTF2_CALLBACK_SUCCESS;
}

static int read_defs(OTF2_Reader *r, rma *c)
{
    OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(r);
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    if (gdr == NULL || cb == NULL) {
        OTF2_GlobalDefReaderCallbacks_Delete(cb);
        return -1;
    }
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, def_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, def_comm);
    OTF2_GlobalDefReaderCallbacks_SetRmaWinCallback(cb, def_win);
    OTF2_Reader_RegisterGlobalDefCallbacks(r, gdr, cb, c);
    uint64_t n;
    OTF2_ErrorCode rc = OTF2_Reader_ReadAllGlobalDefinitions(r, gdr, &n);
    OTF2_GlobalDefReaderCallbacks_Delete(cb);
    OTF2_Reader_CloseGlobalDefReader(r, gdr);
    return rc == OTF2_SUCCESS && !c->oom ? 0 : -1;
}

static int read_events(OTF2_Reader *r, rma *c)
{
    for (size_t i = 0; i < c->t->n_locations; i++)
        OTF2_Reader_SelectLocation(r, c->t->locations[i].id);
    if (OTF2_Reader_OpenEvtFiles(r) != OTF2_SUCCESS)
        return -1;
    for (size_t i = 0; i < c->t->n_locations; i++)
        if (OTF2_Reader_GetEvtReader(r, c->t->locations[i].id) == NULL)
            return -1;
    OTF2_GlobalEvtReader *ger = OTF2_Reader_GetGlobalEvtReader(r);
    OTF2_GlobalEvtReaderCallbacks *cb = OTF2_GlobalEvtReaderCallbacks_New();
    if (ger == NULL || cb == NULL) {
        OTF2_GlobalEvtReaderCallbacks_Delete(cb);
        return -1;
    }
    OTF2_GlobalEvtReaderCallbacks_SetRmaPutCallback(cb, ev_put);
    OTF2_GlobalEvtReaderCallbacks_SetRmaGetCallback(cb, ev_get);
    OTF2_Reader_RegisterGlobalEvtCallbacks(r, ger, cb, c);
    uint64_t n;
    OTF2_ErrorCode rc = OTF2_Reader_ReadAllGlobalEvents(r, ger, &n);
    OTF2_GlobalEvtReaderCallbacks_Delete(cb);
    OTF2_Reader_CloseGlobalEvtReader(r, ger);
    OTF2_Reader_CloseEvtFiles(r);
    return rc == OTF2_SUCCESS ? 0 : -1;
}

/* Keeps OTF2's messages off stderr: tm_load has already read this trace without error. */
static OTF2_ErrorCode quiet(void *u, const char *file, uint64_t line, const char *func,
                            OTF2_ErrorCode code, const char *fmt, va_list va)
{
    (void)u;
    (void)file;
    (void)line;
    (void)func;
    (void)fmt;
    (void)va;
    return code;
}

static int read_rma(const char *path, rma *c)
{
    OTF2_ErrorCallback old = OTF2_Error_RegisterCallback(quiet, NULL);
    OTF2_Reader *r = OTF2_Reader_Open(path);
    int rc = r && OTF2_Reader_SetSerialCollectiveCallbacks(r) == OTF2_SUCCESS ? 0 : -1;
    if (rc == 0)
        rc = read_defs(r, c);
    /* no window: no put or get can be in the trace, skip reading the events again */
    if (rc == 0 && c->n_wins > 0)
        rc = read_events(r, c);
    if (r)
        OTF2_Reader_Close(r);
    OTF2_Error_RegisterCallback(old, NULL);
    return rc;
}

static void write_pair(FILE *out, const char *key, const uint64_t *n, const uint64_t *b,
                       uint32_t nr)
{
    fprintf(out, ",\"%s\":{\"messages\":[", key);
    for (uint32_t i = 0; i < nr; i++) {
        fputs(i ? ",[" : "[", out);
        for (uint32_t j = 0; j < nr; j++)
            fprintf(out, "%s%llu", j ? "," : "", (unsigned long long)n[(size_t)i * nr + j]);
        fputc(']', out);
    }
    fputs("],\"bytes\":[", out);
    for (uint32_t i = 0; i < nr; i++) {
        fputs(i ? ",[" : "[", out);
        for (uint32_t j = 0; j < nr; j++)
            fprintf(out, "%s%llu", j ? "," : "", (unsigned long long)b[(size_t)i * nr + j]);
        fputc(']', out);
    }
    fputs("]}", out);
}

int report_write_rma(FILE *out, const char *path, const tm_trace *t, uint32_t max_ranks, char *err,
                     size_t errlen)
{
    rma c = {.t = t};
    size_t cells = (size_t)t->n_ranks * t->n_ranks + 1;
    for (int p = 0; p < N_PARADIGMS; p++)
        c.locations_group[p] = -1;
    c.n_put = calloc(cells, sizeof *c.n_put);
    c.b_put = calloc(cells, sizeof *c.b_put);
    c.n_get = calloc(cells, sizeof *c.n_get);
    c.b_get = calloc(cells, sizeof *c.b_get);
    int rc = c.n_put && c.b_put && c.n_get && c.b_get ? read_rma(path, &c) : -1;
    if (rc != 0)
        snprintf(err, errlen, "cannot read the one-sided operations of the trace %s", path);
    else if (c.puts + c.gets > 0) {
        json_key(out, "rma", false);
        fprintf(out, "{\"ranks\":%u,\"puts_total\":%llu,\"gets_total\":%llu", t->n_ranks,
                (unsigned long long)c.puts, (unsigned long long)c.gets);
        if (t->n_ranks <= max_ranks) {
            write_pair(out, "puts", c.n_put, c.b_put, t->n_ranks);
            write_pair(out, "gets", c.n_get, c.b_get, t->n_ranks);
        }
        fputc('}', out);
    }
    for (size_t g = 0; g < c.n_groups; g++)
        free(c.groups[g].members);
    free(c.groups);
    free(c.comm_group);
    free(c.win_comm);
    free(c.n_put);
    free(c.b_put);
    free(c.n_get);
    free(c.b_get);
    return rc;
}
