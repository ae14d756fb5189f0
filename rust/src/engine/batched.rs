//! The skeleton both batched environments stand on ([`super::vector`], [`super::deepmind`]): N
//! games of one map, each with its row of every output buffer, started again or stepped together
//! on the process's threads (`batch::spread`), and refused after a step that broke part-way until they
//! are reset. An environment declares its buffers once (`buffers!`) and says what one game does
//! in a step or a reset ([`Protocol`]); the skeleton ([`Batched`]) does the rest, the same way
//! for both.

use super::batch::spread;
use super::error::{EngineError, ErrorKind};
use super::game_map::GameMap;
use super::mask::Mask;

/// What a batched environment is beside its games: what every game reads (the map, the
/// environment's settings and tables), and what it does with one game. The skeleton
/// ([`Batched`]) hands every game its row of the buffers and its part of the actions.
pub trait Protocol: Sync {
    /// The width of the map's sets.
    type Width: Mask;
    /// One game and what the environment keeps of it.
    type Episode: Send;
    /// Every game's buffers, flat, and one game's row of them (`buffers!`).
    type Buffers<'a>;
    type Row<'a>: Send;

    /// The map every game is played on.
    fn map(&self) -> &'static GameMap<Self::Width>;

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
        games: &mut [Self::Episode],
        actions: &[i64],
        threads: usize,
    ) -> Result<(), EngineError>;

    /// Marks a game to be started again by the next [`Protocol::advance`] (a reset).
    fn rewind(&self, e: &mut Self::Episode);

    /// One game's part of a step (`action`: its entries) or of a reset (`None`); true when it
    /// played a phase. Writes the game's row.
    fn advance(
        &self,
        e: &mut Self::Episode,
        action: Option<&[i64]>,
        row: &mut Self::Row<'_>,
    ) -> Result<bool, EngineError>;

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
    pub games: Vec<P::Episode>,
    /// A step is refused since the last error (or before the first reset): reset first.
    pub broken: bool,
}

impl<P: Protocol> Batched<P> {
    /// `n` copies of `first`, to be reset before the first step.
    pub fn with_games(setup: P, first: P::Episode, n: usize) -> Batched<P>
    where
        P::Episode: Clone,
    {
        Batched {
            setup,
            games: vec![first; n],
            broken: true,
        }
    }

    /// Starts every game again and writes its first observation.
    pub fn reset(&mut self, bufs: P::Buffers<'_>, threads: usize) -> Result<(), EngineError> {
        let rows = self.setup.rows(bufs, self.games.len())?;
        for e in &mut self.games {
            self.setup.rewind(e);
        }
        self.broken = false;
        self.run(rows, None, threads).map(|_| ())
    }

    /// Checks `actions` for every game (see [`Protocol::check`]); nothing is played.
    pub fn check_actions(&mut self, actions: &[i64], threads: usize) -> Result<(), EngineError> {
        self.setup.check(&mut self.games, actions, threads)
    }

    /// Plays one phase of every game (or starts it again, as the protocol says), game `g` with
    /// its entries of `actions`; the phases played. Refused actions change nothing.
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
        let mut work: Vec<(&mut P::Episode, P::Row<'_>)> =
            self.games.iter_mut().zip(rows).collect();
        let r = spread(setup.map(), &mut work, threads, |g, (e, row)| {
            let mine = actions.map(|(a, per)| &a[g * per..(g + 1) * per]);
            setup.advance(e, mine, row)
        })
        .map_err(|(g, e)| EngineError::new(setup.failure(&e), format!("game {g}: {e}")));
        self.broken = r.is_err();
        r
    }
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
/// `name: T` is one entry per game.
macro_rules! buffers {
    (
        $(#[$all_doc:meta])* $all:ident,
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
