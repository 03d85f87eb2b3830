! SPDX-License-Identifier: BSD-3-Clause
! f08_calls.f90: a `use mpi_f08` program (2 processes) whose calls go through the mpi_f08
! module's specific procedures (mpi_send_f08_, ...); test_fortran.sh asserts their events and
! that the program observes the same data, statuses, flags, names and error codes
! uninstrumented, linked and under scorep-run. Most calls leave out the OPTIONAL ierror.
program f08_calls
    use mpi_f08
    implicit none
    integer :: rank, nprocs, peer, ierr, i, buf(4), rbuf(4), total, cnt, color, namelen
    type(MPI_Status) :: st, sts(2)
    type(MPI_Request) :: reqs(2), req
    type(MPI_Comm) :: half
    logical :: flag
    character(len=MPI_MAX_OBJECT_NAME) :: cname

    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
    if (nprocs /= 2) call MPI_Abort(MPI_COMM_WORLD, 2)
    peer = 1 - rank

    ! 3 blocking messages of 4 integers, rank 0 -> 1, tag 5
    do i = 1, 3
        if (rank == 0) then
            buf = (/ i, 2 * i, 3 * i, 4 * i /)
            call MPI_Send(buf, 4, MPI_INTEGER, 1, 5, MPI_COMM_WORLD)
        else
            rbuf = 0
            call MPI_Recv(rbuf, 4, MPI_INTEGER, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, st)
            call MPI_Get_count(st, MPI_INTEGER, cnt)
            print '(a,i0,a,4i4,a,2i3,a,i0)', 'rank ', rank, ' recv ', rbuf, ' status ', &
                st%MPI_SOURCE, st%MPI_TAG, ' count ', cnt
        end if
    end do

    ! non-blocking exchange (tag 6), both directions, Waitall with a status array
    buf = rank + 100
    rbuf = 0
    call MPI_Irecv(rbuf, 2, MPI_INTEGER, peer, 6, MPI_COMM_WORLD, reqs(1))
    call MPI_Isend(buf, 2, MPI_INTEGER, peer, 6, MPI_COMM_WORLD, reqs(2))
    call MPI_Waitall(2, reqs, sts)
    print '(a,i0,a,2i5,a,2i3)', 'rank ', rank, ' waitall ', rbuf(1:2), ' status ', &
        sts(1)%MPI_SOURCE, sts(1)%MPI_TAG

    ! probe (tag 7) before the receive: a LOGICAL flag and MPI_STATUS_IGNORE
    if (rank == 1) call MPI_Send(buf, 1, MPI_INTEGER, 0, 7, MPI_COMM_WORLD)
    if (rank == 0) then
        flag = .false.
        do while (.not. flag)
            call MPI_Iprobe(1, 7, MPI_COMM_WORLD, flag, st)
        end do
        call MPI_Recv(rbuf, 1, MPI_INTEGER, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
        print '(a,i0,a,l1,a,i0,a,i0)', 'rank ', rank, ' iprobe ', flag, ' tag ', st%MPI_TAG, &
            ' data ', rbuf(1)
    end if

    ! request test on a completed send (tag 8)
    if (rank == 0) then
        call MPI_Isend(buf, 1, MPI_INTEGER, 1, 8, MPI_COMM_WORLD, req)
        call MPI_Wait(req, MPI_STATUS_IGNORE)
        flag = req == MPI_REQUEST_NULL
        print '(a,i0,a,l1)', 'rank ', rank, ' wait nulls the request ', flag
    else
        call MPI_Irecv(rbuf, 1, MPI_INTEGER, 0, 8, MPI_COMM_WORLD, req)
        flag = .false.
        do while (.not. flag)
            call MPI_Test(req, flag, st)
        end do
        print '(a,i0,a,l1,a,i0)', 'rank ', rank, ' test ', flag, ' tag ', st%MPI_TAG
    end if

    ! collectives: MPI_IN_PLACE, Bcast, Barrier
    total = rank + 1
    call MPI_Allreduce(MPI_IN_PLACE, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    buf(1) = 42 * (1 - rank)
    call MPI_Bcast(buf, 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
    print '(a,i0,a,i0,a,i0)', 'rank ', rank, ' allreduce ', total, ' bcast ', buf(1)

    ! communicators: split, name (a string both ways), free
    color = rank
    call MPI_Comm_split(MPI_COMM_WORLD, color, 0, half)
    call MPI_Comm_set_name(half, 'half of the world')
    call MPI_Comm_get_name(half, cname, namelen)
    print '(a,i0,a,a,a,i0)', 'rank ', rank, ' comm name ', cname(1:namelen), ' length ', namelen
    call MPI_Comm_free(half)
    flag = half == MPI_COMM_NULL
    print '(a,i0,a,l1)', 'rank ', rank, ' comm_free nulls the handle ', flag

    ! an error code through the OPTIONAL ierror
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
    call MPI_Send(buf, 1, MPI_INTEGER, 7, 1, MPI_COMM_WORLD, ierr)
    print '(a,i0,a,l1)', 'rank ', rank, ' send to rank 7 fails ', ierr /= MPI_SUCCESS

    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    print '(a,i0,a,i0)', 'rank ', rank, ' barrier ierr ', ierr
    call MPI_Finalize()
end program f08_calls
