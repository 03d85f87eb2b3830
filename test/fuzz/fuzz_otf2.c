/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_otf2.c: libFuzzer harness of the OTF2-reading paths: the trace model of
 * scorep-otf2-to-chrome and scorep-report (src/tools/trace_model.c) and the analysis's loader
 * (src/analysis/an_load_otf2.c), both behind the read guard (src/trace/otf2_read_guard.c).
 * The archive is a one-rank MPI trace (otf2_template/, a valid anchor); the input's first byte
 * chooses the file it replaces (0: the event file traces/0.evt, 1: the local definitions
 * traces/0.def, 2: the global definitions traces.def), the rest is that file's content. Every
 * input must load or fail with a message; none may crash, hang or allocate without bound. */
#include "analysis/an_load.h"
#include "fuzz_input.h"
#include "tools/trace_model.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef FUZZ_OTF2_TEMPLATE
#define FUZZ_OTF2_TEMPLATE "test/fuzz/otf2_template"
#endif

static const char *files[] = {"traces/0.evt", "traces/0.def", "traces.def", "traces.otf2"};
enum { N_FILES = 4 };
static char dir[4096];
static unsigned char *original[N_FILES];
static size_t original_size[N_FILES];

static int put(const char *name, const void *data, size_t size)
{
    char path[sizeof dir + 64];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t n = size ? fwrite(data, 1, size, f) : 0;
    return fclose(f) == 0 && n == size ? 0 : -1;
}

static int load_template(int i)
{
    const char *tpl =
        getenv("FUZZ_OTF2_TEMPLATE") ? getenv("FUZZ_OTF2_TEMPLATE") : FUZZ_OTF2_TEMPLATE;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", tpl, files[i]);
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    original[i] = malloc(1 << 20);
    original_size[i] = original[i] ? fread(original[i], 1, 1 << 20, f) : 0;
    fclose(f);
    return original_size[i] ? 0 : -1;
}

/* the scratch archive goes with the process */
static void remove_archive(void)
{
    char path[sizeof dir + 64];
    for (int i = 0; i < N_FILES; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/traces", dir);
    rmdir(path);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_tmp_template(dir, sizeof dir, "fuzz_otf2");
    char path[sizeof dir + 16];
    snprintf(path, sizeof path, "%s/traces", mkdtemp(dir) ? dir : "/nonexistent");
    if (mkdir(path, 0700) != 0) {
        fprintf(stderr, "fuzz_otf2: cannot make %s\n", path);
        exit(1);
    }
    atexit(remove_archive);
    for (int i = 0; i < N_FILES; i++)
        if (load_template(i) || put(files[i], original[i], original_size[i])) {
            fprintf(stderr, "fuzz_otf2: no template %s (set FUZZ_OTF2_TEMPLATE)\n", files[i]);
            exit(1);
        }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    int which = data[0] % 3;
    for (int i = 0; i < 3; i++)
        put(files[i], i == which ? data + 1 : original[i],
            i == which ? size - 1 : original_size[i]);
    char err[1024] = "";
    tm_trace *t = NULL;
    int verbose = getenv("FUZZ_OTF2_VERBOSE") != NULL; /* to see a reproducer's messages */
    if (tm_load(dir, &t, err, sizeof err) == 0) {
        if (verbose)
            fprintf(stderr, "trace model: %zu events%s%s\n", t->n_events, t->damage[0] ? "; " : "",
                    t->damage);
        tm_free(t);
    } else if (!err[0])
        abort(); /* a refusal without a message */
    else if (verbose)
        fprintf(stderr, "trace model: %s\n", err);
    char anchor[96];
    snprintf(anchor, sizeof anchor, "%s/traces.otf2", dir);
    an_trace at;
    err[0] = '\0';
    int rc = an_load_otf2(anchor, 0, 1, &at, err, sizeof err);
    if (rc != 0 && !err[0])
        abort();
    if (verbose)
        fprintf(stderr, "analysis: %s\n", rc ? err : "loaded");
    an_trace_free(&at);
    return 0;
}
