/* an_replay_coll.c: the collective replay. For every recorded communicator with collective
 * operations, the analysis builds the same communicator (MPI_Comm_create_group over the
 * recorded world ranks, communicators in ascending id order on every rank) and replays all of
 * its collective instances at once: the k-th collective of a rank on that communicator is
 * instance k on every member (MPI orders collectives per communicator). Per instance it
 * reduces what Scalasca's patterns need: latest enter, earliest exit, the root's enter, the
 * earliest enter of the non-roots, and for scans the latest enter of the lower ranks. The
 * pattern arithmetic is in an_pattern_coll.c. Intercommunicators are not replayed (counted
 * and reported). */
#include "analysis/an_coll.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* members of comm k as an MPI group of the analysis communicator; my index in it or -1 */
static int my_index(const an_comm *k, uint32_t me)
{
    for (uint32_t i = 0; i < k->n; i++)
        if (k->ranks[i] == me)
            return (int)i;
    return -1;
}

static int replay_comm(an_ctx *c, uint32_t id, const uint32_t *inst, size_t n, char *err,
                       size_t len)
{
    const an_comm *k = &c->t->comms[id];
    MPI_Comm mc = MPI_COMM_NULL;
    int identity = k->n == (uint32_t)c->size;
    for (uint32_t i = 0; identity && i < k->n; i++)
        identity = k->ranks[i] == i;
    if (identity) {
        mc = c->comm;
    } else {
        MPI_Group world, g;
        int *ranks = malloc(k->n * sizeof *ranks);
        if (!ranks) {
            snprintf(err, len, "out of memory");
            return -1;
        }
        for (uint32_t i = 0; i < k->n; i++)
            ranks[i] = (int)k->ranks[i];
        PMPI_Comm_group(c->comm, &world);
        PMPI_Group_incl(world, (int)k->n, ranks, &g);
        PMPI_Comm_create_group(c->comm, g, (int)(id & 0x7fff), &mc);
        PMPI_Group_free(&g);
        PMPI_Group_free(&world);
        free(ranks);
    }
    /* every member must have recorded the same number of collectives on it */
    unsigned long long mine = n, lo, hi;
    PMPI_Allreduce(&mine, &lo, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, mc);
    PMPI_Allreduce(&mine, &hi, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, mc);
    int rc = 0;
    if (lo != hi) {
        snprintf(err, len,
                 "the ranks of communicator %u recorded different numbers of collective "
                 "operations (%llu to %llu): the trace is incomplete (truncated or reduced)",
                 id, lo, hi);
        rc = -1;
    } else {
        rc = an_coll_instances(c, mc, my_index(k, (uint32_t)c->rank), inst, n, err, len);
    }
    if (mc != c->comm && mc != MPI_COMM_NULL)
        PMPI_Comm_free(&mc);
    return rc;
}

int an_replay_coll(an_ctx *c, char *err, size_t len)
{
    an_trace *t = c->t;
    size_t nc = t->n_comms;
    /* which communicators any rank has collectives on, and this rank's instances per comm */
    unsigned char *used = calloc(nc + 1, 1), *any = calloc(nc + 1, 1);
    size_t *count = calloc(nc + 1, sizeof *count), *start = calloc(nc + 2, sizeof *start);
    uint32_t *inst = NULL;
    int ok = used && any && count && start;
    size_t total = 0;
    for (size_t i = 0; ok && i < t->n_events; i++) {
        const an_event *e = &t->events[i];
        if (e->kind != AN_COLL_END || e->comm >= nc || !t->comms[e->comm].defined)
            continue;
        if (t->comms[e->comm].inter) {
            c->skipped_inter_colls++;
            continue;
        }
        used[e->comm] = 1;
        count[e->comm]++;
        total++;
    }
    if (ok && !(inst = malloc((total + 1) * sizeof *inst)))
        ok = 0;
    int all_ok;
    PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, c->comm);
    int rc = -1;
    if (!all_ok) {
        snprintf(err, len, "out of memory preparing the collective replay");
        goto out;
    }
    for (size_t k = 0; k < nc; k++)
        start[k + 1] = start[k] + count[k];
    memset(count, 0, (nc + 1) * sizeof *count);
    for (size_t i = 0; i < t->n_events; i++) {
        const an_event *e = &t->events[i];
        if (e->kind == AN_COLL_END && e->comm < nc && used[e->comm])
            inst[start[e->comm] + count[e->comm]++] = (uint32_t)i;
    }
    PMPI_Allreduce(used, any, (int)nc, MPI_UNSIGNED_CHAR, MPI_MAX, c->comm);
    rc = 0;
    for (size_t k = 0; k < nc; k++) {
        const an_comm *cm = &t->comms[k];
        if (!any[k] || cm->inter || cm->n < 2 || my_index(cm, (uint32_t)c->rank) < 0)
            continue;
        char e2[256] = "";
        int r = replay_comm(c, (uint32_t)k, inst + start[k], count[k], e2, sizeof e2);
        if (r != 0 && rc == 0) {
            snprintf(err, len, "%s", e2);
            rc = -1;
        }
    }
    int bad = rc != 0, any_bad;
    PMPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, c->comm);
    if (any_bad && rc == 0) {
        snprintf(err, len, "another rank failed in the collective replay");
        rc = -1;
    }
out:
    free(used);
    free(any);
    free(count);
    free(start);
    free(inst);
    return rc;
}
