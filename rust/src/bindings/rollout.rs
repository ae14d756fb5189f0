//! The game-file writer of `diplo rollouts` on the engine's own rulings: the phases of a game
//! file (`docs/game-files.md`) as text, byte for byte what `diplo.formats.gamefile.to_json` and
//! `json.dumps` write for the same game on a map whose names need no JSON escape.
//!
//! * `crate::engine::game_file::movement_pieces` — a movement phase's results, cut where each sentence's tail goes
//!   (`CodeGame.movement_json`, used by `diplo.rollouts.write` phase by phase).
//! * `RolloutPlayer` — whole random games (`crate::engine::rollout`) played and written here, in
//!   one call per game, with the dataset's rows (`diplo.rollouts.dataset`) as Arrow buffers.
//!
//! The sentences stay the model's (`diplo.model.outcome`): the player asks Python to word each
//! one it has not met yet (`word_tail`, `word_ruling`) and keeps the answers.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::hash::BuildHasherDefault;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use super::any::{on_game, AnyGame, Known};
use super::cache::KeyHasher;
use super::documents::{piece_text, position_text};
use super::errors::{guarded, held_mut};
use super::handles::PyCodeGame;
use crate::engine::encode::{self, kind, Code};
use crate::engine::game_file::{movement_legal, result_end, result_start, unit_of, write_movement};
use crate::engine::game_map::{Bits, GameMap, Mask};
use crate::engine::phases::{explain, Game, Ruling, Verdict};
use crate::engine::rollout::{random_orders, PyRandom};
use crate::engine::state::MOVEMENT;

/// One column of Arrow strings: `i32` offsets (little-endian, from 0) and the UTF-8 bytes.
#[derive(Default)]
struct Strings {
    offsets: Vec<u8>,
    data: Vec<u8>,
}

impl Strings {
    fn push(&mut self, text: &str) {
        if self.offsets.is_empty() {
            self.offsets.extend_from_slice(&0i32.to_le_bytes());
        }
        self.data.extend_from_slice(text.as_bytes());
        // At most MAX_DATASET_BYTES: checked by the caller before a game's rows are added.
        self.offsets
            .extend_from_slice(&(self.data.len() as i32).to_le_bytes());
    }

    fn take(&mut self) -> (Vec<u8>, Vec<u8>) {
        if self.offsets.is_empty() {
            self.offsets.extend_from_slice(&0i32.to_le_bytes());
        }
        (
            std::mem::take(&mut self.offsets),
            std::mem::take(&mut self.data),
        )
    }
}

/// The most bytes a text column of one batch's dataset may hold (Arrow's `i32` offsets).
const MAX_DATASET_BYTES: usize = i32::MAX as usize / 2;

/// The dataset's columns (`diplo.rollouts.dataset.COLUMNS`) of the games played since the last
/// `take_dataset`, as Arrow buffers.
#[derive(Default)]
struct Columns {
    rows: usize,
    game: Vec<u8>,
    phase: Strings,
    power: Strings,
    order: Strings,
    code: Vec<u8>,
    /// Bit-packed, least significant bit first (Arrow's booleans).
    success: Vec<u8>,
    result: Vec<u8>,
    reason: Vec<u8>,
}

impl Columns {
    fn full(&self) -> bool {
        [&self.phase, &self.power, &self.order]
            .iter()
            .any(|s| s.data.len() > MAX_DATASET_BYTES)
    }
}

/// A sentence cache grows to this many entries, then starts again.
const CACHE_LIMIT: usize = 1 << 17;

/// What the player keeps from game to game: the sentences met so far and the dataset's rows.
struct Kept {
    word_tail: Py<PyAny>,
    word_ruling: Py<PyAny>,
    tails: HashMap<u64, Box<str>, BuildHasherDefault<KeyHasher>>,
    rulings: HashMap<String, Box<str>>,
    data: Columns,
}

/// A finished game: the `"phases"` entries of its file (without files: empty), its count of
/// phases, of distinct years and its last year.
type Played = (Option<Vec<u8>>, u32, u32, Option<u32>, AnyGame);

/// Plays random games from one start and writes them (see the module documentation).
#[pyclass(name = "RolloutPlayer", module = "diplo._core")]
pub struct PyRolloutPlayer {
    start: AnyGame,
    kept: Kept,
}

#[pymethods]
impl PyRolloutPlayer {
    /// Games from `start` (a game at its first phase, its year limit set); `word_tail(key)`
    /// words a movement sentence's tail from its facts' key (see `CodeGame.movement_json`),
    /// `word_ruling(facts)` gives a retreat or adjustment sentence as JSON text (`facts`: as
    /// in `CodeGame.phase_rows`, the why code first).
    #[new]
    fn new(
        start: &Bound<'_, PyCodeGame>,
        word_tail: Py<PyAny>,
        word_ruling: Py<PyAny>,
    ) -> PyResult<Self> {
        let start = start.borrow().game.clone();
        if start.over() {
            return Err(PyValueError::new_err("the start is a finished game"));
        }
        Ok(PyRolloutPlayer {
            start,
            kept: Kept {
                word_tail,
                word_ruling,
                tails: HashMap::default(),
                rulings: HashMap::new(),
                data: Columns::default(),
            },
        })
    }

    /// Plays the game of `seed` (the default policy's choices, `random.Random(seed)`) to its
    /// end: `(phases, count, years, final_year, game)`, `phases` the `"phases"` entries of its
    /// game file joined by `", "` (UTF-8; `None` without `files`), `count` its phases, `years`
    /// its distinct years, `final_year` the last (`None`: no phase), `game` the finished game.
    /// With `dataset` its orders' rows are added to the dataset (`take_dataset`). `None` when
    /// the game cannot be written here (an order the engine takes otherwise than given, a slot
    /// without a legal order): the caller plays it on the code API, which gives the same game.
    #[allow(clippy::type_complexity)]
    fn play<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
        seed: i64,
        files: bool,
        dataset: bool,
    ) -> PyResult<
        Option<(
            Option<Bound<'py, PyBytes>>,
            u32,
            u32,
            Option<u32>,
            PyCodeGame,
        )>,
    > {
        let mut this = held_mut(slf, IN_USE)?;
        let this = &mut *this;
        let kept = &mut this.kept;
        let played = guarded(
            || on_game!(&this.start, g => play_game(py, g.clone(), seed, files, dataset, kept)),
        )?;
        Ok(played.map(|(text, count, years, last, game)| {
            (
                text.map(|t| PyBytes::new(py, &t)),
                count,
                years,
                last,
                PyCodeGame { game },
            )
        }))
    }

    /// The dataset's rows of the games played since the last call, as Arrow buffers:
    /// `(rows, game, phase_offsets, phase_data, power_offsets, power_data, order_offsets,
    /// order_data, code, success, result, reason)` (little-endian `i64` games, `i32` offsets,
    /// `u64` codes, bit-packed successes, `i8` results and reasons); the rows are then dropped.
    fn take_dataset<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
    ) -> PyResult<(usize, Vec<Bound<'py, PyBytes>>)> {
        let mut d = std::mem::take(&mut held_mut(slf, IN_USE)?.kept.data);
        let (po, pd) = d.phase.take();
        let (wo, wd) = d.power.take();
        let (oo, od) = d.order.take();
        let buffers = [
            &d.game, &po, &pd, &wo, &wd, &oo, &od, &d.code, &d.success, &d.result, &d.reason,
        ];
        Ok((
            d.rows,
            buffers.iter().map(|v| PyBytes::new(py, v)).collect(),
        ))
    }
}

/// Why a `RolloutPlayer` another call holds is refused (`InUseError`).
const IN_USE: &str = "this RolloutPlayer is in use by another call (one of its wording \
                      callbacks, or another thread): use it from one thread at a time \
                      (docs/design.md, 'Threads')";

/// The sentence of a retreat or adjustment result as JSON text, from the cache or worded by
/// Python (see `PyRolloutPlayer::new`).
#[allow(clippy::too_many_arguments)]
fn ruling_sentence<'k, M: Mask>(
    py: Python<'_>,
    kept: &'k mut Kept,
    map: &GameMap<M>,
    r: &Ruling,
    unit: Option<&str>,
    order: &str,
) -> PyResult<&'k str> {
    let other = if r.other.is_some() {
        Some(piece_text(map, r.other))
    } else {
        (r.other_place >= 0).then(|| map.loc_name(r.other_place as usize).to_string())
    };
    let place = (r.place >= 0).then(|| map.loc_name(r.place as usize));
    let rivals: Vec<(&str, String)> = r
        .rivals
        .iter()
        .map(|p| (map.power_name(p.power as usize), piece_text(map, *p)))
        .collect();
    let power = map.power_name(r.power as usize);
    let mut key = String::with_capacity(64);
    let _ = write!(
        key,
        "{}|{power}|{}|{order}|{}|{}|{}|{}",
        r.why,
        unit.unwrap_or("\u{0}"),
        place.unwrap_or("\u{0}"),
        other.as_deref().unwrap_or("\u{0}"),
        r.count,
        r.home
    );
    for (p, u) in &rivals {
        let _ = write!(key, "|{p}|{u}");
    }
    if !kept.rulings.contains_key(&key) {
        let facts = (
            r.why,
            power,
            r.unit.is_some().then(|| piece_text(map, r.unit)),
            order,
            place,
            other.as_deref(),
            r.count,
            r.home,
            rivals,
        );
        let text = kept.word_ruling.bind(py).call1((facts,))?;
        let text: String = text.downcast::<PyString>()?.to_str()?.to_owned();
        if kept.rulings.len() >= CACHE_LIMIT {
            kept.rulings.clear();
        }
        kept.rulings.insert(key.clone(), text.into_boxed_str());
    }
    Ok(&kept.rulings[&key])
}

/// A movement sentence's tail by its key, from the cache or worded by Python.
fn tail<'k>(py: Python<'_>, kept: &'k mut Kept, key: u64) -> PyResult<&'k str> {
    if !kept.tails.contains_key(&key) {
        let text = kept.word_tail.bind(py).call1((key,))?;
        let text: String = text.downcast::<PyString>()?.to_str()?.to_owned();
        if kept.tails.len() >= CACHE_LIMIT {
            kept.tails.clear();
        }
        kept.tails.insert(key, text.into_boxed_str());
    }
    Ok(&kept.tails[&key])
}

/// `PyRolloutPlayer::play` on `game` (a copy of the start).
fn play_game<Mk: Known>(
    py: Python<'_>,
    mut game: Game<Mk>,
    seed: i64,
    files: bool,
    dataset: bool,
    kept: &mut Kept,
) -> PyResult<Option<Played>> {
    let map = game.map;
    let mut rng = PyRandom::new(seed);
    let mut codes: Vec<Code> = Vec::new();
    let mut owners: Vec<u8> = Vec::new();
    let mut text = String::with_capacity(if files { 1 << 18 } else { 0 });
    let mut texts: Vec<String> = Vec::new();
    let mut rows = Columns::default();
    let (mut count, mut years, mut last_year) = (0u32, 0u32, None::<u32>);
    // One verdict for the whole game: its buffers are reused phase after phase.
    let mut verdict = Verdict::empty(map, &game.state);
    while !game.over {
        if random_orders(&game, &mut rng, &mut codes, &mut owners).is_err() {
            return Ok(None);
        }
        game.orders.clear();
        game.orders.extend_from_slice(&codes);
        game.powers.clear();
        game.powers.extend_from_slice(&owners);
        let done = game.rule_into(&mut verdict, false);
        game.powers.clear();
        done?;
        let v = &verdict;
        let before = &v.before;
        let phase = before.phase_name();
        if v.reasons.iter().any(|&r| r != 0) || v.normal != codes {
            return Ok(None);
        }
        count += 1;
        if last_year != Some(before.year) {
            years += 1;
            last_year = Some(before.year);
        }
        texts.resize_with(v.normal.len(), String::new);
        for (t, &c) in texts.iter_mut().zip(&v.normal) {
            crate::engine::text::order_text(map, before, c, t);
        }
        if dataset {
            for (j, t) in texts.iter().enumerate() {
                rows.game.extend_from_slice(&seed.to_le_bytes());
                rows.phase.push(&phase);
                rows.power.push(map.power_name(owners[j] as usize));
                rows.order.push(t);
                rows.code.extend_from_slice(&codes[j].to_le_bytes());
                rows.success.push(u8::from(v.outcome.success[j]));
                rows.result.push(v.outcome.results[j]);
                rows.reason.push(v.reasons[j]);
            }
            rows.rows += texts.len();
        }
        if !files {
            continue;
        }
        if count > 1 {
            text.push_str(", ");
        }
        let _ = write!(text, "{{\"phase\": \"{phase}\", \"orders\": {{");
        let mut j = 0;
        while j < owners.len() {
            let p = owners[j];
            if j > 0 {
                text.push_str(", ");
            }
            let _ = write!(text, "\"{}\": [", map.power_name(p as usize));
            let mut first = true;
            while j < owners.len() && owners[j] == p {
                if !first {
                    text.push_str(", ");
                }
                first = false;
                let _ = write!(text, "\"{}\"", texts[j]);
                j += 1;
            }
            text.push(']');
        }
        text.push_str("}, \"results\": [");
        if before.kind == MOVEMENT {
            if !movement_legal(v, &owners) {
                return Ok(None);
            }
            write_movement(
                v,
                before,
                &owners,
                &mut text,
                &mut |out: &mut String, key| {
                    out.push_str(tail(py, kept, key)?);
                    Ok::<(), PyErr>(())
                },
            )?;
            text.push_str("], \"dislodged\": {");
            // Per power in map order, each power's units in province order.
            let mut firsts = true;
            for p in 0..map.powers {
                let mut mine = v.gone.iter().filter(|(u, _)| u.power as usize == p);
                let Some(first) = mine.next() else {
                    continue;
                };
                if !firsts {
                    text.push_str(", ");
                }
                firsts = false;
                let _ = write!(text, "\"{}\": {{", map.power_name(p));
                for (i, (u, options)) in std::iter::once(first).chain(mine).enumerate() {
                    if i > 0 {
                        text.push_str(", ");
                    }
                    let _ = write!(text, "\"{}\": [", piece_text(map, *u));
                    for (k, l) in Bits(*options).enumerate() {
                        if k > 0 {
                            text.push_str(", ");
                        }
                        let _ = write!(text, "\"{}\"", map.loc_name(l));
                    }
                    text.push(']');
                }
                text.push('}');
            }
            text.push('}');
        } else {
            let n = v.outcome.results.len();
            let mut k = 0;
            let mut row = |text: &mut String,
                           kept: &mut Kept,
                           power: &str,
                           unit: Option<&str>,
                           order: &str,
                           given: bool,
                           ok: bool,
                           code: u8,
                           r: &Ruling|
             -> PyResult<()> {
                if k > 0 {
                    text.push_str(", ");
                }
                k += 1;
                let reason = ruling_sentence(py, kept, map, r, unit, order)?;
                result_start(text, power, unit, &[order], given, ok, code);
                text.push_str(reason);
                result_end(text, None);
                Ok(())
            };
            for j in 0..n {
                let r = match v.rulings.get(j) {
                    Some(r) if r.why != explain::NONE => r,
                    _ => return Ok(None),
                };
                let t = &texts[j];
                let unit = (t != "WAIVE").then(|| unit_of(t));
                let power = map.power_name(owners[j] as usize);
                row(
                    &mut text,
                    kept,
                    power,
                    unit,
                    t,
                    true,
                    v.outcome.success[j],
                    v.outcome.results[j],
                    r,
                )?;
            }
            for (i, &(code, res, ok)) in v.outcome.implied.iter().enumerate() {
                let Some(r) = v.rulings.get(n + i) else {
                    break;
                };
                let power = map.power_name(r.power as usize);
                if encode::kind_of(code) == kind::WAIVE {
                    row(&mut text, kept, power, None, "WAIVE", false, ok, res, r)?;
                } else {
                    let unit = piece_text(map, r.unit);
                    let order = format!("{unit} D");
                    row(
                        &mut text,
                        kept,
                        power,
                        Some(&unit),
                        &order,
                        false,
                        ok,
                        res,
                        r,
                    )?;
                }
            }
            text.push_str("], \"dislodged\": {}");
        }
        let winner = game.winner.map(|w| map.power_name(w as usize));
        let next_phase = game.state.phase_name();
        text.push_str(", \"next\": ");
        text.push_str(&position_text(
            map,
            &game.state,
            winner.is_none().then_some(next_phase.as_str()),
        ));
        match winner {
            Some(w) => {
                let _ = write!(text, ", \"winner\": \"{w}\"}}");
            }
            None => text.push('}'),
        }
    }
    if dataset {
        let data = &mut kept.data;
        if data.full() {
            return Err(PyValueError::new_err(
                "the dataset of one batch of games is too large: use smaller batches",
            ));
        }
        // One byte per row in `rows`, bit-packed in `data`.
        for (bit, &ok) in rows.success.iter().enumerate() {
            let i = data.rows + bit;
            if i & 7 == 0 {
                data.success.push(0);
            }
            data.success[i >> 3] |= ok << (i & 7);
        }
        append_strings(&mut data.phase, &rows.phase);
        append_strings(&mut data.power, &rows.power);
        append_strings(&mut data.order, &rows.order);
        data.game.extend_from_slice(&rows.game);
        data.code.extend_from_slice(&rows.code);
        data.result.extend_from_slice(&rows.result);
        data.reason.extend_from_slice(&rows.reason);
        data.rows += rows.rows;
    }
    let text = files.then_some(text.into_bytes());
    Ok(Some((text, count, years, last_year, Mk::wrap(game))))
}

/// Appends the strings of `more` to `to` (its offsets shifted).
fn append_strings(to: &mut Strings, more: &Strings) {
    if more.offsets.is_empty() {
        return;
    }
    if to.offsets.is_empty() {
        to.offsets.extend_from_slice(&0i32.to_le_bytes());
    }
    let base = to.data.len() as i32;
    for chunk in more.offsets[4..].chunks_exact(4) {
        let v = i32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        to.offsets.extend_from_slice(&(base + v).to_le_bytes());
    }
    to.data.extend_from_slice(&more.data);
}
