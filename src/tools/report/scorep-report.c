/* SPDX-License-Identifier: BSD-3-Clause */
/* scorep-report.c: writes one self-contained HTML report (flame graph, heat map,
 * communication matrix, timeline, top regions, configuration) of an experiment directory.
 *
 *   scorep-report [-o FILE] EXPDIR      (default FILE: EXPDIR/report.html)
 *
 * The page is written to a temporary file next to FILE and renamed at the end, so a failed
 * or interrupted run leaves no half-written report (src/base/atomic_file.h). Exit status: 0
 * written, 1 bad input or write error, 2 usage error.
 *
 *   [mpirun -np N] scorep-report --serve [PORT] EXPDIR|PROFILE.cubex
 *
 * serves the profile to a browser on 127.0.0.1:PORT (report_serve.c) from the distributed
 * Cube engine: under mpirun every process holds a share of the call paths. */
#include "report.h"
#include "cube/cube_engine.h"
#include "cube/cube_engine_mpi.h"
#include "base/atomic_file.h"

#include <sys/stat.h>

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *fp)
{
    fprintf(fp, "usage: scorep-report [-o FILE] EXPDIR\n"
                "       [mpirun -np N] scorep-report --serve [PORT] EXPDIR|PROFILE.cubex\n"
                "  writes an HTML report of the experiment directory EXPDIR (its profile.cubex\n"
                "  and, when there is one, traces.otf2); it opens without network access\n"
                "  -o FILE  write the report to FILE (default: EXPDIR/report.html)\n"
                "  --serve [PORT]  serve the profile on http://127.0.0.1:PORT/ instead (0 or no\n"
                "           PORT: a free port, printed); explores the call tree lazily, values\n"
                "           from the distributed engine (under mpirun: shared by the processes)\n");
}

/* Writes the page to path, complete or not at all (atomic_file.h). */
static int write_report(const report_expdir *x, const char *path, char *err, size_t errlen)
{
    scorep_atomic_file af;
    if (scorep_atomic_open(&af, path, SCOREP_ATOMIC_REMOVE_ON_SIGNAL, err, errlen) != 0)
        return -1;
    if (report_write_html(af.fp, x, err, errlen) != 0) {
        scorep_atomic_abort(&af);
        return -1;
    }
    return scorep_atomic_commit(&af, err, errlen);
}

/* --serve: every process opens the engine; rank 0 serves the browser, the others it. */
static int serve(const char *arg, int port, const cube_engine_comm *comm)
{
    char path[4096], err[1024] = "";
    struct stat st;
    snprintf(path, sizeof path, "%s%s", arg,
             stat(arg, &st) == 0 && S_ISDIR(st.st_mode) ? "/profile.cubex" : "");
    cube_engine *e =
        cube_engine_open(path, comm, CUBE_ENUM_DEEPEST_CHAIN, NULL, 0, err, sizeof err);
    if (e == NULL) {
        if (comm->rank == 0)
            fprintf(stderr, "scorep-report: %s\n", err);
        return 1;
    }
    int rc = comm->rank != 0 ? cube_engine_serve(e) : report_serve(e, port, err, sizeof err);
    if (rc != 0 && comm->rank == 0)
        fprintf(stderr, "scorep-report: %s\n", err);
    cube_engine_close(e);
    return rc == 0 ? 0 : 1;
}

static int serve_main(int argc, char **argv, const cube_engine_comm *comm)
{
    int i = 2, port = 0; /* argv[1] is --serve */
    if (i < argc - 1) {
        char *end;
        long v = strtol(argv[i], &end, 10);
        if (*end || v < 0 || v > 65535) {
            fprintf(stderr, "scorep-report: --serve: '%s' is not a port (0-65535)\n", argv[i]);
            return 2;
        }
        port = (int)v;
        i++;
    }
    if (i != argc - 1) {
        usage(stderr);
        return 2;
    }
    return serve(argv[i], port, comm);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--serve") == 0) {
        cube_engine_comm comm;
        cube_engine_transport_init(&argc, &argv, &comm);
        int rc = serve_main(argc, argv, &comm);
        cube_engine_transport_finalize();
        return rc;
    }
    static const struct option longs[] = {{"output", required_argument, NULL, 'o'},
                                          {"help", no_argument, NULL, 'h'},
                                          {NULL, 0, NULL, 0}};
    const char *out = NULL;
    for (int c; (c = getopt_long(argc, argv, "o:h", longs, NULL)) != -1;) {
        if (c == 'o')
            out = optarg;
        else if (c == 'h') {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "scorep-report: expected exactly one experiment directory\n");
        usage(stderr);
        return 2;
    }
    char err[1024] = "";
    report_expdir x;
    if (report_expdir_open(&x, argv[optind], err, sizeof err) != 0) {
        fprintf(stderr, "scorep-report: %s\n", err);
        return 1;
    }
    char *def = NULL;
    if (out == NULL) {
        size_t n = strlen(x.dir) + sizeof "/report.html";
        def = malloc(n);
        if (def)
            snprintf(def, n, "%s/report.html", x.dir);
        out = def;
    }
    int rc = out ? write_report(&x, out, err, sizeof err) : -1;
    if (rc == 0)
        printf("scorep-report: wrote %s\n", out);
    else
        fprintf(stderr, "scorep-report: %s\n", err[0] ? err : "out of memory");
    free(def);
    report_expdir_free(&x);
    return rc == 0 ? 0 : 1;
}
