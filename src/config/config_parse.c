/* SPDX-License-Identifier: BSD-3-Clause */
/* config_parse.c: parsers for single SCOREP_* configuration values (bool, number, size, set,
 * option). Each error message says what would have been accepted. */
#include "config/config.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include <strings.h>

#define BOOL_FORMS                                                                                 \
    "expected a bool: true, yes, on or a non-zero integer for true; false, no, off, 0 or empty "   \
    "for false"
#define NUMBER_FORMS "expected a number: decimal digits, e.g. 100"
#define SIZE_FORMS                                                                                 \
    "expected a size: a number with an optional K, M, G, T, P or E suffix (powers of 1024) and "   \
    "optional B, e.g. 16M"
#define SET_FORMS                                                                                  \
    "expected a set: none, or entries separated by blanks, commas, colons or semicolons (~name "   \
    "removes an entry) from: "
#define OPTION_FORMS "expected one of: "

/* The part of a value between leading and trailing white space. */
typedef struct {
    const char *p;
    size_t len;
} span;

static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err != NULL && errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Appends ", "-separated choice names to the message already in err (truncating silently). */
static int fail_with_names(char *err, size_t errlen, const scorep_cfg_choice *choices)
{
    if (err == NULL || errlen == 0) {
        return -1;
    }
    size_t pos = strlen(err);
    for (size_t i = 0; choices != NULL && choices[i].name != NULL && pos + 1 < errlen; i++) {
        int w = snprintf(err + pos, errlen - pos, "%s%s", i > 0 ? ", " : "", choices[i].name);
        pos += w > 0 ? (size_t)w : 0;
    }
    return -1;
}

static span trim(const char *s)
{
    while (isspace((unsigned char)*s)) {
        s++;
    }
    size_t len = strlen(s);
    while (len > 0 && isspace((unsigned char)s[len - 1])) {
        len--;
    }
    return (span){s, len};
}

static bool span_is(span t, const char *word)
{
    return strlen(word) == t.len && strncasecmp(t.p, word, t.len) == 0;
}

/* Reads decimal digits at *p (up to end) into *v; *overflow says the value did not fit.
 * Returns the number of digits read; *p points behind them. */
static size_t scan_decimal(const char **p, const char *end, uint64_t *v, bool *overflow)
{
    const char *q = *p;
    *v = 0;
    *overflow = false;
    for (; q < end && isdigit((unsigned char)*q); q++) {
        unsigned d = (unsigned)(*q - '0');
        if (*v > (UINT64_MAX - d) / 10) {
            *overflow = true;
        }
        *v = *v * 10 + d;
    }
    size_t n = (size_t)(q - *p);
    *p = q;
    return n;
}

/* A minus sign directly before a digit: report "negative" rather than a generic error. */
static bool is_negative(span t)
{
    return t.len >= 2 && t.p[0] == '-' && isdigit((unsigned char)t.p[1]);
}

/* "[+-]digits": true with *nonzero set when the whole span is such an integer. */
static bool is_integer(span t, bool *nonzero)
{
    size_t i = (t.len > 0 && (t.p[0] == '+' || t.p[0] == '-')) ? 1 : 0;
    if (i == t.len) {
        return false;
    }
    *nonzero = false;
    for (; i < t.len; i++) {
        if (!isdigit((unsigned char)t.p[i])) {
            return false;
        }
        *nonzero = *nonzero || t.p[i] != '0';
    }
    return true;
}

int scorep_cfg_parse_bool(const char *s, bool *out, char *err, size_t errlen)
{
    span t = trim(s);
    bool nonzero;
    if (t.len == 0 || span_is(t, "false") || span_is(t, "no") || span_is(t, "off")) {
        *out = false;
    } else if (span_is(t, "true") || span_is(t, "yes") || span_is(t, "on")) {
        *out = true;
    } else if (is_integer(t, &nonzero)) {
        *out = nonzero;
    } else {
        /* Score-P reads unknown words as false; a typo silently disabling a feature is worse. */
        return fail(err, errlen, BOOL_FORMS);
    }
    return 0;
}

int scorep_cfg_parse_number(const char *s, uint64_t *out, char *err, size_t errlen)
{
    span t = trim(s);
    if (is_negative(t)) {
        return fail(err, errlen, "negative values are not allowed; " NUMBER_FORMS);
    }
    const char *p = t.p;
    uint64_t v;
    bool overflow;
    if (scan_decimal(&p, t.p + t.len, &v, &overflow) == 0 || p != t.p + t.len) {
        return fail(err, errlen, NUMBER_FORMS);
    }
    if (overflow) {
        return fail(err, errlen, "too large (maximum %" PRIu64 "); " NUMBER_FORMS, UINT64_MAX);
    }
    *out = v;
    return 0;
}

/* Binary exponent of a K..E suffix letter, 0 when c is not one. */
static unsigned suffix_shift(char c)
{
    const char *suffixes = "KMGTPE";
    const char *hit = c != '\0' ? strchr(suffixes, toupper((unsigned char)c)) : NULL;
    return hit != NULL ? 10u * (unsigned)(hit - suffixes + 1) : 0;
}

int scorep_cfg_parse_size(const char *s, uint64_t *out, char *err, size_t errlen)
{
    span t = trim(s);
    if (is_negative(t)) {
        return fail(err, errlen, "negative values are not allowed; " SIZE_FORMS);
    }
    const char *p = t.p, *end = t.p + t.len;
    uint64_t v;
    bool overflow;
    if (scan_decimal(&p, end, &v, &overflow) == 0) {
        return fail(err, errlen, SIZE_FORMS);
    }
    while (p < end && isspace((unsigned char)*p)) {
        p++;
    }
    unsigned shift = p < end ? suffix_shift(*p) : 0;
    p += shift > 0 ? 1 : 0;
    p += (p < end && (*p == 'b' || *p == 'B')) ? 1 : 0;
    if (p != end) {
        return fail(err, errlen, SIZE_FORMS);
    }
    if (overflow || (shift > 0 && v > (UINT64_MAX >> shift))) {
        return fail(err, errlen, "too large (maximum %" PRIu64 " bytes); " SIZE_FORMS, UINT64_MAX);
    }
    *out = v << shift;
    return 0;
}

static const scorep_cfg_choice *find_choice(const scorep_cfg_choice *choices, span name)
{
    for (size_t i = 0; choices != NULL && choices[i].name != NULL; i++) {
        if (span_is(name, choices[i].name)) {
            return &choices[i];
        }
    }
    return NULL;
}

static bool is_set_separator(char c)
{
    return c == ',' || c == ':' || c == ';' || isspace((unsigned char)c);
}

/* Cuts the next entry (maybe empty at the end) out of [*p, end) and moves *p behind it. */
static span next_entry(const char **p, const char *end)
{
    while (*p < end && is_set_separator(**p)) {
        (*p)++;
    }
    const char *start = *p;
    while (*p < end && !is_set_separator(**p)) {
        (*p)++;
    }
    return (span){start, (size_t)(*p - start)};
}

int scorep_cfg_parse_set(const char *s, const scorep_cfg_choice *choices, uint64_t *out, char *err,
                         size_t errlen)
{
    span t = trim(s);
    uint64_t v = 0;
    if (span_is(t, "none") || span_is(t, "no")) {
        *out = 0;
        return 0;
    }
    const char *p = t.p, *end = t.p + t.len;
    for (span e = next_entry(&p, end); e.len > 0; e = next_entry(&p, end)) {
        bool remove = e.p[0] == '~';
        size_t skip = remove ? 1 : 0;
        span name = {e.p + skip, e.len - skip};
        const scorep_cfg_choice *c = find_choice(choices, name);
        if (c == NULL && name.len == 0) {
            fail(err, errlen, "'~' without an entry name; " SET_FORMS);
            return fail_with_names(err, errlen, choices);
        }
        if (c == NULL) {
            fail(err, errlen, "unknown entry '%.*s'; " SET_FORMS, (int)name.len, name.p);
            return fail_with_names(err, errlen, choices);
        }
        v = remove ? (v & ~c->value) : (v | c->value);
    }
    *out = v;
    return 0;
}

int scorep_cfg_parse_option(const char *s, const scorep_cfg_choice *choices, uint64_t *out,
                            char *err, size_t errlen)
{
    const scorep_cfg_choice *c = find_choice(choices, trim(s));
    if (c == NULL) {
        fail(err, errlen, OPTION_FORMS);
        return fail_with_names(err, errlen, choices);
    }
    *out = c->value;
    return 0;
}
