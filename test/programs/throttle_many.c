/* SPDX-License-Identifier: BSD-3-Clause */
/* throttle_many.c: test program for the plugin's 63 throttle slots: 70 tiny functions
 * f00..f69, each called 500 times from main. Prints "done <checksum>". */
#include <stdio.h>

static volatile long sink;

#define TINY(n)                                                                                    \
    __attribute__((noinline)) void f##n(void)                                                      \
    {                                                                                              \
        sink += 1;                                                                                 \
    }
#define TEN(d)                                                                                     \
    TINY(d##0)                                                                                     \
    TINY(d##1) TINY(d##2) TINY(d##3) TINY(d##4) TINY(d##5) TINY(d##6) TINY(d##7) TINY(d##8)        \
        TINY(d##9)
TEN(0)
TEN(1)
TEN(2) TEN(3) TEN(4) TEN(5) TEN(6)

#define CALL(n) f##n();
#define CALL_TEN(d)                                                                                \
    CALL(d##0)                                                                                     \
    CALL(d##1) CALL(d##2) CALL(d##3) CALL(d##4) CALL(d##5) CALL(d##6) CALL(d##7) CALL(d##8)        \
        CALL(d##9)

    int main(void)
{
    for (int i = 0; i < 500; i++) {
        CALL_TEN(0) CALL_TEN(1) CALL_TEN(2) CALL_TEN(3) CALL_TEN(4) CALL_TEN(5) CALL_TEN(6)
    }
    printf("done %ld\n", (long)sink);
    return 0;
}
