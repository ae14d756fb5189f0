//! The exception types the Rust core raises besides Python's built-in ones, defined here once and
//! re-exported by the Python package (`diplo.GameOverError`, `diplo.game.GameOverError`), so that
//! the core never imports a Python module to raise an error.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

pyo3::create_exception!(
    diplo,
    GameOverError,
    PyRuntimeError,
    "An action that needs a running game was asked of a game that has ended."
);

/// Adds the exception types to the module `diplo._core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("GameOverError", m.py().get_type::<GameOverError>())
}
