! mpi_f08.f90: railmpi's `mpi_f08` module (MPI-3.1 section 17.1).
!
! GENERATED FILE, do not edit: tools/gen_f08.py writes it from the MPI Forum's API and
! include/mpi.h (the design is in its docstring). An interface-only module, compiled with -fsyntax-only: procedures
! without choice buffers are the `use mpi` entry points of libmpi (mpi_x_), those with
! choice buffers BIND(C) entry points MPI_X_f08ts taking ISO_Fortran_binding descriptors.
! MPI_SUBARRAYS_SUPPORTED = .false.: a noncontiguous section is copied in and out around a
! call that is done with its buffer on return, and is MPI_ERR_BUFFER in one that keeps it.
module mpi_f08
  use, intrinsic :: iso_c_binding, only: c_int, c_ptr
  implicit none

  integer, parameter :: MPI_ADDRESS_KIND = 8, MPI_OFFSET_KIND = 8, MPI_COUNT_KIND = 8
  integer, parameter :: MPI_INTEGER_KIND = 4
  integer, parameter :: MPI_STATUS_SIZE = 5
  integer, parameter :: MPI_SOURCE = 3, MPI_TAG = 4, MPI_ERROR = 5
  logical, parameter :: MPI_SUBARRAYS_SUPPORTED = .false.
  ! gfortran gives ASYNCHRONOUS no meaning that would protect a pending buffer.
  logical, parameter :: MPI_ASYNC_PROTECTS_NONBLOCKING = .false.

  ! Handles: the INTEGER handle of mpif.h and `use mpi` (MPICH's values) in a type of its own.
  type, bind(C) :: MPI_Comm
    integer(c_int) :: MPI_VAL
  end type MPI_Comm
  type, bind(C) :: MPI_Datatype
    integer(c_int) :: MPI_VAL
  end type MPI_Datatype
  type, bind(C) :: MPI_Group
    integer(c_int) :: MPI_VAL
  end type MPI_Group
  type, bind(C) :: MPI_Request
    integer(c_int) :: MPI_VAL
  end type MPI_Request
  type, bind(C) :: MPI_Op
    integer(c_int) :: MPI_VAL
  end type MPI_Op
  type, bind(C) :: MPI_Win
    integer(c_int) :: MPI_VAL
  end type MPI_Win
  type, bind(C) :: MPI_File
    integer(c_int) :: MPI_VAL
  end type MPI_File
  type, bind(C) :: MPI_Info
    integer(c_int) :: MPI_VAL
  end type MPI_Info
  type, bind(C) :: MPI_Errhandler
    integer(c_int) :: MPI_VAL
  end type MPI_Errhandler
  type, bind(C) :: MPI_Message
    integer(c_int) :: MPI_VAL
  end type MPI_Message
  type, bind(C) :: MPI_Session
    integer(c_int) :: MPI_VAL
  end type MPI_Session

  interface operator(==)
    logical function railmpi_f08_comm_eq(x, y)
      import
      implicit none
      type(MPI_Comm), intent(in) :: x, y
    end function railmpi_f08_comm_eq
    logical function railmpi_f08_datatype_eq(x, y)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: x, y
    end function railmpi_f08_datatype_eq
    logical function railmpi_f08_group_eq(x, y)
      import
      implicit none
      type(MPI_Group), intent(in) :: x, y
    end function railmpi_f08_group_eq
    logical function railmpi_f08_request_eq(x, y)
      import
      implicit none
      type(MPI_Request), intent(in) :: x, y
    end function railmpi_f08_request_eq
    logical function railmpi_f08_op_eq(x, y)
      import
      implicit none
      type(MPI_Op), intent(in) :: x, y
    end function railmpi_f08_op_eq
    logical function railmpi_f08_win_eq(x, y)
      import
      implicit none
      type(MPI_Win), intent(in) :: x, y
    end function railmpi_f08_win_eq
    logical function railmpi_f08_file_eq(x, y)
      import
      implicit none
      type(MPI_File), intent(in) :: x, y
    end function railmpi_f08_file_eq
    logical function railmpi_f08_info_eq(x, y)
      import
      implicit none
      type(MPI_Info), intent(in) :: x, y
    end function railmpi_f08_info_eq
    logical function railmpi_f08_errhandler_eq(x, y)
      import
      implicit none
      type(MPI_Errhandler), intent(in) :: x, y
    end function railmpi_f08_errhandler_eq
    logical function railmpi_f08_message_eq(x, y)
      import
      implicit none
      type(MPI_Message), intent(in) :: x, y
    end function railmpi_f08_message_eq
    logical function railmpi_f08_session_eq(x, y)
      import
      implicit none
      type(MPI_Session), intent(in) :: x, y
    end function railmpi_f08_session_eq
  end interface
  interface operator(/=)
    logical function railmpi_f08_comm_ne(x, y)
      import
      implicit none
      type(MPI_Comm), intent(in) :: x, y
    end function railmpi_f08_comm_ne
    logical function railmpi_f08_datatype_ne(x, y)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: x, y
    end function railmpi_f08_datatype_ne
    logical function railmpi_f08_group_ne(x, y)
      import
      implicit none
      type(MPI_Group), intent(in) :: x, y
    end function railmpi_f08_group_ne
    logical function railmpi_f08_request_ne(x, y)
      import
      implicit none
      type(MPI_Request), intent(in) :: x, y
    end function railmpi_f08_request_ne
    logical function railmpi_f08_op_ne(x, y)
      import
      implicit none
      type(MPI_Op), intent(in) :: x, y
    end function railmpi_f08_op_ne
    logical function railmpi_f08_win_ne(x, y)
      import
      implicit none
      type(MPI_Win), intent(in) :: x, y
    end function railmpi_f08_win_ne
    logical function railmpi_f08_file_ne(x, y)
      import
      implicit none
      type(MPI_File), intent(in) :: x, y
    end function railmpi_f08_file_ne
    logical function railmpi_f08_info_ne(x, y)
      import
      implicit none
      type(MPI_Info), intent(in) :: x, y
    end function railmpi_f08_info_ne
    logical function railmpi_f08_errhandler_ne(x, y)
      import
      implicit none
      type(MPI_Errhandler), intent(in) :: x, y
    end function railmpi_f08_errhandler_ne
    logical function railmpi_f08_message_ne(x, y)
      import
      implicit none
      type(MPI_Message), intent(in) :: x, y
    end function railmpi_f08_message_ne
    logical function railmpi_f08_session_ne(x, y)
      import
      implicit none
      type(MPI_Session), intent(in) :: x, y
    end function railmpi_f08_session_ne
  end interface

  ! Laid out as INTEGER(MPI_STATUS_SIZE) and C's MPI_Status (MPICH's): the count words
  ! first, then MPI_SOURCE, MPI_TAG, MPI_ERROR.
  type, bind(C) :: MPI_Status
    integer(c_int), private :: count_lo, count_hi_and_cancelled
    integer(c_int) :: MPI_SOURCE, MPI_TAG, MPI_ERROR
  end type MPI_Status

  ! Constants (as in mpif.h).
  type(MPI_File), parameter :: MPI_FILE_NULL = MPI_File(0)
  integer, parameter :: MPI_T_ENUM_NULL = 0
  integer, parameter :: MPI_T_CVAR_HANDLE_NULL = 0
  integer, parameter :: MPI_T_PVAR_HANDLE_NULL = 0
  integer, parameter :: MPI_T_PVAR_SESSION_NULL = 0
  integer, parameter :: MPI_VERSION = 4
  integer, parameter :: MPI_SUBVERSION = 1
  integer, parameter :: MPI_TYPECLASS_REAL = 1
  integer, parameter :: MPI_TYPECLASS_INTEGER = 2
  integer, parameter :: MPI_TYPECLASS_COMPLEX = 3
  integer, parameter :: MPI_IDENT = 0
  integer, parameter :: MPI_CONGRUENT = 1
  integer, parameter :: MPI_SIMILAR = 2
  integer, parameter :: MPI_UNEQUAL = 3
  integer, parameter :: MPI_TAG_UB = 1681915906
  integer, parameter :: MPI_HOST = 1681915908
  integer, parameter :: MPI_IO = 1681915910
  integer, parameter :: MPI_WTIME_IS_GLOBAL = 1681915912
  integer, parameter :: MPI_UNIVERSE_SIZE = 1681915914
  integer, parameter :: MPI_LASTUSEDCODE = 1681915916
  integer, parameter :: MPI_APPNUM = 1681915918
  integer, parameter :: MPI_WIN_BASE = 1711276034
  integer, parameter :: MPI_WIN_SIZE = 1711276036
  integer, parameter :: MPI_WIN_DISP_UNIT = 1711276038
  integer, parameter :: MPI_WIN_CREATE_FLAVOR = 1711276040
  integer, parameter :: MPI_WIN_MODEL = 1711276042
  integer, parameter :: MPI_KEYVAL_INVALID = 603979776
  integer, parameter :: MPI_MAX_PROCESSOR_NAME = 127
  integer, parameter :: MPI_MAX_LIBRARY_VERSION_STRING = 8191
  integer, parameter :: MPI_MAX_ERROR_STRING = 511
  integer, parameter :: MPI_MAX_PORT_NAME = 255
  integer, parameter :: MPI_MAX_OBJECT_NAME = 127
  integer, parameter :: MPI_MAX_STRINGTAG_LEN = 255
  integer, parameter :: MPI_MAX_PSET_NAME_LEN = 255
  integer, parameter :: MPI_MAX_INFO_KEY = 254
  integer, parameter :: MPI_MAX_INFO_VAL = 1023
  integer, parameter :: MPI_MAX_DATAREP_STRING = 127
  integer, parameter :: MPI_BSEND_OVERHEAD = 96
  integer, parameter :: MPI_UNDEFINED = -32766
  integer, parameter :: MPI_PROC_NULL = -1
  integer, parameter :: MPI_ANY_SOURCE = -2
  integer, parameter :: MPI_ROOT = -3
  integer, parameter :: MPI_ANY_TAG = -1
  integer, parameter :: MPI_LOCK_EXCLUSIVE = 234
  integer, parameter :: MPI_LOCK_SHARED = 235
  integer, parameter :: MPI_WIN_FLAVOR_CREATE = 1
  integer, parameter :: MPI_WIN_FLAVOR_ALLOCATE = 2
  integer, parameter :: MPI_WIN_FLAVOR_DYNAMIC = 3
  integer, parameter :: MPI_WIN_FLAVOR_SHARED = 4
  integer, parameter :: MPI_WIN_SEPARATE = 1
  integer, parameter :: MPI_WIN_UNIFIED = 2
  integer, parameter :: MPI_MODE_NOCHECK = 1024
  integer, parameter :: MPI_MODE_NOSTORE = 2048
  integer, parameter :: MPI_MODE_NOPUT = 4096
  integer, parameter :: MPI_MODE_NOPRECEDE = 8192
  integer, parameter :: MPI_MODE_NOSUCCEED = 16384
  integer, parameter :: MPI_GRAPH = 1
  integer, parameter :: MPI_CART = 2
  integer, parameter :: MPI_DIST_GRAPH = 3
  integer, parameter :: MPI_COMM_TYPE_SHARED = 1
  integer, parameter :: MPI_COMM_TYPE_HW_GUIDED = 2
  integer, parameter :: MPI_COMM_TYPE_HW_UNGUIDED = 3
  integer, parameter :: MPI_COMM_TYPE_RESOURCE_GUIDED = 4
  integer, parameter :: MPI_THREAD_SINGLE = 0
  integer, parameter :: MPI_THREAD_FUNNELED = 1
  integer, parameter :: MPI_THREAD_SERIALIZED = 2
  integer, parameter :: MPI_THREAD_MULTIPLE = 3
  integer, parameter :: MPI_COMBINER_NAMED = 1
  integer, parameter :: MPI_COMBINER_DUP = 2
  integer, parameter :: MPI_COMBINER_CONTIGUOUS = 3
  integer, parameter :: MPI_COMBINER_VECTOR = 4
  integer, parameter :: MPI_COMBINER_HVECTOR_INTEGER = 5
  integer, parameter :: MPI_COMBINER_HVECTOR = 6
  integer, parameter :: MPI_COMBINER_INDEXED = 7
  integer, parameter :: MPI_COMBINER_HINDEXED_INTEGER = 8
  integer, parameter :: MPI_COMBINER_HINDEXED = 9
  integer, parameter :: MPI_COMBINER_INDEXED_BLOCK = 10
  integer, parameter :: MPI_COMBINER_STRUCT_INTEGER = 11
  integer, parameter :: MPI_COMBINER_STRUCT = 12
  integer, parameter :: MPI_COMBINER_SUBARRAY = 13
  integer, parameter :: MPI_COMBINER_DARRAY = 14
  integer, parameter :: MPI_COMBINER_F90_REAL = 15
  integer, parameter :: MPI_COMBINER_F90_COMPLEX = 16
  integer, parameter :: MPI_COMBINER_F90_INTEGER = 17
  integer, parameter :: MPI_COMBINER_RESIZED = 18
  integer, parameter :: MPI_COMBINER_HINDEXED_BLOCK = 19
  integer, parameter :: MPI_ORDER_C = 56
  integer, parameter :: MPI_ORDER_FORTRAN = 57
  integer, parameter :: MPI_DISTRIBUTE_BLOCK = 121
  integer, parameter :: MPI_DISTRIBUTE_CYCLIC = 122
  integer, parameter :: MPI_DISTRIBUTE_NONE = 123
  integer, parameter :: MPI_DISTRIBUTE_DFLT_DARG = -49767
  integer, parameter :: MPI_MODE_CREATE = 1
  integer, parameter :: MPI_MODE_RDONLY = 2
  integer, parameter :: MPI_MODE_WRONLY = 4
  integer, parameter :: MPI_MODE_RDWR = 8
  integer, parameter :: MPI_MODE_DELETE_ON_CLOSE = 16
  integer, parameter :: MPI_MODE_UNIQUE_OPEN = 32
  integer, parameter :: MPI_MODE_EXCL = 64
  integer, parameter :: MPI_MODE_APPEND = 128
  integer, parameter :: MPI_MODE_SEQUENTIAL = 256
  integer(kind=MPI_OFFSET_KIND), parameter :: MPI_DISPLACEMENT_CURRENT = -54278278
  integer, parameter :: MPI_SEEK_SET = 600
  integer, parameter :: MPI_SEEK_CUR = 602
  integer, parameter :: MPI_SEEK_END = 604
  integer, parameter :: MPI_SUCCESS = 0
  integer, parameter :: MPI_ERR_BUFFER = 1
  integer, parameter :: MPI_ERR_COUNT = 2
  integer, parameter :: MPI_ERR_TYPE = 3
  integer, parameter :: MPI_ERR_TAG = 4
  integer, parameter :: MPI_ERR_COMM = 5
  integer, parameter :: MPI_ERR_RANK = 6
  integer, parameter :: MPI_ERR_ROOT = 7
  integer, parameter :: MPI_ERR_GROUP = 8
  integer, parameter :: MPI_ERR_OP = 9
  integer, parameter :: MPI_ERR_TOPOLOGY = 10
  integer, parameter :: MPI_ERR_DIMS = 11
  integer, parameter :: MPI_ERR_ARG = 12
  integer, parameter :: MPI_ERR_UNKNOWN = 13
  integer, parameter :: MPI_ERR_TRUNCATE = 14
  integer, parameter :: MPI_ERR_OTHER = 15
  integer, parameter :: MPI_ERR_INTERN = 16
  integer, parameter :: MPI_ERR_IN_STATUS = 17
  integer, parameter :: MPI_ERR_PENDING = 18
  integer, parameter :: MPI_ERR_REQUEST = 19
  integer, parameter :: MPI_ERR_ACCESS = 20
  integer, parameter :: MPI_ERR_AMODE = 21
  integer, parameter :: MPI_ERR_BAD_FILE = 22
  integer, parameter :: MPI_ERR_CONVERSION = 23
  integer, parameter :: MPI_ERR_DUP_DATAREP = 24
  integer, parameter :: MPI_ERR_FILE_EXISTS = 25
  integer, parameter :: MPI_ERR_FILE_IN_USE = 26
  integer, parameter :: MPI_ERR_FILE = 27
  integer, parameter :: MPI_ERR_INFO = 28
  integer, parameter :: MPI_ERR_INFO_KEY = 29
  integer, parameter :: MPI_ERR_INFO_VALUE = 30
  integer, parameter :: MPI_ERR_INFO_NOKEY = 31
  integer, parameter :: MPI_ERR_IO = 32
  integer, parameter :: MPI_ERR_NAME = 33
  integer, parameter :: MPI_ERR_NO_MEM = 34
  integer, parameter :: MPI_ERR_NOT_SAME = 35
  integer, parameter :: MPI_ERR_NO_SPACE = 36
  integer, parameter :: MPI_ERR_NO_SUCH_FILE = 37
  integer, parameter :: MPI_ERR_PORT = 38
  integer, parameter :: MPI_ERR_QUOTA = 39
  integer, parameter :: MPI_ERR_READ_ONLY = 40
  integer, parameter :: MPI_ERR_SERVICE = 41
  integer, parameter :: MPI_ERR_SPAWN = 42
  integer, parameter :: MPI_ERR_UNSUPPORTED_DATAREP = 43
  integer, parameter :: MPI_ERR_UNSUPPORTED_OPERATION = 44
  integer, parameter :: MPI_ERR_WIN = 45
  integer, parameter :: MPI_ERR_BASE = 46
  integer, parameter :: MPI_ERR_LOCKTYPE = 47
  integer, parameter :: MPI_ERR_KEYVAL = 48
  integer, parameter :: MPI_ERR_RMA_CONFLICT = 49
  integer, parameter :: MPI_ERR_RMA_SYNC = 50
  integer, parameter :: MPI_ERR_SIZE = 51
  integer, parameter :: MPI_ERR_DISP = 52
  integer, parameter :: MPI_ERR_ASSERT = 53
  integer, parameter :: MPI_ERR_RMA_RANGE = 55
  integer, parameter :: MPI_ERR_RMA_ATTACH = 56
  integer, parameter :: MPI_ERR_RMA_SHARED = 57
  integer, parameter :: MPI_ERR_RMA_FLAVOR = 58
  integer, parameter :: MPI_T_ERR_MEMORY = 59
  integer, parameter :: MPI_T_ERR_NOT_INITIALIZED = 60
  integer, parameter :: MPI_T_ERR_CANNOT_INIT = 61
  integer, parameter :: MPI_T_ERR_INVALID_INDEX = 62
  integer, parameter :: MPI_T_ERR_INVALID_ITEM = 63
  integer, parameter :: MPI_T_ERR_INVALID_HANDLE = 64
  integer, parameter :: MPI_T_ERR_OUT_OF_HANDLES = 65
  integer, parameter :: MPI_T_ERR_OUT_OF_SESSIONS = 66
  integer, parameter :: MPI_T_ERR_INVALID_SESSION = 67
  integer, parameter :: MPI_T_ERR_CVAR_SET_NOT_NOW = 68
  integer, parameter :: MPI_T_ERR_CVAR_SET_NEVER = 69
  integer, parameter :: MPI_T_ERR_PVAR_NO_STARTSTOP = 70
  integer, parameter :: MPI_T_ERR_PVAR_NO_WRITE = 71
  integer, parameter :: MPI_T_ERR_PVAR_NO_ATOMIC = 72
  integer, parameter :: MPI_T_ERR_INVALID_NAME = 73
  integer, parameter :: MPI_T_ERR_INVALID = 74
  integer, parameter :: MPI_ERR_SESSION = 75
  integer, parameter :: MPI_ERR_PROC_ABORTED = 76
  integer, parameter :: MPI_ERR_VALUE_TOO_LARGE = 77
  integer, parameter :: MPI_T_ERR_NOT_SUPPORTED = 78
  integer, parameter :: MPI_ERR_ERRHANDLER = 80
  integer, parameter :: MPI_ERR_ABI = 81
  integer, parameter :: MPI_T_VERBOSITY_USER_BASIC = 221
  integer, parameter :: MPI_T_VERBOSITY_USER_DETAIL = 222
  integer, parameter :: MPI_T_VERBOSITY_USER_ALL = 223
  integer, parameter :: MPI_T_VERBOSITY_TUNER_BASIC = 224
  integer, parameter :: MPI_T_VERBOSITY_TUNER_DETAIL = 225
  integer, parameter :: MPI_T_VERBOSITY_TUNER_ALL = 226
  integer, parameter :: MPI_T_VERBOSITY_MPIDEV_BASIC = 227
  integer, parameter :: MPI_T_VERBOSITY_MPIDEV_DETAIL = 228
  integer, parameter :: MPI_T_VERBOSITY_MPIDEV_ALL = 229
  integer, parameter :: MPI_T_BIND_NO_OBJECT = 9700
  integer, parameter :: MPI_T_BIND_MPI_COMM = 9701
  integer, parameter :: MPI_T_BIND_MPI_DATATYPE = 9702
  integer, parameter :: MPI_T_BIND_MPI_ERRHANDLER = 9703
  integer, parameter :: MPI_T_BIND_MPI_FILE = 9704
  integer, parameter :: MPI_T_BIND_MPI_GROUP = 9705
  integer, parameter :: MPI_T_BIND_MPI_OP = 9706
  integer, parameter :: MPI_T_BIND_MPI_REQUEST = 9707
  integer, parameter :: MPI_T_BIND_MPI_WIN = 9708
  integer, parameter :: MPI_T_BIND_MPI_MESSAGE = 9709
  integer, parameter :: MPI_T_BIND_MPI_INFO = 9710
  integer, parameter :: MPI_T_BIND_MPI_SESSION = 9711
  integer, parameter :: MPI_T_SCOPE_CONSTANT = 60438
  integer, parameter :: MPI_T_SCOPE_READONLY = 60439
  integer, parameter :: MPI_T_SCOPE_LOCAL = 60440
  integer, parameter :: MPI_T_SCOPE_GROUP = 60441
  integer, parameter :: MPI_T_SCOPE_GROUP_EQ = 60442
  integer, parameter :: MPI_T_SCOPE_ALL = 60443
  integer, parameter :: MPI_T_SCOPE_ALL_EQ = 60444
  integer, parameter :: MPI_T_PVAR_CLASS_STATE = 240
  integer, parameter :: MPI_T_PVAR_CLASS_LEVEL = 241
  integer, parameter :: MPI_T_PVAR_CLASS_SIZE = 242
  integer, parameter :: MPI_T_PVAR_CLASS_PERCENTAGE = 243
  integer, parameter :: MPI_T_PVAR_CLASS_HIGHWATERMARK = 244
  integer, parameter :: MPI_T_PVAR_CLASS_LOWWATERMARK = 245
  integer, parameter :: MPI_T_PVAR_CLASS_COUNTER = 246
  integer, parameter :: MPI_T_PVAR_CLASS_AGGREGATE = 247
  integer, parameter :: MPI_T_PVAR_CLASS_TIMER = 248
  integer, parameter :: MPI_T_PVAR_CLASS_GENERIC = 249
  integer, parameter :: MPI_T_CB_REQUIRE_NONE = 0
  integer, parameter :: MPI_T_CB_REQUIRE_MPI_RESTRICTED = 1
  integer, parameter :: MPI_T_CB_REQUIRE_THREAD_SAFE = 2
  integer, parameter :: MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE = 3
  integer, parameter :: MPI_T_SOURCE_ORDERED = 0
  integer, parameter :: MPI_T_SOURCE_UNORDERED = 1
  integer, parameter :: MPI_ERR_LASTCODE = 1073741823
  type(MPI_Comm), parameter :: MPI_COMM_NULL = MPI_Comm(67108864)
  type(MPI_Op), parameter :: MPI_OP_NULL = MPI_Op(402653184)
  type(MPI_Group), parameter :: MPI_GROUP_NULL = MPI_Group(134217728)
  type(MPI_Datatype), parameter :: MPI_DATATYPE_NULL = MPI_Datatype(201326592)
  type(MPI_Request), parameter :: MPI_REQUEST_NULL = MPI_Request(738197504)
  type(MPI_Errhandler), parameter :: MPI_ERRHANDLER_NULL = MPI_Errhandler(335544320)
  type(MPI_Message), parameter :: MPI_MESSAGE_NULL = MPI_Message(738197504)
  type(MPI_Message), parameter :: MPI_MESSAGE_NO_PROC = MPI_Message(1811939328)
  type(MPI_Win), parameter :: MPI_WIN_NULL = MPI_Win(536870912)
  type(MPI_Info), parameter :: MPI_INFO_NULL = MPI_Info(469762048)
  type(MPI_Session), parameter :: MPI_SESSION_NULL = MPI_Session(939524096)
  type(MPI_Comm), parameter :: MPI_COMM_WORLD = MPI_Comm(1140850688)
  type(MPI_Comm), parameter :: MPI_COMM_SELF = MPI_Comm(1140850689)
  type(MPI_Group), parameter :: MPI_GROUP_EMPTY = MPI_Group(1207959552)
  type(MPI_Info), parameter :: MPI_INFO_ENV = MPI_Info(1543503873)
  type(MPI_Datatype), parameter :: MPI_CHAR = MPI_Datatype(1275068673)
  type(MPI_Datatype), parameter :: MPI_SIGNED_CHAR = MPI_Datatype(1275068696)
  type(MPI_Datatype), parameter :: MPI_UNSIGNED_CHAR = MPI_Datatype(1275068674)
  type(MPI_Datatype), parameter :: MPI_BYTE = MPI_Datatype(1275068685)
  type(MPI_Datatype), parameter :: MPI_WCHAR = MPI_Datatype(1275069454)
  type(MPI_Datatype), parameter :: MPI_SHORT = MPI_Datatype(1275068931)
  type(MPI_Datatype), parameter :: MPI_UNSIGNED_SHORT = MPI_Datatype(1275068932)
  type(MPI_Datatype), parameter :: MPI_INT = MPI_Datatype(1275069445)
  type(MPI_Datatype), parameter :: MPI_UNSIGNED = MPI_Datatype(1275069446)
  type(MPI_Datatype), parameter :: MPI_LONG = MPI_Datatype(1275070471)
  type(MPI_Datatype), parameter :: MPI_UNSIGNED_LONG = MPI_Datatype(1275070472)
  type(MPI_Datatype), parameter :: MPI_FLOAT = MPI_Datatype(1275069450)
  type(MPI_Datatype), parameter :: MPI_DOUBLE = MPI_Datatype(1275070475)
  type(MPI_Datatype), parameter :: MPI_LONG_DOUBLE = MPI_Datatype(1275072524)
  type(MPI_Datatype), parameter :: MPI_LONG_LONG_INT = MPI_Datatype(1275070473)
  type(MPI_Datatype), parameter :: MPI_UNSIGNED_LONG_LONG = MPI_Datatype(1275070489)
  integer, parameter :: MPI_LONG_LONG = 1275070473
  type(MPI_Datatype), parameter :: MPI_PACKED = MPI_Datatype(1275068687)
  type(MPI_Datatype), parameter :: MPI_LB = MPI_Datatype(1275068432)
  type(MPI_Datatype), parameter :: MPI_UB = MPI_Datatype(1275068433)
  type(MPI_Datatype), parameter :: MPI_FLOAT_INT = MPI_Datatype(-1946157056)
  type(MPI_Datatype), parameter :: MPI_DOUBLE_INT = MPI_Datatype(-1946157055)
  type(MPI_Datatype), parameter :: MPI_LONG_INT = MPI_Datatype(-1946157054)
  type(MPI_Datatype), parameter :: MPI_SHORT_INT = MPI_Datatype(-1946157053)
  type(MPI_Datatype), parameter :: MPI_2INT = MPI_Datatype(1275070486)
  type(MPI_Datatype), parameter :: MPI_LONG_DOUBLE_INT = MPI_Datatype(-1946157052)
  type(MPI_Datatype), parameter :: MPI_COMPLEX = MPI_Datatype(1275070494)
  type(MPI_Datatype), parameter :: MPI_DOUBLE_COMPLEX = MPI_Datatype(1275072546)
  type(MPI_Datatype), parameter :: MPI_LOGICAL = MPI_Datatype(1275069469)
  type(MPI_Datatype), parameter :: MPI_REAL = MPI_Datatype(1275069468)
  type(MPI_Datatype), parameter :: MPI_DOUBLE_PRECISION = MPI_Datatype(1275070495)
  type(MPI_Datatype), parameter :: MPI_INTEGER = MPI_Datatype(1275069467)
  type(MPI_Datatype), parameter :: MPI_2INTEGER = MPI_Datatype(1275070496)
  type(MPI_Datatype), parameter :: MPI_2REAL = MPI_Datatype(1275070497)
  type(MPI_Datatype), parameter :: MPI_2DOUBLE_PRECISION = MPI_Datatype(1275072547)
  type(MPI_Datatype), parameter :: MPI_CHARACTER = MPI_Datatype(1275068698)
  type(MPI_Datatype), parameter :: MPI_REAL4 = MPI_Datatype(1275069479)
  type(MPI_Datatype), parameter :: MPI_REAL8 = MPI_Datatype(1275070505)
  type(MPI_Datatype), parameter :: MPI_REAL16 = MPI_Datatype(1275072555)
  type(MPI_Datatype), parameter :: MPI_COMPLEX8 = MPI_Datatype(1275070504)
  type(MPI_Datatype), parameter :: MPI_COMPLEX16 = MPI_Datatype(1275072554)
  type(MPI_Datatype), parameter :: MPI_COMPLEX32 = MPI_Datatype(1275076652)
  type(MPI_Datatype), parameter :: MPI_INTEGER1 = MPI_Datatype(1275068717)
  type(MPI_Datatype), parameter :: MPI_INTEGER2 = MPI_Datatype(1275068975)
  type(MPI_Datatype), parameter :: MPI_INTEGER4 = MPI_Datatype(1275069488)
  type(MPI_Datatype), parameter :: MPI_INTEGER8 = MPI_Datatype(1275070513)
  integer, parameter :: MPI_INTEGER16 = 201326592
  type(MPI_Datatype), parameter :: MPI_INT8_T = MPI_Datatype(1275068727)
  type(MPI_Datatype), parameter :: MPI_INT16_T = MPI_Datatype(1275068984)
  type(MPI_Datatype), parameter :: MPI_INT32_T = MPI_Datatype(1275069497)
  type(MPI_Datatype), parameter :: MPI_INT64_T = MPI_Datatype(1275070522)
  type(MPI_Datatype), parameter :: MPI_UINT8_T = MPI_Datatype(1275068731)
  type(MPI_Datatype), parameter :: MPI_UINT16_T = MPI_Datatype(1275068988)
  type(MPI_Datatype), parameter :: MPI_UINT32_T = MPI_Datatype(1275069501)
  type(MPI_Datatype), parameter :: MPI_UINT64_T = MPI_Datatype(1275070526)
  type(MPI_Datatype), parameter :: MPI_C_BOOL = MPI_Datatype(1275068735)
  type(MPI_Datatype), parameter :: MPI_C_FLOAT_COMPLEX = MPI_Datatype(1275070528)
  integer, parameter :: MPI_C_COMPLEX = 1275070528
  type(MPI_Datatype), parameter :: MPI_C_DOUBLE_COMPLEX = MPI_Datatype(1275072577)
  type(MPI_Datatype), parameter :: MPI_C_LONG_DOUBLE_COMPLEX = MPI_Datatype(1275076674)
  type(MPI_Datatype), parameter :: MPI_AINT = MPI_Datatype(1275070531)
  type(MPI_Datatype), parameter :: MPI_OFFSET = MPI_Datatype(1275070532)
  type(MPI_Datatype), parameter :: MPI_COUNT = MPI_Datatype(1275070533)
  type(MPI_Datatype), parameter :: MPI_CXX_BOOL = MPI_Datatype(1275068723)
  type(MPI_Datatype), parameter :: MPI_CXX_FLOAT_COMPLEX = MPI_Datatype(1275070516)
  type(MPI_Datatype), parameter :: MPI_CXX_DOUBLE_COMPLEX = MPI_Datatype(1275072565)
  type(MPI_Datatype), parameter :: MPI_CXX_LONG_DOUBLE_COMPLEX = MPI_Datatype(1275076662)
  type(MPI_Op), parameter :: MPI_MAX = MPI_Op(1476395009)
  type(MPI_Op), parameter :: MPI_MIN = MPI_Op(1476395010)
  type(MPI_Op), parameter :: MPI_SUM = MPI_Op(1476395011)
  type(MPI_Op), parameter :: MPI_PROD = MPI_Op(1476395012)
  type(MPI_Op), parameter :: MPI_LAND = MPI_Op(1476395013)
  type(MPI_Op), parameter :: MPI_BAND = MPI_Op(1476395014)
  type(MPI_Op), parameter :: MPI_LOR = MPI_Op(1476395015)
  type(MPI_Op), parameter :: MPI_BOR = MPI_Op(1476395016)
  type(MPI_Op), parameter :: MPI_LXOR = MPI_Op(1476395017)
  type(MPI_Op), parameter :: MPI_BXOR = MPI_Op(1476395018)
  type(MPI_Op), parameter :: MPI_MINLOC = MPI_Op(1476395019)
  type(MPI_Op), parameter :: MPI_MAXLOC = MPI_Op(1476395020)
  type(MPI_Op), parameter :: MPI_REPLACE = MPI_Op(1476395021)
  type(MPI_Op), parameter :: MPI_NO_OP = MPI_Op(1476395022)
  type(MPI_Errhandler), parameter :: MPI_ERRORS_ARE_FATAL = MPI_Errhandler(1409286144)
  type(MPI_Errhandler), parameter :: MPI_ERRORS_RETURN = MPI_Errhandler(1409286145)
  type(MPI_Errhandler), parameter :: MPI_ERRORS_ABORT = MPI_Errhandler(1409286147)
  integer, parameter :: MPIO_REQUEST_NULL = 738197504

  ! Special addresses: libmpi's variables (f08_support.rs), recognised by address.
  integer(c_int), bind(C, name="railmpi_f08_bottom"), target :: MPI_BOTTOM
  integer(c_int), bind(C, name="railmpi_f08_in_place"), target :: MPI_IN_PLACE
  type(MPI_Status), bind(C, name="railmpi_f08_status_ignore"), target :: MPI_STATUS_IGNORE
  type(MPI_Status), dimension(1), bind(C, name="railmpi_f08_statuses_ignore"), target :: &
      MPI_STATUSES_IGNORE
  integer(c_int), dimension(1), bind(C, name="railmpi_f08_errcodes_ignore"), target :: &
      MPI_ERRCODES_IGNORE
  integer(c_int), dimension(1), bind(C, name="railmpi_f08_unweighted"), target :: &
      MPI_UNWEIGHTED
  integer(c_int), dimension(1), bind(C, name="railmpi_f08_weights_empty"), target :: &
      MPI_WEIGHTS_EMPTY
  character(len=1), dimension(1), bind(C, name="railmpi_f08_argv_null"), target :: &
      MPI_ARGV_NULL

  ! Callbacks (MPI-3.1 section 17.1.2): their conventions are the C ones (values by
  ! reference but the two buffers), so libmpi calls them as it calls C callbacks.
  abstract interface
    subroutine MPI_User_function(invec, inoutvec, len, datatype)
      import
      implicit none
      type(c_ptr), value :: invec, inoutvec
      integer :: len
      type(MPI_Datatype) :: datatype
    end subroutine MPI_User_function
    subroutine MPI_Comm_copy_attr_function(oldcomm, comm_keyval, extra_state, attribute_val_in, &
        attribute_val_out, flag, ierror)
      import
      implicit none
      type(MPI_Comm) :: oldcomm
      integer :: comm_keyval, ierror
      integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
      logical :: flag
    end subroutine MPI_Comm_copy_attr_function
    subroutine MPI_Comm_delete_attr_function(comm, comm_keyval, attribute_val, extra_state, ierror)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer :: comm_keyval, ierror
      integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    end subroutine MPI_Comm_delete_attr_function
    subroutine MPI_Type_copy_attr_function(oldtype, type_keyval, extra_state, attribute_val_in, &
        attribute_val_out, flag, ierror)
      import
      implicit none
      type(MPI_Datatype) :: oldtype
      integer :: type_keyval, ierror
      integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
      logical :: flag
    end subroutine MPI_Type_copy_attr_function
    subroutine MPI_Type_delete_attr_function(type, type_keyval, attribute_val, extra_state, ierror)
      import
      implicit none
      type(MPI_Datatype) :: type
      integer :: type_keyval, ierror
      integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    end subroutine MPI_Type_delete_attr_function
    subroutine MPI_Win_copy_attr_function(oldwin, win_keyval, extra_state, attribute_val_in, &
        attribute_val_out, flag, ierror)
      import
      implicit none
      type(MPI_Win) :: oldwin
      integer :: win_keyval, ierror
      integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
      logical :: flag
    end subroutine MPI_Win_copy_attr_function
    subroutine MPI_Win_delete_attr_function(win, win_keyval, attribute_val, extra_state, ierror)
      import
      implicit none
      type(MPI_Win) :: win
      integer :: win_keyval, ierror
      integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    end subroutine MPI_Win_delete_attr_function
    subroutine MPI_Comm_errhandler_function(comm, error_code)
      import
      implicit none
      type(MPI_Comm) :: comm
      integer :: error_code
    end subroutine MPI_Comm_errhandler_function
    subroutine MPI_Win_errhandler_function(win, error_code)
      import
      implicit none
      type(MPI_Win) :: win
      integer :: error_code
    end subroutine MPI_Win_errhandler_function
    subroutine MPI_File_errhandler_function(file, error_code)
      import
      implicit none
      type(MPI_File) :: file
      integer :: error_code
    end subroutine MPI_File_errhandler_function
  end interface

  ! Predefined attribute callbacks (libmpi's mpi_comm_null_copy_fn_, ...).
  procedure(MPI_Comm_copy_attr_function) :: MPI_COMM_NULL_COPY_FN, MPI_COMM_DUP_FN
  procedure(MPI_Comm_delete_attr_function) :: MPI_COMM_NULL_DELETE_FN
  procedure(MPI_Type_copy_attr_function) :: MPI_TYPE_NULL_COPY_FN, MPI_TYPE_DUP_FN
  procedure(MPI_Type_delete_attr_function) :: MPI_TYPE_NULL_DELETE_FN
  procedure(MPI_Win_copy_attr_function) :: MPI_WIN_NULL_COPY_FN, MPI_WIN_DUP_FN
  procedure(MPI_Win_delete_attr_function) :: MPI_WIN_NULL_DELETE_FN

  ! MPI_Buffer_detach: the buffer's address comes back as TYPE(C_PTR).
  interface MPI_Buffer_detach
    subroutine MPI_Buffer_detach_f08(buffer_addr, size, ierror) &
        bind(C, name="MPI_Buffer_detach_f08")
      import
      implicit none
      type(c_ptr), intent(out) :: buffer_addr
      integer, intent(out) :: size
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Buffer_detach_f08
  end interface MPI_Buffer_detach
  interface PMPI_Buffer_detach
    subroutine PMPI_Buffer_detach_f08(buffer_addr, size, ierror) &
        bind(C, name="PMPI_Buffer_detach_f08")
      import
      implicit none
      type(c_ptr), intent(out) :: buffer_addr
      integer, intent(out) :: size
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Buffer_detach_f08
  end interface PMPI_Buffer_detach

  ! Procedures: `interface MPI_X` and `interface PMPI_X` for each.
  interface MPI_Abort
    subroutine MPI_Abort(comm, errorcode, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: errorcode
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Abort
  end interface MPI_Abort
  interface PMPI_Abort
    subroutine PMPI_Abort(comm, errorcode, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: errorcode
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Abort
  end interface PMPI_Abort
  interface MPI_Accumulate
    subroutine MPI_Accumulate_f08ts(origin_addr, origin_count, origin_datatype, target_rank, &
        target_disp, target_count, target_datatype, op, win, ierror) bind(C, &
        name="MPI_Accumulate_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: origin_addr
      integer, intent(in) :: origin_count
      type(MPI_Datatype), intent(in) :: origin_datatype
      integer, intent(in) :: target_rank
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
      integer, intent(in) :: target_count
      type(MPI_Datatype), intent(in) :: target_datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Accumulate_f08ts
  end interface MPI_Accumulate
  interface PMPI_Accumulate
    subroutine PMPI_Accumulate_f08ts(origin_addr, origin_count, origin_datatype, target_rank, &
        target_disp, target_count, target_datatype, op, win, ierror) bind(C, &
        name="PMPI_Accumulate_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: origin_addr
      integer, intent(in) :: origin_count
      type(MPI_Datatype), intent(in) :: origin_datatype
      integer, intent(in) :: target_rank
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
      integer, intent(in) :: target_count
      type(MPI_Datatype), intent(in) :: target_datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Accumulate_f08ts
  end interface PMPI_Accumulate
  interface MPI_Add_error_class
    subroutine MPI_Add_error_class(errorclass, ierror)
      import
      implicit none
      integer, intent(out) :: errorclass
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Add_error_class
  end interface MPI_Add_error_class
  interface PMPI_Add_error_class
    subroutine PMPI_Add_error_class(errorclass, ierror)
      import
      implicit none
      integer, intent(out) :: errorclass
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Add_error_class
  end interface PMPI_Add_error_class
  interface MPI_Add_error_code
    subroutine MPI_Add_error_code(errorclass, errorcode, ierror)
      import
      implicit none
      integer, intent(in) :: errorclass
      integer, intent(out) :: errorcode
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Add_error_code
  end interface MPI_Add_error_code
  interface PMPI_Add_error_code
    subroutine PMPI_Add_error_code(errorclass, errorcode, ierror)
      import
      implicit none
      integer, intent(in) :: errorclass
      integer, intent(out) :: errorcode
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Add_error_code
  end interface PMPI_Add_error_code
  interface MPI_Add_error_string
    subroutine MPI_Add_error_string(errorcode, string, ierror)
      import
      implicit none
      integer, intent(in) :: errorcode
      character(len=*), intent(in) :: string
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Add_error_string
  end interface MPI_Add_error_string
  interface PMPI_Add_error_string
    subroutine PMPI_Add_error_string(errorcode, string, ierror)
      import
      implicit none
      integer, intent(in) :: errorcode
      character(len=*), intent(in) :: string
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Add_error_string
  end interface PMPI_Add_error_string
  interface MPI_Aint_add
    integer(kind=MPI_ADDRESS_KIND) function MPI_Aint_add(base, disp)
      import
      implicit none
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: base
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: disp
    end function MPI_Aint_add
  end interface MPI_Aint_add
  interface PMPI_Aint_add
    integer(kind=MPI_ADDRESS_KIND) function PMPI_Aint_add(base, disp)
      import
      implicit none
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: base
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: disp
    end function PMPI_Aint_add
  end interface PMPI_Aint_add
  interface MPI_Aint_diff
    integer(kind=MPI_ADDRESS_KIND) function MPI_Aint_diff(addr1, addr2)
      import
      implicit none
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: addr1
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: addr2
    end function MPI_Aint_diff
  end interface MPI_Aint_diff
  interface PMPI_Aint_diff
    integer(kind=MPI_ADDRESS_KIND) function PMPI_Aint_diff(addr1, addr2)
      import
      implicit none
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: addr1
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: addr2
    end function PMPI_Aint_diff
  end interface PMPI_Aint_diff
  interface MPI_Allgather
    subroutine MPI_Allgather_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
        comm, ierror) bind(C, name="MPI_Allgather_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Allgather_f08ts
  end interface MPI_Allgather
  interface PMPI_Allgather
    subroutine PMPI_Allgather_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
        comm, ierror) bind(C, name="PMPI_Allgather_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Allgather_f08ts
  end interface PMPI_Allgather
  interface MPI_Allgather_init
    subroutine MPI_Allgather_init_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
        recvtype, comm, info, request, ierror) bind(C, name="MPI_Allgather_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Allgather_init_f08ts
  end interface MPI_Allgather_init
  interface PMPI_Allgather_init
    subroutine PMPI_Allgather_init_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
        recvtype, comm, info, request, ierror) bind(C, name="PMPI_Allgather_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Allgather_init_f08ts
  end interface PMPI_Allgather_init
  interface MPI_Allgatherv
    subroutine MPI_Allgatherv_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, &
        recvtype, comm, ierror) bind(C, name="MPI_Allgatherv_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcounts(*)
      integer, intent(in) :: displs(*)
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Allgatherv_f08ts
  end interface MPI_Allgatherv
  interface PMPI_Allgatherv
    subroutine PMPI_Allgatherv_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, &
        recvtype, comm, ierror) bind(C, name="PMPI_Allgatherv_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcounts(*)
      integer, intent(in) :: displs(*)
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Allgatherv_f08ts
  end interface PMPI_Allgatherv
  interface MPI_Allgatherv_init
    subroutine MPI_Allgatherv_init_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcounts, &
        displs, recvtype, comm, info, request, ierror) bind(C, name="MPI_Allgatherv_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      integer, intent(in), asynchronous :: displs(*)
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Allgatherv_init_f08ts
  end interface MPI_Allgatherv_init
  interface PMPI_Allgatherv_init
    subroutine PMPI_Allgatherv_init_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcounts, &
        displs, recvtype, comm, info, request, ierror) bind(C, name="PMPI_Allgatherv_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      integer, intent(in), asynchronous :: displs(*)
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Allgatherv_init_f08ts
  end interface PMPI_Allgatherv_init
  interface MPI_Alloc_mem
    subroutine MPI_Alloc_mem(size, info, baseptr, ierror)
      import
      implicit none
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: size
      type(MPI_Info), intent(in) :: info
      type(c_ptr), intent(out) :: baseptr
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Alloc_mem
  end interface MPI_Alloc_mem
  interface PMPI_Alloc_mem
    subroutine PMPI_Alloc_mem(size, info, baseptr, ierror)
      import
      implicit none
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: size
      type(MPI_Info), intent(in) :: info
      type(c_ptr), intent(out) :: baseptr
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Alloc_mem
  end interface PMPI_Alloc_mem
  interface MPI_Allreduce
    subroutine MPI_Allreduce_f08ts(sendbuf, recvbuf, count, datatype, op, comm, ierror) bind(C, &
        name="MPI_Allreduce_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Allreduce_f08ts
  end interface MPI_Allreduce
  interface PMPI_Allreduce
    subroutine PMPI_Allreduce_f08ts(sendbuf, recvbuf, count, datatype, op, comm, &
        ierror) bind(C, name="PMPI_Allreduce_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Allreduce_f08ts
  end interface PMPI_Allreduce
  interface MPI_Allreduce_init
    subroutine MPI_Allreduce_init_f08ts(sendbuf, recvbuf, count, datatype, op, comm, info, &
        request, ierror) bind(C, name="MPI_Allreduce_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Allreduce_init_f08ts
  end interface MPI_Allreduce_init
  interface PMPI_Allreduce_init
    subroutine PMPI_Allreduce_init_f08ts(sendbuf, recvbuf, count, datatype, op, comm, info, &
        request, ierror) bind(C, name="PMPI_Allreduce_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Allreduce_init_f08ts
  end interface PMPI_Allreduce_init
  interface MPI_Alltoall
    subroutine MPI_Alltoall_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
        comm, ierror) bind(C, name="MPI_Alltoall_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Alltoall_f08ts
  end interface MPI_Alltoall
  interface PMPI_Alltoall
    subroutine PMPI_Alltoall_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
        comm, ierror) bind(C, name="PMPI_Alltoall_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Alltoall_f08ts
  end interface PMPI_Alltoall
  interface MPI_Alltoall_init
    subroutine MPI_Alltoall_init_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
        recvtype, comm, info, request, ierror) bind(C, name="MPI_Alltoall_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Alltoall_init_f08ts
  end interface MPI_Alltoall_init
  interface PMPI_Alltoall_init
    subroutine PMPI_Alltoall_init_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
        recvtype, comm, info, request, ierror) bind(C, name="PMPI_Alltoall_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Alltoall_init_f08ts
  end interface PMPI_Alltoall_init
  interface MPI_Alltoallv
    subroutine MPI_Alltoallv_f08ts(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, &
        rdispls, recvtype, comm, ierror) bind(C, name="MPI_Alltoallv_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcounts(*)
      integer, intent(in) :: sdispls(*)
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcounts(*)
      integer, intent(in) :: rdispls(*)
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Alltoallv_f08ts
  end interface MPI_Alltoallv
  interface PMPI_Alltoallv
    subroutine PMPI_Alltoallv_f08ts(sendbuf, sendcounts, sdispls, sendtype, recvbuf, &
        recvcounts, rdispls, recvtype, comm, ierror) bind(C, name="PMPI_Alltoallv_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcounts(*)
      integer, intent(in) :: sdispls(*)
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcounts(*)
      integer, intent(in) :: rdispls(*)
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Alltoallv_f08ts
  end interface PMPI_Alltoallv
  interface MPI_Alltoallv_init
    subroutine MPI_Alltoallv_init_f08ts(sendbuf, sendcounts, sdispls, sendtype, recvbuf, &
        recvcounts, rdispls, recvtype, comm, info, request, ierror) bind(C, &
        name="MPI_Alltoallv_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in), asynchronous :: sendcounts(*)
      integer, intent(in), asynchronous :: sdispls(*)
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      integer, intent(in), asynchronous :: rdispls(*)
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Alltoallv_init_f08ts
  end interface MPI_Alltoallv_init
  interface PMPI_Alltoallv_init
    subroutine PMPI_Alltoallv_init_f08ts(sendbuf, sendcounts, sdispls, sendtype, recvbuf, &
        recvcounts, rdispls, recvtype, comm, info, request, ierror) bind(C, &
        name="PMPI_Alltoallv_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in), asynchronous :: sendcounts(*)
      integer, intent(in), asynchronous :: sdispls(*)
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      integer, intent(in), asynchronous :: rdispls(*)
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Alltoallv_init_f08ts
  end interface PMPI_Alltoallv_init
  interface MPI_Alltoallw
    subroutine MPI_Alltoallw_f08ts(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, &
        recvcounts, rdispls, recvtypes, comm, ierror) bind(C, name="MPI_Alltoallw_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcounts(*)
      integer, intent(in) :: sdispls(*)
      type(MPI_Datatype), intent(in) :: sendtypes(*)
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcounts(*)
      integer, intent(in) :: rdispls(*)
      type(MPI_Datatype), intent(in) :: recvtypes(*)
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Alltoallw_f08ts
  end interface MPI_Alltoallw
  interface PMPI_Alltoallw
    subroutine PMPI_Alltoallw_f08ts(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, &
        recvcounts, rdispls, recvtypes, comm, ierror) bind(C, name="PMPI_Alltoallw_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcounts(*)
      integer, intent(in) :: sdispls(*)
      type(MPI_Datatype), intent(in) :: sendtypes(*)
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcounts(*)
      integer, intent(in) :: rdispls(*)
      type(MPI_Datatype), intent(in) :: recvtypes(*)
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Alltoallw_f08ts
  end interface PMPI_Alltoallw
  interface MPI_Alltoallw_init
    subroutine MPI_Alltoallw_init_f08ts(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, &
        recvcounts, rdispls, recvtypes, comm, info, request, ierror) bind(C, &
        name="MPI_Alltoallw_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in), asynchronous :: sendcounts(*)
      integer, intent(in), asynchronous :: sdispls(*)
      type(MPI_Datatype), intent(in), asynchronous :: sendtypes(*)
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      integer, intent(in), asynchronous :: rdispls(*)
      type(MPI_Datatype), intent(in), asynchronous :: recvtypes(*)
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Alltoallw_init_f08ts
  end interface MPI_Alltoallw_init
  interface PMPI_Alltoallw_init
    subroutine PMPI_Alltoallw_init_f08ts(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, &
        recvcounts, rdispls, recvtypes, comm, info, request, ierror) bind(C, &
        name="PMPI_Alltoallw_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in), asynchronous :: sendcounts(*)
      integer, intent(in), asynchronous :: sdispls(*)
      type(MPI_Datatype), intent(in), asynchronous :: sendtypes(*)
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      integer, intent(in), asynchronous :: rdispls(*)
      type(MPI_Datatype), intent(in), asynchronous :: recvtypes(*)
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Alltoallw_init_f08ts
  end interface PMPI_Alltoallw_init
  interface MPI_Barrier
    subroutine MPI_Barrier(comm, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Barrier
  end interface MPI_Barrier
  interface PMPI_Barrier
    subroutine PMPI_Barrier(comm, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Barrier
  end interface PMPI_Barrier
  interface MPI_Barrier_init
    subroutine MPI_Barrier_init(comm, info, request, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Barrier_init
  end interface MPI_Barrier_init
  interface PMPI_Barrier_init
    subroutine PMPI_Barrier_init(comm, info, request, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Barrier_init
  end interface PMPI_Barrier_init
  interface MPI_Bcast
    subroutine MPI_Bcast_f08ts(buffer, count, datatype, root, comm, ierror) bind(C, &
        name="MPI_Bcast_f08ts")
      import
      implicit none
      type(*), dimension(..) :: buffer
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Bcast_f08ts
  end interface MPI_Bcast
  interface PMPI_Bcast
    subroutine PMPI_Bcast_f08ts(buffer, count, datatype, root, comm, ierror) bind(C, &
        name="PMPI_Bcast_f08ts")
      import
      implicit none
      type(*), dimension(..) :: buffer
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Bcast_f08ts
  end interface PMPI_Bcast
  interface MPI_Bcast_init
    subroutine MPI_Bcast_init_f08ts(buffer, count, datatype, root, comm, info, request, &
        ierror) bind(C, name="MPI_Bcast_init_f08ts")
      import
      implicit none
      type(*), dimension(..), asynchronous :: buffer
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Bcast_init_f08ts
  end interface MPI_Bcast_init
  interface PMPI_Bcast_init
    subroutine PMPI_Bcast_init_f08ts(buffer, count, datatype, root, comm, info, request, &
        ierror) bind(C, name="PMPI_Bcast_init_f08ts")
      import
      implicit none
      type(*), dimension(..), asynchronous :: buffer
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Bcast_init_f08ts
  end interface PMPI_Bcast_init
  interface MPI_Bsend
    subroutine MPI_Bsend_f08ts(buf, count, datatype, dest, tag, comm, ierror) bind(C, &
        name="MPI_Bsend_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Bsend_f08ts
  end interface MPI_Bsend
  interface PMPI_Bsend
    subroutine PMPI_Bsend_f08ts(buf, count, datatype, dest, tag, comm, ierror) bind(C, &
        name="PMPI_Bsend_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Bsend_f08ts
  end interface PMPI_Bsend
  interface MPI_Bsend_init
    subroutine MPI_Bsend_init_f08ts(buf, count, datatype, dest, tag, comm, request, &
        ierror) bind(C, name="MPI_Bsend_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Bsend_init_f08ts
  end interface MPI_Bsend_init
  interface PMPI_Bsend_init
    subroutine PMPI_Bsend_init_f08ts(buf, count, datatype, dest, tag, comm, request, &
        ierror) bind(C, name="PMPI_Bsend_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Bsend_init_f08ts
  end interface PMPI_Bsend_init
  interface MPI_Buffer_attach
    subroutine MPI_Buffer_attach_f08ts(buffer, size, ierror) bind(C, name="MPI_Buffer_attach_f08ts")
      import
      implicit none
      type(*), dimension(..), asynchronous :: buffer
      integer, intent(in) :: size
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Buffer_attach_f08ts
  end interface MPI_Buffer_attach
  interface PMPI_Buffer_attach
    subroutine PMPI_Buffer_attach_f08ts(buffer, size, ierror) bind(C, &
        name="PMPI_Buffer_attach_f08ts")
      import
      implicit none
      type(*), dimension(..), asynchronous :: buffer
      integer, intent(in) :: size
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Buffer_attach_f08ts
  end interface PMPI_Buffer_attach
  interface MPI_Buffer_flush
    subroutine MPI_Buffer_flush(ierror)
      import
      implicit none
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Buffer_flush
  end interface MPI_Buffer_flush
  interface PMPI_Buffer_flush
    subroutine PMPI_Buffer_flush(ierror)
      import
      implicit none
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Buffer_flush
  end interface PMPI_Buffer_flush
  interface MPI_Buffer_iflush
    subroutine MPI_Buffer_iflush(request, ierror)
      import
      implicit none
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Buffer_iflush
  end interface MPI_Buffer_iflush
  interface PMPI_Buffer_iflush
    subroutine PMPI_Buffer_iflush(request, ierror)
      import
      implicit none
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Buffer_iflush
  end interface PMPI_Buffer_iflush
  interface MPI_Cancel
    subroutine MPI_Cancel(request, ierror)
      import
      implicit none
      type(MPI_Request), intent(in) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Cancel
  end interface MPI_Cancel
  interface PMPI_Cancel
    subroutine PMPI_Cancel(request, ierror)
      import
      implicit none
      type(MPI_Request), intent(in) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Cancel
  end interface PMPI_Cancel
  interface MPI_Cart_coords
    subroutine MPI_Cart_coords(comm, rank, maxdims, coords, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: rank
      integer, intent(in) :: maxdims
      integer, intent(out) :: coords(*)
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Cart_coords
  end interface MPI_Cart_coords
  interface PMPI_Cart_coords
    subroutine PMPI_Cart_coords(comm, rank, maxdims, coords, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: rank
      integer, intent(in) :: maxdims
      integer, intent(out) :: coords(*)
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Cart_coords
  end interface PMPI_Cart_coords
  interface MPI_Cart_create
    subroutine MPI_Cart_create(comm_old, ndims, dims, periods, reorder, comm_cart, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm_old
      integer, intent(in) :: ndims
      integer, intent(in) :: dims(*)
      logical, intent(in) :: periods(*)
      logical, intent(in) :: reorder
      type(MPI_Comm), intent(out) :: comm_cart
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Cart_create
  end interface MPI_Cart_create
  interface PMPI_Cart_create
    subroutine PMPI_Cart_create(comm_old, ndims, dims, periods, reorder, comm_cart, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm_old
      integer, intent(in) :: ndims
      integer, intent(in) :: dims(*)
      logical, intent(in) :: periods(*)
      logical, intent(in) :: reorder
      type(MPI_Comm), intent(out) :: comm_cart
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Cart_create
  end interface PMPI_Cart_create
  interface MPI_Cart_get
    subroutine MPI_Cart_get(comm, maxdims, dims, periods, coords, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: maxdims
      integer, intent(out) :: dims(*)
      logical, intent(out) :: periods(*)
      integer, intent(out) :: coords(*)
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Cart_get
  end interface MPI_Cart_get
  interface PMPI_Cart_get
    subroutine PMPI_Cart_get(comm, maxdims, dims, periods, coords, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: maxdims
      integer, intent(out) :: dims(*)
      logical, intent(out) :: periods(*)
      integer, intent(out) :: coords(*)
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Cart_get
  end interface PMPI_Cart_get
  interface MPI_Cart_map
    subroutine MPI_Cart_map(comm, ndims, dims, periods, newrank, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: ndims
      integer, intent(in) :: dims(*)
      logical, intent(in) :: periods(*)
      integer, intent(out) :: newrank
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Cart_map
  end interface MPI_Cart_map
  interface PMPI_Cart_map
    subroutine PMPI_Cart_map(comm, ndims, dims, periods, newrank, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: ndims
      integer, intent(in) :: dims(*)
      logical, intent(in) :: periods(*)
      integer, intent(out) :: newrank
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Cart_map
  end interface PMPI_Cart_map
  interface MPI_Cart_rank
    subroutine MPI_Cart_rank(comm, coords, rank, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: coords(*)
      integer, intent(out) :: rank
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Cart_rank
  end interface MPI_Cart_rank
  interface PMPI_Cart_rank
    subroutine PMPI_Cart_rank(comm, coords, rank, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: coords(*)
      integer, intent(out) :: rank
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Cart_rank
  end interface PMPI_Cart_rank
  interface MPI_Cart_shift
    subroutine MPI_Cart_shift(comm, direction, disp, rank_source, rank_dest, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: direction
      integer, intent(in) :: disp
      integer, intent(out) :: rank_source
      integer, intent(out) :: rank_dest
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Cart_shift
  end interface MPI_Cart_shift
  interface PMPI_Cart_shift
    subroutine PMPI_Cart_shift(comm, direction, disp, rank_source, rank_dest, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: direction
      integer, intent(in) :: disp
      integer, intent(out) :: rank_source
      integer, intent(out) :: rank_dest
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Cart_shift
  end interface PMPI_Cart_shift
  interface MPI_Cart_sub
    subroutine MPI_Cart_sub(comm, remain_dims, newcomm, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      logical, intent(in) :: remain_dims(*)
      type(MPI_Comm), intent(out) :: newcomm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Cart_sub
  end interface MPI_Cart_sub
  interface PMPI_Cart_sub
    subroutine PMPI_Cart_sub(comm, remain_dims, newcomm, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      logical, intent(in) :: remain_dims(*)
      type(MPI_Comm), intent(out) :: newcomm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Cart_sub
  end interface PMPI_Cart_sub
  interface MPI_Cartdim_get
    subroutine MPI_Cartdim_get(comm, ndims, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(out) :: ndims
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Cartdim_get
  end interface MPI_Cartdim_get
  interface PMPI_Cartdim_get
    subroutine PMPI_Cartdim_get(comm, ndims, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(out) :: ndims
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Cartdim_get
  end interface PMPI_Cartdim_get
  interface MPI_Close_port
    subroutine MPI_Close_port(port_name, ierror)
      import
      implicit none
      character(len=*), intent(in) :: port_name
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Close_port
  end interface MPI_Close_port
  interface PMPI_Close_port
    subroutine PMPI_Close_port(port_name, ierror)
      import
      implicit none
      character(len=*), intent(in) :: port_name
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Close_port
  end interface PMPI_Close_port
  interface MPI_Comm_accept
    subroutine MPI_Comm_accept(port_name, info, root, comm, newcomm, ierror)
      import
      implicit none
      character(len=*), intent(in) :: port_name
      type(MPI_Info), intent(in) :: info
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Comm), intent(out) :: newcomm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_accept
  end interface MPI_Comm_accept
  interface PMPI_Comm_accept
    subroutine PMPI_Comm_accept(port_name, info, root, comm, newcomm, ierror)
      import
      implicit none
      character(len=*), intent(in) :: port_name
      type(MPI_Info), intent(in) :: info
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Comm), intent(out) :: newcomm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_accept
  end interface PMPI_Comm_accept
  interface MPI_Comm_attach_buffer
    subroutine MPI_Comm_attach_buffer_f08ts(comm, buffer, size, ierror) bind(C, &
        name="MPI_Comm_attach_buffer_f08ts")
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(*), dimension(..), asynchronous :: buffer
      integer, intent(in) :: size
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_attach_buffer_f08ts
  end interface MPI_Comm_attach_buffer
  interface PMPI_Comm_attach_buffer
    subroutine PMPI_Comm_attach_buffer_f08ts(comm, buffer, size, ierror) bind(C, &
        name="PMPI_Comm_attach_buffer_f08ts")
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(*), dimension(..), asynchronous :: buffer
      integer, intent(in) :: size
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_attach_buffer_f08ts
  end interface PMPI_Comm_attach_buffer
  interface MPI_Comm_call_errhandler
    subroutine MPI_Comm_call_errhandler(comm, errorcode, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: errorcode
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_call_errhandler
  end interface MPI_Comm_call_errhandler
  interface PMPI_Comm_call_errhandler
    subroutine PMPI_Comm_call_errhandler(comm, errorcode, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: errorcode
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_call_errhandler
  end interface PMPI_Comm_call_errhandler
  interface MPI_Comm_compare
    subroutine MPI_Comm_compare(comm1, comm2, result, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm1
      type(MPI_Comm), intent(in) :: comm2
      integer, intent(out) :: result
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_compare
  end interface MPI_Comm_compare
  interface PMPI_Comm_compare
    subroutine PMPI_Comm_compare(comm1, comm2, result, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm1
      type(MPI_Comm), intent(in) :: comm2
      integer, intent(out) :: result
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_compare
  end interface PMPI_Comm_compare
  interface MPI_Comm_connect
    subroutine MPI_Comm_connect(port_name, info, root, comm, newcomm, ierror)
      import
      implicit none
      character(len=*), intent(in) :: port_name
      type(MPI_Info), intent(in) :: info
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Comm), intent(out) :: newcomm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_connect
  end interface MPI_Comm_connect
  interface PMPI_Comm_connect
    subroutine PMPI_Comm_connect(port_name, info, root, comm, newcomm, ierror)
      import
      implicit none
      character(len=*), intent(in) :: port_name
      type(MPI_Info), intent(in) :: info
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Comm), intent(out) :: newcomm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_connect
  end interface PMPI_Comm_connect
  interface MPI_Comm_create
    subroutine MPI_Comm_create(comm, group, newcomm, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Group), intent(in) :: group
      type(MPI_Comm), intent(out) :: newcomm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_create
  end interface MPI_Comm_create
  interface PMPI_Comm_create
    subroutine PMPI_Comm_create(comm, group, newcomm, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Group), intent(in) :: group
      type(MPI_Comm), intent(out) :: newcomm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_create
  end interface PMPI_Comm_create
  interface MPI_Comm_create_errhandler
    subroutine MPI_Comm_create_errhandler(comm_errhandler_fn, errhandler, ierror)
      import
      implicit none
      procedure(MPI_Comm_errhandler_function) :: comm_errhandler_fn
      type(MPI_Errhandler), intent(out) :: errhandler
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_create_errhandler
  end interface MPI_Comm_create_errhandler
  interface PMPI_Comm_create_errhandler
    subroutine PMPI_Comm_create_errhandler(comm_errhandler_fn, errhandler, ierror)
      import
      implicit none
      procedure(MPI_Comm_errhandler_function) :: comm_errhandler_fn
      type(MPI_Errhandler), intent(out) :: errhandler
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_create_errhandler
  end interface PMPI_Comm_create_errhandler
  interface MPI_Comm_create_from_group
    subroutine MPI_Comm_create_from_group(group, stringtag, info, errhandler, newcomm, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: group
      character(len=*), intent(in) :: stringtag
      type(MPI_Info), intent(in) :: info
      type(MPI_Errhandler), intent(in) :: errhandler
      type(MPI_Comm), intent(out) :: newcomm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_create_from_group
  end interface MPI_Comm_create_from_group
  interface PMPI_Comm_create_from_group
    subroutine PMPI_Comm_create_from_group(group, stringtag, info, errhandler, newcomm, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: group
      character(len=*), intent(in) :: stringtag
      type(MPI_Info), intent(in) :: info
      type(MPI_Errhandler), intent(in) :: errhandler
      type(MPI_Comm), intent(out) :: newcomm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_create_from_group
  end interface PMPI_Comm_create_from_group
  interface MPI_Comm_create_group
    subroutine MPI_Comm_create_group(comm, group, tag, newcomm, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Group), intent(in) :: group
      integer, intent(in) :: tag
      type(MPI_Comm), intent(out) :: newcomm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_create_group
  end interface MPI_Comm_create_group
  interface PMPI_Comm_create_group
    subroutine PMPI_Comm_create_group(comm, group, tag, newcomm, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Group), intent(in) :: group
      integer, intent(in) :: tag
      type(MPI_Comm), intent(out) :: newcomm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_create_group
  end interface PMPI_Comm_create_group
  interface MPI_Comm_create_keyval
    subroutine MPI_Comm_create_keyval(comm_copy_attr_fn, comm_delete_attr_fn, comm_keyval, &
        extra_state, ierror)
      import
      implicit none
      procedure(MPI_Comm_copy_attr_function) :: comm_copy_attr_fn
      procedure(MPI_Comm_delete_attr_function) :: comm_delete_attr_fn
      integer, intent(out) :: comm_keyval
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: extra_state
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_create_keyval
  end interface MPI_Comm_create_keyval
  interface PMPI_Comm_create_keyval
    subroutine PMPI_Comm_create_keyval(comm_copy_attr_fn, comm_delete_attr_fn, comm_keyval, &
        extra_state, ierror)
      import
      implicit none
      procedure(MPI_Comm_copy_attr_function) :: comm_copy_attr_fn
      procedure(MPI_Comm_delete_attr_function) :: comm_delete_attr_fn
      integer, intent(out) :: comm_keyval
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: extra_state
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_create_keyval
  end interface PMPI_Comm_create_keyval
  interface MPI_Comm_delete_attr
    subroutine MPI_Comm_delete_attr(comm, comm_keyval, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: comm_keyval
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_delete_attr
  end interface MPI_Comm_delete_attr
  interface PMPI_Comm_delete_attr
    subroutine PMPI_Comm_delete_attr(comm, comm_keyval, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: comm_keyval
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_delete_attr
  end interface PMPI_Comm_delete_attr
  interface MPI_Comm_disconnect
    subroutine MPI_Comm_disconnect(comm, ierror)
      import
      implicit none
      type(MPI_Comm), intent(inout) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_disconnect
  end interface MPI_Comm_disconnect
  interface PMPI_Comm_disconnect
    subroutine PMPI_Comm_disconnect(comm, ierror)
      import
      implicit none
      type(MPI_Comm), intent(inout) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_disconnect
  end interface PMPI_Comm_disconnect
  interface MPI_Comm_dup
    subroutine MPI_Comm_dup(comm, newcomm, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Comm), intent(out) :: newcomm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_dup
  end interface MPI_Comm_dup
  interface PMPI_Comm_dup
    subroutine PMPI_Comm_dup(comm, newcomm, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Comm), intent(out) :: newcomm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_dup
  end interface PMPI_Comm_dup
  interface MPI_Comm_dup_with_info
    subroutine MPI_Comm_dup_with_info(comm, info, newcomm, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Comm), intent(out) :: newcomm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_dup_with_info
  end interface MPI_Comm_dup_with_info
  interface PMPI_Comm_dup_with_info
    subroutine PMPI_Comm_dup_with_info(comm, info, newcomm, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Comm), intent(out) :: newcomm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_dup_with_info
  end interface PMPI_Comm_dup_with_info
  interface MPI_Comm_flush_buffer
    subroutine MPI_Comm_flush_buffer(comm, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_flush_buffer
  end interface MPI_Comm_flush_buffer
  interface PMPI_Comm_flush_buffer
    subroutine PMPI_Comm_flush_buffer(comm, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_flush_buffer
  end interface PMPI_Comm_flush_buffer
  interface MPI_Comm_free
    subroutine MPI_Comm_free(comm, ierror)
      import
      implicit none
      type(MPI_Comm), intent(inout) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_free
  end interface MPI_Comm_free
  interface PMPI_Comm_free
    subroutine PMPI_Comm_free(comm, ierror)
      import
      implicit none
      type(MPI_Comm), intent(inout) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_free
  end interface PMPI_Comm_free
  interface MPI_Comm_free_keyval
    subroutine MPI_Comm_free_keyval(comm_keyval, ierror)
      import
      implicit none
      integer, intent(inout) :: comm_keyval
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_free_keyval
  end interface MPI_Comm_free_keyval
  interface PMPI_Comm_free_keyval
    subroutine PMPI_Comm_free_keyval(comm_keyval, ierror)
      import
      implicit none
      integer, intent(inout) :: comm_keyval
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_free_keyval
  end interface PMPI_Comm_free_keyval
  interface MPI_Comm_get_attr
    subroutine MPI_Comm_get_attr(comm, comm_keyval, attribute_val, flag, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: comm_keyval
      integer(kind=MPI_ADDRESS_KIND), intent(out) :: attribute_val
      logical, intent(out) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_get_attr
  end interface MPI_Comm_get_attr
  interface PMPI_Comm_get_attr
    subroutine PMPI_Comm_get_attr(comm, comm_keyval, attribute_val, flag, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: comm_keyval
      integer(kind=MPI_ADDRESS_KIND), intent(out) :: attribute_val
      logical, intent(out) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_get_attr
  end interface PMPI_Comm_get_attr
  interface MPI_Comm_get_errhandler
    subroutine MPI_Comm_get_errhandler(comm, errhandler, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Errhandler), intent(out) :: errhandler
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_get_errhandler
  end interface MPI_Comm_get_errhandler
  interface PMPI_Comm_get_errhandler
    subroutine PMPI_Comm_get_errhandler(comm, errhandler, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Errhandler), intent(out) :: errhandler
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_get_errhandler
  end interface PMPI_Comm_get_errhandler
  interface MPI_Comm_get_info
    subroutine MPI_Comm_get_info(comm, info_used, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(out) :: info_used
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_get_info
  end interface MPI_Comm_get_info
  interface PMPI_Comm_get_info
    subroutine PMPI_Comm_get_info(comm, info_used, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(out) :: info_used
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_get_info
  end interface PMPI_Comm_get_info
  interface MPI_Comm_get_name
    subroutine MPI_Comm_get_name(comm, comm_name, resultlen, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      character(len=*), intent(out) :: comm_name
      integer, intent(out) :: resultlen
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_get_name
  end interface MPI_Comm_get_name
  interface PMPI_Comm_get_name
    subroutine PMPI_Comm_get_name(comm, comm_name, resultlen, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      character(len=*), intent(out) :: comm_name
      integer, intent(out) :: resultlen
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_get_name
  end interface PMPI_Comm_get_name
  interface MPI_Comm_get_parent
    subroutine MPI_Comm_get_parent(parent, ierror)
      import
      implicit none
      type(MPI_Comm), intent(out) :: parent
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_get_parent
  end interface MPI_Comm_get_parent
  interface PMPI_Comm_get_parent
    subroutine PMPI_Comm_get_parent(parent, ierror)
      import
      implicit none
      type(MPI_Comm), intent(out) :: parent
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_get_parent
  end interface PMPI_Comm_get_parent
  interface MPI_Comm_group
    subroutine MPI_Comm_group(comm, group, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Group), intent(out) :: group
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_group
  end interface MPI_Comm_group
  interface PMPI_Comm_group
    subroutine PMPI_Comm_group(comm, group, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Group), intent(out) :: group
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_group
  end interface PMPI_Comm_group
  interface MPI_Comm_idup
    subroutine MPI_Comm_idup(comm, newcomm, request, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Comm), intent(out), asynchronous :: newcomm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_idup
  end interface MPI_Comm_idup
  interface PMPI_Comm_idup
    subroutine PMPI_Comm_idup(comm, newcomm, request, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Comm), intent(out), asynchronous :: newcomm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_idup
  end interface PMPI_Comm_idup
  interface MPI_Comm_idup_with_info
    subroutine MPI_Comm_idup_with_info(comm, info, newcomm, request, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Comm), intent(out), asynchronous :: newcomm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_idup_with_info
  end interface MPI_Comm_idup_with_info
  interface PMPI_Comm_idup_with_info
    subroutine PMPI_Comm_idup_with_info(comm, info, newcomm, request, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Comm), intent(out), asynchronous :: newcomm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_idup_with_info
  end interface PMPI_Comm_idup_with_info
  interface MPI_Comm_iflush_buffer
    subroutine MPI_Comm_iflush_buffer(comm, request, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_iflush_buffer
  end interface MPI_Comm_iflush_buffer
  interface PMPI_Comm_iflush_buffer
    subroutine PMPI_Comm_iflush_buffer(comm, request, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_iflush_buffer
  end interface PMPI_Comm_iflush_buffer
  interface MPI_Comm_join
    subroutine MPI_Comm_join(fd, intercomm, ierror)
      import
      implicit none
      integer, intent(in) :: fd
      type(MPI_Comm), intent(out) :: intercomm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_join
  end interface MPI_Comm_join
  interface PMPI_Comm_join
    subroutine PMPI_Comm_join(fd, intercomm, ierror)
      import
      implicit none
      integer, intent(in) :: fd
      type(MPI_Comm), intent(out) :: intercomm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_join
  end interface PMPI_Comm_join
  interface MPI_Comm_rank
    subroutine MPI_Comm_rank(comm, rank, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(out) :: rank
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_rank
  end interface MPI_Comm_rank
  interface PMPI_Comm_rank
    subroutine PMPI_Comm_rank(comm, rank, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(out) :: rank
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_rank
  end interface PMPI_Comm_rank
  interface MPI_Comm_remote_group
    subroutine MPI_Comm_remote_group(comm, group, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Group), intent(out) :: group
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_remote_group
  end interface MPI_Comm_remote_group
  interface PMPI_Comm_remote_group
    subroutine PMPI_Comm_remote_group(comm, group, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Group), intent(out) :: group
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_remote_group
  end interface PMPI_Comm_remote_group
  interface MPI_Comm_remote_size
    subroutine MPI_Comm_remote_size(comm, size, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(out) :: size
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_remote_size
  end interface MPI_Comm_remote_size
  interface PMPI_Comm_remote_size
    subroutine PMPI_Comm_remote_size(comm, size, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(out) :: size
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_remote_size
  end interface PMPI_Comm_remote_size
  interface MPI_Comm_set_attr
    subroutine MPI_Comm_set_attr(comm, comm_keyval, attribute_val, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: comm_keyval
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: attribute_val
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_set_attr
  end interface MPI_Comm_set_attr
  interface PMPI_Comm_set_attr
    subroutine PMPI_Comm_set_attr(comm, comm_keyval, attribute_val, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: comm_keyval
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: attribute_val
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_set_attr
  end interface PMPI_Comm_set_attr
  interface MPI_Comm_set_errhandler
    subroutine MPI_Comm_set_errhandler(comm, errhandler, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Errhandler), intent(in) :: errhandler
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_set_errhandler
  end interface MPI_Comm_set_errhandler
  interface PMPI_Comm_set_errhandler
    subroutine PMPI_Comm_set_errhandler(comm, errhandler, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Errhandler), intent(in) :: errhandler
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_set_errhandler
  end interface PMPI_Comm_set_errhandler
  interface MPI_Comm_set_info
    subroutine MPI_Comm_set_info(comm, info, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_set_info
  end interface MPI_Comm_set_info
  interface PMPI_Comm_set_info
    subroutine PMPI_Comm_set_info(comm, info, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_set_info
  end interface PMPI_Comm_set_info
  interface MPI_Comm_set_name
    subroutine MPI_Comm_set_name(comm, comm_name, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      character(len=*), intent(in) :: comm_name
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_set_name
  end interface MPI_Comm_set_name
  interface PMPI_Comm_set_name
    subroutine PMPI_Comm_set_name(comm, comm_name, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      character(len=*), intent(in) :: comm_name
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_set_name
  end interface PMPI_Comm_set_name
  interface MPI_Comm_size
    subroutine MPI_Comm_size(comm, size, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(out) :: size
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_size
  end interface MPI_Comm_size
  interface PMPI_Comm_size
    subroutine PMPI_Comm_size(comm, size, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(out) :: size
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_size
  end interface PMPI_Comm_size
  interface MPI_Comm_split
    subroutine MPI_Comm_split(comm, color, key, newcomm, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: color
      integer, intent(in) :: key
      type(MPI_Comm), intent(out) :: newcomm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_split
  end interface MPI_Comm_split
  interface PMPI_Comm_split
    subroutine PMPI_Comm_split(comm, color, key, newcomm, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: color
      integer, intent(in) :: key
      type(MPI_Comm), intent(out) :: newcomm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_split
  end interface PMPI_Comm_split
  interface MPI_Comm_split_type
    subroutine MPI_Comm_split_type(comm, split_type, key, info, newcomm, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: split_type
      integer, intent(in) :: key
      type(MPI_Info), intent(in) :: info
      type(MPI_Comm), intent(out) :: newcomm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_split_type
  end interface MPI_Comm_split_type
  interface PMPI_Comm_split_type
    subroutine PMPI_Comm_split_type(comm, split_type, key, info, newcomm, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: split_type
      integer, intent(in) :: key
      type(MPI_Info), intent(in) :: info
      type(MPI_Comm), intent(out) :: newcomm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_split_type
  end interface PMPI_Comm_split_type
  interface MPI_Comm_test_inter
    subroutine MPI_Comm_test_inter(comm, flag, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      logical, intent(out) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Comm_test_inter
  end interface MPI_Comm_test_inter
  interface PMPI_Comm_test_inter
    subroutine PMPI_Comm_test_inter(comm, flag, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      logical, intent(out) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Comm_test_inter
  end interface PMPI_Comm_test_inter
  interface MPI_Compare_and_swap
    subroutine MPI_Compare_and_swap_f08ts(origin_addr, compare_addr, result_addr, datatype, &
        target_rank, target_disp, win, ierror) bind(C, name="MPI_Compare_and_swap_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: origin_addr
      type(*), dimension(..), intent(in), asynchronous :: compare_addr
      type(*), dimension(..), asynchronous :: result_addr
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: target_rank
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Compare_and_swap_f08ts
  end interface MPI_Compare_and_swap
  interface PMPI_Compare_and_swap
    subroutine PMPI_Compare_and_swap_f08ts(origin_addr, compare_addr, result_addr, datatype, &
        target_rank, target_disp, win, ierror) bind(C, name="PMPI_Compare_and_swap_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: origin_addr
      type(*), dimension(..), intent(in), asynchronous :: compare_addr
      type(*), dimension(..), asynchronous :: result_addr
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: target_rank
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Compare_and_swap_f08ts
  end interface PMPI_Compare_and_swap
  interface MPI_Dims_create
    subroutine MPI_Dims_create(nnodes, ndims, dims, ierror)
      import
      implicit none
      integer, intent(in) :: nnodes
      integer, intent(in) :: ndims
      integer, intent(inout) :: dims(*)
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Dims_create
  end interface MPI_Dims_create
  interface PMPI_Dims_create
    subroutine PMPI_Dims_create(nnodes, ndims, dims, ierror)
      import
      implicit none
      integer, intent(in) :: nnodes
      integer, intent(in) :: ndims
      integer, intent(inout) :: dims(*)
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Dims_create
  end interface PMPI_Dims_create
  interface MPI_Dist_graph_create
    subroutine MPI_Dist_graph_create(comm_old, n, sources, degrees, destinations, weights, &
        info, reorder, comm_dist_graph, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm_old
      integer, intent(in) :: n
      integer, intent(in) :: sources(*)
      integer, intent(in) :: degrees(*)
      integer, intent(in) :: destinations(*)
      integer, intent(in) :: weights(*)
      type(MPI_Info), intent(in) :: info
      logical, intent(in) :: reorder
      type(MPI_Comm), intent(out) :: comm_dist_graph
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Dist_graph_create
  end interface MPI_Dist_graph_create
  interface PMPI_Dist_graph_create
    subroutine PMPI_Dist_graph_create(comm_old, n, sources, degrees, destinations, weights, &
        info, reorder, comm_dist_graph, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm_old
      integer, intent(in) :: n
      integer, intent(in) :: sources(*)
      integer, intent(in) :: degrees(*)
      integer, intent(in) :: destinations(*)
      integer, intent(in) :: weights(*)
      type(MPI_Info), intent(in) :: info
      logical, intent(in) :: reorder
      type(MPI_Comm), intent(out) :: comm_dist_graph
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Dist_graph_create
  end interface PMPI_Dist_graph_create
  interface MPI_Dist_graph_create_adjacent
    subroutine MPI_Dist_graph_create_adjacent(comm_old, indegree, sources, sourceweights, &
        outdegree, destinations, destweights, info, reorder, comm_dist_graph, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm_old
      integer, intent(in) :: indegree
      integer, intent(in) :: sources(*)
      integer, intent(in) :: sourceweights(*)
      integer, intent(in) :: outdegree
      integer, intent(in) :: destinations(*)
      integer, intent(in) :: destweights(*)
      type(MPI_Info), intent(in) :: info
      logical, intent(in) :: reorder
      type(MPI_Comm), intent(out) :: comm_dist_graph
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Dist_graph_create_adjacent
  end interface MPI_Dist_graph_create_adjacent
  interface PMPI_Dist_graph_create_adjacent
    subroutine PMPI_Dist_graph_create_adjacent(comm_old, indegree, sources, sourceweights, &
        outdegree, destinations, destweights, info, reorder, comm_dist_graph, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm_old
      integer, intent(in) :: indegree
      integer, intent(in) :: sources(*)
      integer, intent(in) :: sourceweights(*)
      integer, intent(in) :: outdegree
      integer, intent(in) :: destinations(*)
      integer, intent(in) :: destweights(*)
      type(MPI_Info), intent(in) :: info
      logical, intent(in) :: reorder
      type(MPI_Comm), intent(out) :: comm_dist_graph
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Dist_graph_create_adjacent
  end interface PMPI_Dist_graph_create_adjacent
  interface MPI_Dist_graph_neighbors
    subroutine MPI_Dist_graph_neighbors(comm, maxindegree, sources, sourceweights, &
        maxoutdegree, destinations, destweights, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: maxindegree
      integer, intent(out) :: sources(*)
      integer :: sourceweights(*)
      integer, intent(in) :: maxoutdegree
      integer, intent(out) :: destinations(*)
      integer :: destweights(*)
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Dist_graph_neighbors
  end interface MPI_Dist_graph_neighbors
  interface PMPI_Dist_graph_neighbors
    subroutine PMPI_Dist_graph_neighbors(comm, maxindegree, sources, sourceweights, &
        maxoutdegree, destinations, destweights, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: maxindegree
      integer, intent(out) :: sources(*)
      integer :: sourceweights(*)
      integer, intent(in) :: maxoutdegree
      integer, intent(out) :: destinations(*)
      integer :: destweights(*)
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Dist_graph_neighbors
  end interface PMPI_Dist_graph_neighbors
  interface MPI_Dist_graph_neighbors_count
    subroutine MPI_Dist_graph_neighbors_count(comm, indegree, outdegree, weighted, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(out) :: indegree
      integer, intent(out) :: outdegree
      logical, intent(out) :: weighted
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Dist_graph_neighbors_count
  end interface MPI_Dist_graph_neighbors_count
  interface PMPI_Dist_graph_neighbors_count
    subroutine PMPI_Dist_graph_neighbors_count(comm, indegree, outdegree, weighted, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(out) :: indegree
      integer, intent(out) :: outdegree
      logical, intent(out) :: weighted
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Dist_graph_neighbors_count
  end interface PMPI_Dist_graph_neighbors_count
  interface MPI_Errhandler_free
    subroutine MPI_Errhandler_free(errhandler, ierror)
      import
      implicit none
      type(MPI_Errhandler), intent(inout) :: errhandler
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Errhandler_free
  end interface MPI_Errhandler_free
  interface PMPI_Errhandler_free
    subroutine PMPI_Errhandler_free(errhandler, ierror)
      import
      implicit none
      type(MPI_Errhandler), intent(inout) :: errhandler
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Errhandler_free
  end interface PMPI_Errhandler_free
  interface MPI_Error_class
    subroutine MPI_Error_class(errorcode, errorclass, ierror)
      import
      implicit none
      integer, intent(in) :: errorcode
      integer, intent(out) :: errorclass
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Error_class
  end interface MPI_Error_class
  interface PMPI_Error_class
    subroutine PMPI_Error_class(errorcode, errorclass, ierror)
      import
      implicit none
      integer, intent(in) :: errorcode
      integer, intent(out) :: errorclass
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Error_class
  end interface PMPI_Error_class
  interface MPI_Error_string
    subroutine MPI_Error_string(errorcode, string, resultlen, ierror)
      import
      implicit none
      integer, intent(in) :: errorcode
      character(len=*), intent(out) :: string
      integer, intent(out) :: resultlen
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Error_string
  end interface MPI_Error_string
  interface PMPI_Error_string
    subroutine PMPI_Error_string(errorcode, string, resultlen, ierror)
      import
      implicit none
      integer, intent(in) :: errorcode
      character(len=*), intent(out) :: string
      integer, intent(out) :: resultlen
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Error_string
  end interface PMPI_Error_string
  interface MPI_Exscan
    subroutine MPI_Exscan_f08ts(sendbuf, recvbuf, count, datatype, op, comm, ierror) bind(C, &
        name="MPI_Exscan_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Exscan_f08ts
  end interface MPI_Exscan
  interface PMPI_Exscan
    subroutine PMPI_Exscan_f08ts(sendbuf, recvbuf, count, datatype, op, comm, ierror) bind(C, &
        name="PMPI_Exscan_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Exscan_f08ts
  end interface PMPI_Exscan
  interface MPI_Exscan_init
    subroutine MPI_Exscan_init_f08ts(sendbuf, recvbuf, count, datatype, op, comm, info, &
        request, ierror) bind(C, name="MPI_Exscan_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Exscan_init_f08ts
  end interface MPI_Exscan_init
  interface PMPI_Exscan_init
    subroutine PMPI_Exscan_init_f08ts(sendbuf, recvbuf, count, datatype, op, comm, info, &
        request, ierror) bind(C, name="PMPI_Exscan_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Exscan_init_f08ts
  end interface PMPI_Exscan_init
  interface MPI_Fetch_and_op
    subroutine MPI_Fetch_and_op_f08ts(origin_addr, result_addr, datatype, target_rank, &
        target_disp, op, win, ierror) bind(C, name="MPI_Fetch_and_op_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: origin_addr
      type(*), dimension(..), asynchronous :: result_addr
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: target_rank
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
      type(MPI_Op), intent(in) :: op
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Fetch_and_op_f08ts
  end interface MPI_Fetch_and_op
  interface PMPI_Fetch_and_op
    subroutine PMPI_Fetch_and_op_f08ts(origin_addr, result_addr, datatype, target_rank, &
        target_disp, op, win, ierror) bind(C, name="PMPI_Fetch_and_op_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: origin_addr
      type(*), dimension(..), asynchronous :: result_addr
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: target_rank
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
      type(MPI_Op), intent(in) :: op
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Fetch_and_op_f08ts
  end interface PMPI_Fetch_and_op
  interface MPI_File_call_errhandler
    subroutine MPI_File_call_errhandler(fh, errorcode, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer, intent(in) :: errorcode
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_call_errhandler
  end interface MPI_File_call_errhandler
  interface PMPI_File_call_errhandler
    subroutine PMPI_File_call_errhandler(fh, errorcode, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer, intent(in) :: errorcode
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_call_errhandler
  end interface PMPI_File_call_errhandler
  interface MPI_File_close
    subroutine MPI_File_close(fh, ierror)
      import
      implicit none
      type(MPI_File), intent(inout) :: fh
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_close
  end interface MPI_File_close
  interface PMPI_File_close
    subroutine PMPI_File_close(fh, ierror)
      import
      implicit none
      type(MPI_File), intent(inout) :: fh
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_close
  end interface PMPI_File_close
  interface MPI_File_create_errhandler
    subroutine MPI_File_create_errhandler(file_errhandler_fn, errhandler, ierror)
      import
      implicit none
      procedure(MPI_File_errhandler_function) :: file_errhandler_fn
      type(MPI_Errhandler), intent(out) :: errhandler
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_create_errhandler
  end interface MPI_File_create_errhandler
  interface PMPI_File_create_errhandler
    subroutine PMPI_File_create_errhandler(file_errhandler_fn, errhandler, ierror)
      import
      implicit none
      procedure(MPI_File_errhandler_function) :: file_errhandler_fn
      type(MPI_Errhandler), intent(out) :: errhandler
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_create_errhandler
  end interface PMPI_File_create_errhandler
  interface MPI_File_delete
    subroutine MPI_File_delete(filename, info, ierror)
      import
      implicit none
      character(len=*), intent(in) :: filename
      type(MPI_Info), intent(in) :: info
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_delete
  end interface MPI_File_delete
  interface PMPI_File_delete
    subroutine PMPI_File_delete(filename, info, ierror)
      import
      implicit none
      character(len=*), intent(in) :: filename
      type(MPI_Info), intent(in) :: info
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_delete
  end interface PMPI_File_delete
  interface MPI_File_get_amode
    subroutine MPI_File_get_amode(fh, amode, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer, intent(out) :: amode
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_get_amode
  end interface MPI_File_get_amode
  interface PMPI_File_get_amode
    subroutine PMPI_File_get_amode(fh, amode, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer, intent(out) :: amode
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_get_amode
  end interface PMPI_File_get_amode
  interface MPI_File_get_atomicity
    subroutine MPI_File_get_atomicity(fh, flag, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      logical, intent(out) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_get_atomicity
  end interface MPI_File_get_atomicity
  interface PMPI_File_get_atomicity
    subroutine PMPI_File_get_atomicity(fh, flag, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      logical, intent(out) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_get_atomicity
  end interface PMPI_File_get_atomicity
  interface MPI_File_get_byte_offset
    subroutine MPI_File_get_byte_offset(fh, offset, disp, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: offset
      integer(kind=MPI_OFFSET_KIND), intent(out) :: disp
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_get_byte_offset
  end interface MPI_File_get_byte_offset
  interface PMPI_File_get_byte_offset
    subroutine PMPI_File_get_byte_offset(fh, offset, disp, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: offset
      integer(kind=MPI_OFFSET_KIND), intent(out) :: disp
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_get_byte_offset
  end interface PMPI_File_get_byte_offset
  interface MPI_File_get_errhandler
    subroutine MPI_File_get_errhandler(file, errhandler, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: file
      type(MPI_Errhandler), intent(out) :: errhandler
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_get_errhandler
  end interface MPI_File_get_errhandler
  interface PMPI_File_get_errhandler
    subroutine PMPI_File_get_errhandler(file, errhandler, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: file
      type(MPI_Errhandler), intent(out) :: errhandler
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_get_errhandler
  end interface PMPI_File_get_errhandler
  interface MPI_File_get_group
    subroutine MPI_File_get_group(fh, group, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(MPI_Group), intent(out) :: group
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_get_group
  end interface MPI_File_get_group
  interface PMPI_File_get_group
    subroutine PMPI_File_get_group(fh, group, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(MPI_Group), intent(out) :: group
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_get_group
  end interface PMPI_File_get_group
  interface MPI_File_get_info
    subroutine MPI_File_get_info(fh, info_used, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(MPI_Info), intent(out) :: info_used
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_get_info
  end interface MPI_File_get_info
  interface PMPI_File_get_info
    subroutine PMPI_File_get_info(fh, info_used, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(MPI_Info), intent(out) :: info_used
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_get_info
  end interface PMPI_File_get_info
  interface MPI_File_get_position
    subroutine MPI_File_get_position(fh, offset, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(out) :: offset
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_get_position
  end interface MPI_File_get_position
  interface PMPI_File_get_position
    subroutine PMPI_File_get_position(fh, offset, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(out) :: offset
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_get_position
  end interface PMPI_File_get_position
  interface MPI_File_get_position_shared
    subroutine MPI_File_get_position_shared(fh, offset, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(out) :: offset
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_get_position_shared
  end interface MPI_File_get_position_shared
  interface PMPI_File_get_position_shared
    subroutine PMPI_File_get_position_shared(fh, offset, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(out) :: offset
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_get_position_shared
  end interface PMPI_File_get_position_shared
  interface MPI_File_get_size
    subroutine MPI_File_get_size(fh, size, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(out) :: size
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_get_size
  end interface MPI_File_get_size
  interface PMPI_File_get_size
    subroutine PMPI_File_get_size(fh, size, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(out) :: size
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_get_size
  end interface PMPI_File_get_size
  interface MPI_File_get_type_extent
    subroutine MPI_File_get_type_extent(fh, datatype, extent, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(MPI_Datatype), intent(in) :: datatype
      integer(kind=MPI_ADDRESS_KIND), intent(out) :: extent
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_get_type_extent
  end interface MPI_File_get_type_extent
  interface PMPI_File_get_type_extent
    subroutine PMPI_File_get_type_extent(fh, datatype, extent, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(MPI_Datatype), intent(in) :: datatype
      integer(kind=MPI_ADDRESS_KIND), intent(out) :: extent
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_get_type_extent
  end interface PMPI_File_get_type_extent
  interface MPI_File_get_view
    subroutine MPI_File_get_view(fh, disp, etype, filetype, datarep, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(out) :: disp
      type(MPI_Datatype), intent(out) :: etype
      type(MPI_Datatype), intent(out) :: filetype
      character(len=*), intent(out) :: datarep
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_get_view
  end interface MPI_File_get_view
  interface PMPI_File_get_view
    subroutine PMPI_File_get_view(fh, disp, etype, filetype, datarep, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(out) :: disp
      type(MPI_Datatype), intent(out) :: etype
      type(MPI_Datatype), intent(out) :: filetype
      character(len=*), intent(out) :: datarep
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_get_view
  end interface PMPI_File_get_view
  interface MPI_File_iread
    subroutine MPI_File_iread_f08ts(fh, buf, count, datatype, request, ierror) bind(C, &
        name="MPI_File_iread_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_iread_f08ts
  end interface MPI_File_iread
  interface PMPI_File_iread
    subroutine PMPI_File_iread_f08ts(fh, buf, count, datatype, request, ierror) bind(C, &
        name="PMPI_File_iread_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_iread_f08ts
  end interface PMPI_File_iread
  interface MPI_File_iread_all
    subroutine MPI_File_iread_all_f08ts(fh, buf, count, datatype, request, ierror) bind(C, &
        name="MPI_File_iread_all_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_iread_all_f08ts
  end interface MPI_File_iread_all
  interface PMPI_File_iread_all
    subroutine PMPI_File_iread_all_f08ts(fh, buf, count, datatype, request, ierror) bind(C, &
        name="PMPI_File_iread_all_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_iread_all_f08ts
  end interface PMPI_File_iread_all
  interface MPI_File_iread_at
    subroutine MPI_File_iread_at_f08ts(fh, offset, buf, count, datatype, request, &
        ierror) bind(C, name="MPI_File_iread_at_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: offset
      type(*), dimension(..), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_iread_at_f08ts
  end interface MPI_File_iread_at
  interface PMPI_File_iread_at
    subroutine PMPI_File_iread_at_f08ts(fh, offset, buf, count, datatype, request, &
        ierror) bind(C, name="PMPI_File_iread_at_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: offset
      type(*), dimension(..), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_iread_at_f08ts
  end interface PMPI_File_iread_at
  interface MPI_File_iread_at_all
    subroutine MPI_File_iread_at_all_f08ts(fh, offset, buf, count, datatype, request, &
        ierror) bind(C, name="MPI_File_iread_at_all_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: offset
      type(*), dimension(..), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_iread_at_all_f08ts
  end interface MPI_File_iread_at_all
  interface PMPI_File_iread_at_all
    subroutine PMPI_File_iread_at_all_f08ts(fh, offset, buf, count, datatype, request, &
        ierror) bind(C, name="PMPI_File_iread_at_all_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: offset
      type(*), dimension(..), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_iread_at_all_f08ts
  end interface PMPI_File_iread_at_all
  interface MPI_File_iread_shared
    subroutine MPI_File_iread_shared_f08ts(fh, buf, count, datatype, request, ierror) bind(C, &
        name="MPI_File_iread_shared_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_iread_shared_f08ts
  end interface MPI_File_iread_shared
  interface PMPI_File_iread_shared
    subroutine PMPI_File_iread_shared_f08ts(fh, buf, count, datatype, request, ierror) bind(C, &
        name="PMPI_File_iread_shared_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_iread_shared_f08ts
  end interface PMPI_File_iread_shared
  interface MPI_File_iwrite
    subroutine MPI_File_iwrite_f08ts(fh, buf, count, datatype, request, ierror) bind(C, &
        name="MPI_File_iwrite_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_iwrite_f08ts
  end interface MPI_File_iwrite
  interface PMPI_File_iwrite
    subroutine PMPI_File_iwrite_f08ts(fh, buf, count, datatype, request, ierror) bind(C, &
        name="PMPI_File_iwrite_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_iwrite_f08ts
  end interface PMPI_File_iwrite
  interface MPI_File_iwrite_all
    subroutine MPI_File_iwrite_all_f08ts(fh, buf, count, datatype, request, ierror) bind(C, &
        name="MPI_File_iwrite_all_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_iwrite_all_f08ts
  end interface MPI_File_iwrite_all
  interface PMPI_File_iwrite_all
    subroutine PMPI_File_iwrite_all_f08ts(fh, buf, count, datatype, request, ierror) bind(C, &
        name="PMPI_File_iwrite_all_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_iwrite_all_f08ts
  end interface PMPI_File_iwrite_all
  interface MPI_File_iwrite_at
    subroutine MPI_File_iwrite_at_f08ts(fh, offset, buf, count, datatype, request, &
        ierror) bind(C, name="MPI_File_iwrite_at_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: offset
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_iwrite_at_f08ts
  end interface MPI_File_iwrite_at
  interface PMPI_File_iwrite_at
    subroutine PMPI_File_iwrite_at_f08ts(fh, offset, buf, count, datatype, request, &
        ierror) bind(C, name="PMPI_File_iwrite_at_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: offset
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_iwrite_at_f08ts
  end interface PMPI_File_iwrite_at
  interface MPI_File_iwrite_at_all
    subroutine MPI_File_iwrite_at_all_f08ts(fh, offset, buf, count, datatype, request, &
        ierror) bind(C, name="MPI_File_iwrite_at_all_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: offset
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_iwrite_at_all_f08ts
  end interface MPI_File_iwrite_at_all
  interface PMPI_File_iwrite_at_all
    subroutine PMPI_File_iwrite_at_all_f08ts(fh, offset, buf, count, datatype, request, &
        ierror) bind(C, name="PMPI_File_iwrite_at_all_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: offset
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_iwrite_at_all_f08ts
  end interface PMPI_File_iwrite_at_all
  interface MPI_File_iwrite_shared
    subroutine MPI_File_iwrite_shared_f08ts(fh, buf, count, datatype, request, ierror) bind(C, &
        name="MPI_File_iwrite_shared_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_iwrite_shared_f08ts
  end interface MPI_File_iwrite_shared
  interface PMPI_File_iwrite_shared
    subroutine PMPI_File_iwrite_shared_f08ts(fh, buf, count, datatype, request, ierror) bind(C, &
        name="PMPI_File_iwrite_shared_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_iwrite_shared_f08ts
  end interface PMPI_File_iwrite_shared
  interface MPI_File_open
    subroutine MPI_File_open(comm, filename, amode, info, fh, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      character(len=*), intent(in) :: filename
      integer, intent(in) :: amode
      type(MPI_Info), intent(in) :: info
      type(MPI_File), intent(out) :: fh
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_open
  end interface MPI_File_open
  interface PMPI_File_open
    subroutine PMPI_File_open(comm, filename, amode, info, fh, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      character(len=*), intent(in) :: filename
      integer, intent(in) :: amode
      type(MPI_Info), intent(in) :: info
      type(MPI_File), intent(out) :: fh
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_open
  end interface PMPI_File_open
  interface MPI_File_preallocate
    subroutine MPI_File_preallocate(fh, size, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: size
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_preallocate
  end interface MPI_File_preallocate
  interface PMPI_File_preallocate
    subroutine PMPI_File_preallocate(fh, size, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: size
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_preallocate
  end interface PMPI_File_preallocate
  interface MPI_File_read
    subroutine MPI_File_read_f08ts(fh, buf, count, datatype, status, ierror) bind(C, &
        name="MPI_File_read_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_read_f08ts
  end interface MPI_File_read
  interface PMPI_File_read
    subroutine PMPI_File_read_f08ts(fh, buf, count, datatype, status, ierror) bind(C, &
        name="PMPI_File_read_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_read_f08ts
  end interface PMPI_File_read
  interface MPI_File_read_all
    subroutine MPI_File_read_all_f08ts(fh, buf, count, datatype, status, ierror) bind(C, &
        name="MPI_File_read_all_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_read_all_f08ts
  end interface MPI_File_read_all
  interface PMPI_File_read_all
    subroutine PMPI_File_read_all_f08ts(fh, buf, count, datatype, status, ierror) bind(C, &
        name="PMPI_File_read_all_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_read_all_f08ts
  end interface PMPI_File_read_all
  interface MPI_File_read_all_begin
    subroutine MPI_File_read_all_begin_f08ts(fh, buf, count, datatype, ierror) bind(C, &
        name="MPI_File_read_all_begin_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_read_all_begin_f08ts
  end interface MPI_File_read_all_begin
  interface PMPI_File_read_all_begin
    subroutine PMPI_File_read_all_begin_f08ts(fh, buf, count, datatype, ierror) bind(C, &
        name="PMPI_File_read_all_begin_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_read_all_begin_f08ts
  end interface PMPI_File_read_all_begin
  interface MPI_File_read_all_end
    subroutine MPI_File_read_all_end_f08ts(fh, buf, status, ierror) bind(C, &
        name="MPI_File_read_all_end_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), asynchronous :: buf
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_read_all_end_f08ts
  end interface MPI_File_read_all_end
  interface PMPI_File_read_all_end
    subroutine PMPI_File_read_all_end_f08ts(fh, buf, status, ierror) bind(C, &
        name="PMPI_File_read_all_end_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), asynchronous :: buf
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_read_all_end_f08ts
  end interface PMPI_File_read_all_end
  interface MPI_File_read_at
    subroutine MPI_File_read_at_f08ts(fh, offset, buf, count, datatype, status, ierror) bind(C, &
        name="MPI_File_read_at_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: offset
      type(*), dimension(..) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_read_at_f08ts
  end interface MPI_File_read_at
  interface PMPI_File_read_at
    subroutine PMPI_File_read_at_f08ts(fh, offset, buf, count, datatype, status, &
        ierror) bind(C, name="PMPI_File_read_at_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: offset
      type(*), dimension(..) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_read_at_f08ts
  end interface PMPI_File_read_at
  interface MPI_File_read_at_all
    subroutine MPI_File_read_at_all_f08ts(fh, offset, buf, count, datatype, status, &
        ierror) bind(C, name="MPI_File_read_at_all_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: offset
      type(*), dimension(..) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_read_at_all_f08ts
  end interface MPI_File_read_at_all
  interface PMPI_File_read_at_all
    subroutine PMPI_File_read_at_all_f08ts(fh, offset, buf, count, datatype, status, &
        ierror) bind(C, name="PMPI_File_read_at_all_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: offset
      type(*), dimension(..) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_read_at_all_f08ts
  end interface PMPI_File_read_at_all
  interface MPI_File_read_at_all_begin
    subroutine MPI_File_read_at_all_begin_f08ts(fh, offset, buf, count, datatype, &
        ierror) bind(C, name="MPI_File_read_at_all_begin_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: offset
      type(*), dimension(..), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_read_at_all_begin_f08ts
  end interface MPI_File_read_at_all_begin
  interface PMPI_File_read_at_all_begin
    subroutine PMPI_File_read_at_all_begin_f08ts(fh, offset, buf, count, datatype, &
        ierror) bind(C, name="PMPI_File_read_at_all_begin_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: offset
      type(*), dimension(..), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_read_at_all_begin_f08ts
  end interface PMPI_File_read_at_all_begin
  interface MPI_File_read_at_all_end
    subroutine MPI_File_read_at_all_end_f08ts(fh, buf, status, ierror) bind(C, &
        name="MPI_File_read_at_all_end_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), asynchronous :: buf
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_read_at_all_end_f08ts
  end interface MPI_File_read_at_all_end
  interface PMPI_File_read_at_all_end
    subroutine PMPI_File_read_at_all_end_f08ts(fh, buf, status, ierror) bind(C, &
        name="PMPI_File_read_at_all_end_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), asynchronous :: buf
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_read_at_all_end_f08ts
  end interface PMPI_File_read_at_all_end
  interface MPI_File_read_ordered
    subroutine MPI_File_read_ordered_f08ts(fh, buf, count, datatype, status, ierror) bind(C, &
        name="MPI_File_read_ordered_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_read_ordered_f08ts
  end interface MPI_File_read_ordered
  interface PMPI_File_read_ordered
    subroutine PMPI_File_read_ordered_f08ts(fh, buf, count, datatype, status, ierror) bind(C, &
        name="PMPI_File_read_ordered_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_read_ordered_f08ts
  end interface PMPI_File_read_ordered
  interface MPI_File_read_ordered_begin
    subroutine MPI_File_read_ordered_begin_f08ts(fh, buf, count, datatype, ierror) bind(C, &
        name="MPI_File_read_ordered_begin_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_read_ordered_begin_f08ts
  end interface MPI_File_read_ordered_begin
  interface PMPI_File_read_ordered_begin
    subroutine PMPI_File_read_ordered_begin_f08ts(fh, buf, count, datatype, ierror) bind(C, &
        name="PMPI_File_read_ordered_begin_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_read_ordered_begin_f08ts
  end interface PMPI_File_read_ordered_begin
  interface MPI_File_read_ordered_end
    subroutine MPI_File_read_ordered_end_f08ts(fh, buf, status, ierror) bind(C, &
        name="MPI_File_read_ordered_end_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), asynchronous :: buf
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_read_ordered_end_f08ts
  end interface MPI_File_read_ordered_end
  interface PMPI_File_read_ordered_end
    subroutine PMPI_File_read_ordered_end_f08ts(fh, buf, status, ierror) bind(C, &
        name="PMPI_File_read_ordered_end_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), asynchronous :: buf
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_read_ordered_end_f08ts
  end interface PMPI_File_read_ordered_end
  interface MPI_File_read_shared
    subroutine MPI_File_read_shared_f08ts(fh, buf, count, datatype, status, ierror) bind(C, &
        name="MPI_File_read_shared_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_read_shared_f08ts
  end interface MPI_File_read_shared
  interface PMPI_File_read_shared
    subroutine PMPI_File_read_shared_f08ts(fh, buf, count, datatype, status, ierror) bind(C, &
        name="PMPI_File_read_shared_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_read_shared_f08ts
  end interface PMPI_File_read_shared
  interface MPI_File_seek
    subroutine MPI_File_seek(fh, offset, whence, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: offset
      integer, intent(in) :: whence
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_seek
  end interface MPI_File_seek
  interface PMPI_File_seek
    subroutine PMPI_File_seek(fh, offset, whence, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: offset
      integer, intent(in) :: whence
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_seek
  end interface PMPI_File_seek
  interface MPI_File_seek_shared
    subroutine MPI_File_seek_shared(fh, offset, whence, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: offset
      integer, intent(in) :: whence
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_seek_shared
  end interface MPI_File_seek_shared
  interface PMPI_File_seek_shared
    subroutine PMPI_File_seek_shared(fh, offset, whence, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: offset
      integer, intent(in) :: whence
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_seek_shared
  end interface PMPI_File_seek_shared
  interface MPI_File_set_atomicity
    subroutine MPI_File_set_atomicity(fh, flag, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      logical, intent(in) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_set_atomicity
  end interface MPI_File_set_atomicity
  interface PMPI_File_set_atomicity
    subroutine PMPI_File_set_atomicity(fh, flag, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      logical, intent(in) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_set_atomicity
  end interface PMPI_File_set_atomicity
  interface MPI_File_set_errhandler
    subroutine MPI_File_set_errhandler(file, errhandler, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: file
      type(MPI_Errhandler), intent(in) :: errhandler
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_set_errhandler
  end interface MPI_File_set_errhandler
  interface PMPI_File_set_errhandler
    subroutine PMPI_File_set_errhandler(file, errhandler, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: file
      type(MPI_Errhandler), intent(in) :: errhandler
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_set_errhandler
  end interface PMPI_File_set_errhandler
  interface MPI_File_set_info
    subroutine MPI_File_set_info(fh, info, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(MPI_Info), intent(in) :: info
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_set_info
  end interface MPI_File_set_info
  interface PMPI_File_set_info
    subroutine PMPI_File_set_info(fh, info, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(MPI_Info), intent(in) :: info
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_set_info
  end interface PMPI_File_set_info
  interface MPI_File_set_size
    subroutine MPI_File_set_size(fh, size, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: size
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_set_size
  end interface MPI_File_set_size
  interface PMPI_File_set_size
    subroutine PMPI_File_set_size(fh, size, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: size
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_set_size
  end interface PMPI_File_set_size
  interface MPI_File_set_view
    subroutine MPI_File_set_view(fh, disp, etype, filetype, datarep, info, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: disp
      type(MPI_Datatype), intent(in) :: etype
      type(MPI_Datatype), intent(in) :: filetype
      character(len=*), intent(in) :: datarep
      type(MPI_Info), intent(in) :: info
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_set_view
  end interface MPI_File_set_view
  interface PMPI_File_set_view
    subroutine PMPI_File_set_view(fh, disp, etype, filetype, datarep, info, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: disp
      type(MPI_Datatype), intent(in) :: etype
      type(MPI_Datatype), intent(in) :: filetype
      character(len=*), intent(in) :: datarep
      type(MPI_Info), intent(in) :: info
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_set_view
  end interface PMPI_File_set_view
  interface MPI_File_sync
    subroutine MPI_File_sync(fh, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_sync
  end interface MPI_File_sync
  interface PMPI_File_sync
    subroutine PMPI_File_sync(fh, ierror)
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_sync
  end interface PMPI_File_sync
  interface MPI_File_write
    subroutine MPI_File_write_f08ts(fh, buf, count, datatype, status, ierror) bind(C, &
        name="MPI_File_write_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), intent(in) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_write_f08ts
  end interface MPI_File_write
  interface PMPI_File_write
    subroutine PMPI_File_write_f08ts(fh, buf, count, datatype, status, ierror) bind(C, &
        name="PMPI_File_write_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), intent(in) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_write_f08ts
  end interface PMPI_File_write
  interface MPI_File_write_all
    subroutine MPI_File_write_all_f08ts(fh, buf, count, datatype, status, ierror) bind(C, &
        name="MPI_File_write_all_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), intent(in) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_write_all_f08ts
  end interface MPI_File_write_all
  interface PMPI_File_write_all
    subroutine PMPI_File_write_all_f08ts(fh, buf, count, datatype, status, ierror) bind(C, &
        name="PMPI_File_write_all_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), intent(in) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_write_all_f08ts
  end interface PMPI_File_write_all
  interface MPI_File_write_all_begin
    subroutine MPI_File_write_all_begin_f08ts(fh, buf, count, datatype, ierror) bind(C, &
        name="MPI_File_write_all_begin_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_write_all_begin_f08ts
  end interface MPI_File_write_all_begin
  interface PMPI_File_write_all_begin
    subroutine PMPI_File_write_all_begin_f08ts(fh, buf, count, datatype, ierror) bind(C, &
        name="PMPI_File_write_all_begin_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_write_all_begin_f08ts
  end interface PMPI_File_write_all_begin
  interface MPI_File_write_all_end
    subroutine MPI_File_write_all_end_f08ts(fh, buf, status, ierror) bind(C, &
        name="MPI_File_write_all_end_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), intent(in), asynchronous :: buf
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_write_all_end_f08ts
  end interface MPI_File_write_all_end
  interface PMPI_File_write_all_end
    subroutine PMPI_File_write_all_end_f08ts(fh, buf, status, ierror) bind(C, &
        name="PMPI_File_write_all_end_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), intent(in), asynchronous :: buf
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_write_all_end_f08ts
  end interface PMPI_File_write_all_end
  interface MPI_File_write_at
    subroutine MPI_File_write_at_f08ts(fh, offset, buf, count, datatype, status, &
        ierror) bind(C, name="MPI_File_write_at_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: offset
      type(*), dimension(..), intent(in) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_write_at_f08ts
  end interface MPI_File_write_at
  interface PMPI_File_write_at
    subroutine PMPI_File_write_at_f08ts(fh, offset, buf, count, datatype, status, &
        ierror) bind(C, name="PMPI_File_write_at_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: offset
      type(*), dimension(..), intent(in) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_write_at_f08ts
  end interface PMPI_File_write_at
  interface MPI_File_write_at_all
    subroutine MPI_File_write_at_all_f08ts(fh, offset, buf, count, datatype, status, &
        ierror) bind(C, name="MPI_File_write_at_all_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: offset
      type(*), dimension(..), intent(in) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_write_at_all_f08ts
  end interface MPI_File_write_at_all
  interface PMPI_File_write_at_all
    subroutine PMPI_File_write_at_all_f08ts(fh, offset, buf, count, datatype, status, &
        ierror) bind(C, name="PMPI_File_write_at_all_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: offset
      type(*), dimension(..), intent(in) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_write_at_all_f08ts
  end interface PMPI_File_write_at_all
  interface MPI_File_write_at_all_begin
    subroutine MPI_File_write_at_all_begin_f08ts(fh, offset, buf, count, datatype, &
        ierror) bind(C, name="MPI_File_write_at_all_begin_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: offset
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_write_at_all_begin_f08ts
  end interface MPI_File_write_at_all_begin
  interface PMPI_File_write_at_all_begin
    subroutine PMPI_File_write_at_all_begin_f08ts(fh, offset, buf, count, datatype, &
        ierror) bind(C, name="PMPI_File_write_at_all_begin_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      integer(kind=MPI_OFFSET_KIND), intent(in) :: offset
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_write_at_all_begin_f08ts
  end interface PMPI_File_write_at_all_begin
  interface MPI_File_write_at_all_end
    subroutine MPI_File_write_at_all_end_f08ts(fh, buf, status, ierror) bind(C, &
        name="MPI_File_write_at_all_end_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), intent(in), asynchronous :: buf
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_write_at_all_end_f08ts
  end interface MPI_File_write_at_all_end
  interface PMPI_File_write_at_all_end
    subroutine PMPI_File_write_at_all_end_f08ts(fh, buf, status, ierror) bind(C, &
        name="PMPI_File_write_at_all_end_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), intent(in), asynchronous :: buf
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_write_at_all_end_f08ts
  end interface PMPI_File_write_at_all_end
  interface MPI_File_write_ordered
    subroutine MPI_File_write_ordered_f08ts(fh, buf, count, datatype, status, ierror) bind(C, &
        name="MPI_File_write_ordered_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), intent(in) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_write_ordered_f08ts
  end interface MPI_File_write_ordered
  interface PMPI_File_write_ordered
    subroutine PMPI_File_write_ordered_f08ts(fh, buf, count, datatype, status, ierror) bind(C, &
        name="PMPI_File_write_ordered_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), intent(in) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_write_ordered_f08ts
  end interface PMPI_File_write_ordered
  interface MPI_File_write_ordered_begin
    subroutine MPI_File_write_ordered_begin_f08ts(fh, buf, count, datatype, ierror) bind(C, &
        name="MPI_File_write_ordered_begin_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_write_ordered_begin_f08ts
  end interface MPI_File_write_ordered_begin
  interface PMPI_File_write_ordered_begin
    subroutine PMPI_File_write_ordered_begin_f08ts(fh, buf, count, datatype, ierror) bind(C, &
        name="PMPI_File_write_ordered_begin_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_write_ordered_begin_f08ts
  end interface PMPI_File_write_ordered_begin
  interface MPI_File_write_ordered_end
    subroutine MPI_File_write_ordered_end_f08ts(fh, buf, status, ierror) bind(C, &
        name="MPI_File_write_ordered_end_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), intent(in), asynchronous :: buf
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_write_ordered_end_f08ts
  end interface MPI_File_write_ordered_end
  interface PMPI_File_write_ordered_end
    subroutine PMPI_File_write_ordered_end_f08ts(fh, buf, status, ierror) bind(C, &
        name="PMPI_File_write_ordered_end_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), intent(in), asynchronous :: buf
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_write_ordered_end_f08ts
  end interface PMPI_File_write_ordered_end
  interface MPI_File_write_shared
    subroutine MPI_File_write_shared_f08ts(fh, buf, count, datatype, status, ierror) bind(C, &
        name="MPI_File_write_shared_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), intent(in) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_File_write_shared_f08ts
  end interface MPI_File_write_shared
  interface PMPI_File_write_shared
    subroutine PMPI_File_write_shared_f08ts(fh, buf, count, datatype, status, ierror) bind(C, &
        name="PMPI_File_write_shared_f08ts")
      import
      implicit none
      type(MPI_File), intent(in) :: fh
      type(*), dimension(..), intent(in) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_File_write_shared_f08ts
  end interface PMPI_File_write_shared
  interface MPI_Finalize
    subroutine MPI_Finalize(ierror)
      import
      implicit none
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Finalize
  end interface MPI_Finalize
  interface PMPI_Finalize
    subroutine PMPI_Finalize(ierror)
      import
      implicit none
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Finalize
  end interface PMPI_Finalize
  interface MPI_Finalized
    subroutine MPI_Finalized(flag, ierror)
      import
      implicit none
      logical, intent(out) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Finalized
  end interface MPI_Finalized
  interface PMPI_Finalized
    subroutine PMPI_Finalized(flag, ierror)
      import
      implicit none
      logical, intent(out) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Finalized
  end interface PMPI_Finalized
  interface MPI_Free_mem
    subroutine MPI_Free_mem_f08ts(base, ierror) bind(C, name="MPI_Free_mem_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: base
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Free_mem_f08ts
  end interface MPI_Free_mem
  interface PMPI_Free_mem
    subroutine PMPI_Free_mem_f08ts(base, ierror) bind(C, name="PMPI_Free_mem_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: base
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Free_mem_f08ts
  end interface PMPI_Free_mem
  interface MPI_Gather
    subroutine MPI_Gather_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
        root, comm, ierror) bind(C, name="MPI_Gather_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Gather_f08ts
  end interface MPI_Gather
  interface PMPI_Gather
    subroutine PMPI_Gather_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
        root, comm, ierror) bind(C, name="PMPI_Gather_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Gather_f08ts
  end interface PMPI_Gather
  interface MPI_Gather_init
    subroutine MPI_Gather_init_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
        recvtype, root, comm, info, request, ierror) bind(C, name="MPI_Gather_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Gather_init_f08ts
  end interface MPI_Gather_init
  interface PMPI_Gather_init
    subroutine PMPI_Gather_init_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
        recvtype, root, comm, info, request, ierror) bind(C, name="PMPI_Gather_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Gather_init_f08ts
  end interface PMPI_Gather_init
  interface MPI_Gatherv
    subroutine MPI_Gatherv_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, &
        recvtype, root, comm, ierror) bind(C, name="MPI_Gatherv_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcounts(*)
      integer, intent(in) :: displs(*)
      type(MPI_Datatype), intent(in) :: recvtype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Gatherv_f08ts
  end interface MPI_Gatherv
  interface PMPI_Gatherv
    subroutine PMPI_Gatherv_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, &
        recvtype, root, comm, ierror) bind(C, name="PMPI_Gatherv_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcounts(*)
      integer, intent(in) :: displs(*)
      type(MPI_Datatype), intent(in) :: recvtype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Gatherv_f08ts
  end interface PMPI_Gatherv
  interface MPI_Gatherv_init
    subroutine MPI_Gatherv_init_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcounts, &
        displs, recvtype, root, comm, info, request, ierror) bind(C, name="MPI_Gatherv_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      integer, intent(in), asynchronous :: displs(*)
      type(MPI_Datatype), intent(in) :: recvtype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Gatherv_init_f08ts
  end interface MPI_Gatherv_init
  interface PMPI_Gatherv_init
    subroutine PMPI_Gatherv_init_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcounts, &
        displs, recvtype, root, comm, info, request, ierror) bind(C, name="PMPI_Gatherv_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      integer, intent(in), asynchronous :: displs(*)
      type(MPI_Datatype), intent(in) :: recvtype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Gatherv_init_f08ts
  end interface PMPI_Gatherv_init
  interface MPI_Get
    subroutine MPI_Get_f08ts(origin_addr, origin_count, origin_datatype, target_rank, &
        target_disp, target_count, target_datatype, win, ierror) bind(C, name="MPI_Get_f08ts")
      import
      implicit none
      type(*), dimension(..), asynchronous :: origin_addr
      integer, intent(in) :: origin_count
      type(MPI_Datatype), intent(in) :: origin_datatype
      integer, intent(in) :: target_rank
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
      integer, intent(in) :: target_count
      type(MPI_Datatype), intent(in) :: target_datatype
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Get_f08ts
  end interface MPI_Get
  interface PMPI_Get
    subroutine PMPI_Get_f08ts(origin_addr, origin_count, origin_datatype, target_rank, &
        target_disp, target_count, target_datatype, win, ierror) bind(C, name="PMPI_Get_f08ts")
      import
      implicit none
      type(*), dimension(..), asynchronous :: origin_addr
      integer, intent(in) :: origin_count
      type(MPI_Datatype), intent(in) :: origin_datatype
      integer, intent(in) :: target_rank
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
      integer, intent(in) :: target_count
      type(MPI_Datatype), intent(in) :: target_datatype
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Get_f08ts
  end interface PMPI_Get
  interface MPI_Get_accumulate
    subroutine MPI_Get_accumulate_f08ts(origin_addr, origin_count, origin_datatype, &
        result_addr, result_count, result_datatype, target_rank, target_disp, target_count, &
        target_datatype, op, win, ierror) bind(C, name="MPI_Get_accumulate_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: origin_addr
      integer, intent(in) :: origin_count
      type(MPI_Datatype), intent(in) :: origin_datatype
      type(*), dimension(..), asynchronous :: result_addr
      integer, intent(in) :: result_count
      type(MPI_Datatype), intent(in) :: result_datatype
      integer, intent(in) :: target_rank
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
      integer, intent(in) :: target_count
      type(MPI_Datatype), intent(in) :: target_datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Get_accumulate_f08ts
  end interface MPI_Get_accumulate
  interface PMPI_Get_accumulate
    subroutine PMPI_Get_accumulate_f08ts(origin_addr, origin_count, origin_datatype, &
        result_addr, result_count, result_datatype, target_rank, target_disp, target_count, &
        target_datatype, op, win, ierror) bind(C, name="PMPI_Get_accumulate_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: origin_addr
      integer, intent(in) :: origin_count
      type(MPI_Datatype), intent(in) :: origin_datatype
      type(*), dimension(..), asynchronous :: result_addr
      integer, intent(in) :: result_count
      type(MPI_Datatype), intent(in) :: result_datatype
      integer, intent(in) :: target_rank
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
      integer, intent(in) :: target_count
      type(MPI_Datatype), intent(in) :: target_datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Get_accumulate_f08ts
  end interface PMPI_Get_accumulate
  interface MPI_Get_address
    subroutine MPI_Get_address_f08ts(location, address, ierror) bind(C, &
        name="MPI_Get_address_f08ts")
      import
      implicit none
      type(*), dimension(..), asynchronous :: location
      integer(kind=MPI_ADDRESS_KIND), intent(out) :: address
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Get_address_f08ts
  end interface MPI_Get_address
  interface PMPI_Get_address
    subroutine PMPI_Get_address_f08ts(location, address, ierror) bind(C, &
        name="PMPI_Get_address_f08ts")
      import
      implicit none
      type(*), dimension(..), asynchronous :: location
      integer(kind=MPI_ADDRESS_KIND), intent(out) :: address
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Get_address_f08ts
  end interface PMPI_Get_address
  interface MPI_Get_count
    subroutine MPI_Get_count(status, datatype, count, ierror)
      import
      implicit none
      type(MPI_Status), intent(in) :: status
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(out) :: count
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Get_count
  end interface MPI_Get_count
  interface PMPI_Get_count
    subroutine PMPI_Get_count(status, datatype, count, ierror)
      import
      implicit none
      type(MPI_Status), intent(in) :: status
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(out) :: count
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Get_count
  end interface PMPI_Get_count
  interface MPI_Get_elements
    subroutine MPI_Get_elements(status, datatype, count, ierror)
      import
      implicit none
      type(MPI_Status), intent(in) :: status
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(out) :: count
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Get_elements
  end interface MPI_Get_elements
  interface PMPI_Get_elements
    subroutine PMPI_Get_elements(status, datatype, count, ierror)
      import
      implicit none
      type(MPI_Status), intent(in) :: status
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(out) :: count
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Get_elements
  end interface PMPI_Get_elements
  interface MPI_Get_elements_x
    subroutine MPI_Get_elements_x(status, datatype, count, ierror)
      import
      implicit none
      type(MPI_Status), intent(in) :: status
      type(MPI_Datatype), intent(in) :: datatype
      integer(kind=MPI_COUNT_KIND), intent(out) :: count
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Get_elements_x
  end interface MPI_Get_elements_x
  interface PMPI_Get_elements_x
    subroutine PMPI_Get_elements_x(status, datatype, count, ierror)
      import
      implicit none
      type(MPI_Status), intent(in) :: status
      type(MPI_Datatype), intent(in) :: datatype
      integer(kind=MPI_COUNT_KIND), intent(out) :: count
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Get_elements_x
  end interface PMPI_Get_elements_x
  interface MPI_Get_hw_resource_info
    subroutine MPI_Get_hw_resource_info(hw_info, ierror)
      import
      implicit none
      type(MPI_Info), intent(out) :: hw_info
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Get_hw_resource_info
  end interface MPI_Get_hw_resource_info
  interface PMPI_Get_hw_resource_info
    subroutine PMPI_Get_hw_resource_info(hw_info, ierror)
      import
      implicit none
      type(MPI_Info), intent(out) :: hw_info
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Get_hw_resource_info
  end interface PMPI_Get_hw_resource_info
  interface MPI_Get_library_version
    subroutine MPI_Get_library_version(version, resultlen, ierror)
      import
      implicit none
      character(len=*), intent(out) :: version
      integer, intent(out) :: resultlen
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Get_library_version
  end interface MPI_Get_library_version
  interface PMPI_Get_library_version
    subroutine PMPI_Get_library_version(version, resultlen, ierror)
      import
      implicit none
      character(len=*), intent(out) :: version
      integer, intent(out) :: resultlen
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Get_library_version
  end interface PMPI_Get_library_version
  interface MPI_Get_processor_name
    subroutine MPI_Get_processor_name(name, resultlen, ierror)
      import
      implicit none
      character(len=*), intent(out) :: name
      integer, intent(out) :: resultlen
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Get_processor_name
  end interface MPI_Get_processor_name
  interface PMPI_Get_processor_name
    subroutine PMPI_Get_processor_name(name, resultlen, ierror)
      import
      implicit none
      character(len=*), intent(out) :: name
      integer, intent(out) :: resultlen
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Get_processor_name
  end interface PMPI_Get_processor_name
  interface MPI_Get_version
    subroutine MPI_Get_version(version, subversion, ierror)
      import
      implicit none
      integer, intent(out) :: version
      integer, intent(out) :: subversion
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Get_version
  end interface MPI_Get_version
  interface PMPI_Get_version
    subroutine PMPI_Get_version(version, subversion, ierror)
      import
      implicit none
      integer, intent(out) :: version
      integer, intent(out) :: subversion
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Get_version
  end interface PMPI_Get_version
  interface MPI_Graph_create
    subroutine MPI_Graph_create(comm_old, nnodes, index, edges, reorder, comm_graph, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm_old
      integer, intent(in) :: nnodes
      integer, intent(in) :: index(*)
      integer, intent(in) :: edges(*)
      logical, intent(in) :: reorder
      type(MPI_Comm), intent(out) :: comm_graph
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Graph_create
  end interface MPI_Graph_create
  interface PMPI_Graph_create
    subroutine PMPI_Graph_create(comm_old, nnodes, index, edges, reorder, comm_graph, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm_old
      integer, intent(in) :: nnodes
      integer, intent(in) :: index(*)
      integer, intent(in) :: edges(*)
      logical, intent(in) :: reorder
      type(MPI_Comm), intent(out) :: comm_graph
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Graph_create
  end interface PMPI_Graph_create
  interface MPI_Graph_get
    subroutine MPI_Graph_get(comm, maxindex, maxedges, index, edges, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: maxindex
      integer, intent(in) :: maxedges
      integer, intent(out) :: index(*)
      integer, intent(out) :: edges(*)
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Graph_get
  end interface MPI_Graph_get
  interface PMPI_Graph_get
    subroutine PMPI_Graph_get(comm, maxindex, maxedges, index, edges, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: maxindex
      integer, intent(in) :: maxedges
      integer, intent(out) :: index(*)
      integer, intent(out) :: edges(*)
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Graph_get
  end interface PMPI_Graph_get
  interface MPI_Graph_map
    subroutine MPI_Graph_map(comm, nnodes, index, edges, newrank, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: nnodes
      integer, intent(in) :: index(*)
      integer, intent(in) :: edges(*)
      integer, intent(out) :: newrank
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Graph_map
  end interface MPI_Graph_map
  interface PMPI_Graph_map
    subroutine PMPI_Graph_map(comm, nnodes, index, edges, newrank, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: nnodes
      integer, intent(in) :: index(*)
      integer, intent(in) :: edges(*)
      integer, intent(out) :: newrank
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Graph_map
  end interface PMPI_Graph_map
  interface MPI_Graph_neighbors
    subroutine MPI_Graph_neighbors(comm, rank, maxneighbors, neighbors, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: rank
      integer, intent(in) :: maxneighbors
      integer, intent(out) :: neighbors(*)
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Graph_neighbors
  end interface MPI_Graph_neighbors
  interface PMPI_Graph_neighbors
    subroutine PMPI_Graph_neighbors(comm, rank, maxneighbors, neighbors, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: rank
      integer, intent(in) :: maxneighbors
      integer, intent(out) :: neighbors(*)
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Graph_neighbors
  end interface PMPI_Graph_neighbors
  interface MPI_Graph_neighbors_count
    subroutine MPI_Graph_neighbors_count(comm, rank, nneighbors, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: rank
      integer, intent(out) :: nneighbors
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Graph_neighbors_count
  end interface MPI_Graph_neighbors_count
  interface PMPI_Graph_neighbors_count
    subroutine PMPI_Graph_neighbors_count(comm, rank, nneighbors, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(in) :: rank
      integer, intent(out) :: nneighbors
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Graph_neighbors_count
  end interface PMPI_Graph_neighbors_count
  interface MPI_Graphdims_get
    subroutine MPI_Graphdims_get(comm, nnodes, nedges, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(out) :: nnodes
      integer, intent(out) :: nedges
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Graphdims_get
  end interface MPI_Graphdims_get
  interface PMPI_Graphdims_get
    subroutine PMPI_Graphdims_get(comm, nnodes, nedges, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(out) :: nnodes
      integer, intent(out) :: nedges
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Graphdims_get
  end interface PMPI_Graphdims_get
  interface MPI_Grequest_complete
    subroutine MPI_Grequest_complete(request, ierror)
      import
      implicit none
      type(MPI_Request), intent(in) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Grequest_complete
  end interface MPI_Grequest_complete
  interface PMPI_Grequest_complete
    subroutine PMPI_Grequest_complete(request, ierror)
      import
      implicit none
      type(MPI_Request), intent(in) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Grequest_complete
  end interface PMPI_Grequest_complete
  interface MPI_Group_compare
    subroutine MPI_Group_compare(group1, group2, result, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: group1
      type(MPI_Group), intent(in) :: group2
      integer, intent(out) :: result
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Group_compare
  end interface MPI_Group_compare
  interface PMPI_Group_compare
    subroutine PMPI_Group_compare(group1, group2, result, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: group1
      type(MPI_Group), intent(in) :: group2
      integer, intent(out) :: result
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Group_compare
  end interface PMPI_Group_compare
  interface MPI_Group_difference
    subroutine MPI_Group_difference(group1, group2, newgroup, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: group1
      type(MPI_Group), intent(in) :: group2
      type(MPI_Group), intent(out) :: newgroup
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Group_difference
  end interface MPI_Group_difference
  interface PMPI_Group_difference
    subroutine PMPI_Group_difference(group1, group2, newgroup, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: group1
      type(MPI_Group), intent(in) :: group2
      type(MPI_Group), intent(out) :: newgroup
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Group_difference
  end interface PMPI_Group_difference
  interface MPI_Group_excl
    subroutine MPI_Group_excl(group, n, ranks, newgroup, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: group
      integer, intent(in) :: n
      integer, intent(in) :: ranks(*)
      type(MPI_Group), intent(out) :: newgroup
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Group_excl
  end interface MPI_Group_excl
  interface PMPI_Group_excl
    subroutine PMPI_Group_excl(group, n, ranks, newgroup, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: group
      integer, intent(in) :: n
      integer, intent(in) :: ranks(*)
      type(MPI_Group), intent(out) :: newgroup
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Group_excl
  end interface PMPI_Group_excl
  interface MPI_Group_free
    subroutine MPI_Group_free(group, ierror)
      import
      implicit none
      type(MPI_Group), intent(inout) :: group
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Group_free
  end interface MPI_Group_free
  interface PMPI_Group_free
    subroutine PMPI_Group_free(group, ierror)
      import
      implicit none
      type(MPI_Group), intent(inout) :: group
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Group_free
  end interface PMPI_Group_free
  interface MPI_Group_from_session_pset
    subroutine MPI_Group_from_session_pset(session, pset_name, newgroup, ierror)
      import
      implicit none
      type(MPI_Session), intent(in) :: session
      character(len=*), intent(in) :: pset_name
      type(MPI_Group), intent(out) :: newgroup
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Group_from_session_pset
  end interface MPI_Group_from_session_pset
  interface PMPI_Group_from_session_pset
    subroutine PMPI_Group_from_session_pset(session, pset_name, newgroup, ierror)
      import
      implicit none
      type(MPI_Session), intent(in) :: session
      character(len=*), intent(in) :: pset_name
      type(MPI_Group), intent(out) :: newgroup
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Group_from_session_pset
  end interface PMPI_Group_from_session_pset
  interface MPI_Group_incl
    subroutine MPI_Group_incl(group, n, ranks, newgroup, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: group
      integer, intent(in) :: n
      integer, intent(in) :: ranks(*)
      type(MPI_Group), intent(out) :: newgroup
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Group_incl
  end interface MPI_Group_incl
  interface PMPI_Group_incl
    subroutine PMPI_Group_incl(group, n, ranks, newgroup, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: group
      integer, intent(in) :: n
      integer, intent(in) :: ranks(*)
      type(MPI_Group), intent(out) :: newgroup
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Group_incl
  end interface PMPI_Group_incl
  interface MPI_Group_intersection
    subroutine MPI_Group_intersection(group1, group2, newgroup, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: group1
      type(MPI_Group), intent(in) :: group2
      type(MPI_Group), intent(out) :: newgroup
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Group_intersection
  end interface MPI_Group_intersection
  interface PMPI_Group_intersection
    subroutine PMPI_Group_intersection(group1, group2, newgroup, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: group1
      type(MPI_Group), intent(in) :: group2
      type(MPI_Group), intent(out) :: newgroup
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Group_intersection
  end interface PMPI_Group_intersection
  interface MPI_Group_range_excl
    subroutine MPI_Group_range_excl(group, n, ranges, newgroup, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: group
      integer, intent(in) :: n
      integer, intent(in) :: ranges(3, *)
      type(MPI_Group), intent(out) :: newgroup
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Group_range_excl
  end interface MPI_Group_range_excl
  interface PMPI_Group_range_excl
    subroutine PMPI_Group_range_excl(group, n, ranges, newgroup, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: group
      integer, intent(in) :: n
      integer, intent(in) :: ranges(3, *)
      type(MPI_Group), intent(out) :: newgroup
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Group_range_excl
  end interface PMPI_Group_range_excl
  interface MPI_Group_range_incl
    subroutine MPI_Group_range_incl(group, n, ranges, newgroup, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: group
      integer, intent(in) :: n
      integer, intent(in) :: ranges(3, *)
      type(MPI_Group), intent(out) :: newgroup
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Group_range_incl
  end interface MPI_Group_range_incl
  interface PMPI_Group_range_incl
    subroutine PMPI_Group_range_incl(group, n, ranges, newgroup, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: group
      integer, intent(in) :: n
      integer, intent(in) :: ranges(3, *)
      type(MPI_Group), intent(out) :: newgroup
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Group_range_incl
  end interface PMPI_Group_range_incl
  interface MPI_Group_rank
    subroutine MPI_Group_rank(group, rank, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: group
      integer, intent(out) :: rank
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Group_rank
  end interface MPI_Group_rank
  interface PMPI_Group_rank
    subroutine PMPI_Group_rank(group, rank, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: group
      integer, intent(out) :: rank
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Group_rank
  end interface PMPI_Group_rank
  interface MPI_Group_size
    subroutine MPI_Group_size(group, size, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: group
      integer, intent(out) :: size
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Group_size
  end interface MPI_Group_size
  interface PMPI_Group_size
    subroutine PMPI_Group_size(group, size, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: group
      integer, intent(out) :: size
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Group_size
  end interface PMPI_Group_size
  interface MPI_Group_translate_ranks
    subroutine MPI_Group_translate_ranks(group1, n, ranks1, group2, ranks2, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: group1
      integer, intent(in) :: n
      integer, intent(in) :: ranks1(*)
      type(MPI_Group), intent(in) :: group2
      integer, intent(out) :: ranks2(*)
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Group_translate_ranks
  end interface MPI_Group_translate_ranks
  interface PMPI_Group_translate_ranks
    subroutine PMPI_Group_translate_ranks(group1, n, ranks1, group2, ranks2, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: group1
      integer, intent(in) :: n
      integer, intent(in) :: ranks1(*)
      type(MPI_Group), intent(in) :: group2
      integer, intent(out) :: ranks2(*)
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Group_translate_ranks
  end interface PMPI_Group_translate_ranks
  interface MPI_Group_union
    subroutine MPI_Group_union(group1, group2, newgroup, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: group1
      type(MPI_Group), intent(in) :: group2
      type(MPI_Group), intent(out) :: newgroup
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Group_union
  end interface MPI_Group_union
  interface PMPI_Group_union
    subroutine PMPI_Group_union(group1, group2, newgroup, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: group1
      type(MPI_Group), intent(in) :: group2
      type(MPI_Group), intent(out) :: newgroup
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Group_union
  end interface PMPI_Group_union
  interface MPI_Iallgather
    subroutine MPI_Iallgather_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
        comm, request, ierror) bind(C, name="MPI_Iallgather_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Iallgather_f08ts
  end interface MPI_Iallgather
  interface PMPI_Iallgather
    subroutine PMPI_Iallgather_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
        recvtype, comm, request, ierror) bind(C, name="PMPI_Iallgather_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Iallgather_f08ts
  end interface PMPI_Iallgather
  interface MPI_Iallgatherv
    subroutine MPI_Iallgatherv_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, &
        recvtype, comm, request, ierror) bind(C, name="MPI_Iallgatherv_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      integer, intent(in), asynchronous :: displs(*)
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Iallgatherv_f08ts
  end interface MPI_Iallgatherv
  interface PMPI_Iallgatherv
    subroutine PMPI_Iallgatherv_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcounts, &
        displs, recvtype, comm, request, ierror) bind(C, name="PMPI_Iallgatherv_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      integer, intent(in), asynchronous :: displs(*)
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Iallgatherv_f08ts
  end interface PMPI_Iallgatherv
  interface MPI_Iallreduce
    subroutine MPI_Iallreduce_f08ts(sendbuf, recvbuf, count, datatype, op, comm, request, &
        ierror) bind(C, name="MPI_Iallreduce_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Iallreduce_f08ts
  end interface MPI_Iallreduce
  interface PMPI_Iallreduce
    subroutine PMPI_Iallreduce_f08ts(sendbuf, recvbuf, count, datatype, op, comm, request, &
        ierror) bind(C, name="PMPI_Iallreduce_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Iallreduce_f08ts
  end interface PMPI_Iallreduce
  interface MPI_Ialltoall
    subroutine MPI_Ialltoall_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
        comm, request, ierror) bind(C, name="MPI_Ialltoall_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Ialltoall_f08ts
  end interface MPI_Ialltoall
  interface PMPI_Ialltoall
    subroutine PMPI_Ialltoall_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
        comm, request, ierror) bind(C, name="PMPI_Ialltoall_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Ialltoall_f08ts
  end interface PMPI_Ialltoall
  interface MPI_Ialltoallv
    subroutine MPI_Ialltoallv_f08ts(sendbuf, sendcounts, sdispls, sendtype, recvbuf, &
        recvcounts, rdispls, recvtype, comm, request, ierror) bind(C, name="MPI_Ialltoallv_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in), asynchronous :: sendcounts(*)
      integer, intent(in), asynchronous :: sdispls(*)
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      integer, intent(in), asynchronous :: rdispls(*)
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Ialltoallv_f08ts
  end interface MPI_Ialltoallv
  interface PMPI_Ialltoallv
    subroutine PMPI_Ialltoallv_f08ts(sendbuf, sendcounts, sdispls, sendtype, recvbuf, &
        recvcounts, rdispls, recvtype, comm, request, ierror) bind(C, name="PMPI_Ialltoallv_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in), asynchronous :: sendcounts(*)
      integer, intent(in), asynchronous :: sdispls(*)
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      integer, intent(in), asynchronous :: rdispls(*)
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Ialltoallv_f08ts
  end interface PMPI_Ialltoallv
  interface MPI_Ialltoallw
    subroutine MPI_Ialltoallw_f08ts(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, &
        recvcounts, rdispls, recvtypes, comm, request, ierror) bind(C, name="MPI_Ialltoallw_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in), asynchronous :: sendcounts(*)
      integer, intent(in), asynchronous :: sdispls(*)
      type(MPI_Datatype), intent(in), asynchronous :: sendtypes(*)
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      integer, intent(in), asynchronous :: rdispls(*)
      type(MPI_Datatype), intent(in), asynchronous :: recvtypes(*)
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Ialltoallw_f08ts
  end interface MPI_Ialltoallw
  interface PMPI_Ialltoallw
    subroutine PMPI_Ialltoallw_f08ts(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, &
        recvcounts, rdispls, recvtypes, comm, request, ierror) bind(C, name="PMPI_Ialltoallw_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in), asynchronous :: sendcounts(*)
      integer, intent(in), asynchronous :: sdispls(*)
      type(MPI_Datatype), intent(in), asynchronous :: sendtypes(*)
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      integer, intent(in), asynchronous :: rdispls(*)
      type(MPI_Datatype), intent(in), asynchronous :: recvtypes(*)
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Ialltoallw_f08ts
  end interface PMPI_Ialltoallw
  interface MPI_Ibarrier
    subroutine MPI_Ibarrier(comm, request, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Ibarrier
  end interface MPI_Ibarrier
  interface PMPI_Ibarrier
    subroutine PMPI_Ibarrier(comm, request, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Ibarrier
  end interface PMPI_Ibarrier
  interface MPI_Ibcast
    subroutine MPI_Ibcast_f08ts(buffer, count, datatype, root, comm, request, ierror) bind(C, &
        name="MPI_Ibcast_f08ts")
      import
      implicit none
      type(*), dimension(..), asynchronous :: buffer
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Ibcast_f08ts
  end interface MPI_Ibcast
  interface PMPI_Ibcast
    subroutine PMPI_Ibcast_f08ts(buffer, count, datatype, root, comm, request, ierror) bind(C, &
        name="PMPI_Ibcast_f08ts")
      import
      implicit none
      type(*), dimension(..), asynchronous :: buffer
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Ibcast_f08ts
  end interface PMPI_Ibcast
  interface MPI_Ibsend
    subroutine MPI_Ibsend_f08ts(buf, count, datatype, dest, tag, comm, request, ierror) bind(C, &
        name="MPI_Ibsend_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Ibsend_f08ts
  end interface MPI_Ibsend
  interface PMPI_Ibsend
    subroutine PMPI_Ibsend_f08ts(buf, count, datatype, dest, tag, comm, request, &
        ierror) bind(C, name="PMPI_Ibsend_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Ibsend_f08ts
  end interface PMPI_Ibsend
  interface MPI_Iexscan
    subroutine MPI_Iexscan_f08ts(sendbuf, recvbuf, count, datatype, op, comm, request, &
        ierror) bind(C, name="MPI_Iexscan_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Iexscan_f08ts
  end interface MPI_Iexscan
  interface PMPI_Iexscan
    subroutine PMPI_Iexscan_f08ts(sendbuf, recvbuf, count, datatype, op, comm, request, &
        ierror) bind(C, name="PMPI_Iexscan_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Iexscan_f08ts
  end interface PMPI_Iexscan
  interface MPI_Igather
    subroutine MPI_Igather_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
        root, comm, request, ierror) bind(C, name="MPI_Igather_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Igather_f08ts
  end interface MPI_Igather
  interface PMPI_Igather
    subroutine PMPI_Igather_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
        root, comm, request, ierror) bind(C, name="PMPI_Igather_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Igather_f08ts
  end interface PMPI_Igather
  interface MPI_Igatherv
    subroutine MPI_Igatherv_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, &
        recvtype, root, comm, request, ierror) bind(C, name="MPI_Igatherv_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      integer, intent(in), asynchronous :: displs(*)
      type(MPI_Datatype), intent(in) :: recvtype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Igatherv_f08ts
  end interface MPI_Igatherv
  interface PMPI_Igatherv
    subroutine PMPI_Igatherv_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, &
        recvtype, root, comm, request, ierror) bind(C, name="PMPI_Igatherv_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      integer, intent(in), asynchronous :: displs(*)
      type(MPI_Datatype), intent(in) :: recvtype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Igatherv_f08ts
  end interface PMPI_Igatherv
  interface MPI_Improbe
    subroutine MPI_Improbe(source, tag, comm, flag, message, status, ierror)
      import
      implicit none
      integer, intent(in) :: source
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      logical, intent(out) :: flag
      type(MPI_Message), intent(out) :: message
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Improbe
  end interface MPI_Improbe
  interface PMPI_Improbe
    subroutine PMPI_Improbe(source, tag, comm, flag, message, status, ierror)
      import
      implicit none
      integer, intent(in) :: source
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      logical, intent(out) :: flag
      type(MPI_Message), intent(out) :: message
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Improbe
  end interface PMPI_Improbe
  interface MPI_Imrecv
    subroutine MPI_Imrecv_f08ts(buf, count, datatype, message, request, ierror) bind(C, &
        name="MPI_Imrecv_f08ts")
      import
      implicit none
      type(*), dimension(..), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Message), intent(inout) :: message
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Imrecv_f08ts
  end interface MPI_Imrecv
  interface PMPI_Imrecv
    subroutine PMPI_Imrecv_f08ts(buf, count, datatype, message, request, ierror) bind(C, &
        name="PMPI_Imrecv_f08ts")
      import
      implicit none
      type(*), dimension(..), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Message), intent(inout) :: message
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Imrecv_f08ts
  end interface PMPI_Imrecv
  interface MPI_Ineighbor_allgather
    subroutine MPI_Ineighbor_allgather_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
        recvtype, comm, request, ierror) bind(C, name="MPI_Ineighbor_allgather_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Ineighbor_allgather_f08ts
  end interface MPI_Ineighbor_allgather
  interface PMPI_Ineighbor_allgather
    subroutine PMPI_Ineighbor_allgather_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
        recvtype, comm, request, ierror) bind(C, name="PMPI_Ineighbor_allgather_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Ineighbor_allgather_f08ts
  end interface PMPI_Ineighbor_allgather
  interface MPI_Ineighbor_allgatherv
    subroutine MPI_Ineighbor_allgatherv_f08ts(sendbuf, sendcount, sendtype, recvbuf, &
        recvcounts, displs, recvtype, comm, request, ierror) bind(C, &
        name="MPI_Ineighbor_allgatherv_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      integer, intent(in), asynchronous :: displs(*)
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Ineighbor_allgatherv_f08ts
  end interface MPI_Ineighbor_allgatherv
  interface PMPI_Ineighbor_allgatherv
    subroutine PMPI_Ineighbor_allgatherv_f08ts(sendbuf, sendcount, sendtype, recvbuf, &
        recvcounts, displs, recvtype, comm, request, ierror) bind(C, &
        name="PMPI_Ineighbor_allgatherv_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      integer, intent(in), asynchronous :: displs(*)
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Ineighbor_allgatherv_f08ts
  end interface PMPI_Ineighbor_allgatherv
  interface MPI_Ineighbor_alltoall
    subroutine MPI_Ineighbor_alltoall_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
        recvtype, comm, request, ierror) bind(C, name="MPI_Ineighbor_alltoall_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Ineighbor_alltoall_f08ts
  end interface MPI_Ineighbor_alltoall
  interface PMPI_Ineighbor_alltoall
    subroutine PMPI_Ineighbor_alltoall_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
        recvtype, comm, request, ierror) bind(C, name="PMPI_Ineighbor_alltoall_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Ineighbor_alltoall_f08ts
  end interface PMPI_Ineighbor_alltoall
  interface MPI_Ineighbor_alltoallv
    subroutine MPI_Ineighbor_alltoallv_f08ts(sendbuf, sendcounts, sdispls, sendtype, recvbuf, &
        recvcounts, rdispls, recvtype, comm, request, ierror) bind(C, &
        name="MPI_Ineighbor_alltoallv_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in), asynchronous :: sendcounts(*)
      integer, intent(in), asynchronous :: sdispls(*)
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      integer, intent(in), asynchronous :: rdispls(*)
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Ineighbor_alltoallv_f08ts
  end interface MPI_Ineighbor_alltoallv
  interface PMPI_Ineighbor_alltoallv
    subroutine PMPI_Ineighbor_alltoallv_f08ts(sendbuf, sendcounts, sdispls, sendtype, recvbuf, &
        recvcounts, rdispls, recvtype, comm, request, ierror) bind(C, &
        name="PMPI_Ineighbor_alltoallv_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in), asynchronous :: sendcounts(*)
      integer, intent(in), asynchronous :: sdispls(*)
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      integer, intent(in), asynchronous :: rdispls(*)
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Ineighbor_alltoallv_f08ts
  end interface PMPI_Ineighbor_alltoallv
  interface MPI_Ineighbor_alltoallw
    subroutine MPI_Ineighbor_alltoallw_f08ts(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, &
        recvcounts, rdispls, recvtypes, comm, request, ierror) bind(C, &
        name="MPI_Ineighbor_alltoallw_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in), asynchronous :: sendcounts(*)
      integer(kind=MPI_ADDRESS_KIND), intent(in), asynchronous :: sdispls(*)
      type(MPI_Datatype), intent(in), asynchronous :: sendtypes(*)
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      integer(kind=MPI_ADDRESS_KIND), intent(in), asynchronous :: rdispls(*)
      type(MPI_Datatype), intent(in), asynchronous :: recvtypes(*)
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Ineighbor_alltoallw_f08ts
  end interface MPI_Ineighbor_alltoallw
  interface PMPI_Ineighbor_alltoallw
    subroutine PMPI_Ineighbor_alltoallw_f08ts(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, &
        recvcounts, rdispls, recvtypes, comm, request, ierror) bind(C, &
        name="PMPI_Ineighbor_alltoallw_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in), asynchronous :: sendcounts(*)
      integer(kind=MPI_ADDRESS_KIND), intent(in), asynchronous :: sdispls(*)
      type(MPI_Datatype), intent(in), asynchronous :: sendtypes(*)
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      integer(kind=MPI_ADDRESS_KIND), intent(in), asynchronous :: rdispls(*)
      type(MPI_Datatype), intent(in), asynchronous :: recvtypes(*)
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Ineighbor_alltoallw_f08ts
  end interface PMPI_Ineighbor_alltoallw
  interface MPI_Info_create
    subroutine MPI_Info_create(info, ierror)
      import
      implicit none
      type(MPI_Info), intent(out) :: info
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Info_create
  end interface MPI_Info_create
  interface PMPI_Info_create
    subroutine PMPI_Info_create(info, ierror)
      import
      implicit none
      type(MPI_Info), intent(out) :: info
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Info_create
  end interface PMPI_Info_create
  interface MPI_Info_create_env
    subroutine MPI_Info_create_env(info, ierror)
      import
      implicit none
      type(MPI_Info), intent(out) :: info
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Info_create_env
  end interface MPI_Info_create_env
  interface PMPI_Info_create_env
    subroutine PMPI_Info_create_env(info, ierror)
      import
      implicit none
      type(MPI_Info), intent(out) :: info
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Info_create_env
  end interface PMPI_Info_create_env
  interface MPI_Info_delete
    subroutine MPI_Info_delete(info, key, ierror)
      import
      implicit none
      type(MPI_Info), intent(in) :: info
      character(len=*), intent(in) :: key
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Info_delete
  end interface MPI_Info_delete
  interface PMPI_Info_delete
    subroutine PMPI_Info_delete(info, key, ierror)
      import
      implicit none
      type(MPI_Info), intent(in) :: info
      character(len=*), intent(in) :: key
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Info_delete
  end interface PMPI_Info_delete
  interface MPI_Info_dup
    subroutine MPI_Info_dup(info, newinfo, ierror)
      import
      implicit none
      type(MPI_Info), intent(in) :: info
      type(MPI_Info), intent(out) :: newinfo
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Info_dup
  end interface MPI_Info_dup
  interface PMPI_Info_dup
    subroutine PMPI_Info_dup(info, newinfo, ierror)
      import
      implicit none
      type(MPI_Info), intent(in) :: info
      type(MPI_Info), intent(out) :: newinfo
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Info_dup
  end interface PMPI_Info_dup
  interface MPI_Info_free
    subroutine MPI_Info_free(info, ierror)
      import
      implicit none
      type(MPI_Info), intent(inout) :: info
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Info_free
  end interface MPI_Info_free
  interface PMPI_Info_free
    subroutine PMPI_Info_free(info, ierror)
      import
      implicit none
      type(MPI_Info), intent(inout) :: info
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Info_free
  end interface PMPI_Info_free
  interface MPI_Info_get
    subroutine MPI_Info_get(info, key, valuelen, value, flag, ierror)
      import
      implicit none
      type(MPI_Info), intent(in) :: info
      character(len=*), intent(in) :: key
      integer, intent(in) :: valuelen
      character(len=*), intent(out) :: value
      logical, intent(out) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Info_get
  end interface MPI_Info_get
  interface PMPI_Info_get
    subroutine PMPI_Info_get(info, key, valuelen, value, flag, ierror)
      import
      implicit none
      type(MPI_Info), intent(in) :: info
      character(len=*), intent(in) :: key
      integer, intent(in) :: valuelen
      character(len=*), intent(out) :: value
      logical, intent(out) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Info_get
  end interface PMPI_Info_get
  interface MPI_Info_get_nkeys
    subroutine MPI_Info_get_nkeys(info, nkeys, ierror)
      import
      implicit none
      type(MPI_Info), intent(in) :: info
      integer, intent(out) :: nkeys
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Info_get_nkeys
  end interface MPI_Info_get_nkeys
  interface PMPI_Info_get_nkeys
    subroutine PMPI_Info_get_nkeys(info, nkeys, ierror)
      import
      implicit none
      type(MPI_Info), intent(in) :: info
      integer, intent(out) :: nkeys
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Info_get_nkeys
  end interface PMPI_Info_get_nkeys
  interface MPI_Info_get_nthkey
    subroutine MPI_Info_get_nthkey(info, n, key, ierror)
      import
      implicit none
      type(MPI_Info), intent(in) :: info
      integer, intent(in) :: n
      character(len=*), intent(out) :: key
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Info_get_nthkey
  end interface MPI_Info_get_nthkey
  interface PMPI_Info_get_nthkey
    subroutine PMPI_Info_get_nthkey(info, n, key, ierror)
      import
      implicit none
      type(MPI_Info), intent(in) :: info
      integer, intent(in) :: n
      character(len=*), intent(out) :: key
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Info_get_nthkey
  end interface PMPI_Info_get_nthkey
  interface MPI_Info_get_string
    subroutine MPI_Info_get_string(info, key, buflen, value, flag, ierror)
      import
      implicit none
      type(MPI_Info), intent(in) :: info
      character(len=*), intent(in) :: key
      integer, intent(inout) :: buflen
      character(len=*), intent(out) :: value
      logical, intent(out) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Info_get_string
  end interface MPI_Info_get_string
  interface PMPI_Info_get_string
    subroutine PMPI_Info_get_string(info, key, buflen, value, flag, ierror)
      import
      implicit none
      type(MPI_Info), intent(in) :: info
      character(len=*), intent(in) :: key
      integer, intent(inout) :: buflen
      character(len=*), intent(out) :: value
      logical, intent(out) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Info_get_string
  end interface PMPI_Info_get_string
  interface MPI_Info_get_valuelen
    subroutine MPI_Info_get_valuelen(info, key, valuelen, flag, ierror)
      import
      implicit none
      type(MPI_Info), intent(in) :: info
      character(len=*), intent(in) :: key
      integer, intent(out) :: valuelen
      logical, intent(out) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Info_get_valuelen
  end interface MPI_Info_get_valuelen
  interface PMPI_Info_get_valuelen
    subroutine PMPI_Info_get_valuelen(info, key, valuelen, flag, ierror)
      import
      implicit none
      type(MPI_Info), intent(in) :: info
      character(len=*), intent(in) :: key
      integer, intent(out) :: valuelen
      logical, intent(out) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Info_get_valuelen
  end interface PMPI_Info_get_valuelen
  interface MPI_Info_set
    subroutine MPI_Info_set(info, key, value, ierror)
      import
      implicit none
      type(MPI_Info), intent(in) :: info
      character(len=*), intent(in) :: key
      character(len=*), intent(in) :: value
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Info_set
  end interface MPI_Info_set
  interface PMPI_Info_set
    subroutine PMPI_Info_set(info, key, value, ierror)
      import
      implicit none
      type(MPI_Info), intent(in) :: info
      character(len=*), intent(in) :: key
      character(len=*), intent(in) :: value
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Info_set
  end interface PMPI_Info_set
  interface MPI_Init
    subroutine MPI_Init(ierror)
      import
      implicit none
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Init
  end interface MPI_Init
  interface PMPI_Init
    subroutine PMPI_Init(ierror)
      import
      implicit none
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Init
  end interface PMPI_Init
  interface MPI_Init_thread
    subroutine MPI_Init_thread(required, provided, ierror)
      import
      implicit none
      integer, intent(in) :: required
      integer, intent(out) :: provided
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Init_thread
  end interface MPI_Init_thread
  interface PMPI_Init_thread
    subroutine PMPI_Init_thread(required, provided, ierror)
      import
      implicit none
      integer, intent(in) :: required
      integer, intent(out) :: provided
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Init_thread
  end interface PMPI_Init_thread
  interface MPI_Initialized
    subroutine MPI_Initialized(flag, ierror)
      import
      implicit none
      logical, intent(out) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Initialized
  end interface MPI_Initialized
  interface PMPI_Initialized
    subroutine PMPI_Initialized(flag, ierror)
      import
      implicit none
      logical, intent(out) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Initialized
  end interface PMPI_Initialized
  interface MPI_Intercomm_create
    subroutine MPI_Intercomm_create(local_comm, local_leader, peer_comm, remote_leader, tag, &
        newintercomm, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: local_comm
      integer, intent(in) :: local_leader
      type(MPI_Comm), intent(in) :: peer_comm
      integer, intent(in) :: remote_leader
      integer, intent(in) :: tag
      type(MPI_Comm), intent(out) :: newintercomm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Intercomm_create
  end interface MPI_Intercomm_create
  interface PMPI_Intercomm_create
    subroutine PMPI_Intercomm_create(local_comm, local_leader, peer_comm, remote_leader, tag, &
        newintercomm, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: local_comm
      integer, intent(in) :: local_leader
      type(MPI_Comm), intent(in) :: peer_comm
      integer, intent(in) :: remote_leader
      integer, intent(in) :: tag
      type(MPI_Comm), intent(out) :: newintercomm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Intercomm_create
  end interface PMPI_Intercomm_create
  interface MPI_Intercomm_create_from_groups
    subroutine MPI_Intercomm_create_from_groups(local_group, local_leader, remote_group, &
        remote_leader, stringtag, info, errhandler, newintercomm, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: local_group
      integer, intent(in) :: local_leader
      type(MPI_Group), intent(in) :: remote_group
      integer, intent(in) :: remote_leader
      character(len=*), intent(in) :: stringtag
      type(MPI_Info), intent(in) :: info
      type(MPI_Errhandler), intent(in) :: errhandler
      type(MPI_Comm), intent(out) :: newintercomm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Intercomm_create_from_groups
  end interface MPI_Intercomm_create_from_groups
  interface PMPI_Intercomm_create_from_groups
    subroutine PMPI_Intercomm_create_from_groups(local_group, local_leader, remote_group, &
        remote_leader, stringtag, info, errhandler, newintercomm, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: local_group
      integer, intent(in) :: local_leader
      type(MPI_Group), intent(in) :: remote_group
      integer, intent(in) :: remote_leader
      character(len=*), intent(in) :: stringtag
      type(MPI_Info), intent(in) :: info
      type(MPI_Errhandler), intent(in) :: errhandler
      type(MPI_Comm), intent(out) :: newintercomm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Intercomm_create_from_groups
  end interface PMPI_Intercomm_create_from_groups
  interface MPI_Intercomm_merge
    subroutine MPI_Intercomm_merge(intercomm, high, newintracomm, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: intercomm
      logical, intent(in) :: high
      type(MPI_Comm), intent(out) :: newintracomm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Intercomm_merge
  end interface MPI_Intercomm_merge
  interface PMPI_Intercomm_merge
    subroutine PMPI_Intercomm_merge(intercomm, high, newintracomm, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: intercomm
      logical, intent(in) :: high
      type(MPI_Comm), intent(out) :: newintracomm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Intercomm_merge
  end interface PMPI_Intercomm_merge
  interface MPI_Iprobe
    subroutine MPI_Iprobe(source, tag, comm, flag, status, ierror)
      import
      implicit none
      integer, intent(in) :: source
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      logical, intent(out) :: flag
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Iprobe
  end interface MPI_Iprobe
  interface PMPI_Iprobe
    subroutine PMPI_Iprobe(source, tag, comm, flag, status, ierror)
      import
      implicit none
      integer, intent(in) :: source
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      logical, intent(out) :: flag
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Iprobe
  end interface PMPI_Iprobe
  interface MPI_Irecv
    subroutine MPI_Irecv_f08ts(buf, count, datatype, source, tag, comm, request, &
        ierror) bind(C, name="MPI_Irecv_f08ts")
      import
      implicit none
      type(*), dimension(..), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: source
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Irecv_f08ts
  end interface MPI_Irecv
  interface PMPI_Irecv
    subroutine PMPI_Irecv_f08ts(buf, count, datatype, source, tag, comm, request, &
        ierror) bind(C, name="PMPI_Irecv_f08ts")
      import
      implicit none
      type(*), dimension(..), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: source
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Irecv_f08ts
  end interface PMPI_Irecv
  interface MPI_Ireduce
    subroutine MPI_Ireduce_f08ts(sendbuf, recvbuf, count, datatype, op, root, comm, request, &
        ierror) bind(C, name="MPI_Ireduce_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Ireduce_f08ts
  end interface MPI_Ireduce
  interface PMPI_Ireduce
    subroutine PMPI_Ireduce_f08ts(sendbuf, recvbuf, count, datatype, op, root, comm, request, &
        ierror) bind(C, name="PMPI_Ireduce_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Ireduce_f08ts
  end interface PMPI_Ireduce
  interface MPI_Ireduce_scatter
    subroutine MPI_Ireduce_scatter_f08ts(sendbuf, recvbuf, recvcounts, datatype, op, comm, &
        request, ierror) bind(C, name="MPI_Ireduce_scatter_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Ireduce_scatter_f08ts
  end interface MPI_Ireduce_scatter
  interface PMPI_Ireduce_scatter
    subroutine PMPI_Ireduce_scatter_f08ts(sendbuf, recvbuf, recvcounts, datatype, op, comm, &
        request, ierror) bind(C, name="PMPI_Ireduce_scatter_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Ireduce_scatter_f08ts
  end interface PMPI_Ireduce_scatter
  interface MPI_Ireduce_scatter_block
    subroutine MPI_Ireduce_scatter_block_f08ts(sendbuf, recvbuf, recvcount, datatype, op, comm, &
        request, ierror) bind(C, name="MPI_Ireduce_scatter_block_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Ireduce_scatter_block_f08ts
  end interface MPI_Ireduce_scatter_block
  interface PMPI_Ireduce_scatter_block
    subroutine PMPI_Ireduce_scatter_block_f08ts(sendbuf, recvbuf, recvcount, datatype, op, &
        comm, request, ierror) bind(C, name="PMPI_Ireduce_scatter_block_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Ireduce_scatter_block_f08ts
  end interface PMPI_Ireduce_scatter_block
  interface MPI_Irsend
    subroutine MPI_Irsend_f08ts(buf, count, datatype, dest, tag, comm, request, ierror) bind(C, &
        name="MPI_Irsend_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Irsend_f08ts
  end interface MPI_Irsend
  interface PMPI_Irsend
    subroutine PMPI_Irsend_f08ts(buf, count, datatype, dest, tag, comm, request, &
        ierror) bind(C, name="PMPI_Irsend_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Irsend_f08ts
  end interface PMPI_Irsend
  interface MPI_Is_thread_main
    subroutine MPI_Is_thread_main(flag, ierror)
      import
      implicit none
      logical, intent(out) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Is_thread_main
  end interface MPI_Is_thread_main
  interface PMPI_Is_thread_main
    subroutine PMPI_Is_thread_main(flag, ierror)
      import
      implicit none
      logical, intent(out) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Is_thread_main
  end interface PMPI_Is_thread_main
  interface MPI_Iscan
    subroutine MPI_Iscan_f08ts(sendbuf, recvbuf, count, datatype, op, comm, request, &
        ierror) bind(C, name="MPI_Iscan_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Iscan_f08ts
  end interface MPI_Iscan
  interface PMPI_Iscan
    subroutine PMPI_Iscan_f08ts(sendbuf, recvbuf, count, datatype, op, comm, request, &
        ierror) bind(C, name="PMPI_Iscan_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Iscan_f08ts
  end interface PMPI_Iscan
  interface MPI_Iscatter
    subroutine MPI_Iscatter_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
        root, comm, request, ierror) bind(C, name="MPI_Iscatter_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Iscatter_f08ts
  end interface MPI_Iscatter
  interface PMPI_Iscatter
    subroutine PMPI_Iscatter_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
        root, comm, request, ierror) bind(C, name="PMPI_Iscatter_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Iscatter_f08ts
  end interface PMPI_Iscatter
  interface MPI_Iscatterv
    subroutine MPI_Iscatterv_f08ts(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, &
        recvtype, root, comm, request, ierror) bind(C, name="MPI_Iscatterv_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in), asynchronous :: sendcounts(*)
      integer, intent(in), asynchronous :: displs(*)
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Iscatterv_f08ts
  end interface MPI_Iscatterv
  interface PMPI_Iscatterv
    subroutine PMPI_Iscatterv_f08ts(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, &
        recvtype, root, comm, request, ierror) bind(C, name="PMPI_Iscatterv_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in), asynchronous :: sendcounts(*)
      integer, intent(in), asynchronous :: displs(*)
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Iscatterv_f08ts
  end interface PMPI_Iscatterv
  interface MPI_Isend
    subroutine MPI_Isend_f08ts(buf, count, datatype, dest, tag, comm, request, ierror) bind(C, &
        name="MPI_Isend_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Isend_f08ts
  end interface MPI_Isend
  interface PMPI_Isend
    subroutine PMPI_Isend_f08ts(buf, count, datatype, dest, tag, comm, request, ierror) bind(C, &
        name="PMPI_Isend_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Isend_f08ts
  end interface PMPI_Isend
  interface MPI_Isendrecv
    subroutine MPI_Isendrecv_f08ts(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, &
        recvcount, recvtype, source, recvtag, comm, request, ierror) bind(C, &
        name="MPI_Isendrecv_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      integer, intent(in) :: dest
      integer, intent(in) :: sendtag
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      integer, intent(in) :: source
      integer, intent(in) :: recvtag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Isendrecv_f08ts
  end interface MPI_Isendrecv
  interface PMPI_Isendrecv
    subroutine PMPI_Isendrecv_f08ts(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, &
        recvcount, recvtype, source, recvtag, comm, request, ierror) bind(C, &
        name="PMPI_Isendrecv_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      integer, intent(in) :: dest
      integer, intent(in) :: sendtag
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      integer, intent(in) :: source
      integer, intent(in) :: recvtag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Isendrecv_f08ts
  end interface PMPI_Isendrecv
  interface MPI_Isendrecv_replace
    subroutine MPI_Isendrecv_replace_f08ts(buf, count, datatype, dest, sendtag, source, &
        recvtag, comm, request, ierror) bind(C, name="MPI_Isendrecv_replace_f08ts")
      import
      implicit none
      type(*), dimension(..), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: sendtag
      integer, intent(in) :: source
      integer, intent(in) :: recvtag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Isendrecv_replace_f08ts
  end interface MPI_Isendrecv_replace
  interface PMPI_Isendrecv_replace
    subroutine PMPI_Isendrecv_replace_f08ts(buf, count, datatype, dest, sendtag, source, &
        recvtag, comm, request, ierror) bind(C, name="PMPI_Isendrecv_replace_f08ts")
      import
      implicit none
      type(*), dimension(..), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: sendtag
      integer, intent(in) :: source
      integer, intent(in) :: recvtag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Isendrecv_replace_f08ts
  end interface PMPI_Isendrecv_replace
  interface MPI_Issend
    subroutine MPI_Issend_f08ts(buf, count, datatype, dest, tag, comm, request, ierror) bind(C, &
        name="MPI_Issend_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Issend_f08ts
  end interface MPI_Issend
  interface PMPI_Issend
    subroutine PMPI_Issend_f08ts(buf, count, datatype, dest, tag, comm, request, &
        ierror) bind(C, name="PMPI_Issend_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Issend_f08ts
  end interface PMPI_Issend
  interface MPI_Lookup_name
    subroutine MPI_Lookup_name(service_name, info, port_name, ierror)
      import
      implicit none
      character(len=*), intent(in) :: service_name
      type(MPI_Info), intent(in) :: info
      character(len=*), intent(out) :: port_name
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Lookup_name
  end interface MPI_Lookup_name
  interface PMPI_Lookup_name
    subroutine PMPI_Lookup_name(service_name, info, port_name, ierror)
      import
      implicit none
      character(len=*), intent(in) :: service_name
      type(MPI_Info), intent(in) :: info
      character(len=*), intent(out) :: port_name
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Lookup_name
  end interface PMPI_Lookup_name
  interface MPI_Mprobe
    subroutine MPI_Mprobe(source, tag, comm, message, status, ierror)
      import
      implicit none
      integer, intent(in) :: source
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Message), intent(out) :: message
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Mprobe
  end interface MPI_Mprobe
  interface PMPI_Mprobe
    subroutine PMPI_Mprobe(source, tag, comm, message, status, ierror)
      import
      implicit none
      integer, intent(in) :: source
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Message), intent(out) :: message
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Mprobe
  end interface PMPI_Mprobe
  interface MPI_Mrecv
    subroutine MPI_Mrecv_f08ts(buf, count, datatype, message, status, ierror) bind(C, &
        name="MPI_Mrecv_f08ts")
      import
      implicit none
      type(*), dimension(..) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Message), intent(inout) :: message
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Mrecv_f08ts
  end interface MPI_Mrecv
  interface PMPI_Mrecv
    subroutine PMPI_Mrecv_f08ts(buf, count, datatype, message, status, ierror) bind(C, &
        name="PMPI_Mrecv_f08ts")
      import
      implicit none
      type(*), dimension(..) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Message), intent(inout) :: message
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Mrecv_f08ts
  end interface PMPI_Mrecv
  interface MPI_Neighbor_allgather
    subroutine MPI_Neighbor_allgather_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
        recvtype, comm, ierror) bind(C, name="MPI_Neighbor_allgather_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Neighbor_allgather_f08ts
  end interface MPI_Neighbor_allgather
  interface PMPI_Neighbor_allgather
    subroutine PMPI_Neighbor_allgather_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
        recvtype, comm, ierror) bind(C, name="PMPI_Neighbor_allgather_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Neighbor_allgather_f08ts
  end interface PMPI_Neighbor_allgather
  interface MPI_Neighbor_allgather_init
    subroutine MPI_Neighbor_allgather_init_f08ts(sendbuf, sendcount, sendtype, recvbuf, &
        recvcount, recvtype, comm, info, request, ierror) bind(C, &
        name="MPI_Neighbor_allgather_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Neighbor_allgather_init_f08ts
  end interface MPI_Neighbor_allgather_init
  interface PMPI_Neighbor_allgather_init
    subroutine PMPI_Neighbor_allgather_init_f08ts(sendbuf, sendcount, sendtype, recvbuf, &
        recvcount, recvtype, comm, info, request, ierror) bind(C, &
        name="PMPI_Neighbor_allgather_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Neighbor_allgather_init_f08ts
  end interface PMPI_Neighbor_allgather_init
  interface MPI_Neighbor_allgatherv
    subroutine MPI_Neighbor_allgatherv_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcounts, &
        displs, recvtype, comm, ierror) bind(C, name="MPI_Neighbor_allgatherv_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcounts(*)
      integer, intent(in) :: displs(*)
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Neighbor_allgatherv_f08ts
  end interface MPI_Neighbor_allgatherv
  interface PMPI_Neighbor_allgatherv
    subroutine PMPI_Neighbor_allgatherv_f08ts(sendbuf, sendcount, sendtype, recvbuf, &
        recvcounts, displs, recvtype, comm, ierror) bind(C, name="PMPI_Neighbor_allgatherv_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcounts(*)
      integer, intent(in) :: displs(*)
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Neighbor_allgatherv_f08ts
  end interface PMPI_Neighbor_allgatherv
  interface MPI_Neighbor_allgatherv_init
    subroutine MPI_Neighbor_allgatherv_init_f08ts(sendbuf, sendcount, sendtype, recvbuf, &
        recvcounts, displs, recvtype, comm, info, request, ierror) bind(C, &
        name="MPI_Neighbor_allgatherv_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      integer, intent(in) :: displs(*)
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Neighbor_allgatherv_init_f08ts
  end interface MPI_Neighbor_allgatherv_init
  interface PMPI_Neighbor_allgatherv_init
    subroutine PMPI_Neighbor_allgatherv_init_f08ts(sendbuf, sendcount, sendtype, recvbuf, &
        recvcounts, displs, recvtype, comm, info, request, ierror) bind(C, &
        name="PMPI_Neighbor_allgatherv_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      integer, intent(in) :: displs(*)
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Neighbor_allgatherv_init_f08ts
  end interface PMPI_Neighbor_allgatherv_init
  interface MPI_Neighbor_alltoall
    subroutine MPI_Neighbor_alltoall_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
        recvtype, comm, ierror) bind(C, name="MPI_Neighbor_alltoall_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Neighbor_alltoall_f08ts
  end interface MPI_Neighbor_alltoall
  interface PMPI_Neighbor_alltoall
    subroutine PMPI_Neighbor_alltoall_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
        recvtype, comm, ierror) bind(C, name="PMPI_Neighbor_alltoall_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Neighbor_alltoall_f08ts
  end interface PMPI_Neighbor_alltoall
  interface MPI_Neighbor_alltoall_init
    subroutine MPI_Neighbor_alltoall_init_f08ts(sendbuf, sendcount, sendtype, recvbuf, &
        recvcount, recvtype, comm, info, request, ierror) bind(C, &
        name="MPI_Neighbor_alltoall_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Neighbor_alltoall_init_f08ts
  end interface MPI_Neighbor_alltoall_init
  interface PMPI_Neighbor_alltoall_init
    subroutine PMPI_Neighbor_alltoall_init_f08ts(sendbuf, sendcount, sendtype, recvbuf, &
        recvcount, recvtype, comm, info, request, ierror) bind(C, &
        name="PMPI_Neighbor_alltoall_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Neighbor_alltoall_init_f08ts
  end interface PMPI_Neighbor_alltoall_init
  interface MPI_Neighbor_alltoallv
    subroutine MPI_Neighbor_alltoallv_f08ts(sendbuf, sendcounts, sdispls, sendtype, recvbuf, &
        recvcounts, rdispls, recvtype, comm, ierror) bind(C, name="MPI_Neighbor_alltoallv_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcounts(*)
      integer, intent(in) :: sdispls(*)
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcounts(*)
      integer, intent(in) :: rdispls(*)
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Neighbor_alltoallv_f08ts
  end interface MPI_Neighbor_alltoallv
  interface PMPI_Neighbor_alltoallv
    subroutine PMPI_Neighbor_alltoallv_f08ts(sendbuf, sendcounts, sdispls, sendtype, recvbuf, &
        recvcounts, rdispls, recvtype, comm, ierror) bind(C, name="PMPI_Neighbor_alltoallv_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcounts(*)
      integer, intent(in) :: sdispls(*)
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcounts(*)
      integer, intent(in) :: rdispls(*)
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Neighbor_alltoallv_f08ts
  end interface PMPI_Neighbor_alltoallv
  interface MPI_Neighbor_alltoallv_init
    subroutine MPI_Neighbor_alltoallv_init_f08ts(sendbuf, sendcounts, sdispls, sendtype, &
        recvbuf, recvcounts, rdispls, recvtype, comm, info, request, ierror) bind(C, &
        name="MPI_Neighbor_alltoallv_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in), asynchronous :: sendcounts(*)
      integer, intent(in), asynchronous :: sdispls(*)
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      integer, intent(in), asynchronous :: rdispls(*)
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Neighbor_alltoallv_init_f08ts
  end interface MPI_Neighbor_alltoallv_init
  interface PMPI_Neighbor_alltoallv_init
    subroutine PMPI_Neighbor_alltoallv_init_f08ts(sendbuf, sendcounts, sdispls, sendtype, &
        recvbuf, recvcounts, rdispls, recvtype, comm, info, request, ierror) bind(C, &
        name="PMPI_Neighbor_alltoallv_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in), asynchronous :: sendcounts(*)
      integer, intent(in), asynchronous :: sdispls(*)
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      integer, intent(in), asynchronous :: rdispls(*)
      type(MPI_Datatype), intent(in) :: recvtype
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Neighbor_alltoallv_init_f08ts
  end interface PMPI_Neighbor_alltoallv_init
  interface MPI_Neighbor_alltoallw
    subroutine MPI_Neighbor_alltoallw_f08ts(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, &
        recvcounts, rdispls, recvtypes, comm, ierror) bind(C, name="MPI_Neighbor_alltoallw_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcounts(*)
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: sdispls(*)
      type(MPI_Datatype), intent(in) :: sendtypes(*)
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcounts(*)
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: rdispls(*)
      type(MPI_Datatype), intent(in) :: recvtypes(*)
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Neighbor_alltoallw_f08ts
  end interface MPI_Neighbor_alltoallw
  interface PMPI_Neighbor_alltoallw
    subroutine PMPI_Neighbor_alltoallw_f08ts(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, &
        recvcounts, rdispls, recvtypes, comm, ierror) bind(C, name="PMPI_Neighbor_alltoallw_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcounts(*)
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: sdispls(*)
      type(MPI_Datatype), intent(in) :: sendtypes(*)
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcounts(*)
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: rdispls(*)
      type(MPI_Datatype), intent(in) :: recvtypes(*)
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Neighbor_alltoallw_f08ts
  end interface PMPI_Neighbor_alltoallw
  interface MPI_Neighbor_alltoallw_init
    subroutine MPI_Neighbor_alltoallw_init_f08ts(sendbuf, sendcounts, sdispls, sendtypes, &
        recvbuf, recvcounts, rdispls, recvtypes, comm, info, request, ierror) bind(C, &
        name="MPI_Neighbor_alltoallw_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in), asynchronous :: sendcounts(*)
      integer(kind=MPI_ADDRESS_KIND), intent(in), asynchronous :: sdispls(*)
      type(MPI_Datatype), intent(in), asynchronous :: sendtypes(*)
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      integer(kind=MPI_ADDRESS_KIND), intent(in), asynchronous :: rdispls(*)
      type(MPI_Datatype), intent(in), asynchronous :: recvtypes(*)
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Neighbor_alltoallw_init_f08ts
  end interface MPI_Neighbor_alltoallw_init
  interface PMPI_Neighbor_alltoallw_init
    subroutine PMPI_Neighbor_alltoallw_init_f08ts(sendbuf, sendcounts, sdispls, sendtypes, &
        recvbuf, recvcounts, rdispls, recvtypes, comm, info, request, ierror) bind(C, &
        name="PMPI_Neighbor_alltoallw_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in), asynchronous :: sendcounts(*)
      integer(kind=MPI_ADDRESS_KIND), intent(in), asynchronous :: sdispls(*)
      type(MPI_Datatype), intent(in), asynchronous :: sendtypes(*)
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      integer(kind=MPI_ADDRESS_KIND), intent(in), asynchronous :: rdispls(*)
      type(MPI_Datatype), intent(in), asynchronous :: recvtypes(*)
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Neighbor_alltoallw_init_f08ts
  end interface PMPI_Neighbor_alltoallw_init
  interface MPI_Op_commutative
    subroutine MPI_Op_commutative(op, commute, ierror)
      import
      implicit none
      type(MPI_Op), intent(in) :: op
      logical, intent(out) :: commute
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Op_commutative
  end interface MPI_Op_commutative
  interface PMPI_Op_commutative
    subroutine PMPI_Op_commutative(op, commute, ierror)
      import
      implicit none
      type(MPI_Op), intent(in) :: op
      logical, intent(out) :: commute
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Op_commutative
  end interface PMPI_Op_commutative
  interface MPI_Op_create
    subroutine MPI_Op_create(user_fn, commute, op, ierror)
      import
      implicit none
      procedure(MPI_User_function) :: user_fn
      logical, intent(in) :: commute
      type(MPI_Op), intent(out) :: op
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Op_create
  end interface MPI_Op_create
  interface PMPI_Op_create
    subroutine PMPI_Op_create(user_fn, commute, op, ierror)
      import
      implicit none
      procedure(MPI_User_function) :: user_fn
      logical, intent(in) :: commute
      type(MPI_Op), intent(out) :: op
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Op_create
  end interface PMPI_Op_create
  interface MPI_Op_free
    subroutine MPI_Op_free(op, ierror)
      import
      implicit none
      type(MPI_Op), intent(inout) :: op
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Op_free
  end interface MPI_Op_free
  interface PMPI_Op_free
    subroutine PMPI_Op_free(op, ierror)
      import
      implicit none
      type(MPI_Op), intent(inout) :: op
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Op_free
  end interface PMPI_Op_free
  interface MPI_Open_port
    subroutine MPI_Open_port(info, port_name, ierror)
      import
      implicit none
      type(MPI_Info), intent(in) :: info
      character(len=*), intent(out) :: port_name
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Open_port
  end interface MPI_Open_port
  interface PMPI_Open_port
    subroutine PMPI_Open_port(info, port_name, ierror)
      import
      implicit none
      type(MPI_Info), intent(in) :: info
      character(len=*), intent(out) :: port_name
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Open_port
  end interface PMPI_Open_port
  interface MPI_Pack
    subroutine MPI_Pack_f08ts(inbuf, incount, datatype, outbuf, outsize, position, comm, &
        ierror) bind(C, name="MPI_Pack_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: inbuf
      integer, intent(in) :: incount
      type(MPI_Datatype), intent(in) :: datatype
      type(*), dimension(..) :: outbuf
      integer, intent(in) :: outsize
      integer, intent(inout) :: position
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Pack_f08ts
  end interface MPI_Pack
  interface PMPI_Pack
    subroutine PMPI_Pack_f08ts(inbuf, incount, datatype, outbuf, outsize, position, comm, &
        ierror) bind(C, name="PMPI_Pack_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: inbuf
      integer, intent(in) :: incount
      type(MPI_Datatype), intent(in) :: datatype
      type(*), dimension(..) :: outbuf
      integer, intent(in) :: outsize
      integer, intent(inout) :: position
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Pack_f08ts
  end interface PMPI_Pack
  interface MPI_Pack_external
    subroutine MPI_Pack_external_f08ts(datarep, inbuf, incount, datatype, outbuf, outsize, &
        position, ierror) bind(C, name="MPI_Pack_external_f08ts")
      import
      implicit none
      character(len=*), intent(in) :: datarep
      type(*), dimension(..), intent(in) :: inbuf
      integer, intent(in) :: incount
      type(MPI_Datatype), intent(in) :: datatype
      type(*), dimension(..) :: outbuf
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: outsize
      integer(kind=MPI_ADDRESS_KIND), intent(inout) :: position
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Pack_external_f08ts
  end interface MPI_Pack_external
  interface PMPI_Pack_external
    subroutine PMPI_Pack_external_f08ts(datarep, inbuf, incount, datatype, outbuf, outsize, &
        position, ierror) bind(C, name="PMPI_Pack_external_f08ts")
      import
      implicit none
      character(len=*), intent(in) :: datarep
      type(*), dimension(..), intent(in) :: inbuf
      integer, intent(in) :: incount
      type(MPI_Datatype), intent(in) :: datatype
      type(*), dimension(..) :: outbuf
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: outsize
      integer(kind=MPI_ADDRESS_KIND), intent(inout) :: position
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Pack_external_f08ts
  end interface PMPI_Pack_external
  interface MPI_Pack_external_size
    subroutine MPI_Pack_external_size(datarep, incount, datatype, size, ierror)
      import
      implicit none
      character(len=*), intent(in) :: datarep
      integer, intent(in) :: incount
      type(MPI_Datatype), intent(in) :: datatype
      integer(kind=MPI_ADDRESS_KIND), intent(out) :: size
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Pack_external_size
  end interface MPI_Pack_external_size
  interface PMPI_Pack_external_size
    subroutine PMPI_Pack_external_size(datarep, incount, datatype, size, ierror)
      import
      implicit none
      character(len=*), intent(in) :: datarep
      integer, intent(in) :: incount
      type(MPI_Datatype), intent(in) :: datatype
      integer(kind=MPI_ADDRESS_KIND), intent(out) :: size
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Pack_external_size
  end interface PMPI_Pack_external_size
  interface MPI_Pack_size
    subroutine MPI_Pack_size(incount, datatype, comm, size, ierror)
      import
      implicit none
      integer, intent(in) :: incount
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Comm), intent(in) :: comm
      integer, intent(out) :: size
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Pack_size
  end interface MPI_Pack_size
  interface PMPI_Pack_size
    subroutine PMPI_Pack_size(incount, datatype, comm, size, ierror)
      import
      implicit none
      integer, intent(in) :: incount
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Comm), intent(in) :: comm
      integer, intent(out) :: size
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Pack_size
  end interface PMPI_Pack_size
  interface MPI_Parrived
    subroutine MPI_Parrived(request, partition, flag, ierror)
      import
      implicit none
      type(MPI_Request), intent(in) :: request
      integer, intent(in) :: partition
      logical, intent(out) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Parrived
  end interface MPI_Parrived
  interface PMPI_Parrived
    subroutine PMPI_Parrived(request, partition, flag, ierror)
      import
      implicit none
      type(MPI_Request), intent(in) :: request
      integer, intent(in) :: partition
      logical, intent(out) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Parrived
  end interface PMPI_Parrived
  interface MPI_Pcontrol
    subroutine MPI_Pcontrol(level)
      import
      implicit none
      integer, intent(in) :: level
    end subroutine MPI_Pcontrol
  end interface MPI_Pcontrol
  interface PMPI_Pcontrol
    subroutine PMPI_Pcontrol(level)
      import
      implicit none
      integer, intent(in) :: level
    end subroutine PMPI_Pcontrol
  end interface PMPI_Pcontrol
  interface MPI_Pready
    subroutine MPI_Pready(partition, request, ierror)
      import
      implicit none
      integer, intent(in) :: partition
      type(MPI_Request), intent(in) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Pready
  end interface MPI_Pready
  interface PMPI_Pready
    subroutine PMPI_Pready(partition, request, ierror)
      import
      implicit none
      integer, intent(in) :: partition
      type(MPI_Request), intent(in) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Pready
  end interface PMPI_Pready
  interface MPI_Pready_list
    subroutine MPI_Pready_list(length, array_of_partitions, request, ierror)
      import
      implicit none
      integer, intent(in) :: length
      integer, intent(in) :: array_of_partitions(*)
      type(MPI_Request), intent(in) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Pready_list
  end interface MPI_Pready_list
  interface PMPI_Pready_list
    subroutine PMPI_Pready_list(length, array_of_partitions, request, ierror)
      import
      implicit none
      integer, intent(in) :: length
      integer, intent(in) :: array_of_partitions(*)
      type(MPI_Request), intent(in) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Pready_list
  end interface PMPI_Pready_list
  interface MPI_Pready_range
    subroutine MPI_Pready_range(partition_low, partition_high, request, ierror)
      import
      implicit none
      integer, intent(in) :: partition_low
      integer, intent(in) :: partition_high
      type(MPI_Request), intent(in) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Pready_range
  end interface MPI_Pready_range
  interface PMPI_Pready_range
    subroutine PMPI_Pready_range(partition_low, partition_high, request, ierror)
      import
      implicit none
      integer, intent(in) :: partition_low
      integer, intent(in) :: partition_high
      type(MPI_Request), intent(in) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Pready_range
  end interface PMPI_Pready_range
  interface MPI_Precv_init
    subroutine MPI_Precv_init_f08ts(buf, partitions, count, datatype, source, tag, comm, info, &
        request, ierror) bind(C, name="MPI_Precv_init_f08ts")
      import
      implicit none
      type(*), dimension(..), asynchronous :: buf
      integer, intent(in) :: partitions
      integer(kind=MPI_COUNT_KIND), intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: source
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Precv_init_f08ts
  end interface MPI_Precv_init
  interface PMPI_Precv_init
    subroutine PMPI_Precv_init_f08ts(buf, partitions, count, datatype, source, tag, comm, info, &
        request, ierror) bind(C, name="PMPI_Precv_init_f08ts")
      import
      implicit none
      type(*), dimension(..), asynchronous :: buf
      integer, intent(in) :: partitions
      integer(kind=MPI_COUNT_KIND), intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: source
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Precv_init_f08ts
  end interface PMPI_Precv_init
  interface MPI_Probe
    subroutine MPI_Probe(source, tag, comm, status, ierror)
      import
      implicit none
      integer, intent(in) :: source
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Probe
  end interface MPI_Probe
  interface PMPI_Probe
    subroutine PMPI_Probe(source, tag, comm, status, ierror)
      import
      implicit none
      integer, intent(in) :: source
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Probe
  end interface PMPI_Probe
  interface MPI_Psend_init
    subroutine MPI_Psend_init_f08ts(buf, partitions, count, datatype, dest, tag, comm, info, &
        request, ierror) bind(C, name="MPI_Psend_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: partitions
      integer(kind=MPI_COUNT_KIND), intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Psend_init_f08ts
  end interface MPI_Psend_init
  interface PMPI_Psend_init
    subroutine PMPI_Psend_init_f08ts(buf, partitions, count, datatype, dest, tag, comm, info, &
        request, ierror) bind(C, name="PMPI_Psend_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: partitions
      integer(kind=MPI_COUNT_KIND), intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Psend_init_f08ts
  end interface PMPI_Psend_init
  interface MPI_Publish_name
    subroutine MPI_Publish_name(service_name, info, port_name, ierror)
      import
      implicit none
      character(len=*), intent(in) :: service_name
      type(MPI_Info), intent(in) :: info
      character(len=*), intent(in) :: port_name
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Publish_name
  end interface MPI_Publish_name
  interface PMPI_Publish_name
    subroutine PMPI_Publish_name(service_name, info, port_name, ierror)
      import
      implicit none
      character(len=*), intent(in) :: service_name
      type(MPI_Info), intent(in) :: info
      character(len=*), intent(in) :: port_name
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Publish_name
  end interface PMPI_Publish_name
  interface MPI_Put
    subroutine MPI_Put_f08ts(origin_addr, origin_count, origin_datatype, target_rank, &
        target_disp, target_count, target_datatype, win, ierror) bind(C, name="MPI_Put_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: origin_addr
      integer, intent(in) :: origin_count
      type(MPI_Datatype), intent(in) :: origin_datatype
      integer, intent(in) :: target_rank
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
      integer, intent(in) :: target_count
      type(MPI_Datatype), intent(in) :: target_datatype
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Put_f08ts
  end interface MPI_Put
  interface PMPI_Put
    subroutine PMPI_Put_f08ts(origin_addr, origin_count, origin_datatype, target_rank, &
        target_disp, target_count, target_datatype, win, ierror) bind(C, name="PMPI_Put_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: origin_addr
      integer, intent(in) :: origin_count
      type(MPI_Datatype), intent(in) :: origin_datatype
      integer, intent(in) :: target_rank
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
      integer, intent(in) :: target_count
      type(MPI_Datatype), intent(in) :: target_datatype
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Put_f08ts
  end interface PMPI_Put
  interface MPI_Query_thread
    subroutine MPI_Query_thread(provided, ierror)
      import
      implicit none
      integer, intent(out) :: provided
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Query_thread
  end interface MPI_Query_thread
  interface PMPI_Query_thread
    subroutine PMPI_Query_thread(provided, ierror)
      import
      implicit none
      integer, intent(out) :: provided
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Query_thread
  end interface PMPI_Query_thread
  interface MPI_Raccumulate
    subroutine MPI_Raccumulate_f08ts(origin_addr, origin_count, origin_datatype, target_rank, &
        target_disp, target_count, target_datatype, op, win, request, ierror) bind(C, &
        name="MPI_Raccumulate_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: origin_addr
      integer, intent(in) :: origin_count
      type(MPI_Datatype), intent(in) :: origin_datatype
      integer, intent(in) :: target_rank
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
      integer, intent(in) :: target_count
      type(MPI_Datatype), intent(in) :: target_datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Win), intent(in) :: win
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Raccumulate_f08ts
  end interface MPI_Raccumulate
  interface PMPI_Raccumulate
    subroutine PMPI_Raccumulate_f08ts(origin_addr, origin_count, origin_datatype, target_rank, &
        target_disp, target_count, target_datatype, op, win, request, ierror) bind(C, &
        name="PMPI_Raccumulate_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: origin_addr
      integer, intent(in) :: origin_count
      type(MPI_Datatype), intent(in) :: origin_datatype
      integer, intent(in) :: target_rank
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
      integer, intent(in) :: target_count
      type(MPI_Datatype), intent(in) :: target_datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Win), intent(in) :: win
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Raccumulate_f08ts
  end interface PMPI_Raccumulate
  interface MPI_Recv
    subroutine MPI_Recv_f08ts(buf, count, datatype, source, tag, comm, status, ierror) bind(C, &
        name="MPI_Recv_f08ts")
      import
      implicit none
      type(*), dimension(..) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: source
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Recv_f08ts
  end interface MPI_Recv
  interface PMPI_Recv
    subroutine PMPI_Recv_f08ts(buf, count, datatype, source, tag, comm, status, ierror) bind(C, &
        name="PMPI_Recv_f08ts")
      import
      implicit none
      type(*), dimension(..) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: source
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Recv_f08ts
  end interface PMPI_Recv
  interface MPI_Recv_init
    subroutine MPI_Recv_init_f08ts(buf, count, datatype, source, tag, comm, request, &
        ierror) bind(C, name="MPI_Recv_init_f08ts")
      import
      implicit none
      type(*), dimension(..), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: source
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Recv_init_f08ts
  end interface MPI_Recv_init
  interface PMPI_Recv_init
    subroutine PMPI_Recv_init_f08ts(buf, count, datatype, source, tag, comm, request, &
        ierror) bind(C, name="PMPI_Recv_init_f08ts")
      import
      implicit none
      type(*), dimension(..), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: source
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Recv_init_f08ts
  end interface PMPI_Recv_init
  interface MPI_Reduce
    subroutine MPI_Reduce_f08ts(sendbuf, recvbuf, count, datatype, op, root, comm, &
        ierror) bind(C, name="MPI_Reduce_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Reduce_f08ts
  end interface MPI_Reduce
  interface PMPI_Reduce
    subroutine PMPI_Reduce_f08ts(sendbuf, recvbuf, count, datatype, op, root, comm, &
        ierror) bind(C, name="PMPI_Reduce_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Reduce_f08ts
  end interface PMPI_Reduce
  interface MPI_Reduce_init
    subroutine MPI_Reduce_init_f08ts(sendbuf, recvbuf, count, datatype, op, root, comm, info, &
        request, ierror) bind(C, name="MPI_Reduce_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Reduce_init_f08ts
  end interface MPI_Reduce_init
  interface PMPI_Reduce_init
    subroutine PMPI_Reduce_init_f08ts(sendbuf, recvbuf, count, datatype, op, root, comm, info, &
        request, ierror) bind(C, name="PMPI_Reduce_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Reduce_init_f08ts
  end interface PMPI_Reduce_init
  interface MPI_Reduce_local
    subroutine MPI_Reduce_local_f08ts(inbuf, inoutbuf, count, datatype, op, ierror) bind(C, &
        name="MPI_Reduce_local_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: inbuf
      type(*), dimension(..) :: inoutbuf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Reduce_local_f08ts
  end interface MPI_Reduce_local
  interface PMPI_Reduce_local
    subroutine PMPI_Reduce_local_f08ts(inbuf, inoutbuf, count, datatype, op, ierror) bind(C, &
        name="PMPI_Reduce_local_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: inbuf
      type(*), dimension(..) :: inoutbuf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Reduce_local_f08ts
  end interface PMPI_Reduce_local
  interface MPI_Reduce_scatter
    subroutine MPI_Reduce_scatter_f08ts(sendbuf, recvbuf, recvcounts, datatype, op, comm, &
        ierror) bind(C, name="MPI_Reduce_scatter_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcounts(*)
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Reduce_scatter_f08ts
  end interface MPI_Reduce_scatter
  interface PMPI_Reduce_scatter
    subroutine PMPI_Reduce_scatter_f08ts(sendbuf, recvbuf, recvcounts, datatype, op, comm, &
        ierror) bind(C, name="PMPI_Reduce_scatter_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcounts(*)
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Reduce_scatter_f08ts
  end interface PMPI_Reduce_scatter
  interface MPI_Reduce_scatter_block
    subroutine MPI_Reduce_scatter_block_f08ts(sendbuf, recvbuf, recvcount, datatype, op, comm, &
        ierror) bind(C, name="MPI_Reduce_scatter_block_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Reduce_scatter_block_f08ts
  end interface MPI_Reduce_scatter_block
  interface PMPI_Reduce_scatter_block
    subroutine PMPI_Reduce_scatter_block_f08ts(sendbuf, recvbuf, recvcount, datatype, op, comm, &
        ierror) bind(C, name="PMPI_Reduce_scatter_block_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Reduce_scatter_block_f08ts
  end interface PMPI_Reduce_scatter_block
  interface MPI_Reduce_scatter_block_init
    subroutine MPI_Reduce_scatter_block_init_f08ts(sendbuf, recvbuf, recvcount, datatype, op, &
        comm, info, request, ierror) bind(C, name="MPI_Reduce_scatter_block_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Reduce_scatter_block_init_f08ts
  end interface MPI_Reduce_scatter_block_init
  interface PMPI_Reduce_scatter_block_init
    subroutine PMPI_Reduce_scatter_block_init_f08ts(sendbuf, recvbuf, recvcount, datatype, op, &
        comm, info, request, ierror) bind(C, name="PMPI_Reduce_scatter_block_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Reduce_scatter_block_init_f08ts
  end interface PMPI_Reduce_scatter_block_init
  interface MPI_Reduce_scatter_init
    subroutine MPI_Reduce_scatter_init_f08ts(sendbuf, recvbuf, recvcounts, datatype, op, comm, &
        info, request, ierror) bind(C, name="MPI_Reduce_scatter_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Reduce_scatter_init_f08ts
  end interface MPI_Reduce_scatter_init
  interface PMPI_Reduce_scatter_init
    subroutine PMPI_Reduce_scatter_init_f08ts(sendbuf, recvbuf, recvcounts, datatype, op, comm, &
        info, request, ierror) bind(C, name="PMPI_Reduce_scatter_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in), asynchronous :: recvcounts(*)
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Reduce_scatter_init_f08ts
  end interface PMPI_Reduce_scatter_init
  interface MPI_Remove_error_class
    subroutine MPI_Remove_error_class(errorclass, ierror)
      import
      implicit none
      integer, intent(in) :: errorclass
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Remove_error_class
  end interface MPI_Remove_error_class
  interface PMPI_Remove_error_class
    subroutine PMPI_Remove_error_class(errorclass, ierror)
      import
      implicit none
      integer, intent(in) :: errorclass
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Remove_error_class
  end interface PMPI_Remove_error_class
  interface MPI_Remove_error_code
    subroutine MPI_Remove_error_code(errorcode, ierror)
      import
      implicit none
      integer, intent(in) :: errorcode
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Remove_error_code
  end interface MPI_Remove_error_code
  interface PMPI_Remove_error_code
    subroutine PMPI_Remove_error_code(errorcode, ierror)
      import
      implicit none
      integer, intent(in) :: errorcode
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Remove_error_code
  end interface PMPI_Remove_error_code
  interface MPI_Remove_error_string
    subroutine MPI_Remove_error_string(errorcode, ierror)
      import
      implicit none
      integer, intent(in) :: errorcode
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Remove_error_string
  end interface MPI_Remove_error_string
  interface PMPI_Remove_error_string
    subroutine PMPI_Remove_error_string(errorcode, ierror)
      import
      implicit none
      integer, intent(in) :: errorcode
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Remove_error_string
  end interface PMPI_Remove_error_string
  interface MPI_Request_free
    subroutine MPI_Request_free(request, ierror)
      import
      implicit none
      type(MPI_Request), intent(inout) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Request_free
  end interface MPI_Request_free
  interface PMPI_Request_free
    subroutine PMPI_Request_free(request, ierror)
      import
      implicit none
      type(MPI_Request), intent(inout) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Request_free
  end interface PMPI_Request_free
  interface MPI_Request_get_status
    subroutine MPI_Request_get_status(request, flag, status, ierror)
      import
      implicit none
      type(MPI_Request), intent(in) :: request
      logical, intent(out) :: flag
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Request_get_status
  end interface MPI_Request_get_status
  interface PMPI_Request_get_status
    subroutine PMPI_Request_get_status(request, flag, status, ierror)
      import
      implicit none
      type(MPI_Request), intent(in) :: request
      logical, intent(out) :: flag
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Request_get_status
  end interface PMPI_Request_get_status
  interface MPI_Request_get_status_all
    subroutine MPI_Request_get_status_all(count, array_of_requests, flag, array_of_statuses, ierror)
      import
      implicit none
      integer, intent(in) :: count
      type(MPI_Request), intent(in) :: array_of_requests(*)
      logical, intent(out) :: flag
      type(MPI_Status) :: array_of_statuses(*)
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Request_get_status_all
  end interface MPI_Request_get_status_all
  interface PMPI_Request_get_status_all
    subroutine PMPI_Request_get_status_all(count, array_of_requests, flag, array_of_statuses, &
        ierror)
      import
      implicit none
      integer, intent(in) :: count
      type(MPI_Request), intent(in) :: array_of_requests(*)
      logical, intent(out) :: flag
      type(MPI_Status) :: array_of_statuses(*)
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Request_get_status_all
  end interface PMPI_Request_get_status_all
  interface MPI_Request_get_status_any
    subroutine MPI_Request_get_status_any(count, array_of_requests, index, flag, status, ierror)
      import
      implicit none
      integer, intent(in) :: count
      type(MPI_Request), intent(in) :: array_of_requests(*)
      integer, intent(out) :: index
      logical, intent(out) :: flag
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Request_get_status_any
  end interface MPI_Request_get_status_any
  interface PMPI_Request_get_status_any
    subroutine PMPI_Request_get_status_any(count, array_of_requests, index, flag, status, ierror)
      import
      implicit none
      integer, intent(in) :: count
      type(MPI_Request), intent(in) :: array_of_requests(*)
      integer, intent(out) :: index
      logical, intent(out) :: flag
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Request_get_status_any
  end interface PMPI_Request_get_status_any
  interface MPI_Request_get_status_some
    subroutine MPI_Request_get_status_some(incount, array_of_requests, outcount, &
        array_of_indices, array_of_statuses, ierror)
      import
      implicit none
      integer, intent(in) :: incount
      type(MPI_Request), intent(in) :: array_of_requests(*)
      integer, intent(out) :: outcount
      integer, intent(out) :: array_of_indices(*)
      type(MPI_Status) :: array_of_statuses(*)
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Request_get_status_some
  end interface MPI_Request_get_status_some
  interface PMPI_Request_get_status_some
    subroutine PMPI_Request_get_status_some(incount, array_of_requests, outcount, &
        array_of_indices, array_of_statuses, ierror)
      import
      implicit none
      integer, intent(in) :: incount
      type(MPI_Request), intent(in) :: array_of_requests(*)
      integer, intent(out) :: outcount
      integer, intent(out) :: array_of_indices(*)
      type(MPI_Status) :: array_of_statuses(*)
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Request_get_status_some
  end interface PMPI_Request_get_status_some
  interface MPI_Rget
    subroutine MPI_Rget_f08ts(origin_addr, origin_count, origin_datatype, target_rank, &
        target_disp, target_count, target_datatype, win, request, ierror) bind(C, &
        name="MPI_Rget_f08ts")
      import
      implicit none
      type(*), dimension(..), asynchronous :: origin_addr
      integer, intent(in) :: origin_count
      type(MPI_Datatype), intent(in) :: origin_datatype
      integer, intent(in) :: target_rank
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
      integer, intent(in) :: target_count
      type(MPI_Datatype), intent(in) :: target_datatype
      type(MPI_Win), intent(in) :: win
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Rget_f08ts
  end interface MPI_Rget
  interface PMPI_Rget
    subroutine PMPI_Rget_f08ts(origin_addr, origin_count, origin_datatype, target_rank, &
        target_disp, target_count, target_datatype, win, request, ierror) bind(C, &
        name="PMPI_Rget_f08ts")
      import
      implicit none
      type(*), dimension(..), asynchronous :: origin_addr
      integer, intent(in) :: origin_count
      type(MPI_Datatype), intent(in) :: origin_datatype
      integer, intent(in) :: target_rank
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
      integer, intent(in) :: target_count
      type(MPI_Datatype), intent(in) :: target_datatype
      type(MPI_Win), intent(in) :: win
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Rget_f08ts
  end interface PMPI_Rget
  interface MPI_Rget_accumulate
    subroutine MPI_Rget_accumulate_f08ts(origin_addr, origin_count, origin_datatype, &
        result_addr, result_count, result_datatype, target_rank, target_disp, target_count, &
        target_datatype, op, win, request, ierror) bind(C, name="MPI_Rget_accumulate_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: origin_addr
      integer, intent(in) :: origin_count
      type(MPI_Datatype), intent(in) :: origin_datatype
      type(*), dimension(..), asynchronous :: result_addr
      integer, intent(in) :: result_count
      type(MPI_Datatype), intent(in) :: result_datatype
      integer, intent(in) :: target_rank
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
      integer, intent(in) :: target_count
      type(MPI_Datatype), intent(in) :: target_datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Win), intent(in) :: win
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Rget_accumulate_f08ts
  end interface MPI_Rget_accumulate
  interface PMPI_Rget_accumulate
    subroutine PMPI_Rget_accumulate_f08ts(origin_addr, origin_count, origin_datatype, &
        result_addr, result_count, result_datatype, target_rank, target_disp, target_count, &
        target_datatype, op, win, request, ierror) bind(C, name="PMPI_Rget_accumulate_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: origin_addr
      integer, intent(in) :: origin_count
      type(MPI_Datatype), intent(in) :: origin_datatype
      type(*), dimension(..), asynchronous :: result_addr
      integer, intent(in) :: result_count
      type(MPI_Datatype), intent(in) :: result_datatype
      integer, intent(in) :: target_rank
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
      integer, intent(in) :: target_count
      type(MPI_Datatype), intent(in) :: target_datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Win), intent(in) :: win
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Rget_accumulate_f08ts
  end interface PMPI_Rget_accumulate
  interface MPI_Rput
    subroutine MPI_Rput_f08ts(origin_addr, origin_count, origin_datatype, target_rank, &
        target_disp, target_count, target_datatype, win, request, ierror) bind(C, &
        name="MPI_Rput_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: origin_addr
      integer, intent(in) :: origin_count
      type(MPI_Datatype), intent(in) :: origin_datatype
      integer, intent(in) :: target_rank
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
      integer, intent(in) :: target_count
      type(MPI_Datatype), intent(in) :: target_datatype
      type(MPI_Win), intent(in) :: win
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Rput_f08ts
  end interface MPI_Rput
  interface PMPI_Rput
    subroutine PMPI_Rput_f08ts(origin_addr, origin_count, origin_datatype, target_rank, &
        target_disp, target_count, target_datatype, win, request, ierror) bind(C, &
        name="PMPI_Rput_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: origin_addr
      integer, intent(in) :: origin_count
      type(MPI_Datatype), intent(in) :: origin_datatype
      integer, intent(in) :: target_rank
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: target_disp
      integer, intent(in) :: target_count
      type(MPI_Datatype), intent(in) :: target_datatype
      type(MPI_Win), intent(in) :: win
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Rput_f08ts
  end interface PMPI_Rput
  interface MPI_Rsend
    subroutine MPI_Rsend_f08ts(buf, count, datatype, dest, tag, comm, ierror) bind(C, &
        name="MPI_Rsend_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Rsend_f08ts
  end interface MPI_Rsend
  interface PMPI_Rsend
    subroutine PMPI_Rsend_f08ts(buf, count, datatype, dest, tag, comm, ierror) bind(C, &
        name="PMPI_Rsend_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Rsend_f08ts
  end interface PMPI_Rsend
  interface MPI_Rsend_init
    subroutine MPI_Rsend_init_f08ts(buf, count, datatype, dest, tag, comm, request, &
        ierror) bind(C, name="MPI_Rsend_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Rsend_init_f08ts
  end interface MPI_Rsend_init
  interface PMPI_Rsend_init
    subroutine PMPI_Rsend_init_f08ts(buf, count, datatype, dest, tag, comm, request, &
        ierror) bind(C, name="PMPI_Rsend_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Rsend_init_f08ts
  end interface PMPI_Rsend_init
  interface MPI_Scan
    subroutine MPI_Scan_f08ts(sendbuf, recvbuf, count, datatype, op, comm, ierror) bind(C, &
        name="MPI_Scan_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Scan_f08ts
  end interface MPI_Scan
  interface PMPI_Scan
    subroutine PMPI_Scan_f08ts(sendbuf, recvbuf, count, datatype, op, comm, ierror) bind(C, &
        name="PMPI_Scan_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Scan_f08ts
  end interface PMPI_Scan
  interface MPI_Scan_init
    subroutine MPI_Scan_init_f08ts(sendbuf, recvbuf, count, datatype, op, comm, info, request, &
        ierror) bind(C, name="MPI_Scan_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Scan_init_f08ts
  end interface MPI_Scan_init
  interface PMPI_Scan_init
    subroutine PMPI_Scan_init_f08ts(sendbuf, recvbuf, count, datatype, op, comm, info, request, &
        ierror) bind(C, name="PMPI_Scan_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Op), intent(in) :: op
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Scan_init_f08ts
  end interface PMPI_Scan_init
  interface MPI_Scatter
    subroutine MPI_Scatter_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
        root, comm, ierror) bind(C, name="MPI_Scatter_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Scatter_f08ts
  end interface MPI_Scatter
  interface PMPI_Scatter
    subroutine PMPI_Scatter_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
        root, comm, ierror) bind(C, name="PMPI_Scatter_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Scatter_f08ts
  end interface PMPI_Scatter
  interface MPI_Scatter_init
    subroutine MPI_Scatter_init_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
        recvtype, root, comm, info, request, ierror) bind(C, name="MPI_Scatter_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Scatter_init_f08ts
  end interface MPI_Scatter_init
  interface PMPI_Scatter_init
    subroutine PMPI_Scatter_init_f08ts(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
        recvtype, root, comm, info, request, ierror) bind(C, name="PMPI_Scatter_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Scatter_init_f08ts
  end interface PMPI_Scatter_init
  interface MPI_Scatterv
    subroutine MPI_Scatterv_f08ts(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, &
        recvtype, root, comm, ierror) bind(C, name="MPI_Scatterv_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcounts(*)
      integer, intent(in) :: displs(*)
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Scatterv_f08ts
  end interface MPI_Scatterv
  interface PMPI_Scatterv
    subroutine PMPI_Scatterv_f08ts(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, &
        recvtype, root, comm, ierror) bind(C, name="PMPI_Scatterv_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcounts(*)
      integer, intent(in) :: displs(*)
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Scatterv_f08ts
  end interface PMPI_Scatterv
  interface MPI_Scatterv_init
    subroutine MPI_Scatterv_init_f08ts(sendbuf, sendcounts, displs, sendtype, recvbuf, &
        recvcount, recvtype, root, comm, info, request, ierror) bind(C, &
        name="MPI_Scatterv_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in), asynchronous :: sendcounts(*)
      integer, intent(in), asynchronous :: displs(*)
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Scatterv_init_f08ts
  end interface MPI_Scatterv_init
  interface PMPI_Scatterv_init
    subroutine PMPI_Scatterv_init_f08ts(sendbuf, sendcounts, displs, sendtype, recvbuf, &
        recvcount, recvtype, root, comm, info, request, ierror) bind(C, &
        name="PMPI_Scatterv_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer, intent(in), asynchronous :: sendcounts(*)
      integer, intent(in), asynchronous :: displs(*)
      type(MPI_Datatype), intent(in) :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      integer, intent(in) :: root
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Info), intent(in) :: info
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Scatterv_init_f08ts
  end interface PMPI_Scatterv_init
  interface MPI_Send
    subroutine MPI_Send_f08ts(buf, count, datatype, dest, tag, comm, ierror) bind(C, &
        name="MPI_Send_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Send_f08ts
  end interface MPI_Send
  interface PMPI_Send
    subroutine PMPI_Send_f08ts(buf, count, datatype, dest, tag, comm, ierror) bind(C, &
        name="PMPI_Send_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Send_f08ts
  end interface PMPI_Send
  interface MPI_Send_init
    subroutine MPI_Send_init_f08ts(buf, count, datatype, dest, tag, comm, request, &
        ierror) bind(C, name="MPI_Send_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Send_init_f08ts
  end interface MPI_Send_init
  interface PMPI_Send_init
    subroutine PMPI_Send_init_f08ts(buf, count, datatype, dest, tag, comm, request, &
        ierror) bind(C, name="PMPI_Send_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Send_init_f08ts
  end interface PMPI_Send_init
  interface MPI_Sendrecv
    subroutine MPI_Sendrecv_f08ts(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, &
        recvcount, recvtype, source, recvtag, comm, status, ierror) bind(C, &
        name="MPI_Sendrecv_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      integer, intent(in) :: dest
      integer, intent(in) :: sendtag
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      integer, intent(in) :: source
      integer, intent(in) :: recvtag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Sendrecv_f08ts
  end interface MPI_Sendrecv
  interface PMPI_Sendrecv
    subroutine PMPI_Sendrecv_f08ts(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, &
        recvcount, recvtype, source, recvtag, comm, status, ierror) bind(C, &
        name="PMPI_Sendrecv_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: sendbuf
      integer, intent(in) :: sendcount
      type(MPI_Datatype), intent(in) :: sendtype
      integer, intent(in) :: dest
      integer, intent(in) :: sendtag
      type(*), dimension(..) :: recvbuf
      integer, intent(in) :: recvcount
      type(MPI_Datatype), intent(in) :: recvtype
      integer, intent(in) :: source
      integer, intent(in) :: recvtag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Sendrecv_f08ts
  end interface PMPI_Sendrecv
  interface MPI_Sendrecv_replace
    subroutine MPI_Sendrecv_replace_f08ts(buf, count, datatype, dest, sendtag, source, recvtag, &
        comm, status, ierror) bind(C, name="MPI_Sendrecv_replace_f08ts")
      import
      implicit none
      type(*), dimension(..) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: sendtag
      integer, intent(in) :: source
      integer, intent(in) :: recvtag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Sendrecv_replace_f08ts
  end interface MPI_Sendrecv_replace
  interface PMPI_Sendrecv_replace
    subroutine PMPI_Sendrecv_replace_f08ts(buf, count, datatype, dest, sendtag, source, &
        recvtag, comm, status, ierror) bind(C, name="PMPI_Sendrecv_replace_f08ts")
      import
      implicit none
      type(*), dimension(..) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: sendtag
      integer, intent(in) :: source
      integer, intent(in) :: recvtag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Sendrecv_replace_f08ts
  end interface PMPI_Sendrecv_replace
  interface MPI_Session_attach_buffer
    subroutine MPI_Session_attach_buffer_f08ts(session, buffer, size, ierror) bind(C, &
        name="MPI_Session_attach_buffer_f08ts")
      import
      implicit none
      type(MPI_Session), intent(in) :: session
      type(*), dimension(..), asynchronous :: buffer
      integer, intent(in) :: size
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Session_attach_buffer_f08ts
  end interface MPI_Session_attach_buffer
  interface PMPI_Session_attach_buffer
    subroutine PMPI_Session_attach_buffer_f08ts(session, buffer, size, ierror) bind(C, &
        name="PMPI_Session_attach_buffer_f08ts")
      import
      implicit none
      type(MPI_Session), intent(in) :: session
      type(*), dimension(..), asynchronous :: buffer
      integer, intent(in) :: size
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Session_attach_buffer_f08ts
  end interface PMPI_Session_attach_buffer
  interface MPI_Session_call_errhandler
    subroutine MPI_Session_call_errhandler(session, errorcode, ierror)
      import
      implicit none
      type(MPI_Session), intent(in) :: session
      integer, intent(in) :: errorcode
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Session_call_errhandler
  end interface MPI_Session_call_errhandler
  interface PMPI_Session_call_errhandler
    subroutine PMPI_Session_call_errhandler(session, errorcode, ierror)
      import
      implicit none
      type(MPI_Session), intent(in) :: session
      integer, intent(in) :: errorcode
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Session_call_errhandler
  end interface PMPI_Session_call_errhandler
  interface MPI_Session_finalize
    subroutine MPI_Session_finalize(session, ierror)
      import
      implicit none
      type(MPI_Session), intent(inout) :: session
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Session_finalize
  end interface MPI_Session_finalize
  interface PMPI_Session_finalize
    subroutine PMPI_Session_finalize(session, ierror)
      import
      implicit none
      type(MPI_Session), intent(inout) :: session
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Session_finalize
  end interface PMPI_Session_finalize
  interface MPI_Session_flush_buffer
    subroutine MPI_Session_flush_buffer(session, ierror)
      import
      implicit none
      type(MPI_Session), intent(in) :: session
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Session_flush_buffer
  end interface MPI_Session_flush_buffer
  interface PMPI_Session_flush_buffer
    subroutine PMPI_Session_flush_buffer(session, ierror)
      import
      implicit none
      type(MPI_Session), intent(in) :: session
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Session_flush_buffer
  end interface PMPI_Session_flush_buffer
  interface MPI_Session_get_errhandler
    subroutine MPI_Session_get_errhandler(session, errhandler, ierror)
      import
      implicit none
      type(MPI_Session), intent(in) :: session
      type(MPI_Errhandler), intent(out) :: errhandler
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Session_get_errhandler
  end interface MPI_Session_get_errhandler
  interface PMPI_Session_get_errhandler
    subroutine PMPI_Session_get_errhandler(session, errhandler, ierror)
      import
      implicit none
      type(MPI_Session), intent(in) :: session
      type(MPI_Errhandler), intent(out) :: errhandler
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Session_get_errhandler
  end interface PMPI_Session_get_errhandler
  interface MPI_Session_get_info
    subroutine MPI_Session_get_info(session, info_used, ierror)
      import
      implicit none
      type(MPI_Session), intent(in) :: session
      type(MPI_Info), intent(out) :: info_used
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Session_get_info
  end interface MPI_Session_get_info
  interface PMPI_Session_get_info
    subroutine PMPI_Session_get_info(session, info_used, ierror)
      import
      implicit none
      type(MPI_Session), intent(in) :: session
      type(MPI_Info), intent(out) :: info_used
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Session_get_info
  end interface PMPI_Session_get_info
  interface MPI_Session_get_nth_pset
    subroutine MPI_Session_get_nth_pset(session, info, n, pset_len, pset_name, ierror)
      import
      implicit none
      type(MPI_Session), intent(in) :: session
      type(MPI_Info), intent(in) :: info
      integer, intent(in) :: n
      integer, intent(inout) :: pset_len
      character(len=*), intent(out) :: pset_name
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Session_get_nth_pset
  end interface MPI_Session_get_nth_pset
  interface PMPI_Session_get_nth_pset
    subroutine PMPI_Session_get_nth_pset(session, info, n, pset_len, pset_name, ierror)
      import
      implicit none
      type(MPI_Session), intent(in) :: session
      type(MPI_Info), intent(in) :: info
      integer, intent(in) :: n
      integer, intent(inout) :: pset_len
      character(len=*), intent(out) :: pset_name
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Session_get_nth_pset
  end interface PMPI_Session_get_nth_pset
  interface MPI_Session_get_num_psets
    subroutine MPI_Session_get_num_psets(session, info, npset_names, ierror)
      import
      implicit none
      type(MPI_Session), intent(in) :: session
      type(MPI_Info), intent(in) :: info
      integer, intent(out) :: npset_names
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Session_get_num_psets
  end interface MPI_Session_get_num_psets
  interface PMPI_Session_get_num_psets
    subroutine PMPI_Session_get_num_psets(session, info, npset_names, ierror)
      import
      implicit none
      type(MPI_Session), intent(in) :: session
      type(MPI_Info), intent(in) :: info
      integer, intent(out) :: npset_names
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Session_get_num_psets
  end interface PMPI_Session_get_num_psets
  interface MPI_Session_get_pset_info
    subroutine MPI_Session_get_pset_info(session, pset_name, info, ierror)
      import
      implicit none
      type(MPI_Session), intent(in) :: session
      character(len=*), intent(in) :: pset_name
      type(MPI_Info), intent(out) :: info
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Session_get_pset_info
  end interface MPI_Session_get_pset_info
  interface PMPI_Session_get_pset_info
    subroutine PMPI_Session_get_pset_info(session, pset_name, info, ierror)
      import
      implicit none
      type(MPI_Session), intent(in) :: session
      character(len=*), intent(in) :: pset_name
      type(MPI_Info), intent(out) :: info
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Session_get_pset_info
  end interface PMPI_Session_get_pset_info
  interface MPI_Session_iflush_buffer
    subroutine MPI_Session_iflush_buffer(session, request, ierror)
      import
      implicit none
      type(MPI_Session), intent(in) :: session
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Session_iflush_buffer
  end interface MPI_Session_iflush_buffer
  interface PMPI_Session_iflush_buffer
    subroutine PMPI_Session_iflush_buffer(session, request, ierror)
      import
      implicit none
      type(MPI_Session), intent(in) :: session
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Session_iflush_buffer
  end interface PMPI_Session_iflush_buffer
  interface MPI_Session_init
    subroutine MPI_Session_init(info, errhandler, session, ierror)
      import
      implicit none
      type(MPI_Info), intent(in) :: info
      type(MPI_Errhandler), intent(in) :: errhandler
      type(MPI_Session), intent(out) :: session
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Session_init
  end interface MPI_Session_init
  interface PMPI_Session_init
    subroutine PMPI_Session_init(info, errhandler, session, ierror)
      import
      implicit none
      type(MPI_Info), intent(in) :: info
      type(MPI_Errhandler), intent(in) :: errhandler
      type(MPI_Session), intent(out) :: session
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Session_init
  end interface PMPI_Session_init
  interface MPI_Session_set_errhandler
    subroutine MPI_Session_set_errhandler(session, errhandler, ierror)
      import
      implicit none
      type(MPI_Session), intent(in) :: session
      type(MPI_Errhandler), intent(in) :: errhandler
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Session_set_errhandler
  end interface MPI_Session_set_errhandler
  interface PMPI_Session_set_errhandler
    subroutine PMPI_Session_set_errhandler(session, errhandler, ierror)
      import
      implicit none
      type(MPI_Session), intent(in) :: session
      type(MPI_Errhandler), intent(in) :: errhandler
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Session_set_errhandler
  end interface PMPI_Session_set_errhandler
  interface MPI_Ssend
    subroutine MPI_Ssend_f08ts(buf, count, datatype, dest, tag, comm, ierror) bind(C, &
        name="MPI_Ssend_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Ssend_f08ts
  end interface MPI_Ssend
  interface PMPI_Ssend
    subroutine PMPI_Ssend_f08ts(buf, count, datatype, dest, tag, comm, ierror) bind(C, &
        name="PMPI_Ssend_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Ssend_f08ts
  end interface PMPI_Ssend
  interface MPI_Ssend_init
    subroutine MPI_Ssend_init_f08ts(buf, count, datatype, dest, tag, comm, request, &
        ierror) bind(C, name="MPI_Ssend_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Ssend_init_f08ts
  end interface MPI_Ssend_init
  interface PMPI_Ssend_init
    subroutine PMPI_Ssend_init_f08ts(buf, count, datatype, dest, tag, comm, request, &
        ierror) bind(C, name="PMPI_Ssend_init_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in), asynchronous :: buf
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: dest
      integer, intent(in) :: tag
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Request), intent(out) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Ssend_init_f08ts
  end interface PMPI_Ssend_init
  interface MPI_Start
    subroutine MPI_Start(request, ierror)
      import
      implicit none
      type(MPI_Request), intent(inout) :: request
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Start
  end interface MPI_Start
  interface PMPI_Start
    subroutine PMPI_Start(request, ierror)
      import
      implicit none
      type(MPI_Request), intent(inout) :: request
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Start
  end interface PMPI_Start
  interface MPI_Startall
    subroutine MPI_Startall(count, array_of_requests, ierror)
      import
      implicit none
      integer, intent(in) :: count
      type(MPI_Request), intent(inout) :: array_of_requests(*)
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Startall
  end interface MPI_Startall
  interface PMPI_Startall
    subroutine PMPI_Startall(count, array_of_requests, ierror)
      import
      implicit none
      integer, intent(in) :: count
      type(MPI_Request), intent(inout) :: array_of_requests(*)
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Startall
  end interface PMPI_Startall
  interface MPI_Status_get_error
    subroutine MPI_Status_get_error(status, err, ierror)
      import
      implicit none
      type(MPI_Status), intent(in) :: status
      integer, intent(out) :: err
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Status_get_error
  end interface MPI_Status_get_error
  interface PMPI_Status_get_error
    subroutine PMPI_Status_get_error(status, err, ierror)
      import
      implicit none
      type(MPI_Status), intent(in) :: status
      integer, intent(out) :: err
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Status_get_error
  end interface PMPI_Status_get_error
  interface MPI_Status_get_source
    subroutine MPI_Status_get_source(status, source, ierror)
      import
      implicit none
      type(MPI_Status), intent(in) :: status
      integer, intent(out) :: source
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Status_get_source
  end interface MPI_Status_get_source
  interface PMPI_Status_get_source
    subroutine PMPI_Status_get_source(status, source, ierror)
      import
      implicit none
      type(MPI_Status), intent(in) :: status
      integer, intent(out) :: source
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Status_get_source
  end interface PMPI_Status_get_source
  interface MPI_Status_get_tag
    subroutine MPI_Status_get_tag(status, tag, ierror)
      import
      implicit none
      type(MPI_Status), intent(in) :: status
      integer, intent(out) :: tag
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Status_get_tag
  end interface MPI_Status_get_tag
  interface PMPI_Status_get_tag
    subroutine PMPI_Status_get_tag(status, tag, ierror)
      import
      implicit none
      type(MPI_Status), intent(in) :: status
      integer, intent(out) :: tag
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Status_get_tag
  end interface PMPI_Status_get_tag
  interface MPI_Status_set_cancelled
    subroutine MPI_Status_set_cancelled(status, flag, ierror)
      import
      implicit none
      type(MPI_Status), intent(inout) :: status
      logical, intent(in) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Status_set_cancelled
  end interface MPI_Status_set_cancelled
  interface PMPI_Status_set_cancelled
    subroutine PMPI_Status_set_cancelled(status, flag, ierror)
      import
      implicit none
      type(MPI_Status), intent(inout) :: status
      logical, intent(in) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Status_set_cancelled
  end interface PMPI_Status_set_cancelled
  interface MPI_Status_set_elements
    subroutine MPI_Status_set_elements(status, datatype, count, ierror)
      import
      implicit none
      type(MPI_Status), intent(inout) :: status
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: count
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Status_set_elements
  end interface MPI_Status_set_elements
  interface PMPI_Status_set_elements
    subroutine PMPI_Status_set_elements(status, datatype, count, ierror)
      import
      implicit none
      type(MPI_Status), intent(inout) :: status
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: count
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Status_set_elements
  end interface PMPI_Status_set_elements
  interface MPI_Status_set_elements_x
    subroutine MPI_Status_set_elements_x(status, datatype, count, ierror)
      import
      implicit none
      type(MPI_Status), intent(inout) :: status
      type(MPI_Datatype), intent(in) :: datatype
      integer(kind=MPI_COUNT_KIND), intent(in) :: count
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Status_set_elements_x
  end interface MPI_Status_set_elements_x
  interface PMPI_Status_set_elements_x
    subroutine PMPI_Status_set_elements_x(status, datatype, count, ierror)
      import
      implicit none
      type(MPI_Status), intent(inout) :: status
      type(MPI_Datatype), intent(in) :: datatype
      integer(kind=MPI_COUNT_KIND), intent(in) :: count
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Status_set_elements_x
  end interface PMPI_Status_set_elements_x
  interface MPI_Status_set_error
    subroutine MPI_Status_set_error(status, err, ierror)
      import
      implicit none
      type(MPI_Status), intent(inout) :: status
      integer, intent(in) :: err
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Status_set_error
  end interface MPI_Status_set_error
  interface PMPI_Status_set_error
    subroutine PMPI_Status_set_error(status, err, ierror)
      import
      implicit none
      type(MPI_Status), intent(inout) :: status
      integer, intent(in) :: err
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Status_set_error
  end interface PMPI_Status_set_error
  interface MPI_Status_set_source
    subroutine MPI_Status_set_source(status, source, ierror)
      import
      implicit none
      type(MPI_Status), intent(inout) :: status
      integer, intent(in) :: source
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Status_set_source
  end interface MPI_Status_set_source
  interface PMPI_Status_set_source
    subroutine PMPI_Status_set_source(status, source, ierror)
      import
      implicit none
      type(MPI_Status), intent(inout) :: status
      integer, intent(in) :: source
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Status_set_source
  end interface PMPI_Status_set_source
  interface MPI_Status_set_tag
    subroutine MPI_Status_set_tag(status, tag, ierror)
      import
      implicit none
      type(MPI_Status), intent(inout) :: status
      integer, intent(in) :: tag
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Status_set_tag
  end interface MPI_Status_set_tag
  interface PMPI_Status_set_tag
    subroutine PMPI_Status_set_tag(status, tag, ierror)
      import
      implicit none
      type(MPI_Status), intent(inout) :: status
      integer, intent(in) :: tag
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Status_set_tag
  end interface PMPI_Status_set_tag
  interface MPI_Test
    subroutine MPI_Test(request, flag, status, ierror)
      import
      implicit none
      type(MPI_Request), intent(inout) :: request
      logical, intent(out) :: flag
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Test
  end interface MPI_Test
  interface PMPI_Test
    subroutine PMPI_Test(request, flag, status, ierror)
      import
      implicit none
      type(MPI_Request), intent(inout) :: request
      logical, intent(out) :: flag
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Test
  end interface PMPI_Test
  interface MPI_Test_cancelled
    subroutine MPI_Test_cancelled(status, flag, ierror)
      import
      implicit none
      type(MPI_Status), intent(in) :: status
      logical, intent(out) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Test_cancelled
  end interface MPI_Test_cancelled
  interface PMPI_Test_cancelled
    subroutine PMPI_Test_cancelled(status, flag, ierror)
      import
      implicit none
      type(MPI_Status), intent(in) :: status
      logical, intent(out) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Test_cancelled
  end interface PMPI_Test_cancelled
  interface MPI_Testall
    subroutine MPI_Testall(count, array_of_requests, flag, array_of_statuses, ierror)
      import
      implicit none
      integer, intent(in) :: count
      type(MPI_Request), intent(inout) :: array_of_requests(*)
      logical, intent(out) :: flag
      type(MPI_Status) :: array_of_statuses(*)
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Testall
  end interface MPI_Testall
  interface PMPI_Testall
    subroutine PMPI_Testall(count, array_of_requests, flag, array_of_statuses, ierror)
      import
      implicit none
      integer, intent(in) :: count
      type(MPI_Request), intent(inout) :: array_of_requests(*)
      logical, intent(out) :: flag
      type(MPI_Status) :: array_of_statuses(*)
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Testall
  end interface PMPI_Testall
  interface MPI_Testany
    subroutine MPI_Testany(count, array_of_requests, index, flag, status, ierror)
      import
      implicit none
      integer, intent(in) :: count
      type(MPI_Request), intent(inout) :: array_of_requests(*)
      integer, intent(out) :: index
      logical, intent(out) :: flag
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Testany
  end interface MPI_Testany
  interface PMPI_Testany
    subroutine PMPI_Testany(count, array_of_requests, index, flag, status, ierror)
      import
      implicit none
      integer, intent(in) :: count
      type(MPI_Request), intent(inout) :: array_of_requests(*)
      integer, intent(out) :: index
      logical, intent(out) :: flag
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Testany
  end interface PMPI_Testany
  interface MPI_Testsome
    subroutine MPI_Testsome(incount, array_of_requests, outcount, array_of_indices, &
        array_of_statuses, ierror)
      import
      implicit none
      integer, intent(in) :: incount
      type(MPI_Request), intent(inout) :: array_of_requests(*)
      integer, intent(out) :: outcount
      integer, intent(out) :: array_of_indices(*)
      type(MPI_Status) :: array_of_statuses(*)
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Testsome
  end interface MPI_Testsome
  interface PMPI_Testsome
    subroutine PMPI_Testsome(incount, array_of_requests, outcount, array_of_indices, &
        array_of_statuses, ierror)
      import
      implicit none
      integer, intent(in) :: incount
      type(MPI_Request), intent(inout) :: array_of_requests(*)
      integer, intent(out) :: outcount
      integer, intent(out) :: array_of_indices(*)
      type(MPI_Status) :: array_of_statuses(*)
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Testsome
  end interface PMPI_Testsome
  interface MPI_Topo_test
    subroutine MPI_Topo_test(comm, status, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(out) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Topo_test
  end interface MPI_Topo_test
  interface PMPI_Topo_test
    subroutine PMPI_Topo_test(comm, status, ierror)
      import
      implicit none
      type(MPI_Comm), intent(in) :: comm
      integer, intent(out) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Topo_test
  end interface PMPI_Topo_test
  interface MPI_Type_commit
    subroutine MPI_Type_commit(datatype, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(inout) :: datatype
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_commit
  end interface MPI_Type_commit
  interface PMPI_Type_commit
    subroutine PMPI_Type_commit(datatype, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(inout) :: datatype
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_commit
  end interface PMPI_Type_commit
  interface MPI_Type_contiguous
    subroutine MPI_Type_contiguous(count, oldtype, newtype, ierror)
      import
      implicit none
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: oldtype
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_contiguous
  end interface MPI_Type_contiguous
  interface PMPI_Type_contiguous
    subroutine PMPI_Type_contiguous(count, oldtype, newtype, ierror)
      import
      implicit none
      integer, intent(in) :: count
      type(MPI_Datatype), intent(in) :: oldtype
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_contiguous
  end interface PMPI_Type_contiguous
  interface MPI_Type_create_darray
    subroutine MPI_Type_create_darray(size, rank, ndims, array_of_gsizes, array_of_distribs, &
        array_of_dargs, array_of_psizes, order, oldtype, newtype, ierror)
      import
      implicit none
      integer, intent(in) :: size
      integer, intent(in) :: rank
      integer, intent(in) :: ndims
      integer, intent(in) :: array_of_gsizes(*)
      integer, intent(in) :: array_of_distribs(*)
      integer, intent(in) :: array_of_dargs(*)
      integer, intent(in) :: array_of_psizes(*)
      integer, intent(in) :: order
      type(MPI_Datatype), intent(in) :: oldtype
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_create_darray
  end interface MPI_Type_create_darray
  interface PMPI_Type_create_darray
    subroutine PMPI_Type_create_darray(size, rank, ndims, array_of_gsizes, array_of_distribs, &
        array_of_dargs, array_of_psizes, order, oldtype, newtype, ierror)
      import
      implicit none
      integer, intent(in) :: size
      integer, intent(in) :: rank
      integer, intent(in) :: ndims
      integer, intent(in) :: array_of_gsizes(*)
      integer, intent(in) :: array_of_distribs(*)
      integer, intent(in) :: array_of_dargs(*)
      integer, intent(in) :: array_of_psizes(*)
      integer, intent(in) :: order
      type(MPI_Datatype), intent(in) :: oldtype
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_create_darray
  end interface PMPI_Type_create_darray
  interface MPI_Type_create_f90_complex
    subroutine MPI_Type_create_f90_complex(p, r, newtype, ierror)
      import
      implicit none
      integer, intent(in) :: p
      integer, intent(in) :: r
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_create_f90_complex
  end interface MPI_Type_create_f90_complex
  interface PMPI_Type_create_f90_complex
    subroutine PMPI_Type_create_f90_complex(p, r, newtype, ierror)
      import
      implicit none
      integer, intent(in) :: p
      integer, intent(in) :: r
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_create_f90_complex
  end interface PMPI_Type_create_f90_complex
  interface MPI_Type_create_f90_integer
    subroutine MPI_Type_create_f90_integer(r, newtype, ierror)
      import
      implicit none
      integer, intent(in) :: r
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_create_f90_integer
  end interface MPI_Type_create_f90_integer
  interface PMPI_Type_create_f90_integer
    subroutine PMPI_Type_create_f90_integer(r, newtype, ierror)
      import
      implicit none
      integer, intent(in) :: r
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_create_f90_integer
  end interface PMPI_Type_create_f90_integer
  interface MPI_Type_create_f90_real
    subroutine MPI_Type_create_f90_real(p, r, newtype, ierror)
      import
      implicit none
      integer, intent(in) :: p
      integer, intent(in) :: r
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_create_f90_real
  end interface MPI_Type_create_f90_real
  interface PMPI_Type_create_f90_real
    subroutine PMPI_Type_create_f90_real(p, r, newtype, ierror)
      import
      implicit none
      integer, intent(in) :: p
      integer, intent(in) :: r
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_create_f90_real
  end interface PMPI_Type_create_f90_real
  interface MPI_Type_create_hindexed
    subroutine MPI_Type_create_hindexed(count, array_of_blocklengths, array_of_displacements, &
        oldtype, newtype, ierror)
      import
      implicit none
      integer, intent(in) :: count
      integer, intent(in) :: array_of_blocklengths(*)
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: array_of_displacements(*)
      type(MPI_Datatype), intent(in) :: oldtype
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_create_hindexed
  end interface MPI_Type_create_hindexed
  interface PMPI_Type_create_hindexed
    subroutine PMPI_Type_create_hindexed(count, array_of_blocklengths, array_of_displacements, &
        oldtype, newtype, ierror)
      import
      implicit none
      integer, intent(in) :: count
      integer, intent(in) :: array_of_blocklengths(*)
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: array_of_displacements(*)
      type(MPI_Datatype), intent(in) :: oldtype
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_create_hindexed
  end interface PMPI_Type_create_hindexed
  interface MPI_Type_create_hindexed_block
    subroutine MPI_Type_create_hindexed_block(count, blocklength, array_of_displacements, &
        oldtype, newtype, ierror)
      import
      implicit none
      integer, intent(in) :: count
      integer, intent(in) :: blocklength
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: array_of_displacements(*)
      type(MPI_Datatype), intent(in) :: oldtype
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_create_hindexed_block
  end interface MPI_Type_create_hindexed_block
  interface PMPI_Type_create_hindexed_block
    subroutine PMPI_Type_create_hindexed_block(count, blocklength, array_of_displacements, &
        oldtype, newtype, ierror)
      import
      implicit none
      integer, intent(in) :: count
      integer, intent(in) :: blocklength
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: array_of_displacements(*)
      type(MPI_Datatype), intent(in) :: oldtype
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_create_hindexed_block
  end interface PMPI_Type_create_hindexed_block
  interface MPI_Type_create_hvector
    subroutine MPI_Type_create_hvector(count, blocklength, stride, oldtype, newtype, ierror)
      import
      implicit none
      integer, intent(in) :: count
      integer, intent(in) :: blocklength
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: stride
      type(MPI_Datatype), intent(in) :: oldtype
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_create_hvector
  end interface MPI_Type_create_hvector
  interface PMPI_Type_create_hvector
    subroutine PMPI_Type_create_hvector(count, blocklength, stride, oldtype, newtype, ierror)
      import
      implicit none
      integer, intent(in) :: count
      integer, intent(in) :: blocklength
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: stride
      type(MPI_Datatype), intent(in) :: oldtype
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_create_hvector
  end interface PMPI_Type_create_hvector
  interface MPI_Type_create_indexed_block
    subroutine MPI_Type_create_indexed_block(count, blocklength, array_of_displacements, &
        oldtype, newtype, ierror)
      import
      implicit none
      integer, intent(in) :: count
      integer, intent(in) :: blocklength
      integer, intent(in) :: array_of_displacements(*)
      type(MPI_Datatype), intent(in) :: oldtype
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_create_indexed_block
  end interface MPI_Type_create_indexed_block
  interface PMPI_Type_create_indexed_block
    subroutine PMPI_Type_create_indexed_block(count, blocklength, array_of_displacements, &
        oldtype, newtype, ierror)
      import
      implicit none
      integer, intent(in) :: count
      integer, intent(in) :: blocklength
      integer, intent(in) :: array_of_displacements(*)
      type(MPI_Datatype), intent(in) :: oldtype
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_create_indexed_block
  end interface PMPI_Type_create_indexed_block
  interface MPI_Type_create_keyval
    subroutine MPI_Type_create_keyval(type_copy_attr_fn, type_delete_attr_fn, type_keyval, &
        extra_state, ierror)
      import
      implicit none
      procedure(MPI_Type_copy_attr_function) :: type_copy_attr_fn
      procedure(MPI_Type_delete_attr_function) :: type_delete_attr_fn
      integer, intent(out) :: type_keyval
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: extra_state
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_create_keyval
  end interface MPI_Type_create_keyval
  interface PMPI_Type_create_keyval
    subroutine PMPI_Type_create_keyval(type_copy_attr_fn, type_delete_attr_fn, type_keyval, &
        extra_state, ierror)
      import
      implicit none
      procedure(MPI_Type_copy_attr_function) :: type_copy_attr_fn
      procedure(MPI_Type_delete_attr_function) :: type_delete_attr_fn
      integer, intent(out) :: type_keyval
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: extra_state
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_create_keyval
  end interface PMPI_Type_create_keyval
  interface MPI_Type_create_resized
    subroutine MPI_Type_create_resized(oldtype, lb, extent, newtype, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: oldtype
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: lb
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: extent
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_create_resized
  end interface MPI_Type_create_resized
  interface PMPI_Type_create_resized
    subroutine PMPI_Type_create_resized(oldtype, lb, extent, newtype, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: oldtype
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: lb
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: extent
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_create_resized
  end interface PMPI_Type_create_resized
  interface MPI_Type_create_struct
    subroutine MPI_Type_create_struct(count, array_of_blocklengths, array_of_displacements, &
        array_of_types, newtype, ierror)
      import
      implicit none
      integer, intent(in) :: count
      integer, intent(in) :: array_of_blocklengths(*)
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: array_of_displacements(*)
      type(MPI_Datatype), intent(in) :: array_of_types(*)
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_create_struct
  end interface MPI_Type_create_struct
  interface PMPI_Type_create_struct
    subroutine PMPI_Type_create_struct(count, array_of_blocklengths, array_of_displacements, &
        array_of_types, newtype, ierror)
      import
      implicit none
      integer, intent(in) :: count
      integer, intent(in) :: array_of_blocklengths(*)
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: array_of_displacements(*)
      type(MPI_Datatype), intent(in) :: array_of_types(*)
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_create_struct
  end interface PMPI_Type_create_struct
  interface MPI_Type_create_subarray
    subroutine MPI_Type_create_subarray(ndims, array_of_sizes, array_of_subsizes, &
        array_of_starts, order, oldtype, newtype, ierror)
      import
      implicit none
      integer, intent(in) :: ndims
      integer, intent(in) :: array_of_sizes(*)
      integer, intent(in) :: array_of_subsizes(*)
      integer, intent(in) :: array_of_starts(*)
      integer, intent(in) :: order
      type(MPI_Datatype), intent(in) :: oldtype
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_create_subarray
  end interface MPI_Type_create_subarray
  interface PMPI_Type_create_subarray
    subroutine PMPI_Type_create_subarray(ndims, array_of_sizes, array_of_subsizes, &
        array_of_starts, order, oldtype, newtype, ierror)
      import
      implicit none
      integer, intent(in) :: ndims
      integer, intent(in) :: array_of_sizes(*)
      integer, intent(in) :: array_of_subsizes(*)
      integer, intent(in) :: array_of_starts(*)
      integer, intent(in) :: order
      type(MPI_Datatype), intent(in) :: oldtype
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_create_subarray
  end interface PMPI_Type_create_subarray
  interface MPI_Type_delete_attr
    subroutine MPI_Type_delete_attr(datatype, type_keyval, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: type_keyval
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_delete_attr
  end interface MPI_Type_delete_attr
  interface PMPI_Type_delete_attr
    subroutine PMPI_Type_delete_attr(datatype, type_keyval, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: type_keyval
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_delete_attr
  end interface PMPI_Type_delete_attr
  interface MPI_Type_dup
    subroutine MPI_Type_dup(oldtype, newtype, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: oldtype
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_dup
  end interface MPI_Type_dup
  interface PMPI_Type_dup
    subroutine PMPI_Type_dup(oldtype, newtype, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: oldtype
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_dup
  end interface PMPI_Type_dup
  interface MPI_Type_free
    subroutine MPI_Type_free(datatype, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(inout) :: datatype
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_free
  end interface MPI_Type_free
  interface PMPI_Type_free
    subroutine PMPI_Type_free(datatype, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(inout) :: datatype
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_free
  end interface PMPI_Type_free
  interface MPI_Type_free_keyval
    subroutine MPI_Type_free_keyval(type_keyval, ierror)
      import
      implicit none
      integer, intent(inout) :: type_keyval
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_free_keyval
  end interface MPI_Type_free_keyval
  interface PMPI_Type_free_keyval
    subroutine PMPI_Type_free_keyval(type_keyval, ierror)
      import
      implicit none
      integer, intent(inout) :: type_keyval
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_free_keyval
  end interface PMPI_Type_free_keyval
  interface MPI_Type_get_attr
    subroutine MPI_Type_get_attr(datatype, type_keyval, attribute_val, flag, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: type_keyval
      integer(kind=MPI_ADDRESS_KIND), intent(out) :: attribute_val
      logical, intent(out) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_get_attr
  end interface MPI_Type_get_attr
  interface PMPI_Type_get_attr
    subroutine PMPI_Type_get_attr(datatype, type_keyval, attribute_val, flag, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: type_keyval
      integer(kind=MPI_ADDRESS_KIND), intent(out) :: attribute_val
      logical, intent(out) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_get_attr
  end interface PMPI_Type_get_attr
  interface MPI_Type_get_contents
    subroutine MPI_Type_get_contents(datatype, max_integers, max_addresses, max_datatypes, &
        array_of_integers, array_of_addresses, array_of_datatypes, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: max_integers
      integer, intent(in) :: max_addresses
      integer, intent(in) :: max_datatypes
      integer, intent(out) :: array_of_integers(*)
      integer(kind=MPI_ADDRESS_KIND), intent(out) :: array_of_addresses(*)
      type(MPI_Datatype), intent(out) :: array_of_datatypes(*)
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_get_contents
  end interface MPI_Type_get_contents
  interface PMPI_Type_get_contents
    subroutine PMPI_Type_get_contents(datatype, max_integers, max_addresses, max_datatypes, &
        array_of_integers, array_of_addresses, array_of_datatypes, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: max_integers
      integer, intent(in) :: max_addresses
      integer, intent(in) :: max_datatypes
      integer, intent(out) :: array_of_integers(*)
      integer(kind=MPI_ADDRESS_KIND), intent(out) :: array_of_addresses(*)
      type(MPI_Datatype), intent(out) :: array_of_datatypes(*)
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_get_contents
  end interface PMPI_Type_get_contents
  interface MPI_Type_get_envelope
    subroutine MPI_Type_get_envelope(datatype, num_integers, num_addresses, num_datatypes, &
        combiner, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(out) :: num_integers
      integer, intent(out) :: num_addresses
      integer, intent(out) :: num_datatypes
      integer, intent(out) :: combiner
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_get_envelope
  end interface MPI_Type_get_envelope
  interface PMPI_Type_get_envelope
    subroutine PMPI_Type_get_envelope(datatype, num_integers, num_addresses, num_datatypes, &
        combiner, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(out) :: num_integers
      integer, intent(out) :: num_addresses
      integer, intent(out) :: num_datatypes
      integer, intent(out) :: combiner
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_get_envelope
  end interface PMPI_Type_get_envelope
  interface MPI_Type_get_extent
    subroutine MPI_Type_get_extent(datatype, lb, extent, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: datatype
      integer(kind=MPI_ADDRESS_KIND), intent(out) :: lb
      integer(kind=MPI_ADDRESS_KIND), intent(out) :: extent
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_get_extent
  end interface MPI_Type_get_extent
  interface PMPI_Type_get_extent
    subroutine PMPI_Type_get_extent(datatype, lb, extent, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: datatype
      integer(kind=MPI_ADDRESS_KIND), intent(out) :: lb
      integer(kind=MPI_ADDRESS_KIND), intent(out) :: extent
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_get_extent
  end interface PMPI_Type_get_extent
  interface MPI_Type_get_extent_x
    subroutine MPI_Type_get_extent_x(datatype, lb, extent, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: datatype
      integer(kind=MPI_COUNT_KIND), intent(out) :: lb
      integer(kind=MPI_COUNT_KIND), intent(out) :: extent
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_get_extent_x
  end interface MPI_Type_get_extent_x
  interface PMPI_Type_get_extent_x
    subroutine PMPI_Type_get_extent_x(datatype, lb, extent, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: datatype
      integer(kind=MPI_COUNT_KIND), intent(out) :: lb
      integer(kind=MPI_COUNT_KIND), intent(out) :: extent
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_get_extent_x
  end interface PMPI_Type_get_extent_x
  interface MPI_Type_get_name
    subroutine MPI_Type_get_name(datatype, type_name, resultlen, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: datatype
      character(len=*), intent(out) :: type_name
      integer, intent(out) :: resultlen
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_get_name
  end interface MPI_Type_get_name
  interface PMPI_Type_get_name
    subroutine PMPI_Type_get_name(datatype, type_name, resultlen, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: datatype
      character(len=*), intent(out) :: type_name
      integer, intent(out) :: resultlen
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_get_name
  end interface PMPI_Type_get_name
  interface MPI_Type_get_true_extent
    subroutine MPI_Type_get_true_extent(datatype, true_lb, true_extent, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: datatype
      integer(kind=MPI_ADDRESS_KIND), intent(out) :: true_lb
      integer(kind=MPI_ADDRESS_KIND), intent(out) :: true_extent
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_get_true_extent
  end interface MPI_Type_get_true_extent
  interface PMPI_Type_get_true_extent
    subroutine PMPI_Type_get_true_extent(datatype, true_lb, true_extent, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: datatype
      integer(kind=MPI_ADDRESS_KIND), intent(out) :: true_lb
      integer(kind=MPI_ADDRESS_KIND), intent(out) :: true_extent
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_get_true_extent
  end interface PMPI_Type_get_true_extent
  interface MPI_Type_get_true_extent_x
    subroutine MPI_Type_get_true_extent_x(datatype, true_lb, true_extent, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: datatype
      integer(kind=MPI_COUNT_KIND), intent(out) :: true_lb
      integer(kind=MPI_COUNT_KIND), intent(out) :: true_extent
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_get_true_extent_x
  end interface MPI_Type_get_true_extent_x
  interface PMPI_Type_get_true_extent_x
    subroutine PMPI_Type_get_true_extent_x(datatype, true_lb, true_extent, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: datatype
      integer(kind=MPI_COUNT_KIND), intent(out) :: true_lb
      integer(kind=MPI_COUNT_KIND), intent(out) :: true_extent
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_get_true_extent_x
  end interface PMPI_Type_get_true_extent_x
  interface MPI_Type_get_value_index
    subroutine MPI_Type_get_value_index(value_type, index_type, pair_type, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: value_type
      type(MPI_Datatype), intent(in) :: index_type
      type(MPI_Datatype), intent(out) :: pair_type
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_get_value_index
  end interface MPI_Type_get_value_index
  interface PMPI_Type_get_value_index
    subroutine PMPI_Type_get_value_index(value_type, index_type, pair_type, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: value_type
      type(MPI_Datatype), intent(in) :: index_type
      type(MPI_Datatype), intent(out) :: pair_type
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_get_value_index
  end interface PMPI_Type_get_value_index
  interface MPI_Type_indexed
    subroutine MPI_Type_indexed(count, array_of_blocklengths, array_of_displacements, oldtype, &
        newtype, ierror)
      import
      implicit none
      integer, intent(in) :: count
      integer, intent(in) :: array_of_blocklengths(*)
      integer, intent(in) :: array_of_displacements(*)
      type(MPI_Datatype), intent(in) :: oldtype
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_indexed
  end interface MPI_Type_indexed
  interface PMPI_Type_indexed
    subroutine PMPI_Type_indexed(count, array_of_blocklengths, array_of_displacements, oldtype, &
        newtype, ierror)
      import
      implicit none
      integer, intent(in) :: count
      integer, intent(in) :: array_of_blocklengths(*)
      integer, intent(in) :: array_of_displacements(*)
      type(MPI_Datatype), intent(in) :: oldtype
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_indexed
  end interface PMPI_Type_indexed
  interface MPI_Type_match_size
    subroutine MPI_Type_match_size(typeclass, size, datatype, ierror)
      import
      implicit none
      integer, intent(in) :: typeclass
      integer, intent(in) :: size
      type(MPI_Datatype), intent(out) :: datatype
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_match_size
  end interface MPI_Type_match_size
  interface PMPI_Type_match_size
    subroutine PMPI_Type_match_size(typeclass, size, datatype, ierror)
      import
      implicit none
      integer, intent(in) :: typeclass
      integer, intent(in) :: size
      type(MPI_Datatype), intent(out) :: datatype
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_match_size
  end interface PMPI_Type_match_size
  interface MPI_Type_set_attr
    subroutine MPI_Type_set_attr(datatype, type_keyval, attribute_val, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: type_keyval
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: attribute_val
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_set_attr
  end interface MPI_Type_set_attr
  interface PMPI_Type_set_attr
    subroutine PMPI_Type_set_attr(datatype, type_keyval, attribute_val, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(in) :: type_keyval
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: attribute_val
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_set_attr
  end interface PMPI_Type_set_attr
  interface MPI_Type_set_name
    subroutine MPI_Type_set_name(datatype, type_name, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: datatype
      character(len=*), intent(in) :: type_name
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_set_name
  end interface MPI_Type_set_name
  interface PMPI_Type_set_name
    subroutine PMPI_Type_set_name(datatype, type_name, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: datatype
      character(len=*), intent(in) :: type_name
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_set_name
  end interface PMPI_Type_set_name
  interface MPI_Type_size
    subroutine MPI_Type_size(datatype, size, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(out) :: size
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_size
  end interface MPI_Type_size
  interface PMPI_Type_size
    subroutine PMPI_Type_size(datatype, size, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: datatype
      integer, intent(out) :: size
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_size
  end interface PMPI_Type_size
  interface MPI_Type_size_x
    subroutine MPI_Type_size_x(datatype, size, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: datatype
      integer(kind=MPI_COUNT_KIND), intent(out) :: size
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_size_x
  end interface MPI_Type_size_x
  interface PMPI_Type_size_x
    subroutine PMPI_Type_size_x(datatype, size, ierror)
      import
      implicit none
      type(MPI_Datatype), intent(in) :: datatype
      integer(kind=MPI_COUNT_KIND), intent(out) :: size
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_size_x
  end interface PMPI_Type_size_x
  interface MPI_Type_vector
    subroutine MPI_Type_vector(count, blocklength, stride, oldtype, newtype, ierror)
      import
      implicit none
      integer, intent(in) :: count
      integer, intent(in) :: blocklength
      integer, intent(in) :: stride
      type(MPI_Datatype), intent(in) :: oldtype
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Type_vector
  end interface MPI_Type_vector
  interface PMPI_Type_vector
    subroutine PMPI_Type_vector(count, blocklength, stride, oldtype, newtype, ierror)
      import
      implicit none
      integer, intent(in) :: count
      integer, intent(in) :: blocklength
      integer, intent(in) :: stride
      type(MPI_Datatype), intent(in) :: oldtype
      type(MPI_Datatype), intent(out) :: newtype
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Type_vector
  end interface PMPI_Type_vector
  interface MPI_Unpack
    subroutine MPI_Unpack_f08ts(inbuf, insize, position, outbuf, outcount, datatype, comm, &
        ierror) bind(C, name="MPI_Unpack_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: inbuf
      integer, intent(in) :: insize
      integer, intent(inout) :: position
      type(*), dimension(..) :: outbuf
      integer, intent(in) :: outcount
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Unpack_f08ts
  end interface MPI_Unpack
  interface PMPI_Unpack
    subroutine PMPI_Unpack_f08ts(inbuf, insize, position, outbuf, outcount, datatype, comm, &
        ierror) bind(C, name="PMPI_Unpack_f08ts")
      import
      implicit none
      type(*), dimension(..), intent(in) :: inbuf
      integer, intent(in) :: insize
      integer, intent(inout) :: position
      type(*), dimension(..) :: outbuf
      integer, intent(in) :: outcount
      type(MPI_Datatype), intent(in) :: datatype
      type(MPI_Comm), intent(in) :: comm
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Unpack_f08ts
  end interface PMPI_Unpack
  interface MPI_Unpack_external
    subroutine MPI_Unpack_external_f08ts(datarep, inbuf, insize, position, outbuf, outcount, &
        datatype, ierror) bind(C, name="MPI_Unpack_external_f08ts")
      import
      implicit none
      character(len=*), intent(in) :: datarep
      type(*), dimension(..), intent(in) :: inbuf
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: insize
      integer(kind=MPI_ADDRESS_KIND), intent(inout) :: position
      type(*), dimension(..) :: outbuf
      integer, intent(in) :: outcount
      type(MPI_Datatype), intent(in) :: datatype
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Unpack_external_f08ts
  end interface MPI_Unpack_external
  interface PMPI_Unpack_external
    subroutine PMPI_Unpack_external_f08ts(datarep, inbuf, insize, position, outbuf, outcount, &
        datatype, ierror) bind(C, name="PMPI_Unpack_external_f08ts")
      import
      implicit none
      character(len=*), intent(in) :: datarep
      type(*), dimension(..), intent(in) :: inbuf
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: insize
      integer(kind=MPI_ADDRESS_KIND), intent(inout) :: position
      type(*), dimension(..) :: outbuf
      integer, intent(in) :: outcount
      type(MPI_Datatype), intent(in) :: datatype
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Unpack_external_f08ts
  end interface PMPI_Unpack_external
  interface MPI_Unpublish_name
    subroutine MPI_Unpublish_name(service_name, info, port_name, ierror)
      import
      implicit none
      character(len=*), intent(in) :: service_name
      type(MPI_Info), intent(in) :: info
      character(len=*), intent(in) :: port_name
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Unpublish_name
  end interface MPI_Unpublish_name
  interface PMPI_Unpublish_name
    subroutine PMPI_Unpublish_name(service_name, info, port_name, ierror)
      import
      implicit none
      character(len=*), intent(in) :: service_name
      type(MPI_Info), intent(in) :: info
      character(len=*), intent(in) :: port_name
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Unpublish_name
  end interface PMPI_Unpublish_name
  interface MPI_Wait
    subroutine MPI_Wait(request, status, ierror)
      import
      implicit none
      type(MPI_Request), intent(inout) :: request
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Wait
  end interface MPI_Wait
  interface PMPI_Wait
    subroutine PMPI_Wait(request, status, ierror)
      import
      implicit none
      type(MPI_Request), intent(inout) :: request
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Wait
  end interface PMPI_Wait
  interface MPI_Waitall
    subroutine MPI_Waitall(count, array_of_requests, array_of_statuses, ierror)
      import
      implicit none
      integer, intent(in) :: count
      type(MPI_Request), intent(inout) :: array_of_requests(*)
      type(MPI_Status) :: array_of_statuses(*)
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Waitall
  end interface MPI_Waitall
  interface PMPI_Waitall
    subroutine PMPI_Waitall(count, array_of_requests, array_of_statuses, ierror)
      import
      implicit none
      integer, intent(in) :: count
      type(MPI_Request), intent(inout) :: array_of_requests(*)
      type(MPI_Status) :: array_of_statuses(*)
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Waitall
  end interface PMPI_Waitall
  interface MPI_Waitany
    subroutine MPI_Waitany(count, array_of_requests, index, status, ierror)
      import
      implicit none
      integer, intent(in) :: count
      type(MPI_Request), intent(inout) :: array_of_requests(*)
      integer, intent(out) :: index
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Waitany
  end interface MPI_Waitany
  interface PMPI_Waitany
    subroutine PMPI_Waitany(count, array_of_requests, index, status, ierror)
      import
      implicit none
      integer, intent(in) :: count
      type(MPI_Request), intent(inout) :: array_of_requests(*)
      integer, intent(out) :: index
      type(MPI_Status) :: status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Waitany
  end interface PMPI_Waitany
  interface MPI_Waitsome
    subroutine MPI_Waitsome(incount, array_of_requests, outcount, array_of_indices, &
        array_of_statuses, ierror)
      import
      implicit none
      integer, intent(in) :: incount
      type(MPI_Request), intent(inout) :: array_of_requests(*)
      integer, intent(out) :: outcount
      integer, intent(out) :: array_of_indices(*)
      type(MPI_Status) :: array_of_statuses(*)
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Waitsome
  end interface MPI_Waitsome
  interface PMPI_Waitsome
    subroutine PMPI_Waitsome(incount, array_of_requests, outcount, array_of_indices, &
        array_of_statuses, ierror)
      import
      implicit none
      integer, intent(in) :: incount
      type(MPI_Request), intent(inout) :: array_of_requests(*)
      integer, intent(out) :: outcount
      integer, intent(out) :: array_of_indices(*)
      type(MPI_Status) :: array_of_statuses(*)
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Waitsome
  end interface PMPI_Waitsome
  interface MPI_Win_allocate
    subroutine MPI_Win_allocate(size, disp_unit, info, comm, baseptr, win, ierror)
      import
      implicit none
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: size
      integer, intent(in) :: disp_unit
      type(MPI_Info), intent(in) :: info
      type(MPI_Comm), intent(in) :: comm
      type(c_ptr), intent(out) :: baseptr
      type(MPI_Win), intent(out) :: win
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_allocate
  end interface MPI_Win_allocate
  interface PMPI_Win_allocate
    subroutine PMPI_Win_allocate(size, disp_unit, info, comm, baseptr, win, ierror)
      import
      implicit none
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: size
      integer, intent(in) :: disp_unit
      type(MPI_Info), intent(in) :: info
      type(MPI_Comm), intent(in) :: comm
      type(c_ptr), intent(out) :: baseptr
      type(MPI_Win), intent(out) :: win
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_allocate
  end interface PMPI_Win_allocate
  interface MPI_Win_allocate_shared
    subroutine MPI_Win_allocate_shared(size, disp_unit, info, comm, baseptr, win, ierror)
      import
      implicit none
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: size
      integer, intent(in) :: disp_unit
      type(MPI_Info), intent(in) :: info
      type(MPI_Comm), intent(in) :: comm
      type(c_ptr), intent(out) :: baseptr
      type(MPI_Win), intent(out) :: win
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_allocate_shared
  end interface MPI_Win_allocate_shared
  interface PMPI_Win_allocate_shared
    subroutine PMPI_Win_allocate_shared(size, disp_unit, info, comm, baseptr, win, ierror)
      import
      implicit none
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: size
      integer, intent(in) :: disp_unit
      type(MPI_Info), intent(in) :: info
      type(MPI_Comm), intent(in) :: comm
      type(c_ptr), intent(out) :: baseptr
      type(MPI_Win), intent(out) :: win
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_allocate_shared
  end interface PMPI_Win_allocate_shared
  interface MPI_Win_attach
    subroutine MPI_Win_attach_f08ts(win, base, size, ierror) bind(C, name="MPI_Win_attach_f08ts")
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      type(*), dimension(..), asynchronous :: base
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: size
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_attach_f08ts
  end interface MPI_Win_attach
  interface PMPI_Win_attach
    subroutine PMPI_Win_attach_f08ts(win, base, size, ierror) bind(C, name="PMPI_Win_attach_f08ts")
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      type(*), dimension(..), asynchronous :: base
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: size
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_attach_f08ts
  end interface PMPI_Win_attach
  interface MPI_Win_call_errhandler
    subroutine MPI_Win_call_errhandler(win, errorcode, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      integer, intent(in) :: errorcode
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_call_errhandler
  end interface MPI_Win_call_errhandler
  interface PMPI_Win_call_errhandler
    subroutine PMPI_Win_call_errhandler(win, errorcode, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      integer, intent(in) :: errorcode
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_call_errhandler
  end interface PMPI_Win_call_errhandler
  interface MPI_Win_complete
    subroutine MPI_Win_complete(win, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_complete
  end interface MPI_Win_complete
  interface PMPI_Win_complete
    subroutine PMPI_Win_complete(win, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_complete
  end interface PMPI_Win_complete
  interface MPI_Win_create
    subroutine MPI_Win_create_f08ts(base, size, disp_unit, info, comm, win, ierror) bind(C, &
        name="MPI_Win_create_f08ts")
      import
      implicit none
      type(*), dimension(..), asynchronous :: base
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: size
      integer, intent(in) :: disp_unit
      type(MPI_Info), intent(in) :: info
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Win), intent(out) :: win
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_create_f08ts
  end interface MPI_Win_create
  interface PMPI_Win_create
    subroutine PMPI_Win_create_f08ts(base, size, disp_unit, info, comm, win, ierror) bind(C, &
        name="PMPI_Win_create_f08ts")
      import
      implicit none
      type(*), dimension(..), asynchronous :: base
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: size
      integer, intent(in) :: disp_unit
      type(MPI_Info), intent(in) :: info
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Win), intent(out) :: win
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_create_f08ts
  end interface PMPI_Win_create
  interface MPI_Win_create_dynamic
    subroutine MPI_Win_create_dynamic(info, comm, win, ierror)
      import
      implicit none
      type(MPI_Info), intent(in) :: info
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Win), intent(out) :: win
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_create_dynamic
  end interface MPI_Win_create_dynamic
  interface PMPI_Win_create_dynamic
    subroutine PMPI_Win_create_dynamic(info, comm, win, ierror)
      import
      implicit none
      type(MPI_Info), intent(in) :: info
      type(MPI_Comm), intent(in) :: comm
      type(MPI_Win), intent(out) :: win
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_create_dynamic
  end interface PMPI_Win_create_dynamic
  interface MPI_Win_create_errhandler
    subroutine MPI_Win_create_errhandler(win_errhandler_fn, errhandler, ierror)
      import
      implicit none
      procedure(MPI_Win_errhandler_function) :: win_errhandler_fn
      type(MPI_Errhandler), intent(out) :: errhandler
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_create_errhandler
  end interface MPI_Win_create_errhandler
  interface PMPI_Win_create_errhandler
    subroutine PMPI_Win_create_errhandler(win_errhandler_fn, errhandler, ierror)
      import
      implicit none
      procedure(MPI_Win_errhandler_function) :: win_errhandler_fn
      type(MPI_Errhandler), intent(out) :: errhandler
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_create_errhandler
  end interface PMPI_Win_create_errhandler
  interface MPI_Win_create_keyval
    subroutine MPI_Win_create_keyval(win_copy_attr_fn, win_delete_attr_fn, win_keyval, &
        extra_state, ierror)
      import
      implicit none
      procedure(MPI_Win_copy_attr_function) :: win_copy_attr_fn
      procedure(MPI_Win_delete_attr_function) :: win_delete_attr_fn
      integer, intent(out) :: win_keyval
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: extra_state
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_create_keyval
  end interface MPI_Win_create_keyval
  interface PMPI_Win_create_keyval
    subroutine PMPI_Win_create_keyval(win_copy_attr_fn, win_delete_attr_fn, win_keyval, &
        extra_state, ierror)
      import
      implicit none
      procedure(MPI_Win_copy_attr_function) :: win_copy_attr_fn
      procedure(MPI_Win_delete_attr_function) :: win_delete_attr_fn
      integer, intent(out) :: win_keyval
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: extra_state
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_create_keyval
  end interface PMPI_Win_create_keyval
  interface MPI_Win_delete_attr
    subroutine MPI_Win_delete_attr(win, win_keyval, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      integer, intent(in) :: win_keyval
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_delete_attr
  end interface MPI_Win_delete_attr
  interface PMPI_Win_delete_attr
    subroutine PMPI_Win_delete_attr(win, win_keyval, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      integer, intent(in) :: win_keyval
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_delete_attr
  end interface PMPI_Win_delete_attr
  interface MPI_Win_detach
    subroutine MPI_Win_detach_f08ts(win, base, ierror) bind(C, name="MPI_Win_detach_f08ts")
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      type(*), dimension(..), asynchronous :: base
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_detach_f08ts
  end interface MPI_Win_detach
  interface PMPI_Win_detach
    subroutine PMPI_Win_detach_f08ts(win, base, ierror) bind(C, name="PMPI_Win_detach_f08ts")
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      type(*), dimension(..), asynchronous :: base
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_detach_f08ts
  end interface PMPI_Win_detach
  interface MPI_Win_fence
    subroutine MPI_Win_fence(assert, win, ierror)
      import
      implicit none
      integer, intent(in) :: assert
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_fence
  end interface MPI_Win_fence
  interface PMPI_Win_fence
    subroutine PMPI_Win_fence(assert, win, ierror)
      import
      implicit none
      integer, intent(in) :: assert
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_fence
  end interface PMPI_Win_fence
  interface MPI_Win_flush
    subroutine MPI_Win_flush(rank, win, ierror)
      import
      implicit none
      integer, intent(in) :: rank
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_flush
  end interface MPI_Win_flush
  interface PMPI_Win_flush
    subroutine PMPI_Win_flush(rank, win, ierror)
      import
      implicit none
      integer, intent(in) :: rank
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_flush
  end interface PMPI_Win_flush
  interface MPI_Win_flush_all
    subroutine MPI_Win_flush_all(win, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_flush_all
  end interface MPI_Win_flush_all
  interface PMPI_Win_flush_all
    subroutine PMPI_Win_flush_all(win, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_flush_all
  end interface PMPI_Win_flush_all
  interface MPI_Win_flush_local
    subroutine MPI_Win_flush_local(rank, win, ierror)
      import
      implicit none
      integer, intent(in) :: rank
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_flush_local
  end interface MPI_Win_flush_local
  interface PMPI_Win_flush_local
    subroutine PMPI_Win_flush_local(rank, win, ierror)
      import
      implicit none
      integer, intent(in) :: rank
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_flush_local
  end interface PMPI_Win_flush_local
  interface MPI_Win_flush_local_all
    subroutine MPI_Win_flush_local_all(win, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_flush_local_all
  end interface MPI_Win_flush_local_all
  interface PMPI_Win_flush_local_all
    subroutine PMPI_Win_flush_local_all(win, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_flush_local_all
  end interface PMPI_Win_flush_local_all
  interface MPI_Win_free
    subroutine MPI_Win_free(win, ierror)
      import
      implicit none
      type(MPI_Win), intent(inout) :: win
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_free
  end interface MPI_Win_free
  interface PMPI_Win_free
    subroutine PMPI_Win_free(win, ierror)
      import
      implicit none
      type(MPI_Win), intent(inout) :: win
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_free
  end interface PMPI_Win_free
  interface MPI_Win_free_keyval
    subroutine MPI_Win_free_keyval(win_keyval, ierror)
      import
      implicit none
      integer, intent(inout) :: win_keyval
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_free_keyval
  end interface MPI_Win_free_keyval
  interface PMPI_Win_free_keyval
    subroutine PMPI_Win_free_keyval(win_keyval, ierror)
      import
      implicit none
      integer, intent(inout) :: win_keyval
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_free_keyval
  end interface PMPI_Win_free_keyval
  interface MPI_Win_get_attr
    subroutine MPI_Win_get_attr(win, win_keyval, attribute_val, flag, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      integer, intent(in) :: win_keyval
      integer(kind=MPI_ADDRESS_KIND), intent(out) :: attribute_val
      logical, intent(out) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_get_attr
  end interface MPI_Win_get_attr
  interface PMPI_Win_get_attr
    subroutine PMPI_Win_get_attr(win, win_keyval, attribute_val, flag, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      integer, intent(in) :: win_keyval
      integer(kind=MPI_ADDRESS_KIND), intent(out) :: attribute_val
      logical, intent(out) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_get_attr
  end interface PMPI_Win_get_attr
  interface MPI_Win_get_errhandler
    subroutine MPI_Win_get_errhandler(win, errhandler, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      type(MPI_Errhandler), intent(out) :: errhandler
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_get_errhandler
  end interface MPI_Win_get_errhandler
  interface PMPI_Win_get_errhandler
    subroutine PMPI_Win_get_errhandler(win, errhandler, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      type(MPI_Errhandler), intent(out) :: errhandler
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_get_errhandler
  end interface PMPI_Win_get_errhandler
  interface MPI_Win_get_group
    subroutine MPI_Win_get_group(win, group, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      type(MPI_Group), intent(out) :: group
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_get_group
  end interface MPI_Win_get_group
  interface PMPI_Win_get_group
    subroutine PMPI_Win_get_group(win, group, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      type(MPI_Group), intent(out) :: group
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_get_group
  end interface PMPI_Win_get_group
  interface MPI_Win_get_info
    subroutine MPI_Win_get_info(win, info_used, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      type(MPI_Info), intent(out) :: info_used
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_get_info
  end interface MPI_Win_get_info
  interface PMPI_Win_get_info
    subroutine PMPI_Win_get_info(win, info_used, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      type(MPI_Info), intent(out) :: info_used
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_get_info
  end interface PMPI_Win_get_info
  interface MPI_Win_get_name
    subroutine MPI_Win_get_name(win, win_name, resultlen, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      character(len=*), intent(out) :: win_name
      integer, intent(out) :: resultlen
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_get_name
  end interface MPI_Win_get_name
  interface PMPI_Win_get_name
    subroutine PMPI_Win_get_name(win, win_name, resultlen, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      character(len=*), intent(out) :: win_name
      integer, intent(out) :: resultlen
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_get_name
  end interface PMPI_Win_get_name
  interface MPI_Win_lock
    subroutine MPI_Win_lock(lock_type, rank, assert, win, ierror)
      import
      implicit none
      integer, intent(in) :: lock_type
      integer, intent(in) :: rank
      integer, intent(in) :: assert
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_lock
  end interface MPI_Win_lock
  interface PMPI_Win_lock
    subroutine PMPI_Win_lock(lock_type, rank, assert, win, ierror)
      import
      implicit none
      integer, intent(in) :: lock_type
      integer, intent(in) :: rank
      integer, intent(in) :: assert
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_lock
  end interface PMPI_Win_lock
  interface MPI_Win_lock_all
    subroutine MPI_Win_lock_all(assert, win, ierror)
      import
      implicit none
      integer, intent(in) :: assert
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_lock_all
  end interface MPI_Win_lock_all
  interface PMPI_Win_lock_all
    subroutine PMPI_Win_lock_all(assert, win, ierror)
      import
      implicit none
      integer, intent(in) :: assert
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_lock_all
  end interface PMPI_Win_lock_all
  interface MPI_Win_post
    subroutine MPI_Win_post(group, assert, win, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: group
      integer, intent(in) :: assert
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_post
  end interface MPI_Win_post
  interface PMPI_Win_post
    subroutine PMPI_Win_post(group, assert, win, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: group
      integer, intent(in) :: assert
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_post
  end interface PMPI_Win_post
  interface MPI_Win_set_attr
    subroutine MPI_Win_set_attr(win, win_keyval, attribute_val, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      integer, intent(in) :: win_keyval
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: attribute_val
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_set_attr
  end interface MPI_Win_set_attr
  interface PMPI_Win_set_attr
    subroutine PMPI_Win_set_attr(win, win_keyval, attribute_val, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      integer, intent(in) :: win_keyval
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: attribute_val
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_set_attr
  end interface PMPI_Win_set_attr
  interface MPI_Win_set_errhandler
    subroutine MPI_Win_set_errhandler(win, errhandler, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      type(MPI_Errhandler), intent(in) :: errhandler
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_set_errhandler
  end interface MPI_Win_set_errhandler
  interface PMPI_Win_set_errhandler
    subroutine PMPI_Win_set_errhandler(win, errhandler, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      type(MPI_Errhandler), intent(in) :: errhandler
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_set_errhandler
  end interface PMPI_Win_set_errhandler
  interface MPI_Win_set_info
    subroutine MPI_Win_set_info(win, info, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      type(MPI_Info), intent(in) :: info
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_set_info
  end interface MPI_Win_set_info
  interface PMPI_Win_set_info
    subroutine PMPI_Win_set_info(win, info, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      type(MPI_Info), intent(in) :: info
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_set_info
  end interface PMPI_Win_set_info
  interface MPI_Win_set_name
    subroutine MPI_Win_set_name(win, win_name, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      character(len=*), intent(in) :: win_name
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_set_name
  end interface MPI_Win_set_name
  interface PMPI_Win_set_name
    subroutine PMPI_Win_set_name(win, win_name, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      character(len=*), intent(in) :: win_name
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_set_name
  end interface PMPI_Win_set_name
  interface MPI_Win_shared_query
    subroutine MPI_Win_shared_query(win, rank, size, disp_unit, baseptr, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      integer, intent(in) :: rank
      integer(kind=MPI_ADDRESS_KIND), intent(out) :: size
      integer, intent(out) :: disp_unit
      type(c_ptr), intent(out) :: baseptr
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_shared_query
  end interface MPI_Win_shared_query
  interface PMPI_Win_shared_query
    subroutine PMPI_Win_shared_query(win, rank, size, disp_unit, baseptr, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      integer, intent(in) :: rank
      integer(kind=MPI_ADDRESS_KIND), intent(out) :: size
      integer, intent(out) :: disp_unit
      type(c_ptr), intent(out) :: baseptr
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_shared_query
  end interface PMPI_Win_shared_query
  interface MPI_Win_start
    subroutine MPI_Win_start(group, assert, win, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: group
      integer, intent(in) :: assert
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_start
  end interface MPI_Win_start
  interface PMPI_Win_start
    subroutine PMPI_Win_start(group, assert, win, ierror)
      import
      implicit none
      type(MPI_Group), intent(in) :: group
      integer, intent(in) :: assert
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_start
  end interface PMPI_Win_start
  interface MPI_Win_sync
    subroutine MPI_Win_sync(win, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_sync
  end interface MPI_Win_sync
  interface PMPI_Win_sync
    subroutine PMPI_Win_sync(win, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_sync
  end interface PMPI_Win_sync
  interface MPI_Win_test
    subroutine MPI_Win_test(win, flag, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      logical, intent(out) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_test
  end interface MPI_Win_test
  interface PMPI_Win_test
    subroutine PMPI_Win_test(win, flag, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      logical, intent(out) :: flag
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_test
  end interface PMPI_Win_test
  interface MPI_Win_unlock
    subroutine MPI_Win_unlock(rank, win, ierror)
      import
      implicit none
      integer, intent(in) :: rank
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_unlock
  end interface MPI_Win_unlock
  interface PMPI_Win_unlock
    subroutine PMPI_Win_unlock(rank, win, ierror)
      import
      implicit none
      integer, intent(in) :: rank
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_unlock
  end interface PMPI_Win_unlock
  interface MPI_Win_unlock_all
    subroutine MPI_Win_unlock_all(win, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_unlock_all
  end interface MPI_Win_unlock_all
  interface PMPI_Win_unlock_all
    subroutine PMPI_Win_unlock_all(win, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_unlock_all
  end interface PMPI_Win_unlock_all
  interface MPI_Win_wait
    subroutine MPI_Win_wait(win, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Win_wait
  end interface MPI_Win_wait
  interface PMPI_Win_wait
    subroutine PMPI_Win_wait(win, ierror)
      import
      implicit none
      type(MPI_Win), intent(in) :: win
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Win_wait
  end interface PMPI_Win_wait
  interface MPI_Wtick
    double precision function MPI_Wtick()
      import
      implicit none
    end function MPI_Wtick
  end interface MPI_Wtick
  interface PMPI_Wtick
    double precision function PMPI_Wtick()
      import
      implicit none
    end function PMPI_Wtick
  end interface PMPI_Wtick
  interface MPI_Wtime
    double precision function MPI_Wtime()
      import
      implicit none
    end function MPI_Wtime
  end interface MPI_Wtime
  interface PMPI_Wtime
    double precision function PMPI_Wtime()
      import
      implicit none
    end function PMPI_Wtime
  end interface PMPI_Wtime
  interface MPI_Sizeof
    subroutine MPI_Sizeof_f08ts(x, size, ierror) bind(C, name="MPI_Sizeof_f08ts")
      import
      implicit none
      type(*), dimension(..) :: x
      integer, intent(out) :: size
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Sizeof_f08ts
  end interface MPI_Sizeof
  interface PMPI_Sizeof
    subroutine PMPI_Sizeof_f08ts(x, size, ierror) bind(C, name="PMPI_Sizeof_f08ts")
      import
      implicit none
      type(*), dimension(..) :: x
      integer, intent(out) :: size
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Sizeof_f08ts
  end interface PMPI_Sizeof
  interface MPI_F_sync_reg
    subroutine MPI_F_sync_reg_f08ts(buf) bind(C, name="MPI_F_sync_reg_f08ts")
      import
      implicit none
      type(*), dimension(..), asynchronous :: buf
    end subroutine MPI_F_sync_reg_f08ts
  end interface MPI_F_sync_reg
  interface PMPI_F_sync_reg
    subroutine PMPI_F_sync_reg_f08ts(buf) bind(C, name="PMPI_F_sync_reg_f08ts")
      import
      implicit none
      type(*), dimension(..), asynchronous :: buf
    end subroutine PMPI_F_sync_reg_f08ts
  end interface PMPI_F_sync_reg
  interface MPI_Status_f2f08
    subroutine MPI_Status_f2f08(f_status, f08_status, ierror)
      import
      implicit none
      integer, intent(in) :: f_status(MPI_STATUS_SIZE)
      type(MPI_Status), intent(out) :: f08_status
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Status_f2f08
  end interface MPI_Status_f2f08
  interface PMPI_Status_f2f08
    subroutine PMPI_Status_f2f08(f_status, f08_status, ierror)
      import
      implicit none
      integer, intent(in) :: f_status(MPI_STATUS_SIZE)
      type(MPI_Status), intent(out) :: f08_status
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Status_f2f08
  end interface PMPI_Status_f2f08
  interface MPI_Status_f082f
    subroutine MPI_Status_f082f(f08_status, f_status, ierror)
      import
      implicit none
      type(MPI_Status), intent(in) :: f08_status
      integer, intent(out) :: f_status(MPI_STATUS_SIZE)
      integer, optional, intent(out) :: ierror
    end subroutine MPI_Status_f082f
  end interface MPI_Status_f082f
  interface PMPI_Status_f082f
    subroutine PMPI_Status_f082f(f08_status, f_status, ierror)
      import
      implicit none
      type(MPI_Status), intent(in) :: f08_status
      integer, intent(out) :: f_status(MPI_STATUS_SIZE)
      integer, optional, intent(out) :: ierror
    end subroutine PMPI_Status_f082f
  end interface PMPI_Status_f082f

end module mpi_f08
