//! A fast game and its phases: validation of the submitted codes, the movement resolver, the
//! retreat and adjustment phases, and the next position with phase skipping, centre changes after
//! the Fall turn and the victory (the rules' count, 18 centres on the standard map) — what `diplo.api.phase.process_phase` and
//! `diplo.api.game.Game` do, on encoded orders.
//!
//! # Results
//!
//! Every submitted code gets a result code and a success flag ([`result`]), in the phase's
//! [`Outcome`], a value its caller holds (the game keeps none): an illegal code
//! (malformed, not in its unit's legal list, or one of two different orders to one unit, DATC
//! 4.D.3) gets `ILLEGAL`; a legal one the outcome of its unit (movement: the resolver's code;
//! retreats: ok, or bounce when two units retreat to one province; adjustments: ok, or void for
//! builds, waives and disbands beyond the count, DATC 4.D.4-4.D.6). The same code given twice is
//! one order and both copies get its result. What happens without an order is reported as
//! *implied* results, `(code, result, success)`: holds of unordered units (province order),
//! disbands of dislodged units without a legal order (province order), and per power in map
//! order the waives of unused builds and the disbands of the civil-disorder rule (removal order).
//!
//! # Verdicts
//!
//! [`Game::process_into`] gives only those results, into the caller's [`Outcome`] (a bot's
//! codes: nothing else is made; [`Game::process`] drops them). [`Game::rule`] returns the
//! phase's [`Verdict`], a value holding the outcome and more: the state ruled from
//! and the state reached, per code its reason and normal form, the facts behind a movement
//! result and the units dislodged, and for retreats and adjustments why each result is what it
//! is ([`Ruling`]: an [`explain`] code and the facts its sentence names, per code then per
//! implied result), so the object API words them without ruling the phase again, from the
//! verdict it was handed (no game is kept or cloned for it).
//!
//! # Buffers
//!
//! Everything a phase needs besides the game itself (the legal-order tables, the resolver and its
//! outcome, scratch arrays) lives in one [`Scratch`] per thread and map, so neither processing
//! nor cloning a game allocates once the buffers have grown. The legal-order tables describe one
//! state, named by its `stamp`: a fresh number for every state a game enters (a clone keeps its
//! original's stamp: it is the same state), so asking for the legal orders and then processing
//! the same state works the tables out once.
//!
//! # Files
//!
//! This file holds [`Game`] and the next position; beside it: `codes` (the [`result`] and
//! [`explain`] codes, [`Ruling`]), `play` ([`Scratch`]: validation and the three phase kinds),
//! `explainers` (why each result is what it is), `outcome` ([`Outcome`]), `verdict` ([`Verdict`])
//! and `pool` (the per-thread scratch pool, the spare verdicts and outcomes, and the stamps
//! naming states).

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use std::any::Any;

use super::encode::{self, kind, Code};
use super::game_map::NO_POWER;
use super::game_map::{bit, has, Bits, GameMap, Mask};
use super::legality::{self, reason, Legal, Slot};
use super::rules::BuildSites;
use super::state::{Piece, State, ADJUSTMENTS, FALL, MOVEMENT, RETREATS, SPRING, WINTER};
use crate::engine::error::EngineError;
use crate::resolver::orders::{Order, Unit};
use crate::resolver::outcome::MovementOutcome;
use crate::resolver::Adjudicator;

mod codes;
mod explainers;
mod outcome;
mod play;
mod pool;
mod verdict;

pub use codes::{explain, result, Ruling, EXPLAIN_NAMES};
pub use outcome::Outcome;
pub use play::Scratch;
pub use pool::{
    borrow_spare_scratch, forget_scratch, recycle_outcome, recycle_verdict, return_scratch,
    spare_outcome, spare_verdict, with_scratch,
};
pub use verdict::Verdict;

use explainers::{
    border_distances, explain_disorder, explain_movement, explain_retreats, unit_distances,
};
use pool::fresh_stamp;

/// The ruling of a code that is illegal.
const REFUSED: u16 = u16::MAX;

/// A game on the engine (see the module documentation).
#[derive(Clone, Debug)]
pub struct Game<M: Mask> {
    pub map: &'static GameMap<M>,
    pub state: State<M>,
    /// The game ends once a phase of a later year would come next.
    pub max_year: Option<u32>,
    pub over: bool,
    pub winner: Option<u8>,
    /// Names the state for the legal-order tables (see the module documentation).
    pub stamp: u64,
    /// The codes submitted for the current phase.
    pub orders: Vec<Code>,
    /// Test hook: the next processing panics (to show that no panic reaches Python).
    pub poisoned: bool,
    /// Per submitted code, the power that gave it (`NO_POWER` or none at all: the owner of
    /// whatever it orders, as for a bot's codes). An order for another power's unit is refused.
    pub powers: Vec<u8>,
}

/// What a movement result rests on (see `crate::resolver::outcome::MovementOutcome`): the dislodger's
/// origin and the unit behind the result (locations, -1 for none), the strengths compared,
/// whether the move went by convoy, and whether the Szykman rule broke the convoy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fact {
    pub dislodged_by: i32,
    pub by: i32,
    pub attack: u8,
    pub opposition: u8,
    pub convoyed: bool,
    pub szykman: bool,
}

impl<M: Mask> Game<M> {
    /// A game from `state` under the state's rules; it ends after `max_year` or the rules'
    /// year limit, whichever comes first.
    pub fn new(map: &'static GameMap<M>, state: State<M>, max_year: Option<u32>) -> Game<M> {
        let max_year = match (max_year, state.rules.year_limit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Game {
            map,
            state,
            max_year,
            over: false,
            winner: None,
            stamp: fresh_stamp(),
            orders: Vec::new(),
            poisoned: false,
            powers: Vec::new(),
        }
    }

    /// Calls `f` with the slots and lists of the current phase (none once the game is over).
    pub fn with_legal<R>(&self, f: impl FnOnce(&Legal<M>, &[Slot]) -> R) -> R {
        let (map, st, stamp) = (self.map, &self.state, self.stamp);
        with_scratch(map, |s| {
            s.legal.prepare(map, st, stamp);
            if self.over {
                return f(&s.legal, &[]);
            }
            s.legal.all_slots(map, st);
            f(&s.legal, s.legal.slots())
        })
    }

    /// What validation makes of `code` given by `by` (`NO_POWER`: its unit's owner) in this
    /// phase, without playing anything: `(reason::OK, normal form)` when legal, else
    /// `(reason, 0)` (the reason a phase ruled with it would give it, when given alone).
    pub fn judge(&self, code: Code, by: u8) -> (u8, Code) {
        let (map, st, stamp) = (self.map, &self.state, self.stamp);
        with_scratch(map, |s| {
            s.legal.prepare(map, st, stamp);
            match s.legal.check(map, st, code) {
                Some((key, c)) if by == NO_POWER || by as usize == play::giver(st, key, c) => {
                    (reason::OK, c)
                }
                _ => (legality::why(&mut s.legal, map, st, by, code), 0),
            }
        })
    }

    /// What validation makes of `codes` given by `powers` (as [`Game::powers`]) in this phase,
    /// nothing played: per code into `reasons` its reason, the one a phase ruled with exactly
    /// these codes would give (a verdict's `reasons`: two different orders to one unit are both
    /// `MULTIPLE_ORDERS`, DATC 4.D.3), without cloning or changing the game.
    pub fn judge_all(&self, codes: &[Code], powers: &[u8], reasons: &mut Vec<u8>) {
        if self.state.kind == ADJUSTMENTS {
            // Each code alone: an adjustment's surplus is void, not refused.
            for (i, &code) in codes.iter().enumerate() {
                reasons.push(
                    self.judge(code, powers.get(i).copied().unwrap_or(NO_POWER))
                        .0,
                );
            }
            return;
        }
        let (map, st, stamp) = (self.map, &self.state, self.stamp);
        let mut normal = Vec::with_capacity(codes.len());
        with_scratch(map, |s| {
            s.listed = false;
            s.rule_unit_orders(st, stamp, codes, powers, Some((reasons, &mut normal)));
        });
    }

    /// Rules on the submitted codes and moves on to the next phase, the results dropped (a
    /// player that does not read them; [`Game::process_into`] gives them). Errors only on an
    /// internal inconsistency (a bug), never on the codes.
    pub fn process(&mut self) -> Result<(), EngineError> {
        self.process_codes(false, None, None)
    }

    /// [`Game::process`], the phase's results written into `out` (emptied first, its buffers
    /// reused): the game keeps none of them. On an error `out` is left half made.
    pub fn process_into(&mut self, out: &mut Outcome) -> Result<(), EngineError> {
        self.process_codes(false, Some(out), None)
    }

    /// [`Game::process`], returning the phase's [`Verdict`] (the ruling explained).
    /// The verdict comes from this thread's spares when it has one ([`spare_verdict`]; give
    /// it back with [`recycle_verdict`] once read).
    pub fn rule(&mut self) -> Result<Box<Verdict<M>>, EngineError> {
        let mut verdict = spare_verdict(self.map, &self.state);
        self.rule_into(&mut verdict, false)?;
        Ok(verdict)
    }

    /// [`Game::rule`] into `verdict`, whose buffers are reused (a player of many phases keeps
    /// one); `listed` as [`Game::process_listed_into`] (the codes are checked all the same: an
    /// explained ruling names each code's reason). On an error the verdict is left half made.
    pub fn rule_into(&mut self, verdict: &mut Verdict<M>, listed: bool) -> Result<(), EngineError> {
        verdict.clear();
        verdict.map = self.map;
        verdict.before.clone_from(&self.state);
        verdict.orders.extend_from_slice(&self.orders);
        verdict.powers.extend_from_slice(&self.powers);
        // The verdict's outcome is filled in place, beside the rest of the verdict.
        let mut outcome = std::mem::take(&mut verdict.outcome);
        let done = self.process_codes(listed, Some(&mut outcome), Some(verdict));
        verdict.outcome = outcome;
        done?;
        verdict.after.clone_from(&self.state);
        verdict.winner = self.winner;
        Ok(())
    }

    /// [`Game::process_into`] for codes taken from the current phase's legal lists, at most one
    /// per slot and none given for another power (the vectorised environment's): a movement or
    /// retreat phase takes them without checking them again (debug builds still check). The
    /// same rulings as `process` for such codes; anything else is a bug of the caller.
    pub fn process_listed_into(&mut self, out: &mut Outcome) -> Result<(), EngineError> {
        self.process_codes(true, Some(out), None)
    }

    /// Processes the phase, its results into `out` (none: into this thread's spare outcome,
    /// dropped); with `why`, also records why (the verdict's reasons, normal forms, facts,
    /// dislodged units and rulings).
    fn process_codes(
        &mut self,
        listed: bool,
        out: Option<&mut Outcome>,
        why: Option<&mut Verdict<M>>,
    ) -> Result<(), EngineError> {
        if self.poisoned {
            self.poisoned = false;
            panic!("deliberate panic (test hook)");
        }
        if self.over {
            return Err(EngineError::game_over());
        }
        let map = self.map;
        let outcome = with_scratch(map, |s| {
            s.listed = listed;
            match out {
                Some(out) => s.play(self, out, why),
                None => {
                    // Kept between phases for its buffers.
                    let mut spare = std::mem::take(&mut s.outcome);
                    let done = s.play(self, &mut spare, why);
                    s.outcome = spare;
                    done
                }
            }
        });
        self.orders.clear();
        self.stamp = fresh_stamp();
        outcome?;
        debug_assert_eq!(
            self.state.hash,
            super::state::full_hash(map, &self.state),
            "the kept hash is the hash of the board"
        );
        if self.winner.is_some() || self.state.year > self.last_year() {
            self.over = true;
        }
        Ok(())
    }

    /// The last year played: `max_year` (the earlier of the game's and the rules' limits) or
    /// the last year the map's calendar plays within the year range ([`GameMap::last_year`]),
    /// whichever is earlier.
    pub fn last_year(&self) -> u32 {
        let calendar = self.map.last_year();
        self.max_year.map_or(calendar, |y| y.min(calendar))
    }
}

/// The phase after a movement or retreat phase with no retreat pending: Fall after Spring;
/// after the Fall, centres change hands (an empty centre keeps its owner), a power with the
/// victory count wins ([`super::rules::Rules::winner`]: under `victory_lead` only when ahead;
/// under `victory_margin_year` also a large enough lead),
/// and the winter is played only when some power can build or must disband.
fn after_turn<M: Mask>(map: &GameMap<M>, game: &mut Game<M>) {
    let st = &mut game.state;
    if st.season == SPRING {
        st.set_phase(map.next_year(st.year, SPRING), FALL, MOVEMENT);
        return;
    }
    for q in Bits(map.centers) {
        let u = st.units[q];
        // Written only when it changes: a game may be processed on another core than the one
        // that made it, and every line written is a line that core must fetch.
        if u.is_some() && st.centers[q] != u.power {
            st.set_center(q, u.power);
        }
    }
    let mut centers = M::table(0u32);
    let mut units = M::table(0u32);
    st.unit_counts(map, &mut units.as_mut()[..map.powers]);
    let best = solo_winner(map, st, &mut centers.as_mut()[..map.powers]);
    st.set_phase(st.year, WINTER, ADJUSTMENTS);
    if let Some(w) = best {
        game.winner = Some(w as u8);
        return;
    }
    if !winter_needed(map, st, centers.as_ref(), units.as_ref())
        && map.neutral_rebuilds(st).is_zero()
    {
        st.set_phase(map.next_year(st.year, WINTER), SPRING, MOVEMENT);
    }
}

/// The power that wins alone on the centres of `st` in its year, the rule after a Fall turn;
/// `centers` (one per power) is left holding the centres that count: a neutral power wins
/// nothing and is no rival, so its centres count for nobody. Two powers at 18 or more cannot
/// happen on the standard map (34 centres); elsewhere the larger wins, the first in map order
/// on a tie (no one under `victory_lead`).
pub fn solo_winner<M: Mask>(map: &GameMap<M>, st: &State<M>, centers: &mut [u32]) -> Option<usize> {
    st.center_counts(map, centers);
    for (count, &neutral) in centers.iter_mut().zip(&map.neutral) {
        if neutral {
            *count = 0;
        }
    }
    st.rules.winner(map, centers, st.year)
}

/// Whether some power can build (somewhere) or has to disband.
fn winter_needed<M: Mask>(map: &GameMap<M>, st: &State<M>, centers: &[u32], units: &[u32]) -> bool {
    (0..map.powers).any(|power| {
        st.rules
            .allowance(map, st, power, centers[power], units[power])
            != 0
    })
}
