/* SPDX-License-Identifier: BSD-3-Clause */
/* filter.c: Score-P filter files: parses file and region blocks into rule arrays and answers
 * "is this file / region excluded" (fnmatch(3) with flags 0, the last matching rule wins). */
#include "filter/filter.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Patterns keep their backslash escapes: fnmatch with flags 0 reads "\#", "\ " and "\*" as the
 * plain character, which is exactly the escape rule of filter files. A pattern without wildcards
 * is stored unescaped and compared with strcmp, which gives the same answer faster. */
typedef struct {
    char *pattern;
    bool literal;
    bool exclude;
    bool mangled; /* region rules: match the mangled name */
    int line;     /* where the rule is written, for the hints of scorep_filter_symbol_only_rules */
    char *origin;
    /* Set at region definition time (never on the event path), by several threads: atomic
     * byte stores through a const filter, which only ever go from 0 to 1. */
    unsigned char name_hit;   /* the rule decided on a region (a plain rule: on its name) */
    unsigned char symbol_hit; /* a plain rule matched a wrapped function's symbol, not its name */
} rule;

typedef struct {
    rule *items;
    size_t count;
    size_t cap;
} rule_list;

struct scorep_filter {
    rule_list files;
    rule_list regions;
};

scorep_filter *scorep_filter_new(void)
{
    return calloc(1, sizeof(scorep_filter));
}

/* Drops the rules from index keep on (all of them for keep 0). */
static void truncate_rules(rule_list *l, size_t keep)
{
    for (size_t i = keep; i < l->count; i++) {
        free(l->items[i].pattern);
        free(l->items[i].origin);
    }
    l->count = keep;
}

void scorep_filter_free(scorep_filter *f)
{
    if (f == NULL) {
        return;
    }
    truncate_rules(&f->files, 0);
    truncate_rules(&f->regions, 0);
    free(f->files.items);
    free(f->regions.items);
    free(f);
}

bool scorep_filter_is_empty(const scorep_filter *f)
{
    return f->files.count == 0 && f->regions.count == 0;
}

/* ---- matching ---- */

static bool rule_matches(const rule *r, const char *s)
{
    return r->literal ? strcmp(r->pattern, s) == 0 : fnmatch(r->pattern, s, 0) == 0;
}

/* The filter is const for its readers; the hit marks are bookkeeping that never changes an
 * answer. Loaded first, so that a mark already set costs no write to a shared cache line. */
static void mark(const unsigned char *flag)
{
    if (!__atomic_load_n(flag, __ATOMIC_RELAXED))
        __atomic_store_n((unsigned char *)flag, 1, __ATOMIC_RELAXED);
}

/* Walking backwards, the first match is the last matching rule of the file, which decides. */
static bool list_excludes(const rule_list *l, const char *name, const char *mangled)
{
    for (size_t i = l->count; i-- > 0;) {
        const char *s = l->items[i].mangled ? mangled : name;
        if (s != NULL && rule_matches(&l->items[i], s)) {
            mark(&l->items[i].name_hit);
            return l->items[i].exclude;
        }
    }
    return false;
}

bool scorep_filter_file_excluded(const scorep_filter *f, const char *file)
{
    return file != NULL && list_excludes(&f->files, file, file);
}

bool scorep_filter_region_excluded(const scorep_filter *f, const char *name, const char *mangled)
{
    return list_excludes(&f->regions, name, mangled != NULL ? mangled : name);
}

bool scorep_filter_excluded(const scorep_filter *f, const char *file, const char *name,
                            const char *mangled)
{
    return scorep_filter_file_excluded(f, file) || scorep_filter_region_excluded(f, name, mangled);
}

void scorep_filter_note_symbol(const scorep_filter *f, const char *name, const char *symbol)
{
    if (name == NULL || symbol == NULL || strcmp(name, symbol) == 0)
        return;
    for (size_t i = 0; i < f->regions.count; i++) {
        const rule *r = &f->regions.items[i];
        if (!r->mangled && rule_matches(r, symbol) && !rule_matches(r, name))
            mark(&r->symbol_hit);
    }
}

size_t scorep_filter_symbol_only_rules(const scorep_filter *f, scorep_filter_rule_fn *fn, void *ctx)
{
    size_t n = 0;
    for (size_t i = 0; i < f->regions.count; i++) {
        const rule *r = &f->regions.items[i];
        if (__atomic_load_n(&r->symbol_hit, __ATOMIC_RELAXED) &&
            !__atomic_load_n(&r->name_hit, __ATOMIC_RELAXED)) {
            n++;
            if (fn != NULL)
                fn(ctx, r->origin, r->line, r->exclude, r->pattern);
        }
    }
    return n;
}

static uint64_t fnv1a(uint64_t h, const char *s)
{
    for (const unsigned char *c = (const unsigned char *)s; *c; c++)
        h = (h ^ *c) * 0x100000001b3ull;
    return (h ^ 0xff) * 0x100000001b3ull; /* a separator: "ab"+"c" differs from "a"+"bc" */
}

size_t scorep_filter_rule_words(const scorep_filter *f, uint64_t *fingerprint)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < f->regions.count; i++) {
        const rule *r = &f->regions.items[i];
        char head[48];
        snprintf(head, sizeof head, "%d %d %d", r->line, (int)r->exclude, (int)r->mangled);
        h = fnv1a(fnv1a(fnv1a(h, head), r->origin ? r->origin : ""), r->pattern);
    }
    *fingerprint = h ^ f->regions.count;
    return (2 * f->regions.count + 63) / 64;
}

void scorep_filter_rule_marks(const scorep_filter *f, uint64_t *words)
{
    for (size_t i = 0; i < f->regions.count; i++) {
        const rule *r = &f->regions.items[i];
        if (__atomic_load_n(&r->symbol_hit, __ATOMIC_RELAXED))
            words[2 * i / 64] |= 1ull << (2 * i % 64);
        if (__atomic_load_n(&r->name_hit, __ATOMIC_RELAXED))
            words[(2 * i + 1) / 64] |= 1ull << ((2 * i + 1) % 64);
    }
}

size_t scorep_filter_symbol_only_rules_of(const scorep_filter *f, const uint64_t *words,
                                          scorep_filter_rule_fn *fn, void *ctx)
{
    size_t n = 0;
    for (size_t i = 0; i < f->regions.count; i++) {
        const rule *r = &f->regions.items[i];
        if ((words[2 * i / 64] >> (2 * i % 64) & 1) &&
            !(words[(2 * i + 1) / 64] >> ((2 * i + 1) % 64) & 1)) {
            n++;
            if (fn != NULL)
                fn(ctx, r->origin, r->line, r->exclude, r->pattern);
        }
    }
    return n;
}

/* ---- parsing ---- */

/* One token of a line: raw text, backslash escapes still in place. */
typedef struct {
    const char *p;
    size_t len;
} token;

typedef enum { BLOCK_NONE, BLOCK_FILE, BLOCK_REGION } block_kind;
typedef enum { ACTION_NONE, ACTION_INCLUDE, ACTION_EXCLUDE } action_kind;

typedef struct {
    scorep_filter *f;
    const char *origin;
    char *err;
    size_t errlen;
    int line;
    block_kind block;
    int block_line; /* where the open block began */
    action_kind action;
    bool mangled;
} parser;

static const char *const begin_keyword[] = {"", "SCOREP_FILE_NAMES_BEGIN",
                                            "SCOREP_REGION_NAMES_BEGIN"};
static const char *const end_keyword[] = {"", "SCOREP_FILE_NAMES_END", "SCOREP_REGION_NAMES_END"};

static int fail_at(const parser *ps, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail_at(const parser *ps, int line, const char *fmt, ...)
{
    if (ps->err == NULL || ps->errlen == 0) {
        return -1;
    }
    int n = snprintf(ps->err, ps->errlen, "%s:%d: ", ps->origin, line);
    if (n >= 0 && (size_t)n < ps->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static bool token_is(token t, const char *word)
{
    return strlen(word) == t.len && memcmp(t.p, word, t.len) == 0;
}

static bool has_wildcard(token t)
{
    for (size_t i = 0; i < t.len; i++) {
        if (t.p[i] == '\\') {
            i++;
        } else if (t.p[i] == '*' || t.p[i] == '?' || t.p[i] == '[') {
            return true;
        }
    }
    return false;
}

/* Removes the escaping backslashes (for strcmp patterns). */
static char *unescape(token t)
{
    char *s = malloc(t.len + 1), *o = s;
    for (size_t i = 0; s != NULL && i < t.len; i++) {
        i += t.p[i] == '\\' ? 1 : 0;
        *o++ = t.p[i];
    }
    if (s != NULL) {
        *o = '\0';
    }
    return s;
}

static int add_rule(parser *ps, token t)
{
    rule_list *l = ps->block == BLOCK_FILE ? &ps->f->files : &ps->f->regions;
    if (l->count == l->cap) {
        size_t cap = l->cap != 0 ? 2 * l->cap : 16;
        rule *items = realloc(l->items, cap * sizeof(rule));
        if (items == NULL) {
            return fail_at(ps, ps->line, "out of memory");
        }
        l->items = items;
        l->cap = cap;
    }
    bool literal = !has_wildcard(t);
    char *pattern = literal ? unescape(t) : strndup(t.p, t.len);
    char *origin = strdup(ps->origin);
    if (pattern == NULL || origin == NULL) {
        free(pattern);
        free(origin);
        return fail_at(ps, ps->line, "out of memory");
    }
    l->items[l->count++] =
        (rule){pattern, literal, ps->action == ACTION_EXCLUDE, ps->mangled, ps->line, origin, 0, 0};
    return 0;
}

static int begin_block(parser *ps, block_kind kind)
{
    if (ps->block != BLOCK_NONE) {
        return fail_at(ps, ps->line, "%s inside the %s block of line %d (missing %s)",
                       begin_keyword[kind], begin_keyword[ps->block], ps->block_line,
                       end_keyword[ps->block]);
    }
    ps->block = kind;
    ps->block_line = ps->line;
    ps->action = ACTION_NONE;
    ps->mangled = false;
    return 0;
}

static int end_block(parser *ps, block_kind kind)
{
    if (ps->block == BLOCK_NONE) {
        return fail_at(ps, ps->line, "%s without %s", end_keyword[kind], begin_keyword[kind]);
    }
    if (ps->block != kind) {
        return fail_at(ps, ps->line, "%s does not match the %s of line %d", end_keyword[kind],
                       begin_keyword[ps->block], ps->block_line);
    }
    ps->block = BLOCK_NONE;
    return 0;
}

static int set_action(parser *ps, action_kind action)
{
    ps->action = action;
    ps->mangled = false; /* every INCLUDE/EXCLUDE starts with demangled names */
    return 0;
}

static int set_mangled(parser *ps, token t, bool mangled)
{
    if (ps->block == BLOCK_FILE) {
        return fail_at(ps, ps->line, "%.*s is only allowed in a SCOREP_REGION_NAMES block",
                       (int)t.len, t.p);
    }
    if (ps->action == ACTION_NONE) {
        return fail_at(ps, ps->line, "%.*s before INCLUDE or EXCLUDE", (int)t.len, t.p);
    }
    ps->mangled = mangled;
    return 0;
}

static int add_pattern(parser *ps, token t)
{
    if (ps->action == ACTION_NONE) {
        return fail_at(ps, ps->line, "pattern '%.*s' before INCLUDE or EXCLUDE", (int)t.len, t.p);
    }
    return add_rule(ps, t);
}

static int handle_token(parser *ps, token t)
{
    if (token_is(t, begin_keyword[BLOCK_FILE]) || token_is(t, begin_keyword[BLOCK_REGION])) {
        return begin_block(ps, token_is(t, begin_keyword[BLOCK_FILE]) ? BLOCK_FILE : BLOCK_REGION);
    }
    if (token_is(t, end_keyword[BLOCK_FILE]) || token_is(t, end_keyword[BLOCK_REGION])) {
        return end_block(ps, token_is(t, end_keyword[BLOCK_FILE]) ? BLOCK_FILE : BLOCK_REGION);
    }
    if (ps->block == BLOCK_NONE) {
        return fail_at(ps, ps->line,
                       "'%.*s' outside a block: expected SCOREP_FILE_NAMES_BEGIN or "
                       "SCOREP_REGION_NAMES_BEGIN",
                       (int)t.len, t.p);
    }
    if (token_is(t, "INCLUDE") || token_is(t, "EXCLUDE")) {
        return set_action(ps, token_is(t, "INCLUDE") ? ACTION_INCLUDE : ACTION_EXCLUDE);
    }
    if (token_is(t, "MANGLED") || token_is(t, "DEMANGLED")) {
        return set_mangled(ps, t, token_is(t, "MANGLED"));
    }
    return add_pattern(ps, t);
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Splits [p, end) into tokens up to an unescaped '#'; a backslash keeps the next character
 * (blank or '#') inside the token. */
static int parse_line(parser *ps, const char *p, const char *end)
{
    for (;;) {
        while (p < end && is_blank(*p)) {
            p++;
        }
        if (p == end || *p == '#') {
            return 0;
        }
        const char *start = p;
        for (; p < end && !is_blank(*p) && *p != '#'; p++) {
            if (*p == '\\' && ++p == end) {
                return fail_at(ps, ps->line,
                               "backslash at the end of the line (there is no line continuation)");
            }
        }
        if (handle_token(ps, (token){start, (size_t)(p - start)}) != 0) {
            return -1;
        }
    }
}

static int parse_lines(parser *ps, const char *text)
{
    for (const char *p = text; *p != '\0';) {
        const char *nl = strchr(p, '\n');
        const char *end = nl != NULL ? nl : p + strlen(p);
        ps->line++;
        if (parse_line(ps, p, end) != 0) {
            return -1;
        }
        p = nl != NULL ? nl + 1 : end;
    }
    if (ps->block != BLOCK_NONE) {
        return fail_at(ps, ps->block_line, "%s without %s before the end of the file",
                       begin_keyword[ps->block], end_keyword[ps->block]);
    }
    return 0;
}

int scorep_filter_parse_text(scorep_filter *f, const char *text, const char *origin, char *err,
                             size_t errlen)
{
    parser ps = {
        f, origin != NULL ? origin : "<filter>", err, errlen, 0, BLOCK_NONE, 0, ACTION_NONE, false};
    size_t files = f->files.count, regions = f->regions.count;
    if (parse_lines(&ps, text) != 0) {
        truncate_rules(&f->files, files);
        truncate_rules(&f->regions, regions);
        return -1;
    }
    return 0;
}

/* Reads the whole stream into a NUL-terminated string; NULL with errno set on failure. */
static char *read_all(FILE *in)
{
    size_t len = 0, cap = 4096;
    char *buf = NULL;
    for (;;) {
        char *bigger = realloc(buf, cap);
        if (bigger == NULL) {
            free(buf);
            errno = ENOMEM;
            return NULL;
        }
        buf = bigger;
        len += fread(buf + len, 1, cap - 1 - len, in);
        if (ferror(in)) {
            free(buf);
            errno = errno != 0 ? errno : EIO;
            return NULL;
        }
        if (len < cap - 1) {
            buf[len] = '\0';
            return buf;
        }
        cap *= 2;
    }
}

static int fail_io(char *err, size_t errlen, const char *path, const char *what, int errnum)
{
    if (err != NULL && errlen > 0) {
        snprintf(err, errlen, "%s: %s: %s", path, what, strerror(errnum));
    }
    return -1;
}

int scorep_filter_parse_file(scorep_filter *f, const char *path, char *err, size_t errlen)
{
    FILE *in = fopen(path, "r");
    if (in == NULL) {
        return fail_io(err, errlen, path, "cannot open", errno);
    }
    errno = 0;
    char *text = read_all(in);
    int saved = errno;
    fclose(in);
    if (text == NULL) {
        return fail_io(err, errlen, path, "cannot read", saved);
    }
    int rc = scorep_filter_parse_text(f, text, path, err, errlen);
    free(text);
    return rc;
}

/* The file names that file rules see are made canonical the same way at compile time (GCC
 * plugin) and at run time (DWARF comp_dir + decl file), so both filter identically. */
void scorep_filter_simplify_path(char *path)
{
    bool absolute = path[0] == '/';
    char *out = path + absolute;
    char *keep = out; /* ".." may remove components from here on, not before */
    bool last = false;
    for (char *p = out; !last;) {
        char *end = strchrnul(p, '/');
        size_t len = (size_t)(end - p);
        bool dotdot = len == 2 && p[0] == '.' && p[1] == '.';
        last = *end == '\0'; /* read before the '/' written below may overwrite it */
        if (dotdot && out > keep) {
            out--;
            while (out > keep && out[-1] != '/')
                out--;
        } else if (len > 0 && !(len == 1 && p[0] == '.') && !(dotdot && absolute)) {
            memmove(out, p, len);
            out += len;
            *out++ = '/';
            if (dotdot)
                keep = out;
        }
        p = end + 1;
    }
    if (out > path + absolute && out[-1] == '/')
        out--;
    *out = '\0';
}
