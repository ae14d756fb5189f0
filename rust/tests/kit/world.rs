//! [`World`]: the movement resolver on units and orders of the kit's notation.

#![allow(dead_code)]

use super::*;

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
