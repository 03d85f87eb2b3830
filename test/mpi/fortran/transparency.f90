! SPDX-License-Identifier: BSD-3-Clause
! transparency.f90: the Fortran side of test/mpi/transparency.c (2 processes, mpif.h): error
! codes, flags, 1-based indices, MPI_UNDEFINED, outcounts, request and communicator handles
! and status fields (sentinels where MPI leaves them alone) as the program observes them;
! test_fortran.sh asserts the output is the same uninstrumented, linked and under scorep-run.
! MPI_ERROR is not printed: Open MPI 4.1's own MPI_WAIT, MPI_TEST, MPI_WAITANY, ... copy it
! from an uninitialised C status (the wrappers leave the program's value, as MPI specifies).
program transparency
    implicit none
    include 'mpif.h'
    integer :: rank, nprocs, peer, ierr, idx, outcount, got, dupcomm, sb(2), rb(3)
    integer :: req, was, reqs(3), indices(3), st(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 3)
    logical :: flag

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
    if (nprocs /= 2) call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
    peer = 1 - rank
    call MPI_Comm_dup(MPI_COMM_WORLD, dupcomm, ierr)
    print '(a,i0,a,i0)', 'rank ', rank, ' comm_dup handle ', dupcomm

    ! errors: invalid rank and tag, truncation (tag 2: 2 integers into 1)
    call MPI_Send(sb, 1, MPI_INTEGER, 7, 1, MPI_COMM_WORLD, ierr)
    print '(a,i0,a,i0)', 'rank ', rank, ' send to rank 7 ierr ', ierr
    call MPI_Send(sb, 1, MPI_INTEGER, peer, -5, MPI_COMM_WORLD, ierr)
    print '(a,i0,a,i0)', 'rank ', rank, ' send with tag -5 ierr ', ierr
    sb = (/ 10, 20 /)
    rb = 0
    call sentinel(st)
    if (rank == 0) then
        call MPI_Send(sb, 2, MPI_INTEGER, peer, 2, MPI_COMM_WORLD, ierr)
    else
        call MPI_Recv(rb, 1, MPI_INTEGER, peer, 2, MPI_COMM_WORLD, st, ierr)
    end if
    print '(a,i0,a,i0,a,2i6,a,i0)', 'rank ', rank, ' truncated ierr ', ierr, ' status ', &
        st(MPI_SOURCE), st(MPI_TAG), ' data ', rb(1)

    ! truncation (2 integers into 1) through each receive and completion call, tags 30..37
    call truncations()

    ! null requests
    reqs = MPI_REQUEST_NULL
    call sentinel(st)
    call MPI_Waitany(3, reqs, idx, st, ierr)
    print '(a,i0,a,i0,a,2i6)', 'rank ', rank, ' waitany null index ', idx, ' status ', &
        st(MPI_SOURCE), st(MPI_TAG)
    call MPI_Testany(3, reqs, idx, flag, MPI_STATUS_IGNORE, ierr)
    print '(a,i0,a,i0,a,l1)', 'rank ', rank, ' testany null index ', idx, ' flag ', flag
    call MPI_Waitsome(3, reqs, outcount, indices, MPI_STATUSES_IGNORE, ierr)
    print '(a,i0,a,i0)', 'rank ', rank, ' waitsome null outcount ', outcount
    call MPI_Testsome(3, reqs, outcount, indices, sts, ierr)
    print '(a,i0,a,i0)', 'rank ', rank, ' testsome null outcount ', outcount
    req = MPI_REQUEST_NULL
    call sentinel(st)
    call MPI_Test(req, flag, st, ierr)
    print '(a,i0,a,l1,a,2i6)', 'rank ', rank, ' test null flag ', flag, ' status ', &
        st(MPI_SOURCE), st(MPI_TAG)

    ! a pending receive (tag 3, sent after the barrier): flag false, status left alone
    if (rank == 1) then
        call MPI_Irecv(rb, 1, MPI_INTEGER, peer, 3, MPI_COMM_WORLD, req, ierr)
        was = req
        call sentinel(st)
        call MPI_Test(req, flag, st, ierr)
        print '(a,i0,a,l1,a,l1,a,2i6)', 'rank ', rank, ' test pending flag ', flag, &
            ' same request ', req == was, ' status ', st(MPI_SOURCE), st(MPI_TAG)
        call sentinel(st)
        call MPI_Iprobe(peer, 4, MPI_COMM_WORLD, flag, st, ierr)
        print '(a,i0,a,l1,a,2i6)', 'rank ', rank, ' iprobe nothing flag ', flag, ' status ', &
            st(MPI_SOURCE), st(MPI_TAG)
        call MPI_Barrier(MPI_COMM_WORLD, ierr)
        call MPI_Wait(req, st, ierr)
        print '(a,i0,a,l1,a,i0,a,2i6)', 'rank ', rank, ' wait null after ', &
            req == MPI_REQUEST_NULL, ' data ', rb(1), ' status ', st(MPI_SOURCE), st(MPI_TAG)
    else
        call MPI_Barrier(MPI_COMM_WORLD, ierr)
        sb(1) = 33
        call MPI_Send(sb, 1, MPI_INTEGER, peer, 3, MPI_COMM_WORLD, ierr)
    end if

    ! an inactive persistent request, then 3 receives completed by Waitsome (tag 5)
    call MPI_Recv_init(rb, 1, MPI_INTEGER, peer, 6, MPI_COMM_WORLD, req, ierr)
    was = req
    call MPI_Test(req, flag, st, ierr)
    print '(a,i0,a,l1,a,l1)', 'rank ', rank, ' test inactive flag ', flag, ' same request ', &
        req == was
    call MPI_Request_free(req, ierr)
    if (rank == 0) then
        do idx = 1, 3
            sb(1) = 40 + idx
            call MPI_Send(sb, 1, MPI_INTEGER, peer, 5, MPI_COMM_WORLD, ierr)
        end do
    else
        do idx = 1, 3
            call MPI_Irecv(rb(idx), 1, MPI_INTEGER, peer, 5, MPI_COMM_WORLD, reqs(idx), ierr)
        end do
        got = 0
        do while (got < 3)
            call MPI_Waitsome(3, reqs, outcount, indices, sts, ierr)
            do idx = 1, outcount
                print '(a,i0,a,i0,a,2i6)', 'rank ', rank, ' waitsome index ', indices(idx), &
                    ' status ', sts(MPI_SOURCE, idx), sts(MPI_TAG, idx)
            end do
            got = got + outcount
        end do
        print '(a,i0,a,l1,a,3i3)', 'rank ', rank, ' waitsome all null ', &
            all(reqs == MPI_REQUEST_NULL), ' data ', rb
    end if
    call MPI_Comm_free(dupcomm, ierr)
    print '(a,i0,a,l1)', 'rank ', rank, ' comm freed ', dupcomm == MPI_COMM_NULL
    call MPI_Finalize(ierr)

contains

    ! rank 0 sends 2 integers with tags 30..37; rank 1 receives 1 with Recv, Sendrecv,
    ! Irecv + Wait, Waitany, Waitall, Test (until complete), Testany, Waitsome
    subroutine truncations()
        integer :: t, r1(2), rq(1), ix(1), oc
        integer :: s1(MPI_STATUS_SIZE), ss(MPI_STATUS_SIZE, 1)
        logical :: fl
        if (rank == 0) then
            do t = 30, 37
                call MPI_Send(sb, 2, MPI_INTEGER, peer, t, MPI_COMM_WORLD, ierr)
            end do
            return
        end if
        r1 = 0
        ix = -5
        oc = -5
        call sentinel(s1)
        call MPI_Recv(r1, 1, MPI_INTEGER, peer, 30, MPI_COMM_WORLD, s1, ierr)
        call show('recv', s1)
        call sentinel(s1)
        call MPI_Sendrecv(sb, 0, MPI_INTEGER, MPI_PROC_NULL, 0, r1, 1, MPI_INTEGER, peer, 31, &
                          MPI_COMM_WORLD, s1, ierr)
        call show('sendrecv', s1)
        call MPI_Irecv(r1, 1, MPI_INTEGER, peer, 32, MPI_COMM_WORLD, rq(1), ierr)
        call sentinel(s1)
        call MPI_Wait(rq(1), s1, ierr)
        call show('wait', s1)
        print '(a,i0,a,l1)', 'rank ', rank, ' wait truncated request null ', &
            rq(1) == MPI_REQUEST_NULL
        call MPI_Irecv(r1, 1, MPI_INTEGER, peer, 33, MPI_COMM_WORLD, rq(1), ierr)
        call sentinel(s1)
        call MPI_Waitany(1, rq, ix(1), s1, ierr)
        call show('waitany', s1)
        print '(a,i0,a,i0)', 'rank ', rank, ' waitany truncated index ', ix(1)
        call MPI_Irecv(r1, 1, MPI_INTEGER, peer, 34, MPI_COMM_WORLD, rq(1), ierr)
        call sentinel(ss(:, 1))
        call MPI_Waitall(1, rq, ss, ierr)
        call show('waitall', ss(:, 1))
        print '(a,i0,a,l1)', 'rank ', rank, ' waitall truncated request null ', &
            rq(1) == MPI_REQUEST_NULL
        call MPI_Irecv(r1, 1, MPI_INTEGER, peer, 35, MPI_COMM_WORLD, rq(1), ierr)
        fl = .false.
        do while (.not. fl)
            call sentinel(s1)
            call MPI_Test(rq(1), fl, s1, ierr)
        end do
        call show('test', s1)
        call MPI_Irecv(r1, 1, MPI_INTEGER, peer, 36, MPI_COMM_WORLD, rq(1), ierr)
        fl = .false.
        do while (.not. fl)
            call sentinel(s1)
            call MPI_Testany(1, rq, ix(1), fl, s1, ierr)
        end do
        call show('testany', s1)
        call MPI_Irecv(r1, 1, MPI_INTEGER, peer, 37, MPI_COMM_WORLD, rq(1), ierr)
        call sentinel(ss(:, 1))
        call MPI_Waitsome(1, rq, oc, ix, ss, ierr)
        call show('waitsome', ss(:, 1))
        print '(a,i0,a,i0,a,i0,a,l1)', 'rank ', rank, ' waitsome truncated outcount ', oc, &
            ' index ', ix(1), ' request null ', rq(1) == MPI_REQUEST_NULL
    end subroutine truncations

    subroutine show(what, s)
        character(len=*), intent(in) :: what
        integer, intent(in) :: s(MPI_STATUS_SIZE)
        print '(a,i0,a,a,a,i0,a,2i6)', 'rank ', rank, ' truncated ', what, ' ierr ', ierr, &
            ' status ', s(MPI_SOURCE), s(MPI_TAG)
    end subroutine show

    subroutine sentinel(s)
        integer, intent(out) :: s(MPI_STATUS_SIZE)
        s = -66
        s(MPI_SOURCE) = -77
        s(MPI_TAG) = -88
    end subroutine sentinel

end program transparency
