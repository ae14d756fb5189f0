//! How the core fails in Python: the exception types it raises besides Python's built-in ones,
//! and the one panic guard every entry point runs in.
//!
//! The engine's errors ([`EngineError`]) become Python exceptions here, by their kind and in
//! this one place ([`to_py`], behind `impl From<EngineError> for PyErr`): a bad value, a number
//! out of range or a limit passed is `ValueError`, a refused entry of an action table
//! `ActionError` (a `ValueError`), a finished game `GameOverError`, an object another call holds
//! `InUseError` (a `RuntimeError`), a call the object's state does not allow, a step broken
//! part-way or a bug `RuntimeError`. An error about one item of a list or a table carries its
//! place as the exception's `index` attribute. No caller picks a class, or finds a place, by
//! reading an error's text.
//!
//! An object borrowed by another call (PyO3's borrow flag: a `process_batch` holding its games on
//! another thread, or a call re-entered from a callback) is refused by [`held`] and
//! [`held_mut`], as `InUseError`, never PyO3's own "Already mutably borrowed".
//!
//! `GameOverError`, `InUseError` and `ActionError` are defined here once and re-exported by the
//! Python package (`diplo.GameOverError`, `diplo.engine.codes.InUseError`,
//! `diplo.engine.codes.ActionError`), so that the core never imports a Python module to raise an
//! error. Malformed input raises `ValueError` naming the problem; a panic
//! (a bug) is caught by [`guarded`] and raised as `RuntimeError`, so no panic ever crosses into
//! Python.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use pyo3::PyClass;

use crate::engine::batch::panic_message;
use crate::engine::error::{EngineError, ErrorKind};
use crate::engine::phases::forget_scratch;

pyo3::create_exception!(
    diplo,
    GameOverError,
    PyRuntimeError,
    "An action that needs a running game was asked of a game that has ended."
);

pyo3::create_exception!(
    diplo,
    InUseError,
    PyRuntimeError,
    "An object of the core (a CodeGame, a RolloutPlayer, a VectorEnv or a DeepMindEnv) asked \
     for by one call while another holds it: a process_batch or an environment's step running \
     on another thread, or a call re-entered from a callback of the one holding it. `index`: the object's place in the list the refusing call was given \
     (process_batch's games), or None."
);

pyo3::create_exception!(
    diplo,
    ActionError,
    PyValueError,
    "An entry of an action table outside the action space; `index`: its place, (game, power, \
     slot)."
);

/// The Python exception of an engine error, by its kind (see the module documentation); the
/// message is the error's own, and the place of the item it is about, if any, its `index`
/// (always set on `InUseError` and `ActionError`: `None` when there is none).
pub(crate) fn to_py(e: EngineError) -> PyErr {
    let message = e.message().to_owned();
    let err = match e.kind() {
        ErrorKind::Invalid | ErrorKind::OutOfRange | ErrorKind::Limit => {
            PyValueError::new_err(message)
        }
        ErrorKind::Action => ActionError::new_err(message),
        ErrorKind::GameOver => GameOverError::new_err(message),
        ErrorKind::InUse => InUseError::new_err(message),
        ErrorKind::WrongState | ErrorKind::Broken | ErrorKind::Internal => {
            PyRuntimeError::new_err(message)
        }
    };
    if e.index().is_some() || matches!(e.kind(), ErrorKind::InUse | ErrorKind::Action) {
        Python::with_gil(|py| {
            let index = match e.index() {
                None => py.None(),
                Some([i]) => i
                    .into_pyobject(py)
                    .map_or_else(|_| py.None(), |i| i.into_any().unbind()),
                Some(at) => {
                    PyTuple::new(py, at).map_or_else(|_| py.None(), |t| t.into_any().unbind())
                }
            };
            // An exception instance takes attributes; failing that, the message still names it.
            let _ = err.value(py).setattr("index", index);
        });
    }
    err
}

/// `slf` borrowed for a call that reads it, or `InUseError` (`message`) when another call holds
/// it mutably.
pub(crate) fn held<'py, T: PyClass>(slf: &Bound<'py, T>, message: &str) -> PyResult<PyRef<'py, T>> {
    slf.try_borrow()
        .map_err(|_| to_py(EngineError::in_use(message)))
}

/// `slf` borrowed for a call that changes it, or `InUseError` (`message`) when another call
/// holds it.
pub(crate) fn held_mut<'py, T: PyClass<Frozen = pyo3::pyclass::boolean_struct::False>>(
    slf: &Bound<'py, T>,
    message: &str,
) -> PyResult<PyRefMut<'py, T>> {
    slf.try_borrow_mut()
        .map_err(|_| to_py(EngineError::in_use(message)))
}

impl From<EngineError> for PyErr {
    fn from(e: EngineError) -> PyErr {
        to_py(e)
    }
}

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
                "internal error in the diplo {part}: {}{}",
                panic_message(payload.as_ref()),
                panic_place()
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

/// The same guard around pure Rust work run with the GIL released; its error becomes the
/// Python exception of its kind ([`to_py`]).
fn guarded_without_gil<T: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> Result<T, EngineError> + Send,
) -> PyResult<T> {
    without_gil(py, || catching("core", || work().map_err(to_py)))
}

/// Threads of this process that have finished their work in [`without_gil`] and are taking the
/// GIL back, and whether the interpreter is shutting down (set by [`_at_exit`]).
struct Released {
    returning: usize,
    exiting: bool,
    /// The process the count is of (a forked child starts from none).
    pid: u32,
}

static RELEASED: Mutex<Released> = Mutex::new(Released {
    returning: 0,
    exiting: false,
    pid: 0,
});
/// Signalled when a thread has taken the GIL back.
static RETURNED: Condvar = Condvar::new();

fn released() -> MutexGuard<'static, Released> {
    let mut r = RELEASED.lock().unwrap_or_else(|e| e.into_inner());
    let pid = std::process::id();
    if r.pid != pid {
        r.pid = pid;
        r.returning = 0;
    }
    r
}

/// Runs `f` with the GIL released (as `Python::allow_threads`), safely at interpreter exit.
///
/// At exit CPython ends a daemon thread that asks for the GIL back by `pthread_exit`, a forced
/// unwind, which aborts the process when it meets a Rust frame (a `catch_unwind`, or the
/// `extern "C"` trampoline of every binding). So no thread asks for the GIL back once the
/// interpreter is shutting down: [`_at_exit`], an `atexit` callback, marks the shutdown and
/// waits (the GIL released) for the threads already taking the GIL back; a thread that finishes
/// its work after the mark parks for good instead (the process is ending). Once the mark is set,
/// `f` runs with the GIL held. `f` must not call into Python.
pub(crate) fn without_gil<T>(py: Python<'_>, f: impl FnOnce() -> T) -> T {
    if released().exiting {
        return f();
    }
    // SAFETY: the thread holds the GIL (`py`); it is taken back below before `py` is used
    // again, and `f` does not touch Python (its contract).
    let state = unsafe { ffi::PyEval_SaveThread() };
    let out = catch_unwind(AssertUnwindSafe(f));
    {
        let mut r = released();
        if r.exiting {
            // Asking for the GIL now would end this thread by a forced unwind: park instead.
            drop(r);
            loop {
                std::thread::park();
            }
        }
        r.returning += 1;
    }
    // SAFETY: `state` is this thread's, saved above; the shutdown was not marked when this
    // thread was counted, and `_at_exit` waits for the threads counted.
    unsafe { ffi::PyEval_RestoreThread(state) };
    released().returning -= 1;
    RETURNED.notify_all();
    let _ = py;
    match out {
        Ok(v) => v,
        Err(payload) => resume_unwind(payload),
    }
}

/// The `atexit` callback of `diplo._core` (registered on import, not a module attribute): see
/// [`without_gil`].
#[pyfunction]
fn _at_exit(py: Python<'_>) {
    released().exiting = true;
    // SAFETY: the GIL is held (`py`) and taken back before returning; nothing here touches
    // Python while it is released. atexit callbacks run before the interpreter finalizes, so
    // taking the GIL back is safe.
    let state = unsafe { ffi::PyEval_SaveThread() };
    {
        let mut r = released();
        while r.returning > 0 {
            r = RETURNED.wait(r).unwrap_or_else(|e| e.into_inner());
        }
    }
    // SAFETY: as above.
    unsafe { ffi::PyEval_RestoreThread(state) };
    let _ = py;
}

thread_local! {
    /// Where the last panic on this thread happened (`file:line`), for the guard's message.
    static PANIC_AT: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Installs the panic hook of `diplo._core`: a panic is reported once, by the guard that
/// catches it (`RuntimeError`, with where it happened), not also printed to standard error by
/// Rust's default hook; with `DIPLO_PANIC_TRACE` set (debugging the core) the default hook
/// prints it too.
fn install_quiet_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let at = info
                .location()
                .map(|l| format!("{}:{}", l.file(), l.line()));
            let _ = PANIC_AT.try_with(|cell| {
                if let Ok(mut slot) = cell.try_borrow_mut() {
                    *slot = at;
                }
            });
            if std::env::var_os("DIPLO_PANIC_TRACE").is_some() {
                default(info);
            }
        }));
    });
}

/// Where the panic just caught on this thread happened, as `" (at file:line)"`, or nothing.
pub(crate) fn panic_place() -> String {
    PANIC_AT
        .try_with(|cell| cell.try_borrow_mut().ok().and_then(|mut s| s.take()))
        .ok()
        .flatten()
        .map(|at| format!(" (at {at})"))
        .unwrap_or_default()
}

/// Panics inside the guard, so that a test can prove a panic arrives in Python as
/// `RuntimeError` (it is not part of the API).
#[pyfunction]
fn _panic_for_test(py: Python<'_>, message: String) -> PyResult<()> {
    guarded_without_gil(py, move || -> Result<(), EngineError> {
        panic!("{message}")
    })
}

/// Test hook: the next guarded call (any thread) panics on entry, so tests can prove each entry
/// point turns a panic into `RuntimeError`.
#[pyfunction]
fn _panic_in_next_call() {
    PANIC_NEXT.store(true, Ordering::Relaxed);
}

/// Adds the exception types and the test hooks to `diplo._core`.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    install_quiet_hook();
    m.py()
        .import("atexit")?
        .call_method1("register", (wrap_pyfunction!(_at_exit, m)?,))?;
    m.add("GameOverError", m.py().get_type::<GameOverError>())?;
    m.add("InUseError", m.py().get_type::<InUseError>())?;
    m.add("ActionError", m.py().get_type::<ActionError>())?;
    m.add_function(wrap_pyfunction!(_panic_for_test, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_in_next_call, m)?)
}
