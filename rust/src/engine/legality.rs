//! Legality in the game engine, in one place: the complete legal-order list of every orderable
//! slot, legality of a submitted code as membership in that list, and why a refused code is
//! refused (`diplo.validation`'s reason codes, [`reason`], named by [`NAMES`]).
//!
//! Each rule is decided once, by a rule function that gives its refusal reason (`OK` when the
//! rule allows the order) and that both the lists and the reasons use: `support_reach`
//! (DATC 6.B.5, 6.D.34), `army_move` (DATC 4.E.1, 6.D.32 on the phase's sea reach),
//! `fleet_move` (DATC 4.B.1-4.B.3), `support_hold` and `support_move` (the supported unit; the
//! rule itself in `support_hold_in` and `support_move_in`, which take the supporter's reach),
//! `retreat_destination` (DATC 4.B.6, the retreat options), `owed` and `adjustment` (who
//! builds or disbands), `fleet_build` (DATC 4.C.4, 4.B.7). Where a rule is a search (the convoy
//! routes, DATC 6.G.19; a supported move that must not need the supporting fleet, DATC 6.D.31)
//! the reason is membership in the section of the list the search made.
//!
//! The lists are exactly `diplo.legal.legal_orders` (which is exactly what `diplo.validation`
//! accepts), encoded. A submitted code is first put in its normal form by [`Legal::canonical`] —
//! what validation does to an order before it judges it: the ordered unit's real location (DATC
//! 4.B.5, 4.C.2), a fleet's only reachable coast filled in (4.B.2), a coast on an army's
//! destination or build dropped (4.B.6), an army's move support to a province — and then it is
//! legal exactly when its unit's list contains it ([`Legal::check`]). So there is one source of
//! truth for legality: the generator, built from the rule functions.
//!
//! Movement (per unit): the hold; moves to every neighbour (a fleet to each reachable coast apart;
//! an army also "via convoy" where fleets could carry it, DATC 4.E.1, 6.D.32) and to every coast
//! the fleets at sea could carry an army to (with and without "via"); supports to hold of every
//! unit in a province the supporter could enter, and supports of every possible move into such a
//! province (DATC 6.B.4: province level; from the supporter's own coast, 6.B.5; a fleet's move into a split-coast province supported
//! with the bare province and with each coast it can reach, DATC 6.B.9; a fleet cannot support a
//! convoyed move that needs it, DATC 6.D.31); for a fleet at sea, convoys of every army whose
//! *minimal* routes use that sea (DATC 6.G.19), routes running only through seas holding fleets
//! (DATC 6.D.32).
//!
//! Everything about convoys depends on the set of seas holding a fleet, so it is worked out once
//! per phase with 128-bit sets, and a unit's list is built on first use and kept until the state
//! changes (each state carries a `stamp`, see `phases`). The moves sections that are facts of the
//! map alone (a fleet's, an army's no fleet could carry) are listed once per map, by the same
//! code, and copied after.

use super::encode::{self, kind, well_formed, Code};
use super::game_map::{has, Bits, GameMap, Mask, LAND, NO_POWER};
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

/// One orderable slot: the power, and the province of the unit or build site (or, for the waive
/// of a power with no build site, the power index, `key_is_power`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub power: u8,
    pub key: u16,
    pub key_is_power: bool,
    start: u32,
    len: u32,
}

/// A minimal-route answer: the seas lying on some minimal convoy route from `army` to `dst`.
#[derive(Clone, Copy, Debug)]
struct Route<M> {
    army: u16,
    dst: u16,
    seas: M,
}

/// No list yet for a slot key.
const NO_SLOT: u32 = u32::MAX;

/// The legal-order tables of one state, with reusable buffers (see the module documentation).
pub struct Legal<M: Mask> {
    /// The state these tables describe (0: none).
    stamp: u64,
    tables: Tables<M>,
    routes_ready: bool,
    routes: Vec<Route<M>>,
    useful: M::Table<M>,
    codes: Vec<Code>,
    /// Per province (movement, retreat, adjustment site or unit), the index of its slot's list.
    slot_of: M::Table<u32>,
    slots: Vec<Slot>,
    /// Whether `slots` lists every slot of the phase.
    complete: bool,
    /// Adjustments: the waive slot of each power that may build, or NO_SLOT.
    power_slot: M::Table<u32>,
    /// Scratch of `all_slots`.
    spare: Vec<Slot>,
    /// Scratch of `check`: one section of a list.
    section: Vec<Code>,
    /// Scratch of `walk`: the routes still to extend.
    steps: Vec<Step<M>>,
    /// The moves sections that are facts of the map alone, for the map at `moves_of` (its
    /// address), listed by [`Tables::push_moves`] on first need and copied from here after:
    /// per location, the span in `move_codes` of a fleet's moves from there, and per province,
    /// of an army's when no fleet could carry it (`NO_SPAN`: not yet listed).
    move_codes: Vec<Code>,
    fleet_span: M::Table<Span>,
    army_span: M::Table<Span>,
    moves_of: usize,
    /// Per location, where a fleet there may move (valid where `fleet_span` is listed).
    fleet_dests: M::Table<M>,
}

/// A run of codes in a buffer.
#[derive(Clone, Copy, Debug)]
struct Span {
    start: u32,
    len: u32,
}

/// No span yet.
const NO_SPAN: Span = Span {
    start: u32::MAX,
    len: 0,
};

impl Span {
    fn listed(self) -> bool {
        self.start != u32::MAX
    }

    fn range(self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

/// What the movement lists are made of, worked out once per state: who could move where.
///
/// A unit's list is the concatenation of its *sections*: the hold ([`push_hold`]), the moves
/// ([`Tables::push_moves`]), per province it could enter the supports into that province
/// ([`Tables::push_supports`]) and, for a fleet at sea, the convoys ([`push_convoys`]).
/// Checking a code only needs the section it would be listed in, which is what
/// [`Legal::check`] builds when the unit's whole list has not been asked for.
struct Tables<M: Mask> {
    occupied: M,
    /// The provinces holding a fleet.
    afloat: M,
    fleets: M,
    /// Per province, the provinces whose unit could move into it.
    into: M::Table<M>,
    /// Per province, the provinces whose army could reach it only by convoy.
    convoy_only: M::Table<M>,
    /// Per army province, where the fleets at sea could carry it.
    by_sea: M::Table<M>,
    /// Per army province, the seas of fleets its convoys could use.
    closure: M::Table<M>,
}

// The rules. Each decides one rule and gives its reason ([`reason`]; `OK` when the rule allows
// the order): the lists are made with them, and `why` asks them in `diplo.validation`'s order.

/// Where the unit in `p` may support: the provinces it could enter itself (DATC 6.B.4: province
/// level, 6.B.5 from the supporter's own coast; never its own, DATC 6.D.34).
#[inline]
fn support_reach<M: Mask>(map: &GameMap<M>, st: &State<M>, p: usize) -> M {
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
fn army_move<M: Mask>(map: &GameMap<M>, t: &Tables<M>, p: usize, q: usize, via: bool) -> u8 {
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
fn fleet_move<M: Mask>(map: &GameMap<M>, here: usize, dest: usize) -> Result<usize, u8> {
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
fn support_hold<M: Mask>(map: &GameMap<M>, st: &State<M>, p: usize, a: usize) -> u8 {
    support_hold_in(support_reach(map, st, p), st, p, a)
}

/// [`support_hold`], the supporter's [`support_reach`] given (`reach`): the rule itself, for
/// the loops that ask it of one supporter many times.
#[inline(always)]
fn support_hold_in<M: Mask>(reach: M, st: &State<M>, p: usize, a: usize) -> u8 {
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
fn support_move<M: Mask>(map: &GameMap<M>, st: &State<M>, p: usize, a: usize, dp: usize) -> u8 {
    support_move_in(support_reach(map, st, p), st, p, a, dp)
}

/// [`support_move`], the supporter's [`support_reach`] given (`reach`): the rule itself, for
/// the loops that ask it of one supporter many times.
#[inline(always)]
fn support_move_in<M: Mask>(reach: M, st: &State<M>, p: usize, a: usize, dp: usize) -> u8 {
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
fn retreat_destination<M: Mask>(
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
fn owed_by<M: Mask>(map: &GameMap<M>, st: &State<M>, power: usize) -> i64 {
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
fn adjustment(k: u32, owed: i64) -> u8 {
    match k {
        kind::DISBAND if owed >= 0 => NO_DISBANDS,
        kind::DISBAND => OK,
        _ if owed <= 0 => NO_BUILDS,
        _ => OK,
    }
}

/// A fleet built at location `loc` of a build site: never inland (DATC 4.C.4, 6.I.2), on a
/// split coast only with the coast (DATC 4.B.7).
fn fleet_build<M: Mask>(map: &GameMap<M>, loc: usize) -> u8 {
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
fn convoys_from<M: Mask>(map: &GameMap<M>, st: &State<M>, p: usize) -> bool {
    st.units[p].fleet && map.may_convoy(p)
}

/// Section: the hold.
#[inline]
fn push_hold<M: Mask>(st: &State<M>, p: usize, out: &mut Vec<Code>) {
    out.push(encode::hold(st.units[p].loc as usize));
}

/// Section: the convoys of the fleet at sea in `p` (DATC 6.G.19, 4.E.1: only a fleet on some
/// minimal route may convoy the army).
fn push_convoys<M: Mask>(routes: &[Route<M>], st: &State<M>, p: usize, out: &mut Vec<Code>) {
    let loc = st.units[p].loc as usize;
    for r in routes {
        if has(r.seas, p) {
            out.push(encode::convoy(loc, r.army as usize, r.dst as usize));
        }
    }
}

impl<M: Mask> Tables<M> {
    /// Section: the moves of the unit in `p`.
    fn push_moves(&self, map: &GameMap<M>, st: &State<M>, p: usize, out: &mut Vec<Code>) {
        let u = st.units[p];
        let loc = u.loc as usize;
        if u.fleet {
            for m in Bits(map.fleet_adj[loc]) {
                if fleet_move(map, loc, m) == Ok(m) {
                    out.push(encode::move_to(loc, m, false));
                }
            }
            return;
        }
        // The neighbours, then the provinces only the fleets could carry it to; each plain and
        // "via convoy" where `army_move` allows.
        let land = map.army_adj[p];
        for q in Bits(land).chain(Bits(self.by_sea[p] & !land)) {
            for via in [false, true] {
                if army_move(map, self, p, q, via) == OK {
                    out.push(encode::move_to(loc, q, via));
                }
            }
        }
    }

    /// Sections: the supports by the unit in `p` into each province of `into` (provinces it
    /// could enter): to hold the unit there, and of every possible move into it (DATC 4.E.1) —
    /// a fleet's move into a split-coast province with the bare province and with each coast it
    /// can reach (DATC 6.B.9); a convoyed move only with a route that does not need this fleet
    /// (DATC 6.D.31).
    fn push_supports(
        &self,
        map: &GameMap<M>,
        st: &State<M>,
        p: usize,
        into: M,
        out: &mut Vec<Code>,
    ) {
        let loc = st.units[p].loc as usize;
        let at_sea = convoys_from(map, st, p);
        let reach = support_reach(map, st, p);
        let mut avoiding = None;
        for q in Bits(into) {
            if support_hold_in(reach, st, p, q) == OK {
                out.push(encode::support_hold(loc, q));
            }
            // The units that could move into `q` but the supporter's own (which
            // `support_move` refuses, SUPPORT_SELF: not even asked).
            let movers = self.into[q] & !M::bit(p);
            if movers.is_zero() {
                continue;
            }
            // What the moves into `q` need beyond the plain support: the coasts of a fleet's
            // move (none unless `q` is split), the route of a convoyed army (only a fleet that
            // may convoy could be on it).
            let coasts = map.coasts[q];
            let convoyed = if at_sea { self.convoy_only[q] } else { M::ZERO };
            if coasts.is_zero() && convoyed.is_zero() {
                // The common case: one support per unit that could move there.
                for m in Bits(movers) {
                    if support_move_in(reach, st, p, m, q) == OK {
                        out.push(encode::support_move(loc, m, q));
                    }
                }
                continue;
            }
            for m in Bits(movers) {
                if support_move_in(reach, st, p, m, q) != OK {
                    continue;
                }
                if !convoyed.is_zero()
                    && has(convoyed, m)
                    && has(self.closure[m], p)
                    && !has(
                        avoiding
                            .get_or_insert_with(Avoiding::new)
                            .reach(map, self.fleets, m, p),
                        q,
                    )
                {
                    continue; // the army's sea route needs this fleet
                }
                out.push(encode::support_move(loc, m, q));
                if !coasts.is_zero() && st.units[m].fleet {
                    for c in Bits(map.fleet_adj[st.units[m].loc as usize] & coasts) {
                        out.push(encode::support_move(loc, m, c));
                    }
                }
            }
        }
    }

    /// The length of [`Tables::push_moves`]'s section of the army in `p`, without listing it:
    /// per province it could reach, the plain move, and "via convoy" where the fleets could
    /// carry it there (`army_move`'s rules counted a province at a time).
    fn count_army_moves(&self, map: &GameMap<M>, p: usize) -> usize {
        let land = map.army_adj[p];
        let sea = self.by_sea[p];
        let mut n = 0;
        for q in Bits(land) {
            if !map.is_sea(q) {
                n += 1 + usize::from(has(sea, q));
            }
        }
        for q in Bits(sea & !land) {
            if !map.is_sea(q) {
                n += 2;
            }
        }
        debug_assert_eq!(
            n,
            Bits(land)
                .chain(Bits(sea & !land))
                .map(|q| [false, true]
                    .into_iter()
                    .filter(|&via| army_move(map, self, p, q, via) == OK)
                    .count())
                .sum::<usize>()
        );
        n
    }

    /// The length of [`Tables::push_supports`]'s section for the one province `q` of `reach`
    /// (the supporter's [`support_reach`]), without listing it: the same rules, counted a set
    /// at a time.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn count_supports_into(
        &self,
        map: &GameMap<M>,
        st: &State<M>,
        p: usize,
        reach: M,
        q: usize,
        at_sea: bool,
        avoiding: &mut Option<Avoiding<M>>,
    ) -> usize {
        debug_assert_eq!(reach, support_reach(map, st, p));
        debug_assert!(has(reach, q));
        // `support_hold` and `support_move` with `q` in the reach: a unit in `q`, and every
        // unit that could move there but the supporter, unless `q` is its own province.
        if q == p {
            return 0;
        }
        let into = self.into[q];
        let mut n =
            usize::from(has(self.occupied, q)) + into.count() as usize - usize::from(has(into, p));
        debug_assert_eq!(
            usize::from(has(self.occupied, q)),
            usize::from(support_hold(map, st, p, q) == OK)
        );
        if !map.coasts[q].is_zero() || at_sea {
            n = n + self.count_coasts(map, st, p, q, into)
                - self.count_needing(map, st, p, q, into, at_sea, avoiding);
        }
        n
    }

    /// Moves of fleets into the split-coast province `q` are listed once more per coast of
    /// `q` they can reach (DATC 6.B.9): how many more.
    fn count_coasts(&self, map: &GameMap<M>, st: &State<M>, p: usize, q: usize, into: M) -> usize {
        let coasts = map.coasts[q];
        if coasts.is_zero() {
            return 0;
        }
        Bits(into & self.afloat & !M::bit(p))
            .map(|m| Bits(map.fleet_adj[st.units[m].loc as usize] & coasts).count())
            .sum()
    }

    /// How many armies' moves into `q` the fleet in `p` may not support because their sea
    /// route needs it (DATC 6.D.31).
    #[allow(clippy::too_many_arguments)]
    fn count_needing(
        &self,
        map: &GameMap<M>,
        st: &State<M>,
        p: usize,
        q: usize,
        into: M,
        at_sea: bool,
        avoiding: &mut Option<Avoiding<M>>,
    ) -> usize {
        if !at_sea {
            return 0;
        }
        let mut n = 0;
        for m in Bits(into & !self.afloat & self.convoy_only[q] & !M::bit(p)) {
            if has(self.closure[m], p) {
                let cache = avoiding.get_or_insert_with(Avoiding::new);
                n += usize::from(!has(cache.reach(map, self.fleets, m, p), q));
            }
        }
        debug_assert!(st.units[p].fleet);
        n
    }
}

/// 6.D.31: per army, its reach by sea without the supporting fleet, worked out on first need
/// and kept for a few armies (one supporter at a time).
struct Avoiding<M> {
    armies: [u16; 8],
    reach: [M; 8],
    cached: usize,
}

impl<M: Mask> Avoiding<M> {
    fn new() -> Avoiding<M> {
        Avoiding {
            armies: [0; 8],
            reach: [M::ZERO; 8],
            cached: 0,
        }
    }

    /// Where the army in `m` could be carried by the fleets `fleets` other than the one in `p`.
    fn reach(&mut self, map: &GameMap<M>, fleets: M, m: usize, p: usize) -> M {
        if let Some(i) = self.armies[..self.cached]
            .iter()
            .position(|&x| x as usize == m)
        {
            return self.reach[i];
        }
        let r = map.convoy_reach(m, fleets, M::bit(p)).0;
        if self.cached < self.armies.len() {
            self.armies[self.cached] = m as u16;
            self.reach[self.cached] = r;
            self.cached += 1;
        }
        r
    }
}

impl<M: Mask> Default for Legal<M> {
    fn default() -> Self {
        Legal {
            stamp: 0,
            tables: Tables {
                occupied: M::ZERO,
                afloat: M::ZERO,
                fleets: M::ZERO,
                into: M::table(M::ZERO),
                convoy_only: M::table(M::ZERO),
                by_sea: M::table(M::ZERO),
                closure: M::table(M::ZERO),
            },
            routes_ready: false,
            routes: Vec::new(),
            useful: M::table(M::ZERO),
            codes: Vec::new(),
            slot_of: M::table(NO_SLOT),
            slots: Vec::new(),
            complete: false,
            power_slot: M::table(NO_SLOT),
            spare: Vec::new(),
            section: Vec::new(),
            steps: Vec::new(),
            move_codes: Vec::new(),
            fleet_span: M::table(NO_SPAN),
            army_span: M::table(NO_SPAN),
            moves_of: 0,
            fleet_dests: M::table(M::ZERO),
        }
    }
}

impl<M: Mask> Legal<M> {
    /// Makes the tables describe `st` (whose stamp is `stamp`); a no-op when they already do.
    pub fn prepare(&mut self, map: &GameMap<M>, st: &State<M>, stamp: u64) {
        if self.stamp == stamp && stamp != 0 {
            return;
        }
        self.stamp = stamp;
        self.codes.clear();
        self.slots.clear();
        self.slot_of.as_mut()[..map.provinces].fill(NO_SLOT);
        self.complete = false;
        self.routes_ready = false;
        self.routes.clear();
        match st.kind {
            MOVEMENT => self.prepare_movement(map, st),
            ADJUSTMENTS => self.prepare_adjustments(map, st),
            _ => {}
        }
    }

    /// Forgets the state described (after an interrupted call).
    pub fn invalidate(&mut self) {
        self.stamp = 0;
    }

    fn prepare_movement(&mut self, map: &GameMap<M>, st: &State<M>) {
        let p = map.provinces;
        let t = &mut self.tables;
        let mut occupied = M::ZERO;
        let mut afloat = M::ZERO;
        for q in 0..p {
            if st.units[q].is_some() {
                occupied |= M::bit(q);
                if st.units[q].fleet {
                    afloat |= M::bit(q);
                }
            }
        }
        // The fleets that could convoy: at sea or in a port.
        let fleets = afloat & map.carriers;
        t.occupied = occupied;
        t.afloat = afloat;
        t.fleets = fleets;
        t.into.as_mut()[..p].fill(M::ZERO);
        t.convoy_only.as_mut()[..p].fill(M::ZERO);
        for m in Bits(occupied) {
            let u = st.units[m];
            if u.fleet {
                for q in Bits(map.fleet_reach[u.loc as usize]) {
                    t.into[q] |= M::bit(m);
                }
            } else {
                let land = map.army_adj[m];
                let (sea, closure) = if !(map.shore_seas[m] & fleets).is_zero() {
                    map.convoy_reach(m, fleets, M::ZERO)
                } else {
                    (M::ZERO, M::ZERO)
                };
                t.by_sea[m] = sea;
                t.closure[m] = closure;
                for q in Bits(land | sea) {
                    t.into[q] |= M::bit(m);
                }
                for q in Bits(sea & !land) {
                    t.convoy_only[q] |= M::bit(m);
                }
            }
        }
    }

    fn prepare_adjustments(&mut self, map: &GameMap<M>, st: &State<M>) {
        let mut occupied = M::ZERO;
        for q in 0..map.provinces {
            if st.units[q].is_some() {
                occupied |= M::bit(q);
            }
        }
        self.power_slot.as_mut()[..map.powers].fill(NO_SLOT);
        // What each power owes (`owed`), counted in one pass over the board.
        let mut owes = M::table(0i64);
        for q in 0..map.provinces {
            let c = st.centers[q];
            if (c as usize) < map.powers {
                owes[c as usize] += 1;
            }
            let u = st.units[q];
            if u.is_some() && (u.power as usize) < map.powers {
                owes[u.power as usize] -= 1;
            }
        }
        for power in 0..map.powers {
            let owed = owes[power];
            debug_assert_eq!(owed, owed_by(map, st, power));
            if adjustment(kind::BUILD, owed) == OK {
                let sites = st.rules.build_sites(map, st, power);
                for q in Bits(sites) {
                    self.open_slot(power, q, false);
                    self.codes.push(encode::build(q, false));
                    for l in Bits(map.locs_of(q)) {
                        if fleet_build(map, l) == OK {
                            self.codes.push(encode::build(l, true));
                        }
                    }
                    self.close_slot();
                }
                // DATC 4.D.7: the waive, legal even with nowhere to build, in a slot of its own
                // after the power's build sites: orders given slot by slot put it after every
                // build, where it can only use a build left over, never void a chosen one.
                self.open_slot(power, power, true);
                self.codes.push(encode::waive(power));
                self.close_slot();
            } else if adjustment(kind::DISBAND, owed) == OK {
                for q in Bits(occupied) {
                    let u = st.units[q];
                    if u.power == power as u8 {
                        self.open_slot(power, q, false);
                        self.codes.push(encode::disband(u.loc as usize));
                        self.close_slot();
                    }
                }
            }
        }
        self.complete = true;
    }

    fn open_slot(&mut self, power: usize, key: usize, key_is_power: bool) {
        let index = self.slots.len() as u32;
        if key_is_power {
            self.power_slot[power] = index;
        } else {
            self.slot_of[key] = index;
        }
        self.slots.push(Slot {
            power: power as u8,
            key: key as u16,
            key_is_power,
            start: self.codes.len() as u32,
            len: 0,
        });
    }

    fn close_slot(&mut self) {
        let end = self.codes.len() as u32;
        if let Some(s) = self.slots.last_mut() {
            s.len = end - s.start;
        }
    }

    /// The codes of one slot.
    pub fn codes_of(&self, slot: &Slot) -> &[Code] {
        &self.codes[slot.start as usize..(slot.start + slot.len) as usize]
    }

    /// Every slot of the phase, in order: movement, every unit by province; retreats, every
    /// dislodged unit by province; adjustments, per power in map order its build sites by
    /// province (each list: the builds there) and then its waive, or its units by province
    /// (each list: the disband).
    pub fn all_slots(&mut self, map: &GameMap<M>, st: &State<M>) {
        if !self.complete {
            let mut order = M::table(0u32);
            let mut count = 0;
            for q in 0..map.provinces {
                let present = if st.kind == MOVEMENT {
                    st.units[q].is_some()
                } else {
                    st.dislodged[q].is_some()
                };
                if present {
                    order[count] = self.unit_slot(map, st, q);
                    count += 1;
                }
            }
            // Lazily built lists come in the order they were asked for; put them in province
            // order.
            let mut sorted = std::mem::take(&mut self.spare);
            sorted.clear();
            sorted.extend(
                order.as_ref()[..count]
                    .iter()
                    .map(|&i| self.slots[i as usize]),
            );
            std::mem::swap(&mut self.slots, &mut sorted);
            self.spare = sorted;
            for (i, s) in self.slots.iter().enumerate() {
                self.slot_of[s.key as usize] = i as u32;
            }
            self.complete = true;
        }
    }

    /// The slots listed so far (all of them after [`Legal::all_slots`]).
    pub fn slots(&self) -> &[Slot] {
        &self.slots
    }

    /// The slot of the unit (movement) or dislodged unit (retreats) in province `q`, its list
    /// built on first use. The province must hold such a unit.
    fn unit_slot(&mut self, map: &GameMap<M>, st: &State<M>, q: usize) -> u32 {
        let index = self.slot_of[q];
        if index != NO_SLOT {
            return index;
        }
        if st.kind == MOVEMENT {
            let power = st.units[q].power as usize;
            self.open_slot(power, q, false);
            self.movement_list(map, st, q);
        } else {
            let power = st.dislodged[q].power as usize;
            self.open_slot(power, q, false);
            self.retreat_list(map, st, q);
        }
        self.close_slot();
        self.slot_of[q]
    }

    /// How many legal orders the unit in province `q` has in a movement phase: the length of
    /// its list, without making it (the same rules, counted a set at a time where they allow;
    /// [`Legal::prepare`] first). The province must hold a unit.
    pub fn movement_count(&mut self, map: &GameMap<M>, st: &State<M>, q: usize) -> usize {
        let index = self.slot_of[q];
        if index != NO_SLOT {
            return self.slots[index as usize].len as usize;
        }
        let mut n = 1 + self.count_moves(map, st, q);
        let t = &self.tables;
        let at_sea = convoys_from(map, st, q);
        let mut avoiding = None;
        let reach = support_reach(map, st, q);
        for into in Bits(reach) {
            n += t.count_supports_into(map, st, q, reach, into, at_sea, &mut avoiding);
        }
        if at_sea {
            self.ensure_routes(map, st);
            n += self.routes.iter().filter(|r| has(r.seas, q)).count();
        }
        n
    }

    /// The length of the moves section of the unit in `p` ([`Tables::push_moves`]).
    fn count_moves(&mut self, map: &GameMap<M>, st: &State<M>, p: usize) -> usize {
        if let Some(span) = self.map_moves(map, st, p) {
            return span.len as usize;
        }
        self.tables.count_army_moves(map, p)
    }

    /// The span in `move_codes` of the moves section of the unit in `p` when that section is a
    /// fact of the map alone — a fleet's (`fleet_move` depends on where it is alone), an army's
    /// that no fleet could carry (`army_move` then depends on the map alone) — listed by
    /// [`Tables::push_moves`] on first need; `None` for an army the fleets could carry.
    fn map_moves(&mut self, map: &GameMap<M>, st: &State<M>, p: usize) -> Option<Span> {
        let key = map as *const GameMap<M> as usize;
        if self.moves_of != key {
            self.fleet_span.as_mut().fill(NO_SPAN);
            self.army_span.as_mut().fill(NO_SPAN);
            self.move_codes.clear();
            self.moves_of = key;
        }
        let u = st.units[p];
        let loc = u.loc as usize;
        let span = if u.fleet {
            self.fleet_span[loc]
        } else if self.tables.by_sea[p].is_zero() {
            self.army_span[p]
        } else {
            return None;
        };
        if span.listed() {
            return Some(span);
        }
        let start = self.move_codes.len();
        self.tables.push_moves(map, st, p, &mut self.move_codes);
        let span = Span {
            start: start as u32,
            len: (self.move_codes.len() - start) as u32,
        };
        if u.fleet {
            let mut dests = M::ZERO;
            for &c in &self.move_codes[span.range()] {
                dests |= M::bit(encode::a_of(c));
            }
            self.fleet_dests[loc] = dests;
            self.fleet_span[loc] = span;
        } else {
            debug_assert_eq!(span.len as usize, self.tables.count_army_moves(map, p));
            self.army_span[p] = span;
        }
        Some(span)
    }

    /// The `i`-th entry of the list of the unit in province `q` in a movement phase (`None`
    /// past its end), making only the section it lies in ([`Legal::prepare`] first). The
    /// province must hold a unit.
    pub fn movement_nth(
        &mut self,
        map: &GameMap<M>,
        st: &State<M>,
        q: usize,
        i: usize,
    ) -> Option<Code> {
        let index = self.slot_of[q];
        if index != NO_SLOT {
            let s = self.slots[index as usize];
            return self.codes_of(&s).get(i).copied();
        }
        if i == 0 {
            return Some(encode::hold(st.units[q].loc as usize));
        }
        let mut i = i - 1;
        let moves = self.count_moves(map, st, q);
        let mut section = std::mem::take(&mut self.section);
        section.clear();
        let found = 'found: {
            let t = &self.tables;
            if i < moves {
                let u = st.units[q];
                let loc = u.loc as usize;
                // The common cases without a list: a fleet (its moves are the map's), an army
                // no fleet could carry (one move per neighbouring land province).
                let plain = if u.fleet {
                    Some(self.fleet_dests[loc])
                } else if t.by_sea[q].is_zero() {
                    let mut land = M::ZERO;
                    for d in Bits(map.army_adj[q]) {
                        if !map.is_sea(d) {
                            land |= M::bit(d);
                        }
                    }
                    Some(land)
                } else {
                    None
                };
                if let Some(dests) = plain {
                    let code = Bits(dests).nth(i).map(|d| encode::move_to(loc, d, false));
                    if cfg!(debug_assertions) {
                        t.push_moves(map, st, q, &mut section);
                        debug_assert_eq!(code, section.get(i).copied());
                    }
                    break 'found code;
                }
                t.push_moves(map, st, q, &mut section);
                debug_assert_eq!(section.len(), moves);
                break 'found section.get(i).copied();
            }
            i -= moves;
            let at_sea = convoys_from(map, st, q);
            let mut avoiding = None;
            let reach = support_reach(map, st, q);
            for into in Bits(reach) {
                let n = t.count_supports_into(map, st, q, reach, into, at_sea, &mut avoiding);
                if i < n {
                    if map.coasts[into].is_zero() && !at_sea && into != q {
                        // The common case without a list: the hold of the unit there, then
                        // every other unit that could move there, by province.
                        let loc = st.units[q].loc as usize;
                        let held = has(t.occupied, into);
                        let code = if held && i == 0 {
                            Some(encode::support_hold(loc, into))
                        } else {
                            Bits(t.into[into] & !M::bit(q))
                                .nth(i - usize::from(held))
                                .map(|m| encode::support_move(loc, m, into))
                        };
                        if cfg!(debug_assertions) {
                            t.push_supports(map, st, q, M::bit(into), &mut section);
                            debug_assert_eq!(code, section.get(i).copied());
                        }
                        break 'found code;
                    }
                    t.push_supports(map, st, q, M::bit(into), &mut section);
                    debug_assert_eq!(section.len(), n);
                    break 'found section.get(i).copied();
                }
                i -= n;
            }
            if !at_sea {
                break 'found None;
            }
            self.ensure_routes(map, st);
            let loc = st.units[q].loc as usize;
            self.routes
                .iter()
                .filter(|r| has(r.seas, q))
                .nth(i)
                .map(|r| encode::convoy(loc, r.army as usize, r.dst as usize))
        };
        self.section = section;
        found
    }

    /// A unit's whole list: the concatenation of its sections (see [`Tables`]).
    fn movement_list(&mut self, map: &GameMap<M>, st: &State<M>, p: usize) {
        push_hold(st, p, &mut self.codes);
        match self.map_moves(map, st, p) {
            Some(span) => {
                let start = self.codes.len();
                self.codes.extend_from_slice(&self.move_codes[span.range()]);
                if cfg!(debug_assertions) {
                    let mut fresh = std::mem::take(&mut self.section);
                    fresh.clear();
                    self.tables.push_moves(map, st, p, &mut fresh);
                    debug_assert_eq!(self.codes[start..], fresh[..]);
                    self.section = fresh;
                }
            }
            None => self.tables.push_moves(map, st, p, &mut self.codes),
        }
        let t = &self.tables;
        let codes = &mut self.codes;
        t.push_supports(map, st, p, support_reach(map, st, p), codes);
        if convoys_from(map, st, p) {
            self.ensure_routes(map, st);
            push_convoys(&self.routes, st, p, &mut self.codes);
        }
    }

    fn retreat_list(&mut self, map: &GameMap<M>, st: &State<M>, p: usize) {
        let loc = st.dislodged[p].loc as usize;
        for o in Bits(st.retreats[p]) {
            if retreat_destination(map, st, p, o) == Ok(o) {
                self.codes.push(encode::retreat(loc, o));
            }
        }
        self.codes.push(encode::disband(loc));
    }

    /// For every army a convoy could carry: per destination, the seas on some minimal route
    /// (the definition of `diplo.convoys.route_fleets`: an induced chain of fleet seas, only its
    /// first touching the army's province and only its last the destination).
    fn ensure_routes(&mut self, map: &GameMap<M>, st: &State<M>) {
        if self.routes_ready {
            return;
        }
        self.routes_ready = true;
        self.routes.clear();
        let fleets = self.tables.fleets;
        for a in Bits(self.tables.occupied & map.shores) {
            if st.units[a].fleet || self.tables.by_sea[a].is_zero() {
                continue;
            }
            let src_seas = map.shore_seas[a] & fleets;
            let mut found = M::ZERO;
            for first in Bits(src_seas) {
                walk(
                    map,
                    fleets,
                    src_seas,
                    Step {
                        path: M::bit(first),
                        last: first,
                        blocked: M::bit(first),
                        touched: M::bit(a),
                    },
                    &mut self.steps,
                    &mut self.useful,
                    &mut found,
                );
            }
            for d in Bits(found) {
                self.routes.push(Route {
                    army: a as u16,
                    dst: d as u16,
                    seas: self.useful[d],
                });
                self.useful[d] = M::ZERO;
            }
        }
    }

    /// The seas holding a fleet (movement tables; [`Legal::prepare`] first).
    pub fn fleets(&self) -> M {
        self.tables.fleets
    }

    /// The seas on some minimal convoy route of the army in province `army` to province `dst`
    /// (`diplo.convoys.route_fleets`); empty when no convoy could carry it there.
    pub fn route_seas(&mut self, map: &GameMap<M>, st: &State<M>, army: usize, dst: usize) -> M {
        self.ensure_routes(map, st);
        self.routes
            .iter()
            .find(|r| r.army as usize == army && r.dst as usize == dst)
            .map_or(M::ZERO, |r| r.seas)
    }

    /// The normal form of a submitted code in `st` and the key of the slot it belongs to (the
    /// province of the unit, dislodged unit or build site; the power for a waive), or `None` when
    /// the code is malformed or names no unit that could take it. Not yet a verdict: see
    /// [`Legal::check`].
    pub fn canonical(map: &GameMap<M>, st: &State<M>, code: Code) -> Option<(usize, Code)> {
        if !well_formed(code, map.locations, map.provinces, map.powers) {
            return None;
        }
        let k = encode::kind_of(code);
        let loc = encode::loc_of(code);
        let a = encode::a_of(code);
        let b = encode::b_of(code);
        let prov = map.prov_of[loc] as usize;
        match st.kind {
            MOVEMENT => {
                let u = st.units[prov];
                if !u.is_some() {
                    return None;
                }
                let here = u.loc as usize;
                let c = match k {
                    kind::HOLD => encode::hold(here),
                    kind::MOVE if !u.fleet => {
                        // DATC 4.B.6: a coast on an army's destination is ignored.
                        encode::move_to(here, map.prov_of[a] as usize, encode::via_of(code))
                    }
                    kind::MOVE => {
                        let dest = fleet_move(map, here, a).ok()?;
                        encode::move_to(here, dest, encode::via_of(code))
                    }
                    kind::SUPPORT_HOLD => encode::support_hold(here, a),
                    kind::SUPPORT_MOVE => {
                        let mover = st.units[a];
                        if !mover.is_some() {
                            return None;
                        }
                        // DATC 6.B.9 keeps a coast written for a fleet's move; an army moves to
                        // a province.
                        let dest = if mover.fleet {
                            b
                        } else {
                            map.prov_of[b] as usize
                        };
                        encode::support_move(here, a, dest)
                    }
                    kind::CONVOY => encode::convoy(here, a, b),
                    _ => return None,
                };
                Some((prov, c))
            }
            ADJUSTMENTS => match k {
                kind::BUILD => {
                    // Only a centre can be a build site; the slot lists decide the rest.
                    if !has(map.centers, prov) {
                        return None;
                    }
                    // DATC 4.B.6: a coast on an army build is ignored.
                    let c = if encode::fleet_of(code) {
                        code
                    } else {
                        encode::build(prov, false)
                    };
                    Some((prov, c))
                }
                kind::DISBAND => {
                    let u = st.units[prov];
                    u.is_some().then(|| (prov, encode::disband(u.loc as usize)))
                }
                kind::WAIVE => Some((loc, code)),
                _ => None,
            },
            _ => {
                let d = st.dislodged[prov];
                if !d.is_some() {
                    return None;
                }
                let here = d.loc as usize;
                match k {
                    kind::DISBAND => Some((prov, encode::disband(here))),
                    // A retreat may be written as a move.
                    kind::MOVE | kind::RETREAT => {
                        let dest = retreat_destination(map, st, prov, a).ok()?;
                        Some((prov, encode::retreat(here, dest)))
                    }
                    _ => None,
                }
            }
        }
    }

    /// The verdict on a submitted code: `Some((key, normal form))` when it is legal (its normal
    /// form is in its slot's list), else `None`. [`Legal::prepare`] must have been called for
    /// `st`.
    pub fn check(&mut self, map: &GameMap<M>, st: &State<M>, code: Code) -> Option<(usize, Code)> {
        let (key, c) = Self::canonical(map, st, code)?;
        let slot = match st.kind {
            ADJUSTMENTS => {
                let index = if encode::kind_of(c) == kind::WAIVE {
                    self.power_slot[key]
                } else {
                    self.slot_of[key]
                };
                if index == NO_SLOT {
                    return None;
                }
                index
            }
            MOVEMENT if self.slot_of[key] == NO_SLOT => {
                // The unit's list has not been asked for: build only the section the code
                // would be listed in.
                let mut section = std::mem::take(&mut self.section);
                section.clear();
                let listed = self.section_of(map, st, key, c, &mut section) && section.contains(&c);
                self.section = section;
                return listed.then_some((key, c));
            }
            _ => self.unit_slot(map, st, key),
        };
        let s = self.slots[slot as usize];
        self.codes_of(&s).contains(&c).then_some((key, c))
    }

    /// Fills `out` with the section of the list of the unit in `p` where the movement code `c`
    /// would be listed; false when no section of that unit could list it.
    fn section_of(
        &mut self,
        map: &GameMap<M>,
        st: &State<M>,
        p: usize,
        c: Code,
        out: &mut Vec<Code>,
    ) -> bool {
        match encode::kind_of(c) {
            kind::HOLD => push_hold(st, p, out),
            kind::MOVE => self.tables.push_moves(map, st, p, out),
            k @ (kind::SUPPORT_HOLD | kind::SUPPORT_MOVE) => {
                let q = if k == kind::SUPPORT_HOLD {
                    encode::a_of(c)
                } else {
                    map.prov_of[encode::b_of(c)] as usize
                };
                if !has(support_reach(map, st, p), q) {
                    return false;
                }
                self.tables.push_supports(map, st, p, M::bit(q), out);
            }
            kind::CONVOY => {
                if !convoys_from(map, st, p) {
                    return false;
                }
                self.ensure_routes(map, st);
                push_convoys(&self.routes, st, p, out);
            }
            _ => return false,
        }
        true
    }
}

/// One step of the minimal-route walk: the seas so far, the last, the seas no later step may
/// use (neighbours of earlier seas: a chord would make a shorter route) and the shores touched
/// before `last` (with the army's own province).
#[derive(Clone, Copy)]
struct Step<M> {
    path: M,
    last: usize,
    blocked: M,
    touched: M,
}

/// Every minimal route from the army's seas `src_seas` that starts with `start`: marks in
/// `useful` (per destination) the seas on such routes, and in `found` the destinations. An
/// explicit stack (`stack`, a reusable buffer), not recursion: a chain of a thousand seas is as
/// safe as a chain of three.
fn walk<M: Mask>(
    map: &GameMap<M>,
    fleets: M,
    src_seas: M,
    start: Step<M>,
    stack: &mut Vec<Step<M>>,
    useful: &mut M::Table<M>,
    found: &mut M,
) {
    stack.clear();
    stack.push(start);
    while let Some(s) = stack.pop() {
        let shores = map.sea_shores[s.last];
        let ends = shores & !s.touched;
        for d in Bits(ends) {
            useful[d] |= s.path;
        }
        *found |= ends;
        let touched = s.touched | shores;
        let adj = map.sea_adj[s.last] & fleets;
        let blocked = s.blocked | adj;
        for next in Bits(adj & !s.blocked & !src_seas & !s.path) {
            stack.push(Step {
                path: s.path | M::bit(next),
                last: next,
                blocked,
                touched,
            });
        }
    }
}

/// The reason `code`, submitted by `power` (`NO_POWER`: by the owner of whatever it orders),
/// is refused in `st`, or `OK`. [`Legal::prepare`] must have been called for `st`.
pub fn why<M: Mask>(
    legal: &mut Legal<M>,
    map: &GameMap<M>,
    st: &State<M>,
    power: u8,
    code: Code,
) -> u8 {
    if !well_formed(code, map.locations, map.provinces, map.powers) {
        return MALFORMED;
    }
    match st.kind {
        MOVEMENT => why_movement(legal, map, st, power, code),
        ADJUSTMENTS => why_adjustment(map, st, power, code),
        _ => why_retreat(map, st, power, code),
    }
}

fn why_movement<M: Mask>(
    legal: &mut Legal<M>,
    map: &GameMap<M>,
    st: &State<M>,
    power: u8,
    code: Code,
) -> u8 {
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
                return army_move(map, &legal.tables, p, dp, encode::via_of(code));
            }
            if encode::via_of(code) {
                return CONVOY_OF_FLEET;
            }
            fleet_move(map, here, a).err().unwrap_or(OK)
        }
        kind::SUPPORT_HOLD => support_hold(map, st, p, a),
        kind::SUPPORT_MOVE => {
            let r = support_move(map, st, p, a, map.prov_of[b] as usize);
            if r != OK {
                return r;
            }
            // Whether the supported move is possible (DATC 4.E.1, 6.A.5, 6.D.31): whether the
            // support is in the section of the list that search made.
            let Some((_, c)) = Legal::canonical(map, st, code) else {
                return IMPOSSIBLE_MOVE;
            };
            let mut section = std::mem::take(&mut legal.section);
            section.clear();
            let listed = legal.section_of(map, st, p, c, &mut section) && section.contains(&c);
            legal.section = section;
            if listed {
                OK
            } else {
                IMPOSSIBLE_MOVE
            }
        }
        _ => {
            if !convoys_from(map, st, p) {
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

fn why_retreat<M: Mask>(map: &GameMap<M>, st: &State<M>, power: u8, code: Code) -> u8 {
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
    retreat_destination(map, st, p, encode::a_of(code))
        .err()
        .unwrap_or(OK)
}

fn why_adjustment<M: Mask>(map: &GameMap<M>, st: &State<M>, power: u8, code: Code) -> u8 {
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
    let allowed = adjustment(k, owed_by(map, st, who));
    if allowed != OK {
        return allowed;
    }
    match k {
        kind::WAIVE => OK,
        kind::DISBAND => {
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
            fleet_build(map, loc)
        }
    }
}
