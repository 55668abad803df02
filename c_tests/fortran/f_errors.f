!     f_errors: mpif.h in FIXED form. With MPI_ERRORS_RETURN on
!     MPI_COMM_WORLD, erroneous calls return (in IERROR) an error of the
!     right class (MPI_Error_class), MPI_Error_string gives a non-empty,
!     blank-padded message, and correct calls keep working afterwards.
      program f_errors
      implicit none
      include 'mpif.h'
      integer ierr, rank, nprocs, eh, dup, buf(4), req, cls, n
      integer st(MPI_STATUS_SIZE)

      call MPI_Init(ierr)
      call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
      call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
      call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN,
     &     ierr)
      call check(ierr .eq. MPI_SUCCESS, 'MPI_Comm_set_errhandler')
      eh = MPI_ERRHANDLER_NULL
      call MPI_Comm_get_errhandler(MPI_COMM_WORLD, eh, ierr)
      call check(eh .eq. MPI_ERRORS_RETURN, 'MPI_Comm_get_errhandler')
      call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
      call MPI_Comm_get_errhandler(dup, eh, ierr)
      call check(eh .eq. MPI_ERRORS_RETURN, 'dup copies the handler')

      call MPI_Error_class(MPI_SUCCESS, cls, ierr)
      call check(cls .eq. MPI_SUCCESS, 'class of MPI_SUCCESS')

!     Invalid communicator, rank, tag, count, datatype, root.
      buf = 0
      call MPI_Send(buf, 1, MPI_INTEGER, 0, 0, MPI_COMM_NULL, ierr)
      call expect(ierr, MPI_ERR_COMM, 'MPI_Send on MPI_COMM_NULL')
      call MPI_Barrier(MPI_COMM_NULL, ierr)
      call expect(ierr, MPI_ERR_COMM, 'MPI_Barrier on MPI_COMM_NULL')
      call MPI_Send(buf, 1, MPI_INTEGER, nprocs, 0, MPI_COMM_WORLD,
     &     ierr)
      call expect(ierr, MPI_ERR_RANK, 'MPI_Send to rank nprocs')
      call MPI_Recv(buf, 1, MPI_INTEGER, nprocs + 3, 0, MPI_COMM_WORLD,
     &     st, ierr)
      call expect(ierr, MPI_ERR_RANK, 'MPI_Recv from rank nprocs+3')
      call MPI_Isend(buf, 1, MPI_INTEGER, -5, 0, MPI_COMM_WORLD, req,
     &     ierr)
      call expect(ierr, MPI_ERR_RANK, 'MPI_Isend to rank -5')
      call MPI_Send(buf, 1, MPI_INTEGER, rank, -7, MPI_COMM_WORLD,
     &     ierr)
      call expect(ierr, MPI_ERR_TAG, 'MPI_Send with tag -7')
      call MPI_Send(buf, -1, MPI_INTEGER, rank, 0, MPI_COMM_WORLD,
     &     ierr)
      call expect(ierr, MPI_ERR_COUNT, 'MPI_Send with count -1')
      call MPI_Send(buf, 1, MPI_DATATYPE_NULL, rank, 0, MPI_COMM_WORLD,
     &     ierr)
      call expect(ierr, MPI_ERR_TYPE, 'MPI_Send of MPI_DATATYPE_NULL')
      call MPI_Bcast(buf, 1, MPI_INTEGER, nprocs, MPI_COMM_WORLD, ierr)
      call expect(ierr, MPI_ERR_ROOT, 'MPI_Bcast with root nprocs')
      call MPI_Allreduce(buf, buf(3), 1, MPI_INTEGER, MPI_OP_NULL,
     &     MPI_COMM_WORLD, ierr)
      call expect(ierr, MPI_ERR_OP, 'MPI_Allreduce with MPI_OP_NULL')

!     Still working.
      call MPI_Allreduce(1, n, 1, MPI_INTEGER, MPI_SUM, dup, ierr)
      call check(ierr .eq. MPI_SUCCESS .and. n .eq. nprocs,
     &     'MPI_Allreduce after the errors')
      call MPI_Comm_free(dup, ierr)

      call MPI_Barrier(MPI_COMM_WORLD, ierr)
      if (rank .eq. 0) write(*, '(a)') 'ok f_errors'
      call MPI_Finalize(ierr)

      contains

      subroutine expect(rc, want, what)
      integer rc, want
      character*(*) what
      integer c, len, ie
      character*(MPI_MAX_ERROR_STRING) msg
      call check(rc .ne. MPI_SUCCESS, what // ': returned MPI_SUCCESS')
      call MPI_Error_class(rc, c, ie)
      msg = '?'
      len = -1
      call MPI_Error_string(rc, msg, len, ie)
      call check(ie .eq. MPI_SUCCESS .and. len .gt. 0 .and.
     &     len .le. MPI_MAX_ERROR_STRING, what // ': MPI_Error_string')
      call check(len_trim(msg) .le. len, what // ': message padding')
      if (c .ne. want) then
         write(0, *) 'f_errors: ', what, ': class ', c, ' expected ',
     &        want, ': ', msg(1:len)
         error stop 1
      end if
      end subroutine expect

      subroutine check(ok, what)
      logical ok
      character*(*) what
      if (.not. ok) then
         write(0, *) 'f_errors: rank ', rank, ': check failed: ', what
         error stop 1
      end if
      end subroutine check
      end program f_errors
