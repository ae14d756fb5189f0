//! The NumPy side of the environments' classes (`vector`, `deepmind`), their one skeleton: the
//! output arrays declared once per class (`arrays!`: allocated once, lent to the engine for a
//! call, handed to Python by name), what a call asks of the engine (`Op`), a size and a thread
//! count from Python, a buffer that cannot be lent, and the actions array a step takes.

use numpy::{PyArray3, PyArrayDescrMethods, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

/// What a call asks of an environment with its arrays lent.
pub(super) enum Op<'a> {
    Reset,
    Step(&'a [i64]),
}

/// A size given to an environment's constructor (`what`: its name), in `1..=2**24`, or
/// `ValueError`.
pub(super) fn size_of(what: &str, v: i64) -> PyResult<usize> {
    usize::try_from(v)
        .ok()
        .filter(|&v| (1..=1 << 24).contains(&v))
        .ok_or_else(|| PyValueError::new_err(format!("{what} must be in 1..=2**24, got {v}")))
}

/// Declares an environment's output arrays once: a struct `$name` of NumPy arrays (one field
/// per buffer of the engine's `$bufs`, with the name Python reads it by), `$name::zeros`, which
/// allocates them (each field's shape an expression of the caller's sizes `$z`), `$name::lend`,
/// which lends them to the engine, and `$name::to_dict`, the arrays by name.
///
/// The arrays are lent without the `numpy` crate's borrow flags (taking and giving back a dozen
/// of them cost more than a one-game step itself): they are the environment's own arrays,
/// C-contiguous and never resized, and the class's `&mut self` (PyO3's exclusive borrow of the
/// object) means no other call of the object runs meanwhile. NumPy never consults those flags,
/// so Python code reading the arrays from another thread during a step is no more excluded with
/// them than without.
macro_rules! arrays {
    (
        $(#[$doc:meta])* $name:ident => $bufs:ident,
        |$z:ident: $zt:ty| { $($field:ident($key:literal): $arr:ident<$t:ty> = $shape:expr),* $(,)? }
    ) => {
        $(#[$doc])*
        struct $name {
            $($field: Py<numpy::$arr<$t>>,)*
        }

        impl $name {
            /// The arrays, zeros, shaped for the sizes `$z`.
            fn zeros(py: Python<'_>, $z: $zt) -> $name {
                $name {
                    $($field: numpy::$arr::zeros(py, $shape, false).unbind(),)*
                }
            }

            /// Every array lent to the engine.
            ///
            /// # Safety
            /// The caller holds the environment exclusively (`&mut self` of its class) for as
            /// long as the buffers live (see `arrays!`); each array is a distinct allocation,
            /// so the slices do not overlap.
            unsafe fn lend<'a>(&'a self, py: Python<'a>) -> PyResult<$bufs<'a>> {
                use numpy::PyArrayMethods;
                // SAFETY: as the caller promises.
                unsafe {
                    Ok($bufs {
                        $($field: self.$field.bind(py).as_slice_mut().map_err(super::arrays::busy)?,)*
                    })
                }
            }

            /// The arrays by name (the same arrays after every call, filled in place).
            fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
                let d = pyo3::types::PyDict::new(py);
                $(d.set_item($key, self.$field.bind(py))?;)*
                Ok(d)
            }
        }
    };
}
pub(super) use arrays;

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
