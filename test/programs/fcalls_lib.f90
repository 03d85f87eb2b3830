! SPDX-License-Identifier: BSD-3-Clause
! fcalls_lib.f90: a subroutine of fcalls.F90 in a lower-case .f90 file (not preprocessed):
! calls the module's leaf twice
subroutine lib_sub(i)
  use fcalls_mod, only: leaf
  implicit none
  integer, intent(in) :: i
  call leaf(i)
  call leaf(-i)
end subroutine lib_sub
