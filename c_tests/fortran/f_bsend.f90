! requires: mpi_buffer_attach_ mpi_buffer_detach_ mpi_bsend_ mpi_ibsend_ mpi_mprobe_ mpi_mrecv_
! f_bsend: buffered mode and matched probe from Fortran (`use mpi`). Every rank sends its
! right neighbour two messages from an attached buffer (MPI_Bsend, then MPI_Ibsend of a
! larger array, overwritten right after each call), then MPI_Buffer_detach: it must give back
! the attached size (railmpi leaves the address argument alone), and only after the sends
! are out, so the receivers, which start late, still find the data. The left neighbour's
! messages are received with MPI_Mprobe + MPI_Mrecv (the status gives the count).
program f_bsend
  use mpi
  implicit none
  integer, parameter :: m = 50000
  integer :: ierr, rank, nprocs, right, left, bsize, dsize, i, cnt, req, msg
  integer :: st(MPI_STATUS_SIZE), small(10), rsmall(10)
  integer, allocatable :: big(:), rbig(:)
  character, allocatable :: bbuf(:)
  character :: dummy(16)
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: ver
  integer :: vlen
  logical :: strict

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  right = mod(rank + 1, nprocs)
  left = mod(rank + nprocs - 1, nprocs)
  allocate(big(m), rbig(m))
  bsize = 4 * (10 + m) + 2 * MPI_BSEND_OVERHEAD
  allocate(bbuf(bsize))
  call MPI_Buffer_attach(bbuf, bsize, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Buffer_attach')

  small = (/ (rank * 100 + i, i = 1, 10) /)
  call MPI_Bsend(small, 10, MPI_INTEGER, right, 1, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Bsend')
  small = -1
  big = (/ (rank * 1000000 + i, i = 1, m) /)
  call MPI_Ibsend(big, m, MPI_INTEGER, right, 2, MPI_COMM_WORLD, req, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Ibsend')
  big = -1
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) call sleep(1)
  call MPI_Mprobe(left, MPI_ANY_TAG, MPI_COMM_WORLD, msg, st, ierr)
  call check(ierr == MPI_SUCCESS .and. st(MPI_TAG) == 1, 'MPI_Mprobe of the first message')
  call MPI_Get_count(st, MPI_INTEGER, cnt, ierr)
  call check(cnt == 10, 'count of the first message')
  call MPI_Mrecv(rsmall, cnt, MPI_INTEGER, msg, st, ierr)
  call check(ierr == MPI_SUCCESS .and. msg == MPI_MESSAGE_NULL, 'MPI_Mrecv')
  do i = 1, 10
    call check(rsmall(i) == left * 100 + i, 'Bsend data')
  end do
  call MPI_Mprobe(left, 2, MPI_COMM_WORLD, msg, st, ierr)
  call MPI_Get_count(st, MPI_INTEGER, cnt, ierr)
  call check(cnt == m .and. st(MPI_SOURCE) == left, 'MPI_Mprobe of the second message')
  call MPI_Mrecv(rbig, cnt, MPI_INTEGER, msg, MPI_STATUS_IGNORE, ierr)
  do i = 1, m
    call check(rbig(i) == left * 1000000 + i, 'Ibsend data')
  end do

  dummy = 'x'
  call MPI_Buffer_detach(dummy, dsize, ierr)
  call check(ierr == MPI_SUCCESS .and. dsize == bsize, 'MPI_Buffer_detach size')
  ! railmpi leaves the address argument alone (MPICH 4.0.2 stores the C pointer in it).
  call MPI_Get_library_version(ver, vlen, ierr)
  strict = index(ver, 'railmpi') > 0
  call check(.not. strict .or. all(dummy == 'x'), 'MPI_Buffer_detach wrote into its address argument')
  bbuf = 'z'

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) write(*, '(a)') 'ok f_bsend'
  call MPI_Finalize(ierr)

contains

  subroutine check(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (.not. cond) then
      write(0, *) 'f_bsend: rank', rank, ': check failed: ', what
      error stop 1
    end if
  end subroutine check
end program f_bsend
