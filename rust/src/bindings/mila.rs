//! The legal orders of a fast game as text in MILA's notation (`diplo._core.mila_turn`,
//! `diplo._core.mila_codes`), for `diplo.compat.mila`, whose bots read every possible order as a
//! string each phase: making the strings here, once per order and map, costs a fraction of doing
//! it in Python.
//!
//! The texts are those `diplo.model.orders.format_order` writes for the decoded orders (the tests of
//! `diplo.compat.mila` hold the two together), less the plain form of an army's move beyond its
//! neighbours (MILA lists a convoyed move with `VIA` only).
//!
//! Each map keeps every text made so far twice over: by the key of what it depends on (a code
//! and the units it names; [`MilaTexts::index`]) and by the text itself (a *text id*: one Python
//! string, its code, and an entry `text -> (text, code, slot, id)` of one Python dict per map,
//! the `lookup` that `mila_turn` returns). It also keeps each slot's sorted list by what its
//! texts are made of ([`Listing`]), so a unit standing as it stood in some earlier phase gets its
//! list without a text looked up. A phase answers "which power may give this text now?" per
//! slot ([`MilaCheck`]), and the drop-in reads a bot's orders with one dict lookup and a look at
//! the slot each, with no per-phase dict of texts; `mila_play` plays the orders kept so.

use std::ops::Bound::{Excluded, Included, Unbounded};
use std::sync::{Arc, Mutex};

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use super::any::on_game;
use super::cache::{KeyHasher, PerMap};
use super::errors::guarded;
use super::handles::{PyCodeGame, PyVerdict};
use super::intake::GARBAGE;
use super::process::{game_over, rule_checked};
use super::texts::{map_names, named_part, text_key, unit_tag, MapNames, TextCache};
use crate::engine::encode::{a_of, kind, kind_of, loc_of, signed, via_of, Code};
use crate::engine::game_map::{has, Bits, GameMap, Mask};
use crate::engine::phases::Game;
use crate::engine::state::{State, ADJUSTMENTS, MOVEMENT, RETREATS};
use crate::engine::text::ordered_unit;

/// Whether MILA lists the legal `code`: all but one form, an army's plain move beyond its
/// neighbours. Its text is the canonical short form, kept by `texts` ([`TextCache`]).
fn listed<M: Mask>(map: &GameMap<M>, st: &State<M>, code: Code) -> bool {
    if kind_of(code) == kind::MOVE && !via_of(code) {
        let prov = map.prov_of[loc_of(code)] as usize;
        let me = ordered_unit(map, st, code);
        return me.fleet || has(map.army_adj[prov], a_of(code));
    }
    true
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
/// The mark of a slot ordered by two powers in one phase (no power's fast path takes its texts).
const SHARED: u8 = u8::MAX;

/// A map's MILA texts (kept per map by [`mila_texts`]).
struct MilaTexts {
    /// The map's order texts, which every user shares (`texts::MapNames::texts`): MILA's
    /// texts are its strings, ranked and looked up MILA's way.
    order_texts: &'static Mutex<TextCache>,
    /// Text key -> text id (or [`NOT_LISTED`]).
    index: std::collections::HashMap<u64, u32, std::hash::BuildHasherDefault<KeyHasher>>,
    /// Every text, in order -> its id; text id -> its string, code and rank.
    ids: std::collections::BTreeMap<Box<str>, u32>,
    texts: Vec<Text>,
    /// `{text: (text, code, slot, id)}` of every text with one code but the waive (`slot`:
    /// the location index of the province ordered); a new dict when the texts are forgotten, so
    /// that the dict and the check a phase handed out keep agreeing.
    lookup: Option<Py<PyDict>>,
    /// `{location: None}` in the map's order: a phase's `possible` starts as its copy.
    template: Option<Py<PyDict>>,
    /// Slot listings made or met since the last turn of generations, by [`listing_hash`] of
    /// their keys (see [`Listing`]), and those of the generation before (a listing met again
    /// moves up): the listings in use stay kept, the others are forgotten a generation on.
    older: std::collections::HashMap<u64, Arc<Listing>, std::hash::BuildHasherDefault<KeyHasher>>,
    listings:
        std::collections::HashMap<u64, Arc<Listing>, std::hash::BuildHasherDefault<KeyHasher>>,
    /// A slot's `(rank, text id, code)` while its listing is made: kept between slots, so
    /// that a listing made allocates only what it keeps.
    keyed: Vec<(u64, u32, Code)>,
}

/// The MILA texts of `map` (made on first use, kept for the life of the process, as the map
/// itself is).
fn mila_texts<M: Mask>(py: Python<'_>, map: &'static GameMap<M>) -> &'static Mutex<MilaTexts> {
    static ALL: PerMap<Mutex<MilaTexts>> = PerMap::new();
    ALL.get(map, || {
        Mutex::new(MilaTexts {
            order_texts: &map_names(py, map).texts,
            index: Default::default(),
            ids: Default::default(),
            texts: Vec::new(),
            lookup: None,
            template: None,
            older: Default::default(),
            listings: Default::default(),
            keyed: Vec::new(),
        })
    })
}

/// One slot's listing as made before. A slot's texts depend on nothing but its keys (the
/// [`text_key`] of each of its codes, written per slot: see [`SlotKeys`]), so a slot whose keys
/// are those of a listing made before lists the same texts: the listing is reused, its list
/// copied, and neither the texts nor their order is looked up again. Units standing as they
/// stood before (the neighbours, the fleets at sea alike) are common from phase to phase and
/// from game to game.
struct Listing {
    /// The slot's keys ([`SlotKeys`]; compared in full on a hit).
    keys: Box<[u64]>,
    /// The listed text ids a bot's orders are taken by (not those shown only: `SHOWN_ONLY`),
    /// in text order, and their codes.
    ids: Arc<[u32]>,
    codes: Box<[Code]>,
    /// The location of the listed codes' unit (or build site): a fleet's coast.
    loc: usize,
    /// The listed texts (copied for each phase, never handed out).
    list: Py<PyList>,
}

/// A map keeps at most this many listings, in two generations (each listing some 700 bytes:
/// about 23 MB at most).
const LISTINGS_MAX: usize = 1 << 15;

/// The key of a listing: its keys hashed (a hit is then checked key by key).
fn listing_hash(keys: &[u64]) -> u64 {
    let mut h = 0x243F_6A88_85A3_08D3u64 ^ keys.len() as u64;
    for &k in keys {
        h = (h ^ k).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
    }
    h
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
        let id = if listed(map, st, code) {
            let (text, py_text) = {
                let mut shared = self.order_texts.lock().unwrap_or_else(|e| e.into_inner());
                let i = shared.get_keyed(py, map, st, code, key) as usize;
                let (text, py_text) = &shared.arena[i];
                (text.clone(), py_text.clone_ref(py))
            };
            self.add_text(py, map, text, py_text, code)?
        } else {
            NOT_LISTED
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
        text: Box<str>,
        py_text: Py<PyString>,
        code: Code,
    ) -> PyResult<u32> {
        let lookup = self
            .lookup
            .get_or_insert_with(|| PyDict::new(py).unbind())
            .bind(py)
            .clone();
        // The first text from `text` on: `text` itself when known, else its neighbour above
        // (one walk of the tree for both).
        let above = match self
            .ids
            .range::<str, _>((Included(&*text), Unbounded))
            .next()
        {
            Some((known, &id)) if **known == *text => {
                let known = &self.texts[id as usize];
                if known.code != code && lookup.contains(known.py_text.bind(py))? {
                    lookup.del_item(known.py_text.bind(py))?;
                }
                return Ok(id);
            }
            Some((_, &i)) => self.texts[i as usize].rank,
            None => u64::MAX,
        };
        let id = self.texts.len() as u32;
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
            .range::<str, _>((Unbounded, Excluded(&*text)))
            .next_back()
            .map_or(0, |(_, &i)| self.texts[i as usize].rank);
        let rank = below + (above - below) / 2;
        self.ids.insert(text, id);
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
        self.listings.clear();
        self.older.clear();
    }

    /// The listing of a slot whose codes are `codes` with keys `keys` ([`SlotKeys`]; made and
    /// kept on first use).
    fn listing<M: Mask>(
        &mut self,
        py: Python<'_>,
        map: &GameMap<M>,
        st: &State<M>,
        codes: &[Code],
        keys: &[u64],
        shown: usize,
    ) -> PyResult<Arc<Listing>> {
        let h = listing_hash(keys);
        if let Some(found) = self.listings.get(&h) {
            if *found.keys == *keys {
                return Ok(found.clone());
            }
        }
        if let Some(found) = self.older.remove(&h) {
            if *found.keys == *keys {
                self.keep(h, found.clone());
                return Ok(found);
            }
        }
        // (rank, text id, code); an error leaves a new buffer behind, no harm
        let mut keyed = std::mem::take(&mut self.keyed);
        keyed.clear();
        for &code in codes {
            let id = self.get(py, map, st, code)?;
            if id != NOT_LISTED {
                keyed.push((0, id, code));
            }
        }
        // Ranks read after the slot's texts are made (a new text may rank all anew).
        for k in keyed.iter_mut() {
            k.0 = self.texts[k.1 as usize].rank;
        }
        keyed.sort_unstable_by_key(|k| k.0);
        let list = PyList::new(
            py,
            keyed
                .iter()
                .map(|k| self.texts[k.1 as usize].py_text.bind(py)),
        )?;
        // The last `shown` codes are in the list, never among the ids and codes a bot's orders
        // are taken by (no legal code is among them). Nearly always there is none: then both are
        // made in one exact allocation each (a filtered iterator's collect grows and copies).
        let only = &codes[codes.len() - shown..];
        let (ids, codes): (Arc<[u32]>, Box<[Code]>) = if !only.is_empty() {
            let taken = || keyed.iter().filter(|k| !only.contains(&k.2));
            (
                taken().map(|k| k.1).collect(),
                taken().map(|k| k.2).collect(),
            )
        } else {
            (
                keyed.iter().map(|k| k.1).collect(),
                keyed.iter().map(|k| k.2).collect(),
            )
        };
        let made = Arc::new(Listing {
            keys: keys.into(),
            ids,
            codes,
            loc: keyed.first().map_or(usize::MAX, |k| loc_of(k.2)),
            list: list.unbind(),
        });
        self.keyed = keyed;
        self.keep(h, made.clone());
        Ok(made)
    }

    /// Keeps `listing` in the current generation; a full generation becomes the older one (the
    /// older one forgotten).
    fn keep(&mut self, h: u64, listing: Arc<Listing>) {
        if self.listings.len() >= LISTINGS_MAX / 2 {
            self.older = std::mem::take(&mut self.listings);
        }
        self.listings.insert(h, listing);
    }
}

/// Which texts each power may give this phase, and the bot's way in (`MilaCheck.take`): per
/// slot (the location index of a unit's or build site's province), `1 +` the index of the power
/// ordering there (0: none; [`SHARED`]: more than one) and the ids of the texts listed there;
/// the map's `lookup` (`{text: (text, code, slot, id)}`); whether two orders for one slot are
/// refused (an adjustment phase: MILA voids the second); the state it describes (its stamp).
/// Made by `mila_turn`; never changed.
#[pyclass(frozen, name = "MilaCheck", module = "diplo._core")]
pub(crate) struct MilaCheck {
    marks: Box<[u8]>,
    ids: Box<[Option<Arc<[u32]>>]>,
    lookup: Py<PyDict>,
    distinct: bool,
    stamp: u64,
    names: &'static MapNames,
}

impl MilaCheck {
    /// Whether text id `id` is listed at `slot` for the power marked `mark`.
    #[inline]
    fn allows(&self, slot: usize, id: u32, mark: u8) -> bool {
        self.marks.get(slot) == Some(&mark)
            && self.ids[slot].as_ref().is_some_and(|ids| ids.contains(&id))
    }

    /// The mark of the power named `power` (the map's own name object, or an equal string),
    /// or `None`.
    fn mark_of(&self, power: &Bound<'_, PyAny>) -> Option<u8> {
        let names = &self.names.powers;
        let at = names
            .iter()
            .position(|n| n.as_ptr() == power.as_ptr())
            .or_else(|| {
                let text = power.downcast::<PyString>().ok()?.to_str().ok()?;
                names
                    .iter()
                    .position(|n| n.bind(power.py()).to_str().ok() == Some(text))
            })?;
        u8::try_from(at + 1).ok().filter(|&m| m < SHARED)
    }
}

/// The fields of a kept entry `(text, code, slot, id)` (a tuple of `lookup`): its code, slot and
/// text id, or `None` for anything else (a tuple of another length, a field out of range).
///
/// # Safety
/// `entry` is a live object and the GIL is held; nothing here runs Python code (the fields are
/// read from an exact tuple of exact ints only).
unsafe fn entry_fields(entry: *mut ffi::PyObject) -> Option<(Code, usize, u32)> {
    // SAFETY: per the function's contract.
    unsafe {
        if ffi::PyTuple_CheckExact(entry) == 0 || ffi::PyTuple_Size(entry) != 4 {
            return None;
        }
        let field = |i: ffi::Py_ssize_t| -> Option<u64> {
            let item = ffi::PyTuple_GetItem(entry, i); // borrowed, in range
            if item.is_null() || ffi::PyLong_CheckExact(item) == 0 {
                ffi::PyErr_Clear();
                return None;
            }
            let v = ffi::PyLong_AsUnsignedLongLong(item);
            if v == u64::MAX && !ffi::PyErr_Occurred().is_null() {
                ffi::PyErr_Clear();
                return None;
            }
            Some(v)
        };
        let code = field(1)?;
        let slot = usize::try_from(field(2)?).ok()?;
        let id = u32::try_from(field(3)?).ok()?;
        Some((code, slot, id))
    }
}

#[pymethods]
impl MilaCheck {
    /// Equal checks describe one state alike (two calls of `mila_turn` on one game).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        let Ok(other) = other.downcast::<MilaCheck>() else {
            return false;
        };
        let other = other.get();
        self.stamp == other.stamp
            && self.distinct == other.distinct
            && self.marks == other.marks
            && self.ids == other.ids
            && self.lookup.is(&other.lookup)
    }

    /// Whether the text with id ``text_id`` is listed at ``slot`` for the power with index
    /// ``power`` (the check `take` makes of each text).
    fn allows_text(&self, slot: usize, text_id: u32, power: usize) -> bool {
        power < usize::from(SHARED - 1) && self.allows(slot, text_id, power as u8 + 1)
    }

    /// A bot's orders for one power, read as `mila_turn` listed them: `before` (the orders kept
    /// so far, slot -> entry; `None` for none) with each of `texts` put at its slot as its
    /// `lookup` entry, in a new dict; `None` (nothing made) unless `power` is one of the map's
    /// powers and every text is in `lookup` and listed for it, and, in an adjustment phase, no
    /// two texts are for one slot. Runs inside the panic guard.
    #[pyo3(signature = (power, texts, before))]
    fn take<'py>(
        &self,
        power: &Bound<'py, PyAny>,
        texts: &Bound<'py, PyList>,
        before: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        guarded(|| {
            let Some(mark) = self.mark_of(power) else {
                return Ok(None);
            };
            take(
                power.py(),
                self.lookup.bind(power.py()),
                self,
                mark,
                texts,
                before,
            )
        })
    }
}

/// A slot of the phase for MILA's lists: its power and province, and where its codes and text
/// keys lie in [`SlotKeys`]' buffers.
struct KeyedSlot {
    power: u8,
    key: u16,
    start: usize,
    end: usize,
    /// How many of the slot's last codes MILA lists but does not take (`SHOWN_ONLY`).
    shown: usize,
}

/// The phase's slots with their codes and listing keys, MILA's way: a power's waive listed at
/// each of its build sites (the engine lists it in a slot of its own after them, one shape with
/// `diplo.reference.legal`), the waive's own slot left out. A slot's keys are the tag of the unit it
/// orders, then per code the code with the tag of the unit it names (a support's or convoy's):
/// what its texts are made of ([`text_key`] of each code, the ordered unit written once); its
/// codes start with a placeholder beside the first key.
struct SlotKeys {
    slots: Vec<KeyedSlot>,
    codes: Vec<Code>,
    keys: Vec<u64>,
}

impl SlotKeys {
    /// The codes and keys of slot `s` (the codes without the placeholder).
    fn of(&self, s: &KeyedSlot) -> (&[Code], &[u64]) {
        (&self.codes[s.start + 1..s.end], &self.keys[s.start..s.end])
    }
}

/// The mark on a [`SlotKeys`] key of a code MILA lists but does not take (a support of a
/// convoyed move: `Legal::mila_shown`): its text is in the slot's list, not among the texts a
/// bot's orders are taken by (`MilaCheck`, `mila_codes`), so the drop-in reads it the long way
/// and refuses it, as MILA does. Keys use bits 0-59.
const SHOWN_ONLY: u64 = 1 << 63;

/// The longest chain of fleets MILA lists (`MAX_CONVOY_LENGTH`, `utils/convoy_paths.py`).
const MILA_CHAIN: u32 = 13;
/// The most chains [`convoy_candidates`] follows in one state before it gives up (and lists
/// every legal convoy): far above what MILA's maps with a port reach.
const MILA_WALKS: usize = 1 << 20;

/// Under MILA's ports (`port_first_only`), per fleet province, the armies (provinces) next to a
/// port holding a fleet that MILA lists the fleet's convoys of, and those armies' provinces;
/// `None`: every legal convoy is listed. MILA's `get_all_possible_orders` lists a fleet's convoys only of the armies that end
/// some route of its table through the fleet (`_get_convoy_destinations(..., unit_is_convoyer)`:
/// a route from any shore, kept for a destination only when no smaller one reaches it from that
/// shore; `utils/convoy_paths.py`), then checks the route from the army. Without a port every
/// route runs both ways, so the first test adds nothing; with one, an army that reaches the seas
/// only by the port (A SAG by F BAL, no fleet in F BER) ends no route through a farther fleet (F
/// TYN), save one from the port coming back through the port's own fleet.
fn convoy_candidates<M: Mask>(map: &GameMap<M>, st: &State<M>) -> Option<(Vec<M>, M)> {
    if !st.rules.resolver.port_first_only || st.kind != MOVEMENT {
        return None;
    }
    let mut afloat = M::ZERO;
    let mut armies = M::ZERO;
    for q in 0..map.provinces {
        let u = st.units[q];
        if u.is_some() {
            if u.fleet {
                afloat |= M::bit(q);
            } else {
                armies |= M::bit(q);
            }
        }
    }
    let fleets = afloat & map.carriers;
    let ported = map.ports & fleets;
    let mut wanted = M::ZERO;
    for q in Bits(armies) {
        if !(map.shore_seas[q] & ported).is_zero() {
            wanted |= M::bit(q);
        }
    }
    if wanted.is_zero() {
        return None;
    }
    let mut cand = vec![M::ZERO; map.provinces];
    let mut walks = 0usize;
    let mut queue: std::collections::VecDeque<(M, usize)> = std::collections::VecDeque::new();
    for start in Bits(map.shores) {
        let first = map.shore_seas[start] & fleets;
        if first.is_zero() {
            continue;
        }
        // Only the start, when it is a port, may be passed on to again.
        let closed = map.ports & !M::bit(start);
        let mut kept: Vec<(usize, M)> = Vec::new();
        queue.clear();
        for c in Bits(first) {
            queue.push_back((M::bit(c), c));
        }
        while let Some((chain, last)) = queue.pop_front() {
            walks += 1;
            if walks > MILA_WALKS {
                return None;
            }
            for d in Bits(map.sea_shores[last] & wanted & !M::bit(start)) {
                if kept.iter().any(|&(k, r)| k == d && (r & !chain).is_zero()) {
                    continue;
                }
                kept.push((d, chain));
                for x in Bits(chain) {
                    cand[x] |= M::bit(d);
                }
            }
            if chain.count() < MILA_CHAIN {
                for n in Bits(map.sea_adj[last] & fleets & !chain & !closed) {
                    queue.push_back((chain | M::bit(n), n));
                }
            }
        }
    }
    Some((cand, wanted))
}

/// Whether MILA lists the legal `code` as far as [`convoy_candidates`] says.
#[inline]
fn convoy_listed<M: Mask>(map: &GameMap<M>, cand: &Option<(Vec<M>, M)>, code: Code) -> bool {
    match cand {
        Some((cand, wanted)) if kind_of(code) == kind::CONVOY => {
            let army = map.prov_of[a_of(code)] as usize;
            let fleet = map.prov_of[loc_of(code)] as usize;
            !has(*wanted, army) || has(cand[fleet], army)
        }
        _ => true,
    }
}

fn slot_keys<M: Mask>(g: &Game<M>) -> SlotKeys {
    let (map, st) = (g.map, &g.state);
    let cand = convoy_candidates(map, st);
    g.with_legal(|legal, slots| {
        let waives: Vec<(u8, Code)> = slots
            .iter()
            .filter(|s| s.key_is_power)
            .flat_map(|s| legal.codes_of(s).iter().map(move |&c| (s.power, c)))
            .collect();
        let total = slots
            .iter()
            .map(|s| legal.codes_of(s).len() + 1)
            .sum::<usize>()
            + waives.len() * slots.len().min(map.provinces);
        let mut out = SlotKeys {
            slots: Vec::with_capacity(slots.len()),
            codes: Vec::with_capacity(total),
            keys: Vec::with_capacity(total),
        };
        // Asked once per phase: with neither, a code costs no more than the engine's list.
        let (suspects, shows) = legal.mila_filters(st);
        let ported = cand.is_some();
        let mut shown: Vec<Code> = Vec::new();
        for s in slots.iter().filter(|s| !s.key_is_power) {
            let start = out.keys.len();
            let waived = waives.iter().filter(|w| w.0 == s.power).map(|w| w.1);
            // The unit ordered (for a build site, the unit there: none), then each code with
            // the unit it names: all that the texts depend on (`text_key`, made per slot).
            let me = if st.kind == RETREATS {
                st.dislodged[s.key as usize]
            } else {
                st.units[s.key as usize]
            };
            out.keys.push(unit_tag(me));
            out.codes.push(0);
            let asked = ported || has(suspects, s.key as usize);
            for code in legal.codes_of(s).iter().copied().chain(waived) {
                if asked && !(convoy_listed(map, &cand, code) && legal.mila_listed(map, st, code)) {
                    continue;
                }
                debug_assert!(asked || legal.mila_listed(map, st, code), "{code} left out");
                out.codes.push(code);
                out.keys.push(code | named_part(st, code));
            }
            // MILA lists these supports but does not take them: shown, never taken as listed.
            shown.clear();
            if shows {
                legal.mila_shown(map, st, s.key as usize, &mut shown);
            }
            for &code in &shown {
                out.codes.push(code);
                out.keys.push(code | named_part(st, code) | SHOWN_ONLY);
            }
            out.slots.push(KeyedSlot {
                power: s.power,
                key: s.key,
                start,
                end: out.keys.len(),
                shown: shown.len(),
            });
        }
        out
    })
}

/// The phase as MILA's `Game` shows it to a bot, in one call:
/// `(possible, orderable, check, lookup, orderable_again)`. `possible` maps every location name
/// to the sorted texts of the orders listed there (a unit's province, and also its coast for a
/// fleet on a split coast, its disband included; a build site's province, and for a split-coast one each coast with
/// its fleet's build and the waive, as MILA lists them), each list new; `orderable` maps each power
/// to the keys it orders; `check` is the phase's [`MilaCheck`]; `lookup` is the map's
/// `{text: (text, code, slot, id)}`; `orderable_again` is a second `orderable`, for a caller to
/// keep. A power that may build but has no free home centre lists nothing. Runs inside the
/// panic guard (`errors::guarded`): a bug is a `RuntimeError`.
#[pyfunction]
fn mila_turn<'py>(py: Python<'py>, game: PyRef<'py, PyCodeGame>) -> PyResult<Bound<'py, PyTuple>> {
    guarded(|| on_game!(&game.game, g => turn(py, g)))
}

fn turn<'py, M: Mask>(py: Python<'py>, g: &Game<M>) -> PyResult<Bound<'py, PyTuple>> {
    let map = g.map;
    let keyed = slot_keys(g);
    let names: &MapNames = map_names(py, map);
    let mut guard = mila_texts(py, map)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let cache = &mut *guard;
    if cache.index.len() > TEXTS_MAX {
        cache.forget_all();
    }
    let mut listings = Vec::with_capacity(keyed.slots.len());
    for s in &keyed.slots {
        let (codes, keys) = keyed.of(s);
        listings.push(cache.listing(py, map, &g.state, codes, keys, s.shown)?);
    }
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
    drop(guard);
    let locations = names.locations.len();
    let mut lists: Vec<Option<Bound<'py, PyList>>> = vec![None; locations];
    // (power, location key) of each slot listing something, in slot order
    let mut keys: Vec<(u8, &Py<PyString>)> = Vec::with_capacity(keyed.slots.len());
    let split = g.state.kind != ADJUSTMENTS;
    let mut marks = vec![0u8; locations].into_boxed_slice();
    let mut ids: Box<[Option<Arc<[u32]>>]> = vec![None; locations].into_boxed_slice();
    for (s, listing) in keyed.slots.iter().zip(&listings) {
        if listing.ids.is_empty() {
            continue;
        }
        let key = s.key as usize;
        let mine = if s.power < SHARED - 1 {
            s.power + 1
        } else {
            SHARED
        };
        let mark = &mut marks[key];
        *mark = if *mark == 0 || *mark == mine {
            mine
        } else {
            SHARED
        };
        ids[key] = Some(listing.ids.clone());
        keys.push((s.power, &names.locations[key]));
        let bound = listing.list.bind(py);
        let list = bound.get_slice(0, bound.len());
        let loc = listing.loc;
        // MILA lists a unit's orders under its coast as well as its province: in every phase
        // but the adjustments, and there a fleet's disband (`get_all_possible_orders`, `unit[2:]`).
        let disbands = || listing.codes.iter().all(|&c| kind_of(c) == kind::DISBAND);
        if loc != key && loc < lists.len() && (split || disbands()) {
            lists[loc] = Some(list.clone());
        } else if !split && !map.coasts[key].is_zero() {
            // MILA lists a split-coast build site's fleet build and the waive under each coast
            // too (`get_all_possible_orders` lists every location of `find_coasts(site)`).
            for c in Bits(map.coasts[key]) {
                let fleet = format!("F {} B", names.locations[c].bind(py).to_str()?);
                let mut kept = Vec::new();
                for text in list.iter() {
                    let t = text.downcast::<PyString>()?.to_str()?;
                    if t == fleet || t == "WAIVE" {
                        kept.push(text.clone());
                    }
                }
                lists[c] = Some(PyList::new(py, kept)?);
            }
        }
        lists[key] = Some(list);
    }
    keys.sort_by_key(|k| k.0); // stable: each power's keys in slot order
    let possible = template.copy()?;
    for (name, list) in names.locations.iter().zip(lists) {
        match list {
            Some(list) => possible.set_item(name.bind(py), list)?,
            None => possible.set_item(name.bind(py), PyList::empty(py))?,
        }
    }
    let check = Bound::new(
        py,
        MilaCheck {
            marks,
            ids,
            lookup: lookup.clone().unbind(),
            distinct: g.state.kind == ADJUSTMENTS,
            stamp: g.stamp,
            names,
        },
    )?;
    // Two alike: one kept, one handed to the first caller (who may change it).
    let orderable = || -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let mut rest = &keys[..];
        for (power, name) in names.powers.iter().enumerate() {
            let (mine, after) = rest.split_at(rest.partition_point(|k| k.0 as usize == power));
            rest = after;
            d.set_item(
                name.bind(py),
                PyList::new(py, mine.iter().map(|k| k.1.bind(py)))?,
            )?;
        }
        Ok(d)
    };
    PyTuple::new(
        py,
        [
            possible.into_any(),
            orderable()?.into_any(),
            check.into_any(),
            lookup.into_any(),
            orderable()?.into_any(),
        ],
    )
}

/// [`MilaCheck::take`] for the power marked `mark`.
fn take<'py>(
    py: Python<'py>,
    lookup: &Bound<'py, PyDict>,
    check: &MilaCheck,
    mark: u8,
    texts: &Bound<'py, PyList>,
    before: Option<&Bound<'py, PyDict>>,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    let n = texts.len();
    // Each text's slot and entry, borrowed: only exact strings are looked up in a dict of exact
    // strings, so no Python code runs (nothing can change the list or the dict) until the
    // entries are stored, which takes new references.
    let mut found: Vec<(usize, *mut ffi::PyObject)> = Vec::with_capacity(n);
    for i in 0..n {
        // SAFETY: `i` is below the list's length, which nothing changes meanwhile; the GIL is
        // held; the items and entries are borrowed from live containers.
        unsafe {
            let text = ffi::PyList_GetItem(texts.as_ptr(), i as ffi::Py_ssize_t);
            if text.is_null() || ffi::PyUnicode_CheckExact(text) == 0 {
                ffi::PyErr_Clear();
                return Ok(None); // read the long way, which says what is wrong
            }
            let entry = ffi::PyDict_GetItemWithError(lookup.as_ptr(), text);
            if entry.is_null() {
                ffi::PyErr_Clear();
                return Ok(None);
            }
            let Some((_, slot, id)) = entry_fields(entry) else {
                return Ok(None);
            };
            if !check.allows(slot, id, mark) {
                return Ok(None);
            }
            found.push((slot, entry));
        }
    }
    if check.distinct {
        let mut slots: Vec<usize> = found.iter().map(|f| f.0).collect();
        slots.sort_unstable();
        if slots.windows(2).any(|w| w[0] == w[1]) {
            return Ok(None);
        }
    }
    let out = match before {
        Some(before) => before.copy()?,
        None => PyDict::new(py),
    };
    for (_, entry) in found {
        // SAFETY: `entry` is a live tuple of 4 items (read above; the dict still holds it).
        let (slot, entry) = unsafe {
            (
                Bound::from_borrowed_ptr(py, ffi::PyTuple_GetItem(entry, 2)),
                Bound::from_borrowed_ptr(py, entry),
            )
        };
        out.set_item(slot, entry)?;
    }
    Ok(Some(out))
}

/// Per power, `{text: code}` of the orders listed this phase (as `mila_turn` lists them): the
/// drop-in's long way, for orders that `mila_turn`'s `lookup` and `check` do not settle.
#[pyfunction]
fn mila_codes<'py>(py: Python<'py>, game: PyRef<'py, PyCodeGame>) -> PyResult<Bound<'py, PyDict>> {
    guarded(|| on_game!(&game.game, g => codes(py, g)))
}

fn codes<'py, M: Mask>(py: Python<'py>, g: &Game<M>) -> PyResult<Bound<'py, PyDict>> {
    let keyed = slot_keys(g);
    let names = map_names(py, g.map);
    let mut guard = mila_texts(py, g.map)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let cache = &mut *guard;
    if cache.index.len() > TEXTS_MAX {
        cache.forget_all();
    }
    let out = PyDict::new(py);
    let by_power: Vec<Bound<'py, PyDict>> = names.powers.iter().map(|_| PyDict::new(py)).collect();
    for (name, dict) in names.powers.iter().zip(&by_power) {
        out.set_item(name.bind(py), dict)?;
    }
    for s in &keyed.slots {
        let (codes, keys) = keyed.of(s);
        let listing = cache.listing(py, g.map, &g.state, codes, keys, s.shown)?;
        for (&id, &code) in listing.ids.iter().zip(listing.codes.iter()) {
            let text = cache.texts[id as usize].py_text.bind(py);
            by_power[s.power as usize].set_item(text, signed(code))?;
        }
    }
    Ok(out)
}

/// Plays the phase on the orders kept by the drop-in: `orders` (power -> slot -> entry, the
/// code second) read in the map's order of powers. Returns the phase's ruling (`Verdict`:
/// the state it was ruled from, the rulings explained, the state reached), for the history;
/// `None`, with nothing done, when an order was kept unread (its code `None`). Orders that
/// `check` (this state's) lists for their power, one per slot, are taken as listed (their
/// reasons still named); any other order makes the engine check them all. Runs inside the
/// panic guard.
#[pyfunction]
fn mila_play(
    mut game: PyRefMut<'_, PyCodeGame>,
    check: &Bound<'_, MilaCheck>,
    orders: &Bound<'_, PyDict>,
) -> PyResult<Option<PyVerdict>> {
    guarded(|| {
        if game.game.over() {
            return Err(game_over());
        }
        let check = check.get();
        let stamp = on_game!(&game.game, g => g.stamp);
        let mut listed = check.stamp == stamp;
        let mut codes: Vec<Code> = Vec::new();
        for (i, power) in check.names.powers.iter().enumerate() {
            let Some(given) = orders.get_item(power.bind(orders.py()))? else {
                continue;
            };
            let given = given.downcast_into::<PyDict>()?;
            let mark = u8::try_from(i + 1).unwrap_or(SHARED);
            let mut at: ffi::Py_ssize_t = 0;
            let mut key: *mut ffi::PyObject = std::ptr::null_mut();
            let mut entry: *mut ffi::PyObject = std::ptr::null_mut();
            // SAFETY: the GIL is held and nothing below runs Python code (the entries are read
            // as exact tuples of exact ints), so the dict and its borrowed items stay as they are.
            while unsafe { ffi::PyDict_Next(given.as_ptr(), &mut at, &mut key, &mut entry) } != 0 {
                // SAFETY: `entry` is a live value of the dict.
                if let Some((code, slot, id)) = unsafe { entry_fields(entry) } {
                    listed &= check.allows(slot, id, mark);
                    codes.push(code);
                    continue;
                }
                listed = false;
                // Another order kept: `(text, code)`, the code `None` when left unread.
                // SAFETY: as above; `entry` is borrowed from the dict.
                let entry = unsafe { Bound::from_borrowed_ptr(orders.py(), entry) };
                let code = entry.get_item(1)?;
                if code.is_none() {
                    return Ok(None);
                }
                codes.push(
                    code.extract::<i64>()
                        .map_or(GARBAGE, |c| Code::try_from(c).unwrap_or(GARBAGE)),
                );
            }
        }
        on_game!(&mut game.game, g => {
            g.orders = codes;
            let verdict = rule_checked(g, listed);
            if verdict.is_err() {
                g.orders.clear();
            }
            Ok(Some(PyVerdict::new(verdict?)))
        })
    })
}

/// Tests only: forgets every MILA text and listing kept for the game's map (the next phase is
/// listed from nothing; phases listed before keep their own lookup and check).
#[pyfunction]
fn _mila_forget(py: Python<'_>, game: PyRef<'_, PyCodeGame>) {
    on_game!(&game.game, g => {
        mila_texts(py, g.map).lock().unwrap_or_else(|e| e.into_inner()).forget_all();
    });
}

/// Adds `MilaCheck`, `mila_turn`, `mila_codes`, `mila_play` and `_mila_forget` to `diplo._core`.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<MilaCheck>()?;
    m.add_function(wrap_pyfunction!(mila_turn, m)?)?;
    m.add_function(wrap_pyfunction!(mila_codes, m)?)?;
    m.add_function(wrap_pyfunction!(mila_play, m)?)?;
    m.add_function(wrap_pyfunction!(_mila_forget, m)?)
}
