! requires: mpi_gather_ mpi_gatherv_ mpi_scatter_ mpi_scatterv_ mpi_allgather_ mpi_allgatherv_
! requires: mpi_alltoall_ mpi_alltoallv_ mpi_reduce_scatter_block_ mpi_scan_ mpi_exscan_
! requires: mpi_ibcast_ mpi_iallreduce_ mpi_ibarrier_
! f_coll_more: `use mpi`. Gather(v), Scatter(v), Allgather(v) (also in place), Alltoall(v),
! Reduce_scatter_block, Scan, Exscan, and the nonblocking Ibcast / Iallreduce / Ibarrier
! completed with MPI_Waitall: every element checked against the serial result.
program f_coll_more
  use mpi
  implicit none
  integer, parameter :: k = 3
  integer :: ierr, rank, nprocs, root, i, p, j
  integer, allocatable :: sbuf(:), rbuf(:), counts(:), displs(:), rcounts(:), rdispls(:)
  integer :: reqs(3), x, y, bc(5)
  double precision :: d(4), dsum(4)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  allocate(sbuf(k * nprocs * nprocs), rbuf(k * nprocs * nprocs), counts(nprocs), &
           displs(nprocs), rcounts(nprocs), rdispls(nprocs))

  do root = 0, nprocs - 1
    ! Gather k elements from each rank.
    sbuf(1:k) = (/ (100 * rank + i, i = 1, k) /)
    rbuf = -1
    call MPI_Gather(sbuf, k, MPI_INTEGER, rbuf, k, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
    if (rank == root) then
      do p = 0, nprocs - 1
        do i = 1, k
          if (rbuf(p * k + i) /= 100 * p + i) call fail('MPI_Gather', p * k + i)
        end do
      end do
    end if
    ! Gatherv: rank p sends p + 1 elements, placed in reverse rank order.
    do p = 0, nprocs - 1
      counts(p + 1) = p + 1
    end do
    displs(nprocs) = 0
    do p = nprocs - 2, 0, -1
      displs(p + 1) = displs(p + 2) + counts(p + 2)
    end do
    sbuf(1:rank + 1) = (/ (1000 * rank + i, i = 1, rank + 1) /)
    rbuf = -1
    call MPI_Gatherv(sbuf, rank + 1, MPI_INTEGER, rbuf, counts, displs, MPI_INTEGER, root, &
                     MPI_COMM_WORLD, ierr)
    if (rank == root) then
      do p = 0, nprocs - 1
        do i = 1, p + 1
          if (rbuf(displs(p + 1) + i) /= 1000 * p + i) call fail('MPI_Gatherv', i)
        end do
      end do
    end if
    ! Scatter / Scatterv (the same layouts back).
    if (rank == root) rbuf = (/ (i, i = 1, size(rbuf)) /)
    sbuf = -1
    call MPI_Scatter(rbuf, k, MPI_INTEGER, sbuf, k, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
    do i = 1, k
      if (sbuf(i) /= rank * k + i) call fail('MPI_Scatter', i)
    end do
    sbuf = -1
    call MPI_Scatterv(rbuf, counts, displs, MPI_INTEGER, sbuf, rank + 1, MPI_INTEGER, root, &
                      MPI_COMM_WORLD, ierr)
    do i = 1, rank + 1
      if (sbuf(i) /= displs(rank + 1) + i) call fail('MPI_Scatterv', i)
    end do
    if (sbuf(rank + 2) /= -1) call fail('MPI_Scatterv wrote past its count', rank + 2)
  end do

  ! Allgather, and Allgatherv in place.
  sbuf(1:k) = (/ (10 * rank + i, i = 1, k) /)
  call MPI_Allgather(sbuf, k, MPI_INTEGER, rbuf, k, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  do p = 0, nprocs - 1
    do i = 1, k
      if (rbuf(p * k + i) /= 10 * p + i) call fail('MPI_Allgather', p * k + i)
    end do
  end do
  rbuf = -1
  rbuf(displs(rank + 1) + 1:displs(rank + 1) + rank + 1) = (/ (7 * rank + i, i = 1, rank + 1) /)
  call MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, rbuf, counts, displs, MPI_INTEGER, &
                      MPI_COMM_WORLD, ierr)
  do p = 0, nprocs - 1
    do i = 1, p + 1
      if (rbuf(displs(p + 1) + i) /= 7 * p + i) call fail('MPI_Allgatherv in place', i)
    end do
  end do

  ! Alltoall: element (p, i) from rank r is 10000 r + 100 p + i.
  do p = 0, nprocs - 1
    sbuf(p * k + 1:p * k + k) = (/ (10000 * rank + 100 * p + i, i = 1, k) /)
  end do
  call MPI_Alltoall(sbuf, k, MPI_INTEGER, rbuf, k, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  do p = 0, nprocs - 1
    do i = 1, k
      if (rbuf(p * k + i) /= 10000 * p + 100 * rank + i) call fail('MPI_Alltoall', p * k + i)
    end do
  end do
  ! Alltoallv: rank r sends p + 1 elements to rank p.
  j = 0
  do p = 0, nprocs - 1
    counts(p + 1) = p + 1
    displs(p + 1) = j
    sbuf(j + 1:j + p + 1) = (/ (10000 * rank + 100 * p + i, i = 1, p + 1) /)
    j = j + p + 1
    rcounts(p + 1) = rank + 1
    rdispls(p + 1) = p * (rank + 1)
  end do
  rbuf = -1
  call MPI_Alltoallv(sbuf, counts, displs, MPI_INTEGER, rbuf, rcounts, rdispls, MPI_INTEGER, &
                     MPI_COMM_WORLD, ierr)
  do p = 0, nprocs - 1
    do i = 1, rank + 1
      if (rbuf(rdispls(p + 1) + i) /= 10000 * p + 100 * rank + i) call fail('MPI_Alltoallv', i)
    end do
  end do

  ! Reduce_scatter_block: block p of the sum goes to rank p.
  sbuf(1:k * nprocs) = (/ (rank + i, i = 1, k * nprocs) /)
  call MPI_Reduce_scatter_block(sbuf, rbuf, k, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  do i = 1, k
    if (rbuf(i) /= nprocs * (rank * k + i) + nprocs * (nprocs - 1) / 2) &
      call fail('MPI_Reduce_scatter_block', i)
  end do

  ! Scan / Exscan.
  call MPI_Scan(rank + 1, x, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(x == (rank + 1) * (rank + 2) / 2, 'MPI_Scan')
  y = -99
  call MPI_Exscan(rank + 1, y, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank > 0) call check(y == rank * (rank + 1) / 2, 'MPI_Exscan')

  ! Nonblocking, completed together.
  if (rank == nprocs - 1) then
    bc = (/ 5, 4, 3, 2, 1 /)
  else
    bc = 0
  end if
  d = (/ (dble(rank) + 0.25d0 * i, i = 1, 4) /)
  call MPI_Ibcast(bc, 5, MPI_INTEGER, nprocs - 1, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Iallreduce(d, dsum, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Ibarrier(MPI_COMM_WORLD, reqs(3), ierr)
  call MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE, ierr)
  call check(all(bc == (/ 5, 4, 3, 2, 1 /)), 'MPI_Ibcast')
  do i = 1, 4
    if (dsum(i) /= dble(nprocs * (nprocs - 1) / 2) + nprocs * 0.25d0 * i) &
      call fail('MPI_Iallreduce', i)
  end do

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) write(*, '(a)') 'ok f_coll_more'
  call MPI_Finalize(ierr)

contains

  subroutine fail(what, i)
    character(len=*), intent(in) :: what
    integer, intent(in) :: i
    write(0, *) 'f_coll_more: rank', rank, 'root', root, ': ', what, ': wrong element', i
    error stop 1
  end subroutine fail

  subroutine check(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (.not. cond) then
      write(0, *) 'f_coll_more: rank', rank, ': check failed: ', what
      error stop 1
    end if
  end subroutine check
end program f_coll_more
