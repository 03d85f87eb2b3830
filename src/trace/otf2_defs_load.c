/* SPDX-License-Identifier: BSD-3-Clause */
/* otf2_defs_load.c: OTF2's global definition callbacks, registered once, filling the model of
 * otf2_defs_load.h; and the opening of chosen locations' local definitions and event files. */
#include "trace/otf2_defs_load.h"
#include "base/grow.h"
#include "trace/otf2_read_guard.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- the callbacks: each stores its record, or stops the reading with d->error set ---- */

static OTF2_CallbackCode stop(otf2_defs *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->error, sizeof d->error, fmt, ap);
    va_end(ap);
    return OTF2_CALLBACK_INTERRUPT;
}

/* Makes (*arr)[ref] exist in a table by reference (new entries zeroed). OTF2's writers (ours,
 * Score-P's) number each kind's definitions densely from 0, and a definition takes more than
 * one byte of the file, so a reference beyond the file's size is corrupt: refused before it
 * could make a huge table. */
static int fit(otf2_defs *d, void **arr, size_t *n, uint64_t ref, size_t size, const char *kind)
{
    if (ref > d->max_ref) {
        stop(d,
             "the %s reference %" PRIu64 " is beyond any in a definition file of this size "
             "(corrupt definitions)",
             kind, ref);
        return -1;
    }
    if (scorep_grow(arr, n, (size_t)ref + 1, size)) {
        stop(d, "out of memory reading the definitions");
        return -1;
    }
    return 0;
}

#define FIT(d, arr, n, ref, kind)                                                                  \
    do {                                                                                           \
        if (fit((d), (void **)&(arr), &(n), (ref), sizeof *(arr), (kind)))                         \
            return OTF2_CALLBACK_INTERRUPT;                                                        \
    } while (0)

static OTF2_CallbackCode def_string(void *u, OTF2_StringRef self, const char *s)
{
    otf2_defs *d = u;
    FIT(d, d->strings, d->n_strings, self, "string");
    free(d->strings[self]);
    if (!(d->strings[self] = strdup(s)))
        return stop(d, "out of memory reading the definitions");
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_clock(void *u, uint64_t res, uint64_t offset, uint64_t length,
                                   uint64_t realtime)
{
    otf2_defs *d = u;
    d->clock = (otf2_defs_clock){res, offset, length, realtime};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_stnode(void *u, OTF2_SystemTreeNodeRef self, OTF2_StringRef name,
                                    OTF2_StringRef cls, OTF2_SystemTreeNodeRef parent)
{
    otf2_defs *d = u;
    FIT(d, d->nodes, d->n_nodes, self, "system tree node");
    d->nodes[self] = (otf2_defs_stnode){name, cls, parent, 1};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_lgroup(void *u, OTF2_LocationGroupRef self, OTF2_StringRef name,
                                    OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef parent,
                                    OTF2_LocationGroupRef creator)
{
    otf2_defs *d = u;
    if (scorep_grow((void **)&d->lgroups, &d->cap_lgroups, d->n_lgroups + 1, sizeof *d->lgroups))
        return stop(d, "out of memory reading the definitions");
    d->lgroups[d->n_lgroups++] = (otf2_defs_lgroup){self, name, type, parent, creator};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_location(void *u, OTF2_LocationRef self, OTF2_StringRef name,
                                      OTF2_LocationType type, uint64_t n, OTF2_LocationGroupRef g)
{
    otf2_defs *d = u;
    if (scorep_grow((void **)&d->locations, &d->cap_locations, d->n_locations + 1,
                    sizeof *d->locations))
        return stop(d, "out of memory reading the definitions");
    d->locations[d->n_locations++] = (otf2_defs_location){self, name, type, n, g};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_region(void *u, OTF2_RegionRef self, OTF2_StringRef name,
                                    OTF2_StringRef canonical, OTF2_StringRef descr,
                                    OTF2_RegionRole role, OTF2_Paradigm p, OTF2_RegionFlag f,
                                    OTF2_StringRef file, uint32_t b, uint32_t e)
{
    otf2_defs *d = u;
    FIT(d, d->regions, d->n_regions, self, "region");
    d->regions[self] = (otf2_defs_region){name, canonical, descr, file, role, p, (int)f, b, e, 1};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_group(void *u, OTF2_GroupRef self, OTF2_StringRef name,
                                   OTF2_GroupType type, OTF2_Paradigm p, OTF2_GroupFlag f,
                                   uint32_t n, const uint64_t *members)
{
    otf2_defs *d = u;
    FIT(d, d->groups, d->n_groups, self, "group");
    otf2_defs_group *g = &d->groups[self];
    uint64_t *m = malloc((n ? n : 1) * sizeof *m);
    if (!m)
        return stop(d, "out of memory reading the definitions");
    if (n)
        memcpy(m, members, n * sizeof *m);
    free(g->members);
    *g = (otf2_defs_group){m, n, name, type, p, (int)f, 1};
    if (type == OTF2_GROUP_TYPE_COMM_LOCATIONS)
        d->comm_locations[p] = self;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_comm(void *u, OTF2_CommRef self, OTF2_StringRef name,
                                  OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag f)
{
    (void)f;
    otf2_defs *d = u;
    FIT(d, d->comms, d->n_comms, self, "communicator");
    d->comms[self] = (otf2_defs_comm){name, group, parent, OTF2_DEFS_NONE, 0, 1};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_inter(void *u, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef a,
                                   OTF2_GroupRef b, OTF2_CommRef common, OTF2_CommFlag f)
{
    (void)f;
    otf2_defs *d = u;
    FIT(d, d->comms, d->n_comms, self, "communicator");
    d->comms[self] = (otf2_defs_comm){name, a, common, b, 1, 1};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_win(void *u, OTF2_RmaWinRef self, OTF2_StringRef name, OTF2_CommRef cm,
                                 OTF2_RmaWinFlag f)
{
    (void)f;
    otf2_defs *d = u;
    FIT(d, d->rma_wins, d->n_rma_wins, self, "RMA window");
    d->rma_wins[self] = (otf2_defs_rma_win){name, cm, 1};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_member(void *u, OTF2_MetricMemberRef self, OTF2_StringRef name,
                                    OTF2_StringRef desc, OTF2_MetricType type, OTF2_MetricMode mode,
                                    OTF2_Type vt, OTF2_Base base, int64_t exponent,
                                    OTF2_StringRef unit)
{
    otf2_defs *d = u;
    FIT(d, d->metric_members, d->n_metric_members, self, "metric member");
    d->metric_members[self] =
        (otf2_defs_metric_member){name, desc, unit, type, mode, vt, base, exponent, 1};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_class(void *u, OTF2_MetricRef self, uint8_t n,
                                   const OTF2_MetricMemberRef *members, OTF2_MetricOccurrence o,
                                   OTF2_RecorderKind k)
{
    (void)o;
    (void)k;
    otf2_defs *d = u;
    FIT(d, d->metric_classes, d->n_metric_classes, self, "metric");
    uint32_t *m = malloc((n ? n : 1) * sizeof *m);
    if (!m)
        return stop(d, "out of memory reading the definitions");
    for (uint8_t i = 0; i < n; i++)
        m[i] = members[i];
    free(d->metric_classes[self].members);
    d->metric_classes[self] = (otf2_defs_metric_class){m, n, 1};
    return OTF2_CALLBACK_SUCCESS;
}

/* A MetricInstance (Score-P's per-process and asynchronous metrics: a class with a recorder
 * and a scope) shares the classes' references; records name it: it reads as its class. */
static OTF2_CallbackCode def_instance(void *u, OTF2_MetricRef self, OTF2_MetricRef metric_class,
                                      OTF2_LocationRef recorder, OTF2_MetricScope scope_type,
                                      uint64_t scope)
{
    (void)recorder;
    (void)scope_type;
    (void)scope;
    otf2_defs *d = u;
    if (metric_class >= d->n_metric_classes || !d->metric_classes[metric_class].defined)
        return stop(d, "a metric instance names an undefined metric class");
    const otf2_defs_metric_class c = d->metric_classes[metric_class];
    return def_class(u, self, (uint8_t)c.n, c.members, OTF2_METRIC_SYNCHRONOUS,
                     OTF2_RECORDER_KIND_ABSTRACT);
}

static OTF2_CallbackCode def_cc(void *u, OTF2_CallingContextRef self, OTF2_RegionRef region,
                                OTF2_SourceCodeLocationRef scl, OTF2_CallingContextRef parent)
{
    (void)scl;
    otf2_defs *d = u;
    FIT(d, d->calling_contexts, d->n_calling_contexts, self, "calling context");
    d->calling_contexts[self] = (otf2_defs_calling_context){region, parent, 1};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_attr(void *u, OTF2_AttributeRef self, OTF2_StringRef name,
                                  OTF2_StringRef descr, OTF2_Type type)
{
    otf2_defs *d = u;
    FIT(d, d->attributes, d->n_attributes, self, "attribute");
    d->attributes[self] = (otf2_defs_named){name, descr, type, 1};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_param(void *u, OTF2_ParameterRef self, OTF2_StringRef name,
                                   OTF2_ParameterType type)
{
    otf2_defs *d = u;
    FIT(d, d->parameters, d->n_parameters, self, "parameter");
    d->parameters[self] = (otf2_defs_named){name, OTF2_UNDEFINED_STRING, type, 1};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_io_paradigm(void *u, OTF2_IoParadigmRef self, OTF2_StringRef ident,
                                         OTF2_StringRef name, OTF2_IoParadigmClass klass,
                                         OTF2_IoParadigmFlag flags, uint8_t n,
                                         const OTF2_IoParadigmProperty *p, const OTF2_Type *t,
                                         const OTF2_AttributeValue *v)
{
    (void)klass, (void)flags, (void)n, (void)p, (void)t, (void)v;
    otf2_defs *d = u;
    FIT(d, d->io_paradigms, d->n_io_paradigms, self, "I/O paradigm");
    d->io_paradigms[self] = (otf2_defs_io_paradigm){ident, name, 1};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_io_file(void *u, OTF2_IoFileRef self, OTF2_StringRef name,
                                     OTF2_SystemTreeNodeRef scope)
{
    otf2_defs *d = u;
    FIT(d, d->io_files, d->n_io_files, self, "I/O file");
    d->io_files[self] = (otf2_defs_io_file){name, scope, 1};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_io_handle(void *u, OTF2_IoHandleRef self, OTF2_StringRef name,
                                       OTF2_IoFileRef file, OTF2_IoParadigmRef paradigm,
                                       OTF2_IoHandleFlag flags, OTF2_CommRef comm,
                                       OTF2_IoHandleRef parent)
{
    (void)flags;
    otf2_defs *d = u;
    FIT(d, d->io_handles, d->n_io_handles, self, "I/O handle");
    d->io_handles[self] = (otf2_defs_io_handle){name, file, paradigm, comm, parent, 1};
    return OTF2_CALLBACK_SUCCESS;
}

/* ---- reading ---- */

static void set_callbacks(OTF2_GlobalDefReaderCallbacks *c)
{
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(c, def_string);
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(c, def_clock);
    OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(c, def_stnode);
    OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(c, def_lgroup);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(c, def_location);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(c, def_region);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(c, def_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(c, def_comm);
    OTF2_GlobalDefReaderCallbacks_SetInterCommCallback(c, def_inter);
    OTF2_GlobalDefReaderCallbacks_SetRmaWinCallback(c, def_win);
    OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback(c, def_member);
    OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback(c, def_class);
    OTF2_GlobalDefReaderCallbacks_SetMetricInstanceCallback(c, def_instance);
    OTF2_GlobalDefReaderCallbacks_SetCallingContextCallback(c, def_cc);
    OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(c, def_attr);
    OTF2_GlobalDefReaderCallbacks_SetParameterCallback(c, def_param);
    OTF2_GlobalDefReaderCallbacks_SetIoParadigmCallback(c, def_io_paradigm);
    OTF2_GlobalDefReaderCallbacks_SetIoRegularFileCallback(c, def_io_file);
    OTF2_GlobalDefReaderCallbacks_SetIoHandleCallback(c, def_io_handle);
}

void otf2_defs_file(const char *anchor, const char *suffix, char *out, size_t len)
{
    size_t n = strlen(anchor);
    if (n >= 5 && strcmp(anchor + n - 5, ".otf2") == 0)
        n -= 5;
    snprintf(out, len, "%.*s%s", (int)n, anchor, suffix);
}

/* "WHAT: why", the why being the damage the guard found (it names the file), else OTF2's
 * error and the file FILE. Returns -1. */
static int fail(char *err, size_t len, const char *what, const char *file, OTF2_ErrorCode rc)
{
    const char *why = otf2_read_guard_error()[0] ? otf2_read_guard_error()
                      : rc != OTF2_SUCCESS       ? OTF2_Error_GetDescription(rc)
                                                 : "";
    if (otf2_read_guard_damage()[0])
        snprintf(err, len, "%s: %s", what, otf2_read_guard_damage());
    else
        snprintf(err, len, "%s (%s)%s%s", what, file, why[0] ? ": " : "", why);
    return -1;
}

static int read_globals(OTF2_Reader *r, const char *anchor, otf2_defs *d, char *err, size_t len)
{
    char file[4096];
    otf2_defs_file(anchor, ".def", file, sizeof file);
    struct stat st;
    d->max_ref = stat(file, &st) == 0 && st.st_size > 0 ? (uint64_t)st.st_size : 0;
    OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(r);
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    if (!gdr || !cb) {
        OTF2_GlobalDefReaderCallbacks_Delete(cb);
        if (gdr)
            OTF2_Reader_CloseGlobalDefReader(r, gdr);
        return fail(err, len, "cannot read the global definitions", file, OTF2_SUCCESS);
    }
    set_callbacks(cb);
    OTF2_ErrorCode rc = OTF2_Reader_RegisterGlobalDefCallbacks(r, gdr, cb, d);
    uint64_t n;
    if (rc == OTF2_SUCCESS)
        rc = otf2_read_guard_global_defs(r, gdr, &n);
    OTF2_GlobalDefReaderCallbacks_Delete(cb);
    OTF2_ErrorCode rc_close = OTF2_Reader_CloseGlobalDefReader(r, gdr);
    if (d->error[0]) {
        snprintf(err, len, "%s (%s)", d->error, file);
        return -1;
    }
    if (rc != OTF2_SUCCESS)
        return fail(err, len, "the global definitions are unreadable", file, rc);
    if (rc_close != OTF2_SUCCESS)
        return fail(err, len, "cannot close the global definitions", file, rc_close);
    return 0;
}

int otf2_defs_load(const char *anchor, OTF2_Reader **reader, otf2_defs *d, char *err, size_t len)
{
    memset(d, 0, sizeof *d);
    for (size_t p = 0; p < sizeof d->comm_locations / sizeof *d->comm_locations; p++)
        d->comm_locations[p] = OTF2_DEFS_NONE;
    *reader = OTF2_Reader_Open(anchor);
    if (!*reader) {
        snprintf(err, len, "%s is not an OTF2 archive%s%s", anchor,
                 otf2_read_guard_error()[0] ? ": " : "", otf2_read_guard_error());
        return -1;
    }
    OTF2_ErrorCode rc = OTF2_Reader_SetSerialCollectiveCallbacks(*reader);
    int failed = rc != OTF2_SUCCESS ? fail(err, len, "cannot set up the OTF2 reader", anchor, rc)
                                    : read_globals(*reader, anchor, d, err, len);
    if (failed) {
        OTF2_Reader_Close(*reader); /* its own error is not the one to tell */
        *reader = NULL;
        otf2_defs_free(d);
    }
    return failed;
}

/* the locations of the last otf2_defs_open_locations whose event file did not open */
static uint64_t *lost;
static size_t n_lost, cap_lost;

int otf2_defs_location_lost(uint64_t id)
{
    for (size_t i = 0; i < n_lost; i++)
        if (lost[i] == id)
            return 1;
    return 0;
}

/* An event file OTF2 cannot open (it reads the first chunk header): noted as the damage, so
 * that the other locations are still read; OTF2's own error is the reason. */
static int lose_location(uint64_t id, const char *file, char *err, size_t len)
{
    struct stat st;
    char what[700];
    if (stat(file, &st) != 0)
        snprintf(what, sizeof what, "missing; none of its events can be read");
    else
        snprintf(what, sizeof what, "%s; none of its events can be read",
                 st.st_size == 0 ? "empty" : otf2_read_guard_error()[0] ? otf2_read_guard_error()
                                                                        : "not an event file");
    if (n_lost == cap_lost) {
        size_t nc = cap_lost ? 2 * cap_lost : 8;
        uint64_t *g = realloc(lost, nc * sizeof *g);
        if (!g)
            return fail(err, len, "out of memory opening the locations", file, OTF2_SUCCESS);
        lost = g;
        cap_lost = nc;
    }
    lost[n_lost++] = id;
    otf2_read_guard_note(file, what);
    otf2_read_guard_clear();
    return 0;
}

/* Reads location ID's local definitions (no callbacks: the reader applies the clock offsets
 * and mappings itself) and makes its event reader. */
static int open_location(OTF2_Reader *r, const char *anchor, uint64_t id,
                         OTF2_DefReaderCallbacks *lc, char *err, size_t len)
{
    char file[4096], suffix[48];
    snprintf(suffix, sizeof suffix, "/%" PRIu64 ".def", id);
    otf2_defs_file(anchor, suffix, file, sizeof file);
    OTF2_DefReader *d = OTF2_Reader_GetDefReader(r, id);
    if (d) { /* none: the location has no local definitions */
        uint64_t n;
        OTF2_ErrorCode rc = OTF2_Reader_RegisterDefCallbacks(r, d, lc, NULL);
        if (rc == OTF2_SUCCESS)
            rc = otf2_read_guard_local_defs(r, d, id, &n);
        OTF2_ErrorCode rc_close = OTF2_Reader_CloseDefReader(r, d);
        if (rc != OTF2_SUCCESS)
            return fail(err, len, "the local definitions are unreadable", file, rc);
        if (rc_close != OTF2_SUCCESS)
            return fail(err, len, "cannot close the local definitions", file, rc_close);
    }
    snprintf(suffix, sizeof suffix, "/%" PRIu64 ".evt", id);
    otf2_defs_file(anchor, suffix, file, sizeof file);
    if (!OTF2_Reader_GetEvtReader(r, id))
        return lose_location(id, file, err, len);
    return 0;
}

int otf2_defs_open_locations(OTF2_Reader *r, const char *anchor, const uint64_t *ids, size_t n,
                             char *err, size_t len)
{
    char dir[4096];
    otf2_defs_file(anchor, "/", dir, sizeof dir);
    n_lost = 0;
    OTF2_ErrorCode rc = OTF2_SUCCESS;
    for (size_t i = 0; rc == OTF2_SUCCESS && i < n; i++)
        rc = OTF2_Reader_SelectLocation(r, ids[i]);
    if (rc != OTF2_SUCCESS)
        return fail(err, len, "cannot select the locations", anchor, rc);
    if ((rc = OTF2_Reader_OpenDefFiles(r)) != OTF2_SUCCESS)
        return fail(err, len, "cannot open the local definitions", dir, rc);
    if ((rc = OTF2_Reader_OpenEvtFiles(r)) != OTF2_SUCCESS) {
        OTF2_Reader_CloseDefFiles(r); /* its error is not the one to tell */
        return fail(err, len, "cannot open the event files", dir, rc);
    }
    OTF2_DefReaderCallbacks *lc = OTF2_DefReaderCallbacks_New();
    int failed = lc ? 0 : fail(err, len, "out of memory opening the locations", dir, OTF2_SUCCESS);
    for (size_t i = 0; !failed && i < n; i++)
        failed = open_location(r, anchor, ids[i], lc, err, len);
    OTF2_DefReaderCallbacks_Delete(lc);
    rc = OTF2_Reader_CloseDefFiles(r);
    if (!failed && rc != OTF2_SUCCESS)
        failed = fail(err, len, "cannot close the local definitions", dir, rc);
    if (failed)
        OTF2_Reader_CloseEvtFiles(r);
    return failed;
}

void otf2_defs_free(otf2_defs *d)
{
    for (size_t i = 0; i < d->n_strings; i++)
        free(d->strings[i]);
    free(d->strings);
    for (size_t i = 0; i < d->n_groups; i++)
        free(d->groups[i].members);
    for (size_t i = 0; i < d->n_metric_classes; i++)
        free(d->metric_classes[i].members);
    void *tables[] = {
        d->nodes,      d->lgroups,    d->locations,      d->regions,        d->groups,
        d->comms,      d->rma_wins,   d->metric_members, d->metric_classes, d->calling_contexts,
        d->attributes, d->parameters, d->io_paradigms,   d->io_files,       d->io_handles};
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++)
        free(tables[i]);
    memset(d, 0, sizeof *d);
}

const char *otf2_defs_string(const otf2_defs *d, uint32_t ref)
{
    return ref < d->n_strings ? d->strings[ref] : NULL;
}

char **otf2_defs_take_strings(otf2_defs *d, size_t *n)
{
    char **s = d->strings;
    *n = d->n_strings;
    d->strings = NULL;
    d->n_strings = 0;
    return s;
}

uint32_t otf2_defs_lgroup_index(const otf2_defs *d, uint64_t id)
{
    for (size_t k = 0; k < d->n_lgroups; k++)
        if (d->lgroups[k].id == id)
            return (uint32_t)k;
    return OTF2_DEFS_NONE;
}
