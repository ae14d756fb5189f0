//! A movement phase's results as the game file writes them (`docs/game-files.md`): the JSON
//! text of `diplo.rollouts.write`, byte for byte, made from the engine's own rulings, cut where
//! each sentence's tail goes (the sentences are the model's, `diplo.model.outcome`; the bindings
//! ask Python to word them). No Python here: `bindings/rollout.rs` and `CodeGame.movement_json`
//! write with it.

use super::encode;
use super::error::EngineError;
use super::game_map::Mask;
use super::phases::Verdict;
use super::state::State;

/// The name of a result code (`diplo.engine.codes.RESULT_CODES`).
pub fn result_name(code: u8) -> &'static str {
    crate::resolver::code::NAMES
        .get(code as usize)
        .copied()
        .unwrap_or(super::phases::result::ILLEGAL_NAME)
}

/// The unit's part of an order text (`A PAR` of `A PAR - BUR`).
pub fn unit_of(text: &str) -> &str {
    &text[..text[2..].find(' ').map_or(text.len(), |k| k + 2)]
}

/// Movement, the phase ruled in the verdict `g` from the state `st` (its `before`), every
/// submitted code legal (`owners`: the power of each): the results' JSON as
/// `diplo.rollouts.write` writes them, cut where each sentence's tail goes: `(parts, keys)`,
/// the text being `parts[0] + tail(keys[0]) + parts[1] + ... + parts[n]` (see
/// `PyCodeGame::movement_json` for the keys).
pub fn movement_pieces<M: Mask>(
    g: &Verdict<M>,
    st: &State<M>,
    owners: &[u8],
) -> Result<(Vec<String>, Vec<u64>), EngineError> {
    let mut parts = Vec::with_capacity(g.outcome.results.len() + g.outcome.implied.len() + 1);
    let mut keys = Vec::with_capacity(g.outcome.results.len() + g.outcome.implied.len());
    let mut cur = String::with_capacity(256);
    if !movement_legal(g, owners) {
        return Err(EngineError::invalid(
            "movement_json: every code of the phase must be legal, one owner each",
        ));
    }
    write_movement(g, st, owners, &mut cur, &mut |cur: &mut String, key| {
        parts.push(std::mem::take(cur));
        keys.push(key);
        Ok::<(), EngineError>(())
    })?;
    parts.push(cur);
    Ok((parts, keys))
}

/// Whether every code of the phase ruled in `g` is legal, with one owner each.
pub fn movement_legal<M: Mask>(g: &Verdict<M>, owners: &[u8]) -> bool {
    let n = g.outcome.results.len();
    n == owners.len()
        && g.facts.len() >= n
        && g.reasons.len() == n
        && g.reasons.iter().all(|&r| r == 0)
        && owners.iter().all(|&p| (p as usize) < g.map.powers)
}

/// [`movement_pieces`] written into `out`, `tail(out, key)` writing each sentence's tail; the
/// phase must be [`movement_legal`].
pub fn write_movement<M: Mask, E>(
    g: &Verdict<M>,
    st: &State<M>,
    owners: &[u8],
    out: &mut String,
    tail: &mut impl FnMut(&mut String, u64) -> Result<(), E>,
) -> Result<(), E> {
    let map = g.map;
    let n = g.outcome.results.len();
    let name = |i: i32| if i >= 0 { map.loc_name(i as usize) } else { "" };
    let plus = |i: i32| (i + 1) as u64;
    let mut buf = String::with_capacity(64);
    // The reason's closing quote, then the result's end.
    let end = |out: &mut String, origin: i32| {
        out.push('"');
        result_end(out, (origin >= 0).then(|| name(origin)));
    };
    for (j, &owner) in owners.iter().enumerate() {
        if j > 0 {
            end(out, g.facts[j - 1].dislodged_by);
            out.push_str(", ");
        }
        let c = g.normal[j];
        super::text::order_text(map, st, c, &mut buf);
        let unit = unit_of(&buf);
        let f = g.facts[j];
        let power = map.power_name(owner as usize);
        result_start(
            out,
            power,
            Some(unit),
            &[&buf],
            true,
            g.outcome.success[j],
            g.outcome.results[j],
        );
        out.push('"');
        out.push_str(&buf);
        tail(
            out,
            encode::kind_of(c) as u64
                | (g.outcome.results[j] as u64) << 4
                | plus(f.dislodged_by) << 7
                | plus(f.by) << 18
                | (f.attack as u64) << 29
                | (f.opposition as u64) << 37
                | (f.convoyed as u64) << 45
                | (f.szykman as u64) << 46,
        )?;
    }
    let mut last = if n > 0 {
        g.facts[n - 1].dislodged_by
    } else {
        -2
    };
    for (k, &(code, res, ok)) in g.outcome.implied.iter().enumerate() {
        if last != -2 {
            end(out, last);
            out.push_str(", ");
        }
        let prov = map.prov_of[encode::loc_of(code)] as usize;
        let u = st.units[prov];
        buf.clear();
        buf.push_str(if u.fleet { "F " } else { "A " });
        buf.push_str(map.loc_name(u.loc as usize));
        let origin = g.facts.get(n + k).map_or(-1, |f| f.dislodged_by);
        let power = map.power_name(u.power as usize);
        result_start(out, power, Some(&buf), &[&buf, " H"], false, ok, res);
        out.push('"');
        out.push_str(&buf);
        tail(out, plus(origin) << 7 | 1 << 47)?;
        last = origin;
    }
    if last != -2 {
        end(out, last);
    }
    Ok(())
}

/// Writes the JSON of a legal result up to its reason, byte for byte as `json.dumps` writes
/// `diplo.model.results.Result.to_json()`: `{"power": "P", "unit": "U" (or null), "order":
/// "O", "given": .., "legal": true, "success": .., "code": "c", "reason": `, the order written
/// from its pieces. The caller writes the reason (a JSON string), then [`result_end`]. With
/// [`result_end`] the one writer of a result's JSON in Rust (a game file's movement results,
/// the rollout player's results); Python's is `diplo.model.results.legal_result_text`. Names
/// must need no JSON escape (a plain-named map).
pub fn result_start(
    out: &mut String,
    power: &str,
    unit: Option<&str>,
    order: &[&str],
    given: bool,
    success: bool,
    code: u8,
) {
    out.push_str("{\"power\": \"");
    out.push_str(power);
    match unit {
        Some(u) => {
            out.push_str("\", \"unit\": \"");
            out.push_str(u);
            out.push_str("\", \"order\": \"");
        }
        None => out.push_str("\", \"unit\": null, \"order\": \""),
    }
    for piece in order {
        out.push_str(piece);
    }
    out.push_str("\", \"given\": ");
    out.push_str(flag(given));
    out.push_str(", \"legal\": true, \"success\": ");
    out.push_str(flag(success));
    out.push_str(", \"code\": \"");
    out.push_str(result_name(code));
    out.push_str("\", \"reason\": ");
}

/// Ends a result [`result_start`] began, after its reason: its dislodger, if any, and the brace.
pub fn result_end(out: &mut String, dislodged_by: Option<&str>) {
    if let Some(origin) = dislodged_by {
        out.push_str(", \"dislodged_by\": \"");
        out.push_str(origin);
        out.push_str("\"}");
    } else {
        out.push('}');
    }
}

/// A JSON boolean.
pub fn flag(b: bool) -> &'static str {
    if b {
        "true"
    } else {
        "false"
    }
}
