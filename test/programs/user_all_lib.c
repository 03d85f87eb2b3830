/* SPDX-License-Identifier: BSD-3-Clause */
/* user_all_lib.c: the other file of user_all.c; uses its global region and global metric. */
#include <scorep/SCOREP_User.h>

SCOREP_USER_GLOBAL_REGION_EXTERNAL(shared_handle)
SCOREP_USER_METRIC_EXTERNAL(shared_metric)

void lib_work(int i);

void lib_work(int i)
{
    SCOREP_USER_REGION_BEGIN(shared_handle, "not_this_name", SCOREP_USER_REGION_TYPE_LOOP)
    SCOREP_USER_METRIC_INT64(shared_metric, i)
    (void)i;
    SCOREP_USER_REGION_END(shared_handle)
}
