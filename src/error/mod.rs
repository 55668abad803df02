//! The error vocabulary of the core. Layers below `abi` return these; `abi` maps each class
//! to MPI's error class number and runs the object's error handler.

pub mod added;

use std::fmt;

/// Declares `ErrorClass` and `ErrorClass::ALL` from one list of variants.
macro_rules! error_classes {
    ($($v:ident),* $(,)?) => {
        /// MPI error classes the core can raise (names follow MPI's `MPI_ERR_*`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ErrorClass {
            $($v),*
        }

        impl ErrorClass {
            /// Every class, in declaration order.
            pub const ALL: &'static [ErrorClass] = &[$(ErrorClass::$v),*];
        }
    };
}

error_classes! {
    Buffer,
    Count,
    Type,
    Tag,
    Comm,
    Rank,
    Request,
    Root,
    Group,
    Op,
    Topology,
    Dims,
    Arg,
    Unknown,
    Truncate,
    Other,
    Intern,
    InStatus,
    Pending,
    Keyval,
    NoMem,
    Info,
    InfoKey,
    InfoValue,
    InfoNoKey,
    Win,
    Disp,
    RmaSync,
    RmaRange,
    RmaConflict,
    RmaFlavor,
    RmaAttach,
    RmaShared,
    LockType,
    Assert,
    Size,
    // MPI-IO (MPI-3.1 §13.7)
    File,
    NotSame,
    Amode,
    UnsupportedDatarep,
    UnsupportedOperation,
    NoSuchFile,
    FileExists,
    BadFile,
    Access,
    NoSpace,
    Quota,
    ReadOnly,
    FileInUse,
    DupDatarep,
    Conversion,
    Io,
    Port,
    Name,
    Service,
    Spawn,
    Session,
    // The tool interface's (MPI_T calls return them; no error handler runs)
    TNotInitialized,
    TInvalidIndex,
    TInvalidHandle,
    TInvalidName,
    TInvalidSession,
    TCvarSetNever,
    TPvarNoStartstop,
    TPvarNoWrite,
    TInvalid,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub class: ErrorClass,
    pub msg: String,
    /// The MPI error code to return instead of the class's own: one the application's
    /// callback returned (an attribute copy or delete function), passed on as it is.
    pub code: Option<i32>,
}

impl ErrorClass {
    /// A class a call's argument checks raise (a bad handle, count, buffer, rank...), as
    /// opposed to what goes wrong while it runs (truncation, a lost peer, memory).
    pub fn is_argument(self) -> bool {
        use ErrorClass::*;
        matches!(
            self,
            Buffer
                | Count
                | Type
                | Tag
                | Comm
                | Rank
                | Request
                | Root
                | Group
                | Op
                | Topology
                | Dims
                | Arg
                | Info
                | InfoKey
                | InfoValue
                | Size
                | Session
        )
    }
}

impl Error {
    pub fn new(class: ErrorClass, msg: impl Into<String>) -> Self {
        Self {
            class,
            msg: msg.into(),
            code: None,
        }
    }

    /// This error, returned to the application as `code` (of class `self.class` or one
    /// the application added).
    pub fn with_code(mut self, code: i32) -> Self {
        self.code = Some(code);
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.msg)
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

/// `Err(Error::new(class, format!(...)))` in one line.
#[macro_export]
macro_rules! mpi_err {
    ($class:ident, $($fmt:tt)+) => {
        Err($crate::error::Error::new($crate::error::ErrorClass::$class, format!($($fmt)+)))
    };
}
