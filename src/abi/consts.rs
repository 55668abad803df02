//! The MPICH ABI, as Rust: handle types, `MPI_Status`, callback types and every predefined
//! constant a C program can name, with the values of MPICH 4.0 (`libmpi.so.12`), so binaries
//! built with MPICH's `mpicc` run on railmpi unchanged.
//!
//! `build.rs` runs cbindgen over `src/abi/` and turns these definitions into `include/mpi.h`
//! (see `cbindgen.toml`). Rules for this file, so the header stays right:
//! - Integer constants are `pub const NAME: TYPE = VALUE;`. Handle constants are written as
//!   `0x... as MPI_Handle` so the header shows `((MPI_Handle)0x...)` as MPICH's does; values
//!   above `i32::MAX` are written `0x8c00_0000_u32 as MPI_Datatype` (rustc wraps, C converts
//!   the unsigned literal the same way).
//! - What cbindgen cannot express (pointer-valued constants, C function *types*, exported
//!   data symbols) is marked `cbindgen:ignore` here and written by hand in `cbindgen.toml`
//!   (pointer constants) and `build.rs` (callback typedefs, `extern` data).
//! - Callback types are Rust *pointer* types (`Option<unsafe extern "C" fn ..>`); in C they
//!   are function types, as in MPICH. Shims take them by value (`user_fn: MPI_User_function`),
//!   which cbindgen prints as `MPI_User_function user_fn`: a parameter of function type is a
//!   function pointer in C, so the prototype is MPICH's.
#![allow(non_camel_case_types, non_upper_case_globals, non_snake_case)]

use std::os::raw::{c_int, c_long, c_void};

// ---------------------------------------------------------------------------------------
// Handle and scalar types.
// ---------------------------------------------------------------------------------------

/// Communicator handle.
pub type MPI_Comm = c_int;
/// Group handle.
pub type MPI_Group = c_int;
/// Datatype handle. For builtin types, bits 8..16 hold the size in bytes.
pub type MPI_Datatype = c_int;
/// Reduction operation handle.
pub type MPI_Op = c_int;
/// Error handler handle.
pub type MPI_Errhandler = c_int;
/// Request handle.
pub type MPI_Request = c_int;
/// RMA window handle.
pub type MPI_Win = c_int;
/// Info object handle.
pub type MPI_Info = c_int;
/// Matched-probe message handle.
pub type MPI_Message = c_int;
/// Session handle (MPI-4; kept because MPICH's header has it).
pub type MPI_Session = c_int;

/// The object an `MPI_File` points to in MPICH (opaque: railmpi's handles encode a table
/// slot, see `handles::file_handle`).
pub struct ADIOI_FileD {
    _opaque: [u8; 0],
}
/// File handle: a pointer in MPICH (`struct ADIOI_FileD *`), not an integer.
pub type MPI_File = *mut ADIOI_FileD;

/// The objects MPI_T handles point to in MPICH (opaque: railmpi's handles encode a table
/// slot, see `abi::tool`).
pub struct MPIR_T_enum_s {
    _opaque: [u8; 0],
}
pub struct MPIR_T_cvar_handle_s {
    _opaque: [u8; 0],
}
pub struct MPIR_T_pvar_handle_s {
    _opaque: [u8; 0],
}
pub struct MPIR_T_pvar_session_s {
    _opaque: [u8; 0],
}
pub struct MPIR_T_event_registration_s {
    _opaque: [u8; 0],
}
pub struct MPIR_T_event_instance_s {
    _opaque: [u8; 0],
}
/// MPI_T handles: pointers in MPICH, as MPI_File.
pub type MPI_T_enum = *mut MPIR_T_enum_s;
pub type MPI_T_cvar_handle = *mut MPIR_T_cvar_handle_s;
pub type MPI_T_pvar_handle = *mut MPIR_T_pvar_handle_s;
pub type MPI_T_pvar_session = *mut MPIR_T_pvar_session_s;
pub type MPI_T_event_registration = *mut MPIR_T_event_registration_s;
pub type MPI_T_event_instance = *mut MPIR_T_event_instance_s;
/// C enums in MPICH's header (an enum is an int in the ABI).
pub type MPI_T_cb_safety = c_int;
pub type MPI_T_source_order = c_int;

/// Address-sized integer (`long` in MPICH on LP64).
pub type MPI_Aint = c_long;
/// File offset (`long` in MPICH on LP64).
pub type MPI_Offset = c_long;
/// Large count (`long` in MPICH on LP64).
pub type MPI_Count = c_long;
/// Fortran INTEGER as seen from C.
pub type MPI_Fint = c_int;

/// Status of a completed receive: MPICH's layout, five `int`s. The received size in bytes is
/// `count_lo` (unsigned) plus `(count_hi_and_cancelled >> 1) << 32`, 63 bits; bit 0 of `count_hi_and_cancelled`
/// is the cancelled flag.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MPI_Status {
    pub count_lo: c_int,
    pub count_hi_and_cancelled: c_int,
    pub MPI_SOURCE: c_int,
    pub MPI_TAG: c_int,
    pub MPI_ERROR: c_int,
}

// ---------------------------------------------------------------------------------------
// Version. railmpi declares MPI 4.1 (MPICH 4.0's header says 4.0, MPICH 5.0's 5.0).
// ---------------------------------------------------------------------------------------

pub const MPI_VERSION: c_int = 4;
pub const MPI_SUBVERSION: c_int = 1;

// ---------------------------------------------------------------------------------------
// Null handles.
// ---------------------------------------------------------------------------------------

pub const MPI_COMM_NULL: MPI_Comm = 0x0400_0000 as MPI_Comm;
pub const MPI_OP_NULL: MPI_Op = 0x1800_0000 as MPI_Op;
pub const MPI_GROUP_NULL: MPI_Group = 0x0800_0000 as MPI_Group;
pub const MPI_DATATYPE_NULL: MPI_Datatype = 0x0c00_0000 as MPI_Datatype;
pub const MPI_REQUEST_NULL: MPI_Request = 0x2c00_0000 as MPI_Request;
pub const MPI_ERRHANDLER_NULL: MPI_Errhandler = 0x1400_0000 as MPI_Errhandler;
pub const MPI_MESSAGE_NULL: MPI_Message = 0x2c00_0000 as MPI_Message;
pub const MPI_MESSAGE_NO_PROC: MPI_Message = 0x6c00_0000 as MPI_Message;
pub const MPI_WIN_NULL: MPI_Win = 0x2000_0000 as MPI_Win;
pub const MPI_INFO_NULL: MPI_Info = 0x1c00_0000 as MPI_Info;
pub const MPI_SESSION_NULL: MPI_Session = 0x3800_0000 as MPI_Session;

// ---------------------------------------------------------------------------------------
// Predefined communicators, groups, info.
// ---------------------------------------------------------------------------------------

pub const MPI_COMM_WORLD: MPI_Comm = 0x4400_0000 as MPI_Comm;
pub const MPI_COMM_SELF: MPI_Comm = 0x4400_0001 as MPI_Comm;
pub const MPI_GROUP_EMPTY: MPI_Group = 0x4800_0000 as MPI_Group;
pub const MPI_INFO_ENV: MPI_Info = 0x5c00_0001 as MPI_Info;

// ---------------------------------------------------------------------------------------
// Predefined datatypes.
// ---------------------------------------------------------------------------------------

// C types.
pub const MPI_CHAR: MPI_Datatype = 0x4c00_0101 as MPI_Datatype;
pub const MPI_SIGNED_CHAR: MPI_Datatype = 0x4c00_0118 as MPI_Datatype;
pub const MPI_UNSIGNED_CHAR: MPI_Datatype = 0x4c00_0102 as MPI_Datatype;
pub const MPI_BYTE: MPI_Datatype = 0x4c00_010d as MPI_Datatype;
pub const MPI_WCHAR: MPI_Datatype = 0x4c00_040e as MPI_Datatype;
pub const MPI_SHORT: MPI_Datatype = 0x4c00_0203 as MPI_Datatype;
pub const MPI_UNSIGNED_SHORT: MPI_Datatype = 0x4c00_0204 as MPI_Datatype;
pub const MPI_INT: MPI_Datatype = 0x4c00_0405 as MPI_Datatype;
pub const MPI_UNSIGNED: MPI_Datatype = 0x4c00_0406 as MPI_Datatype;
pub const MPI_LONG: MPI_Datatype = 0x4c00_0807 as MPI_Datatype;
pub const MPI_UNSIGNED_LONG: MPI_Datatype = 0x4c00_0808 as MPI_Datatype;
pub const MPI_FLOAT: MPI_Datatype = 0x4c00_040a as MPI_Datatype;
pub const MPI_DOUBLE: MPI_Datatype = 0x4c00_080b as MPI_Datatype;
pub const MPI_LONG_DOUBLE: MPI_Datatype = 0x4c00_100c as MPI_Datatype;
pub const MPI_LONG_LONG_INT: MPI_Datatype = 0x4c00_0809 as MPI_Datatype;
pub const MPI_UNSIGNED_LONG_LONG: MPI_Datatype = 0x4c00_0819 as MPI_Datatype;
pub const MPI_LONG_LONG: MPI_Datatype = MPI_LONG_LONG_INT;
pub const MPI_PACKED: MPI_Datatype = 0x4c00_010f as MPI_Datatype;
/// Deprecated bound markers (removed in MPI-3, still in MPICH's header).
pub const MPI_LB: MPI_Datatype = 0x4c00_0010 as MPI_Datatype;
pub const MPI_UB: MPI_Datatype = 0x4c00_0011 as MPI_Datatype;

// Value-index pair types for MINLOC/MAXLOC. The non-contiguous ones live above i32::MAX.
pub const MPI_FLOAT_INT: MPI_Datatype = 0x8c00_0000_u32 as MPI_Datatype;
pub const MPI_DOUBLE_INT: MPI_Datatype = 0x8c00_0001_u32 as MPI_Datatype;
pub const MPI_LONG_INT: MPI_Datatype = 0x8c00_0002_u32 as MPI_Datatype;
pub const MPI_SHORT_INT: MPI_Datatype = 0x8c00_0003_u32 as MPI_Datatype;
pub const MPI_2INT: MPI_Datatype = 0x4c00_0816 as MPI_Datatype;
pub const MPI_LONG_DOUBLE_INT: MPI_Datatype = 0x8c00_0004_u32 as MPI_Datatype;

// Fortran types.
pub const MPI_COMPLEX: MPI_Datatype = 0x4c00_081e as MPI_Datatype;
pub const MPI_DOUBLE_COMPLEX: MPI_Datatype = 0x4c00_1022 as MPI_Datatype;
pub const MPI_LOGICAL: MPI_Datatype = 0x4c00_041d as MPI_Datatype;
pub const MPI_REAL: MPI_Datatype = 0x4c00_041c as MPI_Datatype;
pub const MPI_DOUBLE_PRECISION: MPI_Datatype = 0x4c00_081f as MPI_Datatype;
pub const MPI_INTEGER: MPI_Datatype = 0x4c00_041b as MPI_Datatype;
pub const MPI_2INTEGER: MPI_Datatype = 0x4c00_0820 as MPI_Datatype;
pub const MPI_2REAL: MPI_Datatype = 0x4c00_0821 as MPI_Datatype;
pub const MPI_2DOUBLE_PRECISION: MPI_Datatype = 0x4c00_1023 as MPI_Datatype;
pub const MPI_CHARACTER: MPI_Datatype = 0x4c00_011a as MPI_Datatype;

// Fortran size-specific types. MPICH has no INTEGER16: it is the null datatype.
pub const MPI_REAL4: MPI_Datatype = 0x4c00_0427 as MPI_Datatype;
pub const MPI_REAL8: MPI_Datatype = 0x4c00_0829 as MPI_Datatype;
pub const MPI_REAL16: MPI_Datatype = 0x4c00_102b as MPI_Datatype;
pub const MPI_COMPLEX8: MPI_Datatype = 0x4c00_0828 as MPI_Datatype;
pub const MPI_COMPLEX16: MPI_Datatype = 0x4c00_102a as MPI_Datatype;
pub const MPI_COMPLEX32: MPI_Datatype = 0x4c00_202c as MPI_Datatype;
pub const MPI_INTEGER1: MPI_Datatype = 0x4c00_012d as MPI_Datatype;
pub const MPI_INTEGER2: MPI_Datatype = 0x4c00_022f as MPI_Datatype;
pub const MPI_INTEGER4: MPI_Datatype = 0x4c00_0430 as MPI_Datatype;
pub const MPI_INTEGER8: MPI_Datatype = 0x4c00_0831 as MPI_Datatype;
pub const MPI_INTEGER16: MPI_Datatype = MPI_DATATYPE_NULL;

// C99 fixed-width integers.
pub const MPI_INT8_T: MPI_Datatype = 0x4c00_0137 as MPI_Datatype;
pub const MPI_INT16_T: MPI_Datatype = 0x4c00_0238 as MPI_Datatype;
pub const MPI_INT32_T: MPI_Datatype = 0x4c00_0439 as MPI_Datatype;
pub const MPI_INT64_T: MPI_Datatype = 0x4c00_083a as MPI_Datatype;
pub const MPI_UINT8_T: MPI_Datatype = 0x4c00_013b as MPI_Datatype;
pub const MPI_UINT16_T: MPI_Datatype = 0x4c00_023c as MPI_Datatype;
pub const MPI_UINT32_T: MPI_Datatype = 0x4c00_043d as MPI_Datatype;
pub const MPI_UINT64_T: MPI_Datatype = 0x4c00_083e as MPI_Datatype;

// Other C99 types.
pub const MPI_C_BOOL: MPI_Datatype = 0x4c00_013f as MPI_Datatype;
pub const MPI_C_FLOAT_COMPLEX: MPI_Datatype = 0x4c00_0840 as MPI_Datatype;
pub const MPI_C_COMPLEX: MPI_Datatype = MPI_C_FLOAT_COMPLEX;
pub const MPI_C_DOUBLE_COMPLEX: MPI_Datatype = 0x4c00_1041 as MPI_Datatype;
pub const MPI_C_LONG_DOUBLE_COMPLEX: MPI_Datatype = 0x4c00_2042 as MPI_Datatype;

// Address, offset and count types.
pub const MPI_AINT: MPI_Datatype = 0x4c00_0843 as MPI_Datatype;
pub const MPI_OFFSET: MPI_Datatype = 0x4c00_0844 as MPI_Datatype;
pub const MPI_COUNT: MPI_Datatype = 0x4c00_0845 as MPI_Datatype;

// C++ types.
pub const MPI_CXX_BOOL: MPI_Datatype = 0x4c00_0133 as MPI_Datatype;
pub const MPI_CXX_FLOAT_COMPLEX: MPI_Datatype = 0x4c00_0834 as MPI_Datatype;
pub const MPI_CXX_DOUBLE_COMPLEX: MPI_Datatype = 0x4c00_1035 as MPI_Datatype;
pub const MPI_CXX_LONG_DOUBLE_COMPLEX: MPI_Datatype = 0x4c00_2036 as MPI_Datatype;

// Type classes for MPI_Type_match_size.
pub const MPI_TYPECLASS_REAL: c_int = 1;
pub const MPI_TYPECLASS_INTEGER: c_int = 2;
pub const MPI_TYPECLASS_COMPLEX: c_int = 3;

// ---------------------------------------------------------------------------------------
// Predefined reduction operations.
// ---------------------------------------------------------------------------------------

pub const MPI_MAX: MPI_Op = 0x5800_0001 as MPI_Op;
pub const MPI_MIN: MPI_Op = 0x5800_0002 as MPI_Op;
pub const MPI_SUM: MPI_Op = 0x5800_0003 as MPI_Op;
pub const MPI_PROD: MPI_Op = 0x5800_0004 as MPI_Op;
pub const MPI_LAND: MPI_Op = 0x5800_0005 as MPI_Op;
pub const MPI_BAND: MPI_Op = 0x5800_0006 as MPI_Op;
pub const MPI_LOR: MPI_Op = 0x5800_0007 as MPI_Op;
pub const MPI_BOR: MPI_Op = 0x5800_0008 as MPI_Op;
pub const MPI_LXOR: MPI_Op = 0x5800_0009 as MPI_Op;
pub const MPI_BXOR: MPI_Op = 0x5800_000a as MPI_Op;
pub const MPI_MINLOC: MPI_Op = 0x5800_000b as MPI_Op;
pub const MPI_MAXLOC: MPI_Op = 0x5800_000c as MPI_Op;
pub const MPI_REPLACE: MPI_Op = 0x5800_000d as MPI_Op;
pub const MPI_NO_OP: MPI_Op = 0x5800_000e as MPI_Op;

// ---------------------------------------------------------------------------------------
// Predefined error handlers.
// ---------------------------------------------------------------------------------------

pub const MPI_ERRORS_ARE_FATAL: MPI_Errhandler = 0x5400_0000 as MPI_Errhandler;
pub const MPI_ERRORS_RETURN: MPI_Errhandler = 0x5400_0001 as MPI_Errhandler;
/// MPI-4 (in MPICH 4.0's header): abort only the processes of the communicator.
pub const MPI_ERRORS_ABORT: MPI_Errhandler = 0x5400_0003 as MPI_Errhandler;

// ---------------------------------------------------------------------------------------
// Results of MPI_Comm_compare / MPI_Group_compare.
// ---------------------------------------------------------------------------------------

pub const MPI_IDENT: c_int = 0;
pub const MPI_CONGRUENT: c_int = 1;
pub const MPI_SIMILAR: c_int = 2;
pub const MPI_UNEQUAL: c_int = 3;

// ---------------------------------------------------------------------------------------
// Attribute keys. The Fortran value of each key is the C value plus one.
// ---------------------------------------------------------------------------------------

pub const MPI_TAG_UB: c_int = 0x6440_0001;
pub const MPI_HOST: c_int = 0x6440_0003;
pub const MPI_IO: c_int = 0x6440_0005;
pub const MPI_WTIME_IS_GLOBAL: c_int = 0x6440_0007;
pub const MPI_UNIVERSE_SIZE: c_int = 0x6440_0009;
pub const MPI_LASTUSEDCODE: c_int = 0x6440_000b;
pub const MPI_APPNUM: c_int = 0x6440_000d;

pub const MPI_WIN_BASE: c_int = 0x6600_0001;
pub const MPI_WIN_SIZE: c_int = 0x6600_0003;
pub const MPI_WIN_DISP_UNIT: c_int = 0x6600_0005;
pub const MPI_WIN_CREATE_FLAVOR: c_int = 0x6600_0007;
pub const MPI_WIN_MODEL: c_int = 0x6600_0009;

pub const MPI_KEYVAL_INVALID: c_int = 0x2400_0000;

// ---------------------------------------------------------------------------------------
// String lengths and other limits.
// ---------------------------------------------------------------------------------------

pub const MPI_MAX_PROCESSOR_NAME: c_int = 128;
pub const MPI_MAX_LIBRARY_VERSION_STRING: c_int = 8192;
pub const MPI_MAX_ERROR_STRING: c_int = 512;
pub const MPI_MAX_PORT_NAME: c_int = 256;
pub const MPI_MAX_OBJECT_NAME: c_int = 128;
pub const MPI_MAX_STRINGTAG_LEN: c_int = 256;
pub const MPI_MAX_PSET_NAME_LEN: c_int = 256;
pub const MPI_MAX_INFO_KEY: c_int = 255;
pub const MPI_MAX_INFO_VAL: c_int = 1024;
pub const MPI_MAX_DATAREP_STRING: c_int = 128;
/// Upper bound of the per-message space MPI_Bsend needs in the attached buffer.
pub const MPI_BSEND_OVERHEAD: c_int = 96;

// ---------------------------------------------------------------------------------------
// Ranks, tags and other special integers.
// ---------------------------------------------------------------------------------------

pub const MPI_UNDEFINED: c_int = -32766;
pub const MPI_PROC_NULL: c_int = -1;
pub const MPI_ANY_SOURCE: c_int = -2;
pub const MPI_ROOT: c_int = -3;
pub const MPI_ANY_TAG: c_int = -1;

// ---------------------------------------------------------------------------------------
// One-sided communication.
// ---------------------------------------------------------------------------------------

pub const MPI_LOCK_EXCLUSIVE: c_int = 234;
pub const MPI_LOCK_SHARED: c_int = 235;

pub const MPI_WIN_FLAVOR_CREATE: c_int = 1;
pub const MPI_WIN_FLAVOR_ALLOCATE: c_int = 2;
pub const MPI_WIN_FLAVOR_DYNAMIC: c_int = 3;
pub const MPI_WIN_FLAVOR_SHARED: c_int = 4;

pub const MPI_WIN_SEPARATE: c_int = 1;
pub const MPI_WIN_UNIFIED: c_int = 2;

// Assertions for MPI_Win_fence / post / start / lock.
pub const MPI_MODE_NOCHECK: c_int = 1024;
pub const MPI_MODE_NOSTORE: c_int = 2048;
pub const MPI_MODE_NOPUT: c_int = 4096;
pub const MPI_MODE_NOPRECEDE: c_int = 8192;
pub const MPI_MODE_NOSUCCEED: c_int = 16384;

// ---------------------------------------------------------------------------------------
// Topologies and communicator splitting.
// ---------------------------------------------------------------------------------------

pub const MPI_GRAPH: c_int = 1;
pub const MPI_CART: c_int = 2;
pub const MPI_DIST_GRAPH: c_int = 3;

pub const MPI_COMM_TYPE_SHARED: c_int = 1;
pub const MPI_COMM_TYPE_HW_GUIDED: c_int = 2;
pub const MPI_COMM_TYPE_HW_UNGUIDED: c_int = 3;
/// MPI-4.1 (MPICH 4.2 and later have it, with this value).
pub const MPI_COMM_TYPE_RESOURCE_GUIDED: c_int = 4;

// ---------------------------------------------------------------------------------------
// Thread support levels.
// ---------------------------------------------------------------------------------------

pub const MPI_THREAD_SINGLE: c_int = 0;
pub const MPI_THREAD_FUNNELED: c_int = 1;
pub const MPI_THREAD_SERIALIZED: c_int = 2;
pub const MPI_THREAD_MULTIPLE: c_int = 3;

// ---------------------------------------------------------------------------------------
// Datatype decoding (MPI_Type_get_envelope) and darray/subarray constructors.
// ---------------------------------------------------------------------------------------

pub const MPI_COMBINER_NAMED: c_int = 1;
pub const MPI_COMBINER_DUP: c_int = 2;
pub const MPI_COMBINER_CONTIGUOUS: c_int = 3;
pub const MPI_COMBINER_VECTOR: c_int = 4;
pub const MPI_COMBINER_HVECTOR_INTEGER: c_int = 5;
pub const MPI_COMBINER_HVECTOR: c_int = 6;
pub const MPI_COMBINER_INDEXED: c_int = 7;
pub const MPI_COMBINER_HINDEXED_INTEGER: c_int = 8;
pub const MPI_COMBINER_HINDEXED: c_int = 9;
pub const MPI_COMBINER_INDEXED_BLOCK: c_int = 10;
pub const MPI_COMBINER_STRUCT_INTEGER: c_int = 11;
pub const MPI_COMBINER_STRUCT: c_int = 12;
pub const MPI_COMBINER_SUBARRAY: c_int = 13;
pub const MPI_COMBINER_DARRAY: c_int = 14;
pub const MPI_COMBINER_F90_REAL: c_int = 15;
pub const MPI_COMBINER_F90_COMPLEX: c_int = 16;
pub const MPI_COMBINER_F90_INTEGER: c_int = 17;
pub const MPI_COMBINER_RESIZED: c_int = 18;
pub const MPI_COMBINER_HINDEXED_BLOCK: c_int = 19;

pub const MPI_ORDER_C: c_int = 56;
pub const MPI_ORDER_FORTRAN: c_int = 57;
pub const MPI_DISTRIBUTE_BLOCK: c_int = 121;
pub const MPI_DISTRIBUTE_CYCLIC: c_int = 122;
pub const MPI_DISTRIBUTE_NONE: c_int = 123;
pub const MPI_DISTRIBUTE_DFLT_DARG: c_int = -49767;

// ---------------------------------------------------------------------------------------
// MPI-IO (from MPICH's mpio.h, which its mpi.h includes).
// ---------------------------------------------------------------------------------------

pub const MPI_MODE_CREATE: c_int = 1;
pub const MPI_MODE_RDONLY: c_int = 2;
pub const MPI_MODE_WRONLY: c_int = 4;
pub const MPI_MODE_RDWR: c_int = 8;
pub const MPI_MODE_DELETE_ON_CLOSE: c_int = 16;
pub const MPI_MODE_UNIQUE_OPEN: c_int = 32;
pub const MPI_MODE_EXCL: c_int = 64;
pub const MPI_MODE_APPEND: c_int = 128;
pub const MPI_MODE_SEQUENTIAL: c_int = 256;
pub const MPI_DISPLACEMENT_CURRENT: c_int = -54278278;
pub const MPI_SEEK_SET: c_int = 600;
pub const MPI_SEEK_CUR: c_int = 602;
pub const MPI_SEEK_END: c_int = 604;

// ---------------------------------------------------------------------------------------
// Fortran status as an array of MPI_Fint (MPI-4 names, in MPICH 4.0's header).
// ---------------------------------------------------------------------------------------

pub const MPI_F_STATUS_SIZE: c_int = 5;
pub const MPI_F_SOURCE: c_int = 2;
pub const MPI_F_TAG: c_int = 3;
pub const MPI_F_ERROR: c_int = 4;

// ---------------------------------------------------------------------------------------
// Error classes.
// ---------------------------------------------------------------------------------------

pub const MPI_SUCCESS: c_int = 0;
pub const MPI_ERR_BUFFER: c_int = 1;
pub const MPI_ERR_COUNT: c_int = 2;
pub const MPI_ERR_TYPE: c_int = 3;
pub const MPI_ERR_TAG: c_int = 4;
pub const MPI_ERR_COMM: c_int = 5;
pub const MPI_ERR_RANK: c_int = 6;
pub const MPI_ERR_ROOT: c_int = 7;
pub const MPI_ERR_GROUP: c_int = 8;
pub const MPI_ERR_OP: c_int = 9;
pub const MPI_ERR_TOPOLOGY: c_int = 10;
pub const MPI_ERR_DIMS: c_int = 11;
pub const MPI_ERR_ARG: c_int = 12;
pub const MPI_ERR_UNKNOWN: c_int = 13;
pub const MPI_ERR_TRUNCATE: c_int = 14;
pub const MPI_ERR_OTHER: c_int = 15;
pub const MPI_ERR_INTERN: c_int = 16;
pub const MPI_ERR_IN_STATUS: c_int = 17;
pub const MPI_ERR_PENDING: c_int = 18;
pub const MPI_ERR_REQUEST: c_int = 19;
pub const MPI_ERR_ACCESS: c_int = 20;
pub const MPI_ERR_AMODE: c_int = 21;
pub const MPI_ERR_BAD_FILE: c_int = 22;
pub const MPI_ERR_CONVERSION: c_int = 23;
pub const MPI_ERR_DUP_DATAREP: c_int = 24;
pub const MPI_ERR_FILE_EXISTS: c_int = 25;
pub const MPI_ERR_FILE_IN_USE: c_int = 26;
pub const MPI_ERR_FILE: c_int = 27;
pub const MPI_ERR_INFO: c_int = 28;
pub const MPI_ERR_INFO_KEY: c_int = 29;
pub const MPI_ERR_INFO_VALUE: c_int = 30;
pub const MPI_ERR_INFO_NOKEY: c_int = 31;
pub const MPI_ERR_IO: c_int = 32;
pub const MPI_ERR_NAME: c_int = 33;
pub const MPI_ERR_NO_MEM: c_int = 34;
pub const MPI_ERR_NOT_SAME: c_int = 35;
pub const MPI_ERR_NO_SPACE: c_int = 36;
pub const MPI_ERR_NO_SUCH_FILE: c_int = 37;
pub const MPI_ERR_PORT: c_int = 38;
pub const MPI_ERR_QUOTA: c_int = 39;
pub const MPI_ERR_READ_ONLY: c_int = 40;
pub const MPI_ERR_SERVICE: c_int = 41;
pub const MPI_ERR_SPAWN: c_int = 42;
pub const MPI_ERR_UNSUPPORTED_DATAREP: c_int = 43;
pub const MPI_ERR_UNSUPPORTED_OPERATION: c_int = 44;
pub const MPI_ERR_WIN: c_int = 45;
pub const MPI_ERR_BASE: c_int = 46;
pub const MPI_ERR_LOCKTYPE: c_int = 47;
pub const MPI_ERR_KEYVAL: c_int = 48;
pub const MPI_ERR_RMA_CONFLICT: c_int = 49;
pub const MPI_ERR_RMA_SYNC: c_int = 50;
pub const MPI_ERR_SIZE: c_int = 51;
pub const MPI_ERR_DISP: c_int = 52;
pub const MPI_ERR_ASSERT: c_int = 53;
pub const MPI_ERR_RMA_RANGE: c_int = 55;
pub const MPI_ERR_RMA_ATTACH: c_int = 56;
pub const MPI_ERR_RMA_SHARED: c_int = 57;
pub const MPI_ERR_RMA_FLAVOR: c_int = 58;
pub const MPI_T_ERR_MEMORY: c_int = 59;
pub const MPI_T_ERR_NOT_INITIALIZED: c_int = 60;
pub const MPI_T_ERR_CANNOT_INIT: c_int = 61;
pub const MPI_T_ERR_INVALID_INDEX: c_int = 62;
pub const MPI_T_ERR_INVALID_ITEM: c_int = 63;
pub const MPI_T_ERR_INVALID_HANDLE: c_int = 64;
pub const MPI_T_ERR_OUT_OF_HANDLES: c_int = 65;
pub const MPI_T_ERR_OUT_OF_SESSIONS: c_int = 66;
pub const MPI_T_ERR_INVALID_SESSION: c_int = 67;
pub const MPI_T_ERR_CVAR_SET_NOT_NOW: c_int = 68;
pub const MPI_T_ERR_CVAR_SET_NEVER: c_int = 69;
pub const MPI_T_ERR_PVAR_NO_STARTSTOP: c_int = 70;
pub const MPI_T_ERR_PVAR_NO_WRITE: c_int = 71;
pub const MPI_T_ERR_PVAR_NO_ATOMIC: c_int = 72;
pub const MPI_T_ERR_INVALID_NAME: c_int = 73;
pub const MPI_T_ERR_INVALID: c_int = 74;
pub const MPI_ERR_SESSION: c_int = 75;
pub const MPI_ERR_PROC_ABORTED: c_int = 76;
pub const MPI_ERR_VALUE_TOO_LARGE: c_int = 77;
pub const MPI_T_ERR_NOT_SUPPORTED: c_int = 78;
/// MPI-4.1's and MPI-5.0's classes (MPICH 5's values; railmpi raises neither, but the
/// standard ABI's codes map to them).
pub const MPI_ERR_ERRHANDLER: c_int = 80;
pub const MPI_ERR_ABI: c_int = 81;

// MPI_T enumerations (MPICH's values).
pub const MPI_T_VERBOSITY_USER_BASIC: c_int = 221;
pub const MPI_T_VERBOSITY_USER_DETAIL: c_int = 222;
pub const MPI_T_VERBOSITY_USER_ALL: c_int = 223;
pub const MPI_T_VERBOSITY_TUNER_BASIC: c_int = 224;
pub const MPI_T_VERBOSITY_TUNER_DETAIL: c_int = 225;
pub const MPI_T_VERBOSITY_TUNER_ALL: c_int = 226;
pub const MPI_T_VERBOSITY_MPIDEV_BASIC: c_int = 227;
pub const MPI_T_VERBOSITY_MPIDEV_DETAIL: c_int = 228;
pub const MPI_T_VERBOSITY_MPIDEV_ALL: c_int = 229;
pub const MPI_T_BIND_NO_OBJECT: c_int = 9700;
pub const MPI_T_BIND_MPI_COMM: c_int = 9701;
pub const MPI_T_BIND_MPI_DATATYPE: c_int = 9702;
pub const MPI_T_BIND_MPI_ERRHANDLER: c_int = 9703;
pub const MPI_T_BIND_MPI_FILE: c_int = 9704;
pub const MPI_T_BIND_MPI_GROUP: c_int = 9705;
pub const MPI_T_BIND_MPI_OP: c_int = 9706;
pub const MPI_T_BIND_MPI_REQUEST: c_int = 9707;
pub const MPI_T_BIND_MPI_WIN: c_int = 9708;
pub const MPI_T_BIND_MPI_MESSAGE: c_int = 9709;
pub const MPI_T_BIND_MPI_INFO: c_int = 9710;
pub const MPI_T_SCOPE_CONSTANT: c_int = 60438;
pub const MPI_T_SCOPE_READONLY: c_int = 60439;
pub const MPI_T_SCOPE_LOCAL: c_int = 60440;
pub const MPI_T_SCOPE_GROUP: c_int = 60441;
pub const MPI_T_SCOPE_GROUP_EQ: c_int = 60442;
pub const MPI_T_SCOPE_ALL: c_int = 60443;
pub const MPI_T_SCOPE_ALL_EQ: c_int = 60444;
pub const MPI_T_PVAR_CLASS_STATE: c_int = 240;
pub const MPI_T_PVAR_CLASS_LEVEL: c_int = 241;
pub const MPI_T_PVAR_CLASS_SIZE: c_int = 242;
pub const MPI_T_PVAR_CLASS_PERCENTAGE: c_int = 243;
pub const MPI_T_PVAR_CLASS_HIGHWATERMARK: c_int = 244;
pub const MPI_T_PVAR_CLASS_LOWWATERMARK: c_int = 245;
pub const MPI_T_PVAR_CLASS_COUNTER: c_int = 246;
pub const MPI_T_PVAR_CLASS_AGGREGATE: c_int = 247;
pub const MPI_T_PVAR_CLASS_TIMER: c_int = 248;
pub const MPI_T_PVAR_CLASS_GENERIC: c_int = 249;
pub const MPI_T_CB_REQUIRE_NONE: c_int = 0;
pub const MPI_T_CB_REQUIRE_MPI_RESTRICTED: c_int = 1;
pub const MPI_T_CB_REQUIRE_THREAD_SAFE: c_int = 2;
pub const MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE: c_int = 3;
pub const MPI_T_SOURCE_ORDERED: c_int = 0;
pub const MPI_T_SOURCE_UNORDERED: c_int = 1;
/// Largest valid error code (classes and codes made by MPI_Add_error_code stay below it).
pub const MPI_ERR_LASTCODE: c_int = 0x3fff_ffff;

/// The predefined "duplicate" attribute copy function (MPI_DUP_FN, MPI_COMM_DUP_FN,
/// MPI_TYPE_DUP_FN and MPI_WIN_DUP_FN all name it, as in MPICH): copies the attribute
/// value and sets `flag`.
///
/// # Safety
/// `attribute_val_out` must point to a `void *` and `flag` to an `int`, as MPI passes them.
#[no_mangle]
pub unsafe extern "C" fn MPIR_Dup_fn(
    oldcomm: MPI_Comm,
    keyval: c_int,
    extra_state: *mut c_void,
    attribute_val_in: *mut c_void,
    attribute_val_out: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    let _ = (oldcomm, keyval, extra_state);
    // SAFETY: per the contract above.
    unsafe {
        *(attribute_val_out as *mut *mut c_void) = attribute_val_in;
        *flag = 1;
    }
    MPI_SUCCESS
}

pub use self::c_only::*;

/// Items the header gets from hand-written C (`cbindgen.toml`'s `after_includes`, and the
/// callback block in `build.rs`): cbindgen cannot print pointer constants, C function types
/// or `extern` data the way MPICH's header has them.
///
/// cbindgen:ignore
mod c_only {
    use super::*;
    use std::os::raw::c_char;

    // -----------------------------------------------------------------------------------
    // Callback types (C: function types; Rust: nullable function pointers).
    // -----------------------------------------------------------------------------------

    /// User reduction function for MPI_Op_create.
    pub type MPI_User_function =
        Option<unsafe extern "C" fn(*mut c_void, *mut c_void, *mut c_int, *mut MPI_Datatype)>;
    /// Large-count user reduction function (MPI-4).
    pub type MPI_User_function_c =
        Option<unsafe extern "C" fn(*mut c_void, *mut c_void, *mut MPI_Count, *mut MPI_Datatype)>;

    pub type MPI_Comm_errhandler_function =
        Option<unsafe extern "C" fn(*mut MPI_Comm, *mut c_int, ...)>;
    /// MPI-1 name of the communicator error handler type.
    pub type MPI_Handler_function = MPI_Comm_errhandler_function;
    /// Deprecated MPI-2.0 name.
    pub type MPI_Comm_errhandler_fn = MPI_Comm_errhandler_function;
    pub type MPI_Win_errhandler_function =
        Option<unsafe extern "C" fn(*mut MPI_Win, *mut c_int, ...)>;
    pub type MPI_Win_errhandler_fn = MPI_Win_errhandler_function;
    pub type MPI_File_errhandler_function =
        Option<unsafe extern "C" fn(*mut MPI_File, *mut c_int, ...)>;
    pub type MPI_File_errhandler_fn = MPI_File_errhandler_function;
    pub type MPI_Session_errhandler_function =
        Option<unsafe extern "C" fn(*mut MPI_Session, *mut c_int, ...)>;
    pub type MPI_Session_errhandler_fn = MPI_Session_errhandler_function;

    /// MPI_T event callbacks (railmpi raises no events: never called).
    pub type MPI_T_event_cb_function = Option<
        unsafe extern "C" fn(
            MPI_T_event_instance,
            MPI_T_event_registration,
            MPI_T_cb_safety,
            *mut c_void,
        ),
    >;
    pub type MPI_T_event_free_cb_function =
        Option<unsafe extern "C" fn(MPI_T_event_registration, MPI_T_cb_safety, *mut c_void)>;
    pub type MPI_T_event_dropped_cb_function = Option<
        unsafe extern "C" fn(
            MPI_Count,
            MPI_T_event_registration,
            c_int,
            MPI_T_cb_safety,
            *mut c_void,
        ),
    >;

    /// `(oldcomm, keyval, extra_state, attribute_val_in, attribute_val_out, flag)`.
    pub type MPI_Comm_copy_attr_function = Option<
        unsafe extern "C" fn(
            MPI_Comm,
            c_int,
            *mut c_void,
            *mut c_void,
            *mut c_void,
            *mut c_int,
        ) -> c_int,
    >;
    /// `(comm, keyval, attribute_val, extra_state)`.
    pub type MPI_Comm_delete_attr_function =
        Option<unsafe extern "C" fn(MPI_Comm, c_int, *mut c_void, *mut c_void) -> c_int>;
    pub type MPI_Type_copy_attr_function = Option<
        unsafe extern "C" fn(
            MPI_Datatype,
            c_int,
            *mut c_void,
            *mut c_void,
            *mut c_void,
            *mut c_int,
        ) -> c_int,
    >;
    pub type MPI_Type_delete_attr_function =
        Option<unsafe extern "C" fn(MPI_Datatype, c_int, *mut c_void, *mut c_void) -> c_int>;
    pub type MPI_Win_copy_attr_function = Option<
        unsafe extern "C" fn(
            MPI_Win,
            c_int,
            *mut c_void,
            *mut c_void,
            *mut c_void,
            *mut c_int,
        ) -> c_int,
    >;
    pub type MPI_Win_delete_attr_function =
        Option<unsafe extern "C" fn(MPI_Win, c_int, *mut c_void, *mut c_void) -> c_int>;
    /// MPI-1 attribute copy function (MPI_Keyval_create); same shape as the comm one.
    pub type MPI_Copy_function = MPI_Comm_copy_attr_function;
    /// MPI-1 attribute delete function.
    pub type MPI_Delete_function = MPI_Comm_delete_attr_function;

    /// `(extra_state, complete)`.
    pub type MPI_Grequest_cancel_function =
        Option<unsafe extern "C" fn(*mut c_void, c_int) -> c_int>;
    pub type MPI_Grequest_free_function = Option<unsafe extern "C" fn(*mut c_void) -> c_int>;
    pub type MPI_Grequest_query_function =
        Option<unsafe extern "C" fn(*mut c_void, *mut MPI_Status) -> c_int>;

    /// `(userbuf, datatype, count, filebuf, position, extra_state)`.
    pub type MPI_Datarep_conversion_function = Option<
        unsafe extern "C" fn(
            *mut c_void,
            MPI_Datatype,
            c_int,
            *mut c_void,
            MPI_Offset,
            *mut c_void,
        ) -> c_int,
    >;
    pub type MPI_Datarep_conversion_function_c = Option<
        unsafe extern "C" fn(
            *mut c_void,
            MPI_Datatype,
            MPI_Count,
            *mut c_void,
            MPI_Offset,
            *mut c_void,
        ) -> c_int,
    >;
    /// `(datatype, file_extent, extra_state)`.
    pub type MPI_Datarep_extent_function =
        Option<unsafe extern "C" fn(MPI_Datatype, *mut MPI_Aint, *mut c_void) -> c_int>;

    // -----------------------------------------------------------------------------------
    // Pointer-valued constants (MPICH's values).
    // -----------------------------------------------------------------------------------

    pub const MPI_BOTTOM: *mut c_void = std::ptr::null_mut();
    pub const MPI_IN_PLACE: *mut c_void = -1isize as *mut c_void;
    /// MPI-4.1's automatic buffer for buffered sends (MPICH 5's value).
    pub const MPI_BUFFER_AUTOMATIC: *mut c_void = -2isize as *mut c_void;
    // Address 1, as in MPICH (`ptr::dangling_mut` would give the alignment, 4).
    pub const MPI_STATUS_IGNORE: *mut MPI_Status = std::ptr::without_provenance_mut(1);
    pub const MPI_STATUSES_IGNORE: *mut MPI_Status = std::ptr::without_provenance_mut(1);
    pub const MPI_ERRCODES_IGNORE: *mut c_int = std::ptr::null_mut();
    pub const MPI_ARGV_NULL: *mut *mut c_char = std::ptr::null_mut();
    pub const MPI_ARGVS_NULL: *mut *mut *mut c_char = std::ptr::null_mut();
    pub const MPI_FILE_NULL: MPI_File = std::ptr::null_mut();
    pub const MPI_T_ENUM_NULL: MPI_T_enum = std::ptr::null_mut();
    pub const MPI_T_CVAR_HANDLE_NULL: MPI_T_cvar_handle = std::ptr::null_mut();
    pub const MPI_T_PVAR_HANDLE_NULL: MPI_T_pvar_handle = std::ptr::null_mut();
    pub const MPI_T_PVAR_SESSION_NULL: MPI_T_pvar_session = std::ptr::null_mut();

    pub const MPI_NULL_COPY_FN: MPI_Copy_function = None;
    pub const MPI_NULL_DELETE_FN: MPI_Delete_function = None;
    pub const MPI_DUP_FN: MPI_Copy_function = Some(MPIR_Dup_fn);
    pub const MPI_COMM_NULL_COPY_FN: MPI_Comm_copy_attr_function = None;
    pub const MPI_COMM_NULL_DELETE_FN: MPI_Comm_delete_attr_function = None;
    pub const MPI_COMM_DUP_FN: MPI_Comm_copy_attr_function = Some(MPIR_Dup_fn);
    pub const MPI_TYPE_NULL_COPY_FN: MPI_Type_copy_attr_function = None;
    pub const MPI_TYPE_NULL_DELETE_FN: MPI_Type_delete_attr_function = None;
    /// The C header casts MPIR_Dup_fn; in Rust the handle argument is an `int` either way.
    pub const MPI_TYPE_DUP_FN: MPI_Type_copy_attr_function = Some(MPIR_Dup_fn);
    pub const MPI_WIN_NULL_COPY_FN: MPI_Win_copy_attr_function = None;
    pub const MPI_WIN_NULL_DELETE_FN: MPI_Win_delete_attr_function = None;
    pub const MPI_WIN_DUP_FN: MPI_Win_copy_attr_function = Some(MPIR_Dup_fn);
    pub const MPI_CONVERSION_FN_NULL: MPI_Datarep_conversion_function = None;
    pub const MPI_CONVERSION_FN_NULL_C: MPI_Datarep_conversion_function_c = None;

    // -----------------------------------------------------------------------------------
    // Exported data symbols. MPICH's header declares these `extern`, so binaries built
    // against MPICH import them from libmpi.so.12 by name.
    // -----------------------------------------------------------------------------------

    /// A pointer that may sit in a `static` shared between threads (it is never written).
    #[repr(transparent)]
    pub struct SyncPtr<T>(pub *mut T);
    // SAFETY: the pointee is only compared by address, never accessed through these.
    unsafe impl<T> Sync for SyncPtr<T> {}

    static mut UNWEIGHTED_TARGET: c_int = 0;
    static mut PVAR_ALL_HANDLES_TARGET: u8 = 0;
    static mut WEIGHTS_EMPTY_TARGET: c_int = 0;
    static mut F_STATUS_IGNORE_TARGET: [MPI_Fint; 5] = [0; 5];
    static mut F_STATUSES_IGNORE_TARGET: [MPI_Fint; 5] = [0; 5];

    /// `struct MPIR_T_pvar_handle_s * const MPI_T_PVAR_ALL_HANDLES`: a unique address.
    #[no_mangle]
    pub static MPI_T_PVAR_ALL_HANDLES: SyncPtr<MPIR_T_pvar_handle_s> =
        SyncPtr(&raw mut PVAR_ALL_HANDLES_TARGET as *mut MPIR_T_pvar_handle_s);
    /// `int * const MPI_UNWEIGHTED`: a unique address, compared by value.
    #[no_mangle]
    pub static MPI_UNWEIGHTED: SyncPtr<c_int> = SyncPtr(&raw mut UNWEIGHTED_TARGET);
    /// `int * const MPI_WEIGHTS_EMPTY`: a unique address, compared by value.
    #[no_mangle]
    pub static MPI_WEIGHTS_EMPTY: SyncPtr<c_int> = SyncPtr(&raw mut WEIGHTS_EMPTY_TARGET);
    /// `MPI_Fint *MPI_F_STATUS_IGNORE` for MPI_Status_f2c / c2f.
    #[no_mangle]
    pub static MPI_F_STATUS_IGNORE: SyncPtr<MPI_Fint> =
        SyncPtr(&raw mut F_STATUS_IGNORE_TARGET as *mut MPI_Fint);
    /// `MPI_Fint *MPI_F_STATUSES_IGNORE`.
    #[no_mangle]
    pub static MPI_F_STATUSES_IGNORE: SyncPtr<MPI_Fint> =
        SyncPtr(&raw mut F_STATUSES_IGNORE_TARGET as *mut MPI_Fint);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    #[test]
    fn header_is_fresh() {
        let generated = include_str!(concat!(env!("OUT_DIR"), "/mpi.h"));
        let checked_in = include_str!("../../include/mpi.h");
        assert!(
            generated == checked_in,
            "include/mpi.h is stale: run `make header` (generated: {}/mpi.h)",
            env!("OUT_DIR")
        );
    }

    #[test]
    fn status_layout_is_mpich() {
        assert_eq!(size_of::<MPI_Status>(), 20);
        assert_eq!(offset_of!(MPI_Status, count_lo), 0);
        assert_eq!(offset_of!(MPI_Status, count_hi_and_cancelled), 4);
        assert_eq!(offset_of!(MPI_Status, MPI_SOURCE), 8);
        assert_eq!(offset_of!(MPI_Status, MPI_TAG), 12);
        assert_eq!(offset_of!(MPI_Status, MPI_ERROR), 16);
    }

    #[test]
    fn handles_above_i32_max_wrap_like_c() {
        assert_eq!(MPI_FLOAT_INT, -0x7400_0000);
        assert_eq!(MPI_LONG_DOUBLE_INT as u32, 0x8c00_0004);
        // Builtin datatypes carry their size in bits 8..16.
        assert_eq!((MPI_INT >> 8) & 0xff, 4);
        assert_eq!((MPI_DOUBLE_COMPLEX >> 8) & 0xff, 16);
    }

    #[test]
    fn dup_fn_copies_the_value() {
        let mut out: *mut std::os::raw::c_void = std::ptr::null_mut();
        let mut flag = 0;
        let val = 0x1234usize as *mut std::os::raw::c_void;
        let rc = unsafe {
            MPIR_Dup_fn(
                MPI_COMM_WORLD,
                0,
                std::ptr::null_mut(),
                val,
                &mut out as *mut _ as *mut _,
                &mut flag,
            )
        };
        assert_eq!((rc, out, flag), (MPI_SUCCESS, val, 1));
        assert!(MPI_COMM_DUP_FN.is_some() && MPI_COMM_NULL_COPY_FN.is_none());
        assert_eq!(MPI_STATUS_IGNORE as usize, 1);
        assert_eq!(MPI_IN_PLACE as isize, -1);
    }
}
