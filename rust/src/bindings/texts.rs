//! The Python strings of a map, made once: location and power names, canonical order texts
//! (interned in an arena by what a text depends on), and the legal-order texts per power.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use super::cache::{PerMap, TextArena};
use super::errors::guarded;
use crate::engine::encode::{a_of, kind, kind_of, Code};
use crate::engine::game_map::{GameMap, Mask};
use crate::engine::phases::{result, Game};
use crate::engine::state::{Piece, State};
use crate::engine::text::ordered_unit;
use crate::resolver::code;

/// The names a map's results are made of, as Python strings made once per map, and the map's
/// order texts made so far: the one home of the Python strings of a map.
pub(crate) struct MapNames {
    /// Canonical order texts already made (see [`text_key`]).
    pub(super) texts: std::sync::Mutex<TextCache>,
    pub(crate) locations: Vec<Py<PyString>>,
    pub(crate) powers: Vec<Py<PyString>>,
    pub(super) kinds: Vec<Py<PyString>>,
    pub(super) codes: Vec<Py<PyString>>,
}

/// Order texts as Rust and Python strings, by [`text_key`]: a map has a bounded number of them
/// (every order of every unit type at every place), so they are made once.
pub(super) type TextCache = TextArena<u64, (Box<str>, Py<PyString>)>;

/// A unit's part of a [`text_key`]: 0 for none, else `1 + 2 * location + is_fleet` (12 bits:
/// a map has at most 1,024 locations).
#[inline]
pub(super) fn unit_tag(piece: Piece) -> u64 {
    if piece.is_some() {
        1 + 2 * piece.loc as u64 + piece.fleet as u64
    } else {
        0
    }
}

/// Where a [`text_key`] keeps the ordered unit's [`unit_tag`] (a well-formed code uses bits
/// 0-35).
pub(super) const ORDERED_SHIFT: u32 = 36;
/// Where a [`text_key`] keeps the named unit's [`unit_tag`].
pub(super) const NAMED_SHIFT: u32 = 48;

/// The named unit's part of a [`text_key`] (shifted into place): the [`unit_tag`] of the unit
/// a support or convoy names (in province `a` of the code); 0 for any other kind.
#[inline]
pub(super) fn named_part<M: Mask>(st: &State<M>, code: Code) -> u64 {
    let k = kind_of(code);
    if k == kind::SUPPORT_HOLD || k == kind::SUPPORT_MOVE || k == kind::CONVOY {
        let named = st.units.as_ref().get(a_of(code)).copied();
        unit_tag(named.unwrap_or(Piece::NONE)) << NAMED_SHIFT
    } else {
        0
    }
}

/// What the text of `code` in `st` depends on (`engine::text::order_text`), the one key of
/// the order texts of every user (this cache, MILA's listings): the code, the unit it orders
/// ([`ordered_unit`]'s [`unit_tag`], bits 36-47) and, for a support or convoy, the unit it
/// names ([`named_part`], bits 48-59: its type and exact location, `F SPA/NC`). A build or a
/// waive depends on its code alone.
#[inline]
pub(super) fn text_key<M: Mask>(map: &GameMap<M>, st: &State<M>, code: Code) -> u64 {
    let k = kind_of(code);
    if k == kind::BUILD || k == kind::WAIVE {
        return code;
    }
    code | unit_tag(ordered_unit(map, st, code)) << ORDERED_SHIFT | named_part(st, code)
}

impl TextArena<u64, (Box<str>, Py<PyString>)> {
    /// The arena index of the text of `code` in `st`, made on first use.
    pub(super) fn get<M: Mask>(
        &mut self,
        py: Python<'_>,
        map: &GameMap<M>,
        st: &State<M>,
        code: Code,
    ) -> u32 {
        self.get_keyed(py, map, st, code, text_key(map, st, code))
    }

    /// [`Self::get`] with the code's [`text_key`] given.
    pub(super) fn get_keyed<M: Mask>(
        &mut self,
        py: Python<'_>,
        map: &GameMap<M>,
        st: &State<M>,
        code: Code,
        key: u64,
    ) -> u32 {
        if let Some(&i) = self.index.get(&key) {
            return i;
        }
        let mut buf = String::new();
        crate::engine::text::order_text(map, st, code, &mut buf);
        let i = self.arena.len() as u32;
        let py_text = PyString::new(py, &buf).unbind();
        self.arena.push((buf.into_boxed_str(), py_text));
        self.index.insert(key, i);
        i
    }
}

/// The Python names of `map` (made on first use, kept for the life of the process, as the map
/// itself is).
pub(crate) fn map_names<M: Mask>(py: Python<'_>, map: &'static GameMap<M>) -> &'static MapNames {
    static ALL: PerMap<MapNames> = PerMap::new();
    ALL.get(map, || make_names(py, map))
}

fn make_names<M: Mask>(py: Python<'_>, map: &'static GameMap<M>) -> MapNames {
    let strings = |v: &[&str]| -> Vec<Py<PyString>> {
        v.iter().map(|s| PyString::intern(py, s).unbind()).collect()
    };
    let locations: Vec<&str> = map.spec.locations.iter().map(String::as_str).collect();
    let powers: Vec<&str> = map.spec.powers.iter().map(String::as_str).collect();
    // The engine's result codes: the resolver's, then ILLEGAL.
    let results: Vec<&str> = code::NAMES
        .iter()
        .copied()
        .chain([result::ILLEGAL_NAME])
        .collect();
    MapNames {
        texts: std::sync::Mutex::new(TextCache::default()),
        locations: strings(&locations),
        powers: strings(&powers),
        kinds: strings(&kind::NAMES),
        codes: strings(&results),
    }
}

/// `legal_by_power`, for every power or only `only`.
pub(super) fn texts_by_power<'py, M: Mask>(
    game: &Game<M>,
    py: Python<'py>,
    only: Option<u8>,
) -> PyResult<Bound<'py, PyDict>> {
    {
        let map = game.map;
        let st = &game.state;
        let names = map_names(py, map);
        guarded(|| {
            let mut cache = names.texts.lock().unwrap_or_else(|e| e.into_inner());
            game.with_legal(|legal, slots| {
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
                let mut pairs: Vec<(u32, Code)> = Vec::new();
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
