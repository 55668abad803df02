//! Info objects (MPI-4.1 §10): (key, value) string pairs in the order their keys were first
//! set, and MPI's rules on them: key and value lengths, a missing key, the n-th key. The
//! binding names them by handle and gives the limits of its ABI (MPI_MAX_INFO_KEY differs
//! between MPICH's and the standard one).

use crate::error::{Error, ErrorClass, Result};
use crate::mpi_err;

/// An info object's pairs, in the order their keys were first set.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info(Vec<(String, String)>);

impl Info {
    pub const fn new() -> Self {
        Info(Vec::new())
    }

    /// The pairs, in order (a key set twice keeps its first place: give each once).
    pub fn from_pairs(pairs: Vec<(String, String)>) -> Self {
        Info(pairs)
    }

    pub fn pairs(&self) -> &[(String, String)] {
        &self.0
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The value of `key`, if set.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Set `key` to `value`: a new key goes last, a set one keeps its place.
    pub fn set(&mut self, key: &str, value: String) {
        match self.0.iter_mut().find(|(k, _)| k == key) {
            Some(pair) => pair.1 = value,
            None => self.0.push((key.to_owned(), value)),
        }
    }

    /// Delete `key` (MPI_ERR_INFO_NOKEY if it is not set).
    pub fn delete(&mut self, key: &str) -> Result<()> {
        match self.0.iter().position(|(k, _)| k == key) {
            Some(i) => {
                self.0.remove(i);
                Ok(())
            }
            None => mpi_err!(InfoNoKey, "info key \"{key}\" is not set"),
        }
    }

    /// The `n`-th key, from 0 (MPI_ERR_ARG past the last).
    pub fn nth_key(&self, n: i64) -> Result<&str> {
        match usize::try_from(n).ok().and_then(|i| self.0.get(i)) {
            Some((k, _)) => Ok(k),
            None => mpi_err!(
                Arg,
                "no key number {n} (the info object has {})",
                self.len()
            ),
        }
    }
}

/// A key as MPI allows it: 1..=`max` bytes (else MPI_ERR_INFO_KEY), UTF-8.
pub fn check_key(key: &[u8], max: usize) -> Result<&str> {
    let len = key.len();
    if len == 0 || len > max {
        return mpi_err!(InfoKey, "info key of {len} characters (1..={max} allowed)");
    }
    std::str::from_utf8(key)
        .map_err(|_| Error::new(ErrorClass::InfoKey, "info key is not valid UTF-8"))
}

/// A value as MPI allows it: at most `max` bytes (else MPI_ERR_INFO_VALUE).
pub fn check_value(value: &[u8], max: usize) -> Result<String> {
    if value.len() > max {
        return mpi_err!(
            InfoValue,
            "info value of {} characters (at most {max})",
            value.len()
        );
    }
    Ok(String::from_utf8_lossy(value).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_keep_their_first_place() {
        let mut i = Info::new();
        i.set("a", "1".into());
        i.set("b", "2".into());
        i.set("a", "3".into());
        assert_eq!(i.get("a"), Some("3"));
        assert_eq!(i.nth_key(0).unwrap(), "a");
        assert_eq!(i.nth_key(1).unwrap(), "b");
        assert_eq!(i.nth_key(2).unwrap_err().class, ErrorClass::Arg);
        assert_eq!(i.nth_key(-1).unwrap_err().class, ErrorClass::Arg);
        i.delete("a").unwrap();
        assert_eq!(i.delete("a").unwrap_err().class, ErrorClass::InfoNoKey);
        assert_eq!(i.pairs(), &[("b".to_string(), "2".to_string())]);
    }

    #[test]
    fn limits() {
        assert_eq!(check_key(b"", 4).unwrap_err().class, ErrorClass::InfoKey);
        assert_eq!(
            check_key(b"abcde", 4).unwrap_err().class,
            ErrorClass::InfoKey
        );
        assert_eq!(
            check_key(b"\xff", 4).unwrap_err().class,
            ErrorClass::InfoKey
        );
        assert_eq!(check_key(b"abcd", 4).unwrap(), "abcd");
        assert_eq!(
            check_value(b"abc", 2).unwrap_err().class,
            ErrorClass::InfoValue
        );
        assert_eq!(check_value(b"", 2).unwrap(), "");
    }
}
