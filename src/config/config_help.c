/* SPDX-License-Identifier: BSD-3-Clause */
/* config_help.c: describes a table of SCOREP_* variables for "scorep-info config-vars [--full]":
 * name, description, type and default; with full also the accepted names and the help text. */
#include "config/config.h"

#include <string.h>

#define LABEL_WIDTH 13 /* "  Description" */
#define TEXT_COLUMN (LABEL_WIDTH + 2)
#define LINE_WIDTH 80

const char *scorep_cfg_type_name(scorep_cfg_type type)
{
    switch (type) {
    case SCOREP_CFG_BOOL:
        return "Boolean";
    case SCOREP_CFG_NUMBER:
        return "Number";
    case SCOREP_CFG_SIZE:
        return "Size";
    case SCOREP_CFG_STRING:
        return "String";
    case SCOREP_CFG_PATH:
        return "Path";
    case SCOREP_CFG_SET:
        return "Set";
    case SCOREP_CFG_OPTION:
        return "Option";
    }
    return "Unknown";
}

/* Word wrapping after a label that ends in ':': no line passes LINE_WIDTH unless one word alone
 * is longer; continuation lines start at TEXT_COLUMN. col 0 means a fresh line whose indentation
 * is still due, so empty lines carry no trailing blanks. */
typedef struct {
    FILE *out;
    int col;
    bool has_word;
} wrapper;

static wrapper start_field(FILE *out, const char *label)
{
    fprintf(out, "%*s:", LABEL_WIDTH, label);
    return (wrapper){out, TEXT_COLUMN - 1, false};
}

static void wrap_newline(wrapper *w)
{
    fputc('\n', w->out);
    w->col = 0;
    w->has_word = false;
}

/* Places word (len bytes) followed by suffix. */
static void wrap_word(wrapper *w, const char *word, int len, const char *suffix)
{
    int total = len + (int)strlen(suffix);
    if (w->has_word && w->col + 1 + total > LINE_WIDTH) {
        wrap_newline(w);
    }
    if (w->col == 0) {
        fprintf(w->out, "%*s", TEXT_COLUMN, "");
        w->col = TEXT_COLUMN;
    } else {
        fputc(' ', w->out);
        w->col++;
    }
    fprintf(w->out, "%.*s%s", len, word, suffix);
    w->col += total;
    w->has_word = true;
}

/* Blanks separate words; a '\n' in text starts a new line (two make an empty line). */
static void write_field(FILE *out, const char *label, const char *text)
{
    wrapper w = start_field(out, label);
    for (const char *p = text; *p != '\0';) {
        size_t n = strcspn(p, " \n");
        if (n > 0) {
            wrap_word(&w, p, (int)n, "");
        } else if (*p == '\n') {
            wrap_newline(&w);
        }
        p += n > 0 ? n : 1;
    }
    fputc('\n', out);
}

/* The accepted names of a set or option as a ", "-separated list. */
static void write_names(FILE *out, const scorep_cfg_choice *c)
{
    wrapper w = start_field(out, "Values");
    for (; c != NULL && c->name != NULL; c++) {
        wrap_word(&w, c->name, (int)strlen(c->name), c[1].name != NULL ? "," : "");
    }
    fputc('\n', out);
}

static void write_var(const scorep_cfg_var *var, bool full, FILE *out)
{
    const char *def = var->default_value;
    fprintf(out, "%s\n", var->name);
    write_field(out, "Description", var->brief != NULL ? var->brief : "");
    write_field(out, "Type", scorep_cfg_type_name(var->type));
    write_field(out, "Default", def != NULL && def[0] != '\0' ? def : "\"\"");
    if (!full) {
        return;
    }
    if (var->type == SCOREP_CFG_SET || var->type == SCOREP_CFG_OPTION) {
        write_names(out, var->choices);
    }
    if (var->help != NULL && var->help[0] != '\0') {
        write_field(out, "Help", var->help);
    }
    fputc('\n', out);
}

void scorep_cfg_print_help(const scorep_cfg_var *vars, size_t n, bool full, FILE *out)
{
    for (size_t i = 0; i < n; i++) {
        write_var(&vars[i], full, out);
    }
}
