//! [`Kit`]: the standard map on the code path, states written as text, orders as codes.

#![allow(dead_code)]

use super::*;

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
            years_to_fall: 0,
            years_to_spring: 1,
            neutral: vec![],
            rebuild: vec![],
            start_armies: None,
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
