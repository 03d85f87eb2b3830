! SPDX-License-Identifier: BSD-3-Clause
! selective_f.F90: selective recording from Fortran (test_selective.sh): region "step" begun
! 5 times (instances 0-4), each with one instance of "work" (instances 0-4); Fortran regions
! are identified by name, as in Score-P.
#include "scorep/SCOREP_User.inc"

subroutine work(n)
    implicit none
    integer, intent(inout) :: n
    SCOREP_USER_REGION_DEFINE(h)
    SCOREP_USER_REGION_BEGIN(h, "work", SCOREP_USER_REGION_TYPE_COMMON)
    n = n + 1
    SCOREP_USER_REGION_END(h)
end subroutine work

program selective_f
    implicit none
    integer :: i, n
    SCOREP_USER_REGION_DEFINE(step)
    n = 0
    do i = 1, 5
        SCOREP_USER_REGION_BEGIN(step, "step", SCOREP_USER_REGION_TYPE_LOOP)
        call work(n)
        SCOREP_USER_REGION_END(step)
    end do
    print '(a,i0)', 'n ', n
end program selective_f
