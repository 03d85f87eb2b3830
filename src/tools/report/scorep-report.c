/* scorep-report.c: writes one self-contained HTML report (flame graph, heat map,
 * communication matrix, timeline, top regions, configuration) of an experiment directory.
 *
 *   scorep-report [-o FILE] EXPDIR      (default FILE: EXPDIR/report.html)
 *
 * The page is written to a temporary file next to FILE and renamed at the end, so a failed
 * run leaves no half-written report. Exit status: 0 written, 1 bad input or write error,
 * 2 usage error. */
#include "report.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *fp)
{
    fprintf(fp, "usage: scorep-report [-o FILE] EXPDIR\n"
                "  writes an HTML report of the experiment directory EXPDIR (its profile.cubex\n"
                "  and, when there is one, traces.otf2); it opens without network access\n"
                "  -o FILE  write the report to FILE (default: EXPDIR/report.html)\n");
}

/* Writes the page into a temporary file next to path and renames it to path. */
static int write_report(const report_expdir *x, const char *path, char *err, size_t errlen)
{
    size_t n = strlen(path) + 16;
    char *tmp = malloc(n);
    if (tmp == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    snprintf(tmp, n, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f == NULL) {
        snprintf(err, errlen, "cannot write %s (temporary file %s): %s", path, tmp,
                 strerror(errno));
        if (fd >= 0)
            close(fd);
        free(tmp);
        return -1;
    }
    mode_t mask = umask(0);
    umask(mask);
    int rc = report_write_html(f, x, err, errlen);
    if (rc == 0 && (fchmod(fd, 0666 & ~mask) != 0 || ferror(f)))
        rc = -1;
    if (fclose(f) != 0)
        rc = -1;
    if (rc != 0 && err[0] == '\0')
        snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
    if (rc == 0 && rename(tmp, path) != 0) {
        snprintf(err, errlen, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
        rc = -1;
    }
    if (rc != 0)
        unlink(tmp);
    free(tmp);
    return rc;
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
