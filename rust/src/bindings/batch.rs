//! Many games at once: `process_batch` (the GIL released, the games spread over threads) and
//! `pack_orders` (the flat form of a batch's orders).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use super::any::{on_game, AnyGame};
use super::errors::{guarded, to_py, without_gil};
use super::handles::{PyCodeGame, PyOutcome};
use super::intake::read_codes;
use super::process::in_last_year;
use crate::engine::batch::process_all_with;
use crate::engine::encode::Code;
use crate::engine::error::EngineError;
use crate::engine::game_map::Mask;
use crate::engine::phases::{spare_outcome, Game, Outcome};

fn items<'py>(what: &str, obj: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if obj.is_instance_of::<PyString>() {
        return Err(PyValueError::new_err(format!("{what} must be a sequence")));
    }
    obj.try_iter()
        .map_err(|_| PyValueError::new_err(format!("{what} must be a sequence")))?
        .collect()
}

/// A flat buffer of native-endian values of `size` bytes (`name`: `u32`, `u64`), as `bytes`
/// (immutable, so it can be read with the GIL released).
fn flat_bytes<'a>(
    what: &str,
    obj: &'a Bound<'_, PyAny>,
    name: &str,
    size: usize,
) -> PyResult<&'a [u8]> {
    let bytes = obj.downcast::<PyBytes>().map_err(|_| {
        PyValueError::new_err(format!(
            "{what} must be bytes of native-endian {name} values when offsets are given \
             (diplo.engine.codes.process_batch also takes any {name} buffer)"
        ))
    })?;
    let raw = bytes.as_bytes();
    if raw.len() % size != 0 {
        return Err(PyValueError::new_err(format!(
            "{what}: {} bytes is not a whole number of {name} values ({size} bytes each)",
            raw.len()
        )));
    }
    Ok(raw)
}

fn u32_at(raw: &[u8], i: usize) -> u32 {
    u32::from_ne_bytes([raw[4 * i], raw[4 * i + 1], raw[4 * i + 2], raw[4 * i + 3]])
}

/// Bytes per code in a flat buffer.
const CODE_BYTES: usize = size_of::<Code>();

fn code_at(raw: &[u8], i: usize) -> Code {
    let mut b = [0u8; CODE_BYTES];
    b.copy_from_slice(&raw[CODE_BYTES * i..CODE_BYTES * (i + 1)]);
    Code::from_ne_bytes(b)
}

/// `o` when the outcomes are asked for (`process_batch`'s `outcomes`).
fn asked(outcomes: bool, o: &mut [Outcome]) -> Option<&mut [Outcome]> {
    outcomes.then_some(o)
}

/// Processes the games of one width (see `process_batch`), their results into `outcomes`.
fn run_width<M: Mask>(
    all: &mut [&mut Game<M>],
    index: &[usize],
    threads: usize,
    flat: Option<&(&[u8], Vec<usize>)>,
    outcomes: Option<&mut [Outcome]>,
) -> Result<(), EngineError> {
    if all.is_empty() {
        return Ok(());
    }
    match flat {
        None => process_all_with(all, outcomes, threads, |_, _| {}),
        Some((codes, offsets)) => process_all_with(all, outcomes, threads, |k, game| {
            let i = index[k];
            game.orders.clear();
            game.orders
                .extend((offsets[i]..offsets[i + 1]).map(|j| code_at(codes, j)));
        }),
    }
}

/// Checks the offsets of a flat batch of `games` games over `codes` codes.
fn flat_offsets(raw: &[u8], games: usize, codes: usize) -> PyResult<Vec<usize>> {
    let n = raw.len() / 4;
    if n != games + 1 {
        return Err(PyValueError::new_err(format!(
            "offsets: expected len(games) + 1 = {} values, got {n}",
            games + 1
        )));
    }
    let offsets: Vec<usize> = (0..n).map(|i| u32_at(raw, i) as usize).collect();
    if offsets[0] != 0 {
        return Err(PyValueError::new_err(format!(
            "offsets: the first must be 0, got {}",
            offsets[0]
        )));
    }
    if let Some(i) = (1..n).find(|&i| offsets[i] < offsets[i - 1]) {
        return Err(PyValueError::new_err(format!(
            "offsets: offsets[{i}] = {} is below offsets[{}] = {}",
            offsets[i],
            i - 1,
            offsets[i - 1]
        )));
    }
    if offsets[n - 1] != codes {
        return Err(PyValueError::new_err(format!(
            "offsets: the last must be the number of codes, {codes}, got {}",
            offsets[n - 1]
        )));
    }
    Ok(offsets)
}

/// `set_orders` and `process` on every game, the GIL released, on `threads` threads. The orders
/// are a list of code lists, or with `offsets` flat `bytes` of `u64` codes (game `i` gets codes
/// `offsets[i]..offsets[i + 1]`), read by the threads that process the games. With `outcomes`,
/// returns every game's `Outcome`, in order (else `None`: the results are dropped).
#[pyfunction]
#[pyo3(signature = (games, orders, threads=None, offsets=None, outcomes=false))]
fn process_batch(
    py: Python<'_>,
    games: &Bound<'_, PyAny>,
    orders: &Bound<'_, PyAny>,
    threads: Option<i64>,
    offsets: Option<&Bound<'_, PyAny>>,
    outcomes: bool,
) -> PyResult<Option<Vec<PyOutcome>>> {
    guarded(|| {
        let games = items("games", games)?;
        // The flat form: checked here, copied into the games by the threads.
        let flat = match offsets {
            None => None,
            Some(offsets) => {
                let codes = flat_bytes("orders", orders, "u64", CODE_BYTES)?;
                let offsets = flat_offsets(
                    flat_bytes("offsets", offsets, "u32", 4)?,
                    games.len(),
                    codes.len() / CODE_BYTES,
                )?;
                Some((codes, offsets))
            }
        };
        let lists = match flat {
            Some(_) => Vec::new(),
            None => {
                let lists = items("orders", orders)?;
                if games.len() != lists.len() {
                    return Err(PyValueError::new_err(format!(
                        "{} games but {} order lists",
                        games.len(),
                        lists.len()
                    )));
                }
                lists
            }
        };
        let threads = match threads {
            // Asked once: the answer costs tens of microseconds (Linux reads the cgroup limits).
            None => {
                static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
                *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            }
            Some(t) if t >= 1 => usize::try_from(t).unwrap_or(usize::MAX),
            Some(t) => {
                return Err(PyValueError::new_err(format!(
                    "threads must be at least 1, got {t}"
                )))
            }
        };
        let mut refs = Vec::with_capacity(games.len());
        for (i, g) in games.iter().enumerate() {
            let g = g
                .downcast::<PyCodeGame>()
                .map_err(|_| PyValueError::new_err(format!("games[{i}] is not a CodeGame")))?;
            let r = g.try_borrow_mut().map_err(|_| {
                // Which of the two the core cannot tell: a bad argument (ValueError) with the
                // game's place as its `index`.
                to_py(
                    EngineError::invalid(format!(
                        "games[{i}] appears twice in the batch, or is in use by another thread \
                         (a CodeGame is used by one thread at a time)"
                    ))
                    .at(&[i]),
                )
            })?;
            if r.game.over() {
                return Err(EngineError::game_over()
                    .within(format_args!("games[{i}]"))
                    .into());
            }
            if on_game!(&r.game, g => in_last_year(g)) {
                return Err(PyValueError::new_err(format!(
                    "games[{i}] is in {}, the last year: process it with CodeGame.process, which \
                 refuses to go past it",
                    on_game!(&r.game, g => g.state.phase_name())
                )));
            }
            refs.push(r);
        }
        // Every list is read before any game is touched, so a bad one leaves every game as it was.
        let mut read = Vec::with_capacity(lists.len());
        for (i, o) in lists.iter().enumerate() {
            let mut codes = Vec::new();
            guarded(|| read_codes(o, &mut codes)).map_err(|e| {
                if e.is_instance_of::<PyValueError>(py) {
                    PyValueError::new_err(format!("games[{i}]: {}", e.value(py)))
                } else {
                    e
                }
            })?;
            read.push(codes);
        }
        for (r, codes) in refs.iter_mut().zip(read) {
            on_game!(&mut r.game, g => g.orders = codes);
        }
        // The games of each width go together (a batch usually has one map, so one width).
        let (mut narrow, mut w256, mut w1024) = (Vec::new(), Vec::new(), Vec::new());
        let (mut i_narrow, mut i_256, mut i_1024) = (Vec::new(), Vec::new(), Vec::new());
        for (i, r) in refs.iter_mut().enumerate() {
            match &mut r.game {
                AnyGame::W128(g) => {
                    narrow.push(g);
                    i_narrow.push(i);
                }
                AnyGame::W256(g) => {
                    w256.push(g);
                    i_256.push(i);
                }
                AnyGame::W1024(g) => {
                    w1024.push(g);
                    i_1024.push(i);
                }
            }
        }
        // Per width, one outcome per game when they are asked for.
        let fresh = |n: usize| -> Vec<Outcome> {
            (0..if outcomes { n } else { 0 })
                .map(|_| spare_outcome())
                .collect()
        };
        let (mut o_narrow, mut o_256, mut o_1024) =
            (fresh(narrow.len()), fresh(w256.len()), fresh(w1024.len()));
        without_gil(py, || {
            let flat = flat.as_ref();
            let a = run_width(
                &mut narrow,
                &i_narrow,
                threads,
                flat,
                asked(outcomes, &mut o_narrow),
            );
            let b = run_width(
                &mut w256,
                &i_256,
                threads,
                flat,
                asked(outcomes, &mut o_256),
            );
            let c = run_width(
                &mut w1024,
                &i_1024,
                threads,
                flat,
                asked(outcomes, &mut o_1024),
            );
            a.and(b).and(c)
        })
        .map_err(PyErr::from)?;
        if !outcomes {
            return Ok(None);
        }
        let mut all: Vec<Option<Outcome>> = (0..refs.len()).map(|_| None).collect();
        for (index, outs) in [(i_narrow, o_narrow), (i_256, o_256), (i_1024, o_1024)] {
            for (i, o) in index.into_iter().zip(outs) {
                all[i] = Some(o);
            }
        }
        Ok(Some(
            all.into_iter()
                .map(|o| PyOutcome {
                    outcome: o.unwrap_or_default(),
                })
                .collect(),
        ))
    })
}

/// The flat form of a batch's orders: `(codes, offsets)`, `bytes` of native-endian `u64` codes
/// and `u32` offsets; a code outside `0..2**64` becomes `2**64 - 1` (malformed, so illegal, as
/// in a list).
#[pyfunction]
fn pack_orders<'py>(
    py: Python<'py>,
    orders: &Bound<'py, PyAny>,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    guarded(|| {
        let lists = items("orders", orders)?;
        let mut codes: Vec<u8> = Vec::new();
        let mut offsets: Vec<u8> = Vec::with_capacity(4 * (lists.len() + 1));
        offsets.extend_from_slice(&0u32.to_ne_bytes());
        let mut one = Vec::new();
        let mut total: usize = 0;
        for (i, list) in lists.iter().enumerate() {
            read_codes(list, &mut one)
                .map_err(|e| PyValueError::new_err(format!("orders[{i}]: {}", e.value(py))))?;
            total += one.len();
            let end = u32::try_from(total)
                .map_err(|_| PyValueError::new_err("orders: more than 2**32 - 1 codes in all"))?;
            codes.extend(one.iter().flat_map(|c| c.to_ne_bytes()));
            offsets.extend_from_slice(&end.to_ne_bytes());
        }
        Ok((PyBytes::new(py, &codes), PyBytes::new(py, &offsets)))
    })
}

/// Adds the batch functions to `diplo._core`.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(process_batch, m)?)?;
    m.add_function(wrap_pyfunction!(pack_orders, m)?)
}
