/* SPDX-License-Identifier: BSD-3-Clause */
/* filter.h: Score-P filter files (file and region rules, last match wins).
 * Plain library: no global state; a filter is owned by whoever created it. */
#ifndef SCOREP_FILTER_H
#define SCOREP_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct scorep_filter scorep_filter;

scorep_filter *scorep_filter_new(void);
void scorep_filter_free(scorep_filter *f);

/* Adds the rules of a file / a text. On a syntax error returns -1 and writes
 * "<origin>:<line>: <reason>" into err; the filter is left unchanged. */
int scorep_filter_parse_file(scorep_filter *f, const char *path, char *err, size_t errlen);
int scorep_filter_parse_text(scorep_filter *f, const char *text, const char *origin, char *err,
                             size_t errlen);

/* true when no rule at all was added */
bool scorep_filter_is_empty(const scorep_filter *f);

/* true if the source file is excluded by the file rules (NULL file = not excluded) */
bool scorep_filter_file_excluded(const scorep_filter *f, const char *file);
/* true if the region is excluded by the region rules; mangled may be NULL (= name) */
bool scorep_filter_region_excluded(const scorep_filter *f, const char *name, const char *mangled);
/* file excluded OR region excluded */
bool scorep_filter_excluded(const scorep_filter *f, const char *file, const char *name,
                            const char *mangled);

/* Library wrappers' regions are named as Score-P names them (ml_add(int, int)) and a plain
 * rule matches that name, a MANGLED rule the symbol (ml_add): a filter written for the bare C
 * names silently matches nothing. scorep_filter_note_symbol, called when such a region is
 * defined (never on the event path), marks the plain region rules that match its symbol but
 * not its name; scorep_filter_symbol_only_rules then calls fn for every marked rule that
 * decided on no region name at all (what to warn about) and returns how many there were. */
void scorep_filter_note_symbol(const scorep_filter *f, const char *name, const char *symbol);
typedef void scorep_filter_rule_fn(void *ctx, const char *origin, int line, bool exclude,
                                   const char *pattern);
size_t scorep_filter_symbol_only_rules(const scorep_filter *f, scorep_filter_rule_fn *fn,
                                       void *ctx);
/* The same over several processes (an MPI job, where a function may be called on one rank
 * only): scorep_filter_rule_words says how many 64-bit words the region rules' marks take
 * and a fingerprint of the rules (their origins, lines, actions and patterns: equal filters,
 * equal fingerprints); scorep_filter_rule_marks sets the marks into words (2 bits a rule),
 * which the processes OR together; scorep_filter_symbol_only_rules_of then reports as
 * scorep_filter_symbol_only_rules the rules those combined marks single out. */
size_t scorep_filter_rule_words(const scorep_filter *f, uint64_t *fingerprint);
void scorep_filter_rule_marks(const scorep_filter *f, uint64_t *words);
size_t scorep_filter_symbol_only_rules_of(const scorep_filter *f, const uint64_t *words,
                                          scorep_filter_rule_fn *fn, void *ctx);

/* Removes "." and "dir/.." components and doubled slashes of a path in place: the form in
 * which file names are matched against file rules. */
void scorep_filter_simplify_path(char *path);

#endif
