//! Why a submitted code is illegal: the engine's answer to `diplo.validation`'s reason codes.
//!
//! Legality itself is decided by membership in the legal-order lists (`legal`); this module
//! only explains a refusal, checking in the order `diplo.validation` checks, so that both give
//! the same reason code for every order (`tests/test_engine.py` holds them together). The
//! sentences are made in Python from the code (`diplo.validation`), so both backends say the
//! same words.

use super::encode::{self, kind, well_formed};
use super::game_map::{bit, has, GameMap, NO_POWER};
use super::legal::Legal;
use super::rules::BuildSites;
use super::state::{State, ADJUSTMENTS, MOVEMENT};

/// Reason codes, indexed as [`NAMES`]; `OK` is a legal order.
pub mod reason {
    pub const OK: u8 = 0;
    pub const MALFORMED: u8 = 1;
    pub const WRONG_PHASE: u8 = 2;
    pub const NO_UNIT: u8 = 3;
    pub const FOREIGN_UNIT: u8 = 4;
    pub const MOVE_TO_SELF: u8 = 5;
    pub const ARMY_TO_SEA: u8 = 6;
    pub const NOT_ADJACENT: u8 = 7;
    pub const NO_CONVOY_ROUTE: u8 = 8;
    pub const CONVOY_OF_FLEET: u8 = 9;
    pub const FLEET_TO_LAND: u8 = 10;
    pub const BAD_COAST: u8 = 11;
    pub const COAST_NEEDED: u8 = 12;
    pub const NO_SUPPORTED_UNIT: u8 = 13;
    pub const SUPPORT_SELF: u8 = 14;
    pub const CANNOT_SUPPORT: u8 = 15;
    pub const IMPOSSIBLE_MOVE: u8 = 16;
    pub const CONVOY_NOT_AT_SEA: u8 = 17;
    pub const CONVOY_IMPOSSIBLE: u8 = 18;
    pub const NOT_DISLODGED: u8 = 19;
    pub const BAD_RETREAT: u8 = 20;
    pub const NO_BUILDS: u8 = 21;
    pub const NO_DISBANDS: u8 = 22;
    pub const NOT_HOME_CENTER: u8 = 23;
    pub const CENTER_NOT_OWNED: u8 = 24;
    pub const OCCUPIED: u8 = 25;
    pub const MULTIPLE_ORDERS: u8 = 26;
}

/// The names of the reason codes, as `diplo.validation` spells them.
pub const NAMES: [&str; 27] = [
    "ok",
    "malformed",
    "wrong_phase",
    "no_unit",
    "foreign_unit",
    "move_to_self",
    "army_to_sea",
    "not_adjacent",
    "no_convoy_route",
    "convoy_of_fleet",
    "fleet_to_land",
    "bad_coast",
    "coast_needed",
    "no_supported_unit",
    "support_self",
    "cannot_support",
    "impossible_move",
    "convoy_not_at_sea",
    "convoy_impossible",
    "not_dislodged",
    "bad_retreat",
    "no_builds",
    "no_disbands",
    "not_home_center",
    "center_not_owned",
    "occupied",
    "multiple_orders",
];

use reason::*;

/// The reason `code`, submitted by `power` (`NO_POWER`: by the owner of whatever it orders),
/// is refused in `st`, or `OK`. [`Legal::prepare`] must have been called for `st`.
pub fn why(legal: &mut Legal, map: &GameMap, st: &State, power: u8, code: u32) -> u8 {
    if !well_formed(code, map.locations, map.provinces, map.powers) {
        return MALFORMED;
    }
    match st.kind {
        MOVEMENT => why_movement(legal, map, st, power, code),
        ADJUSTMENTS => why_adjustment(map, st, power, code),
        _ => why_retreat(map, st, power, code),
    }
}

/// Whether a unit of this type at `loc` (in province `p`) could move to province `q` itself.
fn can_reach(map: &GameMap, fleet: bool, loc: usize, p: usize, q: usize) -> bool {
    if fleet {
        has(map.fleet_reach[loc], q)
    } else {
        has(map.army_adj[p], q)
    }
}

fn why_movement(legal: &mut Legal, map: &GameMap, st: &State, power: u8, code: u32) -> u8 {
    let k = encode::kind_of(code);
    if k > kind::CONVOY {
        return WRONG_PHASE;
    }
    let p = map.prov_of[encode::loc_of(code)] as usize;
    let u = st.units[p];
    if !u.is_some() {
        return NO_UNIT;
    }
    if power != NO_POWER && u.power != power {
        // DATC 6.A.6: a power cannot order another power's unit.
        return FOREIGN_UNIT;
    }
    let here = u.loc as usize;
    let fleets = legal.fleets();
    let a = encode::a_of(code);
    let b = encode::b_of(code);
    match k {
        kind::HOLD => OK,
        kind::MOVE => {
            let dp = map.prov_of[a] as usize;
            if dp == p {
                return MOVE_TO_SELF;
            }
            if !u.fleet {
                if map.is_sea(dp) {
                    return ARMY_TO_SEA;
                }
                if has(map.convoy_reach(p, fleets, 0).0, dp) {
                    return OK;
                }
                if !has(map.army_adj[p], dp) {
                    return NOT_ADJACENT;
                }
                if encode::via_of(code) {
                    return NO_CONVOY_ROUTE;
                }
                return OK;
            }
            if encode::via_of(code) {
                return CONVOY_OF_FLEET;
            }
            fleet_destination(map, here, a)
        }
        kind::SUPPORT_HOLD => {
            if !st.units[a].is_some() {
                return NO_SUPPORTED_UNIT;
            }
            if a == p {
                return SUPPORT_SELF;
            }
            if !can_reach(map, u.fleet, here, p, a) {
                return CANNOT_SUPPORT;
            }
            OK
        }
        kind::SUPPORT_MOVE => {
            let mover = st.units[a];
            if !mover.is_some() {
                return NO_SUPPORTED_UNIT;
            }
            let dp = map.prov_of[b] as usize;
            if a == p {
                return SUPPORT_SELF;
            }
            if dp == p {
                return CANNOT_SUPPORT; // DATC 6.D.34
            }
            if !can_reach(map, u.fleet, here, p, dp) {
                return CANNOT_SUPPORT; // DATC 6.B.5
            }
            if !move_possible(map, st, a, b, fleets, p) {
                return IMPOSSIBLE_MOVE; // DATC 4.E.1, 6.A.5, 6.D.31
            }
            OK
        }
        _ => {
            if !map.is_sea(p) {
                return CONVOY_NOT_AT_SEA;
            }
            let army = st.units[a];
            if !army.is_some() {
                return NO_SUPPORTED_UNIT;
            }
            if army.fleet {
                return CONVOY_OF_FLEET; // DATC 6.A.7
            }
            if b == a {
                return MOVE_TO_SELF;
            }
            if !has(legal.route_seas(map, st, a, b), p) {
                return CONVOY_IMPOSSIBLE; // DATC 6.G.19, 4.E.1
            }
            OK
        }
    }
}

/// A fleet at `here` ordered to location `dest`: `OK` or why not (DATC 4.B.1-4.B.3).
fn fleet_destination(map: &GameMap, here: usize, dest: usize) -> u8 {
    let dp = map.prov_of[dest] as usize;
    if map.kind[dp] == super::game_map::LAND {
        return FLEET_TO_LAND;
    }
    let reachable = map.fleet_adj[here] & map.locs_of(dp);
    if reachable == 0 {
        return NOT_ADJACENT;
    }
    if dest != dp {
        return if has(reachable, dest) { OK } else { BAD_COAST };
    }
    if reachable.count_ones() > 1 {
        return COAST_NEEDED;
    }
    OK
}

/// Whether the unit in province `m` could move to `dest` (DATC 6.D.31: a convoy route must not
/// need the supporter in `avoid`).
fn move_possible(
    map: &GameMap,
    st: &State,
    m: usize,
    dest: usize,
    fleets: u128,
    avoid: usize,
) -> bool {
    let mover = st.units[m];
    let dp = map.prov_of[dest] as usize;
    if dp == m {
        return false;
    }
    if !mover.fleet {
        if map.is_sea(dp) {
            return false;
        }
        return has(map.army_adj[m], dp) || has(map.convoy_reach(m, fleets, bit(avoid)).0, dp);
    }
    let reachable = map.fleet_adj[mover.loc as usize] & map.locs_of(dp);
    if dest != dp {
        has(reachable, dest)
    } else {
        reachable != 0
    }
}

fn why_retreat(map: &GameMap, st: &State, power: u8, code: u32) -> u8 {
    let k = encode::kind_of(code);
    if k != kind::MOVE && k != kind::RETREAT && k != kind::DISBAND {
        return WRONG_PHASE; // DATC 6.H.1, 6.H.2
    }
    let p = map.prov_of[encode::loc_of(code)] as usize;
    let d = st.dislodged[p];
    if !d.is_some() {
        return NOT_DISLODGED;
    }
    if power != NO_POWER && d.power != power {
        return FOREIGN_UNIT;
    }
    if k == kind::DISBAND {
        return OK;
    }
    let a = encode::a_of(code);
    let dp = map.prov_of[a] as usize;
    let options = st.retreats[p];
    let mut dest = a;
    if !d.fleet {
        dest = dp; // DATC 4.B.6
    } else if a == dp && !has(options, a) {
        let coasts = options & map.coasts[dp];
        if coasts.count_ones() > 1 {
            return COAST_NEEDED;
        }
        if coasts != 0 {
            dest = coasts.trailing_zeros() as usize;
        }
    }
    if has(options, dest) {
        OK
    } else {
        BAD_RETREAT
    }
}

fn why_adjustment(map: &GameMap, st: &State, power: u8, code: u32) -> u8 {
    let k = encode::kind_of(code);
    if k != kind::BUILD && k != kind::DISBAND && k != kind::WAIVE {
        return WRONG_PHASE;
    }
    let loc = encode::loc_of(code);
    // Whose order it is: the submitter; without one, the power the code itself names.
    let who = if power != NO_POWER {
        power as usize
    } else {
        match k {
            kind::WAIVE => loc,
            kind::DISBAND => {
                let u = st.units[map.prov_of[loc] as usize];
                if !u.is_some() {
                    return NO_UNIT;
                }
                u.power as usize
            }
            _ => {
                // A build is its centre's owner's order (a build site is an owned centre);
                // an unowned home centre's, its home power's.
                let prov = map.prov_of[loc] as usize;
                let owner = st.centers[prov];
                let h = if owner != NO_POWER {
                    owner
                } else {
                    map.home_of[prov]
                };
                if h == NO_POWER {
                    return NOT_HOME_CENTER;
                }
                h as usize
            }
        }
    };
    let mut centers = 0i64;
    let mut units = 0i64;
    for q in 0..map.provinces {
        if st.centers[q] == who as u8 {
            centers += 1;
        }
        if st.units[q].is_some() && st.units[q].power == who as u8 {
            units += 1;
        }
    }
    let owed = centers - units;
    match k {
        kind::WAIVE => {
            if owed <= 0 {
                NO_BUILDS
            } else {
                OK
            }
        }
        kind::DISBAND => {
            if owed >= 0 {
                return NO_DISBANDS;
            }
            let u = st.units[map.prov_of[loc] as usize];
            if !u.is_some() {
                NO_UNIT
            } else if u.power as usize != who {
                FOREIGN_UNIT
            } else {
                OK
            }
        }
        _ => {
            if owed <= 0 {
                return NO_BUILDS;
            }
            let prov = map.prov_of[loc] as usize;
            // The rules' build sites decide (`Rules::build_sites`); here only the reason, in
            // `diplo.validation`'s order.
            if !has(st.rules.build_sites(map, st, who), prov) {
                if st.rules.build_sites == BuildSites::HomeCentres
                    && (map.home_of[prov] as usize != who || map.home_of[prov] == NO_POWER)
                {
                    return NOT_HOME_CENTER;
                }
                if !has(map.centers, prov) {
                    return NOT_HOME_CENTER;
                }
                if st.centers[prov] != who as u8 {
                    return CENTER_NOT_OWNED;
                }
                return OCCUPIED;
            }
            if !encode::fleet_of(code) {
                return OK; // DATC 4.B.6: a coast on an army build is ignored.
            }
            if map.kind[prov] == super::game_map::LAND {
                return FLEET_TO_LAND; // DATC 4.C.4, 6.I.2
            }
            if map.coasts[prov] != 0 && loc == prov {
                return COAST_NEEDED; // DATC 4.B.7
            }
            OK
        }
    }
}
