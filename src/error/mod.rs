//! The error vocabulary of the core: MPI's error classes (with MPI_Error_string's texts)
//! and the error layers below `abi` return; `abi` numbers them as its ABI does and runs the
//! object's error handler.

pub mod added;

use std::fmt;

/// Declares an enum of classes, its `ALL`, and each class's text, from one list.
macro_rules! error_classes {
    ($(#[$doc:meta])* $name:ident; $($v:ident, $text:literal;)*) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($v),*
        }

        impl $name {
            /// Every class, in declaration order (their positions travel between processes:
            /// new classes go at the end).
            pub const ALL: &'static [$name] = &[$($name::$v),*];

            /// MPI_Error_string's text for the class.
            pub const fn text(self) -> &'static str {
                match self {
                    $($name::$v => $text),*
                }
            }
        }
    };
}

error_classes! {
    /// MPI error classes the core can raise (names follow MPI's `MPI_ERR_*`).
    ErrorClass;
    Buffer, "Invalid buffer pointer";
    Count, "Invalid count argument";
    Type, "Invalid datatype argument";
    Tag, "Invalid tag argument";
    Comm, "Invalid communicator";
    Rank, "Invalid rank";
    Request, "Invalid MPI_Request";
    Root, "Invalid root";
    Group, "Invalid group";
    Op, "Invalid MPI_Op";
    Topology, "Invalid topology";
    Dims, "Invalid dimension argument";
    Arg, "Invalid argument";
    Unknown, "Unknown error";
    Truncate, "Message truncated";
    Other, "Other MPI error";
    Intern, "Internal MPI error";
    InStatus, "See the MPI_ERROR field in MPI_Status for the error code";
    Pending, "Pending request (no error)";
    Keyval, "Invalid keyval";
    NoMem, "Out of memory";
    Info, "Invalid info object";
    InfoKey, "Invalid info key";
    InfoValue, "Invalid info value";
    InfoNoKey, "Info key not found";
    Win, "Invalid window";
    Disp, "Invalid displacement argument";
    RmaSync, "Wrong synchronization of RMA calls";
    RmaRange, "Target memory is not part of the window";
    RmaConflict, "Conflicting accesses to window";
    RmaFlavor, "Passed window has incorrect flavor for attempted operation";
    RmaAttach, "Memory cannot be attached";
    RmaShared, "Memory cannot be shared";
    LockType, "Invalid lock type";
    Assert, "Invalid assert argument";
    Size, "Invalid size argument";
    // MPI-IO (MPI-3.1 §13.7)
    File, "Invalid file handle";
    NotSame, "Collective argument not identical on all processes";
    Amode, "Invalid amode value in MPI_File_open";
    UnsupportedDatarep, "Unsupported datarep passed to MPI_File_set_view";
    UnsupportedOperation, "Unsupported operation";
    NoSuchFile, "File does not exist";
    FileExists, "File exists";
    BadFile, "Invalid file name";
    Access, "Permission denied";
    NoSpace, "Not enough space";
    Quota, "Quota exceeded";
    ReadOnly, "Read-only file or file system";
    FileInUse, "File operation could not be completed, file in use";
    DupDatarep, "Data representation already registered";
    Conversion, "Error in data conversion";
    Io, "Other I/O error";
    Port, "Invalid port";
    Name, "Service name not published";
    Service, "Service name could not be published or unpublished";
    Spawn, "Error in spawning processes";
    Session, "Invalid session handle";
    // The tool interface's (MPI_T calls return them; no error handler runs)
    TNotInitialized, "The MPI tool interface is not initialized";
    TInvalidIndex, "Invalid MPI_T index";
    TInvalidHandle, "Invalid MPI_T handle";
    TInvalidName, "Invalid MPI_T variable or category name";
    TInvalidSession, "Invalid MPI_T performance variable session";
    TCvarSetNever, "The control variable cannot be set";
    TPvarNoStartstop, "The performance variable cannot be started or stopped";
    TPvarNoWrite, "The performance variable cannot be written or reset";
    TInvalid, "Invalid use of the MPI tool interface";
    // MPI-5.0's (MPI_Abi_set_fortran_info and _booleans, called twice).
    Abi, "The Fortran ABI was set already";
}

error_classes! {
    /// MPI's classes the core never raises (MPI_SUCCESS among them), whose texts
    /// MPI_Error_string gives all the same.
    Unraised;
    Success, "No MPI error";
    Base, "Invalid base address";
    TMemory, "Out of memory (MPI_T)";
    TCannotInit, "The MPI tool interface cannot be initialized now";
    TInvalidItem, "Invalid MPI_T item";
    TOutOfHandles, "No more MPI_T handles";
    TOutOfSessions, "No more MPI_T performance variable sessions";
    TCvarSetNotNow, "The control variable cannot be set now";
    TPvarNoAtomic, "The performance variable cannot be read and reset atomically";
    TNotSupported, "Not supported by the MPI tool interface";
    Errhandler, "Invalid error handler";
}

/// An MPI error: boxed, so that a `Result<()>` is one word and the latency paths that pass
/// results up move no more (an unboxed error made every result 40 bytes, moved through
/// the stack at each level).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error(Box<ErrorInfo>);

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorInfo {
    pub class: ErrorClass,
    pub msg: String,
    /// The MPI error code to return instead of the class's own: one the application's
    /// callback returned (an attribute copy or delete function), passed on as it is.
    pub code: Option<i32>,
}

impl std::ops::Deref for Error {
    type Target = ErrorInfo;
    fn deref(&self) -> &ErrorInfo {
        &self.0
    }
}

impl std::ops::DerefMut for Error {
    fn deref_mut(&mut self) -> &mut ErrorInfo {
        &mut self.0
    }
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
    #[cold]
    pub fn new(class: ErrorClass, msg: impl Into<String>) -> Self {
        Self(Box::new(ErrorInfo {
            class,
            msg: msg.into(),
            code: None,
        }))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_class_has_a_text_and_its_place() {
        assert!(ErrorClass::ALL.iter().all(|c| !c.text().is_empty()));
        // Positions travel between processes: the first and the newest stay where they are.
        assert_eq!(ErrorClass::ALL[0], ErrorClass::Buffer);
        assert_eq!(ErrorClass::ALL.last(), Some(&ErrorClass::Abi));
    }
}
