/* SPDX-License-Identifier: BSD-3-Clause */
/* otf2_defs_load.h: the one reader of an OTF2 archive's global definitions, shared by the
 * trace model of the tools (tools/trace_model.c), the report's I/O summary
 * (tools/report/report_io.c) and the analysis's loader (analysis/an_load_otf2.c): one set of
 * OTF2 callbacks fills a plain-C model of every definition kind they use, in tables indexed
 * by OTF2 reference, behind the read guard (otf2_read_guard.h); and the opening of chosen
 * locations' local definitions and event files that each of them did the same way.
 *
 * Tables by reference: n_* is the table's size, not a count of definitions; an entry never
 * defined is zero with defined == 0 (a string: NULL). References inside entries are OTF2's as
 * read (OTF2_UNDEFINED_*: none); look them up with a bound check. Locations and location
 * groups (64-bit references) are kept in definition order instead. */
#ifndef SCOREP_TRACE_OTF2_DEFS_LOAD_H
#define SCOREP_TRACE_OTF2_DEFS_LOAD_H

#include <otf2/otf2.h>
#include <stddef.h>
#include <stdint.h>

#define OTF2_DEFS_NONE UINT32_MAX /* no such reference (a table look-up that found none) */

typedef struct {
    uint64_t resolution; /* ticks per second; 0: the trace has no clock properties */
    uint64_t global_offset, length, realtime;
} otf2_defs_clock;

typedef struct {
    uint32_t name, cls, parent; /* strings, parent node */
    int defined;
} otf2_defs_stnode;

typedef struct {
    uint64_t id;      /* OTF2 location group reference */
    uint32_t name;    /* string */
    int type;         /* OTF2_LocationGroupType */
    uint32_t parent;  /* system tree node */
    uint64_t creator; /* location group (OTF2_UNDEFINED_LOCATION_GROUP: none) */
} otf2_defs_lgroup;

typedef struct {
    uint64_t id;       /* OTF2 location reference */
    uint32_t name;     /* string */
    int type;          /* OTF2_LocationType */
    uint64_t n_events; /* the number the definition announces */
    uint64_t group;    /* OTF2 location group reference */
} otf2_defs_location;

typedef struct {
    uint32_t name, canonical, description, file; /* strings */
    int role, paradigm, flags; /* OTF2_RegionRole, OTF2_Paradigm, OTF2_RegionFlag */
    uint32_t begin_line, end_line;
    int defined;
} otf2_defs_region;

typedef struct {
    uint64_t *members; /* owned; n of them */
    uint32_t n, name;
    int type, paradigm, flags; /* OTF2_GroupType, OTF2_Paradigm, OTF2_GroupFlag */
    int defined;
} otf2_defs_group;

typedef struct {
    uint32_t name, group, parent; /* an intercommunicator: group is its group A */
    uint32_t group_b;             /* an intercommunicator's group B, else OTF2_DEFS_NONE */
    int inter, defined;
} otf2_defs_comm;

typedef struct {
    uint32_t name, comm;
    int defined;
} otf2_defs_rma_win;

typedef struct {
    uint32_t name, description, unit; /* strings */
    int type, mode, value_type, base; /* OTF2_MetricType, _MetricMode, OTF2_Type, OTF2_Base */
    int64_t exponent;
    int defined;
} otf2_defs_metric_member;

typedef struct {
    uint32_t *members; /* owned: metric member references, n of them */
    uint32_t n;
    int defined;
} otf2_defs_metric_class;

typedef struct {
    uint32_t region, parent;
    int defined;
} otf2_defs_calling_context;

typedef struct {
    uint32_t name, description; /* strings */
    int type;                   /* OTF2_Type (attribute) or OTF2_ParameterType (parameter) */
    int defined;
} otf2_defs_named;

typedef struct {
    uint32_t identification, name; /* strings */
    int defined;
} otf2_defs_io_paradigm;

typedef struct {
    uint32_t name, scope; /* string, system tree node */
    int defined;
} otf2_defs_io_file;

typedef struct {
    uint32_t name, file, paradigm, comm, parent;
    int defined;
} otf2_defs_io_handle;

typedef struct {
    otf2_defs_clock clock;
    char **strings; /* owned */
    size_t n_strings;
    otf2_defs_stnode *nodes;
    size_t n_nodes;
    otf2_defs_lgroup *lgroups; /* definition order */
    size_t n_lgroups, cap_lgroups;
    otf2_defs_location *locations; /* definition order */
    size_t n_locations, cap_locations;
    otf2_defs_region *regions;
    size_t n_regions;
    otf2_defs_group *groups;
    size_t n_groups;
    otf2_defs_comm *comms;
    size_t n_comms;
    otf2_defs_rma_win *rma_wins;
    size_t n_rma_wins;
    otf2_defs_metric_member *metric_members;
    size_t n_metric_members;
    otf2_defs_metric_class *metric_classes;
    size_t n_metric_classes;
    otf2_defs_calling_context *calling_contexts;
    size_t n_calling_contexts;
    otf2_defs_named *attributes;
    size_t n_attributes;
    otf2_defs_named *parameters;
    size_t n_parameters;
    otf2_defs_io_paradigm *io_paradigms;
    size_t n_io_paradigms;
    otf2_defs_io_file *io_files;
    size_t n_io_files;
    otf2_defs_io_handle *io_handles;
    size_t n_io_handles;
    /* per OTF2_Paradigm (a uint8_t): its group of type COMM_LOCATIONS, the last defined
     * (OTF2_DEFS_NONE: none) */
    uint32_t comm_locations[256];
    /* the loader's own: a reference larger than this is corrupt, and why a callback stopped */
    uint64_t max_ref;
    char error[160];
} otf2_defs;

/* Opens the archive whose anchor file is ANCHOR (DIR/NAME.otf2) and reads its global
 * definitions into *D (which it initialises) with the read guard (the caller runs the guard's
 * session: otf2_read_guard_begin(ANCHOR) before). Returns 0 with the open reader in *READER
 * (the caller selects locations, reads events and closes it with OTF2_Reader_Close), or -1
 * with *READER NULL, *D freed and a one-line reason in ERR that names the file: not an OTF2
 * archive, global definitions damaged or unreadable (the guard's damage, else OTF2's error),
 * out of memory, a reference out of range. */
int otf2_defs_load(const char *anchor, OTF2_Reader **reader, otf2_defs *d, char *err, size_t len);

/* Selects the N locations IDS of the open reader R, opens their definition and event files,
 * reads each one's local definitions (its clock offsets: OTF2's event reader applies them)
 * and makes its event reader (OTF2_Reader_GetEvtReader(R, id) finds it afterwards). Returns 0,
 * or -1 with a reason in ERR that names the file (ANCHOR: the archive's anchor). The caller
 * closes the event files (OTF2_Reader_CloseEvtFiles) once the events are read. */
int otf2_defs_open_locations(OTF2_Reader *r, const char *anchor, const uint64_t *ids, size_t n,
                             char *err, size_t len);
/* After otf2_defs_open_locations: whether location ID's event file could not be opened at
 * all (missing, empty, no chunk header); it has no event reader, and the damage
 * (otf2_read_guard_damage) names the file. The readers that show what is intact skip it. */
int otf2_defs_location_lost(uint64_t id);

/* Frees every table of *D and zeroes it. */
void otf2_defs_free(otf2_defs *d);

/* String by reference, NULL if undefined. */
const char *otf2_defs_string(const otf2_defs *d, uint32_t ref);
/* Hands the string table over to the caller (who frees each string and the table): *D keeps
 * no strings afterwards. */
char **otf2_defs_take_strings(otf2_defs *d, size_t *n);
/* Index in d->lgroups of the location group with reference ID, OTF2_DEFS_NONE if none. */
uint32_t otf2_defs_lgroup_index(const otf2_defs *d, uint64_t id);
/* The path of one of the archive's files: the anchor ANCHOR (DIR/NAME.otf2) without ".otf2",
 * then SUFFIX (".def", "/0.evt"), into OUT. */
void otf2_defs_file(const char *anchor, const char *suffix, char *out, size_t len);

#endif
