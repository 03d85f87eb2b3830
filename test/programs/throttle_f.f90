! SPDX-License-Identifier: BSD-3-Clause
! throttle_f.f90: the Fortran version of throttle.c for throttling under gfortran's plugin
! instrumentation: main calls tiny() 5000 times, then caller() once (which calls tiny() 10
! times), then slowish() 1100 times (each sleeps 50 us). bind(C) gives the procedures the C
! version's names, so test_throttling.sh checks both alike. Prints "done <checksum>".
module throttle_f
  use iso_c_binding, only: c_int, c_long
  implicit none
  integer(c_long), volatile :: sink = 0
  interface
    integer(c_int) function usleep(us) bind(C, name="usleep")
      import :: c_int
      integer(c_int), value :: us
    end function usleep
  end interface
contains
  subroutine tiny(i) bind(C, name="tiny")
    integer(c_int), value :: i
    sink = sink + i
  end subroutine tiny

  subroutine caller() bind(C, name="caller")
    integer(c_int) :: i
    do i = 0, 9
      call tiny(i)
    end do
  end subroutine caller

  subroutine slowish() bind(C, name="slowish")
    integer(c_int) :: rc
    rc = usleep(50)
  end subroutine slowish
end module throttle_f

program throttle
  use throttle_f
  implicit none
  integer(c_int) :: i
  do i = 0, 4999
    call tiny(i)
  end do
  call caller()
  do i = 1, 1100
    call slowish()
  end do
  print '(a,i0)', 'done ', sink
end program throttle
