//! Test kit: builds a `CompiledMap` from named provinces and edges (a hand-built mini map, or the
//! standard map from `python/diplo/data/standard.json`), parses a small order notation and gives
//! readable accessors on the outcome.
//!
//! Order notation (only what the tests write): `A LON` or `A LON H` (hold), `A LON - BEL`,
//! `A LON - BEL via` (via convoy), `F SPA/SC - MAR`, `A LON S F WAL - ENG` (support move; the
//! supported unit's type is optional), `F BEL S F NTH` (support hold), `F ENG C A BRE - LON`.

#![allow(dead_code)]

use std::collections::HashMap;

use diplo_core::{code, resolve_movement, CompiledMap, MovementOutcome, Order, Unit};

pub struct World {
    pub map: CompiledMap,
    names: Vec<String>,
    index: HashMap<String, u16>,
}

/// One province of a map spec: abbreviation, `land` / `coast` / `sea`, coasts.
pub type ProvinceSpec<'a> = (&'a str, &'a str, &'a [&'a str]);

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
        let index: HashMap<String, u16> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), i as u16))
            .collect();
        let at = |n: &str| {
            *index
                .get(n)
                .unwrap_or_else(|| panic!("unknown location {n}"))
        };
        let mut army_adj = vec![Vec::new(); provinces.len()];
        for &(a, b) in army_edges {
            army_adj[at(a) as usize].push(at(b));
            army_adj[at(b) as usize].push(at(a));
        }
        let mut fleet_adj = vec![Vec::new(); names.len()];
        for &(a, b) in fleet_edges {
            fleet_adj[at(a) as usize].push(at(b));
            fleet_adj[at(b) as usize].push(at(a));
        }
        let is_sea = provinces.iter().map(|p| p.1 == "sea").collect();
        let map =
            CompiledMap::new(loc_province, is_sea, army_adj, fleet_adj).expect("map compiles");
        World { map, names, index }
    }

    /// The standard map, read from the data file the Python package ships.
    pub fn standard() -> World {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/python/diplo/data/standard.json"
        );
        let text = std::fs::read_to_string(path).expect("read standard.json");
        let json: serde_json::Value = serde_json::from_str(&text).expect("parse standard.json");
        let provinces: Vec<(String, String, Vec<String>)> = json["provinces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                let coasts = p["coasts"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c.as_str().unwrap().to_string())
                    .collect();
                (
                    p["abbr"].as_str().unwrap().to_string(),
                    p["type"].as_str().unwrap().to_string(),
                    coasts,
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
        let army = edges("army_edges");
        let fleet = edges("fleet_edges");
        let coast_refs: Vec<Vec<&str>> = provinces
            .iter()
            .map(|p| p.2.iter().map(String::as_str).collect())
            .collect();
        let specs: Vec<ProvinceSpec<'_>> = provinces
            .iter()
            .zip(&coast_refs)
            .map(|(p, c)| (p.0.as_str(), p.1.as_str(), c.as_slice()))
            .collect();
        let army: Vec<(&str, &str)> = army.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        let fleet: Vec<(&str, &str)> = fleet
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        World::from_spec(&specs, &army, &fleet)
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
        *self
            .index
            .get(name)
            .unwrap_or_else(|| panic!("unknown location {name}"))
    }

    pub fn name(&self, loc: u16) -> &str {
        &self.names[loc as usize]
    }

    fn prov(&self, name: &str) -> u16 {
        self.map.province_of(self.loc(name))
    }

    /// Parses one order of `power`; the unit is taken from the order.
    pub fn parse(&self, power: u8, text: &str) -> (Unit, Order) {
        let t: Vec<&str> = text.split_whitespace().collect();
        let unit = Unit {
            power,
            is_fleet: match t[0] {
                "A" => false,
                "F" => true,
                other => panic!("bad unit type {other} in {text:?}"),
            },
            loc: self.loc(t[1]),
        };
        // Skips an optional unit type before a location.
        let at = |i: usize| -> (usize, &str) {
            if t[i] == "A" || t[i] == "F" {
                (i + 1, t[i + 1])
            } else {
                (i, t[i])
            }
        };
        let order = match t.get(2).copied() {
            None | Some("H") => Order::Hold,
            Some("-") => Order::Move {
                dest: self.loc(t[3]),
                via: t.get(4).is_some_and(|w| w.eq_ignore_ascii_case("via")),
            },
            Some("S") => {
                let (i, from) = at(3);
                if t.get(i + 1) == Some(&"-") {
                    // A coast written in the support must be matched (DATC 6.B.9).
                    Order::SupportMove {
                        from: self.prov(from),
                        to: self.loc(t[i + 2]),
                    }
                } else {
                    Order::SupportHold {
                        target: self.prov(from),
                    }
                }
            }
            Some("C") => {
                let (i, from) = at(3);
                assert_eq!(t[i + 1], "-", "bad convoy {text:?}");
                Order::Convoy {
                    from: self.prov(from),
                    to: self.prov(t[i + 2]),
                }
            }
            Some(other) => panic!("bad order word {other} in {text:?}"),
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
