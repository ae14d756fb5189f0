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
    /// An object asked for by one call while another holds it (a game inside a batch running
    /// on another thread, or re-entered from a callback of the call holding it); its index, when
    /// it has one, is the object's place in the list the call was given.
    InUse,
    /// An entry of an action table outside the action space; its index is the entry's place
    /// (game, power, slot).
    Action,
}

/// An error of the engine: its kind, the sentence naming what was wrong and, for an error about
/// one item of a list or a table, where that item is (the bindings hand it to Python as the
/// exception's `index`, so no caller reads a place out of the text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineError {
    kind: ErrorKind,
    message: String,
    index: Option<Box<[usize]>>,
}

/// A result of the engine.
pub type EngineResult<T> = Result<T, EngineError>;

impl EngineError {
    /// An error of kind `kind` worded `message`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> EngineError {
        EngineError {
            kind,
            message: message.into(),
            index: None,
        }
    }

    /// [`ErrorKind::InUse`].
    pub fn in_use(message: impl Into<String>) -> EngineError {
        EngineError::new(ErrorKind::InUse, message)
    }

    /// [`ErrorKind::Action`]: the entry at `index` (game, power, slot) of an action table.
    pub fn action(index: [usize; 3], message: impl Into<String>) -> EngineError {
        EngineError::new(ErrorKind::Action, message).at(&index)
    }

    /// The same error about the item at `index` (a place in a list or a table).
    pub fn at(self, index: &[usize]) -> EngineError {
        EngineError {
            index: Some(index.into()),
            ..self
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
            message: format!("{what}: {}", self.message),
            ..self
        }
    }

    /// What kind of error it is.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// Where the item the error is about is, when it is about one item of a list or a table.
    pub fn index(&self) -> Option<&[usize]> {
        self.index.as_deref()
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
