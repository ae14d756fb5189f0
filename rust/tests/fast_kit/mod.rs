//! Test kit of the fast path: the standard map from `python/diplo/data/standard.json` as a
//! `MapSpec`, states written as text, and a small order notation turned into codes.
//!
//! Notation (unit types are optional except in builds, as in the codes themselves): `PAR H`,
//! `A PAR - BUR`, `A LON - BEL via`, `F MAO S F GAS - SPA/NC`, `A MUN S BER`, `F NTH C A LON - NWY`,
//! `F SPA/SC R MAR` (retreat), `A PAR D` (disband), `F STP/NC B` / `A MOS B` (build),
//! `WAIVE FRANCE`.

#![allow(dead_code)]

use std::collections::HashMap;

use diplo_core::fast::encode;
use diplo_core::fast::legal::Legal;
use diplo_core::fast::{Game, GameMap, MapSpec, State};

pub struct Kit {
    pub map: &'static GameMap,
    index: HashMap<String, usize>,
    powers: Vec<String>,
}

fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .map(|a| a.iter().map(|x| x.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

impl Kit {
    pub fn standard() -> Kit {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/python/diplo/data/standard.json"
        );
        let text = std::fs::read_to_string(path).expect("read standard.json");
        let json: serde_json::Value = serde_json::from_str(&text).expect("parse standard.json");
        let provinces = json["provinces"].as_array().unwrap();
        let mut locations: Vec<String> = provinces
            .iter()
            .map(|p| p["abbr"].as_str().unwrap().to_string())
            .collect();
        let mut loc_province: Vec<u16> = (0..provinces.len() as u16).collect();
        for (i, p) in provinces.iter().enumerate() {
            for c in strings(&p["coasts"]) {
                locations.push(format!("{}/{}", p["abbr"].as_str().unwrap(), c));
                loc_province.push(i as u16);
            }
        }
        let index: HashMap<String, usize> = locations
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), i))
            .collect();
        let at = |n: &str| {
            *index
                .get(n)
                .unwrap_or_else(|| panic!("unknown location {n}")) as u16
        };
        let kinds: Vec<u8> = provinces
            .iter()
            .map(|p| match p["type"].as_str().unwrap() {
                "land" => 0,
                "coast" => 1,
                _ => 2,
            })
            .collect();
        let mut army_adj = vec![Vec::new(); provinces.len()];
        for e in json["army_edges"].as_array().unwrap() {
            let (a, b) = (at(e[0].as_str().unwrap()), at(e[1].as_str().unwrap()));
            army_adj[a as usize].push(b);
            army_adj[b as usize].push(a);
        }
        let mut fleet_adj = vec![Vec::new(); locations.len()];
        for e in json["fleet_edges"].as_array().unwrap() {
            let (a, b) = (at(e[0].as_str().unwrap()), at(e[1].as_str().unwrap()));
            fleet_adj[a as usize].push(b);
            fleet_adj[b as usize].push(a);
        }
        let centers: Vec<u16> = provinces
            .iter()
            .filter(|p| p["center"].as_bool().unwrap_or(false))
            .map(|p| at(p["abbr"].as_str().unwrap()))
            .collect();
        // serde_json's map is sorted by key; the standard map lists its powers alphabetically.
        let powers: Vec<String> = json["powers"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        let homes: Vec<Vec<u16>> = powers
            .iter()
            .map(|p| {
                strings(&json["powers"][p]["homes"])
                    .iter()
                    .map(|h| at(h))
                    .collect()
            })
            .collect();
        let mut by_name: Vec<(String, String, usize)> = provinces
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let name = p["name"].as_str().unwrap().to_lowercase();
                (name, p["abbr"].as_str().unwrap().to_string(), i)
            })
            .collect();
        by_name.sort();
        let mut name_rank = vec![0u16; provinces.len()];
        for (rank, (_, _, i)) in by_name.iter().enumerate() {
            name_rank[*i] = rank as u16;
        }
        let spec = MapSpec {
            locations,
            powers: powers.clone(),
            loc_province,
            province_kind: kinds,
            army_adj,
            fleet_adj,
            centers,
            homes,
            name_rank,
            victory: 0,
        };
        Kit {
            map: GameMap::intern(spec).expect("the standard map compiles"),
            index,
            powers,
        }
    }

    pub fn loc(&self, name: &str) -> usize {
        *self
            .index
            .get(name)
            .unwrap_or_else(|| panic!("unknown location {name}"))
    }

    pub fn power(&self, name: &str) -> usize {
        self.powers
            .iter()
            .position(|p| p == name)
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
    ) -> State {
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
        .expect("a valid state")
    }

    pub fn game(&self, state: State) -> Game {
        Game::new(self.map, state, None)
    }

    /// The code of an order in the kit's notation.
    pub fn code(&self, text: &str) -> u32 {
        let words: Vec<&str> = text.split_whitespace().collect();
        if words[0] == "WAIVE" {
            return encode::waive(self.power(words[1]));
        }
        let is_type = |w: &str| w == "A" || w == "F";
        // Drop unit types, remembering the first (builds need it).
        let fleet = words[0] == "F";
        let w: Vec<&str> = words.iter().copied().filter(|w| !is_type(w)).collect();
        let loc = self.loc(w[0]);
        let prov = |name: &str| self.map.prov_of[self.loc(name)] as usize;
        match w.get(1).copied() {
            Some("H") => encode::hold(loc),
            Some("-") => encode::move_to(loc, self.loc(w[2]), w.get(3) == Some(&"via")),
            Some("S") if w.len() == 3 => encode::support_hold(loc, prov(w[2])),
            Some("S") => encode::support_move(loc, prov(w[2]), self.loc(w[4])),
            Some("C") => encode::convoy(loc, prov(w[2]), prov(w[4])),
            Some("R") => encode::retreat(loc, self.loc(w[2])),
            Some("D") => encode::disband(loc),
            Some("B") => encode::build(loc, fleet),
            other => panic!("cannot read order {text:?} ({other:?})"),
        }
    }

    /// A code in the notation (unit types left out, builds typed).
    pub fn text(&self, code: u32) -> String {
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
    pub fn slots(&self, game: &Game) -> Vec<(String, Vec<String>)> {
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
    pub fn list(&self, game: &Game, key: &str) -> Vec<String> {
        self.slots(game)
            .into_iter()
            .find(|(k, _)| k == key)
            .unwrap_or_else(|| panic!("no slot {key}"))
            .1
    }

    /// Whether the order is legal in the game's state, and its normal form.
    pub fn verdict(&self, game: &Game, text: &str) -> Option<String> {
        let mut legal = Legal::default();
        legal.prepare(self.map, &game.state, game.stamp);
        legal
            .check(self.map, &game.state, self.code(text))
            .map(|(_, c)| self.text(c))
    }
}
