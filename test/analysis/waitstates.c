/* SPDX-License-Identifier: BSD-3-Clause */
/* waitstates.c: MPI program with prescribed wait states for the analysis tests
 * (test_analysis.sh): before each scenario all ranks synchronise, then a rank spins for a
 * known multiple of D seconds before it sends, receives, probes or enters a collective. Each
 * scenario runs in its own user region, so its wait states land on their own call paths.
 Needs 4 ranks. Times are deadlines k*D after the scenario's start (start()). Expected values (D =
 the argument, default 0.2 s) are in test_analysis.sh. */
#include <mpi.h>
#include <scorep/SCOREP_User.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "scenario.h"

static double D = 0.2, t0;
static int rank, size;

/* the actual times of the actions (seconds after the scenario's start, the node's clock, read
 * just before the MPI call, and that clock's reading itself), printed at the end as
 * "T scenario rank what seconds absolute": the test moves each onto the trace event that
 * follows it (trace_marks.py) and derives the expected waiting times from those, so a rank
 * that the scheduler let act late on a loaded machine does not fail it */
static const char *scenario = "";
static scenario_marks marks;
static void M(const char *what)
{
    double t = now();
    /* nanoseconds in both: trace_marks.py takes the common start as the difference, and six
     * decimals gave each rank its own start (+-0.5 us), which test_analysis.sh's sum of 200
     * waits across two ranks turned into 0.1 ms */
    marks_add(&marks, "T %s %d %s %.9f %.9f", scenario, rank, what, t - t0, t);
}

/* a number the program derived (not a time), printed as a mark */
static void MV(const char *what, double v)
{
    marks_add(&marks, "T %s %d %s %.6f", scenario, rank, what, v);
}

/* each scenario is a user region of its own (a static handle per function) */
#define SCEN_BEGIN(h, name)                                                                        \
    scenario = name;                                                                               \
    M("begin");                                                                                    \
    SCOREP_USER_REGION_DEFINE(h)                                                                   \
    SCOREP_USER_REGION_BEGIN(h, name, SCOREP_USER_REGION_TYPE_COMMON)
#define SCEN_END(h) SCOREP_USER_REGION_END(h)

/* waits until k*D seconds after the scenario's start */
static void spin_to(double k)
{
    spin_until(t0 + k * D);
}

/* Late Sender at MPI_Recv: rank 0 sends after D, rank 1 waits D */
static void ls_recv(void)
{
    SCEN_BEGIN(h, "ls_recv")
    int x = 1;
    if (rank == 0) {
        spin_to(1);
        M("send");
        MPI_Send(&x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    } else if (rank == 1) {
        M("recv");
        MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    SCEN_END(h)
}

/* Late Sender at MPI_Wait of an Irecv: rank 1 waits D in MPI_Wait */
static void ls_wait(void)
{
    SCEN_BEGIN(h, "ls_wait")
    int x = 1;
    if (rank == 0) {
        spin_to(1);
        M("send");
        MPI_Send(&x, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Request r;
        MPI_Irecv(&x, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, &r);
        M("wait");
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    SCEN_END(h)
}

/* The seed's test 4.2.4 (Late Sender in probes, a chain): rank 0 sends to 1 after 2D; rank 1
 * probes (waits 2D), receives, spins D, sends to 2; rank 2 probes (waits 3D), receives. */
static void ls_probe_chain(void)
{
    SCEN_BEGIN(h, "ls_probe_chain")
    int x = 1;
    if (rank == 0) {
        spin_to(2);
        M("send");
        MPI_Send(&x, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
    } else if (rank == 1) {
        M("probe");
        MPI_Probe(0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        M("probed");
        MPI_Recv(&x, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        M("recvd");
        spin_to(3);
        M("send");
        MPI_Send(&x, 1, MPI_INT, 2, 4, MPI_COMM_WORLD);
    } else if (rank == 2) {
        M("probe");
        MPI_Probe(1, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&x, 1, MPI_INT, 1, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    SCEN_END(h)
}

/* Polling loops of nonblocking probes (the seed's section 3.3; docs/analysis.md): rank 0 sends
 * to 1 after D, rank 1 loops on MPI_Iprobe until it finds the message; rank 3 sends to 2 after
 * 2D, rank 2 loops on MPI_Improbe, then MPI_Mrecv. The message carries the sender's clock
 * reading just before its send; the receiver brackets every probe call with its own clock and
 * prints the time its calls spent before that reading ("inprobe"): the expected Late Sender
 * (the time between the calls is outside MPI). */
#define NB_MAX (1 << 20)
static double nb_calls[NB_MAX][2];
static void nb_probe_expect(int n, double sent)
{
    double w = 0;
    for (int i = 0; i < n && i < NB_MAX; i++) {
        double end = nb_calls[i][1] < sent ? nb_calls[i][1] : sent;
        if (end > nb_calls[i][0])
            w += end - nb_calls[i][0];
    }
    MV("inprobe", w);
    MV("calls", n);
}
static void ls_nb_probe(void)
{
    SCEN_BEGIN(h, "ls_nb_probe")
    double x = 0;
    int flag = 0, n = 0;
    if (rank == 0 || rank == 3) {
        spin_to(rank == 0 ? 1 : 2);
        M("send");
        x = now();
        MPI_Send(&x, 1, MPI_DOUBLE, rank == 0 ? 1 : 2, 20, MPI_COMM_WORLD);
    } else if (rank == 1) {
        M("probe");
        while (!flag) {
            double a = now();
            MPI_Iprobe(0, 20, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            if (n < NB_MAX)
                nb_calls[n][0] = a, nb_calls[n][1] = now();
            n++;
        }
        MPI_Recv(&x, 1, MPI_DOUBLE, 0, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        nb_probe_expect(n, x);
    } else {
        MPI_Message m;
        M("probe");
        while (!flag) {
            double a = now();
            MPI_Improbe(3, 20, MPI_COMM_WORLD, &flag, &m, MPI_STATUS_IGNORE);
            if (n < NB_MAX)
                nb_calls[n][0] = a, nb_calls[n][1] = now();
            n++;
        }
        MPI_Mrecv(&x, 1, MPI_DOUBLE, &m, MPI_STATUS_IGNORE);
        nb_probe_expect(n, x);
    }
    SCEN_END(h)
}

/* The seed's test 4.2.5 (wrong order in probes): rank r > 0 sends to 0 after r*D; rank 0
 * probes and receives rank 2's, then rank 3's, then rank 1's message: it waits 2D at the first
 * probe and D at the second, and both waits are wrong order (rank 1's message, sent first, was
 * ready meanwhile). Uses MPI_Mprobe/MPI_Mrecv for rank 3's message. */
static void ls_wrong_order(void)
{
    SCEN_BEGIN(h, "ls_wrong_order")
    int x = 1;
    if (rank > 0 && rank < 4) {
        spin_to(rank);
        M("send");
        MPI_Send(&x, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
    } else if (rank == 0) {
        M("probe2");
        MPI_Probe(2, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&x, 1, MPI_INT, 2, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Message m;
        M("mprobe3");
        MPI_Mprobe(3, 5, MPI_COMM_WORLD, &m, MPI_STATUS_IGNORE);
        MPI_Mrecv(&x, 1, MPI_INT, &m, MPI_STATUS_IGNORE);
        M("probe1");
        MPI_Probe(1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&x, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    SCEN_END(h)
}

/* The seed's figure 3b / test 4.2.6: a probed synchronous send with two synchronisation
 * points. Rank 0 spins D, then MPI_Ssend to 1; rank 1 probes at once (Late Sender D at the
 * probe), spins 2D, then receives: rank 0 waits 2D in MPI_Ssend (Late Receiver). */
static void ls_lr_probe(void)
{
    SCEN_BEGIN(h, "ls_lr_probe")
    int x = 1;
    if (rank == 0) {
        spin_to(1);
        M("ssend");
        MPI_Ssend(&x, 1, MPI_INT, 1, 6, MPI_COMM_WORLD);
    } else if (rank == 1) {
        M("probe");
        MPI_Probe(MPI_ANY_SOURCE, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        M("probed");
        spin_to(3);
        M("recv");
        MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    SCEN_END(h)
}

/* Late Receiver at MPI_Wait of an Issend: rank 1 posts its receive after D */
static void lr_wait(void)
{
    SCEN_BEGIN(h, "lr_wait")
    int x = 1;
    if (rank == 0) {
        MPI_Request r;
        MPI_Issend(&x, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &r);
        M("wait");
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        spin_to(1);
        M("recv");
        MPI_Recv(&x, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    SCEN_END(h)
}

/* Wait at Barrier: rank r enters after r*D (rank r waits (size-1-r)*D) */
static void barrier(void)
{
    SCEN_BEGIN(h, "barrier")
    spin_to(rank);
    M("enter");
    MPI_Barrier(MPI_COMM_WORLD);
    SCEN_END(h)
}

/* Wait at N x N: as the barrier, with MPI_Allreduce */
static void nxn(void)
{
    SCEN_BEGIN(h, "nxn")
    int x = rank, y;
    spin_to(rank);
    M("enter");
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    SCEN_END(h)
}

/* Late Broadcast: the root (rank 0) enters after D; every other rank waits D */
static void late_bcast(void)
{
    SCEN_BEGIN(h, "late_bcast")
    int x = 1;
    if (rank == 0)
        spin_to(1);
    M("enter");
    MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
    SCEN_END(h)
}

/* Early Reduce: the non-roots enter after D; the root (rank 0) waits D */
static void early_reduce(void)
{
    SCEN_BEGIN(h, "early_reduce")
    int x = 1, y;
    if (rank != 0)
        spin_to(1);
    M("enter");
    MPI_Reduce(&x, &y, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    SCEN_END(h)
}

/* A barrier wait propagated through a Late Sender (long-term delay costs, docs/analysis.md):
 * rank 0 works 2D, then sends to rank 1, which waits for the message (Late Sender 2D), works
 * D and enters the barrier last (at 3D): ranks 2 and 3 wait 3D there, rank 0 D. Rank 1's
 * work causes D of each of the waits of ranks 2 and 3 directly (short-term); the rest comes
 * through its own Late Sender from rank 0's work (long-term barrier delay costs on rank 0). */
static void lt_barrier(void)
{
    SCEN_BEGIN(h, "lt_barrier")
    int x = 1;
    if (rank == 0) {
        spin_to(2);
        M("send");
        MPI_Send(&x, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
    } else if (rank == 1) {
        M("recv");
        MPI_Recv(&x, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        M("recvd");
        spin_to(3);
    }
    M("enter");
    MPI_Barrier(MPI_COMM_WORLD);
    SCEN_END(h)
}

/* An Early Reduce propagated from a Late Sender (long-term N-to-1 delay costs): rank 1 waits
 * for rank 2's message (rank 2 works 2D: Late Sender 2D), works D and enters the MPI_Reduce
 * last (at 3D); rank 3 works D; the root (rank 0, no work) waits 3D, until the last sender
 * entered (Early Reduce as Scalasca 2.6 measures it; the first sender, rank 3, came at D).
 * The wait is charged to the last rank in: short-term on rank 1's work, the part its Late
 * Sender explains long-term on rank 2's work. */
static void lt_reduce(void)
{
    SCEN_BEGIN(h, "lt_reduce")
    int x = 1, y;
    if (rank == 2) {
        spin_to(2);
        M("send");
        MPI_Send(&x, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
    } else if (rank == 1) {
        M("recv");
        MPI_Recv(&x, 1, MPI_INT, 2, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        M("recvd");
        spin_to(3);
    } else if (rank == 3) {
        spin_to(1);
    }
    M("enter");
    MPI_Reduce(&x, &y, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    SCEN_END(h)
}

/* A Late Receiver propagated from a Late Sender (long-term Late Receiver delay costs): rank 0
 * sends to rank 1 with MPI_Ssend at once; rank 1 first receives from rank 2, which works 2D
 * before it sends (Late Sender 2D), then receives rank 0's message: rank 0's Late Receiver
 * (2D) comes from rank 1's wait, so from rank 2's work (long-term, on rank 2). */
static void lt_lr(void)
{
    SCEN_BEGIN(h, "lt_lr")
    int x = 1;
    if (rank == 0) {
        M("ssend");
        MPI_Ssend(&x, 1, MPI_INT, 1, 10, MPI_COMM_WORLD);
    } else if (rank == 1) {
        M("recv2");
        MPI_Recv(&x, 1, MPI_INT, 2, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        M("recv0");
        MPI_Recv(&x, 1, MPI_INT, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 2) {
        spin_to(2);
        M("send");
        MPI_Send(&x, 1, MPI_INT, 1, 11, MPI_COMM_WORLD);
    }
    SCEN_END(h)
}

/* Late Sender on a sub-communicator (ranks 2 and 3 as 0 and 1 of a split): rank 3 waits D */
static void ls_subcomm(MPI_Comm sub)
{
    SCEN_BEGIN(h, "ls_subcomm")
    int x = 1, r;
    if (sub != MPI_COMM_NULL) {
        MPI_Comm_rank(sub, &r);
        if (r == 0) {
            spin_to(1);
            M("send");
            MPI_Send(&x, 1, MPI_INT, 1, 8, sub);
        } else {
            M("recv");
            MPI_Recv(&x, 1, MPI_INT, 0, 8, sub, MPI_STATUS_IGNORE);
        }
        /* and Wait at Barrier on it: sub rank 0 enters after D */
        if (r == 0)
            spin_to(2);
        M("bar");
        MPI_Barrier(sub);
    }
    SCEN_END(h)
}

/* A 4-rank ping-pong with late senders (the delay costs as Scalasca's algorithm gives them,
 * test_analysis.sh): ranks 0 and 2 ping ranks 1 and 3 ROUNDS times; before each ping the
 * pinging rank works W = D/100 in the user region "work"; the answering rank replies at once.
 * Every receive is a Late Sender: the answering rank waits about W for each ping, the pinging
 * rank a few microseconds for each reply (the answering rank's receive returning after the
 * message came, and its way to the reply). Prints the rounds. Run alone (argv[2]), not in the
 * full run. */
enum { PP_ROUNDS = 200 };
static void pingpong(void)
{
    SCEN_BEGIN(h, "pingpong")
    int x = 1, peer = rank ^ 1;
    for (int k = 0; k < PP_ROUNDS; k++) {
        if (rank % 2 == 0) {
            SCOREP_USER_REGION_DEFINE(hw)
            SCOREP_USER_REGION_BEGIN(hw, "work", SCOREP_USER_REGION_TYPE_COMMON)
            spin_until(now() + D / 100);
            SCOREP_USER_REGION_END(hw)
            MPI_Send(&x, 1, MPI_INT, peer, 12, MPI_COMM_WORLD);
            MPI_Recv(&x, 1, MPI_INT, peer, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&x, 1, MPI_INT, peer, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&x, 1, MPI_INT, peer, 12, MPI_COMM_WORLD);
        }
    }
    MV("rounds", PP_ROUNDS);
    SCEN_END(h)
}

/* Messages received in the wrong order before a barrier (the delay costs of waits that the
 * waited-for rank's own wait states explain: Scalasca's long-term barrier delay costs): rank
 * r > 0 sends to rank 0 after r*D; rank 0 receives rank 2's message (Late Sender 2D), rank 3's
 * (Late Sender D), then rank 1's (there since D: no wait), then every rank enters MPI_Barrier:
 * rank 0 last (at 3D), rank 1 waits 2D there, rank 2 D, rank 3 about 0. Run alone. */
static void wo_barrier(void)
{
    SCEN_BEGIN(h, "wo_barrier")
    int x = 1;
    if (rank > 0) {
        spin_to(rank);
        M("send");
        MPI_Send(&x, 1, MPI_INT, 0, 13, MPI_COMM_WORLD);
    } else {
        M("recv2");
        MPI_Recv(&x, 1, MPI_INT, 2, 13, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        M("recv3");
        MPI_Recv(&x, 1, MPI_INT, 3, 13, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        M("recv1");
        MPI_Recv(&x, 1, MPI_INT, 1, 13, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    M("bar");
    MPI_Barrier(MPI_COMM_WORLD);
    SCEN_END(h)
}

/* argv[2]: "NAME" or "NAME,NAME...": the scenarios to run (alone, then end) */
static int listed(const char *only, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = only; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == 0))
            return 1;
    return 0;
}

/* every rank starts the scenario at the same instant */
static void start(void)
{
    t0 = scenario_start(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1)
        D = atof(argv[1]);
    if (size != 4) {
        if (rank == 0)
            fprintf(stderr, "waitstates: needs 4 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm sub;
    MPI_Comm_split(MPI_COMM_WORLD, rank >= 2 ? 0 : MPI_UNDEFINED, rank, &sub);
    static const struct {
        const char *name;
        void (*run)(void);
    } scen[] = {{"ls_recv", ls_recv},
                {"ls_wait", ls_wait},
                {"ls_probe_chain", ls_probe_chain},
                {"ls_wrong_order", ls_wrong_order},
                {"ls_nb_probe", ls_nb_probe},
                {"ls_lr_probe", ls_lr_probe},
                {"lr_wait", lr_wait},
                {"barrier", barrier},
                {"nxn", nxn},
                {"late_bcast", late_bcast},
                {"early_reduce", early_reduce},
                {"lt_barrier", lt_barrier},
                {"lt_lr", lt_lr},
                {"lt_reduce", lt_reduce},
                /* the last two: run only when asked for by name */
                {"pingpong", pingpong},
                {"wo_barrier", wo_barrier}};
    /* argv[2]: run only those scenarios (listed), then end; argv[3]: the rank that ends last (it works
     * until 4D after the start), where the critical path ends (the critical-path tests) */
    const char *only = argc > 2 ? argv[2] : NULL;
    int last = argc > 3 ? atoi(argv[3]) : -1;
    for (size_t i = 0; i < sizeof scen / sizeof scen[0]; i++) {
        if (only ? !listed(only, scen[i].name)
                 : scen[i].run == pingpong || scen[i].run == wo_barrier)
            continue;
        start();
        scen[i].run();
    }
    if (only) {
        if (rank == last)
            spin_to(4);
        if (sub != MPI_COMM_NULL)
            MPI_Comm_free(&sub);
        MPI_Finalize();
        marks_print(&marks);
        return 0;
    }
    start();
    ls_subcomm(sub);
    if (sub != MPI_COMM_NULL)
        MPI_Comm_free(&sub);
    MPI_Finalize();
    marks_print(&marks);
    if (rank == 0)
        printf("waitstates done D=%g\n", D);
    return 0;
}
