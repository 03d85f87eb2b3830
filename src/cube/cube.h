/* SPDX-License-Identifier: BSD-3-Clause */
/* cube.h: a small library that writes and reads Cube4 profiles (.cubex tar archives).
 * Plain library: no global state, every object owned by the caller who created it.
 * Dependency-free (zlib and libc only, nothing of src/base): it keeps its own growing arrays
 * and its own write-beside-and-rename (cube_writer.c) rather than base/grow.h and
 * base/atomic_file.h, so that it builds and links alone. */
#ifndef SCOREP_CUBE_H
#define SCOREP_CUBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { CUBE_EXCLUSIVE, CUBE_INCLUSIVE } cube_metric_kind;
typedef enum {
    CUBE_DTYPE_UINT64,
    CUBE_DTYPE_INT64,
    CUBE_DTYPE_DOUBLE,
    CUBE_DTYPE_MINDOUBLE,
    CUBE_DTYPE_MAXDOUBLE
} cube_dtype;

/* ---------------------------------------------------------------- writer */
typedef struct cube_writer cube_writer;

cube_writer *cube_writer_new(void);
void cube_writer_free(cube_writer *w);

/* Every metric gets its index and data members, one without any nonzero value too (an
 * index of no rows, as Scalasca's scout writes it): CubeLib reads a metric without data as
 * 0 inclusive along the metric tree, not as the sum of its children. Default: a metric
 * without data gets no members, as Score-P writes its profiles. */
void cube_writer_every_metric_data(cube_writer *w);
/* One "misc data" member named name (CubeW's cube_write_misc_data; e.g. remapping.spec, which
 * Cube's remapper reads): after the values in a gathered file (anchor.xml stays first), just
 * before anchor.xml in a planned one (anchor.xml stays last). data must outlive the writer. */
void cube_writer_misc_data(cube_writer *w, const char *name, const char *data, size_t len);

/* Adds a global <attr key value>. Strings are copied. */
int cube_writer_attr(cube_writer *w, const char *key, const char *value);

/* All add functions copy their strings and return the new id (0, 1, 2, ...) or -1 on error.
 * parent = -1 for a root. */
int cube_writer_metric(cube_writer *w, int parent, const char *uniq_name, const char *disp_name,
                       cube_dtype dtype, const char *uom, const char *descr, cube_metric_kind kind);
int cube_writer_region(cube_writer *w, const char *name, const char *mangled_name,
                       const char *paradigm, const char *role, const char *file, int begin_line,
                       int end_line, const char *descr);
int cube_writer_cnode(cube_writer *w, int parent, int region);
/* A cnode that stands for a parameter value under its parent (parameter call paths). */
int cube_writer_cnode_param_int(cube_writer *w, int parent, int region, const char *param,
                                int64_t value);
int cube_writer_cnode_param_string(cube_writer *w, int parent, int region, const char *param,
                                   const char *value);
int cube_writer_stnode(cube_writer *w, int parent, const char *name, const char *klass);
/* type: "process" or "accelerator" (a GPU context: Score-P gives it the attribute
 * "Creating location group" = the name of its process). Any accelerator group makes the
 * anchor syntax version 4.7, as CubeLib does. */
int cube_writer_locgroup(cube_writer *w, int stnode, const char *name, int rank, const char *type);
/* One <attr key value> of a location group (a second one: -1). 0 or -1. */
int cube_writer_locgroup_attr(cube_writer *w, int locgroup, const char *key, const char *value);
/* type: "thread", "accelerator stream" (a GPU stream, as CubeW writes it; CubeLib also
 * reads the older "gpu") or "metric" */
int cube_writer_location(cube_writer *w, int locgroup, const char *name, int rank,
                         const char *type);

/* Values are given in the metric's own semantics: exclusive value of the node for an
 * EXCLUSIVE metric, subtree total for an INCLUSIVE one, node's own min/max for MIN/MAXDOUBLE.
 * Unset values are 0. Call after all cnodes and locations are defined. */
int cube_writer_set_u64(cube_writer *w, int metric, int cnode, int location, uint64_t v);
int cube_writer_set_double(cube_writer *w, int metric, int cnode, int location, double v);

/* File ids follow document order (metrics and cnodes depth-first; locations grouped by
 * system-tree node and location group, as CubeLib numbers them): define children after
 * their parents, depth-first, and the ids read back equal the ids given here.
 * Writes the .cubex file (tar with anchor.xml, <id>.index, <id>.data). compress = zlib rows.
 * Returns 0 or -1 with errno-style message in err. */
int cube_writer_write(cube_writer *w, const char *path, bool compress, char *err, size_t errlen);

/* ------------------------------- writing by many processes at once (additions, issue #19) */
/* A system tree too large to hold (a million locations): instead of cube_writer_stnode,
 * _locgroup and _location, fn is called while anchor.xml is written and gives the tree in
 * document order through the cube_sink_* functions: a system-tree node, then its location
 * groups each followed by its locations, then its child nodes (depth-first). Nothing is
 * kept but the open path. The sink functions return the new id (0, 1, ... per kind, as
 * the cube_writer_* ones) or -1 when an entity comes out of order; fn returns 0 or -1.
 * n_locations: how many locations fn gives (the row length). */
typedef struct cube_system_sink cube_system_sink;
typedef int (*cube_system_fn)(void *arg, cube_system_sink *sink);
int cube_writer_system_stream(cube_writer *w, uint64_t n_locations, cube_system_fn fn, void *arg);
int64_t cube_sink_stnode(cube_system_sink *s, int64_t parent, const char *name, const char *klass);
int64_t cube_sink_locgroup(cube_system_sink *s, int64_t stnode, const char *name, int rank,
                           const char *type);
/* The <attr> of the location group just given (before its first location). 0 or -1. */
int cube_sink_locgroup_attr(cube_system_sink *s, const char *key, const char *value);
int64_t cube_sink_location(cube_system_sink *s, int64_t locgroup, const char *name, int rank,
                           const char *type);
/* Says that the streamed tree will hold accelerator location groups (anchor syntax 4.7);
 * call with cube_writer_system_stream. */
void cube_writer_system_accelerators(cube_writer *w);

/* The layout of a .cubex whose rows many processes write at once, each the values of its
 * own locations: every row uncompressed at a computed offset, the index listing the call
 * paths that row_used names (all of them without it; a listed row no process writes
 * reads as zeros: the file has a hole there), the index and data members first and
 * anchor.xml last. Every process builds the same plan
 * from the same description; then, in any order and concurrently, one process writes the
 * frame (tar headers, index files, data markers) and the anchor (cube_writer_write_anchor),
 * and every process its slices (cube_plan_write_slice). The file must be created empty
 * (O_TRUNC) before anyone writes. Memory: the plan is O(metrics + call paths). */
typedef struct cube_plan cube_plan;
typedef struct {
    int n_metrics;
    const int *metric_parent;            /* as given to cube_writer_metric (-1: a root) */
    const cube_metric_kind *metric_kind; /* selects the row order (deep or wide) */
    int n_cnodes;
    const int *cnode_parent; /* as given to cube_writer_cnode (-1: a root) */
    uint64_t n_locations;    /* row length; columns in location id order */
    /* NULL: every row of every metric; else bit metric * n_cnodes + cnode set where some
     * value of (metric, cnode) is not 0, as the gathering writer omits all-zero rows */
    const uint64_t *row_used;
} cube_plan_desc;

cube_plan *cube_plan_new(const cube_plan_desc *d); /* NULL: bad description or no memory */
void cube_plan_free(cube_plan *p);
/* Bytes of the file up to anchor.xml's header (the anchor's size is known only later). */
uint64_t cube_plan_anchor_offset(const cube_plan *p);
/* Writes values of locations [first, first + n) of (metric, cnode) (writer ids) to the
 * open file fd: raw 64-bit values as cube_writer_set_* store them (the uint64_t, the
 * int64_t's bits, the double's bits). All zero: nothing written (the hole reads as 0).
 * 0, or -1 with errno (EINVAL also for values of a row that row_used left out). */
int cube_plan_write_slice(const cube_plan *p, int fd, int metric, int cnode, uint64_t first,
                          uint64_t n, const uint64_t *raw);
/* The tar headers, index files and data markers. 0, or -1 with errno. */
int cube_plan_write_frame(const cube_plan *p, int fd);
/* anchor.xml of w (its metrics and call tree as in the plan's description; the system tree
 * defined or streamed) at the plan's anchor offset of the existing file path, then the end
 * of the archive. 0, or -1 with a message in err. */
int cube_writer_write_anchor(cube_writer *w, const cube_plan *p, const char *path, char *err,
                             size_t errlen);

/* ---------------------------------------------------------------- reader */
typedef struct {
    char *uniq_name, *disp_name, *uom, *descr;
    cube_dtype dtype;
    cube_metric_kind kind;
    int parent;
} cube_metric;

typedef struct {
    char *name, *mangled_name, *paradigm, *role, *file, *descr;
    int begin_line, end_line;
} cube_region;

typedef struct {
    int parent; /* -1 for roots */
    int region;
    char *param_name;   /* NULL unless a parameter cnode */
    char *param_string; /* string parameter value, or NULL */
    int64_t param_int;  /* integer parameter value */
} cube_cnode;

typedef struct {
    int parent;
    char *name, *klass;
} cube_stnode;

typedef struct {
    int stnode;
    char *name, *type; /* type: "process" or "accelerator" */
    int rank;
    char *creator; /* attribute "Creating location group" (accelerator groups), or NULL */
} cube_locgroup;

typedef struct {
    int locgroup;
    char *name, *type;
    int rank;
} cube_location;

typedef struct cube_reader {
    int n_metrics, n_regions, n_cnodes, n_stnodes, n_locgroups, n_locations;
    cube_metric *metrics;
    cube_region *regions;
    cube_cnode *cnodes;
    cube_stnode *stnodes;
    cube_locgroup *locgroups;
    cube_location *locations;
    int n_attrs;
    char **attr_keys, **attr_values;
    void *priv; /* values and index data, private */
} cube_reader;

/* Reads a whole .cubex file. Returns NULL with a message in err on failure. */
cube_reader *cube_reader_open(const char *path, char *err, size_t errlen);
void cube_reader_free(cube_reader *r);
int cube_reader_metric_by_name(const cube_reader *r, const char *uniq_name); /* -1 if absent */
/* For each location group the group of its process: itself, or for an accelerator group
 * (a GPU context) the process group its "Creating location group" names (the first of that
 * name; itself when none does), as Score-P's scorep-score attributes contexts. malloc'ed
 * (n_locgroups entries; the caller frees it), NULL when memory runs out. Not thread-safe. */
int *cube_reader_process_groups(const cube_reader *r);
/* Value as stored for (metric, cnode, location), converted to double (0 if absent). Along
 * the metric tree it is the metric with its sub-metrics (CubeLib's rule: what Cube shows
 * for a collapsed metric; the expanded one is it minus the children's stored values). */
double cube_reader_stored(const cube_reader *r, int metric, int cnode, int location);
/* Exclusive and inclusive views (for MIN/MAXDOUBLE: node value and subtree min/max). */
double cube_reader_exclusive(const cube_reader *r, int metric, int cnode, int location);
double cube_reader_inclusive(const cube_reader *r, int metric, int cnode, int location);

/* ------------------------------------------------- exact access (additions to the API) */
/* The reader is read-only after cube_reader_open: all views are computed there, so the
 * functions below may be called from several threads at once. */
typedef enum { CUBE_VIEW_STORED, CUBE_VIEW_EXCLUSIVE, CUBE_VIEW_INCLUSIVE } cube_view;
/* Exact value in the metric's own dtype: the uint64_t value, the int64_t bit pattern or the
 * bits of the double (0 if absent or out of range). Avoids rounding integers past 2^53. */
uint64_t cube_reader_value_bits(const cube_reader *r, int metric, int cnode, int location,
                                cube_view view);
/* False when every location of (metric, cnode) is 0 in that view: lets tools skip rows. */
bool cube_reader_has_row(const cube_reader *r, int metric, int cnode, cube_view view);
double cube_value_to_double(cube_dtype dtype, uint64_t bits);
/* Integers exactly, doubles with %.9g; returns what snprintf returns. */
int cube_format_value(char *buf, size_t len, cube_dtype dtype, uint64_t bits);

/* ---------------------------------- reading a part (additions, for cube_engine.h) */
/* The definitions only; no values until cube_reader_load_rows. */
cube_reader *cube_reader_open_defs(const char *path, char *err, size_t errlen);
/* Once, after cube_reader_open_defs: the stored rows of the metrics with metrics[m] (NULL:
 * all) for the call paths with cnodes[c] (NULL: all); compressed rows of other call paths
 * are not inflated, plain ones not touched. Afterwards only CUBE_VIEW_STORED holds values
 * (and with both NULL every view, as cube_reader_open). 0, or -1 with a message in err. */
int cube_reader_load_rows(cube_reader *r, const bool *metrics, const bool *cnodes, char *err,
                          size_t errlen);

#endif
