! f08_errors: `use mpi_f08`. With MPI_ERRORS_RETURN on a duplicate of MPI_COMM_WORLD, bad
! calls return their error class in ierror (MPI_ERR_RANK, MPI_ERR_COUNT, MPI_ERR_TAG,
! MPI_ERR_COMM for MPI_COMM_NULL) and, with ierror omitted, return without aborting;
! MPI_Error_class / MPI_Error_string; an errhandler from an f08 MPI_Comm_errhandler_function
! (MPI_Comm_create_errhandler) sees the failing communicator and the code, also through
! MPI_Comm_call_errhandler. Noncontiguous array sections as buffers: blocking calls take them
! (MPI_Sendrecv, MPI_Sendrecv_replace); a nonblocking one fails with MPI_ERR_BUFFER and sends
! nothing while MPI_SUBARRAYS_SUPPORTED is .false. (railmpi), and sends with .true. (MPICH).
program f08_errors
  use mpi_f08
  implicit none
  character(len=*), parameter :: prog = 'f08_errors'
  procedure(MPI_Comm_errhandler_function) :: record_error
  integer :: seen_code, seen_calls
  type(MPI_Comm) :: seen_comm
  common /f08err/ seen_code, seen_calls, seen_comm
  integer :: rank, nprocs, ierr, cls, slen, i, a(20), b(10), c(20)
  type(MPI_Comm) :: comm
  type(MPI_Errhandler) :: eh
  character(len=MPI_MAX_ERROR_STRING) :: msg
  type(MPI_Status) :: st
  type(MPI_Request) :: req

  seen_calls = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  call MPI_Comm_dup(MPI_COMM_WORLD, comm)
  call MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN)

  call MPI_Send(a, 1, MPI_INTEGER, nprocs + 3, 0, comm, ierr)
  call MPI_Error_class(ierr, cls)
  call check(cls == MPI_ERR_RANK, 'MPI_Send to a rank out of range: MPI_ERR_RANK')
  call MPI_Error_string(ierr, msg, slen)
  call check(slen > 0 .and. slen <= MPI_MAX_ERROR_STRING, 'MPI_Error_string length')
  call MPI_Send(a, -1, MPI_INTEGER, 0, 0, comm, ierr)
  call MPI_Error_class(ierr, cls)
  call check(cls == MPI_ERR_COUNT, 'negative count: MPI_ERR_COUNT')
  call MPI_Send(a, 1, MPI_INTEGER, 0, -5, comm, ierr)
  call MPI_Error_class(ierr, cls)
  call check(cls == MPI_ERR_TAG, 'negative tag: MPI_ERR_TAG')
  ! ierror omitted: the call returns (MPI_ERRORS_RETURN), the program goes on.
  call MPI_Send(a, 1, MPI_INTEGER, nprocs + 3, 0, comm)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Barrier(MPI_COMM_NULL, ierr)
  call MPI_Error_class(ierr, cls)
  call check(cls == MPI_ERR_COMM, 'MPI_COMM_NULL: MPI_ERR_COMM')

  ! An f08 error handler.
  call MPI_Comm_create_errhandler(record_error, eh)
  call MPI_Comm_set_errhandler(comm, eh)
  call MPI_Send(a, 1, MPI_INTEGER, nprocs + 3, 0, comm, ierr)
  call MPI_Error_class(ierr, cls)
  call check(cls == MPI_ERR_RANK .and. seen_calls == 1, 'f08 errhandler called')
  call check(seen_comm == comm .and. seen_code == ierr, 'f08 errhandler arguments')
  call MPI_Comm_call_errhandler(comm, MPI_ERR_OTHER)
  call check(seen_calls == 2 .and. seen_code == MPI_ERR_OTHER, 'MPI_Comm_call_errhandler')
  call MPI_Errhandler_free(eh)
  call check(eh == MPI_ERRHANDLER_NULL, 'MPI_Errhandler_free')
  call MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN)

  ! Noncontiguous sections in a blocking call (railmpi copies them in and out): a(1:20:2)
  ! sent to myself into c(2:20:2), the elements between untouched.
  a = (/ (rank * 100 + i, i = 1, 20) /)
  c = -1
  call MPI_Sendrecv(a(1:20:2), 10, MPI_INTEGER, rank, 8, c(2:20:2), 10, MPI_INTEGER, rank, 8, &
      comm, st, ierr)
  call check(ierr == MPI_SUCCESS .and. st%MPI_TAG == 8, 'sections in MPI_Sendrecv')
  call check(all(c(2:20:2) == a(1:20:2)) .and. all(c(1:19:2) == -1), 'sections: data')
  ! Round the ring: c(1:20:4) replaced by the left neighbour's.
  c = -1
  c(1:20:4) = (/ (rank * 10 + i, i = 1, 5) /)
  call MPI_Sendrecv_replace(c(1:20:4), 5, MPI_INTEGER, mod(rank + 1, nprocs), 7, &
      mod(rank - 1 + nprocs, nprocs), 7, comm, st)
  call check(all(c(1:20:4) == (/ (mod(rank - 1 + nprocs, nprocs) * 10 + i, i = 1, 5) /)), &
      'MPI_Sendrecv_replace of a section')
  c(1:20:4) = -1
  call check(all(c == -1), 'MPI_Sendrecv_replace: only the section written')

  ! A nonblocking call keeps its buffer: with MPI_SUBARRAYS_SUPPORTED .false. (railmpi) a
  ! noncontiguous section is MPI_ERR_BUFFER and nothing is sent; with .true. (MPICH) it goes.
  b = -1
  if (MPI_SUBARRAYS_SUPPORTED) then
    call MPI_Isend(a(1:20:2), 10, MPI_INTEGER, rank, 9, comm, req)
    call MPI_Recv(b, 10, MPI_INTEGER, rank, 9, comm, st)
    call MPI_Wait(req, MPI_STATUS_IGNORE)
    call check(all(b == a(1:20:2)), 'section sent by MPI_Isend')
  else
    call MPI_Isend(a(1:20:2), 10, MPI_INTEGER, rank, 9, comm, req, ierr)
    call MPI_Error_class(ierr, cls)
    call check(cls == MPI_ERR_BUFFER, 'noncontiguous MPI_Isend: MPI_ERR_BUFFER')
    call MPI_Irecv(b(1:10:3), 4, MPI_INTEGER, rank, 9, comm, req, ierr)
    call MPI_Error_class(ierr, cls)
    call check(cls == MPI_ERR_BUFFER, 'noncontiguous MPI_Irecv: MPI_ERR_BUFFER')
    ! Contiguous sections are fine; the failed MPI_Isend sent nothing this could receive.
    call MPI_Sendrecv(a(3:12), 10, MPI_INTEGER, rank, 9, b, 10, MPI_INTEGER, rank, 9, &
        comm, st, ierr)
    call check(ierr == MPI_SUCCESS .and. st%MPI_TAG == 9, 'contiguous section')
    call check(all(b == (/ (rank * 100 + i, i = 3, 12) /)), 'contiguous section data')
  end if

  call MPI_Comm_free(comm)
  call MPI_Barrier(MPI_COMM_WORLD)
  if (rank == 0) write(*, '(a)') 'ok f08_errors'
  call MPI_Finalize()

contains

  include 'f08_check.inc'
end program f08_errors

subroutine record_error(comm, error_code)
  use mpi_f08
  implicit none
  type(MPI_Comm) :: comm
  integer :: error_code
  integer :: seen_code, seen_calls
  type(MPI_Comm) :: seen_comm
  common /f08err/ seen_code, seen_calls, seen_comm
  seen_code = error_code
  seen_comm = comm
  seen_calls = seen_calls + 1
end subroutine record_error
