/* SPDX-License-Identifier: BSD-3-Clause */
/* wrapper.c: Score-P's compiler wrappers scorep-<compiler> (SCOREP_WRAPPER=off,
 * SCOREP_WRAPPER_INSTRUMENTER_FLAGS, SCOREP_WRAPPER_COMPILER_FLAGS) and scorep-wrapper
 * (--help, --create), checked against Score-P's scorep-wrapper script. */
#include "tools/instrumenter/wrapper.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/instrumenter/command.h"
#include "tools/instrumenter/options.h"

#ifndef SCOREP_WRAPPER_INSTANCES
#error "SCOREP_WRAPPER_INSTANCES (the installed wrappers) must be defined by the build"
#endif

/* scorep-<compiler>: expands as Score-P's wrapper does to
 *   scorep $SCOREP_WRAPPER_INSTRUMENTER_FLAGS <compiler> $SCOREP_WRAPPER_COMPILER_FLAGS args
 * or, with SCOREP_WRAPPER=off (or OFF), to the plain `<compiler> args`: what CMake's and
 * configure's compiler checks need. */
int instr_main_wrapper(const char *compiler, int argc, char **argv)
{
    const char *mode = getenv("SCOREP_WRAPPER");
    if (mode != NULL && (strcmp(mode, "off") == 0 || strcmp(mode, "OFF") == 0)) {
        argv[0] = (char *)compiler;
        argv_exec(argv);
    }
    struct job job = {0};
    struct argv_buf words = {0}, args = {0};
    argv_push_words(&words, getenv("SCOREP_WRAPPER_INSTRUMENTER_FLAGS"));
    if (words.n > 0)
        instr_parse_scorep_words(words.v, "SCOREP_WRAPPER_INSTRUMENTER_FLAGS", &job.opt);
    instr_set_compiler(&job, compiler);
    argv_push_words(&args, getenv("SCOREP_WRAPPER_COMPILER_FLAGS"));
    for (int i = 1; i < argc; i++)
        argv_push(&args, argv[i]);
    job.args = args.v != NULL ? args.v : argv + argc;
    job.nargs = (int)args.n;
    /* as Score-P's wrapper: a compiler that is itself (or calls) a scorep-<compiler> wrapper
     * must not instrument a second time */
    if (setenv("SCOREP_WRAPPER", "off", 1) != 0)
        instr_die_nomem();
    return instr_run_job(&job);
}

static void wrapper_usage(FILE *out)
{
    fprintf(out,
            "Usage: scorep-wrapper --create COMPILER [BINDIR]\n"
            "       scorep-<compiler> [compiler arguments...]\n"
            "\n"
            "The wrappers scorep-<compiler> replace a compiler in a build system (CC=scorep-gcc,\n"
            "-DCMAKE_C_COMPILER=scorep-gcc). They run\n"
            "  scorep $SCOREP_WRAPPER_INSTRUMENTER_FLAGS <compiler> "
            "$SCOREP_WRAPPER_COMPILER_FLAGS args...\n"
            "and with SCOREP_WRAPPER=off (or OFF) the plain <compiler> args..., which the\n"
            "configure step needs:\n"
            "  SCOREP_WRAPPER=off cmake -DCMAKE_C_COMPILER=scorep-gcc "
            "-DCMAKE_CXX_COMPILER=scorep-g++ ..\n"
            "  SCOREP_WRAPPER=off ./configure CC=scorep-gcc CXX=scorep-g++\n"
            "then make as usual (SCOREP_WRAPPER unset). A build system that configures itself\n"
            "again during make runs its checks instrumented: configure again from scratch.\n"
            "\n"
            "Installed: %s.\n"
            "--create COMPILER [BINDIR] adds scorep-COMPILER in BINDIR (default: the\n"
            "directory of scorep-wrapper), a link to scorep-cc (which the wrappers are).\n",
            SCOREP_WRAPPER_INSTANCES);
}

static void wrapper_die(const char *fmt, const char *arg)
{
    fprintf(stderr, "scorep-wrapper: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "; see scorep-wrapper --help\n");
    exit(1);
}

/* scorep-wrapper --create COMPILER [BINDIR]: a new wrapper is a link to this program. */
static int create_wrapper(const char *compiler, const char *bindir)
{
    char self[PATH_MAX], c_driver[PATH_MAX], link_name[PATH_MAX];
    if (strchr(compiler, '/') != NULL)
        wrapper_die("the compiler name '%s' must not have path elements", compiler);
    if (strcmp(compiler, "cc") == 0)
        wrapper_die("scorep-%s is scorep-rt's own front end, it cannot wrap cc (use gcc)",
                    compiler);
    if (compiler_find(compiler, c_driver, sizeof c_driver) == NULL)
        wrapper_die("unsupported compiler '%s' (supported: gcc, g++, gfortran, clang, clang++, "
                    "nvcc, mpicc, ..., oshcc, ...)",
                    compiler);
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n < 0)
        wrapper_die("cannot find its own program: %s", strerror(errno));
    self[n] = '\0';
    /* by default next to the program, as Score-P's scorep-wrapper does */
    int dir_len = bindir != NULL ? (int)strlen(bindir) : (int)(strrchr(self, '/') - self);
    if ((size_t)snprintf(link_name, sizeof link_name, "%.*s/scorep-%s", dir_len,
                         bindir != NULL ? bindir : self, compiler) >= sizeof link_name)
        wrapper_die("the directory name '%s' is too long", bindir != NULL ? bindir : self);
    if (symlink(self, link_name) != 0) {
        fprintf(stderr, "scorep-wrapper: cannot create '%s': %s\n", link_name, strerror(errno));
        return 1;
    }
    return 0;
}

int instr_main_wrapper_tool(int argc, char **argv)
{
    if (argc == 1 || (argc == 2 && strcmp(argv[1], "--help") == 0)) {
        wrapper_usage(argc == 1 ? stderr : stdout);
        return argc == 1 ? 1 : 0;
    }
    if (strcmp(argv[1], "--create") != 0 || argc < 3 || argc > 4)
        wrapper_die("invalid arguments%s", "");
    return create_wrapper(argv[2], argc == 4 ? argv[3] : NULL);
}
