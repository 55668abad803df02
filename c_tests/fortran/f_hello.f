!     f_hello: mpif.h in FIXED form. MPI_Init/Initialized/Finalized
!     (LOGICAL flags), rank and size, output strings (processor name,
!     library version, communicator name: blank-padded), an input string
!     (MPI_Comm_set_name: trailing blanks dropped), the MPI_TAG_UB
!     attribute (INTEGER(KIND=MPI_ADDRESS_KIND)), MPI_Wtime/MPI_Wtick,
!     MPI_Aint_add/diff declared by the program (as MPICH's mpif.h does
!     not declare them, programs do: mpif.h must not clash).
      program f_hello
      implicit none
      include 'mpif.h'
      integer ierr, rank, nprocs, n, len, ver, subver, i, provided
      logical flag
      character*(MPI_MAX_PROCESSOR_NAME) pname
      character*(MPI_MAX_LIBRARY_VERSION_STRING) lib
      character*(MPI_MAX_OBJECT_NAME) cname
      character*4 short
      integer(kind=MPI_ADDRESS_KIND) tagub, base, moved
      integer(kind=MPI_ADDRESS_KIND), external :: MPI_Aint_add
      integer(kind=MPI_ADDRESS_KIND), external :: MPI_Aint_diff
      double precision t0, t1, tick, x

      flag = .true.
      call MPI_Initialized(flag, ierr)
      call check(ierr .eq. MPI_SUCCESS .and. .not. flag,
     &     'MPI_Initialized before MPI_Init')
      call MPI_Init(ierr)
      call check(ierr .eq. MPI_SUCCESS, 'MPI_Init')
      call MPI_Initialized(flag, ierr)
      call check(flag, 'MPI_Initialized after MPI_Init')
      call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
      call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
      call check(nprocs .ge. 1 .and. rank .ge. 0 .and. rank .lt. nprocs,
     &     'rank/size')
      call MPI_Allreduce(1, n, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD,
     &     ierr)
      call check(n .eq. nprocs, 'sum of ones is the size')

      call MPI_Get_version(ver, subver, ierr)
      call check(ver .ge. 3 .and. subver .ge. 0, 'MPI_Get_version')
      call MPI_Query_thread(provided, ierr)
      call check(provided .ge. MPI_THREAD_SINGLE .and.
     &     provided .le. MPI_THREAD_MULTIPLE, 'MPI_Query_thread')

      pname = '?'
      call MPI_Get_processor_name(pname, len, ierr)
      call check(ierr .eq. MPI_SUCCESS .and. len .gt. 0 .and.
     &     len .le. MPI_MAX_PROCESSOR_NAME, 'processor name length')
      call check(index(pname(1:len), char(0)) .eq. 0,
     &     'no NUL in the processor name')
      if (len .lt. MPI_MAX_PROCESSOR_NAME) then
         call check(pname(len+1:) .eq. ' ', 'processor name padding')
      end if

      call MPI_Comm_set_name(MPI_COMM_WORLD, 'f_world   ', ierr)
      call check(ierr .eq. MPI_SUCCESS, 'MPI_Comm_set_name')
      cname = 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'
      call MPI_Comm_get_name(MPI_COMM_WORLD, cname, len, ierr)
      call check(ierr .eq. MPI_SUCCESS .and. len .eq. 7,
     &     'MPI_Comm_get_name length')
      call check(cname .eq. 'f_world', 'MPI_Comm_get_name value')
      call check(cname(8:) .eq. ' ', 'MPI_Comm_get_name padding')
!     A CHARACTER shorter than the name: truncated, length still full.
      call MPI_Comm_get_name(MPI_COMM_WORLD, short, len, ierr)
      call check(short .eq. 'f_wo' .and. len .eq. 7, 'short buffer')

      flag = .false.
      tagub = 0
      call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, tagub, flag,
     &     ierr)
      call check(ierr .eq. MPI_SUCCESS .and. flag, 'MPI_TAG_UB set')
      call check(tagub .ge. 32767, 'MPI_TAG_UB >= 32767')

      call MPI_Get_address(tagub, base, ierr)
      moved = MPI_Aint_add(base, 5000000000_MPI_ADDRESS_KIND)
      call check(moved - base .eq. 5000000000_MPI_ADDRESS_KIND,
     &           'MPI_Aint_add')
      call check(MPI_Aint_diff(moved, base) .eq.
     &           5000000000_MPI_ADDRESS_KIND, 'MPI_Aint_diff')
      tick = MPI_Wtick()
      call check(tick .gt. 0d0 .and. tick .lt. 1d0, 'MPI_Wtick')
      t0 = MPI_Wtime()
      x = 0d0
      do i = 1, 2000000
         x = x + sqrt(dble(i))
      end do
      t1 = MPI_Wtime()
      call check(x .gt. 0d0 .and. t1 .ge. t0 .and. t1 - t0 .lt. 60d0,
     &     'MPI_Wtime')
      t0 = PMPI_Wtime()
      call check(t0 .ge. t1, 'PMPI_Wtime')

      call MPI_Barrier(MPI_COMM_WORLD, ierr)
      if (rank .eq. 0) then
         lib = ' '
         call MPI_Get_library_version(lib, len, ierr)
         call check(ierr .eq. MPI_SUCCESS .and. len .gt. 0,
     &        'MPI_Get_library_version')
         n = index(lib(1:len), char(10))
         if (n .gt. 0) len = n - 1
         write(*, '(a)') 'ok f_hello [' // lib(1:len) // ']'
      end if
      call MPI_Finalize(ierr)
      call check(ierr .eq. MPI_SUCCESS, 'MPI_Finalize')
      call MPI_Finalized(flag, ierr)
      call check(flag, 'MPI_Finalized')

      contains

      subroutine check(ok, what)
      logical ok
      character*(*) what
      if (.not. ok) then
         write(0, *) 'f_hello: rank ', rank, ': check failed: ', what
         error stop 1
      end if
      end subroutine check
      end program f_hello
