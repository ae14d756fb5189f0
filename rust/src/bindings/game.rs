//! `diplo._core.CodeGame`: one game on the engine (wrapped by `diplo.engine.codes.CodeGame` and used by
//! `diplo.engine`). Single-game calls keep the GIL: they take microseconds.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyList, PyString};

use super::any::{on_game, on_map, Known};
use super::documents::{self, position_text, RawPiece, RawState};
use super::errors::{guarded, held, held_mut};
use super::handles::{PyCodeGame, PyCodeMap, PyOutcome, PyVerdict};
use super::intake::{code_list, read_codes, read_submission};
use super::process::{game_over, in_last_year, process_checked, rule_checked};
use super::texts::{map_names, texts_by_power};
use crate::engine::encode::{signed, Code};
use crate::engine::phases::spare_outcome;
use crate::engine::rules::{RuleValue, Rules};
use crate::engine::search;
use crate::engine::state::State;

/// The rules of a game from `diplo.model.rules.Rules.to_json()` (each option by its name; absent ones
/// keep their defaults): read by [`Rules::set`], so a new option needs nothing here.
fn rules_of(raw: Option<&Bound<'_, PyDict>>) -> PyResult<Rules> {
    let mut rules = Rules::default();
    let Some(raw) = raw else {
        return Ok(rules);
    };
    for (key, value) in raw.iter() {
        let name: String = key
            .extract()
            .map_err(|_| PyValueError::new_err("rules: option names must be strings"))?;
        let text;
        let value = if value.is_none() {
            RuleValue::Count(None)
        } else if let Ok(b) = value.downcast::<PyBool>() {
            RuleValue::Flag(b.is_true())
        } else if let Ok(s) = value.downcast::<PyString>() {
            text = s.to_str()?.to_owned();
            RuleValue::Name(&text)
        } else {
            let n: i64 = value.extract().map_err(|_| {
                PyValueError::new_err(format!("rules: {name} must be a name, a count or a flag"))
            })?;
            let n = u32::try_from(n)
                .map_err(|_| PyValueError::new_err(format!("rules: {name} {n} is out of range")))?;
            RuleValue::Count(Some(n))
        };
        rules.set(&name, value)?;
    }
    Ok(rules)
}

/// What `run_orders` gives: the verdict (or, when some order was not read, nothing played:
/// the codes and the indices missing, as `CodeMap.submit_orders` gives them) and the powers.
type Submitted<'py> = (
    Option<PyVerdict>,
    Bound<'py, PyBytes>,
    Option<Bound<'py, PyList>>,
    Bound<'py, PyList>,
);

/// Why a `CodeGame` another call holds is refused (`InUseError`).
const IN_USE: &str = "this CodeGame is in use by another thread (inside process_batch, which \
                      holds its games while it runs): use a CodeGame from one thread at a time \
                      (docs/design.md, 'Threads')";

#[pymethods]
impl PyCodeGame {
    #[new]
    #[pyo3(signature = (map, year, season, kind, units, centers, dislodged, max_year=None, rules=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        map: &Bound<'_, PyCodeMap>,
        year: i64,
        season: &str,
        kind: &str,
        units: Vec<RawPiece>,
        centers: Vec<(i64, i64)>,
        dislodged: Vec<(RawPiece, Vec<i64>)>,
        max_year: Option<i64>,
        rules: Option<Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let map = map.get().map;
        guarded(|| {
            let rules = rules_of(rules.as_ref())?;
            let max_year =
                match max_year {
                    None => None,
                    Some(y) => Some(u32::try_from(y).map_err(|_| {
                        PyValueError::new_err(format!("max_year {y} is not a year"))
                    })?),
                };
            on_map!(map, map => {
                let state = State::with_rules(
                    map, year, season, kind, &units, &centers, &dislodged, rules,
                )
                .map_err(|e| e.within("bad position"))?;
                Ok(PyCodeGame {
                    game: super::any::new_game(map, state, max_year),
                })
            })
        })
    }

    #[getter]
    fn phase(slf: &Bound<'_, Self>) -> PyResult<String> {
        let this = held(slf, IN_USE)?;
        guarded(|| Ok(on_game!(&this.game, g => g.state.phase_name())))
    }

    #[getter]
    fn is_over(slf: &Bound<'_, Self>) -> PyResult<bool> {
        let this = held(slf, IN_USE)?;
        Ok(this.game.over())
    }

    #[getter]
    fn winner(slf: &Bound<'_, Self>) -> PyResult<Option<&'static str>> {
        let this = held(slf, IN_USE)?;
        guarded(|| Ok(on_game!(&this.game, g => g.winner.map(|w| g.map.power_name(w as usize)))))
    }

    #[getter]
    fn max_year(slf: &Bound<'_, Self>) -> PyResult<Option<u32>> {
        let this = held(slf, IN_USE)?;
        Ok(on_game!(&this.game, g => g.max_year))
    }

    fn legal_orders<'py>(slf: &Bound<'_, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let this = held(slf, IN_USE)?;
        guarded(|| {
            on_game!(&this.game, g => g.with_legal(|legal, slots| {
                let mut lists = Vec::with_capacity(slots.len());
                for s in slots {
                    lists.push(code_list(py, legal.codes_of(s))?);
                }
                PyList::new(py, lists)
            }))
        })
    }

    /// `legal_orders` less the legal supports MILA's possible orders leave out: under
    /// `convoyed_support="any_route"` a support of a convoyed move MILA takes but lists only
    /// by a chain without the supporter (`Legal::mila_listed`); under every other rule, the
    /// legal orders.
    fn listed_orders<'py>(slf: &Bound<'_, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let this = held(slf, IN_USE)?;
        guarded(|| {
            on_game!(&this.game, g => g.with_legal(|legal, slots| {
                let mut lists = Vec::with_capacity(slots.len());
                let mut kept = Vec::new();
                for s in slots {
                    kept.clear();
                    kept.extend(
                        legal
                            .codes_of(s)
                            .iter()
                            .copied()
                            .filter(|&c| legal.mila_listed(g.map, &g.state, c)),
                    );
                    lists.push(code_list(py, &kept)?);
                }
                PyList::new(py, lists)
            }))
        })
    }

    fn slots<'py>(slf: &Bound<'_, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let this = held(slf, IN_USE)?;
        guarded(|| {
            on_game!(&this.game, g => {
                let map = g.map;
                let pairs: Vec<(&str, &str)> = g.with_legal(|_, slots| {
                    slots
                        .iter()
                        .map(|s| {
                            let key = if s.key_is_power {
                                map.power_name(s.key as usize)
                            } else {
                                map.loc_name(s.key as usize)
                            };
                            (map.power_name(s.power as usize), key)
                        })
                        .collect()
                });
                PyList::new(py, pairs)
            })
        })
    }

    fn set_orders(slf: &Bound<'_, Self>, orders: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut this = held_mut(slf, IN_USE)?;
        if this.game.over() {
            return Err(game_over());
        }
        // Read everything first: a rejected argument leaves the pending orders as they were.
        let mut codes = Vec::new();
        guarded(|| read_codes(orders, &mut codes))?;
        on_game!(&mut this.game, g => g.orders = codes);
        Ok(())
    }

    /// Rules on the phase and moves on; returns the phase's results (`Outcome`), which the
    /// game does not keep.
    fn process(slf: &Bound<'_, Self>) -> PyResult<PyOutcome> {
        let mut this = held_mut(slf, IN_USE)?;
        if this.game.over() {
            return Err(game_over());
        }
        let mut outcome = spare_outcome();
        guarded(|| on_game!(&mut this.game, g => process_checked(g, &mut outcome)))?;
        Ok(PyOutcome { outcome })
    }

    /// `(year, season, kind, units, centers, dislodged)` with units `(power, is_fleet, loc)`,
    /// centres `(province, power)` and dislodged `(power, is_fleet, loc, options)`.
    fn state(slf: &Bound<'_, Self>) -> PyResult<RawState> {
        let this = held(slf, IN_USE)?;
        guarded(|| on_game!(&this.game, g => Ok(documents::raw_state(g.map, &g.state))))
    }

    fn clone(slf: &Bound<'_, Self>) -> PyResult<PyCodeGame> {
        let this = held(slf, IN_USE)?;
        Ok(this.clone_game())
    }

    /// Submits `codes` given by `powers` (bytes, one power index per code; 255: the owner),
    /// processes the phase and returns its ruling, explained (`Verdict`).
    fn run(
        &mut self,
        codes: &Bound<'_, PyAny>,
        powers: &Bound<'_, PyBytes>,
    ) -> PyResult<PyVerdict> {
        if self.game.over() {
            return Err(game_over());
        }
        guarded(|| {
            on_game!(&mut self.game, g => {
                read_codes(codes, &mut g.orders)?;
                let p = powers.as_bytes();
                if p.len() != g.orders.len() {
                    return Err(PyValueError::new_err(format!(
                        "{} codes but {} powers",
                        g.orders.len(),
                        p.len()
                    )));
                }
                g.powers.clear();
                g.powers.extend_from_slice(p);
                let done = rule_checked(g, false);
                g.powers.clear();
                if done.is_err() {
                    g.orders.clear();
                }
                Ok(PyVerdict::new(done?))
            })
        })
    }

    /// `CodeMap.submit_orders` and `run` in one call, the codes kept in Rust: reads `orders` (a
    /// dict of lists or tuples by power; `power_index` the map's powers by name) as `map`'s
    /// `submit_orders` does and, when every order was read there, plays the phase on them as
    /// `run` does: `(verdict, powers, None, [])`, `powers` the power index of every code. When
    /// an order needs the general parser or the model's intake, nothing is played: `(None,
    /// powers, codes, missing)`, what `submit_orders` gives (each text read once: the caller
    /// reads the missing ones, then runs). `None` when the orders are not a dict of lists or
    /// tuples.
    fn run_orders<'py>(
        &mut self,
        py: Python<'py>,
        map: &Bound<'py, PyCodeMap>,
        orders: &Bound<'py, PyAny>,
        power_index: &Bound<'py, PyDict>,
    ) -> PyResult<Option<Submitted<'py>>> {
        if self.game.over() {
            return Err(game_over());
        }
        let classes = &map.get().classes;
        guarded(|| {
            on_game!(&mut self.game, g => {
                let mut codes = Vec::with_capacity(40);
                let mut powers = Vec::with_capacity(40);
                let mut missing = Vec::new();
                let whole = read_submission(
                    g.map, classes, orders, power_index, &mut codes, &mut powers, &mut missing,
                )?;
                if !whole {
                    return Ok(None);
                }
                if !missing.is_empty() {
                    let (codes, missing) = (PyList::new(py, codes)?, PyList::new(py, missing)?);
                    return Ok(Some((None, PyBytes::new(py, &powers), Some(codes), missing)));
                }
                g.orders = codes;
                g.powers.clear();
                g.powers.extend_from_slice(&powers);
                let done = rule_checked(g, false);
                g.powers.clear();
                if done.is_err() {
                    g.orders.clear();
                }
                let none = PyList::empty(py);
                Ok(Some((Some(PyVerdict::new(done?)), PyBytes::new(py, &powers), None, none)))
            })
        })
    }

    /// What validation makes of `code` given by the power `power` (255: its unit's owner) in
    /// this phase, nothing played: `(reason, normal)`, the reason an index of `REASON_NAMES`
    /// (0 when legal) and the normal form (0 when refused).
    #[pyo3(signature = (code, power=255))]
    fn judge(&self, code: Code, power: u8) -> PyResult<(u32, i64)> {
        guarded(|| {
            on_game!(&self.game, g => {
                let (reason, normal) = g.judge(code, power);
                Ok((u32::from(reason), signed(normal)))
            })
        })
    }

    /// What validation makes of `codes` given by `powers` (as `run` takes them) in this phase,
    /// nothing played: per code its reason (an index of `REASON_NAMES`, 0 when legal), the one
    /// `run` would give in its verdict's `reasons`; the game is neither changed nor cloned.
    fn judge_all(
        slf: &Bound<'_, Self>,
        codes: &Bound<'_, PyAny>,
        powers: &Bound<'_, PyBytes>,
    ) -> PyResult<Vec<u32>> {
        let this = held(slf, IN_USE)?;
        guarded(|| {
            let mut read = Vec::new();
            read_codes(codes, &mut read)?;
            let p = powers.as_bytes();
            if p.len() != read.len() {
                return Err(PyValueError::new_err(format!(
                    "{} codes but {} powers",
                    read.len(),
                    p.len()
                )));
            }
            let mut reasons = Vec::with_capacity(read.len());
            on_game!(&this.game, g => g.judge_all(&read, p, &mut reasons));
            Ok(reasons.into_iter().map(u32::from).collect())
        })
    }

    /// The canonical texts of normal-form codes in the current state.
    fn texts<'py>(&self, py: Python<'py>, codes: Vec<Code>) -> PyResult<Bound<'py, PyList>> {
        guarded(|| {
            on_game!(&self.game, g => {
                let mut buf = String::new();
                let map = g.map;
                let st = &g.state;
                let items: Vec<Bound<'py, PyString>> = codes
                    .iter()
                    .map(|&c| {
                        crate::engine::text::order_text(map, st, c, &mut buf);
                        PyString::new(py, &buf)
                    })
                    .collect();
                PyList::new(py, items)
            })
        })
    }

    /// The legal orders per slot as `(codes, texts, slots)`: one list of codes and one of
    /// texts per slot, each sorted by text (as `diplo.reference.legal.legal_orders` sorts), and the slots'
    /// `(power, key)` as `slots` names them.
    #[allow(clippy::type_complexity)]
    fn legal_texts<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyList>, Bound<'py, PyList>)> {
        guarded(|| {
            on_game!(&self.game, g => {
                let map = g.map;
                let st = &g.state;
                let names = map_names(py, map);
                let mut cache = names.texts.lock().unwrap_or_else(|e| e.into_inner());
                g.with_legal(|legal, slots| {
                    let mut codes = Vec::with_capacity(slots.len());
                    let mut texts = Vec::with_capacity(slots.len());
                    let mut keys = Vec::with_capacity(slots.len());
                    let mut pairs: Vec<(u32, Code)> = Vec::new();
                    for s in slots {
                        pairs.clear();
                        for &c in legal.codes_of(s) {
                            pairs.push((cache.get(py, map, st, c), c));
                        }
                        let arena = &cache.arena;
                        pairs
                            .sort_unstable_by(|x, y| arena[x.0 as usize].0.cmp(&arena[y.0 as usize].0));
                        codes.push(PyList::new(py, pairs.iter().map(|p| signed(p.1)))?);
                        texts.push(PyList::new(
                            py,
                            pairs.iter().map(|p| arena[p.0 as usize].1.bind(py)),
                        )?);
                        let key = if s.key_is_power {
                            &names.powers[s.key as usize]
                        } else {
                            &names.locations[s.key as usize]
                        };
                        keys.push((names.powers[s.power as usize].bind(py), key.bind(py)));
                    }
                    Ok((
                        PyList::new(py, codes)?,
                        PyList::new(py, texts)?,
                        PyList::new(py, keys)?,
                    ))
                })
            })
        })
    }

    /// Every power's legal order texts as `diplo.api.legal.legal_order_texts` gives them, per power
    /// that has a slot: `{power: {key: [text, ...]}}`, keys in that function's order (provinces
    /// sorted, then the power's waive), each list sorted by text.
    fn legal_by_power<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        on_game!(&self.game, g => texts_by_power(g, py, None))
    }

    /// One power's entry of `legal_by_power` (`{key: [text, ...]}`, empty when the power has no
    /// slot), made afresh on each call (the lists are the caller's), without making the other
    /// powers' texts.
    fn legal_of<'py>(&self, py: Python<'py>, power: usize) -> PyResult<Bound<'py, PyDict>> {
        if power >= self.game.map().powers() {
            return Err(PyValueError::new_err(format!(
                "{power} is not a power index"
            )));
        }
        let all = on_game!(&self.game, g => texts_by_power(g, py, Some(power as u8)))?;
        let name = on_game!(&self.game, g => map_names(py, g.map)).powers[power].bind(py);
        match all.get_item(name)? {
            Some(d) => Ok(d.downcast_into::<PyDict>()?),
            None => Ok(PyDict::new(py)),
        }
    }

    /// The powers with something to order, in map order: those with a slot other than a waive
    /// (the keys of `legal_by_power` other than the power itself), without making any text.
    fn orderable<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        guarded(|| {
            on_game!(&self.game, g => {
                let map = g.map;
                let names = map_names(py, map);
                let mut has = vec![false; map.powers];
                g.with_legal(|_, slots| {
                    for s in slots.iter().filter(|s| !s.key_is_power) {
                        has[s.power as usize] = true;
                    }
                });
                let found: Vec<&Bound<'py, PyString>> = (0..map.powers)
                    .filter(|&p| has[p])
                    .map(|p| names.powers[p].bind(py))
                    .collect();
                PyList::new(py, found)
            })
        })
    }
    /// The position as `diplo.model.position.Position.to_json` writes it: the phase, units and centres
    /// per power in map order (lists sorted), dislodged units per power with their options.
    fn position_json<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        guarded(|| on_game!(&self.game, g => documents::position_json(py, g.map, &g.state)))
    }

    /// `json.dumps` of `position_json` (with `phase` as the phase, `None`: null), byte for
    /// byte, on a map whose names need no JSON escape (the caller checks: printable ASCII
    /// without quote or backslash), for `diplo adjudicate --jsonl`.
    #[pyo3(signature = (phase))]
    fn position_json_text(&self, phase: Option<&str>) -> PyResult<String> {
        guarded(|| Ok(on_game!(&self.game, g => position_text(g.map, &g.state, phase))))
    }

    /// The board hash (`crate::engine::zobrist`), kept as the game is played.
    #[getter]
    fn hash(slf: &Bound<'_, Self>) -> PyResult<u64> {
        let this = held(slf, IN_USE)?;
        Ok(on_game!(&this.game, g => g.state.hash))
    }

    /// The board hash worked out from scratch (equal to `hash`; for tests).
    fn full_hash(&self) -> u64 {
        on_game!(&self.game, g => crate::engine::state::full_hash(g.map, &g.state))
    }

    /// The game's compact, versioned state (`crate::engine::search`), without the map.
    fn state_bytes<'py>(slf: &Bound<'_, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let this = held(slf, IN_USE)?;
        guarded(|| {
            Ok(PyBytes::new(
                py,
                &on_game!(&this.game, g => search::state_bytes(g)),
            ))
        })
    }

    /// The game of `state_bytes` on `map`, under `rules` (`diplo.model.rules.Rules.to_json()`) when
    /// given: the bytes keep only some options (`search::game_from_bytes_under`); damaged bytes
    /// or rules that do not match them raise `ValueError` naming the fault.
    #[staticmethod]
    #[pyo3(signature = (map, data, rules=None))]
    fn from_state_bytes(
        map: &Bound<'_, PyCodeMap>,
        data: &Bound<'_, PyBytes>,
        rules: Option<Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let map = map.get().map;
        guarded(|| {
            let given = match rules.as_ref() {
                None => None,
                Some(raw) => Some(rules_of(Some(raw))?),
            };
            on_map!(map, map => {
                search::game_from_bytes_under(map, data.as_bytes(), given)
                    .map(|game| PyCodeGame { game: Known::wrap(game) })
                    .map_err(|e| e.within("bad CodeGame state").into())
            })
        })
    }

    fn __copy__(&self) -> PyCodeGame {
        self.clone_game()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyCodeGame {
        self.clone_game()
    }

    /// Plays each order set of `candidates` (a sequence of code lists) from this position, the
    /// GIL released, without changing this game: `(hashes, centers, games)`, per candidate the
    /// next position's hash, the centres per power (map order) and the game to continue from.
    #[allow(clippy::type_complexity)]
    fn play_candidates(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        candidates: &Bound<'_, PyAny>,
    ) -> PyResult<(Vec<u64>, Vec<Vec<u32>>, Vec<PyCodeGame>)> {
        let this = held(slf, IN_USE)?;
        if this.game.over() {
            return Err(game_over());
        }
        if on_game!(&this.game, g => in_last_year(g)) {
            return Err(PyValueError::new_err(format!(
                "{} is in the last year a game may reach: play it with process, which refuses \
                 to go past it",
                on_game!(&this.game, g => g.state.phase_name())
            )));
        }
        guarded(|| {
            if candidates.is_instance_of::<PyString>() {
                return Err(PyValueError::new_err(
                    "candidates must be a sequence of code lists",
                ));
            }
            let mut sets = Vec::new();
            let items = candidates.try_iter().map_err(|_| {
                PyValueError::new_err("candidates must be a sequence of code lists")
            })?;
            for (i, item) in items.enumerate() {
                let mut codes = Vec::new();
                read_codes(&item?, &mut codes).map_err(|e| {
                    PyValueError::new_err(format!("candidates[{i}]: {}", e.value(py)))
                })?;
                sets.push(codes);
            }
            on_game!(&this.game, game => {
                let played = py
                    .allow_threads(|| search::play_candidates(game, &sets))
                    ?;
                let mut hashes = Vec::with_capacity(played.len());
                let mut centers = Vec::with_capacity(played.len());
                let mut games = Vec::with_capacity(played.len());
                for c in played {
                    hashes.push(c.hash);
                    centers.push(c.centers);
                    games.push(PyCodeGame { game: Known::wrap(c.game) });
                }
                Ok((hashes, centers, games))
            })
        })
    }

    /// Test hook: the next processing of this game panics inside the core.
    fn _poison(&mut self) {
        on_game!(&mut self.game, g => g.poisoned = true);
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let this = held(slf, IN_USE)?;
        guarded(|| {
            let state = if this.game.over() {
                "over".to_string()
            } else {
                on_game!(&this.game, g => g.state.phase_name())
            };
            Ok(format!("<CodeGame {state}>"))
        })
    }
}
