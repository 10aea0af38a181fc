//! The arguments every class of the extension module reads the same way (seeds, action ids,
//! other integers) and the helpers of their error messages, below the classes that use them.

use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat};

/// Most legal actions listed in an error message.
pub(crate) const LIST_MAX: usize = 40;

/// What a seed must be, in every error about one.
pub(crate) const SEED_RANGE: &str = "an integer from 0 to 2**64 - 1";

/// `repr(v)` for an error message.
pub(crate) fn repr_of(v: &Bound<'_, PyAny>) -> String {
    v.repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// A seed argument: a Python int or a numpy integer from 0 to 2**64 - 1. A bool or a
/// non-integer is a TypeError, an integer out of range a ValueError, both naming the range
/// (the same check everywhere a seed enters: handles, agents, the batch, the environments
/// through `_check_seed`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Seed(pub u64);

impl<'a, 'py> FromPyObject<'a, 'py> for Seed {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let obj: &Bound<'py, PyAny> = &obj;
        if obj.is_instance_of::<PyBool>() {
            return Err(PyTypeError::new_err(format!(
                "seed {}: expected {SEED_RANGE}, not a bool",
                repr_of(obj)
            )));
        }
        match obj.extract::<u64>() {
            Ok(v) => Ok(Seed(v)),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Err(PyValueError::new_err(
                format!("seed {}: expected {SEED_RANGE}", repr_of(obj)),
            )),
            Err(_) => Err(PyTypeError::new_err(format!(
                "seed {}: expected {SEED_RANGE}, not {}",
                repr_of(obj),
                describe_value(obj)
            ))),
        }
    }
}

/// An action id argument: a Python int or a numpy integer. A bool, a float (Python or
/// numpy) or anything else that is not an integer is a TypeError: nothing is truncated.
/// An integer too large for any table is a ValueError (out of range).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ActionId(pub i64);

impl<'a, 'py> FromPyObject<'a, 'py> for ActionId {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let obj: &Bound<'py, PyAny> = &obj;
        let refuse = |what: &str| {
            PyTypeError::new_err(format!(
                "action {}: expected an integer action id, not {what}",
                repr_of(obj)
            ))
        };
        if obj.is_instance_of::<PyBool>() {
            return Err(refuse("a bool"));
        }
        if obj.is_instance_of::<PyFloat>() {
            return Err(refuse("a float"));
        }
        match obj.extract::<i64>() {
            Ok(v) => Ok(ActionId(v)),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Err(PyValueError::new_err(
                format!("action id {} is out of range", repr_of(obj)),
            )),
            Err(_) => Err(refuse(&describe_value(obj))),
        }
    }
}

/// An integer argument other than a seed or an action (a player count, a seat, a batch's
/// `n` and `threads`, a level number): a Python int or a numpy integer. A bool or a float is
/// a TypeError; an integer too large for an i64 is kept as its text (`overflow`), so the
/// caller refuses it with the same ValueError as any other value out of its range (never an
/// OverflowError).
#[derive(Clone, Debug)]
pub(crate) struct Count {
    pub value: i64,
    pub overflow: bool,
    pub text: String,
}

impl Count {
    /// A count given from Rust (a default).
    pub const fn of(value: i64) -> Self {
        Count {
            value,
            overflow: false,
            text: String::new(),
        }
    }

    /// The count as text, as the caller wrote it.
    pub fn text(&self) -> String {
        if self.text.is_empty() {
            self.value.to_string()
        } else {
            self.text.clone()
        }
    }

    /// The count as a usize, if it is one.
    pub fn usize(&self) -> Option<usize> {
        if self.overflow {
            None
        } else {
            usize::try_from(self.value).ok()
        }
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Count {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let obj: &Bound<'py, PyAny> = &obj;
        let refuse = |what: &str| {
            PyTypeError::new_err(format!("{}: expected an integer, not {what}", repr_of(obj)))
        };
        if obj.is_instance_of::<PyBool>() {
            return Err(refuse("a bool"));
        }
        if obj.is_instance_of::<PyFloat>() {
            return Err(refuse("a float"));
        }
        match obj.extract::<i64>() {
            Ok(value) => Ok(Count::of(value)),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Ok(Count {
                value: 0,
                overflow: true,
                text: repr_of(obj),
            }),
            Err(_) => Err(refuse(&describe_value(obj))),
        }
    }
}

pub(crate) fn list_legal(ids: impl Iterator<Item = (usize, String)>) -> String {
    let all: Vec<(usize, String)> = ids.collect();
    if all.is_empty() {
        return "none".into();
    }
    let mut s: Vec<String> = all
        .iter()
        .take(LIST_MAX)
        .map(|(id, what)| format!("{id} ({what})"))
        .collect();
    if all.len() > LIST_MAX {
        s.push(format!("... {} in all", all.len()));
    }
    s.join(", ")
}

/// `tessera._tessera._restore`, the function pickles call to rebuild a handle.
pub(crate) fn restorer(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    py.import("tessera._tessera")?.getattr("_restore")
}

/// Describes a Python value for an error message: its type, and for arrays dtype and shape.
pub(crate) fn describe_value(v: &Bound<'_, PyAny>) -> String {
    let ty = v
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into());
    match (v.getattr("dtype"), v.getattr("shape")) {
        (Ok(d), Ok(s)) => format!("a {ty} of dtype {d} and shape {s}"),
        _ => format!("a {ty}"),
    }
}
