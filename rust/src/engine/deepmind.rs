//! DeepMind's `DiplomacyState` protocol for N games at once (`diplo.env.deepmind.batched`): their
//! observation (season, board of 81 areas x 35 features, build numbers, last actions), their
//! legal actions per power and a step taking their actions, every game's written in place into
//! flat buffers, the games spread over threads ([`spread`], as [`super::vector`] does).
//!
//! The engine knows nothing of their encoding but what [`Tables`] is handed (made once by the
//! Python side from `python/diplo/data/deepmind_actions.json` and the map): their list of
//! actions (the low 32 bits by index), each location's area byte (province id << 1 | the
//! south-coast flag) and areas, each area's kind, and each power's place in their alphabetical
//! order. What an order's action is, is their rule (`diplo.env.deepmind.actions`, written
//! again here over codes): the ordered unit's province without its coast, a move's or retreat's
//! target with its coast, an army's move by sea (a move via convoy, or to a province it does not
//! border) their convoy-to with the target's province, a support's or convoy's provinces
//! without coasts, a disband of a retreat phase their disband and one of an adjustment their
//! remove, a build its place with its coast, a waive no place.
//!
//! A step is checked for every game before any is played: an action is `-1` (nothing), or one of
//! the power's legal actions (with or without bits 48-63), one per province; anything else is
//! refused naming the game, the power and the action, and no game changes. A game that ended in
//! the previous step is started again instead (its actions ignored), as `super::vector` does.
//! `docs/deepmind.md` documents the buffers.

use std::cell::RefCell;

use super::batch::spread;
use super::batched::{self, buffers, protocol_frame, Batched, Protocol, Start};
use super::encode::{self, kind, Code};
use super::error::{EngineError, EngineResult, ErrorKind};
use super::game_map::{GameMap, NO_POWER};
use super::mask::{Bits, Mask};
use super::state::{State, ADJUSTMENTS, FALL, RETREATS, SPRING};

/// Their board: areas, features per area, powers.
pub const AREAS: usize = 81;
pub const FEATURES: usize = 35;
pub const POWERS: usize = 7;
/// The padding of the legal-action and last-action buffers, and "no action" in a step.
pub const NO_ACTION: i64 = -1;

// Feature offsets of an area's vector (their `observation_utils`).
const UNIT_ARMY: usize = 0;
const UNIT_FLEET: usize = 1;
const UNIT_ABSENT: usize = 2;
const UNIT_OWNER: usize = 3;
const BUILDABLE: usize = 11;
const REMOVABLE: usize = 12;
const DISLODGED_ARMY: usize = 13;
const DISLODGED_FLEET: usize = 14;
const DISLODGED_ABSENT: usize = 15;
const DISLODGED_OWNER: usize = 16;
const AREA_KIND: usize = 24;
const SC_OWNER: usize = 27;

// Their order codes (bits 0-7 of an action).
const CONVOY_TO: u32 = 1;
const CONVOY: u32 = 2;
const HOLD: u32 = 3;
const MOVE_TO: u32 = 4;
const SUPPORT_HOLD: u32 = 5;
const SUPPORT_MOVE_TO: u32 = 6;
const DISBAND: u32 = 8;
const RETREAT_TO: u32 = 9;
const BUILD_ARMY: u32 = 10;
const BUILD_FLEET: u32 = 11;
const REMOVE: u32 = 12;
const WAIVE: u32 = 13;
const INDEX_SHIFT: u32 = 48;
/// The slots of [`Tables`]' open addressing (their 18,584 actions fill 57%; the keys, 128 KB,
/// stay in a core's cache).
const SLOT_BITS: u32 = 15;
const SLOTS: usize = 1 << SLOT_BITS;
/// An action's ordered province (bits 9-15) takes this many values.
const PROVINCE_SLOTS: usize = 128;

thread_local! {
    /// Per action index, the mark of the power and the pass of [`Episode::observe`] that last
    /// listed it on this thread: each action listed once per power, without a sort. A pass
    /// takes the marks `base..base + 7`.
    static SEEN: RefCell<(u32, Vec<u32>)> = const { RefCell::new((0, Vec::new())) };
}
/// Their encoding as the engine reads it (see the module documentation).
#[derive(Clone, Debug)]
pub struct Tables {
    /// Their list by its low 32 bits, open addressing: `SLOTS` keys (the low 32 bits; 0 an
    /// empty slot: no action is 0, every order code is 1 or more) and each key's index.
    keys: Vec<u32>,
    indices: Vec<u16>,
    /// How many actions their list has, and each (with its index bits) by index.
    count: usize,
    actions: Vec<u64>,
    /// Per location: its area byte, its province's area and its coast's (or `u8::MAX`).
    loc_byte: Vec<u8>,
    loc_main: Vec<u8>,
    loc_coast: Vec<u8>,
    /// Per province: every area of it.
    prov_areas: Vec<Vec<u8>>,
    /// Per area: 0 land, 1 sea, 2 a coast of a bicoastal province.
    area_kind: Vec<u8>,
    /// Per power of the map: its place in their order; and the map's power at each place.
    theirs: Vec<u8>,
    ours: Vec<u8>,
}

impl Tables {
    /// Checks the tables against `map` (their 7 powers, every location an area).
    pub fn new<M: Mask>(
        map: &GameMap<M>,
        actions: &[u32],
        loc_byte: Vec<u8>,
        loc_main: Vec<u8>,
        loc_coast: Vec<u8>,
        area_kind: Vec<u8>,
        theirs: Vec<u8>,
    ) -> Result<Tables, EngineError> {
        let bad = |what: &str| EngineError::invalid(format!("DeepMind tables: {what}"));
        if map.powers != POWERS || theirs.len() != POWERS {
            return Err(bad("the map must have their 7 powers"));
        }
        let l = map.locations;
        if loc_byte.len() != l || loc_main.len() != l || loc_coast.len() != l {
            return Err(bad("one entry per location of the map"));
        }
        if area_kind.len() != AREAS || area_kind.iter().any(|&k| k > 2) {
            return Err(bad("81 area kinds in 0..3"));
        }
        let area = |a: u8| (a as usize) < AREAS;
        if !loc_main.iter().all(|&a| area(a)) || !loc_coast.iter().all(|&a| area(a) || a == u8::MAX)
        {
            return Err(bad("areas out of range"));
        }
        let mut ours = vec![u8::MAX; POWERS];
        for (p, &t) in theirs.iter().enumerate() {
            match ours.get_mut(t as usize) {
                Some(o) if *o == u8::MAX => *o = p as u8,
                _ => return Err(bad("the power order is not a permutation of 0..7")),
            }
        }
        let mut prov_areas = vec![Vec::new(); map.provinces];
        for loc in 0..l {
            let areas = &mut prov_areas[map.prov_of[loc] as usize];
            for a in [loc_main[loc], loc_coast[loc]] {
                if a != u8::MAX && !areas.contains(&a) {
                    areas.push(a);
                }
            }
        }
        if actions.len() > SLOTS * 3 / 4 {
            return Err(bad("more actions than the table holds"));
        }
        let mut keys = vec![0u32; SLOTS];
        let mut indices = vec![0u16; SLOTS];
        for (i, &a) in actions.iter().enumerate() {
            if a == 0 {
                return Err(bad("0 is no action"));
            }
            let mut k = slot_of(a);
            while keys[k] != 0 {
                if keys[k] == a {
                    return Err(bad("an action is twice in the list"));
                }
                k = (k + 1) & (SLOTS - 1);
            }
            keys[k] = a;
            indices[k] = i as u16;
        }
        Ok(Tables {
            keys,
            indices,
            count: actions.len(),
            actions: actions
                .iter()
                .enumerate()
                .map(|(i, &a)| u64::from(a) | (i as u64) << INDEX_SHIFT)
                .collect(),
            loc_byte,
            loc_main,
            loc_coast,
            prov_areas,
            area_kind,
            theirs,
            ours,
        })
    }

    /// Their action (with its index) of a legal `code` in `st`, or `None` when their list has
    /// none.
    fn action<M: Mask>(&self, map: &GameMap<M>, st: &State<M>, code: Code) -> Option<u64> {
        let (k, loc, a, b) = (
            encode::kind_of(code),
            encode::loc_of(code),
            encode::a_of(code),
            encode::b_of(code),
        );
        let byte = |l: usize| u32::from(self.loc_byte[l]);
        let prov = |l: usize| byte(l) & !1;
        let (order, p1, p2, p3) = match k {
            kind::WAIVE => (WAIVE, 0, 0, 0),
            kind::BUILD if encode::fleet_of(code) => (BUILD_FLEET, byte(loc), 0, 0),
            kind::BUILD => (BUILD_ARMY, prov(loc), 0, 0),
            kind::DISBAND if st.kind == RETREATS => (DISBAND, prov(loc), 0, 0),
            kind::DISBAND => (REMOVE, prov(loc), 0, 0),
            kind::HOLD => (HOLD, prov(loc), 0, 0),
            kind::RETREAT => (RETREAT_TO, prov(loc), byte(a), 0),
            kind::MOVE => {
                let (src, dest) = (map.prov_of[loc] as usize, map.prov_of[a] as usize);
                let army = !st.units[src].fleet;
                if army && (encode::via_of(code) || !map.army_adj[src].has(dest)) {
                    (CONVOY_TO, prov(loc), prov(a), 0)
                } else {
                    (MOVE_TO, prov(loc), byte(a), 0)
                }
            }
            kind::SUPPORT_HOLD => (SUPPORT_HOLD, prov(loc), prov(a), 0),
            kind::SUPPORT_MOVE => (SUPPORT_MOVE_TO, prov(loc), prov(b), prov(a)),
            _ => (CONVOY, prov(loc), prov(b), prov(a)),
        };
        let low = order | p1 << 8 | p2 << 16 | p3 << 24;
        self.index_of(low)
            .map(|i| u64::from(low) | i << INDEX_SHIFT)
    }

    /// The index in their list of the action whose low 32 bits are `low`.
    #[inline]
    fn index_of(&self, low: u32) -> Option<u64> {
        if low == 0 {
            return None;
        }
        let mut k = slot_of(low);
        loop {
            let key = self.keys[k];
            if key == low {
                return Some(u64::from(self.indices[k]));
            }
            if key == 0 {
                return None;
            }
            k = (k + 1) & (SLOTS - 1);
        }
    }
}

/// The first slot of an action's low 32 bits in [`Tables`] (a multiplicative hash).
#[inline]
fn slot_of(low: u32) -> usize {
    (low.wrapping_mul(0x9E37_79B1) >> (32 - SLOT_BITS)) as usize
}

impl Tables {
    /// The index of an action given by a caller (bits 48-63 zero or its own index), or `None`
    /// when it is not one of their list.
    fn check(&self, action: i64) -> Option<u64> {
        let action = u64::try_from(action).ok()?;
        let index = self.index_of(action as u32)?;
        let given = action >> INDEX_SHIFT;
        let ok = (action >> 32) & 0xFFFF == 0 && (given == 0 || given == index);
        ok.then_some(action & 0xFFFF_FFFF | index << INDEX_SHIFT)
    }
}

/// What every game starts from, and the buffers' widths.
#[derive(Clone, Debug)]
pub struct Config<M: Mask> {
    /// The start of every game, and the year limit.
    pub start: Start<M>,
    /// `A`: legal actions a power's row holds.
    pub max_actions: usize,
    /// `U`: actions per power in a step (the last actions hold `7 * U`).
    pub max_orders: usize,
}

/// One game with its current legal actions.
pub type Episode<M> = batched::Episode<M, Actions>;

/// What the environment keeps of a game beside it: its legal actions, the last step's, the
/// build numbers.
#[derive(Clone, Debug)]
pub struct Actions {
    /// Per their power: the legal actions in diplo's listing order, each once, with the first
    /// code naming it; and their places in that list by the province an action orders (bits
    /// 9-15; a waive's are 0): those of province `q` are `by_province[t][start[t][q]..start[t][q
    /// + 1]]` (a step's check looks there).
    legal: Vec<Vec<(u64, Code)>>,
    by_province: Vec<Vec<u16>>,
    start: Vec<[u16; PROVINCE_SLOTS + 1]>,
    /// Per their power: how far its row of the legal-action buffer holds actions (past it, the
    /// padding); `usize::MAX` until the row was first written.
    shown: [usize; POWERS],
    /// The build numbers of the last build phase (their quirk), by their power.
    numbers: [i64; POWERS],
    /// The actions of the last step, flattened in the order given.
    last: Vec<i64>,
    /// A step's codes and actions, once checked.
    codes: Vec<Code>,
    given: Vec<i64>,
}

/// Entries per game of the buffers that are sized by the environment: board, legal actions
/// (`7 * A`), last actions (`7 * U`).
pub type Sizes = (usize, usize, usize);

buffers!(
    /// The output buffers of every game, flat, game after game.
    Buffers,
    /// The buffers of one game.
    Row,
    |z: Sizes| {
        board: f32[z.0],
        season: i8,
        build_numbers: i64[POWERS],
        last_actions: i64[z.2],
        last_counts: i32,
        legal: i64[z.1],
        legal_counts: i32[POWERS],
        returns: f64[POWERS],
    }
);

/// N games in their protocol (see the module documentation).
pub type DeepMindEnv<M> = Batched<DeepMind<M>>;

/// What every game of a [`DeepMindEnv`] reads.
pub struct DeepMind<M: Mask> {
    pub map: &'static GameMap<M>,
    pub cfg: Config<M>,
    tables: Tables,
}

impl<M: Mask> Batched<DeepMind<M>> {
    pub fn new(
        map: &'static GameMap<M>,
        cfg: Config<M>,
        tables: Tables,
        n: usize,
    ) -> Result<DeepMindEnv<M>, EngineError> {
        if n == 0 || cfg.max_actions == 0 || cfg.max_orders == 0 {
            return Err(EngineError::out_of_range(
                "num_games, max_actions and max_orders must be at least 1",
            ));
        }
        let actions = Actions {
            legal: vec![Vec::new(); POWERS],
            by_province: vec![Vec::new(); POWERS],
            start: vec![[0; PROVINCE_SLOTS + 1]; POWERS],
            shown: [usize::MAX; POWERS],
            numbers: [0; POWERS],
            last: Vec::new(),
            codes: Vec::new(),
            given: Vec::new(),
        };
        let setup = DeepMind { map, cfg, tables };
        Ok(Batched::with_games(setup, actions, n))
    }

    /// Entries per game of the buffers: board, legal actions (`7 * A`), last actions (`7 * U`).
    pub fn sizes(&self) -> Sizes {
        self.setup.sizes()
    }

    /// The name of their power `t` (their alphabetical order) on the map.
    pub fn power_name(&self, t: usize) -> &str {
        self.setup
            .map
            .power_name(self.setup.tables.ours[t] as usize)
    }

    /// How many actions their list has (bits 48-63 of an action index it).
    pub fn action_count(&self) -> usize {
        self.setup.tables.count
    }

    /// The action of index `k` of their list (with its index bits).
    pub fn action_of_index(&self, k: usize) -> u64 {
        self.setup.tables.actions[k]
    }

    /// Game `i`'s legal actions per their power (listing order).
    pub fn legal(&self, i: usize) -> Option<Vec<Vec<u64>>> {
        let e = self.games.get(i)?;
        Some(
            e.own
                .legal
                .iter()
                .map(|l| l.iter().map(|&(a, _)| a).collect())
                .collect(),
        )
    }
}

impl<M: Mask> DeepMind<M> {
    fn sizes(&self) -> Sizes {
        (
            AREAS * FEATURES,
            POWERS * self.cfg.max_actions,
            POWERS * self.cfg.max_orders,
        )
    }
}

impl<M: Mask> Protocol for DeepMind<M> {
    protocol_frame!();
    type Own = Actions;

    fn per_game(&self) -> usize {
        POWERS * self.cfg.max_orders
    }

    /// Checks `actions` (`N * 7 * U`, see the module documentation) for every game, keeping
    /// each game's codes for the step; nothing is played.
    fn check(
        &self,
        games: &mut [Episode<M>],
        actions: &[i64],
        threads: usize,
    ) -> Result<(), EngineError> {
        let u = self.cfg.max_orders;
        let per = POWERS * u;
        let n = games.len();
        if actions.len() != n * per {
            return Err(EngineError::invalid(format!(
                "actions: expected {} entries ({n} games x 7 powers x {u}), got {}",
                n * per,
                actions.len()
            )));
        }
        spread(self.map, games, threads, |g, e| {
            e.own
                .check(self, e.done, &actions[g * per..(g + 1) * per])
                .map(|_| false)
        })
        .map(|_| ())
        .map_err(|(g, e)| EngineError::new(e.kind(), format!("game {g}: {}", e.message())))
    }

    /// The rows written whole again.
    fn rewind(&self, own: &mut Actions) {
        own.shown = [usize::MAX; POWERS];
    }

    /// The actions were checked into the game's codes.
    fn play(&self, e: &mut Episode<M>, _: &[i64], _: &mut Row<'_>) -> EngineResult<()> {
        let (game, own) = (&mut e.game, &mut e.own);
        if game.state.kind == ADJUSTMENTS {
            own.numbers = build_numbers(self, &game.state);
        }
        game.orders.clear();
        game.orders.extend_from_slice(&own.codes);
        game.process()?;
        own.last.clear();
        own.last.extend_from_slice(&own.given);
        Ok(())
    }

    fn restart(&self, own: &mut Actions) {
        own.numbers = [0; POWERS];
        own.last.clear();
    }

    /// Writes the observation, the legal actions and the returns of the current phase.
    fn observe(&self, e: &mut Episode<M>, row: &mut Row<'_>) -> EngineResult<()> {
        let (game, own) = (&e.game, &mut e.own);
        let (map, tables) = (self.map, &self.tables);
        let st = &game.state;
        *row.season = match (st.season, st.kind) {
            (SPRING, RETREATS) => 1,
            (SPRING, _) => 0,
            (FALL, RETREATS) => 3,
            (FALL, _) => 2,
            _ => 4,
        };
        let numbers = if st.kind == ADJUSTMENTS {
            build_numbers(self, st)
        } else {
            [0; POWERS]
        };
        for (o, (&now, &last)) in row
            .build_numbers
            .iter_mut()
            .zip(numbers.iter().zip(&own.numbers))
        {
            // Their quirk: outside a build phase, the last build phase's removals stay.
            *o = if st.kind == ADJUSTMENTS {
                now
            } else {
                last.min(0)
            };
        }
        board(self, st, &numbers, row.board);
        *row.last_counts = own.last.len() as i32;
        let n = own.last.len().min(row.last_actions.len());
        row.last_actions[..n].copy_from_slice(&own.last[..n]);
        row.last_actions[n..].fill(NO_ACTION);
        row.returns.fill(0.0);
        if game.over {
            match game.winner {
                Some(w) => row.returns[tables.theirs[w as usize] as usize] = 1.0,
                None => {
                    let mut centres = [0u32; POWERS];
                    st.center_counts(map, &mut centres);
                    let alive = centres.iter().filter(|&&c| c > 0).count();
                    for (p, &c) in centres.iter().enumerate() {
                        if c > 0 {
                            row.returns[tables.theirs[p] as usize] = 1.0 / alive as f64;
                        }
                    }
                }
            }
        }
        // The legal actions, per their power, in diplo's listing order, each once (the first
        // code naming it kept).
        for l in &mut own.legal {
            l.clear();
        }
        let mut missing = None;
        let legal = &mut own.legal;
        SEEN.with_borrow_mut(|(pass, seen)| {
            if seen.len() != tables.count || *pass > u32::MAX - 2 * POWERS as u32 {
                *seen = vec![0; tables.count];
                *pass = 0;
            }
            *pass += POWERS as u32;
            let base = *pass;
            game.with_legal(|list, slots| {
                for slot in slots {
                    let t = tables.theirs[slot.power as usize] as usize;
                    let mark = base + t as u32;
                    // As MILA's possible orders list them (DeepMind's actions are their
                    // conversion): under MILA's edition, no support it takes but does not list.
                    for &code in list.codes_of(slot) {
                        if !list.mila_listed(map, st, code) {
                            continue;
                        }
                        match tables.action(map, st, code) {
                            Some(a) => {
                                let i = (a >> INDEX_SHIFT) as usize;
                                if seen[i] != mark {
                                    seen[i] = mark;
                                    legal[t].push((a, code));
                                }
                            }
                            None => {
                                missing.get_or_insert((slot.power, code));
                            }
                        }
                    }
                }
            });
        });
        // A power owed builds with no site to build on lists nothing (its only legal order,
        // the waive, changes nothing): DeepMind's conversion of MILA's possible orders, whose
        // orderable locations are the vacant home centres, gives such a power no action, and
        // that is the one convention under every edition (docs/deepmind.md).
        if st.kind == ADJUSTMENTS {
            for l in &mut own.legal {
                if l.iter().all(|&(_, c)| encode::kind_of(c) == kind::WAIVE) {
                    l.clear();
                }
            }
        }
        let width = self.cfg.max_actions;
        for t in 0..POWERS {
            let list = &own.legal[t];
            // The places by province: a counting sort.
            let start = &mut own.start[t];
            start.fill(0);
            for &(a, _) in list {
                start[((a >> 9) & 0x7F) as usize + 1] += 1;
            }
            for q in 0..PROVINCE_SLOTS {
                start[q + 1] += start[q];
            }
            let places = &mut own.by_province[t];
            places.clear();
            places.resize(list.len(), 0);
            let mut next = *start;
            for (k, &(a, _)) in list.iter().enumerate() {
                let q = ((a >> 9) & 0x7F) as usize;
                places[next[q] as usize] = k as u16;
                next[q] += 1;
            }
            if list.len() > width {
                return Err(EngineError::limit(format!(
                    "{}: {} has {} legal actions, more than max_actions={width}: give a larger \
                     max_actions (this state's games must be reset before another step)",
                    st.phase_name(),
                    map.power_name(tables.ours[t] as usize),
                    list.len()
                )));
            }
            let out = &mut row.legal[t * width..(t + 1) * width];
            for (o, &(a, _)) in out.iter_mut().zip(list) {
                *o = a as i64;
            }
            // The padding: only what the last list wrote past this one's end (the whole row the
            // first time), not the whole row every step.
            let end = own.shown[t].min(width);
            if end > list.len() {
                out[list.len()..end].fill(NO_ACTION);
            }
            own.shown[t] = list.len();
            row.legal_counts[t] = list.len() as i32;
        }
        Ok(())
    }

    /// Too many legal actions for the arrays is the caller's limit (ValueError); any other
    /// failure leaves the games broken.
    fn failure(&self, e: &EngineError) -> ErrorKind {
        match e.kind() {
            ErrorKind::Limit => ErrorKind::Limit,
            _ => ErrorKind::Broken,
        }
    }
}

impl Actions {
    /// Checks one game's actions (`7 * U`), keeping its codes in `codes` (none when the game
    /// is `done`: started again instead).
    fn check<M: Mask>(
        &mut self,
        env: &DeepMind<M>,
        done: bool,
        actions: &[i64],
    ) -> Result<(), EngineError> {
        self.codes.clear();
        self.given.clear();
        if done {
            return Ok(()); // started again instead: the actions are ignored
        }
        let map = env.map;
        for (t, mine) in actions.chunks_exact(env.cfg.max_orders).enumerate() {
            let power = map.power_name(env.tables.ours[t] as usize);
            let mut ordered = M::ZERO;
            for &raw in mine {
                if raw == NO_ACTION {
                    continue;
                }
                // A legal action given with its index bits, or with bits 32-63 zero: compared
                // with the listed ones as such, their list consulted only for a refusal's words.
                let given = raw as u64;
                let low = given & 0xFFFF_FFFF;
                let q = ((given >> 9) & 0x7F) as usize;
                let find = |t: usize| {
                    let (legal, start) = (&self.legal[t], &self.start[t]);
                    self.by_province[t][start[q] as usize..start[q + 1] as usize]
                        .iter()
                        .map(|&k| legal[k as usize])
                        .find(|&(a, _)| a == given || (a & 0xFFFF_FFFF == low && given == low))
                        .map(|(_, c)| c)
                };
                let Some(code) = find(t) else {
                    if env.tables.check(raw).is_none() {
                        return Err(EngineError::invalid(format!(
                            "{power}: action {raw} is not in DeepMind's list of possible actions"
                        )));
                    }
                    if let Some((o, code)) = (0..POWERS).find_map(|o| find(o).map(|c| (o, c))) {
                        let other = map.power_name(env.tables.ours[o] as usize);
                        let place = if encode::kind_of(code) == kind::WAIVE {
                            String::new()
                        } else {
                            format!(" in {}", map.loc_name(encode::loc_of(code)))
                        };
                        return Err(EngineError::invalid(format!(
                            "{power}: action {raw} is an order for {other}'s unit{place}"
                        )));
                    }
                    return Err(EngineError::invalid(format!(
                        "{power}: action {raw} is not legal now (not in its list)"
                    )));
                };
                if encode::kind_of(code) != kind::WAIVE {
                    let q = map.prov_of[encode::loc_of(code)] as usize;
                    if ordered.has(q) {
                        // A province's own location has the province's index.
                        return Err(EngineError::invalid(format!(
                            "{power}: action {raw} is a second order for {}",
                            map.loc_name(q)
                        )));
                    }
                    ordered |= M::bit(q);
                }
                self.codes.push(code);
                self.given.push(raw);
            }
        }
        Ok(())
    }
}

/// Per their power, in a build phase: the builds it can make (its centres less its units, at
/// most its vacant owned home centres), negative for removals.
fn build_numbers<M: Mask>(env: &DeepMind<M>, st: &State<M>) -> [i64; POWERS] {
    let map = env.map;
    let mut centres = [0u32; POWERS];
    let mut units = [0u32; POWERS];
    st.center_counts(map, &mut centres);
    st.unit_counts(map, &mut units);
    let mut out = [0i64; POWERS];
    for p in 0..POWERS {
        let mut delta = i64::from(centres[p]) - i64::from(units[p]);
        if delta > 0 {
            let vacant = Bits(map.homes[p])
                .filter(|&h| st.centers[h] == p as u8 && !st.units[h].is_some())
                .count() as i64;
            delta = delta.min(vacant);
        }
        out[env.tables.theirs[p] as usize] = delta;
    }
    out
}

/// Their board of `st` (`numbers`: the build numbers by their power, zeros outside a build
/// phase).
fn board<M: Mask>(env: &DeepMind<M>, st: &State<M>, numbers: &[i64; POWERS], out: &mut [f32]) {
    let (map, t) = (env.map, &env.tables);
    out.fill(0.0);
    for (area, cell) in out.chunks_exact_mut(FEATURES).enumerate() {
        cell[UNIT_ABSENT] = 1.0;
        cell[UNIT_OWNER + POWERS] = 1.0;
        cell[DISLODGED_ABSENT] = 1.0;
        cell[DISLODGED_OWNER + POWERS] = 1.0;
        cell[AREA_KIND + t.area_kind[area] as usize] = 1.0;
    }
    let mut mark = |loc: usize, fleet: bool, power: u8, base: usize, removable: bool| {
        let owner = t.theirs[power as usize] as usize;
        for a in [t.loc_main[loc], t.loc_coast[loc]] {
            if a == u8::MAX {
                continue;
            }
            let cell = &mut out[a as usize * FEATURES..(a as usize + 1) * FEATURES];
            // base: UNIT_ARMY or DISLODGED_ARMY; absent, owner and "none" follow the same way.
            cell[base + 2] = 0.0;
            cell[base + 3 + POWERS] = 0.0;
            cell[base + usize::from(fleet)] = 1.0;
            cell[base + 3 + owner] = 1.0;
            if removable {
                cell[REMOVABLE] = 1.0;
            }
        }
    };
    let adjusting = st.kind == ADJUSTMENTS;
    for q in 0..map.provinces {
        let u = st.units[q];
        if u.is_some() {
            let removable = adjusting && numbers[t.theirs[u.power as usize] as usize] < 0;
            mark(u.loc as usize, u.fleet, u.power, UNIT_ARMY, removable);
        }
    }
    for q in Bits(st.dislodged_at) {
        let u = st.dislodged[q];
        mark(u.loc as usize, u.fleet, u.power, DISLODGED_ARMY, false);
    }
    for q in Bits(map.centers) {
        let owner = st.centers[q];
        let flag = if owner == NO_POWER {
            SC_OWNER + POWERS
        } else {
            SC_OWNER + t.theirs[owner as usize] as usize
        };
        for &a in &t.prov_areas[q] {
            out[a as usize * FEATURES + flag] = 1.0;
        }
    }
    if adjusting {
        for p in 0..POWERS {
            if numbers[t.theirs[p] as usize] <= 0 {
                continue;
            }
            for h in Bits(map.homes[p]) {
                if st.centers[h] == p as u8 && !st.units[h].is_some() {
                    for &a in &t.prov_areas[h] {
                        out[a as usize * FEATURES + BUILDABLE] = 1.0;
                    }
                }
            }
        }
    }
}

// The feature offsets `mark` relies on: a dislodged block is laid out as a unit's.
const _: () = assert!(DISLODGED_FLEET == DISLODGED_ARMY + 1 && UNIT_FLEET == UNIT_ARMY + 1);
const _: () = assert!(DISLODGED_ABSENT == DISLODGED_ARMY + 2 && UNIT_ABSENT == UNIT_ARMY + 2);
const _: () = assert!(DISLODGED_OWNER == DISLODGED_ARMY + 3 && UNIT_OWNER == UNIT_ARMY + 3);
