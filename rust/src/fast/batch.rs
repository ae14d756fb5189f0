//! Many games at once, in parallel: the same rulings as processing them one by one (each game is
//! independent, and every thread has its own buffers), spread over scoped threads.

use std::panic::{catch_unwind, AssertUnwindSafe};

use super::phases::{forget_scratch, Game};

/// Processes every game (its `orders` already set) on up to `threads` threads, the calling thread
/// included. Returns the first error (an internal inconsistency or a panic, as a message); the
/// other games are processed all the same.
pub fn process_all(games: &mut [&mut Game], threads: usize) -> Result<(), String> {
    let threads = threads.clamp(1, games.len().max(1));
    if threads == 1 {
        return run(games);
    }
    let chunk = games.len().div_ceil(threads);
    let mut parts = games.chunks_mut(chunk);
    let first = parts.next();
    std::thread::scope(|scope| {
        let workers: Vec<_> = parts.map(|part| scope.spawn(move || run(part))).collect();
        let mut outcome = first.map_or(Ok(()), run);
        for w in workers {
            let r = w
                .join()
                .unwrap_or_else(|_| Err("a worker thread panicked".into()));
            if outcome.is_ok() {
                outcome = r;
            }
        }
        outcome
    })
}

fn run(games: &mut [&mut Game]) -> Result<(), String> {
    let mut outcome = Ok(());
    for game in games.iter_mut() {
        let r = match catch_unwind(AssertUnwindSafe(|| game.process())) {
            Ok(r) => r,
            Err(payload) => {
                forget_scratch();
                Err(format!(
                    "internal error in the diplo fast path: {}",
                    panic_message(payload.as_ref())
                ))
            }
        };
        if outcome.is_ok() {
            outcome = r;
        }
    }
    outcome
}

/// The message of a caught panic.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}
