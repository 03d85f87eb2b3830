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
 * test/device/mpi_profile_ab.sh); the self loops the mean ns per iteration and that of the fastest block of 500.
 * The Test loops print the number of calls that found nothing, so that a count per
 * iteration can be checked to be the same in every run.
 * Usage: mpi_bench pingpong N | nbpingpong N | commrank N | short | self N | selfnb N |
 *        selfwait N | selftest N | selftestany N | selfwaitany N | selfwaitsome N |
 *        testpend N | poll N K | outstanding K */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
    else
        MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
