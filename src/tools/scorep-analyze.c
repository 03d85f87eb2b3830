/* SPDX-License-Identifier: BSD-3-Clause */
/* scorep-analyze.c: post-mortem wait-state analysis of an experiment's trace (src/analysis,
 * docs/analysis.md): `mpirun -np N scorep-analyze EXPDIR` with N = the number of ranks the
 * trace has; each process reads only its rank's events, the processes replay the recorded
 * communication, and rank 0 writes EXPDIR/scout.cubex and prints a short summary.
 * A trace without MPI ranks (a pure OpenMP, pthread or serial program) is analysed by
 * `scorep-analyze EXPDIR` alone: one process, no MPI_Init (an_net_single.c).
 * One-step form (as `scalasca -analyze`): `scorep-analyze mpirun -np N ./app args` measures
 * the program with tracing and the in-situ analysis (through scorep-run when it is not linked
 * with the runtime); should that leave no report, it analyses the trace post-mortem with the
 * same launcher and N processes. `scorep-analyze ./app args` (an executable file, no
 * launcher) does the same for a program without MPI, into scorep_app_trace. */
#include "analysis/an_load.h"
#include "analysis/an_net_mpi.h"
#include "analysis/analysis.h"

#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: mpirun -np N scorep-analyze EXPDIR\n"
               "       scorep-analyze EXPDIR      (a trace of a program without MPI)\n"
               "       scorep-analyze mpirun -np N [launcher options] PROGRAM [ARGS]\n"
               "       scorep-analyze ./PROGRAM [ARGS]  (a program without MPI)\n"
               "  Analyses EXPDIR/traces.otf2 (a trace of N MPI ranks, recorded with\n"
               "  SCOREP_ENABLE_TRACING=true) with N processes and writes EXPDIR/scout.cubex:\n"
               "  Scalasca's wait-state patterns (Late Sender, Late Receiver, Wait at Barrier,\n"
               "  ...) by call path and rank. The second form measures PROGRAM with tracing\n"
               "  into SCOREP_EXPERIMENT_DIRECTORY (default scorep_PROGRAM_N_trace) and then\n"
               "  analyses it. See docs/analysis.md.\n");
}

/* ------------------------------------------------------------ one-step form */
static int is_launcher(const char *a)
{
    const char *b = strrchr(a, '/');
    b = b ? b + 1 : a;
    return !strcmp(b, "mpirun") || !strcmp(b, "mpiexec") || !strcmp(b, "orterun") ||
           !strcmp(b, "srun");
}

static int runnable(const char *a)
{
    if (strchr(a, '/'))
        return access(a, X_OK) == 0;
    const char *path = getenv("PATH");
    char buf[4096];
    for (const char *p = path; p && *p;) {
        const char *e = strchr(p, ':');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        snprintf(buf, sizeof buf, "%.*s/%s", (int)n, p, a);
        if (access(buf, X_OK) == 0)
            return 1;
        p = e ? e + 1 : NULL;
    }
    return 0;
}

/* does the file name the runtime library (linked with it, so no scorep-run needed)? */
static int linked_with_runtime(const char *prog)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", prog);
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    static const char needle[] = "libscorep-rt";
    char buf[65536 + sizeof needle];
    size_t keep = 0, n;
    int found = 0;
    while (!found && (n = fread(buf + keep, 1, 65536, f)) > 0) {
        size_t len = keep + n;
        found = memmem(buf, len, needle, sizeof needle - 1) != NULL;
        keep = len < sizeof needle ? len : sizeof needle - 1;
        memmove(buf, buf + len - keep, keep);
    }
    fclose(f);
    return found;
}

static int run(char **argv)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        execvp(argv[0], argv);
        fprintf(stderr, "scorep-analyze: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int st;
    if (waitpid(pid, &st, 0) < 0)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int one_step(int argc, char **argv, int launcher)
{
    int app = launcher ? 0 : 1, np = launcher ? 0 : 1; /* without a launcher: one process */
    for (int i = 2; launcher && i < argc && !app; i++) {
        const char *prev = argv[i - 1];
        if ((!strcmp(prev, "-np") || !strcmp(prev, "-n") || !strcmp(prev, "--np") ||
             !strcmp(prev, "-c")) &&
            !np)
            np = atoi(argv[i]);
        else if (argv[i][0] != '-' && runnable(argv[i]))
            app = i;
    }
    if (!app || np <= 0) {
        fprintf(stderr, "scorep-analyze: give the launcher's process count and the program: "
                        "scorep-analyze mpirun -np N PROGRAM [ARGS]\n");
        return 2;
    }
    char exe[4096], dir[4096], self_dir[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        fprintf(stderr, "scorep-analyze: cannot find its own executable\n");
        return 1;
    }
    exe[n] = 0;
    snprintf(self_dir, sizeof self_dir, "%s", exe);
    *strrchr(self_dir, '/') = 0;
    const char *base = strrchr(argv[app], '/') ? strrchr(argv[app], '/') + 1 : argv[app];
    const char *env_dir = getenv("SCOREP_EXPERIMENT_DIRECTORY");
    if (env_dir && *env_dir)
        snprintf(dir, sizeof dir, "%s", env_dir);
    else if (launcher)
        snprintf(dir, sizeof dir, "scorep_%s_%d_trace", base, np);
    else
        snprintf(dir, sizeof dir, "scorep_%s_trace", base);
    struct stat st;
    if (stat(dir, &st) == 0) {
        fprintf(stderr,
                "scorep-analyze: %s exists: remove it or set SCOREP_EXPERIMENT_DIRECTORY "
                "to another directory\n",
                dir);
        return 1;
    }
    setenv("SCOREP_EXPERIMENT_DIRECTORY", dir, 1);
    setenv("SCOREP_ENABLE_TRACING", "true", 1);
    setenv("SCOREP_ENABLE_ANALYSIS", "true", 1); /* in situ: at MPI_Finalize, or at the end */
    /* the measurement: the launcher's arguments, scorep-run where needed, the program */
    char run_path[4200];
    snprintf(run_path, sizeof run_path, "%s/scorep-run", self_dir);
    int preload = !linked_with_runtime(argv[app]) && access(run_path, X_OK) == 0;
    char **m = calloc((size_t)argc + 2, sizeof *m);
    char **a = calloc((size_t)app + 3, sizeof *a);
    if (!m || !a)
        return 1;
    int k = 0;
    for (int i = 1; i < app; i++)
        m[k++] = argv[i];
    if (preload)
        m[k++] = run_path;
    for (int i = app; i < argc; i++)
        m[k++] = argv[i];
    if (launcher)
        printf("scorep-analyze: measuring %s with %d processes%s into %s\n", argv[app], np,
               preload ? " (through scorep-run)" : "", dir);
    else
        printf("scorep-analyze: measuring %s (no MPI launcher)%s into %s\n", argv[app],
               preload ? " (through scorep-run)" : "", dir);
    int rc = run(m);
    if (rc != 0 || stat(dir, &st) != 0) {
        fprintf(stderr, "scorep-analyze: the measured run failed (status %d): no analysis\n", rc);
        free(m);
        free(a);
        return 1;
    }
    /* the in-situ analysis wrote the report; if not, post-mortem with the same launcher */
    char report[4200];
    snprintf(report, sizeof report, "%s/scout.cubex", dir);
    if (stat(report, &st) == 0) {
        printf("scorep-analyze: the report is %s\n", report);
        free(m);
        free(a);
        return 0;
    }
    k = 0;
    for (int i = 1; i < app; i++)
        a[k++] = argv[i];
    a[k++] = exe;
    a[k++] = dir;
    rc = run(a);
    free(m);
    free(a);
    if (rc == 0)
        printf("scorep-analyze: the report is %s/scout.cubex\n", dir);
    return rc ? 1 : 0;
}

/* every rank learns whether any failed; the lowest failing rank prints its message */
static int agree(an_net *net, int rc, const char *err)
{
    int rank = an_net_rank(net), size = an_net_size(net);
    int who = rc ? rank : size, first;
    an_net_allreduce(net, &who, &first, 1, AN_T_INT, AN_OP_MIN);
    if (first == size)
        return 0;
    if (rank == first)
        fprintf(stderr, "scorep-analyze: %s\n", err);
    return -1;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* was this process started by an MPI launcher (the variables mpirun, mpiexec and srun give
 * their processes)? Then it is one of the analysis's MPI processes. */
static int under_launcher(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK",
                                       "PMIX_RANK", "MV2_COMM_WORLD_SIZE"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        if (getenv(vars[i]))
            return 1;
    return 0;
}

/* a trace without MPI ranks, outside a launcher: analysed by this one process without MPI */
static int no_mpi_trace(const char *dir)
{
    char anchor[4096], err[512];
    struct stat st;
    uint32_t ranks = 0;
    snprintf(anchor, sizeof anchor, "%s/traces.otf2", dir);
    return !under_launcher() && stat(anchor, &st) == 0 &&
           an_load_otf2_mpi_ranks(anchor, &ranks, err, sizeof err) == 0 && ranks == 0;
}

static void report(const an_options *opt, const an_trace *t, const char *cubex, double t0,
                   double t1, double t2)
{
    if (opt->ccv)
        printf("scorep-analyze: %llu clock condition violations (a receive ends before "
               "its send begins): their waiting times are restricted to the time in the "
               "operation\n",
               (unsigned long long)opt->ccv);
    if (opt->unmatched_sends || opt->unmatched_recvs)
        printf("scorep-analyze: %llu sends and %llu receives without their peer in the "
               "trace: not analysed\n",
               (unsigned long long)opt->unmatched_sends, (unsigned long long)opt->unmatched_recvs);
    if (opt->skipped_inter_colls)
        printf("scorep-analyze: %llu collectives on intercommunicators whose "
               "remote group the trace does not define: not analysed\n",
               (unsigned long long)opt->skipped_inter_colls);
    if (t->reduced)
        printf("scorep-analyze: the trace was reduced or flushed: patterns of the "
               "removed calls are missing\n");
    printf("scorep-analyze: %zu events on rank 0; read %.3f s, replay and report %.3f s\n",
           t->n_events, t1 - t0, t2 - t1);
    printf("scorep-analyze: wrote %s\n", cubex);
}

/* the analysis of the experiment DIR by the processes of NET (MPI or this one process) */
static int analyse(const char *dir, an_net *net)
{
    int rank = an_net_rank(net), size = an_net_size(net);
    char anchor[4096], cubex[4096], err[512] = "";
    struct stat st;
    int rc = 0;
    if (stat(dir, &st) != 0) {
        snprintf(err, sizeof err, "%s: %s (give the experiment directory of a traced run)", dir,
                 strerror(errno));
        rc = -1;
    } else if (!S_ISDIR(st.st_mode)) {
        snprintf(err, sizeof err, "%s is not a directory (give the experiment directory)", dir);
        rc = -1;
    } else {
        snprintf(anchor, sizeof anchor, "%s/traces.otf2", dir);
        snprintf(cubex, sizeof cubex, "%s/scout.cubex", dir);
        if (stat(anchor, &st) != 0) {
            snprintf(err, sizeof err,
                     "%s has no traces.otf2: record the run with SCOREP_ENABLE_TRACING=true", dir);
            rc = -1;
        }
    }
    an_trace t;
    memset(&t, 0, sizeof t);
    double t0 = now(), t1 = t0, t2 = t0;
    if (agree(net, rc, err) == 0)
        rc = agree(net, an_load_otf2(anchor, (uint32_t)rank, (uint32_t)size, &t, err, sizeof err),
                   err);
    else
        rc = -1;
    t1 = now();
    if (rc == 0) {
        an_options opt = {.mode = "post-mortem", .summary = rank == 0 ? stdout : NULL};
        rc = an_analyze(&t, net, cubex, &opt, err, sizeof err);
        t2 = now();
        if (rc != 0 && rank == 0)
            fprintf(stderr, "scorep-analyze: %s\n", err);
        if (rc == 0 && rank == 0)
            report(&opt, &t, cubex, t0, t1, t2);
    }
    an_trace_free(&t);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        usage(stdout);
        return 0;
    }
    if (argc >= 3 && is_launcher(argv[1]))
        return one_step(argc, argv, 1);
    struct stat st;
    if (argc >= 2 && stat(argv[1], &st) == 0 && S_ISREG(st.st_mode) && runnable(argv[1]))
        return one_step(argc, argv, 0); /* a program without MPI, measured and analysed */
    if (argc == 2 && no_mpi_trace(argv[1])) { /* no MPI_Init: one process, its threads */
        an_net *net = an_net_single();
        if (!net) {
            fprintf(stderr, "scorep-analyze: out of memory\n");
            return 1;
        }
        int rc = analyse(argv[1], net);
        an_net_free(net);
        return rc ? 1 : 0;
    }
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc != 2) {
        if (rank == 0)
            usage(stderr);
        MPI_Finalize();
        return 2;
    }
    an_net *net = an_net_mpi(MPI_COMM_WORLD);
    int rc = net ? 0 : -1, bad = !net, any;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any && rank == 0)
        fprintf(stderr, "scorep-analyze: out of memory\n");
    if (!any)
        rc = analyse(argv[1], net);
    an_net_free(net);
    MPI_Finalize();
    return rc || any ? 1 : 0;
}
