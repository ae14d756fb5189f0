//! Times full-board movement phases on the standard map (std::time only, no harness).
//!
//! `cargo bench --bench resolve` prints the median microseconds per phase, over batches of
//! phases resolved with one reused `Adjudicator` (the hot path) and with the allocating
//! `resolve_movement`, for every board of `boards.json`; and, for a board with a retreat phase,
//! the movement and retreat phases played through the fast-path `Game` (validation, resolution,
//! next position). The boards are legal and contain what they claim (`rust/tests/bench_boards.rs`
//! and `tests/test_bench_boards.py` check them): the resolver is fed them unvalidated.

#[path = "../tests/kit/mod.rs"]
mod kit;

use std::hint::black_box;
use std::time::Instant;

use diplo_core::engine::Game;
use diplo_core::{resolve_movement, Adjudicator, MovementOutcome, Order, Unit};
use kit::{Board, Kit, World};

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

/// Median µs for the movement phase and the retreat phase after it, on the fast path.
fn time_with_retreats(k: &Kit, board: &Board, batches: usize, per_batch: usize) -> f64 {
    let start_game = board.game(k);
    let moves: Vec<u64> = board.orders.iter().map(|(_, o)| k.code(o)).collect();
    let retreats: Vec<u64> = board
        .retreat_orders
        .iter()
        .map(|(_, o)| k.code(o))
        .collect();
    let mut samples = Vec::with_capacity(batches);
    let mut game: Game<u128> = start_game.clone();
    for _ in 0..batches {
        let start = Instant::now();
        for _ in 0..per_batch {
            game.clone_from(&start_game);
            game.orders.extend_from_slice(black_box(&moves));
            game.process().unwrap();
            game.orders.extend_from_slice(black_box(&retreats));
            game.process().unwrap();
            black_box(&game.state);
        }
        samples.push(start.elapsed().as_secs_f64() * 1e6 / per_batch as f64);
    }
    median(samples)
}

fn main() {
    let w = World::standard();
    let k = Kit::standard();
    let boards = Board::all();
    let (batches, per_batch) = (101, 2000);
    let mut all = Vec::new();
    for board in &boards {
        let phase = w.encode(&board.order_refs());
        let units = phase.0.len();
        all.push(phase.clone());
        let reused = time_reused(&w, std::slice::from_ref(&phase), batches, per_batch);
        let fresh = time_fresh(&w, &[phase], batches, per_batch);
        println!(
            "{:8} {units} units: median {reused:.3} us/phase (reused Adjudicator), \
             {fresh:.3} us/phase (resolve_movement)",
            board.name
        );
        if !board.retreat_orders.is_empty() {
            let both = time_with_retreats(&k, board, batches, per_batch / 4);
            println!(
                "{:8} movement and retreat phases on the fast path (Game): median {both:.3} us",
                board.name
            );
        }
    }
    let reused = time_reused(&w, &all, batches, per_batch);
    println!("all boards alternating: median {reused:.3} us/phase (reused Adjudicator)");
}
