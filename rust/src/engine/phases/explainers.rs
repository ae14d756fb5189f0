//! Why each result is what it is: the rulings and facts behind a phase's results.

use super::*;

/// Records why each result of a retreat phase is what it is (`Verdict::rulings`), per submitted
/// code then per implied disband, from the phase's state (`st`, dislodged units still there).
pub(super) fn explain_retreats<M: Mask>(
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
pub(super) fn border_distances<M: Mask>(map: &GameMap<M>, sources: M, far: u32) -> M::Table<u32> {
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

/// The civil-disorder distance of `unit` to every province, per province (`far` where it never
/// arrives): over every border ([`border_distances`]), or under MILA's
/// `disorder_distance="fleet_moves"` (`Game._get_distance_to_home`) for a fleet along the moves
/// a fleet can make from its location, a province reached by any of its coasts. The one
/// distance of a unit, read by which units go (`Scratch::civil_disorder`) and why
/// ([`explain_disorder`]), as `diplo.reference.adjustments.unit_distances`.
pub(super) fn unit_distances<M: Mask>(
    map: &GameMap<M>,
    st: &State<M>,
    unit: Piece,
    far: u32,
) -> M::Table<u32> {
    if !(unit.fleet && st.rules.disorder_fleet_moves) {
        let start = map.prov_of[unit.loc as usize] as usize;
        return border_distances(map, bit::<M>(start), far);
    }
    let mut dist = M::table(far);
    let mut seen = bit::<M>(unit.loc as usize);
    let mut frontier = seen;
    let mut d = 0;
    while !frontier.is_zero() {
        let mut next = M::ZERO;
        for l in Bits(frontier) {
            let q = map.prov_of[l] as usize;
            if dist[q] == far {
                dist[q] = d;
            }
            next |= map.fleet_adj[l];
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
pub(super) fn explain_disorder<M: Mask>(
    map: &GameMap<M>,
    st: &State<M>,
    power: usize,
    unit: Piece,
) -> Ruling {
    let home = matches!(
        st.rules.civil_disorder,
        crate::engine::rules::CivilDisorder::HomeCentres
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
    // Distances from the unit (over every border, or a fleet's along its moves).
    let far = u32::MAX;
    let dist = unit_distances(map, st, unit, far);
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

/// Records the facts behind a movement phase's results (`Verdict::facts`), per submitted code then
/// per implied hold.
#[allow(clippy::too_many_arguments)]
pub(super) fn explain_movement<M: Mask>(
    map: &GameMap<M>,
    out: &MovementOutcome,
    keys: &[u16],
    orders: &M::Table<Code>,
    index: &M::Table<u16>,
    effective: M,
    occupied: M,
    facts: &mut Vec<Fact>,
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
    for &key in keys {
        if key == REFUSED || !has(effective, key as usize) {
            facts.push(Fact::default());
        } else {
            facts.push(fact(key as usize));
        }
    }
    for q in Bits(occupied & !effective) {
        facts.push(fact(q));
    }
    let _ = map;
}
