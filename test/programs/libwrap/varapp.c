/* SPDX-License-Identifier: BSD-3-Clause */
/* varapp.c: calls vl_log 3 times (its arguments must arrive through the wrapper) and
 * vl_count 2 times (test_libwrap.sh). */
#include "varlib.h"
#include <stdio.h>

int main(void)
{
    vl_log("%s %d\n", "one", 1);
    vl_log("%d %d %.1f\n", 2, 3, 4.5);
    int before = vl_count();
    vl_log("%s\n", "three");
    printf("count %d %d\n", before, vl_count());
    return 0;
}
