"""MILA's live power objects: ``game.powers[name]``, whose lists are the game's."""

from __future__ import annotations

import copy as _copy
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from .._press import History

__all__ = ["Power", "PowersHost", "Sheet", "power_of"]


class Sheet:
    """One power's lists as the board part keeps them (:class:`~.base.State`): the board as
    MILA's lists (made from the engine's state when first read in a phase), the board version
    they were made at and what they were then, and the views of the power's orders handed out
    (:attr:`Power.orders`, :attr:`Power.adjust`) with what they were when handed out."""

    __slots__ = (
        "adjust_snap",
        "adjust_view",
        "at",
        "centers",
        "homes",
        "influence",
        "orders_snap",
        "orders_view",
        "retreats",
        "snap",
        "units",
    )

    def __init__(self) -> None:
        self.at = -1  # the board version the lists were made at
        self.units: list[str] = []
        self.centers: list[str] = []
        self.homes: list[str] = []
        self.retreats: dict[str, list[str]] = {}
        self.influence: list[str] = []
        self.snap: tuple[Any, ...] = ()
        self.orders_view: dict[str, str] | None = None
        self.orders_snap: dict[str, str] = {}
        self.adjust_view: list[str] | None = None
        self.adjust_snap: list[str] = []

    def fill(self, doc: Mapping[str, Any], name: str) -> None:
        """The lists of power ``name`` in the board ``doc`` (MILA's state lists)."""
        self.units = [u for u in doc["units"][name] if not u.startswith("*")]
        self.retreats = {u: list(o) for u, o in doc["retreats"][name].items()}
        self.centers = list(doc["centers"][name])
        self.homes = list(doc["homes"][name])
        self.influence = list(doc["influence"][name])

    def take(self, other: Sheet) -> None:
        """The lists of ``other`` (copies of them)."""
        self.units, self.centers = list(other.units), list(other.centers)
        self.homes, self.influence = list(other.homes), list(other.influence)
        self.retreats = {u: list(o) for u, o in other.retreats.items()}

    def lists(self) -> tuple[Any, ...]:
        """The lists as a pickle keeps them: units, retreats, centres, homes, influence."""
        return (self.units, self.retreats, self.centers, self.homes, self.influence)

    def set_lists(self, lists: Sequence[Any]) -> None:
        """The lists as :meth:`lists` gave them."""
        self.units, self.retreats, self.centers, self.homes, self.influence = lists

    def stamp(self, version: int) -> None:
        """The lists are those of board ``version``: an edit is seen against them from now."""
        self.at = version
        self.snap = self.key()

    def key(self) -> tuple[Any, ...]:
        return (
            tuple(self.units),
            tuple((u, tuple(o)) for u, o in self.retreats.items()),
            tuple(self.centers),
            tuple(self.homes),
        )

    def changed(self, version: int) -> bool:
        """Whether the lists of board ``version`` were edited since they were made."""
        return self.at == version and self.key() != self.snap

    def shown_units(self) -> list[str]:
        """The units as MILA's state lists them, each dislodged one after them as ``*A PAR``."""
        return list(self.units) + [f"*{u}" for u in self.retreats]

    def orders_edited(self, no_check: bool) -> list[str] | None:
        """The orders as edited through :attr:`Power.orders` / :attr:`Power.adjust`, or
        ``None`` (``no_check``: the game keeps orders unchecked, keyed ``ORDER n``)."""
        if self.orders_view is not None and self.orders_view != self.orders_snap:
            if no_check:
                return [v for v in self.orders_view.values() if v]
            return [f"{u} {o}" for u, o in self.orders_view.items()]
        if self.adjust_view is not None and self.adjust_view != self.adjust_snap:
            return list(self.adjust_view)
        return None

    def forget_orders(self) -> None:
        self.orders_view = None
        self.adjust_view = None


class PowersHost(Protocol):
    """What a :class:`Power` reads and changes of its game's board part
    (:class:`~diplo.compat.mila.base.State`)."""

    def sheet(self, name: str) -> Sheet: ...

    def order_views(self, name: str) -> Sheet: ...

    def orders_dict(self, power: str) -> dict[str, str]: ...

    def adjust_list(self, power: str) -> list[str]: ...


class Power:
    """A power as MILA's ``Game.powers`` holds it: ``name``, ``units`` (``"A PAR"``),
    ``centers``, ``homes``, ``retreats`` (dislodged unit -> options), ``influence``, ``orders``
    (unit -> order, movement phases), ``adjust`` (orders of retreat and adjustment phases).

    The object lives as long as its game (``game.get_power("FRANCE") is game.powers["FRANCE"]``)
    and its lists are the game's: changing them changes the board or the orders, as in MILA. They
    are made from the engine's state when first read in a phase (kept in the game's
    :class:`Sheet` of the power)."""

    def __init__(self, game: Any, name: str, host: PowersHost | None = None) -> None:
        #: The game (a :class:`diplo.compat.mila.Game`: typed loosely, as this module comes
        #: before it).
        self.game: Any = game
        self.name = name
        #: The power's one-letter abbreviation (MILA's ``Power.abbrev``: the map's, else the
        #: first letter of its name).
        self.abbrev: str = game.map.abbrev.get(name, name[0])
        self.role = name
        self.controller: History[int, str] = History({0: "dummy"})
        self.vote = "neutral"
        self.civil_disorder = 0
        #: The board part of the game that keeps the power's lists (a power made without it,
        #: as the drop-in's earlier releases let one be made: its game's).
        self._host: PowersHost = host if host is not None else power_of(game, name)._host

    # --------------------------------------------------------------- the board, made lazily

    @property
    def units(self) -> list[str]:
        return self._host.sheet(self.name).units

    @units.setter
    def units(self, value: Iterable[str]) -> None:
        self._host.sheet(self.name).units = list(value)

    @property
    def centers(self) -> list[str]:
        return self._host.sheet(self.name).centers

    @centers.setter
    def centers(self, value: Iterable[str]) -> None:
        self._host.sheet(self.name).centers = list(value)

    @property
    def homes(self) -> list[str]:
        return self._host.sheet(self.name).homes

    @homes.setter
    def homes(self, value: Iterable[str]) -> None:
        self._host.sheet(self.name).homes = list(value)

    @property
    def retreats(self) -> dict[str, list[str]]:
        return self._host.sheet(self.name).retreats

    @retreats.setter
    def retreats(self, value: Mapping[str, Iterable[str]]) -> None:
        sheet = self._host.sheet(self.name)
        sheet.retreats = {str(u): list(o) for u, o in dict(value).items()}

    @property
    def influence(self) -> list[str]:
        return self._host.sheet(self.name).influence

    @influence.setter
    def influence(self, value: Iterable[str]) -> None:
        self._host.sheet(self.name).influence = list(value)

    # --------------------------------------------------------------- orders, as MILA keys them

    @property
    def orders(self) -> dict[str, str]:
        """Movement: unit -> order after the unit (``{"A PAR": "- BUR"}``); with ``NO_CHECK``,
        ``"ORDER n"`` -> the order as given. Edits change the game's orders."""
        sheet = self._host.order_views(self.name)
        if sheet.orders_view is None:
            sheet.orders_view = self._host.orders_dict(self.name)
            sheet.orders_snap = dict(sheet.orders_view)
        return sheet.orders_view

    @orders.setter
    def orders(self, value: Mapping[str, str]) -> None:
        self.orders  # noqa: B018 (made, so that the change is seen against it)
        self._host.order_views(self.name).orders_view = dict(value)

    @property
    def adjust(self) -> list[str]:
        """Orders of a retreat or adjustment phase (``["A PAR R BUR"]``, ``["A PAR B"]``)."""
        sheet = self._host.order_views(self.name)
        if sheet.adjust_view is None:
            sheet.adjust_view = self._host.adjust_list(self.name)
            sheet.adjust_snap = list(sheet.adjust_view)
        return sheet.adjust_view

    @adjust.setter
    def adjust(self, value: Iterable[str]) -> None:
        self.adjust  # noqa: B018
        self._host.order_views(self.name).adjust_view = list(value)

    # --------------------------------------------------------------- MILA's methods

    def clear_units(self) -> None:
        sheet = self._host.sheet(self.name)
        sheet.units = []
        sheet.retreats = {}
        sheet.influence = []

    def clear_centers(self) -> None:
        self._host.sheet(self.name).centers = []

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
        power: Power = game.powers[self.name]
        return power

    def __reduce__(self) -> tuple[Any, ...]:
        return (power_of, (self.game, self.name))

    def __repr__(self) -> str:
        return f"Power({self.name!r}, units={self.units}, centers={self.centers})"


def power_of(game: Any, name: str) -> Power:
    """The power ``name`` of ``game`` (how a pickled power is found again)."""
    power: Power = game.powers[name]
    return power
