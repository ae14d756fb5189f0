//! The listing tables: the moves and supports sections of a unit's list.

use super::*;

impl<M: Mask> Tables<M> {
    /// Section: the moves of the unit in `p`.
    pub(super) fn push_moves(
        &self,
        map: &GameMap<M>,
        st: &State<M>,
        p: usize,
        out: &mut Vec<Code>,
    ) {
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
        debug_assert_eq!(loc, p, "an army stands on its province");
        let land = map.army_adj[p];
        for q in Bits(land).chain(Bits(self.by_sea[p] & !land)) {
            self.push_army_moves_into(map, p, q, out);
        }
    }

    /// The part of [`Tables::push_moves`]'s section of the army in `p` that moves it to the
    /// province `q`: plain and "via convoy", where `army_move` allows. (Its whole section when
    /// `q` is neither a neighbour nor where the fleets could carry it: none.)
    #[inline(always)]
    pub(super) fn push_army_moves_to(
        &self,
        map: &GameMap<M>,
        p: usize,
        q: usize,
        out: &mut Vec<Code>,
    ) {
        if has(map.army_adj[p] | self.by_sea[p], q) {
            self.push_army_moves_into(map, p, q, out);
        }
    }

    /// [`Tables::push_army_moves_to`] for a province `q` the army in `p` could reach.
    #[inline(always)]
    fn push_army_moves_into(&self, map: &GameMap<M>, p: usize, q: usize, out: &mut Vec<Code>) {
        for via in [false, true] {
            if army_move(map, self, p, q, via) == OK {
                out.push(encode::move_to(p, q, via));
            }
        }
    }

    /// Sections: the supports by the unit in `p` into each province of `into` (provinces it
    /// could enter): to hold the unit there, and of every possible move into it (DATC 4.E.1) —
    /// a fleet's move into a split-coast province with the bare province and with each coast it
    /// can reach (DATC 6.B.9); a convoyed move only with a route that does not need this fleet
    /// (DATC 6.D.31). Needs the `into` tables ([`Legal::ensure_into`]).
    pub(super) fn push_supports(
        &self,
        map: &GameMap<M>,
        st: &State<M>,
        p: usize,
        into: M,
        avoiding: &mut Avoiding<M>,
        out: &mut Vec<Code>,
    ) {
        debug_assert!(
            self.into_ready,
            "the into tables are made before listing supports"
        );
        self.supports_in(map, st, p, into, None, avoiding, out);
    }

    /// The section of [`Tables::push_supports`] where a support by the unit in `p` of the unit
    /// in `m`'s move into the province `q` (in the supporter's reach) would be listed: the
    /// supports of that one unit's moves into `q`. `into[q]` and `convoy_only[q]` read for the
    /// one unit ([`Tables::reach_of`], [`Tables::convoy_only_of`]), so no table is needed.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn push_supports_of(
        &self,
        map: &GameMap<M>,
        st: &State<M>,
        p: usize,
        m: usize,
        q: usize,
        avoiding: &mut Avoiding<M>,
        out: &mut Vec<Code>,
    ) {
        self.supports_in(map, st, p, M::bit(q), Some(m), avoiding, out);
    }

    /// [`Tables::push_supports`] (`only` none), or only the supports of the moves of the unit
    /// in `only` and no support to hold ([`Tables::push_supports_of`]): one body for both.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn supports_in(
        &self,
        map: &GameMap<M>,
        st: &State<M>,
        p: usize,
        into: M,
        only: Option<usize>,
        avoiding: &mut Avoiding<M>,
        out: &mut Vec<Code>,
    ) {
        let loc = st.units[p].loc as usize;
        let at_sea = convoys_from(map, st, p);
        let reach = support_reach(map, st, p);
        for q in Bits(into) {
            // The units that could move into `q` but the supporter's own (which
            // `support_move` refuses, SUPPORT_SELF: not even asked), and those of them only a
            // convoy could carry there when this unit is a fleet that may convoy (only such a
            // fleet could be on the route).
            let (movers, convoyed) = match only {
                None => {
                    push_support_hold(reach, st, p, loc, q, out);
                    let movers = self.into[q] & !M::bit(p);
                    (movers, if at_sea { self.convoy_only[q] } else { M::ZERO })
                }
                Some(m) => {
                    if m == p || !st.units[m].is_some() || !has(self.reach_of(map, st, m), q) {
                        continue;
                    }
                    let convoyed = at_sea && has(self.convoy_only_of(map, st, m), q);
                    (M::bit(m), if convoyed { M::bit(m) } else { M::ZERO })
                }
            };
            if movers.is_zero() {
                continue;
            }
            // What the moves into `q` need beyond the plain support: the coasts of a fleet's
            // move (none unless `q` is split), the route of a convoyed army.
            let coasts = map.coasts[q];
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
                    && !self.carried_without(map, avoiding, m, p, q)
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

    /// Where a support of the army in `m`'s convoyed move may name: where the fleets could
    /// carry it, or under MILA's ports (`barred`) where they could carry an army back to it
    /// ([`Tables::listed_sea`]) unless any route from the army will do (MILA's acceptance,
    /// `convoyed_support="any_route"`: `Game._valid_order` asks `_has_convoy_path` forward).
    #[inline]
    pub(super) fn support_sea(&self, m: usize) -> M {
        if self.any_route {
            self.by_sea[m]
        } else {
            self.listed_sea(m)
        }
    }

    /// Where MILA's possible orders name a support of the army in `m`'s convoyed move: where
    /// the fleets could carry it, or under its ports (`barred`) where they could carry an army
    /// back to it (`get_all_possible_orders`, `_get_convoy_destinations('A', dest, ...)`).
    #[inline]
    pub(super) fn listed_sea(&self, m: usize) -> M {
        if self.barred.is_zero() {
            self.by_sea[m]
        } else {
            self.back_by_sea[m]
        }
    }

    /// Whether a support by `p` of the army in `m` into `q` is legal as far as its route goes:
    /// always with `any_route` (MILA takes a support of a move only the supporter could carry,
    /// which then has no convoy), else [`Tables::listed_without`] (DATC 6.D.31).
    #[inline]
    pub(super) fn carried_without(
        &self,
        map: &GameMap<M>,
        avoiding: &mut Avoiding<M>,
        m: usize,
        p: usize,
        q: usize,
    ) -> bool {
        self.any_route || self.listed_without(map, Some(avoiding), m, p, q)
    }

    /// Whether MILA lists a support by `p` of the army in `m`'s convoyed move into `q`:
    /// [`Tables::listed_sea`] and [`Tables::listed_without`].
    pub(super) fn mila_lists(&self, map: &GameMap<M>, m: usize, p: usize, q: usize) -> bool {
        has(self.listed_sea(m), q) && self.listed_without(map, None, m, p, q)
    }

    /// Whether the fleets but the one in `p` could carry the army in `m` to `q`, for a support
    /// by `p` (DATC 6.D.31; under MILA's ports, from `q` back to `m`: [`Tables::listed_sea`]).
    #[inline]
    pub(super) fn listed_without(
        &self,
        map: &GameMap<M>,
        avoiding: Option<&mut Avoiding<M>>,
        m: usize,
        p: usize,
        q: usize,
    ) -> bool {
        if self.barred.is_zero() {
            !has(self.closure[m], p)
                || has(
                    match avoiding {
                        Some(avoiding) => avoiding.reach(map, self.fleets, self.barred, m, p),
                        None => map.convoy_reach(m, self.fleets, M::bit(p), self.barred).0,
                    },
                    q,
                )
        } else {
            has(
                map.convoy_reach(q, self.fleets, M::bit(p), self.barred).0,
                m,
            )
        }
    }

    /// The provinces the unit in `m` could be supported into, by land, as a fleet or carried
    /// by the fleets at sea ([`Tables::support_sea`]): `into[q]` holds `m` exactly when this
    /// holds `q`.
    #[inline]
    pub(super) fn reach_of(&self, map: &GameMap<M>, st: &State<M>, m: usize) -> M {
        let u = st.units[m];
        if u.fleet {
            map.fleet_reach[u.loc as usize]
        } else {
            map.army_adj[m] | self.support_sea(m)
        }
    }

    /// The provinces the unit in `m` could reach only by convoy (none for a fleet):
    /// `convoy_only[q]` holds `m` exactly when this holds `q`.
    #[inline]
    pub(super) fn convoy_only_of(&self, map: &GameMap<M>, st: &State<M>, m: usize) -> M {
        if st.units[m].fleet {
            M::ZERO
        } else {
            self.support_sea(m) & !map.army_adj[m]
        }
    }
}

/// Section: the support to hold of the unit in `q` by the unit in `p` (at location `loc`, its
/// [`support_reach`] `reach`), when the rule allows it.
#[inline(always)]
pub(super) fn push_support_hold<M: Mask>(
    reach: M,
    st: &State<M>,
    p: usize,
    loc: usize,
    q: usize,
    out: &mut Vec<Code>,
) {
    if support_hold_in(reach, st, p, q) == OK {
        out.push(encode::support_hold(loc, q));
    }
}
