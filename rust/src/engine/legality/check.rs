//! A submitted code's normal form (`canonical`) and its verdict (`check`).

use super::*;

impl<M: Mask> Legal<M> {
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
    /// `st`. A code found as it is in its unit's list (when the list is made) is its own normal
    /// form; with no list made, only the part of a section that could hold the normal form is
    /// built (`Legal::section_of`).
    pub fn check(&mut self, map: &GameMap<M>, st: &State<M>, code: Code) -> Option<(usize, Code)> {
        if st.kind == MOVEMENT {
            // A code as listed is its own normal form: found in its unit's list (when that is
            // made), there is nothing to normalise.
            let loc = encode::loc_of(code);
            if loc < map.locations {
                let key = map.prov_of[loc] as usize;
                let index = self.slot_of[key];
                if index != NO_SLOT && self.codes_of(&self.slots[index as usize]).contains(&code) {
                    debug_assert_eq!(Self::canonical(map, st, code), Some((key, code)));
                    return Some((key, code));
                }
            }
        }
        let (key, c) = Self::canonical(map, st, code)?;
        let unit = st.units[key];
        if st.kind == MOVEMENT && unit.is_some() && map.neutral[unit.power as usize] {
            return None; // a neutral unit holds and is never ordered
        }
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
                // A move whose section is a fact of the map alone (a fleet's, an army's no fleet
                // could carry) is read from the list kept per map, made once.
                if encode::kind_of(c) == kind::MOVE {
                    if let Some(span) = self.map_moves(map, st, key) {
                        return self.move_codes[span.range()]
                            .contains(&c)
                            .then_some((key, c));
                    }
                }
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

    /// Fills `out` with the part of the section of the list of the unit in `p` where the
    /// movement code `c` would be listed that could hold it (see [`Tables`]); false when no
    /// section of that unit could list it.
    pub(super) fn section_of(
        &mut self,
        map: &GameMap<M>,
        st: &State<M>,
        p: usize,
        c: Code,
        out: &mut Vec<Code>,
    ) -> bool {
        match encode::kind_of(c) {
            kind::HOLD => push_hold(st, p, out),
            // An army's: only its moves to the one province (a fleet's section is short).
            kind::MOVE if !st.units[p].fleet => {
                self.tables.push_army_moves_to(map, p, encode::a_of(c), out)
            }
            kind::MOVE => self.tables.push_moves(map, st, p, out),
            kind::SUPPORT_HOLD => {
                let q = encode::a_of(c);
                let reach = support_reach(map, st, p);
                if !has(reach, q) {
                    return false;
                }
                push_support_hold(reach, st, p, st.units[p].loc as usize, q, out);
            }
            kind::SUPPORT_MOVE => {
                let q = map.prov_of[encode::b_of(c)] as usize;
                if !has(support_reach(map, st, p), q) {
                    return false;
                }
                // Only the supports of the one unit's moves into `q`.
                self.tables.push_supports_of(
                    map,
                    st,
                    p,
                    encode::a_of(c),
                    q,
                    &mut self.avoiding,
                    out,
                );
            }
            kind::CONVOY => {
                if !convoys_from(map, st, p) {
                    return false;
                }
                // Only the convoys of the one army.
                let span = self.army_routes(map, st, encode::a_of(c));
                push_convoys(&self.routes[span.range()], st, p, out);
            }
            _ => return false,
        }
        true
    }
}
