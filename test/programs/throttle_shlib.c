/* SPDX-License-Identifier: BSD-3-Clause */
/* throttle_shlib.c: test program for instrumented functions in shared libraries. Built as
 * a linked library (-DSHLIB_LINKED: lib_tiny), as a dlopen'ed module (-DSHLIB_MODULE:
 * mod_tiny) and as the program, which calls lib_tiny 3000 times and mod_tiny 2000 times.
 * Prints "done <checksum>". */
#include <dlfcn.h>
#include <stdio.h>

#if defined(SHLIB_LINKED)
__attribute__((noinline)) int lib_tiny(int i)
{
    return i + 1;
}
#elif defined(SHLIB_MODULE)
__attribute__((noinline)) int mod_tiny(int i)
{
    return i + 2;
}
#else
int lib_tiny(int i);

int main(int argc, char **argv)
{
    long sum = 0;
    for (int i = 0; i < 3000; i++)
        sum += lib_tiny(i);
    void *m = dlopen(argc > 1 ? argv[1] : "./mod.so", RTLD_NOW);
    int (*mod)(int) = m ? (int (*)(int))dlsym(m, "mod_tiny") : NULL;
    if (!mod)
        return 1;
    for (int i = 0; i < 2000; i++)
        sum += mod(i);
    printf("done %ld\n", sum);
    return 0;
}
#endif
