//! Why a refused code is refused.

use super::*;

/// The reason `code`, submitted by `power` (`NO_POWER`: by the owner of whatever it orders),
/// is refused in `st`, or `OK`. [`Legal::prepare`] must have been called for `st`.
pub fn why<M: Mask>(
    legal: &mut Legal<M>,
    map: &GameMap<M>,
    st: &State<M>,
    power: u8,
    code: Code,
) -> u8 {
    if !well_formed(code, map.locations, map.provinces, map.powers) {
        return MALFORMED;
    }
    match st.kind {
        MOVEMENT => why_movement(legal, map, st, power, code),
        ADJUSTMENTS => why_adjustment(map, st, power, code),
        _ => why_retreat(map, st, power, code),
    }
}

fn why_movement<M: Mask>(
    legal: &mut Legal<M>,
    map: &GameMap<M>,
    st: &State<M>,
    power: u8,
    code: Code,
) -> u8 {
    let k = encode::kind_of(code);
    if k > kind::CONVOY {
        return WRONG_PHASE;
    }
    let p = map.prov_of[encode::loc_of(code)] as usize;
    let u = st.units[p];
    if !u.is_some() {
        return NO_UNIT;
    }
    if power != NO_POWER && u.power != power {
        // DATC 6.A.6: a power cannot order another power's unit.
        return FOREIGN_UNIT;
    }
    if map.neutral[u.power as usize] {
        return NEUTRAL_UNIT;
    }
    let here = u.loc as usize;
    let a = encode::a_of(code);
    let b = encode::b_of(code);
    match k {
        kind::HOLD => OK,
        kind::MOVE => {
            let dp = map.prov_of[a] as usize;
            if dp == p {
                return MOVE_TO_SELF;
            }
            if !u.fleet {
                return army_move(map, &legal.tables, p, dp, encode::via_of(code));
            }
            if encode::via_of(code) {
                return CONVOY_OF_FLEET;
            }
            fleet_move(map, here, a).err().unwrap_or(OK)
        }
        kind::SUPPORT_HOLD => support_hold(map, st, p, a),
        kind::SUPPORT_MOVE => {
            let r = support_move(map, st, p, a, map.prov_of[b] as usize);
            if r != OK {
                return r;
            }
            // Whether the supported move is possible (DATC 4.E.1, 6.A.5, 6.D.31): whether the
            // support is in the section of the list that search made.
            let Some((_, c)) = Legal::canonical(map, st, code) else {
                return IMPOSSIBLE_MOVE;
            };
            let mut section = std::mem::take(&mut legal.section);
            section.clear();
            let listed = legal.section_of(map, st, p, c, &mut section) && section.contains(&c);
            legal.section = section;
            if listed {
                OK
            } else {
                IMPOSSIBLE_MOVE
            }
        }
        _ => {
            if !convoys_from(map, st, p) {
                return CONVOY_NOT_AT_SEA;
            }
            let army = st.units[a];
            if !army.is_some() {
                return NO_SUPPORTED_UNIT;
            }
            if army.fleet {
                return CONVOY_OF_FLEET; // DATC 6.A.7
            }
            if b == a {
                return MOVE_TO_SELF;
            }
            if !has(legal.route_seas(map, st, a, b), p) {
                return CONVOY_IMPOSSIBLE; // DATC 6.G.19, 4.E.1
            }
            OK
        }
    }
}

fn why_retreat<M: Mask>(map: &GameMap<M>, st: &State<M>, power: u8, code: Code) -> u8 {
    let k = encode::kind_of(code);
    if k != kind::MOVE && k != kind::RETREAT && k != kind::DISBAND {
        return WRONG_PHASE; // DATC 6.H.1, 6.H.2
    }
    let p = map.prov_of[encode::loc_of(code)] as usize;
    let d = st.dislodged[p];
    if !d.is_some() {
        return NOT_DISLODGED;
    }
    if power != NO_POWER && d.power != power {
        return FOREIGN_UNIT;
    }
    if k == kind::DISBAND {
        return OK;
    }
    retreat_destination(map, st, p, encode::a_of(code))
        .err()
        .unwrap_or(OK)
}

fn why_adjustment<M: Mask>(map: &GameMap<M>, st: &State<M>, power: u8, code: Code) -> u8 {
    let k = encode::kind_of(code);
    if k != kind::BUILD && k != kind::DISBAND && k != kind::WAIVE {
        return WRONG_PHASE;
    }
    let loc = encode::loc_of(code);
    // Whose order it is: the submitter; without one, the power the code itself names.
    let who = if power != NO_POWER {
        power as usize
    } else {
        match k {
            kind::WAIVE => loc,
            kind::DISBAND => {
                let u = st.units[map.prov_of[loc] as usize];
                if !u.is_some() {
                    return NO_UNIT;
                }
                u.power as usize
            }
            _ => {
                // A build is its centre's owner's order (a build site is an owned centre);
                // an unowned home centre's, its home power's.
                let prov = map.prov_of[loc] as usize;
                let owner = st.centers[prov];
                let h = if owner != NO_POWER {
                    owner
                } else {
                    map.home_of[prov]
                };
                if h == NO_POWER {
                    return NOT_HOME_CENTER;
                }
                h as usize
            }
        }
    };
    if map.neutral.get(who).copied().unwrap_or(false) {
        // A neutral power orders nothing, builds included (`Legal::prepare_adjustments`).
        return NEUTRAL_UNIT;
    }
    let allowed = adjustment(k, owed_by(map, st, who));
    if allowed != OK {
        return allowed;
    }
    match k {
        kind::WAIVE => OK,
        kind::DISBAND => {
            let u = st.units[map.prov_of[loc] as usize];
            if !u.is_some() {
                NO_UNIT
            } else if u.power as usize != who {
                FOREIGN_UNIT
            } else {
                OK
            }
        }
        _ => {
            let prov = map.prov_of[loc] as usize;
            // The rules' build sites decide (`Rules::build_sites`); here only the reason, in
            // `diplo.reference.validation`'s order.
            if !has(st.rules.build_sites(map, st, who), prov) {
                if st.rules.build_sites == BuildSites::HomeCentres
                    && (map.home_of[prov] as usize != who || map.home_of[prov] == NO_POWER)
                {
                    return NOT_HOME_CENTER;
                }
                if st.rules.build_sites == BuildSites::AnyHomeCentre && !has(some_home(map), prov) {
                    return NOT_HOME_CENTER;
                }
                if !has(map.centers, prov) {
                    return NOT_HOME_CENTER;
                }
                if st.centers[prov] != who as u8 {
                    return CENTER_NOT_OWNED;
                }
                return OCCUPIED;
            }
            if !encode::fleet_of(code) {
                return OK; // DATC 4.B.6: a coast on an army build is ignored.
            }
            fleet_build(map, loc)
        }
    }
}
