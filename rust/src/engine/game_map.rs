//! The per-map table of the game engine: everything the legal-order generator, the phases and the
//! civil-disorder rule ask about the map alone, as small integers and sets of the map's width.
//!
//! A set of provinces or of locations is a [`Mask`] sized to the map (`u128` up to 128
//! locations, wider words up to `mask::MAX_LOCATIONS`, see `mask`), so the questions of the inner
//! loops (who can move where, which seas touch which shores) are a few bit operations.
//!
//! A table is built once per distinct map and *interned* for the life of the process
//! ([`GameMap::intern`]): a game holds a `&'static GameMap`, so every thread can keep a resolver
//! (`crate::Adjudicator`, which borrows its map) for it without reference counting. Interning
//! compares the map data (found by its hash), so asking again for the same map returns the same
//! table and the memory kept is one table per distinct map ever used, at most [`MAX_MAPS`] of
//! them (a further map is refused with the reason).

use std::any::Any;
use std::sync::Mutex;

use super::error::EngineError;
pub use super::mask::{bit, has, Bits, Mask};
use crate::resolver::map::CompiledMap;

/// The most distinct maps one process compiles for the engine (see [`GameMap::intern`]): a
/// compiled map is kept for the life of the process, so this bounds the memory they take.
pub const MAX_MAPS: usize = 1024;

/// The most chains of seas a map may have for its minimal convoy routes to be listed
/// ([`sea_chains`], [`GameMap::exact_routes`]): the legal-order lists walk the minimal convoy
/// routes of the fleets on the board (DATC 6.G.19), at most this many per army. Real maps have
/// far fewer (standard 375, ancmed 954, MILA's colonial 5,635, world 193,343); a grid of seas
/// six by six has 669,108, seven by seven millions. On a map with more, the shortest chains
/// between end seas decide (`legality::convoy`), as in the reference
/// (`diplo.reference.convoys.MAX_SEA_CHAINS`, kept equal), so a phase's work stays polynomial
/// on any map.
pub const MAX_SEA_CHAINS: usize = 500_000;

/// The number of chains of seas (induced paths of the sea graph, counted from each end: a path
/// whose seas touch no sea of the path but their neighbours on it), or `None` once there are
/// more than `limit`. Every minimal convoy route on any board is such a chain.
pub fn sea_chains<M: Mask>(sea_adj: &[M], seas: M, limit: usize) -> Option<usize> {
    // (path so far, its last sea, the seas no later step may take)
    let mut stack: Vec<(M, usize, M)> = Bits(seas).map(|s| (bit(s), s, bit(s))).collect();
    let mut count = 0;
    while let Some((path, last, blocked)) = stack.pop() {
        count += 1;
        if count > limit {
            return None;
        }
        let adj = sea_adj[last];
        let next_blocked = blocked | adj;
        for next in Bits(adj & !blocked & !path) {
            stack.push((path | bit::<M>(next), next, next_blocked));
        }
    }
    Some(count)
}

pub use super::board::NO_POWER;
use super::board::{MAX_YEAR, SPRING};

/// The most powers a map may have (a power is a `u8`, [`NO_POWER`] excepted).
pub const MAX_POWERS: usize = NO_POWER as usize;

/// Province kinds, as `diplo.model.map` names them.
pub const LAND: u8 = 0;
pub const COAST: u8 = 1;
pub const SEA: u8 = 2;

/// The map as `diplo.engine.codes` sends it (indices as in `Map.locations` and `Map.powers`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MapSpec {
    /// Names of the locations (provinces first, then coasts), for messages and slots.
    pub locations: Vec<String>,
    /// Names of the powers, in map order.
    pub powers: Vec<String>,
    /// Per location, its province (identity for provinces).
    pub loc_province: Vec<u16>,
    /// Per province: [`LAND`], [`COAST`] or [`SEA`]; its length is the number of provinces.
    pub province_kind: Vec<u8>,
    /// Per province, the provinces an army there can move to.
    pub army_adj: Vec<Vec<u16>>,
    /// Per location, the locations a fleet there can move to.
    pub fleet_adj: Vec<Vec<u16>>,
    /// The supply centres (provinces).
    pub centers: Vec<u16>,
    /// The ports: coastal provinces from which a fleet may convoy (MILA's ancmed: Baleares).
    pub ports: Vec<u16>,
    /// Per power, its home centres.
    pub homes: Vec<Vec<u16>>,
    /// Per province, its rank in the order of English names (casefolded, then abbreviation):
    /// the last tie-break of the civil-disorder rule.
    pub name_rank: Vec<u16>,
    /// Centres a power needs to win alone; 0: more than half of them (18 of 34 on the standard
    /// map).
    pub victory: u32,
    /// The map's calendar (`diplo.model.map.Calendar`): years from a Spring to its Fall (0 on the
    /// standard map) and from a Fall to the next Spring (1; godip's hundred: 5 and 5).
    pub years_to_fall: u32,
    pub years_to_spring: u32,
    /// The neutral powers (`diplo.model.map.Map.neutral`: their units hold, are never ordered,
    /// are disbanded when dislodged; they build, disband and win nothing), and those of them
    /// that raise an army again in every vacant centre they own at an adjustment.
    pub neutral: Vec<u8>,
    pub rebuild: Vec<u8>,
    /// The year of the map's first phase when it is an adjustment in which every build a power
    /// leaves unordered is an army (`diplo.model.map.Map.start_armies`, godip's chaos).
    pub start_armies: Option<u32>,
}

/// The most years one step of a calendar may take (`diplo.model.map.Calendar`).
pub const MAX_CALENDAR_STEP: u32 = 100;

/// One map, compiled for the engine. Immutable; see the module documentation.
#[derive(Debug)]
pub struct GameMap<M: Mask> {
    pub spec: MapSpec,
    /// The resolver's map.
    pub cmap: CompiledMap,
    pub provinces: usize,
    pub locations: usize,
    pub powers: usize,
    /// Per location, its province.
    pub prov_of: Vec<u16>,
    /// Per province, its kind.
    pub kind: Vec<u8>,
    /// Per province, its coast locations (empty unless split).
    pub coasts: Vec<M>,
    /// Per province, the provinces an army there can move to.
    pub army_adj: Vec<M>,
    /// Per location, the locations a fleet there can move to.
    pub fleet_adj: Vec<M>,
    /// Per location, the provinces a fleet there can move to (some location of them): the reach
    /// of a support (DATC 6.B.5).
    pub fleet_reach: Vec<M>,
    pub seas: M,
    pub centers: M,
    /// Ports: coastal provinces whose fleet may convoy, as a fleet at sea does.
    pub ports: M,
    /// Where a fleet may convoy ([`GameMap::may_convoy`]): the seas and the ports. In the convoy
    /// tables below, "sea" means any of these.
    pub carriers: M,
    /// Coastal provinces with a sea neighbour: where a convoy can start or end.
    pub shores: M,
    /// Per shore province, the seas along any of its coasts (0 for other provinces).
    pub shore_seas: Vec<M>,
    /// Per sea, the seas next to it.
    pub sea_adj: Vec<M>,
    /// Per sea, the shore provinces it touches.
    pub sea_shores: Vec<M>,
    /// Whether the map's seas form at most [`MAX_SEA_CHAINS`] chains, so that the legal-order
    /// lists walk every minimal convoy route; else the shortest chains between end seas decide.
    pub exact_routes: bool,
    /// Per province, every province across any border, whatever the unit type (distances).
    pub border: Vec<M>,
    /// Per province, the power whose home centre it is, or [`NO_POWER`].
    pub home_of: Vec<u8>,
    /// Per power, its home centres.
    pub homes: Vec<M>,
    pub name_rank: Vec<u16>,
    /// Per province, its rank in the order of abbreviations in lower case (godip's province ids):
    /// the last tie-break of the civil-disorder rule under `disorder_tie="abbreviation"`.
    pub abbr_rank: Vec<u16>,
    /// Centres a power needs to win alone (see `MapSpec::victory`).
    pub victory: u32,
    /// Location index by name (`STP/NC`), for reading orders given as objects.
    pub loc_index: std::collections::HashMap<String, u16>,
    /// Per power, whether it is neutral ([`MapSpec::neutral`]) and whether it rebuilds.
    pub neutral: Vec<bool>,
    pub rebuild: Vec<bool>,
}

fn mask_of<M: Mask>(items: &[u16]) -> M {
    items.iter().fold(M::ZERO, |m, &i| m | M::bit(i as usize))
}

impl<M: Mask> GameMap<M> {
    /// Checks and compiles a map; the error names what is wrong.
    pub fn build(spec: MapSpec) -> Result<GameMap<M>, EngineError> {
        let l = spec.loc_province.len();
        let p = spec.province_kind.len();
        let n_powers = spec.powers.len();
        let (to_fall, to_spring) = (spec.years_to_fall, spec.years_to_spring);
        if to_fall > MAX_CALENDAR_STEP || to_spring > MAX_CALENDAR_STEP || to_fall + to_spring == 0
        {
            return Err(EngineError::invalid(format!(
                "calendar: years to the fall {to_fall} and to the spring {to_spring} must be \
                 0..={MAX_CALENDAR_STEP} and not both 0"
            )));
        }
        if l > M::BITS {
            return Err(EngineError::limit(format!(
                "the map has {l} locations; the engine takes at most {}",
                super::mask::MAX_LOCATIONS.min(M::BITS)
            )));
        }
        if n_powers == 0 || n_powers > MAX_POWERS {
            return Err(EngineError::invalid(format!(
                "the map has {n_powers} powers; the engine needs 1 to {MAX_POWERS}"
            )));
        }
        if spec.locations.len() != l {
            return Err(EngineError::invalid(format!(
                "{} location names for {l} locations",
                spec.locations.len()
            )));
        }
        if let Some(k) = spec.province_kind.iter().find(|&&k| k > SEA) {
            return Err(EngineError::invalid(format!(
                "unknown province kind {k} (0 land, 1 coast, 2 sea)"
            )));
        }
        if spec.name_rank.len() != p {
            return Err(EngineError::invalid(format!(
                "name_rank has {} entries for {p} provinces",
                spec.name_rank.len()
            )));
        }
        let mut ranks = spec.name_rank.clone();
        ranks.sort_unstable();
        if ranks.iter().enumerate().any(|(i, &r)| r as usize != i) {
            return Err(EngineError::invalid(
                "name_rank must number the provinces 0, 1, 2, ... once each",
            ));
        }
        let is_sea: Vec<bool> = spec.province_kind.iter().map(|&k| k == SEA).collect();
        let cmap = CompiledMap::new(
            spec.loc_province.clone(),
            is_sea,
            spec.army_adj.clone(),
            spec.fleet_adj.clone(),
        )
        .and_then(|m| m.with_ports(&spec.ports))
        .map_err(EngineError::invalid)?;
        let prov_of: Vec<u16> = spec.loc_province.clone();
        let kind = spec.province_kind.clone();
        for (loc, list) in spec.fleet_adj.iter().enumerate() {
            if !list.is_empty() && kind[prov_of[loc] as usize] == LAND {
                return Err(EngineError::invalid(format!(
                    "fleet edge at location {loc}, which is in an inland province"
                )));
            }
        }
        for (loc, &prov) in prov_of.iter().enumerate().skip(p) {
            if kind[prov as usize] != COAST {
                return Err(EngineError::invalid(format!(
                    "coast location {loc} of a province that is not coastal"
                )));
            }
        }

        let mut coasts = vec![M::ZERO; p];
        for (loc, &prov) in prov_of.iter().enumerate().skip(p) {
            coasts[prov as usize] |= bit::<M>(loc);
        }
        let army_adj: Vec<M> = (0..p)
            .map(|q| mask_of(cmap.army_neighbours(q as u16)))
            .collect();
        let fleet_adj: Vec<M> = (0..l)
            .map(|x| mask_of(cmap.fleet_neighbours(x as u16)))
            .collect();
        let fleet_reach: Vec<M> = fleet_adj
            .iter()
            .map(|&m| Bits(m).fold(M::ZERO, |acc, x| acc | M::bit(prov_of[x] as usize)))
            .collect();
        let seas: M = (0..p)
            .filter(|&q| kind[q] == SEA)
            .fold(M::ZERO, |m, q| m | M::bit(q));
        let mut ports = M::ZERO;
        for &q in &spec.ports {
            let q = q as usize;
            if q >= p || kind[q] != COAST {
                return Err(EngineError::invalid(format!(
                    "port {q} is not a coastal province"
                )));
            }
            ports |= M::bit(q);
        }
        let carriers = seas | ports;
        let mut border = army_adj.clone();
        for (loc, &prov) in prov_of.iter().enumerate() {
            border[prov as usize] |= fleet_reach[loc];
        }
        // Per province, the provinces a convoy may pass to: fleet edges crossed both ways (a
        // one-way edge carries no army, `diplo.model.map.Map.convoy_links`).
        let mut fleet_from = vec![M::ZERO; p];
        for (loc, &prov) in prov_of.iter().enumerate() {
            for n in Bits(fleet_adj[loc]) {
                if has(fleet_adj[n], loc) {
                    fleet_from[prov as usize] |= M::bit(prov_of[n] as usize);
                }
            }
        }
        let mut shore_seas = vec![M::ZERO; p];
        let mut shores = M::ZERO;
        for q in 0..p {
            // Along two-way fleet edges only, never a land border: an army reaching a port over
            // land only is not carried by its fleet (`diplo.model.map.Map.sea_neighbours`, the
            // resolver's `CompiledMap::convoy_link`).
            let s = fleet_from[q] & carriers & !M::bit(q);
            if kind[q] == COAST && !s.is_zero() {
                shore_seas[q] = s;
                shores |= M::bit(q);
            }
        }
        let mut sea_adj = vec![M::ZERO; p];
        let mut sea_shores = vec![M::ZERO; p];
        for s in Bits(carriers) {
            sea_adj[s] = fleet_from[s] & carriers;
            sea_shores[s] = fleet_from[s] & shores;
        }
        // Counted over every convoying province (seas and ports), as the reference counts.
        let exact_routes = sea_chains(&sea_adj, carriers, MAX_SEA_CHAINS).is_some();

        let mut centers = M::ZERO;
        for &c in &spec.centers {
            let c = c as usize;
            if c >= p {
                return Err(EngineError::invalid(format!(
                    "centre {c} is not a province"
                )));
            }
            centers |= M::bit(c);
        }
        if spec.homes.len() != n_powers {
            return Err(EngineError::invalid(format!(
                "{} home lists for {n_powers} powers",
                spec.homes.len()
            )));
        }
        let mut home_of = vec![NO_POWER; p];
        let mut homes = Vec::with_capacity(n_powers);
        for (power, list) in spec.homes.iter().enumerate() {
            let mut m = M::ZERO;
            for &h in list {
                let h = h as usize;
                if h >= p || !has(centers, h) {
                    return Err(EngineError::invalid(format!(
                        "home centre {h} of power {power} is not a centre"
                    )));
                }
                if home_of[h] != NO_POWER {
                    return Err(EngineError::invalid(format!(
                        "home centre {h} belongs to two powers"
                    )));
                }
                home_of[h] = power as u8;
                m |= M::bit(h);
            }
            homes.push(m);
        }
        let n_centers = centers.count();
        let victory = if spec.victory == 0 {
            n_centers / 2 + 1
        } else {
            spec.victory
        };
        if victory > n_centers.max(1) {
            return Err(EngineError::invalid(format!(
                "victory needs {victory} centres but the map has {n_centers}"
            )));
        }
        let loc_index = spec
            .locations
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), i as u16))
            .collect();
        let mut neutral = vec![false; n_powers];
        let mut rebuild = vec![false; n_powers];
        for (list, flags, what) in [
            (&spec.neutral, &mut neutral, "neutral"),
            (&spec.rebuild, &mut rebuild, "rebuild"),
        ] {
            for &power in list.iter() {
                let slot = flags.get_mut(power as usize).ok_or_else(|| {
                    EngineError::invalid(format!("{what}: power {power} is not a power of the map"))
                })?;
                *slot = true;
            }
        }
        if (0..n_powers).any(|power| rebuild[power] && !neutral[power]) {
            return Err(EngineError::invalid(
                "rebuild: only a neutral power rebuilds its armies",
            ));
        }
        if n_powers > 0 && neutral.iter().all(|&n| n) {
            return Err(EngineError::invalid("neutral: every power is neutral"));
        }
        let mut by_abbr: Vec<(String, usize)> = (0..p)
            .map(|q| (spec.locations[q].to_lowercase(), q))
            .collect();
        by_abbr.sort_unstable();
        let mut abbr_rank = vec![0u16; p];
        for (rank, (_, q)) in by_abbr.into_iter().enumerate() {
            abbr_rank[q] = rank as u16;
        }
        Ok(GameMap {
            abbr_rank,
            victory,
            loc_index,
            neutral,
            rebuild,
            provinces: p,
            locations: l,
            powers: n_powers,
            name_rank: spec.name_rank.clone(),
            spec,
            cmap,
            prov_of,
            kind,
            coasts,
            army_adj,
            fleet_adj,
            fleet_reach,
            seas,
            centers,
            ports,
            carriers,
            shores,
            shore_seas,
            sea_adj,
            sea_shores,
            exact_routes,
            border,
            home_of,
            homes,
        })
    }

    /// The table for `spec`, built on first use and kept for the life of the process (see the
    /// module documentation), found by a hash of the map data (one table for every width: a
    /// table is found by its spec and its type). At most [`MAX_MAPS`] distinct maps are
    /// compiled in one process; one more is refused with the reason.
    pub fn intern(spec: MapSpec) -> Result<&'static GameMap<M>, EngineError> {
        use std::collections::HashMap;
        use std::hash::{DefaultHasher, Hash, Hasher};
        /// The number of maps, and the maps by the hash of their data.
        type Interned = (usize, HashMap<u64, Vec<&'static (dyn Any + Send + Sync)>>);
        static TABLES: Mutex<Option<Interned>> = Mutex::new(None);
        let mut hasher = DefaultHasher::new();
        spec.hash(&mut hasher);
        let key = hasher.finish();
        let mut guard = TABLES.lock().unwrap_or_else(|e| e.into_inner());
        let (count, tables) = guard.get_or_insert_with(|| (0, HashMap::new()));
        let found = tables.get(&key).and_then(|same| {
            same.iter()
                .filter_map(|t| t.downcast_ref::<GameMap<M>>())
                .find(|m| m.spec == spec)
        });
        if let Some(found) = found {
            return Ok(found);
        }
        if *count >= MAX_MAPS {
            return Err(EngineError::limit(format!(
                "the engine has compiled {MAX_MAPS} distinct maps in this process, its limit \
                 (each is kept for the life of the process); play further maps in another \
                 process, or on the reference backend"
            )));
        }
        let table: &'static GameMap<M> = Box::leak(Box::new(GameMap::build(spec)?));
        tables.entry(key).or_default().push(table);
        *count += 1;
        Ok(table)
    }

    #[inline]
    /// The last year a game on this map plays (`diplo.model.calendar.Calendar.last_year`):
    /// every phase of it and of the years before has its next phase within
    /// [`MAX_YEAR`]. A game not ended sooner ends there as a draw.
    pub fn last_year(&self) -> u32 {
        let step = self.spec.years_to_fall.max(self.spec.years_to_spring);
        MAX_YEAR.saturating_sub(step)
    }

    /// The year of the phase after one of `season` in `year` that starts a season: the Fall
    /// after a Spring, the Spring after a Fall or Winter (the map's calendar).
    pub fn next_year(&self, year: u32, season: u8) -> u32 {
        if season == SPRING {
            year + self.spec.years_to_fall
        } else {
            year + self.spec.years_to_spring
        }
    }

    /// Whether province `q` is a sea.
    #[inline]
    pub fn is_sea(&self, q: usize) -> bool {
        self.kind[q] == SEA
    }

    /// Whether a fleet in province `q` may convoy: a sea or a port (the map's rule, as
    /// `diplo.model.map.Map.may_convoy` says it).
    #[inline]
    pub fn may_convoy(&self, q: usize) -> bool {
        self.carriers.has(q)
    }

    /// All locations of province `q` (itself and its coasts).
    #[inline]
    pub fn locs_of(&self, q: usize) -> M {
        M::bit(q) | self.coasts[q]
    }

    /// Name of a location (or province).
    pub fn loc_name(&self, loc: usize) -> &str {
        &self.spec.locations[loc]
    }

    pub fn power_name(&self, power: usize) -> &str {
        &self.spec.powers[power]
    }

    /// Coastal provinces an army in `src` could be carried to over seas holding fleets
    /// (`fleets`), never through the seas `avoid` (DATC 6.D.32; 6.D.31 for a supporting fleet),
    /// and the seas such a convoy could use. Empty unless `src` is a shore. No chain passes on to
    /// a fleet of `barred` (MILA's ports under `port_first_only`: only a chain's first fleet),
    /// but `src`'s own when `src` is one (MILA's chains from a port may come back through it).
    pub fn convoy_reach(&self, src: usize, fleets: M, avoid: M, barred: M) -> (M, M) {
        let usable = fleets & !avoid;
        let mut seen = self.shore_seas[src] & usable;
        let mut frontier = seen;
        while !frontier.is_zero() {
            let mut next = M::ZERO;
            for s in Bits(frontier) {
                next |= self.sea_adj[s];
            }
            next &= usable & !seen & !barred;
            seen |= next;
            frontier = next;
        }
        if (barred & usable).has(src) && !(self.sea_adj[src] & seen).is_zero() {
            // MILA's routes from a port holding a fleet (the destination of a support it
            // lists, read back to the army): a sea of the chain passes back on to the start
            // port's own fleet, which carries on to the port's shores (`utils/convoy_paths.py`
            // queues the start as a carrier where any other port is a destination).
            seen |= M::bit(src);
        }
        let mut dests = M::ZERO;
        for s in Bits(seen) {
            dests |= self.sea_shores[s];
        }
        (dests & !M::bit(src), seen)
    }
}

/// The seed of a map's board-hash keys (`super::zobrist`): FNV-1a over everything of the map that rules a game (its location
/// and power names, each ended by a zero byte, then every table of its spec: provinces of the
/// locations, terrain, army and fleet edges, centres, ports, homes, the name order, the victory
/// count, the calendar's two steps, the neutral and rebuilding powers and the `start_armies`
/// year), the same in every process. Two maps that differ in any of it, even sharing every
/// name, seed differently. Not in it, as they rule nothing the engine plays: the map's name,
/// its first phase (a position says its own), its season names, its dummy powers (no player,
/// ruled as any power) and its default rules (a game's rules are not hashed).
pub fn map_seed<M: Mask>(map: &GameMap<M>) -> u64 {
    fn eat(h: &mut u64, bytes: &[u8]) {
        for &b in bytes {
            *h ^= b as u64;
            *h = h.wrapping_mul(0x0000_0100_0000_01B3);
        }
    }
    fn eat_list(h: &mut u64, list: &[u16]) {
        // The length first, so that the lists of a table cannot run into each other.
        eat(h, &(list.len() as u32).to_le_bytes());
        for &v in list {
            eat(h, &v.to_le_bytes());
        }
    }
    let spec = &map.spec;
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for name in spec.locations.iter().chain(spec.powers.iter()) {
        eat(&mut h, name.as_bytes());
        eat(&mut h, &[0]);
    }
    eat_list(&mut h, &spec.loc_province);
    eat(&mut h, &spec.province_kind);
    for table in [&spec.army_adj, &spec.fleet_adj, &spec.homes] {
        eat(&mut h, &(table.len() as u32).to_le_bytes());
        for list in table.iter() {
            eat_list(&mut h, list);
        }
    }
    eat_list(&mut h, &spec.centers);
    eat_list(&mut h, &spec.ports);
    eat_list(&mut h, &spec.name_rank);
    eat(&mut h, &spec.victory.to_le_bytes());
    // What else rules a game on the map: its calendar, its neutral and rebuilding powers, and
    // the year of a first adjustment whose unordered builds are armies.
    eat(&mut h, &spec.years_to_fall.to_le_bytes());
    eat(&mut h, &spec.years_to_spring.to_le_bytes());
    eat(&mut h, &(spec.neutral.len() as u32).to_le_bytes());
    eat(&mut h, &spec.neutral);
    eat(&mut h, &(spec.rebuild.len() as u32).to_le_bytes());
    eat(&mut h, &spec.rebuild);
    eat(
        &mut h,
        &spec.start_armies.map_or(u64::MAX, u64::from).to_le_bytes(),
    );
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seas 0-1-2 in a line, and 3-4-5 in a triangle.
    fn seas() -> (Vec<u128>, u128) {
        let b = |i: usize| 1u128 << i;
        let adj = vec![
            b(1),
            b(0) | b(2),
            b(1),
            b(4) | b(5),
            b(3) | b(5),
            b(3) | b(4),
        ];
        (adj, 0b11_1111)
    }

    #[test]
    fn sea_chains_are_the_induced_paths_from_each_end() {
        let (adj, all) = seas();
        // The line: 0, 01, 012, 1, 10, 12, 2, 21, 210; the triangle: each sea alone and with
        // one neighbour (the third sea touches the first: a chord), 3 x 3.
        assert_eq!(sea_chains(&adj, all, 100), Some(18));
        assert_eq!(sea_chains(&adj, all, 17), None);
        assert_eq!(sea_chains(&adj, 0u128, 1), Some(0));
    }
}
