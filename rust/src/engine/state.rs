//! The state of a fast game: the phase, the units per province, the owner of each centre and the
//! dislodged units with their retreat options. On a map of up to 128 locations a plain
//! fixed-size value (about 3 KB): cloning a game copies it without touching the heap; on a wider
//! map its tables are on the heap (see `mask`).

pub use super::board::{
    Piece, ADJUSTMENTS, FALL, MAX_YEAR, MIN_YEAR, MOVEMENT, RETREATS, SPRING, WINTER,
};
use super::error::EngineError;
use super::game_map::{has, map_seed, Bits, GameMap, Mask, COAST, LAND, NO_POWER, SEA};
use super::rules::{some_home, BuildSites, CivilDisorder, Rules};
use super::zobrist;

/// The board at the start of a phase (see the module documentation). Tables are indexed by
/// province.
#[derive(Clone, Debug)]
pub struct State<M: Mask> {
    pub year: u32,
    pub season: u8,
    pub kind: u8,
    pub units: M::Table<Piece>,
    /// Owner of each supply centre, or `NO_POWER`.
    pub centers: M::Table<u8>,
    /// Retreat phase: the dislodged unit of each province (the attacker may stand there too).
    /// Change it with [`State::set_dislodged`] and [`State::clear_dislodged`].
    pub dislodged: M::Table<Piece>,
    /// The provinces with a dislodged unit (so that clearing touches only those).
    pub dislodged_at: M,
    /// Its retreat options (locations).
    pub retreats: M::Table<M>,
    /// The rules the game is played under (default: the DATC's); they travel with the board.
    pub rules: Rules,
    /// The board hash (`super::zobrist`), kept by the setters below: change units, centres,
    /// dislodged units and the phase through them, never by writing the tables.
    pub hash: u64,
    /// The seed of the hash's keys: the map's ([`map_seed`]).
    pub zseed: u64,
}

/// A unit as the constructor receives it: `(power, is_fleet, location)`.
pub type RawUnit = (i64, i64, i64);

/// `name[i] suffix` of an error message (`units[3] power`), written only when there is an
/// error: a state is read for every adjudicated document, so its happy path allocates nothing.
struct Label<'a>(&'a str, usize, &'a str);

impl std::fmt::Display for Label<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}[{}]{}", self.0, self.1, self.2)
    }
}

fn index(what: &Label<'_>, v: i64, limit: usize) -> Result<usize, EngineError> {
    usize::try_from(v)
        .ok()
        .filter(|&x| x < limit)
        .ok_or_else(|| {
            EngineError::out_of_range(format!("{what}: {v} is not an index below {limit}"))
        })
}

/// Checks one unit against the map: an army on a land or coastal province (never a coast
/// location), a fleet at sea or on a coast (on a coast location where the province is split).
fn piece<M: Mask>(
    map: &GameMap<M>,
    (list, i): (&str, usize),
    raw: RawUnit,
) -> Result<Piece, EngineError> {
    let what = Label(list, i, "");
    let (power, fleet, loc) = raw;
    let power = index(&Label(list, i, " power"), power, map.powers)?;
    let fleet = match fleet {
        0 => false,
        1 => true,
        other => {
            return Err(EngineError::invalid(format!(
                "{what}: is_fleet must be 0 or 1, got {other}"
            )))
        }
    };
    let loc = index(&Label(list, i, " location"), loc, map.locations)?;
    let prov = map.prov_of[loc] as usize;
    let kind = map.kind[prov];
    let name = map.loc_name(loc);
    if fleet {
        if kind == LAND {
            return Err(EngineError::invalid(format!(
                "{what}: a fleet cannot stand inland ({name})"
            )));
        }
        if loc == prov && !map.coasts[prov].is_zero() {
            return Err(EngineError::invalid(format!(
                "{what}: a fleet in {name} must stand on one of its coasts"
            )));
        }
    } else {
        if kind == SEA {
            return Err(EngineError::invalid(format!(
                "{what}: an army cannot stand at sea ({name})"
            )));
        }
        if loc != prov {
            return Err(EngineError::invalid(format!(
                "{what}: an army stands on a province, not on {name}"
            )));
        }
    }
    debug_assert!(kind == COAST || kind == LAND || fleet);
    Ok(Piece {
        power: power as u8,
        fleet,
        loc: loc as u16,
    })
}

impl<M: Mask> State<M> {
    /// Builds and checks a state under today's rules; the error names what is wrong.
    pub fn new(
        map: &GameMap<M>,
        year: i64,
        season: &str,
        kind: &str,
        units: &[RawUnit],
        centers: &[(i64, i64)],
        dislodged: &[(RawUnit, Vec<i64>)],
    ) -> Result<State<M>, EngineError> {
        Self::with_rules(
            map,
            year,
            season,
            kind,
            units,
            centers,
            dislodged,
            Rules::default(),
        )
    }

    /// Builds and checks a state under `rules` (which decide whether a retreat option may name a
    /// province a unit stands in: only MILA's lists do); the error names what is wrong.
    #[allow(clippy::too_many_arguments)]
    pub fn with_rules(
        map: &GameMap<M>,
        year: i64,
        season: &str,
        kind: &str,
        units: &[RawUnit],
        centers: &[(i64, i64)],
        dislodged: &[(RawUnit, Vec<i64>)],
        rules: Rules,
    ) -> Result<State<M>, EngineError> {
        let year = u32::try_from(year)
            .ok()
            .filter(|&y| (MIN_YEAR..=MAX_YEAR).contains(&y))
            .ok_or_else(|| {
                EngineError::out_of_range(format!("year {year} is not in {MIN_YEAR}..={MAX_YEAR}"))
            })?;
        let (season, kind) = match (season, kind) {
            ("S", "M") => (SPRING, MOVEMENT),
            ("S", "R") => (SPRING, RETREATS),
            ("F", "M") => (FALL, MOVEMENT),
            ("F", "R") => (FALL, RETREATS),
            ("W", "A") => (WINTER, ADJUSTMENTS),
            _ => {
                return Err(EngineError::invalid(format!(
                    "no phase {season}{year}{kind}"
                )))
            }
        };
        let mut st = State {
            year,
            season,
            kind,
            units: M::table(Piece::NONE),
            centers: M::table(NO_POWER),
            dislodged: M::table(Piece::NONE),
            dislodged_at: M::ZERO,
            retreats: M::table(M::ZERO),
            rules,
            hash: 0,
            zseed: map_seed(map),
        };
        for (i, &raw) in units.iter().enumerate() {
            let p = piece(map, ("units", i), raw)?;
            let prov = map.prov_of[p.loc as usize] as usize;
            if st.units[prov].is_some() {
                return Err(EngineError::invalid(format!(
                    "units[{i}]: {} already holds a unit",
                    map.loc_name(prov)
                )));
            }
            st.set_unit(prov, p);
        }
        for (i, &(prov, power)) in centers.iter().enumerate() {
            let prov = index(&Label("centers", i, " province"), prov, map.provinces)?;
            let power = index(&Label("centers", i, " power"), power, map.powers)?;
            if !has(map.centers, prov) {
                return Err(EngineError::invalid(format!(
                    "centers[{i}]: {} is not a supply centre",
                    map.loc_name(prov)
                )));
            }
            if st.centers[prov] != NO_POWER && st.centers[prov] != power as u8 {
                return Err(EngineError::invalid(format!(
                    "centers[{i}]: {} is owned twice",
                    map.loc_name(prov)
                )));
            }
            st.set_center(prov, power as u8);
        }
        if !dislodged.is_empty() && kind != RETREATS {
            return Err(EngineError::invalid(
                "dislodged units are only held in retreat phases",
            ));
        }
        for (i, (raw, options)) in dislodged.iter().enumerate() {
            let p = piece(map, ("dislodged", i), *raw)?;
            let prov = map.prov_of[p.loc as usize] as usize;
            if st.dislodged[prov].is_some() {
                return Err(EngineError::invalid(format!(
                    "dislodged[{i}]: two dislodged units in {}",
                    map.loc_name(prov)
                )));
            }
            // An option must be a place the unit could move to and that is empty: anything else
            // would put an army at sea or two units in one province. (MILA's lists,
            // `retreat_after_convoy="any"`, name occupied provinces; the retreat rule then never
            // lets the unit go there.)
            let reach = if p.fleet {
                map.fleet_adj[p.loc as usize]
            } else {
                map.army_adj[prov]
            };
            let mut mask = M::ZERO;
            for &o in options {
                let o = index(&Label("dislodged", i, " option"), o, map.locations)?;
                let name = map.loc_name(o);
                if !has(reach, o) {
                    return Err(EngineError::invalid(format!(
                        "dislodged[{i}]: the unit cannot move to its option {name}"
                    )));
                }
                if st.units[map.prov_of[o] as usize].is_some()
                    && !rules.resolver.retreat_any_after_convoy
                {
                    return Err(EngineError::invalid(format!(
                        "dislodged[{i}]: its option {name} holds a unit"
                    )));
                }
                mask |= M::bit(o);
            }
            st.set_dislodged(prov, p, mask);
        }
        st.hash ^= zobrist::phase_key(st.zseed, st.year, st.season, st.kind);
        debug_assert_eq!(st.hash, full_hash(map, &st));
        Ok(st)
    }

    /// Puts `piece` (or no unit: `Piece::NONE`) in province `prov`, keeping the hash.
    #[inline]
    pub fn set_unit(&mut self, prov: usize, piece: Piece) {
        let old = self.units[prov];
        if old.is_some() {
            self.hash ^= zobrist::unit_key(self.zseed, old);
        }
        if piece.is_some() {
            self.hash ^= zobrist::unit_key(self.zseed, piece);
        }
        self.units[prov] = piece;
    }

    /// Makes `power` (or nobody: `NO_POWER`) the owner of the centre `prov`, keeping the hash.
    #[inline]
    pub fn set_center(&mut self, prov: usize, power: u8) {
        let old = self.centers[prov];
        if old != NO_POWER {
            self.hash ^= zobrist::center_key(self.zseed, prov, old);
        }
        if power != NO_POWER {
            self.hash ^= zobrist::center_key(self.zseed, prov, power);
        }
        self.centers[prov] = power;
    }

    /// Moves on to the phase `year`, `season`, `kind`, keeping the hash.
    #[inline]
    pub fn set_phase(&mut self, year: u32, season: u8, kind: u8) {
        let seed = self.zseed;
        self.hash ^= zobrist::phase_key(seed, self.year, self.season, self.kind)
            ^ zobrist::phase_key(seed, year, season, kind);
        self.year = year;
        self.season = season;
        self.kind = kind;
    }

    /// Puts a dislodged unit with its retreat options in province `prov` (which has none).
    pub fn set_dislodged(&mut self, prov: usize, piece: Piece, options: M) {
        debug_assert!(!self.dislodged[prov].is_some());
        self.dislodged[prov] = piece;
        self.retreats[prov] = options;
        self.dislodged_at |= M::bit(prov);
        self.hash ^= self.dislodged_keys(prov);
    }

    /// Removes every dislodged unit.
    pub fn clear_dislodged(&mut self) {
        for q in Bits(self.dislodged_at) {
            self.hash ^= self.dislodged_keys(q);
            self.dislodged[q] = Piece::NONE;
            self.retreats[q] = M::ZERO;
        }
        self.dislodged_at = M::ZERO;
    }

    /// The keys of the unit dislodged in `prov` and of its retreat options.
    fn dislodged_keys(&self, prov: usize) -> u64 {
        let seed = self.zseed;
        Bits(self.retreats[prov]).fold(
            zobrist::dislodged_key(seed, self.dislodged[prov]),
            |h, o| h ^ zobrist::retreat_key(seed, prov, o),
        )
    }

    /// `S1901M`.
    pub fn phase_name(&self) -> String {
        let season = ["S", "F", "W"][self.season as usize];
        let kind = ["M", "R", "A"][self.kind as usize];
        format!("{season}{}{kind}", self.year)
    }

    /// Supply centres owned, per power.
    pub fn center_counts(&self, map: &GameMap<M>, out: &mut [u32]) {
        out.fill(0);
        // Only a supply centre has an owner ([`State::new`] refuses any other, and the Fall
        // turn sets only centres'), so only the centres are read.
        debug_assert!(
            (0..map.provinces).all(|q| has(map.centers, q) || self.centers[q] == NO_POWER)
        );
        for q in Bits(map.centers) {
            let o = self.centers[q];
            if o != NO_POWER {
                out[o as usize] += 1;
            }
        }
    }

    /// Units on the board, per power.
    pub fn unit_counts(&self, map: &GameMap<M>, out: &mut [u32]) {
        out.fill(0);
        for q in 0..map.provinces {
            let u = self.units[q];
            if u.is_some() {
                out[u.power as usize] += 1;
            }
        }
    }
}

/// The hash of `st` worked out from scratch (what the setters keep in `st.hash`).
pub fn full_hash<M: Mask>(map: &GameMap<M>, st: &State<M>) -> u64 {
    let seed = st.zseed;
    let mut h = zobrist::phase_key(seed, st.year, st.season, st.kind);
    for q in 0..map.provinces {
        let u = st.units[q];
        if u.is_some() {
            h ^= zobrist::unit_key(seed, u);
        }
        if st.centers[q] != NO_POWER {
            h ^= zobrist::center_key(seed, q, st.centers[q]);
        }
    }
    for q in Bits(st.dislodged_at) {
        h ^= zobrist::dislodged_key(seed, st.dislodged[q]);
        for o in Bits(st.retreats[q]) {
            h ^= zobrist::retreat_key(seed, q, o);
        }
    }
    h
}

/// The armies a rebuilding neutral power raises, worked out from a state (here, where the map and
/// the state are both known).
impl<M: Mask> GameMap<M> {
    /// The armies a rebuilding neutral power raises at an adjustment: one in every vacant,
    /// non-sea centre it owns (`diplo.reference.adjustments.neutral_rebuilds`).
    pub fn neutral_rebuilds(&self, st: &State<M>) -> M {
        Bits(self.centers)
            .filter(|&q| {
                let owner = st.centers[q] as usize;
                owner < self.powers
                    && self.rebuild[owner]
                    && !st.units[q].is_some()
                    && self.kind[q] != SEA
            })
            .fold(M::ZERO, |m, q| m | M::bit(q))
    }
}

/// The rules' decisions that read a board (the other rules are in `super::rules`, which the state
/// carries and so cannot see the state).
impl Rules {
    /// The provinces where `power` may build now: owned, vacant home centres (or any owned,
    /// vacant centre under [`BuildSites::AnyOwnedCentre`], any owned, vacant home centre of
    /// some power under [`BuildSites::AnyHomeCentre`]).
    pub fn build_sites<M: Mask>(&self, map: &GameMap<M>, st: &State<M>, power: usize) -> M {
        let candidates = match self.build_sites {
            BuildSites::HomeCentres => map.homes[power],
            BuildSites::AnyOwnedCentre => map.centers,
            BuildSites::AnyHomeCentre => some_home(map),
        };
        Bits(candidates)
            .filter(|&q| st.centers[q] == power as u8 && !st.units[q].is_some())
            .fold(M::ZERO, |m, q| m | M::bit(q))
    }

    /// Builds allowed (> 0) or disbands owed (< 0) to `power` with `centers` centres and
    /// `units` units: the surplus, capped at the number of build sites (DATC 4.D.7: a power
    /// whose every site is taken builds nothing, though it may still waive).
    pub fn allowance<M: Mask>(
        &self,
        map: &GameMap<M>,
        st: &State<M>,
        power: usize,
        centers: u32,
        units: u32,
    ) -> i64 {
        if map.neutral[power] {
            return 0; // a neutral power builds and disbands nothing by the count
        }
        let surplus = i64::from(centers) - i64::from(units);
        if surplus > 0 {
            surplus.min(i64::from(self.build_sites(map, st, power).count()))
        } else {
            surplus
        }
    }

    /// The provinces the civil-disorder distance of `power`'s units is measured to.
    pub fn disorder_sources<M: Mask>(&self, map: &GameMap<M>, st: &State<M>, power: usize) -> M {
        match self.civil_disorder {
            // DATC 6.J.11 (2023 rules): the nearest owned centre.
            CivilDisorder::OwnedCentres => Bits(map.centers)
                .filter(|&q| st.centers[q] == power as u8)
                .fold(M::ZERO, |m, q| m | M::bit(q)),
            // The older rulebooks (DATC 6.J.11): the nearest home centre.
            CivilDisorder::HomeCentres => map.homes[power],
        }
    }
}
