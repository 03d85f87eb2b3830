! SPDX-License-Identifier: BSD-3-Clause
! fcalls.F90: test program of compiler instrumentation under gfortran (test_fortran_plugin.sh):
! module procedures, a recursive one, an internal procedure that uses its host's variable, a
! fixed-form subroutine (fcalls_fixed.f) and one from a lower-case .f90 file (fcalls_lib.f90).
! Calls: leaf 1000 times, recurse 5 levels deep, inner 10 times, fixed_sub 3 times, lib_sub 7
! times (each calls leaf twice). Prints "sum <n>".
module fcalls_mod
  implicit none
  integer :: total = 0
contains
  subroutine leaf(i)
    integer, intent(in) :: i
    total = total + i
  end subroutine leaf

  recursive subroutine recurse(n)
    integer, intent(in) :: n
    if (n > 1) call recurse(n - 1)
    total = total + n
  end subroutine recurse
end module fcalls_mod

program fcalls
  use fcalls_mod
  implicit none
  integer :: i, k
  k = 2
  do i = 1, 1000
    call leaf(i)
  end do
  call recurse(5)
  do i = 1, 10
    total = total + inner(i)
  end do
  do i = 1, 3
    call fixed_sub(total)
  end do
  do i = 1, 7
    call lib_sub(i)
  end do
  print '(a,i0)', 'sum ', total
contains
  integer function inner(x)
    integer, intent(in) :: x
    inner = x * k
  end function inner
end program fcalls
