! SPDX-License-Identifier: BSD-3-Clause
! user_f.F90: every macro of the Fortran user API (scorep/SCOREP_User.inc) with the counts of
! user_all.c (test_user_fortran.sh); user_f_lib.f90 begins region shared_f from another file.
#include "scorep/SCOREP_User.inc"

subroutine seven()
    implicit none
    SCOREP_USER_REGION_DEFINE(h)
    SCOREP_USER_REGION_BEGIN(h, "seven", SCOREP_USER_REGION_TYPE_COMMON)
    SCOREP_USER_REGION_END(h)
end subroutine seven

! level=0 once, level=1 twice, level=2 three times: parameter call paths below it
subroutine levels(level)
    implicit none
    integer, intent(in) :: level
    integer*8 :: lv, sz
    SCOREP_USER_FUNC_DEFINE()
    SCOREP_USER_PARAMETER_DEFINE(p_level)
    SCOREP_USER_PARAMETER_DEFINE(p_size)
    SCOREP_USER_PARAMETER_DEFINE(p_tag)
    lv = level
    sz = 100 * level
    SCOREP_USER_FUNC_BEGIN("levels")
    SCOREP_USER_PARAMETER_INT64(p_level, "level", lv)
    SCOREP_USER_PARAMETER_UINT64(p_size, "size", sz)
    if (level == 2) then
        SCOREP_USER_PARAMETER_STRING(p_tag, "tag", "hot")
    else
        SCOREP_USER_PARAMETER_STRING(p_tag, "tag", "cold")
    end if
    SCOREP_USER_FUNC_END()
end subroutine levels

subroutine shared_here()
    implicit none
    SCOREP_USER_REGION_DEFINE(mine)
    SCOREP_USER_REGION_BEGIN(mine, "shared_f", SCOREP_USER_REGION_TYPE_COMMON)
    SCOREP_USER_REGION_END(mine)
end subroutine shared_here

subroutine metrics()
    implicit none
    integer :: i
    integer*8 :: i8
    double precision :: d
    SCOREP_USER_METRIC_LOCAL(m_int)
    SCOREP_USER_METRIC_LOCAL(m_uint)
    SCOREP_USER_METRIC_LOCAL(m_double)
    SCOREP_USER_METRIC_INIT(m_int, "m_int", "apples", SCOREP_USER_METRIC_TYPE_INT64, SCOREP_USER_METRIC_CONTEXT_CALLPATH)
    SCOREP_USER_METRIC_INIT(m_uint, "m_uint", "pears", SCOREP_USER_METRIC_TYPE_UINT64, SCOREP_USER_METRIC_CONTEXT_GLOBAL)
    SCOREP_USER_METRIC_INIT(m_double, "m_double", "s", SCOREP_USER_METRIC_TYPE_DOUBLE, SCOREP_USER_METRIC_CONTEXT_CALLPATH)
    SCOREP_USER_REGION_BY_NAME_BEGIN("metrics", SCOREP_USER_REGION_TYPE_DYNAMIC)
    i8 = -3
    do i = 1, 2
        SCOREP_USER_METRIC_INT64(m_int, i8)
    end do
    i8 = 5
    do i = 1, 3
        SCOREP_USER_METRIC_UINT64(m_uint, i8)
    end do
    d = 0.25d0
    do i = 1, 4
        SCOREP_USER_METRIC_DOUBLE(m_double, d)
    end do
    SCOREP_USER_REGION_BY_NAME_END("metrics")
end subroutine metrics

program user_f
    implicit none
    integer :: i, k, level, on_before, off_inside
    SCOREP_USER_REGION_DEFINE(init_enter)
    SCOREP_USER_REGION_DEFINE(loop)
    SCOREP_USER_REGION_DEFINE(phase)
    SCOREP_USER_REWIND_DEFINE(rw)

    on_before = -1
    off_inside = -1
    SCOREP_USER_REGION_INIT(init_enter, "init_enter", SCOREP_USER_REGION_TYPE_FUNCTION)
    do i = 1, 2
        SCOREP_USER_REGION_ENTER(init_enter)
        SCOREP_USER_REGION_END(init_enter)
    end do

    SCOREP_USER_REGION_BEGIN(loop, "levels_loop", SCOREP_USER_REGION_TYPE_LOOP)
    do level = 0, 2
        do k = 0, level
            call levels(level)
        end do
    end do
    SCOREP_USER_REGION_END(loop)

    do i = 1, 3
        call seven()
    end do
    SCOREP_RECORDING_IS_ON(on_before)
    SCOREP_RECORDING_OFF()
    SCOREP_RECORDING_IS_ON(off_inside)
    do i = 1, 4
        call seven()
    end do
    SCOREP_USER_REGION_BY_NAME_BEGIN("while_off", SCOREP_USER_REGION_TYPE_COMMON)
    SCOREP_USER_REGION_BY_NAME_END("while_off")
    SCOREP_RECORDING_ON()
    do i = 1, 4
        call seven()
    end do

    do i = 1, 3
        SCOREP_USER_OA_PHASE_BEGIN(phase, "oa_phase", SCOREP_USER_REGION_TYPE_PHASE)
        call seven()
        SCOREP_USER_OA_PHASE_END(phase)
    end do

    call shared_here()
    do i = 1, 5
        call lib_work(i)
    end do

    do i = 0, 3
        SCOREP_USER_REWIND_POINT(rw, "rewind_region")
        call seven()
        SCOREP_USER_REWIND_CHECK(rw, mod(i, 2) == 0)
    end do

    call metrics()
    print '(a,i0,a,i0)', 'recording on: ', on_before, ', while off: ', off_inside
end program user_f
