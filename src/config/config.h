/* SPDX-License-Identifier: BSD-3-Clause */
/* config.h: parses SCOREP_* configuration values (bool, number, size, set, option, string, path)
 * and writes them back in scorep.cfg syntax. Plain library: tables belong to the caller. */
#ifndef SCOREP_CONFIG_H
#define SCOREP_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum {
    SCOREP_CFG_BOOL,   /* target: bool* */
    SCOREP_CFG_NUMBER, /* target: uint64_t* */
    SCOREP_CFG_SIZE,   /* target: uint64_t* (bytes) */
    SCOREP_CFG_STRING, /* target: char** (malloc'ed, owned by the table user) */
    SCOREP_CFG_PATH,   /* target: char** */
    SCOREP_CFG_SET,    /* target: uint64_t* (OR of the chosen entries' values) */
    SCOREP_CFG_OPTION  /* target: uint64_t* (value of the chosen entry) */
} scorep_cfg_type;

typedef struct {
    const char *name; /* e.g. "all", "default"; NULL ends the list */
    uint64_t value;   /* SET: bit mask (may combine bits, e.g. default); OPTION: enumerator */
} scorep_cfg_choice;

typedef struct {
    const char *name; /* full variable name, e.g. "SCOREP_ENABLE_PROFILING" */
    scorep_cfg_type type;
    void *target;
    const char *default_value;        /* in the variable's own syntax */
    const scorep_cfg_choice *choices; /* SET and OPTION only */
    const char *brief;
    const char *help;
} scorep_cfg_var;

/* Single-value parsers. Return 0 on success, -1 with a message (what is accepted) in err. */
int scorep_cfg_parse_bool(const char *s, bool *out, char *err, size_t errlen);
int scorep_cfg_parse_number(const char *s, uint64_t *out, char *err, size_t errlen);
int scorep_cfg_parse_size(const char *s, uint64_t *out, char *err, size_t errlen);
int scorep_cfg_parse_set(const char *s, const scorep_cfg_choice *choices, uint64_t *out, char *err,
                         size_t errlen);
int scorep_cfg_parse_option(const char *s, const scorep_cfg_choice *choices, uint64_t *out,
                            char *err, size_t errlen);

/* Sets every variable from lookup(name) or its default. lookup is getenv-like (returns NULL when
 * unset); a NULL lookup means getenv.
 * On the first invalid value returns -1 with "SCOREP_X='value' is invalid: <accepted forms>"
 * in err. */
int scorep_cfg_apply(const scorep_cfg_var *vars, size_t n, const char *(*lookup)(const char *),
                     char *err, size_t errlen);

/* Writes one NAME=value line per variable (strings single-quoted, shell syntax). */
int scorep_cfg_write(const scorep_cfg_var *vars, size_t n, FILE *out);

/* Lists variables for scorep-info: name, type, default; with full also the help text. */
void scorep_cfg_print_help(const scorep_cfg_var *vars, size_t n, bool full, FILE *out);

/* Frees STRING/PATH targets that scorep_cfg_apply allocated and sets them to NULL. apply does not
 * free old strings, so call this before applying a table again. */
void scorep_cfg_free_strings(const scorep_cfg_var *vars, size_t n);

/* Human-readable type name for scorep-info: "Boolean", "Number", "Size", ... */
const char *scorep_cfg_type_name(scorep_cfg_type type);

/* Writes the variable's current value in canonical scorep.cfg form (as scorep_cfg_write does)
 * into buf. Returns the length of the full value like snprintf (buf may be too small; then the
 * value is truncated), or -1 for an unknown type. */
int scorep_cfg_format_value(const scorep_cfg_var *var, char *buf, size_t len);

/* A one-line note (empty when there is nothing to say) on the SCOREP_* entries of envp that
 * vars does not know: names one or two edits away from a known one ("did you mean ...?"),
 * then the Score-P variables scorep-rt ignores. Other unknown names (a metric plugin's own
 * SCOREP_METRIC_<PLUGIN>_..., wrapper variables) are not mentioned. Call it after
 * scorep_cfg_apply: it also names the variables of vars whose brief begins "Accepted for
 * Score-P compatibility" (accepted, not used) when their value is not their default. */
void scorep_cfg_unknown_note(const scorep_cfg_var *vars, size_t n, char *const *envp, char *out,
                             size_t outlen);

#endif
