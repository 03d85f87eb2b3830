/* SPDX-License-Identifier: BSD-3-Clause */
/* an_net_sim.h: simulated ranks in one process (an_net_sim.c), the analysis's communication
 * (an_net.h) for unit tests of the replays and the delay analysis without mpirun. */
#ifndef SCOREP_AN_NET_SIM_H
#define SCOREP_AN_NET_SIM_H

#include "analysis/an_net.h"

/* the code of one simulated rank: NET is its handle on the world of N ranks (rank RANK),
 * valid during the call (an_net_sim_run frees it); it may make sub-groups (and frees them) */
typedef void (*an_sim_body)(an_net *net, int rank, void *arg);

/* runs BODY for ranks 0..N-1, each on its own thread, and returns when all have returned: 0,
 * or -1 when out of memory before any started. A deadlock among the ranks (a receive without
 * its send, a collective some members never call) aborts the process with a line on stderr
 * that says what each rank does (world ranks; a group as its members' world ranks):
 *   scorep-rt analysis (simulated ranks): a deadlock: rank 0 waits in recv from rank 1 with
 *   tag 8 in group {0,1}; rank 1 waits in allreduce in group {0,1} (1 of 2 arrived)
 * at once when every rank that has not returned waits with nothing left to wake it; after
 * 60 s without progress anywhere ("no progress for 60 s: ... rank 1 runs") when a rank never
 * returns. */
int an_net_sim_run(int n, an_sim_body body, void *arg);
/* the same with STALL_S seconds (at least 1) instead of 60: for the test of that abort */
int an_net_sim_run_stall(int n, an_sim_body body, void *arg, int stall_s);

#endif
