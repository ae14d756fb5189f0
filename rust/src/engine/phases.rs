//! A fast game and its phases: validation of the submitted codes, the movement resolver, the
//! retreat and adjustment phases, and the next position with phase skipping, centre changes after
//! the Fall turn and the victory (the rules' count, 18 centres on the standard map) — what `diplo.adjudicate.process_phase` and
//! `diplo.game.Game` do, on encoded orders.
//!
//! # Results
//!
//! Every submitted code gets a result code and a success flag ([`result`]): an illegal code
//! (malformed, not in its unit's legal list, or one of two different orders to one unit, DATC
//! 4.D.3) gets `ILLEGAL`; a legal one the outcome of its unit (movement: the resolver's code;
//! retreats: ok, or bounce when two units retreat to one province; adjustments: ok, or void for
//! builds, waives and disbands beyond the count, DATC 4.D.4-4.D.6). The same code given twice is
//! one order and both copies get its result. What happens without an order is reported as
//! *implied* results, `(code, result, success)`: holds of unordered units (province order),
//! disbands of dislodged units without a legal order (province order), and per power in map
//! order the waives of unused builds and the disbands of the civil-disorder rule (removal order).
//! With `Game::explain`, retreats and adjustments also record why each result is what it is
//! ([`Ruling`]: an [`explain`] code and the facts its sentence names, per code then per implied
//! result), so the object API words them without ruling the phase again.
//!
//! # Buffers
//!
//! Everything a phase needs besides the game itself (the legal-order tables, the resolver and its
//! outcome, scratch arrays) lives in one [`Scratch`] per thread and map, so neither processing
//! nor cloning a game allocates once the buffers have grown. The legal-order tables describe one
//! state, named by its `stamp`: a fresh number for every state a game enters (a clone keeps its
//! original's stamp: it is the same state), so asking for the legal orders and then processing
//! the same state works the tables out once.

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use std::any::Any;

use super::encode::{self, kind, Code};
use super::game_map::NO_POWER;
use super::game_map::{bit, has, Bits, GameMap, Mask};
use super::legality::{reason, why, Legal, Slot};
use super::rules::BuildSites;
use super::state::{Piece, State, ADJUSTMENTS, FALL, MOVEMENT, RETREATS, SPRING, WINTER};
use crate::resolver::orders::{Order, Unit};
use crate::resolver::outcome::MovementOutcome;
use crate::resolver::Adjudicator;

/// Result codes of submitted orders: the core's codes and ILLEGAL.
pub mod result {
    pub use crate::resolver::code::{BOUNCE, CUT, DISLODGED, NO_CONVOY, OK, VOID};
    /// An order refused by validation (the one code the engine adds to the resolver's).
    pub const ILLEGAL: u8 = 6;
    /// The name of [`ILLEGAL`], as `diplo.outcome` spells it.
    pub const ILLEGAL_NAME: &str = "illegal";
}

/// Why a retreat or adjustment result is what it is: the sentence `diplo.model.outcome`
/// words from a [`Ruling`]'s facts. Indexes of [`EXPLAIN_NAMES`], the one table of these
/// numbers (exported to Python as `diplo._core.EXPLAIN_NAMES`).
pub mod explain {
    /// A retreat carried out (`place`: the destination).
    pub const RETREATED: u8 = 0;
    /// A disband ordered and carried out (retreat or adjustment phase).
    pub const DISBANDED: u8 = 1;
    /// DATC 6.H.7: a retreat to a province another unit retreats to (`place`: the destination,
    /// `other`: its province, `rivals`: the other units).
    pub const RETREAT_CLASH: u8 = 2;
    /// A dislodged unit without a legal retreat order, disbanded.
    pub const NO_RETREAT: u8 = 3;
    /// A build or waive of a power that owes disbands (`count`: how many).
    pub const BUILD_WHILE_OWING: u8 = 4;
    /// A build or waive with a centre surplus but no vacant owned home centre.
    pub const BUILD_NO_HOME_SITE: u8 = 5;
    /// The same under `build_sites="any"`: no vacant owned centre.
    pub const BUILD_NO_SITE: u8 = 6;
    /// A build or waive of a power with no more centres than units.
    pub const BUILD_NO_SURPLUS: u8 = 7;
    /// DATC 4.D.5: a second build in a province (`place`: the province, `other`: the first).
    pub const BUILD_SAME_PROVINCE: u8 = 8;
    /// DATC 4.D.4: a build or waive beyond the allowance (`count`: the builds allowed).
    pub const BUILD_EXCESS: u8 = 9;
    /// DATC 4.D.7: a waive carried out.
    pub const WAIVED: u8 = 10;
    /// A build carried out (`unit`: the new unit).
    pub const BUILT: u8 = 11;
    /// A disband of a power that may build (`count`: the builds allowed).
    pub const DISBAND_WHILE_BUILDING: u8 = 12;
    /// A disband of a power that owes none and may not build.
    pub const DISBAND_NOT_OWED: u8 = 13;
    /// DATC 6.J.2: a unit disbanded by an earlier order.
    pub const DISBAND_REPEAT: u8 = 14;
    /// DATC 4.D.6: a disband beyond those owed (`count`: the disbands owed).
    pub const DISBAND_EXCESS: u8 = 15;
    /// An allowed build left unused, waived (`count`: the builds allowed).
    pub const UNUSED_BUILD: u8 = 16;
    /// Civil disorder of a power that owns no centre (the 2023 rule).
    pub const DISORDER_NO_CENTRE: u8 = 17;
    /// Civil disorder of a power with no home centre (the older rule).
    pub const DISORDER_NO_HOME: u8 = 18;
    /// Civil disorder of a unit with no route to any centre the rule counts (`home`: the older
    /// rule).
    pub const DISORDER_NO_ROUTE: u8 = 19;
    /// Civil disorder of a unit on such a centre (`place`: the centre, `home`: the older rule).
    pub const DISORDER_ON_CENTRE: u8 = 20;
    /// Civil disorder of a unit `count` moves from the nearest such centre (`place`).
    pub const DISORDER_DISTANCE: u8 = 21;
    /// No explanation (a refused code).
    pub const NONE: u8 = u8::MAX;
}

/// The names of the [`explain`] codes, indexed by code: the keys of the sentences in
/// `diplo.model.outcome`.
pub const EXPLAIN_NAMES: [&str; 22] = [
    "retreated",
    "disbanded",
    "retreat_clash",
    "no_retreat",
    "build_while_owing",
    "build_no_home_site",
    "build_no_site",
    "build_no_surplus",
    "build_same_province",
    "build_excess",
    "waived",
    "built",
    "disband_while_building",
    "disband_not_owed",
    "disband_repeat",
    "disband_excess",
    "unused_build",
    "disorder_no_centre",
    "disorder_no_home",
    "disorder_no_route",
    "disorder_on_centre",
    "disorder_distance",
];

/// What a retreat or adjustment result rests on: why ([`explain`]) and the facts its sentence
/// names (each why uses some of them; the others keep their defaults).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ruling {
    pub why: u8,
    /// The power concerned (`NO_POWER` for none).
    pub power: u8,
    /// The unit concerned (`Piece::NONE` for none).
    pub unit: Piece,
    /// A location (-1 for none): a retreat's destination, a province, the nearest centre.
    pub place: i32,
    /// A location (-1 for none): the province of a clashing retreat.
    pub other_place: i32,
    /// Another unit (`Piece::NONE` for none): the first build in a province.
    pub other: Piece,
    pub count: i32,
    /// Civil disorder under the older rulebooks' rule (distance to a home centre).
    pub home: bool,
    /// A clashing retreat's rivals, in the order their orders were given.
    pub rivals: Vec<Piece>,
}

impl Ruling {
    /// `why` about `power`, every other fact at its default.
    pub fn new(why: u8, power: u8) -> Ruling {
        Ruling {
            why,
            power,
            unit: Piece::NONE,
            place: -1,
            other_place: -1,
            other: Piece::NONE,
            count: 0,
            home: false,
            rivals: Vec::new(),
        }
    }

    /// `why` about the unit `unit` (and its power).
    pub fn of_unit(why: u8, unit: Piece) -> Ruling {
        Ruling {
            unit,
            ..Ruling::new(why, unit.power)
        }
    }
}

/// The ruling of a code that is illegal.
const REFUSED: u16 = u16::MAX;

static STAMPS: AtomicU64 = AtomicU64::new(1);
/// Stamps a thread hands out before it takes a new block from `STAMPS`.
const STAMP_BLOCK: u64 = 1 << 20;

thread_local! {
    /// This thread's next stamp and the end of its block: threads processing games in parallel
    /// do not contend for one counter.
    static NEXT_STAMP: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
}

/// A number never handed out before (never 0).
fn fresh_stamp() -> u64 {
    NEXT_STAMP.with(|cell| {
        let (mut next, mut end) = cell.get();
        if next == end {
            next = STAMPS.fetch_add(STAMP_BLOCK, Ordering::Relaxed);
            end = next + STAMP_BLOCK;
        }
        cell.set((next + 1, end));
        next
    })
}

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
    /// Per code submitted for the last processed phase: result code and success.
    pub results: Vec<u8>,
    pub success: Vec<bool>,
    /// What the last processed phase did without an order: (code, result, success).
    pub implied: Vec<(Code, u8, bool)>,
    /// Test hook: the next processing panics (to show that no panic reaches Python).
    pub poisoned: bool,
    /// Per submitted code, the power that gave it (`NO_POWER` or none at all: the owner of
    /// whatever it orders, as for a bot's codes). An order for another power's unit is refused.
    pub powers: Vec<u8>,
    /// Whether processing also records why (`reasons`, `normal`, `facts`, `gone`): the object
    /// API's explanations. Off for a bot's codes (`diplo.fast`).
    pub explain: bool,
    /// With `explain`: per submitted code, its reason code (`legality::reason`, OK when legal).
    pub reasons: Vec<u8>,
    /// With `explain`: per submitted code, its normal form (0 when refused).
    pub normal: Vec<Code>,
    /// With `explain`, movement: the facts behind each result, per submitted code then per
    /// implied result.
    pub facts: Vec<Fact>,
    /// With `explain`, movement: every dislodged unit (province order) and its retreat options.
    pub gone: Vec<(Piece, M)>,
    /// With `explain`, retreats and adjustments: why each result is what it is, per submitted
    /// code (`explain::NONE` when refused) then per implied result.
    pub rulings: Vec<Ruling>,
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
            results: Vec::new(),
            success: Vec::new(),
            implied: Vec::new(),
            poisoned: false,
            powers: Vec::new(),
            explain: false,
            reasons: Vec::new(),
            normal: Vec::new(),
            facts: Vec::new(),
            gone: Vec::new(),
            rulings: Vec::new(),
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

    /// Rules on the submitted codes and moves on to the next phase. Errors only on an internal
    /// inconsistency (a bug), never on the codes.
    pub fn process(&mut self) -> Result<(), String> {
        self.process_codes(false)
    }

    /// [`Game::process`] for codes taken from the current phase's legal lists, at most one per
    /// slot and none given for another power (the vectorised environment's): a movement or
    /// retreat phase takes them without checking them again (debug builds still check). The
    /// same rulings as `process` for such codes; anything else is a bug of the caller.
    pub fn process_listed(&mut self) -> Result<(), String> {
        self.process_codes(true)
    }

    fn process_codes(&mut self, listed: bool) -> Result<(), String> {
        if self.poisoned {
            self.poisoned = false;
            panic!("deliberate panic (test hook)");
        }
        if self.over {
            return Err("the game is over".into());
        }
        let map = self.map;
        self.rulings.clear();
        let outcome = with_scratch(map, |s| {
            s.listed = listed;
            match self.state.kind {
                MOVEMENT => s.movement(self),
                RETREATS => {
                    s.retreats(self);
                    Ok(())
                }
                _ => {
                    s.adjustments(self);
                    Ok(())
                }
            }
        });
        self.orders.clear();
        self.stamp = fresh_stamp();
        outcome?;
        debug_assert_eq!(
            self.state.hash,
            super::zobrist::full_hash(map, &self.state),
            "the kept hash is the hash of the board"
        );
        if self.winner.is_some() {
            self.over = true;
        } else if let Some(last) = self.max_year {
            if self.state.year > last {
                self.over = true;
            }
        }
        Ok(())
    }
}

/// The per-thread buffers of one map (see "Buffers" in the module documentation).
pub struct Scratch<M: Mask> {
    map: &'static GameMap<M>,
    pub legal: Legal<M>,
    adj: Adjudicator<'static>,
    out: MovementOutcome,
    units: Vec<Unit>,
    orders: Vec<Order>,
    /// Per submitted code: the key of its slot (province, or power for a waive) or REFUSED.
    keys: Vec<u16>,
    /// Per submitted code: its normal form.
    normal: Vec<Code>,
    /// Per province: the effective order.
    effective: M::Table<Code>,
    /// Per province: the resolver's index of its unit.
    index: M::Table<u16>,
    candidates: Vec<(u32, u16)>,
    /// The codes come from the phase's lists ([`Game::process_listed`]).
    listed: bool,
}

impl<M: Mask> Scratch<M> {
    fn new(map: &'static GameMap<M>) -> Scratch<M> {
        Scratch {
            map,
            legal: Legal::default(),
            adj: Adjudicator::new(&map.cmap),
            out: MovementOutcome::default(),
            units: Vec::new(),
            orders: Vec::new(),
            keys: Vec::new(),
            normal: Vec::new(),
            effective: M::table(0),
            index: M::table(0),
            candidates: Vec::new(),
            listed: false,
        }
    }

    /// Rules on every submitted code of a movement or retreat phase: fills `keys` and `normal`,
    /// `effective` per province, and returns the provinces with exactly one (legal) order.
    fn rule_unit_orders(&mut self, game: &mut Game<M>) -> M {
        let map = self.map;
        let st = &game.state;
        // Adjustments check their codes against lists they make anyway.
        let listed = self.listed && !game.explain && st.kind != ADJUSTMENTS;
        if !listed || cfg!(debug_assertions) {
            self.legal.prepare(map, st, game.stamp);
        }
        self.keys.clear();
        self.normal.clear();
        let mut ordered = M::ZERO;
        let mut conflict = M::ZERO;
        for (i, &code) in game.orders.iter().enumerate() {
            let by = game.powers.get(i).copied().unwrap_or(NO_POWER);
            if listed {
                // A code of the lists is its own normal form, keyed by its unit's province.
                let key = map.prov_of[encode::loc_of(code)] as usize;
                debug_assert_eq!(self.legal.check(map, st, code), Some((key, code)));
                self.keys.push(key as u16);
                self.normal.push(code);
                ordered |= M::bit(key);
                self.effective[key] = code;
                continue;
            }
            let verdict = self.legal.check(map, st, code).filter(|&(p, _)| {
                // DATC 6.A.6: an order for another power's unit is refused.
                let owner = if st.kind == MOVEMENT {
                    st.units[p].power
                } else {
                    st.dislodged[p].power
                };
                by == NO_POWER || by == owner
            });
            match verdict {
                Some((p, c)) => {
                    self.keys.push(p as u16);
                    self.normal.push(c);
                    if has(ordered, p) {
                        if self.effective[p] != c {
                            // DATC 4.D.3: two different orders to one unit: both void, it holds.
                            conflict |= M::bit(p);
                        }
                    } else {
                        ordered |= M::bit(p);
                        self.effective[p] = c;
                    }
                }
                None => {
                    self.keys.push(REFUSED);
                    self.normal.push(0);
                }
            }
        }
        let effective = ordered & !conflict;
        if game.explain {
            game.reasons.clear();
            game.normal.clear();
            for (i, &code) in game.orders.iter().enumerate() {
                let key = self.keys[i];
                let r = if key == REFUSED {
                    let by = game.powers.get(i).copied().unwrap_or(NO_POWER);
                    why(&mut self.legal, map, st, by, code)
                } else if !has(effective, key as usize) {
                    reason::MULTIPLE_ORDERS
                } else {
                    reason::OK
                };
                game.reasons.push(r);
                game.normal
                    .push(if key == REFUSED { 0 } else { self.normal[i] });
            }
        }
        effective
    }

    fn movement(&mut self, game: &mut Game<M>) -> Result<(), String> {
        let map = self.map;
        let effective = self.rule_unit_orders(game);
        let st = &game.state;
        self.units.clear();
        self.orders.clear();
        let mut occupied = M::ZERO;
        for q in 0..map.provinces {
            let u = st.units[q];
            if !u.is_some() {
                continue;
            }
            occupied |= M::bit(q);
            self.index[q] = self.units.len() as u16;
            self.units.push(Unit {
                power: u.power,
                is_fleet: u.fleet,
                loc: u.loc,
            });
            self.orders.push(if has(effective, q) {
                to_order(self.effective[q])
            } else {
                Order::Hold
            });
        }
        self.adj.rulings = st.rules.resolver;
        crate::resolver::resolve_with(&mut self.adj, &self.units, &self.orders, &mut self.out)
            .map_err(|e| format!("the resolver refused a legal order set: {e}"))?;
        let out = &self.out;

        game.results.clear();
        game.success.clear();
        game.results.reserve(self.keys.len());
        game.success.reserve(self.keys.len());
        for &key in &self.keys {
            if key == REFUSED || !has(effective, key as usize) {
                game.results.push(result::ILLEGAL);
                game.success.push(false);
            } else {
                let i = self.index[key as usize] as usize;
                game.results.push(out.codes[i]);
                game.success.push(out.success[i]);
            }
        }
        game.implied.clear();
        game.implied
            .reserve((occupied & !effective).count() as usize);
        for q in Bits(occupied & !effective) {
            let i = self.index[q] as usize;
            game.implied.push((
                encode::hold(st.units[q].loc as usize),
                out.codes[i],
                out.success[i],
            ));
        }
        if game.explain {
            explain_movement(
                map,
                out,
                &self.keys,
                &self.effective,
                &self.index,
                effective,
                occupied,
                game,
            );
        }
        let st = &mut game.state;

        // The next board: moved units at their destination, dislodged ones aside with their
        // retreat options (units with none are gone), the rest where they were. First every
        // unit that leaves its province is lifted, then the movers are put down (a successful
        // move's destination is empty by then), so only what changes is written (and hashed).
        game.gone.clear();
        st.clear_dislodged();
        let moves = |q: usize| {
            has(effective, q)
                && encode::kind_of(self.effective[q]) == kind::MOVE
                && out.success[self.index[q] as usize]
        };
        let mut leaving = M::ZERO;
        for q in Bits(occupied) {
            if moves(q) || out.dislodged_by[self.index[q] as usize] >= 0 {
                leaving |= M::bit(q);
            }
        }
        let mut before = M::table(Piece::NONE);
        for q in Bits(leaving) {
            before[q] = st.units[q];
            st.set_unit(q, Piece::NONE);
        }
        let mut pending = false;
        for q in Bits(leaving) {
            let i = self.index[q] as usize;
            let u = before[q];
            if moves(q) {
                let dest = encode::a_of(self.effective[q]);
                let dp = map.prov_of[dest] as usize;
                debug_assert!(!st.units[dp].is_some());
                st.set_unit(
                    dp,
                    Piece {
                        loc: dest as u16,
                        ..u
                    },
                );
            } else {
                let options = out.retreats[i]
                    .iter()
                    .fold(M::ZERO, |m: M, &l| m | M::bit(l as usize));
                if game.explain {
                    game.gone.push((u, options));
                }
                if !options.is_zero() {
                    st.set_dislodged(q, u, options);
                    pending = true;
                }
            }
        }
        if pending {
            st.set_phase(st.year, st.season, RETREATS);
        } else {
            after_turn(map, game);
        }
        Ok(())
    }

    fn retreats(&mut self, game: &mut Game<M>) {
        let map = self.map;
        let effective = self.rule_unit_orders(game);
        game.facts.clear();
        game.gone.clear();
        let st = &mut game.state;
        let mut once = M::ZERO;
        let mut twice = M::ZERO;
        for q in Bits(effective) {
            let order = self.effective[q];
            if encode::kind_of(order) == kind::RETREAT {
                let dp = M::bit(map.prov_of[encode::a_of(order)] as usize);
                twice |= once & dp;
                once |= dp;
            }
        }
        // Per dislodged province: the outcome of its effective order.
        let mut bounced = M::ZERO;
        let dislodged = st.dislodged_at;
        for q in Bits(effective) {
            let order = self.effective[q];
            if encode::kind_of(order) == kind::RETREAT {
                let dest = encode::a_of(order);
                let dp = map.prov_of[dest] as usize;
                if has(twice, dp) {
                    // DATC 6.H.7, 6.H.8: units retreating to one province are all disbanded.
                    bounced |= M::bit(q);
                } else {
                    let moved = Piece {
                        loc: dest as u16,
                        ..st.dislodged[q]
                    };
                    st.set_unit(dp, moved);
                }
            }
        }
        game.results.clear();
        game.success.clear();
        for &key in &self.keys {
            if key == REFUSED || !has(effective, key as usize) {
                game.results.push(result::ILLEGAL);
                game.success.push(false);
            } else if has(bounced, key as usize) {
                game.results.push(result::BOUNCE);
                game.success.push(false);
            } else {
                game.results.push(result::OK);
                game.success.push(true);
            }
        }
        game.implied.clear();
        for q in Bits(dislodged & !effective) {
            game.implied.push((
                encode::disband(st.dislodged[q].loc as usize),
                result::OK,
                true,
            ));
        }
        if game.explain {
            explain_retreats(
                map,
                &self.keys,
                &self.effective,
                effective,
                bounced,
                &game.state,
                &mut game.rulings,
            );
        }
        let st = &mut game.state;
        st.clear_dislodged();
        if st.season == SPRING {
            st.set_phase(st.year, FALL, MOVEMENT);
        } else {
            after_turn(map, game);
        }
    }

    fn adjustments(&mut self, game: &mut Game<M>) {
        let map = self.map;
        let st = &game.state;
        self.legal.prepare(map, st, game.stamp);
        let mut centers = M::table(0u32);
        let mut units = M::table(0u32);
        st.center_counts(map, &mut centers.as_mut()[..map.powers]);
        st.unit_counts(map, &mut units.as_mut()[..map.powers]);
        // Builds allowed (> 0, at most the build sites) or disbands owed (< 0).
        let mut allowed = M::table(0i64);
        for power in 0..map.powers {
            allowed[power] = st
                .rules
                .allowance(map, st, power, centers[power], units[power]);
        }
        let mut used = M::table(0i64);
        let mut built = M::ZERO;
        let mut removed = M::ZERO;
        let mut added = M::table(Piece::NONE);
        game.results.clear();
        game.success.clear();
        game.reasons.clear();
        game.normal.clear();
        game.facts.clear();
        game.gone.clear();
        for i in 0..game.orders.len() {
            let code = game.orders[i];
            let by = game.powers.get(i).copied().unwrap_or(NO_POWER);
            let verdict = self.legal.check(map, st, code).filter(|&(key, c)| {
                // An order for another power's unit, home centre or waive is refused.
                by == NO_POWER
                    || by as usize
                        == match encode::kind_of(c) {
                            kind::DISBAND => st.units[key].power as usize,
                            kind::WAIVE => key,
                            // A build site is a centre its power owns (home or not, as the
                            // rules say), so the build is the owner's order.
                            _ => st.centers[key] as usize,
                        }
            });
            let Some((key, c)) = verdict else {
                game.results.push(result::ILLEGAL);
                game.success.push(false);
                if game.explain {
                    game.reasons.push(why(&mut self.legal, map, st, by, code));
                    game.normal.push(0);
                    game.rulings.push(Ruling::new(explain::NONE, NO_POWER));
                }
                continue;
            };
            if game.explain {
                game.reasons.push(reason::OK);
                game.normal.push(c);
            }
            let (ok, ruling) = match encode::kind_of(c) {
                kind::DISBAND => {
                    let unit = st.units[key];
                    let power = unit.power as usize;
                    let owed = -allowed[power];
                    let p = power as u8;
                    if owed < 0 {
                        let r = Ruling {
                            count: -owed as i32,
                            ..Ruling::new(explain::DISBAND_WHILE_BUILDING, p)
                        };
                        (false, r)
                    } else if owed == 0 {
                        (false, Ruling::new(explain::DISBAND_NOT_OWED, p))
                    } else if has(removed, key) {
                        // DATC 6.J.2: the same unit twice counts once.
                        (true, Ruling::of_unit(explain::DISBAND_REPEAT, unit))
                    } else if used[power] >= owed {
                        // DATC 4.D.6: the first disbands are used.
                        let r = Ruling {
                            count: owed as i32,
                            ..Ruling::new(explain::DISBAND_EXCESS, p)
                        };
                        (false, r)
                    } else {
                        used[power] += 1;
                        removed |= M::bit(key);
                        (true, Ruling::of_unit(explain::DISBANDED, unit))
                    }
                }
                k => {
                    // A build is legal only on a centre its power owns (a build site).
                    let power = if k == kind::WAIVE {
                        key
                    } else {
                        st.centers[key] as usize
                    };
                    let p = power as u8;
                    let n = allowed[power];
                    if n < 0 {
                        let r = Ruling {
                            count: -n as i32,
                            ..Ruling::new(explain::BUILD_WHILE_OWING, p)
                        };
                        (false, r)
                    } else if n == 0 {
                        let why = if centers[power] <= units[power] {
                            explain::BUILD_NO_SURPLUS
                        } else if matches!(st.rules.build_sites, BuildSites::HomeCentres) {
                            explain::BUILD_NO_HOME_SITE
                        } else {
                            explain::BUILD_NO_SITE
                        };
                        (false, Ruling::new(why, p))
                    } else if k == kind::BUILD && has(built, key) {
                        // DATC 4.D.5: one build per province.
                        let r = Ruling {
                            place: key as i32,
                            other: added[key],
                            ..Ruling::new(explain::BUILD_SAME_PROVINCE, p)
                        };
                        (false, r)
                    } else if k == kind::WAIVE && st.rules.waive_free {
                        // MILA: a waive never uses up a build.
                        (true, Ruling::new(explain::WAIVED, p))
                    } else if used[power] >= n {
                        // DATC 4.D.4: the first builds and waives (4.D.7) are used.
                        let r = Ruling {
                            count: n as i32,
                            ..Ruling::new(explain::BUILD_EXCESS, p)
                        };
                        (false, r)
                    } else {
                        used[power] += 1;
                        if k == kind::BUILD {
                            built |= M::bit(key);
                            let unit = Piece {
                                power: p,
                                fleet: encode::fleet_of(c),
                                loc: encode::loc_of(c) as u16,
                            };
                            added[key] = unit;
                            (true, Ruling::of_unit(explain::BUILT, unit))
                        } else {
                            (true, Ruling::new(explain::WAIVED, p))
                        }
                    }
                }
            };
            game.results
                .push(if ok { result::OK } else { result::VOID });
            game.success.push(ok);
            if game.explain {
                game.rulings.push(ruling);
            }
        }

        game.implied.clear();
        for power in 0..map.powers {
            let n = allowed[power];
            if n > 0 {
                for _ in used[power]..n {
                    game.implied.push((encode::waive(power), result::OK, true));
                    if game.explain {
                        game.rulings.push(Ruling {
                            count: n as i32,
                            ..Ruling::new(explain::UNUSED_BUILD, power as u8)
                        });
                    }
                }
            } else if n < 0 {
                let shortfall = -n - used[power];
                if shortfall > 0 {
                    self.civil_disorder(st, power, shortfall as usize, removed);
                    for &(_, q) in &self.candidates[..shortfall as usize] {
                        let q = q as usize;
                        removed |= M::bit(q);
                        game.implied.push((
                            encode::disband(st.units[q].loc as usize),
                            result::OK,
                            true,
                        ));
                        if game.explain {
                            game.rulings
                                .push(explain_disorder(map, st, power, st.units[q]));
                        }
                    }
                }
            }
        }
        let st = &mut game.state;
        for q in Bits(removed) {
            st.set_unit(q, Piece::NONE);
        }
        for q in Bits(built) {
            st.set_unit(q, added[q]);
        }
        st.clear_dislodged();
        st.set_phase(st.year + 1, SPRING, MOVEMENT);
    }

    /// DATC 4.D.8 (2023 rules): sorts the units of `power` not yet removed into `candidates`,
    /// first to go first: farthest from the nearest centre the power owns (or, under the older
    /// rulebooks' rule, its nearest home centre: [`super::rules::Rules::disorder_sources`]; every border
    /// counts, DATC 6.J.6, 6.J.10, 6.J.11), fleets before armies (6.J.7), then by English name
    /// (6.J.4). At least `count` units are there.
    #[allow(clippy::needless_range_loop)] // per-province tables indexed together
    fn civil_disorder(&mut self, st: &State<M>, power: usize, count: usize, removed: M) {
        let map = self.map;
        let owned = st.rules.disorder_sources(map, st, power);
        // Distances over every border; unreachable: provinces + 1.
        let far = map.provinces as u32 + 1;
        let dist = border_distances(map, owned, far);
        self.candidates.clear();
        for q in 0..map.provinces {
            let u = st.units[q];
            if u.power == power as u8 && !has(removed, q) {
                let key = ((far - dist[q]) << 20) | (u32::from(!u.fleet) << 16);
                // Larger distance first: sort by (far - dist) ascending, then army bit, then name.
                self.candidates
                    .push((key | u32::from(map.name_rank[q]), q as u16));
            }
        }
        self.candidates.sort_unstable();
        debug_assert!(self.candidates.len() >= count);
    }
}

/// Records why each result of a retreat phase is what it is (`Game::rulings`), per submitted
/// code then per implied disband, from the phase's state (`st`, dislodged units still there).
fn explain_retreats<M: Mask>(
    map: &GameMap<M>,
    keys: &[u16],
    orders: &M::Table<Code>,
    effective: M,
    bounced: M,
    st: &State<M>,
    rulings: &mut Vec<Ruling>,
) {
    // The dislodged provinces with an effective order, in the order of their first order.
    let mut seen = M::ZERO;
    let mut first: Vec<usize> = Vec::new();
    for &key in keys {
        let q = key as usize;
        if key != REFUSED && has(effective, q) && !has(seen, q) {
            seen |= M::bit(q);
            first.push(q);
        }
    }
    for &key in keys {
        let q = key as usize;
        if key == REFUSED || !has(effective, q) {
            rulings.push(Ruling::new(explain::NONE, NO_POWER));
            continue;
        }
        let piece = st.dislodged[q];
        let order = orders[q];
        if encode::kind_of(order) != kind::RETREAT {
            rulings.push(Ruling::of_unit(explain::DISBANDED, piece));
            continue;
        }
        let dest = encode::a_of(order);
        if !has(bounced, q) {
            rulings.push(Ruling {
                place: dest as i32,
                ..Ruling::of_unit(explain::RETREATED, piece)
            });
            continue;
        }
        let target = map.prov_of[dest] as usize;
        let rivals = first
            .iter()
            .filter(|&&p| {
                p != q
                    && encode::kind_of(orders[p]) == kind::RETREAT
                    && map.prov_of[encode::a_of(orders[p])] as usize == target
            })
            .map(|&p| st.dislodged[p])
            .collect();
        rulings.push(Ruling {
            place: dest as i32,
            other_place: target as i32,
            rivals,
            ..Ruling::of_unit(explain::RETREAT_CLASH, piece)
        });
    }
    for q in Bits(st.dislodged_at & !effective) {
        rulings.push(Ruling::of_unit(explain::NO_RETREAT, st.dislodged[q]));
    }
}

/// Breadth-first distances over every border (`map.border`, armies' and fleets' alike: DATC
/// 6.J.6, 6.J.10) from the provinces of `sources`, per province; `far` where none reaches. The
/// one distance of civil disorder: which units go (`Scratch::civil_disorder`) and why
/// ([`explain_disorder`]).
fn border_distances<M: Mask>(map: &GameMap<M>, sources: M, far: u32) -> M::Table<u32> {
    let mut dist = M::table(far);
    let mut seen = sources;
    let mut frontier = sources;
    let mut d = 0;
    while !frontier.is_zero() {
        let mut next = M::ZERO;
        for q in Bits(frontier) {
            dist[q] = d;
            next |= map.border[q];
        }
        next &= !seen;
        seen |= next;
        frontier = next;
        d += 1;
    }
    dist
}

/// Why the civil-disorder rule removes `unit` (of `power`), naming the distance to the nearest
/// centre the rule counts (`sources`) as `diplo.model.outcome` words it.
fn explain_disorder<M: Mask>(map: &GameMap<M>, st: &State<M>, power: usize, unit: Piece) -> Ruling {
    let home = matches!(
        st.rules.civil_disorder,
        super::rules::CivilDisorder::HomeCentres
    );
    let sources = st.rules.disorder_sources(map, st, power);
    if sources.is_zero() {
        let why = if home {
            explain::DISORDER_NO_HOME
        } else {
            explain::DISORDER_NO_CENTRE
        };
        return Ruling::of_unit(why, unit);
    }
    // Distances from the unit's province over every border.
    let start = map.prov_of[unit.loc as usize] as usize;
    let far = u32::MAX;
    let dist = border_distances(map, bit::<M>(start), far);
    // The nearest centre; on equal distance the first in the map's order.
    let nearest = Bits(sources)
        .filter(|&c| dist[c] != far)
        .min_by_key(|&c| (dist[c], c));
    let Some(c) = nearest else {
        return Ruling {
            home,
            ..Ruling::of_unit(explain::DISORDER_NO_ROUTE, unit)
        };
    };
    let why = if dist[c] == 0 {
        explain::DISORDER_ON_CENTRE
    } else {
        explain::DISORDER_DISTANCE
    };
    Ruling {
        place: c as i32,
        count: dist[c] as i32,
        home,
        ..Ruling::of_unit(why, unit)
    }
}

/// Records the facts behind a movement phase's results (`Game::facts`), per submitted code then
/// per implied hold.
#[allow(clippy::too_many_arguments)]
fn explain_movement<M: Mask>(
    map: &GameMap<M>,
    out: &MovementOutcome,
    keys: &[u16],
    orders: &M::Table<Code>,
    index: &M::Table<u16>,
    effective: M,
    occupied: M,
    game: &mut Game<M>,
) {
    let mut szykman = M::ZERO;
    for &q in &out.szykman {
        szykman |= M::bit(q as usize);
    }
    // Armies whose convoy (an order not void) a fleet broken by the Szykman rule was to carry.
    let mut broken = M::ZERO;
    for q in Bits(effective & szykman) {
        let c = orders[q];
        if encode::kind_of(c) == kind::CONVOY && out.codes[index[q] as usize] != result::VOID {
            broken |= M::bit(encode::a_of(c));
        }
    }
    let fact = |q: usize| {
        let i = index[q] as usize;
        let k = if has(effective, q) {
            encode::kind_of(orders[q])
        } else {
            kind::HOLD
        };
        let is_move = k == kind::MOVE;
        Fact {
            dislodged_by: out.dislodged_by[i],
            by: out.by[i],
            attack: out.attack[i],
            opposition: out.opposition[i],
            convoyed: is_move && out.convoyed[i],
            szykman: match k {
                kind::CONVOY => has(szykman, q),
                kind::MOVE => out.codes[i] == result::NO_CONVOY && has(broken, q),
                _ => false,
            },
        }
    };
    game.facts.clear();
    for &key in keys {
        if key == REFUSED || !has(effective, key as usize) {
            game.facts.push(Fact::default());
        } else {
            game.facts.push(fact(key as usize));
        }
    }
    for q in Bits(occupied & !effective) {
        game.facts.push(fact(q));
    }
    let _ = map;
}

fn to_order(code: Code) -> Order {
    let a = encode::a_of(code) as u16;
    let b = encode::b_of(code) as u16;
    match encode::kind_of(code) {
        kind::MOVE => Order::Move {
            dest: a,
            via: encode::via_of(code),
        },
        kind::SUPPORT_HOLD => Order::SupportHold { target: a },
        kind::SUPPORT_MOVE => Order::SupportMove { from: a, to: b },
        kind::CONVOY => Order::Convoy { from: a, to: b },
        _ => Order::Hold,
    }
}

/// The phase after a movement or retreat phase with no retreat pending: Fall after Spring;
/// after the Fall, centres change hands (an empty centre keeps its owner), a power with the
/// victory count ([`super::rules::Rules::victory`]) wins,
/// and the winter is played only when some power can build or must disband.
fn after_turn<M: Mask>(map: &GameMap<M>, game: &mut Game<M>) {
    let st = &mut game.state;
    if st.season == SPRING {
        st.set_phase(st.year, FALL, MOVEMENT);
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
    st.center_counts(map, &mut centers.as_mut()[..map.powers]);
    st.unit_counts(map, &mut units.as_mut()[..map.powers]);
    // Two powers at 18 or more cannot happen on the standard map (34 centres); elsewhere the
    // larger wins, the first in map order on a tie.
    let victory = st.rules.victory(map);
    let mut best: Option<usize> = None;
    for power in 0..map.powers {
        if centers[power] >= victory && best.is_none_or(|b| centers[power] > centers[b]) {
            best = Some(power);
        }
    }
    st.set_phase(st.year, WINTER, ADJUSTMENTS);
    if let Some(w) = best {
        game.winner = Some(w as u8);
        return;
    }
    if !winter_needed(map, st, centers.as_ref(), units.as_ref()) {
        st.set_phase(st.year + 1, SPRING, MOVEMENT);
    }
}

/// Whether some power can build (somewhere) or has to disband.
fn winter_needed<M: Mask>(map: &GameMap<M>, st: &State<M>, centers: &[u32], units: &[u32]) -> bool {
    (0..map.powers).any(|power| {
        st.rules
            .allowance(map, st, power, centers[power], units[power])
            != 0
    })
}

/// One thread's buffers for one map: the map's address (the key) and its [`Scratch`] of the
/// map's width.
type Slot0 = (usize, Box<dyn Any + Send>);

thread_local! {
    static SCRATCH: RefCell<Vec<Slot0>> = const { RefCell::new(Vec::new()) };
}

fn key_of<M: Mask>(map: &'static GameMap<M>) -> usize {
    map as *const GameMap<M> as usize
}

/// Buffers a thread keeps, for its most recently used maps (the others' are dropped).
const SCRATCH_MAPS: usize = 4;
/// Spare buffers kept between batches, in all.
const SPARE_LIMIT: usize = 64;

/// Runs `f` with this thread's buffers for `map` (created on first use; a thread keeps those of
/// its [`SCRATCH_MAPS`] most recently used maps).
pub fn with_scratch<M: Mask, R>(
    map: &'static GameMap<M>,
    f: impl FnOnce(&mut Scratch<M>) -> R,
) -> R {
    SCRATCH.with(|cell| {
        let mut all = cell.borrow_mut();
        let key = key_of(map);
        match all.iter().position(|s| s.0 == key) {
            Some(0) => {}
            Some(i) => all[..=i].rotate_right(1),
            None => {
                all.truncate(SCRATCH_MAPS - 1);
                all.insert(0, (key, Box::new(Scratch::new(map))));
            }
        }
        match all[0].1.downcast_mut::<Scratch<M>>() {
            Some(s) => f(s),
            None => unreachable!("a map's buffers are of its width"),
        }
    })
}

/// Buffers of threads that have finished a batch, for the next batch's threads.
static SPARE: Mutex<Vec<Slot0>> = Mutex::new(Vec::new());

/// Gives this thread spare buffers for `map` left by an earlier batch's thread, if any (a new
/// thread would otherwise grow its buffers from nothing).
pub fn borrow_spare_scratch<M: Mask>(map: &'static GameMap<M>) {
    let key = key_of(map);
    let found = {
        let mut spare = SPARE.lock().unwrap_or_else(|e| e.into_inner());
        let i = spare.iter().position(|s| s.0 == key);
        i.map(|i| spare.swap_remove(i))
    };
    if let Some(s) = found {
        SCRATCH.with(|cell| cell.borrow_mut().push(s));
    }
}

/// Hands this thread's buffers over to the next batch's threads (a thread about to end).
pub fn return_scratch() {
    let mine: Vec<Slot0> = SCRATCH.with(|cell| std::mem::take(&mut *cell.borrow_mut()));
    if !mine.is_empty() {
        let mut spare = SPARE.lock().unwrap_or_else(|e| e.into_inner());
        // Bounded: batches of threads started for them, on games of many maps, would otherwise
        // pile up the buffers of maps no later thread asks for.
        spare.extend(mine);
        let over = spare.len().saturating_sub(SPARE_LIMIT);
        spare.drain(..over); // the oldest go
    }
}

/// Drops this thread's buffers (after a panic may have left them half-updated).
pub fn forget_scratch() {
    let _ = SCRATCH.try_with(|cell| {
        if let Ok(mut all) = cell.try_borrow_mut() {
            all.clear();
        }
    });
}
