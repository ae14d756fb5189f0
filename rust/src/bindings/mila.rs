//! The legal orders of a fast game as text in MILA's notation (`diplo._core.mila_turn`), for
//! `diplo.compat.mila`, whose bots read every possible order as a string each phase: making the
//! strings here, once per order, costs a fraction of doing it in Python.
//!
//! The texts are those `diplo.orders.format_order` writes for the decoded orders (the tests of
//! `diplo.compat.mila` hold the two together), less the plain form of an army's move beyond its
//! neighbours (MILA lists a convoyed move with `VIA` only).

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use super::any::on_game;
use super::errors::guarded;
use super::game::PyFastGame;
use super::texts::map_names;
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

/// A text's first bytes as three big-endian words (zero past its end): comparing keys orders
/// texts as comparing the texts does, up to the first 24 bytes (texts hold no zero byte).
type SortKey = [u64; 3];

fn sort_key(text: &str) -> SortKey {
    let mut bytes = [0u8; 24];
    let n = text.len().min(24);
    bytes[..n].copy_from_slice(&text.as_bytes()[..n]);
    let word = |i: usize| u64::from_be_bytes(bytes[8 * i..8 * i + 8].try_into().unwrap_or([0; 8]));
    [word(0), word(1), word(2)]
}

/// One of a map's MILA texts: its sort key (beside the entry, so that sorting a phase's texts
/// reads no text), the text, the text as a Python string and its code as a Python int (a text
/// is one code's).
pub(crate) struct MilaText {
    key: SortKey,
    text: Box<str>,
    py_text: Py<PyString>,
    py_code: Py<PyAny>,
}

const NOT_LISTED: u32 = u32::MAX;
/// A map's texts are forgotten past this many.
const TEXTS_MAX: usize = 1 << 19;

/// A slot's power, key, whether the key is a power, and its codes.
type SlotCodes = (u8, u16, bool, Vec<Code>);

/// The phase as MILA's `Game` shows it to a bot, in one call: `(possible, orderable, codes)`.
/// `possible` maps every location name to the sorted texts of the orders listed there (a unit's
/// province, and also its coast for a fleet on a split coast; a build site's province);
/// `orderable` maps each power to the keys it orders; `codes` maps each power to `{text: code}`
/// of its listed orders. A power that may build but has no free home centre lists nothing.
/// Runs inside the panic guard (`errors::guarded`): a bug is a `RuntimeError`.
#[pyfunction]
fn mila_turn<'py>(py: Python<'py>, game: PyRef<'py, PyFastGame>) -> PyResult<Bound<'py, PyTuple>> {
    guarded(|| on_game!(&game.game, g => turn(py, g)))
}

fn turn<'py, M: Mask>(py: Python<'py>, g: &Game<M>) -> PyResult<Bound<'py, PyTuple>> {
    let map = g.map;
    let st = &g.state;
    let mut slots = g.with_legal(|legal, slots| {
        slots
            .iter()
            .map(|s| (s.power, s.key, s.key_is_power, legal.codes_of(s).to_vec()))
            .collect::<Vec<SlotCodes>>()
    });
    // The engine lists a power's waive in a slot of its own after its build sites (one shape
    // with `diplo.legal`); MILA lists it at every build site.
    let waives: Vec<(u8, Code)> = slots
        .iter()
        .filter(|s| s.2)
        .flat_map(|s| s.3.iter().map(move |&c| (s.0, c)))
        .collect();
    for s in slots.iter_mut().filter(|s| !s.2) {
        s.3.extend(waives.iter().filter(|w| w.0 == s.0).map(|w| w.1));
    }
    let names = map_names(py, map);
    let mut guard = names.mila.lock().unwrap_or_else(|e| e.into_inner());
    let cache = &mut *guard;
    if cache.arena.len() > TEXTS_MAX {
        cache.index.clear();
        cache.arena.clear();
    }
    // Per slot, the indexes of its listed texts (made where missing), sorted by text.
    let mut listed_of: Vec<Vec<(u32, Code)>> = Vec::with_capacity(slots.len());
    let mut keyed: Vec<(SortKey, u32, Code)> = Vec::new();
    for (_, _, key_is_power, codes) in &slots {
        let mut listed = Vec::with_capacity(if *key_is_power { 0 } else { codes.len() });
        if !*key_is_power {
            for &code in codes {
                let key = text_key(map, st, code);
                let i = match cache.index.get(&key) {
                    Some(&i) => i,
                    None => {
                        let i = match text(map, st, code) {
                            Some(t) => {
                                let py_text = PyString::new(py, &t).unbind();
                                let py_code = signed(code).into_pyobject(py)?.into_any().unbind();
                                cache.arena.push(MilaText {
                                    key: sort_key(&t),
                                    text: t.into_boxed_str(),
                                    py_text,
                                    py_code,
                                });
                                (cache.arena.len() - 1) as u32
                            }
                            None => NOT_LISTED,
                        };
                        cache.index.insert(key, i);
                        i
                    }
                };
                if i != NOT_LISTED {
                    keyed.push((cache.arena[i as usize].key, i, code));
                }
            }
            let texts = &cache.arena;
            // Equal keys: texts alike in their first 24 bytes, told apart by the rest.
            keyed.sort_unstable_by(|x, y| {
                x.0.cmp(&y.0)
                    .then_with(|| texts[x.1 as usize].text.cmp(&texts[y.1 as usize].text))
            });
            listed.extend(keyed.drain(..).map(|(_, i, code)| (i, code)));
        }
        listed_of.push(listed);
    }
    let cache = &*guard;
    let possible = PyDict::new(py);
    for name in &names.locations {
        possible.set_item(name.bind(py), PyList::empty(py))?;
    }
    let orderable = PyDict::new(py);
    let codes_by_power = PyDict::new(py);
    let mut keys = Vec::with_capacity(map.powers);
    let mut by_text = Vec::with_capacity(map.powers);
    for name in &names.powers {
        let (list, dict) = (PyList::empty(py), PyDict::new(py));
        orderable.set_item(name.bind(py), &list)?;
        codes_by_power.set_item(name.bind(py), &dict)?;
        keys.push(list);
        by_text.push(dict);
    }
    let split = st.kind != ADJUSTMENTS;
    for ((power, key, _, _), listed) in slots.iter().zip(&listed_of) {
        if listed.is_empty() {
            continue;
        }
        let (power, key) = (*power as usize, *key as usize);
        let key_name = names.locations[key].bind(py);
        keys[power].append(key_name)?;
        let texts = PyList::new(
            py,
            listed
                .iter()
                .map(|x| cache.arena[x.0 as usize].py_text.bind(py)),
        )?;
        for &(i, _) in listed {
            let entry = &cache.arena[i as usize];
            by_text[power].set_item(entry.py_text.bind(py), entry.py_code.bind(py))?;
        }
        possible.set_item(key_name, &texts)?;
        let loc = loc_of(listed[0].1);
        if split && loc != key {
            possible.set_item(names.locations[loc].bind(py), &texts)?;
        }
    }
    drop(guard);
    PyTuple::new(
        py,
        [
            possible.into_any(),
            orderable.into_any(),
            codes_by_power.into_any(),
        ],
    )
}

/// Adds `mila_turn` to `diplo._core`.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(mila_turn, m)?)
}
