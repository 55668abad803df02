//! Datatype shims: constructors, queries, envelope/contents, pack/unpack, elements.
//!
//! The type engine is `crate::datatype`; this layer owns the handles. Besides the handle
//! table (`handles`), it keeps for every derived type it created the constructor's
//! arguments (combiner, integers, addresses, datatype handles) for MPI_Type_get_envelope /
//! MPI_Type_get_contents, and a reference count per handle, as MPICH does: a derived type
//! holds a reference on the derived types it was built from, and get_contents hands out
//! the same handles with one more reference each, so the user may (and should) free them.
//! A handle is released from the table when its count drops to zero.

use super::args;
use super::builtin_types;
use super::consts::*;
use super::handles::{self, TypeRef};
use super::shim::{write_out, write_out_str};
use super::type_attr;
use crate::datatype::{Datatype, Distrib, Member, Order, TypeError};
use crate::error::{Error, ErrorClass, Result};
use crate::mpi_err;
use parking_lot::Mutex;
use std::collections::HashMap;
use std::ffi::CStr;
use std::os::raw::{c_char, c_int, c_void};
use std::sync::{LazyLock, OnceLock};

// ------------------------------------------------------------------ contents and references

/// The arguments a derived type was made from (MPI_Type_get_contents). A type made by a
/// large-count constructor (`MPI_Type_vector_c` ...) keeps its integer and address
/// arguments as large counts instead (MPI-4.0 §5.1.13; ndims and order stay integers).
struct Contents {
    combiner: c_int,
    ints: Vec<c_int>,
    addrs: Vec<MPI_Aint>,
    counts: Vec<MPI_Count>,
    types: Vec<MPI_Datatype>,
}

/// A constructor's integer and address arguments as its contents record keeps them: as
/// given for the call, all as large counts for its `_c` form (the form `I` says).
fn record<I: args::Int>(
    ints: &[i64],
    addrs: &[i64],
) -> (Vec<c_int>, Vec<MPI_Aint>, Vec<MPI_Count>) {
    if I::LARGE {
        (vec![], vec![], ints.iter().chain(addrs).copied().collect())
    } else {
        // An int form's integers came from ints: the narrowing is exact.
        (
            ints.iter().map(|&v| v as c_int).collect(),
            addrs.to_vec(),
            vec![],
        )
    }
}

struct Meta {
    /// References: the user's handle, types built on this one, handles get_contents gave.
    refs: usize,
    contents: Contents,
}

static META: LazyLock<Mutex<HashMap<MPI_Datatype, Meta>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// Names given to predefined types with MPI_Type_set_name.
static PREDEFINED_NAMES: LazyLock<Mutex<HashMap<MPI_Datatype, String>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// Register a new derived type and the arguments it was made from; returns its handle.
/// Other modules that construct types (e.g. MPI_Type_create_f90_*) use this too, so that
/// envelope, contents and reference counting work for them.
pub(crate) fn create(
    d: Datatype,
    combiner: c_int,
    ints: Vec<c_int>,
    addrs: Vec<MPI_Aint>,
    types: Vec<MPI_Datatype>,
) -> MPI_Datatype {
    create_recorded(d, combiner, (ints, addrs, vec![]), types)
}

/// A constructor's last step: the new type `t`, recorded with its arguments as the form
/// `I` keeps them (`record`), written to the caller's `newtype`.
///
/// # Safety
/// `newtype` is valid (checked before the type was made).
unsafe fn made<I: args::Int>(
    newtype: *mut MPI_Datatype,
    t: Datatype,
    combiner: c_int,
    ints: &[i64],
    addrs: &[i64],
    types: Vec<MPI_Datatype>,
) -> Result<()> {
    write_out(
        newtype,
        create_recorded(t, combiner, record::<I>(ints, addrs), types),
    )
}

/// `create` with the arguments as `record` gives them.
fn create_recorded(
    d: Datatype,
    combiner: c_int,
    (ints, addrs, counts): (Vec<c_int>, Vec<MPI_Aint>, Vec<MPI_Count>),
    types: Vec<MPI_Datatype>,
) -> MPI_Datatype {
    let mut meta = META.lock();
    for t in &types {
        if let Some(m) = meta.get_mut(t) {
            m.refs += 1;
        }
    }
    let h = handles::new_datatype(d);
    meta.insert(
        h,
        Meta {
            refs: 1,
            contents: Contents {
                combiner,
                ints,
                addrs,
                counts,
                types,
            },
        },
    );
    h
}

/// Keep derived type `h` (and its handle) valid past an `MPI_Type_free` until
/// `release_held`: a persistent collective's types, which MPI lets the application free
/// right after the `_init`. False (nothing held) for a predefined or unknown handle.
pub(crate) fn hold(h: MPI_Datatype) -> bool {
    META.lock().get_mut(&h).map(|m| m.refs += 1).is_some()
}

/// Let go of a type `hold` kept (freeing it if the application freed it meanwhile).
pub(crate) fn release_held(h: MPI_Datatype) {
    // Held, so known here: release only fails for a handle it does not know.
    let _ = release(h);
}

/// Drop one reference to derived type `h`; at zero it leaves the table, and so do the
/// references it held on the types it was built from.
fn release(h: MPI_Datatype) -> Result<()> {
    let mut meta = META.lock();
    let mut stack = vec![h];
    let mut first = true;
    while let Some(h) = stack.pop() {
        match meta.get_mut(&h) {
            Some(m) => {
                m.refs -= 1;
                if m.refs == 0 {
                    let m = meta.remove(&h).expect("present");
                    handles::free_datatype(h)?;
                    stack.extend(m.contents.types.iter().copied());
                }
            }
            // A type this layer did not make (only the one the user frees).
            None if first => handles::free_datatype(h)?,
            None => {}
        }
        first = false;
    }
    Ok(())
}

fn is_predefined(h: MPI_Datatype) -> bool {
    builtin_types::lookup(h).is_some() || builtin_types::is_bound_marker(h)
}

/// MPI_LB / MPI_UB as types: empty markers.
fn marker(h: MPI_Datatype) -> &'static Datatype {
    static MARKERS: OnceLock<[Datatype; 2]> = OnceLock::new();
    let m = MARKERS.get_or_init(|| {
        let mk = |name: &str| {
            let mut d = Datatype::empty();
            d.name = name.into();
            d.predefined = true;
            d.committed = true;
            d
        };
        [mk("MPI_LB"), mk("MPI_UB")]
    });
    &m[usize::from(h == MPI_UB)]
}

/// Any valid datatype, committed or not, the MPI_LB / MPI_UB markers included.
fn any_type(h: MPI_Datatype) -> Result<TypeRef> {
    if builtin_types::is_bound_marker(h) {
        return Ok(TypeRef::Builtin(marker(h)));
    }
    handles::any_datatype(h)
}

/// The old type of a constructor (MPI_ERR_TYPE for MPI_DATATYPE_NULL or a bad handle).
fn old_type(h: MPI_Datatype) -> Result<TypeRef> {
    if h == MPI_DATATYPE_NULL {
        return mpi_err!(Type, "MPI_DATATYPE_NULL as old datatype");
    }
    any_type(h)
}

fn type_error(e: TypeError) -> Error {
    match e {
        TypeError::InvalidCount => Error::new(ErrorClass::Count, "invalid count"),
        TypeError::Overflow => Error::new(ErrorClass::Count, "datatype too large"),
    }
}

fn nonneg(v: impl args::Int, what: &str) -> Result<i64> {
    let v = v.wide();
    if v < 0 {
        return mpi_err!(Count, "negative {what} {v}");
    }
    Ok(v)
}

/// Widened values, each checked non-negative.
fn all_nonneg(vs: &[i64], what: &str) -> Result<()> {
    match vs.iter().find(|&&v| v < 0) {
        Some(v) => mpi_err!(Count, "negative {what} {v}"),
        None => Ok(()),
    }
}

/// The C array `p[0..n]` (MPI_ERR_ARG if NULL while n > 0).
///
/// # Safety
/// `p` is NULL or valid for reading `n` values.
unsafe fn array<'a, T>(p: *const T, n: usize, what: &str) -> Result<&'a [T]> {
    if n == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return mpi_err!(Arg, "NULL {what}");
    }
    // SAFETY: the caller's contract: `p` points to `n` values.
    Ok(std::slice::from_raw_parts(p, n))
}

fn out<T>(p: *mut T) -> Result<*mut T> {
    if p.is_null() {
        return mpi_err!(Arg, "NULL output argument");
    }
    Ok(p)
}

// ------------------------------------------------------------------ queries

/// MPI_Type_size(_x, _c): MPI_UNDEFINED in an int that cannot hold it.
///
/// # Safety
/// `size` is NULL or valid.
pub unsafe fn size(datatype: MPI_Datatype, size: impl args::CountOut) -> Result<()> {
    size.put(Some(any_type(datatype)?.size as u64))
}

/// MPI_Type_get_extent(_x, _c) (MPI_Aint and MPI_Count are the same C type here).
///
/// # Safety
/// `lb` and `extent` are NULL or valid.
pub unsafe fn get_extent(
    datatype: MPI_Datatype,
    lb: *mut MPI_Aint,
    extent: *mut MPI_Aint,
) -> Result<()> {
    let t = any_type(datatype)?;
    write_out(lb, t.lb as MPI_Aint)?;
    write_out(extent, t.extent as MPI_Aint)
}

/// MPI_Type_get_true_extent(_x, _c).
///
/// # Safety
/// As `get_extent`.
pub unsafe fn get_true_extent(
    datatype: MPI_Datatype,
    true_lb: *mut MPI_Aint,
    true_extent: *mut MPI_Aint,
) -> Result<()> {
    let t = any_type(datatype)?;
    write_out(true_lb, t.true_lb as MPI_Aint)?;
    write_out(true_extent, t.true_extent as MPI_Aint)
}

/// MPI-1's MPI_Type_lb (removed in MPI-3, still in MPICH).
pub(crate) unsafe fn type_lb(datatype: MPI_Datatype, displacement: *mut MPI_Aint) -> Result<()> {
    write_out(displacement, any_type(datatype)?.lb as MPI_Aint)
}

/// MPI-1's MPI_Type_ub (removed in MPI-3, still in MPICH).
pub(crate) unsafe fn type_ub(datatype: MPI_Datatype, displacement: *mut MPI_Aint) -> Result<()> {
    write_out(displacement, any_type(datatype)?.ub() as MPI_Aint)
}

/// MPI-1's MPI_Type_extent (removed in MPI-3, still in MPICH).
pub(crate) unsafe fn type_extent(datatype: MPI_Datatype, extent: *mut MPI_Aint) -> Result<()> {
    write_out(extent, any_type(datatype)?.extent as MPI_Aint)
}

pub(crate) unsafe fn get_name(
    datatype: MPI_Datatype,
    type_name: *mut c_char,
    resultlen: *mut c_int,
) -> Result<()> {
    if datatype == MPI_DATATYPE_NULL {
        // The null handle's name is its own (MPI-4.1 §5.1.14, as MPICH 5's).
        return write_out_str(
            "MPI_DATATYPE_NULL",
            type_name,
            MPI_MAX_OBJECT_NAME as usize,
            resultlen,
        );
    }
    let t = any_type(datatype)?;
    let renamed = PREDEFINED_NAMES.lock().get(&datatype).cloned();
    let name = renamed.as_deref().unwrap_or(&t.name);
    write_out_str(name, type_name, MPI_MAX_OBJECT_NAME as usize, resultlen)
}

pub(crate) unsafe fn set_name(datatype: MPI_Datatype, type_name: *const c_char) -> Result<()> {
    if type_name.is_null() {
        return mpi_err!(Arg, "NULL name");
    }
    // SAFETY: MPI: type_name is a NUL-terminated string.
    let mut name = CStr::from_ptr(type_name).to_string_lossy().into_owned();
    let max = MPI_MAX_OBJECT_NAME as usize - 1;
    if name.len() > max {
        let mut cut = max;
        while !name.is_char_boundary(cut) {
            cut -= 1;
        }
        name.truncate(cut);
    }
    if is_predefined(datatype) {
        PREDEFINED_NAMES.lock().insert(datatype, name);
        return Ok(());
    }
    handles::update_datatype(datatype, |d| d.name = name)
}

pub(crate) unsafe fn get_address(location: *const c_void, address: *mut MPI_Aint) -> Result<()> {
    write_out(address, location as MPI_Aint)
}

/// Address arithmetic (MPI-3.1 §4.1.5): plain integer arithmetic on this ABI.
#[no_mangle]
#[cfg_attr(feature = "std-abi", export_name = "MPICH_PMPI_Aint_add")]
pub unsafe extern "C" fn PMPI_Aint_add(base: MPI_Aint, disp: MPI_Aint) -> MPI_Aint {
    base.wrapping_add(disp)
}

#[no_mangle]
#[cfg_attr(feature = "std-abi", export_name = "MPICH_PMPI_Aint_diff")]
pub unsafe extern "C" fn PMPI_Aint_diff(addr1: MPI_Aint, addr2: MPI_Aint) -> MPI_Aint {
    addr1.wrapping_sub(addr2)
}

/// MPI_Type_get_value_index (MPI-4.1): the predefined pair type of MPI_MINLOC/MAXLOC for
/// a value type and an index type, MPI_DATATYPE_NULL when there is none.
///
/// # Safety
/// `pair_type` is NULL or valid.
pub unsafe fn get_value_index(
    value_type: MPI_Datatype,
    index_type: MPI_Datatype,
    pair_type: *mut MPI_Datatype,
) -> Result<()> {
    handles::any_datatype(value_type)?;
    handles::any_datatype(index_type)?;
    const PAIRS: &[(MPI_Datatype, MPI_Datatype, MPI_Datatype)] = &[
        (MPI_FLOAT, MPI_INT, MPI_FLOAT_INT),
        (MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT),
        (MPI_LONG, MPI_INT, MPI_LONG_INT),
        (MPI_INT, MPI_INT, MPI_2INT),
        (MPI_SHORT, MPI_INT, MPI_SHORT_INT),
        (MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT),
        (MPI_REAL, MPI_REAL, MPI_2REAL),
        (
            MPI_DOUBLE_PRECISION,
            MPI_DOUBLE_PRECISION,
            MPI_2DOUBLE_PRECISION,
        ),
        (MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER),
    ];
    let pair = PAIRS
        .iter()
        .find(|&&(v, i, _)| v == value_type && i == index_type)
        .map_or(MPI_DATATYPE_NULL, |&(_, _, p)| p);
    write_out(pair_type, pair)
}

pub(crate) unsafe fn match_size(
    typeclass: c_int,
    size: c_int,
    datatype: *mut MPI_Datatype,
) -> Result<()> {
    // MPICH's candidates, in its order (Fortran types first).
    const REAL: &[MPI_Datatype] = &[
        MPI_REAL4,
        MPI_REAL8,
        MPI_REAL16,
        MPI_REAL,
        MPI_DOUBLE_PRECISION,
        MPI_FLOAT,
        MPI_DOUBLE,
        MPI_LONG_DOUBLE,
    ];
    const INTEGER: &[MPI_Datatype] = &[
        MPI_INTEGER1,
        MPI_INTEGER2,
        MPI_INTEGER4,
        MPI_INTEGER8,
        MPI_INTEGER,
        MPI_CHAR,
        MPI_SHORT,
        MPI_INT,
        MPI_LONG,
        MPI_LONG_LONG,
    ];
    const COMPLEX: &[MPI_Datatype] = &[
        MPI_COMPLEX8,
        MPI_COMPLEX16,
        MPI_COMPLEX32,
        MPI_COMPLEX,
        MPI_DOUBLE_COMPLEX,
        MPI_C_COMPLEX,
        MPI_C_DOUBLE_COMPLEX,
        MPI_C_LONG_DOUBLE_COMPLEX,
    ];
    let candidates = match typeclass {
        MPI_TYPECLASS_REAL => REAL,
        MPI_TYPECLASS_INTEGER => INTEGER,
        MPI_TYPECLASS_COMPLEX => COMPLEX,
        _ => return mpi_err!(Arg, "invalid type class {typeclass}"),
    };
    let found = candidates
        .iter()
        .copied()
        .find(|&h| builtin_types::lookup(h).is_some_and(|d| size >= 0 && d.size == size as usize));
    match found {
        Some(h) => write_out(datatype, h),
        None => mpi_err!(Arg, "no type of class {typeclass} has size {size}"),
    }
}

// ------------------------------------------------------------------ envelope and contents

/// MPI_Type_get_envelope(_c): the int form refuses a type a large-count constructor made
/// (its arguments are large counts, which only the `_c` form reports: MPICH's behaviour).
///
/// # Safety
/// The outputs are NULL or valid; `num_large_counts` is None for the int form.
pub unsafe fn get_envelope<O: args::CountOut>(
    datatype: MPI_Datatype,
    num_integers: O,
    num_addresses: O,
    num_large_counts: Option<O>,
    num_datatypes: O,
    combiner: *mut c_int,
) -> Result<()> {
    any_type(datatype)?;
    let (ni, na, nc, nd, comb) = match META.lock().get(&datatype) {
        Some(m) => {
            let c = &m.contents;
            let n = |v: usize| v as u64;
            (
                n(c.ints.len()),
                n(c.addrs.len()),
                n(c.counts.len()),
                n(c.types.len()),
                c.combiner,
            )
        }
        None => (0, 0, 0, 0, MPI_COMBINER_NAMED),
    };
    match num_large_counts {
        Some(o) => o.put(Some(nc))?,
        None if nc > 0 => {
            return mpi_err!(
                Type,
                "datatype {datatype:#x} was made by a large-count constructor: use \
                 MPI_Type_get_envelope_c"
            )
        }
        None => {}
    }
    num_integers.put(Some(ni))?;
    num_addresses.put(Some(na))?;
    num_datatypes.put(Some(nd))?;
    write_out(combiner, comb)
}

/// MPI_Type_get_envelope: `get_envelope` without large counts.
///
/// # Safety
/// As `get_envelope`.
pub unsafe fn get_envelope_int(
    datatype: MPI_Datatype,
    num_integers: *mut c_int,
    num_addresses: *mut c_int,
    num_datatypes: *mut c_int,
    combiner: *mut c_int,
) -> Result<()> {
    get_envelope(
        datatype,
        num_integers,
        num_addresses,
        None,
        num_datatypes,
        combiner,
    )
}

/// Copy `v` to the caller's array of room `max`.
///
/// # Safety
/// `p` is NULL or valid for `max` values.
unsafe fn copy_out<T: Copy>(v: &[T], p: *mut T) -> Result<()> {
    if !v.is_empty() {
        std::ptr::copy_nonoverlapping(v.as_ptr(), out(p)?, v.len());
    }
    Ok(())
}

/// MPI_Type_get_contents(_c); `counts` (room, array) is None for the int form.
///
/// # Safety
/// MPI's: each array holds its max_* entries.
#[allow(clippy::too_many_arguments)]
pub unsafe fn get_contents<I: args::Int>(
    datatype: MPI_Datatype,
    max_integers: I,
    max_addresses: I,
    max_datatypes: I,
    array_of_integers: *mut c_int,
    array_of_addresses: *mut MPI_Aint,
    counts: Option<(I, *mut MPI_Count)>,
    array_of_datatypes: *mut MPI_Datatype,
) -> Result<()> {
    if is_predefined(datatype) {
        return mpi_err!(Type, "MPI_Type_get_contents on a predefined datatype");
    }
    any_type(datatype)?;
    let mut meta = META.lock();
    let Some(m) = meta.get(&datatype) else {
        return mpi_err!(Type, "datatype {datatype:#x} has no constructor record");
    };
    let c = &m.contents;
    let max_counts = counts.map_or(0, |(n, _)| n.wide());
    if counts.is_none() && !c.counts.is_empty() {
        return mpi_err!(
            Type,
            "datatype {datatype:#x} was made by a large-count constructor: use \
             MPI_Type_get_contents_c"
        );
    }
    let short = |max: i64, n: usize| max < n as i64;
    if short(max_integers.wide(), c.ints.len())
        || short(max_addresses.wide(), c.addrs.len())
        || short(max_counts, c.counts.len())
        || short(max_datatypes.wide(), c.types.len())
    {
        // MPICH's class for arrays that are too small.
        return mpi_err!(
            Other,
            "MPI_Type_get_contents needs {} integers, {} addresses, {} large counts, {} datatypes",
            c.ints.len(),
            c.addrs.len(),
            c.counts.len(),
            c.types.len()
        );
    }
    // SAFETY: MPI: the arrays hold max_* entries, at least as many as copied (checked).
    copy_out(&c.ints, array_of_integers)?;
    copy_out(&c.addrs, array_of_addresses)?;
    if let Some((_, p)) = counts {
        copy_out(&c.counts, p)?;
    }
    let types = c.types.clone();
    copy_out(&types, array_of_datatypes)?;
    // Derived types are handed out as the same handles, with a reference the caller
    // now owns (MPICH does the same); predefined ones are just their handles.
    for t in &types {
        if let Some(m) = meta.get_mut(t) {
            m.refs += 1;
        }
    }
    Ok(())
}

// ------------------------------------------------------------------ constructors

// Each constructor serves its call and the call's `_c` form: `I` is the form's integer
// (c_int or MPI_Count), and says how the contents record keeps the arguments.

/// MPI_Type_contiguous(_c).
///
/// # Safety
/// `newtype` is NULL or valid.
pub unsafe fn contiguous<I: args::Int>(
    count: I,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> Result<()> {
    let n = nonneg(count, "count")?;
    let old = old_type(oldtype)?;
    let newtype = out(newtype)?;
    let t = Datatype::contiguous(n, &old).map_err(type_error)?;
    made::<I>(
        newtype,
        t,
        MPI_COMBINER_CONTIGUOUS,
        &[n],
        &[],
        vec![oldtype],
    )
}

/// MPI_Type_vector(_c).
///
/// # Safety
/// `newtype` is NULL or valid.
pub unsafe fn vector<I: args::Int>(
    count: I,
    blocklength: I,
    stride: I,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> Result<()> {
    let n = nonneg(count, "count")?;
    let bl = nonneg(blocklength, "blocklength")?;
    let old = old_type(oldtype)?;
    let newtype = out(newtype)?;
    let t = Datatype::vector(n, bl, stride.wide(), &old).map_err(type_error)?;
    made::<I>(
        newtype,
        t,
        MPI_COMBINER_VECTOR,
        &[n, bl, stride.wide()],
        &[],
        vec![oldtype],
    )
}

/// MPI_Type_create_hvector(_c) and MPI-1's MPI_Type_hvector.
///
/// # Safety
/// `newtype` is NULL or valid.
pub unsafe fn hvector<I: args::Int>(
    count: I,
    blocklength: I,
    stride: MPI_Aint,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> Result<()> {
    let n = nonneg(count, "count")?;
    let bl = nonneg(blocklength, "blocklength")?;
    let old = old_type(oldtype)?;
    let newtype = out(newtype)?;
    let t = Datatype::hvector(n, bl, stride as isize, &old).map_err(type_error)?;
    made::<I>(
        newtype,
        t,
        MPI_COMBINER_HVECTOR,
        &[n, bl],
        &[stride],
        vec![oldtype],
    )
}

/// The count, block lengths (checked non-negative) and displacements of an indexed
/// constructor, widened.
///
/// # Safety
/// The arrays are NULL or hold `count` values.
unsafe fn blocks<I: args::Int, D: args::Int>(
    count: I,
    array_of_blocklengths: *const I,
    array_of_displacements: *const D,
) -> Result<(i64, Vec<i64>, Vec<i64>)> {
    let n = nonneg(count, "count")?;
    let bl = args::ints(array_of_blocklengths, n as usize, "array_of_blocklengths")?;
    let d = args::ints(array_of_displacements, n as usize, "array_of_displacements")?;
    all_nonneg(&bl, "blocklength")?;
    Ok((n, bl, d))
}

/// MPI_Type_indexed(_c).
///
/// # Safety
/// MPI's: the arrays hold `count` values; `newtype` is NULL or valid.
pub unsafe fn indexed<I: args::Int>(
    count: I,
    array_of_blocklengths: *const I,
    array_of_displacements: *const I,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> Result<()> {
    let (n, bl, d) = blocks(count, array_of_blocklengths, array_of_displacements)?;
    let old = old_type(oldtype)?;
    let newtype = out(newtype)?;
    let t = Datatype::indexed(&bl, &d, &old).map_err(type_error)?;
    let ints: Vec<i64> = [n].iter().chain(&bl).chain(&d).copied().collect();
    made::<I>(newtype, t, MPI_COMBINER_INDEXED, &ints, &[], vec![oldtype])
}

/// MPI_Type_create_hindexed(_c) and MPI-1's MPI_Type_hindexed.
///
/// # Safety
/// As `indexed`.
pub unsafe fn hindexed<I: args::Int>(
    count: I,
    array_of_blocklengths: *const I,
    array_of_displacements: *const MPI_Aint,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> Result<()> {
    let (n, bl, d) = blocks(count, array_of_blocklengths, array_of_displacements)?;
    let old = old_type(oldtype)?;
    let newtype = out(newtype)?;
    let dd: Vec<isize> = d.iter().map(|&x| x as isize).collect();
    let t = Datatype::hindexed(&bl, &dd, &old).map_err(type_error)?;
    let ints: Vec<i64> = [n].iter().chain(&bl).copied().collect();
    made::<I>(newtype, t, MPI_COMBINER_HINDEXED, &ints, &d, vec![oldtype])
}

/// MPI_Type_create_indexed_block(_c).
///
/// # Safety
/// As `indexed`.
pub unsafe fn indexed_block<I: args::Int>(
    count: I,
    blocklength: I,
    array_of_displacements: *const I,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> Result<()> {
    let n = nonneg(count, "count")?;
    let bl = nonneg(blocklength, "blocklength")?;
    let d = args::ints(array_of_displacements, n as usize, "array_of_displacements")?;
    let old = old_type(oldtype)?;
    let newtype = out(newtype)?;
    let t = Datatype::indexed_block(bl, &d, &old).map_err(type_error)?;
    let ints: Vec<i64> = [n, bl].iter().chain(&d).copied().collect();
    made::<I>(
        newtype,
        t,
        MPI_COMBINER_INDEXED_BLOCK,
        &ints,
        &[],
        vec![oldtype],
    )
}

/// MPI_Type_create_hindexed_block(_c).
///
/// # Safety
/// As `indexed`.
pub unsafe fn hindexed_block<I: args::Int>(
    count: I,
    blocklength: I,
    array_of_displacements: *const MPI_Aint,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> Result<()> {
    let n = nonneg(count, "count")?;
    let bl = nonneg(blocklength, "blocklength")?;
    let d = args::ints(array_of_displacements, n as usize, "array_of_displacements")?;
    let old = old_type(oldtype)?;
    let newtype = out(newtype)?;
    let dd: Vec<isize> = d.iter().map(|&x| x as isize).collect();
    let t = Datatype::hindexed_block(bl, &dd, &old).map_err(type_error)?;
    made::<I>(
        newtype,
        t,
        MPI_COMBINER_HINDEXED_BLOCK,
        &[n, bl],
        &d,
        vec![oldtype],
    )
}

/// MPI_Type_create_struct(_c) and MPI-1's MPI_Type_struct.
///
/// # Safety
/// As `indexed`.
pub unsafe fn structure<I: args::Int>(
    count: I,
    array_of_blocklengths: *const I,
    array_of_displacements: *const MPI_Aint,
    array_of_types: *const MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> Result<()> {
    let n = nonneg(count, "count")? as usize;
    let bl = args::ints(array_of_blocklengths, n, "array_of_blocklengths")?;
    let d = args::ints(array_of_displacements, n, "array_of_displacements")?;
    let tys = array(array_of_types, n, "array_of_types")?;
    all_nonneg(&bl, "blocklength")?;
    let mut refs = Vec::with_capacity(n);
    for &h in tys {
        refs.push(if builtin_types::is_bound_marker(h) {
            None
        } else {
            Some(old_type(h)?)
        });
    }
    let newtype = out(newtype)?;
    let members: Vec<Member<'_>> = tys
        .iter()
        .zip(&refs)
        .map(|(&h, r)| match r {
            Some(t) => Member::Type(t),
            None if h == MPI_LB => Member::Lb,
            None => Member::Ub,
        })
        .collect();
    let dd: Vec<isize> = d.iter().map(|&x| x as isize).collect();
    let t = Datatype::structure(&bl, &dd, &members).map_err(type_error)?;
    let ints: Vec<i64> = [n as i64].iter().chain(&bl).copied().collect();
    made::<I>(newtype, t, MPI_COMBINER_STRUCT, &ints, &d, tys.to_vec())
}

/// MPI_Type_create_resized(_c): the form is the caller's (`large`), as its lb and extent
/// are MPI_Aint in one and MPI_Count in the other, the same C type.
///
/// # Safety
/// `newtype` is NULL or valid.
pub unsafe fn resized(
    oldtype: MPI_Datatype,
    lb: MPI_Aint,
    extent: MPI_Aint,
    newtype: *mut MPI_Datatype,
    large: bool,
) -> Result<()> {
    let old = old_type(oldtype)?;
    let newtype = out(newtype)?;
    let t = Datatype::resized(&old, lb as isize, extent as isize).map_err(type_error)?;
    let r = if large {
        record::<MPI_Count>(&[], &[lb, extent])
    } else {
        record::<c_int>(&[], &[lb, extent])
    };
    write_out(
        newtype,
        create_recorded(t, MPI_COMBINER_RESIZED, r, vec![oldtype]),
    )
}

pub(crate) unsafe fn dup(oldtype: MPI_Datatype, newtype: *mut MPI_Datatype) -> Result<()> {
    let old = old_type(oldtype)?;
    let newtype = out(newtype)?;
    let t = Datatype::dup(&old);
    let h = create(t, MPI_COMBINER_DUP, vec![], vec![], vec![oldtype]);
    if let Err(e) = type_attr::copy_all(oldtype, h) {
        // The copy callbacks' error is the call's; the half-made type goes.
        let _ = type_attr::delete_all(h);
        let _ = release(h);
        *newtype = MPI_DATATYPE_NULL;
        return Err(e);
    }
    write_out(newtype, h)
}

fn storage_order(o: c_int) -> Result<Order> {
    match o {
        MPI_ORDER_C => Ok(Order::C),
        MPI_ORDER_FORTRAN => Ok(Order::Fortran),
        _ => mpi_err!(Arg, "invalid array order {o}"),
    }
}

/// MPI_Type_create_subarray(_c) (in the `_c` form ndims and order stay integers).
///
/// # Safety
/// MPI's: the arrays hold `ndims` values; `newtype` is NULL or valid.
pub unsafe fn subarray<I: args::Int>(
    ndims: c_int,
    array_of_sizes: *const I,
    array_of_subsizes: *const I,
    array_of_starts: *const I,
    order: c_int,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> Result<()> {
    if ndims <= 0 {
        return mpi_err!(Arg, "ndims must be positive, is {ndims}");
    }
    let n = ndims as usize;
    let sizes = args::ints(array_of_sizes, n, "array_of_sizes")?;
    let subsizes = args::ints(array_of_subsizes, n, "array_of_subsizes")?;
    let starts = args::ints(array_of_starts, n, "array_of_starts")?;
    for i in 0..n {
        let (s, ss, st) = (sizes[i], subsizes[i], starts[i]);
        if s <= 0 {
            return mpi_err!(Arg, "array_of_sizes[{i}] = {s} must be positive");
        }
        if ss < 0 || ss > s {
            return mpi_err!(Arg, "array_of_subsizes[{i}] = {ss} is not in 0..={s}");
        }
        if st < 0 || st > s - ss {
            return mpi_err!(
                Arg,
                "array_of_starts[{i}] = {st} is not in 0..={} (size {s}, subsize {ss})",
                s - ss
            );
        }
    }
    let o = storage_order(order)?;
    let old = old_type(oldtype)?;
    let newtype = out(newtype)?;
    let t = Datatype::subarray(&sizes, &subsizes, &starts, o, &old).map_err(type_error)?;
    let arrays: Vec<i64> = sizes
        .iter()
        .chain(&subsizes)
        .chain(&starts)
        .copied()
        .collect();
    let r = if I::LARGE {
        (vec![ndims, order], vec![], arrays)
    } else {
        let mut ints = vec![ndims as i64];
        ints.extend(&arrays);
        ints.push(order as i64);
        record::<I>(&ints, &[])
    };
    write_out(
        newtype,
        create_recorded(t, MPI_COMBINER_SUBARRAY, r, vec![oldtype]),
    )
}

/// MPI_Type_create_darray(_c) (the `_c` form's global sizes are large counts, the rest
/// stays integers).
///
/// # Safety
/// MPI's: the arrays hold `ndims` values; `newtype` is NULL or valid.
#[allow(clippy::too_many_arguments)]
pub unsafe fn darray<I: args::Int>(
    size: c_int,
    rank: c_int,
    ndims: c_int,
    array_of_gsizes: *const I,
    array_of_distribs: *const c_int,
    array_of_dargs: *const c_int,
    array_of_psizes: *const c_int,
    order: c_int,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
) -> Result<()> {
    if rank < 0 || rank >= size {
        return mpi_err!(Rank, "rank {rank} is not in 0..{size}");
    }
    if ndims <= 0 {
        return mpi_err!(Arg, "ndims must be positive, is {ndims}");
    }
    let n = ndims as usize;
    let gsizes = args::ints(array_of_gsizes, n, "array_of_gsizes")?;
    let distribs = array(array_of_distribs, n, "array_of_distribs")?;
    let dargs = array(array_of_dargs, n, "array_of_dargs")?;
    let psizes = array(array_of_psizes, n, "array_of_psizes")?;
    let mut procs: i64 = 1;
    let mut dist = Vec::with_capacity(n);
    for i in 0..n {
        let (g, p, a) = (gsizes[i], psizes[i], dargs[i]);
        if g <= 0 {
            return mpi_err!(Arg, "array_of_gsizes[{i}] = {g} must be positive");
        }
        if p <= 0 {
            return mpi_err!(Arg, "array_of_psizes[{i}] = {p} must be positive");
        }
        procs = procs.saturating_mul(p as i64);
        let d = match distribs[i] {
            MPI_DISTRIBUTE_BLOCK => Distrib::Block,
            MPI_DISTRIBUTE_CYCLIC => Distrib::Cyclic,
            MPI_DISTRIBUTE_NONE => Distrib::None,
            x => return mpi_err!(Arg, "array_of_distribs[{i}] = {x} is invalid"),
        };
        if d == Distrib::None && p != 1 {
            return mpi_err!(Arg, "MPI_DISTRIBUTE_NONE needs array_of_psizes[{i}] = 1");
        }
        if a != MPI_DISTRIBUTE_DFLT_DARG {
            if a <= 0 && d != Distrib::None {
                return mpi_err!(Arg, "array_of_dargs[{i}] = {a} must be positive");
            }
            if d == Distrib::Block && (a as i64) * (p as i64) < g {
                return mpi_err!(
                    Arg,
                    "block size {a} times {p} processes does not cover {g} elements"
                );
            }
        }
        dist.push(d);
    }
    if procs != size as i64 {
        return mpi_err!(Arg, "the process grid holds {procs} processes, not {size}");
    }
    let o = storage_order(order)?;
    let old = old_type(oldtype)?;
    let newtype = out(newtype)?;
    let w = |a: &[c_int]| a.iter().map(|&x| x as i64).collect::<Vec<_>>();
    let t = Datatype::darray(
        size as i64,
        rank as i64,
        &gsizes,
        &dist,
        &w(dargs),
        &w(psizes),
        o,
        &old,
    )
    .map_err(|e| match e {
        TypeError::InvalidCount => Error::new(ErrorClass::Arg, "invalid darray arguments"),
        e => type_error(e),
    })?;
    let mut ints = vec![size, rank, ndims];
    let counts = if I::LARGE {
        gsizes
    } else {
        ints.extend(gsizes.iter().map(|&g| g as c_int));
        vec![]
    };
    ints.extend_from_slice(distribs);
    ints.extend_from_slice(dargs);
    ints.extend_from_slice(psizes);
    ints.push(order);
    write_out(
        newtype,
        create_recorded(
            t,
            MPI_COMBINER_DARRAY,
            (ints, vec![], counts),
            vec![oldtype],
        ),
    )
}

// ------------------------------------------------------------------ commit and free

pub(crate) unsafe fn commit(datatype: *mut MPI_Datatype) -> Result<()> {
    if datatype.is_null() {
        return mpi_err!(Arg, "NULL datatype pointer");
    }
    // SAFETY: non-NULL (checked); MPI: points to the caller's handle.
    let h = *datatype;
    if is_predefined(h) {
        return Ok(());
    }
    handles::update_datatype(h, |d| d.committed = true)
}

pub(crate) unsafe fn free(datatype: *mut MPI_Datatype) -> Result<()> {
    if datatype.is_null() {
        return mpi_err!(Arg, "NULL datatype pointer");
    }
    // SAFETY: non-NULL (checked); MPI: points to the caller's handle.
    let h = *datatype;
    if is_predefined(h) || is_f90(h) {
        return mpi_err!(Type, "cannot free a predefined datatype");
    }
    if h == MPI_DATATYPE_NULL {
        return mpi_err!(Type, "cannot free MPI_DATATYPE_NULL");
    }
    // Pending operations keep their own reference to the type map (an Arc), so the
    // handle can go now.
    handles::any_datatype(h)?;
    type_attr::delete_all(h)?;
    release(h)?;
    *datatype = MPI_DATATYPE_NULL;
    Ok(())
}

// ------------------------------------------------------------------ elements

/// Basic elements received, as MPI_Get_elements reports them: None is MPI_UNDEFINED.
///
/// # Safety
/// `status` is NULL or valid for reading.
pub(crate) unsafe fn status_elements(
    status: *const MPI_Status,
    datatype: MPI_Datatype,
) -> Result<Option<u64>> {
    if status.is_null() || status as usize == 1 {
        return mpi_err!(Arg, "NULL status");
    }
    let t = any_type(datatype)?;
    Ok(t.elements_in(args::status_bytes(status)))
}

// ------------------------------------------------------------------ pack / unpack

/// Bytes of `count` elements of `t` (within an int's range for the int forms: `I`).
fn packed_size<I: args::Int>(count: usize, t: &Datatype) -> Result<usize> {
    count
        .checked_mul(t.size)
        .filter(|&n| I::narrow(n as i64).is_some())
        .ok_or_else(|| Error::new(ErrorClass::Count, "packed size exceeds the int range"))
}

/// A pack or unpack position: in and out through the caller's int or MPI_Count.
///
/// # Safety
/// `p` is NULL or valid.
unsafe fn position<I: args::Int>(p: *mut I) -> Result<usize> {
    let pos = (*out(p)?).wide();
    if pos < 0 {
        return mpi_err!(Arg, "negative position {pos}");
    }
    Ok(pos as usize)
}

/// The checked place of a pack or unpack: the type, `count` elements of it (`count_name`),
/// and the packed bytes at `pos..pos + len` of the `size`-byte packed buffer; the typed
/// buffer (`typed_name`) must not be NULL when it holds data.
///
/// # Safety
/// `position_` is NULL or valid.
#[allow(clippy::too_many_arguments)]
unsafe fn packed_span<I: args::Int>(
    count: I,
    count_name: &str,
    datatype: MPI_Datatype,
    comm: MPI_Comm,
    position_: *mut I,
    typed: *const c_void,
    typed_name: &str,
    size: usize,
) -> Result<(TypeRef, usize, usize, usize)> {
    handles::comm(comm)?;
    let n = nonneg(count, count_name)? as usize;
    let t = handles::datatype(datatype)?;
    let pos = position(position_)?;
    if typed.is_null() && n > 0 && t.size > 0 && t.true_lb == 0 {
        return mpi_err!(Arg, "NULL {typed_name} with {count_name} {n}");
    }
    let len = packed_size::<I>(n, &t)?;
    if len > 0 && pos.checked_add(len).is_none_or(|end| end > size) {
        return mpi_err!(
            Truncate,
            "{len} packed bytes at position {pos} do not fit a {size}-byte buffer"
        );
    }
    Ok((t, n, pos, len))
}

/// MPI_Pack(_c).
///
/// # Safety
/// MPI's: `inbuf` holds the elements, `outbuf` `outsize` bytes.
pub unsafe fn pack<I: args::Int>(
    inbuf: *const c_void,
    incount: I,
    datatype: MPI_Datatype,
    outbuf: *mut c_void,
    outsize: usize,
    position_: *mut I,
    comm: MPI_Comm,
) -> Result<()> {
    let (t, n, pos, len) = packed_span(
        incount, "incount", datatype, comm, position_, inbuf, "inbuf", outsize,
    )?;
    if len == 0 {
        return Ok(());
    }
    if outbuf.is_null() {
        return mpi_err!(Arg, "NULL outbuf");
    }
    // SAFETY: MPI: outbuf holds outsize bytes, of which pos..pos+len fit (checked);
    // inbuf holds `n` elements of the type.
    let dst = std::slice::from_raw_parts_mut((outbuf as *mut u8).add(pos), len);
    t.pack_into(n, 0, inbuf as *const u8, dst);
    args::put_int(position_, (pos + len) as i64)
}

/// MPI_Unpack(_c).
///
/// # Safety
/// MPI's: `inbuf` holds `insize` bytes, `outbuf` room for the elements.
pub unsafe fn unpack<I: args::Int>(
    inbuf: *const c_void,
    insize: usize,
    position_: *mut I,
    outbuf: *mut c_void,
    outcount: I,
    datatype: MPI_Datatype,
    comm: MPI_Comm,
) -> Result<()> {
    let (t, n, pos, len) = packed_span(
        outcount, "outcount", datatype, comm, position_, outbuf, "outbuf", insize,
    )?;
    if len == 0 {
        return Ok(());
    }
    if inbuf.is_null() {
        return mpi_err!(Arg, "NULL inbuf");
    }
    // SAFETY: MPI: inbuf holds insize bytes, pos..pos+len among them (checked);
    // outbuf has room for `n` elements of the type.
    let src = std::slice::from_raw_parts((inbuf as *const u8).add(pos), len);
    t.unpack_from(n, 0, src, outbuf as *mut u8);
    args::put_int(position_, (pos + len) as i64)
}

/// MPI_Pack_size(_c).
///
/// # Safety
/// `size` is NULL or valid.
pub unsafe fn pack_size<I: args::Int>(
    incount: I,
    datatype: MPI_Datatype,
    comm: MPI_Comm,
    size: *mut I,
) -> Result<()> {
    handles::comm(comm)?;
    let n = nonneg(incount, "incount")? as usize;
    let t = handles::datatype(datatype)?;
    args::put_int(size, packed_size::<I>(n, &t)? as i64)
}

/// The data representation argument of the external pack calls: only "external32" exists.
///
/// # Safety
/// `datarep` is NULL or a NUL-terminated string.
unsafe fn external32(datarep: *const c_char) -> Result<()> {
    if datarep.is_null() {
        return mpi_err!(Arg, "NULL datarep");
    }
    match CStr::from_ptr(datarep).to_bytes() {
        b"external32" => Ok(()),
        other => mpi_err!(
            Arg,
            "unknown data representation \"{}\" (only \"external32\")",
            String::from_utf8_lossy(other)
        ),
    }
}

/// Checks a position of the external calls (MPI_Aint) against the buffer size; as usize.
fn external_position(position: *mut MPI_Aint, size: MPI_Aint) -> Result<usize> {
    let position = out(position)?;
    // SAFETY: non-NULL (checked); MPI: points to the caller's MPI_Aint.
    let pos = unsafe { *position };
    if pos < 0 || size < 0 {
        return mpi_err!(Arg, "negative position {pos} or buffer size {size}");
    }
    Ok(pos as usize)
}

/// MPI_Pack_external(_c).
///
/// # Safety
/// MPI's: the buffers hold what the arguments say.
pub unsafe fn pack_external(
    datarep: *const c_char,
    inbuf: *const c_void,
    incount: impl args::Int,
    datatype: MPI_Datatype,
    outbuf: *mut c_void,
    outsize: MPI_Aint,
    position: *mut MPI_Aint,
) -> Result<()> {
    external32(datarep)?;
    let n = nonneg(incount, "incount")? as usize;
    let t = handles::datatype(datatype)?;
    let pos = external_position(position, outsize)?;
    let len = external_len(&t, n)?;
    if len == 0 {
        return Ok(());
    }
    if pos
        .checked_add(len)
        .is_none_or(|end| end > outsize as usize)
    {
        return mpi_err!(
            Truncate,
            "{len} packed bytes do not fit at position {pos} of a {outsize}-byte buffer"
        );
    }
    if outbuf.is_null() || (inbuf.is_null() && t.true_lb == 0) {
        return mpi_err!(Arg, "NULL buffer");
    }
    // SAFETY: MPI: outbuf holds outsize bytes, of which pos..pos+len fit (checked);
    // inbuf holds `n` elements of the type.
    let dst = std::slice::from_raw_parts_mut((outbuf as *mut u8).add(pos), len);
    if t.ext32.is_none() {
        t.pack_into(n, 0, inbuf as *const u8, dst);
        crate::datatype::external32::swap_packed(&t, dst);
    } else {
        let mut native = vec![0u8; native_len(&t, n)?];
        t.pack_into(n, 0, inbuf as *const u8, &mut native);
        if crate::datatype::external32::to_external(&t, &native, dst).is_err() {
            return mpi_err!(
                Conversion,
                "a value does not fit its external32 size (a long of more than 32 bits)"
            );
        }
    }
    *position = (pos + len) as MPI_Aint;
    Ok(())
}

/// Bytes of `n` elements of `t` packed natively.
fn native_len(t: &crate::datatype::Datatype, n: usize) -> Result<usize> {
    n.checked_mul(t.size)
        .ok_or_else(|| Error::new(ErrorClass::Count, "too large"))
}

/// Bytes of `n` elements of `t` in external32.
fn external_len(t: &crate::datatype::Datatype, n: usize) -> Result<usize> {
    crate::datatype::external32::external_size(t, n)
        .ok_or_else(|| Error::new(ErrorClass::Count, "too large"))
}

/// MPI_Unpack_external(_c).
///
/// # Safety
/// MPI's: the buffers hold what the arguments say.
pub unsafe fn unpack_external(
    datarep: *const c_char,
    inbuf: *const c_void,
    insize: MPI_Aint,
    position: *mut MPI_Aint,
    outbuf: *mut c_void,
    outcount: impl args::Int,
    datatype: MPI_Datatype,
) -> Result<()> {
    external32(datarep)?;
    let n = nonneg(outcount, "outcount")? as usize;
    let t = handles::datatype(datatype)?;
    let pos = external_position(position, insize)?;
    let len = external_len(&t, n)?;
    if len == 0 {
        return Ok(());
    }
    if pos.checked_add(len).is_none_or(|end| end > insize as usize) {
        return mpi_err!(
            Truncate,
            "unpacking {len} bytes at position {pos} runs past the {insize}-byte input"
        );
    }
    if inbuf.is_null() || (outbuf.is_null() && t.true_lb == 0) {
        return mpi_err!(Arg, "NULL buffer");
    }
    // SAFETY: MPI: inbuf holds insize bytes, pos..pos+len among them (checked); outbuf
    // has room for `n` elements. The input is the caller's: converted in a copy.
    let ext = std::slice::from_raw_parts((inbuf as *const u8).add(pos), len);
    let mut native = vec![0u8; native_len(&t, n)?];
    crate::datatype::external32::from_external(&t, ext, &mut native);
    t.unpack_from(n, 0, &native, outbuf as *mut u8);
    *position = (pos + len) as MPI_Aint;
    Ok(())
}

/// MPI_Pack_external_size(_c).
///
/// # Safety
/// MPI's: the buffers hold what the arguments say.
pub unsafe fn pack_external_size(
    datarep: *const c_char,
    incount: impl args::Int,
    datatype: MPI_Datatype,
    size: *mut MPI_Aint,
) -> Result<()> {
    external32(datarep)?;
    let n = nonneg(incount, "incount")? as usize;
    let t = handles::datatype(datatype)?;
    write_out(size, external_len(&t, n)? as MPI_Aint)
}

/// The predefined type of the smallest Fortran kind that meets a precision/range request
/// (MPI_Type_create_f90_integer/real/complex); MPI_UNDEFINED leaves a bound open. The
/// limits are gfortran's SELECTED_INT_KIND / SELECTED_REAL_KIND on x86-64.
fn f90_type(kinds: &[(c_int, c_int, MPI_Datatype)], p: c_int, r: c_int) -> Result<MPI_Datatype> {
    let p_open = p == MPI_UNDEFINED;
    let r_open = r == MPI_UNDEFINED;
    if p_open && r_open {
        return mpi_err!(Arg, "both precision and range are MPI_UNDEFINED");
    }
    if (!p_open && p < 0) || (!r_open && r < 0) {
        return mpi_err!(Arg, "negative precision {p} or range {r}");
    }
    kinds
        .iter()
        .find(|&&(kp, kr, _)| (p_open || p <= kp) && (r_open || r <= kr))
        .map(|k| k.2)
        .ok_or_else(|| {
            Error::new(
                ErrorClass::Arg,
                format!("no Fortran kind has precision {p} and range {r}"),
            )
        })
}

/// Fortran kinds on x86-64 as (precision, range, type), smallest first.
const F90_INTEGERS: [(c_int, c_int, MPI_Datatype); 4] = [
    (0, 2, MPI_INTEGER1),
    (0, 4, MPI_INTEGER2),
    (0, 9, MPI_INTEGER4),
    (0, 18, MPI_INTEGER8),
];
const F90_REALS: [(c_int, c_int, MPI_Datatype); 3] = [
    (6, 37, MPI_REAL4),
    (15, 307, MPI_REAL8),
    (18, 4931, MPI_REAL16),
];
const F90_COMPLEXES: [(c_int, c_int, MPI_Datatype); 3] = [
    (6, 37, MPI_COMPLEX8),
    (15, 307, MPI_COMPLEX16),
    (18, 4931, MPI_COMPLEX32),
];

/// The types MPI_Type_create_f90_* returned, by (combiner, p, r) as the caller gave them.
/// MPI-4.1 §19.1.9: the same (xxxx, p, r) returns the same handle, the type is predefined
/// (never freed) and MPI_Type_get_envelope / get_contents give MPI_COMBINER_F90_xxxx and the
/// arguments; so each combination is its own handle, even where two share a Fortran kind
/// (r = 8 and r = 9 are both INTEGER*4), as in MPICH.
static F90_TYPES: LazyLock<Mutex<HashMap<F90Args, MPI_Datatype>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// (combiner, p, r) of an MPI_Type_create_f90_* call (p is MPI_UNDEFINED for integers).
type F90Args = (c_int, c_int, c_int);

/// Whether `h` is a type MPI_Type_create_f90_* returned (predefined: MPI_Type_free refuses it).
fn is_f90(h: MPI_Datatype) -> bool {
    META.lock().get(&h).is_some_and(|m| {
        matches!(
            m.contents.combiner,
            MPI_COMBINER_F90_INTEGER | MPI_COMBINER_F90_REAL | MPI_COMBINER_F90_COMPLEX
        )
    })
}

/// The body of the MPI_Type_create_f90_* calls.
///
/// # Safety
/// `newtype` is NULL or valid for writing.
unsafe fn create_f90(
    combiner: c_int,
    kinds: &[(c_int, c_int, MPI_Datatype)],
    p: c_int,
    r: c_int,
    newtype: *mut MPI_Datatype,
) -> Result<()> {
    let newtype = out(newtype)?;
    let base = f90_type(kinds, p, r)?;
    let mut made = F90_TYPES.lock();
    let h = match made.get(&(combiner, p, r)) {
        Some(&h) => h,
        None => {
            // The kind's type map under a handle of its own, committed and predefined.
            let mut d = Datatype::dup(builtin_types::lookup(base).expect("a builtin"));
            d.predefined = true;
            let ints = if combiner == MPI_COMBINER_F90_INTEGER {
                vec![r]
            } else {
                vec![p, r]
            };
            let h = create(d, combiner, ints, vec![], vec![]);
            made.insert((combiner, p, r), h);
            h
        }
    };
    write_out(newtype, h)
}

pub(crate) unsafe fn create_f90_integer(r: c_int, newtype: *mut MPI_Datatype) -> Result<()> {
    if r == MPI_UNDEFINED {
        // The range is the only bound an integer kind has.
        return create_f90(MPI_COMBINER_F90_INTEGER, &[], 0, r, newtype);
    }
    create_f90(
        MPI_COMBINER_F90_INTEGER,
        &F90_INTEGERS,
        MPI_UNDEFINED,
        r,
        newtype,
    )
}

pub(crate) unsafe fn create_f90_real(p: c_int, r: c_int, newtype: *mut MPI_Datatype) -> Result<()> {
    create_f90(MPI_COMBINER_F90_REAL, &F90_REALS, p, r, newtype)
}

pub(crate) unsafe fn create_f90_complex(
    p: c_int,
    r: c_int,
    newtype: *mut MPI_Datatype,
) -> Result<()> {
    create_f90(MPI_COMBINER_F90_COMPLEX, &F90_COMPLEXES, p, r, newtype)
}
