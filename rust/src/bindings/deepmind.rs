//! `diplo._core.DeepMindEnv`: N games in DeepMind's `DiplomacyState` protocol
//! ([`crate::engine::deepmind`]) with its output buffers as NumPy arrays, allocated once and
//! filled in place by every `reset` and `step`, the GIL released. Their encoding's tables come
//! from the Python side (`diplo.env.deepmind.batched`, through `diplo.engine.deepmind`). The
//! standard map only (their tables are), so one width.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyList};

use super::any::AnyGame;
use super::arrays::{
    apply, arrays, asked, call, env_held, env_held_mut, lent, size_of, threads, threads_of, Ask,
    EnvClass, Op, Threads,
};
use super::errors::guarded;
use super::handles::PyCodeGame;
use crate::engine::batched::Start;
use crate::engine::deepmind::{
    Buffers, Config, DeepMindEnv, Tables, AREAS, FEATURES, NO_ACTION, POWERS,
};

/// The shape of every array: games, legal actions and actions per power.
type Shape = (usize, usize, usize);

arrays!(
    /// The environment's output arrays (`engine::deepmind::Buffers`).
    Arrays => Buffers,
    |z: Shape| {
        board("board"): PyArray3<f32> = [z.0, AREAS, FEATURES],
        season("season"): PyArray1<i8> = [z.0],
        build_numbers("build_numbers"): PyArray2<i64> = [z.0, POWERS],
        last_actions("last_actions"): PyArray2<i64> = [z.0, POWERS * z.2],
        last_counts("last_counts"): PyArray1<i32> = [z.0],
        legal("legal_actions"): PyArray3<i64> = [z.0, POWERS, z.1],
        legal_counts("legal_counts"): PyArray2<i32> = [z.0, POWERS],
        returns("returns"): PyArray2<f64> = [z.0, POWERS],
        terminated("terminated"): PyArray1<bool> = [z.0],
        truncated("truncated"): PyArray1<bool> = [z.0],
        steps("steps"): PyArray1<i32> = [z.0],
        episodes("episodes"): PyArray1<i32> = [z.0],
    }
);

/// N games in DeepMind's protocol (see `diplo.env.deepmind.batched`).
#[pyclass(name = "DeepMindEnv", module = "diplo._core")]
pub struct PyDeepMindEnv {
    env: DeepMindEnv<u128>,
    /// The threads a call spreads the games over.
    threads: Threads,
    arrays: Arrays,
    /// Python's int of every action of their list, by index, made on first use: a legal list
    /// is made of them without an allocation per entry.
    ints: Vec<Py<PyAny>>,
}

impl EnvClass for PyDeepMindEnv {
    /// A reset, a step or a check of every game (see `arrays::call`).
    fn call(&mut self, py: Python<'_>, ask: Ask<'_, '_>) -> PyResult<usize> {
        let want = self.action_shape();
        let (env, arrays, threads) = (&mut self.env, &self.arrays, self.threads.0);
        // SAFETY: `&mut self` holds the environment exclusively while the buffers live.
        call(
            py,
            ask,
            want,
            || unsafe { arrays.lend(py) },
            move |op, bufs| apply(env, op, bufs, threads),
        )
    }
}

impl PyDeepMindEnv {
    /// `(num_games, 7, max_orders)`: the shape of a step's actions.
    fn action_shape(&self) -> [usize; 3] {
        [self.env.games.len(), POWERS, self.env.setup.cfg.max_orders]
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
        let n = size_of("num_games", num_games)?;
        let max_actions = size_of("max_actions", max_actions)?;
        let max_orders = size_of("max_orders", max_orders)?;
        let tables = Tables::new(
            game.map, &actions, loc_byte, loc_main, loc_coast, area_kind, theirs,
        )?;
        let cfg = Config {
            start: Start {
                state: game.state.clone(),
                max_year: game.max_year,
            },
            max_actions,
            max_orders,
        };
        let env = DeepMindEnv::new(game.map, cfg, tables, n)?;
        Ok(PyDeepMindEnv {
            env,
            threads: Threads(threads_of(threads)?),
            arrays: Arrays::zeros(py, (n, max_actions, max_orders)),
            ints: Vec::new(),
        })
    }

    #[getter]
    fn num_games(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(env_held(slf)?.env.games.len())
    }

    #[getter]
    fn max_actions(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(env_held(slf)?.env.setup.cfg.max_actions)
    }

    #[getter]
    fn max_orders(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(env_held(slf)?.env.setup.cfg.max_orders)
    }

    /// The threads a call spreads the games over (1 or more; more than 256 is 256), set to
    /// `count` first when given.
    #[pyo3(signature = (count=None))]
    fn threads(slf: &Bound<'_, Self>, count: Option<Threads>) -> PyResult<Threads> {
        threads(slf, count, |e| &mut e.threads)
    }

    /// The output arrays by name (the same arrays after every call, filled in place).
    fn buffers<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyDict>> {
        env_held(slf)?.arrays.to_dict(slf.py())
    }

    /// Starts every game again from the start.
    fn reset(slf: &Bound<'_, Self>) -> PyResult<()> {
        asked(slf, Ask::Reset).map(drop)
    }

    /// Plays one phase of every game with `actions`, a C-contiguous `int64` array of shape
    /// `(num_games, 7, max_orders)` (-1: no action); returns the phases played. Refused
    /// actions (`ValueError` naming the game, the power and the action) change nothing.
    fn step(slf: &Bound<'_, Self>, actions: &Bound<'_, PyAny>) -> PyResult<usize> {
        asked(slf, Ask::Step(actions))
    }

    /// `step` with every game's actions as lists (`per_game[g][p]`: the actions of their
    /// power `p`, in their order, at most `max_orders`; each an action of their list: no
    /// padding here, `-1` refused). Only Python lists of exact `int`s are read here (a `bool`,
    /// a NumPy integer, a float, a tuple...: `TypeError`, for the caller to check and convert
    /// them, `diplo.env.deepmind.batched`). Refused (`ValueError` naming the game, the power and
    /// the action) as `step` refuses, nothing played.
    fn step_lists(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        per_game: &Bound<'_, PyAny>,
    ) -> PyResult<usize> {
        let mut this = env_held_mut(slf)?;
        let this = &mut *this;
        guarded(|| {
            let [n, p, u] = this.action_shape();
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
                    let name = this.env.power_name(t);
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
            let (env, arrays, threads) = (&mut this.env, &this.arrays, this.threads.0);
            // SAFETY: as in `call`.
            let lend = || unsafe { arrays.lend(py) };
            lent(py, Op::Step(&flat), lend, move |op, bufs| {
                apply(env, op, bufs, threads)
            })
        })
    }

    /// Refuses with `ValueError` (the words of `step`) what `step` would refuse, playing nothing.
    fn check_actions(slf: &Bound<'_, Self>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        asked(slf, Ask::Check(actions)).map(drop)
    }

    /// Game `i`'s legal actions per power (their order), as lists of ints (Python's ints of
    /// their list made once, on first use, and shared).
    fn legal_actions<'py>(slf: &Bound<'py, Self>, i: usize) -> PyResult<Bound<'py, PyList>> {
        let py = slf.py();
        let mut this = env_held_mut(slf)?;
        let this = &mut *this;
        let all = this
            .env
            .legal(i)
            .ok_or_else(|| PyValueError::new_err(format!("no game {i}")))?;
        if this.ints.is_empty() {
            let env = &this.env;
            this.ints = (0..env.action_count())
                .map(|k| {
                    Ok(env
                        .action_of_index(k)
                        .into_pyobject(py)?
                        .into_any()
                        .unbind())
                })
                .collect::<PyResult<_>>()?;
        }
        let ints = &this.ints;
        let lists: PyResult<Vec<Bound<'py, PyList>>> = all
            .iter()
            .map(|l| PyList::new(py, l.iter().map(|&a| ints[(a >> 48) as usize].bind(py))))
            .collect();
        PyList::new(py, lists?)
    }

    /// A copy of game `i` as a `CodeGame` (changing it leaves the environment as it is).
    fn game(slf: &Bound<'_, Self>, i: usize) -> PyResult<PyCodeGame> {
        let this = env_held(slf)?;
        let e = this
            .env
            .games
            .get(i)
            .ok_or_else(|| PyValueError::new_err(format!("no game {i}")))?;
        Ok(PyCodeGame {
            game: AnyGame::W128(e.game.clone()),
        })
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let this = env_held(slf)?;
        Ok(format!(
            "<DeepMindEnv {} games, {} threads>",
            this.env.games.len(),
            this.threads.0
        ))
    }
}

/// Adds `DeepMindEnv` to `diplo._core`.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyDeepMindEnv>()
}
