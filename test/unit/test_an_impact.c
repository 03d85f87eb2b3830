/* SPDX-License-Identifier: BSD-3-Clause */
/* test_an_impact.c: the performance-impact tree (src/analysis/an_pattern_impact.c) on
 * hand-made critical-path profiles of two ranks. Case 1, the clock noise that CI met: a call
 * path g1 of 0.5 us on the critical path, executed by rank 1 only. Rank 0's excess there is
 * below the noise (taken as 0), but g1 is rank 0's whole headroom, so its inter-partition
 * part is 0.5 us while the imbalance impact is 0: stored as Cube stores a metric with its
 * sub-metrics, critical_imbalance_impact's exclusive value would be -0.5 us. Case 2, an
 * imbalance above the noise: rank 1's g0 takes half of rank 0's, the values follow from
 * Boehme's definitions (docs/analysis.md), written out below. Case 3, the runs where Scalasca
 * 2.6 writes no imbalance impact at all (libwrap's run-time MPI trace, io_cancel.c's hybrid
 * one): a rank with no critical-path excess anywhere, whose scale (waiting / excess) is x / 0 in
 * Scalasca's CriticalPath.pattern and makes every call path's costs NaN; here it adds nothing
 * and the other rank's costs stay. */
#include "analysis/an_report.h"
#include "unit_check.h"

#include <math.h>
#include <stdint.h>

enum { NG = 2 };

/* one rank's block: M_COUNT metrics x its call paths, as an_report_cube.c gathers them */
static double v0[M_COUNT * 1], v1[M_COUNT * 2];
#define AT(v, n, m, k) (v)[(size_t)(m) * (n) + (k)]

static void run(double *all, int *displ, const int *cn, uint32_t **map)
{
    size_t n0 = sizeof v0 / sizeof *v0;
    for (size_t i = 0; i < n0; i++)
        all[i] = v0[i];
    for (size_t i = 0; i < sizeof v1 / sizeof *v1; i++)
        all[n0 + i] = v1[i];
    displ[0] = 0;
    displ[1] = (int)n0;
    const int n_locs[2] = {1, 1}; /* the master threads only */
    const uint8_t team[2] = {1, 1};
    CHECK(an_impact(all, displ, cn, map, NG, 2, n_locs, team) == 0, "an_impact fails");
}

static int near(double a, double b)
{
    return fabs(a - b) <= 1e-12 * (1 + fabs(b));
}

int main(void)
{
    static double all[M_COUNT * 3];
    int displ[2];
    const int cn[2] = {2, 4}; /* two entries per call path */
    uint32_t m0[1] = {0}, m1[2] = {0, 1};
    uint32_t *map[2] = {m0, m1};
    const size_t n1 = sizeof v0 / sizeof *v0;
#define R1(m, k) all[n1 + (size_t)(m) * 2 + (k)]

    /* case 1: rank 0 runs g0 (1 s, all on the path); rank 1 g0 for 0.5 s off the path and
     * g1 for 0.5 us on it */
    AT(v0, 1, M_NONWAIT_TIME, 0) = 1.0;
    AT(v0, 1, M_CRITICAL_PATH, 0) = 1.0;
    AT(v1, 2, M_NONWAIT_TIME, 0) = 0.5;
    AT(v1, 2, M_NONWAIT_TIME, 1) = 5e-7;
    AT(v1, 2, M_CRITICAL_PATH, 1) = 5e-7;
    run(all, displ, cn, map);
    double cii = R1(M_CRITICAL_IMBALANCE_IMPACT, 1), inter = R1(M_INTER_PARTITION_IMBALANCE, 1),
           intra = R1(M_INTRA_PARTITION_IMBALANCE, 1);
    CHECK(cii == 0, "noise: g1's imbalance impact %g, expected 0 (excess below the noise)", cii);
    CHECK(cii - inter - intra >= 0,
          "noise: g1's imbalance impact %g less inter %g and intra %g is negative", cii, inter,
          intra);
    CHECK(inter == 0 && intra == 0, "noise: inter %g, intra %g, expected 0 and 0", inter, intra);

    /* case 2: the same but rank 1's g1 takes 0.25 s on the path; path: g0 1 s, g1 0.25 s,
     * length 1.25 s. Rank 0: excess at g1 = 0.25 (it does not run g1), local time 1, scale
     * (1.25 - 1) / 0.25 = 1: costs[g1] += 0.25; headroom g1 = 0.25, lp = 1, factor
     * (1.25 - 1) / 0.25 = 1: phr[g1] += 0.25. Rank 1: excess at g0 = 0.5, local time 0.75,
     * scale (1.25 - 0.75) / 0.5 = 1: costs[g0] += 0.5; no headroom. Rank 1 has all of g1's
     * path: imbalance impact 0.25, inter 0.25, intra 0; g0 is off its path: 0. Rank 0 has all
     * of g0's path: g0's costs 0.5, no headroom there: inter 0, intra 0.5. */
    AT(v1, 2, M_NONWAIT_TIME, 1) = 0.25;
    AT(v1, 2, M_CRITICAL_PATH, 1) = 0.25;
    run(all, displ, cn, map);
    cii = R1(M_CRITICAL_IMBALANCE_IMPACT, 1);
    inter = R1(M_INTER_PARTITION_IMBALANCE, 1);
    intra = R1(M_INTRA_PARTITION_IMBALANCE, 1);
    CHECK(near(cii, 0.25) && near(inter, 0.25) && near(intra, 0),
          "imbalance: g1's impact %g inter %g intra %g, expected 0.25 0.25 0", cii, inter, intra);
    CHECK(near(R1(M_CRITICAL_PATH_ACTIVITIES, 1), 0.25) && near(R1(M_NON_CRITICAL_PATH_ACTIVITIES, 0), 0),
          "imbalance: rank 1's activities g1 %g (0.25), non-critical g0 %g (0)",
          R1(M_CRITICAL_PATH_ACTIVITIES, 1), R1(M_NON_CRITICAL_PATH_ACTIVITIES, 0));
    /* g0's costs (rank 1's excess 0.5) go to the rank on the path there, rank 0, whole */
    CHECK(near(all[M_CRITICAL_IMBALANCE_IMPACT], 0.5) && near(all[M_INTER_PARTITION_IMBALANCE], 0) &&
              near(all[M_INTRA_PARTITION_IMBALANCE], 0.5),
          "imbalance: rank 0's g0 impact %g inter %g intra %g, expected 0.5 0 0.5",
          all[M_CRITICAL_IMBALANCE_IMPACT], all[M_INTER_PARTITION_IMBALANCE],
          all[M_INTRA_PARTITION_IMBALANCE]);

    /* case 3: rank 0 holds the whole path (g0, 1 s) and runs g0 for 1.1 s: excess 0 at g0 (and
     * g1 is not on the path), its waiting 1 - 1.1 = -0.1 s; Scalasca's scale -0.1 / 0 = -inf,
     * 0 x -inf = NaN. Rank 1 runs g0 for 0.6 s and g1 for 0.1 s, off the path: excess 0.4 at
     * g0, waiting 1 - 0.7 = 0.3, scale 0.75: costs[g0] = 0.3, all to rank 0 (its path there).
     * No rank has headroom on the path (both run g0): inter 0, intra 0.3. */
    AT(v0, 1, M_NONWAIT_TIME, 0) = 1.1;
    AT(v0, 1, M_CRITICAL_PATH, 0) = 1.0;
    AT(v1, 2, M_NONWAIT_TIME, 0) = 0.6;
    AT(v1, 2, M_NONWAIT_TIME, 1) = 0.1;
    AT(v1, 2, M_CRITICAL_PATH, 1) = 0;
    run(all, displ, cn, map);
    CHECK(near(all[M_CRITICAL_IMBALANCE_IMPACT], 0.3) && near(all[M_INTER_PARTITION_IMBALANCE], 0) &&
              near(all[M_INTRA_PARTITION_IMBALANCE], 0.3),
          "no excess: rank 0's g0 impact %g inter %g intra %g, expected 0.3 0 0.3 (a rank "
          "without critical-path excess must not cancel the others' costs)",
          all[M_CRITICAL_IMBALANCE_IMPACT], all[M_INTER_PARTITION_IMBALANCE],
          all[M_INTRA_PARTITION_IMBALANCE]);
    CHECK(R1(M_CRITICAL_IMBALANCE_IMPACT, 0) == 0 && R1(M_CRITICAL_IMBALANCE_IMPACT, 1) == 0,
          "no excess: rank 1 (off the path) has impact %g at g0, %g at g1, expected 0 and 0",
          R1(M_CRITICAL_IMBALANCE_IMPACT, 0), R1(M_CRITICAL_IMBALANCE_IMPACT, 1));

    /* case 4: a hybrid rank (scout.hyb's view: every OpenMP thread is a location of its own
     * in the imbalance impact). Locations: the master (0), an OpenMP worker (1), a helper
     * pthread (2, not an OpenMP thread: takes no part). g0 runs serially on the master (1 s,
     * on the path), g1 is a parallel region whose barrier the worker holds up: the path's 0.8 s
     * there are on the worker's location (an_omp.c), the master runs 0.5 s of it and waits.
     * Path length 1.8. Master: excess 0.3 at g1, waiting 1.8 - 1.5 = 0.3, scale 1: costs[g1]
     * 0.3. Worker: idle in g0 (excess 1, no time there), waiting 1.8 - 0.8 = 1, scale 1:
     * costs[g0] 1; its headroom is g0 (1 s, factor (1.8 - 0.8) / 1 = 1): phr[g0] 1. So the
     * master, all of g0's path, gets impact 1 there, all of it inter-partition (the worker
     * does not run g0); the worker, all of g1's path, 0.3, intra. The helper (0.1 s at g0)
     * would add its own excess if it took part. Before session 24 only the master took part
     * and the path lacked the worker's part: impact 0 everywhere. */
    {
        static double h[3 * M_COUNT * 2];
        int hd[1] = {0};
        const int hcn[1] = {4}, hnl[1] = {3};
        const uint8_t team[3] = {1, 1, 0};
        uint32_t hm[2] = {0, 1};
        uint32_t *hmap[1] = {hm};
#define H(l, m, k) h[((size_t)(l) * M_COUNT + (size_t)(m)) * 2 + (k)]
        H(0, M_NONWAIT_TIME, 0) = 1.0;
        H(0, M_CRITICAL_PATH, 0) = 1.0;
        H(0, M_NONWAIT_TIME, 1) = 0.5;
        H(1, M_NONWAIT_TIME, 1) = 0.8;
        H(1, M_CRITICAL_PATH, 1) = 0.8;
        H(2, M_NONWAIT_TIME, 0) = 0.1;
        CHECK(an_impact(h, hd, hcn, hmap, NG, 1, hnl, team) == 0, "an_impact fails (hybrid)");
        CHECK(near(H(0, M_CRITICAL_IMBALANCE_IMPACT, 0), 1.0) &&
                  near(H(0, M_INTER_PARTITION_IMBALANCE, 0), 1.0) &&
                  near(H(0, M_INTRA_PARTITION_IMBALANCE, 0), 0),
              "hybrid: the master's g0 impact %g inter %g intra %g, expected 1 1 0 (the "
              "worker's idleness in the serial part)",
              H(0, M_CRITICAL_IMBALANCE_IMPACT, 0), H(0, M_INTER_PARTITION_IMBALANCE, 0),
              H(0, M_INTRA_PARTITION_IMBALANCE, 0));
        CHECK(near(H(1, M_CRITICAL_IMBALANCE_IMPACT, 1), 0.3) &&
                  near(H(1, M_INTRA_PARTITION_IMBALANCE, 1), 0.3),
              "hybrid: the worker's g1 impact %g intra %g, expected 0.3 0.3 (the master's "
              "wait at the barrier)",
              H(1, M_CRITICAL_IMBALANCE_IMPACT, 1), H(1, M_INTRA_PARTITION_IMBALANCE, 1));
        CHECK(H(0, M_CRITICAL_IMBALANCE_IMPACT, 1) == 0 && H(1, M_CRITICAL_IMBALANCE_IMPACT, 0) == 0,
              "hybrid: impact off the path: master g1 %g, worker g0 %g, expected 0 and 0",
              H(0, M_CRITICAL_IMBALANCE_IMPACT, 1), H(1, M_CRITICAL_IMBALANCE_IMPACT, 0));
        CHECK(near(H(0, M_CRITICAL_PATH_ACTIVITIES, 0), 1.0) &&
                  near(H(0, M_CRITICAL_PATH_ACTIVITIES, 1), 0.5) &&
                  near(H(1, M_CRITICAL_PATH_ACTIVITIES, 1), 0.8),
              "hybrid: activities master g0 %g g1 %g worker g1 %g, expected 1 0.5 0.8",
              H(0, M_CRITICAL_PATH_ACTIVITIES, 0), H(0, M_CRITICAL_PATH_ACTIVITIES, 1),
              H(1, M_CRITICAL_PATH_ACTIVITIES, 1));
        for (int m = M_PERFORMANCE_IMPACT; m <= M_NON_CRITICAL_PATH_ACTIVITIES; m++)
            for (int k = 0; k < 2; k++)
                CHECK(H(2, m, k) == 0,
                      "hybrid: the helper pthread has metric %d = %g at g%d, expected nothing",
                      m, H(2, m, k), k);
#undef H
    }
    return failures ? 1 : 0;
}
