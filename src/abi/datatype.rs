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
use crate::datatype::contents::{object_name, Contents, Registry, Room};
use crate::datatype::predefined;
use crate::datatype::{Darray, Datatype, Member, Order};
// The table's MPI_Pack_external_size line names it.
pub(crate) use crate::datatype::external32;
// The table's constructor lines name it (`datatype::Ctor::Vector(..)`).
pub(crate) use crate::datatype::{contents::Combiner, Ctor};
use crate::error::Result;
use crate::mpi_err;
use std::ffi::CStr;
use std::os::raw::{c_char, c_int, c_void};
use std::sync::LazyLock;

// ------------------------------------------------------------------ contents and references

static META: LazyLock<Registry<MPI_Datatype>> = LazyLock::new(Registry::default);

// The core knows MPICH's MPI_DISTRIBUTE_DFLT_DARG (MPI_Type_create_darray's arguments).
const _: () = assert!(MPI_DISTRIBUTE_DFLT_DARG as i64 == crate::datatype::DFLT_DARG);

/// Register new type `d` made from `contents`; its handle.
fn create(d: Datatype, contents: Contents<MPI_Datatype>) -> MPI_Datatype {
    META.create(contents, || handles::new_datatype(d))
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

/// MPI_LB / MPI_UB as types (`Datatype::bound_marker`), in this order.
static MARKERS: LazyLock<[Datatype; 2]> =
    LazyLock::new(|| ["MPI_LB", "MPI_UB"].map(Datatype::bound_marker));

/// Any valid datatype, committed or not, the MPI_LB / MPI_UB markers included.
pub(crate) fn any_type(h: MPI_Datatype) -> Result<TypeRef> {
    if builtin_types::is_bound_marker(h) {
        return Ok(TypeRef::Builtin(&MARKERS[usize::from(h == MPI_UB)]));
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

fn out<T>(p: *mut T) -> Result<*mut T> {
    if p.is_null() {
        return mpi_err!(Arg, "NULL output argument");
    }
    Ok(p)
}

// ------------------------------------------------------------------ queries

pub(crate) unsafe fn get_name(
    datatype: MPI_Datatype,
    type_name: *mut c_char,
    resultlen: *mut c_int,
) -> Result<()> {
    // The null handle's name is its own (MPI-4.1 §5.1.14, as MPICH 5's).
    let name = match datatype {
        MPI_DATATYPE_NULL => "MPI_DATATYPE_NULL".to_string(),
        h => {
            let t = any_type(h)?;
            META.name(h).unwrap_or_else(|| t.name.clone())
        }
    };
    write_out_str(&name, type_name, MPI_MAX_OBJECT_NAME as usize, resultlen)
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

/// MPI_Type_get_value_index's pair type (MPI-4.1, a table line): MPI_DATATYPE_NULL where
/// there is none.
pub(crate) fn value_index(value: MPI_Datatype, index: MPI_Datatype) -> Result<MPI_Datatype> {
    handles::any_datatype(value)?;
    handles::any_datatype(index)?;
    let pair = name_of(value).zip(name_of(index));
    let pair = pair.and_then(|(v, i)| predefined::value_index(v, i));
    Ok(pair.map_or(MPI_DATATYPE_NULL, builtin_types::named))
}

/// MPI_Type_match_size's type (a table line).
pub(crate) fn match_size(typeclass: c_int, size: c_int) -> Result<MPI_Datatype> {
    let Some(class) = type_class(typeclass) else {
        return mpi_err!(Arg, "invalid type class {typeclass}");
    };
    let size_of = |name: &str| builtin_types::lookup(builtin_types::named(name)).map(|d| d.size);
    match predefined::match_size(class, size as i64, size_of) {
        Some(name) => Ok(builtin_types::named(name)),
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

// The generator reads the constructors' counts and arrays (table lines flagged `slices`);
// `large` says which form made the type (its record keeps the arguments as that form's).

/// MPI_Type_contiguous ... MPI_Type_create_resized (each a table line; their `_c` forms
/// and MPI-1's MPI_Type_hvector / _hindexed too): check, resolve the old type, make the
/// type, record it.
///
/// # Safety
/// `newtype` is NULL or valid.
pub unsafe fn make(
    c: Ctor<'_>,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
    large: bool,
) -> Result<()> {
    c.check()?;
    let old = old_type(oldtype)?;
    let newtype = out(newtype)?;
    let t = c.build(&[Member::Type(&old)])?;
    write_out(newtype, create(t, c.contents(large, vec![oldtype])))
}

/// MPI_Type_create_struct(_c) and MPI-1's MPI_Type_struct: `make` with a type per block
/// (MPI_LB / MPI_UB markers among them).
///
/// # Safety
/// `newtype` is NULL or valid.
pub unsafe fn structure(
    _count: usize,
    array_of_blocklengths: &[i64],
    array_of_displacements: &[i64],
    array_of_types: &[MPI_Datatype],
    newtype: *mut MPI_Datatype,
    large: bool,
) -> Result<()> {
    let c = Ctor::Struct(array_of_blocklengths, array_of_displacements);
    c.check()?;
    let refs = array_of_types
        .iter()
        .map(|&h| {
            (!builtin_types::is_bound_marker(h))
                .then(|| old_type(h))
                .transpose()
        })
        .collect::<Result<Vec<_>>>()?;
    let newtype = out(newtype)?;
    let members: Vec<Member<'_>> = array_of_types
        .iter()
        .zip(&refs)
        .map(|(&h, r)| match r {
            Some(t) => Member::Type(t),
            None if h == MPI_LB => Member::Lb,
            None => Member::Ub,
        })
        .collect();
    let t = c.build(&members)?;
    write_out(
        newtype,
        create(t, c.contents(large, array_of_types.to_vec())),
    )
}

pub(crate) unsafe fn dup(oldtype: MPI_Datatype, newtype: *mut MPI_Datatype) -> Result<()> {
    let old = old_type(oldtype)?;
    let newtype = out(newtype)?;
    let t = Datatype::dup(&old);
    let h = create(t, Contents::dup(oldtype));
    if let Err(e) = type_attr::copy_all(oldtype, h) {
        // The copy callbacks' error is the call's; the half-made type goes.
        let _ = type_attr::delete_all(h);
        let _ = release(h);
        *newtype = MPI_DATATYPE_NULL;
        return Err(e);
    }
    write_out(newtype, h)
}

/// The array order argument of subarray and darray (MPI_ERR_ARG unless one).
fn order(o: c_int) -> Result<Order> {
    storage_order(o).map_or_else(|| mpi_err!(Arg, "invalid array order {o}"), Ok)
}

/// MPI_Type_create_subarray(_c) (in the `_c` form ndims and order stay integers).
///
/// # Safety
/// `newtype` is NULL or valid.
#[allow(clippy::too_many_arguments)]
pub unsafe fn subarray(
    _ndims: usize,
    sizes: &[i64],
    subsizes: &[i64],
    starts: &[i64],
    order: c_int,
    oldtype: MPI_Datatype,
    newtype: *mut MPI_Datatype,
    large: bool,
) -> Result<()> {
    Datatype::check_subarray(sizes, subsizes, starts)?;
    let o = self::order(order)?;
    let old = old_type(oldtype)?;
    let newtype = out(newtype)?;
    let t = Datatype::subarray(sizes, subsizes, starts, o, &old)?;
    let c = Contents::subarray(sizes, subsizes, starts, order, large, oldtype);
    write_out(newtype, create(t, c))
}

/// MPI_Type_create_darray(_c) (the `_c` form's global sizes are large counts, the rest
/// stays integers): the rank and ndims first, then the arrays (`Darray`).
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
    let n = Darray::check_rank(size, rank, ndims)?;
    let d = Darray {
        size,
        rank,
        gsizes: &args::ints(array_of_gsizes, n, "array_of_gsizes")?,
        distribs: args::slice(array_of_distribs, n, "array_of_distribs")?,
        dargs: args::slice(array_of_dargs, n, "array_of_dargs")?,
        psizes: args::slice(array_of_psizes, n, "array_of_psizes")?,
        order,
    };
    let dist = d.check(distribution)?;
    let o = self::order(order)?;
    let old = old_type(oldtype)?;
    let newtype = out(newtype)?;
    let t = d.build(&dist, o, &old)?;
    write_out(newtype, create(t, d.contents(I::LARGE, oldtype)))
}

// ------------------------------------------------------------------ commit and free

/// The handle `p` points to (MPI_ERR_ARG for NULL).
///
/// # Safety
/// `p` is NULL or valid for reading.
unsafe fn handle_at(p: *mut MPI_Datatype) -> Result<MPI_Datatype> {
    if p.is_null() {
        return mpi_err!(Arg, "NULL datatype pointer");
    }
    Ok(*p)
}

pub(crate) unsafe fn commit(datatype: *mut MPI_Datatype) -> Result<()> {
    let h = handle_at(datatype)?;
    if is_predefined(h) {
        return Ok(());
    }
    handles::update_datatype(h, |d| d.committed = true)
}

pub(crate) unsafe fn free(datatype: *mut MPI_Datatype) -> Result<()> {
    let h = handle_at(datatype)?;
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

/// MPI_Pack(_c) (`packing`) and MPI_Unpack(_c), table lines: the communicator, the count
/// (`count_name`), the type, the position, then the core's checks and copy
/// (`Datatype::pack_at`); the position written back when bytes moved.
///
/// # Safety
/// MPI's: `typed` holds the elements, `packed` `size` bytes; `position` NULL or valid.
#[allow(clippy::too_many_arguments)]
pub unsafe fn packing<I: args::Int>(
    count: I,
    count_name: &str,
    datatype: MPI_Datatype,
    comm: MPI_Comm,
    position: *mut I,
    typed: *mut c_void,
    packed: *mut c_void,
    size: usize,
    packing: bool,
) -> Result<()> {
    let (t, n) = counted(comm, count, count_name, datatype)?;
    let pos = (*out(position)?).wide();
    match t.pack_at(n, typed.cast(), packed.cast(), size, pos, I::LARGE, packing)? {
        Some(end) => args::put_int(position, end as i64),
        None => Ok(()),
    }
}

/// The type and element count (`count_name`) of MPI_Pack(_c), MPI_Unpack(_c) and
/// MPI_Pack_size(_c) (a table line) over `comm`, checked in this order.
pub(crate) fn counted(
    comm: MPI_Comm,
    count: impl args::Int,
    count_name: &str,
    datatype: MPI_Datatype,
) -> Result<(TypeRef, usize)> {
    handles::comm(comm)?;
    let n = args::elems(count, count_name)?;
    Ok((handles::datatype(datatype)?, n))
}

/// The data representation argument of the external pack calls (`check_datarep`), the
/// count (`count_name`) and the type (MPI_Pack_external_size(_c): a table line).
///
/// # Safety
/// `datarep` is NULL or a NUL-terminated string.
pub(crate) unsafe fn external32(
    datarep: *const c_char,
    count: impl args::Int,
    count_name: &str,
    datatype: MPI_Datatype,
) -> Result<(TypeRef, usize)> {
    if datarep.is_null() {
        return mpi_err!(Arg, "NULL datarep");
    }
    external32::check_datarep(CStr::from_ptr(datarep).to_bytes())?;
    let n = args::elems(count, count_name)?;
    Ok((handles::datatype(datatype)?, n))
}

/// MPI_Pack_external(_c) (`packing`) and MPI_Unpack_external(_c), table lines
/// (`external32::copy`).
///
/// # Safety
/// MPI's: the buffers hold what the arguments say; `position` NULL or valid.
#[allow(clippy::too_many_arguments)]
pub unsafe fn external(
    datarep: *const c_char,
    count: impl args::Int,
    datatype: MPI_Datatype,
    position: *mut MPI_Aint,
    typed: *mut c_void,
    ext: *mut c_void,
    size: MPI_Aint,
    packing: bool,
) -> Result<()> {
    let name = if packing { "incount" } else { "outcount" };
    let (t, n) = external32(datarep, count, name, datatype)?;
    let pos = *out(position)?;
    if let Some(end) = external32::copy(&t, n, typed.cast(), ext.cast(), size, pos, packing)? {
        *position = end as MPI_Aint;
    }
    Ok(())
}

// ------------------------------------------------------------------ MPI_Type_create_f90_*

/// The MPI_Type_create_f90_* calls, table lines (`predefined::f90_kind`): the same (combiner, p, r)
/// gives the same handle, of a predefined type with the kind's type map.
///
/// # Safety
/// `newtype` is NULL or valid for writing.
pub(crate) unsafe fn create_f90(
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
