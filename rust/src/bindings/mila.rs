//! The legal orders of a fast game as text in MILA's notation (`diplo._core.mila_turn`,
//! `diplo._core.mila_codes`), for `diplo.compat.mila`, whose bots read every possible order as a
//! string each phase: making the strings here, once per order and map, costs a fraction of doing
//! it in Python.
//!
//! The texts are those `diplo.orders.format_order` writes for the decoded orders (the tests of
//! `diplo.compat.mila` hold the two together), less the plain form of an army's move beyond its
//! neighbours (MILA lists a convoyed move with `VIA` only).
//!
//! Each map keeps every text made so far twice over: by the key of what it depends on (a code
//! and the units it names; [`MilaTexts::index`]) and by the text itself (a *text id*: one Python
//! string, its code, and an entry `text -> (id, code, slot)` of one Python dict per map, the
//! `lookup` that `mila_turn` returns). A phase then answers "which power may give this text
//! now?" with a byte per text id (`owner`), and the drop-in reads a bot's orders with one dict
//! lookup and one byte each, with no per-phase dict of texts.

use std::ops::Bound::{Excluded, Unbounded};

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};

use super::any::on_game;
use super::errors::guarded;
use super::game::PyFastGame;
use super::texts::{map_names, KeyHasher, MapNames};
use crate::engine::encode::{a_of, kind, kind_of, loc_of, signed, via_of, Code};
use crate::engine::game_map::{has, GameMap, Mask};
use crate::engine::phases::Game;
use crate::engine::state::{Piece, State, ADJUSTMENTS, RETREATS};
use crate::engine::text::order_text;

/// The text of a legal code (the canonical short form, `engine::text::order_text`), or `None`
/// for the one form MILA does not list: an army's plain move beyond its neighbours.
fn text<M: Mask>(map: &GameMap<M>, st: &State<M>, code: Code) -> Option<String> {
    if kind_of(code) == kind::MOVE && !via_of(code) {
        let prov = map.prov_of[loc_of(code)] as usize;
        let me = if st.kind == RETREATS {
            st.dislodged[prov]
        } else {
            st.units[prov]
        };
        if !me.fleet && !has(map.army_adj[prov], a_of(code)) {
            return None;
        }
    }
    let mut out = String::with_capacity(24);
    order_text(map, st, code, &mut out);
    Some(out)
}

/// A unit's part of a text key: 0 for none, else `1 + 2 * location + is_fleet` (12 bits).
fn tag(piece: Piece) -> u64 {
    if piece.is_some() {
        1 + 2 * piece.loc as u64 + piece.fleet as u64
    } else {
        0
    }
}

/// What a code's text depends on: the code, the ordered unit and the unit in province `a`.
fn text_key<M: Mask>(map: &GameMap<M>, st: &State<M>, code: Code) -> u64 {
    let k = kind_of(code);
    if k == kind::WAIVE || k == kind::BUILD {
        return code;
    }
    let prov = map.prov_of[loc_of(code)] as usize;
    let me = if st.kind == RETREATS {
        st.dislodged[prov]
    } else {
        st.units[prov]
    };
    let other = st
        .units
        .as_ref()
        .get(a_of(code))
        .copied()
        .unwrap_or(Piece::NONE);
    // A well-formed code uses bits 0-35.
    code | tag(me) << 36 | tag(other) << 48
}

/// One distinct text: the text as a Python string, its code (a text is one code's; see
/// [`MilaTexts::add_text`]) and its rank among the map's texts (comparing ranks orders texts
/// as comparing the texts does, so that sorting a phase's texts reads no text).
struct Text {
    py_text: Py<PyString>,
    code: Code,
    rank: u64,
}

/// An entry of [`MilaTexts::index`] for a code MILA does not list.
const NOT_LISTED: u32 = u32::MAX;
/// A map's texts are forgotten past this many keys.
const TEXTS_MAX: usize = 1 << 19;
/// `owner` of a text listed for two powers in one phase (no power's fast path takes it).
const SHARED: u8 = u8::MAX;

/// A map's MILA texts (kept by `texts::MapNames`).
#[derive(Default)]
pub(crate) struct MilaTexts {
    /// Text key -> text id (or [`NOT_LISTED`]).
    index: std::collections::HashMap<u64, u32, std::hash::BuildHasherDefault<KeyHasher>>,
    /// Every text, in order -> its id; text id -> its string, code and rank.
    ids: std::collections::BTreeMap<Box<str>, u32>,
    texts: Vec<Text>,
    /// `{text: (text, code, slot, id)}` of every text with one code but the waive (`slot`:
    /// the location index of the province ordered); a new dict when the texts are forgotten, so that the
    /// dict and the `owner` bytes a phase handed out keep agreeing.
    lookup: Option<Py<PyDict>>,
    /// `{location: None}` in the map's order: a phase's `possible` starts as its copy.
    template: Option<Py<PyDict>>,
}

impl MilaTexts {
    /// The id of the text of `code` in `st` (made on first use), or [`NOT_LISTED`].
    #[inline]
    fn get<M: Mask>(
        &mut self,
        py: Python<'_>,
        map: &GameMap<M>,
        st: &State<M>,
        code: Code,
    ) -> PyResult<u32> {
        let key = text_key(map, st, code);
        match self.index.get(&key) {
            Some(&id) => Ok(id),
            None => self.make(py, map, st, code, key),
        }
    }

    /// [`Self::get`] of a key not met before (rare once a map's games have been played).
    #[cold]
    #[inline(never)]
    fn make<M: Mask>(
        &mut self,
        py: Python<'_>,
        map: &GameMap<M>,
        st: &State<M>,
        code: Code,
        key: u64,
    ) -> PyResult<u32> {
        let id = match text(map, st, code) {
            Some(t) => self.add_text(py, map, t, code)?,
            None => NOT_LISTED,
        };
        self.index.insert(key, id);
        Ok(id)
    }

    /// The id of `text` (the text of `code`), made, ranked and put in `lookup` on first use.
    /// A text met again with another code (none is known: a text names its order) is taken
    /// out of `lookup`, so that the drop-in reads it the long way.
    fn add_text<M: Mask>(
        &mut self,
        py: Python<'_>,
        map: &GameMap<M>,
        text: String,
        code: Code,
    ) -> PyResult<u32> {
        let lookup = self
            .lookup
            .get_or_insert_with(|| PyDict::new(py).unbind())
            .bind(py)
            .clone();
        if let Some(&id) = self.ids.get(text.as_str()) {
            let known = &self.texts[id as usize];
            if known.code != code && lookup.contains(known.py_text.bind(py))? {
                lookup.del_item(known.py_text.bind(py))?;
            }
            return Ok(id);
        }
        let id = self.texts.len() as u32;
        let py_text = PyString::new(py, &text).unbind();
        let slot = map.prov_of[loc_of(code)] as usize;
        let entry = PyTuple::new(
            py,
            [
                py_text.bind(py).clone().into_any(),
                signed(code).into_pyobject(py)?.into_any(),
                slot.into_pyobject(py)?.into_any(),
                id.into_pyobject(py)?.into_any(),
            ],
        )?;
        // A waive is no unit's order (the drop-in gives each its own slot): read the long way.
        if kind_of(code) != kind::WAIVE {
            lookup.set_item(py_text.bind(py), entry)?;
        }
        // A rank halfway between the neighbours' (all ranked anew when there is no room).
        let below = self
            .ids
            .range::<str, _>((Unbounded, Excluded(text.as_str())))
            .next_back()
            .map_or(0, |(_, &i)| self.texts[i as usize].rank);
        let above = self
            .ids
            .range::<str, _>((Excluded(text.as_str()), Unbounded))
            .next()
            .map_or(u64::MAX, |(_, &i)| self.texts[i as usize].rank);
        let rank = below + (above - below) / 2;
        self.ids.insert(text.into_boxed_str(), id);
        self.texts.push(Text {
            py_text,
            code,
            rank,
        });
        if rank == below || rank == above {
            self.rerank();
        }
        Ok(id)
    }

    /// Ranks every text anew, evenly spaced.
    fn rerank(&mut self) {
        let step = u64::MAX / (self.ids.len() as u64 + 1);
        for (n, &id) in self.ids.values().enumerate() {
            self.texts[id as usize].rank = step * (n as u64 + 1);
        }
    }

    fn forget_all(&mut self) {
        self.index.clear();
        self.ids.clear();
        self.texts.clear();
        self.lookup = None;
    }
}

/// A slot's power, key, whether the key is a power, and its codes.
type SlotCodes = (u8, u16, bool, Vec<Code>);

/// The game's slots with their codes, MILA's way: a power's waive listed at each of its build
/// sites (the engine lists it in a slot of its own after them, one shape with `diplo.legal`).
fn slot_codes<M: Mask>(g: &Game<M>) -> Vec<SlotCodes> {
    let mut slots = g.with_legal(|legal, slots| {
        slots
            .iter()
            .map(|s| (s.power, s.key, s.key_is_power, legal.codes_of(s).to_vec()))
            .collect::<Vec<SlotCodes>>()
    });
    let waives: Vec<(u8, Code)> = slots
        .iter()
        .filter(|s| s.2)
        .flat_map(|s| s.3.iter().map(move |&c| (s.0, c)))
        .collect();
    for s in slots.iter_mut().filter(|s| !s.2) {
        s.3.extend(waives.iter().filter(|w| w.0 == s.0).map(|w| w.1));
    }
    slots
}

/// The ids of the texts listed in each slot of `slots` (with their codes), sorted by text:
/// slot `i`'s are `listed[bounds[i]..bounds[i + 1]]` (`cache` holding the map's texts, made
/// where missing).
struct Listed {
    listed: Vec<(u32, Code)>,
    bounds: Vec<usize>,
}

impl Listed {
    fn of(&self, slot: usize) -> &[(u32, Code)] {
        &self.listed[self.bounds[slot]..self.bounds[slot + 1]]
    }
}

fn listed<M: Mask>(
    py: Python<'_>,
    g: &Game<M>,
    cache: &mut MilaTexts,
    slots: &[SlotCodes],
) -> PyResult<Listed> {
    let (map, st) = (g.map, &g.state);
    if cache.index.len() > TEXTS_MAX {
        cache.forget_all();
    }
    let mut keyed: Vec<(u64, u32, Code)> = Vec::new();
    let mut out = Listed {
        listed: Vec::with_capacity(slots.iter().map(|s| s.3.len()).sum()),
        bounds: Vec::with_capacity(slots.len() + 1),
    };
    out.bounds.push(0);
    for (_, _, key_is_power, codes) in slots {
        if !*key_is_power {
            for &code in codes {
                let id = cache.get(py, map, st, code)?;
                if id != NOT_LISTED {
                    keyed.push((0, id, code));
                }
            }
            // Ranks read after the slot's texts are made (a new text may rank all anew).
            for k in keyed.iter_mut() {
                k.0 = cache.texts[k.1 as usize].rank;
            }
            keyed.sort_unstable_by_key(|k| k.0);
            out.listed
                .extend(keyed.drain(..).map(|(_, id, code)| (id, code)));
        }
        out.bounds.push(out.listed.len());
    }
    Ok(out)
}

/// The phase as MILA's `Game` shows it to a bot, in one call:
/// `(possible, orderable, owner, lookup, orderable_again)`. `possible` maps every location name to the sorted
/// texts of the orders listed there (a unit's province, and also its coast for a fleet on a
/// split coast; a build site's province), each list new; `orderable` maps each power to the
/// keys it orders; `owner` holds per text id `1 +` the index of the power that may give the text
/// now (0: none; 255: more than one); `lookup` is the map's `{text: (text, code, slot, id)}`;
/// `orderable_again` is a second `orderable`, for a caller to keep. A power
/// that may build but has no free home centre lists nothing. Runs inside the panic guard
/// (`errors::guarded`): a bug is a `RuntimeError`.
#[pyfunction]
fn mila_turn<'py>(py: Python<'py>, game: PyRef<'py, PyFastGame>) -> PyResult<Bound<'py, PyTuple>> {
    guarded(|| on_game!(&game.game, g => turn(py, g)))
}

fn turn<'py, M: Mask>(py: Python<'py>, g: &Game<M>) -> PyResult<Bound<'py, PyTuple>> {
    let map = g.map;
    let slots = slot_codes(g);
    let names: &MapNames = map_names(py, map);
    let mut guard = names.mila.lock().unwrap_or_else(|e| e.into_inner());
    let cache = &mut *guard;
    let listed_of = listed(py, g, cache, &slots)?;
    let template = cache
        .template
        .get_or_insert_with(|| {
            let d = PyDict::new(py);
            for name in &names.locations {
                // Setting a key of a fresh dict cannot fail.
                let _ = d.set_item(name.bind(py), py.None());
            }
            d.unbind()
        })
        .bind(py)
        .clone();
    let lookup = cache
        .lookup
        .get_or_insert_with(|| PyDict::new(py).unbind())
        .bind(py)
        .clone();
    let mut lists: Vec<Option<Bound<'py, PyList>>> = vec![None; names.locations.len()];
    let mut keys: Vec<Vec<&Py<PyString>>> = vec![Vec::new(); map.powers];
    let split = g.state.kind != ADJUSTMENTS;
    let texts = &cache.texts;
    let owner = PyBytes::new_with(py, texts.len(), |buf| {
        buf.fill(0);
        for (n, (power, _, _, _)) in slots.iter().enumerate() {
            for &(id, _) in listed_of.of(n) {
                let mine = if *power < SHARED - 1 {
                    power + 1
                } else {
                    SHARED
                };
                let mark = &mut buf[id as usize];
                *mark = if *mark == 0 || *mark == mine {
                    mine
                } else {
                    SHARED
                };
            }
        }
        Ok(())
    })?;
    for (n, (power, key, _, _)) in slots.iter().enumerate() {
        let listed = listed_of.of(n);
        if listed.is_empty() {
            continue;
        }
        let key = *key as usize;
        keys[*power as usize].push(&names.locations[key]);
        let list = PyList::new(
            py,
            listed.iter().map(|x| texts[x.0 as usize].py_text.bind(py)),
        )?;
        let loc = loc_of(listed[0].1);
        if split && loc != key && loc < lists.len() {
            lists[loc] = Some(list.clone());
        }
        lists[key] = Some(list);
    }
    let possible = template.copy()?;
    for (name, list) in names.locations.iter().zip(lists) {
        match list {
            Some(list) => possible.set_item(name.bind(py), list)?,
            None => possible.set_item(name.bind(py), PyList::empty(py))?,
        }
    }
    drop(guard);
    // Two alike: one kept, one handed to the first caller (who may change it).
    let orderable = || -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (name, keys) in names.powers.iter().zip(&keys) {
            d.set_item(
                name.bind(py),
                PyList::new(py, keys.iter().map(|k| k.bind(py)))?,
            )?;
        }
        Ok(d)
    };
    PyTuple::new(
        py,
        [
            possible.into_any(),
            orderable()?.into_any(),
            owner.into_any(),
            lookup.into_any(),
            orderable()?.into_any(),
        ],
    )
}

/// A bot's orders for one power, read as `mila_turn` listed them: `before` (the orders kept
/// so far, slot -> entry; `None` for none) with each of `texts` put at its slot as its `lookup`
/// entry, in a new dict; `None` (nothing made) unless every text is in `lookup` with `owner`
/// marking it `mark`'s, and, with `distinct`, no two texts are for one slot (an adjustment
/// phase, where MILA voids the second). Runs inside the panic guard.
#[pyfunction]
#[pyo3(signature = (lookup, owner, mark, texts, before, distinct = false))]
fn mila_take<'py>(
    py: Python<'py>,
    lookup: &Bound<'py, PyDict>,
    owner: &Bound<'py, PyBytes>,
    mark: u8,
    texts: &Bound<'py, PyList>,
    before: Option<&Bound<'py, PyDict>>,
    distinct: bool,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    guarded(|| take(py, lookup, owner, mark, texts, before, distinct))
}

fn take<'py>(
    py: Python<'py>,
    lookup: &Bound<'py, PyDict>,
    owner: &Bound<'py, PyBytes>,
    mark: u8,
    texts: &Bound<'py, PyList>,
    before: Option<&Bound<'py, PyDict>>,
    distinct: bool,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    let marks = owner.as_bytes();
    let mut found = Vec::with_capacity(texts.len());
    for text in texts.iter() {
        // An unhashable item is not listed: the caller reads it the long way (and says why).
        let Ok(Some(entry)) = lookup.get_item(&text) else {
            return Ok(None);
        };
        let Ok(entry) = entry.downcast_into::<PyTuple>() else {
            return Ok(None);
        };
        let Ok(id) = entry.get_item(3).and_then(|id| id.extract::<usize>()) else {
            return Ok(None);
        };
        if marks.get(id) != Some(&mark) {
            return Ok(None);
        }
        found.push((entry.get_item(2)?, entry));
    }
    if distinct {
        let mut slots = Vec::with_capacity(found.len());
        for (slot, _) in &found {
            slots.push(slot.extract::<usize>()?);
        }
        slots.sort_unstable();
        if slots.windows(2).any(|w| w[0] == w[1]) {
            return Ok(None);
        }
    }
    let out = match before {
        Some(before) => before.copy()?,
        None => PyDict::new(py),
    };
    for (slot, entry) in found {
        out.set_item(slot, entry)?;
    }
    Ok(Some(out))
}

/// Per power, `{text: code}` of the orders listed this phase (as `mila_turn` lists them): the
/// drop-in's long way, for orders that `mila_turn`'s `lookup` and `owner` do not settle.
#[pyfunction]
fn mila_codes<'py>(py: Python<'py>, game: PyRef<'py, PyFastGame>) -> PyResult<Bound<'py, PyDict>> {
    guarded(|| on_game!(&game.game, g => codes(py, g)))
}

fn codes<'py, M: Mask>(py: Python<'py>, g: &Game<M>) -> PyResult<Bound<'py, PyDict>> {
    let slots = slot_codes(g);
    let names = map_names(py, g.map);
    let mut guard = names.mila.lock().unwrap_or_else(|e| e.into_inner());
    let cache = &mut *guard;
    let listed_of = listed(py, g, cache, &slots)?;
    let out = PyDict::new(py);
    let by_power: Vec<Bound<'py, PyDict>> = names.powers.iter().map(|_| PyDict::new(py)).collect();
    for (name, dict) in names.powers.iter().zip(&by_power) {
        out.set_item(name.bind(py), dict)?;
    }
    for (n, (power, _, _, _)) in slots.iter().enumerate() {
        for &(id, code) in listed_of.of(n) {
            let text = cache.texts[id as usize].py_text.bind(py);
            by_power[*power as usize].set_item(text, signed(code))?;
        }
    }
    Ok(out)
}

/// Adds `mila_turn`, `mila_codes` and `mila_take` to `diplo._core`.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(mila_turn, m)?)?;
    m.add_function(wrap_pyfunction!(mila_codes, m)?)?;
    m.add_function(wrap_pyfunction!(mila_take, m)?)
}
