/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_cube.c: libFuzzer harness of the Cube reader (src/cube: the tar layer, anchor.xml,
 * the index and data files of a .cubex): any file either opens or gives a message; an opened
 * profile answers every value query within its sizes. */
#include "cube/cube.h"
#include "fuzz_input.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[4096];
    if (fuzz_input_file(data, size, path, sizeof path, "fuzz_cube") != 0)
        return 0;
    char err[512] = "";
    cube_reader *r = cube_reader_open(path, err, sizeof err);
    unlink(path);
    if (!r) {
        if (!err[0])
            abort(); /* a refusal without a message */
        return 0;
    }
    /* bounded walk: at most 4096 values per view */
    long budget = 4096;
    for (int m = 0; m < r->n_metrics && budget > 0; m++)
        for (int c = 0; c < r->n_cnodes && budget > 0; c++)
            for (int l = 0; l < r->n_locations && budget > 0; l++, budget--) {
                (void)cube_reader_stored(r, m, c, l);
                (void)cube_reader_exclusive(r, m, c, l);
                (void)cube_reader_inclusive(r, m, c, l);
            }
    free(cube_reader_process_groups(r));
    cube_reader_free(r);
    return 0;
}
