/* SPDX-License-Identifier: BSD-3-Clause */
/* cube_xml.h: private minimal XML support of the Cube library: an in-place event parser
 * sufficient for anchor.xml, and escaping for the writer. */
#ifndef SCOREP_CUBE_XML_H
#define SCOREP_CUBE_XML_H

#include <stddef.h>
#include <stdio.h>

/* Callbacks return 0 to go on, anything else to stop the parse with that value.
 * attrs holds name/value pairs followed by NULL; all strings are already unescaped
 * and live in the parsed buffer until the parse returns. Text may arrive in pieces. */
typedef struct {
    int (*start)(void *ctx, const char *name, const char **attrs);
    int (*end)(void *ctx, const char *name);
    int (*text)(void *ctx, const char *text, size_t len);
} cube_xml_handler;

/* Parses buf[0..len) in place (the buffer is modified). Returns 0, a callback's non-zero
 * value, or -1 on a syntax error with the line number in err. */
int cube_xml_parse(char *buf, size_t len, const cube_xml_handler *h, void *ctx, char *err,
                   size_t errlen);

/* Writes s with & < > " ' replaced by entities. Returns 0 or -1 (stream error). */
int cube_xml_write_escaped(FILE *fp, const char *s);

/* Looks up an attribute in a start callback's list; NULL if absent. */
const char *cube_xml_attr(const char **attrs, const char *name);

#endif
