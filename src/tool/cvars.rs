//! Control variables: every documented `RAILMPI_*` setting, under its own name, with the
//! value in force (the environment's, else the default). Settings whose default is a
//! number are numbers (`MPI_UNSIGNED_LONG_LONG`), the others strings (`MPI_CHAR`).

use super::categories::{RAILS, RUNTIME};
use super::handles::CvarHandle;
use crate::error::{Error, ErrorClass, Result};
use crate::runtime::config;
use std::sync::LazyLock;

pub struct Cvar {
    pub name: &'static str,
    pub desc: &'static str,
    pub numeric: bool,
    /// Its category (`categories::ALL`).
    pub category: usize,
}

pub enum Value {
    Number(u64),
    Text(String),
}

static CVARS: LazyLock<Vec<Cvar>> = LazyLock::new(|| {
    let rails = |name: &str| {
        crate::fabric::settings::SETTINGS
            .iter()
            .any(|s| s.name == name)
    };
    config::settings()
        .map(|s| Cvar {
            name: s.name,
            desc: s.help,
            numeric: s.default.parse::<u64>().is_ok(),
            category: if rails(s.name) { RAILS } else { RUNTIME },
        })
        .collect()
});

pub fn all() -> &'static [Cvar] {
    &CVARS
}

/// MPI_T_cvar_get_num: how many there are.
pub fn num() -> Result<usize> {
    super::check()?;
    Ok(all().len())
}

/// MPI_T_cvar_get_index: the index of the variable called `name`.
pub fn index_of(name: &str) -> Result<usize> {
    super::check()?;
    super::by_name(all().iter().map(|c| c.name), name)
}

/// The index of control variable `i` (MPI_T_cvar_get_info, MPI_T_cvar_handle_alloc).
pub fn index(i: i32) -> Result<usize> {
    super::check()?;
    super::index(i, all().len(), "control variable")
}

/// MPI_T_cvar_get_info: control variable `i`.
pub fn info(i: i32) -> Result<&'static Cvar> {
    Ok(&all()[index(i)?])
}

/// MPI_T_cvar_handle_alloc: a new handle of variable `var`, its slot and element count (a
/// number, or a string's chars).
pub fn new_handle(var: usize) -> (usize, usize) {
    let count = match all()[var].numeric {
        true => 1,
        false => text_capacity(var),
    };
    (super::handles::new_cvar(CvarHandle { var, count }), count)
}

/// MPI_T_cvar_read: the value `h` reads (a string as at most its count of chars less the
/// NUL: `text`).
pub fn read_handle(h: CvarHandle) -> Result<Value> {
    read(h.var)
}

impl CvarHandle {
    /// What of string value `t` this handle reads, before the NUL.
    pub fn text<'a>(&self, t: &'a str) -> &'a [u8] {
        &t.as_bytes()[..t.len().min(self.count - 1)]
    }
}

/// MPI_T_cvar_write: railmpi reads its settings once, at start-up.
pub fn write(h: CvarHandle) -> Result<()> {
    Err(Error::new(
        ErrorClass::TCvarSetNever,
        format!("{} is read at start-up only", all()[h.var].name),
    ))
}

/// The value of control variable `i` (an index `all` has).
pub fn read(i: usize) -> Result<Value> {
    let c = &CVARS[i];
    let default = config::settings()
        .find(|s| s.name == c.name)
        .map_or("", |s| s.default);
    let v = std::env::var(c.name).unwrap_or_else(|_| default.to_string());
    if !c.numeric {
        return Ok(Value::Text(v));
    }
    v.trim().parse().map(Value::Number).map_err(|_| {
        Error::new(
            ErrorClass::TInvalid,
            format!("{}={v:?} is not a number", c.name),
        )
    })
}

/// The longest value a string variable's handle reads (its count, fixed when the handle is
/// made: the value in force, with room to spare).
pub fn text_capacity(i: usize) -> usize {
    match read(i) {
        Ok(Value::Text(t)) => (t.len() + 1).max(256),
        _ => 256,
    }
}

/// The control variables of category `c`, by index.
pub fn of_category(c: usize) -> Vec<usize> {
    let all = all().iter().enumerate();
    all.filter(|(_, v)| v.category == c)
        .map(|(i, _)| i)
        .collect()
}
