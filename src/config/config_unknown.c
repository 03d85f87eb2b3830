/* SPDX-License-Identifier: BSD-3-Clause */
/* config_unknown.c: the SCOREP_* variables of the environment that a table does not know:
 * Score-P's own variables that scorep-rt ignores, and likely misspellings of known ones; and
 * the variables a table accepts without using them, when set to other than their default. */
#include "config/config.h"

#include <stdio.h>
#include <string.h>

/* Score-P's measurement variables (its "scorep-info config-vars" and documentation) that
 * scorep-rt does not implement. Job scripts written for Score-P set them; saying once that
 * they are ignored beats silence. */
static const char *const scorep_only[] = {"SCOREP_FORCE_CFG_FILES",
                                          "SCOREP_NM_SYMBOLS",
                                          "SCOREP_PROFILING_TASK_EXCHANGE_NUM",
                                          "SCOREP_PROFILING_ENABLE_CORE_FILES",
                                          "SCOREP_TRACING_USE_SION",
                                          "SCOREP_TRACING_MAX_PROCS_PER_SION_FILE",
                                          "SCOREP_TRACING_COMPRESS",
                                          "SCOREP_ONLINEACCESS_ENABLE",
                                          "SCOREP_ONLINEACCESS_REG_PORT",
                                          "SCOREP_ONLINEACCESS_REG_HOST",
                                          "SCOREP_ONLINEACCESS_BASE_PORT",
                                          "SCOREP_ONLINEACCESS_APPL_NAME",
                                          "SCOREP_MPI_MAX_ACCESS_EPOCHS",
                                          "SCOREP_MPI_MAX_EPOCHS",
                                          "SCOREP_MPI_ONLINE_ANALYSIS",
                                          "SCOREP_OPENCL_ENABLE",
                                          "SCOREP_OPENCL_BUFFER_QUEUE",
                                          "SCOREP_TOPOLOGY_PLATFORM",
                                          "SCOREP_TOPOLOGY_PROCESS",
                                          "SCOREP_TOPOLOGY_MPI",
                                          "SCOREP_HIP_ENABLE",
                                          "SCOREP_HIP_ACTIVITY_BUFFER_SIZE",
                                          NULL};

static int known(const scorep_cfg_var *vars, size_t n, const char *name, size_t len)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(vars[i].name) == len && strncmp(vars[i].name, name, len) == 0)
            return 1;
    return 0;
}

static int scorep_only_var(const char *name, size_t len)
{
    for (size_t i = 0; scorep_only[i]; i++)
        if (strlen(scorep_only[i]) == len && strncmp(scorep_only[i], name, len) == 0)
            return 1;
    return 0;
}

/* Levenshtein distance of a[0..la) and b, capped: anything above 2 is 3 */
static int distance(const char *a, size_t la, const char *b)
{
    size_t lb = strlen(b);
    if (la > lb + 2 || lb > la + 2 || lb > 127)
        return 3;
    int row[128];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0], best = row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j], v = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < v)
                v = up + 1;
            if (row[j - 1] + 1 < v)
                v = row[j - 1] + 1;
            diag = up;
            row[j] = v;
            if (v < best)
                best = v;
        }
        if (best > 2)
            return 3;
    }
    return row[lb] > 2 ? 3 : row[lb];
}

static const char *nearest(const scorep_cfg_var *vars, size_t n, const char *name, size_t len)
{
    const char *best = NULL;
    int d = 3;
    for (size_t i = 0; i < n; i++) {
        int k = distance(name, len, vars[i].name);
        if (k < d) {
            d = k;
            best = vars[i].name;
        }
    }
    return best;
}

/* appends to out (NUL-terminated, truncated at outlen) */
static void append(char *out, size_t outlen, const char *s, size_t slen)
{
    size_t used = strlen(out);
    if (used + 1 >= outlen)
        return;
    if (slen > outlen - used - 1)
        slen = outlen - used - 1;
    memcpy(out + used, s, slen);
    out[used + slen] = 0;
}

/* name and length of an environment entry that is a SCOREP_* variable vars does not know */
static int unknown_var(const scorep_cfg_var *vars, size_t n, const char *entry, size_t *len)
{
    const char *eq = strchr(entry, '=');
    *len = eq ? (size_t)(eq - entry) : strlen(entry);
    return strncmp(entry, "SCOREP_", 7) == 0 && !known(vars, n, entry, *len);
}

/* Variables of the table that scorep-rt accepts for Score-P's sake and does not use say so in
 * their brief; 1 when var is one of them and holds a value other than its default. */
static int unused_and_changed(const scorep_cfg_var *var)
{
    static const char mark[] = "Accepted for Score-P compatibility";
    if (!var->brief || strncmp(var->brief, mark, sizeof mark - 1) != 0 || !var->target)
        return 0;
    char err[256];
    switch (var->type) {
    case SCOREP_CFG_BOOL: {
        bool d;
        return scorep_cfg_parse_bool(var->default_value, &d, err, sizeof err) == 0 &&
               *(const bool *)var->target != d;
    }
    case SCOREP_CFG_NUMBER: {
        uint64_t d;
        return scorep_cfg_parse_number(var->default_value, &d, err, sizeof err) == 0 &&
               *(const uint64_t *)var->target != d;
    }
    case SCOREP_CFG_SIZE: {
        uint64_t d;
        return scorep_cfg_parse_size(var->default_value, &d, err, sizeof err) == 0 &&
               *(const uint64_t *)var->target != d;
    }
    default: {
        char v[256];
        return scorep_cfg_format_value(var, v, sizeof v) >= 0 &&
               strcmp(v, var->default_value ? var->default_value : "") != 0;
    }
    }
}

/* "; SCOREP_X=V has no effect (BRIEF)" for each accepted-but-unused variable set to a value
 * other than its default */
static void note_unused(const scorep_cfg_var *vars, size_t n, char *out, size_t outlen)
{
    for (size_t i = 0; i < n; i++) {
        if (!unused_and_changed(&vars[i]))
            continue;
        char v[128], line[512];
        if (scorep_cfg_format_value(&vars[i], v, sizeof v) < 0)
            continue;
        int k = snprintf(line, sizeof line, "%s%s=%s has no effect (%s)", out[0] ? "; " : "",
                         vars[i].name, v, vars[i].brief);
        append(out, outlen, line, k > 0 ? (size_t)k : 0);
    }
}

void scorep_cfg_unknown_note(const scorep_cfg_var *vars, size_t n, char *const *envp, char *out,
                             size_t outlen)
{
    size_t len;
    char line[512];
    if (!outlen)
        return;
    out[0] = 0;
    for (char *const *e = envp; e && *e; e++) {
        const char *near;
        if (!unknown_var(vars, n, *e, &len) || scorep_only_var(*e, len) || len < 12 ||
            !(near = nearest(vars, n, *e, len)))
            continue;
        int k =
            snprintf(line, sizeof line, "%s%.*s is not a variable of scorep-rt (did you mean %s?)",
                     out[0] ? "; " : "", (int)len, *e, near);
        append(out, outlen, line, k > 0 ? (size_t)k : 0);
    }
    int ignored = 0;
    for (char *const *e = envp; e && *e; e++) {
        if (!unknown_var(vars, n, *e, &len) || !scorep_only_var(*e, len))
            continue;
        const char *sep = ignored++ ? ", "
                          : out[0]
                              ? "; Score-P variables that scorep-rt does not support are ignored: "
                              : "Score-P variables that scorep-rt does not support are ignored: ";
        append(out, outlen, sep, strlen(sep));
        append(out, outlen, *e, len);
    }
    note_unused(vars, n, out, outlen);
}
