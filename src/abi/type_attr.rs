//! Attribute caching on datatypes (MPI-3.1 §6.7.4): keyvals, set/get/delete, the copy
//! callbacks MPI_Type_dup runs and the delete callbacks MPI_Type_free runs. The machinery is
//! `abi::attr`'s; only where the values live differs: datatypes, predefined ones included,
//! carry their attributes in the core's side table keyed by handle (`SideLists`).

use super::attr::{self, AttrObject};
use super::consts::*;
use super::handles::AttrList;
use super::handles::{self, KEYVAL_OBJ_TYPE};
use super::shim::{self, write_out};
use crate::comm::attributes::{self, Holder, SideLists};
use crate::error::Result;
use crate::mpi_err;
use std::os::raw::{c_int, c_void};

/// The attributes of datatypes, by handle.
static TYPE_ATTRS: SideLists = SideLists::new();

#[derive(Clone, Copy)]
pub(crate) struct TypeAttrs(pub MPI_Datatype);

impl TypeAttrs {
    /// The attributes of datatype `datatype` (checked when they are used: after the keyval).
    pub fn of(datatype: MPI_Datatype) -> Result<Self> {
        shim::world()?;
        Ok(TypeAttrs(datatype))
    }
}

impl AttrObject for TypeAttrs {
    const KIND: u32 = KEYVAL_OBJ_TYPE;
    const NAME: &'static str = "datatype";
}

impl Holder for TypeAttrs {
    fn handle(self) -> i64 {
        self.0.into()
    }
    fn with_attrs<T>(self, f: impl FnOnce(&mut AttrList) -> T) -> Result<T> {
        if self.0 == MPI_DATATYPE_NULL {
            return mpi_err!(Type, "MPI_DATATYPE_NULL has no attributes");
        }
        handles::any_datatype(self.0)?;
        Ok(TYPE_ATTRS.with(self.0.into(), f))
    }
}

/// MPI_Type_free's first step: every attribute of `datatype` deleted, newest first.
pub fn delete_all(datatype: MPI_Datatype) -> Result<()> {
    attributes::delete_all(TypeAttrs(datatype))
}

/// MPI_Type_dup's last step: the attributes of `old` copied onto `new` by their callbacks.
pub fn copy_all(old: MPI_Datatype, new: MPI_Datatype) -> Result<()> {
    attributes::copy_all(TypeAttrs(old), TypeAttrs(new))
}

pub(crate) unsafe fn get_attr(
    datatype: MPI_Datatype,
    type_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> Result<()> {
    let attrs = TypeAttrs::of(datatype)?;
    if attribute_val.is_null() || flag.is_null() {
        return mpi_err!(Arg, "NULL attribute_val or flag");
    }
    match attr::user_attr_of(attrs, type_keyval)? {
        Some(v) => {
            // `attribute_val` is really a `void **` (MPI-3.1 §6.7.4).
            write_out(attribute_val as *mut *mut c_void, v as *mut c_void)?;
            write_out(flag, 1)
        }
        None => write_out(flag, 0),
    }
}
