/* SPDX-License-Identifier: BSD-3-Clause */
/* user_uninit.c: bad input for the user API (test_user.sh): SCOREP_USER_REGION_ENTER on a
 * handle that was never initialised gets one message and is not recorded; the rest is. */
#include <stdio.h>

#include <scorep/SCOREP_User.h>

int main(void)
{
    SCOREP_USER_REGION_DEFINE(never_initialised)
    SCOREP_USER_REGION_DEFINE(fine)
    for (int i = 0; i < 3; i++) {
        SCOREP_USER_REGION_ENTER(never_initialised)
        SCOREP_USER_REGION_BEGIN(fine, "fine", SCOREP_USER_REGION_TYPE_COMMON)
        SCOREP_USER_REGION_END(fine)
        SCOREP_USER_REGION_END(never_initialised)
    }
    puts("done");
    return 0;
}
