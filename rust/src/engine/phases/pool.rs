//! The per-thread scratch pool, and the stamps naming states.

use super::*;

static STAMPS: AtomicU64 = AtomicU64::new(1);
/// Stamps a thread hands out before it takes a new block from `STAMPS`.
pub(super) const STAMP_BLOCK: u64 = 1 << 20;

thread_local! {
    /// This thread's next stamp and the end of its block: threads processing games in parallel
    /// do not contend for one counter.
    static NEXT_STAMP: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
}

/// A number never handed out before (never 0).
pub(super) fn fresh_stamp() -> u64 {
    NEXT_STAMP.with(|cell| {
        let (mut next, mut end) = cell.get();
        if next == end {
            next = STAMPS.fetch_add(STAMP_BLOCK, Ordering::Relaxed);
            end = next + STAMP_BLOCK;
        }
        cell.set((next + 1, end));
        next
    })
}

/// One thread's buffers for one map: the map's address (the key) and its [`Scratch`] of the
/// map's width.
type Slot0 = (usize, Box<dyn Any + Send>);

thread_local! {
    static SCRATCH: RefCell<Vec<Slot0>> = const { RefCell::new(Vec::new()) };
}

fn key_of<M: Mask>(map: &'static GameMap<M>) -> usize {
    map as *const GameMap<M> as usize
}

/// Buffers a thread keeps, for its most recently used maps (the others' are dropped).
const SCRATCH_MAPS: usize = 4;
/// Spare buffers kept between batches, in all.
const SPARE_LIMIT: usize = 64;

/// Runs `f` with this thread's buffers for `map` (created on first use; a thread keeps those of
/// its [`SCRATCH_MAPS`] most recently used maps).
pub fn with_scratch<M: Mask, R>(
    map: &'static GameMap<M>,
    f: impl FnOnce(&mut Scratch<M>) -> R,
) -> R {
    SCRATCH.with(|cell| {
        let mut all = cell.borrow_mut();
        let key = key_of(map);
        match all.iter().position(|s| s.0 == key) {
            Some(0) => {}
            Some(i) => all[..=i].rotate_right(1),
            None => {
                all.truncate(SCRATCH_MAPS - 1);
                all.insert(0, (key, Box::new(Scratch::new(map))));
            }
        }
        match all[0].1.downcast_mut::<Scratch<M>>() {
            Some(s) => f(s),
            None => unreachable!("a map's buffers are of its width"),
        }
    })
}

/// Verdicts a thread keeps per map for their buffers.
const SPARE_VERDICTS: usize = 4;

/// A verdict to fill for a phase of `st`: one given back on this thread for `map` (its buffers
/// grown already: filling it allocates nothing), else a new one.
pub fn spare_verdict<M: Mask>(map: &'static GameMap<M>, st: &State<M>) -> Box<Verdict<M>> {
    with_scratch(map, |s| s.verdicts.pop()).unwrap_or_else(|| Box::new(Verdict::empty(map, st)))
}

/// Gives back a verdict no longer read: this thread keeps a few per map (when it has buffers
/// for the map) for [`spare_verdict`]; any other is dropped.
pub fn recycle_verdict<M: Mask>(verdict: Box<Verdict<M>>) {
    let key = key_of(verdict.map);
    let _ = SCRATCH.try_with(move |cell| {
        let Ok(mut all) = cell.try_borrow_mut() else {
            return;
        };
        let Some(slot) = all.iter_mut().find(|s| s.0 == key) else {
            return;
        };
        if let Some(s) = slot.1.downcast_mut::<Scratch<M>>() {
            if s.verdicts.len() < SPARE_VERDICTS {
                s.verdicts.push(verdict);
            }
        }
    });
}

/// Outcomes a thread keeps for their buffers.
const SPARE_OUTCOMES: usize = 4;

thread_local! {
    static OUTCOMES: RefCell<Vec<Outcome>> = const { RefCell::new(Vec::new()) };
}

/// An empty outcome to fill: one given back on this thread ([`recycle_outcome`], its buffers
/// grown already), else a new one.
pub fn spare_outcome() -> Outcome {
    OUTCOMES
        .try_with(|cell| cell.try_borrow_mut().ok().and_then(|mut v| v.pop()))
        .ok()
        .flatten()
        .unwrap_or_default()
}

/// Gives back an outcome no longer read: this thread keeps a few for [`spare_outcome`].
pub fn recycle_outcome(mut outcome: Outcome) {
    outcome.clear();
    let _ = OUTCOMES.try_with(move |cell| {
        if let Ok(mut spare) = cell.try_borrow_mut() {
            if spare.len() < SPARE_OUTCOMES {
                spare.push(outcome);
            }
        }
    });
}

/// Buffers of threads that have finished a batch, for the next batch's threads.
static SPARE: Mutex<Vec<Slot0>> = Mutex::new(Vec::new());

/// Gives this thread spare buffers for `map` left by an earlier batch's thread, if any (a new
/// thread would otherwise grow its buffers from nothing).
pub fn borrow_spare_scratch<M: Mask>(map: &'static GameMap<M>) {
    let key = key_of(map);
    let found = {
        let mut spare = SPARE.lock().unwrap_or_else(|e| e.into_inner());
        let i = spare.iter().position(|s| s.0 == key);
        i.map(|i| spare.swap_remove(i))
    };
    if let Some(s) = found {
        SCRATCH.with(|cell| cell.borrow_mut().push(s));
    }
}

/// Hands this thread's buffers over to the next batch's threads (a thread about to end).
pub fn return_scratch() {
    let mine: Vec<Slot0> = SCRATCH.with(|cell| std::mem::take(&mut *cell.borrow_mut()));
    if !mine.is_empty() {
        let mut spare = SPARE.lock().unwrap_or_else(|e| e.into_inner());
        // Bounded: batches of threads started for them, on games of many maps, would otherwise
        // pile up the buffers of maps no later thread asks for.
        spare.extend(mine);
        let over = spare.len().saturating_sub(SPARE_LIMIT);
        spare.drain(..over); // the oldest go
    }
}

/// Drops this thread's buffers (after a panic may have left them half-updated).
pub fn forget_scratch() {
    let _ = SCRATCH.try_with(|cell| {
        if let Ok(mut all) = cell.try_borrow_mut() {
            all.clear();
        }
    });
}
