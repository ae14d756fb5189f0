//! Many games at once, in parallel: the same rulings as processing them one by one (each game is
//! independent, and every thread has its own buffers).
//!
//! The games are handed out in small contiguous blocks from a shared queue rather than split in
//! equal parts up front: a thread that starts late or meets slower games simply takes fewer
//! blocks, so the threads finish together. The calling thread takes blocks from the front and the
//! others from the back, so each walks through neighbouring games (memory the prefetcher can
//! follow).
//!
//! The other threads come from a small pool that lives as long as the process: starting threads
//! for every batch cost tens of microseconds per call (a sleeping core far longer), and every new
//! thread began with cold buffers. A pool thread that wakes only after the calling thread has
//! emptied the queue is not waited for: the batch ends as soon as the blocks are done and no pool
//! thread is still inside one. When the pool is busy with another batch (two Python threads
//! calling at once), the batch runs on scoped threads started for it instead.

use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};

use super::error::{EngineError, ErrorKind};
use super::game_map::GameMap;
use super::mask::Mask;
use super::phases::{borrow_spare_scratch, forget_scratch, return_scratch, Game, Outcome};

/// At most this many pool threads (more threads asked for than this share the pool's).
const MAX_POOL_THREADS: usize = 63;

/// Processes every game (its `orders` already set) on up to `threads` threads, the calling thread
/// included. Returns the first error (an internal inconsistency or a panic, as a message); the
/// other games are processed all the same.
pub fn process_all<M: Mask>(games: &mut [&mut Game<M>], threads: usize) -> Result<(), EngineError> {
    process_all_with(games, None, threads, |_, _| {})
}

/// As [`process_all`], calling `prepare(i, game)` on `games[i]` just before processing it, on the
/// thread that processes it (to set its orders outside the caller's serial part); with
/// `outcomes` (one per game), game `i`'s results go into `outcomes[i]` ([`Game::process_into`]),
/// else they are dropped.
pub fn process_all_with<M: Mask, F>(
    games: &mut [&mut Game<M>],
    outcomes: Option<&mut [Outcome]>,
    threads: usize,
    prepare: F,
) -> Result<(), EngineError>
where
    F: Fn(usize, &mut Game<M>) + Sync,
{
    if let Some(o) = &outcomes {
        assert_eq!(o.len(), games.len(), "one outcome per game");
    }
    let threads = threads.clamp(1, games.len().max(1));
    if threads == 1 {
        return run(0, games, outcomes, &prepare);
    }
    let map = games[0].map;
    let block = (games.len() / (threads * 32)).clamp(1, 32);
    // Each block of games with its block of outcomes, if any.
    let mut outs: Vec<Option<&mut [Outcome]>> = match outcomes {
        Some(o) => o.chunks_mut(block).map(Some).collect(),
        None => Vec::new(),
    };
    outs.resize_with(games.len().div_ceil(block), || None);
    #[allow(clippy::type_complexity)]
    let queue: Mutex<VecDeque<(usize, &mut [&mut Game<M>], Option<&mut [Outcome]>)>> = Mutex::new(
        games
            .chunks_mut(block)
            .zip(outs)
            .enumerate()
            .map(|(k, (part, outs))| (k * block, part, outs))
            .collect(),
    );
    let failure: Mutex<Option<EngineError>> = Mutex::new(None);
    let work = |front: bool| loop {
        let next = {
            let mut q = lock(&queue);
            if front {
                q.pop_front()
            } else {
                q.pop_back()
            }
        };
        let Some((start, part, outs)) = next else {
            return;
        };
        if let Err(e) = run(start, part, outs, &prepare) {
            lock(&failure).get_or_insert(e);
        }
    };
    let helpers = threads - 1;
    let on_pool = POOL.run(helpers, &|| work(false), || work(true));
    if !on_pool {
        std::thread::scope(|scope| {
            for _ in 0..helpers {
                scope.spawn(|| {
                    // A fresh thread: start from the buffers an earlier thread left.
                    borrow_spare_scratch(map);
                    work(false);
                    return_scratch();
                });
            }
            work(true);
        });
    }
    match failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

fn run<M: Mask, F>(
    start: usize,
    games: &mut [&mut Game<M>],
    mut outs: Option<&mut [Outcome]>,
    prepare: &F,
) -> Result<(), EngineError>
where
    F: Fn(usize, &mut Game<M>) + Sync,
{
    let mut outcome = Ok(());
    for (k, game) in games.iter_mut().enumerate() {
        let out = outs.as_deref_mut().map(|o| &mut o[k]);
        let r = match catch_unwind(AssertUnwindSafe(|| {
            prepare(start + k, game);
            match out {
                Some(out) => game.process_into(out),
                None => game.process(),
            }
        })) {
            Ok(r) => r,
            Err(payload) => Err(panicked(payload.as_ref())),
        };
        if outcome.is_ok() {
            outcome = r;
        }
    }
    outcome
}

/// Runs `mine` on the calling thread while up to `helpers` threads of the process's pool run
/// `theirs` (see the module documentation; `theirs` must take its work from a shared queue, as
/// a pool thread may come late or not at all). Returns false, running nothing, when another call
/// has the pool: the caller starts threads of its own instead.
pub(crate) fn on_pool(helpers: usize, theirs: &(dyn Fn() + Sync), mine: impl FnOnce()) -> bool {
    POOL.run(helpers, theirs, mine)
}

/// Calls `f(i, &mut work[i])` for every item, on up to `threads` threads (the calling thread and
/// the pool's, or threads of its own when another call has the pool), the items handed out in
/// small blocks from the front (the calling thread) and the back (the others), so that an item
/// tends to be worked by the same thread call after call (its data in that core's cache); the
/// environments' steps (`super::vector`, `super::deepmind`). A panic is caught (the thread's
/// engine buffers dropped) as an internal error. Returns how many calls returned `Ok(true)`, or
/// the error of the lowest-numbered item that failed, with its number: the other items are
/// worked all the same.
pub(crate) fn spread<M: Mask, W: Send>(
    map: &'static GameMap<M>,
    work: &mut [W],
    threads: usize,
    f: impl Fn(usize, &mut W) -> Result<bool, EngineError> + Sync,
) -> Result<usize, (usize, EngineError)> {
    let n = work.len();
    let counted = AtomicUsize::new(0);
    let failure: Mutex<Option<(usize, EngineError)>> = Mutex::new(None);
    // Small blocks: the calling thread waits at the end for the block a pool thread is in.
    let block = (n / (threads.max(1) * 64)).clamp(1, 64);
    let items: Vec<Mutex<&mut [W]>> = work.chunks_mut(block).map(Mutex::new).collect();
    // The blocks not yet taken, `front..back`.
    let left = Mutex::new((0, items.len()));
    let one = |k: usize| {
        let mut part = lock(&items[k]);
        // Counted per block: one shared counter touched per item would bounce between cores.
        let mut count = 0;
        for (j, item) in part.iter_mut().enumerate() {
            let g = k * block + j;
            let r = catch_unwind(AssertUnwindSafe(|| f(g, item)))
                .unwrap_or_else(|payload| Err(panicked(payload.as_ref())));
            match r {
                Ok(true) => count += 1,
                Ok(false) => {}
                Err(msg) => {
                    let mut f = lock(&failure);
                    if f.as_ref().is_none_or(|(h, _)| g < *h) {
                        *f = Some((g, msg));
                    }
                }
            }
        }
        counted.fetch_add(count, Ordering::Relaxed);
    };
    let take = |front: bool| loop {
        let k = {
            let mut range = lock(&left);
            if range.0 >= range.1 {
                return;
            }
            if front {
                range.0 += 1;
                range.0 - 1
            } else {
                range.1 -= 1;
                range.1
            }
        };
        one(k);
    };
    let work_loop = || take(false);
    let threads = threads.clamp(1, items.len().max(1));
    if threads == 1 {
        take(true);
    } else if !on_pool(threads - 1, &work_loop, || take(true)) {
        // Another call has the pool: threads of this call's own.
        std::thread::scope(|scope| {
            for _ in 1..threads {
                scope.spawn(|| {
                    borrow_spare_scratch(map);
                    work_loop();
                    return_scratch();
                });
            }
            take(true);
        });
    }
    match failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(e) => Err(e),
        None => Ok(counted.into_inner()),
    }
}

/// A panic caught in a worker as the engine's internal error; the thread's scratch, which the
/// panic may have left half-written, is dropped.
fn panicked(payload: &(dyn std::any::Any + Send)) -> EngineError {
    forget_scratch();
    EngineError::new(
        ErrorKind::Internal,
        format!(
            "internal error in the diplo engine: {}",
            panic_message(payload)
        ),
    )
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

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A job of the pool: the helpers' side of a batch, with its lifetime erased (see [`Pool::run`]).
#[derive(Clone, Copy)]
struct JobPtr(*const (dyn Fn() + Sync + 'static));

// SAFETY: the job is `Sync`, and the pointer is only followed while the batch that owns the job
// waits for it (see `Pool::run`).
unsafe impl Send for JobPtr {}

struct Shared {
    /// The job on offer, with `tickets` pool threads still wanted for it.
    job: Option<JobPtr>,
    tickets: usize,
    /// Pool threads inside the job.
    running: usize,
    /// Pool threads started by the process `pid` (a forked child has none of them).
    threads: usize,
    pid: u32,
}

/// Threads that wait for jobs (see the module documentation).
struct Pool {
    shared: Mutex<Shared>,
    /// Signalled when a job is offered.
    offered: Condvar,
    /// Signalled when the last pool thread leaves a job.
    left: Condvar,
    /// Held by the batch using the pool.
    busy: AtomicBool,
}

static POOL: Pool = Pool {
    shared: Mutex::new(Shared {
        job: None,
        tickets: 0,
        running: 0,
        threads: 0,
        pid: 0,
    }),
    offered: Condvar::new(),
    left: Condvar::new(),
    busy: AtomicBool::new(false),
};

impl Pool {
    /// Runs `mine` on the calling thread while up to `helpers` pool threads run `theirs`, and
    /// returns once `mine` is done and no pool thread is inside `theirs` (pool threads that have
    /// not started it by then never will). Returns false, running nothing, when another batch
    /// has the pool.
    fn run(&'static self, helpers: usize, theirs: &(dyn Fn() + Sync), mine: impl FnOnce()) -> bool {
        if self
            .busy
            .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            return false;
        }
        struct Release(&'static Pool);
        impl Drop for Release {
            fn drop(&mut self) {
                self.0.busy.store(false, Ordering::Release);
            }
        }
        let _release = Release(self);
        /// Withdraws the job and waits until no pool thread is inside it; dropped even when
        /// `mine` unwinds, so the job never outlives this call.
        struct Withdraw(&'static Pool);
        impl Drop for Withdraw {
            fn drop(&mut self) {
                let mut s = lock(&self.0.shared);
                s.job = None;
                s.tickets = 0;
                while s.running > 0 {
                    s = self.0.left.wait(s).unwrap_or_else(|e| e.into_inner());
                }
            }
        }
        {
            let mut s = lock(&self.shared);
            let helpers = self.grow(&mut s, helpers);
            // SAFETY: only the lifetime is erased. Pool threads follow the pointer only between
            // taking a ticket and leaving (`running`), and `Withdraw` below does not let this
            // call return (or unwind) before the job is withdrawn and `running` is zero.
            let job: *const (dyn Fn() + Sync + 'static) = unsafe {
                std::mem::transmute::<*const (dyn Fn() + Sync + '_), _>(theirs as *const _)
            };
            s.job = Some(JobPtr(job));
            s.tickets = helpers;
        }
        let _withdraw = Withdraw(self);
        self.offered.notify_all();
        mine();
        true
    }

    /// Starts pool threads until there are `wanted` (within the limit); returns how many there
    /// are, at most `wanted`.
    fn grow(&'static self, s: &mut Shared, wanted: usize) -> usize {
        let pid = std::process::id();
        if s.pid != pid {
            // A new process (or a forked child, which has none of its parent's threads).
            s.pid = pid;
            s.threads = 0;
            s.running = 0;
        }
        let wanted = wanted.min(MAX_POOL_THREADS);
        while s.threads < wanted {
            let started = std::thread::Builder::new()
                .name("diplo-batch".into())
                .spawn(move || self.serve());
            if started.is_err() {
                break;
            }
            s.threads += 1;
        }
        wanted.min(s.threads)
    }

    /// A pool thread: takes a ticket of each job on offer and runs it, forever.
    fn serve(&'static self) {
        let mut s = lock(&self.shared);
        loop {
            match s.job {
                Some(job) if s.tickets > 0 => {
                    s.tickets -= 1;
                    s.running += 1;
                    drop(s);
                    // SAFETY: the batch that offered the job waits until `running` is back to
                    // zero before the job goes away (see `run`). A panic cannot escape the job
                    // (every game is processed under `catch_unwind`); should one, the thread
                    // still leaves the job.
                    let _ = catch_unwind(AssertUnwindSafe(|| unsafe { (*job.0)() }));
                    s = lock(&self.shared);
                    s.running -= 1;
                    if s.running == 0 {
                        self.left.notify_all();
                    }
                }
                _ => s = self.offered.wait(s).unwrap_or_else(|e| e.into_inner()),
            }
        }
    }
}
