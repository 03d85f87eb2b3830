! SPDX-License-Identifier: BSD-3-Clause
! longjmp_f.F90: Fortran user regions (BEGIN, INIT + ENTER, BY_NAME_BEGIN) open in the frames
! of two Fortran subroutines when C's longjmp (longjmp_f_main.c, c_jump) abandons them, for
! test_longjmp_regions.sh. Left at the jump innermost first: fr3 fr2 (f_inner), fr1 (f_outer).
#include "scorep/SCOREP_User.inc"

subroutine f_inner() bind(C, name="f_inner")
    interface
        subroutine c_jump() bind(C, name="c_jump")
        end subroutine
    end interface
    SCOREP_USER_REGION_DEFINE(fr2)
    SCOREP_USER_REGION_INIT(fr2, "fr2", SCOREP_USER_REGION_TYPE_COMMON)
    SCOREP_USER_REGION_ENTER(fr2)
    SCOREP_USER_REGION_BY_NAME_BEGIN("fr3", SCOREP_USER_REGION_TYPE_COMMON)
    call c_jump()
    SCOREP_USER_REGION_BY_NAME_END("fr3")
    SCOREP_USER_REGION_END(fr2)
end subroutine

subroutine f_outer() bind(C, name="f_outer")
    interface
        subroutine f_inner() bind(C, name="f_inner")
        end subroutine
    end interface
    SCOREP_USER_REGION_DEFINE(fr1)
    SCOREP_USER_REGION_BEGIN(fr1, "fr1", SCOREP_USER_REGION_TYPE_COMMON)
    call f_inner()
    SCOREP_USER_REGION_END(fr1)
end subroutine
