/* SPDX-License-Identifier: BSD-3-Clause */
/* report.h: the parts of scorep-report (HTML report of an experiment directory): each part
 * writes its members of the report's JSON data object; report_html.c wraps them in the page. */
#ifndef SCOREP_REPORT_H
#define SCOREP_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The files of an experiment directory that the report reads (NULL: absent). */
typedef struct {
    const char *dir;
    char *profile;  /* profile.cubex, or the only *.cubex */
    char *trace;    /* traces.otf2 */
    char *config;   /* scorep.cfg's contents */
    char *manifest; /* MANIFEST.md's contents */
    char *scout;    /* scout.cubex: the wait-state analysis (docs/analysis.md) */
    char *taskgraph; /* taskgraph.dot: the analysis's OpenMP task graph (docs/openmp.md) */
} report_expdir;

/* Finds the files; fills err and returns -1 when dir is not an experiment directory. */
int report_expdir_open(report_expdir *x, const char *dir, char *err, size_t errlen);
void report_expdir_free(report_expdir *x);
/* "meta" and "config" members: paths, scorep.cfg, MANIFEST.md and its reduction notes. */
int report_write_expdir(FILE *out, const report_expdir *x);

/* Members from the profile: "locations", "tree", "top", "heat", "profile_bytes".
 * Returns 0; -2 with a message in err when the profile is unreadable (nothing is written
 * then, so the report can go on with the trace); -1 with a message after a partial write. */
int report_write_profile(FILE *out, const char *path, char *err, size_t errlen);

/* Members from the trace: "timeline", "matrix" and "rma". Returns 0, or -1 with a message. */
int report_write_trace(FILE *out, const char *path, char *err, size_t errlen);

/* Member from the wait-state analysis (scout.cubex): "waits". Returns 0, or -1 with a
 * message. */
int report_write_waits(FILE *out, const char *path, char *err, size_t errlen);
/* Member "taskgraph" from the analysis's taskgraph.dot (report_taskgraph.c): nodes, edges
 * and the table per task region and rank. Returns 0, or -1 with a message. */
int report_write_taskgraph(FILE *out, const char *path, char *err, size_t errlen);
/* Member "io" from the trace's I/O records (report_io.c), when it has any: returns 1 when
 * written, 0 when the trace has no I/O, -1 with a message in err. */
int report_write_io(FILE *out, const char *path, char *err, size_t errlen);
/* Member "io" from the per-process summaries (io_summary.<rank>.tsv) of the experiment
 * directory, which the runtime writes with and without a trace: rows without time, no
 * bandwidth over time. The same returns. */
int report_write_io_summary(FILE *out, const char *dir, char *err, size_t errlen);

/* Writes the whole page (template, styles, script, data) to out. */
int report_write_html(FILE *out, const report_expdir *x, char *err, size_t errlen);

/* ------------------------------------------------------------------ JSON output */
/* A JSON string that is also safe inside an HTML <script> element: <, > and & as \u00XX. */
void json_string(FILE *out, const char *s);
void json_string_n(FILE *out, const char *s, size_t n);
/* A number; NaN and infinities (not JSON) become 0. */
void json_double(FILE *out, double v);
void json_u64(FILE *out, uint64_t v);
/* "key": with a leading comma unless first */
void json_key(FILE *out, const char *key, bool first);
/* "key":"string" (null for NULL), with a leading comma unless first */
void json_member(FILE *out, const char *key, const char *s, bool first);

/* scorep-report --serve (report_serve.c): rank 0 answers a browser on 127.0.0.1:port (0: any
 * free port, printed) from the distributed engine until GET /quit. 0, or -1 with err. */
struct cube_engine;
int report_serve(struct cube_engine *e, int port, char *err, size_t errlen);

#endif
