! SPDX-License-Identifier: BSD-3-Clause
! memory_f.f90: gfortran's ALLOCATE and DEALLOCATE call malloc and free
! (test_memory_recording.sh): 250 reals*8 kept (2000 bytes leaked), 100 released (800).
module memory_f_mod
  real(8), allocatable :: kept(:)
contains
  subroutine keep_some()
    allocate(kept(250))
    kept = 1.0d0
  end subroutine keep_some
  subroutine release()
    real(8), allocatable :: tmp(:)
    allocate(tmp(100))
    tmp = 2.0d0
    kept(1) = kept(1) + tmp(100)
    deallocate(tmp)
  end subroutine release
end module memory_f_mod

program memory_f
  use memory_f_mod
  call keep_some()
  call release()
  print *, 'done', int(sum(kept)) + 1748
end program memory_f
