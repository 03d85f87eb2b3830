! SPDX-License-Identifier: BSD-3-Clause
! locks_f.f90: the OpenMP lock routines called from Fortran (gfortran's omp_lib entry points,
! omp_set_lock_ & co., which libgomp serves past its C ones): a team of 2 threads, each sets and
! unsets a simple lock once and a nest lock twice (nested), then enters a critical section;
! after the team the initial thread takes the simple lock with omp_test_lock (free: it
! succeeds) and unsets it. Prints the count of increments: 2 * 3 + 1 = 7
! (test_omp_fortran_locks.sh).
! Each lock guards a counter of its own: two locks exclude nothing between each other, so one
! counter behind all three was a data race (a thread in the critical section and the other
! under the simple lock, now and then: "s 6"; ThreadSanitizer saw it once on CI).
! Argument "linger" (test_programs_race_free.sh): the threads overlap in time. Thread 1
! starts 0.05 s late and stays 0.4 s under the simple lock while thread 0 spends 0.3 s under
! the nest lock and then 0.5 s in the critical section: each pair of sections runs at the
! same time (margins >= 0.15 s), so ThreadSanitizer sees a counter that two of them share on
! every run, not only when the scheduler happens to overlap them. It waits by the clock only,
! which orders nothing between the threads.
program locks_f
  use omp_lib
  implicit none
  integer(omp_lock_kind) :: l
  integer(omp_nest_lock_kind) :: nl
  integer :: sl, sn, sc
  character(len=16) :: arg
  logical :: linger
  call get_command_argument(1, arg)
  linger = trim(arg) == 'linger'
  sl = 0
  sn = 0
  sc = 0
  call omp_init_lock(l)
  call omp_init_nest_lock(nl)
  !$omp parallel num_threads(2) shared(sl, sn, sc, l, nl, linger)
  if (linger .and. omp_get_thread_num() == 1) call wait_s(0.05d0)
  call omp_set_lock(l)
  sl = sl + 1
  if (linger .and. omp_get_thread_num() == 1) call wait_s(0.4d0)
  call omp_unset_lock(l)
  call omp_set_nest_lock(nl)
  call omp_set_nest_lock(nl)
  sn = sn + 1
  if (linger .and. omp_get_thread_num() == 0) call wait_s(0.3d0)
  call omp_unset_nest_lock(nl)
  call omp_unset_nest_lock(nl)
  !$omp critical
  sc = sc + 1
  if (linger .and. omp_get_thread_num() == 0) call wait_s(0.5d0)
  !$omp end critical
  !$omp end parallel
  if (omp_test_lock(l)) then
    sl = sl + 1
    call omp_unset_lock(l)
  end if
  call omp_destroy_lock(l)
  call omp_destroy_nest_lock(nl)
  print '(A,I0)', 's ', sl + sn + sc
contains
  ! wait_s: busy until t seconds have passed (omp_get_wtime: no synchronisation)
  subroutine wait_s(t)
    double precision, intent(in) :: t
    double precision :: t0
    t0 = omp_get_wtime()
    do while (omp_get_wtime() - t0 < t)
    end do
  end subroutine wait_s
end program locks_f
