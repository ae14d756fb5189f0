//! The limit rows of `diplo compare`: the Rust-only resolver and the Rust-only `Game` on the
//! very movement phases the comparison feeds every engine (std::time only, no harness).
//!
//! `DIPLO_LIMIT_PHASES=FILE cargo bench --bench limit` reads FILE, a JSON list of phases
//! `{"phase": "F1903M", "units": [[power, "A PAR"], ...], "centers": {power: [provinces]},
//! "orders": [[power, "A PAR - BUR"], ...]}` (every unit ordered), and prints one JSON line:
//! the median microseconds per phase of a reused `Adjudicator` (`"rust resolver"`) and of the
//! fast-path `Game` (validation, resolution, next position: `"rust Game"`). Without the
//! variable it times the boards of `rust/benches/boards.json`.

#[path = "../tests/kit/mod.rs"]
mod kit;

use std::hint::black_box;
use std::time::Instant;

use diplo_core::engine::Game;
use diplo_core::{Adjudicator, MovementOutcome};
use kit::{Board, Kit, World};

struct Phase {
    name: String,
    units: Vec<(String, String)>,
    centers: Vec<(String, Vec<String>)>,
    orders: Vec<(String, String)>,
}

fn pairs(value: &serde_json::Value) -> Vec<(String, String)> {
    value
        .as_array()
        .expect("a list of [power, text] pairs")
        .iter()
        .map(|pair| {
            let p = pair.as_array().expect("a [power, text] pair");
            (
                p[0].as_str().expect("a power").to_string(),
                p[1].as_str().expect("a text").to_string(),
            )
        })
        .collect()
}

fn read_phases() -> Vec<Phase> {
    let Ok(path) = std::env::var("DIPLO_LIMIT_PHASES") else {
        return Board::all()
            .iter()
            .map(|b| Phase {
                name: b.phase.clone(),
                units: b
                    .units()
                    .iter()
                    .map(|(p, u)| (p.to_string(), u.clone()))
                    .collect(),
                centers: Vec::new(),
                orders: b
                    .order_refs()
                    .iter()
                    .map(|(p, o)| (p.to_string(), o.to_string()))
                    .collect(),
            })
            .collect();
    };
    let text = std::fs::read_to_string(&path).expect("DIPLO_LIMIT_PHASES names a readable file");
    let doc: serde_json::Value = serde_json::from_str(&text).expect("a JSON list of phases");
    doc.as_array()
        .expect("a JSON list of phases")
        .iter()
        .map(|phase| Phase {
            name: phase["phase"].as_str().expect("a phase name").to_string(),
            units: pairs(&phase["units"]),
            centers: phase["centers"]
                .as_object()
                .map(|m| {
                    m.iter()
                        .map(|(p, cs)| {
                            let cs = cs.as_array().expect("a list of provinces");
                            let cs = cs.iter().map(|c| c.as_str().unwrap().to_string());
                            (p.clone(), cs.collect())
                        })
                        .collect()
                })
                .unwrap_or_default(),
            orders: pairs(&phase["orders"]),
        })
        .collect()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let w = World::standard();
    let k = Kit::standard();
    let phases = read_phases();
    let (batches, per_batch) = (31, 200);
    // The resolver alone, on the orders as given (one reused Adjudicator).
    let encoded: Vec<_> = phases
        .iter()
        .map(|p| {
            let refs: Vec<(&str, &str)> = p
                .orders
                .iter()
                .map(|(a, b)| (a.as_str(), b.as_str()))
                .collect();
            w.encode(&refs)
        })
        .collect();
    let mut adj = Adjudicator::new(&w.map);
    let mut out = MovementOutcome::default();
    let mut resolver = Vec::with_capacity(batches);
    for _ in 0..batches {
        let start = Instant::now();
        for _ in 0..per_batch {
            for (units, orders) in &encoded {
                adj.resolve_into(black_box(units), black_box(orders), &mut out)
                    .unwrap();
                black_box(&out);
            }
        }
        resolver.push(start.elapsed().as_secs_f64() * 1e6 / (per_batch * encoded.len()) as f64);
    }
    // The fast-path Game: validation, resolution and the next position.
    let games: Vec<(Game<u128>, Vec<u64>)> = phases
        .iter()
        .map(|p| {
            let units: Vec<(&str, &str)> = p
                .units
                .iter()
                .map(|(a, b)| (a.as_str(), b.as_str()))
                .collect();
            let owned: Vec<Vec<&str>> = p
                .centers
                .iter()
                .map(|(_, cs)| cs.iter().map(String::as_str).collect())
                .collect();
            let centers: Vec<(&str, &[&str])> = p
                .centers
                .iter()
                .zip(&owned)
                .map(|((power, _), cs)| (power.as_str(), cs.as_slice()))
                .collect();
            let game = k.game(k.state(&p.name, &units, &centers, &[]));
            let codes = p.orders.iter().map(|(_, o)| k.code(o)).collect();
            (game, codes)
        })
        .collect();
    // Each batch's games are cloned before the clock starts, as diplo's bench clones the
    // code path's games in its setup: the clock sees orders, validation, resolution, next.
    let mut game_us = Vec::with_capacity(batches);
    for _ in 0..batches {
        let mut fresh: Vec<Game<u128>> = (0..per_batch)
            .flat_map(|_| games.iter().map(|(g, _)| g.clone()))
            .collect();
        let start = Instant::now();
        for (game, (_, codes)) in fresh.iter_mut().zip(games.iter().cycle()) {
            game.orders.extend_from_slice(black_box(codes));
            game.process().unwrap();
            black_box(&game.state);
        }
        game_us.push(start.elapsed().as_secs_f64() * 1e6 / fresh.len() as f64);
    }
    println!(
        "{{\"rust resolver\": {:.4}, \"rust Game\": {:.4}, \"phases\": {}}}",
        median(resolver),
        median(game_us),
        phases.len()
    );
}
