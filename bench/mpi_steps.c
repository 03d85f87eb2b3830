/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_steps.c: where the time of a measured MPI message goes, step by step (`make bench`).
 * Built together with the MPI adapter's sources (so its internal functions can be called
 * one at a time) and linked against libscorep-rt; run as one process under mpirun with
 * profiling or tracing on. Each step is repeated N times in each of R rounds; the fastest
 * round is printed in ns per repetition, as "step NAME VALUE". Usage: mpi_steps [R [N]].
 * A non-blocking self pair (MPI_Irecv, MPI_Isend, MPI_Waitall) shows the request
 * bookkeeping. A self message pair (MPI_Send and
 * MPI_Recv of 8 bytes to itself) through the wrappers and through PMPI gives the whole. */
#include "adapters/mpi/mpi_adapter.h"
#include "adapters/mpi/mpi_comm.h"
#include "adapters/mpi/mpi_hooks.h"
#include "core/events_mpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Many short rounds: on a loaded machine some of them run without being preempted. */
static long rounds = 50, n = 5000;
static volatile uint64_t sink;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The index of an MPI function in the generated table (its region). */
static uint32_t fn_index(const char *name)
{
    for (uint32_t i = 0; i < scorep_mpi_fn_count; i++)
        if (strcmp(scorep_mpi_fn_table[i].name, name) == 0)
            return i;
    fprintf(stderr, "mpi_steps: %s is not wrapped\n", name);
    exit(1);
}

/* STEP(name, statement): the fastest of R rounds of n executions, ns each */
#define STEP(name, ...)                                                                            \
    do {                                                                                           \
        double best = 1e30;                                                                        \
        for (long round = 0; round < rounds; round++) {                                            \
            double t0 = now();                                                                     \
            for (long i = 0; i < n; i++) {                                                         \
                __VA_ARGS__;                                                                       \
                __asm__ volatile("" ::: "memory");                                                 \
            }                                                                                      \
            double t = (now() - t0) / (double)n * 1e9;                                             \
            best = t < best ? t : best;                                                            \
        }                                                                                          \
        printf("step %s %.1f\n", name, best);                                                      \
    } while (0)

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc > 1)
        rounds = atol(argv[1]);
    if (argc > 2)
        n = atol(argv[2]);
    if (rounds < 1 || n < 1) {
        fprintf(stderr, "usage: mpi_steps [ROUNDS [N]]\n");
        return 1;
    }
    const uint32_t send_fn = fn_index("MPI_Send"), recv_fn = fn_index("MPI_Recv");
    int rank = 0;
    char buf[8] = {0};
    MPI_Status st;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    scorep_location *l = scorep_location_get();
    scorep_mpi_comm *c = scorep_mpi_comm_get(MPI_COMM_WORLD);
    if (!l || !c || !scorep_measurement_active) {
        fprintf(stderr, "mpi_steps: the measurement is not active\n");
        return 1;
    }
    /* a real status of an 8-byte message */
    PMPI_Send(buf, 8, MPI_BYTE, rank, 0, MPI_COMM_WORLD);
    PMPI_Recv(buf, 8, MPI_BYTE, rank, 0, MPI_COMM_WORLD, &st);

    STEP("empty_loop", (void)0);
    STEP("timer_read", sink += scorep_timer_ticks());
    STEP("location_tls", sink += (uintptr_t)scorep_location_get());
    STEP("comm_lookup", sink += (uintptr_t)scorep_mpi_comm_get(MPI_COMM_WORLD));
    STEP("msgid_send", sink += scorep_mpi_msgid_send_if(c, rank, 0));
    STEP("msgid_recv", sink += scorep_mpi_msgid_recv_if(c, rank, 0));
    STEP("bytes_send", sink += scorep_mpi_type_bytes(8, MPI_BYTE));
    STEP("bytes_recv", sink += scorep_mpi_status_bytes(&st));
    STEP("recv_ok", sink += (uint64_t)scorep_mpi_received(MPI_SUCCESS));
    scorep_mpi_frame f;
    STEP("enter_leave", if (scorep_mpi_begin(&f, send_fn, 1)) scorep_mpi_end(&f));
    STEP("event_send", scorep_event_mpi_send(l, SCOREP_TS_NEXT, c->id, 0, 0, 8, 1));
    STEP("event_recv", scorep_event_mpi_recv(l, 1, c->id, 0, 0, 8, 1, 0));
    STEP(
        "pre_send", if (scorep_mpi_begin(&f, send_fn, 1)) {
            scorep_mpi_pre_send(&f, 8, MPI_BYTE, rank, 0, MPI_COMM_WORLD);
            scorep_mpi_end(&f);
        });
    STEP(
        "post_recv", if (scorep_mpi_begin(&f, recv_fn, 1)) {
            scorep_mpi_post_recv(&f, MPI_SUCCESS, rank, 0, MPI_COMM_WORLD, &st);
            scorep_mpi_end(&f);
        });
    int r;
    STEP("commrank_plain", PMPI_Comm_rank(MPI_COMM_WORLD, &r));
    STEP("commrank_wrapped", MPI_Comm_rank(MPI_COMM_WORLD, &r));
    STEP("pair_plain", PMPI_Send(buf, 8, MPI_BYTE, rank, 0, MPI_COMM_WORLD);
         PMPI_Recv(buf, 8, MPI_BYTE, rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    STEP("pair_wrapped", MPI_Send(buf, 8, MPI_BYTE, rank, 0, MPI_COMM_WORLD);
         MPI_Recv(buf, 8, MPI_BYTE, rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MPI_Request rq[2];
    char in[8];
    STEP("nb_pair_plain", PMPI_Irecv(in, 8, MPI_BYTE, rank, 1, MPI_COMM_WORLD, &rq[0]);
         PMPI_Isend(buf, 8, MPI_BYTE, rank, 1, MPI_COMM_WORLD, &rq[1]);
         PMPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    STEP("nb_pair_wrapped", MPI_Irecv(in, 8, MPI_BYTE, rank, 1, MPI_COMM_WORLD, &rq[0]);
         MPI_Isend(buf, 8, MPI_BYTE, rank, 1, MPI_COMM_WORLD, &rq[1]);
         MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    MPI_Finalize();
    return 0;
}
