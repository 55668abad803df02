//! Unit tests of the collective calls' argument checks (those that need no running world).

use super::args::{blocks, typed};
use super::*;
use crate::coll::KIND_BCAST;
use crate::comm::Group;
use crate::datatype::Basic;
use crate::error::{Error, ErrorClass};

fn int_type() -> Datatype {
    Datatype::predefined("MPI_INT", 4, Some(Basic::I32))
}

fn bad(class: ErrorClass) -> Error {
    Error::new(class, "resolution failed")
}

fn class<T>(r: Result<T>) -> ErrorClass {
    match r {
        Ok(_) => panic!("expected an error"),
        Err(e) => e.class,
    }
}

fn at(p: usize) -> Addr {
    Addr {
        at: p,
        in_place: false,
    }
}

const IN_PLACE: Addr = Addr {
    at: usize::MAX,
    in_place: true,
};

/// Rank 1 of an intracommunicator of 4, and of an intercommunicator (local 2, remote 3).
fn comms() -> (Communicator, Communicator) {
    let g = |m: Vec<usize>| Arc::new(Group::new(m));
    let intra = Communicator::new(8, 1, g(vec![0, 1, 2, 3]));
    let inter = Communicator::new_inter(8, 1, g(vec![0, 1]), g(vec![2, 3, 4]));
    (intra, inter)
}

#[test]
fn roots_by_communicator_kind() {
    let (intra, inter) = comms();
    assert_eq!(intra_root(&intra, RootArg::Rank(3)).unwrap(), 3);
    for r in [
        RootArg::Rank(4),
        RootArg::Rank(-5),
        RootArg::Here,
        RootArg::Idle,
    ] {
        assert_eq!(class(intra_root(&intra, r)), ErrorClass::Root);
    }
    use crate::coll::inter::Root;
    assert_eq!(inter_root(&inter, RootArg::Here).unwrap(), Root::Here);
    assert_eq!(inter_root(&inter, RootArg::Idle).unwrap(), Root::Idle);
    assert_eq!(
        inter_root(&inter, RootArg::Rank(2)).unwrap(),
        Root::Remote(2)
    );
    assert_eq!(
        class(inter_root(&inter, RootArg::Rank(3))),
        ErrorClass::Root
    );
    // The root's side: the root's rank of an intracommunicator, MPI_ROOT of an inter one.
    assert!(reads_root_side(&intra, RootArg::Rank(1)));
    assert!(!reads_root_side(&intra, RootArg::Rank(0)));
    assert!(!reads_root_side(&intra, RootArg::Here));
    assert!(reads_root_side(&inter, RootArg::Here));
    assert!(!reads_root_side(&inter, RootArg::Rank(1)));
    assert!(!reads_root_side(&inter, RootArg::Idle));
    assert_eq!((peers(&intra), peers(&inter)), (4, 3));
}

#[test]
fn buffer_checks() {
    let t = int_type();
    assert!(not_in_place(IN_PLACE, 0, "x").is_ok());
    assert_eq!(class(not_in_place(IN_PLACE, 1, "x")), ErrorClass::Buffer);
    assert!(no_alias(8 as *const u8, 8 as *const u8, false).is_ok());
    assert!(no_alias(std::ptr::null(), std::ptr::null(), true).is_ok());
    assert_eq!(
        class(no_alias(8 as *const u8, 8 as *const u8, true)),
        ErrorClass::Buffer
    );
    assert_eq!(class(typed(std::ptr::null(), 1, &t)), ErrorClass::Buffer);
    assert!(typed(std::ptr::null(), 0, &t).is_ok());
    assert_eq!(
        class(typed(8 as *const u8, usize::MAX / 2, &t)),
        ErrorClass::Count
    );
    assert_eq!(
        class(blocks(at(8), &t, vec![usize::MAX, 1], vec![0, 0])),
        ErrorClass::Count
    );
}

#[test]
fn counts_report_their_error_when_read() {
    let u = Counts::Uniform(Ok(3));
    assert_eq!(u.arrays(3).unwrap(), (vec![3, 3, 3], vec![0, 3, 6]));
    let v = Counts::V(Ok(vec![1, 2]), Err(bad(ErrorClass::Arg)));
    assert_eq!(class(v.arrays(2)), ErrorClass::Arg);
    // Counts before displacements.
    let v = Counts::V(Err(bad(ErrorClass::Count)), Err(bad(ErrorClass::Arg)));
    assert_eq!(class(v.arrays(2)), ErrorClass::Count);
    let only = Counts::Only(Ok(vec![4, 5]));
    assert_eq!(only.arrays(2).unwrap(), (vec![4, 5], vec![]));
}

#[test]
fn sides_check_in_mpich_order() {
    let t = int_type();
    // Uniform: the count first; V: the type first.
    let s: Side<&Datatype> = Side::Uniform(Err(bad(ErrorClass::Count)), Err(bad(ErrorClass::Type)));
    assert_eq!(class(s.resolve(2)), ErrorClass::Count);
    let s: Side<&Datatype> = Side::V(
        Err(bad(ErrorClass::Count)),
        Ok(vec![0, 1]),
        Err(bad(ErrorClass::Type)),
    );
    assert_eq!(class(s.resolve(2)), ErrorClass::Type);
    let s: Side<&Datatype> = Side::Same(Err(bad(ErrorClass::Count)), Err(bad(ErrorClass::Type)));
    assert_eq!(class(s.resolve(2)), ErrorClass::Type);
    // Displacements in extents (V) or bytes (W); Same: one buffer for all.
    let s = Side::V(Ok(vec![1, 2]), Ok(vec![5, 0]), Ok(&t));
    let b = s.resolve(2).unwrap().bufs(at(1000)).unwrap();
    assert_eq!((b[0].ptr as usize, b[1].ptr as usize), (1020, 1000));
    assert_eq!((b[0].count, b[1].count), (1, 2));
    let s = Side::W(Ok(vec![1, 1]), Ok(vec![5, 0]), Ok(vec![&t, &t]));
    let b = s.resolve(2).unwrap().bufs(at(1000)).unwrap();
    assert_eq!((b[0].ptr as usize, b[1].ptr as usize), (1005, 1000));
    let s = Side::Same(Ok(2), Ok(&t));
    let b = s.resolve(3).unwrap().bufs(at(1000)).unwrap();
    assert!(b.iter().all(|b| b.ptr as usize == 1000 && b.count == 2));
    let s = Side::Uniform(Ok(2), Ok(&t));
    let b = s.resolve(2).unwrap().bufs(at(1000)).unwrap();
    assert_eq!(b[1].ptr as usize, 1008);
}

#[test]
fn refusal_gives_back_argument_errors_only() {
    let (intra, _) = comms();
    let first = intra.next_coll_seq(KIND_BCAST);
    let r: Result<()> = Err(bad(ErrorClass::Buffer));
    assert!(refusal_gives_back(&intra, Some(KIND_BCAST), r).is_err());
    assert_eq!(intra.next_coll_seq(KIND_BCAST), first);
    let r: Result<()> = Err(bad(ErrorClass::Intern));
    let _ = refusal_gives_back(&intra, Some(KIND_BCAST), r);
    // A pinned number (None) is never given back.
    let _ = refusal_gives_back(&intra, None, Err::<(), _>(bad(ErrorClass::Buffer)));
    assert_eq!(intra.next_coll_seq(KIND_BCAST), first + 1);
}

#[test]
fn reduce_local_combines_and_refuses_aliases() {
    let t = int_type();
    let r = Reducer {
        combine: Arc::new(|a: &[u8], b: &mut [u8]| {
            for (x, y) in a.iter().zip(b.iter_mut()) {
                *y = y.wrapping_add(*x);
            }
            Ok(())
        }),
        commutative: true,
        elem: 4,
    };
    let a = [1i32, 2];
    let mut b = [10i32, 20];
    let (pa, pb) = (at(a.as_ptr() as usize), at(b.as_mut_ptr() as usize));
    // SAFETY: two ints at each address, distinct arrays.
    unsafe { reduce_local(pa, pb, 2, &t, &r).unwrap() };
    assert_eq!(b, [11, 22]);
    // SAFETY: as above (refused before any access).
    assert_eq!(
        class(unsafe { reduce_local(pb, pb, 2, &t, &r) }),
        ErrorClass::Buffer
    );
    assert_eq!(
        class(unsafe { reduce_local(IN_PLACE, pb, 2, &t, &r) }),
        ErrorClass::Buffer
    );
}

#[test]
fn neighbor_degrees_known_only_with_a_topology() {
    use crate::comm::topology::{Cart, Topology};
    let ring = Ok(Some(Arc::new(Topology::Cart(
        Cart::new(&[4], &[1]).unwrap(),
    ))));
    assert_eq!(
        neighbor_degrees(&ring, 1, true, false).unwrap(),
        Some((2, 2))
    );
    // No arrays: nothing to ask.
    assert_eq!(neighbor_degrees(&ring, 1, false, true).unwrap(), None);
    // No topology: unknown, an error only at a persistent call's _init.
    assert_eq!(neighbor_degrees(&Ok(None), 1, true, false).unwrap(), None);
    assert_eq!(
        class(neighbor_degrees(&Ok(None), 1, true, true)),
        ErrorClass::Topology
    );
    let bad_comm = Err(bad(ErrorClass::Comm));
    assert_eq!(
        class(neighbor_degrees(&bad_comm, 1, true, true)),
        ErrorClass::Comm
    );
}
