//! Many games at once, in parallel: the same rulings as processing them one by one (each game is
//! independent, and every thread has its own buffers), spread over scoped threads.
//!
//! The games are handed out in small blocks from a shared queue rather than split in equal
//! parts up front: a thread that starts late (starting a thread takes tens of microseconds, a
//! sleeping core longer) or meets slower games simply takes fewer blocks, so the threads finish
//! together. The calling thread takes blocks from the front and the others from the back, so
//! each walks through neighbouring games (memory the prefetcher can follow).

use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

use super::phases::{borrow_spare_scratch, forget_scratch, return_scratch, Game};

/// Processes every game (its `orders` already set) on up to `threads` threads, the calling thread
/// included. Returns the first error (an internal inconsistency or a panic, as a message); the
/// other games are processed all the same.
pub fn process_all(games: &mut [&mut Game], threads: usize) -> Result<(), String> {
    let threads = threads.clamp(1, games.len().max(1));
    if threads == 1 {
        return run(games);
    }
    let map = games[0].map;
    let block = (games.len() / (threads * 32)).clamp(1, 32);
    let queue: Mutex<VecDeque<&mut [&mut Game]>> = Mutex::new(games.chunks_mut(block).collect());
    let work = |front: bool| {
        let mut outcome = Ok(());
        loop {
            let next = {
                let mut q = queue.lock().unwrap_or_else(|e| e.into_inner());
                if front {
                    q.pop_front()
                } else {
                    q.pop_back()
                }
            };
            let Some(part) = next else {
                return outcome;
            };
            let r = run(part);
            if outcome.is_ok() {
                outcome = r;
            }
        }
    };
    std::thread::scope(|scope| {
        let workers: Vec<_> = (1..threads)
            .map(|_| {
                scope.spawn(|| {
                    // A fresh thread: start from the buffers an earlier batch's thread left.
                    borrow_spare_scratch(map);
                    let outcome = work(false);
                    return_scratch();
                    outcome
                })
            })
            .collect();
        let mut outcome = work(true);
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
