//! diplo's adapter in front of the Rust `diplomacy` crate (0.2.0): the JSON contract in
//! `--jsonl` mode, one input document per line, one output document per line.
//!
//! Orders arrive in diplo's short form (`A PAR - BUR`, `A LON - BEL VIA`, `A MUN S A BER - SIL`,
//! `F NTH C A LON - BEL`, `A PAR H`): `python -m diplo.apps.peers diplomacy-crate` rewrites
//! whatever a document says into that form before it comes here. A movement phase goes to the
//! crate's `Submission` under its default `Rulebook`; each given order's ruling, the dislodged
//! units with their retreat regions and the board after are the crate's (a support or convoy
//! succeeds when the crate's outcome says so and the crate's own matching finds the order it
//! names among those adjudicated: else it was void). The crate leaves the
//! owners of the centres to its caller: after a Fall turn this adapter gives a centre to the
//! power whose unit stands in it, and goes to the winter when a power's centres and units differ.
//!
//! Not expressible: retreat and adjustment phases (the crate builds a retreat phase only from its
//! own movement outcome and a build phase from a world it is given another way), other maps,
//! rule options: answered `{"unsupported": why}`.
//!
//! `--bench ROUNDS` reads every document, rules on each ROUNDS times and prints one line
//! `{"us": [median µs per document]}`.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, BufRead, Write};
use std::time::Instant;

use diplomacy::geo::{standard_map, Coast, RegionKey};
use diplomacy::judge::{MappedMainOrder, OrderOutcome, OrderState, Rulebook, Submission};
use diplomacy::order::{ConvoyedMove, MainCommand, MoveCommand, SupportedOrder};
use diplomacy::{Nation, Order, ShortName, Unit, UnitPosition, UnitPositions, UnitType};
use serde_json::{json, Map as JsonMap, Value};

type Outcome = Result<Value, String>;

fn region(text: &str) -> Result<RegionKey, String> {
    let (prov, coast) = match text.split_once('/') {
        Some((p, c)) => (p, Some(c)),
        None => (text, None),
    };
    let coast = match coast {
        None => None,
        Some("NC") => Some(Coast::North),
        Some("SC") => Some(Coast::South),
        Some("EC") => Some(Coast::East),
        Some("WC") => Some(Coast::West),
        Some(other) => return Err(format!("unknown coast {other}")),
    };
    Ok(RegionKey::new(prov.to_ascii_lowercase(), coast))
}

fn region_text(r: &RegionKey) -> String {
    let prov = r.province().short_name().to_ascii_uppercase();
    match r.coast() {
        None => prov,
        Some(Coast::North) => format!("{prov}/NC"),
        Some(Coast::South) => format!("{prov}/SC"),
        Some(Coast::East) => format!("{prov}/EC"),
        Some(Coast::West) => format!("{prov}/WC"),
    }
}

fn unit_type(word: &str) -> Result<UnitType, String> {
    match word {
        "A" => Ok(UnitType::Army),
        "F" => Ok(UnitType::Fleet),
        other => Err(format!("unknown unit type {other}")),
    }
}

fn type_letter(t: UnitType) -> &'static str {
    match t {
        UnitType::Army => "A",
        UnitType::Fleet => "F",
    }
}

/// One order in diplo's short form as the crate's order.
fn order(power: &str, text: &str) -> Result<MappedMainOrder, String> {
    let w: Vec<&str> = text.split_whitespace().collect();
    if w.len() < 3 {
        return Err(format!("cannot read {text:?}"));
    }
    let (t, at) = (unit_type(w[0])?, region(w[1])?);
    let command = match &w[2..] {
        ["H"] => MainCommand::Hold,
        ["-", dest] => MainCommand::Move(MoveCommand::new(region(dest)?)),
        ["-", dest, "VIA"] => MainCommand::Move(MoveCommand::with_mandatory_convoy(region(dest)?)),
        ["S", st, sat] => MainCommand::Support(SupportedOrder::Hold(unit_type(st)?, region(sat)?)),
        ["S", st, sat, "-", dest] => MainCommand::Support(SupportedOrder::Move(
            unit_type(st)?,
            region(sat)?,
            region(dest)?,
        )),
        ["C", "A", from, "-", to] => {
            MainCommand::Convoy(ConvoyedMove::new(region(from)?, region(to)?))
        }
        _ => {
            return Err(format!(
                "not a movement-phase order the crate can take: {text:?}"
            ))
        }
    };
    Ok(Order::new(Nation::from(power), t, at, command))
}

/// Outcomes by which the crate says the order itself could not be carried out (a move to its
/// own province, a support of itself, a support into a province the supporter cannot reach):
/// the contract's illegal orders.
fn invalid(reason: &str) -> bool {
    ["MoveToSelf", "SupportingSelf", "CantReach"]
        .iter()
        .any(|r| reason.starts_with(r))
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn adjudicate(doc: &Value) -> Outcome {
    let map_name = doc.get("map").and_then(Value::as_str).unwrap_or("standard");
    if map_name != "standard" {
        return Err(format!(
            "unsupported:the crate knows only the standard map, not {map_name}"
        ));
    }
    if doc.get("rules").is_some_and(|r| !r.is_null()) {
        return Err("unsupported:the crate's adapter takes no rule options".into());
    }
    let phase = doc["phase"].as_str().ok_or("the document has no phase")?;
    if !phase.ends_with('M') {
        return Err(
            "unsupported:the crate builds a retreat phase only from its own movement \
                    outcome, and a build phase from a world given another way"
                .into(),
        );
    }
    let empty = JsonMap::new();
    let units_doc = doc["units"].as_object().unwrap_or(&empty);
    let mut start: Vec<UnitPosition<'static, RegionKey>> = Vec::new();
    let mut powers: Vec<String> = Vec::new();
    for (power, units) in units_doc {
        powers.push(power.clone());
        for u in strings(units) {
            let (t, at) = u.split_once(' ').ok_or(format!("cannot read unit {u:?}"))?;
            start.push(UnitPosition::new(
                Unit::new(Cow::Owned(Nation::from(power.as_str())), unit_type(t)?),
                region(at)?,
            ));
        }
    }
    // Given orders in input order; one the crate cannot take is illegal here.
    let mut given: Vec<(String, String, Option<MappedMainOrder>, String)> = Vec::new();
    if let Some(orders) = doc.get("orders").and_then(Value::as_object) {
        for (power, texts) in orders {
            for text in strings(texts) {
                match order(power, &text) {
                    Ok(o) => given.push((power.clone(), text, Some(o), String::new())),
                    Err(why) => given.push((power.clone(), text, None, why)),
                }
            }
        }
    }
    let map = standard_map();
    let submitted: Vec<MappedMainOrder> = given.iter().filter_map(|g| g.2.clone()).collect();
    let submission = Submission::new(map, &start, submitted);
    let outcome = submission.adjudicate(Rulebook::default());
    let retreat = outcome.to_retreat_start();
    let dislodged_orders: BTreeSet<String> = retreat
        .dislodged()
        .keys()
        .map(|o| format!("{} {}", type_letter(o.unit_type), region_text(&o.region)))
        .collect();
    let mut results = Vec::new();
    for (power, text, parsed, why) in &given {
        let unit = text
            .split_whitespace()
            .take(2)
            .collect::<Vec<_>>()
            .join(" ");
        let ruled = parsed.as_ref().and_then(|o| outcome.get(o));
        let (legal, success, code, reason) = match ruled {
            None => (
                false,
                false,
                "illegal",
                format!("the crate cannot take it: {why}"),
            ),
            Some(OrderOutcome::Illegal(i)) => (false, false, "illegal", format!("{i:?}")),
            Some(o) if invalid(&format!("{o:?}")) => (false, false, "illegal", format!("{o:?}")),
            Some(o) => {
                // A support or a convoy the crate counts for no order given (its own matching,
                // `SupportedOrder == Order`, `ConvoyedMove == Order`) gives nothing: void.
                let counted = match parsed.as_ref().map(|p| &p.command) {
                    Some(MainCommand::Support(s)) => outcome.orders().any(|x| s == x),
                    Some(MainCommand::Convoy(c)) => outcome.orders().any(|x| c == x),
                    _ => true,
                };
                let ok = counted && OrderState::from(o) == OrderState::Succeeds;
                let code = if ok {
                    "ok"
                } else if !counted {
                    "void"
                } else if dislodged_orders.contains(&unit) {
                    "dislodged"
                } else {
                    "bounce"
                };
                (true, ok, code, format!("{o:?}"))
            }
        };
        results.push(json!({
            "power": power, "unit": unit, "order": text, "given": true, "legal": legal,
            "success": success, "code": code, "reason": reason,
        }));
    }
    let mut dislodged: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    let mut any_retreat = false;
    for (pos, dests) in retreat.retreat_destinations() {
        let name = format!(
            "{} {}",
            type_letter(pos.unit.unit_type()),
            region_text(pos.region)
        );
        let options: Vec<String> = dests.available().into_iter().map(region_text).collect();
        any_retreat |= !options.is_empty();
        dislodged
            .entry(pos.nation().to_string())
            .or_default()
            .insert(name, options);
    }
    let mut after: BTreeMap<String, Vec<String>> =
        powers.iter().map(|p| (p.clone(), Vec::new())).collect();
    for pos in retreat.unit_positions() {
        after
            .entry(pos.nation().to_string())
            .or_default()
            .push(format!(
                "{} {}",
                type_letter(pos.unit.unit_type()),
                region_text(pos.region)
            ));
    }
    for units in after.values_mut() {
        units.sort();
    }
    // Centres: the document's; after a Fall turn with no retreat, a centre goes to the power
    // whose unit stands in it (the crate leaves ownership to its caller).
    let mut owner: BTreeMap<String, String> = BTreeMap::new();
    if let Some(centers) = doc.get("centers").and_then(Value::as_object) {
        for (power, list) in centers {
            for c in strings(list) {
                owner.insert(c, power.clone());
            }
        }
    }
    let season = &phase[..1];
    let year: i64 = phase[1..phase.len() - 1].parse().map_err(|_| "bad phase")?;
    let mut next_phase = if any_retreat {
        format!("{season}{year}R")
    } else if season == "S" {
        format!("F{year}M")
    } else {
        format!("S{}M", year + 1)
    };
    if season == "F" && !any_retreat {
        for (power, units) in &after {
            for u in units {
                let prov = u[2..].split('/').next().unwrap_or("").to_string();
                let key = prov.to_ascii_lowercase();
                if map
                    .provinces()
                    .any(|p| p.short_name() == key.as_str() && p.is_supply_center())
                {
                    owner.insert(prov, power.clone());
                }
            }
        }
        let differs = after
            .iter()
            .any(|(p, us)| owner.values().filter(|o| *o == p).count() != us.len());
        if differs {
            next_phase = format!("W{year}A");
        }
    }
    let mut centers: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (c, p) in &owner {
        centers.entry(p.clone()).or_default().push(c.clone());
    }
    let retreating: BTreeMap<_, BTreeMap<_, _>> = dislodged
        .iter()
        .map(|(p, us)| {
            let kept = us
                .iter()
                .filter(|(_, o)| !o.is_empty())
                .map(|(u, o)| (u.clone(), o.clone()))
                .collect::<BTreeMap<_, _>>();
            (p.clone(), kept)
        })
        .filter(|(_, us)| !us.is_empty())
        .collect();
    Ok(json!({
        "phase": phase,
        "results": results,
        "dislodged": dislodged,
        "next": {"phase": next_phase, "units": after, "centers": centers, "dislodged": retreating},
    }))
}

fn answer(line: &str, number: usize) -> Value {
    let doc: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => return json!({"error": format!("line {number}: bad JSON: {e}")}),
    };
    match std::panic::catch_unwind(|| adjudicate(&doc)) {
        Ok(Ok(v)) => v,
        Ok(Err(why)) => match why.strip_prefix("unsupported:") {
            Some(reason) => json!({"unsupported": reason}),
            None => json!({"error": format!("line {number}: {why}")}),
        },
        Err(_) => json!({"error": format!("line {number}: the crate panicked")}),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    if let Some(i) = args.iter().position(|a| a == "--bench") {
        let rounds: usize = args.get(i + 1).and_then(|r| r.parse().ok()).unwrap_or(1);
        let docs: Vec<Value> = stdin
            .lock()
            .lines()
            .map_while(Result::ok)
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(&l).unwrap_or(Value::Null))
            .collect();
        let mut samples: Vec<Vec<f64>> = vec![Vec::new(); docs.len()];
        for _ in 0..rounds.max(1) {
            for (doc, s) in docs.iter().zip(samples.iter_mut()) {
                let start = Instant::now();
                let _ = std::hint::black_box(adjudicate(doc));
                s.push(start.elapsed().as_secs_f64() * 1e6);
            }
        }
        let medians: Vec<f64> = samples
            .into_iter()
            .map(|mut s| {
                s.sort_by(|a, b| a.partial_cmp(b).unwrap());
                s[s.len() / 2]
            })
            .collect();
        let _ = writeln!(out, "{}", json!({ "us": medians }));
        return;
    }
    std::panic::set_hook(Box::new(|_| {}));
    for (number, line) in stdin.lock().lines().enumerate() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            let _ = writeln!(out);
            continue;
        }
        let value = answer(&line, number + 1);
        if writeln!(out, "{value}").is_err() || out.flush().is_err() {
            break;
        }
    }
}
