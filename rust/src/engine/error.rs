//! The engine's errors: what went wrong, by kind ([`ErrorKind`]), and the sentence that names it
//! ([`EngineError`]'s `Display`). Callers choose what to do by the kind, never by the text: the
//! bindings map each kind to one Python exception class in one place (`bindings/errors.rs`).

use std::fmt;

/// What kind of thing went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// An input the engine does not take: a malformed map, position, rule, state or order set.
    Invalid,
    /// A number outside the range it must lie in: an index, a year, an action.
    OutOfRange,
    /// A limit passed: a count, a size, the maps one process may compile, the last year a
    /// state may have.
    Limit,
    /// An action that needs a running game, asked of a game that has ended.
    GameOver,
    /// A call the object's present state does not allow (an environment not reset, buffers
    /// that are not its own).
    WrongState,
    /// A step that failed part-way through a batch of games: the object is left broken until
    /// it is reset (a vectorised environment).
    Broken,
    /// A bug: something the engine's own invariants rule out (its text starts "internal error").
    Internal,
}

/// An error of the engine: its kind and the sentence naming what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineError {
    kind: ErrorKind,
    message: String,
}

/// A result of the engine.
pub type EngineResult<T> = Result<T, EngineError>;

impl EngineError {
    /// An error of kind `kind` worded `message`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> EngineError {
        EngineError {
            kind,
            message: message.into(),
        }
    }

    /// [`ErrorKind::Invalid`].
    pub fn invalid(message: impl Into<String>) -> EngineError {
        EngineError::new(ErrorKind::Invalid, message)
    }

    /// [`ErrorKind::OutOfRange`].
    pub fn out_of_range(message: impl Into<String>) -> EngineError {
        EngineError::new(ErrorKind::OutOfRange, message)
    }

    /// [`ErrorKind::Limit`].
    pub fn limit(message: impl Into<String>) -> EngineError {
        EngineError::new(ErrorKind::Limit, message)
    }

    /// [`ErrorKind::GameOver`]: "the game is over".
    pub fn game_over() -> EngineError {
        EngineError::new(ErrorKind::GameOver, "the game is over")
    }

    /// [`ErrorKind::WrongState`].
    pub fn wrong_state(message: impl Into<String>) -> EngineError {
        EngineError::new(ErrorKind::WrongState, message)
    }

    /// [`ErrorKind::Internal`], worded "internal error: {detail}".
    pub fn internal(detail: impl fmt::Display) -> EngineError {
        EngineError::new(ErrorKind::Internal, format!("internal error: {detail}"))
    }

    /// The same error, its sentence put after `what: ` (the game or argument it is about).
    pub fn within(self, what: impl fmt::Display) -> EngineError {
        EngineError {
            kind: self.kind,
            message: format!("{what}: {}", self.message),
        }
    }

    /// What kind of error it is.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The sentence naming what was wrong (as `Display` writes it).
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for EngineError {}
