/* SPDX-License-Identifier: BSD-3-Clause */
/* argv.h: growing argument vectors for the instrumenter (scorep-cc, scorep, scorep-<compiler>):
 * building, printing with shell quoting, and running them. */
#ifndef SCOREP_INSTRUMENTER_ARGV_H
#define SCOREP_INSTRUMENTER_ARGV_H

#include <stdio.h>
#include <sys/types.h>

/* The name messages start with: scorep-cc, scorep or the wrapper's scorep-gcc etc. */
extern const char *instr_prog;

/* A growing argument vector, NULL-terminated. */
struct argv_buf {
    char **v;
    size_t n, cap;
};

void instr_die_nomem(void) __attribute__((noreturn));
void argv_push(struct argv_buf *a, const char *arg);
void argv_push_list(struct argv_buf *a, const char *const *list);
void argv_push_joined(struct argv_buf *a, const char *prefix, const char *value);
/* Appends the blank-separated words of text, as the shell splits an unquoted $VAR. */
void argv_push_words(struct argv_buf *a, const char *text);
void argv_print(FILE *out, char *const *argv);
/* Runs argv and waits; returns its exit status (128 + signal when killed). */
int argv_run(char *const *argv);
void argv_exec(char *const *argv) __attribute__((noreturn));
/* Runs a query and keeps what it writes on descriptor fd (1 or 2) in buf, NUL-terminated;
 * returns the length, -1 when it cannot run or fails. */
ssize_t argv_capture(char *const *argv, int fd, char *buf, size_t size);

#endif
