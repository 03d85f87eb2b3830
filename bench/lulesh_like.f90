! SPDX-License-Identifier: BSD-3-Clause
! lulesh_like.f90: the Fortran version of bench/lulesh_like.c (issue #20): the same
! LULESH-shaped time-step loop with four tiny, non-inlined element kernels, module procedures
! as a Fortran code has them, 4 x elements x steps calls (10^8 by default). Arguments and
! output as the C version: "kernel_calls <n>", "loop_s <seconds>", a checksum.
module lulesh_kernels
  implicit none
contains
  ! built with -fno-inline (gfortran 12 has no noinline attribute): the kernels stay separate
  ! calls, as in a build whose kernels live in other files
  real(8) function calc_elem_force(x, p)
    real(8), value :: x, p
    calc_elem_force = -p * x * 0.5d0
  end function calc_elem_force

  real(8) function calc_elem_velocity(v, f, dt)
    real(8), value :: v, f, dt
    calc_elem_velocity = v + f * dt
  end function calc_elem_velocity

  real(8) function calc_elem_volume(x, v, dt)
    real(8), value :: x, v, dt
    calc_elem_volume = x + v * dt
  end function calc_elem_volume

  real(8) function calc_elem_energy(e, p, dx)
    real(8), value :: e, p, dx
    calc_elem_energy = e - p * dx + 1d-9
  end function calc_elem_energy

  subroutine lagrange_nodal(x, v, f, p, dt)
    real(8), intent(in) :: x(:), p(:), dt
    real(8), intent(inout) :: v(:), f(:)
    integer(8) :: i
    do i = 1, size(x, kind=8)
      f(i) = calc_elem_force(x(i), p(i))
      v(i) = calc_elem_velocity(v(i), f(i), dt)
    end do
  end subroutine lagrange_nodal

  subroutine lagrange_elements(x, v, e, p, dt)
    real(8), intent(in) :: v(:), dt
    real(8), intent(inout) :: x(:), e(:), p(:)
    integer(8) :: i
    real(8) :: xn
    do i = 1, size(x, kind=8)
      xn = calc_elem_volume(x(i), v(i), dt)
      e(i) = calc_elem_energy(e(i), p(i), xn - x(i))
      x(i) = xn
      p(i) = 0.4d0 * e(i) / max(xn, 1d-6)
    end do
  end subroutine lagrange_elements

  real(8) function calc_time_constraints(v)
    real(8), intent(in) :: v(:)
    real(8) :: vmax
    vmax = max(1d-12, maxval(abs(v)))
    calc_time_constraints = min(1d-3 / vmax, 1d-4)
  end function calc_time_constraints
end module lulesh_kernels

program lulesh_like
  use lulesh_kernels
  implicit none
  integer(8) :: steps, elems, s, i, c0, c1, rate
  real(8), allocatable :: x(:), v(:), f(:), e(:), p(:)
  real(8) :: dt
  character(len=32) :: arg
  steps = 1000
  elems = 25000
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) steps
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *) elems
  end if
  if (steps <= 0 .or. elems <= 0) then
    write (0, '(a)') 'usage: lulesh_like [STEPS [ELEMENTS]] (positive numbers)'
    stop 2
  end if
  allocate (x(elems), v(elems), f(elems), e(elems), p(elems))
  v = 0
  f = 0
  do i = 1, elems
    x(i) = 1d0 + real(mod(i - 1, 7_8), 8) * 0.01d0
    e(i) = merge(1d3, 1d-3, i == 1) ! Sedov-like: energy deposited in one element
    p(i) = 0.4d0 * e(i) / x(i)
  end do
  call system_clock(c0, rate)
  do s = 1, steps
    dt = calc_time_constraints(v)
    call lagrange_nodal(x, v, f, p, dt)
    call lagrange_elements(x, v, e, p, dt)
  end do
  call system_clock(c1)
  print '(a,i0)', 'kernel_calls ', 4 * steps * elems
  print '(a,f0.6)', 'loop_s ', real(c1 - c0, 8) / real(rate, 8)
  print '(a,es14.6)', 'checksum ', sum(e)
end program lulesh_like
