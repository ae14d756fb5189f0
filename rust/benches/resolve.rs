//! Times full-board movement phases on the standard map (std::time only, no harness).
//!
//! `cargo bench --bench resolve` prints the median microseconds per phase, over batches of
//! phases resolved with one reused `Adjudicator` (the hot path) and with the allocating
//! `resolve_movement`.

#[path = "../tests/kit/mod.rs"]
mod kit;

use std::hint::black_box;
use std::time::Instant;

use diplo_core::{resolve_movement, Adjudicator, MovementOutcome, Order, Unit};
use kit::World;

/// A 34-unit spring board: holds, bounces, supports (some cut), a head-to-head, convoys (one to
/// an adjacent province by intent), a dislodgement and a three-unit circular movement.
const MIDGAME: &[(&str, &str)] = &[
    ("ENG", "F BAR - STP/NC"),
    ("ENG", "F NWG S F BAR - STP/NC"),
    ("ENG", "F NTH C A YOR - NWY"),
    ("ENG", "A YOR - NWY"),
    ("ENG", "F ENG - MAO"),
    ("ENG", "F IRI S F ENG - MAO"),
    ("FRA", "F MAO H"),
    ("FRA", "F POR S F MAO"),
    ("FRA", "A SPA - GAS"),
    ("FRA", "A PAR - BUR"),
    ("FRA", "A MAR S A PAR - BUR"),
    ("FRA", "F BRE - ENG"),
    ("FRA", "A PIC - BEL"),
    ("GER", "A BUR H"),
    ("GER", "A MUN S A BUR"),
    ("GER", "A BEL H"),
    ("GER", "F HOL S A BEL"),
    ("GER", "F DEN - SWE"),
    ("GER", "A BER - SIL"),
    ("GER", "F HEL - NTH"),
    ("RUS", "F STP/SC - BOT"),
    ("RUS", "A MOS - STP"),
    ("RUS", "A WAR - GAL"),
    ("RUS", "F SEV - BLA"),
    ("RUS", "A UKR S A WAR - GAL"),
    ("RUS", "F SWE H"),
    ("AUS", "A VIE - GAL"),
    ("AUS", "A BUD S A VIE - GAL"),
    ("AUS", "F TRI - ADR"),
    ("ITA", "F ION C A TUN - GRE"),
    ("ITA", "A TUN - GRE"),
    ("TUR", "F ANK - CON"),
    ("TUR", "A CON - SMY"),
    ("TUR", "A SMY - ANK"),
];

/// A 32-unit board with a convoy paradox (DATC 6.F.16 shape) and contested provinces.
const PARADOX: &[(&str, &str)] = &[
    ("ENG", "F LON S F WAL - ENG"),
    ("ENG", "F WAL - ENG"),
    ("ENG", "A LVP - YOR"),
    ("ENG", "F EDI - NWG"),
    ("FRA", "A BRE - LON"),
    ("FRA", "F ENG C A BRE - LON"),
    ("FRA", "A PAR - PIC"),
    ("FRA", "A MAR - PIE"),
    ("FRA", "F MAO - SPA/NC"),
    ("GER", "F NTH S F BEL - ENG"),
    ("GER", "F BEL - ENG"),
    ("GER", "A MUN - TYR"),
    ("GER", "A KIE - DEN"),
    ("GER", "A BER S A KIE - DEN"),
    ("RUS", "A WAR - SIL"),
    ("RUS", "A MOS - UKR"),
    ("RUS", "F SEV - RUM"),
    ("RUS", "F STP/SC - FIN"),
    ("AUS", "A VIE - TYR"),
    ("AUS", "A BUD - RUM"),
    ("AUS", "F TRI - ALB"),
    ("AUS", "A SER S A BUD - RUM"),
    ("ITA", "A VEN - PIE"),
    ("ITA", "A ROM - APU"),
    ("ITA", "F NAP - ION"),
    ("ITA", "F TYS C A TUN - NAP"),
    ("ITA", "A TUN - NAP"),
    ("TUR", "F ANK - BLA"),
    ("TUR", "A CON - BUL"),
    ("TUR", "A SMY - ARM"),
    ("TUR", "F AEG - GRE"),
    ("TUR", "F EAS S F AEG - GRE"),
];

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn time_reused(
    w: &World,
    phases: &[(Vec<Unit>, Vec<Order>)],
    batches: usize,
    per_batch: usize,
) -> f64 {
    let mut adj = Adjudicator::new(&w.map);
    let mut out = MovementOutcome::default();
    let mut samples = Vec::with_capacity(batches);
    for _ in 0..batches {
        let start = Instant::now();
        for _ in 0..per_batch {
            for (units, orders) in phases {
                adj.resolve_into(black_box(units), black_box(orders), &mut out)
                    .unwrap();
                black_box(&out);
            }
        }
        let phases_run = (per_batch * phases.len()) as f64;
        samples.push(start.elapsed().as_secs_f64() * 1e6 / phases_run);
    }
    median(samples)
}

fn time_fresh(
    w: &World,
    phases: &[(Vec<Unit>, Vec<Order>)],
    batches: usize,
    per_batch: usize,
) -> f64 {
    let mut samples = Vec::with_capacity(batches);
    for _ in 0..batches {
        let start = Instant::now();
        for _ in 0..per_batch {
            for (units, orders) in phases {
                black_box(resolve_movement(&w.map, black_box(units), black_box(orders)).unwrap());
            }
        }
        let phases_run = (per_batch * phases.len()) as f64;
        samples.push(start.elapsed().as_secs_f64() * 1e6 / phases_run);
    }
    median(samples)
}

fn main() {
    let w = World::standard();
    let boards: [(&str, &[(&str, &str)]); 2] = [("midgame", MIDGAME), ("paradox", PARADOX)];
    let (batches, per_batch) = (101, 2000);
    let mut all = Vec::new();
    for (name, orders) in boards {
        let phase = w.encode(orders);
        let units = phase.0.len();
        all.push(phase.clone());
        let reused = time_reused(&w, std::slice::from_ref(&phase), batches, per_batch);
        let fresh = time_fresh(&w, &[phase], batches, per_batch);
        println!(
            "{name:8} {units} units: median {reused:.3} us/phase (reused Adjudicator), \
             {fresh:.3} us/phase (resolve_movement)"
        );
    }
    let reused = time_reused(&w, &all, batches, per_batch);
    println!("both boards alternating: median {reused:.3} us/phase (reused Adjudicator)");
}
