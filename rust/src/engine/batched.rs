//! The skeleton both batched environments stand on ([`super::vector`], [`super::deepmind`]): N
//! games of one map, each with its row of every output buffer, started again or stepped together
//! on the process's threads (`batch::spread`), and refused after a step that broke part-way until they
//! are reset. An environment declares its buffers once (`buffers!`) and says what one game does
//! in a step or a reset ([`Protocol`]); the skeleton ([`Batched`]) does the rest, the same way
//! for both.

use super::batch::spread;
use super::board::MAX_YEAR;
use super::error::{EngineError, EngineResult, ErrorKind};
use super::game_map::GameMap;
use super::mask::Mask;
use super::phases::Game;
use super::state::State;

/// Where every game of an environment starts.
#[derive(Clone, Debug)]
pub struct Start<M: Mask> {
    /// The start of every episode.
    pub state: State<M>,
    /// The game ends (a draw) once a phase of a later year would come next.
    pub max_year: Option<u32>,
}

/// One game of a batched environment: the engine's game, what the skeleton counts of it, and
/// what its protocol keeps beside it (`own`).
#[derive(Clone, Debug)]
pub struct Episode<M: Mask, X> {
    pub game: Game<M>,
    /// Phases played since the episode started, and episodes started since the last reset.
    pub steps: u32,
    pub episodes: u32,
    /// The game ended in the last step: the next step starts it again.
    pub done: bool,
    pub own: X,
}

/// The entries of a game's row that the skeleton writes (every environment has them,
/// `buffers!` adds them).
pub struct Ends<'r> {
    pub terminated: &'r mut bool,
    pub truncated: &'r mut bool,
    pub steps: &'r mut i32,
    pub episodes: &'r mut i32,
}

/// A game's row, whose [`Ends`] the skeleton writes.
pub trait Ended {
    fn ends(&mut self) -> Ends<'_>;
}

/// What a batched environment is beside its games: what every game reads (the map, the start,
/// the environment's settings and tables), and what it does with one game. The skeleton
/// ([`Batched`]) hands every game its row of the buffers and its part of the actions, counts
/// the steps and the episodes, ends, cuts and starts the games again.
pub trait Protocol: Sync {
    /// The width of the map's sets.
    type Width: Mask;
    /// What the environment keeps of one game beside the game.
    type Own: Send;
    /// Every game's buffers, flat, and one game's row of them (`buffers!`).
    type Buffers<'a>;
    type Row<'a>: Send + Ended;

    /// The map every game is played on.
    fn map(&self) -> &'static GameMap<Self::Width>;

    /// Where every game starts.
    fn start(&self) -> &Start<Self::Width>;

    /// `bufs` cut into the rows of `n` games, or the error of buffers that do not fit.
    fn rows<'a>(
        &self,
        bufs: Self::Buffers<'a>,
        n: usize,
    ) -> Result<Vec<Self::Row<'a>>, EngineError>;

    /// The entries of a step's actions per game.
    fn per_game(&self) -> usize;

    /// Checks a step's `actions` for every game, before any game is played (and keeps what the
    /// step will read of them in the games).
    fn check(
        &self,
        games: &mut [Episode<Self::Width, Self::Own>],
        actions: &[i64],
        threads: usize,
    ) -> Result<(), EngineError>;

    /// What a reset forgets besides the episode count.
    fn rewind(&self, _own: &mut Self::Own) {}

    /// A game's row before its part of a step: what is zero unless the game plays a phase.
    fn begin(&self, _row: &mut Self::Row<'_>) {}

    /// Plays one phase of the game with its `action`.
    fn play(
        &self,
        e: &mut Episode<Self::Width, Self::Own>,
        action: &[i64],
        row: &mut Self::Row<'_>,
    ) -> EngineResult<()>;

    /// Forgets the episode that ended (the skeleton starts the game again).
    fn restart(&self, own: &mut Self::Own);

    /// Writes the observation of the game's current phase.
    fn observe(
        &self,
        e: &mut Episode<Self::Width, Self::Own>,
        row: &mut Self::Row<'_>,
    ) -> EngineResult<()>;

    /// The kind a game's failure is reported as: the environment is broken (a step that failed
    /// part-way), unless the protocol says it is the caller's.
    fn failure(&self, _e: &EngineError) -> ErrorKind {
        ErrorKind::Broken
    }
}

/// N games of one protocol (see the module documentation).
pub struct Batched<P: Protocol> {
    /// What every game reads.
    pub setup: P,
    pub games: Vec<Episode<P::Width, P::Own>>,
    /// A step is refused since the last error (or before the first reset): reset first.
    pub broken: bool,
}

impl<P: Protocol> Batched<P> {
    /// `n` games whose own part starts as `own`, to be reset before the first step.
    pub fn with_games(setup: P, own: P::Own, n: usize) -> Batched<P>
    where
        P::Own: Clone,
    {
        let start = setup.start();
        let first = Episode {
            game: Game::new(setup.map(), start.state.clone(), start.max_year),
            steps: 0,
            episodes: 0,
            done: true,
            own,
        };
        Batched {
            setup,
            games: vec![first; n],
            broken: true,
        }
    }

    /// Starts every game again and writes its first observation (episode counts start again
    /// at 1).
    pub fn reset(&mut self, bufs: P::Buffers<'_>, threads: usize) -> Result<(), EngineError> {
        let rows = self.setup.rows(bufs, self.games.len())?;
        for e in &mut self.games {
            e.done = true;
            e.episodes = 0;
            self.setup.rewind(&mut e.own);
        }
        self.broken = false;
        self.run(rows, None, threads).map(|_| ())
    }

    /// Checks `actions` for every game (see [`Protocol::check`]); nothing is played.
    pub fn check_actions(&mut self, actions: &[i64], threads: usize) -> Result<(), EngineError> {
        self.setup.check(&mut self.games, actions, threads)
    }

    /// Plays one phase of every game with its entries of `actions`; a game that ended in the
    /// previous step is started again instead (its actions ignored). The phases played.
    /// Refused actions change nothing.
    pub fn step(
        &mut self,
        actions: &[i64],
        bufs: P::Buffers<'_>,
        threads: usize,
    ) -> Result<usize, EngineError> {
        if self.broken {
            return Err(EngineError::wrong_state(
                "the environment must be reset first",
            ));
        }
        let rows = self.setup.rows(bufs, self.games.len())?;
        self.check_actions(actions, threads)?;
        let per = self.setup.per_game();
        self.run(rows, Some((actions, per)), threads)
    }

    fn run(
        &mut self,
        rows: Vec<P::Row<'_>>,
        actions: Option<(&[i64], usize)>,
        threads: usize,
    ) -> Result<usize, EngineError> {
        let setup = &self.setup;
        let mut work: Vec<_> = self.games.iter_mut().zip(rows).collect();
        let r = spread(setup.map(), &mut work, threads, |g, (e, row)| {
            let mine = actions.map(|(a, per)| &a[g * per..(g + 1) * per]);
            advance(setup, e, mine, row)
        })
        .map_err(|(g, e)| EngineError::new(setup.failure(&e), format!("game {g}: {e}")));
        self.broken = r.is_err();
        r
    }
}

/// One game's part of a step (`action`: its entries) or of a reset (`None`): a phase played,
/// the game cut before a phase that could pass the last year a state may have, or started
/// again; then observed. True when a phase was played.
fn advance<P: Protocol>(
    setup: &P,
    e: &mut Episode<P::Width, P::Own>,
    action: Option<&[i64]>,
    row: &mut P::Row<'_>,
) -> Result<bool, EngineError> {
    setup.begin(row);
    let (mut terminated, mut truncated) = (false, false);
    let played = match action {
        Some(action) if !e.done => {
            let st = &e.game.state;
            if setup.map().next_year(st.year, st.season) > MAX_YEAR {
                truncated = true;
                e.done = true;
                false
            } else {
                setup.play(e, action, row)?;
                e.steps += 1;
                if e.game.over {
                    terminated = true;
                    e.done = true;
                }
                true
            }
        }
        _ => {
            let start = setup.start();
            e.game = Game::new(setup.map(), start.state.clone(), start.max_year);
            setup.restart(&mut e.own);
            e.steps = 0;
            e.episodes += 1;
            e.done = false;
            false
        }
    };
    setup.observe(e, row)?;
    let ends = row.ends();
    *ends.terminated = terminated;
    *ends.truncated = truncated;
    *ends.steps = e.steps.min(i32::MAX as u32) as i32;
    *ends.episodes = e.episodes.min(i32::MAX as u32) as i32;
    Ok(played)
}

/// `buf` as `n` rows of `width` entries, or the error of buffers that do not fit the
/// environment.
pub(crate) fn rows_of<T>(
    buf: &mut [T],
    n: usize,
    width: usize,
) -> Result<std::slice::ChunksExactMut<'_, T>, EngineError> {
    if width == 0 || buf.len() != n * width {
        return Err(EngineError::wrong_state(
            "the buffers do not match the environment's sizes",
        ));
    }
    Ok(buf.chunks_exact_mut(width))
}

/// Declares an environment's output buffers once: `$all`, every game's buffers, flat, game after
/// game (as the bindings lend them), `$row`, one game's, and `$all::rows(self, n, sizes)`, which
/// checks every length and cuts them into one `$row` per game. A field `name: T[width]` is a row
/// of `width` entries per game (`width` an expression of the sizes, named by the caller); a field
/// `name: T` is one entry per game. The entries the skeleton writes ([`Ends`]: `terminated`,
/// `truncated`, `steps`, `episodes`) are added to every environment's.
macro_rules! buffers {
    (
        $(#[$all_doc:meta])* $all:ident,
        $(#[$row_doc:meta])* $row:ident,
        |$z:ident: $zt:ty| { $($field:ident: $t:ty $([$w:expr])?),* $(,)? }
    ) => {
        $crate::engine::batched::buffers!(@declare $(#[$all_doc])* $all, $(#[$row_doc])* $row, |$z: $zt| {
            $($field: $t $([$w])?,)*
            terminated: bool,
            truncated: bool,
            steps: i32,
            episodes: i32,
        });

        impl $crate::engine::batched::Ended for $row<'_> {
            fn ends(&mut self) -> $crate::engine::batched::Ends<'_> {
                $crate::engine::batched::Ends {
                    terminated: &mut *self.terminated,
                    truncated: &mut *self.truncated,
                    steps: &mut *self.steps,
                    episodes: &mut *self.episodes,
                }
            }
        }
    };
    (
        @declare $(#[$all_doc:meta])* $all:ident,
        $(#[$row_doc:meta])* $row:ident,
        |$z:ident: $zt:ty| { $($field:ident: $t:ty $([$w:expr])?),* $(,)? }
    ) => {
        $(#[$all_doc])*
        pub struct $all<'a> {
            $(pub $field: &'a mut [$t],)*
        }

        $(#[$row_doc])*
        pub struct $row<'a> {
            $($field: $crate::engine::batched::buffers!(@type 'a $t $([$w])?),)*
        }

        impl<'a> $all<'a> {
            /// Every game's row, or the error of buffers that do not fit the environment.
            pub(crate) fn rows(self, n: usize, $z: $zt) -> Result<Vec<$row<'a>>, EngineError> {
                $(let mut $field = $crate::engine::batched::rows_of(
                    self.$field, n, $crate::engine::batched::buffers!(@width $([$w])?),
                )?;)*
                (0..n)
                    .map(|_| {
                        Some($row {
                            $($field: $crate::engine::batched::buffers!(
                                @next $field $([$w])?
                            ),)*
                        })
                    })
                    .collect::<Option<Vec<$row<'a>>>>()
                    .ok_or_else(|| EngineError::internal("a buffer ran out of rows"))
            }
        }
    };
    (@type $a:lifetime $t:ty [$w:expr]) => { &$a mut [$t] };
    (@type $a:lifetime $t:ty) => { &$a mut $t };
    (@width [$w:expr]) => { $w };
    (@width) => { 1 };
    (@next $f:ident [$w:expr]) => { $f.next()? };
    (@next $f:ident) => { $f.next()?.first_mut()? };
}
pub(crate) use buffers;

/// The items of a [`Protocol`] that every environment writes alike, inside its `impl<M: Mask>
/// Protocol for ...`: the width `M`, the buffers and rows its `buffers!` declared (cut by its
/// `sizes()`), the map (its `map` field) and the start (its config's).
macro_rules! protocol_frame {
    () => {
        type Width = M;
        type Buffers<'a> = Buffers<'a>;
        type Row<'a> = Row<'a>;

        fn map(&self) -> &'static GameMap<M> {
            self.map
        }

        fn start(&self) -> &Start<M> {
            &self.cfg.start
        }

        fn rows<'a>(&self, bufs: Self::Buffers<'a>, n: usize) -> EngineResult<Vec<Self::Row<'a>>> {
            bufs.rows(n, self.sizes())
        }
    };
}
pub(crate) use protocol_frame;
