//! [`Outcome`]: what a phase played by [`Game::process_into`] gives back, a value the caller
//! holds.

use super::*;

/// One phase's results, whole and nothing more (what a bot reads): per submitted code its
/// result code ([`result`]) and success, and what the phase did without an order (*implied*
/// results, `(code, result, success)`; see "Results" in the module documentation). Filled by
/// [`Game::process_into`] into a buffer the caller keeps (a bot, a vector environment's slot):
/// the game keeps none of it, and refilling one outcome allocates nothing once its lists have
/// grown. A [`Verdict`] carries one with everything else.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Per submitted code: its result code.
    pub results: Vec<u8>,
    /// Per submitted code: whether it succeeded (the DATC sense).
    pub success: Vec<bool>,
    /// What the phase did without an order: (code, result, success).
    pub implied: Vec<(Code, u8, bool)>,
}

impl Outcome {
    /// Empties the lists, keeping their buffers.
    pub fn clear(&mut self) {
        self.results.clear();
        self.success.clear();
        self.implied.clear();
    }

    /// Appends one submitted code's result.
    #[inline]
    pub(super) fn push(&mut self, result: u8, success: bool) {
        self.results.push(result);
        self.success.push(success);
    }
}
