"""MILA's live power objects: ``game.powers[name]``, whose lists are the game's."""

from __future__ import annotations

import copy as _copy
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from .._press import History

__all__ = ["Power", "PowersGame", "power_of"]


class PowersGame(Protocol):
    """What a :class:`Power` reads and changes of its game (:class:`diplo.compat.mila.Game`)."""

    rules: list[str]
    _version: int
    _loaded: set[str]
    _orders_loaded: set[str]
    _powers: dict[str, Power]
    map: Any  # MILA's map queries (diplo.compat.mila.Map)

    @property
    def phase_type(self) -> str | None: ...

    def _engine_doc(self) -> dict[str, Any]: ...

    def _orders_dict(self, power: str) -> dict[str, str]: ...

    def _adjust_list(self, power: str) -> list[str]: ...

    def clear_orders(self, power_name: str | None = None) -> None: ...

    def get_orders(self, power_name: str | None = None) -> Any: ...


class Power:
    """A power as MILA's ``Game.powers`` holds it: ``name``, ``units`` (``"A PAR"``),
    ``centers``, ``homes``, ``retreats`` (dislodged unit -> options), ``influence``, ``orders``
    (unit -> order, movement phases), ``adjust`` (orders of retreat and adjustment phases).

    The object lives as long as its game (``game.get_power("FRANCE") is game.powers["FRANCE"]``)
    and its lists are the game's: changing them changes the board or the orders, as in MILA. They
    are made from the engine's state when first read in a phase."""

    def __init__(self, game: PowersGame, name: str) -> None:
        #: The game (a :class:`diplo.compat.mila.Game`: typed loosely, as this module comes
        #: before it).
        self.game: Any = game
        self.name = name
        #: The power's one-letter abbreviation (MILA's ``Power.abbrev``: the map's, else the
        #: first letter of its name).
        self.abbrev: str = game.map.abbrev.get(name, name[0])
        self.role = name
        self.controller = History[int, str]({0: "dummy"})
        self.vote = "neutral"
        self.civil_disorder = 0
        self._at = -1  # the board version the lists were made at
        self._units: list[str] = []
        self._centers: list[str] = []
        self._homes: list[str] = []
        self._retreats: dict[str, list[str]] = {}
        self._influence: list[str] = []
        self._snap: tuple[Any, ...] = ()
        self._orders_view: dict[str, str] | None = None
        self._orders_snap: dict[str, str] = {}
        self._adjust_view: list[str] | None = None
        self._adjust_snap: list[str] = []

    # --------------------------------------------------------------- the board, made lazily

    def _load(self) -> None:
        game = self.game
        if self._at == game._version:
            return
        doc = game._engine_doc()
        name = self.name
        self._units = [u for u in doc["units"][name] if not u.startswith("*")]
        self._retreats = {u: list(o) for u, o in doc["retreats"][name].items()}
        self._centers = list(doc["centers"][name])
        self._homes = list(doc["homes"][name])
        self._influence = list(doc["influence"][name])
        self._stamp()

    def _stamp(self) -> None:
        self._at = self.game._version
        self._snap = self._key()
        self.game._loaded.add(self.name)

    def _key(self) -> tuple[Any, ...]:
        return (
            tuple(self._units),
            tuple((u, tuple(o)) for u, o in self._retreats.items()),
            tuple(self._centers),
            tuple(self._homes),
        )

    def _changed(self) -> bool:
        return self._at == self.game._version and self._key() != self._snap

    @property
    def units(self) -> list[str]:
        self._load()
        return self._units

    @units.setter
    def units(self, value: Iterable[str]) -> None:
        self._load()
        self._units = list(value)

    @property
    def centers(self) -> list[str]:
        self._load()
        return self._centers

    @centers.setter
    def centers(self, value: Iterable[str]) -> None:
        self._load()
        self._centers = list(value)

    @property
    def homes(self) -> list[str]:
        self._load()
        return self._homes

    @homes.setter
    def homes(self, value: Iterable[str]) -> None:
        self._load()
        self._homes = list(value)

    @property
    def retreats(self) -> dict[str, list[str]]:
        self._load()
        return self._retreats

    @retreats.setter
    def retreats(self, value: Mapping[str, Iterable[str]]) -> None:
        self._load()
        self._retreats = {str(u): list(o) for u, o in dict(value).items()}

    @property
    def influence(self) -> list[str]:
        self._load()
        return self._influence

    @influence.setter
    def influence(self, value: Iterable[str]) -> None:
        self._load()
        self._influence = list(value)

    # --------------------------------------------------------------- orders, as MILA keys them

    @property
    def orders(self) -> dict[str, str]:
        """Movement: unit -> order after the unit (``{"A PAR": "- BUR"}``); with ``NO_CHECK``,
        ``"ORDER n"`` -> the order as given. Edits change the game's orders."""
        if self._orders_view is None:
            self._orders_view = self.game._orders_dict(self.name)
            self._orders_snap = dict(self._orders_view)
            self.game._orders_loaded.add(self.name)
        return self._orders_view

    @orders.setter
    def orders(self, value: Mapping[str, str]) -> None:
        self.orders  # noqa: B018 (made, so that the change is seen against it)
        self._orders_view = dict(value)

    @property
    def adjust(self) -> list[str]:
        """Orders of a retreat or adjustment phase (``["A PAR R BUR"]``, ``["A PAR B"]``)."""
        if self._adjust_view is None:
            self._adjust_view = self.game._adjust_list(self.name)
            self._adjust_snap = list(self._adjust_view)
            self.game._orders_loaded.add(self.name)
        return self._adjust_view

    @adjust.setter
    def adjust(self, value: Iterable[str]) -> None:
        self.adjust  # noqa: B018
        self._adjust_view = list(value)

    def _orders_edited(self) -> list[str] | None:
        """The orders as edited through :attr:`orders` / :attr:`adjust`, or ``None``."""
        if self._orders_view is not None and self._orders_view != self._orders_snap:
            if "NO_CHECK" in self.game.rules:
                return [v for v in self._orders_view.values() if v]
            return [f"{u} {o}" for u, o in self._orders_view.items()]
        if self._adjust_view is not None and self._adjust_view != self._adjust_snap:
            return list(self._adjust_view)
        return None

    def _forget_orders(self) -> None:
        self._orders_view = None
        self._adjust_view = None

    # --------------------------------------------------------------- MILA's methods

    def clear_units(self) -> None:
        self._load()
        self._units = []
        self._retreats = {}
        self._influence = []

    def clear_centers(self) -> None:
        self._load()
        self._centers = []

    def clear_orders(self) -> None:
        self.game.clear_orders(self.name)

    def is_eliminated(self) -> bool:
        """No unit, no centre and nothing to retreat: out of the game (as MILA says)."""
        return not (self.units or self.centers or self.retreats)

    def moves_submitted(self) -> bool:
        return (
            self.game.phase_type != "M" or bool(self.game.get_orders(self.name)) or not self.units
        )

    def is_dummy(self) -> bool:
        return True

    def __deepcopy__(self, memo: dict[int, Any]) -> Power:
        game = memo.get(id(self.game))
        if game is None:
            game = _copy.deepcopy(self.game, memo)
        power: Power = game._powers[self.name]
        return power

    def __reduce__(self) -> tuple[Any, ...]:
        return (power_of, (self.game, self.name))

    def __repr__(self) -> str:
        return f"Power({self.name!r}, units={self.units}, centers={self.centers})"


def power_of(game: PowersGame, name: str) -> Power:
    return game._powers[name]
