//! The environment's counting: how many legal orders a unit has, and the n-th, without listing.

use super::*;

impl<M: Mask> Tables<M> {
    /// The length of [`Tables::push_moves`]'s section of the army in `p`, without listing it:
    /// per province it could reach, the plain move, and "via convoy" where the fleets could
    /// carry it there (`army_move`'s rules counted a province at a time).
    pub(super) fn count_army_moves(&self, map: &GameMap<M>, p: usize) -> usize {
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
    pub(super) fn count_supports_into(
        &self,
        map: &GameMap<M>,
        st: &State<M>,
        p: usize,
        reach: M,
        q: usize,
        at_sea: bool,
        avoiding: &mut Avoiding<M>,
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
    pub(super) fn count_coasts(
        &self,
        map: &GameMap<M>,
        st: &State<M>,
        p: usize,
        q: usize,
        into: M,
    ) -> usize {
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
    pub(super) fn count_needing(
        &self,
        map: &GameMap<M>,
        st: &State<M>,
        p: usize,
        q: usize,
        into: M,
        at_sea: bool,
        avoiding: &mut Avoiding<M>,
    ) -> usize {
        if !at_sea {
            return 0;
        }
        let mut n = 0;
        for m in Bits(into & !self.afloat & self.convoy_only[q] & !M::bit(p)) {
            n += usize::from(!self.carried_without(map, avoiding, m, p, q));
        }
        debug_assert!(st.units[p].fleet);
        n
    }
}

impl<M: Mask> Legal<M> {
    /// How many legal orders the unit in province `q` has in a movement phase: the length of
    /// its list, without making it (the same rules, counted a set at a time where they allow;
    /// [`Legal::prepare`] first). The province must hold a unit.
    pub fn movement_count(&mut self, map: &GameMap<M>, st: &State<M>, q: usize) -> usize {
        let index = self.slot_of[q];
        if index != NO_SLOT {
            return self.slots[index as usize].len as usize;
        }
        self.ensure_into(map, st);
        let mut n = 1 + self.count_moves(map, st, q);
        let t = &self.tables;
        let at_sea = convoys_from(map, st, q);
        let avoiding = &mut self.avoiding;
        let reach = support_reach(map, st, q);
        for into in Bits(reach) {
            n += t.count_supports_into(map, st, q, reach, into, at_sea, avoiding);
        }
        if at_sea {
            self.ensure_routes(map, st);
            n += self.routes.iter().filter(|r| has(r.seas, q)).count();
        }
        n
    }

    /// The length of the moves section of the unit in `p` ([`Tables::push_moves`]).
    pub(super) fn count_moves(&mut self, map: &GameMap<M>, st: &State<M>, p: usize) -> usize {
        if let Some(span) = self.map_moves(map, st, p) {
            return span.len as usize;
        }
        self.tables.count_army_moves(map, p)
    }

    /// The span in `move_codes` of the moves section of the unit in `p` when that section is a
    /// fact of the map alone — a fleet's (`fleet_move` depends on where it is alone), an army's
    /// that no fleet could carry (`army_move` then depends on the map alone) — listed by
    /// [`Tables::push_moves`] on first need; `None` for an army the fleets could carry.
    pub(super) fn map_moves(&mut self, map: &GameMap<M>, st: &State<M>, p: usize) -> Option<Span> {
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
        self.ensure_into(map, st);
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
            let avoiding = &mut self.avoiding;
            let reach = support_reach(map, st, q);
            for into in Bits(reach) {
                let n = t.count_supports_into(map, st, q, reach, into, at_sea, avoiding);
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
                            t.push_supports(map, st, q, M::bit(into), avoiding, &mut section);
                            debug_assert_eq!(code, section.get(i).copied());
                        }
                        break 'found code;
                    }
                    t.push_supports(map, st, q, M::bit(into), avoiding, &mut section);
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
}
