//! How the core fails in Python: the exception types it raises besides Python's built-in ones,
//! and the one panic guard every entry point runs in.
//!
//! `GameOverError` is defined here once and re-exported by the Python package
//! (`diplo.GameOverError`, `diplo.game.GameOverError`), so that the core never imports a Python
//! module to raise an error. Malformed input raises `ValueError` naming the problem; a panic
//! (a bug) is caught by [`guarded`] and raised as `RuntimeError`, so no panic ever crosses into
//! Python.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::engine::batch::panic_message;
use crate::engine::phases::forget_scratch;

pyo3::create_exception!(
    diplo,
    GameOverError,
    PyRuntimeError,
    "An action that needs a running game was asked of a game that has ended."
);

/// Set by `_panic_in_next_call` (a test hook): the next guarded call panics on entry.
static PANIC_NEXT: AtomicBool = AtomicBool::new(false);

/// The guard itself: runs `f`, turning a panic into `RuntimeError` ("internal error in the diplo
/// {part}: ..."), after dropping this thread's engine buffers, which the panic may have left
/// half-updated.
fn catching<T>(part: &str, f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => {
            forget_scratch();
            Err(PyRuntimeError::new_err(format!(
                "internal error in the diplo {part}: {}",
                panic_message(payload.as_ref())
            )))
        }
    }
}

/// Runs `f` in the guard. Every entry point of the engine's bindings that does more than read a
/// field runs inside it (one relaxed load when nothing panics); honours the test hook
/// `_panic_in_next_call`.
pub(crate) fn guarded<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catching("engine", || {
        if PANIC_NEXT.load(Ordering::Relaxed) && PANIC_NEXT.swap(false, Ordering::Relaxed) {
            panic!("deliberate panic (test hook)");
        }
        f()
    })
}

/// The same guard around pure Rust work run with the GIL released; its error message becomes
/// `ValueError`.
fn guarded_without_gil<T: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> Result<T, String> + Send,
) -> PyResult<T> {
    py.allow_threads(|| catching("core", || work().map_err(PyValueError::new_err)))
}

/// Panics inside the guard, so that a test can prove a panic arrives in Python as
/// `RuntimeError` (it is not part of the API).
#[pyfunction]
fn _panic_for_test(py: Python<'_>, message: String) -> PyResult<()> {
    guarded_without_gil(py, move || -> Result<(), String> { panic!("{message}") })
}

/// Test hook: the next guarded call (any thread) panics on entry, so tests can prove each entry
/// point turns a panic into `RuntimeError`.
#[pyfunction]
fn _panic_in_next_call() {
    PANIC_NEXT.store(true, Ordering::Relaxed);
}

/// Adds the exception types and the test hooks to `diplo._core`.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("GameOverError", m.py().get_type::<GameOverError>())?;
    m.add_function(wrap_pyfunction!(_panic_for_test, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_in_next_call, m)?)
}
