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
//! compares the map data, so asking again for the same map returns the same table and the memory
//! kept is one table per distinct map ever used.

use std::any::Any;
use std::sync::Mutex;

pub use super::mask::{bit, has, Bits, Mask};
use crate::resolver::map::CompiledMap;

/// "No power" in a per-province table.
pub const NO_POWER: u8 = u8::MAX;

/// The most powers a map may have (a power is a `u8`, [`NO_POWER`] excepted).
pub const MAX_POWERS: usize = NO_POWER as usize;

/// Province kinds, as `diplo.map` names them.
pub const LAND: u8 = 0;
pub const COAST: u8 = 1;
pub const SEA: u8 = 2;

/// The map as `diplo.fast` sends it (indices as in `Map.locations` and `Map.powers`).
#[derive(Clone, Debug, PartialEq, Eq)]
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
}

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
    /// Per province, every province across any border, whatever the unit type (distances).
    pub border: Vec<M>,
    /// Per province, the power whose home centre it is, or [`NO_POWER`].
    pub home_of: Vec<u8>,
    /// Per power, its home centres.
    pub homes: Vec<M>,
    pub name_rank: Vec<u16>,
    /// Centres a power needs to win alone (see `MapSpec::victory`).
    pub victory: u32,
    /// Location index by name (`STP/NC`), for reading orders given as objects.
    pub loc_index: std::collections::HashMap<String, u16>,
}

fn mask_of<M: Mask>(items: &[u16]) -> M {
    items.iter().fold(M::ZERO, |m, &i| m | M::bit(i as usize))
}

impl<M: Mask> GameMap<M> {
    /// Checks and compiles a map; the error names what is wrong.
    pub fn build(spec: MapSpec) -> Result<GameMap<M>, String> {
        let l = spec.loc_province.len();
        let p = spec.province_kind.len();
        let n_powers = spec.powers.len();
        if l > M::BITS {
            return Err(format!(
                "the map has {l} locations; the engine takes at most {}",
                super::mask::MAX_LOCATIONS.min(M::BITS)
            ));
        }
        if n_powers == 0 || n_powers > MAX_POWERS {
            return Err(format!(
                "the map has {n_powers} powers; the engine needs 1 to {MAX_POWERS}"
            ));
        }
        if spec.locations.len() != l {
            return Err(format!(
                "{} location names for {l} locations",
                spec.locations.len()
            ));
        }
        if let Some(k) = spec.province_kind.iter().find(|&&k| k > SEA) {
            return Err(format!(
                "unknown province kind {k} (0 land, 1 coast, 2 sea)"
            ));
        }
        if spec.name_rank.len() != p {
            return Err(format!(
                "name_rank has {} entries for {p} provinces",
                spec.name_rank.len()
            ));
        }
        let mut ranks = spec.name_rank.clone();
        ranks.sort_unstable();
        if ranks.iter().enumerate().any(|(i, &r)| r as usize != i) {
            return Err("name_rank must number the provinces 0, 1, 2, ... once each".into());
        }
        let is_sea: Vec<bool> = spec.province_kind.iter().map(|&k| k == SEA).collect();
        let cmap = CompiledMap::new(
            spec.loc_province.clone(),
            is_sea,
            spec.army_adj.clone(),
            spec.fleet_adj.clone(),
        )?
        .with_ports(&spec.ports)?;
        let prov_of: Vec<u16> = spec.loc_province.clone();
        let kind = spec.province_kind.clone();
        for (loc, list) in spec.fleet_adj.iter().enumerate() {
            if !list.is_empty() && kind[prov_of[loc] as usize] == LAND {
                return Err(format!(
                    "fleet edge at location {loc}, which is in an inland province"
                ));
            }
        }
        for (loc, &prov) in prov_of.iter().enumerate().skip(p) {
            if kind[prov as usize] != COAST {
                return Err(format!(
                    "coast location {loc} of a province that is not coastal"
                ));
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
                return Err(format!("port {q} is not a coastal province"));
            }
            ports |= M::bit(q);
        }
        let carriers = seas | ports;
        let mut border = army_adj.clone();
        // Per province, where a fleet on any of its locations could move (provinces).
        let mut fleet_from = vec![M::ZERO; p];
        for (loc, &prov) in prov_of.iter().enumerate() {
            border[prov as usize] |= fleet_reach[loc];
            fleet_from[prov as usize] |= fleet_reach[loc];
        }
        let mut shore_seas = vec![M::ZERO; p];
        let mut shores = M::ZERO;
        for q in 0..p {
            let s = border[q] & carriers & !M::bit(q);
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

        let mut centers = M::ZERO;
        for &c in &spec.centers {
            let c = c as usize;
            if c >= p {
                return Err(format!("centre {c} is not a province"));
            }
            centers |= M::bit(c);
        }
        if spec.homes.len() != n_powers {
            return Err(format!(
                "{} home lists for {n_powers} powers",
                spec.homes.len()
            ));
        }
        let mut home_of = vec![NO_POWER; p];
        let mut homes = Vec::with_capacity(n_powers);
        for (power, list) in spec.homes.iter().enumerate() {
            let mut m = M::ZERO;
            for &h in list {
                let h = h as usize;
                if h >= p || !has(centers, h) {
                    return Err(format!("home centre {h} of power {power} is not a centre"));
                }
                if home_of[h] != NO_POWER {
                    return Err(format!("home centre {h} belongs to two powers"));
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
            return Err(format!(
                "victory needs {victory} centres but the map has {n_centers}"
            ));
        }
        let loc_index = spec
            .locations
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), i as u16))
            .collect();
        Ok(GameMap {
            victory,
            loc_index,
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
            border,
            home_of,
            homes,
        })
    }

    /// The table for `spec`, built on first use and kept for the life of the process (see the
    /// module documentation).
    pub fn intern(spec: MapSpec) -> Result<&'static GameMap<M>, String> {
        // One list for every width: a table is found by its spec and its type.
        static TABLES: Mutex<Vec<&'static (dyn Any + Send + Sync)>> = Mutex::new(Vec::new());
        let mut tables = TABLES.lock().unwrap_or_else(|e| e.into_inner());
        let found = tables
            .iter()
            .filter_map(|t| t.downcast_ref::<GameMap<M>>())
            .find(|m| m.spec == spec);
        if let Some(found) = found {
            return Ok(found);
        }
        let table: &'static GameMap<M> = Box::leak(Box::new(GameMap::build(spec)?));
        tables.push(table);
        Ok(table)
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
    /// and the seas such a convoy could use. Empty unless `src` is a shore.
    pub fn convoy_reach(&self, src: usize, fleets: M, avoid: M) -> (M, M) {
        let usable = fleets & !avoid;
        let mut seen = self.shore_seas[src] & usable;
        let mut frontier = seen;
        while !frontier.is_zero() {
            let mut next = M::ZERO;
            for s in Bits(frontier) {
                next |= self.sea_adj[s];
            }
            next &= usable & !seen;
            seen |= next;
            frontier = next;
        }
        let mut dests = M::ZERO;
        for s in Bits(seen) {
            dests |= self.sea_shores[s];
        }
        (dests & !M::bit(src), seen)
    }
}
