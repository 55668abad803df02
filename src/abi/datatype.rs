//! Datatype shims: constructors, queries, envelope/contents, pack/unpack, elements.
//!
//! The type engine is `crate::datatype`; this layer owns the handles, and keeps the
//! constructors' records and references by handle in a `datatype::contents::Registry`
//! (`META`), which says what MPI_Type_get_envelope / MPI_Type_get_contents report.

use super::args;
use super::builtin_types;
use super::consts::*;
use super::handles::{self, TypeRef};
use super::shim::{write_out, write_out_str};
use super::type_attr;
use crate::datatype::contents::{object_name, Combiner, Contents, Registry, Room};
use crate::datatype::predefined::{self, TypeClass};
use crate::datatype::{external32, Datatype, Distrib, Member, Order};
use crate::error::Result;
use crate::mpi_err;
use std::ffi::CStr;
use std::os::raw::{c_char, c_int, c_void};
use std::sync::{LazyLock, OnceLock};

// ------------------------------------------------------------------ contents and references

static META: LazyLock<Registry<MPI_Datatype>> = LazyLock::new(Registry::default);

// The core knows MPICH's MPI_DISTRIBUTE_DFLT_DARG (MPI_Type_create_darray's arguments).
const _: () = assert!(MPI_DISTRIBUTE_DFLT_DARG as i64 == crate::datatype::DFLT_DARG);

/// MPICH's number for a combiner.
fn combiner_code(c: Combiner) -> c_int {
    match c {
        Combiner::Named => MPI_COMBINER_NAMED,
        Combiner::Dup => MPI_COMBINER_DUP,
        Combiner::Contiguous => MPI_COMBINER_CONTIGUOUS,
        Combiner::Vector => MPI_COMBINER_VECTOR,
        Combiner::Hvector => MPI_COMBINER_HVECTOR,
        Combiner::Indexed => MPI_COMBINER_INDEXED,
        Combiner::Hindexed => MPI_COMBINER_HINDEXED,
        Combiner::IndexedBlock => MPI_COMBINER_INDEXED_BLOCK,
        Combiner::HindexedBlock => MPI_COMBINER_HINDEXED_BLOCK,
        Combiner::Struct => MPI_COMBINER_STRUCT,
        Combiner::Subarray => MPI_COMBINER_SUBARRAY,
        Combiner::Darray => MPI_COMBINER_DARRAY,
        Combiner::F90Real => MPI_COMBINER_F90_REAL,
        Combiner::F90Complex => MPI_COMBINER_F90_COMPLEX,
        Combiner::F90Integer => MPI_COMBINER_F90_INTEGER,
        Combiner::Resized => MPI_COMBINER_RESIZED,
    }
}

/// Register new type `d` made from `contents`; its handle.
fn create(d: Datatype, contents: Contents<MPI_Datatype>) -> MPI_Datatype {
    META.create(contents, || handles::new_datatype(d))
}

/// A constructor's last step: the new type `t`, recorded with its arguments as the form
/// `I` keeps them, written to the caller's `newtype`.
///
/// # Safety
/// `newtype` is valid (checked before the type was made).
unsafe fn made<I: args::Int>(
    newtype: *mut MPI_Datatype,
    t: Datatype,
    combiner: Combiner,
    ints: &[i64],
    addrs: &[i64],
    types: Vec<MPI_Datatype>,
) -> Result<()> {
    let contents = Contents::new(combiner, ints, addrs, I::LARGE, types);
    write_out(newtype, create(t, contents))
}

/// Keep derived type `h` (and its handle) valid past an `MPI_Type_free` until
/// `release_held`: a persistent collective's types, which MPI lets the application free
/// right after the `_init`. False (nothing held) for a predefined or unknown handle.
pub(crate) fn hold(h: MPI_Datatype) -> bool {
    META.hold(h)
}

/// Let go of a type `hold` kept (freeing it if the application freed it meanwhile).
pub(crate) fn release_held(h: MPI_Datatype) {
    // Held, so known here: release only fails for a handle it does not know.
    let _ = release(h);
}

/// Drop one reference to derived type `h` (`Registry::release`).
fn release(h: MPI_Datatype) -> Result<()> {
    META.release(h, handles::free_datatype)
}

fn is_predefined(h: MPI_Datatype) -> bool {
    builtin_types::lookup(h).is_some() || builtin_types::is_bound_marker(h)
}

/// MPI_LB / MPI_UB as types (`Datatype::bound_marker`).
fn marker(h: MPI_Datatype) -> &'static Datatype {
    static MARKERS: OnceLock<[Datatype; 2]> = OnceLock::new();
    let m = MARKERS.get_or_init(|| {
        [
            Datatype::bound_marker("MPI_LB"),
            Datatype::bound_marker("MPI_UB"),
        ]
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
    let renamed = META.name(datatype);
    let name = renamed.as_deref().unwrap_or(&t.name);
    write_out_str(name, type_name, MPI_MAX_OBJECT_NAME as usize, resultlen)
}

pub(crate) unsafe fn set_name(datatype: MPI_Datatype, type_name: *const c_char) -> Result<()> {
    if type_name.is_null() {
        return mpi_err!(Arg, "NULL name");
    }
    // SAFETY: MPI: type_name is a NUL-terminated string.
    let name = CStr::from_ptr(type_name).to_string_lossy().into_owned();
    let name = object_name(name, MPI_MAX_OBJECT_NAME as usize - 1);
    if is_predefined(datatype) {
        META.set_name(datatype, name);
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

/// The MPI name of predefined type `h`.
fn name_of(h: MPI_Datatype) -> Option<&'static str> {
    builtin_types::lookup(h).map(|d| d.name.as_str())
}

/// MPI_Type_get_value_index (MPI-4.1): MPI_DATATYPE_NULL where there is no pair type.
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
    let pair = name_of(value_type)
        .zip(name_of(index_type))
        .and_then(|(v, i)| predefined::value_index(v, i));
    write_out(
        pair_type,
        pair.map_or(MPI_DATATYPE_NULL, builtin_types::named),
    )
}

pub(crate) unsafe fn match_size(
    typeclass: c_int,
    size: c_int,
    datatype: *mut MPI_Datatype,
) -> Result<()> {
    let class = match typeclass {
        MPI_TYPECLASS_REAL => TypeClass::Real,
        MPI_TYPECLASS_INTEGER => TypeClass::Integer,
        MPI_TYPECLASS_COMPLEX => TypeClass::Complex,
        _ => return mpi_err!(Arg, "invalid type class {typeclass}"),
    };
    let size_of = |name: &str| builtin_types::lookup(builtin_types::named(name)).map(|d| d.size);
    match predefined::match_size(class, size as i64, size_of) {
        Some(name) => write_out(datatype, builtin_types::named(name)),
        None => mpi_err!(Arg, "no type of class {typeclass} has size {size}"),
    }
}

// ------------------------------------------------------------------ envelope and contents

/// MPI_Type_get_envelope(_c) (`Registry::envelope`).
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
    let e = META.envelope(datatype, num_large_counts.is_some())?;
    if let Some(o) = num_large_counts {
        o.put(Some(e.counts as u64))?;
    }
    num_integers.put(Some(e.ints as u64))?;
    num_addresses.put(Some(e.addrs as u64))?;
    num_datatypes.put(Some(e.types as u64))?;
    write_out(combiner, combiner_code(e.combiner))
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

/// MPI_Type_get_contents(_c) (`Registry::contents`); `counts` (room, array) is None for
/// the int form.
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
    let room = Room {
        ints: max_integers.wide(),
        addrs: max_addresses.wide(),
        counts: counts.map(|(n, _)| n.wide()),
        types: max_datatypes.wide(),
    };
    META.contents(datatype, room, |c| {
        // SAFETY: MPI: the arrays hold max_* entries, at least as many as copied (checked).
        copy_out(&c.ints, array_of_integers)?;
        copy_out(&c.addrs, array_of_addresses)?;
        if let Some((_, p)) = counts {
            copy_out(&c.counts, p)?;
        }
        copy_out(&c.types, array_of_datatypes)
    })
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
    let t = Datatype::contiguous(n, &old)?;
    made::<I>(newtype, t, Combiner::Contiguous, &[n], &[], vec![oldtype])
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
    let t = Datatype::vector(n, bl, stride.wide(), &old)?;
    made::<I>(
        newtype,
        t,
        Combiner::Vector,
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
    let t = Datatype::hvector(n, bl, stride as isize, &old)?;
    made::<I>(
        newtype,
        t,
        Combiner::Hvector,
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
    let t = Datatype::indexed(&bl, &d, &old)?;
    let ints: Vec<i64> = [n].iter().chain(&bl).chain(&d).copied().collect();
    made::<I>(newtype, t, Combiner::Indexed, &ints, &[], vec![oldtype])
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
    let t = Datatype::hindexed(&bl, &dd, &old)?;
    let ints: Vec<i64> = [n].iter().chain(&bl).copied().collect();
    made::<I>(newtype, t, Combiner::Hindexed, &ints, &d, vec![oldtype])
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
    let t = Datatype::indexed_block(bl, &d, &old)?;
    let ints: Vec<i64> = [n, bl].iter().chain(&d).copied().collect();
    made::<I>(
        newtype,
        t,
        Combiner::IndexedBlock,
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
    let t = Datatype::hindexed_block(bl, &dd, &old)?;
    made::<I>(
        newtype,
        t,
        Combiner::HindexedBlock,
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
    let tys = args::slice(array_of_types, n, "array_of_types")?;
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
    let t = Datatype::structure(&bl, &dd, &members)?;
    let ints: Vec<i64> = [n as i64].iter().chain(&bl).copied().collect();
    made::<I>(newtype, t, Combiner::Struct, &ints, &d, tys.to_vec())
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
    let t = Datatype::resized(&old, lb as isize, extent as isize)?;
    let contents = Contents::new(Combiner::Resized, &[], &[lb, extent], large, vec![oldtype]);
    write_out(newtype, create(t, contents))
}

pub(crate) unsafe fn dup(oldtype: MPI_Datatype, newtype: *mut MPI_Datatype) -> Result<()> {
    let old = old_type(oldtype)?;
    let newtype = out(newtype)?;
    let t = Datatype::dup(&old);
    let h = create(
        t,
        Contents::new(Combiner::Dup, &[], &[], false, vec![oldtype]),
    );
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
    Datatype::check_subarray(&sizes, &subsizes, &starts)?;
    let o = storage_order(order)?;
    let old = old_type(oldtype)?;
    let newtype = out(newtype)?;
    let t = Datatype::subarray(&sizes, &subsizes, &starts, o, &old)?;
    let c = Contents::subarray(&sizes, &subsizes, &starts, order, I::LARGE, oldtype);
    write_out(newtype, create(t, c))
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
    let distribs = args::slice(array_of_distribs, n, "array_of_distribs")?;
    let dargs = args::slice(array_of_dargs, n, "array_of_dargs")?;
    let psizes = args::slice(array_of_psizes, n, "array_of_psizes")?;
    let dist = distribs
        .iter()
        .enumerate()
        .map(|(i, &x)| match x {
            MPI_DISTRIBUTE_BLOCK => Ok(Distrib::Block),
            MPI_DISTRIBUTE_CYCLIC => Ok(Distrib::Cyclic),
            MPI_DISTRIBUTE_NONE => Ok(Distrib::None),
            x => mpi_err!(Arg, "array_of_distribs[{i}] = {x} is invalid"),
        })
        .collect::<Result<Vec<_>>>()?;
    let w = |a: &[c_int]| a.iter().map(|&x| x as i64).collect::<Vec<_>>();
    let (wargs, wsizes) = (w(dargs), w(psizes));
    Datatype::check_darray(size as i64, &gsizes, &dist, &wargs, &wsizes)?;
    let o = storage_order(order)?;
    let old = old_type(oldtype)?;
    let newtype = out(newtype)?;
    let (s, r) = (size as i64, rank as i64);
    let t = Datatype::darray(s, r, &gsizes, &dist, &wargs, &wsizes, o, &old)?;
    let c = Contents::darray(
        size,
        rank,
        &gsizes,
        distribs,
        dargs,
        psizes,
        order,
        I::LARGE,
        oldtype,
    );
    write_out(newtype, create(t, c))
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
    if is_predefined(h) || META.is_f90(h) {
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

/// A pack or unpack position: in and out through the caller's int or MPI_Count.
///
/// # Safety
/// `p` is NULL or valid.
unsafe fn position<I: args::Int>(p: *mut I) -> Result<i64> {
    Ok((*out(p)?).wide())
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
    let (pos, len) = t.packed_span(n, pos, size, I::LARGE)?;
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
    args::put_int(size, t.packed_size(n, I::LARGE)? as i64)
}

/// The data representation argument of the external pack calls (`check_datarep`).
///
/// # Safety
/// `datarep` is NULL or a NUL-terminated string.
unsafe fn external32(datarep: *const c_char) -> Result<()> {
    if datarep.is_null() {
        return mpi_err!(Arg, "NULL datarep");
    }
    external32::check_datarep(CStr::from_ptr(datarep).to_bytes())
}

/// The checked place of an external pack (`packing`) or unpack: the type, `count`
/// elements of it, their external32 bytes at `pos..pos + len` of a `size`-byte buffer.
///
/// # Safety
/// `datarep` is NULL or a string; `position` is NULL or valid.
unsafe fn external_span(
    datarep: *const c_char,
    count: impl args::Int,
    datatype: MPI_Datatype,
    position: *mut MPI_Aint,
    size: MPI_Aint,
    packing: bool,
) -> Result<(TypeRef, usize, usize, usize)> {
    external32(datarep)?;
    let n = nonneg(count, if packing { "incount" } else { "outcount" })? as usize;
    let t = handles::datatype(datatype)?;
    let (pos, len) = external32::span(&t, n, *out(position)?, size, packing)?;
    Ok((t, n, pos, len))
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
    let (t, n, pos, len) = external_span(datarep, incount, datatype, position, outsize, true)?;
    if len == 0 {
        return Ok(());
    }
    if outbuf.is_null() || (inbuf.is_null() && t.true_lb == 0) {
        return mpi_err!(Arg, "NULL buffer");
    }
    // SAFETY: MPI: outbuf holds outsize bytes, of which pos..pos+len fit (checked);
    // inbuf holds `n` elements of the type.
    let dst = std::slice::from_raw_parts_mut((outbuf as *mut u8).add(pos), len);
    external32::pack(&t, n, inbuf as *const u8, dst)?;
    *position = (pos + len) as MPI_Aint;
    Ok(())
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
    let (t, n, pos, len) = external_span(datarep, outcount, datatype, position, insize, false)?;
    if len == 0 {
        return Ok(());
    }
    if inbuf.is_null() || (outbuf.is_null() && t.true_lb == 0) {
        return mpi_err!(Arg, "NULL buffer");
    }
    // SAFETY: MPI: inbuf holds insize bytes, pos..pos+len among them (checked); outbuf
    // has room for `n` elements.
    let ext = std::slice::from_raw_parts((inbuf as *const u8).add(pos), len);
    external32::unpack(&t, n, ext, outbuf as *mut u8)?;
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
    write_out(size, external32::size_of(&t, n)? as MPI_Aint)
}

// ------------------------------------------------------------------ MPI_Type_create_f90_*

/// The MPI_Type_create_f90_* calls (`predefined::f90_kind`): the same (combiner, p, r)
/// gives the same handle, of a predefined type with the kind's type map.
///
/// # Safety
/// `newtype` is NULL or valid for writing.
unsafe fn create_f90(
    combiner: Combiner,
    p: c_int,
    r: c_int,
    newtype: *mut MPI_Datatype,
) -> Result<()> {
    let newtype = out(newtype)?;
    let open = |v: c_int| (v != MPI_UNDEFINED).then_some(v);
    let base = builtin_types::named(predefined::f90_kind(combiner, open(p), open(r))?);
    let h = META.f90((combiner, p, r), || {
        // The kind's type map under a handle of its own, committed and predefined.
        let mut d = Datatype::dup(builtin_types::lookup(base).expect("a builtin"));
        d.predefined = true;
        create(d, Contents::f90(combiner, p, r))
    });
    write_out(newtype, h)
}

pub(crate) unsafe fn create_f90_integer(r: c_int, newtype: *mut MPI_Datatype) -> Result<()> {
    create_f90(Combiner::F90Integer, MPI_UNDEFINED, r, newtype)
}

pub(crate) unsafe fn create_f90_real(p: c_int, r: c_int, newtype: *mut MPI_Datatype) -> Result<()> {
    create_f90(Combiner::F90Real, p, r, newtype)
}

pub(crate) unsafe fn create_f90_complex(
    p: c_int,
    r: c_int,
    newtype: *mut MPI_Datatype,
) -> Result<()> {
    create_f90(Combiner::F90Complex, p, r, newtype)
}
