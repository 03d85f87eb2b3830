/* SPDX-License-Identifier: BSD-3-Clause */
/* substrate_ids.c: a substrate plugin (Score-P's public headers only) that reports the ids the
 * runtime gives it for each CPU location, so that test_substrate_ids.sh can hold them against
 * the trace's location ids: SCOREP_Location_GetGlobalId at the location's first enter after
 * init_mpp (Score-P: valid only from then on) and again when the location is deleted or at
 * write_data, whichever comes first; SCOREP_Location_GetId; and the location's number of
 * enters (each location counts its own: one thread per location, no lock on the event path).
 * At write_data, $SUBSTRATE_IDS_OUT.<rank> gets one line per location, in creation order:
 * "GLOBAL_AT_ENTER GLOBAL_LATE LOCAL_ID ENTERS NAME" (GLOBAL_AT_ENTER "-" when the location
 * entered nothing after init_mpp), then "rank R size S slots N". */
#include <scorep/SCOREP_SubstratePlugins.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_LOCS = 256 };

typedef struct {
    const struct SCOREP_Location *loc;
    unsigned long enters;
    unsigned long long at_enter, late;
    int have_enter, have_late, cpu;
    char name[64];
    unsigned local;
} slot;

static const SCOREP_SubstratePluginCallbacks *cb;
static size_t my_id;
static slot slots[MAX_LOCS];
static unsigned n_slots, overflow;
static int mpp_done;

static void set_callbacks(const SCOREP_SubstratePluginCallbacks *c, size_t size)
{
    if (size >= sizeof *c)
        cb = c;
}

static void assign_id(size_t id)
{
    my_id = id;
}

static void init_mpp(void)
{
    __atomic_store_n(&mpp_done, 1, __ATOMIC_RELEASE);
}

/* a slot per location, its index + 1 kept as the location's data for this plugin */
static void create_location(const struct SCOREP_Location *l, const struct SCOREP_Location *parent)
{
    (void)parent;
    unsigned k = __atomic_fetch_add(&n_slots, 1, __ATOMIC_RELAXED);
    if (k >= MAX_LOCS) {
        __atomic_fetch_add(&overflow, 1, __ATOMIC_RELAXED);
        return;
    }
    slots[k].loc = l;
    slots[k].cpu = cb->SCOREP_Location_GetType(l) == SCOREP_LOCATION_TYPE_CPU_THREAD;
    cb->SCOREP_Location_SetData(l, my_id, (void *)(uintptr_t)(k + 1));
}

static slot *slot_of(const struct SCOREP_Location *l)
{
    uintptr_t k = (uintptr_t)cb->SCOREP_Location_GetData(l, my_id);
    return k && k <= MAX_LOCS && slots[k - 1].loc == l ? &slots[k - 1] : NULL;
}

/* the late look-up: the id, number and name while the location still exists */
static void take_late(slot *s)
{
    if (!s || s->have_late)
        return;
    s->late = cb->SCOREP_Location_GetGlobalId(s->loc);
    s->local = cb->SCOREP_Location_GetId(s->loc);
    snprintf(s->name, sizeof s->name, "%s", cb->SCOREP_Location_GetName(s->loc));
    s->have_late = 1;
}

static void enter(struct SCOREP_Location *l, uint64_t t, SCOREP_RegionHandle r, uint64_t *m)
{
    (void)t, (void)r, (void)m;
    slot *s = slot_of(l);
    if (!s)
        return;
    s->enters++;
    if (!s->have_enter && __atomic_load_n(&mpp_done, __ATOMIC_ACQUIRE)) {
        s->at_enter = cb->SCOREP_Location_GetGlobalId(l);
        s->have_enter = 1;
    }
}

static void delete_location(const struct SCOREP_Location *l)
{
    take_late(slot_of(l));
}

static void write_data(void)
{
    const char *out = getenv("SUBSTRATE_IDS_OUT");
    if (!out || !cb)
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s.%d", out, cb->SCOREP_Ipc_GetRank());
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    unsigned n = n_slots < MAX_LOCS ? n_slots : MAX_LOCS;
    for (unsigned k = 0; k < n; k++) {
        slot *s = &slots[k];
        if (!s->cpu)
            continue;
        take_late(s);
        if (s->have_enter)
            fprintf(f, "%llu ", s->at_enter);
        else
            fprintf(f, "- ");
        fprintf(f, "%llu %u %lu %s\n", s->late, s->local, s->enters, s->name);
    }
    fprintf(f, "rank %d size %d slots %u overflow %u\n", cb->SCOREP_Ipc_GetRank(),
            cb->SCOREP_Ipc_GetSize(), n, overflow);
    fclose(f);
}

static SCOREP_Substrates_Callback enabled[SCOREP_SUBSTRATES_NUM_EVENTS];

static uint32_t get_event_functions(SCOREP_Substrates_Mode mode, SCOREP_Substrates_Callback **fn)
{
    static SCOREP_Substrates_Callback none[SCOREP_SUBSTRATES_NUM_EVENTS];
    enabled[SCOREP_EVENT_ENTER_REGION] = (SCOREP_Substrates_Callback)enter;
    *fn = mode == SCOREP_SUBSTRATES_RECORDING_ENABLED ? enabled : none;
    return SCOREP_SUBSTRATES_NUM_EVENTS;
}

SCOREP_SUBSTRATE_PLUGIN_ENTRY(ids)
{
    SCOREP_SubstratePluginInfo info;
    memset(&info, 0, sizeof info);
    info.plugin_version = SCOREP_SUBSTRATE_PLUGIN_VERSION;
    info.assign_id = assign_id;
    info.init_mpp = init_mpp;
    info.create_location = create_location;
    info.delete_location = delete_location;
    info.write_data = write_data;
    info.get_event_functions = get_event_functions;
    info.set_callbacks = set_callbacks;
    return info;
}
