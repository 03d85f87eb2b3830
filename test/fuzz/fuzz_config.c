/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_config.c: libFuzzer harness of the SCOREP_ variable parsers (src/config) on the
 * runtime's real table (src/base/settings.c): the input is an environment, one NAME=value a
 * line; every value either applies or gives "SCOREP_X='value' is invalid: ..."; what applied
 * is written back as scorep.cfg and the unknown names are noted. */
#include "base/settings.h"
#include "config/config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINES 64
static char *lines[MAX_LINES + 1];
static size_t n_lines;

static const char *lookup(const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < n_lines; i++)
        if (strncmp(lines[i], name, n) == 0 && lines[i][n] == '=')
            return lines[i] + n + 1;
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    n_lines = 0;
    for (char *p = text; *p && n_lines < MAX_LINES;) {
        lines[n_lines++] = p;
        char *nl = strchr(p, '\n');
        if (!nl)
            break;
        *nl = '\0';
        p = nl + 1;
    }
    lines[n_lines] = NULL;
    char err[512] = "";
    int rc = scorep_cfg_apply(scorep_cfg_vars, scorep_cfg_n_vars, lookup, err, sizeof err);
    if (rc != 0 && strncmp(err, "SCOREP_", 7) != 0)
        abort(); /* a refusal must name the variable */
    FILE *out = fopen("/dev/null", "w");
    if (out) {
        scorep_cfg_write(scorep_cfg_vars, scorep_cfg_n_vars, out);
        fclose(out);
    }
    char note[1024];
    scorep_cfg_unknown_note(scorep_cfg_vars, scorep_cfg_n_vars, lines, note, sizeof note);
    /* the single-value parsers on the first line's value, whatever its name */
    const char *v = n_lines ? (strchr(lines[0], '=') ? strchr(lines[0], '=') + 1 : lines[0]) : "";
    static const scorep_cfg_choice choices[] = {
        {"all", 7}, {"a", 1}, {"b", 2}, {"none", 0}, {NULL, 0}};
    bool b;
    uint64_t u;
    scorep_cfg_parse_bool(v, &b, err, sizeof err);
    scorep_cfg_parse_number(v, &u, err, sizeof err);
    scorep_cfg_parse_size(v, &u, err, sizeof err);
    scorep_cfg_parse_set(v, choices, &u, err, sizeof err);
    scorep_cfg_parse_option(v, choices, &u, err, sizeof err);
    scorep_cfg_free_strings(scorep_cfg_vars, scorep_cfg_n_vars);
    free(text);
    return 0;
}
