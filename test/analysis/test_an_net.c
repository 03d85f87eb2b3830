/* SPDX-License-Identifier: BSD-3-Clause */
/* test_an_net.c: the one-process backend of the analysis's communication (an_net.h,
 * an_net_single.c), which analyses programs without MPI: rank 0 of 1, every collective the
 * copy MPI's definition gives for one process (counts and displacements honoured), messages
 * to itself received by tag in the order sent, sub-groups of itself. */
#include "analysis/an_net.h"
#include "../unit/unit_check.h"

#include <stdint.h>
#include <string.h>

static void collectives(an_net *n)
{
    uint64_t in[3] = {1, 2, 3}, out[3] = {0};
    an_net_allreduce(n, in, out, 3, AN_T_U64, AN_OP_SUM);
    CHECK(out[0] == 1 && out[1] == 2 && out[2] == 3, "allreduce: %llu %llu %llu",
          (unsigned long long)out[0], (unsigned long long)out[1], (unsigned long long)out[2]);
    int a = -4, b = 0;
    an_net_allreduce(n, &a, &b, 1, AN_T_INT, AN_OP_MAX);
    CHECK(b == -4, "allreduce max of one contribution: %d", b);
    an_net_scan(n, &a, &b, 1, AN_T_INT, AN_OP_MIN);
    CHECK(b == -4, "scan: %d", b);
    char msg[8] = "keep";
    an_net_bcast(n, msg, (int)sizeof msg, AN_T_BYTE, 0);
    CHECK(!strcmp(msg, "keep"), "bcast from itself: %s", msg);
    double d[2] = {1.5, 2.5}, g[5] = {0};
    int cnt = 2, displ = 3;
    an_net_gatherv(n, d, 2, g, &cnt, &displ, AN_T_DOUBLE, 0);
    CHECK(g[0] == 0 && g[2] == 0 && g[3] == 1.5 && g[4] == 2.5, "gatherv at displacement 3");
    double s[4] = {9, 8, 7, 6}, r[2] = {0};
    displ = 1;
    an_net_scatterv(n, s, &cnt, &displ, r, 2, AN_T_DOUBLE, 0);
    CHECK(r[0] == 8 && r[1] == 7, "scatterv from displacement 1: %g %g", r[0], r[1]);
    uint32_t sa[4] = {10, 11, 12, 13}, ra[4] = {0};
    int sc = 2, sd = 1, rc = 2, rd = 2;
    an_net_alltoallv(n, sa, &sc, &sd, ra, &rc, &rd, AN_T_U32);
    CHECK(ra[0] == 0 && ra[1] == 0 && ra[2] == 11 && ra[3] == 12, "alltoallv: %u %u %u %u",
          ra[0], ra[1], ra[2], ra[3]);
    int one = 7, got = 0;
    an_net_gather(n, &one, 1, &got, AN_T_INT, 0);
    CHECK(got == 7, "gather: %d", got);
    an_net_alltoall(n, &one, &got, 1, AN_T_INT);
    CHECK(got == 7, "alltoall: %d", got);
}

static void messages(an_net *n)
{
    int x = 1, y = 2, z = 3, r = 0;
    CHECK(an_net_isend(n, &x, 1, AN_T_INT, 0, 5) == 0, "isend");
    CHECK(an_net_isend(n, &y, 1, AN_T_INT, 0, 7) == 0, "isend");
    CHECK(an_net_isend(n, &z, 1, AN_T_INT, 0, 5) == 0, "isend");
    x = y = z = -1; /* the sends were copied: the buffers may change */
    an_net_recv(n, &r, 1, AN_T_INT, 0, 7);
    CHECK(r == 2, "the message of tag 7: %d", r);
    an_net_recv(n, &r, 1, AN_T_INT, 0, 5);
    CHECK(r == 1, "the first message of tag 5: %d", r);
    an_net_recv(n, &r, 1, AN_T_INT, 0, 5);
    CHECK(r == 3, "the second message of tag 5: %d", r);
    an_net_waitall(n);
}

int main(void)
{
    an_net *n = an_net_single();
    CHECK(n != NULL, "an_net_single");
    if (!n)
        return 1;
    CHECK(an_net_rank(n) == 0 && an_net_size(n) == 1, "rank %d of %d", an_net_rank(n),
          an_net_size(n));
    collectives(n);
    messages(n);
    int self = 0;
    an_net *s = an_net_sub(n, &self, 1, 3);
    CHECK(s && an_net_rank(s) == 0 && an_net_size(s) == 1, "a sub-group of itself");
    if (s)
        messages(s);
    an_net_free(s);
    an_net_free(n);
    if (!failures)
        printf("PASS: the one-process backend of an_net.h\n");
    return failures ? 1 : 0;
}
