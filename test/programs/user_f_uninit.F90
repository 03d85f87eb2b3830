! SPDX-License-Identifier: BSD-3-Clause
! user_f_uninit.F90: the Fortran twin of user_uninit.c (test_user_fortran.sh): ENTER on a
! handle that was never initialised gets one message and is not recorded; the rest is.
#include "scorep/SCOREP_User.inc"

program user_f_uninit
    implicit none
    integer :: i
    SCOREP_USER_REGION_DEFINE(never)
    SCOREP_USER_REGION_DEFINE(fine)
    do i = 1, 3
        SCOREP_USER_REGION_ENTER(never)
        SCOREP_USER_REGION_BEGIN(fine, "fine", SCOREP_USER_REGION_TYPE_COMMON)
        SCOREP_USER_REGION_END(fine)
        SCOREP_USER_REGION_END(never)
    end do
    print '(a)', 'done'
end program user_f_uninit
