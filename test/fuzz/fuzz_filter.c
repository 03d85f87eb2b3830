/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_filter.c: libFuzzer harness of the filter-file parser (src/filter): any text either
 * parses or gives a "origin:line: reason" message; the parsed filter then answers queries. */
#include "filter/filter.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    scorep_filter *f = scorep_filter_new();
    char err[256] = "";
    if (f && scorep_filter_parse_text(f, text, "fuzz", err, sizeof err) == 0) {
        static const char *names[] = {"main", "foo", "_Z3foov", "MPI_Send", "a*b", ""};
        static const char *files[] = {"/a/b.c", "x.c", "./y/../z.c", NULL};
        for (size_t i = 0; i < sizeof names / sizeof *names; i++)
            for (size_t k = 0; k < sizeof files / sizeof *files; k++)
                (void)scorep_filter_excluded(f, files[k], names[i], names[(i + 1) % 6]);
        (void)scorep_filter_is_empty(f);
    } else if (f && !err[0]) {
        abort(); /* a refusal without a message */
    }
    scorep_filter_simplify_path(text);
    scorep_filter_free(f);
    free(text);
    return 0;
}
