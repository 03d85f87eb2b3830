/* SPDX-License-Identifier: BSD-3-Clause */
/* cube_xml.c: a small non-validating XML event parser (elements, attributes, text, CDATA,
 * comments, character and predefined entities) and the escaping used by the Cube writer. */
#include "cube/cube_xml.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define XML_MAX_ATTRS 32

typedef struct {
    char *p, *end;
    const cube_xml_handler *h;
    void *ctx;
    char *err;
    size_t errlen;
    char *buf_start;
    /* open element names, to check that end tags match */
    char **stack;
    size_t depth, cap;
} xml_parser;

static int syntax_error(xml_parser *x, const char *what)
{
    if (x->err != NULL && x->errlen > 0) {
        size_t line = 1;
        for (const char *q = x->buf_start; q < x->p && q < x->end; q++)
            line += (*q == '\n');
        snprintf(x->err, x->errlen, "anchor.xml line %zu: %s", line, what);
    }
    return -1;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool is_name_char(char c)
{
    return c != '\0' && !is_space(c) && c != '>' && c != '/' && c != '=' && c != '<' && c != '"' &&
           c != '\'';
}

/* Appends code point cp as UTF-8 at out; returns the number of bytes written or 0. */
static size_t put_utf8(char *out, uint32_t cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xc0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xe0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        out[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    if (cp < 0x110000) {
        out[0] = (char)(0xf0 | (cp >> 18));
        out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
        out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
        out[3] = (char)(0x80 | (cp & 0x3f));
        return 4;
    }
    return 0;
}

/* Decodes the entity starting at in ('&'); writes its expansion at out. Returns the number
 * of input bytes consumed (0 = malformed) and sets *outlen. The expansion is never longer
 * than the entity text, which is what makes in-place unescaping safe. */
static size_t decode_entity(const char *in, const char *end, char *out, size_t *outlen)
{
    static const struct {
        const char *name;
        char c;
    } named[] = {{"lt;", '<'}, {"gt;", '>'}, {"amp;", '&'}, {"quot;", '"'}, {"apos;", '\''}};
    const char *semi = memchr(in, ';', (size_t)(end - in));
    if (semi == NULL || semi - in > 12)
        return 0;
    if (in[1] == '#') {
        bool hex = in[2] == 'x' || in[2] == 'X';
        const char *d = in + (hex ? 3 : 2);
        if (d == semi)
            return 0;
        char *stop;
        unsigned long cp = strtoul(d, &stop, hex ? 16 : 10);
        if (stop != semi || cp == 0)
            return 0;
        *outlen = put_utf8(out, (uint32_t)cp);
        return *outlen ? (size_t)(semi - in + 1) : 0;
    }
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        size_t n = strlen(named[i].name);
        if ((size_t)(semi - in) == n && memcmp(in + 1, named[i].name, n) == 0) {
            out[0] = named[i].c;
            *outlen = 1;
            return n + 1;
        }
    }
    return 0;
}

/* Unescapes [s, e) in place and NUL-terminates it; returns the new end or NULL. */
static char *unescape(char *s, char *e)
{
    char *w = s;
    for (char *r = s; r < e;) {
        if (*r != '&') {
            *w++ = *r++;
            continue;
        }
        size_t outlen = 0;
        size_t used = decode_entity(r, e, w, &outlen);
        if (used == 0)
            return NULL;
        r += used;
        w += outlen;
    }
    *w = '\0';
    return w;
}

static int push_name(xml_parser *x, char *name)
{
    if (x->depth == x->cap) {
        size_t nc = x->cap ? x->cap * 2 : 32;
        char **s = realloc(x->stack, nc * sizeof *s);
        if (s == NULL)
            return syntax_error(x, "out of memory");
        x->stack = s;
        x->cap = nc;
    }
    x->stack[x->depth++] = name;
    return 0;
}

/* Skips to just after the terminator; used for comments, PIs, DOCTYPE. */
static int skip_past(xml_parser *x, const char *term, const char *what)
{
    size_t tl = strlen(term);
    for (char *q = x->p; q + tl <= x->end; q++) {
        if (memcmp(q, term, tl) == 0) {
            x->p = q + tl;
            return 0;
        }
    }
    return syntax_error(x, what);
}

static int parse_text(xml_parser *x)
{
    char *s = x->p;
    char *lt = memchr(s, '<', (size_t)(x->end - s));
    char *e = lt ? lt : x->end;
    x->p = e;
    if (x->depth == 0) {
        for (char *q = s; q < e; q++)
            if (!is_space(*q))
                return syntax_error(x, "text outside the root element");
        return 0;
    }
    /* unescape terminates its result with a NUL, which lands on the '<' at e when the text
     * holds no entity; that '<' starts the next markup and must be put back */
    char saved = (e < x->end) ? *e : '\0';
    char *w = unescape(s, e);
    if (w == NULL)
        return syntax_error(x, "bad entity in text");
    if (e < x->end)
        *e = saved;
    return x->h->text ? x->h->text(x->ctx, s, (size_t)(w - s)) : 0;
}

static int parse_cdata(xml_parser *x)
{
    char *s = x->p + 9; /* after "<![CDATA[" */
    for (char *q = s; q + 3 <= x->end; q++) {
        if (memcmp(q, "]]>", 3) == 0) {
            x->p = q + 3;
            return x->h->text ? x->h->text(x->ctx, s, (size_t)(q - s)) : 0;
        }
    }
    return syntax_error(x, "unterminated CDATA section");
}

static int parse_end_tag(xml_parser *x)
{
    char *name = x->p + 2;
    char *q = name;
    while (q < x->end && is_name_char(*q))
        q++;
    char *name_end = q;
    while (q < x->end && is_space(*q))
        q++;
    if (q >= x->end || *q != '>')
        return syntax_error(x, "malformed end tag");
    *name_end = '\0';
    x->p = q + 1;
    if (x->depth == 0 || strcmp(x->stack[x->depth - 1], name) != 0)
        return syntax_error(x, "end tag does not match the open element");
    x->depth--;
    return x->h->end ? x->h->end(x->ctx, name) : 0;
}

/* Parses one name="value" pair at x->p; stores pointers in attrs[n], attrs[n+1]. */
static int parse_attribute(xml_parser *x, const char **attrs, size_t n)
{
    char *name = x->p;
    char *q = name;
    while (q < x->end && is_name_char(*q))
        q++;
    char *name_end = q;
    while (q < x->end && is_space(*q))
        q++;
    if (q == name || q >= x->end || *q != '=')
        return syntax_error(x, "malformed attribute");
    q++;
    while (q < x->end && is_space(*q))
        q++;
    if (q >= x->end || (*q != '"' && *q != '\''))
        return syntax_error(x, "attribute value is not quoted");
    char quote = *q++;
    char *val = q;
    char *close = memchr(val, quote, (size_t)(x->end - val));
    if (close == NULL)
        return syntax_error(x, "unterminated attribute value");
    *name_end = '\0';
    if (unescape(val, close) == NULL)
        return syntax_error(x, "bad entity in attribute value");
    x->p = close + 1;
    attrs[n] = name;
    attrs[n + 1] = val;
    return 0;
}

static int parse_start_tag(xml_parser *x)
{
    const char *attrs[2 * XML_MAX_ATTRS + 1];
    size_t n = 0;
    char *name = x->p + 1;
    char *q = name;
    while (q < x->end && is_name_char(*q))
        q++;
    if (q == name)
        return syntax_error(x, "malformed start tag");
    char *name_end = q;
    x->p = q;
    for (;;) {
        while (x->p < x->end && is_space(*x->p))
            x->p++;
        if (x->p >= x->end)
            return syntax_error(x, "unterminated start tag");
        if (*x->p == '>' || (*x->p == '/' && x->p + 1 < x->end && x->p[1] == '>'))
            break;
        if (n == 2 * XML_MAX_ATTRS)
            return syntax_error(x, "too many attributes");
        if (parse_attribute(x, attrs, n) != 0)
            return -1;
        n += 2;
    }
    bool empty = *x->p == '/';
    x->p += empty ? 2 : 1;
    /* cut the name only now: name_end may be the '>' or '/' just examined */
    *name_end = '\0';
    attrs[n] = NULL;
    int rc = x->h->start ? x->h->start(x->ctx, name, attrs) : 0;
    if (rc != 0)
        return rc;
    if (empty)
        return x->h->end ? x->h->end(x->ctx, name) : 0;
    return push_name(x, name);
}

static bool starts(const xml_parser *x, const char *lit)
{
    size_t n = strlen(lit);
    return (size_t)(x->end - x->p) >= n && memcmp(x->p, lit, n) == 0;
}

static int parse_markup(xml_parser *x)
{
    if (starts(x, "<!--"))
        return skip_past(x, "-->", "unterminated comment");
    if (starts(x, "<![CDATA["))
        return parse_cdata(x);
    if (starts(x, "<?"))
        return skip_past(x, "?>", "unterminated processing instruction");
    if (starts(x, "<!"))
        return skip_past(x, ">", "unterminated declaration");
    if (starts(x, "</"))
        return parse_end_tag(x);
    return parse_start_tag(x);
}

int cube_xml_parse(char *buf, size_t len, const cube_xml_handler *h, void *ctx, char *err,
                   size_t errlen)
{
    xml_parser x = {.p = buf,
                    .end = buf + len,
                    .h = h,
                    .ctx = ctx,
                    .err = err,
                    .errlen = errlen,
                    .buf_start = buf};
    int rc = 0;
    bool seen_root = false;
    while (rc == 0 && x.p < x.end) {
        if (*x.p == '<') {
            bool element = !starts(&x, "<!") && !starts(&x, "<?") && !starts(&x, "</");
            if (element && x.depth == 0 && seen_root) {
                rc = syntax_error(&x, "more than one root element");
                break;
            }
            seen_root |= element;
            rc = parse_markup(&x);
        } else {
            rc = parse_text(&x);
        }
    }
    if (rc == 0 && x.depth != 0)
        rc = syntax_error(&x, "document ends inside an element");
    if (rc == 0 && !seen_root)
        rc = syntax_error(&x, "no root element");
    free(x.stack);
    return rc;
}

int cube_xml_write_escaped(FILE *fp, const char *s)
{
    if (s == NULL)
        return 0;
    for (const char *p = s; *p; p++) {
        const char *rep = NULL;
        switch (*p) {
        case '&':
            rep = "&amp;";
            break;
        case '<':
            rep = "&lt;";
            break;
        case '>':
            rep = "&gt;";
            break;
        case '"':
            rep = "&quot;";
            break;
        case '\'':
            rep = "&apos;";
            break;
        default:
            break;
        }
        int rc = rep ? fputs(rep, fp) : putc(*p, fp);
        if (rc == EOF)
            return -1;
    }
    return 0;
}

const char *cube_xml_attr(const char **attrs, const char *name)
{
    for (size_t i = 0; attrs[i] != NULL; i += 2)
        if (strcmp(attrs[i], name) == 0)
            return attrs[i + 1];
    return NULL;
}
