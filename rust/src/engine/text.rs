//! The canonical short form of an order code (what `diplo.model.orders.format_order` prints for the
//! normalised order), in a given state: `A PAR - BUR`, `F NTH C A LON - BEL`, `WAIVE`.

use super::encode::{self, kind, Code};
use super::game_map::{GameMap, Mask};
use super::state::{Piece, State, RETREATS};

fn unit<M: Mask>(out: &mut String, map: &GameMap<M>, p: Piece) {
    out.push_str(if p.fleet { "F " } else { "A " });
    out.push_str(map.loc_name(p.loc as usize));
}

/// The unit `code` orders in `st` (`Piece::NONE` for none): the one in its province, the
/// dislodged one in a retreat phase. What its text names first.
#[inline]
pub fn ordered_unit<M: Mask>(map: &GameMap<M>, st: &State<M>, code: Code) -> Piece {
    let prov = map.prov_of[encode::loc_of(code)] as usize;
    if st.kind == RETREATS && st.dislodged[prov].is_some() {
        st.dislodged[prov]
    } else {
        st.units[prov]
    }
}

/// The text of the legal normal-form `code` in `st` (units named as they stand). A code naming
/// no unit where it needs one names the unit by its location with type `?`.
pub fn order_text<M: Mask>(map: &GameMap<M>, st: &State<M>, code: Code, out: &mut String) {
    out.clear();
    let k = encode::kind_of(code);
    let loc = encode::loc_of(code);
    if k == kind::WAIVE {
        out.push_str("WAIVE");
        return;
    }
    if k == kind::BUILD {
        unit(
            out,
            map,
            Piece {
                power: 0,
                fleet: encode::fleet_of(code),
                loc: loc as u16,
            },
        );
        out.push_str(" B");
        return;
    }
    let me = ordered_unit(map, st, code);
    let named = |out: &mut String, q: usize| {
        let p = st.units[q];
        if p.is_some() {
            unit(out, map, p);
        } else {
            out.push_str("? ");
            out.push_str(map.loc_name(q));
        }
    };
    if me.is_some() {
        unit(out, map, me);
    } else {
        out.push_str("? ");
        out.push_str(map.loc_name(loc));
    }
    let a = encode::a_of(code);
    let b = encode::b_of(code);
    match k {
        kind::HOLD => out.push_str(" H"),
        kind::MOVE => {
            out.push_str(" - ");
            out.push_str(map.loc_name(a));
            if encode::via_of(code) {
                out.push_str(" VIA");
            }
        }
        kind::SUPPORT_HOLD => {
            out.push_str(" S ");
            named(out, a);
        }
        kind::SUPPORT_MOVE => {
            out.push_str(" S ");
            named(out, a);
            out.push_str(" - ");
            out.push_str(map.loc_name(b));
        }
        kind::CONVOY => {
            out.push_str(" C ");
            named(out, a);
            out.push_str(" - ");
            out.push_str(map.loc_name(b));
        }
        kind::RETREAT => {
            out.push_str(" R ");
            out.push_str(map.loc_name(a));
        }
        _ => out.push_str(" D"),
    }
}

/// The code of an order written exactly in the canonical short form (`A PAR - BUR`,
/// `F NTH C A LON - BEL`, `A PAR - BUR VIA`, `F STP/NC B`, ...; not `WAIVE`, whose code names
/// its power), or `None` for any other text (which the general parser, `diplo.model.orders`, reads).
/// The code is the one `diplo.engine.codes.encode_order` gives the parsed order.
pub fn parse_canonical<M: Mask>(map: &GameMap<M>, text: &str) -> Option<Code> {
    let mut words = text.split(' ');
    let unit_type = words.next()?;
    if unit_type != "A" && unit_type != "F" {
        return None;
    }
    let at = |w: Option<&str>| -> Option<usize> { map.loc_index.get(w?).map(|&i| i as usize) };
    let prov = |l: usize| map.prov_of[l] as usize;
    let here = at(words.next())?;
    let verb = words.next()?;
    let code = match verb {
        "H" => encode::hold(here),
        "D" => encode::disband(here),
        "B" => encode::build(here, unit_type == "F"),
        "R" => encode::retreat(here, at(words.next())?),
        "-" => {
            let dest = at(words.next())?;
            match words.next() {
                None => encode::move_to(here, dest, false),
                Some("VIA") => encode::move_to(here, dest, true),
                Some(_) => return None,
            }
        }
        "S" | "C" => {
            let other = words.next()?;
            if other != "A" && other != "F" {
                return None;
            }
            let target = prov(at(words.next())?);
            match (verb, words.next()) {
                ("S", None) => encode::support_hold(here, target),
                ("S", Some("-")) => encode::support_move(here, target, at(words.next())?),
                ("C", Some("-")) => encode::convoy(here, target, prov(at(words.next())?)),
                _ => return None,
            }
        }
        _ => return None,
    };
    if words.next().is_some() {
        return None;
    }
    Some(code)
}
