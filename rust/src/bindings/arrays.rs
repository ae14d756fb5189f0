//! The NumPy side of the environments' classes (`vector`, `deepmind`), their one skeleton: the
//! output arrays declared once per class (`arrays!`: allocated once, lent to the engine for a
//! call, handed to Python by name), what a call asks of the engine (`Op`), a size and a thread
//! count from Python, a buffer that cannot be lent, and the actions array a step takes.

use std::convert::Infallible;

use numpy::{PyArray3, PyArrayDescrMethods, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyInt;
use pyo3::{PyClass, PyTypeInfo};

use super::errors::{guarded, to_py};
use crate::engine::batched::{Batched, Protocol};
use crate::engine::error::EngineError;

/// What a call asks of an environment with its arrays lent.
pub(super) enum Op<'a> {
    Reset,
    Step(&'a [i64]),
    /// The check of a step's actions, nothing played.
    Check(&'a [i64]),
}

/// What a call of an environment's class asks, the actions as Python gave them.
pub(super) enum Ask<'a, 'py> {
    Reset,
    Step(&'a Bound<'py, PyAny>),
    Check(&'a Bound<'py, PyAny>),
}

/// An environment's class (`VectorEnv`, `DeepMindEnv`): what [`asked`] needs of it.
pub(super) trait EnvClass: PyClass<Frozen = pyo3::pyclass::boolean_struct::False> {
    /// A reset, a step or a check of every game (see [`call`]).
    fn call(&mut self, py: Python<'_>, ask: Ask<'_, '_>) -> PyResult<usize>;
}

/// The refusal of an environment of class `T` that another call holds: `InUseError` (a reset
/// or a step runs with the GIL released, so another thread may call in meanwhile).
fn in_use<T: PyTypeInfo>() -> PyErr {
    to_py(EngineError::in_use(format!(
        "this {} is in use by another thread (a reset or a step runs with the GIL released): \
         use an environment from one thread at a time (docs/design.md, 'Threads')",
        T::NAME
    )))
}

/// The environment `slf` borrowed for a call that reads it, or [`in_use`].
pub(super) fn env_held<'py, T: PyClass + PyTypeInfo>(
    slf: &Bound<'py, T>,
) -> PyResult<PyRef<'py, T>> {
    slf.try_borrow().map_err(|_| in_use::<T>())
}

/// The environment `slf` borrowed for a call that changes it, or [`in_use`].
pub(super) fn env_held_mut<'py, T: PyClass<Frozen = pyo3::pyclass::boolean_struct::False>>(
    slf: &Bound<'py, T>,
) -> PyResult<PyRefMut<'py, T>> {
    slf.try_borrow_mut().map_err(|_| in_use::<T>())
}

/// `ask` of the environment `slf` (see [`env_held_mut`]).
pub(super) fn asked<T: EnvClass>(slf: &Bound<'_, T>, ask: Ask<'_, '_>) -> PyResult<usize> {
    env_held_mut(slf)?.call(slf.py(), ask)
}

/// The thread count of the environment `slf` (its `threads` method; `field` finds it), set to
/// `count` first when given.
pub(super) fn threads<T: PyClass<Frozen = pyo3::pyclass::boolean_struct::False>>(
    slf: &Bound<'_, T>,
    count: Option<Threads>,
    field: impl FnOnce(&mut T) -> &mut Threads,
) -> PyResult<Threads> {
    let mut this = env_held_mut(slf)?;
    let threads = field(&mut this);
    if let Some(count) = count {
        *threads = count;
    }
    Ok(*threads)
}

/// The thread count of an environment (its `threads` attribute): read from Python as a count
/// of 1 or more (more than 256 is 256), or `ValueError`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Threads(pub usize);

impl<'py> FromPyObject<'py> for Threads {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        threads_of(ob.extract::<i64>()?).map(Threads)
    }
}

impl<'py> IntoPyObject<'py> for Threads {
    type Target = PyInt;
    type Output = Bound<'py, PyInt>;
    type Error = Infallible;

    fn into_pyobject(self, py: Python<'py>) -> Result<Self::Output, Self::Error> {
        self.0.into_pyobject(py)
    }
}

/// What `op` asks of a batched environment, on `bufs` with `threads` threads: the phases played.
pub(super) fn apply<P: Protocol>(
    env: &mut Batched<P>,
    op: Op<'_>,
    bufs: P::Buffers<'_>,
    threads: usize,
) -> Result<usize, EngineError> {
    match op {
        Op::Reset => env.reset(bufs, threads).map(|_| 0),
        Op::Step(actions) => env.step(actions, bufs, threads),
        Op::Check(actions) => env.check_actions(actions, threads).map(|_| 0),
    }
}

/// A call of an environment's class (the actions read as an array of shape `want`): its arrays
/// lent (`lend`), the engine run on them with the GIL released (`run`), a panic in the core
/// caught; the phases played. The engine's error becomes the exception of its kind
/// (`errors::to_py`): a bad action `ValueError`, a step broken part-way `RuntimeError`.
pub(super) fn call<B: Send>(
    py: Python<'_>,
    ask: Ask<'_, '_>,
    want: [usize; 3],
    lend: impl FnOnce() -> PyResult<B>,
    run: impl FnOnce(Op<'_>, B) -> Result<usize, EngineError> + Send,
) -> PyResult<usize> {
    guarded(|| {
        let (array, step) = match ask {
            Ask::Reset => return lent(py, Op::Reset, lend, run),
            Ask::Step(array) => (array, true),
            Ask::Check(array) => (array, false),
        };
        with_actions(py, array, want, |slice| {
            let op = if step {
                Op::Step(slice)
            } else {
                Op::Check(slice)
            };
            lent(py, op, lend, run)
        })
    })
}

/// `op` run (`run`) on the arrays `lend` lends, with the GIL released; the phases played.
pub(super) fn lent<B: Send>(
    py: Python<'_>,
    op: Op<'_>,
    lend: impl FnOnce() -> PyResult<B>,
    run: impl FnOnce(Op<'_>, B) -> Result<usize, EngineError> + Send,
) -> PyResult<usize> {
    let bufs = lend()?;
    Ok(py.allow_threads(move || run(op, bufs))?)
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
