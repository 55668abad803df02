//! Error classes and codes the application adds (MPI_Add_error_class, _code, _string) and
//! removes (MPI-4.1's MPI_Remove_error_*), numbered from the first code above the
//! predefined ones. A removed one's number is given out again (the lowest free first, as
//! MPICH reuses its freed ones): a program that adds and removes codes in a loop keeps a
//! registry of the size it uses, and every call is O(log n) at most, whatever came before.

use super::{Error, ErrorClass, Result};
use crate::mpi_err;
use parking_lot::Mutex;
use std::collections::BTreeSet;

struct Code {
    class: i32,
    /// MPI_Add_error_string's text (None: none added, or removed).
    text: Option<String>,
    /// An added class's codes (other than itself) not yet removed.
    codes: u32,
}

/// The slots (index: code - first; None: free) and the free ones' indexes.
#[derive(Default)]
struct Slots {
    codes: Vec<Option<Code>>,
    free: BTreeSet<usize>,
}

/// What MPI_Remove_error_class/_code may take away: an added class (a code that is its own
/// class) or an added code of another class.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Class,
    Code,
}

/// What a code is to the registry.
pub enum Found {
    /// Below the added ones: predefined, or no code (the caller's to say).
    Predefined,
    /// In the added range, but never given out or removed.
    Unknown,
    /// An added code: its class and string (empty when none was added).
    Added { class: i32, text: String },
}

/// The codes added by the application, from `first` on.
pub struct Registry {
    first: i32,
    slots: Mutex<Slots>,
}

impl Registry {
    pub const fn new(first: i32) -> Self {
        Registry {
            first,
            slots: Mutex::new(Slots {
                codes: Vec::new(),
                free: BTreeSet::new(),
            }),
        }
    }

    /// The largest code in use (the MPI_LASTUSEDCODE attribute): removing the highest
    /// ones lowers it.
    pub fn last_used(&self) -> i32 {
        self.first - 1 + self.slots.lock().codes.len() as i32
    }

    fn index(&self, code: i32) -> Option<usize> {
        code.checked_sub(self.first)
            .and_then(|i| usize::try_from(i).ok())
    }

    pub fn find(&self, code: i32) -> Found {
        let Some(i) = self.index(code) else {
            return Found::Predefined;
        };
        match self.slots.lock().codes.get(i).and_then(Option::as_ref) {
            Some(c) => Found::Added {
                class: c.class,
                text: c.text.clone().unwrap_or_default(),
            },
            None => Found::Unknown,
        }
    }

    /// Add a code of `class`, or a new class (its own class) when None
    /// (`predefined_class`: whether a number below the added ones is a class).
    pub fn add(&self, class: Option<i32>, predefined_class: impl Fn(i32) -> bool) -> Result<i32> {
        let mut slots = self.slots.lock();
        // The added class's slot (None: a predefined class).
        let mut of = None;
        if let Some(c) = class {
            let is_class = match self.index(c) {
                Some(i) => {
                    of = Some(i);
                    slots
                        .codes
                        .get(i)
                        .and_then(Option::as_ref)
                        .is_some_and(|u| u.class == c)
                }
                None => predefined_class(c),
            };
            if !is_class {
                return mpi_err!(Arg, "{c} is not an error class");
            }
        }
        let i = match slots.free.pop_first() {
            Some(i) => i,
            None => {
                slots.codes.push(None);
                slots.codes.len() - 1
            }
        };
        let Some(code) = i32::try_from(i)
            .ok()
            .and_then(|i| self.first.checked_add(i))
        else {
            slots.codes.pop();
            return mpi_err!(Intern, "no error codes left");
        };
        slots.codes[i] = Some(Code {
            class: class.unwrap_or(code),
            text: None,
            codes: 0,
        });
        if let Some(u) = of.and_then(|c| slots.codes[c].as_mut()) {
            u.codes += 1;
        }
        Ok(code)
    }

    /// The class of any valid error code (MPI_Error_class): a predefined class is its own
    /// (`predefined_class` says which numbers below the added ones are classes), an added
    /// code has its class; MPI_ERR_ARG for a number that is no code.
    pub fn class_of(&self, code: i32, predefined_class: impl Fn(i32) -> bool) -> Result<i32> {
        match self.find(code) {
            Found::Predefined if predefined_class(code) => Ok(code),
            Found::Added { class, .. } => Ok(class),
            _ => Err(invalid_code(code)),
        }
    }

    /// The string of any valid error code (MPI_Error_string): a predefined class's text
    /// (`predefined_text`), an added code's (empty when none was added); MPI_ERR_ARG for a
    /// number that is no code.
    pub fn text_of<'a>(
        &self,
        code: i32,
        predefined_text: impl Fn(i32) -> Option<&'a str>,
    ) -> Result<String> {
        match self.find(code) {
            Found::Predefined => predefined_text(code).map(str::to_string),
            Found::Unknown => None,
            Found::Added { text, .. } => Some(text),
        }
        .ok_or_else(|| invalid_code(code))
    }

    /// MPI_Add_error_string: `text` (shorter than `max` bytes, MPI_MAX_ERROR_STRING, else
    /// MPI_ERR_ARG) becomes added code `code`'s string.
    pub fn add_text(&self, code: i32, text: String, max: usize) -> Result<()> {
        if text.len() >= max {
            let most = max - 1;
            return mpi_err!(Arg, "error string of {} bytes (at most {most})", text.len());
        }
        self.set_text(code, Some(text))
    }

    /// MPI_Add_error_string (`Some`) and MPI_Remove_error_string (`None`), on an added code.
    pub fn set_text(&self, code: i32, text: Option<String>) -> Result<()> {
        let mut slots = self.slots.lock();
        let slot = self
            .index(code)
            .and_then(|i| slots.codes.get_mut(i)?.as_mut());
        match (slot, text) {
            (Some(u), Some(t)) => {
                u.text = Some(t);
                Ok(())
            }
            (Some(u), None) if u.text.is_some() => {
                u.text = None;
                Ok(())
            }
            (_, Some(_)) => mpi_err!(Arg, "{code} is not an error code added by the application"),
            (_, None) => mpi_err!(Arg, "error {code} has no string added by the application"),
        }
    }

    /// MPI_Remove_error_class and MPI_Remove_error_code (MPI-4.1 §9.5): the string must be
    /// removed first, and a class's codes before the class.
    pub fn remove(&self, code: i32, what: Kind) -> Result<()> {
        let mut slots = self.slots.lock();
        let Some(i) = self.index(code) else {
            return mpi_err!(Arg, "{code} was not added by the application");
        };
        let Some(u) = slots.codes.get(i).and_then(Option::as_ref) else {
            return mpi_err!(
                Arg,
                "{code} was not added by the application (or is removed)"
            );
        };
        let is = if u.class == code {
            Kind::Class
        } else {
            Kind::Code
        };
        if is != what {
            let (want, got) = match what {
                Kind::Class => ("class", "code"),
                Kind::Code => ("code", "class"),
            };
            return mpi_err!(Arg, "{code} is an added error {got}, not an error {want}");
        }
        if u.text.is_some() {
            return mpi_err!(Arg, "error {code} still has its string: remove it first");
        }
        if what == Kind::Class && u.codes > 0 {
            return mpi_err!(Arg, "error class {code} still has codes: remove them first");
        }
        let class = u.class;
        if let Some(c) = self.index(class).filter(|_| what == Kind::Code) {
            if let Some(k) = slots.codes[c].as_mut() {
                k.codes -= 1;
            }
        }
        slots.codes[i] = None;
        slots.free.insert(i);
        // Free slots at the end go: MPI_LASTUSEDCODE comes down with them.
        while let Some(None) = slots.codes.last() {
            let last = slots.codes.len() - 1;
            slots.codes.pop();
            slots.free.remove(&last);
        }
        Ok(())
    }
}

/// MPI_ERR_ARG: `code` is no error code (predefined or added).
fn invalid_code(code: i32) -> Error {
    Error::new(ErrorClass::Arg, format!("invalid error code {code}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_codes_strings() {
        let r = Registry::new(100);
        assert_eq!(r.last_used(), 99);
        let class = r.add(None, |_| false).unwrap();
        let code = r.add(Some(class), |_| false).unwrap();
        assert_eq!((class, code, r.last_used()), (100, 101, 101));
        assert!(r.add(Some(code), |_| false).is_err(), "a code is no class");
        assert!(r.add(Some(5), |c| c == 5).is_ok(), "a predefined class");
        assert!(
            r.add_text(code, "long".into(), 4).is_err(),
            "3 bytes at most"
        );
        r.add_text(code, "mine".into(), 5).unwrap();
        assert_eq!(r.class_of(code, |_| false), Ok(class));
        assert_eq!(r.class_of(5, |c| c == 5), Ok(5));
        assert!(r.class_of(6, |c| c == 5).is_err(), "no class");
        assert!(r.class_of(150, |_| true).is_err(), "never added");
        assert_eq!(r.text_of(class, |_| None).as_deref(), Ok(""));
        assert_eq!(r.text_of(5, |_| Some("five")).as_deref(), Ok("five"));
        assert!(r.text_of(6, |_| None).is_err());
        assert!(matches!(r.find(code), Found::Added { class: 100, ref text } if text == "mine"));
        assert!(matches!(r.find(3), Found::Predefined));
        assert!(
            r.remove(class, Kind::Class).is_err(),
            "its code is still there"
        );
        assert!(
            r.remove(code, Kind::Code).is_err(),
            "its string is still there"
        );
        r.set_text(code, None).unwrap();
        r.remove(code, Kind::Code).unwrap();
        r.remove(class, Kind::Class).unwrap();
        assert!(matches!(r.find(code), Found::Unknown));
        assert!(r.remove(code, Kind::Code).is_err(), "removed already");
        assert_eq!(r.last_used(), 102, "code 102 (of class 5) is still there");
        assert_eq!(
            r.add(None, |_| false).unwrap(),
            100,
            "the lowest free number"
        );
        assert_eq!(r.add(Some(100), |_| false).unwrap(), 101);
        assert_eq!(r.add(Some(100), |_| false).unwrap(), 103);
        assert_eq!(r.last_used(), 103);
    }

    /// Classes and codes added and removed over and over (MPICH's errhan/adderr does 10000
    /// rounds of 32 classes with 5 codes each): the numbers come back, the registry stays
    /// small, and a class's removal does not look at every code there is.
    #[test]
    fn add_remove_rounds() {
        let r = Registry::new(100);
        let t = std::time::Instant::now();
        for _ in 0..20_000 {
            let mut made = Vec::new();
            for _ in 0..8 {
                let c = r.add(None, |_| false).unwrap();
                let codes: Vec<i32> = (0..5).map(|_| r.add(Some(c), |_| false).unwrap()).collect();
                for &k in &codes {
                    r.add_text(k, "x".into(), 10).unwrap();
                }
                made.push((c, codes));
            }
            assert!(r.last_used() < 100 + 48, "numbers are given out again");
            for (c, codes) in made {
                assert!(r.remove(c, Kind::Class).is_err(), "its codes first");
                for k in codes {
                    r.set_text(k, None).unwrap();
                    r.remove(k, Kind::Code).unwrap();
                }
                r.remove(c, Kind::Class).unwrap();
            }
            assert_eq!(r.last_used(), 99, "all gone");
        }
        assert!(t.elapsed().as_secs() < 10, "{:?}", t.elapsed());
    }
}
