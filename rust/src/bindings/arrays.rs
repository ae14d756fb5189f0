//! The NumPy side of the environments' classes (`vector`, `deepmind`): a thread count, a
//! buffer borrowed elsewhere, and the actions array a step takes.

use numpy::{PyArray3, PyArrayDescrMethods, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

/// A thread count (1 to 256) from Python, or `ValueError`.
pub(super) fn threads_of(t: i64) -> PyResult<usize> {
    if t < 1 {
        return Err(PyValueError::new_err(format!(
            "threads must be at least 1, got {t}"
        )));
    }
    Ok(usize::try_from(t).unwrap_or(usize::MAX).min(256))
}

/// The error of a buffer that cannot be borrowed (a view of it is being written elsewhere).
pub(super) fn busy<E>(_: E) -> PyErr {
    PyRuntimeError::new_err("a buffer of the environment is borrowed elsewhere")
}

/// Calls `f` with the entries of `actions`, a C-contiguous `int64` array of shape `want`
/// (copied once when it is not contiguous), or refuses it with `ValueError`.
pub(super) fn with_actions<R>(
    py: Python<'_>,
    actions: &Bound<'_, PyAny>,
    want: [usize; 3],
    f: impl FnOnce(&[i64]) -> PyResult<R>,
) -> PyResult<R> {
    let array = actions.downcast::<PyArray3<i64>>().map_err(|_| {
        PyValueError::new_err(
            "actions must be a 3-dimensional int64 NumPy array (games, powers, slots)",
        )
    })?;
    if array.shape() != want {
        return Err(PyValueError::new_err(format!(
            "actions: expected shape {want:?}, got {:?}",
            array.shape()
        )));
    }
    debug_assert!(array.dtype().is_equiv_to(&numpy::dtype::<i64>(py)));
    let read = array.try_readonly().map_err(busy)?;
    let owned;
    let slice = match read.as_slice() {
        Ok(s) => s,
        Err(_) => {
            owned = read.as_array().iter().copied().collect::<Vec<i64>>();
            &owned[..]
        }
    };
    f(slice)
}
