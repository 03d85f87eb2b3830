/* SPDX-License-Identifier: BSD-3-Clause */
/* config_table.c: applies a table of SCOREP_* variables (environment or defaults) and writes the
 * effective values back in scorep.cfg syntax. */
#include "config/config.h"

#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Collects a string into a caller buffer like snprintf: keeps counting past the end so the caller
 * learns the full length. */
typedef struct {
    char *buf;
    size_t len;
    size_t pos;
} builder;

static void add_bytes(builder *b, const char *s, size_t n)
{
    if (b->pos < b->len) {
        size_t room = b->len - 1 - b->pos;
        memcpy(b->buf + b->pos, s, n < room ? n : room);
        b->buf[b->pos + (n < room ? n : room)] = '\0';
    }
    b->pos += n;
}

static void add(builder *b, const char *s)
{
    add_bytes(b, s, strlen(s));
}

/* Single quotes for the shell; an embedded ' becomes '\'' (close, escaped quote, reopen). */
static void add_shell_quoted(builder *b, const char *s)
{
    add(b, "'");
    for (const char *q; (q = strchr(s, '\'')) != NULL; s = q + 1) {
        add_bytes(b, s, (size_t)(q - s));
        add(b, "'\\''");
    }
    add(b, s);
    add(b, "'");
}

static bool single_bit(uint64_t v)
{
    return v != 0 && (v & (v - 1)) == 0;
}

/* Adds choice names whose bits lie in value and are not yet named; single_pass selects whether
 * one-bit entries or combinations are considered. */
static void add_set_names(builder *b, const scorep_cfg_choice *c, uint64_t value, bool single_pass,
                          uint64_t *named)
{
    for (; c != NULL && c->name != NULL; c++) {
        bool eligible = single_pass ? single_bit(c->value) : !single_bit(c->value);
        if (!eligible || c->value == 0 || (c->value & ~value) != 0 || (c->value & ~*named) == 0) {
            continue;
        }
        add(b, *named != 0 ? "," : "");
        add(b, c->name);
        *named |= c->value;
    }
}

/* Prefers one-bit entries ("cg,coll,p2p" rather than "default"); combinations only cover bits
 * that no one-bit entry names. Bits no entry names at all cannot be written and are dropped. */
static void add_set(builder *b, const scorep_cfg_choice *choices, uint64_t value)
{
    uint64_t named = 0;
    add_set_names(b, choices, value, true, &named);
    add_set_names(b, choices, value, false, &named);
    if (named == 0) {
        add(b, "none");
    }
}

/* An option value no entry has (only possible if the caller stored it) is written as a number. */
static void add_option(builder *b, const scorep_cfg_choice *c, uint64_t value)
{
    for (; c != NULL && c->name != NULL; c++) {
        if (c->value == value) {
            add(b, c->name);
            return;
        }
    }
    char num[24];
    snprintf(num, sizeof num, "%" PRIu64, value);
    add(b, num);
}

static void add_u64(builder *b, uint64_t v)
{
    char num[24];
    snprintf(num, sizeof num, "%" PRIu64, v);
    add(b, num);
}

int scorep_cfg_format_value(const scorep_cfg_var *var, char *buf, size_t len)
{
    builder b = {buf, len, 0};
    if (len > 0) {
        buf[0] = '\0';
    }
    const char *str;
    switch (var->type) {
    case SCOREP_CFG_BOOL:
        add(&b, *(const bool *)var->target ? "true" : "false");
        break;
    case SCOREP_CFG_NUMBER:
    case SCOREP_CFG_SIZE:
        add_u64(&b, *(const uint64_t *)var->target);
        break;
    case SCOREP_CFG_STRING:
    case SCOREP_CFG_PATH:
        str = *(char *const *)var->target;
        add_shell_quoted(&b, str != NULL ? str : "");
        break;
    case SCOREP_CFG_SET:
        add_set(&b, var->choices, *(const uint64_t *)var->target);
        break;
    case SCOREP_CFG_OPTION:
        add_option(&b, var->choices, *(const uint64_t *)var->target);
        break;
    default:
        return -1;
    }
    return b.pos > INT_MAX ? INT_MAX : (int)b.pos;
}

/* Copies value (for paths without surrounding white space) into a fresh string. */
static int store_string(const scorep_cfg_var *var, const char *value, char *why, size_t len)
{
    size_t n = strlen(value);
    if (var->type == SCOREP_CFG_PATH) {
        for (; isspace((unsigned char)*value); value++, n--) {
        }
        for (; n > 0 && isspace((unsigned char)value[n - 1]); n--) {
        }
    }
    char *copy = strndup(value, n);
    if (copy == NULL) {
        snprintf(why, len, "out of memory");
        return -1;
    }
    *(char **)var->target = copy;
    return 0;
}

static int store(const scorep_cfg_var *var, const char *value, char *why, size_t len)
{
    switch (var->type) {
    case SCOREP_CFG_BOOL:
        return scorep_cfg_parse_bool(value, var->target, why, len);
    case SCOREP_CFG_NUMBER:
        return scorep_cfg_parse_number(value, var->target, why, len);
    case SCOREP_CFG_SIZE:
        return scorep_cfg_parse_size(value, var->target, why, len);
    case SCOREP_CFG_STRING:
    case SCOREP_CFG_PATH:
        return store_string(var, value, why, len);
    case SCOREP_CFG_SET:
        return scorep_cfg_parse_set(value, var->choices, var->target, why, len);
    case SCOREP_CFG_OPTION:
        return scorep_cfg_parse_option(value, var->choices, var->target, why, len);
    }
    snprintf(why, len, "unknown variable type %d", (int)var->type);
    return -1;
}

int scorep_cfg_apply(const scorep_cfg_var *vars, size_t n, const char *(*lookup)(const char *),
                     char *err, size_t errlen)
{
    for (size_t i = 0; i < n; i++) {
        const char *value = lookup != NULL ? lookup(vars[i].name) : getenv(vars[i].name);
        if (value == NULL) {
            value = vars[i].default_value != NULL ? vars[i].default_value : "";
        }
        char why[1024];
        if (store(&vars[i], value, why, sizeof why) != 0) {
            if (err != NULL && errlen > 0) {
                snprintf(err, errlen, "%s='%s' is invalid: %s", vars[i].name, value, why);
            }
            return -1;
        }
    }
    return 0;
}

static int write_line(const scorep_cfg_var *var, FILE *out)
{
    char small[256];
    int need = scorep_cfg_format_value(var, small, sizeof small);
    if (need < 0) {
        return -1;
    }
    char *text = small;
    if ((size_t)need >= sizeof small) {
        text = malloc((size_t)need + 1);
        if (text == NULL) {
            return -1;
        }
        scorep_cfg_format_value(var, text, (size_t)need + 1);
    }
    int rc = fprintf(out, "%s=%s\n", var->name, text) < 0 ? -1 : 0;
    if (text != small) {
        free(text);
    }
    return rc;
}

int scorep_cfg_write(const scorep_cfg_var *vars, size_t n, FILE *out)
{
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        if (write_line(&vars[i], out) != 0) {
            rc = -1;
        }
    }
    return rc;
}

void scorep_cfg_free_strings(const scorep_cfg_var *vars, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (vars[i].type == SCOREP_CFG_STRING || vars[i].type == SCOREP_CFG_PATH) {
            free(*(char **)vars[i].target);
            *(char **)vars[i].target = NULL;
        }
    }
}
