//! The error vocabulary of the core: MPI's error classes (with MPICH's numbers and
//! MPI_Error_string's texts) and the error layers below `abi` return; `abi` returns the
//! numbers and runs the object's error handler.

pub mod added;

use std::fmt;

/// Declares `ErrorClass`, `ErrorClass::ALL`, and each class's MPICH number and text, from
/// one list.
macro_rules! error_classes {
    ($($v:ident = $code:literal, $text:literal;)*) => {
        /// MPI error classes the core can raise (names follow MPI's `MPI_ERR_*`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ErrorClass {
            $($v),*
        }

        impl ErrorClass {
            /// Every class, in declaration order (their positions travel between processes:
            /// new classes go at the end).
            pub const ALL: &'static [ErrorClass] = &[$(ErrorClass::$v),*];

            /// The class's number in MPICH's ABI (its `MPI_ERR_*`; the standard ABI's
            /// binding translates it).
            pub const fn code(self) -> i32 {
                match self {
                    $(ErrorClass::$v => $code),*
                }
            }

            /// MPI_Error_string's text for the class.
            pub const fn text(self) -> &'static str {
                match self {
                    $(ErrorClass::$v => $text),*
                }
            }
        }
    };
}

error_classes! {
    Buffer = 1, "Invalid buffer pointer";
    Count = 2, "Invalid count argument";
    Type = 3, "Invalid datatype argument";
    Tag = 4, "Invalid tag argument";
    Comm = 5, "Invalid communicator";
    Rank = 6, "Invalid rank";
    Request = 19, "Invalid MPI_Request";
    Root = 7, "Invalid root";
    Group = 8, "Invalid group";
    Op = 9, "Invalid MPI_Op";
    Topology = 10, "Invalid topology";
    Dims = 11, "Invalid dimension argument";
    Arg = 12, "Invalid argument";
    Unknown = 13, "Unknown error";
    Truncate = 14, "Message truncated";
    Other = 15, "Other MPI error";
    Intern = 16, "Internal MPI error";
    InStatus = 17, "See the MPI_ERROR field in MPI_Status for the error code";
    Pending = 18, "Pending request (no error)";
    Keyval = 48, "Invalid keyval";
    NoMem = 34, "Out of memory";
    Info = 28, "Invalid info object";
    InfoKey = 29, "Invalid info key";
    InfoValue = 30, "Invalid info value";
    InfoNoKey = 31, "Info key not found";
    Win = 45, "Invalid window";
    Disp = 52, "Invalid displacement argument";
    RmaSync = 50, "Wrong synchronization of RMA calls";
    RmaRange = 55, "Target memory is not part of the window";
    RmaConflict = 49, "Conflicting accesses to window";
    RmaFlavor = 58, "Passed window has incorrect flavor for attempted operation";
    RmaAttach = 56, "Memory cannot be attached";
    RmaShared = 57, "Memory cannot be shared";
    LockType = 47, "Invalid lock type";
    Assert = 53, "Invalid assert argument";
    Size = 51, "Invalid size argument";
    // MPI-IO (MPI-3.1 §13.7)
    File = 27, "Invalid file handle";
    NotSame = 35, "Collective argument not identical on all processes";
    Amode = 21, "Invalid amode value in MPI_File_open";
    UnsupportedDatarep = 43, "Unsupported datarep passed to MPI_File_set_view";
    UnsupportedOperation = 44, "Unsupported operation";
    NoSuchFile = 37, "File does not exist";
    FileExists = 25, "File exists";
    BadFile = 22, "Invalid file name";
    Access = 20, "Permission denied";
    NoSpace = 36, "Not enough space";
    Quota = 39, "Quota exceeded";
    ReadOnly = 40, "Read-only file or file system";
    FileInUse = 26, "File operation could not be completed, file in use";
    DupDatarep = 24, "Data representation already registered";
    Conversion = 23, "Error in data conversion";
    Io = 32, "Other I/O error";
    Port = 38, "Invalid port";
    Name = 33, "Service name not published";
    Service = 41, "Service name could not be published or unpublished";
    Spawn = 42, "Error in spawning processes";
    Session = 75, "Invalid session handle";
    // The tool interface's (MPI_T calls return them; no error handler runs)
    TNotInitialized = 60, "The MPI tool interface is not initialized";
    TInvalidIndex = 62, "Invalid MPI_T index";
    TInvalidHandle = 64, "Invalid MPI_T handle";
    TInvalidName = 73, "Invalid MPI_T variable or category name";
    TInvalidSession = 67, "Invalid MPI_T performance variable session";
    TCvarSetNever = 69, "The control variable cannot be set";
    TPvarNoStartstop = 70, "The performance variable cannot be started or stopped";
    TPvarNoWrite = 71, "The performance variable cannot be written or reset";
    TInvalid = 74, "Invalid use of the MPI tool interface";
}

/// MPICH's predefined classes the core never raises, by number, with their text.
const OTHER_CLASSES: &[(i32, &str)] = &[
    (0, "No MPI error"),                                      // MPI_SUCCESS
    (46, "Invalid base address"),                             // MPI_ERR_BASE
    (59, "Out of memory (MPI_T)"),                            // MPI_T_ERR_MEMORY
    (61, "The MPI tool interface cannot be initialized now"), // MPI_T_ERR_CANNOT_INIT
    (63, "Invalid MPI_T item"),                               // MPI_T_ERR_INVALID_ITEM
    (65, "No more MPI_T handles"),                            // MPI_T_ERR_OUT_OF_HANDLES
    (66, "No more MPI_T performance variable sessions"),      // MPI_T_ERR_OUT_OF_SESSIONS
    (68, "The control variable cannot be set now"),           // MPI_T_ERR_CVAR_SET_NOT_NOW
    (
        72,
        "The performance variable cannot be read and reset atomically",
    ), // MPI_T_ERR_PVAR_NO_ATOMIC
    (78, "Not supported by the MPI tool interface"),          // MPI_T_ERR_NOT_SUPPORTED
    (80, "Invalid error handler"),                            // MPI_ERR_ERRHANDLER
    (81, "The Fortran ABI was set already"),                  // MPI_ERR_ABI
];

/// MPICH's MPI_ERR_VALUE_TOO_LARGE: the numbers up to it are all error classes (some
/// unnamed here, "MPI error").
const LAST_NUMBERED_CLASS: i32 = 77;

impl ErrorClass {
    /// The class MPICH numbers `code`; MPI_ERR_OTHER for a code the core does not raise
    /// (one an application's callback returned: the caller keeps the code itself).
    pub fn of_code(code: i32) -> ErrorClass {
        Self::ALL
            .iter()
            .copied()
            .find(|c| c.code() == code)
            .unwrap_or(ErrorClass::Other)
    }
}

/// MPI_Error_string's text for a predefined class by MPICH's number (MPI_SUCCESS
/// included); None for a number that is no class.
pub fn class_text(code: i32) -> Option<&'static str> {
    let named = ErrorClass::ALL.iter().find(|c| c.code() == code);
    named
        .map(|c| c.text())
        .or_else(|| OTHER_CLASSES.iter().find(|o| o.0 == code).map(|o| o.1))
        .or_else(|| {
            (1..=LAST_NUMBERED_CLASS)
                .contains(&code)
                .then_some("MPI error")
        })
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

/// A completed request's error code (MPICH's number) as the result of the call that
/// completed it alone: the code itself goes back to the caller (an added one too), not just
/// its class.
pub fn code_result(code: i32) -> Result<()> {
    match code {
        0 => Ok(()),
        c if c == ErrorClass::Truncate.code() => Err(Error::new(
            ErrorClass::Truncate,
            "message truncated: the receive buffer is too small",
        )),
        c => Err(Error::new(
            ErrorClass::of_code(c),
            format!("the request failed with error {c}"),
        )
        .with_code(c)),
    }
}

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
    fn class_numbers_and_texts() {
        assert_eq!(ErrorClass::Buffer.code(), 1);
        assert_eq!(ErrorClass::of_code(45), ErrorClass::Win);
        // A class the core never raises, and a code that is none: MPI_ERR_OTHER.
        assert_eq!(ErrorClass::of_code(46), ErrorClass::Other);
        assert_eq!(ErrorClass::of_code(1 << 20), ErrorClass::Other);
        assert_eq!(class_text(0), Some("No MPI error"));
        assert_eq!(class_text(46), Some("Invalid base address"));
        assert_eq!(class_text(54), Some("MPI error"));
        assert_eq!(class_text(79), None);
        assert_eq!(class_text(-1), None);
        assert_eq!(code_result(0), Ok(()));
        assert_eq!(code_result(14).unwrap_err().code, None);
        let e = code_result(1 << 20).unwrap_err();
        assert_eq!((e.class, e.code), (ErrorClass::Other, Some(1 << 20)));
        // Numbers are unique.
        let mut codes: Vec<i32> = ErrorClass::ALL.iter().map(|c| c.code()).collect();
        codes.extend(OTHER_CLASSES.iter().map(|o| o.0));
        let n = codes.len();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), n);
    }
}
