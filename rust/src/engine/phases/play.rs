//! The three phase kinds, ruled on a thread's [`Scratch`].

use super::*;
use crate::engine::error::EngineError;
use crate::engine::rules::DisorderTie;

/// The per-thread buffers of one map (see "Buffers" in the module documentation).
pub struct Scratch<M: Mask> {
    pub(super) map: &'static GameMap<M>,
    pub legal: Legal<M>,
    pub(super) adj: Adjudicator<'static>,
    pub(super) out: MovementOutcome,
    pub(super) units: Vec<Unit>,
    pub(super) orders: Vec<Order>,
    /// Per submitted code: the key of its slot (province, or power for a waive) or REFUSED.
    pub(super) keys: Vec<u16>,
    /// Per submitted code: its normal form.
    pub(super) normal: Vec<Code>,
    /// Per province: the effective order.
    pub(super) effective: M::Table<Code>,
    /// Per province: the resolver's index of its unit.
    pub(super) index: M::Table<u16>,
    pub(super) candidates: Vec<(u32, u16)>,
    /// The codes come from the phase's lists ([`Game::process_listed_into`]).
    pub(super) listed: bool,
    /// Verdicts given back once read (`pool::recycle_verdict`), whose buffers the next ones use.
    pub(super) verdicts: Vec<Box<Verdict<M>>>,
    /// Where a phase played by [`Game::process`] (results not asked for) puts its results.
    pub(super) outcome: Outcome,
}

impl<M: Mask> Scratch<M> {
    pub(super) fn new(map: &'static GameMap<M>) -> Scratch<M> {
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
            verdicts: Vec::new(),
            outcome: Outcome::default(),
        }
    }

    /// Rules on `game`'s phase, its results into `out` (emptied first), with `why` also why.
    pub(super) fn play(
        &mut self,
        game: &mut Game<M>,
        out: &mut Outcome,
        why: Option<&mut Verdict<M>>,
    ) -> Result<(), EngineError> {
        out.clear();
        match game.state.kind {
            MOVEMENT => self.movement(game, out, why),
            RETREATS => {
                self.retreats(game, out, why);
                Ok(())
            }
            _ => {
                self.adjustments(game, out, why);
                Ok(())
            }
        }
    }

    /// Rules on every code of `orders` (given by `powers`, as [`Game::powers`]) submitted in a
    /// movement or retreat phase of `st` (named by `stamp`): fills `keys` and `normal`,
    /// `effective` per province, and returns the provinces with exactly one (legal) order; with
    /// `why`, pushes each code's reason and normal form (0 when refused) there.
    pub(super) fn rule_unit_orders(
        &mut self,
        st: &State<M>,
        stamp: u64,
        orders: &[Code],
        powers: &[u8],
        why: Option<(&mut Vec<u8>, &mut Vec<Code>)>,
    ) -> M {
        let map = self.map;
        // Adjustments check their codes against lists they make anyway.
        let listed = self.listed && why.is_none() && st.kind != ADJUSTMENTS;
        if !listed || cfg!(debug_assertions) {
            self.legal.prepare(map, st, stamp);
        }
        self.keys.clear();
        self.normal.clear();
        let mut ordered = M::ZERO;
        let mut conflict = M::ZERO;
        for (i, &code) in orders.iter().enumerate() {
            let by = powers.get(i).copied().unwrap_or(NO_POWER);
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
            let verdict = self
                .legal
                .check(map, st, code)
                .filter(|&(p, c)| by == NO_POWER || by as usize == giver(st, p, c));
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
        if let Some((reasons, normal)) = why {
            for (i, &code) in orders.iter().enumerate() {
                let key = self.keys[i];
                let r = if key == REFUSED {
                    let by = powers.get(i).copied().unwrap_or(NO_POWER);
                    legality::why(&mut self.legal, map, st, by, code)
                } else if !has(effective, key as usize) {
                    reason::MULTIPLE_ORDERS
                } else {
                    reason::OK
                };
                reasons.push(r);
                normal.push(if key == REFUSED { 0 } else { self.normal[i] });
            }
        }
        effective
    }

    pub(super) fn movement(
        &mut self,
        game: &mut Game<M>,
        res: &mut Outcome,
        mut why: Option<&mut Verdict<M>>,
    ) -> Result<(), EngineError> {
        let map = self.map;
        let effective = self.rule_unit_orders(
            &game.state,
            game.stamp,
            &game.orders,
            &game.powers,
            why.as_deref_mut().map(|v| (&mut v.reasons, &mut v.normal)),
        );
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
            .map_err(|e| {
                EngineError::internal(format!("the resolver refused a legal order set: {e}"))
            })?;
        let out = &self.out;

        res.results.reserve(self.keys.len());
        res.success.reserve(self.keys.len());
        for &key in &self.keys {
            if key == REFUSED || !has(effective, key as usize) {
                res.push(result::ILLEGAL, false);
            } else {
                let i = self.index[key as usize] as usize;
                res.push(out.codes[i], out.success[i]);
            }
        }
        res.implied
            .reserve((occupied & !effective).count() as usize);
        for q in Bits(occupied & !effective) {
            let i = self.index[q] as usize;
            res.implied.push((
                encode::hold(st.units[q].loc as usize),
                out.codes[i],
                out.success[i],
            ));
        }
        if let Some(v) = why.as_deref_mut() {
            explain_movement(
                map,
                out,
                &self.keys,
                &self.effective,
                &self.index,
                effective,
                occupied,
                &mut v.facts,
            );
        }
        let st = &mut game.state;

        // The next board: moved units at their destination, dislodged ones aside with their
        // retreat options (units with none are gone), the rest where they were. First every
        // unit that leaves its province is lifted, then the movers are put down (a successful
        // move's destination is empty by then), so only what changes is written (and hashed).
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
                // A neutral unit is disbanded when dislodged.
                let options = if map.neutral[u.power as usize] {
                    M::ZERO
                } else {
                    out.retreats[i]
                        .iter()
                        .fold(M::ZERO, |m: M, &l| m | M::bit(l as usize))
                };
                if let Some(v) = why.as_deref_mut() {
                    v.gone.push((u, options));
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

    pub(super) fn retreats(
        &mut self,
        game: &mut Game<M>,
        out: &mut Outcome,
        mut why: Option<&mut Verdict<M>>,
    ) {
        let map = self.map;
        let effective = self.rule_unit_orders(
            &game.state,
            game.stamp,
            &game.orders,
            &game.powers,
            why.as_deref_mut().map(|v| (&mut v.reasons, &mut v.normal)),
        );
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
        for &key in &self.keys {
            if key == REFUSED || !has(effective, key as usize) {
                out.push(result::ILLEGAL, false);
            } else if has(bounced, key as usize) {
                out.push(result::BOUNCE, false);
            } else {
                out.push(result::OK, true);
            }
        }
        for q in Bits(dislodged & !effective) {
            out.implied.push((
                encode::disband(st.dislodged[q].loc as usize),
                result::OK,
                true,
            ));
        }
        if let Some(v) = why {
            explain_retreats(
                map,
                &self.keys,
                &self.effective,
                effective,
                bounced,
                &game.state,
                &mut v.rulings,
            );
        }
        let st = &mut game.state;
        st.clear_dislodged();
        if st.season == SPRING {
            st.set_phase(map.next_year(st.year, SPRING), FALL, MOVEMENT);
        } else {
            after_turn(map, game);
        }
    }

    pub(super) fn adjustments(
        &mut self,
        game: &mut Game<M>,
        out: &mut Outcome,
        mut why: Option<&mut Verdict<M>>,
    ) {
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
        for i in 0..game.orders.len() {
            let code = game.orders[i];
            let by = game.powers.get(i).copied().unwrap_or(NO_POWER);
            let verdict = self
                .legal
                .check(map, st, code)
                .filter(|&(key, c)| by == NO_POWER || by as usize == giver(st, key, c));
            let Some((key, c)) = verdict else {
                out.push(result::ILLEGAL, false);
                if let Some(v) = why.as_deref_mut() {
                    v.reasons
                        .push(legality::why(&mut self.legal, map, st, by, code));
                    v.normal.push(0);
                    v.rulings.push(Ruling::new(explain::NONE, NO_POWER));
                }
                continue;
            };
            if let Some(v) = why.as_deref_mut() {
                v.reasons.push(reason::OK);
                v.normal.push(c);
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
                        let cause = if centers[power] <= units[power] {
                            explain::BUILD_NO_SURPLUS
                        } else if matches!(st.rules.build_sites, BuildSites::HomeCentres) {
                            explain::BUILD_NO_HOME_SITE
                        } else if matches!(st.rules.build_sites, BuildSites::AnyHomeCentre) {
                            explain::BUILD_NO_ANY_HOME_SITE
                        } else {
                            explain::BUILD_NO_SITE
                        };
                        (false, Ruling::new(cause, p))
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
            out.push(if ok { result::OK } else { result::VOID }, ok);
            if let Some(v) = why.as_deref_mut() {
                v.rulings.push(ruling);
            }
        }

        // godip's chaos: in the map's first phase every build left unordered is an army.
        let start_armies = map.spec.start_armies == Some(st.year);
        let mut starts = M::ZERO;
        for power in 0..map.powers {
            let n = allowed[power];
            if n > 0 && start_armies {
                let sites = st.rules.build_sites(map, st, power) & !built;
                for q in Bits(sites).take((n - used[power]).max(0) as usize) {
                    starts |= M::bit(q);
                }
            } else if n > 0 {
                for _ in used[power]..n {
                    out.implied.push((encode::waive(power), result::OK, true));
                    if let Some(v) = why.as_deref_mut() {
                        v.rulings.push(Ruling {
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
                        out.implied.push((
                            encode::disband(st.units[q].loc as usize),
                            result::OK,
                            true,
                        ));
                        if let Some(v) = why.as_deref_mut() {
                            v.rulings
                                .push(explain_disorder(map, st, power, st.units[q]));
                        }
                    }
                }
            }
        }
        // The armies no order asked for, each in a vacant centre of its power, in province
        // order: the first phase's unordered builds (`start_armies`), then a rebuilding neutral
        // power's armies in every vacant centre it owns.
        let raised = [
            (starts, explain::START_ARMY),
            (map.neutral_rebuilds(st), explain::NEUTRAL_REBUILT),
        ];
        for (sites, cause) in raised {
            for q in Bits(sites) {
                let unit = Piece {
                    power: st.centers[q],
                    fleet: false,
                    loc: q as u16,
                };
                built |= M::bit(q);
                added[q] = unit;
                out.implied
                    .push((encode::build(q, false), result::OK, true));
                if let Some(v) = why.as_deref_mut() {
                    v.rulings.push(Ruling::of_unit(cause, unit));
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
        st.set_phase(map.next_year(st.year, WINTER), SPRING, MOVEMENT);
    }

    /// DATC 4.D.8 (2023 rules): sorts the units of `power` not yet removed into `candidates`,
    /// first to go first: farthest from the nearest centre the power owns (or, under the older
    /// rulebooks' rule, its nearest home centre: [`super::rules::Rules::disorder_sources`]; every border
    /// counts, DATC 6.J.6, 6.J.10, 6.J.11), fleets before armies (6.J.7), then by English name
    /// (6.J.4; godip's rule, `disorder_tie="abbreviation"`: by abbreviation). At least `count`
    /// units are there.
    #[allow(clippy::needless_range_loop)] // per-province tables indexed together
    pub(super) fn civil_disorder(&mut self, st: &State<M>, power: usize, count: usize, removed: M) {
        let map = self.map;
        let owned = st.rules.disorder_sources(map, st, power);
        // Distances over every border; unreachable: provinces + 1.
        let far = map.provinces as u32 + 1;
        let dist = border_distances(map, owned, far);
        let rank = match st.rules.disorder_tie {
            DisorderTie::Name => &map.name_rank,
            DisorderTie::Abbreviation => &map.abbr_rank,
        };
        self.candidates.clear();
        for q in 0..map.provinces {
            let u = st.units[q];
            if u.power == power as u8 && !has(removed, q) {
                // MILA: a fleet's own distance along its moves to the nearest centre counted.
                let d = if u.fleet && st.rules.disorder_fleet_moves && !owned.is_zero() {
                    let reach = unit_distances(map, st, u, far);
                    Bits(owned).map(|c| reach[c]).min().unwrap_or(far)
                } else {
                    dist[q]
                };
                let key = ((far - d) << 20) | (u32::from(!u.fleet) << 16);
                // Larger distance first: sort by (far - dist) ascending, then army bit, then name.
                self.candidates.push((key | u32::from(rank[q]), q as u16));
            }
        }
        self.candidates.sort_unstable();
        debug_assert!(self.candidates.len() >= count);
    }
}

/// The power whose order the legal code `c` (normal form, keyed by `key`: its unit's province,
/// a build's province or a waive's power) is in `st`: only that power may give it (DATC 6.A.6:
/// an order for another power's unit, home centre or waive is refused).
pub(super) fn giver<M: Mask>(st: &State<M>, key: usize, c: Code) -> usize {
    match st.kind {
        MOVEMENT => st.units[key].power as usize,
        RETREATS => st.dislodged[key].power as usize,
        _ => match encode::kind_of(c) {
            kind::DISBAND => st.units[key].power as usize,
            kind::WAIVE => key,
            // A build site is a centre its power owns (home or not, as the rules say), so the
            // build is the owner's order.
            _ => st.centers[key] as usize,
        },
    }
}

pub(super) fn to_order(code: Code) -> Order {
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
