/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_selective.c: libFuzzer harness of the selective-recording file parser
 * (SCOREP_SELECTIVE_CONFIG_FILE, src/adapters/user/selective_file.c): any file either parses
 * into sorted, disjoint intervals or gives a message. */
#include "adapters/user/selective_file.h"
#include "fuzz_input.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[4096];
    if (fuzz_input_file(data, size, path, sizeof path, "fuzz_selective") != 0)
        return 0;
    scorep_selection_table t = {0};
    char err[512] = "";
    int rc = scorep_selection_parse(&t, path, err, sizeof err);
    unlink(path);
    if (rc != 0 && !err[0] && rc != -3)
        abort(); /* a refusal without a message */
    for (size_t i = 0; rc == 0 && i < t.n; i++) {
        const scorep_selection *s = &t.regions[i];
        if (scorep_selection_find(&t, s->name) == NULL)
            abort();
        for (uint32_t k = 0; k < s->n; k++) {
            if (s->iv[k].first > s->iv[k].last || (k && s->iv[k].first <= s->iv[k - 1].last + 1))
                abort(); /* not sorted, disjoint, apart */
            if (!scorep_selection_contains(s, s->iv[k].first) ||
                !scorep_selection_contains(s, s->iv[k].last))
                abort();
        }
    }
    scorep_selection_free(&t);
    return 0;
}
