//! Type-map math: bounds as MPICH 4.0.2 reports them (the expected numbers were printed by
//! a program run under Debian's MPICH), merged segments, pack/unpack, MPI_Get_elements.

use super::*;

fn int() -> Datatype {
    Datatype::predefined("MPI_INT", 4, Some(Basic::I32))
}
fn double() -> Datatype {
    Datatype::predefined("MPI_DOUBLE", 8, Some(Basic::F64))
}
fn char_() -> Datatype {
    Datatype::predefined("MPI_CHAR", 1, Some(Basic::I8))
}
fn short() -> Datatype {
    Datatype::predefined("MPI_SHORT", 2, Some(Basic::I16))
}
fn long_double() -> Datatype {
    Datatype::predefined("MPI_LONG_DOUBLE", 16, Some(Basic::LongDouble))
}

/// (size, lb, extent, true_lb, true_extent)
fn shape(t: &Datatype) -> (usize, isize, isize, isize, isize) {
    (t.size, t.lb, t.extent, t.true_lb, t.true_extent)
}

fn st(bl: &[i64], d: &[isize], m: &[Member<'_>]) -> Datatype {
    Datatype::structure(bl, d, m).unwrap()
}

#[test]
fn contiguous_of_contiguous_is_contiguous() {
    let t = Datatype::contiguous(5, &int()).unwrap();
    assert_eq!((t.size, t.extent), (20, 20));
    assert!(t.is_contiguous());
    assert_eq!(t.segments, [(0, 20)]);
    assert_eq!(t.basic, Some((Basic::I32, 5)));
    assert_eq!(
        Datatype::contiguous(-1, &int()).unwrap_err(),
        TypeError::InvalidCount
    );
    assert_eq!(
        shape(&Datatype::contiguous(0, &int()).unwrap()),
        (0, 0, 0, 0, 0)
    );
}

#[test]
fn struct_extents_are_padded_like_mpich() {
    use Member::Type as T;
    let (i, d, c, s, ld) = (int(), double(), char_(), short(), long_double());
    assert_eq!(
        shape(&st(&[1, 1], &[0, 4], &[T(&i), T(&c)])),
        (5, 0, 8, 0, 5)
    );
    assert_eq!(
        shape(&st(&[1, 1], &[0, 8], &[T(&d), T(&c)])),
        (9, 0, 16, 0, 9)
    );
    assert_eq!(
        shape(&st(&[1, 1], &[0, 1], &[T(&c), T(&c)])),
        (2, 0, 2, 0, 2)
    );
    assert_eq!(
        shape(&st(&[1, 1], &[4, 12], &[T(&i), T(&d)])),
        (12, 4, 16, 4, 16)
    );
    assert_eq!(
        shape(&st(&[1, 1], &[0, 16], &[T(&ld), T(&c)])),
        (17, 0, 32, 0, 17)
    );
    assert_eq!(
        shape(&st(&[1, 1], &[0, 2], &[T(&s), T(&c)])),
        (3, 0, 4, 0, 3)
    );
    // One member type: laid out as hindexed, no padding.
    assert_eq!(
        shape(&st(&[1, 1], &[0, 6], &[T(&i), T(&i)])),
        (8, 0, 10, 0, 10)
    );
    // A zero-length block does not count towards the bounds.
    assert_eq!(
        shape(&st(&[0, 1], &[100, 8], &[T(&i), T(&d)])),
        (8, 8, 8, 8, 8)
    );
    // Everything empty: the zero-length type.
    assert_eq!(
        shape(&st(&[0, 0], &[100, 8], &[T(&i), T(&d)])),
        (0, 0, 0, 0, 0)
    );
}

#[test]
fn lb_ub_markers_resize_the_struct() {
    use Member::{Lb, Type as T, Ub};
    let i = int();
    let t = st(&[1, 1, 1], &[0, 8, 16], &[Lb, T(&i), Ub]);
    assert_eq!(shape(&t), (4, 0, 16, 8, 4));
    assert_eq!(t.segments, [(8, 4)]);
    let t = st(&[1, 1, 1], &[-4, 8, 16], &[T(&i), T(&i), Ub]);
    assert_eq!(shape(&t), (8, -4, 20, -4, 16));
    assert_eq!(shape(&st(&[1, 1], &[0, 24], &[Lb, Ub])), (0, 0, 24, 0, 0));
}

#[test]
fn vectors_with_negative_strides_and_empty_blocks() {
    let v = Datatype::vector(3, 2, -4, &int()).unwrap();
    assert_eq!(shape(&v), (24, -32, 40, -32, 40));
    // Type-map order: block 0 first although it lies highest.
    assert_eq!(v.segments, [(0, 8), (-16, 8), (-32, 8)]);
    assert_eq!(
        shape(&Datatype::vector(0, 2, 4, &int()).unwrap()),
        (0, 0, 0, 0, 0)
    );
    // MPICH keeps the span of a vector whose blocks are empty.
    assert_eq!(
        shape(&Datatype::vector(3, 0, 4, &int()).unwrap()),
        (0, 0, 32, 0, 32)
    );
    let v = Datatype::vector(4, 2, 2, &int()).unwrap();
    assert!(v.is_contiguous());
    assert_eq!(v.segments, [(0, 32)]);
    let h = Datatype::hvector(3, 1, 10, &int()).unwrap();
    assert_eq!(shape(&h), (12, 0, 24, 0, 24));
    assert_eq!(h.segments, [(0, 4), (10, 4), (20, 4)]);
    assert_eq!(h.basic, Some((Basic::I32, 3)));
}

#[test]
fn resized_and_negative_extents() {
    let r = Datatype::resized(&int(), -4, 16).unwrap();
    assert_eq!(shape(&r), (4, -4, 16, 0, 4));
    assert_eq!(
        shape(&Datatype::vector(2, 1, 1, &r).unwrap()),
        (8, -4, 32, 0, 20)
    );
    let n = Datatype::resized(&int(), 8, -16).unwrap();
    assert_eq!(shape(&n), (4, 8, -16, 0, 4));
    let c = Datatype::contiguous(3, &n).unwrap();
    assert_eq!(shape(&c), (12, -24, 16, -32, 36));
    assert_eq!(c.segments, [(0, 4), (-16, 4), (-32, 4)]);
    let i = int();
    let s = st(&[1, 1], &[0, 8], &[Member::Type(&i), Member::Type(&n)]);
    assert_eq!(shape(&s), (8, 0, 4, 0, 12));
}

#[test]
fn indexed_types() {
    let t = Datatype::indexed(&[2, 0], &[5, 1], &int()).unwrap();
    assert_eq!(shape(&t), (8, 20, 8, 20, 8));
    let t = Datatype::hindexed(&[0, 0], &[100, 0], &int()).unwrap();
    assert_eq!(shape(&t), (0, 0, 0, 0, 0));
    let t = Datatype::indexed(&[1, 3, 2], &[4, 0, 10], &int()).unwrap();
    assert_eq!(t.size, 24);
    assert_eq!((t.lb, t.extent), (0, 48));
    assert_eq!(t.segments, [(16, 4), (0, 12), (40, 8)]);
    // Adjacent blocks merge.
    let t = Datatype::indexed(&[1, 3], &[0, 1], &int()).unwrap();
    assert_eq!(t.segments, [(0, 16)]);
    assert!(t.is_contiguous());
    let t = Datatype::indexed_block(2, &[3, 0], &double()).unwrap();
    assert_eq!(shape(&t), (32, 0, 40, 0, 40));
    assert_eq!(t.segments, [(24, 16), (0, 16)]);
    let t = Datatype::hindexed_block(1, &[-8, 8], &double()).unwrap();
    assert_eq!(shape(&t), (16, -8, 24, -8, 24));
    assert_eq!(
        Datatype::indexed_block(-1, &[0], &int()).unwrap_err(),
        TypeError::InvalidCount
    );
    assert_eq!(
        Datatype::indexed(&[1, -1], &[0, 1], &int()).unwrap_err(),
        TypeError::InvalidCount
    );
}

#[test]
fn subarrays_match_mpich() {
    let d = double();
    let c = Datatype::subarray(&[4, 5, 6], &[2, 3, 4], &[1, 1, 2], Order::C, &d).unwrap();
    assert_eq!(shape(&c), (192, 0, 960, 304, 368));
    assert_eq!(c.segments.len(), 6);
    assert_eq!(c.segments.iter().next(), Some((304, 32)));
    let f = Datatype::subarray(&[4, 5, 6], &[2, 3, 4], &[1, 1, 2], Order::Fortran, &d).unwrap();
    assert_eq!(shape(&f), (192, 0, 960, 360, 560));
    assert_eq!(f.segments.len(), 12);
    let one = Datatype::subarray(&[10], &[3], &[2], Order::C, &int()).unwrap();
    assert_eq!(shape(&one), (12, 0, 40, 8, 12));
    assert_eq!(one.segments, [(8, 12)]);
    let empty = Datatype::subarray(&[4, 4], &[0, 2], &[0, 0], Order::C, &int()).unwrap();
    assert_eq!(shape(&empty), (0, 0, 64, 0, 0));
}

#[test]
fn darray_block_and_cyclic() {
    // 2x2 processes over a 4x6 C-order array of ints, block x cyclic(2).
    let i = int();
    let t = Datatype::darray(
        4,
        3,
        &[4, 6],
        &[Distrib::Block, Distrib::Cyclic],
        &[DFLT, 2],
        &[2, 2],
        Order::C,
        &i,
    )
    .unwrap();
    assert_eq!((t.size, t.lb, t.extent), (16, 0, 96));
    // Rank 3 = coords (1, 1): rows 2..4, columns {2, 3}.
    let cells: Vec<(isize, usize)> = vec![(2 * 24 + 8, 8), (3 * 24 + 8, 8)];
    assert_eq!(t.segments, cells);
}
const DFLT: i64 = -49767;

#[test]
fn pack_unpack_round_trip_with_gaps() {
    // A resized-like type: 4 data bytes in an 8-byte extent.
    let t = Datatype::resized(&int(), 0, 8).unwrap();
    assert!(!t.is_contiguous());
    let src: Vec<u8> = (0..24).collect();
    let mut packed = Vec::new();
    // SAFETY: `src` holds 3 elements of extent 8.
    unsafe { t.pack(3, src.as_ptr(), &mut packed) };
    assert_eq!(packed, [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19]);
    let mut dst = vec![0xffu8; 24];
    // SAFETY: `dst` holds 3 elements of extent 8.
    unsafe { t.unpack(3, &packed, dst.as_mut_ptr()) };
    for (i, &b) in dst.iter().enumerate() {
        let want = if i % 8 < 4 { i as u8 } else { 0xff };
        assert_eq!(b, want);
    }
}

#[test]
fn pack_windows_and_struct_with_gaps() {
    use Member::Type as T;
    let (i, d, c) = (int(), double(), char_());
    let three = Datatype::contiguous(3, &c).unwrap();
    // struct { int a; double b; char c[3]; } as C lays it out: 0, 8, 16; extent 24.
    let s = st(&[1, 1, 1], &[0, 8, 16], &[T(&i), T(&d), T(&three)]);
    assert_eq!(shape(&s), (15, 0, 24, 0, 19));
    assert_eq!(s.segments, [(0, 4), (8, 11)]);
    let src: Vec<u8> = (0..72).collect();
    let mut packed = Vec::new();
    // SAFETY: `src` holds 3 elements of extent 24 (72 bytes).
    unsafe { s.pack(3, src.as_ptr(), &mut packed) };
    assert_eq!(packed.len(), 45);
    assert_eq!(&packed[..6], &[0, 1, 2, 3, 8, 9]);
    assert_eq!(&packed[15..19], &[24, 25, 26, 27]);
    // Any window of the stream packs to the same bytes.
    for skip in 0..45 {
        for len in 0..(46 - skip) {
            let mut w = vec![0u8; len];
            // SAFETY: as above; `w` is a separate buffer.
            let n = unsafe { s.pack_into(3, skip, src.as_ptr(), &mut w) };
            assert_eq!(n, len);
            assert_eq!(&w[..], &packed[skip..skip + len]);
        }
    }
    // Unpack in pieces.
    let mut dst = vec![0xeeu8; 72];
    let mut pos = 0;
    for chunk in packed.chunks(7) {
        // SAFETY: `dst` holds 3 elements (72 bytes); `chunk` is a separate buffer.
        pos += unsafe { s.unpack_from(3, pos, chunk, dst.as_mut_ptr()) };
    }
    assert_eq!(pos, 45);
    for (k, &b) in dst.iter().enumerate() {
        let o = k % 24;
        let data = o < 4 || (8..19).contains(&o);
        assert_eq!(b, if data { k as u8 } else { 0xee }, "byte {k}");
    }
}

#[test]
fn runs_merge_across_elements() {
    let t = Datatype::resized(&int(), 0, 4).unwrap();
    assert_eq!(t.runs(5).collect::<Vec<_>>(), [(0, 20)]);
    let v = Datatype::vector(2, 1, 2, &int()).unwrap(); // extent 12: x . x
    assert_eq!(v.runs(2).collect::<Vec<_>>(), [(0, 4), (8, 8), (20, 4)]);
    assert_eq!(v.runs(0).count(), 0);
    assert!(v.max_runs(2) >= 3);
}

#[test]
fn huge_counts_stay_small() {
    let t =
        Datatype::contiguous(1 << 30, &Datatype::predefined("b", 1, Some(Basic::Byte))).unwrap();
    assert_eq!(t.segments, [(0, 1 << 30)]);
    let v = Datatype::vector(1 << 28, 4, 4, &int()).unwrap();
    assert_eq!(v.segments.len(), 1);
    assert_eq!(v.elements, [(4, 1 << 30)]);
    let r = Datatype::resized(&int(), 0, 8).unwrap();
    assert_eq!(r.runs(1 << 20).count(), 1 << 20);
    // 2^30 - 1 strided blocks (MPICH's datatype/large_count): one stored block, the size
    // past 2^31, the runs walked lazily; resized and contiguous copies stay one block.
    let four = Datatype::contiguous(4, &int()).unwrap();
    let n = (i32::MAX / 2) as usize;
    let v = Datatype::vector(n as i64, 1, 3, &four).unwrap();
    assert_eq!(
        (v.size, v.segments.len(), v.segments.block_count()),
        (16 * n, n, 1)
    );
    assert_eq!(v.true_extent, 48 * (n as isize - 1) + 16);
    assert_eq!(v.elements, [(4, 4 * n)]);
    assert_eq!(
        v.runs(2).take(3).collect::<Vec<_>>(),
        [(0, 16), (48, 16), (96, 16)]
    );
    let rs = Datatype::resized(&v, i32::MAX as isize, -1024).unwrap();
    assert_eq!((rs.size, rs.segments.block_count()), (16 * n, 1));
    let c2 = Datatype::contiguous(2, &v).unwrap();
    // (The first copy's last run abuts the second's first: merged, a block of its own.)
    assert_eq!(
        (c2.segments.len(), c2.segments.block_count()),
        (2 * n - 1, 3)
    );
    assert_eq!(c2.elements_in(16 * 3), Some(12));
}

#[test]
fn partial_basic_elements_are_seen() {
    use Member::Type as T;
    let (i, d, c) = (int(), double(), char_());
    assert!(!i.splits_element(0) && !i.splits_element(8) && i.splits_element(6));
    let s = st(&[1, 1, 2], &[0, 8, 16], &[T(&i), T(&d), T(&c)]);
    for (bytes, split) in [
        (0, false),
        (3, true),
        (4, false),
        (6, true),
        (12, false),
        (13, false),
    ] {
        assert_eq!(s.splits_element(bytes), split, "{bytes} bytes");
    }
    // Two elements of the struct (14 bytes each): the second's int cut after 2 bytes.
    assert!(s.splits_element(14 + 2) && !s.splits_element(14 + 12));
    let b = Datatype::contiguous(5, &c).unwrap();
    assert!((0..40).all(|n| !b.splits_element(n)));
}

#[test]
fn elements_count_partial_derived_elements() {
    use Member::Type as T;
    let (i, d, c) = (int(), double(), char_());
    assert_eq!(i.elements_in(8), Some(2));
    assert_eq!(i.elements_in(6), None);
    assert_eq!(i.elements_in(0), Some(0));
    let two = Datatype::predefined("MPI_2INT", 8, Some(Basic::TwoInt));
    assert_eq!(two.elements_in(8), Some(2));
    assert_eq!(two.elements_in(12), None);
    let c3 = Datatype::contiguous(3, &i).unwrap();
    assert_eq!(c3.elements_in(12), Some(3));
    assert_eq!(c3.elements_in(8), Some(2));
    assert_eq!(c3.elements_in(6), None);
    assert_eq!(c3.elements_in(24), Some(6));
    let s = st(&[1, 1, 2], &[0, 8, 16], &[T(&i), T(&d), T(&c)]);
    for (bytes, want) in [(0, 0), (4, 1), (12, 2), (13, 3), (14, 4), (18, 5), (28, 8)] {
        assert_eq!(s.elements_in(bytes), Some(want), "{bytes} bytes");
    }
    // Bytes that end inside a basic element did not come from this type.
    for bytes in [6, 16, 30] {
        assert_eq!(s.elements_in(bytes), None, "{bytes} bytes");
    }
    let v2 = Datatype::vector(2, 1, 2, &two).unwrap();
    assert_eq!(v2.elements_in(16), Some(4));
    assert_eq!(v2.elements_in(12), Some(3));
    assert_eq!(v2.elements_in(6), None);
    let fi = Datatype::predefined("MPI_FLOAT_INT", 8, Some(Basic::FloatInt));
    let di = Datatype::predefined("MPI_DOUBLE_INT", 12, Some(Basic::DoubleInt));
    assert_eq!(fi.elements_in(16), Some(4));
    assert_eq!(di.elements_in(24), Some(4));
    let dv = Datatype::contiguous(2, &di).unwrap();
    assert_eq!(dv.elements_in(20), Some(3));
    assert_eq!(dv.elements_in(8), Some(1));
    let empty = Datatype::contiguous(0, &i).unwrap();
    assert_eq!(empty.elements_in(0), Some(0));
    assert_eq!(empty.elements_in(4), None);
}

#[test]
fn basic_type_of_derived_types() {
    use Member::Type as T;
    let (i, d) = (int(), double());
    let v = Datatype::vector(3, 2, 5, &i).unwrap();
    assert_eq!(v.basic, Some((Basic::I32, 6)));
    let s = st(&[2, 1], &[0, 16], &[T(&i), T(&v)]);
    assert_eq!(s.basic, Some((Basic::I32, 8)));
    let s = st(&[1, 1], &[0, 8], &[T(&i), T(&d)]);
    assert_eq!(s.basic, None);
    let s = st(&[1, 0], &[0, 8], &[T(&i), T(&d)]);
    assert_eq!(s.basic, Some((Basic::I32, 1)));
    let r = Datatype::resized(&v, 0, 100).unwrap();
    assert_eq!(r.basic, Some((Basic::I32, 6)));
}

#[test]
fn dup_keeps_the_map_and_commits() {
    let v = Datatype::vector(3, 1, 2, &int()).unwrap();
    let d = Datatype::dup(&v);
    assert!(d.committed && !d.predefined);
    assert_eq!(shape(&d), shape(&v));
    assert_eq!(d.segments, v.segments);
}

// ------------------------------------------------------------------ moved from the abi

use super::contents::{Combiner, Contents, Registry, Room};
use crate::error::ErrorClass;

fn class<T: std::fmt::Debug>(r: crate::error::Result<T>) -> ErrorClass {
    r.unwrap_err().class
}

#[test]
fn contents_records_as_the_form_keeps_them() {
    let c = Contents::new(Combiner::Hvector, &[3, 2], &[16], false, vec![7]);
    assert_eq!((c.ints, c.addrs, c.counts), (vec![3, 2], vec![16], vec![]));
    let c = Contents::new(Combiner::Hvector, &[3, 2], &[16], true, vec![7]);
    assert_eq!(
        (c.ints, c.addrs, c.counts),
        (vec![], vec![], vec![3, 2, 16])
    );
    let s = Contents::subarray(&[4, 5], &[2, 3], &[1, 1], 56, false, 7);
    assert_eq!(s.ints, [2, 4, 5, 2, 3, 1, 1, 56]);
    let s = Contents::subarray(&[4, 5], &[2, 3], &[1, 1], 56, true, 7);
    assert_eq!((s.ints, s.counts), (vec![2, 56], vec![4, 5, 2, 3, 1, 1]));
    let d = Contents::darray(
        4,
        1,
        &[8, 9],
        &[121, 122],
        &[-49767, 2],
        &[2, 2],
        57,
        false,
        7,
    );
    assert_eq!(d.ints, [4, 1, 2, 8, 9, 121, 122, -49767, 2, 2, 2, 57]);
    let d = Contents::darray(
        4,
        1,
        &[8, 9],
        &[121, 122],
        &[-49767, 2],
        &[2, 2],
        57,
        true,
        7,
    );
    assert_eq!(d.counts, [8, 9]);
    assert_eq!(d.ints, [4, 1, 2, 121, 122, -49767, 2, 2, 2, 57]);
    assert_eq!(Contents::<i32>::f90(Combiner::F90Integer, -1, 9).ints, [9]);
    assert_eq!(Contents::<i32>::f90(Combiner::F90Real, 6, 9).ints, [6, 9]);
}

#[test]
fn registry_counts_references() {
    let r: Registry<i32> = Registry::default();
    let mut next = 100;
    let mut make = || {
        next += 1;
        next
    };
    let base = r.create(
        Contents::new(Combiner::Contiguous, &[2], &[], false, vec![1]),
        &mut make,
    );
    let on = r.create(
        Contents::new(Combiner::Dup, &[], &[], false, vec![base]),
        &mut make,
    );
    let e = r.envelope(on, false).unwrap();
    assert_eq!((e.ints, e.types, e.combiner), (0, 1, Combiner::Dup));
    assert_eq!(r.envelope(5, false).unwrap().combiner, Combiner::Named);
    // get_contents gives `base` out with one more reference.
    let room = Room {
        ints: 0,
        addrs: 0,
        counts: None,
        types: 1,
    };
    let mut got = vec![];
    r.contents(on, room, |c| {
        got = c.types.clone();
        Ok(())
    })
    .unwrap();
    assert_eq!(got, [base]);
    let short = Room { types: 0, ..room };
    assert_eq!(class(r.contents(on, short, |_| Ok(()))), ErrorClass::Other);
    assert_eq!(class(r.contents(5, room, |_| Ok(()))), ErrorClass::Type);
    // base: the user's, `on`'s, the one get_contents gave.
    let freed = std::cell::RefCell::new(vec![]);
    let free = |h| {
        freed.borrow_mut().push(h);
        Ok(())
    };
    r.release(base, free).unwrap();
    r.release(base, free).unwrap();
    assert!(freed.borrow().is_empty());
    r.release(on, free).unwrap();
    assert_eq!(*freed.borrow(), [on, base]);
    // Held past the user's free.
    let t = r.create(
        Contents::new(Combiner::Contiguous, &[1], &[], true, vec![1]),
        &mut make,
    );
    assert!(r.hold(t) && !r.hold(5));
    assert_eq!(class(r.envelope(t, false)), ErrorClass::Type);
    assert_eq!(r.envelope(t, true).unwrap().counts, 1);
    assert_eq!(class(r.contents(t, room, |_| Ok(()))), ErrorClass::Type);
    r.release(t, free).unwrap();
    assert_eq!(freed.borrow().len(), 2);
    r.release(t, free).unwrap();
    assert_eq!(freed.borrow().len(), 3);
    // A handle without a record is freed when it is the one released.
    r.release(5, free).unwrap();
    assert_eq!(freed.borrow().last(), Some(&5));
    let f = r.f90((Combiner::F90Real, 6, -1), || {
        r.create(Contents::f90(Combiner::F90Real, 6, -1), &mut make)
    });
    assert_eq!(r.f90((Combiner::F90Real, 6, -1), || 0), f);
    assert!(r.is_f90(f) && !r.is_f90(on));
    r.set_name(1, "mine".into());
    assert_eq!(r.name(1).as_deref(), Some("mine"));
    let cut = super::contents::object_name("aé".into(), 2);
    assert_eq!(cut, "a");
}

#[test]
fn predefined_choices() {
    use super::predefined::{f90_kind, match_size, value_index, TypeClass};
    let size_of = |n: &str| match n {
        "MPI_REAL4" | "MPI_INTEGER4" | "MPI_REAL" => Some(4),
        "MPI_REAL8" => Some(8),
        _ => None,
    };
    assert_eq!(match_size(TypeClass::Real, 8, size_of), Some("MPI_REAL8"));
    assert_eq!(match_size(TypeClass::Real, 4, size_of), Some("MPI_REAL4"));
    assert_eq!(
        match_size(TypeClass::Integer, 4, size_of),
        Some("MPI_INTEGER4")
    );
    assert_eq!(match_size(TypeClass::Complex, 4, size_of), None);
    assert_eq!(match_size(TypeClass::Real, -4, size_of), None);
    assert_eq!(value_index("MPI_DOUBLE", "MPI_INT"), Some("MPI_DOUBLE_INT"));
    assert_eq!(value_index("MPI_REAL", "MPI_REAL"), Some("MPI_2REAL"));
    assert_eq!(value_index("MPI_DOUBLE", "MPI_LONG"), None);
    let k = |c, p, r| f90_kind(c, p, r);
    assert_eq!(
        k(Combiner::F90Integer, None, Some(5)).unwrap(),
        "MPI_INTEGER4"
    );
    assert_eq!(
        k(Combiner::F90Integer, None, Some(18)).unwrap(),
        "MPI_INTEGER8"
    );
    assert_eq!(
        k(Combiner::F90Integer, None, Some(19)).unwrap(),
        "MPI_INTEGER16"
    );
    assert_eq!(
        class(k(Combiner::F90Integer, None, Some(39))),
        ErrorClass::Arg
    );
    assert_eq!(class(k(Combiner::F90Integer, None, None)), ErrorClass::Arg);
    assert_eq!(k(Combiner::F90Real, Some(7), None).unwrap(), "MPI_REAL8");
    assert_eq!(k(Combiner::F90Real, None, Some(308)).unwrap(), "MPI_REAL16");
    assert_eq!(
        k(Combiner::F90Complex, Some(6), Some(37)).unwrap(),
        "MPI_COMPLEX8"
    );
    assert_eq!(class(k(Combiner::F90Real, None, None)), ErrorClass::Arg);
    assert_eq!(class(k(Combiner::F90Real, Some(-1), None)), ErrorClass::Arg);
    assert_eq!(class(k(Combiner::F90Real, Some(19), None)), ErrorClass::Arg);
}

#[test]
fn subarray_and_darray_checks() {
    assert!(Datatype::check_subarray(&[4, 5], &[2, 5], &[2, 0]).is_ok());
    for (s, ss, st) in [
        ([0, 5], [0, 1], [0, 0]),
        ([4, 5], [5, 1], [0, 0]),
        ([4, 5], [2, 1], [3, 0]),
    ] {
        assert_eq!(
            class(Datatype::check_subarray(&s, &ss, &st)),
            ErrorClass::Arg
        );
    }
    let (b, c, n) = (Distrib::Block, Distrib::Cyclic, Distrib::None);
    assert!(Datatype::check_darray(4, &[8, 9], &[b, c], &[DFLT_DARG, 2], &[2, 2]).is_ok());
    // (size, gsizes, distribs, dargs, psizes)
    type Args = (i64, [i64; 2], [Distrib; 2], [i64; 2], [i64; 2]);
    let bad: [Args; 6] = [
        (4, [0, 9], [b, c], [DFLT_DARG, 2], [2, 2]),
        (4, [8, 9], [b, c], [DFLT_DARG, 2], [0, 2]),
        (4, [8, 9], [n, c], [DFLT_DARG, 2], [2, 2]),
        (4, [8, 9], [b, c], [DFLT_DARG, 0], [2, 2]),
        (4, [8, 9], [b, c], [3, 2], [2, 2]),
        (3, [8, 9], [b, c], [DFLT_DARG, 2], [2, 2]),
    ];
    for (size, g, d, a, p) in bad {
        assert_eq!(
            class(Datatype::check_darray(size, &g, &d, &a, &p)),
            ErrorClass::Arg
        );
    }
}

#[test]
fn packed_spans() {
    let t = Datatype::contiguous(3, &int()).unwrap();
    assert_eq!(t.packed_size(2, false).unwrap(), 24);
    assert_eq!(class(t.packed_size(1 << 30, false)), ErrorClass::Count);
    assert_eq!(t.packed_size(1 << 30, true).unwrap(), 12 << 30);
    assert_eq!(t.packed_span(2, 8, 32, false).unwrap(), (8, 24));
    assert_eq!(class(t.packed_span(2, 9, 32, false)), ErrorClass::Truncate);
    assert_eq!(class(t.packed_span(2, -1, 32, false)), ErrorClass::Arg);
    assert_eq!(t.packed_span(0, 40, 32, false).unwrap(), (40, 0));
}

#[test]
fn external32_spans_and_round_trip() {
    use super::external32::{check_datarep, pack, span, unpack};
    assert!(check_datarep(b"external32").is_ok());
    assert_eq!(class(check_datarep(b"native")), ErrorClass::Arg);
    let t = int();
    assert_eq!(span(&t, 3, 4, 16, true).unwrap(), (4, 12));
    assert_eq!(class(span(&t, 3, 5, 16, true)), ErrorClass::Truncate);
    assert_eq!(class(span(&t, 3, 5, 16, false)), ErrorClass::Truncate);
    assert_eq!(class(span(&t, 3, -1, 16, true)), ErrorClass::Arg);
    let vals = [1i32, -2, 0x0102_0304];
    let mut ext = [0u8; 12];
    // SAFETY: `vals` holds 3 ints, `back` room for 3.
    unsafe { pack(&t, 3, vals.as_ptr().cast(), &mut ext).unwrap() };
    assert_eq!(ext[8..], [1, 2, 3, 4]);
    let mut back = [0i32; 3];
    unsafe { unpack(&t, 3, &ext, back.as_mut_ptr().cast()).unwrap() };
    assert_eq!(back, vals);
    let mut long = Datatype::predefined("MPI_LONG", 8, Some(Basic::I64));
    long.ext32 = super::external32::predefined_ext("MPI_LONG");
    let big = [1i64 << 40];
    let r = unsafe { pack(&long, 1, big.as_ptr().cast(), &mut [0u8; 4]) };
    assert_eq!(class(r), ErrorClass::Conversion);
}

#[test]
fn pack_at_checks_buffers_and_moves_the_position() {
    let t = int();
    let mut v = [1i32, 2, 3];
    let mut buf = [0u8; 16];
    let typed = v.as_mut_ptr() as *mut u8;
    // SAFETY: v holds 3 ints, buf 16 bytes.
    unsafe {
        let end = t.pack_at(3, typed, buf.as_mut_ptr(), 16, 2, false, true);
        assert_eq!(end.unwrap(), Some(14));
        let mut back = [0i32; 3];
        let out = back.as_mut_ptr() as *mut u8;
        assert_eq!(
            t.pack_at(3, out, buf.as_mut_ptr(), 16, 2, false, false)
                .unwrap(),
            Some(14)
        );
        assert_eq!(back, v);
        // Nothing to move: the position stays.
        assert_eq!(
            t.pack_at(0, typed, std::ptr::null_mut(), 0, 0, false, true)
                .unwrap(),
            None
        );
        let null = std::ptr::null_mut();
        let e = t
            .pack_at(1, null, buf.as_mut_ptr(), 16, 0, false, true)
            .unwrap_err();
        assert_eq!(e.class, crate::error::ErrorClass::Arg);
        let e = t.pack_at(1, typed, null, 16, 0, false, true).unwrap_err();
        assert_eq!(e.class, crate::error::ErrorClass::Arg);
        let e = t
            .pack_at(2, typed, buf.as_mut_ptr(), 16, 12, false, true)
            .unwrap_err();
        assert_eq!(e.class, crate::error::ErrorClass::Truncate);
    }
}

#[test]
fn status_counts_whole_elements_and_63_bit_bytes() {
    let (i, empty) = (int(), Datatype::contiguous(0, &int()).unwrap());
    assert_eq!(i.count_in(8), Some(2));
    assert_eq!(i.count_in(6), None);
    assert_eq!(empty.count_in(0), Some(0));
    assert_eq!(empty.count_in(4), None);
    assert_eq!(i.status_bytes(3).unwrap(), 12);
    // A derived type counts basic elements: what MPI_Get_elements gives back.
    let s = st(
        &[1, 1, 2],
        &[0, 8, 16],
        &[
            Member::Type(&i),
            Member::Type(&double()),
            Member::Type(&char_()),
        ],
    );
    for n in [0, 1, 2, 3, 4, 5, 9] {
        let b = s.status_bytes(n).unwrap();
        assert_eq!(s.elements_in(b), Some(n as u64), "{n} elements, {b} bytes");
    }
    let v = Datatype::vector(
        i32::MAX as i64 / 2,
        1,
        3,
        &Datatype::contiguous(4, &i).unwrap(),
    )
    .unwrap();
    let n = 4 * (i32::MAX as i64 / 2);
    assert_eq!(v.status_bytes(n).unwrap(), 4 * n as u64);
    assert_eq!(v.elements_in(4 * n as u64), Some(n as u64));
    assert_eq!(i.status_bytes(-1).unwrap_err().class, ErrorClass::Count);
    assert_eq!(
        i.status_bytes(i64::MAX).unwrap_err().class,
        ErrorClass::Count
    );
    assert_eq!(
        i.status_bytes(1 << 61).unwrap_err().class,
        ErrorClass::Count
    );
    assert_eq!(empty.status_bytes(i64::MAX).unwrap(), 0);
}
