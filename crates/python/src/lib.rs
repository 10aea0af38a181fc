//! # tessera-python
//!
//! The Rust half of the Python package `tessera` (docs/python.md):
//! - [`driver`]: the one function that advances a game (apply an action, then resolve chance
//!   until a player must act); the place that becomes the one-table driver's call;
//! - [`azul`]: Azul's fixed action ids, action mask and observation vector;
//! - [`qwirkle`]: Qwirkle's step-by-step placements with fixed ids, mask and observation.
//! - [`batch`] and [`qwirkle_batch`]: many games stepped in one call.
//! - [`tiles`]: Match the Tiles with move ids and observation planes.
//!
//! With the `python` feature (set by maturin) it also builds the extension module
//! `tessera._tessera`; without it, it needs no Python, so `cargo test --workspace` runs
//! everywhere.

#![warn(missing_docs)]

pub mod azul;
pub mod batch;
pub mod driver;
pub mod qwirkle;
pub mod qwirkle_batch;
pub mod tiles;

#[cfg(feature = "python")]
mod args;
#[cfg(feature = "python")]
mod game;
#[cfg(feature = "python")]
mod py;
#[cfg(feature = "python")]
mod tournament;

/// The extension module `tessera._tessera`: each file registers its own classes and
/// functions (so no file needs another only to be registered).
#[cfg(feature = "python")]
#[pyo3::pymodule]
fn _tessera(m: &pyo3::Bound<'_, pyo3::types::PyModule>) -> pyo3::PyResult<()> {
    use pyo3::types::PyModuleMethods;
    py::register(m)?;
    tournament::register(m)?;
    game::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
