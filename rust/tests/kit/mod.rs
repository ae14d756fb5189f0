//! The test kit of the Rust tests and the benchmark: one reader of the standard map
//! (`python/diplo/data/standard.json`), one order notation, and two front ends on them:
//!
//! * [`World`]: a `CompiledMap` (the standard map, or a hand-built one) for the movement resolver
//!   on units and orders (`resolve_movement`, `Adjudicator`), with readable accessors on the
//!   outcome;
//! * [`Kit`]: the standard map as a code-path `GameMap`, states written as text, and the notation
//!   turned into order codes.
//!
//! Notation (what the tests write, and the canonical short form `diplo.model.orders.format_order`
//! prints; words are case-insensitive, unit types are optional except in builds and in [`World`],
//! which needs the ordered unit's type): `PAR H` or `A PAR` (hold), `A PAR - BUR`,
//! `A LON - BEL VIA` (via convoy), `F MAO S F GAS - SPA/NC`, `A MUN S BER`,
//! `F NTH C A LON - NWY`, `F SPA/SC R MAR` (retreat), `A PAR D` (disband), `F STP/NC B` /
//! `A MOS B` (build), `WAIVE FRANCE`.
//!
//! This file holds the map data, the names and the notation; beside it: `world` ([`World`]),
//! `codes` ([`Kit`]), `boards` (the benchmark boards) and `vector` (the vectorised
//! environment's buffers, the opening).

// Each test binary uses a part of the kit.
#![allow(dead_code, unused_imports)]

use std::collections::HashMap;
use std::sync::OnceLock;

use diplo_core::engine::encode::{self, Code};
use diplo_core::engine::legality::Legal;
use diplo_core::engine::vector::{Buffers, VectorEnv};
use diplo_core::engine::{Game, GameMap, MapSpec, State};
use diplo_core::{code, resolve_movement, CompiledMap, MovementOutcome, Order, Unit};

mod boards;
mod codes;
mod vector;
mod world;

pub use boards::*;
pub use codes::*;
pub use vector::*;
pub use world::*;

// ------------------------------------------------------------------------------- the map data

/// One province of a map spec: abbreviation, `land` / `coast` / `sea`, coasts.
pub type ProvinceSpec<'a> = (&'a str, &'a str, &'a [&'a str]);

/// A map as the data file gives it.
pub struct MapData {
    /// (abbreviation, kind, coasts, full name, supply centre)
    pub provinces: Vec<(String, String, Vec<String>, String, bool)>,
    pub army_edges: Vec<(String, String)>,
    pub fleet_edges: Vec<(String, String)>,
    /// Powers in map order (alphabetical on the standard map) with their home centres.
    pub powers: Vec<(String, Vec<String>)>,
}

fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .map(|a| a.iter().map(|x| x.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

impl MapData {
    /// The standard map, read once from the data file the Python package ships.
    pub fn standard() -> &'static MapData {
        static DATA: OnceLock<MapData> = OnceLock::new();
        DATA.get_or_init(|| {
            let path = concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/python/diplo/data/standard.json"
            );
            let text = std::fs::read_to_string(path).expect("read standard.json");
            MapData::from_json(&serde_json::from_str(&text).expect("parse standard.json"))
        })
    }

    pub fn from_json(json: &serde_json::Value) -> MapData {
        let provinces = json["provinces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p["abbr"].as_str().unwrap().to_string(),
                    p["type"].as_str().unwrap().to_string(),
                    strings(&p["coasts"]),
                    p["name"].as_str().unwrap_or_default().to_string(),
                    p["center"].as_bool().unwrap_or(false),
                )
            })
            .collect();
        let edges = |key: &str| -> Vec<(String, String)> {
            json[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| {
                    (
                        e[0].as_str().unwrap().to_string(),
                        e[1].as_str().unwrap().to_string(),
                    )
                })
                .collect()
        };
        // serde_json's map is sorted by key; the standard map lists its powers alphabetically.
        let powers = json["powers"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(name, p)| (name.clone(), strings(&p["homes"])))
            .collect();
        MapData {
            provinces,
            army_edges: edges("army_edges"),
            fleet_edges: edges("fleet_edges"),
            powers,
        }
    }

    /// Every location: the provinces in file order, then the coasts (`SPA/NC`).
    pub fn locations(&self) -> Vec<String> {
        let mut names: Vec<String> = self.provinces.iter().map(|p| p.0.clone()).collect();
        for p in &self.provinces {
            for c in &p.2 {
                names.push(format!("{}/{}", p.0, c));
            }
        }
        names
    }
}

/// Location names and their indices (provinces first, then coasts).
#[derive(Clone)]
pub struct Names {
    names: Vec<String>,
    index: HashMap<String, u16>,
}

impl Names {
    pub fn new(names: Vec<String>) -> Names {
        let index = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), i as u16))
            .collect();
        Names { names, index }
    }

    pub fn loc(&self, name: &str) -> u16 {
        *self
            .index
            .get(&name.to_uppercase())
            .unwrap_or_else(|| panic!("unknown location {name}"))
    }

    pub fn name(&self, loc: u16) -> &str {
        &self.names[loc as usize]
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }
}

// ------------------------------------------------------------------------------- the notation

/// One order in the kit's notation, names unresolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written<'t> {
    /// The ordered unit's type, if written: `Some(true)` for a fleet.
    pub fleet: Option<bool>,
    pub loc: &'t str,
    pub op: Op<'t>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op<'t> {
    Hold,
    Move { dest: &'t str, via: bool },
    SupportHold { target: &'t str },
    SupportMove { from: &'t str, to: &'t str },
    Convoy { from: &'t str, to: &'t str },
    Retreat { dest: &'t str },
    Disband,
    Build,
    Waive { power: &'t str },
}

/// Reads one order of the notation (see the module documentation); panics on anything else.
pub fn read(text: &str) -> Written<'_> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words
        .first()
        .is_some_and(|w| w.eq_ignore_ascii_case("WAIVE"))
    {
        let power = words
            .get(1)
            .copied()
            .unwrap_or_else(|| panic!("WAIVE needs a power: {text:?}"));
        return Written {
            fleet: None,
            loc: "",
            op: Op::Waive { power },
        };
    }
    let is_type = |w: &str| w.eq_ignore_ascii_case("A") || w.eq_ignore_ascii_case("F");
    let fleet = words
        .first()
        .filter(|w| is_type(w))
        .map(|w| w.eq_ignore_ascii_case("F"));
    // Unit types elsewhere in the order carry nothing a code or a core order needs.
    let w: Vec<&str> = words.iter().copied().filter(|w| !is_type(w)).collect();
    let word = |i: usize| -> &str {
        w.get(i)
            .copied()
            .unwrap_or_else(|| panic!("cannot read order {text:?}"))
    };
    let op = match w.get(1).map(|o| o.to_uppercase()) {
        None => Op::Hold,
        Some(o) => match o.as_str() {
            "H" => Op::Hold,
            "-" => Op::Move {
                dest: word(2),
                via: w.get(3).is_some_and(|v| v.eq_ignore_ascii_case("VIA")),
            },
            "S" if w.len() == 3 => Op::SupportHold { target: word(2) },
            "S" => {
                assert_eq!(word(3), "-", "bad support {text:?}");
                Op::SupportMove {
                    from: word(2),
                    to: word(4),
                }
            }
            "C" => {
                assert_eq!(word(3), "-", "bad convoy {text:?}");
                Op::Convoy {
                    from: word(2),
                    to: word(4),
                }
            }
            "R" => Op::Retreat { dest: word(2) },
            "D" => Op::Disband,
            "B" => Op::Build,
            other => panic!("bad order word {other} in {text:?}"),
        },
    };
    Written {
        fleet,
        loc: word(0),
        op,
    }
}
