/* SPDX-License-Identifier: BSD-3-Clause */
/* wrapper.h: the compiler wrappers scorep-<compiler> and the scorep-wrapper command. */
#ifndef SCOREP_INSTRUMENTER_WRAPPER_H
#define SCOREP_INSTRUMENTER_WRAPPER_H

/* scorep-<compiler> args...: compiler is the name after "scorep-". */
int instr_main_wrapper(const char *compiler, int argc, char **argv);
/* scorep-wrapper --help | --create COMPILER [BINDIR] */
int instr_main_wrapper_tool(int argc, char **argv);

#endif
