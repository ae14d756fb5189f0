"""The drop-in's ``Game``: MILA's ``diplomacy.Game`` API, ruled by diplo (see
:mod:`diplo.compat.mila`), made of the parts in the modules beside this one."""

from __future__ import annotations

import copy as _copy
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ...engine import mila as engine
from ...engine.codes import position_from_state
from ...formats.mila import position_to_mila
from .._map import mila_map_for
from .._press import Clock, History
from .base import GameBase, map_named
from .board import Board
from .boards import python_lists
from .convoys import convoy_fleets, convoy_reach, convoyer_reach, lost_centres
from .history import Histories
from .intake import OrderIntake
from .order import Lists, lists_of
from .powers import Power
from .press import Press
from .records import Record
from .turn import tables_of

__all__ = ["Game"]


class Game(Press, Board, OrderIntake, Histories, GameBase):
    """A game on MILA's API, ruled by diplo (see the module documentation).

    ``map_name`` names a shipped map (``"standard"``, or a variant such as ``"pure"`` or
    ``"ancmed"``, as :func:`diplo.model.map.map_named` reads it, or MILA's name of it; an unknown
    name raises :class:`MilaError`); ``game_id``, ``rules`` (MILA's rule names; ``NO_CHECK`` keeps
    movement orders unchecked until processing, as MILA does) and MILA's other keywords are kept.
    ``ruling`` is the ruling the engine plays under, MILA's unless told otherwise: a
    :class:`diplo.model.rules.Rules`, or a name (``"datc"``: diplo's rulings by the DATC v3.0;
    ``"mila"``); not given, ``DIPLO_MILA_RULING`` or :func:`set_default_ruling` may choose
    (:mod:`~diplo.compat.mila.ruling`).
    """

    __slots__ = ("map",)  # the one attribute read per map query: a slot, as MILA's Game has

    __module__ = "diplo.compat.mila"  # where MILA's users (and pickles) find it

    def render(
        self,
        incl_orders: bool = True,
        incl_abbrev: bool = False,
        output_format: str = "svg",
        output_path: str | None = None,
    ) -> str:
        """The board as SVG text, drawn by diplo's renderer (:mod:`diplo.render`), with the
        orders given so far when ``incl_orders``; written to ``output_path`` too when given.
        Only ``output_format='svg'`` is offered (else ``ValueError``)."""
        del incl_abbrev
        if output_format != "svg":
            raise ValueError(f"render: output_format must be 'svg', got {output_format!r}")
        from ...render.svg import board_svg

        self._sync()
        position = position_from_state(self._map, self._core.state(), self._core_rules())
        results: list[dict[str, Any]] = []
        if incl_orders:
            for power, texts in self.get_orders().items():
                results.extend({"power": power, "order": t} for t in texts)
        svg = board_svg(position, results, title=self.get_current_phase())
        if output_path is not None:
            Path(output_path).write_text(svg, encoding="utf-8")
        return svg

    # ------------------------------------------------------------------ MILA's inner names

    def _abuts(self, unit_type: str, unit_loc: str, order_type: str, other_loc: str) -> int:
        """1 when the map lets ``unit_type`` at ``unit_loc`` move to, support into or convoy
        to ``other_loc`` (MILA's ``Game._abuts``, which asks ``map.abuts``), else 0."""
        return 1 if self.map.abuts(unit_type, unit_loc, order_type, other_loc) else 0

    def _get_convoy_destinations(
        self,
        unit: str,
        start: str,
        unit_is_convoyer: bool = False,
        exclude_convoy_locs: Iterable[str] | None = None,
    ) -> list[str]:
        """Where an army at ``start`` can be convoyed by the fleets now at sea (MILA's
        ``Game._get_convoy_destinations``: ``unit`` ``'A'``), or, with ``unit_is_convoyer``,
        where a fleet at ``start`` helps convoy an army (``unit`` ``'F'``); fleets at
        ``exclude_convoy_locs`` left out; MILA's chains of at most 13 fleets; sorted (MILA's
        order is its sets')."""
        if (unit == "A") == bool(unit_is_convoyer):
            return []
        fleets = convoy_fleets(self)
        fleets -= {str(x).upper() for x in exclude_convoy_locs or ()}
        if not unit_is_convoyer:
            return sorted(convoy_reach(self.map, str(start).upper(), fleets))
        return sorted(convoyer_reach(self.map, str(start).upper(), fleets))

    @property
    def lost(self) -> dict[str, Power]:
        """The supply centres that changed hands as the game last went into a winter (MILA's
        ``Game.lost``): centre -> the power (object) that owned it before."""
        return lost_centres(self)

    # ------------------------------------------------------------------ copies

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        self._sync()
        new = Game.__new__(Game)
        memo[id(self)] = new
        new.__dict__.update(self.__dict__)
        new.map = self.map
        new.rules = list(self.rules)
        new.error = list(self.error)
        new._records = [r.copy() for r in self._records]
        # The records that MILA's list order is still to be worked out from: the copy's own.
        copied = {id(r): n for r, n in zip(self._records, new._records, strict=True)}
        for made in new._records:
            if isinstance(made.lists, Record):
                made.lists = copied.get(id(made.lists), made.lists)
        if isinstance(new._mila_lists, Record):
            new._mila_lists = copied.get(id(new._mila_lists), new._mila_lists)
        new.messages = History({t: m.copy() for t, m in self.messages.items()})
        new._clock = Clock(self._clock.last)
        new._extra = _copy.deepcopy(self._extra, memo) if self._extra else {}
        new.phase_summaries = dict(self.phase_summaries)
        new.power_model_map = dict(self.power_model_map)
        new._outcome = list(self._outcome)
        new._core = self._core.clone()
        if self._turn_cache is not None:  # the phase's texts are shared; its engine is the copy's
            turn = new._turn_cache = _copy.copy(self._turn_cache)
            turn.core = new._core
            turn.spare = None  # the original's to hand out
        new._orders = {p: dict(o) for p, o in self._orders.items()}
        new._powers = {p: Power(new, p) for p in self._map.powers}
        new._loaded = set()
        new._orders_loaded = set()
        new._doc_cache = None
        new._bump()
        if self._loaded:  # lists that a position cannot hold (a dislodged unit in movement)
            for name in self._loaded:
                mine, theirs = self._powers[name], new._powers[name]
                theirs._units, theirs._centers = list(mine._units), list(mine._centers)
                theirs._homes, theirs._influence = list(mine._homes), list(mine._influence)
                theirs._retreats = {u: list(o) for u, o in mine._retreats.items()}
                theirs._stamp()
        return new

    def __getstate__(self) -> dict[str, Any]:
        """The game as plain data: the engine's raw state, the history, the orders and press
        (the engine object itself does not pickle)."""
        self._sync()
        for record in self._records:  # worked out now: the engine's rulings do not pickle
            if record.state is not None:
                self._results(record)
        for record in self._records:  # the states in MILA's order (the records' links do not)
            self._state_of(record)
        self._engine_doc()  # the current board's MILA order, made
        state = {
            k: v
            for k, v in self.__dict__.items()
            if k
            not in (
                "_core",
                "_turn_cache",
                "_doc_cache",
                "_hash_kept",
                "_made_tables",
                "_unfit",
                "_map",
                "_tables",
                "_powers",
                "_loaded",
                "_orders_loaded",
                "map",
            )
        }
        if isinstance(self._mila_lists, engine.MilaBoard):  # the engine's do not pickle
            state["_mila_lists"] = python_lists(self._engine_tables(), self._mila_lists)
        state["_core_state"] = self._core.state()
        state["_max_year"] = self._core.max_year
        state["_lists"] = {
            n: (p._units, p._retreats, p._centers, p._homes, p._influence)
            for n, p in self._powers.items()
            if n in self._loaded
        }
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        lists = state.pop("_lists")
        core_state = state.pop("_core_state")
        max_year = state.pop("_max_year")
        state.setdefault("phase_summaries", {})
        state.setdefault("power_model_map", {})
        self.__dict__.update(state)
        self._map = mila_map_for(self.map_name)
        self.map = map_named(self.map_name)
        self._tables = tables_of(self._map)
        self._powers = {p: Power(self, p) for p in self._map.powers}
        self._loaded = set()
        self._orders_loaded = set()
        position = position_from_state(self._map, core_state, self._core_rules())
        self._core = engine.new_game(position, max_year)
        for record in self._records:
            if record.results is None and record.state is not None:
                # Pickled by an earlier release, which worked results out only when asked:
                # the engine rules the kept orders now (the one phase ruled here, not at play).
                kept = position_from_state(self._map, record.state, self._core_rules())
                record.verdict = engine.rule_kept(kept, record.orders)
        self._turn_cache = None
        self._doc_cache = None
        if not isinstance(self.__dict__.get("_mila_lists"), Lists):  # an earlier release's
            self._mila_lists = lists_of(position_to_mila(position), self._map.powers)
        self._bump()
        for name, (units, retreats, centers, homes, influence) in lists.items():
            power = self._powers[name]
            power._units, power._retreats, power._centers = units, retreats, centers
            power._homes, power._influence = homes, influence
            power._stamp()

    def __repr__(self) -> str:
        return f"<diplo.compat.mila.Game {self.game_id} {self.get_current_phase()}>"
