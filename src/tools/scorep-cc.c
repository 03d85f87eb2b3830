/* SPDX-License-Identifier: BSD-3-Clause */
/* scorep-cc.c: the instrumenter's entry point. One program, told apart by the name it is
 * called with: scorep-cc (its own options), scorep (Score-P's instrumenter options), the
 * wrappers scorep-<compiler> and scorep-wrapper (Score-P's scorep-wrapper, wrapper.c). */
#include <stdio.h>
#include <string.h>

#include "tools/instrumenter/command.h"
#include "tools/instrumenter/options.h"
#include "tools/instrumenter/wrapper.h"

/* scorep-cc: the compiler is the first argument, or gcc when that is an option or input. */
static int main_cc(int argc, char **argv)
{
    struct job job = {0};
    int first = instr_parse_cc_options(argc, argv, &job.opt);
    if (first >= argc)
        instr_no_compiler();
    if (compiler_find(argv[first], job.c_driver, sizeof job.c_driver) != NULL)
        instr_set_compiler(&job, argv[first++]);
    else if (argv[first][0] == '-' || arg_is_input_file(argv[first]))
        instr_set_compiler(&job, "gcc");
    else
        instr_unsupported_compiler(argv[first]);
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
        instr_no_compiler();
    instr_set_compiler(&job, argv[first]);
    job.args = argv + first + 1;
    job.nargs = argc - first - 1;
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
    if (strcmp(name, "scorep-wrapper") == 0) {
        instr_prog = name;
        return instr_main_wrapper_tool(argc, argv);
    }
    /* scorep-cc is the front end itself, not a wrapper of cc */
    if (strncmp(name, "scorep-", 7) == 0 && strcmp(name, "scorep-cc") != 0 && name[7] != '\0') {
        instr_prog = name;
        return instr_main_wrapper(name + 7, argc, argv);
    }
    instr_prog = "scorep-cc";
    return main_cc(argc, argv);
}
