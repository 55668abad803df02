//! What the `mpi_f08` bindings over either C ABI share (libmpi.so.12's `f08_support.rs`
//! and `modules/fortran_abi`'s, which includes this file by path): the handle comparisons
//! and the ISO_Fortran_binding descriptors of choice buffers.
#![allow(dead_code, non_camel_case_types)]

use std::os::raw::{c_char, c_int, c_void};

type MPI_Fint = c_int;

// ---------------------------------------------------------------------------------------
// Handle comparisons: `interface operator(==)` / `(/=)` of every handle type names these
// (gfortran's external names of LOGICAL functions: the result is a 4-byte integer, 0 or 1).
// ---------------------------------------------------------------------------------------

macro_rules! f08_handle_compare {
    ($($eq:ident $ne:ident;)*) => {$(
        /// `x == y` of two mpi_f08 handles (their MPI_VAL).
        ///
        /// # Safety
        /// Both point to a handle (one INTEGER).
        #[no_mangle]
        pub unsafe extern "C" fn $eq(x: *const MPI_Fint, y: *const MPI_Fint) -> MPI_Fint {
            (*x == *y) as MPI_Fint
        }

        /// `x /= y` of two mpi_f08 handles.
        ///
        /// # Safety
        /// Both point to a handle (one INTEGER).
        #[no_mangle]
        pub unsafe extern "C" fn $ne(x: *const MPI_Fint, y: *const MPI_Fint) -> MPI_Fint {
            (*x != *y) as MPI_Fint
        }
    )*};
}

f08_handle_compare! {
    railmpi_f08_comm_eq_ railmpi_f08_comm_ne_;
    railmpi_f08_datatype_eq_ railmpi_f08_datatype_ne_;
    railmpi_f08_group_eq_ railmpi_f08_group_ne_;
    railmpi_f08_request_eq_ railmpi_f08_request_ne_;
    railmpi_f08_op_eq_ railmpi_f08_op_ne_;
    railmpi_f08_win_eq_ railmpi_f08_win_ne_;
    railmpi_f08_file_eq_ railmpi_f08_file_ne_;
    railmpi_f08_info_eq_ railmpi_f08_info_ne_;
    railmpi_f08_errhandler_eq_ railmpi_f08_errhandler_ne_;
    railmpi_f08_message_eq_ railmpi_f08_message_ne_;
    railmpi_f08_session_eq_ railmpi_f08_session_ne_;
}

// ---------------------------------------------------------------------------------------
// Descriptors. A BIND(C) dummy `TYPE(*), DIMENSION(..)` or `CHARACTER(LEN=*)` arrives as a
// pointer to a CFI_cdesc_t; the layout is gfortran's ISO_Fortran_binding.h (gfortran 9 and
// later, 12 checked): base_addr, elem_len, version, rank, attribute, type, dim[rank].
// ---------------------------------------------------------------------------------------

/// `CFI_dim_t`.
#[repr(C)]
pub struct CfiDim {
    pub lower_bound: isize,
    pub extent: isize,
    /// Distance in bytes between elements of this dimension.
    pub sm: isize,
}

/// `CFI_cdesc_t` (the header of it: `dim` has `rank` entries).
#[repr(C)]
pub struct CfiDesc {
    pub base_addr: *mut c_void,
    pub elem_len: usize,
    pub version: c_int,
    pub rank: i8,
    pub attribute: i8,
    pub type_: i16,
    pub dim: [CfiDim; 0],
}

/// Whether the array a descriptor describes is contiguous (a scalar, an empty array, an
/// assumed-size array's last dimension, extents of one: all are).
///
/// # Safety
/// `d` is a valid descriptor with `rank` dimensions.
pub unsafe fn cfi_contiguous(d: &CfiDesc) -> bool {
    let dims = std::slice::from_raw_parts(d.dim.as_ptr(), d.rank.max(0) as usize);
    if dims.iter().any(|x| x.extent == 0) {
        return true;
    }
    let mut want = d.elem_len as isize;
    for x in dims {
        if x.extent != 1 && x.sm != want {
            return false;
        }
        // An assumed-size array's last extent is -1: nothing follows it.
        want = want.saturating_mul(x.extent.max(1));
    }
    true
}

/// The byte offsets from `base_addr` of the elements of a noncontiguous array, in array
/// element order; None for an assumed-size one (which is contiguous, so never asked).
///
/// # Safety
/// `d` is a valid descriptor with `rank` dimensions.
unsafe fn cfi_offsets(d: &CfiDesc) -> Option<Vec<isize>> {
    let dims = std::slice::from_raw_parts(d.dim.as_ptr(), d.rank.max(0) as usize);
    if dims.iter().any(|x| x.extent < 0) {
        return None;
    }
    let mut offsets = vec![0isize];
    for x in dims {
        // Dimension k varies slower than the ones before it.
        let step: Vec<isize> = (0..x.extent).map(|i| i * x.sm).collect();
        offsets = step
            .iter()
            .flat_map(|&s| offsets.iter().map(move |&o| o + s))
            .collect();
    }
    Some(offsets)
}

/// A choice buffer, as the `use mpi` entry point takes it: the actual argument's address, or
/// a contiguous copy of a noncontiguous section (what a compiler makes for an assumed-size
/// dummy), which `copy_out` writes back.
pub struct F08Buf {
    desc: *const CfiDesc,
    addr: *mut c_void,
    /// The section's elements packed, with their offsets in the actual argument.
    copy: Option<(Vec<u8>, Vec<isize>)>,
}

impl F08Buf {
    pub fn addr(&self) -> *mut c_void {
        match &self.copy {
            Some((bytes, _)) => bytes.as_ptr() as *mut c_void,
            None => self.addr,
        }
    }

    /// After a call that wrote the buffer: a copy goes back into the section.
    ///
    /// # Safety
    /// The descriptor and the section it describes are still valid.
    pub unsafe fn copy_out(&self) {
        if let Some((bytes, offsets)) = &self.copy {
            let len = (*self.desc).elem_len;
            for (i, &o) in offsets.iter().enumerate() {
                let dst = (self.addr as *mut u8).offset(o);
                std::ptr::copy_nonoverlapping(bytes.as_ptr().add(i * len), dst, len);
            }
        }
    }
}

/// A choice buffer. A noncontiguous section is copied in (and, by `copy_out`, out) when the
/// call is done with its buffer on return (`blocking`); for a call that keeps using it
/// (nonblocking, persistent, one-sided, attached) a copy would be wrong, and None says so:
/// MPI_SUBARRAYS_SUPPORTED is .false.
///
/// # Safety
/// `d` is the descriptor gfortran passed.
pub unsafe fn f08_buf(d: *const CfiDesc, blocking: bool) -> Option<F08Buf> {
    let desc = &*d;
    let addr = desc.base_addr;
    if cfi_contiguous(desc) {
        return Some(F08Buf {
            desc: d,
            addr,
            copy: None,
        });
    }
    if !blocking {
        return None;
    }
    let offsets = cfi_offsets(desc)?;
    let len = desc.elem_len;
    let mut bytes = vec![0u8; offsets.len() * len];
    for (i, &o) in offsets.iter().enumerate() {
        let src = (addr as *const u8).offset(o);
        std::ptr::copy_nonoverlapping(src, bytes.as_mut_ptr().add(i * len), len);
    }
    Some(F08Buf {
        desc: d,
        addr,
        copy: Some((bytes, offsets)),
    })
}

/// A buffer whose address is all the call uses (MPI_Get_address's location): that of the
/// first element, contiguous or not.
///
/// # Safety
/// `d` is the descriptor gfortran passed.
pub unsafe fn f08_base(d: *const CfiDesc) -> *mut c_void {
    (*d).base_addr
}

/// A CHARACTER(LEN=*) argument: its address and length, as the `use mpi` entry points take
/// them.
///
/// # Safety
/// `d` is the descriptor gfortran passed.
pub unsafe fn f08_str(d: *const CfiDesc) -> (*mut c_char, usize) {
    let d = &*d;
    (d.base_addr as *mut c_char, d.elem_len)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A descriptor with room for two dimensions.
    #[repr(C)]
    struct Desc2 {
        d: CfiDesc,
        dims: [CfiDim; 2],
    }

    fn desc(elem_len: usize, dims: &[(isize, isize)]) -> Desc2 {
        let mut x = Desc2 {
            d: CfiDesc {
                base_addr: 0x1000 as *mut c_void,
                elem_len,
                version: 1,
                rank: dims.len() as i8,
                attribute: 2,
                type_: 1025,
                dim: [],
            },
            dims: [
                CfiDim {
                    lower_bound: 0,
                    extent: 0,
                    sm: 0,
                },
                CfiDim {
                    lower_bound: 0,
                    extent: 0,
                    sm: 0,
                },
            ],
        };
        for (i, &(extent, sm)) in dims.iter().enumerate() {
            x.dims[i] = CfiDim {
                lower_bound: 0,
                extent,
                sm,
            };
        }
        x
    }

    #[test]
    fn contiguity_from_strides() {
        // (extent, sm) per dimension, 4-byte elements.
        let cases: [(&[(isize, isize)], bool); 8] = [
            (&[], true),                  // scalar
            (&[(10, 4)], true),           // a(:)
            (&[(5, 8)], false),           // a(1:10:2)
            (&[(1, 8)], true),            // one element of a strided section
            (&[(10, 4), (3, 40)], true),  // a(:, 1:3)
            (&[(9, 4), (3, 40)], false),  // a(1:9, 1:3) of a(10, :)
            (&[(0, 8), (3, 40)], true),   // empty
            (&[(10, 4), (-1, 40)], true), // assumed size
        ];
        for (dims, want) in cases {
            let x = desc(4, dims);
            // SAFETY: `x.d` is followed by room for its `rank` <= 2 dimensions.
            let got = unsafe { cfi_contiguous(&x.d) };
            assert_eq!(got, want, "{dims:?}");
        }
    }

    #[test]
    fn sections_copied_in_and_out() {
        // a(2:5, 1:3:2) of INTEGER a(6, 4): 4 x 2 elements, rows 4 bytes, columns 48 apart.
        let mut a: Vec<i32> = (0..24).collect();
        let mut x = desc(4, &[(4, 4), (2, 48)]);
        // SAFETY: base_addr points into `a`, which the section stays inside; `x.d` is
        // followed by room for its 2 dimensions.
        unsafe {
            x.d.base_addr = a.as_mut_ptr().add(1) as *mut c_void;
            assert!(f08_buf(&x.d, false).is_none());
            let b = f08_buf(&x.d, true).expect("a blocking call gets a copy");
            let copy = std::slice::from_raw_parts_mut(b.addr() as *mut i32, 8);
            assert_eq!(copy, [1, 2, 3, 4, 13, 14, 15, 16]);
            copy.iter_mut().for_each(|v| *v = -*v);
            b.copy_out();
        }
        let want: Vec<i32> = (0..24)
            .map(|i| {
                if (1..5).contains(&(i % 6)) && (i / 6) % 2 == 0 {
                    -i
                } else {
                    i
                }
            })
            .collect();
        assert_eq!(a, want);
    }

    #[test]
    fn handles_compare() {
        let (a, b): (MPI_Fint, MPI_Fint) = (0x4400_0000, 0x4400_0001);
        // SAFETY: pointers to live locals.
        unsafe {
            assert_eq!(railmpi_f08_comm_eq_(&a, &a), 1);
            assert_eq!(railmpi_f08_comm_eq_(&a, &b), 0);
            assert_eq!(railmpi_f08_comm_ne_(&a, &b), 1);
        }
    }
}
