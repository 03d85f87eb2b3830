/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_bench.c: MPI micro-benchmarks of `make bench`: one-way latency of 8-byte ping-pongs
 * (blocking, and with MPI_Isend/MPI_Irecv/MPI_Waitall), cost of a trivial wrapped call
 * (MPI_Comm_rank), a short run for finalize cost, and one-process loops whose per-iteration
 * cost callgrind counts (one process, messages to itself: no waiting for a peer, so the
 * instruction count is repeatable):
 *   self N       MPI_Send + MPI_Recv of 8 bytes to itself, N times
 *   selfnb N     MPI_Irecv + MPI_Isend + MPI_Waitall to itself, N times
 *   selfwait N   MPI_Irecv + MPI_Isend + MPI_Wait + MPI_Wait to itself, N times
 *   selftest N   MPI_Irecv + MPI_Isend + MPI_Test on each until it completes, N times
 *   selftestany N  MPI_Irecv + MPI_Isend + MPI_Testany over both until both completed
 *   selfwaitany N  MPI_Irecv + MPI_Isend + 2 x MPI_Waitany, N times
 *   selfwaitsome N MPI_Irecv + MPI_Isend + MPI_Waitsome until both completed, N times
 *   testpend N   one receive outstanding, N calls of MPI_Test on it (flag 0), then its message
 *   poll N K     K receives outstanding, N calls of MPI_Testsome over them (none completes),
 *                then the K messages and MPI_Testsome until all are done
 *   outstanding K  K receives posted at once (memory of the request table), then completed
 * pingpong/nbpingpong print the mean one-way latency and that of the fastest block of 500
 * round trips (MPI_BENCH_TURN_SPIN=K: pingpong spins K dependent multiply-adds after each
 * receive, work of a known size in the turnaround where a tool's Leave and Enter lie:
 * test/device/mpi_profile_ab.sh); the self loops the mean ns per iteration and that of the
 * fastest block of 500. And:
 *   paced N D    the blocking ping-pong paced: after each MPI_Recv returns, the program reads
 *                the time stamp counter and spins until D ns after that reading, then sends.
 *                Each message meets a peer that has been polling in MPI_Recv for about D ns,
 *                whatever the tool did, so one-way = D + transport + the tool's work on the
 *                message's path (the sender's Enter of MPI_Send and its pre-send hook, the
 *                receiver's post-receive hook and Leave of MPI_Recv) + the spin's overshoot.
 *                Prints the one-way mean, fastest block, and the median, interquartile mean
 *                and minimum of the single round trips (halved), and the spin's overshoot
 *                past its deadline (median, 99th percentile) on each rank (docs/mpi.md,
 *                "A paced ping-pong").
 * The Test loops print the number of calls that found nothing, so that a count per
 * iteration can be checked to be the same in every run.
 * Usage: mpi_bench pingpong N | nbpingpong N | commrank N | short | self N | selfnb N |
 *        selfwait N | selftest N | selftestany N | selfwaitany N | selfwaitsome N |
 *        testpend N | poll N K | outstanding K | paced N D */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Mean one-way latency over all n round trips, and that of the fastest block of BLOCK round
 * trips: on a loaded machine most runs are slowed by preemption, a short block often not. */
enum { BLOCK = 500 };
/* turn_spin(k): k dependent multiply-adds (about 4 cycles each), kept by the volatile sink */
static volatile unsigned long turn_sink;
static inline void turn_spin(long k)
{
    unsigned long x = (unsigned long)k;
    for (long i = 0; i < k; i++)
        x = x * 3 + 1;
    turn_sink = x;
}

static void pingpong(int rank, long n)
{
    char buf[8] = {0};
    double best = 1e30;
    const char *spin_env = getenv("MPI_BENCH_TURN_SPIN");
    long spin = spin_env ? atol(spin_env) : 0;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = now();
    for (long done = 0; done < n;) {
        long m = n - done < BLOCK ? n - done : BLOCK;
        double b0 = now();
        for (long i = 0; i < m; i++) {
            if (rank == 0) {
                MPI_Send(buf, 8, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(buf, 8, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                if (spin)
                    turn_spin(spin);
            } else if (rank == 1) {
                MPI_Recv(buf, 8, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                if (spin)
                    turn_spin(spin);
                MPI_Send(buf, 8, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            }
        }
        double b = (now() - b0) / (2.0 * (double)m);
        best = m == BLOCK && b < best ? b : best;
        done += m;
    }
    double t = now() - t0;
    if (rank == 0)
        printf("pingpong one-way ns mean %.1f block %.1f\n", t / (2.0 * (double)n) * 1e9,
               (best < 1e30 ? best : t / (2.0 * (double)n)) * 1e9);
}

/* ticks(): the time stamp counter where there is one (a read of ~10-20 ns, no system call),
 * else CLOCK_MONOTONIC in ns; the paced ping-pong's deadlines are counted in these */
static inline uint64_t ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#else
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
#endif
}

/* a (ns, ticks) pair read back to back: the tightest bracket of 9 tries, so that a
 * preemption between the two readings does not skew the calibration */
static void tick_pair(double *ns, double *tk)
{
    double best = 1e30;
    for (int i = 0; i < 9; i++) {
        uint64_t a = ticks();
        double t = now();
        uint64_t b = ticks();
        if ((double)(b - a) < best) {
            best = (double)(b - a);
            *ns = t * 1e9;
            *tk = 0.5 * ((double)a + (double)b);
        }
    }
}

/* ticks per ns over 50 ms of CLOCK_MONOTONIC (relative error about 1e-6: a pace of 2000 ns
 * is the same in every run to a few hundredths of a ns) */
static double ticks_per_ns(void)
{
    double n0, k0, n1, k1;
    tick_pair(&n0, &k0);
    while (now() * 1e9 - n0 < 5e7)
        ;
    tick_pair(&n1, &k1);
    return (k1 - k0) / (n1 - n0);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* the value at fraction q of the sorted v[0..n) */
static uint32_t quantile(const uint32_t *v, long n, double q)
{
    long i = (long)(q * (double)(n - 1) + 0.5);
    return v[i < 0 ? 0 : i >= n ? n - 1 : i];
}

/* The paced ping-pong (see the head of this file). Both ranks run the same turn: MPI_Recv,
 * spin to the deadline, MPI_Send, then the bookkeeping (two stores into arrays allocated
 * before), which lies in the shadow of the peer's pace. Rank 0 sends the first message
 * before its loop, rank 1 receives the last one after its loop. Rank 0 also keeps every
 * round trip (from one deadline to the next: two one-way messages), whose median a
 * preemption of a minority of them does not move. */
__attribute__((noinline)) static void paced(int rank, long n, long pace_ns)
{
    char buf[8] = {0};
    if (rank >= 2) { /* a third rank and more only take part in the barrier */
        MPI_Barrier(MPI_COMM_WORLD);
        return;
    }
    double tpn = ticks_per_ns();
    uint64_t d = (uint64_t)((double)pace_ns * tpn + 0.5);
    uint32_t *trip = malloc((size_t)n * sizeof *trip), *over = malloc((size_t)n * sizeof *over);
    if (!trip || !over) {
        fprintf(stderr, "mpi_bench: out of memory for %ld round trips\n", n);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    double best = 1e30;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = now();
    uint64_t last = ticks();
    if (rank == 0)
        MPI_Send(buf, 8, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
    for (long done = 0; done < n;) {
        long m = n - done < BLOCK ? n - done : BLOCK;
        double b0 = now();
        for (long i = done; i < done + m; i++) {
            MPI_Recv(buf, 8, MPI_BYTE, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            uint64_t e = ticks() + d, t;
            do
                t = ticks();
            while (t < e);
            MPI_Send(buf, 8, MPI_BYTE, 1 - rank, 0, MPI_COMM_WORLD);
            over[i] = (uint32_t)(t - e);
            trip[i] = t - last > UINT32_MAX ? UINT32_MAX : (uint32_t)(t - last);
            last = t;
        }
        double b = (now() - b0) / (2.0 * (double)m);
        best = m == BLOCK && b < best ? b : best;
        done += m;
    }
    if (rank == 1)
        MPI_Recv(buf, 8, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double t = now() - t0;
    /* on rank 0, t covers n round trips: its last send (rank 1's extra receive) is eager and
     * waits for nobody */
    qsort(over, (size_t)n, sizeof *over, cmp_u32);
    double ov[2] = {quantile(over, n, 0.5) / tpn, quantile(over, n, 0.99) / tpn};
    if (rank == 1)
        MPI_Send(ov, 2, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
    else if (rank == 0) {
        double ov1[2];
        MPI_Recv(ov1, 2, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        /* the first round trip runs from before the first send: left out */
        long k = n > 1 ? n - 1 : n;
        uint32_t *tr = trip + (n - k);
        qsort(tr, (size_t)k, sizeof *tr, cmp_u32);
        /* the interquartile mean: a reading of the counter may be coarse (10 ns steps in the
         * development VM), so the median of the trips moves in such steps; the mean of their
         * middle half resolves finer, and still leaves out up to a quarter of preempted trips */
        double iqm = 0;
        long lo = k / 4, hi = k - k / 4;
        for (long j = lo; j < hi; j++)
            iqm += tr[j];
        iqm /= (double)(hi - lo);
        printf("paced one-way ns mean %.1f block %.1f median %.1f iqm %.2f min %.1f\n",
               t / (2.0 * (double)n) * 1e9, (best < 1e30 ? best : t / (2.0 * (double)n)) * 1e9,
               quantile(tr, k, 0.5) / tpn / 2.0, iqm / tpn / 2.0, tr[0] / tpn / 2.0);
        printf("paced pace ns %ld ticks/ns %.4f overshoot ns median %.1f %.1f p99 %.1f %.1f\n",
               pace_ns, tpn, ov[0], ov1[0], ov[1], ov1[1]);
    }
    free(trip);
    free(over);
}

/* The same with non-blocking calls: both sides post the receive, send, and wait for both. */
__attribute__((noinline)) static void nbpingpong(int rank, long n)
{
    char out[8] = {0}, in[8];
    MPI_Request rq[2];
    int peer = 1 - rank;
    double best = 1e30;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = now();
    for (long done = 0; done < n;) {
        long m = n - done < BLOCK ? n - done : BLOCK;
        double b0 = now();
        for (long i = 0; i < m && rank < 2; i++) {
            if (rank == 0) {
                MPI_Isend(out, 8, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &rq[1]);
                MPI_Irecv(in, 8, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &rq[0]);
            } else {
                MPI_Irecv(in, 8, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &rq[0]);
                MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
                MPI_Isend(out, 8, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &rq[1]);
            }
            MPI_Waitall(2 - rank, rq, MPI_STATUSES_IGNORE);
        }
        double b = (now() - b0) / (2.0 * (double)m);
        best = m == BLOCK && b < best ? b : best;
        done += m;
    }
    double t = now() - t0;
    if (rank == 0)
        printf("nbpingpong one-way ns mean %.1f block %.1f\n", t / (2.0 * (double)n) * 1e9,
               (best < 1e30 ? best : t / (2.0 * (double)n)) * 1e9);
}

/* SELF_LOOP(name, body): n iterations of body in blocks of BLOCK; prints the mean ns per
 * iteration and that of the fastest block (a mean on a loaded machine is mostly preemption) */
#define SELF_LOOP(name, ...)                                                                       \
    do {                                                                                           \
        double best = 1e30, t0 = now();                                                            \
        for (long done = 0; done < n;) {                                                           \
            long m = n - done < BLOCK ? n - done : BLOCK;                                          \
            double b0 = now();                                                                     \
            for (long i = 0; i < m; i++) {                                                         \
                __VA_ARGS__;                                                                       \
            }                                                                                      \
            double b = (now() - b0) / (double)m;                                                   \
            best = m == BLOCK && b < best ? b : best;                                              \
            done += m;                                                                             \
        }                                                                                          \
        double t = (now() - t0) / (double)n;                                                       \
        printf("%s ns mean %.1f block %.1f\n", name, t * 1e9, (best < 1e30 ? best : t) * 1e9);     \
    } while (0)

__attribute__((noinline)) static void self_blocking(int rank, long n)
{
    char buf[8] = {0};
    SELF_LOOP("self", MPI_Send(buf, 8, MPI_BYTE, rank, 0, MPI_COMM_WORLD);
              MPI_Recv(buf, 8, MPI_BYTE, rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

__attribute__((noinline)) static void self_nonblocking(int rank, long n)
{
    char out[8] = {0}, in[8];
    MPI_Request rq[2];
    SELF_LOOP("selfnb", MPI_Irecv(in, 8, MPI_BYTE, rank, 0, MPI_COMM_WORLD, &rq[0]);
              MPI_Isend(out, 8, MPI_BYTE, rank, 0, MPI_COMM_WORLD, &rq[1]);
              MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
}

/* the same pair completed by one MPI_Wait each (the receive's, then the send's) */
__attribute__((noinline)) static void self_wait(int rank, long n)
{
    char out[8] = {0}, in[8];
    MPI_Request rq[2];
    SELF_LOOP("selfwait", MPI_Irecv(in, 8, MPI_BYTE, rank, 0, MPI_COMM_WORLD, &rq[0]);
              MPI_Isend(out, 8, MPI_BYTE, rank, 0, MPI_COMM_WORLD, &rq[1]);
              MPI_Wait(&rq[0], MPI_STATUS_IGNORE); MPI_Wait(&rq[1], MPI_STATUS_IGNORE));
}

/* the pair completed by MPI_Test on each request, polled until it completes (the polling
 * pattern of programs that overlap work with a message) */
__attribute__((noinline)) static void self_test(int rank, long n)
{
    char out[8] = {0}, in[8];
    MPI_Request rq[2];
    long idle = 0;
    int flag;
    SELF_LOOP(
        "selftest", MPI_Irecv(in, 8, MPI_BYTE, rank, 0, MPI_COMM_WORLD, &rq[0]);
        MPI_Isend(out, 8, MPI_BYTE, rank, 0, MPI_COMM_WORLD, &rq[1]); for (int j = 0; j < 2; j++) {
            while (MPI_Test(&rq[j], &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && !flag)
                idle++;
        });
    printf("selftest idle tests %ld\n", idle);
}

/* the pair completed by MPI_Testany over both, until both completed */
__attribute__((noinline)) static void self_testany(int rank, long n)
{
    char out[8] = {0}, in[8];
    MPI_Request rq[2];
    long idle = 0;
    int flag, index;
    SELF_LOOP(
        "selftestany", MPI_Irecv(in, 8, MPI_BYTE, rank, 0, MPI_COMM_WORLD, &rq[0]);
        MPI_Isend(out, 8, MPI_BYTE, rank, 0, MPI_COMM_WORLD, &rq[1]);
        for (int done = 0; done < 2;) {
            if (MPI_Testany(2, rq, &index, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
                break;
            if (flag)
                done++;
            else
                idle++;
        });
    printf("selftestany idle tests %ld\n", idle);
}

/* the pair completed by two MPI_Waitany */
__attribute__((noinline)) static void self_waitany(int rank, long n)
{
    char out[8] = {0}, in[8];
    MPI_Request rq[2];
    int index;
    SELF_LOOP("selfwaitany", MPI_Irecv(in, 8, MPI_BYTE, rank, 0, MPI_COMM_WORLD, &rq[0]);
              MPI_Isend(out, 8, MPI_BYTE, rank, 0, MPI_COMM_WORLD, &rq[1]);
              MPI_Waitany(2, rq, &index, MPI_STATUS_IGNORE);
              MPI_Waitany(2, rq, &index, MPI_STATUS_IGNORE));
}

/* the pair completed by MPI_Waitsome until both completed */
__attribute__((noinline)) static void self_waitsome(int rank, long n)
{
    char out[8] = {0}, in[8];
    MPI_Request rq[2];
    int outcount, idx[2];
    long calls = 0;
    SELF_LOOP(
        "selfwaitsome", MPI_Irecv(in, 8, MPI_BYTE, rank, 0, MPI_COMM_WORLD, &rq[0]);
        MPI_Isend(out, 8, MPI_BYTE, rank, 0, MPI_COMM_WORLD, &rq[1]);
        for (int left = 2; left > 0; left -= outcount == MPI_UNDEFINED ? left : outcount) {
            MPI_Waitsome(2, rq, &outcount, idx, MPI_STATUSES_IGNORE);
            calls++;
        });
    printf("selfwaitsome calls %ld\n", calls);
}

/* one receive outstanding and n calls of MPI_Test that find it incomplete, then its message */
__attribute__((noinline)) static void test_pending(int rank, long n)
{
    char in, out = 1;
    MPI_Request rq;
    int flag = 0;
    long idle = 0;
    MPI_Irecv(&in, 1, MPI_BYTE, rank, 1, MPI_COMM_WORLD, &rq);
    SELF_LOOP("testpend", MPI_Test(&rq, &flag, MPI_STATUS_IGNORE); idle += !flag);
    MPI_Send(&out, 1, MPI_BYTE, rank, 1, MPI_COMM_WORLD);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    printf("testpend idle tests %ld\n", idle);
}

/* k receives outstanding, n idle polls over them, then the messages and polls to the end;
 * prints ns per idle poll */
__attribute__((noinline)) static void poll(int rank, long n, int k)
{
    MPI_Request *rq = malloc((size_t)k * sizeof *rq);
    int *idx = malloc((size_t)k * sizeof *idx);
    char *in = malloc((size_t)k), out = 1;
    if (!rq || !idx || !in) {
        fprintf(stderr, "mpi_bench: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int j = 0; j < k; j++)
        MPI_Irecv(&in[j], 1, MPI_BYTE, rank, j, MPI_COMM_WORLD, &rq[j]);
    int outcount = 0;
    double t0 = now();
    for (long i = 0; i < n; i++)
        MPI_Testsome(k, rq, &outcount, idx, MPI_STATUSES_IGNORE);
    double t = now() - t0;
    for (int j = 0; j < k; j++)
        MPI_Send(&out, 1, MPI_BYTE, rank, j, MPI_COMM_WORLD);
    for (int left = k; left > 0; left -= outcount == MPI_UNDEFINED ? left : outcount)
        MPI_Testsome(k, rq, &outcount, idx, MPI_STATUSES_IGNORE);
    printf("poll ns %.1f\n", t / (double)(n > 0 ? n : 1) * 1e9);
    free(rq);
    free(idx);
    free(in);
}

/* k receives posted at once and left outstanding while the process reports its peak memory
 * (VmHWM), then completed */
static void outstanding(int rank, int k)
{
    MPI_Request *rq = malloc((size_t)k * sizeof *rq);
    char *in = malloc((size_t)k), out = 1;
    if (!rq || !in) {
        fprintf(stderr, "mpi_bench: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int j = 0; j < k; j++)
        MPI_Irecv(&in[j], 1, MPI_BYTE, rank, 0, MPI_COMM_WORLD, &rq[j]);
    FILE *st = fopen("/proc/self/status", "r");
    char line[256];
    while (st && fgets(line, sizeof line, st))
        if (strncmp(line, "VmHWM:", 6) == 0)
            printf("outstanding %d peak_kB %ld\n", k, atol(line + 6));
    if (st)
        fclose(st);
    for (int j = 0; j < k; j++)
        MPI_Send(&out, 1, MPI_BYTE, rank, 0, MPI_COMM_WORLD);
    MPI_Waitall(k, rq, MPI_STATUSES_IGNORE);
    free(rq);
    free(in);
}

static void commrank(int rank, long n)
{
    int r = 0;
    double t0 = now();
    for (long i = 0; i < n; i++)
        MPI_Comm_rank(MPI_COMM_WORLD, &r);
    double t = now() - t0;
    if (rank == 0)
        printf("commrank ns %.1f\n", t / (double)n * 1e9);
}

/* the modes that take the rank and the count of iterations */
static const struct {
    const char *name;
    void (*run)(int rank, long n);
} modes[] = {
    {"pingpong", pingpong},          {"nbpingpong", nbpingpong},    {"commrank", commrank},
    {"self", self_blocking},         {"selfnb", self_nonblocking},  {"selfwait", self_wait},
    {"selftest", self_test},         {"selftestany", self_testany}, {"selfwaitany", self_waitany},
    {"selfwaitsome", self_waitsome}, {"testpend", test_pending},
};

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long n = argc > 2 ? atol(argv[2]) : 100000;
    const char *mode = argc > 1 ? argv[1] : "";
    size_t m = 0;
    while (m < sizeof modes / sizeof modes[0] && strcmp(mode, modes[m].name) != 0)
        m++;
    if (m < sizeof modes / sizeof modes[0])
        modes[m].run(rank, n);
    else if (strcmp(mode, "poll") == 0)
        poll(rank, n, argc > 3 ? atoi(argv[3]) : 64);
    else if (strcmp(mode, "outstanding") == 0)
        outstanding(rank, (int)n);
    else if (strcmp(mode, "paced") == 0) {
        /* both numbers whole (atol would take "1e3" or "x" as 1 or 0) */
        char *end_n = NULL, *end_d = NULL;
        const char *arg_n = argc > 2 ? argv[2] : "100000", *arg_d = argc > 3 ? argv[3] : "1000";
        n = strtol(arg_n, &end_n, 10);
        long d = strtol(arg_d, &end_d, 10);
        int size;
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        if (*arg_n == '\0' || *end_n != '\0' || *arg_d == '\0' || *end_d != '\0' || n < 1 ||
            d < 0 || d > 100000000 || size < 2) {
            if (rank == 0)
                fprintf(stderr,
                        "mpi_bench: paced N D needs N >= 1 round trips, 0 <= D <= 10^8 ns "
                        "and 2 ranks (got N '%s', D '%s', %d ranks)\n",
                        arg_n, arg_d, size);
            MPI_Finalize();
            return 2;
        }
        paced(rank, n, d);
    } else
        MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
