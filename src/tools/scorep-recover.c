/* SPDX-License-Identifier: BSD-3-Clause */
/* scorep-recover: makes profile.cubex and traces.otf2 of a job whose ranks ended without
 * MPI_Finalize (a signal, MPI_Abort, exit(), SIGKILL after a checkpoint) from the rank-local
 * pieces they left in EXPDIR/rescue. One child process per rank of the job, connected by
 * sockets, runs the finalize's own writers (src/runtime/recover.c), a rank without a piece
 * standing in with a location without events; under mpirun with as many processes as the
 * job had ranks, each MPI process plays one (recover_mpi.c). */
#include "runtime/runtime.h"
#include "ipc/ipc_mesh.h"
#include "tools/recover_mpi.h"

#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The runtime looks this up (dlsym) and measures nothing in this program. */
__attribute__((visibility("default"))) const int scorep_recover_tool_present = 1;

typedef struct {
    char path[PATH_MAX + 64];
    scorep_piece_info info;
} piece;

static int by_rank(const void *a, const void *b)
{
    return ((const piece *)a)->info.rank - ((const piece *)b)->info.rank;
}

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: scorep-recover EXPDIR\n"
            "Makes EXPDIR/profile.cubex and EXPDIR/traces.otf2 (as the settings of the run\n"
            "asked) of a job whose ranks ended without MPI_Finalize, from the rank-local\n"
            "pieces they left in EXPDIR/rescue (a signal, MPI_Abort, exit() without\n"
            "MPI_Finalize; SIGKILL after a checkpoint, SCOREP_CHECKPOINT_INTERVAL). MANIFEST.md\n"
            "and the Cube file say which rank ended how; a rank without a piece is listed as\n"
            "missing. `mpirun -np N scorep-recover EXPDIR` with N = the job's number of\n"
            "ranks (those without a piece too: each rank gets a location, without events for a\n"
            "missing one, so the trace's MPI ranks stay the job's) runs the recovery as N MPI\n"
            "processes (large jobs). Exit status 0 (written), 1 (nothing\n"
            "to recover or an error), 2 (usage).\n");
}

/* The pieces in dir/rescue, sorted by rank; *n their count. NULL with *n == 0: none. */
static piece *find_pieces(const char *dir, int *n)
{
    char rescue[PATH_MAX];
    snprintf(rescue, sizeof rescue, "%s/rescue", dir);
    *n = 0;
    DIR *d = opendir(rescue);
    if (!d)
        return NULL;
    piece *p = NULL;
    int cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (strncmp(e->d_name, "rank-", 5) != 0 || len < 7 ||
            strcmp(e->d_name + len - 6, ".piece") != 0)
            continue;
        if (*n == cap) {
            piece *q = realloc(p, (size_t)(cap = cap ? 2 * cap : 16) * sizeof *p);
            if (!q)
                break;
            p = q;
        }
        snprintf(p[*n].path, sizeof p[*n].path, "%s/%s", rescue, e->d_name);
        int rc = scorep_runtime_piece_info(p[*n].path, &p[*n].info);
        if (rc == -2) {
            fprintf(stderr,
                    "scorep-recover: %s was written by another version of scorep-rt (its "
                    "piece format differs); left out, its rank is listed as missing: recover "
                    "it with the scorep-rt that measured the run\n",
                    p[*n].path);
            continue;
        }
        if (rc != 0) {
            fprintf(stderr,
                    "scorep-recover: %s is no whole rank-local piece (cut short or "
                    "damaged); left out, its rank is listed as missing\n",
                    p[*n].path);
            continue;
        }
        (*n)++;
    }
    closedir(d);
    if (*n)
        qsort(p, (size_t)*n, sizeof *p, by_rank);
    return p;
}

/* Per rank of the job, the piece its recovering process reads: its own, or for a rank
 * without one, the first piece (its settings and definitions; the rank stands in with a
 * location without events, *as_missing[r] set). NULL out of memory. */
static const piece **plan_ranks(const piece *p, int n, int size, bool **as_missing)
{
    const piece **of = calloc((size_t)size, sizeof *of);
    *as_missing = calloc((size_t)size, sizeof **as_missing);
    if (!of || !*as_missing) {
        free(of);
        free(*as_missing);
        *as_missing = NULL;
        return NULL;
    }
    for (int r = 0, i = 0; r < size; r++) {
        while (i < n && p[i].info.rank < r)
            i++;
        (*as_missing)[r] = !(i < n && p[i].info.rank == r);
        of[r] = (*as_missing)[r] ? &p[0] : &p[i];
    }
    return of;
}

/* "1, 4-6" of the ranks in [0, size) that have no piece; "" when none. */
static char *missing_ranks(const piece *p, int n, int size)
{
    char *out = calloc((size_t)size * 12 + 1, 1);
    size_t len = 0;
    for (int r = 0, i = 0; out && r < size; r++) {
        while (i < n && p[i].info.rank < r)
            i++;
        if (i < n && p[i].info.rank == r)
            continue;
        len += (size_t)sprintf(out + len, "%s%d", len ? ", " : "", r);
    }
    return out;
}

/* One child per rank of the job (n = size), connected by sockets. */
static int run_children(const char *dir, const piece **p, const bool *as_missing, int n,
                        const char *missing)
{
    int *fds = scorep_ipc_mesh_sockets(n);
    if (!fds) {
        fprintf(stderr, "scorep-recover: cannot make %d x %d sockets: %s\n", n, n, strerror(errno));
        return 1;
    }
    pid_t *kids = calloc((size_t)n, sizeof *kids);
    int failed = !kids;
    for (int i = 0; i < n && !failed; i++) {
        fflush(NULL);
        kids[i] = fork();
        if (kids[i] < 0) {
            fprintf(stderr, "scorep-recover: fork: %s\n", strerror(errno));
            failed = 1;
            break;
        }
        if (kids[i] == 0) {
            scorep_ipc_mesh_close(fds, n, i);
            const struct scorep_ipc *ipc = scorep_ipc_mesh(i, n, fds + (size_t)i * (size_t)n);
            int rc =
                scorep_runtime_recover(dir, p[i]->path, ipc, n, missing, as_missing[i] ? i : -1);
            fflush(NULL);
            _exit(rc == 0 ? 0 : 1);
        }
    }
    scorep_ipc_mesh_close(fds, n, -1); /* a child that dies closes its ends: no one hangs */
    for (int i = 0; i < n && kids; i++) {
        int st = 0;
        if (kids[i] > 0 &&
            (waitpid(kids[i], &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)) {
            fprintf(stderr, "scorep-recover: recovering rank %d failed\n", i);
            failed = 1;
        }
    }
    free(kids);
    free(fds);
    return failed;
}

/* Under mpirun: MPI process r plays rank r of the job (n pieces of size ranks). */
static int run_mpi(const scorep_ipc *ipc, const char *dir, const piece **p, const bool *as_missing,
                   int n, int size, const char *missing)
{
    int me = ipc->rank();
    if (ipc->size() != size) {
        if (me == 0)
            fprintf(stderr,
                    "scorep-recover: %d MPI processes for a job of %d ranks (%d pieces): "
                    "start it with mpirun -np %d\n",
                    ipc->size(), size, n, size);
        return 1;
    }
    int rc = scorep_runtime_recover(dir, p[me]->path, ipc, size, missing, as_missing[me] ? me : -1);
    uint64_t failed = rc != 0;
    ipc->allreduce_max_u64(&failed);
    return failed != 0;
}

static int recover_main(int argc, char **argv, const scorep_ipc *mpi)
{
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        usage(stdout);
        return 0;
    }
    if (argc != 2) {
        usage(stderr);
        return 2;
    }
    const char *dir = argv[1];
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "scorep-recover: '%s' is no experiment directory\n", dir);
        return 1;
    }
    int n;
    piece *p = find_pieces(dir, &n);
    if (n == 0) {
        fprintf(stderr,
                "scorep-recover: '%s/rescue' holds no rank-local pieces: nothing to "
                "recover (a job that ended with MPI_Finalize wrote its results itself)\n",
                dir);
        free(p);
        return 1;
    }
    int size = 0;
    for (int i = 0; i < n; i++) {
        size = p[i].info.size > size ? p[i].info.size : size;
        if (i && p[i].info.rank == p[i - 1].info.rank) {
            fprintf(stderr, "scorep-recover: two pieces of rank %d\n", p[i].info.rank);
            free(p);
            return 1;
        }
    }
    char *missing = missing_ranks(p, n, size);
    bool talk = !mpi || mpi->rank() == 0;
    if (missing && *missing && talk)
        fprintf(stderr, "scorep-recover: rank %s left no whole piece; recovering %d of %d ranks\n",
                missing, n, size);
    bool *as_missing = NULL;
    const piece **of = missing ? plan_ranks(p, n, size, &as_missing) : NULL;
    int rc = 1;
    if (!of)
        fprintf(stderr, "scorep-recover: out of memory\n");
    else
        rc = mpi ? run_mpi(mpi, dir, of, as_missing, n, size, missing)
                 : run_children(dir, of, as_missing, size, missing);
    free(of);
    free(as_missing);
    if (rc == 0 && talk)
        printf("scorep-recover: %d of %d ranks recovered into %s%s\n", n, size, dir,
               mpi ? " (MPI)" : "");
    free(missing);
    free(p);
    return rc;
}

int main(int argc, char **argv)
{
    const scorep_ipc *mpi = scorep_recover_mpi_init(&argc, &argv);
    int rc = recover_main(argc, argv, mpi);
    scorep_recover_mpi_finalize();
    return rc;
}
