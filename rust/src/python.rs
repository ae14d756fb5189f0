//! PyO3 bindings: the `diplo._core` extension module (feature `python`).
//!
//! The game engine's bindings are in `py_fast.rs` (the one boundary: maps, games, orders as
//! codes or as objects and canonical texts read in the core). This module holds the module
//! itself and the panic guard. Malformed input raises `ValueError` naming the problem; work runs
//! inside `catch_unwind`, so a bug surfaces as `RuntimeError` and no panic ever crosses into
//! Python. The typed stub is `python/diplo/_core.pyi`.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

/// Runs pure Rust work with the GIL released, turning an error message into `ValueError` and a
/// panic into `RuntimeError`: no panic ever crosses into Python.
pub(crate) fn guarded<T: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> Result<T, String> + Send,
) -> PyResult<T> {
    match py.allow_threads(|| catch_unwind(AssertUnwindSafe(work))) {
        Ok(Ok(out)) => Ok(out),
        Ok(Err(message)) => Err(PyValueError::new_err(message)),
        Err(payload) => Err(PyRuntimeError::new_err(format!(
            "internal error in the diplo core: {}",
            panic_message(payload.as_ref())
        ))),
    }
}

/// Panics inside the same guard as every entry point, so that a test can prove a panic arrives
/// in Python as `RuntimeError` (it is not part of the API).
#[pyfunction]
fn _panic_for_test(py: Python<'_>, message: String) -> PyResult<()> {
    guarded(py, move || -> Result<(), String> { panic!("{message}") })
}

/// The Rust core of diplo.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    crate::py_errors::register(m)?;
    crate::py_fast::register(m)?;
    crate::py_texts::register(m)?;
    m.add_function(wrap_pyfunction!(_panic_for_test, m)?)?;
    m.add("__version__", crate::version())?;
    // Names of the why codes of retreat and adjustment results, indexed by code.
    m.add(
        "EXPLAIN_NAMES",
        pyo3::types::PyTuple::new(m.py(), crate::fast::phases::EXPLAIN_NAMES)?,
    )?;
    // Names of the result codes, indexed by code (docs/design.md "Outcomes").
    m.add(
        "CODES",
        ("ok", "bounce", "cut", "dislodged", "no_convoy", "void"),
    )?;
    Ok(())
}
