/* SPDX-License-Identifier: BSD-3-Clause */
/* sampling_dlopen.c: maps and unmaps a library (argv[1]) argv[2] times with dlopen and
 * dlclose, for sampling at a high rate (test_sampling_dlopen.sh): a sample that interrupts
 * the dynamic linker while it holds the lock of its object list must not wait for it. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int n = argc > 2 ? atoi(argv[2]) : 1000;
    for (int i = 0; i < n; i++) {
        void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            fprintf(stderr, "dlopen: %s\n", dlerror());
            return 1;
        }
        dlclose(h);
    }
    puts("done");
    return 0;
}
