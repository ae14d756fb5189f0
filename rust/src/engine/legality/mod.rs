//! Legality in the game engine, in one place: the complete legal-order list of every orderable
//! slot, legality of a submitted code as membership in that list, and why a refused code is
//! refused (`diplo.reference.validation`'s reason codes, [`reason`], named by [`NAMES`]).
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
//! The lists are exactly `diplo.reference.legal.legal_orders` (which is exactly what `diplo.reference.validation`
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
//! convoyed move that needs it, DATC 6.D.31, but under MILA's `convoyed_support="any_route"`
//! any route from the army will do); for a fleet at sea, convoys of every army whose
//! *minimal* routes use that sea (DATC 6.G.19), routes running only through seas holding fleets
//! (DATC 6.D.32).
//!
//! Everything about convoys depends on the set of seas holding a fleet, so it is worked out once
//! per phase with sets of the map's width (an army's minimal routes on first need), and a unit's
//! list is built on first use and kept until the state changes (each state carries a `stamp`,
//! see `phases`); the per-province tables only the lists read (who could move into a province)
//! are made on the first listing or count. The moves sections that are facts of the
//! map alone (a fleet's, an army's no fleet could carry) are listed once per map, by the same
//! code, and copied after.
//!
//! # Files
//!
//! This file holds the reason codes, the tables' types and the lists; beside it: `rules` (the
//! rule functions), `tables` (the moves and supports sections), `count` (the environment's
//! counting, [`Legal::movement_count`] and [`Legal::movement_nth`], without listing), `check`
//! ([`Legal::canonical`] and [`Legal::check`]), `convoy` (the minimal-route walk), `seas` (the
//! fleets in connected groups: DATC 6.D.31 without one supporter) and `why` ([`why`]: the
//! reason a refused code is refused).

use super::encode::{self, kind, well_formed, Code};
use super::game_map::{has, Bits, GameMap, Mask, LAND, NO_POWER};
use super::rules::{some_home, BuildSites};
use super::state::{State, ADJUSTMENTS, MOVEMENT};

/// Reason codes, indexed as [`NAMES`]; `OK` is a legal order. Made by `rust/build.rs` from the
/// one table of reasons, `python/diplo/data/reasons.json` (append-only: rollout datasets store
/// the codes), which the Python package words them from.
pub mod reason {
    include!(concat!(env!("OUT_DIR"), "/refusal_codes.rs"));
}

include!(concat!(env!("OUT_DIR"), "/refusal_names.rs"));

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
    /// Whether `routes` holds the routes of every army (else of the armies `routed`).
    routes_ready: bool,
    routes: Vec<Route<M>>,
    /// The armies whose routes are in `routes`, and where (`Legal::army_routes`).
    routed: M,
    route_span: M::Table<Span>,
    /// Whether `routes` is in army order (armies walked for a check come in any order).
    routes_sorted: bool,
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
    /// The groups of the fleets but a supporter's (DATC 6.D.31), kept for one supporter.
    avoiding: Avoiding<M>,
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
/// Checking a code only needs the part of the section it would be listed in that could hold
/// it, which is what [`Legal::check`] builds, by the same code, when the unit's whole list has
/// not been asked for: an army's moves to the one province, the supports of the one unit's
/// moves into the one province, the convoys of the one army (whose routes alone are walked).
struct Tables<M: Mask> {
    occupied: M,
    /// The provinces holding a fleet.
    afloat: M,
    fleets: M,
    /// The fleets of `fleets` no convoy chain passes on to: MILA's ports (`port_first_only`,
    /// a port's fleet only first in a chain), else none.
    barred: M,
    /// Per province, the provinces whose unit could move into it (made for listing only:
    /// [`Legal::ensure_into`]; a check reads one unit's [`Tables::reach_of`]).
    into: M::Table<M>,
    /// Per province, the provinces whose army could reach it only by convoy (with `into`).
    convoy_only: M::Table<M>,
    /// Whether `into` and `convoy_only` describe the state.
    into_ready: bool,
    /// Per army province, where the fleets at sea could carry it.
    by_sea: M::Table<M>,
    /// Per army province, the seas of fleets its convoys could use.
    closure: M::Table<M>,
    /// Per army province, where a support of its convoyed move may name (valid when `barred`
    /// is not empty, else `by_sea`): MILA's possible orders read the routes from the
    /// destination back to the army (`_get_convoy_destinations('A', dest, ...)`), which a
    /// port's one-way links make differ (and a port's own fleet, which a chain from the port
    /// may pass back through: `GameMap::convoy_reach`).
    back_by_sea: M::Table<M>,
    /// MILA's acceptance (`convoyed_support="any_route"`): a support of a convoyed move is
    /// legal by any route from the army, the supporter's fleet included (`by_sea`).
    any_route: bool,
}

mod check;
mod convoy;
mod count;
mod rules;
mod seas;
mod tables;
mod why;

pub use why::why;

use convoy::Step;
use rules::{
    adjustment, army_move, convoys_from, fleet_build, fleet_move, owed_by, push_convoys, push_hold,
    retreat_destination, support_hold, support_hold_in, support_move, support_move_in,
    support_reach,
};
use seas::Avoiding;
use tables::push_support_hold;

impl<M: Mask> Default for Legal<M> {
    fn default() -> Self {
        Legal {
            stamp: 0,
            tables: Tables {
                occupied: M::ZERO,
                afloat: M::ZERO,
                fleets: M::ZERO,
                barred: M::ZERO,
                into: M::table(M::ZERO),
                convoy_only: M::table(M::ZERO),
                into_ready: false,
                by_sea: M::table(M::ZERO),
                closure: M::table(M::ZERO),
                back_by_sea: M::table(M::ZERO),
                any_route: false,
            },
            routes_ready: false,
            routes: Vec::new(),
            routed: M::ZERO,
            route_span: M::table(NO_SPAN),
            routes_sorted: true,
            useful: M::table(M::ZERO),
            codes: Vec::new(),
            slot_of: M::table(NO_SLOT),
            slots: Vec::new(),
            complete: false,
            power_slot: M::table(NO_SLOT),
            spare: Vec::new(),
            section: Vec::new(),
            steps: Vec::new(),
            avoiding: Avoiding::new(),
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
        self.tables.into_ready = false;
        self.avoiding.forget();
        self.routes_ready = false;
        self.routes.clear();
        self.routed = M::ZERO;
        self.routes_sorted = true;
        match st.kind {
            MOVEMENT => self.prepare_movement(map, st),
            ADJUSTMENTS => self.prepare_adjustments(map, st),
            _ => {}
        }
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
        let barred = if st.rules.resolver.port_first_only {
            map.ports & fleets
        } else {
            M::ZERO
        };
        t.barred = barred;
        t.any_route = st.rules.support_any_route;
        t.into_ready = false;
        for m in Bits(occupied & !afloat) {
            let (sea, closure) = if !(map.shore_seas[m] & fleets).is_zero() {
                map.convoy_reach(m, fleets, M::ZERO, barred)
            } else {
                (M::ZERO, M::ZERO)
            };
            t.by_sea[m] = sea;
            t.closure[m] = closure;
        }
        if !barred.is_zero() {
            let armies = occupied & !afloat;
            for m in Bits(armies) {
                t.back_by_sea[m] = M::ZERO;
            }
            for q in Bits(map.shores) {
                if !(map.shore_seas[q] & fleets).is_zero() {
                    let from = map.convoy_reach(q, fleets, M::ZERO, barred).0;
                    for m in Bits(from & armies) {
                        t.back_by_sea[m] |= M::bit(q);
                    }
                }
            }
        }
    }

    /// Makes the `into` and `convoy_only` tables of a movement state (see [`Tables`]), which
    /// only the listing and counting of supports read: checking a code asks one unit.
    pub(super) fn ensure_into(&mut self, map: &GameMap<M>, st: &State<M>) {
        let t = &mut self.tables;
        if t.into_ready {
            return;
        }
        t.into_ready = true;
        t.into.as_mut()[..map.provinces].fill(M::ZERO);
        t.convoy_only.as_mut()[..map.provinces].fill(M::ZERO);
        for m in Bits(t.afloat) {
            debug_assert_eq!(t.convoy_only_of(map, st, m), M::ZERO);
            for q in Bits(t.reach_of(map, st, m)) {
                t.into[q] |= M::bit(m);
            }
        }
        for m in Bits(t.occupied & !t.afloat) {
            let (land, sea) = (map.army_adj[m], t.support_sea(m));
            debug_assert_eq!(land | sea, t.reach_of(map, st, m));
            debug_assert_eq!(sea & !land, t.convoy_only_of(map, st, m));
            for q in Bits(land | sea) {
                t.into[q] |= M::bit(m);
            }
            for q in Bits(sea & !land) {
                t.convoy_only[q] |= M::bit(m);
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
            if map.neutral[power] {
                // A neutral power has no slot: its units hold and are never ordered, and a
                // rebuilding one raises its armies by itself (`GameMap::neutral_rebuilds`).
                continue;
            }
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
            if st.kind == MOVEMENT {
                self.ensure_into(map, st);
            }
            let mut order = M::table(0u32);
            let mut count = 0;
            for q in 0..map.provinces {
                let piece = if st.kind == MOVEMENT {
                    st.units[q]
                } else {
                    st.dislodged[q]
                };
                // Neutral units hold and are never ordered: no slot.
                if piece.is_some() && !map.neutral[piece.power as usize] {
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

    /// A unit's whole list: the concatenation of its sections (see [`Tables`]).
    fn movement_list(&mut self, map: &GameMap<M>, st: &State<M>, p: usize) {
        debug_assert!(
            self.tables.into_ready,
            "all_slots makes the into tables first"
        );
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
        let avoiding = &mut self.avoiding;
        t.push_supports(map, st, p, support_reach(map, st, p), avoiding, codes);
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

    /// Whether MILA's possible orders list the legal `code` as far as supports of convoyed
    /// moves go: under `convoyed_support="any_route"` MILA takes such a support by any route
    /// from the army (`Game._valid_order`, `_has_convoy_path('A', army, dest)`), the supporter's
    /// fleet included, but lists it only by a route without the supporter, from the
    /// destination back to the army under its ports (`get_all_possible_orders`,
    /// `_get_convoy_destinations('A', dest, exclude_convoy_locs=[supporter])`). Every other
    /// legal code is listed. Movement tables ([`Legal::prepare`] first).
    #[inline]
    pub fn mila_listed(&self, map: &GameMap<M>, st: &State<M>, code: Code) -> bool {
        let t = &self.tables;
        if !t.any_route || st.kind != MOVEMENT || encode::kind_of(code) != kind::SUPPORT_MOVE {
            return true;
        }
        let m = map.prov_of[encode::a_of(code)] as usize;
        let q = map.prov_of[encode::b_of(code)] as usize;
        let p = map.prov_of[encode::loc_of(code)] as usize;
        st.units[m].fleet || has(map.army_adj[m], q) || t.mila_lists(map, m, p, q)
    }

    /// Which units' legal codes [`Legal::mila_listed`] may leave out this phase, and whether
    /// [`Legal::mila_shown`] may add any: `(suspects, shown)`, the provinces of the supporters
    /// to ask about. None and false but under `convoyed_support="any_route"` in a movement
    /// phase. Without ports MILA leaves out only a support by a fleet some army's convoys could
    /// use (`closure`: a legal support of a convoyed move has a route, and one without the
    /// supporter when the supporter is on none); with them, every unit (the routes run back
    /// from the destination). Asked once per phase, so that a listing costs nothing per code
    /// for every other unit.
    pub fn mila_filters(&self, st: &State<M>) -> (M, bool) {
        let t = &self.tables;
        if !t.any_route || st.kind != MOVEMENT {
            return (M::ZERO, false);
        }
        if !t.barred.is_zero() {
            return (!M::ZERO, true);
        }
        let mut suspects = M::ZERO;
        for m in Bits(t.occupied & !t.afloat) {
            suspects |= t.closure[m];
        }
        (suspects, false)
    }

    /// The supports of convoyed moves by the unit in province `p` that MILA's possible orders
    /// list though MILA does not take them ([`Legal::mila_listed`]'s two rules part under its
    /// ports: a chain back from the destination, none forward from the army), appended to
    /// `out`. None unless `convoyed_support="any_route"` and a port holds a fleet.
    pub fn mila_shown(&self, map: &GameMap<M>, st: &State<M>, p: usize, out: &mut Vec<Code>) {
        let t = &self.tables;
        if !t.any_route || t.barred.is_zero() || st.kind != MOVEMENT || !st.units[p].is_some() {
            return;
        }
        let loc = st.units[p].loc as usize;
        let reach = support_reach(map, st, p);
        for m in Bits(t.occupied & !t.afloat & !M::bit(p)) {
            let only = t.listed_sea(m) & !t.by_sea[m] & !map.army_adj[m] & reach;
            for q in Bits(only) {
                if support_move_in(reach, st, p, m, q) == OK && t.mila_lists(map, m, p, q) {
                    out.push(encode::support_move(loc, m, q));
                }
            }
        }
    }

    /// The seas holding a fleet (movement tables; [`Legal::prepare`] first).
    pub fn fleets(&self) -> M {
        self.tables.fleets
    }

    /// The seas on some minimal convoy route of the army in province `army` to province `dst`
    /// (`diplo.reference.convoys.route_fleets`); empty when no convoy could carry it there.
    pub fn route_seas(&mut self, map: &GameMap<M>, st: &State<M>, army: usize, dst: usize) -> M {
        let span = self.army_routes(map, st, army);
        self.routes[span.range()]
            .iter()
            .find(|r| r.army as usize == army && r.dst as usize == dst)
            .map_or(M::ZERO, |r| r.seas)
    }
}
