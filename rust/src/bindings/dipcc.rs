//! `diplo._core.DipccEncoder`: dipcc's encoders ([`crate::engine::dipcc_encode`]) over a
//! batch of packed games, writing into NumPy arrays the caller allocated, the GIL released
//! and the games spread over threads. Wrapped by `diplo.engine.dipcc` for
//! `diplo.compat.dipcc.encoding` (the `ThreadPool` drop-in). Also the drop-in's phases on the
//! engine (`diplo.compat.dipcc.state`): a board's possible orders kept as bytes, the staged
//! orders ruled as dipcc's `process` rules them and given the engine's codes, the engine's
//! `CodeGame` of a board made (`engine_game`) and a phase played on it (`step`).

use numpy::{
    PyArray1, PyArray2, PyArray3, PyArray4, PyArrayMethods, PyReadwriteArray, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use super::any::{new_game, on_game};
use super::arrays::busy;
use super::errors::{guarded, held, without_gil};
use super::handles::PyCodeGame;
use super::process::{game_over, process_checked};
use crate::engine::batch::on_pool;
use crate::engine::dipcc_encode::{
    encode_board, engine_code, listed_bytes, rule_staged, width, Board, BoardSpec, CandidatesOut,
    DOrder, EncodeError, Encoder, Packed, Possible, StateOut, Vocabulary, MAX_SEQ_LEN, MOVE,
    N_LOCS, N_POWERS, N_SCS, ORDERS_WIDTH,
};
use crate::engine::game_map::Bits;
use crate::engine::phases::{recycle_outcome, spare_outcome};
use crate::engine::state::State;

/// Why a `CodeGame` another call holds is refused (`InUseError`).
const IN_USE: &str = "this CodeGame is in use by another thread: use a CodeGame from one thread \
                      at a time (docs/design.md, 'Threads')";

/// One order as Python's `DipccOrder` tuple.
type OrderTuple = (u8, u8, u8, u8, u8, u8, bool);

fn order_of(t: OrderTuple) -> PyResult<DOrder> {
    let o = DOrder {
        unit_type: t.0,
        unit_loc: t.1,
        kind: t.2,
        target_type: t.3,
        target_loc: t.4,
        dest: t.5,
        via: t.6,
    };
    let loc = |c: u8| c as usize <= N_LOCS;
    if !(1..=2).contains(&o.unit_type)
        || o.unit_loc == 0
        || !loc(o.unit_loc)
        || !(1..=8).contains(&o.kind)
        || o.target_type > 2
        || !loc(o.target_loc)
        || !loc(o.dest)
    {
        return Err(PyValueError::new_err(format!("bad order tuple {t:?}")));
    }
    Ok(o)
}

fn to_py(e: EncodeError) -> PyErr {
    match e {
        EncodeError::Value(m) => PyValueError::new_err(m),
        EncodeError::Runtime(m) => PyRuntimeError::new_err(m),
    }
}

fn check_version(v: u8) -> PyResult<u8> {
    if (1..=3).contains(&v) {
        Ok(v)
    } else {
        Err(PyValueError::new_err(format!(
            "Unknown input version {v} (dipcc's are 1, 2 and 3)"
        )))
    }
}

/// The array borrowed for writing (the `numpy` crate's borrow check refuses an array, or a
/// view of it, lent twice), after checking its shape and layout.
fn writable<'py, T: numpy::Element, D: numpy::ndarray::Dimension>(
    name: &str,
    array: &Bound<'py, numpy::PyArray<T, D>>,
    want: &[usize],
) -> PyResult<PyReadwriteArray<'py, T, D>> {
    if array.shape() != want {
        return Err(PyValueError::new_err(format!(
            "{name}: expected shape {want:?}, got {:?}",
            array.shape()
        )));
    }
    if !array.is_c_contiguous() {
        return Err(PyValueError::new_err(format!("{name}: not C-contiguous")));
    }
    array.try_readwrite().map_err(|_| {
        PyValueError::new_err(format!(
            "{name}: the array is borrowed elsewhere (an output array given twice?)"
        ))
    })
}

/// The slice of a borrowed, C-contiguous array.
fn slice<'a, T: numpy::Element, D: numpy::ndarray::Dimension>(
    guard: &'a mut PyReadwriteArray<'_, T, D>,
) -> PyResult<&'a mut [T]> {
    guard.as_slice_mut().map_err(busy)
}

/// Runs `f` on every game, on up to `threads` threads (the calling thread and the engine's
/// pool of waiting threads, `crate::engine::batch::on_pool`, or threads of its own when another
/// call has the pool), the games handed out one at a time from a shared counter, and returns
/// the first error in game order. One thread works the games in turn and stops at the first
/// error. Starting threads for each call, as dipcc's pool does not, cost more than a small
/// batch's encoding on a busy machine.
fn spread<W: Send>(
    work: Vec<W>,
    threads: usize,
    f: impl Fn(W) -> Result<(), EncodeError> + Sync,
) -> Result<(), EncodeError> {
    let n = work.len();
    let threads = threads.clamp(1, n.max(1));
    if threads == 1 {
        for w in work {
            f(w)?;
        }
        return Ok(());
    }
    let items: Vec<Mutex<Option<W>>> = work.into_iter().map(|w| Mutex::new(Some(w))).collect();
    let next = AtomicUsize::new(0);
    let failure: Mutex<Option<(usize, EncodeError)>> = Mutex::new(None);
    let take = || loop {
        let k = next.fetch_add(1, Ordering::Relaxed);
        if k >= n {
            return;
        }
        let Some(w) = lock(&items[k]).take() else {
            continue;
        };
        let r = catch_unwind(AssertUnwindSafe(|| f(w))).unwrap_or_else(|_| {
            Err(EncodeError::Runtime(
                "a thread of the encoder panicked".into(),
            ))
        });
        if let Err(e) = r {
            let mut first = lock(&failure);
            if first.as_ref().is_none_or(|(h, _)| k < *h) {
                *first = Some((k, e));
            }
        }
    };
    if !on_pool(threads - 1, &take, take) {
        std::thread::scope(|scope| {
            for _ in 1..threads {
                scope.spawn(take);
            }
            take();
        });
    }
    match failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some((_, e)) => Err(e),
        None => Ok(()),
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// dipcc's encoders over the caller's vocabulary (`diplo.engine.dipcc.CoreDipccEncoder`).
#[pyclass(name = "DipccEncoder", module = "diplo._core", frozen)]
pub struct PyDipccEncoder {
    enc: Encoder,
    threads: usize,
}

#[pymethods]
impl PyDipccEncoder {
    /// The board's tables (by location code 0 to 81, from `diplo.compat.dipcc.board.board()`),
    /// the vocabulary (each entry's orders as `DipccOrder` tuples, with its index) and the
    /// thread count.
    #[new]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (names, root, coasts, water, centers, army_adjacent, fleet_adjacent,
        army_adjacent_all, fleet_adjacent_all, homes, army_builds, fleet_builds, vocabulary,
        threads))]
    fn new(
        names: Vec<String>,
        root: Vec<u8>,
        coasts: Vec<Vec<u8>>,
        water: Vec<u8>,
        centers: Vec<u8>,
        army_adjacent: Vec<Vec<u8>>,
        fleet_adjacent: Vec<Vec<u8>>,
        army_adjacent_all: Vec<Vec<u8>>,
        fleet_adjacent_all: Vec<Vec<u8>>,
        homes: Vec<Vec<u8>>,
        army_builds: Vec<Vec<u8>>,
        fleet_builds: Vec<Vec<u8>>,
        vocabulary: Vec<(Vec<OrderTuple>, i32)>,
        threads: i64,
    ) -> PyResult<Self> {
        guarded(|| {
            let board = Board::new(BoardSpec {
                names,
                root,
                coasts,
                water,
                centers,
                army_adjacent,
                fleet_adjacent,
                army_adjacent_all,
                fleet_adjacent_all,
                homes,
                army_builds,
                fleet_builds,
            })
            .map_err(|m| PyValueError::new_err(format!("dipcc board: {m}")))?;
            let mut vocab = Vocabulary::default();
            for (orders, idx) in vocabulary {
                if idx < 0 || orders.is_empty() {
                    return Err(PyValueError::new_err(format!(
                        "order vocabulary: bad entry {idx}"
                    )));
                }
                let orders = orders
                    .into_iter()
                    .map(order_of)
                    .collect::<PyResult<Vec<_>>>()?;
                vocab.add(orders, idx);
            }
            let threads = usize::try_from(threads.clamp(1, 256)).unwrap_or(1);
            Ok(PyDipccEncoder {
                enc: Encoder {
                    board,
                    vocabulary: vocab,
                },
                threads,
            })
        })
    }

    /// The board-state encodings of `n` packed games into `out`, `(n, 81, width)` float32.
    fn board_states(
        &self,
        py: Python<'_>,
        packed: &[u8],
        n: usize,
        version: u8,
        out: &Bound<'_, PyArray3<f32>>,
    ) -> PyResult<()> {
        guarded(|| {
            let version = check_version(version)?;
            let w = width(version);
            let games = Packed::read_batch(packed, n).map_err(PyValueError::new_err)?;
            let mut guard = writable("out", out, &[n, N_LOCS, w])?;
            let out = slice(&mut guard)?;
            let b = &self.enc.board;
            let none = Possible::none();
            let work = |g: &Packed, rows: &mut [f32]| {
                let s = &g.state;
                if s.kind == b'A' {
                    encode_board(b, s, &s.possible(b), version, rows);
                } else {
                    encode_board(b, s, &none, version, rows);
                }
            };
            if n <= 4 {
                // one game or a few: no point in releasing the GIL
                for (g, rows) in games.iter().zip(out.chunks_mut(N_LOCS * w)) {
                    work(g, rows);
                }
                return Ok(());
            }
            let items: Vec<(&Packed, &mut [f32])> =
                games.iter().zip(out.chunks_mut(N_LOCS * w)).collect();
            without_gil(py, || {
                spread(items, self.threads, |(g, rows)| {
                    work(g, rows);
                    Ok(())
                })
            })
            .map_err(to_py)
        })
    }

    /// Every field of `encode_inputs_state_only_multi` for `n` packed games, and with
    /// `actions`/`loc_idxs` (and `powers`, the all-powers form) the candidates of
    /// `encode_inputs_multi` / `encode_inputs_all_powers_multi`. The arrays are the caller's,
    /// of dipcc's shapes, their contents not read (every element is written).
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (packed, n, version, board_state, prev_state, prev_orders, season, year,
        in_adj, builds, scoring, actions=None, loc_idxs=None, powers=None))]
    fn encode(
        &self,
        py: Python<'_>,
        packed: &[u8],
        n: usize,
        version: u8,
        board_state: &Bound<'_, PyArray3<f32>>,
        prev_state: &Bound<'_, PyArray3<f32>>,
        prev_orders: &Bound<'_, PyArray3<i64>>,
        season: &Bound<'_, PyArray2<f32>>,
        year: &Bound<'_, PyArray2<f32>>,
        in_adj: &Bound<'_, PyArray1<f32>>,
        builds: &Bound<'_, PyArray2<f32>>,
        scoring: &Bound<'_, PyArray2<f32>>,
        actions: Option<&Bound<'_, PyArray4<i32>>>,
        loc_idxs: Option<&Bound<'_, PyArray3<i8>>>,
        powers: Option<&Bound<'_, PyArray3<i64>>>,
    ) -> PyResult<()> {
        guarded(|| {
            let version = check_version(version)?;
            let w = width(version);
            let games = Packed::read_batch(packed, n).map_err(PyValueError::new_err)?;
            let mut g_board = writable("x_board_state", board_state, &[n, N_LOCS, w])?;
            let mut g_prev = writable("x_prev_state", prev_state, &[n, N_LOCS, w])?;
            let mut g_orders = writable("x_prev_orders", prev_orders, &[n, 2, ORDERS_WIDTH])?;
            let mut g_season = writable("x_season", season, &[n, 3])?;
            let mut g_year = writable("x_year_encoded", year, &[n, 1])?;
            let mut g_adj = writable("x_in_adj_phase", in_adj, &[n])?;
            let mut g_builds = writable("x_build_numbers", builds, &[n, N_POWERS])?;
            let mut g_scoring = writable("x_scoring_system", scoring, &[n, 2])?;
            let steps = if powers.is_some() { N_SCS } else { MAX_SEQ_LEN };
            let mut cands = 0usize;
            let mut g_cands = None;
            if let (Some(actions), Some(loc_idxs)) = (actions, loc_idxs) {
                cands = actions.shape().get(3).copied().unwrap_or(0);
                let a = writable("x_possible_actions", actions, &[n, N_POWERS, steps, cands])?;
                let l = writable("x_loc_idxs", loc_idxs, &[n, N_POWERS, N_LOCS])?;
                let p = match powers {
                    Some(p) => Some(writable("x_power", p, &[n, N_POWERS, N_SCS])?),
                    None => None,
                };
                g_cands = Some((a, l, p));
            } else if actions.is_some() || loc_idxs.is_some() || powers.is_some() {
                return Err(PyValueError::new_err(
                    "actions and loc_idxs go together (and powers with them)",
                ));
            }
            let board_state = slice(&mut g_board)?;
            let prev_state = slice(&mut g_prev)?;
            let prev_orders = slice(&mut g_orders)?;
            let season = slice(&mut g_season)?;
            let year = slice(&mut g_year)?;
            let in_adj = slice(&mut g_adj)?;
            let builds = slice(&mut g_builds)?;
            let scoring = slice(&mut g_scoring)?;
            let cand_slices = match g_cands.as_mut() {
                Some((a, l, p)) => Some((
                    slice(a)?,
                    slice(l)?,
                    match p.as_mut() {
                        Some(p) => Some(slice(p)?),
                        None => None,
                    },
                )),
                None => None,
            };
            type Item<'a> = (&'a Packed, StateOut<'a>, Option<CandidatesOut<'a>>);
            let mut items: Vec<Item<'_>> = Vec::with_capacity(n);
            let mut bs = board_state.chunks_mut(N_LOCS * w);
            let mut ps = prev_state.chunks_mut(N_LOCS * w);
            let mut po = prev_orders.chunks_mut(2 * ORDERS_WIDTH);
            let mut se = season.chunks_mut(3);
            let mut ye = year.chunks_mut(1);
            let mut ia = in_adj.iter_mut();
            let mut bu = builds.chunks_mut(N_POWERS);
            let mut sc = scoring.chunks_mut(2);
            let mut cand_iters = cand_slices.map(|(a, l, p)| {
                (
                    a.chunks_mut((N_POWERS * steps * cands).max(1)),
                    l.chunks_mut(N_POWERS * N_LOCS),
                    p.map(|p| p.chunks_mut(N_POWERS * N_SCS)),
                )
            });
            for g in &games {
                let out = StateOut {
                    board: bs.next().unwrap_or_default(),
                    prev_board: ps.next().unwrap_or_default(),
                    prev_orders: po.next().unwrap_or_default(),
                    season: se.next().unwrap_or_default(),
                    year: ye.next().unwrap_or_default(),
                    in_adj: ia
                        .next()
                        .ok_or_else(|| PyValueError::new_err("x_in_adj_phase"))?,
                    builds: bu.next().unwrap_or_default(),
                    scoring: sc.next().unwrap_or_default(),
                };
                let cand = cand_iters.as_mut().map(|(a, l, p)| CandidatesOut {
                    actions: if cands == 0 {
                        &mut []
                    } else {
                        a.next().unwrap_or_default()
                    },
                    loc_idxs: l.next().unwrap_or_default(),
                    powers: p.as_mut().map(|p| p.next().unwrap_or_default()),
                    steps,
                    cands,
                });
                items.push((g, out, cand));
            }
            let enc = &self.enc;
            let work = |(g, out, cand): Item<'_>| -> Result<(), EncodeError> {
                let s = &g.state;
                let possible = if cand.is_some() || s.kind == b'A' {
                    s.possible(&enc.board)
                } else {
                    Possible::none()
                };
                enc.state_only(g, &possible, version, out)?;
                if let Some(cand) = cand {
                    enc.candidates(s, &possible, version, cand)?;
                }
                Ok(())
            };
            without_gil(py, || spread(items, self.threads, work)).map_err(to_py)
        })
    }

    /// Orders (packed as `DipccOrder` tuples, 7 bytes each) to dipcc's `(2, 100)` action in
    /// `out`; with `state` (a packed game), a support naming a fleet on a coast by its province
    /// is looked up under the coast (the tolerant encoding).
    fn encode_orders(
        &self,
        orders: &[u8],
        state: Option<&[u8]>,
        out: &Bound<'_, PyArray2<i64>>,
    ) -> PyResult<()> {
        guarded(|| {
            if !orders.len().is_multiple_of(7) {
                return Err(PyValueError::new_err(
                    "orders: not a whole number of orders",
                ));
            }
            let parsed = orders
                .chunks(7)
                .map(|f| order_of((f[0], f[1], f[2], f[3], f[4], f[5], f[6] == 1)))
                .collect::<PyResult<Vec<_>>>()?;
            let game = state
                .map(Packed::read)
                .transpose()
                .map_err(PyValueError::new_err)?;
            let s = game.as_ref().map(|g| &g.state);
            let given: Vec<(&DOrder, Option<_>)> = parsed.iter().map(|o| (o, s)).collect();
            let mut guard = writable("out", out, &[2, ORDERS_WIDTH])?;
            let out = slice(&mut guard)?;
            self.enc
                .vocabulary
                .encode_orders(&self.enc.board, &given, out)
                .map_err(to_py)
        })
    }

    /// dipcc's possible orders of a packed game's board, as Python's `State` lists them: a
    /// list of (exact code, orders as `DipccOrder` tuples (only `with_tuples`), texts) sorted
    /// by code, each power's orderable provinces, and the builds owed.
    #[allow(clippy::type_complexity)]
    #[pyo3(signature = (packed, with_tuples=true))]
    fn possible_orders(
        &self,
        py: Python<'_>,
        packed: &[u8],
        with_tuples: bool,
    ) -> PyResult<(
        Vec<(u8, Vec<OrderTuple>, Vec<String>)>,
        Vec<Vec<u32>>,
        Vec<i32>,
        Py<PyBytes>,
    )> {
        guarded(|| {
            let g = Packed::read(packed).map_err(PyValueError::new_err)?;
            let b = &self.enc.board;
            let p = g.state.possible(b);
            let mut lists = Vec::new();
            for (code, orders) in p.orders.iter().enumerate() {
                if orders.is_empty() {
                    continue;
                }
                let tuples = orders
                    .iter()
                    .filter(|_| with_tuples)
                    .map(|o| {
                        (
                            o.unit_type,
                            o.unit_loc,
                            o.kind,
                            o.target_type,
                            o.target_loc,
                            o.dest,
                            o.via,
                        )
                    })
                    .collect();
                let texts = orders
                    .iter()
                    .map(|o| {
                        let mut s = String::new();
                        b.format(o, &mut s);
                        s
                    })
                    .collect();
                lists.push((code as u8, tuples, texts));
            }
            let orderable = p
                .orderable
                .iter()
                .map(|v| v.iter().map(|&c| u32::from(c)).collect())
                .collect();
            let listed = PyBytes::new(py, &listed_bytes(&p)).unbind();
            Ok((lists, orderable, p.builds.to_vec(), listed))
        })
    }

    /// The orders dipcc's `process` rules on of the orders staged on a packed game's board
    /// (`crate::engine::dipcc_encode::rule_staged`) and the engine's codes of them: `staged`
    /// is each power's run of orders (`read_staged`); `listed` the board's possible orders as
    /// `possible_orders` gave them (`None`: worked out here); `engine` the engine's location
    /// index of each dipcc location code. Returns the orders ruled on (seven bytes each) and
    /// their codes.
    fn rule_staged(
        &self,
        py: Python<'_>,
        packed: &[u8],
        listed: Option<&[u8]>,
        staged: &[u8],
        engine: &[u8],
    ) -> PyResult<(Py<PyBytes>, Vec<u64>)> {
        guarded(|| {
            let (ruled, codes) = self.ruled(packed, listed, &read_staged(staged)?, engine)?;
            Ok((PyBytes::new(py, &ruled_bytes(&ruled)).unbind(), codes))
        })
    }

    /// The engine's game of a packed game's board (a movement or adjustment phase: no
    /// dislodged unit), on the map and under the rules of `template` (no year limit): the
    /// board checked once, by the engine's state. `engine` is the engine's location index of
    /// each dipcc location code; the powers are in the same order on both sides.
    fn engine_game(
        &self,
        template: &Bound<'_, PyCodeGame>,
        packed: &[u8],
        engine: &[u8],
    ) -> PyResult<PyCodeGame> {
        let template = held(template, IN_USE)?;
        guarded(|| {
            let g = Packed::read(packed).map_err(PyValueError::new_err)?;
            let s = &g.state;
            if !s.dislodged.is_empty() {
                return Err(PyValueError::new_err(
                    "engine_game: a board with dislodged units",
                ));
            }
            let at = |c: usize| -> PyResult<i64> {
                engine.get(c).map(|&i| i64::from(i)).ok_or_else(|| {
                    PyValueError::new_err(format!("no engine location for dipcc location {c}"))
                })
            };
            let mut units = Vec::with_capacity(34);
            let mut centers = Vec::with_capacity(34);
            for c in 1..=N_LOCS {
                if let Some((power, utype)) = s.unit(c as u8) {
                    units.push((i64::from(power), i64::from(utype == 2), at(c)?));
                }
                if s.centers[c] > 0 {
                    centers.push((at(c)?, i64::from(s.centers[c] - 1)));
                }
            }
            let season = match s.season {
                b'S' => "S",
                b'F' => "F",
                b'W' => "W",
                _ => "",
            };
            let kind = match s.kind {
                b'M' => "M",
                b'A' => "A",
                _ => "",
            };
            on_game!(&template.game, t => {
                let state = State::with_rules(
                    t.map, i64::from(s.year), season, kind, &units, &centers, &[],
                    t.state.rules,
                )
                .map_err(|e| e.within("bad dipcc board"))?;
                Ok(PyCodeGame { game: new_game(t.map, state, None) })
            })
        })
    }

    /// One phase of a dipcc game on the engine: the staged orders (`staged`: each power's
    /// name to its `DipccOrder` tuples, the powers taken in the order of `names`) ruled as
    /// `rule_staged` rules them, a copy of `game` (the engine's game at the board) given their
    /// codes and processed. `dipcc` is each engine location's dipcc code; `pieces` and `powers` the
    /// Python board's unit tuple and power of each `2 * power + is_fleet` (engine power
    /// indices). Returns the game after, its phase (`""` when over), the orders ruled on
    /// (seven bytes each) and each one's success (a byte each), the units after as a board's
    /// dictionary (dipcc code to unit tuple; each unit's power also set in `influence`), and
    /// the units kept aside (dislodged with somewhere to go) as their dipcc codes and their
    /// retreats'.
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    fn step(
        &self,
        py: Python<'_>,
        game: &Bound<'_, PyCodeGame>,
        packed: &[u8],
        listed: Option<&[u8]>,
        staged: &Bound<'_, PyDict>,
        names: &Bound<'_, PyList>,
        engine: &[u8],
        dipcc: &[u8],
        pieces: &Bound<'_, PyList>,
        powers: &Bound<'_, PyList>,
        influence: &Bound<'_, PyDict>,
    ) -> PyResult<(
        PyCodeGame,
        String,
        Py<PyBytes>,
        Py<PyBytes>,
        Py<PyDict>,
        Vec<(u8, Py<PyBytes>)>,
    )> {
        let given = read_staged_dict(staged, names)?;
        let (ruled, codes) = guarded(|| self.ruled(packed, listed, &given, engine))?;
        let mut next = held(game, IN_USE)?.clone_game();
        if next.game.over() {
            return Err(game_over());
        }
        let mut outcome = spare_outcome();
        guarded(|| {
            on_game!(&mut next.game, g => {
                g.orders = codes;
                process_checked(g, &mut outcome)
            })
        })?;
        let success: Vec<u8> = outcome.success.iter().map(|&s| u8::from(s)).collect();
        recycle_outcome(outcome);
        let code_of = |loc: u16| -> PyResult<u8> {
            dipcc.get(usize::from(loc)).copied().ok_or_else(|| {
                PyValueError::new_err(format!("no dipcc location for engine location {loc}"))
            })
        };
        let mut unit_codes: Vec<u8> = Vec::with_capacity(34);
        let mut unit_values: Vec<u8> = Vec::with_capacity(34);
        let mut aside = Vec::new();
        let phase = guarded(|| {
            on_game!(&next.game, g => {
                let st = &g.state;
                for q in 0..g.map.provinces {
                    let u = st.units[q];
                    if u.is_some() {
                        unit_codes.push(code_of(u.loc)?);
                        unit_values.push(2 * u.power + u8::from(u.fleet));
                    }
                    let d = st.dislodged[q];
                    if d.is_some() {
                        let options = Bits(st.retreats[q])
                            .map(|o| code_of(u16::try_from(o).unwrap_or(u16::MAX)))
                            .collect::<PyResult<Vec<u8>>>()?;
                        aside.push((code_of(d.loc)?, PyBytes::new(py, &options).unbind()));
                    }
                }
                Ok(if g.over { String::new() } else { st.phase_name() })
            })
        })?;
        let units = PyDict::new(py);
        for (&code, &value) in unit_codes.iter().zip(&unit_values) {
            let value = usize::from(value);
            units.set_item(code, pieces.get_item(value)?)?;
            influence.set_item(code, powers.get_item(value)?)?;
        }
        Ok((
            next,
            phase,
            PyBytes::new(py, &ruled_bytes(&ruled)).unbind(),
            PyBytes::new(py, &success).unbind(),
            units.unbind(),
            aside,
        ))
    }

    /// Rules on orders of a packed game's board as dipcc's `process` does before adjudicating:
    /// `orders` are `DipccOrder` tuples, seven bytes each (`pack_orders`); per order one byte,
    /// 1 when it is one of the board's possible orders, 2 when only its "VIA" form is (a move
    /// possible only by convoy), 0 when neither is. Lists no order texts (Python's `State`
    /// rules so on a board whose possible orders were not asked for).
    fn rule_orders(&self, packed: &[u8], orders: &[u8]) -> PyResult<Vec<u8>> {
        guarded(|| {
            if !orders.len().is_multiple_of(7) {
                return Err(PyValueError::new_err(format!(
                    "orders: {} bytes is not a whole number of 7-byte orders",
                    orders.len()
                )));
            }
            let given = orders
                .chunks_exact(7)
                .map(|c| order_of((c[0], c[1], c[2], c[3], c[4], c[5], c[6] != 0)))
                .collect::<PyResult<Vec<DOrder>>>()?;
            let g = Packed::read(packed).map_err(PyValueError::new_err)?;
            let p = g.state.possible(&self.enc.board);
            Ok(given
                .iter()
                .map(|o| {
                    let listed = &p.orders[o.unit_loc as usize];
                    if listed.binary_search(o).is_ok() {
                        1
                    } else if o.kind == MOVE
                        && !o.via
                        && listed.binary_search(&DOrder { via: true, ..*o }).is_ok()
                    {
                        2
                    } else {
                        0
                    }
                })
                .collect())
        })
    }
}

impl PyDipccEncoder {
    /// `rule_staged`'s work: the orders ruled on and their engine codes.
    fn ruled(
        &self,
        packed: &[u8],
        listed: Option<&[u8]>,
        given: &[(u8, DOrder)],
        engine: &[u8],
    ) -> PyResult<(Vec<DOrder>, Vec<u64>)> {
        let g = Packed::read(packed).map_err(PyValueError::new_err)?;
        let b = &self.enc.board;
        let worked_out;
        let listed = match listed {
            Some(l) => l,
            None => {
                worked_out = listed_bytes(&g.state.possible(b));
                &worked_out
            }
        };
        let ruled = rule_staged(b, &g.state, listed, given).map_err(PyValueError::new_err)?;
        let codes = ruled
            .iter()
            .map(|o| engine_code(b, engine, o))
            .collect::<Result<Vec<_>, _>>()
            .map_err(PyValueError::new_err)?;
        Ok((ruled, codes))
    }
}

/// Staged orders as Python packs them: per power a run, its index, its count of orders, then
/// each order's seven `DipccOrder` bytes.
fn read_staged(staged: &[u8]) -> PyResult<Vec<(u8, DOrder)>> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < staged.len() {
        let (Some(&power), Some(&n)) = (staged.get(at), staged.get(at + 1)) else {
            return Err(PyValueError::new_err("staged: a run cut short"));
        };
        if power as usize >= N_POWERS {
            return Err(PyValueError::new_err(format!(
                "staged: bad power index {power}"
            )));
        }
        at += 2;
        let end = at + 7 * n as usize;
        let Some(run) = staged.get(at..end) else {
            return Err(PyValueError::new_err("staged: a run cut short"));
        };
        for c in run.chunks_exact(7) {
            out.push((
                power,
                order_of((c[0], c[1], c[2], c[3], c[4], c[5], c[6] != 0))?,
            ));
        }
        at = end;
    }
    Ok(out)
}

/// Staged orders as the drop-in keeps them: each power's name (in the order of `names`, the
/// power's index its place there) to its orders as `DipccOrder` tuples.
fn read_staged_dict(
    staged: &Bound<'_, PyDict>,
    names: &Bound<'_, PyList>,
) -> PyResult<Vec<(u8, DOrder)>> {
    let mut out = Vec::new();
    for (index, name) in names.iter().enumerate() {
        let power = u8::try_from(index)
            .ok()
            .filter(|&p| (p as usize) < N_POWERS)
            .ok_or_else(|| PyValueError::new_err("names: more than the seven powers"))?;
        let Some(given) = staged.get_item(name)? else {
            continue;
        };
        for order in given.try_iter()? {
            let t: OrderTuple = order?.extract()?;
            out.push((power, order_of(t)?));
        }
    }
    Ok(out)
}

/// Orders as seven bytes each (Python's `pack_orders`).
fn ruled_bytes(ruled: &[DOrder]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(7 * ruled.len());
    for o in ruled {
        bytes.extend_from_slice(&o.bytes());
    }
    bytes
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyDipccEncoder>()?;
    Ok(())
}
