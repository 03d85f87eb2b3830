! SPDX-License-Identifier: BSD-3-Clause
! locks_f.f90: the OpenMP lock routines called from Fortran (gfortran's omp_lib entry points,
! omp_set_lock_ & co., which libgomp serves past its C ones): a team of 2 threads, each sets and
! unsets a simple lock once and a nest lock twice (nested), then enters a critical section;
! after the team the initial thread takes the simple lock with omp_test_lock (free: it
! succeeds) and unsets it. Prints the count of increments: 2 * 3 + 1 = 7
! (test_omp_fortran_locks.sh).
program locks_f
  use omp_lib
  implicit none
  integer(omp_lock_kind) :: l
  integer(omp_nest_lock_kind) :: nl
  integer :: s
  s = 0
  call omp_init_lock(l)
  call omp_init_nest_lock(nl)
  !$omp parallel num_threads(2) shared(s, l, nl)
  call omp_set_lock(l)
  s = s + 1
  call omp_unset_lock(l)
  call omp_set_nest_lock(nl)
  call omp_set_nest_lock(nl)
  s = s + 1
  call omp_unset_nest_lock(nl)
  call omp_unset_nest_lock(nl)
  !$omp critical
  s = s + 1
  !$omp end critical
  !$omp end parallel
  if (omp_test_lock(l)) then
    s = s + 1
    call omp_unset_lock(l)
  end if
  call omp_destroy_lock(l)
  call omp_destroy_nest_lock(nl)
  print '(A,I0)', 's ', s
end program locks_f
