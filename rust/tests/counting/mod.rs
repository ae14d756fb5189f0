//! A global allocator that counts the allocations of one thread, for the "hot path allocates
//! nothing" tests.
//!
//! Only allocations made by a thread while it is inside [`count`] are counted: the test harness
//! allocates on its own threads at any moment (output capture, progress), and counting those made
//! the tests fail now and then on a busy machine.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

pub struct Counting;

thread_local! {
    // Const-initialised, so reading it never allocates (safe inside the allocator).
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn note() {
    // `try_with`: during thread teardown the locals may be gone; nothing to count then.
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        }
    });
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Runs `work` and returns what it returned with the number of allocations it made on this thread.
pub fn count<T>(work: impl FnOnce() -> T) -> (T, usize) {
    ALLOCATIONS.with(|n| n.set(0));
    COUNTING.with(|on| on.set(true));
    let out = work();
    COUNTING.with(|on| on.set(false));
    (out, ALLOCATIONS.with(|n| n.get()))
}
