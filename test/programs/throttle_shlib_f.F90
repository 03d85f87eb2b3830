! SPDX-License-Identifier: BSD-3-Clause
! throttle_shlib_f.F90: the Fortran libraries of throttle_shlib.c's program: lib_tiny (linked,
! -DSHLIB_LINKED) and mod_tiny (dlopen'ed, -DSHLIB_MODULE), with the C version's names and
! results (bind(C)), so test_throttling.sh checks them alike under gfortran's instrumentation.
#if defined(SHLIB_LINKED)
integer(c_int) function lib_tiny(i) bind(C, name="lib_tiny")
  use iso_c_binding, only: c_int
  integer(c_int), value :: i
  lib_tiny = i + 1
end function lib_tiny
#else
integer(c_int) function mod_tiny(i) bind(C, name="mod_tiny")
  use iso_c_binding, only: c_int
  integer(c_int), value :: i
  mod_tiny = i + 2
end function mod_tiny
#endif
