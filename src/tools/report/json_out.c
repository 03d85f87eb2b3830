/* SPDX-License-Identifier: BSD-3-Clause */
/* json_out.c: the JSON writer of scorep-report: strings escaped for JSON and for the HTML
 * <script> element they are embedded in (region names may hold </script>, & or quotes). */
#include "report.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

void json_string_n(FILE *out, const char *s, size_t n)
{
    fputc('"', out);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", out);
        else if (c == '\t')
            fputs("\\t", out);
        /* < > & never appear literally: "</script>" or "<!--" in a name cannot end the
         * data block early */
        else if (c < 0x20 || c == 0x7f || c == '<' || c == '>' || c == '&')
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

void json_string(FILE *out, const char *s)
{
    if (s == NULL)
        fputs("null", out);
    else
        json_string_n(out, s, strlen(s));
}

void json_double(FILE *out, double v)
{
    if (!isfinite(v))
        v = 0;
    fprintf(out, "%.9g", v);
}

void json_u64(FILE *out, uint64_t v)
{
    fprintf(out, "%" PRIu64, v);
}

void json_key(FILE *out, const char *key, bool first)
{
    if (!first)
        fputc(',', out);
    json_string(out, key);
    fputc(':', out);
}

void json_member(FILE *out, const char *key, const char *s, bool first)
{
    json_key(out, key, first);
    json_string(out, s);
}
