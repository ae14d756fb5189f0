//! Times the vectorised environment (`engine::vector`) on the standard map without Python:
//! random play from the opening to 1915 (a counter-based uniform choice per slot, as
//! `diplo.env.UniformPolicy` draws them), 256 games, on 1 and 2 threads, and the same games
//! one by one through `Game` (list every legal order, pick, process), as the `selfplay` loop does.
//!
//! `cargo bench --bench vector` prints µs per phase, the median and the best of several rounds (std::time
//! only, no harness). `diplo bench --workloads vector` is the figure to report; this one is for
//! profiling the core on its own (`perf record cargo bench --bench vector`).

#[path = "../tests/kit/mod.rs"]
mod kit;

use std::time::Instant;

use diplo_core::engine::batched::Start;
use diplo_core::engine::vector::{Config, VectorEnv};
use kit::{opening, Kit, VectorOut as Out};

const GAMES: usize = 256;
const STEPS: usize = 100;

/// A uniform index below each slot's count, from a hash of the game, its step and the slot.
fn policy(counts: &[i16], steps: &[i32], episodes: &[i32], out: &mut [i64]) {
    let per = counts.len() / steps.len();
    for (g, (c, o)) in counts.chunks(per).zip(out.chunks_mut(per)).enumerate() {
        let key = (g as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ (steps[g] as u64).wrapping_mul(0xA076_1D64_78BD_642F)
            ^ (episodes[g] as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        for (j, (&n, a)) in c.iter().zip(o.iter_mut()).enumerate() {
            let mut x = key.wrapping_add((j as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            x ^= x >> 32;
            x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
            x ^= x >> 29;
            *a = (((x >> 32) * n as u64) >> 32) as i64;
        }
    }
}

fn run(k: &Kit, threads: usize) -> f64 {
    let cfg = Config {
        start: Start {
            state: opening(k),
            max_year: Some(1915),
        },
        first_year: 1901,
        slots: 18,
        choices: 512,
        win: 10.0,
        draw: 10.0,
        keep_lists: false,
    };
    let mut env = VectorEnv::new(k.map, cfg, GAMES).expect("an environment");
    let mut out = Out::new(&env);
    env.reset(out.bufs(), threads).expect("a reset");
    let mut actions = vec![0i64; out.counts.len()];
    let start = Instant::now();
    let mut phases = 0;
    for _ in 0..STEPS {
        policy(&out.counts, &out.steps, &out.episodes, &mut actions);
        phases += env.step(&actions, out.bufs(), threads).expect("a step");
    }
    start.elapsed().as_secs_f64() * 1e6 / phases as f64
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let k = Kit::standard();
    let rounds: usize = std::env::var("ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5);
    let only: Option<usize> = std::env::var("THREADS").ok().and_then(|t| t.parse().ok());
    let counts: Vec<usize> = only.map_or(vec![1, 2], |t| vec![t]);
    let mut samples = vec![Vec::new(); counts.len()];
    for _ in 0..rounds {
        for (i, &t) in counts.iter().enumerate() {
            samples[i].push(run(&k, t));
        }
    }
    for (t, s) in counts.iter().zip(samples) {
        let best = s.iter().copied().fold(f64::INFINITY, f64::min);
        println!(
            "vector env, {GAMES} games, {t} thread(s): {:.2} µs per phase (best {best:.2})",
            median(s)
        );
    }
}
