/* scorep-report.c: writes one self-contained HTML report (flame graph, heat map,
 * communication matrix, timeline, top regions, configuration) of an experiment directory.
 *
 *   scorep-report [-o FILE] EXPDIR      (default FILE: EXPDIR/report.html)
 *
 * The page is written to a temporary file next to FILE and renamed at the end, so a failed
 * or interrupted run leaves no half-written report (src/tools/atomic_file.h). Exit status: 0
 * written, 1 bad input or write error, 2 usage error. */
#include "report.h"
#include "tools/atomic_file.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *fp)
{
    fprintf(fp, "usage: scorep-report [-o FILE] EXPDIR\n"
                "  writes an HTML report of the experiment directory EXPDIR (its profile.cubex\n"
                "  and, when there is one, traces.otf2); it opens without network access\n"
                "  -o FILE  write the report to FILE (default: EXPDIR/report.html)\n");
}

/* Writes the page to path, complete or not at all (atomic_file.h). */
static int write_report(const report_expdir *x, const char *path, char *err, size_t errlen)
{
    atomic_file af;
    if (atomic_file_open(&af, path, err, errlen) != 0)
        return -1;
    if (report_write_html(af.fp, x, err, errlen) != 0) {
        atomic_file_abort(&af);
        return -1;
    }
    return atomic_file_commit(&af, err, errlen);
}

int main(int argc, char **argv)
{
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
