/* SPDX-License-Identifier: BSD-3-Clause */
/* trace_model_dump.c: prints what src/tools/trace_model.h loads from a trace, as lines the
 * tests compare with otf2-print's counts and trace_messages' matching:
 *   clock resolution=R offset=O length=L
 *   location index=I id=ID rank=R thread=T kind=cpu|gpu|metric|other events=N name=NAME
 *   count KIND=N            (one line per event kind with N > 0)
 *   messages matched=N unmatched_sends=S unmatched_recvs=R
 *   matrix FROM TO messages=N bytes=B   (one line per pair with messages)
 *   rma put|get FROM TO ops=N bytes=B   (one line per pair with operations)
 *   rma atomic FROM TO ops=N bytes=B received=R
 * Exit status: 0, or 1 with "trace_model_dump: PATH: REASON" when the trace does not load. A
 * damaged trace whose intact part loads gives "trace_model_dump: PATH: damaged: WHAT" on
 * stderr and exit status 0. */
#include "tools/trace_model.h"

#include <stdio.h>

static const char *const kinds[TM_EV_KINDS] = {
    "ENTER",        "LEAVE",       "SEND",        "ISEND",       "ISEND_COMPLETE", "IRECV_REQUEST",
    "RECV",         "IRECV",       "COLL_BEGIN",  "COLL_END",    "THREAD_FORK",    "THREAD_JOIN",
    "TEAM_BEGIN",   "TEAM_END",    "TASK_CREATE", "TASK_SWITCH", "TASK_COMPLETE",  "THREAD_CREATE",
    "THREAD_BEGIN", "THREAD_WAIT", "THREAD_END",  "METRIC",      "CC_ENTER",       "CC_LEAVE",
    "SAMPLE",       "RMA_PUT",     "RMA_GET",     "RMA_ATOMIC"};

static const char *const loc_kinds[] = {"cpu", "gpu", "metric", "other"};

static void print_rma(const tm_trace *t, const char *what, const tm_rank_matrix *m)
{
    for (uint32_t f = 0; f < t->n_ranks; f++)
        for (uint32_t to = 0; to < t->n_ranks; to++) {
            size_t k = (size_t)f * t->n_ranks + to;
            if (!m->ops[k])
                continue;
            printf("rma %s %u %u ops=%llu bytes=%llu", what, f, to, (unsigned long long)m->ops[k],
                   (unsigned long long)m->bytes[k]);
            if (m->received)
                printf(" received=%llu", (unsigned long long)m->received[k]);
            putchar('\n');
        }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: trace_model_dump traces.otf2\n");
        return 2;
    }
    tm_trace *t;
    char err[512];
    if (tm_load(argv[1], &t, err, sizeof err)) {
        fprintf(stderr, "trace_model_dump: %s: %s\n", argv[1], err);
        return 1;
    }
    if (t->damage[0])
        fprintf(stderr, "trace_model_dump: %s: damaged: %s\n", argv[1], t->damage);
    printf("clock resolution=%llu offset=%llu length=%llu\n",
           (unsigned long long)t->clock.resolution, (unsigned long long)t->clock.global_offset,
           (unsigned long long)t->clock.length);
    for (size_t i = 0; i < t->n_locations; i++) {
        const tm_location *l = &t->locations[i];
        printf("location index=%zu id=%llu rank=%u thread=%u kind=%s events=%zu name=%s\n", i,
               (unsigned long long)l->id, l->rank, l->thread, loc_kinds[l->kind], l->n_events,
               l->name ? l->name : "?");
    }
    for (int k = 0; k < TM_EV_KINDS; k++)
        if (t->events_by_kind[k])
            printf("count %s=%zu\n", kinds[k], t->events_by_kind[k]);
    printf("messages matched=%zu unmatched_sends=%zu unmatched_recvs=%zu\n", t->n_messages,
           t->unmatched_sends, t->unmatched_recvs);
    for (uint32_t f = 0; f < t->n_ranks; f++)
        for (uint32_t to = 0; to < t->n_ranks; to++) {
            size_t k = (size_t)f * t->n_ranks + to;
            if (t->matrix_messages[k])
                printf("matrix %u %u messages=%llu bytes=%llu\n", f, to,
                       (unsigned long long)t->matrix_messages[k],
                       (unsigned long long)t->matrix_bytes[k]);
        }
    print_rma(t, "put", &t->rma_put);
    print_rma(t, "get", &t->rma_get);
    print_rma(t, "atomic", &t->rma_atomic);
    tm_free(t);
    return 0;
}
