/* scorep-cc.c: the instrumenter's entry point. One program, three command lines, told apart by
 * the name it is called with: scorep-cc (its own options), scorep (Score-P's instrumenter
 * options) and the wrappers scorep-<compiler> (Score-P's scorep-wrapper: options from
 * SCOREP_WRAPPER_INSTRUMENTER_FLAGS, SCOREP_WRAPPER=off runs the plain compiler). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/instrumenter/command.h"
#include "tools/instrumenter/options.h"

#define SUPPORTED "gcc, cc, g++, c++, clang, clang++, gfortran, nvcc"

static void unsupported(const char *compiler)
{
    fprintf(stderr, "%s: unsupported compiler '%s' (supported: " SUPPORTED "); see %s --help\n",
            instr_prog, compiler, instr_prog);
    exit(1);
}

static void no_compiler(void)
{
    fprintf(stderr, "%s: no compiler command given; see %s --help\n", instr_prog, instr_prog);
    exit(1);
}

static void set_compiler(struct job *job, const char *compiler)
{
    job->kind = compiler_find(compiler, job->c_driver, sizeof job->c_driver);
    if (job->kind == NULL)
        unsupported(compiler);
    job->compiler = compiler;
}

/* scorep-cc: the compiler is the first argument, or gcc when that is an option or input. */
static int main_cc(int argc, char **argv)
{
    struct job job = {0};
    int first = instr_parse_cc_options(argc, argv, &job.opt);
    if (first >= argc)
        no_compiler();
    if (compiler_find(argv[first], job.c_driver, sizeof job.c_driver) != NULL)
        set_compiler(&job, argv[first++]);
    else if (argv[first][0] == '-' || arg_is_input_file(argv[first]))
        set_compiler(&job, "gcc");
    else
        unsupported(argv[first]);
    job.args = argv + first;
    job.nargs = argc - first;
    return instr_run_job(&job);
}

/* scorep: Score-P's options, then the compiler command. */
static int main_scorep(int argc, char **argv)
{
    struct job job = {0};
    int first = instr_parse_scorep_options(argc, argv, &job.opt);
    if (first >= argc)
        no_compiler();
    set_compiler(&job, argv[first]);
    job.args = argv + first + 1;
    job.nargs = argc - first - 1;
    return instr_run_job(&job);
}

/* scorep-<compiler>: expands as Score-P's wrapper does to
 *   scorep $SCOREP_WRAPPER_INSTRUMENTER_FLAGS <compiler> $SCOREP_WRAPPER_COMPILER_FLAGS args
 * or, with SCOREP_WRAPPER=off (or OFF), to the plain `<compiler> args`: what CMake's and
 * configure's compiler checks need. */
static int main_wrapper(const char *compiler, int argc, char **argv)
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
    set_compiler(&job, compiler);
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

int main(int argc, char **argv)
{
    const char *name = strrchr(argv[0], '/');
    name = name != NULL ? name + 1 : argv[0];
    if (strcmp(name, "scorep") == 0) {
        instr_prog = "scorep";
        return main_scorep(argc, argv);
    }
    /* scorep-cc is the front end itself, not a wrapper of cc */
    if (strncmp(name, "scorep-", 7) == 0 && strcmp(name, "scorep-cc") != 0 && name[7] != '\0') {
        instr_prog = name;
        return main_wrapper(name + 7, argc, argv);
    }
    instr_prog = "scorep-cc";
    return main_cc(argc, argv);
}
