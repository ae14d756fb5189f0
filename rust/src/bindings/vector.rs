//! `diplo._core.VectorEnv`: the vectorised environment ([`crate::engine::vector`]) with its
//! output buffers as NumPy arrays (the `numpy` crate), allocated once and filled in place by
//! every `reset` and `step`, the GIL released. Wrapped by `diplo.env.vector`, which shapes
//! actions into arrays (the engine checks them); NumPy is imported only when an environment is
//! made.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::any::AnyGame;
use super::arrays::{
    apply, arrays, asked, call, env_held, env_held_mut, size_of, threads, threads_of, Ask,
    EnvClass, Threads,
};
use super::handles::PyCodeGame;
use crate::engine::batched::Start;
use crate::engine::error::EngineError;
use crate::engine::mask::{Mask, Wide};
use crate::engine::vector::{Buffers, Config, VectorEnv};

/// An environment at its map's width (see `bindings::any`).
#[allow(clippy::large_enum_variant)]
enum AnyVector {
    W128(VectorEnv<u128>),
    W256(VectorEnv<Wide<4>>),
    W1024(VectorEnv<Wide<16>>),
}

/// `match` on an [`AnyVector`], binding `$v` to the environment of each width in turn.
macro_rules! on_vec {
    ($e:expr, $v:ident => $body:expr) => {
        match $e {
            AnyVector::W128($v) => $body,
            AnyVector::W256($v) => $body,
            AnyVector::W1024($v) => $body,
        }
    };
}

#[allow(clippy::too_many_arguments)]
fn make<M: Mask>(
    game: &crate::engine::phases::Game<M>,
    n: usize,
    first_year: u32,
    slots: usize,
    choices: usize,
    win: f32,
    draw: f32,
    keep_lists: bool,
) -> Result<VectorEnv<M>, EngineError> {
    let cfg = Config {
        start: Start {
            state: game.state.clone(),
            max_year: game.max_year,
        },
        first_year,
        slots,
        choices,
        win,
        draw,
        keep_lists,
    };
    VectorEnv::new(game.map, cfg, n)
}

/// The shape of every array: games, locations, channels, phase entries, powers, slots.
type Shape = (usize, usize, usize, usize, usize, usize);

arrays!(
    /// The environment's output arrays (`engine::vector::Buffers`).
    Arrays => Buffers,
    |z: Shape| {
        board("board"): PyArray3<i8> = [z.0, z.1, z.2],
        phase("phase"): PyArray2<i16> = [z.0, z.3],
        counts("legal_counts"): PyArray3<i16> = [z.0, z.4, z.5],
        rewards("rewards"): PyArray2<f32> = [z.0, z.4],
        terminated("terminated"): PyArray1<bool> = [z.0],
        truncated("truncated"): PyArray1<bool> = [z.0],
        centres("centres"): PyArray2<i16> = [z.0, z.4],
        alive("alive"): PyArray2<bool> = [z.0, z.4],
        winner("winner"): PyArray1<i8> = [z.0],
        steps("steps"): PyArray1<i32> = [z.0],
        episodes("episodes"): PyArray1<i32> = [z.0],
    }
);

/// N games stepped together (see `diplo.env.vector`).
#[pyclass(name = "VectorEnv", module = "diplo._core")]
pub struct PyVectorEnv {
    env: AnyVector,
    /// The threads a call spreads the games over.
    threads: Threads,
    arrays: Arrays,
}

impl EnvClass for PyVectorEnv {
    /// A reset, a step or a check of every game (see `arrays::call`).
    fn call(&mut self, py: Python<'_>, ask: Ask<'_, '_>) -> PyResult<usize> {
        let want = self.action_shape();
        let (env, arrays, threads) = (&mut self.env, &self.arrays, self.threads.0);
        // SAFETY: `&mut self` holds the environment exclusively while the buffers live.
        let lend = || unsafe { arrays.lend(py) };
        call(
            py,
            ask,
            want,
            lend,
            move |op, bufs| on_vec!(env, e => apply(e, op, bufs, threads)),
        )
    }
}

impl PyVectorEnv {
    fn num_games(&self) -> usize {
        on_vec!(&self.env, e => e.games.len())
    }

    /// `(num_envs, powers, slots)`: the shape of an action.
    fn action_shape(&self) -> [usize; 3] {
        let (z, slots) = on_vec!(&self.env, e => (e.sizes(), e.setup.cfg.slots));
        [self.num_games(), z.powers, slots]
    }
}

#[pymethods]
impl PyVectorEnv {
    /// `num_envs` games starting from `start`'s position (its rules and year limit), `slots`
    /// slots of `choices` choices per power, rewards `win` and `draw` at the end of a game;
    /// `keep_lists`: keep every slot's legal list after each step (for `legal_codes` after
    /// every step), not only the counts.
    #[new]
    #[pyo3(signature = (start, num_envs, first_year, slots, choices, win=10.0, draw=10.0, threads=1, keep_lists=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        start: &Bound<'_, PyCodeGame>,
        num_envs: i64,
        first_year: i64,
        slots: i64,
        choices: i64,
        win: f64,
        draw: f64,
        threads: i64,
        keep_lists: bool,
    ) -> PyResult<Self> {
        let start = start.borrow();
        if start.game.over() {
            return Err(PyValueError::new_err("the start game is over"));
        }
        let n = size_of("num_envs", num_envs)?;
        let slots = size_of("slots", slots)?;
        let choices = size_of("choices", choices)?;
        if !win.is_finite() || !draw.is_finite() {
            return Err(PyValueError::new_err("win and draw must be finite numbers"));
        }
        let first_year = u32::try_from(first_year)
            .map_err(|_| PyValueError::new_err(format!("first_year {first_year} is not a year")))?;
        let (w, d, l) = (win as f32, draw as f32, keep_lists);
        let env = match &start.game {
            AnyGame::W128(g) => {
                make(g, n, first_year, slots, choices, w, d, l).map(AnyVector::W128)
            }
            AnyGame::W256(g) => {
                make(g, n, first_year, slots, choices, w, d, l).map(AnyVector::W256)
            }
            AnyGame::W1024(g) => {
                make(g, n, first_year, slots, choices, w, d, l).map(AnyVector::W1024)
            }
        }?;
        let (z, layout) = on_vec!(&env, e => (e.sizes(), e.setup.layout));
        let shape = (
            n,
            layout.locations,
            layout.channels,
            z.phase,
            z.powers,
            slots,
        );
        Ok(PyVectorEnv {
            threads: Threads(threads_of(threads)?),
            arrays: Arrays::zeros(py, shape),
            env,
        })
    }

    #[getter]
    fn num_envs(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(env_held(slf)?.num_games())
    }

    /// The output arrays by name (the same arrays after every call, filled in place).
    fn buffers<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyDict>> {
        env_held(slf)?.arrays.to_dict(slf.py())
    }

    /// The board columns' starts by name (`docs/env.md`), and `channels`, `locations`, `powers`.
    fn layout<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyDict>> {
        let py = slf.py();
        let this = env_held(slf)?;
        let l = &on_vec!(&this.env, e => e.setup.layout);
        let d = PyDict::new(py);
        for (name, v) in [
            ("locations", l.locations),
            ("powers", l.powers),
            ("channels", l.channels),
            ("owner", l.owner),
            ("dislodged", l.dislodged),
            ("dislodged_owner", l.dislodged_owner),
            ("centre", l.centre),
            ("centre_owner", l.centre_owner),
            ("home", l.home),
            ("prev_kind", l.prev_kind),
            ("prev_success", l.prev_success),
            ("prev_target", l.prev_target),
        ] {
            d.set_item(name, v)?;
        }
        Ok(d)
    }

    /// Starts every game again from the start position.
    fn reset(slf: &Bound<'_, Self>) -> PyResult<()> {
        asked(slf, Ask::Reset).map(drop)
    }

    /// Plays one phase of every game with `actions`, a C-contiguous `int64` array of shape
    /// `(num_envs, powers, slots)`; returns the number of phases played (games restarted by the
    /// autoreset are not counted). Refused actions change nothing.
    fn step(slf: &Bound<'_, Self>, actions: &Bound<'_, PyAny>) -> PyResult<usize> {
        asked(slf, Ask::Step(actions))
    }

    /// Refuses with `ValueError` (the words of `step`) an action `step` would refuse, playing
    /// nothing: the engine's one check of an action (every entry in `-1..K`).
    fn check_actions(slf: &Bound<'_, Self>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        asked(slf, Ask::Check(actions)).map(drop)
    }

    /// The threads a call spreads the games over (1 or more; more than 256 is 256), set to
    /// `count` first when given.
    #[pyo3(signature = (count=None))]
    fn threads(slf: &Bound<'_, Self>, count: Option<Threads>) -> PyResult<Threads> {
        threads(slf, count, |e| &mut e.threads)
    }

    /// Game `i`'s legal codes per power (map order) and slot: `[[codes, ...], ...]`.
    fn legal_codes<'py>(slf: &Bound<'py, Self>, i: usize) -> PyResult<Bound<'py, PyList>> {
        let py = slf.py();
        let this = env_held(slf)?;
        on_vec!(&this.env, env => {
            let all = env
                .legal(i)
                .ok_or_else(|| PyValueError::new_err(format!("no game {i}")))?;
            let lists: PyResult<Vec<Bound<'py, PyList>>> = all
                .iter()
                .map(|slots| {
                    let inner: PyResult<Vec<Bound<'py, PyList>>> = slots
                        .iter()
                        .map(|(codes, _)| PyList::new(py, codes.iter().copied()))
                        .collect();
                    PyList::new(py, inner?)
                })
                .collect();
            PyList::new(py, lists?)
        })
    }

    /// Game `i`'s slot keys per power and slot (a location name, or the power's name for a
    /// waive without a build site), as `CodeGame.slots` names them.
    fn slot_keys<'py>(slf: &Bound<'py, Self>, i: usize) -> PyResult<Bound<'py, PyList>> {
        let py = slf.py();
        let this = env_held(slf)?;
        on_vec!(&this.env, env => {
            let map = env.setup.map;
            let all = env
                .legal(i)
                .ok_or_else(|| PyValueError::new_err(format!("no game {i}")))?;
            let lists: PyResult<Vec<Bound<'py, PyList>>> = all
                .iter()
                .map(|slots| {
                    PyList::new(
                        py,
                        slots.iter().map(|(_, (key, is_power))| {
                            if *is_power {
                                map.power_name(*key as usize)
                            } else {
                                map.loc_name(*key as usize)
                            }
                        }),
                    )
                })
                .collect();
            PyList::new(py, lists?)
        })
    }

    /// A copy of game `i` as a `CodeGame` (changing it leaves the environment as it is).
    fn game(slf: &Bound<'_, Self>, i: usize) -> PyResult<PyCodeGame> {
        let this = env_held(slf)?;
        let none = || PyValueError::new_err(format!("no game {i}"));
        let game = match &this.env {
            AnyVector::W128(e) => AnyGame::W128(e.games.get(i).ok_or_else(none)?.game.clone()),
            AnyVector::W256(e) => AnyGame::W256(e.games.get(i).ok_or_else(none)?.game.clone()),
            AnyVector::W1024(e) => AnyGame::W1024(e.games.get(i).ok_or_else(none)?.game.clone()),
        };
        let mut game = game;
        crate::bindings::any::on_game!(&mut game, g => g.poisoned = false);
        Ok(PyCodeGame { game })
    }

    /// Test hook: the next step of game `i` panics inside the core.
    fn _poison(slf: &Bound<'_, Self>, i: usize) -> PyResult<()> {
        let mut this = env_held_mut(slf)?;
        let this = &mut *this;
        on_vec!(&mut this.env, env => {
            let e = env
                .games
                .get_mut(i)
                .ok_or_else(|| PyValueError::new_err(format!("no game {i}")))?;
            e.game.poisoned = true;
        });
        Ok(())
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let this = env_held(slf)?;
        Ok(format!(
            "<VectorEnv {} games, {} threads>",
            this.num_games(),
            this.threads.0
        ))
    }
}

/// Adds `VectorEnv` to `diplo._core`.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyVectorEnv>()
}
