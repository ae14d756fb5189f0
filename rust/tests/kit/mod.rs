//! The test kit of the Rust tests and the benchmark: one reader of the standard map
//! (`python/diplo/data/standard.json`), one order notation, and two front ends on them:
//!
//! * [`World`]: a `CompiledMap` (the standard map, or a hand-built one) for the movement resolver
//!   on units and orders (`resolve_movement`, `Adjudicator`), with readable accessors on the
//!   outcome;
//! * [`Kit`]: the standard map as a fast-path `GameMap`, states written as text, and the notation
//!   turned into order codes.
//!
//! Notation (what the tests write, and the canonical short form `diplo.orders.format_order`
//! prints; words are case-insensitive, unit types are optional except in builds and in [`World`],
//! which needs the ordered unit's type): `PAR H` or `A PAR` (hold), `A PAR - BUR`,
//! `A LON - BEL VIA` (via convoy), `F MAO S F GAS - SPA/NC`, `A MUN S BER`,
//! `F NTH C A LON - NWY`, `F SPA/SC R MAR` (retreat), `A PAR D` (disband), `F STP/NC B` /
//! `A MOS B` (build), `WAIVE FRANCE`.

#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::OnceLock;

use diplo_core::engine::encode::{self, Code};
use diplo_core::engine::legality::Legal;
use diplo_core::engine::vector::{Buffers, VectorEnv};
use diplo_core::engine::{Game, GameMap, MapSpec, State};
use diplo_core::{code, resolve_movement, CompiledMap, MovementOutcome, Order, Unit};

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

// ------------------------------------------------------------------------------- World

/// A `CompiledMap` with its names, for the movement resolver on units and orders.
pub struct World {
    pub map: CompiledMap,
    pub names: Names,
}

impl World {
    pub fn from_spec(
        provinces: &[ProvinceSpec<'_>],
        army_edges: &[(&str, &str)],
        fleet_edges: &[(&str, &str)],
    ) -> World {
        let mut names: Vec<String> = provinces.iter().map(|p| p.0.to_string()).collect();
        let mut loc_province: Vec<u16> = (0..provinces.len() as u16).collect();
        for (i, p) in provinces.iter().enumerate() {
            for c in p.2 {
                names.push(format!("{}/{}", p.0, c));
                loc_province.push(i as u16);
            }
        }
        let names = Names::new(names);
        let mut army_adj = vec![Vec::new(); provinces.len()];
        for &(a, b) in army_edges {
            army_adj[names.loc(a) as usize].push(names.loc(b));
            army_adj[names.loc(b) as usize].push(names.loc(a));
        }
        let mut fleet_adj = vec![Vec::new(); names.len()];
        for &(a, b) in fleet_edges {
            fleet_adj[names.loc(a) as usize].push(names.loc(b));
            fleet_adj[names.loc(b) as usize].push(names.loc(a));
        }
        let is_sea = provinces.iter().map(|p| p.1 == "sea").collect();
        let map =
            CompiledMap::new(loc_province, is_sea, army_adj, fleet_adj).expect("map compiles");
        World { map, names }
    }

    /// The standard map.
    pub fn standard() -> World {
        let data = MapData::standard();
        let coasts: Vec<Vec<&str>> = data
            .provinces
            .iter()
            .map(|p| p.2.iter().map(String::as_str).collect())
            .collect();
        let specs: Vec<ProvinceSpec<'_>> = data
            .provinces
            .iter()
            .zip(&coasts)
            .map(|(p, c)| (p.0.as_str(), p.1.as_str(), c.as_slice()))
            .collect();
        let pairs = |edges: &'static [(String, String)]| -> Vec<(&'static str, &'static str)> {
            edges
                .iter()
                .map(|(a, b)| (a.as_str(), b.as_str()))
                .collect()
        };
        World::from_spec(&specs, &pairs(&data.army_edges), &pairs(&data.fleet_edges))
    }

    /// A hand-built corner of Europe: the Channel, the Low Countries and Iberia, with one
    /// split-coast province (SPA) and several seas.
    pub fn mini() -> World {
        const NONE: &[&str] = &[];
        World::from_spec(
            &[
                ("LON", "coast", NONE),
                ("WAL", "coast", NONE),
                ("YOR", "coast", NONE),
                ("BRE", "coast", NONE),
                ("PIC", "coast", NONE),
                ("BEL", "coast", NONE),
                ("HOL", "coast", NONE),
                ("PAR", "land", NONE),
                ("BUR", "land", NONE),
                ("RUH", "land", NONE),
                ("GAS", "coast", NONE),
                ("SPA", "coast", &["NC", "SC"]),
                ("POR", "coast", NONE),
                ("MAR", "coast", NONE),
                ("ENG", "sea", NONE),
                ("NTH", "sea", NONE),
                ("IRI", "sea", NONE),
                ("MAO", "sea", NONE),
                ("WES", "sea", NONE),
                ("LYO", "sea", NONE),
            ],
            &[
                ("LON", "WAL"),
                ("LON", "YOR"),
                ("WAL", "YOR"),
                ("BRE", "PIC"),
                ("BRE", "PAR"),
                ("BRE", "GAS"),
                ("PIC", "PAR"),
                ("PIC", "BUR"),
                ("PIC", "BEL"),
                ("BEL", "BUR"),
                ("BEL", "HOL"),
                ("BEL", "RUH"),
                ("HOL", "RUH"),
                ("PAR", "BUR"),
                ("PAR", "GAS"),
                ("BUR", "GAS"),
                ("BUR", "MAR"),
                ("BUR", "RUH"),
                ("GAS", "SPA"),
                ("GAS", "MAR"),
                ("SPA", "POR"),
                ("SPA", "MAR"),
            ],
            &[
                ("LON", "ENG"),
                ("LON", "NTH"),
                ("LON", "YOR"),
                ("LON", "WAL"),
                ("WAL", "ENG"),
                ("WAL", "IRI"),
                ("YOR", "NTH"),
                ("BRE", "ENG"),
                ("BRE", "MAO"),
                ("BRE", "PIC"),
                ("BRE", "GAS"),
                ("PIC", "ENG"),
                ("PIC", "BEL"),
                ("BEL", "ENG"),
                ("BEL", "NTH"),
                ("BEL", "HOL"),
                ("HOL", "NTH"),
                ("ENG", "NTH"),
                ("ENG", "IRI"),
                ("ENG", "MAO"),
                ("IRI", "MAO"),
                ("GAS", "MAO"),
                ("GAS", "SPA/NC"),
                ("SPA/NC", "MAO"),
                ("SPA/NC", "POR"),
                ("SPA/SC", "POR"),
                ("SPA/SC", "MAO"),
                ("SPA/SC", "WES"),
                ("SPA/SC", "LYO"),
                ("SPA/SC", "MAR"),
                ("POR", "MAO"),
                ("MAR", "LYO"),
                ("WES", "LYO"),
                ("WES", "MAO"),
            ],
        )
    }

    pub fn loc(&self, name: &str) -> u16 {
        self.names.loc(name)
    }

    pub fn name(&self, loc: u16) -> &str {
        self.names.name(loc)
    }

    fn prov(&self, name: &str) -> u16 {
        self.map.province_of(self.loc(name))
    }

    /// Parses one movement-phase order of `power`; the unit (its type written) is the order's.
    pub fn parse(&self, power: u8, text: &str) -> (Unit, Order) {
        let w = read(text);
        let unit = Unit {
            power,
            is_fleet: w
                .fleet
                .unwrap_or_else(|| panic!("write the unit type in {text:?}")),
            loc: self.loc(w.loc),
        };
        let order = match w.op {
            Op::Hold => Order::Hold,
            Op::Move { dest, via } => Order::Move {
                dest: self.loc(dest),
                via,
            },
            // A coast written in the support must be matched (DATC 6.B.9).
            Op::SupportMove { from, to } => Order::SupportMove {
                from: self.prov(from),
                to: self.loc(to),
            },
            Op::SupportHold { target } => Order::SupportHold {
                target: self.prov(target),
            },
            Op::Convoy { from, to } => Order::Convoy {
                from: self.prov(from),
                to: self.prov(to),
            },
            other => panic!("not a movement order: {other:?} in {text:?}"),
        };
        (unit, order)
    }

    /// Resolves a movement phase given as `(power, order)` pairs; powers are numbered in order of
    /// first appearance.
    pub fn run(&self, orders: &[(&str, &str)]) -> Phase<'_> {
        let (units, encoded) = self.encode(orders);
        let out = resolve_movement(&self.map, &units, &encoded).expect("valid input");
        Phase {
            world: self,
            units,
            out,
        }
    }

    pub fn encode(&self, orders: &[(&str, &str)]) -> (Vec<Unit>, Vec<Order>) {
        let mut powers: Vec<&str> = Vec::new();
        let mut units = Vec::new();
        let mut encoded = Vec::new();
        for &(power, text) in orders {
            let p = powers.iter().position(|&q| q == power).unwrap_or_else(|| {
                powers.push(power);
                powers.len() - 1
            });
            let (u, o) = self.parse(p as u8, text);
            units.push(u);
            encoded.push(o);
        }
        (units, encoded)
    }
}

pub struct Phase<'w> {
    pub world: &'w World,
    pub units: Vec<Unit>,
    pub out: MovementOutcome,
}

impl Phase<'_> {
    /// Unit index by the province (or location) it stands in.
    pub fn idx(&self, name: &str) -> usize {
        let prov = self.world.prov(name);
        self.units
            .iter()
            .position(|u| self.world.map.province_of(u.loc) == prov)
            .unwrap_or_else(|| panic!("no unit in {name}"))
    }

    pub fn code(&self, name: &str) -> u8 {
        self.out.codes[self.idx(name)]
    }

    pub fn success(&self, name: &str) -> bool {
        self.out.success[self.idx(name)]
    }

    pub fn attack(&self, name: &str) -> u8 {
        self.out.attack[self.idx(name)]
    }

    pub fn opposition(&self, name: &str) -> u8 {
        self.out.opposition[self.idx(name)]
    }

    pub fn convoyed(&self, name: &str) -> bool {
        self.out.convoyed[self.idx(name)]
    }

    /// Province of the dislodger, if dislodged.
    pub fn dislodged_by(&self, name: &str) -> Option<&str> {
        let d = self.out.dislodged_by[self.idx(name)];
        (d >= 0).then(|| self.world.name(d as u16))
    }

    pub fn by(&self, name: &str) -> Option<&str> {
        let d = self.out.by[self.idx(name)];
        (d >= 0).then(|| self.world.name(d as u16))
    }

    pub fn retreats(&self, name: &str) -> Vec<&str> {
        self.out.retreats[self.idx(name)]
            .iter()
            .map(|&l| self.world.name(l))
            .collect()
    }

    pub fn contested(&self) -> Vec<&str> {
        self.out
            .contested
            .iter()
            .map(|&p| self.world.name(p))
            .collect()
    }

    /// Provinces of the fleets failed by the Szykman rule.
    pub fn szykman(&self) -> Vec<&str> {
        self.out
            .szykman
            .iter()
            .map(|&p| self.world.name(p))
            .collect()
    }

    /// Names of the dislodged units' provinces, in unit order.
    pub fn dislodged(&self) -> Vec<&str> {
        (0..self.units.len())
            .filter(|&i| self.out.dislodged_by[i] >= 0)
            .map(|i| {
                self.world
                    .name(self.world.map.province_of(self.units[i].loc))
            })
            .collect()
    }

    /// Asserts the DATC success of each named unit's order ("ok" / "fail").
    pub fn expect(&self, table: &[(&str, bool)]) {
        for &(name, want) in table {
            assert_eq!(
                self.success(name),
                want,
                "{name}: expected {} (code {})\n{:#?}",
                if want { "success" } else { "failure" },
                self.code(name),
                self.out
            );
        }
    }
}

pub const OK: u8 = code::OK;
pub const BOUNCE: u8 = code::BOUNCE;
pub const CUT: u8 = code::CUT;
pub const DISLODGED: u8 = code::DISLODGED;
pub const NO_CONVOY: u8 = code::NO_CONVOY;
pub const VOID: u8 = code::VOID;

// ------------------------------------------------------------------------------- Kit

/// The standard map on the fast path: states written as text, orders as codes.
pub struct Kit {
    pub map: &'static GameMap<u128>,
    pub names: Names,
    pub powers: Vec<String>,
}

impl Kit {
    pub fn standard() -> Kit {
        let data = MapData::standard();
        let names = Names::new(data.locations());
        let mut loc_province: Vec<u16> = (0..data.provinces.len() as u16).collect();
        for (i, p) in data.provinces.iter().enumerate() {
            loc_province.extend(std::iter::repeat_n(i as u16, p.2.len()));
        }
        let kinds: Vec<u8> = data
            .provinces
            .iter()
            .map(|p| match p.1.as_str() {
                "land" => 0,
                "coast" => 1,
                _ => 2,
            })
            .collect();
        let mut army_adj = vec![Vec::new(); data.provinces.len()];
        for (a, b) in &data.army_edges {
            let (a, b) = (names.loc(a), names.loc(b));
            army_adj[a as usize].push(b);
            army_adj[b as usize].push(a);
        }
        let mut fleet_adj = vec![Vec::new(); names.len()];
        for (a, b) in &data.fleet_edges {
            let (a, b) = (names.loc(a), names.loc(b));
            fleet_adj[a as usize].push(b);
            fleet_adj[b as usize].push(a);
        }
        let centers: Vec<u16> = data
            .provinces
            .iter()
            .filter(|p| p.4)
            .map(|p| names.loc(&p.0))
            .collect();
        let powers: Vec<String> = data.powers.iter().map(|p| p.0.clone()).collect();
        let homes: Vec<Vec<u16>> = data
            .powers
            .iter()
            .map(|p| p.1.iter().map(|h| names.loc(h)).collect())
            .collect();
        let mut by_name: Vec<(String, usize)> = data
            .provinces
            .iter()
            .enumerate()
            .map(|(i, p)| (p.3.to_lowercase(), i))
            .collect();
        by_name.sort();
        let mut name_rank = vec![0u16; data.provinces.len()];
        for (rank, (_, i)) in by_name.iter().enumerate() {
            name_rank[*i] = rank as u16;
        }
        let spec = MapSpec {
            locations: data.locations(),
            powers: powers.clone(),
            loc_province,
            province_kind: kinds,
            army_adj,
            fleet_adj,
            centers,
            homes,
            name_rank,
            victory: 0,
            ports: Vec::new(),
        };
        Kit {
            map: GameMap::intern(spec).expect("the standard map compiles"),
            names,
            powers,
        }
    }

    pub fn loc(&self, name: &str) -> usize {
        self.names.loc(name) as usize
    }

    pub fn power(&self, name: &str) -> usize {
        self.powers
            .iter()
            .position(|p| p.eq_ignore_ascii_case(name))
            .unwrap_or_else(|| panic!("unknown power {name}"))
    }

    fn piece(&self, power: &str, text: &str) -> (i64, i64, i64) {
        let (kind, loc) = text.split_once(' ').expect("unit like 'A PAR'");
        (
            self.power(power) as i64,
            i64::from(kind == "F"),
            self.loc(loc) as i64,
        )
    }

    /// A state: `units` as (power, "A PAR"), `centers` as (power, [provinces]), `dislodged` as
    /// (power, "F SPA/SC", [options]).
    pub fn state(
        &self,
        phase: &str,
        units: &[(&str, &str)],
        centers: &[(&str, &[&str])],
        dislodged: &[(&str, &str, &[&str])],
    ) -> State<u128> {
        self.try_state(phase, units, centers, dislodged)
            .expect("a valid state")
    }

    /// [`Self::state`], or the core's refusal.
    pub fn try_state(
        &self,
        phase: &str,
        units: &[(&str, &str)],
        centers: &[(&str, &[&str])],
        dislodged: &[(&str, &str, &[&str])],
    ) -> Result<State<u128>, diplo_core::engine::EngineError> {
        let units: Vec<_> = units.iter().map(|(p, u)| self.piece(p, u)).collect();
        let centers: Vec<(i64, i64)> = centers
            .iter()
            .flat_map(|(p, cs)| {
                cs.iter()
                    .map(move |c| (self.loc(c) as i64, self.power(p) as i64))
            })
            .collect();
        let dislodged: Vec<_> = dislodged
            .iter()
            .map(|(p, u, opts)| {
                (
                    self.piece(p, u),
                    opts.iter().map(|o| self.loc(o) as i64).collect::<Vec<_>>(),
                )
            })
            .collect();
        let (season, rest) = phase.split_at(1);
        let (year, kind) = rest.split_at(rest.len() - 1);
        State::new(
            self.map,
            year.parse().unwrap(),
            season,
            kind,
            &units,
            &centers,
            &dislodged,
        )
    }

    pub fn game(&self, state: State<u128>) -> Game<u128> {
        Game::new(self.map, state, None)
    }

    /// The code of an order in the kit's notation.
    pub fn code(&self, text: &str) -> Code {
        let w = read(text);
        let loc = || self.loc(w.loc);
        let prov = |name: &str| self.map.prov_of[self.loc(name)] as usize;
        match w.op {
            Op::Waive { power } => encode::waive(self.power(power)),
            Op::Hold => encode::hold(loc()),
            Op::Move { dest, via } => encode::move_to(loc(), self.loc(dest), via),
            Op::SupportHold { target } => encode::support_hold(loc(), prov(target)),
            Op::SupportMove { from, to } => encode::support_move(loc(), prov(from), self.loc(to)),
            Op::Convoy { from, to } => encode::convoy(loc(), prov(from), prov(to)),
            Op::Retreat { dest } => encode::retreat(loc(), self.loc(dest)),
            Op::Disband => encode::disband(loc()),
            Op::Build => encode::build(
                loc(),
                w.fleet
                    .unwrap_or_else(|| panic!("say what to build in {text:?}")),
            ),
        }
    }

    /// A code in the notation (unit types left out, builds typed).
    pub fn text(&self, code: Code) -> String {
        let name = |i: usize| self.map.loc_name(i).to_string();
        let (loc, a, b) = (encode::loc_of(code), encode::a_of(code), encode::b_of(code));
        match encode::kind_of(code) {
            encode::kind::HOLD => format!("{} H", name(loc)),
            encode::kind::MOVE => format!(
                "{} - {}{}",
                name(loc),
                name(a),
                if encode::via_of(code) { " via" } else { "" }
            ),
            encode::kind::SUPPORT_HOLD => format!("{} S {}", name(loc), name(a)),
            encode::kind::SUPPORT_MOVE => format!("{} S {} - {}", name(loc), name(a), name(b)),
            encode::kind::CONVOY => format!("{} C {} - {}", name(loc), name(a), name(b)),
            encode::kind::RETREAT => format!("{} R {}", name(loc), name(a)),
            encode::kind::DISBAND => format!("{} D", name(loc)),
            encode::kind::BUILD => format!(
                "{} {} B",
                if encode::fleet_of(code) { "F" } else { "A" },
                name(loc)
            ),
            _ => format!("WAIVE {}", self.powers[loc]),
        }
    }

    /// The slots of the game's phase, as (key, sorted order texts).
    pub fn slots(&self, game: &Game<u128>) -> Vec<(String, Vec<String>)> {
        game.with_legal(|legal, slots| {
            slots
                .iter()
                .map(|s| {
                    let key = if s.key_is_power {
                        self.powers[s.key as usize].clone()
                    } else {
                        self.map.loc_name(s.key as usize).to_string()
                    };
                    let mut texts: Vec<String> =
                        legal.codes_of(s).iter().map(|&c| self.text(c)).collect();
                    texts.sort();
                    (key, texts)
                })
                .collect()
        })
    }

    /// The sorted list of the slot keyed `key`.
    pub fn list(&self, game: &Game<u128>, key: &str) -> Vec<String> {
        self.slots(game)
            .into_iter()
            .find(|(k, _)| k == key)
            .unwrap_or_else(|| panic!("no slot {key}"))
            .1
    }

    /// Whether the order is legal in the game's state, and its normal form.
    pub fn verdict(&self, game: &Game<u128>, text: &str) -> Option<String> {
        let mut legal = Legal::default();
        legal.prepare(self.map, &game.state, game.stamp);
        legal
            .check(self.map, &game.state, self.code(text))
            .map(|(_, c)| self.text(c))
    }
}

// ------------------------------------------------------------------------------- bench boards

/// One benchmark board of `rust/benches/boards.json` (see `tests/test_bench_boards.py` and
/// `rust/tests/bench_boards.rs`, which hold each board to what it claims).
pub struct Board {
    pub name: String,
    pub phase: String,
    /// `(power, order)` in the notation; the unit of each order is on the board.
    pub orders: Vec<(String, String)>,
    /// The provinces whose move goes by convoy (DATC 4.A.3).
    pub convoyed: Vec<String>,
    /// Result code name (`bounce`, `cut`, ...) -> the provinces whose order gets it; every other
    /// order succeeds (`ok`).
    pub claims: Vec<(String, Vec<String>)>,
    /// Dislodged unit's province -> its retreat options.
    pub retreats: Vec<(String, Vec<String>)>,
    /// The retreat phase that follows, if the board times one.
    pub retreat_orders: Vec<(String, String)>,
}

impl Board {
    /// Every board of `rust/benches/boards.json`.
    pub fn all() -> Vec<Board> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/rust/benches/boards.json");
        let text = std::fs::read_to_string(path).expect("read boards.json");
        let json: serde_json::Value = serde_json::from_str(&text).expect("parse boards.json");
        let pairs = |v: &serde_json::Value| -> Vec<(String, String)> {
            v.as_array()
                .map(|a| {
                    a.iter()
                        .map(|p| {
                            (
                                p[0].as_str().unwrap().to_string(),
                                p[1].as_str().unwrap().to_string(),
                            )
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        let lists = |v: &serde_json::Value| -> Vec<(String, Vec<String>)> {
            v.as_object()
                .unwrap()
                .iter()
                .map(|(k, l)| (k.clone(), strings(l)))
                .collect()
        };
        json.as_array()
            .unwrap()
            .iter()
            .map(|b| Board {
                name: b["name"].as_str().unwrap().to_string(),
                phase: b["phase"].as_str().unwrap().to_string(),
                orders: pairs(&b["orders"]),
                convoyed: strings(&b["convoyed"]),
                claims: lists(&b["claims"]),
                retreats: lists(&b["retreats"]),
                retreat_orders: pairs(&b["retreat_orders"]),
            })
            .collect()
    }

    /// The orders as `(power, order)` string slices.
    pub fn order_refs(&self) -> Vec<(&str, &str)> {
        self.orders
            .iter()
            .map(|(p, o)| (p.as_str(), o.as_str()))
            .collect()
    }

    /// The units of the board as `(power, "A PAR")`.
    pub fn units(&self) -> Vec<(&str, String)> {
        self.orders
            .iter()
            .map(|(p, o)| {
                let words: Vec<&str> = o.split_whitespace().collect();
                (p.as_str(), format!("{} {}", words[0], words[1]))
            })
            .collect()
    }

    /// The fast-path game at the board's movement phase (no centres owned).
    pub fn game(&self, k: &Kit) -> Game<u128> {
        let units = self.units();
        let units: Vec<(&str, &str)> = units.iter().map(|(p, u)| (*p, u.as_str())).collect();
        k.game(k.state(&self.phase, &units, &[], &[]))
    }
}

// ----------------------------------------------------------------- the vectorised environment

/// The buffers a vectorised environment fills (`engine::vector::Buffers`), owned, sized for
/// `env`: the tests' and the benchmark's stand-in for the NumPy arrays.
pub struct VectorOut {
    pub board: Vec<i8>,
    pub phase: Vec<i16>,
    pub counts: Vec<i16>,
    pub rewards: Vec<f32>,
    pub terminated: Vec<bool>,
    pub truncated: Vec<bool>,
    pub centres: Vec<i16>,
    pub alive: Vec<bool>,
    pub winner: Vec<i8>,
    pub steps: Vec<i32>,
    pub episodes: Vec<i32>,
}

impl VectorOut {
    pub fn new(env: &VectorEnv<u128>) -> VectorOut {
        let n = env.games.len();
        let z = env.sizes();
        VectorOut {
            board: vec![0; n * z.board],
            phase: vec![0; n * z.phase],
            counts: vec![0; n * z.counts],
            rewards: vec![0.0; n * z.powers],
            terminated: vec![false; n],
            truncated: vec![false; n],
            centres: vec![0; n * z.powers],
            alive: vec![false; n * z.powers],
            winner: vec![0; n],
            steps: vec![0; n],
            episodes: vec![0; n],
        }
    }

    pub fn bufs(&mut self) -> Buffers<'_> {
        Buffers {
            board: &mut self.board,
            phase: &mut self.phase,
            counts: &mut self.counts,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            centres: &mut self.centres,
            alive: &mut self.alive,
            winner: &mut self.winner,
            steps: &mut self.steps,
            episodes: &mut self.episodes,
        }
    }
}

/// The standard opening (units as the map file gives them, centres at home).
pub fn opening(k: &Kit) -> State<u128> {
    let units: [(&str, &str); 22] = [
        ("AUSTRIA", "A BUD"),
        ("AUSTRIA", "F TRI"),
        ("AUSTRIA", "A VIE"),
        ("ENGLAND", "F EDI"),
        ("ENGLAND", "F LON"),
        ("ENGLAND", "A LVP"),
        ("FRANCE", "F BRE"),
        ("FRANCE", "A MAR"),
        ("FRANCE", "A PAR"),
        ("GERMANY", "F KIE"),
        ("GERMANY", "A BER"),
        ("GERMANY", "A MUN"),
        ("ITALY", "F NAP"),
        ("ITALY", "A ROM"),
        ("ITALY", "A VEN"),
        ("RUSSIA", "A MOS"),
        ("RUSSIA", "F SEV"),
        ("RUSSIA", "F STP/SC"),
        ("RUSSIA", "A WAR"),
        ("TURKEY", "F ANK"),
        ("TURKEY", "A CON"),
        ("TURKEY", "A SMY"),
    ];
    let homes: Vec<(String, Vec<&str>)> = MapData::standard()
        .powers
        .iter()
        .map(|(p, h)| (p.clone(), h.iter().map(String::as_str).collect()))
        .collect();
    let centers: Vec<(&str, &[&str])> = homes
        .iter()
        .map(|(p, h)| (p.as_str(), h.as_slice()))
        .collect();
    k.state("S1901M", &units, &centers, &[])
}
