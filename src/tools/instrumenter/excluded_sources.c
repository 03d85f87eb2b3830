/* SPDX-License-Identifier: BSD-3-Clause */
/* excluded_sources.c: the source files whose functions scorep-cc leaves uninstrumented, as
 * Score-P leaves system headers out: NVTX's header implementation (its inline functions
 * would wrap the ranges they open: regions that do not nest) and, for nvcc, the CUDA
 * toolkit's headers (cudaMalloc<T>, the host runtime's helpers) and nvcc's registration stub.
 * The toolkit's include directories are those nvcc itself passes to the host compiler
 * (nvcc --dryrun), with the toolkit above the nvcc on PATH as the fallback. */
#include "tools/instrumenter/excluded_sources.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "filter/filter.h"

static void add(struct excluded_sources *list, const char *dir, const char *suffix)
{
    char *path;
    if (asprintf(&path, "%s%s", dir, suffix) < 0)
        instr_die_nomem();
    for (int i = 0; i < list->n; i++) /* a path below a listed one is matched already */
        if (strstr(path, list->paths[i]) != NULL) {
            free(path);
            return;
        }
    char **grown = realloc(list->paths, (size_t)(list->n + 1) * sizeof *grown);
    if (grown == NULL)
        instr_die_nomem();
    list->paths = grown;
    list->paths[list->n++] = path;
}

/* A directory as the compiler spells it (nvcc's bin/../targets) and simplified (the GCC
 * plugin simplifies the file names it matches). */
static void add_dir(struct excluded_sources *list, const char *dir)
{
    add(list, dir, "/");
    char *simple = strdup(dir);
    if (simple == NULL)
        instr_die_nomem();
    scorep_filter_simplify_path(simple);
    add(list, simple, "/");
    char real[PATH_MAX];
    if (realpath(dir, real) != NULL)
        add(list, real, "/");
    free(simple);
}

/* The directories of the -I "dir" and -isystem "dir" words of one "#$ INCLUDES=" line. */
static int add_dryrun_line(struct excluded_sources *list, const char *line, size_t len)
{
    int found = 0;
    char dir[PATH_MAX];
    bool next_is_dir = false;
    for (const char *p = line, *end = line + len; p < end;) {
        p += strspn(p, " \t\"");
        size_t n = strcspn(p, " \t\"\n");
        if (n == 0 || p + n > end)
            break;
        const char *word = p;
        p += n;
        if (n == 8 && strncmp(word, "-isystem", 8) == 0) {
            next_is_dir = true;
            continue;
        }
        bool is_i = n > 2 && strncmp(word, "-I", 2) == 0;
        if (!is_i && !(next_is_dir && word[0] == '/'))
            continue;
        next_is_dir = false;
        if (is_i) {
            word += 2;
            n -= 2;
        }
        if (word[0] == '/' && n < sizeof dir) {
            snprintf(dir, sizeof dir, "%.*s", (int)n, word);
            add_dir(list, dir);
            found++;
        }
    }
    return found;
}

/* The include directories nvcc gives the host compiler (its nvcc.profile's INCLUDES and
 * SYSTEM_INCLUDES, printed by --dryrun); how many were found. */
static int add_nvcc_includes(struct excluded_sources *list, const char *nvcc)
{
    char *const argv[] = {(char *)nvcc, "--dryrun", "-E", "-x", "c++", "/dev/null", NULL};
    char out[16384];
    if (argv_capture(argv, 2, out, sizeof out) < 0)
        return 0;
    int found = 0;
    for (const char *line = out; *line != '\0';) {
        size_t len = strcspn(line, "\n");
        static const char *const keys[] = {"#$ INCLUDES=", "#$ SYSTEM_INCLUDES="};
        for (int k = 0; k < 2; k++)
            if (strncmp(line, keys[k], strlen(keys[k])) == 0)
                found += add_dryrun_line(list, line + strlen(keys[k]),
                                         len - strlen(keys[k]));
        line += len + (line[len] == '\n');
    }
    return found;
}

/* The directory above nvcc's bin/ (the CUDA toolkit), from PATH as the shell finds it. */
static bool cuda_home(const char *nvcc, char *home, size_t size)
{
    const char *path = strchr(nvcc, '/') != NULL ? "" : getenv("PATH");
    for (const char *p = path; p != NULL;) {
        const char *end = strchr(p, ':');
        size_t n = end != NULL ? (size_t)(end - p) : strlen(p);
        int len = n > 0 ? snprintf(home, size, "%.*s/%s", (int)n, p, nvcc)
                        : snprintf(home, size, "%s", nvcc);
        if (len > 0 && (size_t)len < size && access(home, X_OK) == 0) {
            scorep_filter_simplify_path(home); /* bin//nvcc, bin/./nvcc */
            for (int up = 0; up < 2; up++) { /* .../bin/nvcc -> ... */
                char *slash = strrchr(home, '/');
                if (slash == NULL)
                    return false;
                *slash = '\0';
            }
            return home[0] != '\0';
        }
        p = end != NULL ? end + 1 : NULL;
    }
    return false;
}

void instr_excluded_sources(const struct job *job, struct excluded_sources *out)
{
    out->paths = NULL;
    out->n = 0;
    add(out, "/nvtx3/", "");
    char home[PATH_MAX];
    if (!job->kind->cuda || !cuda_home(job->compiler, home, sizeof home))
        return;
    add(out, ".cudafe1.stub.c", "");
    if (add_nvcc_includes(out, job->compiler) > 0)
        return;
    /* an nvcc that prints no --dryrun (a test's stand-in): the toolkit's layout */
    static const char *const below[] = {"/include", "/targets", "/bin/../targets"};
    for (int i = 0; i < 3; i++) {
        char dir[PATH_MAX + 32];
        snprintf(dir, sizeof dir, "%s%s", home, below[i]);
        add(out, dir, "/");
    }
    char real[PATH_MAX];
    if (realpath(home, real) != NULL && strcmp(real, home) != 0) {
        add(out, real, "/include/");
        add(out, real, "/targets/");
    }
}

void instr_excluded_sources_free(struct excluded_sources *list)
{
    for (int i = 0; i < list->n; i++)
        free(list->paths[i]);
    free(list->paths);
    list->paths = NULL;
    list->n = 0;
}
