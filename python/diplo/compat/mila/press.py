"""Rules and press of a drop-in game: MILA's rule names, roles and messages."""

from __future__ import annotations

from typing import Final

from ...formats.mila import MilaError
from .._press import GLOBAL, OBSERVER, OMNISCIENT, SYSTEM, Clock, Message
from .base import Face, State
from .names import GamePhaseException, rule_name
from .powers import Power

__all__ = ["Press"]

#: Who a message may come from or go to besides the powers.
_ADDRESSES: Final = frozenset((GLOBAL, SYSTEM, OBSERVER, OMNISCIENT))


class Press:
    """MILA's rules, roles and press: the press part of :class:`diplo.compat.mila.Game`, over
    its board part ``state``; the messages of the current phase are the game's
    (``game.messages``), their clock (:attr:`clock`) this part's."""

    #: Its fields (see :data:`diplo.compat.mila.game.CARRIED`): the links to the game and its
    #: board part; the messages' clock, carried; nothing worked out.
    LINKS: Final = ("_game", "_state")
    KEPT: Final = ("clock",)
    MADE: Final = ()
    __slots__ = LINKS + KEPT + MADE

    def __init__(self, state: State, game: Face, clock: Clock | None = None) -> None:
        self._state = state
        self._game = game
        #: The time stamps given to messages (strictly increasing).
        self.clock = clock if clock is not None else Clock()

    def add_rule(self, rule: str) -> None:
        """Add a MILA rule name (``"NO_PRESS"``, ``"NO_CHECK"``, ...); kept once."""
        name = rule_name(rule, "rule")
        if name not in self._game.rules:
            self._game.rules.append(name)

    def remove_rule(self, rule: str) -> None:
        name = rule_name(rule, "rule")
        if name in self._game.rules:
            self._game.rules.remove(name)

    def is_player_game(self) -> bool:
        return self._game.role in self._state.powers

    def is_observer_game(self) -> bool:
        return self._game.role == OBSERVER

    def is_omniscient_game(self) -> bool:
        return self._game.role == OMNISCIENT

    def is_server_game(self) -> bool:
        return False

    @property
    def power(self) -> Power | None:
        """The power a player game plays (``role``), else ``None``."""
        return self._state.powers.get(self._game.role)

    def add_message(self, message: Message) -> int:
        """Add ``message`` to the current phase and return its time stamp. A message without a
        time stamp is stamped (microseconds, strictly after every earlier one); its phase must
        be the current phase (else :class:`GamePhaseException`). Sender and recipient must be
        powers, ``GLOBAL``/``SYSTEM``/``OBSERVER``/``OMNISCIENT`` (else :class:`MilaError`)."""
        if not isinstance(message, Message):
            raise TypeError(f"message must be a Message, got {type(message).__name__}")
        state = self._state
        current = state.current_phase()
        if message.phase is None:
            message.phase = current
        elif message.phase != current:
            raise GamePhaseException(
                f"message for phase {message.phase!r}, the game is at {current!r}"
            )
        powers = state.powers  # the map's powers (a dict: one lookup, no set made per call)
        for field, value in (("sender", message.sender), ("recipient", message.recipient)):
            if value not in powers and value not in _ADDRESSES:
                raise MilaError(f"message {field} {value!r} is not a power, GLOBAL or SYSTEM")
        if not isinstance(message.message, str):
            raise MilaError("message: the text (message) must be a string")
        game = self._game
        role = game.role
        if role in powers and not (  # a player game takes its power's messages alone
            message.is_global() or role in (message.sender, message.recipient)
        ):
            raise MilaError(f"a player game for {role} only takes {role}'s messages")
        messages = game.messages
        if message.time_sent is None:
            message.time_sent = self.clock.stamp()
        elif messages and message.time_sent <= messages.last_key():
            raise MilaError(
                f"message time_sent {message.time_sent} is not after the last message's "
                f"({messages.last_key()})"
            )
        else:
            self.clock.last = max(self.clock.last, message.time_sent)
        messages.put(message.time_sent, message)
        return message.time_sent

    def new_power_message(self, recipient: str, body: str, sender: str | None = None) -> Message:
        """A message from the game's power (a player game; else ``sender``) to ``recipient``,
        for the current phase (not yet added: pass it to :meth:`add_message`)."""
        who = sender if sender is not None else (self._game.role if self.is_player_game() else None)
        if who is None:
            raise MilaError("new_power_message: the game plays no power; pass sender=")
        to = self._state.power_name(recipient) if recipient not in (GLOBAL, SYSTEM) else recipient
        return Message(self._state.power_name(who), to, body, self._state.current_phase())

    def new_global_message(self, body: str, sender: str | None = None) -> Message:
        """A message from the game's power (or ``sender``) to every power (``GLOBAL``)."""
        who = sender if sender is not None else (self._game.role if self.is_player_game() else None)
        if who is None:
            raise MilaError("new_global_message: the game plays no power; pass sender=")
        who = who if who == SYSTEM else self._state.power_name(who)
        return Message(who, GLOBAL, body, self._state.current_phase())

    def new_system_message(self, recipient: str, body: str) -> int:
        """Add a message from ``SYSTEM`` to ``recipient`` (a power, or ``GLOBAL``)."""
        to = (
            recipient
            if recipient in (GLOBAL, OBSERVER, OMNISCIENT)
            else self._state.power_name(recipient)
        )
        return self.add_message(Message(SYSTEM, to, body, self._state.current_phase()))
