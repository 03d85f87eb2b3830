/* SPDX-License-Identifier: BSD-3-Clause */
/* test_systree_mpi.c: the construction over real MPI (run with 8 ranks on 2 "nodes", 1 or 2
 * threads per rank): every process must get the same global tree and the same place as the
 * simulated backend computes for the same job, also with all hashes colliding. */
#include "systree/systree_build.h"
#include "systree/systree_comm_mpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RANKS_PER_NODE = 4, MAXLOC = 2 };

typedef struct job {
    char node[32], pname[32];
    systree_level_desc lev[2];
    systree_loc_desc loc[MAXLOC];
    uint64_t (*place)[1 + MAXLOC]; /* per world rank: indices of process and locations */
    int places;
} job;

static int describe(void *arg, uint64_t w, systree_local *out)
{
    job *j = arg;
    snprintf(j->node, sizeof j->node, "node%llu", (unsigned long long)(w / RANKS_PER_NODE));
    snprintf(j->pname, sizeof j->pname, "MPI Rank %llu", (unsigned long long)w);
    j->lev[0] = (systree_level_desc){"machine", "Linux"};
    j->lev[1] = (systree_level_desc){"node", j->node};
    j->loc[0] = (systree_loc_desc){"thread", "Master thread", SYSTREE_LOCATION_CPU_THREAD};
    j->loc[1] = (systree_loc_desc){"thread", "Pthread thread 1", SYSTREE_LOCATION_CPU_THREAD};
    *out = (systree_local){
        2, j->lev, "process", j->pname, SYSTREE_LOCGROUP_PROCESS, 1 + (uint32_t)(w % 2), j->loc};
    return 0;
}

static int keep_place(void *arg, const systree_place *p)
{
    job *j = arg;
    j->place[p->world][0] = p->process.k[0] + p->process.k[1] + p->process.k[2];
    for (uint32_t i = 0; i < p->nlocations; i++)
        j->place[p->world][1 + i] =
            p->locations[i].k[0] + p->locations[i].k[1] + p->locations[i].k[2];
    j->places++;
    return 0;
}

static int build(systree_comm *world, job *j, systree_buf *packed)
{
    systree_list global;
    systree_build_cfg cfg = {describe, keep_place, j};
    if (systree_build(world, &cfg, &global, NULL) != 0)
        return -1;
    int rc = systree_list_pack(&global, packed);
    systree_list_free(&global);
    return rc;
}

static uint32_t constant_hash(const char *path, size_t len, uint32_t seed)
{
    (void)path;
    (void)len;
    (void)seed;
    return 3;
}

/* 0 when this process's tree and place equal the simulation's. */
static int compare(int rank, int size, job *sim, const systree_buf *simbytes)
{
    job real = {.place = calloc((size_t)size, sizeof *real.place)};
    systree_buf bytes = {0};
    systree_comm *world = systree_comm_mpi_create(MPI_COMM_WORLD);
    int bad = real.place == NULL || world == NULL || build(world, &real, &bytes) != 0;
    bad = bad || real.places != 1 || bytes.len != simbytes->len ||
          memcmp(bytes.data, simbytes->data, bytes.len) != 0 ||
          memcmp(real.place[rank], sim->place[rank], sizeof real.place[rank]) != 0;
    if (bad)
        fprintf(stderr, "rank %d: tree or place differs from the simulation\n", rank);
    systree_comm_free(world);
    systree_buf_free(&bytes);
    free(real.place);
    return bad;
}

int main(int argc, char **argv)
{
    int rank, size, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    job sim = {.place = calloc((size_t)size, sizeof *sim.place)};
    systree_buf simbytes = {0};
    systree_comm *simworld = systree_comm_sim_world((uint64_t)size);
    if (sim.place == NULL || simworld == NULL || build(simworld, &sim, &simbytes) != 0 ||
        sim.places != size) {
        fprintf(stderr, "rank %d: the simulation failed\n", rank);
        bad = 1;
    }
    systree_comm_free(simworld);
    bad |= compare(rank, size, &sim, &simbytes);
    systree_hash_hook = constant_hash; /* every node collides with every other */
    bad |= compare(rank, size, &sim, &simbytes);
    int any = 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_systree_mpi: %d ranks, %zu bytes of sequence definitions: %s\n", size,
               simbytes.len, any ? "FAILED" : "ok");
    systree_buf_free(&simbytes);
    free(sim.place);
    MPI_Finalize();
    return any ? 1 : 0;
}
