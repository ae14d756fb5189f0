"""The Game: phase machine, history, immutability, civil disorder, resignation, draws."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from diplo.api.game import Game, GameOverError
from diplo.api.phase import process_phase
from diplo.model.map import Map
from diplo.model.position import Phase, Piece, Position


def random_orders(position: Position, power: str, rng: random.Random) -> list[str]:
    """A simple random order set: moves, supports of them, holds, retreats, builds, disbands.

    Deliberately independent of ``diplo.api.player`` so that these tests do not move when the bots
    change; ``test_gamefile`` also plays a game with ``diplo.api.player.RandomPlayer`` when present.
    """
    game_map = position.map
    kind = position.phase.kind
    orders: list[str] = []
    if kind == "M":
        # Half the units move at random; the others support one of those moves when they can
        # reach its destination (so attacks are often supported and units get dislodged).
        moves: dict[Piece, str] = {}
        others: list[Piece] = []
        for piece in position.units_of(power):
            if piece.type == "A":
                targets = sorted(game_map.army_neighbours(piece.province))
            else:
                targets = sorted(game_map.fleet_neighbours(piece.loc))
            if targets and rng.random() < 0.5:
                moves[piece] = rng.choice(targets)
            else:
                others.append(piece)
        for piece, dest in moves.items():
            orders.append(f"{piece} - {dest}")
        for piece in others:
            helpable = [
                (mover, dest)
                for mover, dest in moves.items()
                if game_map.can_reach(piece.type, piece.loc, game_map.province_of(dest))
                and game_map.province_of(dest) != piece.province
            ]
            if helpable and rng.random() < 0.8:
                mover, dest = rng.choice(helpable)
                orders.append(f"{piece} S {mover} - {dest}")
            else:
                orders.append(f"{piece} H")
    elif kind == "R":
        for d in position.dislodged.values():
            if d.piece.power == power:
                if d.options and rng.random() < 0.8:
                    orders.append(f"{d.piece} R {rng.choice(d.options)}")
                else:
                    orders.append(f"{d.piece} D")
    else:
        from diplo.reference.adjustments import adjustment_counts, build_sites

        count = adjustment_counts(position)[power]
        if count > 0:
            for site in build_sites(position, power)[:count]:
                kind_ = "A" if game_map.is_land(site) or rng.random() < 0.5 else "F"
                coasts = game_map.coasts_of(site)
                loc = rng.choice(coasts) if kind_ == "F" and coasts else site
                orders.append(f"{kind_} {loc} B")
        elif count < 0 and rng.random() < 0.7:
            units = position.units_of(power)
            rng.shuffle(units)
            orders += [f"{p} D" for p in units[:-count]]
    return orders


def play_random(game: Game, seed: int, *, until: Callable[[Game], bool] | None = None) -> Game:
    """Play ``game`` with random orders until it is over (or ``until`` says stop)."""
    rng = random.Random(seed)
    while not game.is_over and not (until and until(game)):
        for power in game.orderable_powers():
            game.set_orders(power, random_orders(game.position, power, rng))
        game.process()
    return game


# --------------------------------------------------------------------------- basics


def test_new_game_starts_in_spring_1901(game_map: Map) -> None:
    game = Game()
    assert str(game.phase) == "S1901M"
    assert game.position.to_json() == Position.initial(game_map).to_json()
    assert game.history == []
    assert not game.is_over and game.winner is None and not game.draw
    assert game.centers == {
        "AUSTRIA": 3,
        "ENGLAND": 3,
        "FRANCE": 3,
        "GERMANY": 3,
        "ITALY": 3,
        "RUSSIA": 4,
        "TURKEY": 3,
    }
    assert game.orderable_powers() == list(game_map.powers)


def test_process_records_the_phase_and_advances(backend: str) -> None:
    game = Game(backend=backend)
    game.set_orders("france", ["A PAR - BUR", "F BRE - MAO"])
    outcome = game.process()
    assert str(outcome.phase) == "S1901M"
    assert str(game.phase) == "F1901M"
    [record] = game.history
    assert record.orders == {"FRANCE": ("A PAR - BUR", "F BRE - MAO")}
    assert record.outcome is outcome
    assert game.position is outcome.next
    assert game.position.unit_at("BUR") == Piece("FRANCE", "A", "BUR")
    assert game.phase_results("S1901M") is outcome
    assert game.phase_results(Phase.parse("S1901M")) is outcome
    with pytest.raises(KeyError):
        game.phase_results("S1901R")
    # Orders of the processed phase are forgotten.
    assert game.orders == {}


def test_process_never_mutates_a_position_a_caller_holds(backend: str) -> None:
    game = Game(backend=backend)
    held = game.position
    before = held.to_json()
    play_random(game, 3, until=lambda g: g.phase.year > 1903)
    assert held.to_json() == before
    assert game.history[0].position is held
    # Every recorded position still reads as it did when its phase was played.
    for record, following in zip(game.history, game.history[1:], strict=False):
        assert record.outcome.next.to_json() == following.position.to_json()


def test_set_orders_checks_the_power_not_the_orders(backend: str) -> None:
    game = Game(backend=backend)
    with pytest.raises(ValueError, match="unknown power"):
        game.set_orders("PRUSSIA", ["A BER H"])
    game.set_orders("ENGLAND", ["A MOS - STP", "this is no order", 42])  # type: ignore[list-item]
    game.set_orders("ENGLAND", ["F LON - NTH"])  # replaces
    assert game.orders == {"ENGLAND": ["F LON - NTH"]}
    game.set_orders("GERMANY", ["A MUN - RUH", "gibberish"])
    outcome = game.process()
    bad = [r for r in outcome.results if not r.legal]
    assert [r.order for r in bad] == ["gibberish"]
    assert game.position.unit_at("NTH") is not None


def test_a_power_with_nothing_to_order_is_refused(game_map: Map, backend: str) -> None:
    units = {
        "PAR": Piece("FRANCE", "A", "PAR"),
        "BUR": Piece("GERMANY", "A", "BUR"),
        "PIC": Piece("GERMANY", "A", "PIC"),
    }
    game = Game.from_position(Position(game_map, Phase(1902, "F", "M"), units, {}), backend)
    assert game.orderable_powers() == ["FRANCE", "GERMANY"]
    with pytest.raises(ValueError, match="nothing to order"):
        game.set_orders("ITALY", ["A VEN H"])
    game.set_orders("GERMANY", ["A BUR - PAR", "A PIC S A BUR - PAR"])
    game.process()  # A PAR dislodged
    assert str(game.phase) == "F1902R"
    assert game.orderable_powers() == ["FRANCE"]
    with pytest.raises(ValueError, match="nothing to order"):
        game.set_orders("GERMANY", ["A PAR H"])


def test_clear_orders() -> None:
    game = Game()
    game.set_orders("ITALY", ["A VEN H"])
    game.set_orders("TURKEY", ["A CON H"])
    game.clear_orders("italy")
    assert list(game.orders) == ["TURKEY"]
    game.clear_orders()
    assert game.orders == {}


# --------------------------------------------------------------------------- the end of a game


def test_max_year_ends_in_a_draw_of_the_survivors(backend: str) -> None:
    game = play_random(Game(backend=backend, max_year=1902), 1)
    assert game.is_over and game.draw and game.end_reason == "max_year"
    assert game.winner is None
    assert game.history[-1].position.phase.year == 1902
    assert game.phase.year == 1903
    with pytest.raises(GameOverError):
        game.process()
    with pytest.raises(GameOverError):
        game.set_orders("FRANCE", [])
    assert game.orderable_powers() == []


def test_solo_victory_ends_the_game(game_map: Map, backend: str) -> None:
    # France holds 17 centres and takes an 18th in the fall.
    centres = sorted(game_map.centers)
    french = [c for c in centres if c not in ("MOS", "SEV", "STP", "WAR", "BEL")][:17]
    units = {"PIC": Piece("FRANCE", "A", "PIC")}
    centers = dict.fromkeys(french, "FRANCE")
    position = Position(game_map, Phase(1910, "F", "M"), units, centers)
    game = Game.from_position(position, backend=backend)
    game.set_orders("FRANCE", ["A PIC - BEL"])
    outcome = game.process()
    assert outcome.winner == "FRANCE"
    assert game.winner == "FRANCE" and game.end_reason == "solo" and not game.draw
    assert game.centers["FRANCE"] == 18
    assert game.is_over


# --------------------------------------------------------------------------- resignation


def test_a_resigned_power_holds_and_waives(backend: str) -> None:
    game = Game(backend=backend)
    game.resign("AUSTRIA")
    assert "AUSTRIA" in game.resigned and "AUSTRIA" not in game.orderable_powers()
    with pytest.raises(ValueError, match="resigned"):
        game.set_orders("AUSTRIA", ["A VIE H"])
    with pytest.raises(ValueError, match="already resigned"):
        game.resign("AUSTRIA")
    play_random(game, 11, until=lambda g: g.phase.year > 1904)
    austrian = {"A BUD", "A VIE", "F TRI"}
    for record in game.history:
        assert "AUSTRIA" not in record.orders
        if record.phase.kind == "M":
            for r in record.outcome.results:
                if r.power == "AUSTRIA":
                    # Every Austrian unit holds where it stands (or is dislodged there).
                    assert not r.given and r.order.endswith(" H")
                    assert r.unit in austrian
        if record.phase.kind == "A":
            for r in record.outcome.results:
                if r.power == "AUSTRIA":
                    assert not r.given  # waives or civil-disorder disbands
    # Austria is still on the board unless it was taken apart.
    assert all(p.province in {"BUD", "VIE", "TRI"} for p in game.position.units_of("AUSTRIA"))


def test_civil_disorder_disbands_follow_the_2023_rule(game_map: Map, backend: str) -> None:
    # Russia owns two centres and has four units; resigned, it loses the two farthest.
    units = {
        "MOS": Piece("RUSSIA", "A", "MOS"),
        "WAR": Piece("RUSSIA", "A", "WAR"),
        "BAR": Piece("RUSSIA", "F", "BAR"),
        "ARM": Piece("RUSSIA", "A", "ARM"),
    }
    centers = {"MOS": "RUSSIA", "WAR": "RUSSIA"}
    position = Position(game_map, Phase(1905, "W", "A"), units, centers)
    game = Game.from_position(position, backend=backend)
    game.resign("RUSSIA")
    outcome = game.process()
    expected = process_phase(position, {}, backend)
    assert [r.to_json() for r in outcome.results] == [r.to_json() for r in expected.results]
    assert sorted(game.position.units) == sorted(expected.next.units)
    assert len(game.position.units_of("RUSSIA")) == 2


def test_an_eliminated_power_cannot_resign(game_map: Map) -> None:
    units = {"PAR": Piece("FRANCE", "A", "PAR")}
    game = Game.from_position(Position(game_map, Phase(1901, "S", "M"), units, {}))
    with pytest.raises(ValueError, match="eliminated"):
        game.resign("ITALY")
    with pytest.raises(ValueError, match="unknown power"):
        game.resign("ATLANTIS")


# --------------------------------------------------------------------------- draws


def test_a_draw_needs_every_surviving_voter(backend: str) -> None:
    game = Game(backend=backend)
    game.resign("ITALY")
    assert "ITALY" not in game.voters()
    with pytest.raises(ValueError, match="no draw has been proposed"):
        game.vote_draw("FRANCE", True)
    assert game.propose_draw("FRANCE") is False
    assert game.draw_votes == {"FRANCE": True}
    with pytest.raises(ValueError, match="does not vote"):
        game.vote_draw("ITALY", True)
    for power in ("AUSTRIA", "ENGLAND", "GERMANY", "RUSSIA"):
        assert game.vote_draw(power, True) is False
    assert game.vote_draw("TURKEY", False) is False
    assert not game.is_over
    assert game.vote_draw("TURKEY", True) is True  # a power may change its mind
    assert game.is_over and game.draw and game.end_reason == "draw_vote"
    # Italy, resigned but on the board, shares the draw.
    assert "ITALY" in game.survivors
    with pytest.raises(GameOverError):
        game.process()


def test_a_proposal_lapses_when_the_phase_is_processed(backend: str) -> None:
    game = Game(backend=backend)
    game.propose_draw("ENGLAND")
    assert game.draw_proposed
    game.process()
    assert not game.draw_proposed and game.draw_votes == {}


def test_a_resignation_can_let_a_draw_pass(backend: str) -> None:
    game = Game(backend=backend)
    game.propose_draw("AUSTRIA")
    for power in ("ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA"):
        game.vote_draw(power, True)
    game.vote_draw("TURKEY", False)
    assert not game.is_over
    game.resign("TURKEY")
    assert game.is_over and game.draw
