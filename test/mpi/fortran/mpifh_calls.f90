! SPDX-License-Identifier: BSD-3-Clause
! mpifh_calls.f90: MPI test program for the mpif.h bindings (2 processes): the other
! point-to-point modes, request completion, probes, matched probes, cancel, the blocking and
! non-blocking collectives, RMA, strings and sentinels. test_fortran.sh checks its events.
program mpifh_calls
    implicit none
    include 'mpif.h'
    integer :: rank, nprocs, peer, ierr, i, idx, outcount, count, flag_count
    integer :: ibuf(5), rbuf(5), ab(8), ar(8), cnts(2), displs(2), one, sum, rsc(2)
    integer :: reqs(17), req, req2, msg, win, dupcomm, resultlen
    integer :: indices(2), statuses(MPI_STATUS_SIZE, 17), status(MPI_STATUS_SIZE)
    integer :: winbuf(4), getbuf(4), attached(1000), bsize
    integer(kind=MPI_ADDRESS_KIND) :: winsize, disp
    logical :: flag
    character(len=MPI_MAX_OBJECT_NAME) :: name
    character(len=MPI_MAX_ERROR_STRING) :: errstr

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
    if (nprocs /= 2) call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
    peer = 1 - rank

    ! Sendrecv_replace: 5 integers each way, tag 1
    ibuf = rank
    call MPI_Sendrecv_replace(ibuf, 5, MPI_INTEGER, peer, 1, peer, 1, MPI_COMM_WORLD, &
                              status, ierr)
    call check(all(ibuf == peer) .and. status(MPI_SOURCE) == peer, 'MPI_Sendrecv_replace')

    ! Bsend: 4 integers each way, tag 2 (rank 0 first)
    call MPI_Buffer_attach(attached, 4000, ierr)
    ibuf = 20 + rank
    if (rank == 0) then
        call MPI_Bsend(ibuf, 4, MPI_INTEGER, peer, 2, MPI_COMM_WORLD, ierr)
        call MPI_Recv(rbuf, 4, MPI_INTEGER, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    else
        call MPI_Recv(rbuf, 4, MPI_INTEGER, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
        call MPI_Bsend(ibuf, 4, MPI_INTEGER, peer, 2, MPI_COMM_WORLD, ierr)
    end if
    call check(rbuf(1) == 20 + peer, 'MPI_Bsend')
    call MPI_Buffer_detach(attached, bsize, ierr)

    ! Rsend 0 -> 1 (tag 3) and Irsend 0 -> 1 (tag 6) into posted receives
    if (rank == 1) then
        call MPI_Irecv(rbuf, 1, MPI_INTEGER, peer, 3, MPI_COMM_WORLD, reqs(1), ierr)
        call MPI_Irecv(rbuf(2), 1, MPI_INTEGER, peer, 6, MPI_COMM_WORLD, reqs(2), ierr)
    end if
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    if (rank == 0) then
        call MPI_Rsend(3, 1, MPI_INTEGER, peer, 3, MPI_COMM_WORLD, ierr)
        call MPI_Irsend(6, 1, MPI_INTEGER, peer, 6, MPI_COMM_WORLD, req, ierr)
        call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    else
        call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
        call check(rbuf(1) == 3 .and. rbuf(2) == 6, 'MPI_Rsend/MPI_Irsend')
    end if

    ! Issend (tag 4) and Ibsend (tag 5) 0 -> 1, completed by Waitany; Probe and Iprobe on 1
    if (rank == 0) then
        call MPI_Buffer_attach(attached, 4000, ierr)
        call MPI_Issend(4, 1, MPI_INTEGER, peer, 4, MPI_COMM_WORLD, reqs(1), ierr)
        call MPI_Ibsend(5, 1, MPI_INTEGER, peer, 5, MPI_COMM_WORLD, reqs(2), ierr)
        do i = 1, 2
            call MPI_Waitany(2, reqs, idx, status, ierr)
            call check(idx == 1 .or. idx == 2, 'MPI_Waitany index')
            call check(reqs(idx) == MPI_REQUEST_NULL, 'MPI_Waitany request')
        end do
        call MPI_Buffer_detach(attached, bsize, ierr)
    else
        call MPI_Probe(peer, 4, MPI_COMM_WORLD, status, ierr)
        call MPI_Get_count(status, MPI_INTEGER, count, ierr)
        call check(count == 1 .and. status(MPI_TAG) == 4, 'MPI_Probe')
        call MPI_Recv(rbuf, 1, MPI_INTEGER, peer, 4, MPI_COMM_WORLD, status, ierr)
        flag = .false.
        do while (.not. flag)
            call MPI_Iprobe(peer, 5, MPI_COMM_WORLD, flag, status, ierr)
        end do
        call check(status(MPI_TAG) == 5, 'MPI_Iprobe')
        call MPI_Recv(rbuf(2), 1, MPI_INTEGER, peer, 5, MPI_COMM_WORLD, status, ierr)
        call check(rbuf(1) == 4 .and. rbuf(2) == 5, 'MPI_Issend/MPI_Ibsend')
    end if

    ! Mprobe + Mrecv (tag 7) and Improbe + Imrecv (tag 8), 1 -> 0
    if (rank == 1) then
        call MPI_Send(7, 1, MPI_INTEGER, peer, 7, MPI_COMM_WORLD, ierr)
        call MPI_Send(8, 1, MPI_INTEGER, peer, 8, MPI_COMM_WORLD, ierr)
    else
        call MPI_Mprobe(peer, 7, MPI_COMM_WORLD, msg, status, ierr)
        call MPI_Mrecv(rbuf, 1, MPI_INTEGER, msg, status, ierr)
        call check(msg == MPI_MESSAGE_NULL .and. rbuf(1) == 7, 'MPI_Mrecv')
        flag = .false.
        do while (.not. flag)
            call MPI_Improbe(peer, 8, MPI_COMM_WORLD, flag, msg, status, ierr)
        end do
        call MPI_Imrecv(rbuf(2), 1, MPI_INTEGER, msg, req, ierr)
        call MPI_Wait(req, status, ierr)
        call check(rbuf(2) == 8 .and. status(MPI_TAG) == 8, 'MPI_Imrecv')
    end if

    ! tags 9, 10: 0 -> 1, Testall on 0, Waitsome on 1; tag 11: 1 -> 0, Test on 0;
    ! tag 12: 1 -> 0, Testany on 0; tag 13: 0 -> 1, Testsome on 1
    if (rank == 0) then
        call MPI_Isend(9, 1, MPI_INTEGER, peer, 9, MPI_COMM_WORLD, reqs(1), ierr)
        call MPI_Isend(10, 1, MPI_INTEGER, peer, 10, MPI_COMM_WORLD, reqs(2), ierr)
        flag = .false.
        do while (.not. flag)
            call MPI_Testall(2, reqs, flag, statuses, ierr)
        end do
        call MPI_Irecv(rbuf, 1, MPI_INTEGER, peer, 11, MPI_COMM_WORLD, req, ierr)
        flag = .false.
        do while (.not. flag)
            call MPI_Test(req, flag, status, ierr)
        end do
        call check(rbuf(1) == 11 .and. status(MPI_TAG) == 11, 'MPI_Test')
        call MPI_Irecv(rbuf(2), 1, MPI_INTEGER, peer, 12, MPI_COMM_WORLD, reqs(1), ierr)
        flag = .false.
        do while (.not. flag)
            call MPI_Testany(1, reqs, idx, flag, status, ierr)
        end do
        call check(idx == 1 .and. rbuf(2) == 12, 'MPI_Testany')
        call MPI_Send(13, 1, MPI_INTEGER, peer, 13, MPI_COMM_WORLD, ierr)
    else
        call MPI_Irecv(rbuf, 1, MPI_INTEGER, peer, 9, MPI_COMM_WORLD, reqs(1), ierr)
        call MPI_Irecv(rbuf(2), 1, MPI_INTEGER, peer, 10, MPI_COMM_WORLD, reqs(2), ierr)
        count = 0
        do while (count < 2)
            call MPI_Waitsome(2, reqs, outcount, indices, statuses, ierr)
            do i = 1, outcount
                call check(indices(i) >= 1 .and. indices(i) <= 2, 'MPI_Waitsome index')
                call check(statuses(MPI_TAG, i) == 8 + indices(i), 'MPI_Waitsome status')
            end do
            count = count + outcount
        end do
        call check(rbuf(1) == 9 .and. rbuf(2) == 10, 'MPI_Waitsome data')
        call MPI_Send(11, 1, MPI_INTEGER, peer, 11, MPI_COMM_WORLD, ierr)
        call MPI_Send(12, 1, MPI_INTEGER, peer, 12, MPI_COMM_WORLD, ierr)
        call MPI_Irecv(rbuf(3), 1, MPI_INTEGER, peer, 13, MPI_COMM_WORLD, reqs(1), ierr)
        flag_count = 0
        do while (flag_count == 0)
            call MPI_Testsome(1, reqs, flag_count, indices, statuses, ierr)
        end do
        call check(indices(1) == 1 .and. rbuf(3) == 13, 'MPI_Testsome')
    end if

    ! Cancel of a receive that never matches; Request_free of a send (tag 14, 0 -> 1)
    if (rank == 0) then
        call MPI_Irecv(rbuf, 1, MPI_INTEGER, peer, 99, MPI_COMM_WORLD, req, ierr)
        call MPI_Cancel(req, ierr)
        call MPI_Wait(req, status, ierr)
        call MPI_Test_cancelled(status, flag, ierr)
        call check(flag, 'MPI_Cancel')
        call MPI_Isend(14, 1, MPI_INTEGER, peer, 14, MPI_COMM_WORLD, req2, ierr)
        call MPI_Request_free(req2, ierr)
        call check(req2 == MPI_REQUEST_NULL, 'MPI_Request_free')
    else
        call MPI_Recv(rbuf, 1, MPI_INTEGER, peer, 14, MPI_COMM_WORLD, status, ierr)
    end if

    ! 12 blocking collectives
    one = rank + 1
    call MPI_Reduce(one, sum, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
    if (rank == 0) call check(sum == 3, 'MPI_Reduce')
    call MPI_Gather(one, 1, MPI_INTEGER, ab, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    cnts = 1
    displs = (/ 0, 1 /)
    call MPI_Gatherv(one, 1, MPI_INTEGER, ab, cnts, displs, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    if (rank == 0) call check(ab(1) == 1 .and. ab(2) == 2, 'MPI_Gatherv')
    ab = (/ 1, 2, 3, 4, 5, 6, 7, 8 /)
    call MPI_Scatter(ab, 1, MPI_INTEGER, ar, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    call MPI_Scatterv(ab, cnts, displs, MPI_INTEGER, ar, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    call check(ar(1) == rank + 1, 'MPI_Scatterv')
    call MPI_Allgather(one, 1, MPI_INTEGER, ar, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    call MPI_Allgatherv(one, 1, MPI_INTEGER, ar, cnts, displs, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    call check(ar(1) == 1 .and. ar(2) == 2, 'MPI_Allgatherv')
    call MPI_Alltoall(ab, 1, MPI_INTEGER, ar, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    call MPI_Alltoallv(ab, cnts, displs, MPI_INTEGER, ar, cnts, displs, MPI_INTEGER, &
                       MPI_COMM_WORLD, ierr)
    rsc = one
    call MPI_Reduce_scatter(rsc, sum, cnts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    call check(sum == 3, 'MPI_Reduce_scatter')
    call MPI_Scan(one, sum, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    call check(sum == (rank + 1) * (rank + 2) / 2, 'MPI_Scan')
    call MPI_Exscan(one, sum, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (rank == 1) call check(sum == 1, 'MPI_Exscan')

    ! 17 non-blocking collectives, completed by one Waitall (more than 16 requests)
    ibuf = 0
    rbuf = 0
    call MPI_Ibarrier(MPI_COMM_WORLD, reqs(1), ierr)
    call MPI_Ibcast(ibuf, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, reqs(2), ierr)
    call MPI_Ireduce(one, ibuf(2), 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, reqs(3), ierr)
    call MPI_Iallreduce(one, ibuf(3), 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, reqs(4), ierr)
    call MPI_Igather(one, 1, MPI_INTEGER, ab, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, reqs(5), ierr)
    call MPI_Igatherv(one, 1, MPI_INTEGER, ar, cnts, displs, MPI_INTEGER, 0, MPI_COMM_WORLD, &
                      reqs(6), ierr)
    call MPI_Iscatter(ab, 1, MPI_INTEGER, rbuf, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, reqs(7), ierr)
    call MPI_Iscatterv(ab, cnts, displs, MPI_INTEGER, rbuf(2), 1, MPI_INTEGER, 0, &
                       MPI_COMM_WORLD, reqs(8), ierr)
    call MPI_Iallgather(one, 1, MPI_INTEGER, winbuf, 1, MPI_INTEGER, MPI_COMM_WORLD, reqs(9), ierr)
    call MPI_Iallgatherv(one, 1, MPI_INTEGER, getbuf, cnts, displs, MPI_INTEGER, &
                         MPI_COMM_WORLD, reqs(10), ierr)
    call MPI_Ialltoall(ab, 1, MPI_INTEGER, attached, 1, MPI_INTEGER, MPI_COMM_WORLD, &
                       reqs(11), ierr)
    call MPI_Ialltoallv(ab, cnts, displs, MPI_INTEGER, attached(3), cnts, displs, MPI_INTEGER, &
                        MPI_COMM_WORLD, reqs(12), ierr)
    call MPI_Ireduce_scatter(rsc, attached(5), cnts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, &
                             reqs(13), ierr)
    call MPI_Ireduce_scatter_block(rsc, attached(6), 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, &
                                   reqs(14), ierr)
    call MPI_Iscan(one, attached(7), 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, reqs(15), ierr)
    call MPI_Iexscan(one, attached(8), 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, reqs(16), ierr)
    attached(9) = one
    call MPI_Iallreduce(MPI_IN_PLACE, attached(9), 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, &
                        reqs(17), ierr)
    call MPI_Waitall(17, reqs, statuses, ierr)
    call check(ierr == MPI_SUCCESS .and. all(reqs == MPI_REQUEST_NULL), 'MPI_Waitall of 17')
    call check(ibuf(3) == 3 .and. attached(9) == 3, 'MPI_Iallreduce')
    call check(rbuf(2) == rank + 1 .and. getbuf(2) == 2, 'MPI_Iscatterv/MPI_Iallgatherv')

    ! RMA: fence epochs with put, get, accumulate; a lock epoch with put
    winbuf = 0
    winsize = 16
    call MPI_Win_create(winbuf, winsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
    call MPI_Win_fence(0, win, ierr)
    disp = 0
    call MPI_Put(one, 1, MPI_INTEGER, peer, disp, 1, MPI_INTEGER, win, ierr)
    call MPI_Win_fence(0, win, ierr)
    call check(winbuf(1) == peer + 1, 'MPI_Put')
    call MPI_Get(getbuf, 1, MPI_INTEGER, peer, disp, 1, MPI_INTEGER, win, ierr)
    call MPI_Win_fence(0, win, ierr)
    call check(getbuf(1) == rank + 1, 'MPI_Get')
    disp = 1
    call MPI_Accumulate(one, 1, MPI_INTEGER, peer, disp, 1, MPI_INTEGER, MPI_SUM, win, ierr)
    call MPI_Win_fence(0, win, ierr)
    call check(winbuf(2) == peer + 1, 'MPI_Accumulate')
    disp = 2
    call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, peer, 0, win, ierr)
    call MPI_Put(one, 1, MPI_INTEGER, peer, disp, 1, MPI_INTEGER, win, ierr)
    call MPI_Win_unlock(peer, win, ierr)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    call MPI_Win_free(win, ierr)
    call check(win == MPI_WIN_NULL .and. winbuf(3) == peer + 1, 'MPI_Win_free')

    ! strings (hidden lengths) and LOGICAL results
    call MPI_Comm_dup(MPI_COMM_WORLD, dupcomm, ierr)
    call MPI_Comm_set_name(dupcomm, '  fortran dup  ', ierr)
    name = 'x'
    call MPI_Comm_get_name(dupcomm, name, resultlen, ierr)
    call check(name == 'fortran dup' .and. resultlen == 11, 'MPI_Comm_get_name')
    call MPI_Comm_free(dupcomm, ierr)
    call MPI_Error_string(MPI_ERR_TAG, errstr, resultlen, ierr)
    call check(resultlen > 0 .and. len_trim(errstr) == resultlen, 'MPI_Error_string')
    call MPI_Finalized(flag, ierr)
    call check(.not. flag, 'MPI_Finalized')

    print '(a,i0)', 'mpifh_calls ok rank ', rank
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
end program mpifh_calls
