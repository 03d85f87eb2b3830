! SPDX-License-Identifier: BSD-3-Clause
! throttle_omp_f.f90: the Fortran version of throttle_omp.c: two teams of 2 threads, each
! calling work() 3000 times in all (static schedule); bind(C) gives work the C version's name.
! Prints "done <checksum>".
module throttle_omp_f
  use iso_c_binding, only: c_int, c_long
  implicit none
  integer(c_long) :: sink = 0
contains
  subroutine work(i) bind(C, name="work")
    integer(c_int), value :: i
    !$omp atomic
    sink = sink + i
  end subroutine work
end module throttle_omp_f

program throttle_omp
  use throttle_omp_f
  implicit none
  integer(c_int) :: team, i
  do team = 1, 2
    !$omp parallel do num_threads(2) schedule(static)
    do i = 0, 2999
      call work(i)
    end do
    !$omp end parallel do
  end do
  print '(a,i0)', 'done ', sink
end program throttle_omp
