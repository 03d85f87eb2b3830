/* SPDX-License-Identifier: BSD-3-Clause */
/* inline_kept.c: what the compiler plugins instrument after inlining (#31): a tiny helper
 * inlined everywhere, a tiny leaf kept out of line, a function with a loop, and an inlined
 * function whose address is taken (test_instrument_kept.sh derives the visits). */
#include <stdio.h>

#define DIRECT 1000 /* iterations of main's loop: one call of each helper */
#define INDIRECT 10 /* calls through the pointer: the out-of-line copy of via_pointer */
#define LOOPS 3     /* calls of with_loop */

static volatile int sink;

/* inlined at every call: no body of its own remains */
static inline __attribute__((always_inline)) int tiny_inlined(int x)
{
    return x * 3 + 1;
}

/* out of line, a handful of statements, no loop, no call: below the threshold */
__attribute__((noinline)) int tiny_leaf(int x)
{
    return x ^ sink;
}

/* a loop: kept whatever its size */
__attribute__((noinline)) long with_loop(int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += i ^ sink;
    return s;
}

/* inlined into main's loop; its address is taken, so an out-of-line copy (with a call:
 * above the threshold's "no call") serves the calls through the pointer */
static inline __attribute__((always_inline)) int via_pointer(int x)
{
    return tiny_leaf(x) + 7;
}

int (*volatile pointer)(int) = via_pointer;

int main(void)
{
    long s = 0;
    for (int i = 0; i < DIRECT; i++)
        s += tiny_inlined(i) + tiny_leaf(i) + via_pointer(i);
    for (int i = 0; i < INDIRECT; i++)
        s += pointer(i);
    for (int i = 0; i < LOOPS; i++)
        s += with_loop(100);
    printf("%ld\n", s);
    return 0;
}
