//! Kruijswijk's resolver (DATC chapter 5): the MOVE, SUPPORT and CONVOY decisions, resolved by
//! the guess algorithm of DATC 5.F (with an exact test of which decision owns a cycle), the 5.D
//! hack for convoys, and the backup rule of DATC 5.B.9.
//!
//! # Decisions
//!
//! Every unit ordered to move has a MOVE decision (did it move), every non-void support a SUPPORT
//! decision (is it neither cut nor dislodged, DATC 5.B.2) and every non-void convoy a CONVOY
//! decision (is the fleet not dislodged, DATC 5.B.3). A decision is indexed by its unit. PATH
//! (5.B.4) is not a decision: it is computed from the CONVOY decisions by [`super::convoy`].
//!
//! # The 5.D hack
//!
//! The CONVOY decision (fleet not dislodged) calls `adjudicate_move` — not `resolve` — on the
//! moves attacking the fleet. The convoy decision thus depends on what those moves depend on
//! (supports, other convoys) but not on the MOVE decisions themselves, so a convoy paradox forms a
//! clean cycle of CONVOY and SUPPORT decisions (in Pandin's paradox, DATC 6.F.16: the fleet in
//! the English Channel and the support of London) instead of tangling the attackers' moves into
//! it.
//!
//! # Which decision owns a cycle
//!
//! DATC 5.F lets a decision try its second guess when `recursion_hits` is back to its value on
//! entry, and tracks with `guess_based` whether any guess was read. That test is too weak when a
//! frame reads a decision that is already in the cycle list of an *enclosing* cycle (not a new
//! hit): `recursion_hits` does not move, so the frame believes it owns a cycle, both of its own
//! guesses give the same answer (its own guess was never read), and it is settled on a value
//! that rests on the enclosing cycle's guess. (A board where this goes wrong: an army convoyed to
//! an occupied, adjacent landing whose unit supports an attack on the convoying fleet, that fleet
//! also supported to hold, with resolution starting at the fleet.)
//!
//! Here each frame records the lowest recursion depth whose guess it has read (`low`, like the
//! low link of Tarjan's algorithm): a hit on a decision still being resolved contributes that
//! frame's depth, reading a decision of the cycle list contributes the depth its own value rested
//! on. A frame owns a cycle exactly when its `low` is not above its own depth; otherwise it keeps
//! its guess-based result, joins the cycle list and hands the question up. A decision is settled
//! only on values that no open guess can change.
//!
//! # Backup rule (DATC 5.B.9)
//!
//! When a cycle has two or zero consistent resolutions:
//! * if it contains only MOVE decisions it is circular movement: all those moves succeed
//!   (DATC 6.C.1, 6.C.2, 6.G.1 convoyed swap);
//! * if a CONVOY decision is in it, the Szykman rule: every army that one of the cycle's fleets
//!   was ordered to convoy is permanently *stopped* — resolved as if its convoy had not been
//!   ordered: no route (its move fails with NO_CONVOY, its attack and prevent strengths are 0, it
//!   cuts no support) and its convoy orders get NO_CONVOY (DATC 4.A.2, 6.F.14-6.F.24). The
//!   cycle's fleets are reported (`MovementOutcome::szykman`) for the explanation;
//! * otherwise (moves and supports without a convoy: not reachable with the standard rules) every
//!   decision of the cycle fails, as DATC 5.B.9 advises for variant rules.
//!
//! # Termination of the restarts
//!
//! After the backup rule the decision that owned the cycle is resolved again from scratch, which
//! may expose a further paradox (the second-order paradoxes DATC 6.F.22-6.F.24), whose backup
//! rule is applied in turn. This is finite: every application of the backup rule makes permanent
//! progress that is never undone — circular movement marks at least one MOVE decision resolved
//! (the owner of the cycle is always in it: the two guesses differ, and only its own guess
//! changed between them, so it was read and hit), and the Szykman rule stops at least one army
//! that was not stopped before (a stopped army's route is never searched, so its fleets' CONVOY
//! decisions are read by nobody and cannot be part of a later cycle). There are finitely many
//! MOVE decisions and armies. The third case resolves every decision of the cycle, owner
//! included; should a convoy cycle ever contain only fleets of armies already stopped
//! (impossible by the argument above, kept as a guard) it is treated the same way.

use super::convoy;
use super::map::CompiledMap;
use super::orders::{reset, Board, Order, Unit, CONVOY, MOVE, NONE, SUPPORT_HOLD, SUPPORT_MOVE};
use super::outcome::{code, MovementOutcome};
use super::retreat;
use super::{ConvoyDisruption, ConvoyFallback, Paradox, Rulings};

const RESOLVED: u8 = 1;
const VISITED: u8 = 2;
const IN_CYCLE: u8 = 4;
const RESOLUTION: u8 = 8;
/// `low` when no guess has been read.
const NO_GUESS: u32 = u32::MAX;

/// The resolver with its reusable buffers. One per map; reuse it across phases to avoid
/// allocating on the hot path.
pub struct Adjudicator<'m> {
    pub(crate) map: &'m CompiledMap,
    /// The rulebook choices of the phases resolved (default: today's, the DATC's).
    pub rulings: Rulings,
    /// Per unit: an army moved overland by MILA's fallback after a disruption.
    overland: Vec<bool>,
    pub(crate) board: Board,
    /// Per unit decision: RESOLVED | VISITED | IN_CYCLE | RESOLUTION bits.
    flags: Vec<u8>,
    /// Per army: stopped by the Szykman rule.
    pub(crate) stopped: Vec<bool>,
    /// Per fleet: its CONVOY decision was in a cycle the Szykman rule broke.
    pub(crate) szykman: Vec<bool>,
    cycle: Vec<u16>,
    /// Recursion depth of the `resolve` frame being run.
    depth: u32,
    /// Lowest frame depth whose guess the current frame has read so far (NO_GUESS: none).
    low: u32,
    /// Per decision: depth of its frame while it is being resolved.
    depth_of: Vec<u32>,
    /// Per decision in the cycle list: the lowest frame depth its value rests on.
    low_of: Vec<u32>,
    /// Per province scratch used when the outcome is assembled.
    scratch_prov: Vec<u16>,
    scratch_closed: Vec<bool>,
    scratch_moved: Vec<bool>,
    scratch_standoff: Vec<bool>,
    spare_retreats: Vec<Vec<u16>>,
}

impl<'m> Adjudicator<'m> {
    pub fn new(map: &'m CompiledMap) -> Self {
        Adjudicator {
            map,
            rulings: Rulings::default(),
            overland: Vec::new(),
            board: Board::default(),
            flags: Vec::new(),
            stopped: Vec::new(),
            szykman: Vec::new(),
            cycle: Vec::new(),
            depth: 0,
            low: NO_GUESS,
            depth_of: Vec::new(),
            low_of: Vec::new(),
            scratch_prov: Vec::new(),
            scratch_closed: Vec::new(),
            scratch_moved: Vec::new(),
            scratch_standoff: Vec::new(),
            spare_retreats: Vec::new(),
        }
    }

    /// Resolves one movement phase into `out`, reusing this adjudicator's buffers and `out`'s.
    /// `orders[i]` is the order of `units[i]`.
    pub fn resolve_into(
        &mut self,
        units: &[Unit],
        orders: &[Order],
        out: &mut MovementOutcome,
    ) -> Result<(), String> {
        self.overland.clear();
        self.overland.resize(units.len(), false);
        loop {
            self.board
                .load(self.map, units, orders, self.rulings, &self.overland)?;
            self.meet_by_land();
            self.resolve_all();
            let again = matches!(
                self.rulings.convoy_fallback,
                ConvoyFallback::Land | ConvoyFallback::ViaAlways
            ) && self.fall_back(orders);
            if !again {
                break;
            }
        }
        fill(self, out);
        Ok(())
    }

    /// MILA (`convoy_any_support`): a convoyed army whose routes MILA's first disruption check
    /// broke is no longer "moving via convoy" (`Game._is_moving_via_convoy` reads the routes
    /// left), so, if it still moves, it meets a unit moving the other way head to head
    /// (`Game._bounce` step 6): pairs such an army with its opponent in `opp`.
    fn meet_by_land(&mut self) {
        if !self.rulings.convoy_any_support {
            return;
        }
        for u in 0..self.board.kind.len() {
            if self.board.kind[u] != MOVE || !self.board.convoyed[u] || self.board.opp[u] != NONE {
                continue;
            }
            let o = self.board.unit_at[self.board.a[u] as usize];
            if o == NONE {
                continue;
            }
            let o = o as usize;
            if self.board.kind[o] != MOVE || self.board.a[o] != self.board.prov[u] {
                continue;
            }
            if self.first_check_empties(u)
                && (!self.board.convoyed[o] || self.first_check_empties(o))
            {
                self.board.opp[u] = o as u16;
                self.board.opp[o] = u as u16;
            }
        }
    }

    /// The fallback after a disruption: marks overland every army convoyed to a neighbouring
    /// province whose convoy failed: MILA's, one convoyed by intent, not ordered "via convoy";
    /// dipcc's (`ViaAlways`), one ordered "via convoy". Whether any was (the phase is then
    /// resolved again with those armies moving overland).
    fn fall_back(&mut self, orders: &[Order]) -> bool {
        let dipcc = self.rulings.convoy_fallback == ConvoyFallback::ViaAlways;
        let mut again = false;
        for (u, order) in orders.iter().enumerate() {
            if self.board.kind[u] != MOVE || !self.board.convoyed[u] {
                continue;
            }
            let via = matches!(order, Order::Move { via: true, .. });
            let adjacent = self.map.army_adjacent(self.board.prov[u], self.board.a[u]);
            // MILA: a convoy the paradox rule stopped does not fall back (DATC 6.G.11); dipcc's
            // does (`_clear_convoy_paradoxes` disables the fleets as a dislodgement does).
            let stopped = !dipcc && self.stopped[u];
            if via == dipcc
                && adjacent
                && !stopped
                && !self.path(u)
                // MILA (`convoy_any_support`): nor one whose destination backs the attack that
                // broke a fleet of its routes.
                && !(self.rulings.convoy_any_support && self.destination_backs_the_break(u))
            {
                self.overland[u] = true;
                again = true;
            }
        }
        again
    }

    /// MILA (`convoy_any_support`, the second paradox check of `Game._check_disruptions`, by
    /// `Game._detect_paradox`): whether the unit at the destination of convoyed army `a`, or a
    /// unit its orders lead to, supports a move into the province of a fleet of the army's
    /// routes whose convoy broke. MILA then keeps the army at home instead of letting it go
    /// overland to cut that support ([`Self::fall_back`]).
    ///
    /// The walk reads the orders as MILA does once it has voided the orders of missing units: a
    /// support or convoy order leads on to the unit at the place it names last (a support's
    /// destination or supported unit, a convoy's destination), until a unit is met again or an
    /// order of another kind (or a support of a missing unit, a convoy of a missing army) ends
    /// it. MILA asks this per broken fleet while it leaves routes out one by one; this asks it
    /// of any broken fleet of the routes (they differ only with two routes broken apart).
    fn destination_backs_the_break(&mut self, a: usize) -> bool {
        let fleets: Vec<usize> = self.board.convoys_of(a).collect();
        let provs: Vec<u16> = fleets.iter().map(|&f| self.board.prov[f]).collect();
        let (from, to) = (self.board.prov[a], self.board.a[a]);
        let on = convoy::on_routes(self.map, from, to, &provs, self.rulings.port_first_only);
        let mut broken: Vec<u16> = Vec::new();
        for (i, &f) in fleets.iter().enumerate() {
            if on[i] && !self.resolve(f) {
                broken.push(provs[i]);
            }
        }
        if broken.is_empty() {
            return false;
        }
        let b = &self.board;
        let mut here = to;
        // Every step meets a unit not met before, so the walk ends within `n` steps.
        for _ in 0..b.n {
            let d = b.unit_at[here as usize];
            if d == NONE {
                return false;
            }
            let d = d as usize;
            match b.kind[d] {
                SUPPORT_MOVE if b.unit_at[b.a[d] as usize] != NONE => {
                    here = b.b[d];
                    if broken.contains(&here) {
                        return true;
                    }
                }
                SUPPORT_HOLD if b.unit_at[b.a[d] as usize] != NONE => here = b.a[d],
                CONVOY => {
                    let army = b.unit_at[b.a[d] as usize];
                    if army == NONE || b.fleet[army as usize] {
                        return false;
                    }
                    here = b.b[d];
                }
                _ => return false,
            }
        }
        false
    }

    /// The map this adjudicator was built for.
    pub fn map(&self) -> &'m CompiledMap {
        self.map
    }

    /// Resolves every decision of the loaded board.
    pub(crate) fn resolve_all(&mut self) {
        let n = self.board.n;
        self.flags.clear();
        self.flags.resize(n, 0);
        self.stopped.clear();
        self.stopped.resize(n, false);
        self.szykman.clear();
        self.szykman.resize(n, false);
        self.cycle.clear();
        self.depth = 0;
        self.low = NO_GUESS;
        self.depth_of.clear();
        self.depth_of.resize(n, 0);
        self.low_of.clear();
        self.low_of.resize(n, 0);
        for u in 0..n {
            if self.board.has_decision(u) {
                self.resolve(u);
            }
        }
        debug_assert!(self.cycle.is_empty() && self.depth == 0 && self.low == NO_GUESS);
    }

    /// The final resolution of a decision (after [`Self::resolve_all`]).
    #[inline]
    pub(crate) fn outcome_of(&self, u: usize) -> bool {
        self.flags[u] & RESOLUTION != 0
    }

    #[inline]
    fn set_resolution(&mut self, d: usize, value: bool) {
        if value {
            self.flags[d] |= RESOLUTION;
        } else {
            self.flags[d] &= !RESOLUTION;
        }
    }

    fn truncate_cycle(&mut self, len: usize) {
        for i in len..self.cycle.len() {
            let d = self.cycle[i] as usize;
            self.flags[d] &= !IN_CYCLE;
        }
        self.cycle.truncate(len);
    }

    fn push_cycle(&mut self, d: usize) {
        self.flags[d] |= IN_CYCLE;
        self.cycle.push(d as u16);
    }

    /// DATC 5.F `resolve` (the guess algorithm), with the ancestor test made exact by low links
    /// (see "Which decision owns a cycle" in the module documentation).
    pub(crate) fn resolve(&mut self, d: usize) -> bool {
        let f = self.flags[d];
        if f & RESOLVED != 0 {
            return f & RESOLUTION != 0;
        }
        if f & IN_CYCLE != 0 {
            // Part of a cycle not yet settled: the value given earlier, still a guess.
            self.low = self.low.min(self.low_of[d]);
            return f & RESOLUTION != 0;
        }
        if f & VISITED != 0 {
            // We hit a cyclic dependency: answer with the current guess.
            self.low_of[d] = self.depth_of[d];
            self.push_cycle(d);
            self.low = self.low.min(self.depth_of[d]);
            return f & RESOLUTION != 0;
        }

        self.flags[d] |= VISITED;
        let depth = self.depth;
        self.depth += 1;
        self.depth_of[d] = depth;
        let old_cycle_len = self.cycle.len();
        let old_low = self.low;
        self.low = NO_GUESS;
        // The value returned when this decision is met again deeper in the recursion.
        self.set_resolution(d, false);
        let first = self.adjudicate(d);

        if self.low == NO_GUESS {
            // No guess was read: final.
            self.depth -= 1;
            self.low = old_low;
            self.settle(d, first);
            return first;
        }

        let mut result = first;
        if self.low >= depth {
            // Every guess read rests on this decision or deeper: it owns the cycle. Try the
            // other guess.
            self.truncate_cycle(old_cycle_len);
            self.set_resolution(d, true);
            self.low = NO_GUESS;
            let second = self.adjudicate(d);
            if self.low == NO_GUESS || self.low >= depth {
                self.depth -= 1;
                self.low = old_low;
                if first == second {
                    // A cycle with exactly one consistent resolution.
                    self.truncate_cycle(old_cycle_len);
                    self.settle(d, first);
                    return first;
                }
                // Zero or two resolutions: backup rule on the cycle, then resolve again.
                self.backup_rule(old_cycle_len, d);
                self.truncate_cycle(old_cycle_len);
                self.flags[d] &= !VISITED;
                return self.resolve(d);
            }
            // The other guess led into a cycle owned further up: so does this decision.
            result = second;
        }

        // A guess of an enclosing cycle was read: keep the guess-based result for now and let
        // the owner of that cycle decide.
        let low = self.low;
        if self.flags[d] & IN_CYCLE == 0 {
            self.push_cycle(d);
        }
        self.low_of[d] = low;
        self.set_resolution(d, result);
        self.flags[d] &= !VISITED;
        self.depth -= 1;
        self.low = old_low.min(low);
        result
    }

    fn settle(&mut self, d: usize, value: bool) {
        self.set_resolution(d, value);
        self.flags[d] = (self.flags[d] & !VISITED) | RESOLVED;
    }

    /// DATC 5.B.9 backup rule on `cycle[start..]` of decision `owner` (see the module
    /// documentation). Always makes permanent progress.
    fn backup_rule(&mut self, start: usize, owner: usize) {
        let kind = &self.board.kind;
        let members = &self.cycle[start..];
        let has_convoy = members.iter().any(|&d| kind[d as usize] == CONVOY);
        let only_moves = members.iter().all(|&d| kind[d as usize] == MOVE);
        let mut progress = false;
        if has_convoy {
            // Szykman rule (DATC 4.A.2): the armies convoyed by the cycle's fleets are stopped.
            for i in start..self.cycle.len() {
                let d = self.cycle[i] as usize;
                if self.board.kind[d] == CONVOY {
                    self.szykman[d] = true;
                    let army = self.board.unit_at[self.board.a[d] as usize] as usize;
                    if !self.stopped[army] {
                        self.stopped[army] = true;
                        progress = true;
                    }
                }
            }
        } else if only_moves {
            // Circular movement (DATC 6.C.1, 6.C.2, 6.G.1): every move of the cycle succeeds.
            for i in start..self.cycle.len() {
                let d = self.cycle[i] as usize;
                self.flags[d] = (self.flags[d] | RESOLVED | RESOLUTION) & !VISITED;
                progress = true;
            }
        }
        if !progress {
            // Neither circular movement nor a convoy paradox (not reachable with the standard
            // rules), or the guard of "Termination" above: every order of the cycle fails, as
            // DATC 5.B.9 advises for paradoxes of variant rules.
            for i in start..self.cycle.len() {
                let d = self.cycle[i] as usize;
                self.flags[d] = (self.flags[d] | RESOLVED) & !(RESOLUTION | VISITED);
            }
            self.flags[owner] = (self.flags[owner] | RESOLVED) & !(RESOLUTION | VISITED);
        }
    }

    fn adjudicate(&mut self, d: usize) -> bool {
        match self.board.kind[d] {
            MOVE => self.adjudicate_move(d),
            CONVOY => self.adjudicate_convoy(d),
            _ => self.adjudicate_support(d),
        }
    }

    /// DATC 5.B.1 MOVE: the move succeeds when its attack beats the strongest opposition.
    pub(crate) fn adjudicate_move(&mut self, u: usize) -> bool {
        let attack = self.attack_strength(u);
        if attack == 0 {
            return false;
        }
        let (best, _) = self.opposition(u, attack);
        attack > best
    }

    /// DATC 5.B.1: the strongest opposition to unit `u`'s move and the province it comes from:
    /// the destination's hold strength (head to head, the opponent's defend strength, DATC
    /// 6.E.1), then every rival's prevent strength, rivals in province order (the order of the
    /// `into` lists); on a tie the first wins. The move succeeds exactly when its attack beats it.
    ///
    /// It stops at the first opposition of at least `stop_at`: the decision passes its attack and
    /// so reads no more than it needs; the outcome passes `u32::MAX` for the whole answer once
    /// every decision is final. One rule for the verdict and its explanation.
    #[inline(always)]
    pub(crate) fn opposition(&mut self, u: usize, stop_at: u32) -> (u32, u16) {
        let opp = self.board.opp[u];
        let dest = self.board.a[u];
        // DATC 6.E.4: head to head, the opponent's defend strength; else the destination's hold.
        let mut best = if opp != NONE {
            self.defend_strength(opp as usize, u)
        } else {
            self.hold_strength(dest)
        };
        let mut by = dest;
        if best >= stop_at {
            return (best, by);
        }
        let mut cur = self.board.into_head[dest as usize];
        while cur != NONE {
            let m = cur as usize;
            cur = self.board.into_next[m];
            if m == u {
                continue;
            }
            let prevent = self.prevent_strength(m);
            if prevent > best {
                best = prevent;
                by = self.board.prov[m];
                if best >= stop_at {
                    break;
                }
            }
        }
        (best, by)
    }

    /// DATC 5.B.2 SUPPORT: the support succeeds unless it is cut ([`Self::cut_by`]) or its unit
    /// is dislodged (DATC 6.D.17).
    fn adjudicate_support(&mut self, s: usize) -> bool {
        if self.cut_by(s) != NONE {
            return false;
        }
        let here = self.board.prov[s];
        let power = self.board.power[s];
        // Dislodgement: only a foreign move can dislodge (its attack on an own unit is 0).
        let mut cur = self.board.into_head[here as usize];
        while cur != NONE {
            let m = cur as usize;
            cur = self.board.into_next[m];
            // DATC 6.F.17: where an older paradox rule keeps the support, it takes precedence
            // over the dislodge rule (the army it spares cannot undo it by dislodging).
            // MILA (`attack_from_sea`, `Game._resolve_moves` step 9): a convoyed army that
            // dislodges a support to hold a fleet its routes need does not break it either.
            if self.board.power[m] != power
                && !(self.board.convoyed[m] && self.paradox_rule_keeps(s, m))
                && !(self.rulings.attack_from_sea && self.given_to_its_sea(s, m))
                && self.resolve(m)
            {
                return false;
            }
        }
        true
    }

    /// DATC 5.B.2: the province of the first attack (in province order) that cuts support `s`,
    /// or `NONE`. Any foreign move with a working route cuts (a convoyed one only when its convoy
    /// arrives, DATC 6.F.6), except a move of the supporter's own power (DATC 6.D.20) and
    /// the one from the province the support is directed against (DATC 6.D.15; for a convoyed
    /// attacker its starting province, DATC 4.A.4, 6.G.13), which must dislodge the supporter.
    /// One rule for the verdict and its explanation.
    #[inline(always)]
    pub(crate) fn cut_by(&mut self, s: usize) -> u16 {
        let here = self.board.prov[s];
        let power = self.board.power[s];
        let exempt = if self.board.kind[s] == SUPPORT_MOVE {
            self.board.b[s]
        } else {
            NONE
        };
        let mut cur = self.board.into_head[here as usize];
        while cur != NONE {
            let m = cur as usize;
            cur = self.board.into_next[m];
            // DATC 6.D.20 (own power), 6.D.15 (the attacked province), 6.F.6 (no route).
            if self.board.power[m] != power
                && self.board.prov[m] != exempt
                && !(self.rulings.attack_from_sea && self.given_to_its_sea(s, m))
                && !(self.board.convoyed[m] && self.paradox_rule_keeps(s, m))
                && self.path(m)
            {
                return self.board.prov[m];
            }
        }
        NONE
    }

    /// DATC 4.A.2, the older paradox rules: whether the convoyed army `m` leaves support `s`
    /// uncut. 1971: a support of a fleet's attack on one of `m`'s convoying fleets; 1982: a
    /// support of an action in a sea holding a convoying fleet (Szykman's rule, the default,
    /// breaks paradoxes in the backup rule instead).
    fn paradox_rule_keeps(&self, s: usize, m: usize) -> bool {
        let b = &self.board;
        match self.rulings.paradox {
            Paradox::Szykman => false,
            Paradox::Rule1971 => {
                if b.kind[s] != SUPPORT_MOVE {
                    return false;
                }
                let supported = b.unit_at[b.a[s] as usize];
                let target = b.unit_at[b.b[s] as usize];
                supported != NONE
                    && b.fleet[supported as usize]
                    && target != NONE
                    && b.convoys_of(m).any(|f| f == target as usize)
            }
            Paradox::Rule2000 => {
                if b.kind[s] != SUPPORT_MOVE {
                    return false;
                }
                let target = b.unit_at[b.b[s] as usize];
                target != NONE
                    && b.convoys_of(m).any(|f| f == target as usize)
                    && self.necessary(m, target as usize)
            }
            Paradox::Rule1982 => {
                let sea = if b.kind[s] == SUPPORT_MOVE {
                    b.b[s]
                } else {
                    b.a[s]
                };
                let there = b.unit_at[sea as usize];
                self.map.is_sea(sea)
                    && there != NONE
                    && b.kind[there as usize] == CONVOY
                    && b.matched[there as usize]
            }
        }
    }

    /// MILA: whether support `s` is a support to hold a fleet that every route of convoyed
    /// army `m` needs (the attack then counts as coming from that sea and does not cut it).
    fn given_to_its_sea(&self, s: usize, m: usize) -> bool {
        let b = &self.board;
        if !b.convoyed[m] || b.kind[s] != SUPPORT_HOLD {
            return false;
        }
        let there = b.unit_at[b.a[s] as usize];
        there != NONE
            && b.convoys_of(m).any(|f| f == there as usize)
            && self.necessary(m, there as usize)
    }

    /// Whether convoying fleet `f` is on every route of army `m` (DATC 4.A.2, the 2000 rule's
    /// "necessary" fleets): on some route, and no route is left without it.
    fn necessary(&self, m: usize, f: usize) -> bool {
        let b = &self.board;
        let fleets: Vec<usize> = b.convoys_of(m).collect();
        let provs: Vec<u16> = fleets.iter().map(|&x| b.prov[x]).collect();
        let (from, to) = (b.prov[m], b.a[m]);
        let on = convoy::on_routes(self.map, from, to, &provs, self.rulings.port_first_only);
        let Some(i) = fleets.iter().position(|&x| x == f) else {
            return false;
        };
        on[i]
            && !convoy::route_exists(
                self.map,
                from,
                to,
                &provs,
                self.rulings.port_first_only,
                |j| on[j] && j != i,
            )
    }

    /// DATC 5.B.3 CONVOY (the fleet is not dislodged), with the 5.D hack: the attackers' moves are
    /// adjudicated here rather than resolved (see the module documentation).
    fn adjudicate_convoy(&mut self, c: usize) -> bool {
        let here = self.board.prov[c];
        let power = self.board.power[c];
        // MILA's paradox check (`Game._detect_paradox` in `_check_disruptions`): the unit at the
        // army's destination supports this fleet to hold, so an attack as strong as all else
        // breaks the convoy.
        let guarded = self.rulings.convoy_any_support && {
            let d = self.board.unit_at[self.board.b[c] as usize];
            d != NONE
                && self.board.kind[d as usize] == SUPPORT_HOLD
                && self.board.matched[d as usize]
                && self.board.a[d as usize] == here
        };
        // MILA's beleaguered garrison (`_check_disruptions`): when the strongest attacks on the
        // fleet are as strong as each other, they break the convoy only if the unit at the
        // army's destination was ordered to move into the fleet's province or to support
        // anything there (its order as written: void or cut, it still counts).
        let engaged = if self.rulings.convoy_any_support && self.orders_into(self.board.b[c], here)
        {
            self.board.unit_at[self.board.b[c] as usize]
        } else {
            NONE
        };
        let mut cur = self.board.into_head[here as usize];
        while cur != NONE {
            let m = cur as usize;
            cur = self.board.into_next[m];
            if self.board.power[m] == power {
                continue;
            }
            let succeeds = if self.rulings.convoy_any_support {
                self.beats_counting_every_support(m, guarded, engaged)
            } else if self.flags[m] & RESOLVED != 0 {
                self.flags[m] & RESOLUTION != 0
            } else {
                self.adjudicate_move(m)
            };
            if succeeds {
                return false;
            }
        }
        true
    }

    /// MILA (`convoy_any_support`, `Game._check_disruptions`): whether the foreign attack `m` on
    /// a convoying fleet beats its opposition counting every support it has, the fleet's own
    /// power's included (MILA compares the strengths of `Game._strengths`, which count them,
    /// where DATC 6.D.12 does not let them dislodge); with `tie` (the unit at the army's
    /// destination supports the fleet: MILA's paradox) whether it is as strong as all else;
    /// with `engaged` (the unit at the army's destination moves or supports into the fleet's
    /// province: MILA's beleaguered garrison) whether it is as strong as the strongest other
    /// attack and stronger than the fleet's hold.
    ///
    /// In the tie MILA reads its raw strengths, before any dislodgement: the support of the
    /// unit at the army's destination (`engaged`) counts there whatever the army does to it
    /// (the army cannot cut it either, `Game._cut_support` exception C), so it is counted
    /// without asking its decision, which would rest on the army's move (a cycle MILA has not).
    fn beats_counting_every_support(&mut self, m: usize, tie: bool, engaged: u16) -> bool {
        if !self.path(m) {
            return false;
        }
        let attack = 1 + self.supports(m, None);
        let best = self.opposition(m, attack + u32::from(tie)).0;
        if attack > best || (tie && attack == best) {
            return true;
        }
        if engaged == NONE {
            return false;
        }
        let here = self.board.a[m];
        let raw = 1 + self.supports_counting(m, engaged as usize);
        if self.hold_strength(here) >= raw {
            return false;
        }
        let mut top = 0;
        let mut cur = self.board.into_head[here as usize];
        while cur != NONE {
            let o = cur as usize;
            cur = self.board.into_next[o];
            if o != m && self.path(o) {
                top = top.max(1 + self.supports_counting(o, engaged as usize));
            }
        }
        top == raw
    }

    /// The successful supports of unit `u`, support `given` (by the unit at a convoyed army's
    /// destination) counted whatever its decision.
    fn supports_counting(&mut self, u: usize, given: usize) -> u32 {
        let mut count = 0;
        let mut cur = self.board.sup_head[u];
        while cur != NONE {
            let s = cur as usize;
            cur = self.board.sup_next[s];
            if s == given || self.resolve(s) {
                count += 1;
            }
        }
        count
    }

    /// MILA (`convoy_any_support`): whether the first disruption check of `Game._resolve_moves`
    /// (step 4, at strengths where only attacks over land have cut supports) breaks every route
    /// of convoyed army `a`. MILA never gives the routes back, so an army that still moves
    /// dislodges as an attack over land for its victim's retreats (`Game._move_results` asks
    /// `_is_moving_via_convoy`). Later rounds of MILA's check are not modelled.
    pub(crate) fn first_check_empties(&self, a: usize) -> bool {
        let b = &self.board;
        let fleets: Vec<usize> = b.convoys_of(a).collect();
        let provs: Vec<u16> = fleets.iter().map(|&f| b.prov[f]).collect();
        let (from, to) = (b.prov[a], b.a[a]);
        let port_first = self.rulings.port_first_only;
        convoy::route_exists(self.map, from, to, &provs, port_first, |_| true)
            && !convoy::route_exists(self.map, from, to, &provs, port_first, |i| {
                !self.first_check_breaks(fleets[i])
            })
    }

    /// Whether MILA's first disruption check breaks convoying fleet `c` (see
    /// [`Self::first_check_empties`]): an attack of another power is the strongest, alone or
    /// tied with the fleet's own hold under the paradox, or tied with another attack while the
    /// unit at the army's destination moves or supports into the fleet's province.
    fn first_check_breaks(&self, c: usize) -> bool {
        let b = &self.board;
        let here = b.prov[c];
        let hold = 1 + self.supports_left_by_land(c);
        let (mut best, mut count, mut foreign) = (hold, 1, false);
        for m in b.movers_into(here) {
            if b.convoyed[m] && b.convoys_of(m).next().is_none() {
                continue; // no route at all: MILA counts it at home
            }
            let attack = 1 + self.supports_left_by_land(m);
            if attack > best {
                (best, count, foreign) = (attack, 0, false);
            }
            if attack == best {
                count += 1;
                foreign |= b.power[m] != b.power[c];
            }
        }
        let d = b.unit_at[b.b[c] as usize];
        let paradox = d != NONE
            && b.kind[d as usize] == SUPPORT_HOLD
            && b.matched[d as usize]
            && b.a[d as usize] == here;
        foreign && (paradox || (hold < best && (count == 1 || self.orders_into(b.b[c], here))))
    }

    /// The matching supports of unit `u` that no move over land of another power cuts (MILA's
    /// step 3; the move from the province a support is directed against does not cut it).
    fn supports_left_by_land(&self, u: usize) -> u32 {
        let b = &self.board;
        let mut n = 0;
        let mut s = b.sup_head[u];
        while s != NONE {
            let si = s as usize;
            s = b.sup_next[si];
            let against = if b.kind[si] == SUPPORT_MOVE {
                b.b[si]
            } else {
                b.a[si]
            };
            let cut = b
                .movers_into(b.prov[si])
                .any(|m| !b.convoyed[m] && b.power[m] != b.power[si] && b.prov[m] != against);
            if !cut {
                n += 1;
            }
        }
        n
    }

    /// Whether the unit in province `at` was ordered to move into province `here` or to support
    /// a unit there or a move into it (MILA reads the order as written: a support whose unit is
    /// missing is a hold, one that does not match still counts).
    fn orders_into(&self, at: u16, here: u16) -> bool {
        let b = &self.board;
        let d = b.unit_at[at as usize];
        if d == NONE {
            return false;
        }
        let d = d as usize;
        match b.kind[d] {
            MOVE | SUPPORT_HOLD => b.a[d] == here,
            SUPPORT_MOVE => b.b[d] == here && b.unit_at[b.a[d] as usize] != NONE,
            _ => false,
        }
    }

    /// DATC 5.B.4 PATH of unit `u`'s move. A move that is not convoyed always has its path; a
    /// convoyed one needs a chain of live convoying fleets (no land fallback, DATC 4.A.3 v3.0,
    /// 6.G.8, 6.G.20); an army stopped by the Szykman rule has none.
    pub(crate) fn path(&mut self, u: usize) -> bool {
        if !self.board.convoyed[u] {
            return true;
        }
        if self.stopped[u] {
            return false;
        }
        let from = self.board.prov[u];
        let to = self.board.a[u];
        let mut units = [0u16; 32];
        let mut provs = [0u16; 32];
        let mut count = 0;
        for f in self.board.convoys_of(u) {
            if count == units.len() {
                return self.path_many(u);
            }
            units[count] = f as u16;
            provs[count] = self.board.prov[f];
            count += 1;
        }
        let map = self.map;
        let port_first = self.rulings.port_first_only;
        if self.rulings.convoy_disruption == ConvoyDisruption::AnyRoute {
            // DATC 4.A.1, 1971: one broken route breaks the convoy.
            let on = convoy::on_routes(map, from, to, &provs[..count], port_first);
            return on.iter().any(|&x| x)
                && (0..count).all(|i| !on[i] || self.resolve(units[i] as usize));
        }
        convoy::route_exists(map, from, to, &provs[..count], port_first, |i| {
            self.resolve(units[i] as usize)
        })
    }

    /// [`Self::path`] for an army with more than 32 convoying fleets (never on a standard board).
    fn path_many(&mut self, u: usize) -> bool {
        let from = self.board.prov[u];
        let to = self.board.a[u];
        let units: Vec<usize> = self.board.convoys_of(u).collect();
        let provs: Vec<u16> = units.iter().map(|&f| self.board.prov[f]).collect();
        let map = self.map;
        let port_first = self.rulings.port_first_only;
        if self.rulings.convoy_disruption == ConvoyDisruption::AnyRoute {
            let on = convoy::on_routes(map, from, to, &provs, port_first);
            return on.iter().any(|&x| x)
                && (0..units.len()).all(|i| !on[i] || self.resolve(units[i]));
        }
        convoy::route_exists(map, from, to, &provs, port_first, |i| {
            self.resolve(units[i])
        })
    }
}

// The outcome of the phase, assembled from the final decisions (with the rules that decided them,
// `opposition` and `cut_by`, asked again for the facts behind each result).

#[inline]
fn sat(v: u32) -> u8 {
    v.min(u8::MAX as u32) as u8
}

/// Fills `out` from the resolved adjudicator, reusing `out`'s buffers.
// The per-unit data lives in parallel arrays, indexed together.
#[allow(clippy::needless_range_loop)]
fn fill(adj: &mut Adjudicator<'_>, out: &mut MovementOutcome) {
    let n = adj.board.n;
    let p = adj.map.num_provinces();
    reset(&mut out.codes, n, code::OK);
    reset(&mut out.success, n, false);
    reset(&mut out.dislodged_by, n, -1);
    reset(&mut out.by, n, -1);
    reset(&mut out.attack, n, 0);
    reset(&mut out.opposition, n, 0);
    out.convoyed.clear();
    out.convoyed.extend_from_slice(&adj.board.convoyed);
    // Retreat lists beyond this board are parked rather than dropped, so that their buffers
    // serve again when a larger board comes back.
    while out.retreats.len() > n {
        let spare = out.retreats.pop().unwrap_or_default();
        adj.spare_retreats.push(spare);
    }
    while out.retreats.len() < n {
        out.retreats
            .push(adj.spare_retreats.pop().unwrap_or_default());
    }
    for r in &mut out.retreats {
        r.clear();
    }

    // Who moved, and who moved into each province (in a consistent resolution at most one).
    let mut moved = std::mem::take(&mut adj.scratch_moved);
    let mut standoff = std::mem::take(&mut adj.scratch_standoff);
    let mut moved_in = std::mem::take(&mut adj.scratch_prov);
    reset(&mut moved, n, false);
    reset(&mut standoff, n, false);
    reset(&mut moved_in, p, NONE);
    for u in 0..n {
        if adj.board.kind[u] == MOVE && adj.outcome_of(u) {
            moved[u] = true;
            let dest = adj.board.a[u] as usize;
            if moved_in[dest] == NONE {
                moved_in[dest] = u as u16;
            }
        }
    }

    for u in 0..n {
        let here = adj.board.prov[u];
        // DATC 5.A: dislodged when it did not move and another unit moved into its province.
        let dislodger = if moved[u] {
            NONE
        } else {
            moved_in[here as usize]
        };
        let dislodged = dislodger != NONE;
        let dislodger_prov = if dislodged {
            adj.board.prov[dislodger as usize] as i32
        } else {
            -1
        };
        out.dislodged_by[u] = dislodger_prov;
        out.by[u] = dislodger_prov;
        match adj.board.kind[u] {
            MOVE => move_outcome(adj, u, moved[u], dislodger_prov, &mut standoff, out),
            SUPPORT_HOLD | SUPPORT_MOVE => {
                if !adj.board.matched[u] {
                    out.codes[u] = code::VOID;
                } else if dislodged {
                    out.codes[u] = code::DISLODGED;
                } else if !adj.outcome_of(u) {
                    out.codes[u] = code::CUT;
                    let cutter = adj.cut_by(u);
                    out.by[u] = if cutter == NONE { -1 } else { cutter as i32 };
                } else {
                    out.success[u] = true;
                }
            }
            CONVOY => {
                if !adj.board.matched[u] {
                    out.codes[u] = code::VOID;
                } else {
                    let army = adj.board.unit_at[adj.board.a[u] as usize] as usize;
                    let carried = adj.path(army);
                    if dislodged {
                        out.codes[u] = code::DISLODGED;
                    } else if !carried {
                        out.codes[u] = code::NO_CONVOY;
                    } else {
                        out.success[u] = true;
                    }
                }
            }
            _ => {
                if dislodged {
                    out.codes[u] = code::DISLODGED;
                } else {
                    out.success[u] = true;
                }
            }
        }
    }

    out.szykman.clear();
    for u in 0..n {
        if adj.szykman[u] {
            out.szykman.push(adj.board.prov[u]);
        }
    }
    out.szykman.sort_unstable();

    let mut closed = std::mem::take(&mut adj.scratch_closed);
    retreat::mark_closed(
        adj.map,
        &adj.board,
        &moved,
        &moved_in,
        &standoff,
        &mut closed,
        &mut out.contested,
    );
    for u in 0..n {
        let by = out.dislodged_by[u];
        if by >= 0 {
            let attacker = adj.board.unit_at[by as usize] as usize;
            retreat::options(
                adj.map,
                adj.board.fleet[u],
                adj.board.loc[u],
                by as u16,
                adj.board.convoyed[attacker]
                    && !(adj.rulings.convoy_any_support && adj.first_check_empties(attacker)),
                adj.rulings.retreat_any_after_convoy,
                &closed,
                &mut out.retreats[u],
            );
        }
    }
    adj.scratch_moved = moved;
    adj.scratch_standoff = standoff;
    adj.scratch_prov = moved_in;
    adj.scratch_closed = closed;
}

fn move_outcome(
    adj: &mut Adjudicator<'_>,
    u: usize,
    moved: bool,
    dislodger_prov: i32,
    standoff: &mut [bool],
    out: &mut MovementOutcome,
) {
    let attack = adj.attack_strength(u);
    let (best, best_prov) = adj.opposition(u, u32::MAX);
    out.attack[u] = sat(attack);
    out.opposition[u] = sat(best);
    if moved {
        out.success[u] = true;
        return;
    }
    standoff[u] = adj.prevent_strength(u) > 0;
    if dislodger_prov >= 0 {
        out.codes[u] = code::DISLODGED;
    } else if adj.board.convoyed[u] && !adj.path(u) {
        out.codes[u] = code::NO_CONVOY;
    } else {
        out.codes[u] = code::BOUNCE;
        out.by[u] = best_prov as i32;
    }
}
