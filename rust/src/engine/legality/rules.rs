//! The rule functions: each decides one rule and gives its reason.

use super::*;

// The rules. Each decides one rule and gives its reason ([`reason`]; `OK` when the rule allows
// the order): the lists are made with them, and `why` asks them in `diplo.reference.validation`'s order.

/// Where the unit in `p` may support: the provinces it could enter itself (DATC 6.B.4: province
/// level, 6.B.5 from the supporter's own coast; never its own, DATC 6.D.34).
#[inline]
pub(super) fn support_reach<M: Mask>(map: &GameMap<M>, st: &State<M>, p: usize) -> M {
    let u = st.units[p];
    if u.fleet {
        map.fleet_reach[u.loc as usize]
    } else {
        map.army_adj[p]
    }
}

/// The army in `p` ordered to another province `q` (`via`: "via convoy"): over land to a
/// neighbour, or wherever the fleets at sea could carry it (DATC 4.E.1, 6.D.32: "via convoy"
/// needs such fleets).
#[inline]
pub(super) fn army_move<M: Mask>(
    map: &GameMap<M>,
    t: &Tables<M>,
    p: usize,
    q: usize,
    via: bool,
) -> u8 {
    if map.is_sea(q) {
        return ARMY_TO_SEA;
    }
    if has(t.by_sea[p], q) {
        return OK;
    }
    if !has(map.army_adj[p], q) {
        return NOT_ADJACENT;
    }
    if via {
        return NO_CONVOY_ROUTE;
    }
    OK
}

/// A fleet at location `here` ordered to location `dest`: the location it moves to (with one
/// coast of the province reachable, that coast, DATC 4.B.2), or why it cannot (DATC 4.B.1-4.B.3).
#[inline]
pub(super) fn fleet_move<M: Mask>(map: &GameMap<M>, here: usize, dest: usize) -> Result<usize, u8> {
    let dp = map.prov_of[dest] as usize;
    if map.kind[dp] == LAND {
        return Err(FLEET_TO_LAND);
    }
    let reachable = map.fleet_adj[here] & map.locs_of(dp);
    if reachable.is_zero() {
        return Err(NOT_ADJACENT);
    }
    if dest != dp {
        return if has(reachable, dest) {
            Ok(dest)
        } else {
            Err(BAD_COAST)
        };
    }
    if reachable.count() > 1 {
        return Err(COAST_NEEDED);
    }
    reachable.first().ok_or(NOT_ADJACENT)
}

/// The unit in `p` supporting the unit in province `a` to hold.
#[inline]
pub(super) fn support_hold<M: Mask>(map: &GameMap<M>, st: &State<M>, p: usize, a: usize) -> u8 {
    support_hold_in(support_reach(map, st, p), st, p, a)
}

/// [`support_hold`], the supporter's [`support_reach`] given (`reach`): the rule itself, for
/// the loops that ask it of one supporter many times.
#[inline(always)]
pub(super) fn support_hold_in<M: Mask>(reach: M, st: &State<M>, p: usize, a: usize) -> u8 {
    if !st.units[a].is_some() {
        return NO_SUPPORTED_UNIT;
    }
    if a == p {
        return SUPPORT_SELF;
    }
    if !has(reach, a) {
        return CANNOT_SUPPORT;
    }
    OK
}

/// The unit in `p` supporting the unit in province `a` into province `dp`, as far as the
/// supporter decides it; whether that move is possible (DATC 4.E.1, 6.A.5, 6.D.31) is the
/// search of [`Tables::push_supports`].
#[inline]
pub(super) fn support_move<M: Mask>(
    map: &GameMap<M>,
    st: &State<M>,
    p: usize,
    a: usize,
    dp: usize,
) -> u8 {
    support_move_in(support_reach(map, st, p), st, p, a, dp)
}

/// [`support_move`], the supporter's [`support_reach`] given (`reach`): the rule itself, for
/// the loops that ask it of one supporter many times.
#[inline(always)]
pub(super) fn support_move_in<M: Mask>(
    reach: M,
    st: &State<M>,
    p: usize,
    a: usize,
    dp: usize,
) -> u8 {
    if !st.units[a].is_some() {
        return NO_SUPPORTED_UNIT;
    }
    if a == p {
        return SUPPORT_SELF;
    }
    if dp == p {
        return CANNOT_SUPPORT; // DATC 6.D.34
    }
    if !has(reach, dp) {
        return CANNOT_SUPPORT; // DATC 6.B.4, 6.B.5
    }
    OK
}

/// The unit dislodged from `p` ordered to location `a`: the location it retreats to (an army to
/// the province, DATC 4.B.6; a fleet to the one coast among its options, in a province no unit
/// stands in), or why it cannot.
#[inline]
pub(super) fn retreat_destination<M: Mask>(
    map: &GameMap<M>,
    st: &State<M>,
    p: usize,
    a: usize,
) -> Result<usize, u8> {
    let dp = map.prov_of[a] as usize;
    let options = st.retreats[p];
    let mut dest = a;
    if !st.dislodged[p].fleet {
        dest = dp;
    } else if a == dp && !has(options, a) {
        let coasts = options & map.coasts[dp];
        if coasts.count() > 1 {
            return Err(COAST_NEEDED);
        }
        if let Some(c) = coasts.first() {
            dest = c;
        }
    }
    // Never where a unit stands: only MILA's lists (`retreat_after_convoy="any"`) name such a
    // province among the options.
    if has(options, dest) && !st.units[dp].is_some() {
        Ok(dest)
    } else {
        Err(BAD_RETREAT)
    }
}

/// What `power` owes in an adjustment phase: its centres less its units (more than zero:
/// builds; less: disbands).
pub(super) fn owed_by<M: Mask>(map: &GameMap<M>, st: &State<M>, power: usize) -> i64 {
    let mut owed = 0i64;
    for q in 0..map.provinces {
        if st.centers[q] == power as u8 {
            owed += 1;
        }
        if st.units[q].is_some() && st.units[q].power == power as u8 {
            owed -= 1;
        }
    }
    owed
}

/// An adjustment order of kind `k` by a power that owes `owed`: builds and the waive (DATC
/// 4.D.7) when it owes builds, disbands when it owes disbands.
pub(super) fn adjustment(k: u32, owed: i64) -> u8 {
    match k {
        kind::DISBAND if owed >= 0 => NO_DISBANDS,
        kind::DISBAND => OK,
        _ if owed <= 0 => NO_BUILDS,
        _ => OK,
    }
}

/// A fleet built at location `loc` of a build site: never inland (DATC 4.C.4, 6.I.2), on a
/// split coast only with the coast (DATC 4.B.7).
pub(super) fn fleet_build<M: Mask>(map: &GameMap<M>, loc: usize) -> u8 {
    let prov = map.prov_of[loc] as usize;
    if map.kind[prov] == LAND {
        return FLEET_TO_LAND;
    }
    if !map.coasts[prov].is_zero() && loc == prov {
        return COAST_NEEDED;
    }
    OK
}

/// Whether the unit in `p` may convoy: a fleet at sea or in a port (DATC 6.F.1;
/// [`GameMap::may_convoy`]).
#[inline]
pub(super) fn convoys_from<M: Mask>(map: &GameMap<M>, st: &State<M>, p: usize) -> bool {
    st.units[p].fleet && map.may_convoy(p)
}

/// Section: the hold.
#[inline]
pub(super) fn push_hold<M: Mask>(st: &State<M>, p: usize, out: &mut Vec<Code>) {
    out.push(encode::hold(st.units[p].loc as usize));
}

/// Section: the convoys of the fleet at sea in `p` (DATC 6.G.19, 4.E.1: only a fleet on some
/// minimal route may convoy the army).
pub(super) fn push_convoys<M: Mask>(
    routes: &[Route<M>],
    st: &State<M>,
    p: usize,
    out: &mut Vec<Code>,
) {
    let loc = st.units[p].loc as usize;
    for r in routes {
        if has(r.seas, p) {
            out.push(encode::convoy(loc, r.army as usize, r.dst as usize));
        }
    }
}
