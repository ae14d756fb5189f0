//! `diplo._core.DeepMindEnv`: N games in DeepMind's `DiplomacyState` protocol
//! ([`crate::engine::deepmind`]) with its output buffers as NumPy arrays, allocated once and
//! filled in place by every `reset` and `step`, the GIL released. Their encoding's tables come
//! from the Python side (`diplo.env.deepmind.batched`, through `diplo.engine.deepmind`). The
//! standard map only (their tables are), so one width.

use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyList};

use super::any::AnyGame;
use super::arrays::{busy, threads_of, with_actions};
use super::errors::guarded;
use super::handles::PyCodeGame;
use crate::engine::deepmind::{
    Buffers, Config, DeepMindEnv, Tables, AREAS, FEATURES, NO_ACTION, POWERS,
};
use crate::engine::error::EngineError;

/// N games in DeepMind's protocol (see `diplo.env.deepmind.batched`).
#[pyclass(name = "DeepMindEnv", module = "diplo._core")]
pub struct PyDeepMindEnv {
    env: DeepMindEnv<u128>,
    threads: usize,
    board: Py<PyArray3<f32>>,
    season: Py<PyArray1<i8>>,
    build_numbers: Py<PyArray2<i64>>,
    last_actions: Py<PyArray2<i64>>,
    last_counts: Py<PyArray1<i32>>,
    legal: Py<PyArray3<i64>>,
    legal_counts: Py<PyArray2<i32>>,
    returns: Py<PyArray2<f64>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    steps: Py<PyArray1<i32>>,
    episodes: Py<PyArray1<i32>>,
    /// Python's int of every action of their list, by index, made on first use: a legal list
    /// is made of them without an allocation per entry.
    ints: Vec<Py<PyAny>>,
}

/// What a call asks of the engine with the buffers borrowed.
enum Op<'a> {
    Reset,
    Step(&'a [i64]),
}

impl PyDeepMindEnv {
    /// Runs `op` on the engine with every buffer borrowed mutably, the GIL released.
    ///
    /// The buffers are lent without the `numpy` crate's borrow flags (taking and giving back
    /// twelve of them cost more than a one-game step itself): they are this object's own
    /// arrays, C-contiguous and never resized, and `&mut self` (PyO3's exclusive borrow of the
    /// object) means no other call of this object runs meanwhile. NumPy never consults those
    /// flags, so Python code reading the arrays from another thread during a step is no more
    /// excluded with them than without.
    fn with_buffers(&mut self, py: Python<'_>, op: Op<'_>) -> PyResult<Result<usize, EngineError>> {
        let board = self.board.bind(py);
        let season = self.season.bind(py);
        let numbers = self.build_numbers.bind(py);
        let last = self.last_actions.bind(py);
        let last_counts = self.last_counts.bind(py);
        let legal = self.legal.bind(py);
        let legal_counts = self.legal_counts.bind(py);
        let returns = self.returns.bind(py);
        let terminated = self.terminated.bind(py);
        let truncated = self.truncated.bind(py);
        let steps = self.steps.bind(py);
        let episodes = self.episodes.bind(py);
        // SAFETY: see above; each array is a distinct allocation, so the slices do not overlap.
        let bufs = unsafe {
            Buffers {
                board: board.as_slice_mut().map_err(busy)?,
                season: season.as_slice_mut().map_err(busy)?,
                build_numbers: numbers.as_slice_mut().map_err(busy)?,
                last_actions: last.as_slice_mut().map_err(busy)?,
                last_counts: last_counts.as_slice_mut().map_err(busy)?,
                legal: legal.as_slice_mut().map_err(busy)?,
                legal_counts: legal_counts.as_slice_mut().map_err(busy)?,
                returns: returns.as_slice_mut().map_err(busy)?,
                terminated: terminated.as_slice_mut().map_err(busy)?,
                truncated: truncated.as_slice_mut().map_err(busy)?,
                steps: steps.as_slice_mut().map_err(busy)?,
                episodes: episodes.as_slice_mut().map_err(busy)?,
            }
        };
        let env = &mut self.env;
        let threads = self.threads;
        Ok(py.allow_threads(move || match op {
            Op::Reset => env.reset(bufs, threads).map(|_| 0),
            Op::Step(actions) => env.step(actions, bufs, threads),
        }))
    }

    /// `(num_games, 7, max_orders)`: the shape of a step's actions.
    fn action_shape(&self) -> [usize; 3] {
        [self.env.games.len(), POWERS, self.env.cfg.max_orders]
    }
}

#[pymethods]
impl PyDeepMindEnv {
    /// `num_games` games from `start` (the standard map; its year limit), with their encoding's
    /// tables: `actions`, their list's low 32 bits by index; per location of the map its area
    /// byte, its province's area and its coast's area (255: none); per area its kind (0 land,
    /// 1 sea, 2 coast); per power of the map its place in their order. A power's row holds
    /// `max_actions` legal actions, a step `max_orders` actions per power.
    #[new]
    #[pyo3(signature = (start, num_games, actions, loc_byte, loc_main, loc_coast, area_kind, theirs, max_actions, max_orders, threads=1))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        start: &Bound<'_, PyCodeGame>,
        num_games: i64,
        actions: Vec<u32>,
        loc_byte: Vec<u8>,
        loc_main: Vec<u8>,
        loc_coast: Vec<u8>,
        area_kind: Vec<u8>,
        theirs: Vec<u8>,
        max_actions: i64,
        max_orders: i64,
        threads: i64,
    ) -> PyResult<Self> {
        let start = start.borrow();
        let AnyGame::W128(game) = &start.game else {
            return Err(PyValueError::new_err(
                "DeepMind's tables are the standard map's: the start must be a standard game",
            ));
        };
        if game.over {
            return Err(PyValueError::new_err("the start game is over"));
        }
        let count = |what: &str, v: i64| {
            usize::try_from(v)
                .ok()
                .filter(|&v| (1..=1 << 24).contains(&v))
                .ok_or_else(|| {
                    PyValueError::new_err(format!("{what} must be in 1..=2**24, got {v}"))
                })
        };
        let n = count("num_games", num_games)?;
        let max_actions = count("max_actions", max_actions)?;
        let max_orders = count("max_orders", max_orders)?;
        let threads = threads_of(threads)?;
        let tables = Tables::new(
            game.map, &actions, loc_byte, loc_main, loc_coast, area_kind, theirs,
        )?;
        let cfg = Config {
            start: game.state.clone(),
            max_year: game.max_year,
            max_actions,
            max_orders,
        };
        let env = DeepMindEnv::new(game.map, cfg, tables, n)?;
        let p = POWERS;
        Ok(PyDeepMindEnv {
            env,
            threads,
            board: PyArray3::zeros(py, [n, AREAS, FEATURES], false).unbind(),
            season: PyArray1::zeros(py, [n], false).unbind(),
            build_numbers: PyArray2::zeros(py, [n, p], false).unbind(),
            last_actions: PyArray2::zeros(py, [n, p * max_orders], false).unbind(),
            last_counts: PyArray1::zeros(py, [n], false).unbind(),
            legal: PyArray3::zeros(py, [n, p, max_actions], false).unbind(),
            legal_counts: PyArray2::zeros(py, [n, p], false).unbind(),
            returns: PyArray2::zeros(py, [n, p], false).unbind(),
            terminated: PyArray1::zeros(py, [n], false).unbind(),
            truncated: PyArray1::zeros(py, [n], false).unbind(),
            steps: PyArray1::zeros(py, [n], false).unbind(),
            episodes: PyArray1::zeros(py, [n], false).unbind(),
            ints: Vec::new(),
        })
    }

    #[getter]
    fn num_games(&self) -> usize {
        self.env.games.len()
    }

    #[getter]
    fn max_actions(&self) -> usize {
        self.env.cfg.max_actions
    }

    #[getter]
    fn max_orders(&self) -> usize {
        self.env.cfg.max_orders
    }

    #[getter]
    fn threads(&self) -> usize {
        self.threads
    }

    #[setter]
    fn set_threads(&mut self, threads: i64) -> PyResult<()> {
        self.threads = threads_of(threads)?;
        Ok(())
    }

    /// The output arrays by name (the same arrays after every call, filled in place).
    fn buffers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("board", self.board.bind(py))?;
        d.set_item("season", self.season.bind(py))?;
        d.set_item("build_numbers", self.build_numbers.bind(py))?;
        d.set_item("last_actions", self.last_actions.bind(py))?;
        d.set_item("last_counts", self.last_counts.bind(py))?;
        d.set_item("legal_actions", self.legal.bind(py))?;
        d.set_item("legal_counts", self.legal_counts.bind(py))?;
        d.set_item("returns", self.returns.bind(py))?;
        d.set_item("terminated", self.terminated.bind(py))?;
        d.set_item("truncated", self.truncated.bind(py))?;
        d.set_item("steps", self.steps.bind(py))?;
        d.set_item("episodes", self.episodes.bind(py))?;
        Ok(d)
    }

    /// Starts every game again from the start.
    fn reset(&mut self, py: Python<'_>) -> PyResult<()> {
        guarded(|| Ok(self.with_buffers(py, Op::Reset)?.map(|_| ())?))
    }

    /// Plays one phase of every game with `actions`, a C-contiguous `int64` array of shape
    /// `(num_games, 7, max_orders)` (-1: no action); returns the phases played. Refused
    /// actions (`ValueError` naming the game, the power and the action) change nothing.
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<usize> {
        guarded(|| {
            let want = self.action_shape();
            with_actions(py, actions, want, |slice| {
                Ok(self.with_buffers(py, Op::Step(slice))??)
            })
        })
    }

    /// Refuses with `ValueError` (the words of `step`) what `step` would refuse, playing nothing.
    fn check_actions(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        guarded(|| {
            let want = self.action_shape();
            let threads = self.threads;
            with_actions(py, actions, want, |slice| {
                Ok(self.env.check_actions(slice, threads)?)
            })
        })
    }

    /// `step` with every game's actions as lists (`per_game[g][p]`: the actions of their
    /// power `p`, in their order, at most `max_orders`; each an action of their list: no
    /// padding here, `-1` refused). Only Python lists of exact `int`s are read here (a `bool`,
    /// a NumPy integer, a float, a tuple...: `TypeError`, for the caller to check and convert
    /// them, `diplo.env.deepmind.batched`). Refused (`ValueError` naming the game, the power and
    /// the action) as `step` refuses, nothing played.
    fn step_lists(&mut self, py: Python<'_>, per_game: &Bound<'_, PyAny>) -> PyResult<usize> {
        guarded(|| {
            let [n, p, u] = self.action_shape();
            let not_plain = || PyTypeError::new_err("step_lists takes lists of lists of ints");
            let games = per_game.downcast::<PyList>().map_err(|_| not_plain())?;
            if games.len() != n {
                return Err(PyValueError::new_err(format!(
                    "expected the actions of {n} games, got {}",
                    games.len()
                )));
            }
            let mut flat = vec![NO_ACTION; n * p * u];
            for (g, lists) in games.iter().enumerate() {
                let lists = lists.downcast::<PyList>().map_err(|_| not_plain())?;
                if lists.len() != p {
                    return Err(PyValueError::new_err(format!(
                        "game {g}: expected {p} lists of actions (one per power), got {}",
                        lists.len()
                    )));
                }
                for (t, actions) in lists.iter().enumerate() {
                    let name = self.env.power_name(t);
                    let actions = actions.downcast::<PyList>().map_err(|_| not_plain())?;
                    if actions.len() > u {
                        return Err(PyValueError::new_err(format!(
                            "game {g}: {name}: {} actions, more than max_orders={u}",
                            actions.len()
                        )));
                    }
                    for (k, item) in actions.iter().enumerate() {
                        if !item.is_exact_instance_of::<PyInt>() {
                            return Err(not_plain());
                        }
                        match item.extract::<i64>() {
                            Ok(a) if a >= 0 => flat[(g * p + t) * u + k] = a,
                            _ => {
                                return Err(PyValueError::new_err(format!(
                                    "game {g}: {name}: action {item} is not in DeepMind's \
                                     list of possible actions"
                                )))
                            }
                        }
                    }
                }
            }
            Ok(self.with_buffers(py, Op::Step(&flat))??)
        })
    }

    /// Game `i`'s legal actions per power (their order), as lists of ints (Python's ints of
    /// their list made once, on first use, and shared).
    fn legal_actions<'py>(&mut self, py: Python<'py>, i: usize) -> PyResult<Bound<'py, PyList>> {
        let all = self
            .env
            .legal(i)
            .ok_or_else(|| PyValueError::new_err(format!("no game {i}")))?;
        if self.ints.is_empty() {
            let env = &self.env;
            self.ints = (0..env.action_count())
                .map(|k| {
                    Ok(env
                        .action_of_index(k)
                        .into_pyobject(py)?
                        .into_any()
                        .unbind())
                })
                .collect::<PyResult<_>>()?;
        }
        let ints = &self.ints;
        let lists: PyResult<Vec<Bound<'py, PyList>>> = all
            .iter()
            .map(|l| PyList::new(py, l.iter().map(|&a| ints[(a >> 48) as usize].bind(py))))
            .collect();
        PyList::new(py, lists?)
    }

    /// A copy of game `i` as a `CodeGame` (changing it leaves the environment as it is).
    fn game(&self, i: usize) -> PyResult<PyCodeGame> {
        let e = self
            .env
            .games
            .get(i)
            .ok_or_else(|| PyValueError::new_err(format!("no game {i}")))?;
        Ok(PyCodeGame {
            game: AnyGame::W128(e.game.clone()),
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "<DeepMindEnv {} games, {} threads>",
            self.env.games.len(),
            self.threads
        )
    }
}

/// Adds `DeepMindEnv` to `diplo._core`.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyDeepMindEnv>()
}
