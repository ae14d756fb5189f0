//! PyO3 bindings of the fast path (`diplo._core.FastMap`, `FastGame`, `process_batch`), wrapped
//! by `python/diplo/fast.py`; typed in `python/diplo/_core.pyi`.
//!
//! Bad arguments raise `ValueError` naming the problem; a finished game raises
//! `GameOverError` (defined in `py_errors.rs`); every call runs inside `catch_unwind`, so a bug surfaces as
//! `RuntimeError` and no panic crosses into Python. Single-game calls keep the GIL (they take
//! microseconds); `process_batch` releases it and spreads the games over threads.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyInt, PyList, PyString, PyTuple};

use crate::fast::batch::{panic_message, process_all, process_all_with};
use crate::fast::game_map::{Bits, GameMap, MapSpec};
use crate::fast::phases::{forget_scratch, Game};
use crate::fast::rules::Rules;
use crate::fast::state::{State, MAX_YEAR, SPRING};

use crate::py_errors::GameOverError;

/// A code that is not a `u32` (negative, too large): malformed, so ruled illegal.
const GARBAGE: u32 = u32::MAX;

/// Set by `_panic_in_next_call` (a test hook): the next guarded call panics on entry.
static PANIC_NEXT: AtomicBool = AtomicBool::new(false);

/// Runs `f`, turning a panic into `RuntimeError`. Every entry point of the fast path and of
/// `py_texts` that does more than read a field runs inside it (one relaxed load when nothing
/// panics).
pub(crate) fn guarded<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    let run = || {
        if PANIC_NEXT.load(Ordering::Relaxed) && PANIC_NEXT.swap(false, Ordering::Relaxed) {
            panic!("deliberate panic (test hook)");
        }
        f()
    };
    match catch_unwind(AssertUnwindSafe(run)) {
        Ok(r) => r,
        Err(payload) => {
            forget_scratch();
            Err(PyRuntimeError::new_err(format!(
                "internal error in the diplo fast path: {}",
                panic_message(payload.as_ref())
            )))
        }
    }
}

fn indices(what: &str, v: &[i64]) -> PyResult<Vec<u16>> {
    v.iter()
        .map(|&x| {
            u16::try_from(x)
                .map_err(|_| PyValueError::new_err(format!("{what}: {x} is not an index")))
        })
        .collect()
}

/// A map compiled for the fast path (built once per map by `diplo.fast`).
#[pyclass(frozen, name = "FastMap", module = "diplo._core")]
pub struct PyFastMap {
    map: &'static GameMap,
}

#[pymethods]
impl PyFastMap {
    #[new]
    #[pyo3(signature = (
        locations, powers, loc_province, province_kind, army_adj, fleet_adj, centers, homes,
        name_rank, victory=0
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        locations: Vec<String>,
        powers: Vec<String>,
        loc_province: Vec<i64>,
        province_kind: Vec<i64>,
        army_adj: Vec<Vec<i64>>,
        fleet_adj: Vec<Vec<i64>>,
        centers: Vec<i64>,
        homes: Vec<Vec<i64>>,
        name_rank: Vec<i64>,
        victory: i64,
    ) -> PyResult<Self> {
        guarded(|| {
            let lists = |what: &str, v: &[Vec<i64>]| -> PyResult<Vec<Vec<u16>>> {
                v.iter().map(|l| indices(what, l)).collect()
            };
            let kinds = province_kind
                .iter()
                .map(|&k| {
                    u8::try_from(k).map_err(|_| {
                        PyValueError::new_err(format!("province kind {k} is not 0, 1 or 2"))
                    })
                })
                .collect::<PyResult<Vec<u8>>>()?;
            let spec = MapSpec {
                locations,
                powers,
                loc_province: indices("loc_province", &loc_province)?,
                province_kind: kinds,
                army_adj: lists("army_adj", &army_adj)?,
                fleet_adj: lists("fleet_adj", &fleet_adj)?,
                centers: indices("centers", &centers)?,
                homes: lists("homes", &homes)?,
                name_rank: indices("name_rank", &name_rank)?,
                victory: u32::try_from(victory).map_err(|_| {
                    PyValueError::new_err(format!("victory {victory} is not a count"))
                })?,
            };
            let map = GameMap::intern(spec).map_err(PyValueError::new_err)?;
            Ok(PyFastMap { map })
        })
    }

    #[getter]
    fn num_locations(&self) -> usize {
        self.map.locations
    }

    #[getter]
    fn num_provinces(&self) -> usize {
        self.map.provinces
    }

    #[getter]
    fn num_powers(&self) -> usize {
        self.map.powers
    }

    /// The codes of order objects (`diplo.orders` classes) read by their fields, without
    /// parsing: -1 for an item that is not one of them, names a place the map does not have, or
    /// needs more than its fields (a waive, an untyped build); the caller rules on those.
    fn encode_objects(&self, items: &Bound<'_, PyList>) -> PyResult<Vec<i64>> {
        guarded(|| {
            let map = self.map;
            let mut out = Vec::with_capacity(items.len());
            for item in items.iter() {
                out.push(encode_object(map, &item).map_or(-1, i64::from));
            }
            Ok(out)
        })
    }

    /// A phase's orders (`{power: [order, ...]}`, strings or order objects) as `(codes,
    /// powers)`, in the mapping's order: a string in the canonical short form is read by
    /// `fast::text::parse_canonical`, an object by its fields. `None` when some order needs the
    /// general parser or the reference (another notation, an unknown power, an object that is
    /// not an order).
    fn submit_orders<'py>(
        &self,
        py: Python<'py>,
        orders: &Bound<'py, PyAny>,
        power_index: &Bound<'py, PyDict>,
    ) -> PyResult<Option<(Bound<'py, PyList>, Bound<'py, PyBytes>)>> {
        guarded(|| {
            let map = self.map;
            let Ok(orders) = orders.downcast::<PyDict>() else {
                return Ok(None);
            };
            let mut codes: Vec<u32> = Vec::with_capacity(40);
            let mut powers: Vec<u8> = Vec::with_capacity(40);
            for (power, given) in orders.iter() {
                let Some(pi) = power_index.get_item(&power)? else {
                    return Ok(None);
                };
                let pi: u8 = pi.extract()?;
                let one = |item: Bound<'py, PyAny>| -> PyResult<Option<u32>> {
                    if item.is_exact_instance_of::<PyString>() {
                        let text = item.downcast::<PyString>()?.to_str()?;
                        if text == "WAIVE" {
                            return Ok(Some(crate::fast::encode::waive(pi as usize)));
                        }
                        return Ok(crate::fast::text::parse_canonical(map, text));
                    }
                    if item.get_type().name()?.to_str()? == "Waive" {
                        return Ok(Some(crate::fast::encode::waive(pi as usize)));
                    }
                    Ok(encode_object(map, &item))
                };
                if let Ok(list) = given.downcast::<PyList>() {
                    for item in list.iter() {
                        let Some(code) = one(item)? else {
                            return Ok(None);
                        };
                        codes.push(code);
                        powers.push(pi);
                    }
                } else if let Ok(tuple) = given.downcast::<PyTuple>() {
                    for item in tuple.iter() {
                        let Some(code) = one(item)? else {
                            return Ok(None);
                        };
                        codes.push(code);
                        powers.push(pi);
                    }
                } else {
                    return Ok(None);
                }
            }
            let _ = py;
            Ok(Some((PyList::new(py, codes)?, PyBytes::new(py, &powers))))
        })
    }

    /// A game at the position of an adjudicate document (`diplo.position.Position.from_json`'s
    /// input) written exactly in the canonical form: the phase as `S1901M`, powers by their
    /// names, units as `A PAR` / `F STP/SC`, centres and retreat options by their abbreviations.
    /// `None` for anything else, or a position that is not valid (the caller then reads the
    /// document with `Position.from_json`, which says what is wrong).
    fn read_position(&self, doc: &Bound<'_, PyAny>) -> PyResult<Option<PyFastGame>> {
        guarded(|| {
            let map = self.map;
            let Ok(doc) = doc.downcast::<PyDict>() else {
                return Ok(None);
            };
            let exact = |v: &Bound<'_, PyAny>| -> Option<String> {
                v.is_exact_instance_of::<PyString>()
                    .then(|| {
                        v.downcast::<PyString>()
                            .ok()?
                            .to_str()
                            .ok()
                            .map(str::to_string)
                    })
                    .flatten()
            };
            let Some(phase) = doc.get_item("phase")?.and_then(|v| exact(&v)) else {
                return Ok(None);
            };
            let b = phase.as_bytes();
            if b.len() < 3 || b.len() > 7 || !b[1..b.len() - 1].iter().all(u8::is_ascii_digit) {
                return Ok(None);
            }
            let Ok(year) = phase[1..phase.len() - 1].parse::<i64>() else {
                return Ok(None);
            };
            let power_of = |v: &Bound<'_, PyAny>| -> Option<i64> {
                let name = exact(v)?;
                map.spec
                    .powers
                    .iter()
                    .position(|p| *p == name)
                    .map(|i| i as i64)
            };
            let loc_of = |v: &Bound<'_, PyAny>| -> Option<i64> {
                map.loc_index.get(exact(v)?.as_str()).map(|&i| i64::from(i))
            };
            let unit_of = |power: i64, v: &Bound<'_, PyAny>| -> Option<RawPiece> {
                let text = exact(v)?;
                let (kind, loc) = text.split_once(' ')?;
                let fleet = match kind {
                    "A" => 0,
                    "F" => 1,
                    _ => return None,
                };
                Some((power, fleet, i64::from(*map.loc_index.get(loc)?)))
            };
            // `{power: value}` (absent or null: nothing), each power by its exact name.
            let by_power = |key: &str| -> PyResult<Option<PowerItems<'_>>> {
                let Some(raw) = doc.get_item(key)? else {
                    return Ok(Some(Vec::new()));
                };
                if raw.is_none() {
                    return Ok(Some(Vec::new()));
                }
                let Ok(raw) = raw.downcast::<PyDict>() else {
                    return Ok(None);
                };
                let mut out = Vec::with_capacity(raw.len());
                for (k, v) in raw.iter() {
                    let Some(p) = power_of(&k) else {
                        return Ok(None);
                    };
                    out.push((p, v));
                }
                Ok(Some(out))
            };
            let mut units = Vec::new();
            let mut centers = Vec::new();
            let mut dislodged = Vec::new();
            let Some(groups) = by_power("units")? else {
                return Ok(None);
            };
            for (p, list) in groups {
                let Ok(list) = list.downcast::<PyList>() else {
                    return Ok(None);
                };
                for item in list.iter() {
                    let Some(u) = unit_of(p, &item) else {
                        return Ok(None);
                    };
                    units.push(u);
                }
            }
            let Some(groups) = by_power("centers")? else {
                return Ok(None);
            };
            for (p, list) in groups {
                let Ok(list) = list.downcast::<PyList>() else {
                    return Ok(None);
                };
                for item in list.iter() {
                    match loc_of(&item) {
                        Some(c) if (c as usize) < map.provinces => centers.push((c, p)),
                        _ => return Ok(None),
                    }
                }
            }
            let Some(groups) = by_power("dislodged")? else {
                return Ok(None);
            };
            for (p, entries) in groups {
                let Ok(entries) = entries.downcast::<PyDict>() else {
                    return Ok(None);
                };
                for (unit, options) in entries.iter() {
                    let Some(u) = unit_of(p, &unit) else {
                        return Ok(None);
                    };
                    let Ok(options) = options.downcast::<PyList>() else {
                        return Ok(None);
                    };
                    let mut locs = Vec::with_capacity(options.len());
                    for o in options.iter() {
                        let Some(l) = loc_of(&o) else {
                            return Ok(None);
                        };
                        locs.push(l);
                    }
                    dislodged.push((u, locs));
                }
            }
            let season = &phase[..1];
            let kind = &phase[phase.len() - 1..];
            Ok(
                State::new(map, year, season, kind, &units, &centers, &dislodged)
                    .ok()
                    .map(|state| PyFastGame {
                        game: Game::new(map, state, None),
                    }),
            )
        })
    }

    /// The code of an order text in the canonical short form, or `None` (see
    /// `fast::text::parse_canonical`).
    fn parse_canonical(&self, text: &str) -> PyResult<Option<u32>> {
        guarded(|| Ok(crate::fast::text::parse_canonical(self.map, text)))
    }

    fn __repr__(&self) -> String {
        format!(
            "FastMap(num_provinces={}, num_locations={}, num_powers={})",
            self.map.provinces, self.map.locations, self.map.powers
        )
    }
}

/// Reads one code: an `int`; one outside `0..2**32` is kept as a malformed code.
fn code_of(i: usize, item: &Bound<'_, PyAny>) -> PyResult<u32> {
    if item.is_instance_of::<PyBool>() {
        return Err(PyValueError::new_err(format!(
            "orders[{i}]: expected an int code, got a bool"
        )));
    }
    match item.extract::<i64>() {
        Ok(v) => Ok(u32::try_from(v).unwrap_or(GARBAGE)),
        Err(_) if item.is_instance_of::<PyInt>() => Ok(GARBAGE),
        Err(_) => Err(PyValueError::new_err(format!(
            "orders[{i}]: expected an int code, got {}",
            item.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_else(|_| "?".into())
        ))),
    }
}

/// Reads a sequence of codes into `out`.
fn read_codes(orders: &Bound<'_, PyAny>, out: &mut Vec<u32>) -> PyResult<()> {
    out.clear();
    if let Ok(list) = orders.downcast::<PyList>() {
        // The common case, read without PyO3's general conversion (this loop runs under the
        // GIL before a batch goes parallel): a list of exact ints.
        let py = orders.py();
        let n = list.len();
        out.reserve(n);
        for i in 0..n {
            // SAFETY: `i` is below the length and no Python code runs while the borrowed item
            // is used, so the list cannot change under us.
            let item = unsafe { ffi::PyList_GetItem(list.as_ptr(), i as ffi::Py_ssize_t) };
            if item.is_null() {
                return Err(PyErr::fetch(py));
            }
            // SAFETY: `item` is a live object.
            if unsafe { ffi::PyLong_CheckExact(item) } != 0 {
                // SAFETY: `item` is an int.
                let v = unsafe { ffi::PyLong_AsLongLong(item) };
                if v == -1 && PyErr::take(py).is_some() {
                    out.push(GARBAGE); // beyond 64 bits
                } else {
                    out.push(u32::try_from(v).unwrap_or(GARBAGE));
                }
            } else {
                // SAFETY: a borrowed reference to a live object, used at once.
                let item = unsafe { Bound::from_borrowed_ptr(py, item) };
                out.push(code_of(i, &item)?);
            }
        }
        return Ok(());
    }
    if let Ok(tuple) = orders.downcast::<PyTuple>() {
        for (i, item) in tuple.iter().enumerate() {
            out.push(code_of(i, &item)?);
        }
        return Ok(());
    }
    if orders.is_instance_of::<PyString>() || orders.is_instance_of::<PyBytes>() {
        return Err(PyValueError::new_err(
            "orders must be a sequence of int codes, not a string",
        ));
    }
    let iter = orders
        .try_iter()
        .map_err(|_| PyValueError::new_err("orders must be a sequence of int codes"))?;
    for (i, item) in iter.enumerate() {
        out.push(code_of(i, &item?)?);
    }
    Ok(())
}

type RawPiece = (i64, i64, i64);

/// `(civil_disorder, build_sites, victory_centers, year_limit)` as `diplo.rules.Rules` names them.
type RawRules = (String, String, Option<i64>, Option<i64>);

fn rules_of(raw: Option<RawRules>) -> PyResult<Rules> {
    let Some((civil_disorder, build_sites, victory, limit)) = raw else {
        return Ok(Rules::default());
    };
    let count = |what: &str, v: Option<i64>| -> PyResult<Option<u32>> {
        v.map(|x| {
            u32::try_from(x)
                .map_err(|_| PyValueError::new_err(format!("rules: {what} {x} is out of range")))
        })
        .transpose()
    };
    Rules::from_names(
        &civil_disorder,
        &build_sites,
        count("victory_centers", victory)?,
        count("year_limit", limit)?,
    )
    .map_err(PyValueError::new_err)
}

/// A document's `{power: value}` entries, the power as its index.
type PowerItems<'py> = Vec<(i64, Bound<'py, PyAny>)>;

/// The names a map's results are made of, as Python strings made once per map, and the map's
/// order texts made so far: the one home of the Python strings of a map (`py_texts` keeps its
/// MILA texts here too).
pub(crate) struct MapNames {
    map: usize,
    /// Canonical order texts already made (see [`text_key`]).
    texts: std::sync::Mutex<TextCache>,
    /// MILA's texts already made, with their codes as Python ints (see `py_texts`).
    pub(crate) mila: std::sync::Mutex<MilaTexts>,
    pub(crate) locations: Vec<Py<PyString>>,
    pub(crate) powers: Vec<Py<PyString>>,
    kinds: Vec<Py<PyString>>,
    codes: Vec<Py<PyString>>,
}

/// Texts made once and kept by key: `index` maps a key to its entry in `arena`.
pub(crate) struct TextArena<K, E> {
    pub(crate) index: std::collections::HashMap<K, u32, std::hash::BuildHasherDefault<KeyHasher>>,
    pub(crate) arena: Vec<E>,
}

impl<K, E> Default for TextArena<K, E> {
    fn default() -> Self {
        TextArena {
            index: std::collections::HashMap::default(),
            arena: Vec::new(),
        }
    }
}

/// MILA's order texts by `py_texts`'s key: the text, as a Python string, and its code as a
/// Python int (a text is one code's). Most orders recur from phase to phase, so a phase mostly
/// reuses Python strings, their hashes included.
pub(crate) type MilaTexts = TextArena<u64, (Box<str>, Py<PyString>, Py<PyAny>)>;

/// Order texts as Rust and Python strings, by [`text_key`]: a map has a bounded number of them
/// (every order of every unit type at every place), so they are made once.
type TextCache = TextArena<u32, (Box<str>, Py<PyString>)>;

/// A hasher for integer text keys (a multiply: the keys are already well spread).
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u32(&mut self, v: u32) {
        self.0 = u64::from(v).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }
}

/// What the text of `code` in `st` depends on: the code, the ordered unit's type, and for a
/// support or convoy the named unit's type and exact location (`F SPA/NC`) in place of its
/// province. Bits 27-30 are free in a well-formed code.
fn text_key(map: &GameMap, st: &State, code: u32) -> u32 {
    use crate::fast::encode::{self, kind};
    let k = encode::kind_of(code);
    if k == kind::BUILD || k == kind::WAIVE {
        return code;
    }
    let prov = map.prov_of[encode::loc_of(code)] as usize;
    let mut me = st.units[prov];
    if st.kind == crate::fast::state::RETREATS && st.dislodged[prov].is_some() {
        me = st.dislodged[prov];
    }
    let mut key = code;
    if !me.is_some() {
        key |= 1 << 30;
    } else if me.fleet {
        key |= 1 << 27;
    }
    if k == kind::SUPPORT_HOLD || k == kind::SUPPORT_MOVE || k == kind::CONVOY {
        let named = st.units[encode::a_of(code)];
        if named.is_some() {
            key = (key & !(0x7F << 11)) | (u32::from(named.loc) << 11);
            if named.fleet {
                key |= 1 << 28;
            }
        } else {
            key |= 1 << 29;
        }
    }
    key
}

impl TextArena<u32, (Box<str>, Py<PyString>)> {
    /// The arena index of the text of `code` in `st`, made on first use.
    fn get(&mut self, py: Python<'_>, map: &GameMap, st: &State, code: u32) -> u32 {
        let key = text_key(map, st, code);
        if let Some(&i) = self.index.get(&key) {
            return i;
        }
        let mut buf = String::new();
        crate::fast::text::order_text(map, st, code, &mut buf);
        let i = self.arena.len() as u32;
        let py_text = PyString::new(py, &buf).unbind();
        self.arena.push((buf.into_boxed_str(), py_text));
        self.index.insert(key, i);
        i
    }
}

/// The Python names of `map` (made on first use, kept for the life of the process, as the map
/// itself is).
pub(crate) fn map_names(py: Python<'_>, map: &'static GameMap) -> &'static MapNames {
    static ALL: std::sync::Mutex<Vec<&'static MapNames>> = std::sync::Mutex::new(Vec::new());
    let key = map as *const GameMap as usize;
    let mut all = ALL.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(found) = all.iter().find(|n| n.map == key) {
        return found;
    }
    let strings = |v: &[&str]| -> Vec<Py<PyString>> {
        v.iter().map(|s| PyString::intern(py, s).unbind()).collect()
    };
    let locations: Vec<&str> = map.spec.locations.iter().map(String::as_str).collect();
    let powers: Vec<&str> = map.spec.powers.iter().map(String::as_str).collect();
    let names: &'static MapNames = Box::leak(Box::new(MapNames {
        map: key,
        texts: std::sync::Mutex::new(TextCache::default()),
        mila: std::sync::Mutex::new(TextArena::default()),
        locations: strings(&locations),
        powers: strings(&powers),
        kinds: strings(&[
            "Hold",
            "Move",
            "SupportHold",
            "SupportMove",
            "Convoy",
            "Retreat",
            "Disband",
            "Build",
            "Waive",
        ]),
        codes: strings(&[
            "ok",
            "bounce",
            "cut",
            "dislodged",
            "no_convoy",
            "void",
            "illegal",
        ]),
    }));
    all.push(names);
    names
}

/// A location named by a string attribute of `obj`.
fn loc_attr(map: &GameMap, obj: &Bound<'_, PyAny>, name: &Bound<'_, PyString>) -> Option<usize> {
    let value = obj.getattr(name).ok()?;
    let text = value.downcast::<PyString>().ok()?;
    map.loc_index.get(text.to_str().ok()?).map(|&i| i as usize)
}

/// The location of the unit in attribute `name` of `obj` (a `diplo.orders.Unit`).
fn unit_loc(map: &GameMap, obj: &Bound<'_, PyAny>, name: &Bound<'_, PyString>) -> Option<usize> {
    let py = obj.py();
    loc_attr(map, &obj.getattr(name).ok()?, pyo3::intern!(py, "loc"))
}

/// One order object as a code (see `PyFastMap::encode_objects`).
fn encode_object(map: &GameMap, item: &Bound<'_, PyAny>) -> Option<u32> {
    use crate::fast::encode;
    let ty = item.get_type();
    let name = ty.name().ok()?;
    let name = name.to_str().ok()?;
    let py = item.py();
    let prov = |l: usize| map.prov_of[l] as usize;
    let here = || unit_loc(map, item, pyo3::intern!(py, "unit"));
    let dest = || loc_attr(map, item, pyo3::intern!(py, "dest"));
    Some(match name {
        "Hold" => encode::hold(here()?),
        "Move" => {
            let via = item
                .getattr(pyo3::intern!(py, "via"))
                .ok()?
                .is_truthy()
                .ok()?;
            encode::move_to(here()?, dest()?, via)
        }
        "SupportHold" => encode::support_hold(
            here()?,
            prov(unit_loc(map, item, pyo3::intern!(py, "supported"))?),
        ),
        "SupportMove" => encode::support_move(
            here()?,
            prov(unit_loc(map, item, pyo3::intern!(py, "supported"))?),
            dest()?,
        ),
        "Convoy" => encode::convoy(
            here()?,
            prov(unit_loc(map, item, pyo3::intern!(py, "army"))?),
            prov(dest()?),
        ),
        "Retreat" => encode::retreat(here()?, dest()?),
        "Disband" => encode::disband(here()?),
        "Build" => {
            let unit = item.getattr(pyo3::intern!(py, "unit")).ok()?;
            let t = unit.getattr(pyo3::intern!(py, "type")).ok()?;
            let fleet = match t.downcast::<PyString>().ok()?.to_str().ok()? {
                "A" => false,
                "F" => true,
                _ => return None,
            };
            encode::build(loc_attr(map, &unit, pyo3::intern!(py, "loc"))?, fleet)
        }
        _ => return None,
    })
}

/// Whether processing `game` might take it past [`MAX_YEAR`] (a Fall or Winter of that year).
fn in_last_year(game: &Game) -> bool {
    !game.over && game.state.year >= MAX_YEAR && game.state.season != SPRING
}

/// One game on the fast path (wrapped by `diplo.fast.FastGame`).
#[pyclass(name = "FastGame", module = "diplo._core")]
pub struct PyFastGame {
    pub(crate) game: Game,
}

fn game_over() -> PyErr {
    GameOverError::new_err("the game is over")
}

#[pymethods]
impl PyFastGame {
    #[new]
    #[pyo3(signature = (map, year, season, kind, units, centers, dislodged, max_year=None, rules=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        map: &Bound<'_, PyFastMap>,
        year: i64,
        season: &str,
        kind: &str,
        units: Vec<RawPiece>,
        centers: Vec<(i64, i64)>,
        dislodged: Vec<(RawPiece, Vec<i64>)>,
        max_year: Option<i64>,
        rules: Option<RawRules>,
    ) -> PyResult<Self> {
        let map = map.get().map;
        guarded(|| {
            let mut state = State::new(map, year, season, kind, &units, &centers, &dislodged)
                .map_err(|e| PyValueError::new_err(format!("bad position: {e}")))?;
            state.rules = rules_of(rules)?;
            let max_year =
                match max_year {
                    None => None,
                    Some(y) => Some(u32::try_from(y).map_err(|_| {
                        PyValueError::new_err(format!("max_year {y} is not a year"))
                    })?),
                };
            Ok(PyFastGame {
                game: Game::new(map, state, max_year),
            })
        })
    }

    #[getter]
    fn phase(&self) -> PyResult<String> {
        guarded(|| Ok(self.game.state.phase_name()))
    }

    #[getter]
    fn is_over(&self) -> bool {
        self.game.over
    }

    #[getter]
    fn winner(&self) -> PyResult<Option<&str>> {
        guarded(|| {
            Ok(self
                .game
                .winner
                .map(|w| self.game.map.power_name(w as usize)))
        })
    }

    #[getter]
    fn max_year(&self) -> Option<u32> {
        self.game.max_year
    }

    fn legal_orders<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        guarded(|| {
            self.game.with_legal(|legal, slots| {
                let mut lists = Vec::with_capacity(slots.len());
                for s in slots {
                    lists.push(PyList::new(py, legal.codes_of(s).iter().copied())?);
                }
                PyList::new(py, lists)
            })
        })
    }

    fn slots<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let map = self.game.map;
        guarded(|| {
            let pairs: Vec<(&str, &str)> = self.game.with_legal(|_, slots| {
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
    }

    fn set_orders(&mut self, orders: &Bound<'_, PyAny>) -> PyResult<()> {
        if self.game.over {
            return Err(game_over());
        }
        // Read everything first: a rejected argument leaves the pending orders as they were.
        let mut codes = Vec::new();
        guarded(|| read_codes(orders, &mut codes))?;
        self.game.orders = codes;
        Ok(())
    }

    fn process(&mut self) -> PyResult<()> {
        if self.game.over {
            return Err(game_over());
        }
        guarded(|| {
            if in_last_year(&self.game) {
                // Rare: play a copy, kept only if it stays within the years a state may have.
                let mut trial = self.game.clone();
                trial
                    .process()
                    .map_err(|e| PyRuntimeError::new_err(format!("internal error: {e}")))?;
                if trial.state.year > MAX_YEAR {
                    return Err(PyValueError::new_err(format!(
                        "{}: the game cannot go past the year {MAX_YEAR}",
                        self.game.state.phase_name()
                    )));
                }
                self.game = trial;
                return Ok(());
            }
            self.game
                .process()
                .map_err(|e| PyRuntimeError::new_err(format!("internal error: {e}")))
        })
    }

    fn result_codes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        guarded(|| {
            // Not `Vec<u8>`: PyO3 would make that `bytes`.
            PyList::new(py, self.game.results.iter().map(|&c| u32::from(c)))
        })
    }

    fn result_success(&self) -> Vec<bool> {
        self.game.success.clone()
    }

    fn implied_results(&self) -> Vec<(u32, u8, bool)> {
        self.game.implied.clone()
    }

    /// `(year, season, kind, units, centers, dislodged)` with units `(power, is_fleet, loc)`,
    /// centres `(province, power)` and dislodged `(power, is_fleet, loc, options)`.
    #[allow(clippy::type_complexity)]
    fn state(
        &self,
    ) -> PyResult<(
        u32,
        &'static str,
        &'static str,
        Vec<(u8, bool, u8)>,
        Vec<(usize, u8)>,
        Vec<(u8, bool, u8, Vec<usize>)>,
    )> {
        guarded(|| {
            let st = &self.game.state;
            let map = self.game.map;
            let season = ["S", "F", "W"][st.season as usize];
            let kind = ["M", "R", "A"][st.kind as usize];
            let mut units = Vec::new();
            let mut centers = Vec::new();
            let mut dislodged = Vec::new();
            for q in 0..map.provinces {
                let u = st.units[q];
                if u.is_some() {
                    units.push((u.power, u.fleet, u.loc));
                }
                if st.centers[q] != crate::fast::game_map::NO_POWER {
                    centers.push((q, st.centers[q]));
                }
                let d = st.dislodged[q];
                if d.is_some() {
                    dislodged.push((d.power, d.fleet, d.loc, Bits(st.retreats[q]).collect()));
                }
            }
            Ok((st.year, season, kind, units, centers, dislodged))
        })
    }

    fn clone(&self) -> PyFastGame {
        let mut game = self.game.clone();
        game.poisoned = false;
        PyFastGame { game }
    }

    /// Submits `codes` given by `powers` (bytes, one power index per code; 255: the owner) and
    /// processes the phase, recording the explanations (`reasons`, `normal_forms`, `facts`,
    /// `gone`).
    fn run(&mut self, codes: &Bound<'_, PyAny>, powers: &Bound<'_, PyBytes>) -> PyResult<()> {
        if self.game.over {
            return Err(game_over());
        }
        guarded(|| {
            read_codes(codes, &mut self.game.orders)?;
            let p = powers.as_bytes();
            if p.len() != self.game.orders.len() {
                return Err(PyValueError::new_err(format!(
                    "{} codes but {} powers",
                    self.game.orders.len(),
                    p.len()
                )));
            }
            self.game.powers.clear();
            self.game.powers.extend_from_slice(p);
            self.game.explain = true;
            let done = self.game.process();
            self.game.explain = false;
            self.game.powers.clear();
            done.map_err(|e| PyRuntimeError::new_err(format!("internal error: {e}")))
        })
    }

    /// Per code of the last `run`: its reason code (index of `REASON_NAMES`; 0 when legal).
    fn reasons<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        guarded(|| PyList::new(py, self.game.reasons.iter().map(|&c| u32::from(c))))
    }

    /// Per code of the last `run`: its normal form (0 when refused).
    fn normal_forms(&self) -> Vec<u32> {
        self.game.normal.clone()
    }

    /// Movement, last `run`: per code then per implied hold, `(dislodged_by, by, attack,
    /// opposition, convoyed, szykman)` (locations, -1 for none).
    fn facts(&self) -> Vec<(i32, i32, u8, u8, bool, bool)> {
        self.game
            .facts
            .iter()
            .map(|f| {
                (
                    f.dislodged_by,
                    f.by,
                    f.attack,
                    f.opposition,
                    f.convoyed,
                    f.szykman,
                )
            })
            .collect()
    }

    /// Movement, last `run`: every dislodged unit `(power, is_fleet, loc, options)`.
    #[allow(clippy::type_complexity)]
    fn gone(&self) -> PyResult<Vec<(u8, bool, u8, Vec<usize>)>> {
        guarded(|| {
            Ok(self
                .game
                .gone
                .iter()
                .map(|(p, m)| (p.power, p.fleet, p.loc, Bits(*m).collect()))
                .collect())
        })
    }

    /// The canonical texts of normal-form codes in the current state.
    fn texts<'py>(&self, py: Python<'py>, codes: Vec<u32>) -> PyResult<Bound<'py, PyList>> {
        guarded(|| {
            let mut buf = String::new();
            let map = self.game.map;
            let st = &self.game.state;
            let items: Vec<Bound<'py, PyString>> = codes
                .iter()
                .map(|&c| {
                    crate::fast::text::order_text(map, st, c, &mut buf);
                    PyString::new(py, &buf)
                })
                .collect();
            PyList::new(py, items)
        })
    }

    /// The legal orders per slot as `(codes, texts, slots)`: one list of codes and one of
    /// texts per slot, each sorted by text (as `diplo.legal.legal_orders` sorts), and the slots'
    /// `(power, key)` as `slots` names them.
    #[allow(clippy::type_complexity)]
    fn legal_texts<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyList>, Bound<'py, PyList>)> {
        let map = self.game.map;
        let st = &self.game.state;
        let names = map_names(py, map);
        guarded(|| {
            let mut cache = names.texts.lock().unwrap_or_else(|e| e.into_inner());
            self.game.with_legal(|legal, slots| {
                let mut codes = Vec::with_capacity(slots.len());
                let mut texts = Vec::with_capacity(slots.len());
                let mut keys = Vec::with_capacity(slots.len());
                let mut pairs: Vec<(u32, u32)> = Vec::new();
                for s in slots {
                    pairs.clear();
                    for &c in legal.codes_of(s) {
                        pairs.push((cache.get(py, map, st, c), c));
                    }
                    let arena = &cache.arena;
                    pairs
                        .sort_unstable_by(|x, y| arena[x.0 as usize].0.cmp(&arena[y.0 as usize].0));
                    codes.push(PyList::new(py, pairs.iter().map(|p| p.1))?);
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
    }

    /// Every power's legal order texts as `diplo.legal.legal_order_texts` gives them, per power
    /// that has a slot: `{power: {key: [text, ...]}}`, keys in that function's order (provinces
    /// sorted, then the power's waive), each list sorted by text.
    fn legal_by_power<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.texts_by_power(py, None)
    }

    /// One power's entry of `legal_by_power` (`{key: [text, ...]}`, empty when the power has no
    /// slot), made afresh on each call (the lists are the caller's), without making the other
    /// powers' texts.
    fn legal_of<'py>(&self, py: Python<'py>, power: usize) -> PyResult<Bound<'py, PyDict>> {
        if power >= self.game.map.powers {
            return Err(PyValueError::new_err(format!(
                "{power} is not a power index"
            )));
        }
        let all = self.texts_by_power(py, Some(power as u8))?;
        let name = map_names(py, self.game.map).powers[power].bind(py);
        match all.get_item(name)? {
            Some(d) => Ok(d.downcast_into::<PyDict>()?),
            None => Ok(PyDict::new(py)),
        }
    }

    /// The powers with something to order, in map order: those with a slot other than a waive
    /// (the keys of `legal_by_power` other than the power itself), without making any text.
    fn orderable<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let map = self.game.map;
        let names = map_names(py, map);
        guarded(|| {
            let mut has = vec![false; map.powers];
            self.game.with_legal(|_, slots| {
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
    }
    /// Movement, last `run` (this game) from `before` (the game as it was): per submitted code,
    /// `None` when refused, else `(text, unit, kind, code, success, dislodged_by, by, attack,
    /// opposition, convoyed, szykman)`: the normal form's canonical text, the unit's text
    /// (`A PAR`), the order's class name and the arguments of `diplo.outcome.explain_facts`.
    /// Then per implied hold `(power, unit, province, code, success, dislodged_by)`.
    fn movement_rows<'py>(
        &self,
        py: Python<'py>,
        before: &Bound<'py, PyFastGame>,
    ) -> PyResult<Bound<'py, PyList>> {
        guarded(|| {
            let before = before.borrow();
            let map = self.game.map;
            let st = &before.game.state;
            let g = &self.game;
            let names = map_names(py, map);
            let loc = |i: i32| -> Option<Bound<'py, PyString>> {
                (i >= 0).then(|| names.locations[i as usize].bind(py).clone())
            };
            let mut buf = String::new();
            let mut rows: Vec<Bound<'py, PyAny>> = Vec::with_capacity(g.results.len());
            for j in 0..g.results.len() {
                if g.reasons.get(j).copied().unwrap_or(1) != 0 || j >= g.facts.len() {
                    rows.push(py.None().into_bound(py));
                    continue;
                }
                let c = g.normal[j];
                crate::fast::text::order_text(map, st, c, &mut buf);
                let unit = &buf[..buf[2..].find(' ').map_or(buf.len(), |k| k + 2)];
                let f = g.facts[j];
                let row = (
                    buf.as_str(),
                    unit,
                    names.kinds[crate::fast::encode::kind_of(c) as usize].bind(py),
                    names.codes[g.results[j] as usize].bind(py),
                    g.success[j],
                    loc(f.dislodged_by),
                    loc(f.by),
                    f.attack,
                    f.opposition,
                    f.convoyed,
                    f.szykman,
                );
                rows.push(row.into_pyobject(py)?.into_any());
            }
            // Then the implied holds: (power, unit, province, code, success, dislodged_by).
            let n = g.results.len();
            for (k, &(code, res, ok)) in g.implied.iter().enumerate() {
                let prov = map.prov_of[crate::fast::encode::loc_of(code)] as usize;
                let u = st.units[prov];
                buf.clear();
                buf.push_str(if u.fleet { "F " } else { "A " });
                buf.push_str(map.loc_name(u.loc as usize));
                let origin = g.facts.get(n + k).map_or(-1, |f| f.dislodged_by);
                let row = (
                    names.powers[u.power as usize].bind(py),
                    buf.as_str(),
                    names.locations[prov].bind(py),
                    names.codes[res as usize].bind(py),
                    ok,
                    loc(origin),
                );
                rows.push(row.into_pyobject(py)?.into_any());
            }
            PyList::new(py, rows)
        })
    }

    // ---- engine-explains: retreat and adjustment rows
    /// Retreats or adjustments, last `run` (this game) from `before` (the game as it was): per
    /// submitted code `None` when refused, else `(code, success, unit, facts)`; then per implied
    /// result (disbands of dislodged units without a legal order, waives of unused builds,
    /// civil-disorder disbands) the same. `code` is the result code's name, `unit` the result's
    /// unit text (`None` for a waive), `facts` is `(why, power, unit, order, place, other, number,
    /// home, rivals)`: `why` an index of `EXPLAIN_NAMES`, then the facts
    /// `diplo.model.outcome.explain_ruling` words (names of the map, `None` when not used;
    /// `rivals` as `(power, unit)`).
    fn phase_rows<'py>(
        &self,
        py: Python<'py>,
        before: &Bound<'py, PyFastGame>,
    ) -> PyResult<Bound<'py, PyList>> {
        use crate::fast::phases::{explain, Ruling};
        guarded(|| {
            let before = before.borrow();
            let map = self.game.map;
            let st = &before.game.state;
            let g = &self.game;
            let names = map_names(py, map);
            let loc = |i: i32| -> Option<Bound<'py, PyString>> {
                (i >= 0).then(|| names.locations[i as usize].bind(py).clone())
            };
            let row = |code: u8, ok: bool, unit: Option<&str>, order: &str, r: &Ruling| {
                let other = if r.other.is_some() {
                    Some(piece_text(map, r.other))
                } else {
                    (r.other_place >= 0).then(|| map.loc_name(r.other_place as usize).to_string())
                };
                let rivals: Vec<(&Bound<'py, PyString>, String)> = r
                    .rivals
                    .iter()
                    .map(|p| (names.powers[p.power as usize].bind(py), piece_text(map, *p)))
                    .collect();
                let facts = (
                    r.why,
                    names.powers[r.power as usize].bind(py),
                    r.unit.is_some().then(|| piece_text(map, r.unit)),
                    order,
                    loc(r.place),
                    other,
                    r.count,
                    r.home,
                    rivals,
                );
                let out = (names.codes[code as usize].bind(py), ok, unit, facts);
                out.into_pyobject(py).map(|t| t.into_any())
            };
            let n = g.results.len();
            let mut rows: Vec<Option<Bound<'py, PyAny>>> = Vec::with_capacity(n + g.implied.len());
            let mut buf = String::new();
            for j in 0..n {
                let r = match g.rulings.get(j) {
                    Some(r) if r.why != explain::NONE && g.reasons.get(j) == Some(&0) => r,
                    _ => {
                        rows.push(None);
                        continue;
                    }
                };
                crate::fast::text::order_text(map, st, g.normal[j], &mut buf);
                let unit = (buf != "WAIVE")
                    .then(|| &buf[..buf[2..].find(' ').map_or(buf.len(), |k| k + 2)]);
                rows.push(Some(row(g.results[j], g.success[j], unit, &buf, r)?));
            }
            for (k, &(code, res, ok)) in g.implied.iter().enumerate() {
                let Some(r) = g.rulings.get(n + k) else {
                    break;
                };
                if crate::fast::encode::kind_of(code) == crate::fast::encode::kind::WAIVE {
                    rows.push(Some(row(res, ok, None, "WAIVE", r)?));
                } else {
                    let unit = piece_text(map, r.unit);
                    let order = format!("{unit} D");
                    rows.push(Some(row(res, ok, Some(&unit), &order, r)?));
                }
            }
            PyList::new(py, rows)
        })
    }
    // ---- end engine-explains

    /// The position as `diplo.position.Position.to_json` writes it: the phase, units and centres
    /// per power in map order (lists sorted), dislodged units per power with their options.
    fn position_json<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        guarded(|| {
            let map = self.game.map;
            let st = &self.game.state;
            let board = BoardLists::of(map, st);
            let out = PyDict::new(py);
            out.set_item("phase", st.phase_name())?;
            fn grouped<'py, S: AsRef<str>>(
                py: Python<'py>,
                map: &GameMap,
                lists: &[Vec<S>],
            ) -> PyResult<Bound<'py, PyDict>> {
                let by_power = PyDict::new(py);
                for (power, list) in lists.iter().enumerate() {
                    if !list.is_empty() {
                        let names = list.iter().map(AsRef::as_ref);
                        by_power.set_item(map.power_name(power), PyList::new(py, names)?)?;
                    }
                }
                Ok(by_power)
            }
            out.set_item("units", grouped(py, map, &board.units)?)?;
            out.set_item("centers", grouped(py, map, &board.centers)?)?;
            let by_power = PyDict::new(py);
            for (power, qs) in board.dislodged.iter().enumerate() {
                if qs.is_empty() {
                    continue;
                }
                let group = PyDict::new(py);
                for &q in qs {
                    let options: Vec<&str> =
                        Bits(st.retreats[q]).map(|l| map.loc_name(l)).collect();
                    group.set_item(piece_text(map, st.dislodged[q]), PyList::new(py, options)?)?;
                }
                by_power.set_item(map.power_name(power), group)?;
            }
            out.set_item("dislodged", by_power)?;
            Ok(out)
        })
    }

    /// `json.dumps` of `position_json` (with `phase` as the phase, `None`: null), byte for
    /// byte, on a map whose names need no JSON escape (the caller checks: printable ASCII
    /// without quote or backslash), for `diplo adjudicate --jsonl`.
    #[pyo3(signature = (phase))]
    fn position_json_text(&self, phase: Option<&str>) -> PyResult<String> {
        guarded(|| Ok(position_text(self.game.map, &self.game.state, phase)))
    }

    /// Test hook: the next processing of this game panics inside the core.
    fn _poison(&mut self) {
        self.game.poisoned = true;
    }

    fn __repr__(&self) -> PyResult<String> {
        guarded(|| {
            let state = if self.game.over {
                "over".to_string()
            } else {
                self.game.state.phase_name()
            };
            Ok(format!("<FastGame {state}>"))
        })
    }
}

impl PyFastGame {
    /// `legal_by_power`, for every power or only `only`.
    fn texts_by_power<'py>(
        &self,
        py: Python<'py>,
        only: Option<u8>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let map = self.game.map;
        let st = &self.game.state;
        let names = map_names(py, map);
        guarded(|| {
            let mut cache = names.texts.lock().unwrap_or_else(|e| e.into_inner());
            self.game.with_legal(|legal, slots| {
                // Slots per power, keyed by name: provinces sorted, then the waive.
                let mut order: Vec<(u8, bool, &str, usize)> = slots
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| only.is_none_or(|p| p == s.power))
                    .map(|(i, s)| {
                        let key = if s.key_is_power {
                            map.power_name(s.key as usize)
                        } else {
                            map.loc_name(s.key as usize)
                        };
                        (s.power, s.key_is_power, key, i)
                    })
                    .collect();
                order.sort_unstable();
                let out = PyDict::new(py);
                let mut pairs: Vec<(u32, u32)> = Vec::new();
                let mut current: Option<(u8, Bound<'py, PyDict>)> = None;
                for &(power, key_is_power, _, i) in &order {
                    let s = &slots[i];
                    pairs.clear();
                    for &c in legal.codes_of(s) {
                        pairs.push((cache.get(py, map, st, c), c));
                    }
                    let arena = &cache.arena;
                    pairs
                        .sort_unstable_by(|x, y| arena[x.0 as usize].0.cmp(&arena[y.0 as usize].0));
                    let texts =
                        PyList::new(py, pairs.iter().map(|p| arena[p.0 as usize].1.bind(py)))?;
                    if current.as_ref().is_none_or(|(p, _)| *p != power) {
                        let d = PyDict::new(py);
                        out.set_item(names.powers[power as usize].bind(py), &d)?;
                        current = Some((power, d));
                    }
                    let key = if key_is_power {
                        &names.powers[s.key as usize]
                    } else {
                        &names.locations[s.key as usize]
                    };
                    if let Some((_, d)) = &current {
                        d.set_item(key.bind(py), texts)?;
                    }
                }
                Ok(out)
            })
        })
    }
}

/// See `PyFastGame::position_json_text`: the same lists in the same order as `position_json`.
fn position_text(map: &GameMap, st: &State, phase: Option<&str>) -> String {
    use std::fmt::Write as _;
    let board = BoardLists::of(map, st);
    let mut out = String::with_capacity(1024);
    match phase {
        Some(p) => {
            let _ = write!(out, "{{\"phase\": \"{p}\", \"units\": {{");
        }
        None => out.push_str("{\"phase\": null, \"units\": {"),
    }
    fn group<S: AsRef<str>>(out: &mut String, map: &GameMap, lists: &[Vec<S>]) {
        let mut first = true;
        for (power, list) in lists.iter().enumerate() {
            if list.is_empty() {
                continue;
            }
            if !first {
                out.push_str(", ");
            }
            first = false;
            out.push('"');
            out.push_str(map.power_name(power));
            out.push_str("\": [");
            for (i, name) in list.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push('"');
                out.push_str(name.as_ref());
                out.push('"');
            }
            out.push(']');
        }
    }
    group(&mut out, map, &board.units);
    out.push_str("}, \"centers\": {");
    group(&mut out, map, &board.centers);
    out.push_str("}, \"dislodged\": {");
    let mut first = true;
    for (power, qs) in board.dislodged.iter().enumerate() {
        if qs.is_empty() {
            continue;
        }
        if !first {
            out.push_str(", ");
        }
        first = false;
        let _ = write!(out, "\"{}\": {{", map.power_name(power));
        for (i, &q) in qs.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let _ = write!(out, "\"{}\": [", piece_text(map, st.dislodged[q]));
            for (k, l) in Bits(st.retreats[q]).enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                out.push('"');
                out.push_str(map.loc_name(l));
                out.push('"');
            }
            out.push(']');
        }
        out.push('}');
    }
    out.push_str("}}");
    out
}

/// A unit as a position document writes it (`A PAR`, `F STP/SC`).
fn piece_text(map: &GameMap, p: crate::fast::state::Piece) -> String {
    format!(
        "{} {}",
        if p.fleet { "F" } else { "A" },
        map.loc_name(p.loc as usize)
    )
}

/// The lists of a position document (`diplo.position.Position.to_json`), per power in map
/// order: units and centres sorted by text, dislodged units (their provinces) in the order of
/// their locations' names. One home for both writers, `position_json` and `position_text`.
struct BoardLists<'m> {
    units: Vec<Vec<String>>,
    centers: Vec<Vec<&'m str>>,
    dislodged: Vec<Vec<usize>>,
}

impl<'m> BoardLists<'m> {
    fn of(map: &'m GameMap, st: &State) -> Self {
        let mut units: Vec<Vec<String>> = vec![Vec::new(); map.powers];
        let mut centers: Vec<Vec<&'m str>> = vec![Vec::new(); map.powers];
        let mut gone: Vec<(&'m str, usize)> = Vec::new();
        for q in 0..map.provinces {
            let u = st.units[q];
            if u.is_some() {
                units[u.power as usize].push(piece_text(map, u));
            }
            let o = st.centers[q];
            if o != crate::fast::game_map::NO_POWER {
                centers[o as usize].push(map.loc_name(q));
            }
            if st.dislodged[q].is_some() {
                gone.push((map.loc_name(st.dislodged[q].loc as usize), q));
            }
        }
        units.iter_mut().for_each(|l| l.sort_unstable());
        centers.iter_mut().for_each(|l| l.sort_unstable());
        gone.sort_unstable();
        let mut dislodged: Vec<Vec<usize>> = vec![Vec::new(); map.powers];
        for &(_, q) in &gone {
            dislodged[st.dislodged[q].power as usize].push(q);
        }
        BoardLists {
            units,
            centers,
            dislodged,
        }
    }
}

fn items<'py>(what: &str, obj: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if obj.is_instance_of::<PyString>() {
        return Err(PyValueError::new_err(format!("{what} must be a sequence")));
    }
    obj.try_iter()
        .map_err(|_| PyValueError::new_err(format!("{what} must be a sequence")))?
        .collect()
}

/// A flat buffer of native-endian `u32` values, as `bytes` (immutable, so it can be read with the
/// GIL released).
fn u32_bytes<'a>(what: &str, obj: &'a Bound<'_, PyAny>) -> PyResult<&'a [u8]> {
    let bytes = obj.downcast::<PyBytes>().map_err(|_| {
        PyValueError::new_err(format!(
            "{what} must be bytes of native-endian u32 values when offsets are given \
             (diplo.fast.process_batch also takes any u32 buffer)"
        ))
    })?;
    let raw = bytes.as_bytes();
    if raw.len() % 4 != 0 {
        return Err(PyValueError::new_err(format!(
            "{what}: {} bytes is not a whole number of u32 values (4 bytes each)",
            raw.len()
        )));
    }
    Ok(raw)
}

fn u32_at(raw: &[u8], i: usize) -> u32 {
    u32::from_ne_bytes([raw[4 * i], raw[4 * i + 1], raw[4 * i + 2], raw[4 * i + 3]])
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
/// are a list of code lists, or with `offsets` flat `bytes` of `u32` codes (game `i` gets codes
/// `offsets[i]..offsets[i + 1]`), read by the threads that process the games.
#[pyfunction]
#[pyo3(signature = (games, orders, threads=None, offsets=None))]
fn process_batch(
    py: Python<'_>,
    games: &Bound<'_, PyAny>,
    orders: &Bound<'_, PyAny>,
    threads: Option<i64>,
    offsets: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    guarded(|| {
        let games = items("games", games)?;
        // The flat form: checked here, copied into the games by the threads.
        let flat = match offsets {
            None => None,
            Some(offsets) => {
                let codes = u32_bytes("orders", orders)?;
                let offsets =
                    flat_offsets(u32_bytes("offsets", offsets)?, games.len(), codes.len() / 4)?;
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
                .downcast::<PyFastGame>()
                .map_err(|_| PyValueError::new_err(format!("games[{i}] is not a FastGame")))?;
            let r = g.try_borrow_mut().map_err(|_| {
                PyValueError::new_err(format!(
                    "games[{i}] appears twice in the batch (or is in use elsewhere)"
                ))
            })?;
            if r.game.over {
                return Err(GameOverError::new_err(format!(
                    "games[{i}]: the game is over"
                )));
            }
            if in_last_year(&r.game) {
                return Err(PyValueError::new_err(format!(
                    "games[{i}] is in {}, the last year: process it with FastGame.process, which \
                 refuses to go past it",
                    r.game.state.phase_name()
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
            r.game.orders = codes;
        }
        let mut all: Vec<&mut Game> = refs.iter_mut().map(|r| &mut r.game).collect();
        py.allow_threads(|| match &flat {
            None => process_all(&mut all, threads),
            Some((codes, offsets)) => process_all_with(&mut all, threads, |i, game| {
                game.orders.clear();
                game.orders
                    .extend((offsets[i]..offsets[i + 1]).map(|k| u32_at(codes, k)));
            }),
        })
        .map_err(PyRuntimeError::new_err)
    })
}

/// The flat form of a batch's orders: `(codes, offsets)`, both `bytes` of native-endian `u32`
/// values; a code outside `0..2**32` becomes `0xFFFFFFFF` (malformed, so illegal, as in a list).
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

/// Test hook: the next guarded call of the fast path (any thread) panics on entry, so tests can
/// prove each entry point turns a panic into `RuntimeError`.
#[pyfunction]
fn _panic_in_next_call() {
    PANIC_NEXT.store(true, Ordering::Relaxed);
}

/// Adds the fast path to `diplo._core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyFastMap>()?;
    m.add_class::<PyFastGame>()?;
    m.add_function(wrap_pyfunction!(process_batch, m)?)?;
    m.add_function(wrap_pyfunction!(pack_orders, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_in_next_call, m)?)?;
    m.add("REASON_NAMES", crate::fast::reasons::NAMES.to_vec())?;
    Ok(())
}
