//! The vectorised environment: N games of one map stepped together, each on its own thread's
//! buffers, the observations written in place into flat arrays (`diplo.env.vector` hands them to
//! Python as NumPy arrays; `docs/env.md` documents them).
//!
//! One step plays one phase of every game: the action of game `i` is `P * S` indices (power
//! `p`, its `s`-th slot in the engine's slot order), each picking an entry of that slot's legal
//! list; an index at or past the list's length, or -1, orders nothing (the unit holds, a
//! dislodged unit is disbanded, a build is waived), an index outside `-1..K` is refused before
//! anything is played (the Python spaces are `0..K`; -1 is how `diplo.env.DiplomacyEnv` says
//! "no action" for a power that sent none). A game that ended in the previous step is started again instead (its action is
//! ignored: Gymnasium's "next step" autoreset), so every step plays or restarts every game.
//!
//! A movement phase is not listed: the observation shows each slot's count of legal orders
//! ([`Legal::movement_count`]), and playing makes only the chosen entries
//! ([`Legal::movement_nth`]); the phase is then processed without checking those codes again
//! ([`Game::process_listed_into`]). Retreat and adjustment lists are short: a game keeps them from
//! the observation (and a movement phase's too with [`Config::keep_lists`]). The games are
//! handed in small blocks from a shared counter to the calling thread and the threads of the
//! process's pool (`batch::spread`, through the skeleton of [`super::batched`]): the same rulings, in any thread count, as playing them one by
//! one.
//!
//! [`Legal::movement_count`]: super::legality::Legal::movement_count
//! [`Legal::movement_nth`]: super::legality::Legal::movement_nth

use std::borrow::Cow;

use super::batched::{self, buffers, protocol_frame, Batched, Protocol, Start};
use super::encode::Code;
use super::error::{EngineError, EngineResult};
use super::game_map::GameMap;
use super::mask::{Bits, Mask};
use super::observe::{self, Layout, PHASE_SIZE};
use super::phases::{with_scratch, Game, Outcome};
use super::state::MOVEMENT;

/// What every game of an environment starts from and is scored by.
#[derive(Clone, Debug)]
pub struct Config<M: Mask> {
    /// The start of every episode, and the year limit.
    pub start: Start<M>,
    /// The year the phase observation counts from (at most the start's year).
    pub first_year: u32,
    /// `S`: slots per power in an action.
    pub slots: usize,
    /// `K`: choices per slot.
    pub choices: usize,
    /// The end-of-game reward of the solo winner, and of a draw shared by the powers with centres.
    pub win: f32,
    pub draw: f32,
    /// Keep every slot's list of a movement phase too (for a caller that reads the lists after
    /// every step, as `diplo.env.DiplomacyEnv` does), not only its count.
    pub keep_lists: bool,
}

/// One game of the environment.
pub type Episode<M> = batched::Episode<M, Lists>;

/// What the environment keeps of a game beside it: the legal lists of its current phase, and
/// what its board shows of the last.
#[derive(Clone, Debug)]
pub struct Lists {
    /// The legal codes of the current phase, slot after slot, unless `listed` is false: then a
    /// slot's count is worked out without its list, and the code a choice picks is made when
    /// the phase is played (`Legal::movement_nth`); so for movement phases, unless the
    /// environment keeps the lists ([`Config::keep_lists`]).
    codes: Vec<Code>,
    listed: bool,
    /// Per `p * S + s`: where the slot's list starts in `codes`, and its length (0: no slot).
    start: Vec<u32>,
    count: Vec<u32>,
    /// Per `p * S + s`: the slot's key (a province, or with `true` a power: a waive).
    keys: Vec<(u16, bool)>,
    /// The previous phase's orders with their success (the board shows them).
    prev: Vec<(Code, bool)>,
    /// The last phase's results, refilled each step (its buffers kept).
    outcome: Outcome,
    /// Supply centres per power now.
    centres: Vec<u32>,
}

buffers!(
    /// The output buffers of every game, flat, game after game (see [`VectorEnv::sizes`]).
    Buffers,
    /// The buffers of one game.
    Row,
    |z: Sizes| {
        board: i8[z.board],
        phase: i16[z.phase],
        counts: i16[z.counts],
        rewards: f32[z.powers],
        centres: i16[z.powers],
        alive: bool[z.powers],
        winner: i8,
    }
);

/// Entries per game of each buffer, in [`Buffers`] order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    pub board: usize,
    pub phase: usize,
    pub counts: usize,
    pub powers: usize,
}

/// N games held together (see the module documentation): the skeleton of the batched
/// environments on [`Vector`].
pub type VectorEnv<M> = Batched<Vector<M>>;

/// What every game of a [`VectorEnv`] reads.
pub struct Vector<M: Mask> {
    pub map: &'static GameMap<M>,
    pub cfg: Config<M>,
    pub layout: Layout,
    base: Vec<i8>,
}

impl<M: Mask> Batched<Vector<M>> {
    /// `n` games from `cfg.start` (not yet started: call [`VectorEnv::reset`]).
    pub fn new(
        map: &'static GameMap<M>,
        cfg: Config<M>,
        n: usize,
    ) -> Result<VectorEnv<M>, EngineError> {
        if n == 0 {
            return Err(EngineError::out_of_range("num_envs must be at least 1"));
        }
        if cfg.slots == 0 || cfg.choices == 0 || cfg.choices > i16::MAX as usize {
            return Err(EngineError::out_of_range(format!(
                "slots must be at least 1 and choices in 1..={}, got {} and {}",
                i16::MAX,
                cfg.slots,
                cfg.choices
            )));
        }
        if cfg.first_year > cfg.start.state.year {
            return Err(EngineError::invalid(format!(
                "first_year {} is after the start's year {}",
                cfg.first_year, cfg.start.state.year
            )));
        }
        let layout = Layout::new(map);
        let ps = map.powers * cfg.slots;
        let lists = Lists {
            codes: Vec::new(),
            listed: false,
            start: vec![0; ps],
            count: vec![0; ps],
            keys: vec![(0, false); ps],
            prev: Vec::new(),
            outcome: Outcome::default(),
            centres: vec![0; map.powers],
        };
        let setup = Vector {
            map,
            base: layout.base(map),
            layout,
            cfg,
        };
        Ok(Batched::with_games(setup, lists, n))
    }

    pub fn sizes(&self) -> Sizes {
        self.setup.sizes()
    }

    /// The legal codes of game `i`'s current phase per power and slot (at most `K` per slot),
    /// and the slot keys: the lists the game keeps, or (a movement phase it counted) made now.
    #[allow(clippy::type_complexity)]
    pub fn legal(&self, i: usize) -> Option<Vec<Vec<(Cow<'_, [Code]>, (u16, bool))>>> {
        let e = self.games.get(i)?;
        let (s, k) = (self.setup.cfg.slots, self.setup.cfg.choices);
        if e.own.listed {
            return Some(
                (0..self.setup.map.powers)
                    .map(|p| {
                        (0..s)
                            .take_while(|&k| e.own.count[p * s + k] > 0)
                            .map(|k| {
                                let j = p * s + k;
                                let at = e.own.start[j] as usize;
                                let codes = &e.own.codes[at..at + e.own.count[j] as usize];
                                (Cow::Borrowed(codes), e.own.keys[j])
                            })
                            .collect()
                    })
                    .collect(),
            );
        }
        let mut out: Vec<Vec<(Cow<'_, [Code]>, (u16, bool))>> =
            vec![Vec::new(); self.setup.map.powers];
        e.game.with_legal(|legal, slots| {
            for slot in slots {
                let list = &mut out[slot.power as usize];
                if list.len() < s {
                    let codes = legal.codes_of(slot);
                    list.push((
                        Cow::Owned(codes[..codes.len().min(k)].to_vec()),
                        (slot.key, slot.key_is_power),
                    ));
                }
            }
        });
        Some(out)
    }
}

impl<M: Mask> Vector<M> {
    pub fn sizes(&self) -> Sizes {
        Sizes {
            board: self.layout.board_size(),
            phase: PHASE_SIZE,
            counts: self.map.powers * self.cfg.slots,
            powers: self.map.powers,
        }
    }
}

impl<M: Mask> Protocol for Vector<M> {
    protocol_frame!();
    type Own = Lists;

    fn per_game(&self) -> usize {
        self.sizes().counts
    }

    /// Whether every entry of `actions` (`N * P * S`) is in `-1..K`: the one check of an action,
    /// made before any game is touched.
    fn check(&self, games: &mut [Episode<M>], actions: &[i64], _: usize) -> EngineResult<()> {
        let z = self.sizes();
        let n = games.len();
        if actions.len() != n * z.counts {
            return Err(EngineError::invalid(format!(
                "actions: expected {} entries ({n} games x {} powers x {} slots), got {}",
                n * z.counts,
                self.map.powers,
                self.cfg.slots,
                actions.len()
            )));
        }
        let k = self.cfg.choices as i64;
        if let Some(i) = actions.iter().position(|&a| !(-1..k).contains(&a)) {
            let (g, rest) = (i / z.counts, i % z.counts);
            let (p, s) = (rest / self.cfg.slots, rest % self.cfg.slots);
            return Err(EngineError::action(
                [g, p, s],
                format!(
                    "actions[{g}, {p}, {s}] = {} is outside -1..{k} (game {g}, {} slot {s})",
                    actions[i],
                    self.map.power_name(p)
                ),
            ));
        }
        Ok(())
    }

    /// Rewards are zero unless a phase is played.
    fn begin(&self, row: &mut Row<'_>) {
        row.rewards.fill(0.0);
    }

    fn play(&self, e: &mut Episode<M>, action: &[i64], row: &mut Row<'_>) -> EngineResult<()> {
        e.own.play(self, &mut e.game, action, row)
    }

    fn restart(&self, own: &mut Lists) {
        own.prev.clear();
    }

    /// Writes the observation of the current phase and keeps its legal lists.
    fn observe(&self, e: &mut Episode<M>, row: &mut Row<'_>) -> EngineResult<()> {
        let (game, own) = (&e.game, &mut e.own);
        let map = self.map;
        let st = &game.state;
        self.layout.board(map, &self.base, st, &own.prev, row.board);
        observe::phase(st, self.cfg.first_year, row.phase);
        st.center_counts(map, &mut own.centres);
        for p in 0..map.powers {
            row.centres[p] = own.centres[p].min(i16::MAX as u32) as i16;
            row.alive[p] = own.centres[p] > 0;
        }
        for q in 0..map.provinces {
            let u = st.units[q];
            if u.is_some() {
                row.alive[u.power as usize] = true;
            }
        }
        for q in Bits(st.dislodged_at) {
            row.alive[st.dislodged[q].power as usize] = true;
        }
        *row.winner = game.winner.map_or(-1, |w| w as i8);
        let (s, k) = (self.cfg.slots, self.cfg.choices);
        own.codes.clear();
        own.count.fill(0);
        let mut error = None;
        let Lists {
            codes,
            listed,
            start,
            count,
            keys,
            ..
        } = own;
        if !game.over {
            let mut used = [0usize; 256];
            let st = &game.state;
            // Files one slot of `n` choices; false when it does not fit the action.
            let mut file = |power: usize, key: (u16, bool), n: usize| -> Option<usize> {
                let at = used[power];
                used[power] += 1;
                let name = || {
                    if key.1 {
                        map.power_name(key.0 as usize).to_string()
                    } else {
                        map.loc_name(key.0 as usize).to_string()
                    }
                };
                if at >= s {
                    error.get_or_insert_with(|| {
                        EngineError::limit(format!(
                            "{}: {} has more than {s} slots (the action's slots)",
                            st.phase_name(),
                            map.power_name(power)
                        ))
                    });
                    return None;
                }
                if n > k {
                    error.get_or_insert_with(|| {
                        EngineError::limit(format!(
                            "{}: {} {} has {n} legal orders, more than max_orders={k}; make \
                             the environment with a larger max_orders",
                            st.phase_name(),
                            map.power_name(power),
                            name(),
                        ))
                    });
                }
                let j = power * s + at;
                count[j] = n.min(k) as u32;
                keys[j] = key;
                Some(j)
            };
            *listed = st.kind != MOVEMENT || self.cfg.keep_lists;
            if !*listed {
                // Counts only: the lists are made when a choice is played.
                let stamp = game.stamp;
                with_scratch(map, |sc| {
                    sc.legal.prepare(map, st, stamp);
                    for q in 0..map.provinces {
                        let u = st.units[q];
                        // Neutral units hold and are never ordered: no slot.
                        if u.is_some() && !map.neutral[u.power as usize] {
                            let n = sc.legal.movement_count(map, st, q);
                            file(u.power as usize, (q as u16, false), n);
                        }
                    }
                });
            } else {
                game.with_legal(|legal, slots| {
                    for slot in slots {
                        let list = legal.codes_of(slot);
                        let key = (slot.key, slot.key_is_power);
                        if let Some(j) = file(slot.power as usize, key, list.len()) {
                            start[j] = codes.len() as u32;
                            codes.extend_from_slice(&list[..list.len().min(k)]);
                        }
                    }
                });
            }
        }
        for (o, &c) in row.counts.iter_mut().zip(count.iter()) {
            *o = c as i16;
        }
        match error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

impl Lists {
    /// Plays the chosen entries of the lists.
    fn play<M: Mask>(
        &mut self,
        env: &Vector<M>,
        game: &mut Game<M>,
        action: &[i64],
        row: &mut Row<'_>,
    ) -> Result<(), EngineError> {
        game.orders.clear();
        let chosen = action
            .iter()
            .zip(&self.count)
            .enumerate()
            // In -1..K (checked before the step): -1, or a count or more, orders nothing.
            .filter_map(|(j, (&a, &n))| u32::try_from(a).ok().filter(|&a| a < n).map(|a| (j, a)));
        if !self.listed {
            let (map, stamp) = (env.map, game.stamp);
            let (st, orders, keys) = (&game.state, &mut game.orders, &self.keys);
            with_scratch(map, |s| {
                s.legal.prepare(map, st, stamp);
                for (j, a) in chosen {
                    let q = keys[j].0 as usize;
                    let code = s
                        .legal
                        .movement_nth(map, st, q, a as usize)
                        .ok_or_else(|| {
                            EngineError::out_of_range(format!(
                                "{}: no legal order {a} of {}",
                                st.phase_name(),
                                map.loc_name(q)
                            ))
                        })?;
                    orders.push(code);
                }
                Ok::<(), EngineError>(())
            })?;
        } else {
            for (j, a) in chosen {
                game.orders.push(self.codes[(self.start[j] + a) as usize]);
            }
        }
        self.prev.clear();
        self.prev.extend(game.orders.iter().map(|&c| (c, false)));
        game.process_listed_into(&mut self.outcome)?;
        for (p, &ok) in self.prev.iter_mut().zip(&self.outcome.success) {
            p.1 = ok;
        }
        self.prev
            .extend(self.outcome.implied.iter().map(|&(c, _, ok)| (c, ok)));
        let mut counts = [0u32; 256];
        let after = &mut counts[..env.map.powers];
        game.state.center_counts(env.map, after);
        for (r, (&a, &b)) in row.rewards.iter_mut().zip(after.iter().zip(&self.centres)) {
            *r = a as f32 - b as f32;
        }
        if game.over {
            match game.winner {
                Some(w) => row.rewards[w as usize] += env.cfg.win,
                None => {
                    let alive = after.iter().filter(|&&c| c > 0).count();
                    if alive > 0 {
                        let share = env.cfg.draw / alive as f32;
                        for (r, &c) in row.rewards.iter_mut().zip(after.iter()) {
                            if c > 0 {
                                *r += share;
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }
}
