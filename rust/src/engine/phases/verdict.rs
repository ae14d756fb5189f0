//! [`Verdict`]: one phase's ruling as a value.

use super::*;

/// One phase's ruling, whole: the state it was ruled from and the state it led to, the codes
/// given (and by whom), and per code its reason, normal form, and its [`Outcome`] (result and
/// success; what was done without an order, the *implied* results); the facts behind a movement phase's results and the
/// units it dislodged; why each retreat or adjustment result is what it is. Made by
/// [`Game::rule`] (or [`Game::rule_into`], which reuses a verdict's buffers), never kept by the
/// game: every reader (the object API, the MILA records, the rollout writer) reads the verdict
/// it was handed. A phase played by [`Game::process_into`] (a bot's codes) makes none: its
/// caller gets the [`Outcome`] alone.
#[derive(Clone, Debug)]
pub struct Verdict<M: Mask> {
    pub map: &'static GameMap<M>,
    /// The state the phase was ruled from.
    pub before: State<M>,
    /// The state the phase led to.
    pub after: State<M>,
    /// The winner, when the phase decided one.
    pub winner: Option<u8>,
    /// The codes submitted, and per code the power that gave it (`NO_POWER`: its unit's
    /// owner; empty: every code its unit's owner's).
    pub orders: Vec<Code>,
    pub powers: Vec<u8>,
    /// Per submitted code: its reason code (`legality::reason`, OK when legal).
    pub reasons: Vec<u8>,
    /// Per submitted code: its normal form (0 when refused).
    pub normal: Vec<Code>,
    /// Per submitted code its result code and success, and the implied results: what
    /// [`Game::process_into`] gives a bot.
    pub outcome: Outcome,
    /// Movement: the facts behind each result, per submitted code then per implied result.
    pub facts: Vec<Fact>,
    /// Movement: every dislodged unit (province order) and its retreat options.
    pub gone: Vec<(Piece, M)>,
    /// Retreats and adjustments: why each result is what it is, per submitted code
    /// (`explain::NONE` when refused) then per implied result.
    pub rulings: Vec<Ruling>,
}

impl<M: Mask> Verdict<M> {
    /// An empty verdict of the state `st` (filled by [`Game::rule_into`]).
    pub fn empty(map: &'static GameMap<M>, st: &State<M>) -> Verdict<M> {
        Verdict {
            map,
            before: st.clone(),
            after: st.clone(),
            winner: None,
            orders: Vec::new(),
            powers: Vec::new(),
            reasons: Vec::new(),
            normal: Vec::new(),
            outcome: Outcome::default(),
            facts: Vec::new(),
            gone: Vec::new(),
            rulings: Vec::new(),
        }
    }

    /// Empties the per-phase lists, keeping their buffers.
    pub(super) fn clear(&mut self) {
        self.winner = None;
        self.orders.clear();
        self.powers.clear();
        self.reasons.clear();
        self.normal.clear();
        self.outcome.clear();
        self.facts.clear();
        self.gone.clear();
        self.rulings.clear();
    }

    /// The units the phase dislodged with nowhere to retreat (a movement phase's; none for the
    /// others).
    pub fn unretreated(&self) -> impl Iterator<Item = Piece> + '_ {
        self.gone
            .iter()
            .filter(|(_, options)| options.is_zero())
            .map(|&(u, _)| u)
    }
}
