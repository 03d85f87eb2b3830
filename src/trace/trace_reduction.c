/* SPDX-License-Identifier: BSD-3-Clause */
/* trace_reduction.c: the record of what the trace lacks: every reduction step, stop and
 * discarding rewind of every location becomes an OTF2 marker and a row in MANIFEST.md. */
#include "trace/trace_reduction.h"
#include "writers/writer.h"
#include "base/timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *notes; /* the MANIFEST.md section, NULL when the trace is complete */

const char *scorep_trace_notes(void)
{
    return notes;
}

void scorep_trace_red_pack(ser_buf *b, const scorep_location *l)
{
    const scorep_buffer *buf = &l->buffer;
    uint32_t n = buf->log && buf->n_log < BUF_MAX_LOG ? buf->n_log : buf->log ? BUF_MAX_LOG : 0;
    ser_u32(b, n);
    for (uint32_t i = 0; i < n; i++) {
        const buf_reduction *r = &buf->log[i];
        ser_u32(b, r->rule);
        ser_u64(b, r->param);
        ser_u64(b, r->ts);
        /* a stop learns how much it lost only at the end */
        ser_u64(b, r->rule == BUF_STEP_STOP ? buf->lost : r->removed);
    }
}

int scorep_trace_red_unpack(trace_red_list *list, ser_reader *rd, uint32_t rank, uint32_t local)
{
    uint32_t n = ser_get_u32(rd);
    for (uint32_t i = 0; i < n && !rd->failed; i++) {
        if (list->n == list->cap) {
            size_t cap = list->cap ? 2 * list->cap : 16;
            trace_red_entry *e = realloc(list->e, cap * sizeof *e);
            if (!e)
                return -1;
            list->e = e;
            list->cap = cap;
        }
        trace_red_entry *e = &list->e[list->n++];
        e->rank = rank;
        e->local = local;
        e->rule = ser_get_u32(rd);
        e->param = ser_get_u64(rd);
        e->ts = ser_get_u64(rd);
        e->removed = ser_get_u64(rd);
    }
    return rd->failed ? -1 : 0;
}

static double ticks_to_us(uint64_t t)
{
    double res = (double)scorep_timer_resolution();
    return res > 0 ? (double)t * 1e6 / res : 0.0;
}

/* "threshold 3.2 us", "depth 4", ... : the rule's parameter in words */
static void describe(const trace_red_entry *e, char *out, size_t len)
{
    switch (e->rule) {
    case BUF_STEP_MIN_DURATION:
        snprintf(out, len, "calls shorter than %.3f us (%llu ticks) removed", ticks_to_us(e->param),
                 (unsigned long long)e->param);
        break;
    case BUF_STEP_DEPTH:
        /* 0 records: the step removed none when it cut; this is the first later call its rule
         * dropped (buffer.c scorep_buffer_depth_slow) */
        if (e->removed)
            snprintf(out, len, "calls at depth %llu and deeper removed",
                     (unsigned long long)e->param);
        else
            snprintf(out, len,
                     "calls at depth %llu and deeper not recorded from here on (the first one "
                     "dropped; the step had removed none)",
                     (unsigned long long)e->param);
        break;
    case BUF_STEP_NONCOMM:
        snprintf(out, len, "compiler/user calls enclosing no communication removed");
        break;
    case BUF_STEP_STOP:
        snprintf(out, len, "nothing left to reduce: recording stopped");
        break;
    case BUF_STEP_LOST:
        snprintf(out, len,
                 "%llu activity records lost before they reached the trace (CUDA: dropped by "
                 "CUPTI or completed after finalize; the profile misses them too)",
                 (unsigned long long)e->param);
        break;
    case BUF_STEP_UNREAD: {
        static const char *const why[] = {
            "?",
            "its spill file (SCOREP_TRACING_REDUCTION=flush) was cut short",
            "its spill file (SCOREP_TRACING_REDUCTION=flush) was closed or replaced",
            "the rescue could not write its rank-local trace piece",
            "its rank-local trace piece is missing",
            "its rank-local trace piece is empty (0 bytes)",
            "its rank-local trace piece is cut short",
            "its rank-local trace piece is damaged"};
        snprintf(out, len, "%llu records lost: %s (the warnings say more)",
                 (unsigned long long)e->removed,
                 why[e->param < sizeof why / sizeof why[0] ? e->param : 0]);
        break;
    }
    default:
        snprintf(out, len, "rewind of region %llu discarded the events since its point",
                 (unsigned long long)e->param);
    }
}

int scorep_trace_red_write_markers(OTF2_Archive *a, const trace_red_list *list)
{
    if (list->n == 0)
        return 0;
    OTF2_MarkerWriter *w = OTF2_Archive_GetMarkerWriter(a);
    if (!w)
        return -1;
    int rc = 0;
    for (uint32_t k = 0; k <= BUF_STEP_UNREAD; k++) {
        bool lost = k == BUF_STEP_LOST || k == BUF_STEP_UNREAD;
        if (k != BUF_STEP_FLUSH && /* a flush loses nothing: the BufferFlush event shows it */
            OTF2_MarkerWriter_WriteDefMarker(
                w, k, lost ? "scorep-rt lost records" : "scorep-rt trace reduction",
                scorep_buffer_step_name((buf_step)k),
                k == BUF_STEP_STOP || lost ? OTF2_SEVERITY_HIGH : OTF2_SEVERITY_MEDIUM) !=
                OTF2_SUCCESS)
            rc = -1;
    }
    for (size_t i = 0; i < list->n; i++) {
        const trace_red_entry *e = &list->e[i];
        char what[160], text[256];
        describe(e, what, sizeof what);
        snprintf(text, sizeof text, "rule=%s param=%llu removed=%llu: %s",
                 scorep_buffer_step_name((buf_step)e->rule), (unsigned long long)e->param,
                 (unsigned long long)e->removed, what);
        uint64_t gid = scorep_location_global_id(e->rank, e->local);
        if (OTF2_MarkerWriter_WriteMarker(w, e->ts, 0, e->rule, OTF2_MARKER_SCOPE_LOCATION, gid,
                                          text) != OTF2_SUCCESS)
            rc = -1;
    }
    return OTF2_Archive_CloseMarkerWriter(a, w) == OTF2_SUCCESS ? rc : -1;
}

static int append(char **s, size_t *len, size_t *cap, const char *line)
{
    size_t n = strlen(line);
    if (*len + n + 1 > *cap) {
        size_t c = (*cap + n + 1) * 2;
        char *p = realloc(*s, c);
        if (!p)
            return -1;
        *s = p;
        *cap = c;
    }
    memcpy(*s + *len, line, n + 1);
    *len += n;
    return 0;
}

static uint32_t locations_affected(const trace_red_list *list)
{
    uint32_t n = 0;
    for (size_t i = 0; i < list->n; i++) {
        size_t j = 0;
        while (j < i &&
               (list->e[j].rank != list->e[i].rank || list->e[j].local != list->e[i].local))
            j++;
        n += j == i;
    }
    return n;
}

void scorep_trace_red_summarise(const trace_red_list *list, char ***names, uint64_t n_locations)
{
    free(notes);
    notes = NULL;
    if (list->n == 0)
        return;
    size_t len = 0, cap = 0, n_lost = 0, n_unread = 0;
    for (size_t i = 0; i < list->n; i++) {
        n_lost += list->e[i].rule == BUF_STEP_LOST;
        n_unread += list->e[i].rule == BUF_STEP_UNREAD;
    }
    char line[640];
    snprintf(line, sizeof line,
             "\n## What the trace lacks\n\nThe trace of %u of %llu locations is incomplete "
             "(%s). Each step below is also an OTF2 marker of group "
             "\"scorep-rt trace reduction\"%s (`otf2-marker traces.otf2`); times are the "
             "location's own timestamps.\n\n"
             "| rank | location | step | time | records removed | what |\n"
             "| --- | --- | --- | --- | --- | --- |\n",
             locations_affected(list), (unsigned long long)n_locations,
             n_lost ? "the profile lacks the lost records too" : "the profile is complete",
             n_lost || n_unread ? " or, for lost records, \"scorep-rt lost records\"" : "");
    int rc = append(&notes, &len, &cap, line);
    for (size_t i = 0; i < list->n && rc == 0; i++) {
        const trace_red_entry *e = &list->e[i];
        char what[160];
        describe(e, what, sizeof what);
        snprintf(line, sizeof line, "| %u | %s | %s | %llu | %llu | %s |\n", e->rank,
                 names && names[e->rank] ? names[e->rank][e->local] : "?",
                 scorep_buffer_step_name((buf_step)e->rule), (unsigned long long)e->ts,
                 (unsigned long long)e->removed, what);
        rc = append(&notes, &len, &cap, line);
    }
    if (rc != 0) {
        free(notes);
        notes = NULL;
    }
}

void scorep_trace_red_free(trace_red_list *list)
{
    free(list->e);
    *list = (trace_red_list){0};
}
