//! What a handle look-up lends the call that made it: a communicator or datatype borrowed
//! for the world's lifetime (the predefined ones), lent by this thread's cache
//! (`table_cache`), or shared from the table; and a datatype kept beyond the call.

use super::table_cache::Lent;
use crate::comm::Communicator;
use crate::datatype::Datatype;
use std::sync::Arc;

/// A communicator borrowed for the world's lifetime, lent by this thread's cache, or
/// shared from the table.
pub enum CommRef {
    Static(&'static Communicator),
    Cached(Lent<Communicator>),
    Shared(Arc<Communicator>),
}

impl std::ops::Deref for CommRef {
    type Target = Communicator;
    #[inline]
    fn deref(&self) -> &Communicator {
        match self {
            CommRef::Static(c) => c,
            CommRef::Cached(c) => c,
            CommRef::Shared(c) => c,
        }
    }
}

/// A datatype borrowed from the builtin table, lent by this thread's cache (for the call
/// that looked it up), or shared from the dynamic table.
#[derive(Clone)]
pub enum TypeRef {
    Builtin(&'static Datatype),
    Cached(Lent<Datatype>),
    Derived(Arc<Datatype>),
}

impl TypeRef {
    /// The same datatype, to keep beyond the call (a persistent request's, a file view's).
    pub fn to_kept(&self) -> KeptType {
        match self {
            TypeRef::Builtin(d) => KeptType::Builtin(d),
            TypeRef::Cached(d) => KeptType::Derived(d.to_shared()),
            TypeRef::Derived(d) => KeptType::Derived(d.clone()),
        }
    }
}

/// A datatype kept beyond the call that looked it up (`Send`, unlike a `TypeRef`).
#[derive(Clone)]
pub enum KeptType {
    Builtin(&'static Datatype),
    Derived(Arc<Datatype>),
}

impl From<&KeptType> for TypeRef {
    fn from(t: &KeptType) -> TypeRef {
        match t {
            KeptType::Builtin(d) => TypeRef::Builtin(d),
            KeptType::Derived(d) => TypeRef::Derived(d.clone()),
        }
    }
}

impl std::ops::Deref for KeptType {
    type Target = Datatype;
    fn deref(&self) -> &Datatype {
        match self {
            KeptType::Builtin(d) => d,
            KeptType::Derived(d) => d,
        }
    }
}

impl std::ops::Deref for TypeRef {
    type Target = Datatype;
    #[inline]
    fn deref(&self) -> &Datatype {
        match self {
            TypeRef::Builtin(d) => d,
            TypeRef::Cached(d) => d,
            TypeRef::Derived(d) => d,
        }
    }
}
