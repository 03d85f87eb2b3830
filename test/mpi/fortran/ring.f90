! SPDX-License-Identifier: BSD-3-Clause
! ring.f90: MPI test program with known communication, Fortran `use mpi` bindings; run with
! 2-4 processes. test_fortran.sh checks the events of every call below (counts per rank).
program ring
    use mpi
    implicit none
    integer :: rank, nprocs, right, left, ierr, i, n
    integer :: ibuf(4), ibuf2(4), sr(2), rr(2), sendv(10), recvv(10), aux(3), aux2(3)
    integer :: reqs(2), req, splitcomm, dupcomm, splitsize, count
    integer :: statuses(MPI_STATUS_SIZE, 2), status(MPI_STATUS_SIZE)
    double precision :: dbuf(8), dbuf2(8)
    integer :: total, expected
    logical :: flag

    call MPI_Init(ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_Init')
    call MPI_Initialized(flag, ierr)
    call check(flag, 'MPI_Initialized')
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
    right = mod(rank + 1, nprocs)
    left = mod(rank - 1 + nprocs, nprocs)

    ! 3 blocking messages of 4 integers (16 bytes) to the right, tag 10
    do i = 1, 3
        ibuf = rank * 100 + i
        if (mod(rank, 2) == 0) then
            call MPI_Send(ibuf, 4, MPI_INTEGER, right, 10, MPI_COMM_WORLD, ierr)
            call MPI_Recv(ibuf2, 4, MPI_INTEGER, left, 10, MPI_COMM_WORLD, status, ierr)
        else
            call MPI_Recv(ibuf2, 4, MPI_INTEGER, left, 10, MPI_COMM_WORLD, status, ierr)
            call MPI_Send(ibuf, 4, MPI_INTEGER, right, 10, MPI_COMM_WORLD, ierr)
        end if
        call check(all(ibuf2 == left * 100 + i), 'MPI_Recv data')
        call check(status(MPI_SOURCE) == left .and. status(MPI_TAG) == 10, 'MPI_Recv status')
    end do

    ! 1 synchronous message of 8 doubles (64 bytes), tag 11; status ignored
    dbuf = rank + 0.5d0
    if (mod(rank, 2) == 0) then
        call MPI_Ssend(dbuf, 8, MPI_DOUBLE_PRECISION, right, 11, MPI_COMM_WORLD, ierr)
        call MPI_Recv(dbuf2, 8, MPI_DOUBLE_PRECISION, left, 11, MPI_COMM_WORLD, &
                      MPI_STATUS_IGNORE, ierr)
    else
        call MPI_Recv(dbuf2, 8, MPI_DOUBLE_PRECISION, left, 11, MPI_COMM_WORLD, &
                      MPI_STATUS_IGNORE, ierr)
        call MPI_Ssend(dbuf, 8, MPI_DOUBLE_PRECISION, right, 11, MPI_COMM_WORLD, ierr)
    end if
    call check(all(dbuf2 == left + 0.5d0), 'MPI_Ssend data')

    ! MPI_Sendrecv: 2 integers (8 bytes) right, tag 12
    sr = rank
    call MPI_Sendrecv(sr, 2, MPI_INTEGER, right, 12, rr, 2, MPI_INTEGER, left, 12, &
                      MPI_COMM_WORLD, status, ierr)
    call check(all(rr == left) .and. status(MPI_SOURCE) == left, 'MPI_Sendrecv')

    ! Irecv + Isend of 10 integers (40 bytes), tag 20, completed by MPI_Waitall
    sendv = rank
    call MPI_Irecv(recvv, 10, MPI_INTEGER, left, 20, MPI_COMM_WORLD, reqs(1), ierr)
    call MPI_Isend(sendv, 10, MPI_INTEGER, right, 20, MPI_COMM_WORLD, reqs(2), ierr)
    call MPI_Waitall(2, reqs, statuses, ierr)
    call check(ierr == MPI_SUCCESS .and. all(recvv == left), 'MPI_Waitall data')
    call check(reqs(1) == MPI_REQUEST_NULL .and. reqs(2) == MPI_REQUEST_NULL, &
               'MPI_Waitall requests')
    call check(statuses(MPI_SOURCE, 1) == left .and. statuses(MPI_TAG, 1) == 20, &
               'MPI_Waitall statuses')
    call MPI_Get_count(statuses(:, 1), MPI_INTEGER, count, ierr)
    call check(count == 10, 'MPI_Get_count')

    ! Irecv + Isend of 3 integers (12 bytes), tag 21, MPI_Wait with MPI_STATUS_IGNORE
    aux = rank + 7
    call MPI_Irecv(aux2, 3, MPI_INTEGER, left, 21, MPI_COMM_WORLD, req, ierr)
    call MPI_Isend(aux, 3, MPI_INTEGER, right, 21, MPI_COMM_WORLD, reqs(1), ierr)
    call MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)
    call MPI_Wait(req, status, ierr)
    call check(all(aux2 == left + 7) .and. status(MPI_TAG) == 21, 'MPI_Wait')

    ! collectives: Bcast, Allreduce, Allreduce in place, Barrier
    n = 0
    if (rank == 0) n = 42
    call MPI_Bcast(n, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    call check(n == 42, 'MPI_Bcast')
    call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    expected = nprocs * (nprocs - 1) / 2
    call check(total == expected, 'MPI_Allreduce')
    total = 1
    call MPI_Allreduce(MPI_IN_PLACE, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    call check(total == nprocs, 'MPI_Allreduce MPI_IN_PLACE')
    call MPI_Barrier(MPI_COMM_WORLD, ierr)

    ! communicators: a duplicate and a split (even/odd ranks), one Allreduce on the split
    call MPI_Comm_dup(MPI_COMM_WORLD, dupcomm, ierr)
    call MPI_Comm_split(dupcomm, mod(rank, 2), rank, splitcomm, ierr)
    call MPI_Comm_size(splitcomm, splitsize, ierr)
    call MPI_Allreduce(1, total, 1, MPI_INTEGER, MPI_SUM, splitcomm, ierr)
    call check(total == splitsize, 'MPI_Allreduce on a split communicator')
    call MPI_Comm_free(splitcomm, ierr)
    call MPI_Comm_free(dupcomm, ierr)
    call check(splitcomm == MPI_COMM_NULL .and. dupcomm == MPI_COMM_NULL, 'MPI_Comm_free')

    print '(a,i0)', 'ring ok rank ', rank
    call MPI_Finalize(ierr)

contains

    subroutine check(ok, what)
        logical, intent(in) :: ok
        character(len=*), intent(in) :: what
        integer :: e
        if (.not. ok) then
            print '(a,a,a,i0)', 'FAILED: ', what, ' on rank ', rank
            call MPI_Abort(MPI_COMM_WORLD, 1, e)
        end if
    end subroutine check
end program ring
