! SPDX-License-Identifier: BSD-3-Clause
! user_f_lib.f90: the other file of user_f.F90, lower-case suffix (scorep-cc --user adds -cpp):
! its own handle named shared_f is the same region as user_f.F90's (regions go by name).
#include "scorep/SCOREP_User.inc"

subroutine lib_work(i)
    implicit none
    integer, intent(in) :: i
    integer*8 :: v
    SCOREP_USER_REGION_DEFINE(other)
    SCOREP_USER_METRIC_LOCAL(lib_metric)
    v = i
    SCOREP_USER_METRIC_INIT(lib_metric, "lib_metric", "#", SCOREP_USER_METRIC_TYPE_INT64, SCOREP_USER_METRIC_CONTEXT_CALLPATH)
    SCOREP_USER_REGION_BEGIN(other, "shared_f", SCOREP_USER_REGION_TYPE_LOOP)
    SCOREP_USER_METRIC_INT64(lib_metric, v)
    SCOREP_USER_REGION_END(other)
end subroutine lib_work
