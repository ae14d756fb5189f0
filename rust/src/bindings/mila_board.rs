//! MILA's lists and state dictionaries made by the engine (`MilaTables`, `MilaBoard`), for
//! `diplo.compat.mila`'s `get_state`: the lists kept in MILA's order from phase to phase
//! (`crate::engine::mila_lists`), and a phase's state dictionary built from them in one call,
//! every string made once per map.
//!
//! `MilaTables` holds one map's MILA facts (its centres in MILA's order, the rank of retreat
//! options, the Zobrist numbers, the homes) and its Python strings; `MilaBoard` one board's
//! lists (never changed: a phase played makes a new one). The readable reference of both is
//! Python's (`diplo.compat.mila.order`, `diplo.compat.mila.zobrist`); the tests hold the two
//! together on every phase kind.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use pyo3::exceptions::PyValueError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use super::any::{on_game, verdict_of};
use super::errors::guarded;
use super::handles::{PyCodeGame, PyVerdict};
use crate::engine::game_map::{Bits, GameMap, Mask};
use crate::engine::mila_lists::{Arranged, Entry, MilaLists, MilaOrder, Zobrist};
use crate::engine::phases::Game;
use crate::engine::state::ADJUSTMENTS;

/// The keys of a state dictionary, in MILA's order (`phase` last: the AI_Diplomacy fork's).
const KEYS: [&str; 12] = [
    "timestamp",
    "zobrist_hash",
    "note",
    "name",
    "units",
    "retreats",
    "centers",
    "homes",
    "influence",
    "civil_disorder",
    "builds",
    "phase",
];

/// One map's MILA facts and Python strings (made once per map by `diplo.compat.mila`).
#[pyclass(frozen, name = "MilaTables", module = "diplo._core")]
pub(crate) struct MilaTables {
    order: MilaOrder,
    zobrist: Zobrist,
    /// Per power, its home centres (provinces) as MILA's state lists them.
    homes: Vec<Vec<u16>>,
    /// The map's size, to refuse a game of another map.
    locations: usize,
    powers: usize,
    provinces: usize,
    /// Location name -> index (the lists' texts read back).
    index: HashMap<String, u16>,
    power_index: HashMap<String, usize>,
    power_names: Vec<Py<PyString>>,
    loc_texts: Vec<Py<PyString>>,
    /// By `fleet * locations + loc`: `"A PAR"`, and `"*A PAR"` for a dislodged unit.
    unit_texts: Vec<Py<PyString>>,
    star_texts: Vec<Py<PyString>>,
    keys: Vec<Py<PyString>>,
    count: Py<PyString>,
    homes_key: Py<PyString>,
    /// Copied rather than filled (a copy of a dict is made at its size, in one call): the
    /// state's keys, each power (to `None`), each power to 0, a power's builds outside an
    /// adjustment phase, and each power's homes.
    top: Py<PyDict>,
    per_power: Py<PyDict>,
    zeros: Py<PyDict>,
    no_builds: Py<PyDict>,
    home_lists: Vec<Py<PyList>>,
}

fn bad(what: &str) -> PyErr {
    PyValueError::new_err(format!("MilaTables: {what}"))
}

#[pymethods]
impl MilaTables {
    /// The tables of the map of `game`: `scs` its centres in MILA's order (provinces), `ranks`
    /// per location the `(option, rank)` pairs of its neighbours and the rank of any other
    /// option, `zobrist` MILA's numbers (units and dislodged units by `(power * 2 + fleet) *
    /// locations + loc`, centres and homes by `power * locations + province`), `homes` per power
    /// its home centres as the state lists them.
    #[new]
    fn new(
        py: Python<'_>,
        game: PyRef<'_, PyCodeGame>,
        scs: Vec<u16>,
        ranks: Vec<(Vec<(u16, u16)>, u16)>,
        zobrist: (Vec<u64>, Vec<u64>, Vec<u64>, Vec<u64>),
        homes: Vec<Vec<u16>>,
    ) -> PyResult<MilaTables> {
        let (names, powers, provinces): (Vec<String>, Vec<String>, usize) = on_game!(&game.game, g => (
            g.map.spec.locations.clone(),
            g.map.spec.powers.clone(),
            g.map.provinces,
        ));
        let (l, n) = (names.len(), powers.len());
        let in_map = |x: &u16| (*x as usize) < l;
        let a_province = |x: &u16| (*x as usize) < provinces;
        if !scs.iter().all(a_province) || !homes.iter().flatten().all(a_province) {
            return Err(bad("a centre or home names no province of the map"));
        }
        if ranks.len() != l || !ranks.iter().all(|(r, _)| r.iter().all(|(o, _)| in_map(o))) {
            return Err(bad(&format!(
                "ranks must give each of the {l} locations its options"
            )));
        }
        let (units, dislodged, centers, home_numbers) = zobrist;
        if units.len() != 2 * n * l || dislodged.len() != 2 * n * l {
            return Err(bad(
                "the Zobrist units and dislodged units need 2 x powers x locations numbers",
            ));
        }
        if centers.len() != n * l || home_numbers.len() != n * l {
            return Err(bad(
                "the Zobrist centres and homes need powers x locations numbers",
            ));
        }
        if homes.len() != n {
            return Err(bad(&format!(
                "homes must list the homes of each of the {n} powers"
            )));
        }
        let mut sorted: Vec<usize> = (0..l).collect();
        sorted.sort_by(|&a, &b| names[a].cmp(&names[b]));
        let mut name_rank = vec![0u32; l];
        for (rank, &loc) in sorted.iter().enumerate() {
            name_rank[loc] = rank as u32;
        }
        let text = |s: String| PyString::new(py, &s).unbind();
        let unit_texts: Vec<Py<PyString>> = ["A", "F"]
            .iter()
            .flat_map(|t| names.iter().map(move |x| format!("{t} {x}")))
            .map(text)
            .collect();
        let star_texts: Vec<Py<PyString>> = ["A", "F"]
            .iter()
            .flat_map(|t| names.iter().map(move |x| format!("*{t} {x}")))
            .map(text)
            .collect();
        let keys: Vec<Py<PyString>> = KEYS
            .iter()
            .map(|k| PyString::intern(py, k).unbind())
            .collect();
        let power_names: Vec<Py<PyString>> = powers
            .iter()
            .map(|p| PyString::new(py, p).unbind())
            .collect();
        let loc_texts: Vec<Py<PyString>> = names
            .iter()
            .map(|x| PyString::new(py, x).unbind())
            .collect();
        let (count, homes_key) = (PyString::intern(py, "count"), PyString::intern(py, "homes"));
        let top = PyDict::new(py);
        for k in &keys {
            top.set_item(k, py.None())?;
        }
        let (per_power, zeros) = (PyDict::new(py), PyDict::new(py));
        for p in &power_names {
            per_power.set_item(p, py.None())?;
            zeros.set_item(p, 0)?;
        }
        let no_builds = PyDict::new(py);
        no_builds.set_item(&count, 0)?;
        no_builds.set_item(&homes_key, py.None())?;
        let home_lists = homes
            .iter()
            .map(|h| {
                PyList::new(py, h.iter().map(|&x| loc_texts[x as usize].bind(py)))
                    .map(Bound::unbind)
            })
            .collect::<PyResult<Vec<_>>>()?;
        Ok(MilaTables {
            order: MilaOrder {
                scs,
                ranks,
                name_rank,
            },
            zobrist: Zobrist {
                locations: l,
                units,
                dislodged,
                centers,
                homes: home_numbers,
            },
            homes,
            locations: l,
            powers: n,
            provinces,
            index: names
                .iter()
                .enumerate()
                .map(|(i, x)| (x.clone(), i as u16))
                .collect(),
            power_index: powers
                .iter()
                .enumerate()
                .map(|(i, x)| (x.clone(), i))
                .collect(),
            power_names,
            loc_texts,
            unit_texts,
            star_texts,
            keys,
            count: count.unbind(),
            homes_key: homes_key.unbind(),
            top: top.unbind(),
            per_power: per_power.unbind(),
            zeros: zeros.unbind(),
            no_builds: no_builds.unbind(),
            home_lists,
        })
    }
}

impl MilaTables {
    fn check<M: Mask>(&self, g: &Game<M>) -> PyResult<()> {
        if g.map.locations != self.locations || g.map.powers != self.powers {
            return Err(bad("the game is on another map than the tables"));
        }
        Ok(())
    }

    fn unit_text<'py>(&self, py: Python<'py>, e: Entry, star: bool) -> &Bound<'py, PyString> {
        let at = usize::from(e.fleet) * self.locations + e.loc as usize;
        let texts = if star {
            &self.star_texts
        } else {
            &self.unit_texts
        };
        texts[at].bind(py)
    }

    /// A unit's text read back (`"A PAR"`, `"F STP/SC"`), or `None`.
    fn read_unit(&self, text: &str) -> Option<Entry> {
        let (kind, loc) = text.split_once(' ')?;
        let fleet = match kind {
            "A" => false,
            "F" => true,
            _ => return None,
        };
        Some(Entry {
            fleet,
            loc: *self.index.get(loc)?,
        })
    }

    /// Per power, the texts of `table` read by `read` (a power missing: none); `None` when a
    /// power or a text is not the map's.
    fn read_table<T>(
        &self,
        table: &Bound<'_, PyDict>,
        read: impl Fn(&str) -> Option<T>,
    ) -> PyResult<Option<Vec<Vec<T>>>> {
        let mut out: Vec<Vec<T>> = (0..self.powers).map(|_| Vec::new()).collect();
        for (power, texts) in table.iter() {
            let Some(&p) = self.power_index.get(power.extract::<&str>()?) else {
                return Ok(None);
            };
            for text in texts.try_iter()? {
                let text = text?;
                match read(text.extract::<&str>()?) {
                    Some(x) => out[p].push(x),
                    None => return Ok(None),
                }
            }
        }
        Ok(Some(out))
    }

    /// A location's index (a coast's too) from its name.
    fn place(&self, text: &str) -> Option<u16> {
        self.index.get(text).copied()
    }

    /// A province's index from its name (a centre is a province, never a coast).
    fn province(&self, text: &str) -> Option<u16> {
        self.place(text).filter(|&x| (x as usize) < self.provinces)
    }

    fn list_of<'py, T: Copy>(
        &self,
        py: Python<'py>,
        items: &[T],
        text: impl Fn(T) -> Bound<'py, PyString>,
    ) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, items.iter().map(|&x| text(x)))
    }

    /// Per power, a list of `items[p]`'s texts.
    fn per_power<'py, T: Copy>(
        &self,
        py: Python<'py>,
        items: &[Vec<T>],
        text: impl Fn(T) -> Bound<'py, PyString>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        for (p, listed) in items.iter().enumerate() {
            out.set_item(
                self.power_names[p].bind(py),
                self.list_of(py, listed, &text)?,
            )?;
        }
        Ok(out)
    }

    fn loc<'py>(&self, py: Python<'py>, loc: u16) -> Bound<'py, PyString> {
        self.loc_texts[loc as usize].bind(py).clone()
    }
}

/// A board laid out in a board's lists, and its Zobrist hash.
type Layout = (Arranged, u64);

/// One board's lists in MILA's order (never changed; see the module documentation).
#[pyclass(frozen, name = "MilaBoard", module = "diplo._core")]
pub(crate) struct MilaBoard {
    lists: MilaLists,
    /// The last board laid out in the lists and its hash, by the state's stamp (a game's lists
    /// are made by `after`, which lays out the board it leaves, so `state` only makes objects).
    layout: Mutex<Option<(u64, Arc<Layout>)>>,
}

impl MilaBoard {
    fn new(lists: MilaLists) -> MilaBoard {
        MilaBoard {
            lists,
            layout: Mutex::new(None),
        }
    }

    /// `g`'s board laid out in the lists, and its hash (kept for the state's stamp).
    fn layout<M: Mask>(&self, t: &MilaTables, g: &Game<M>) -> Arc<Layout> {
        let mut kept = self.layout.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((stamp, made)) = kept.as_ref() {
            if *stamp == g.stamp {
                return Arc::clone(made);
            }
        }
        let board = self.lists.arranged(g.map, &g.state, &t.order);
        let hash = t.zobrist.hash(&board, &t.homes);
        let made = Arc::new((board, hash));
        *kept = Some((g.stamp, Arc::clone(&made)));
        made
    }
}

#[pymethods]
impl MilaBoard {
    /// The lists given as `diplo.compat.mila.order.Lists` holds them (per power: unit texts,
    /// dislodged unit texts, centres, influence); `None` when one names a power or a location
    /// the map does not have (the drop-in then keeps the lists in Python).
    #[staticmethod]
    fn of_lists(
        tables: &MilaTables,
        units: &Bound<'_, PyDict>,
        dislodged: &Bound<'_, PyDict>,
        centers: &Bound<'_, PyDict>,
        influence: &Bound<'_, PyDict>,
    ) -> PyResult<Option<MilaBoard>> {
        guarded(|| {
            let read_unit = |t: &str| tables.read_unit(t);
            let (Some(units), Some(dislodged), Some(centers), Some(influence)) = (
                tables.read_table(units, read_unit)?,
                tables.read_table(dislodged, read_unit)?,
                tables.read_table(centers, |t| tables.province(t))?,
                tables.read_table(influence, |t| tables.place(t))?,
            ) else {
                return Ok(None);
            };
            Ok(Some(MilaBoard::new(MilaLists {
                units,
                dislodged,
                centers,
                influence,
            })))
        })
    }

    /// The lists after the phase ruled in `verdict` (`mila_play`'s) took the game to `game`.
    fn after(
        &self,
        tables: &MilaTables,
        verdict: PyRef<'_, PyVerdict>,
        game: PyRef<'_, PyCodeGame>,
    ) -> PyResult<MilaBoard> {
        guarded(|| {
            on_game!(&game.game, g => {
                tables.check(g)?;
                let Some(v) = verdict_of(g, verdict.get()) else {
                    return Err(bad("the verdict is of another map"));
                };
                let made = MilaBoard::new(self.lists.after(g.map, v, &tables.order));
                made.layout(tables, g);
                Ok(made)
            })
        })
    }

    /// The lists as texts: per power, units, dislodged units, centres and influence (the form
    /// `diplo.compat.mila.order.Lists` holds).
    fn lists<'py>(&self, py: Python<'py>, tables: &MilaTables) -> PyResult<Bound<'py, PyTuple>> {
        guarded(|| {
            let l = &self.lists;
            let unit = |e: Entry| tables.unit_text(py, e, false).clone();
            let place = |x: u16| tables.loc(py, x);
            PyTuple::new(
                py,
                [
                    tables.per_power(py, &l.units, unit)?,
                    tables.per_power(py, &l.dislodged, unit)?,
                    tables.per_power(py, &l.centers, place)?,
                    tables.per_power(py, &l.influence, place)?,
                ],
            )
        })
    }

    /// MILA's Zobrist hash of `game`'s board laid out in these lists.
    fn hash(&self, tables: &MilaTables, game: PyRef<'_, PyCodeGame>) -> PyResult<u64> {
        guarded(|| {
            on_game!(&game.game, g => {
                tables.check(g)?;
                Ok(self.layout(tables, g).1)
            })
        })
    }

    /// The state dictionary of `game`'s board in these lists, as MILA's `Game.get_state()` gives
    /// it, named `name` (and `phase`), with `note`: a new dictionary of new lists each call.
    fn state<'py>(
        &self,
        py: Python<'py>,
        tables: &MilaTables,
        game: PyRef<'_, PyCodeGame>,
        name: &Bound<'py, PyString>,
        note: &Bound<'py, PyString>,
    ) -> PyResult<Bound<'py, PyDict>> {
        guarded(|| {
            on_game!(&game.game, g => {
                tables.check(g)?;
                let made = self.layout(tables, g);
                state_dict(py, tables, g, &made.0, made.1, &self.lists, name, note)
            })
        })
    }

    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }
}

/// The state dictionary (see `MilaBoard.state`) of `board`, hashed `hash`.
#[allow(clippy::too_many_arguments)]
fn state_dict<'py, M: Mask>(
    py: Python<'py>,
    t: &MilaTables,
    g: &Game<M>,
    board: &Arranged,
    hash: u64,
    lists: &MilaLists,
    name: &Bound<'py, PyString>,
    note: &Bound<'py, PyString>,
) -> PyResult<Bound<'py, PyDict>> {
    let key = |i: usize| t.keys[i].bind(py);
    let out = t.top.bind(py).copy()?;
    let micros = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as u64);
    out.set_item(key(0), micros)?;
    out.set_item(key(1), hash.to_string())?;
    out.set_item(key(2), note)?;
    out.set_item(key(3), name)?;
    let units = t.per_power.bind(py).copy()?;
    let retreats = t.per_power.bind(py).copy()?;
    let homes = t.per_power.bind(py).copy()?;
    for p in 0..t.powers {
        let power = t.power_names[p].bind(py);
        let regular = board.units[p].iter().map(|&e| t.unit_text(py, e, false));
        let gone = board.dislodged[p]
            .iter()
            .map(|(e, _)| t.unit_text(py, *e, true));
        let texts: Vec<&Bound<'py, PyString>> = regular.chain(gone).collect();
        units.set_item(power, PyList::new(py, texts)?)?;
        let options = PyDict::new(py);
        for (e, to) in &board.dislodged[p] {
            options.set_item(
                t.unit_text(py, *e, false),
                t.list_of(py, to, |x| t.loc(py, x))?,
            )?;
        }
        retreats.set_item(power, options)?;
        let home = t.home_lists[p].bind(py);
        homes.set_item(power, home.get_slice(0, home.len()))?;
    }
    out.set_item(key(4), units)?;
    out.set_item(key(5), retreats)?;
    out.set_item(key(6), t.per_power(py, &board.centers, |x| t.loc(py, x))?)?;
    out.set_item(key(7), homes)?;
    out.set_item(key(8), t.per_power(py, &lists.influence, |x| t.loc(py, x))?)?;
    out.set_item(key(9), t.zeros.bind(py).copy()?)?;
    out.set_item(key(10), builds(py, t, g)?)?;
    out.set_item(key(11), name)?;
    Ok(out)
}

/// Per power, `{"count": n, "homes": [...]}`: in an adjustment phase the builds allowed (the
/// vacant owned home centres where it may build) or the disbands owed (negative), else none.
fn builds<'py, M: Mask>(
    py: Python<'py>,
    t: &MilaTables,
    g: &Game<M>,
) -> PyResult<Bound<'py, PyDict>> {
    let (map, st): (&GameMap<M>, _) = (g.map, &g.state);
    let adjusting = st.kind == ADJUSTMENTS;
    let (mut centres, mut units) = (vec![0u32; map.powers], vec![0u32; map.powers]);
    if adjusting {
        st.center_counts(map, &mut centres);
        st.unit_counts(map, &mut units);
    }
    let out = t.per_power.bind(py).copy()?;
    for p in 0..t.powers {
        let entry = t.no_builds.bind(py).copy()?;
        let mut sites: Vec<u16> = Vec::new();
        if adjusting {
            let count = st.rules.allowance(map, st, p, centres[p], units[p]);
            if count > 0 {
                sites = Bits(st.rules.build_sites(map, st, p))
                    .map(|q| q as u16)
                    .collect();
            }
            entry.set_item(&t.count, count)?;
        }
        entry.set_item(&t.homes_key, t.list_of(py, &sites, |x| t.loc(py, x))?)?;
        out.set_item(t.power_names[p].bind(py), entry)?;
    }
    Ok(out)
}

/// A copy of `value` sharing no dict or list with it (`diplo.compat.mila.copies.copy_tree`'s
/// fast way): exact dicts and lists are copied, exact strings, ints, floats, bools and `None`
/// shared; `None` is returned, and nothing made, as soon as anything else is met (the caller
/// copies it the long way): a dict key of another kind, or nesting deeper than `MAX_DEPTH`
/// (a cycle among them).
#[pyfunction]
pub(crate) fn mila_copy<'py>(value: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
    copy_value(value, 0)
}

/// How deep [`mila_copy`] goes (a state dictionary is three deep).
const MAX_DEPTH: usize = 32;

/// Whether `value` is an exact string, int, bool, float or `None` (shared, not copied).
fn atomic(value: &Bound<'_, PyAny>) -> bool {
    atomic_ptr(value.as_ptr())
}

/// [`atomic`] of a live object's pointer: its type compared, no code run.
fn atomic_ptr(object: *mut ffi::PyObject) -> bool {
    // SAFETY: the GIL is held and `object` is a live object (each caller holds a reference,
    // or walks a container that nothing can change meanwhile); only its type is read.
    unsafe {
        ffi::PyUnicode_CheckExact(object) != 0
            || object == ffi::Py_None()
            || ffi::PyLong_CheckExact(object) != 0
            || ffi::PyBool_Check(object) != 0
            || ffi::PyFloat_CheckExact(object) != 0
    }
}

/// Whether every item of `list` is [`atomic`] (read in place: nothing is run meanwhile).
fn all_atomic(list: &Bound<'_, PyList>) -> bool {
    let len = list.len();
    (0..len).all(|i| {
        // SAFETY: the GIL is held, `i` is below the length just read and no code runs during
        // the walk (a type test per item), so each borrowed item is live.
        let item = unsafe { ffi::PyList_GetItem(list.as_ptr(), i as ffi::Py_ssize_t) };
        !item.is_null() && atomic_ptr(item)
    })
}

/// Whether every key of `dict` is [`atomic`] (read in place: nothing is run meanwhile, so no
/// key's `__hash__` or `__eq__` can change the dict while it is walked).
fn atomic_keys(dict: &Bound<'_, PyDict>) -> bool {
    let (mut at, mut key, mut item) = (0, std::ptr::null_mut(), std::ptr::null_mut());
    // SAFETY: the GIL is held and nothing but a type test runs during the walk.
    while unsafe { ffi::PyDict_Next(dict.as_ptr(), &mut at, &mut key, &mut item) } != 0 {
        if !atomic_ptr(key) {
            return false;
        }
    }
    true
}

fn copy_value<'py>(value: &Bound<'py, PyAny>, depth: usize) -> PyResult<Option<Bound<'py, PyAny>>> {
    if atomic(value) {
        return Ok(Some(value.clone()));
    }
    if depth >= MAX_DEPTH {
        return Ok(None);
    }
    let py = value.py();
    if let Ok(list) = value.downcast_exact::<PyList>() {
        if all_atomic(list) {
            // A list of scalars: one slice.
            return Ok(Some(list.get_slice(0, list.len()).into_any()));
        }
        let mut items = Vec::with_capacity(list.len());
        for item in list.iter() {
            match copy_value(&item, depth + 1)? {
                Some(made) => items.push(made),
                None => return Ok(None),
            }
        }
        return Ok(Some(PyList::new(py, items)?.into_any()));
    }
    if let Ok(dict) = value.downcast_exact::<PyDict>() {
        // Keys of the exact scalar kinds only: any other key's `__hash__` or `__eq__` is code
        // that may change the dict while it is walked (the long way copies those).
        if !atomic_keys(dict) {
            return Ok(None);
        }
        // Copied whole (at its size, in one call), then the copy's containers replaced by
        // copies of them, walking the copy itself: nothing else holds it, and setting the
        // value of a key it has keeps its keys as they are (which `PyDict_Next` allows).
        let out = dict.copy()?;
        let (mut at, mut key, mut item) = (0, std::ptr::null_mut(), std::ptr::null_mut());
        // SAFETY: the GIL is held; the key and value are taken as owned references before
        // anything that may run code (the copy below allocates).
        while unsafe { ffi::PyDict_Next(out.as_ptr(), &mut at, &mut key, &mut item) } != 0 {
            if atomic_ptr(item) {
                continue;
            }
            let (key, item) = unsafe {
                (
                    Bound::from_borrowed_ptr(py, key),
                    Bound::from_borrowed_ptr(py, item),
                )
            };
            match copy_value(&item, depth + 1)? {
                Some(made) => out.set_item(key, made)?,
                None => return Ok(None),
            }
        }
        return Ok(Some(out.into_any()));
    }
    Ok(None)
}
