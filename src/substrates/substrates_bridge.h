/* SPDX-License-Identifier: BSD-3-Clause */
/* substrates_bridge.h: between the two halves of the substrate plugin support. The plugin
 * side (substrate_plugins.c) includes Score-P's public headers, whose enum names
 * (SCOREP_PARADIGM_MPI, ...) clash with scorep-rt's own, so it cannot include internal
 * headers; the runtime side (substrates_core.c) answers its questions about definitions,
 * locations and the inter-process communication in plain C types, and drives its life
 * cycle. Paradigms and region types cross as Score-P's numbers (mapped in the core side,
 * checked against the public header in the plugin side). */
#ifndef SCOREP_SUBSTRATES_BRIDGE_H
#define SCOREP_SUBSTRATES_BRIDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct scorep_location;

enum { SCOREP_SUBSTRATES_MAX_PLUGINS = 16 };

/* per location: each plugin's SCOREP_Location_SetData pointer (l->substrates_data) */
typedef struct scorep_substrate_loc {
    void *data[SCOREP_SUBSTRATES_MAX_PLUGINS];
    /* not active: deactivate_cpu_location called (atomic: the thread's end, an OpenMP
     * worker's team end, or finalize), or an OpenMP worker not in a team yet */
    int deactivated;
    /* calling contexts for plugins under SCOREP_ENABLE_UNWINDING (sampling_plugins.c) */
    void *cc;
} scorep_substrate_loc;

/* ---- calling contexts (SCOREP_ENABLE_UNWINDING), sampling/sampling_plugins.c: context ids
 * are this process's (UINT32_MAX: none), generators the sampling sources' indices */
typedef enum {
    SCOREP_SUBSTRATES_CC_ENTER,
    SCOREP_SUBSTRATES_CC_EXIT,
    SCOREP_SUBSTRATES_CC_SAMPLE
} scorep_substrates_cc_kind;
/* plugin side: some plugin takes calling-context events and unwinding is on (the unwinding
 * at enters then runs also without profile and trace) */
bool scorep_substrates_cc_wanted(void);
/* runtime side: true when enters and exits go to the plugins as calling-context events */
bool scorep_substrates_cc_mode(void);
/* runtime side: an enter or exit of l (in place of ENTER_REGION / EXIT_REGION), and l's end
 * (its samples not yet delivered) */
void scorep_substrates_cc_enter(struct scorep_location *l, uint64_t t, uint32_t region,
                                uint64_t *metrics);
void scorep_substrates_cc_exit(struct scorep_location *l, uint64_t t, uint64_t *metrics);
void scorep_substrates_cc_end(struct scorep_location *l);
/* runtime side: l's deactivation at t: its samples, then Score-P's final SAMPLE without a
 * context (previous context: the last one, distance 1, no generator); team_end: an OpenMP
 * worker's at its team's end (t just after it: the samples before t only), else a thread's
 * end (all samples, the final one at t or after the last of them) */
void scorep_substrates_cc_deactivate(struct scorep_location *l, uint64_t t, bool team_end);
/* runtime side: an OpenMP task's begin (the enter of its region) and end on l: its context
 * goes on (off) l's stack of calls, so that the events inside it have the trace's contexts,
 * without an event of its own (Score-P's unwinding does not see task regions) */
void scorep_substrates_cc_task(struct scorep_location *l, uint64_t t, uint32_t region,
                               bool begin);
/* runtime side: an untied task's suspension on l at t (its n innermost contexts, from its
 * region's, leave l's stack with it, no event) and its resumption on l (the same thread or
 * another): its contexts go on l's stack, so that its events there lie below them, as in
 * the trace (task: the adapter's opaque task object) */
void scorep_substrates_cc_park(struct scorep_location *l, uint64_t t, const void *task, uint32_t n);
void scorep_substrates_cc_resume(struct scorep_location *l, uint64_t t, const void *task);
/* runtime side: context id's region (local id) and parent (UINT32_MAX: a root); false for
 * an unknown id */
bool scorep_substrates_cc_get(uint32_t id, uint32_t *region, uint32_t *parent);
/* plugin side: the event to the plugins (gen: SAMPLE's generator) */
void scorep_substrates_cc_deliver(scorep_substrates_cc_kind kind, struct scorep_location *l,
                                  uint64_t t, uint32_t cc, uint32_t prev, uint32_t distance,
                                  uint32_t gen, uint64_t *metrics);
/* plugin side: new_definition_handle of a context (CALLING_CONTEXT) and of a sampling source
 * (INTERRUPT_GENERATOR), each handle id + 1 */
void scorep_substrates_new_cc(uint32_t id);
void scorep_substrates_new_generator(uint32_t gen);

/* ---- plugin side, called by the runtime side (cold paths) */
/* Loads the plugins of list (separated by any character of sep); returns how many run. */
uint32_t scorep_substrates_load(const char *list, const char *sep);
void scorep_substrates_new_region(uint32_t region);
void scorep_substrates_new_io_file(uint32_t file);
void scorep_substrates_new_io_handle(uint32_t handle);
void scorep_substrates_new_io_paradigms(void);
/* MPI and SHMEM definitions: communicators (INTERIM_COMMUNICATOR), groups (GROUP) and RMA
 * windows (RMA_WINDOW), each handle its defs id + 1 */
void scorep_substrates_new_comm(uint32_t comm);
void scorep_substrates_new_group(uint32_t group);
void scorep_substrates_new_win(uint32_t win);
/* strings (STRING), parameters (PARAMETER), metrics (METRIC and SAMPLING_SET: each metric
 * its own sampling set); kind: defs.h scorep_defs_new_kind */
void scorep_substrates_new_other(int kind, uint32_t id);
/* the paradigms (PARADIGM, handle = SCOREP_ParadigmType + 1) of scorep-rt's adapters */
void scorep_substrates_new_paradigms(void);
/* the process's place in the system tree, as Score-P defines it at start-up: the machine and
 * the node (SCOREP_HANDLE_TYPE_SYSTEM_TREE_NODE 1 and 2), the process (LOCATION_GROUP 1) */
void scorep_substrates_new_system_tree(void);
void scorep_substrates_assign_ids(void);
/* create_location, the implicit task's core_task_create and, when `active`,
 * activate_cpu_location (parent, create_seq: a POSIX thread's creation sequence number, the
 * one its ThreadCreate and ThreadBegin carry, as Score-P passes its creation's; 0 for the
 * first location); an OpenMP worker is activated at each team it joins instead
 * (scorep_substrates_location_activated) */
void scorep_substrates_location_created(struct scorep_location *l, struct scorep_location *parent,
                                        bool active, uint32_t create_seq);
/* activate_cpu_location (parent, fork_seq) of a location not active: an OpenMP worker joining
 * a team (parent: the team's master, fork_seq: the fork's sequence number, as Score-P) */
void scorep_substrates_location_activated(struct scorep_location *l,
                                          struct scorep_location *parent, uint32_t fork_seq);
/* deactivate_cpu_location of an active location (one caller's: the location's thread at its
 * end or team end, the master writing an idle worker's team end, or finalize); team_end: an
 * OpenMP worker's team end, after which its final sample is dated (the location's latest
 * timestamp + 1), not at the time of the call */
void scorep_substrates_location_deactivated(struct scorep_location *l,
                                            struct scorep_location *parent, bool team_end);
/* deactivate_cpu_location if still active, the implicit task's core_task_complete and
 * delete_location */
void scorep_substrates_location_ended(struct scorep_location *l, struct scorep_location *parent);
void scorep_substrates_program_begin(struct scorep_location *l, uint64_t t, uint32_t name,
                                     uint64_t pid, uint64_t tid);
void scorep_substrates_init_mpp(void);
void scorep_substrates_pre_unify(void);

/* ---- runtime side, called by the plugin side */
typedef struct {
    const char *name, *mangled, *file;
    uint32_t begin_line, end_line;
    int paradigm;    /* SCOREP_ParadigmType */
    int region_type; /* SCOREP_RegionType */
} scorep_substrates_region;
bool scorep_substrates_region_get(uint32_t id, scorep_substrates_region *out);
const char *scorep_substrates_string_get(uint32_t id);
/* type: SCOREP_ParameterType */
const char *scorep_substrates_parameter_get(uint32_t id, int *type);
/* value_type: SCOREP_MetricValueType; source: SCOREP_MetricSourceType; mode: SCOREP_MetricMode;
 * occurrence: SCOREP_MetricOccurrence of its one-metric sampling set */
typedef struct {
    const char *name;
    int value_type, source, mode, occurrence;
    bool exclusive; /* profiling type EXCLUSIVE (user metrics), else INCLUSIVE */
} scorep_substrates_metric;
bool scorep_substrates_metric_get(uint32_t id, scorep_substrates_metric *out);
/* defs.h's scorep_paradigm as Score-P's SCOREP_ParadigmType number */
int scorep_substrates_public_paradigm(int internal);
/* name of a Score-P paradigm (SCOREP_ParadigmType) as scorep-rt spells it */
const char *scorep_substrates_paradigm_name(int paradigm);

uint32_t scorep_substrates_location_id(const struct scorep_location *l);
uint64_t scorep_substrates_location_global_id(const struct scorep_location *l);
const char *scorep_substrates_location_name(const struct scorep_location *l);
bool scorep_substrates_location_gpu(const struct scorep_location *l);
scorep_substrate_loc *scorep_substrates_location_data(const struct scorep_location *l);
/* l's dense metric values (read at its latest enter or leave; metrics/metrics.h): n of them,
 * with their defs metric ids; false without metric sources */
typedef struct {
    uint32_t n;
    const uint32_t *ids;
    uint64_t *values;
} scorep_substrates_metric_values;
bool scorep_substrates_location_metrics(const struct scorep_location *l,
                                        scorep_substrates_metric_values *out);

/* a timestamp for an event of l now (strictly after its last one) */
uint64_t scorep_substrates_now(struct scorep_location *l);
/* l's next timestamp without a clock reading: its latest one + 1 */
uint64_t scorep_substrates_next_tick(struct scorep_location *l);
const char *scorep_substrates_experiment_dir(void);
int scorep_substrates_ipc_rank(void);
int scorep_substrates_ipc_size(void);
int scorep_substrates_ipc_barrier(void);
int scorep_substrates_ipc_bcast(void *buf, size_t bytes, int root);
int scorep_substrates_ipc_gather(const void *send, size_t bytes, void *recv, int root);
int scorep_substrates_ipc_gatherv(const void *send, size_t bytes, void *recv,
                                  const size_t *counts, const size_t *displs, int root);
int scorep_substrates_ipc_scatterv(const void *send, const size_t *counts, const size_t *displs,
                                   void *recv, size_t bytes, int root);
int scorep_substrates_ipc_send(const void *buf, size_t bytes, int dest);
int scorep_substrates_ipc_recv(void *buf, size_t bytes, int source);

void scorep_substrates_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
