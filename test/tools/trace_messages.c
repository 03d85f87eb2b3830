/* SPDX-License-Identifier: BSD-3-Clause */
/* trace_messages.c: test tool that reads a trace with the OTF2 reader API (mapping tables
 * applied) and prints every point-to-point message event and probe in world ranks, or
 * checks (--match) that every send has exactly one receive with the same
 * (communicator, sender, receiver, tag, mpi_message_id) and size. On an InterComm the peer
 * rank of an event is a rank in the group the process is not in (as OTF2 specifies).
 * Output lines (one per event, fields separated by one blank):
 *   SEND|ISEND|RECV|IRECV rank=R time=T comm=C from=S to=D tag=G bytes=B id=I handle=H
 *   PROBE rank=R time=T region=NAME comm=C from=S to=R tag=G bytes=B id=I handle=H
 * Options: --match, --tolerance TICKS (with --match: a receive at most TICKS before its
 * send is not late).
 * --match prints: "sends=N receives=M matched=K unmatched=U mismatched_size=Z probes=P late=L"
 * and exits 1 unless U == Z == 0, N == M == K and N > 0: a trace without any message
 * matches nothing, so callers assert the exact counts (P: successful probes, not matched).
 * (late: receive earlier than its send, on timestamps corrected by the locations' clock
 * offsets as OTF2 readers apply them) */
#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX = 1 << 16 };

typedef struct {
    uint64_t loc_group[MAX]; /* location id (mod MAX) -> location group (= rank) */
    uint64_t *group_members[MAX];
    uint32_t group_size[MAX];
    int group_type[MAX];
    uint32_t comm_group[MAX];
    uint32_t comm_group_b[MAX]; /* InterComm: group B (comm_group is group A) */
    int comm_inter[MAX];
    char *strings[MAX];
    uint32_t region_name[MAX];
    uint32_t attr_id, attr_handle, attr_src, attr_tag, attr_comm, attr_bytes;
    int have_attr[6];
    int match;
    uint64_t tolerance; /* --tolerance TICKS: skew between CPUs' clocks accepted as on time */
    uint64_t locs[MAX];
    size_t nlocs;
    int mpi_locations; /* the MPI COMM_LOCATIONS group, -1 if none */
    /* message list for --match */
    struct msg {
        int recv;
        uint32_t comm, from, to, tag;
        uint64_t bytes, id, time;
    } * msgs;
    size_t n, cap;
    size_t probes; /* --match: Leave events with a probe's attributes */
} state;

static state S;

static OTF2_CallbackCode def_string(void *u, OTF2_StringRef self, const char *s)
{
    (void)u;
    if (self < MAX)
        S.strings[self] = strdup(s);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_location(void *u, OTF2_LocationRef self, OTF2_StringRef name,
                                      OTF2_LocationType t, uint64_t n, OTF2_LocationGroupRef g)
{
    (void)name;
    (void)t;
    (void)n;
    OTF2_Reader_SelectLocation(u, self);
    S.loc_group[self % MAX] = g;
    if (S.nlocs < MAX)
        S.locs[S.nlocs++] = self;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_group(void *u, OTF2_GroupRef self, OTF2_StringRef name,
                                   OTF2_GroupType type, OTF2_Paradigm p, OTF2_GroupFlag f,
                                   uint32_t n, const uint64_t *members)
{
    (void)u;
    (void)name;
    (void)f;
    if (self >= MAX || p != OTF2_PARADIGM_MPI)
        return OTF2_CALLBACK_SUCCESS;
    S.group_members[self] = malloc((n ? n : 1) * sizeof(uint64_t));
    memcpy(S.group_members[self], members, n * sizeof(uint64_t));
    S.group_size[self] = n;
    S.group_type[self] = type;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_comm(void *u, OTF2_CommRef self, OTF2_StringRef name,
                                  OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag f)
{
    (void)u;
    (void)name;
    (void)parent;
    (void)f;
    if (self < MAX)
        S.comm_group[self] = group;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_inter_comm(void *u, OTF2_CommRef self, OTF2_StringRef name,
                                        OTF2_GroupRef a, OTF2_GroupRef b, OTF2_CommRef common,
                                        OTF2_CommFlag f)
{
    (void)u;
    (void)name;
    (void)common;
    (void)f;
    if (self < MAX) {
        S.comm_group[self] = a;
        S.comm_group_b[self] = b;
        S.comm_inter[self] = 1;
    }
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_region(void *u, OTF2_RegionRef self, OTF2_StringRef name,
                                    OTF2_StringRef cn, OTF2_StringRef d, OTF2_RegionRole role,
                                    OTF2_Paradigm p, OTF2_RegionFlag f, OTF2_StringRef file,
                                    uint32_t b, uint32_t e)
{
    (void)u;
    (void)cn;
    (void)d;
    (void)role;
    (void)p;
    (void)f;
    (void)file;
    (void)b;
    (void)e;
    if (self < MAX)
        S.region_name[self] = name;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_attribute(void *u, OTF2_AttributeRef self, OTF2_StringRef name,
                                       OTF2_StringRef d, OTF2_Type t)
{
    (void)u;
    (void)d;
    (void)t;
    static const char *const names[6] = {"mpi_message_id", "mpi_message_handle", "mpi_probe_source",
                                         "mpi_probe_tag",  "mpi_probe_comm",     "mpi_probe_bytes"};
    uint32_t *ids[6] = {&S.attr_id,  &S.attr_handle, &S.attr_src,
                        &S.attr_tag, &S.attr_comm,   &S.attr_bytes};
    for (int i = 0; i < 6; i++)
        if (name < MAX && S.strings[name] && strcmp(S.strings[name], names[i]) == 0) {
            *ids[i] = self;
            S.have_attr[i] = 1;
        }
    return OTF2_CALLBACK_SUCCESS;
}

/* member i of group g -> world rank (UINT32_MAX if there is none) */
static uint32_t world_member(uint32_t g, uint32_t i)
{
    if (g >= MAX || !S.group_members[g] || i >= S.group_size[g])
        return UINT32_MAX;
    uint64_t idx = S.group_members[g][i];
    int k = S.mpi_locations; /* the MPI location group: index -> location -> its rank */
    if (k < 0 || idx >= S.group_size[k])
        return UINT32_MAX;
    return (uint32_t)S.loc_group[S.group_members[k][idx] % MAX];
}

static int in_group(uint32_t g, uint32_t world)
{
    for (uint32_t i = 0; g < MAX && S.group_members[g] && i < S.group_size[g]; i++)
        if (world_member(g, i) == world)
            return 1;
    return 0;
}

/* peer rank of an event of world rank me on comm -> world rank */
static uint32_t world_of(uint32_t comm, uint32_t rank, uint32_t me)
{
    uint32_t g = S.comm_group[comm % MAX];
    if (S.comm_inter[comm % MAX] && in_group(g, me))
        g = S.comm_group_b[comm % MAX];
    return world_member(g, rank);
}

/* Looks an attribute up by walking the list: OTF2's getters complain about absent ids. */
static int attr_find(OTF2_AttributeList *a, int which, uint32_t id, OTF2_AttributeValue *v)
{
    uint32_t n = a && S.have_attr[which] ? OTF2_AttributeList_GetNumberOfElements(a) : 0;
    for (uint32_t i = 0; i < n; i++) {
        OTF2_AttributeRef ref;
        OTF2_Type type;
        if (OTF2_AttributeList_GetAttributeByIndex(a, i, &ref, &type, v) == OTF2_SUCCESS &&
            ref == id)
            return 1;
    }
    return 0;
}

static uint64_t attr_u64(OTF2_AttributeList *a, int which, uint32_t id)
{
    OTF2_AttributeValue v;
    return attr_find(a, which, id, &v) ? v.uint64 : 0;
}

static void message(const char *kind, int recv, OTF2_LocationRef loc, uint64_t t,
                    OTF2_AttributeList *a, uint32_t peer, uint32_t comm, uint32_t tag,
                    uint64_t bytes)
{
    uint32_t me = (uint32_t)S.loc_group[loc % MAX], other = world_of(comm, peer, me);
    uint32_t from = recv ? other : me, to = recv ? me : other;
    uint64_t id = attr_u64(a, 0, S.attr_id), handle = attr_u64(a, 1, S.attr_handle);
    if (!S.match) {
        printf("%s rank=%u time=%llu comm=%u from=%u to=%u tag=%u bytes=%llu id=%llu "
               "handle=%llu\n",
               kind, me, (unsigned long long)t, comm, from, to, tag, (unsigned long long)bytes,
               (unsigned long long)id, (unsigned long long)handle);
        return;
    }
    if (S.n == S.cap) {
        S.cap = S.cap ? 2 * S.cap : 1024;
        S.msgs = realloc(S.msgs, S.cap * sizeof *S.msgs);
    }
    S.msgs[S.n++] = (struct msg){recv, comm, from, to, tag, bytes, id, t};
}

static OTF2_CallbackCode ev_send(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                 OTF2_AttributeList *a, uint32_t peer, OTF2_CommRef c, uint32_t tag,
                                 uint64_t len)
{
    (void)u;
    message("SEND", 0, l, t, a, peer, c, tag, len);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_isend(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                  OTF2_AttributeList *a, uint32_t peer, OTF2_CommRef c,
                                  uint32_t tag, uint64_t len, uint64_t req)
{
    (void)u;
    (void)req;
    message("ISEND", 0, l, t, a, peer, c, tag, len);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_recv(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                 OTF2_AttributeList *a, uint32_t peer, OTF2_CommRef c, uint32_t tag,
                                 uint64_t len)
{
    (void)u;
    message("RECV", 1, l, t, a, peer, c, tag, len);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_irecv(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                  OTF2_AttributeList *a, uint32_t peer, OTF2_CommRef c,
                                  uint32_t tag, uint64_t len, uint64_t req)
{
    (void)u;
    (void)req;
    message("IRECV", 1, l, t, a, peer, c, tag, len);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_leave(OTF2_LocationRef l, OTF2_TimeStamp t, void *u,
                                  OTF2_AttributeList *a, OTF2_RegionRef region)
{
    (void)u;
    OTF2_AttributeValue v;
    if (!attr_find(a, 2, S.attr_src, &v))
        return OTF2_CALLBACK_SUCCESS;
    if (S.match) {
        S.probes++;
        return OTF2_CALLBACK_SUCCESS;
    }
    uint32_t src = v.uint32, tag = attr_find(a, 3, S.attr_tag, &v) ? v.uint32 : 0;
    OTF2_CommRef comm = attr_find(a, 4, S.attr_comm, &v) ? v.commRef : 0;
    uint32_t me = (uint32_t)S.loc_group[l % MAX];
    const char *name = region < MAX ? S.strings[S.region_name[region]] : "?";
    printf("PROBE rank=%u time=%llu region=%s comm=%u from=%u to=%u tag=%u bytes=%llu id=%llu "
           "handle=%llu\n",
           me, (unsigned long long)t, name, comm, world_of(comm, src, me), me, tag,
           (unsigned long long)attr_u64(a, 5, S.attr_bytes),
           (unsigned long long)attr_u64(a, 0, S.attr_id),
           (unsigned long long)attr_u64(a, 1, S.attr_handle));
    return OTF2_CALLBACK_SUCCESS;
}

/* Orders messages by (comm, sender, receiver, tag, id), sends before receives, then time. */
static int msg_cmp(const void *pa, const void *pb)
{
    const struct msg *x = pa, *y = pb;
#define CMP(f)                                                                                     \
    if (x->f != y->f)                                                                              \
        return x->f < y->f ? -1 : 1;
    CMP(comm)
    CMP(from)
    CMP(to) CMP(tag) CMP(id) CMP(recv) CMP(time)
#undef CMP
        return 0;
}

static int same_key(const struct msg *x, const struct msg *y)
{
    return x->comm == y->comm && x->from == y->from && x->to == y->to && x->tag == y->tag &&
           x->id == y->id;
}

/* Sorted by key, each group of equal keys pairs its k-th send with its k-th receive
 * (O(n log n): traces with millions of messages are checked in seconds). */
static int check_matching(void)
{
    size_t sends = 0, recvs = 0, matched = 0, unmatched = 0, size = 0, late = 0;
    qsort(S.msgs, S.n, sizeof *S.msgs, msg_cmp);
    for (size_t g = 0; g < S.n;) {
        size_t e = g, ns = 0;
        while (e < S.n && same_key(&S.msgs[g], &S.msgs[e]))
            ns += !S.msgs[e++].recv;
        size_t nr = (e - g) - ns, pairs = ns < nr ? ns : nr;
        for (size_t k = 0; k < pairs; k++) {
            const struct msg *snd = &S.msgs[g + k], *rcv = &S.msgs[g + ns + k];
            size += rcv->bytes != snd->bytes;
            late += rcv->time + S.tolerance < snd->time;
        }
        sends += ns;
        recvs += nr;
        matched += pairs;
        unmatched += (ns - pairs) + (nr - pairs);
        g = e;
    }
    printf("sends=%zu receives=%zu matched=%zu unmatched=%zu mismatched_size=%zu probes=%zu "
           "late=%zu\n",
           sends, recvs, matched, unmatched, size, S.probes, late);
    if (sends == 0)
        fprintf(stderr, "trace_messages: the trace holds no message\n");
    return sends > 0 && unmatched == 0 && size == 0 && sends == recvs && matched == sends ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: trace_messages [--match] traces.otf2\n");
        return 2;
    }
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--match") == 0)
            S.match = 1;
        else if (strcmp(argv[i], "--tolerance") == 0 && i + 2 < argc)
            S.tolerance = strtoull(argv[++i], NULL, 10);
    }
    OTF2_Reader *r = OTF2_Reader_Open(argv[argc - 1]);
    if (!r)
        return 2;
    OTF2_Reader_SetSerialCollectiveCallbacks(r);
    OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(r);
    OTF2_GlobalDefReaderCallbacks *dc = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(dc, def_string);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(dc, def_location);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(dc, def_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(dc, def_comm);
    OTF2_GlobalDefReaderCallbacks_SetInterCommCallback(dc, def_inter_comm);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(dc, def_region);
    OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(dc, def_attribute);
    OTF2_Reader_RegisterGlobalDefCallbacks(r, gdr, dc, r);
    uint64_t n;
    OTF2_Reader_ReadAllGlobalDefinitions(r, gdr, &n);
    OTF2_GlobalDefReaderCallbacks_Delete(dc);
    OTF2_Reader_CloseGlobalDefReader(r, gdr);
    S.mpi_locations = -1;
    for (int k = 0; k < MAX; k++)
        if (S.group_type[k] == OTF2_GROUP_TYPE_COMM_LOCATIONS && S.group_members[k])
            S.mpi_locations = k;
    OTF2_Reader_OpenDefFiles(r);
    OTF2_Reader_OpenEvtFiles(r);
    OTF2_DefReaderCallbacks *lc = OTF2_DefReaderCallbacks_New();
    for (size_t i = 0; i < S.nlocs; i++) { /* local definitions: mapping tables, offsets */
        /* the event reader applies the clock offsets it reads here to every timestamp */
        OTF2_DefReader *d = OTF2_Reader_GetDefReader(r, S.locs[i]);
        if (d) {
            OTF2_Reader_RegisterDefCallbacks(r, d, lc, &S.locs[i]);
            OTF2_Reader_ReadAllLocalDefinitions(r, d, &n);
            OTF2_Reader_CloseDefReader(r, d);
        }
        OTF2_Reader_GetEvtReader(r, S.locs[i]);
    }
    OTF2_DefReaderCallbacks_Delete(lc);
    OTF2_Reader_CloseDefFiles(r);
    OTF2_GlobalEvtReaderCallbacks *ec = OTF2_GlobalEvtReaderCallbacks_New();
    OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(ec, ev_send);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(ec, ev_isend);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(ec, ev_recv);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(ec, ev_irecv);
    OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(ec, ev_leave);
    OTF2_GlobalEvtReader *ger = OTF2_Reader_GetGlobalEvtReader(r);
    OTF2_Reader_RegisterGlobalEvtCallbacks(r, ger, ec, NULL);
    OTF2_ErrorCode rc = OTF2_Reader_ReadAllGlobalEvents(r, ger, &n);
    OTF2_GlobalEvtReaderCallbacks_Delete(ec);
    OTF2_Reader_CloseGlobalEvtReader(r, ger);
    OTF2_Reader_CloseEvtFiles(r);
    OTF2_Reader_Close(r);
    if (rc != OTF2_SUCCESS) {
        fprintf(stderr, "trace_messages: reading the events failed: %s\n",
                OTF2_Error_GetDescription(rc));
        return 2;
    }
    return S.match ? check_matching() : 0;
}
