/* SPDX-License-Identifier: BSD-3-Clause */
/* libwrap.c: the instrumenter's side of user library wrapping: --libwrap= finds NAME.libwrap
 * (the anchor file `make install` of a scorep-libwrap-init directory writes) in the prefixes
 * of SCOREP_LIBWRAP_PATH, then in scorep-rt's own, as Score-P's scorep does; the link gets
 * the wrapper's libraries. */
#include "tools/instrumenter/libwrap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void lw_die(const char *fmt, const char *a, const char *b) __attribute__((noreturn));
static void lw_die(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "%s: ", instr_prog);
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    exit(1);
}

static void add(struct instr_libwraps *lw, bool runtime, const char *anchor)
{
    if (lw->n == INSTR_MAX_LIBWRAPS)
        lw_die("--libwrap: more than %s wrappers%s", "16", "");
    if (strlen(anchor) >= PATH_MAX)
        lw_die("--libwrap: path too long: %s%s", anchor, "");
    lw->w[lw->n].runtime = runtime;
    strcpy(lw->w[lw->n].anchor, anchor);
    lw->n++;
}

static bool find(const char *name, char *out, size_t size)
{
    const char *path = getenv("SCOREP_LIBWRAP_PATH");
    char dirs[8192];
    snprintf(dirs, sizeof dirs, "%s%s%s", path ? path : "", path && *path ? ":" : "",
             SCOREP_PREFIX);
    for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        int n = snprintf(out, size, "%s/share/scorep/%s.libwrap", d, name);
        if (n > 0 && (size_t)n < size && access(out, R_OK) == 0)
            return true;
    }
    return false;
}

void instr_libwrap_option(const char *value, struct instr_libwraps *lw)
{
    bool runtime = false;
    if (strncmp(value, "linktime:", 9) == 0)
        value += 9;
    else if (strncmp(value, "runtime:", 8) == 0)
        runtime = true, value += 8;
    if (*value == '\0')
        lw_die("--libwrap=: name a library wrapper (--libwrap=[linktime:|runtime:]NAME)%s%s", "",
               "");
    if (strchr(value, '/')) {
        size_t len = strlen(value);
        if (len < 9 || strcmp(value + len - 8, ".libwrap") != 0 || access(value, R_OK) != 0)
            lw_die("--libwrap=%s: no such library wrapper (a path names its "
                   "PREFIX/share/scorep/NAME.libwrap file)%s",
                   value, "");
        char abs[PATH_MAX];
        add(lw, runtime, realpath(value, abs) ? abs : value);
        return;
    }
    char buf[4096];
    if (strlen(value) >= sizeof buf)
        lw_die("--libwrap=%s: too long%s", value, "");
    strcpy(buf, value);
    for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        char anchor[PATH_MAX];
        if (!find(w, anchor, sizeof anchor)) {
            const char *path = getenv("SCOREP_LIBWRAP_PATH");
            fprintf(stderr,
                    "%s: --libwrap: library wrapper '%s' not found: no %s.libwrap in "
                    "SCOREP_LIBWRAP_PATH (%s) nor in %s/share/scorep; build and install it with "
                    "scorep-libwrap-init (make install), and set SCOREP_LIBWRAP_PATH to its "
                    "--prefix\n",
                    instr_prog, w, w, path && *path ? path : "not set", SCOREP_PREFIX);
            exit(1);
        }
        add(lw, runtime, anchor);
    }
}

/* the wrapper's prefix and name from its anchor PREFIX/share/scorep/NAME.libwrap */
static void prefix_name(const char *anchor, char *prefix, char *name)
{
    strcpy(prefix, anchor);
    char *slash = strrchr(prefix, '/');
    snprintf(name, PATH_MAX, "%s", slash + 1);
    name[strlen(name) - 8] = '\0'; /* .libwrap */
    *slash = '\0';
    for (int up = 0; up < 2 && (slash = strrchr(prefix, '/')); up++)
        *slash = '\0';
}

/* KEY=value of the anchor; "" when absent */
static void anchor_value(const char *anchor, const char *key, char *out, size_t size)
{
    FILE *f = fopen(anchor, "r");
    char line[8192];
    size_t klen = strlen(key);
    *out = '\0';
    if (!f)
        lw_die("--libwrap: cannot read %s%s", anchor, "");
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, klen) == 0 && line[klen] == '=') {
            line[strcspn(line, "\n")] = '\0';
            snprintf(out, size, "%s", line + klen + 1);
            break;
        }
    }
    fclose(f);
}

static void need_file(const char *path, const char *anchor)
{
    if (access(path, R_OK) != 0)
        lw_die("--libwrap: %s of the wrapper %s is missing (run make install in its "
               "scorep-libwrap-init directory again)",
               path, anchor);
}

void instr_push_libwrap_front(struct argv_buf *cmd, const struct instr_libwraps *lw)
{
    for (int i = 0; i < lw->n; i++) {
        if (!lw->w[i].runtime)
            continue;
        char prefix[PATH_MAX], name[PATH_MAX], lib[2 * PATH_MAX + 64];
        prefix_name(lw->w[i].anchor, prefix, name);
        snprintf(lib, sizeof lib, "%s/lib/libscorep_libwrap_%s.so", prefix, name);
        need_file(lib, lw->w[i].anchor);
        /* named even when nothing refers to it yet: it interposes */
        argv_push(cmd, "-Wl,--push-state,--no-as-needed");
        argv_push(cmd, lib);
        argv_push(cmd, "-Wl,--pop-state");
        snprintf(lib, sizeof lib, "-Wl,-rpath,%s/lib", prefix);
        argv_push(cmd, lib);
    }
}

void instr_push_libwrap_back(struct argv_buf *cmd, const struct instr_libwraps *lw)
{
    for (int i = 0; i < lw->n; i++) {
        if (lw->w[i].runtime)
            continue;
        char prefix[PATH_MAX], name[PATH_MAX], path[2 * PATH_MAX + 64], line[1024];
        prefix_name(lw->w[i].anchor, prefix, name);
        snprintf(path, sizeof path, "%s/share/scorep/%s.wrap", prefix, name);
        need_file(path, lw->w[i].anchor);
        FILE *f = fopen(path, "r");
        if (!f)
            lw_die("--libwrap: cannot read %s%s", path, "");
        while (fgets(line, sizeof line, f)) {
            line[strcspn(line, "\n")] = '\0';
            if (*line)
                argv_push_joined(cmd, "-Wl,", line);
        }
        fclose(f);
        snprintf(path, sizeof path, "%s/lib/libscorep_libwrap_%s_linktime.a", prefix, name);
        need_file(path, lw->w[i].anchor);
        argv_push(cmd, path);
        char value[8192];
        anchor_value(lw->w[i].anchor, "LIBWRAP_LDFLAGS", value, sizeof value);
        argv_push_words(cmd, value);
        anchor_value(lw->w[i].anchor, "LIBWRAP_LIBS", value, sizeof value);
        argv_push_words(cmd, value);
    }
}
