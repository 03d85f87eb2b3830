/* SPDX-License-Identifier: BSD-3-Clause */
/* report_expdir.c: what scorep-report finds in an experiment directory (profile, trace,
 * scorep.cfg, MANIFEST.md) and the report's "meta" and "config" members. */
#include "report.h"
#include "symbols/plugin_notes.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { MAX_TEXT = 1 << 20 }; /* larger scorep.cfg/MANIFEST.md are cut: they are notes */

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", dir, name);
    return p;
}

static bool is_file(const char *path)
{
    struct stat st;
    return path && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* A regular file's contents (at most MAX_TEXT bytes), or NULL when absent. */
static char *read_text(const char *dir, const char *name)
{
    char *path = join(dir, name);
    FILE *f = is_file(path) ? fopen(path, "r") : NULL;
    free(path);
    if (f == NULL)
        return NULL;
    char *buf = malloc(MAX_TEXT + 1);
    size_t n = buf ? fread(buf, 1, MAX_TEXT, f) : 0;
    fclose(f);
    if (buf)
        buf[n] = '\0';
    return buf;
}

/* profile.cubex, else the only *.cubex but scout.cubex (SCOREP_PROFILING_BASE_NAME may
 * differ). */
static char *find_profile(const char *dir)
{
    char *p = join(dir, "profile.cubex");
    if (is_file(p))
        return p;
    free(p);
    p = NULL;
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len > 6 && strcmp(e->d_name + len - 6, ".cubex") == 0 &&
            strcmp(e->d_name, "scout.cubex") != 0 && n++ == 0)
            p = join(dir, e->d_name);
    }
    if (d)
        closedir(d);
    if (n != 1) {
        free(p);
        return NULL;
    }
    return p;
}

int report_expdir_open(report_expdir *x, const char *dir, char *err, size_t errlen)
{
    memset(x, 0, sizeof *x);
    x->dir = dir;
    struct stat st;
    if (stat(dir, &st) != 0) {
        snprintf(err, errlen, "cannot open the experiment directory %s: %s", dir, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s is not a directory (give the experiment directory)", dir);
        return -1;
    }
    x->profile = find_profile(dir);
    x->trace = join(dir, "traces.otf2");
    if (!is_file(x->trace)) {
        free(x->trace);
        x->trace = NULL;
    }
    if (x->profile == NULL && x->trace == NULL) {
        snprintf(err, errlen,
                 "%s is not an experiment directory: it holds neither profile.cubex nor "
                 "traces.otf2",
                 dir);
        return -1;
    }
    x->scout = join(dir, "scout.cubex");
    if (!is_file(x->scout)) {
        free(x->scout);
        x->scout = NULL;
    }
    x->taskgraph = join(dir, "taskgraph.dot");
    if (!is_file(x->taskgraph)) {
        free(x->taskgraph);
        x->taskgraph = NULL;
    }
    x->config = read_text(dir, "scorep.cfg");
    x->manifest = read_text(dir, "MANIFEST.md");
    return 0;
}

void report_expdir_free(report_expdir *x)
{
    free(x->profile);
    free(x->trace);
    free(x->config);
    free(x->manifest);
    free(x->scout);
    free(x->taskgraph);
}

/* MANIFEST.md's reduction notes: its sections ("## ...") after the list of files, less the one
 * of what the compiler plugin left out (a fact of the build, not of the measurement; the
 * substrate plugins append theirs after it). NULL when there are none, else for free(). */
static char *reduction_notes(const char *manifest)
{
    if (manifest == NULL)
        return NULL;
    const char *s = strncmp(manifest, "## ", 3) == 0 ? manifest : strstr(manifest, "\n## ");
    if (s == NULL)
        return NULL;
    s += *s == '\n';
    const char *cut = strstr(s, SCOREP_LEFTOUT_HEADING "\n"), *rest = "";
    size_t n = strlen(s);
    if (cut != NULL && (cut == s || cut[-1] == '\n')) {
        n = (size_t)(cut - s);
        const char *next = strstr(cut, "\n## ");
        rest = next ? next + 1 : "";
    }
    if (n + strlen(rest) == 0)
        return NULL;
    char *notes = malloc(n + strlen(rest) + 1);
    if (notes != NULL) {
        memcpy(notes, s, n);
        strcpy(notes + n, rest);
    }
    return notes;
}

int report_write_expdir(FILE *out, const report_expdir *x)
{
    json_key(out, "meta", false);
    fputc('{', out);
    json_member(out, "directory", x->dir, true);
    json_member(out, "profile", x->profile, false);
    json_member(out, "trace", x->trace, false);
    json_member(out, "scout", x->scout, false);
    fputc('}', out);
    json_key(out, "config", false);
    fputc('{', out);
    json_member(out, "scorep_cfg", x->config, true);
    json_member(out, "manifest", x->manifest, false);
    char *reduction = reduction_notes(x->manifest);
    json_member(out, "reduction", reduction, false);
    free(reduction);
    fputc('}', out);
    return 0;
}
