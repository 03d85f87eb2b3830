/* SPDX-License-Identifier: BSD-3-Clause */
/* options.h: the two option languages of the instrumenter: scorep-cc's own and Score-P's
 * (`scorep`, and SCOREP_WRAPPER_INSTRUMENTER_FLAGS of the scorep-<compiler> wrappers). */
#ifndef SCOREP_INSTRUMENTER_OPTIONS_H
#define SCOREP_INSTRUMENTER_OPTIONS_H

#include "tools/instrumenter/command.h"

/* scorep-cc [options] ...: returns the index of the first argument that is not an option. */
int instr_parse_cc_options(int argc, char **argv, struct instr_options *opt);
/* scorep [options] <compiler> ...: the same for Score-P's options. */
int instr_parse_scorep_options(int argc, char **argv, struct instr_options *opt);
/* Score-P's options from a variable (SCOREP_WRAPPER_INSTRUMENTER_FLAGS): every word must be
 * an option; origin names the variable in messages. */
void instr_parse_scorep_words(char *const *words, const char *origin, struct instr_options *opt);
/* The options that select what is instrumented and linked, shared with scorep-config:
 * --user/--nouser, --compiler/--nocompiler, --cuda/--nocuda, --thread=, --mpp=, Score-P's
 * deprecated spellings and the features scorep-rt lacks. False if arg is none of them. */
bool instr_selection_option(const char *arg, struct instr_options *opt);
void instr_usage_cc(FILE *out);
void instr_usage_scorep(FILE *out);

#endif
