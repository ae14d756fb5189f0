"""``diplo bench``: how fast diplo plays random Diplomacy, against itself and the MILA engine.

Ten workloads, each measured on every engine in the same run (the report is specified in
``../shared/spec/adjudicate-json.md``, "Reports", and ``docs/json-contract.md``):

``movement``
    Full-board movement phases with random legal orders: validation, resolution and the next
    position. The phases come from random self-play (``diplo play --seed S --max-year 1915``, then
    seeds S+1, S+2, ... until enough are found): the movement phases with at least 30 units, or the
    fullest ones when a few games do not have enough. Every unit's order was drawn uniformly from
    its legal orders by the game's :class:`~diplo.api.player.RandomPlayer`.
``strings``
    The movement phases of ``movement`` given as order strings in the canonical short form (what
    bots and servers send), every result read out with its reason sentence (the object API; MILA
    takes the same strings and rules in ``process()``).
``selfplay``
    The whole random self-play loop from S1901 to the end of ``max_year`` (or a solo victory):
    list the legal orders, choose one per unit, submit, process, every phase type. On the object
    API (:class:`~diplo.api.game.Game`) with order strings:
    :func:`diplo.api.legal.legal_order_texts` per orderable power, one random text per key,
    ``set_orders``, ``process``. Every engine plays the same game for a seed, the canonical one
    (:func:`selfplay_engines`): ``diplo-rust`` draws over where the canonical options stand in its
    own code lists, learnt before the clock; ``mila`` replays the game, taking each choice out of
    its own sorted lists and set back on the canonical game after a phase it rules otherwise (its
    departures from the DATC), untimed. Each run's final position is digested after the clock stops
    and the table shows one digest per engine (``final positions``): equal digests, the same games.
``jsonl``
    ``diplo adjudicate --jsonl`` on the movement phases as documents (position and order
    strings, one JSON line each): the whole command from text in to text out, on each backend
    (documents per second are ``1e6 / us_per_phase``).
``mila-api``
    The self-play loop of ``selfplay`` written against MILA's ``Game`` API (as the MILA corpus was
    played: ``get_all_possible_orders``, ``get_orderable_locations``, a sorted random choice per
    location, ``set_orders``, ``process``), run on :class:`diplo.compat.mila.Game` (engine
    ``diplo-compat``, under MILA's ruling, its default: the same games as MILA's) and on MILA
    itself: what a bot written for MILA gains by switching imports.
``mila-calls``
    Each call an LLM harness makes per phase through MILA's ``Game`` API (``get_state``, possible
    orders, orderable locations, ``map.abuts``/``loc_type``/``norm``, the phase history,
    ``add_message``, ``to_saved_game_format``, ``deepcopy``, ``set_orders``, ``process``), timed
    one by one on the drop-in and on MILA on the same states (seeded games played on MILA and
    replayed by both), and the harness's loop with no model (``harness-loop``,
    :mod:`.mila_calls`). Run only when asked for (``--workloads mila-calls``).
``batch``
    :func:`diplo.engine.codes.process_batch` over many independent movement phases, on 1 thread and
    on 2 threads (only when ``diplo.engine.codes`` is built). The orders go in the fastest public
    form: flat ``bytes`` of ``u32`` codes plus offsets, packed once by
    :func:`diplo.engine.codes.pack_orders` before any timing (as a bot would keep its codes in a
    buffer), so no per-code conversion happens while the GIL is held.
``rollouts``
    ``diplo rollouts`` with two workers writing game files (``rollouts-files``), the same writing
    only the dataset (``rollouts-dataset``), and the plain code-API loop on one core
    (``diplo-rust``), on the same games; ``us_per_phase`` is µs per game per core there
    (:mod:`diplo.rollouts.bench`; the workers' pool is started once, before the rounds, and
    kept, as a process running rollouts again keeps it). Run only when asked for
    (``--workloads rollouts``).
``vector``
    Random play through the vectorised environment (:class:`diplo.env.DiplomacyVectorEnv`,
    ``--vector-envs`` games to ``max_year``, restarted as they end; the NumPy
    :class:`~diplo.env.UniformPolicy` chooses, included in the time) on 1 thread
    (``diplo-vector-1thread``) and 2 (``diplo-vector-2threads``), against the PettingZoo
    environment's random loop of ``docs/env.md`` (``diplo-env``), the plain ``CodeGame`` loop
    (``diplo-rust``: a random code from each list as the engine lists it) and, when it is
    installed, MILA playing the corpus bot's random games of ``mila-api`` (``mila``), so that
    every ratio is read in one table; only with the ``env`` extra and ``diplo.engine.codes``.

``deepmind``
    DeepMind's ``DiplomacyState`` protocol per phase (``observation()``, ``legal_actions()``,
    ``step()``): :class:`diplo.env.deepmind.DiplomacyState` (``diplo-single``), the batched
    state on 1 and 2 threads (µs per game's phase), and the baseline, the protocol written on
    MILA the straightforward way with DeepMind's own ``mila_actions`` (``mila-deepmind``,
    :mod:`.deepmind_mila`; left out without MILA or their code, ``DIPLO_DEEPMIND=PATH``). The
    random picking of actions is not timed. Run only when asked for (``--workloads
    deepmind``).

Engines: ``diplo-python`` (:func:`~diplo.api.phase.process_phase` with the Python resolver,
:class:`~diplo.api.game.Game` for self-play), ``diplo-rust`` (the code API :mod:`diplo.engine.codes`
when it is built, else the same object API with the Rust resolver), ``diplo-rust-objects`` (the
object API with the Rust resolver, reported beside the code API when there is one) and ``mila``
(PyPI ``diplomacy`` 1.1.2, the optional extra ``compare``; left out when it is not installed).

What is timed: only the work named above. Inputs are built before the clock starts (positions and
orders, MILA games set to the position and deep-copied, fast games built and cloned); a MILA
movement phase is timed from ``set_orders`` (where MILA validates orders) to ``process()``, as
diplo's is from validation to the next position. Self-play games are created outside the timer.

How it is measured: the engines of a workload take turns, round after round (the first engine
of the turn rotates), so that a noisy shared machine slows them alike. In its turn an engine runs
its work once, or as many times as it takes to last 20 ms (so that the code API is not timed on
its cold start alone, see :func:`measure`). ``us_per_phase`` is the median over the rounds of
each turn's microseconds per phase; ``phases`` and ``seconds`` are the totals over all rounds.

The package, by concern: :mod:`.engines` (the engines, the optional ones found here),
:mod:`.inputs` (the phases and games measured on), :mod:`.measure` (the timing),
:mod:`.movement`, :mod:`.selfplay`, :mod:`.mila_api`, :mod:`.mila_calls`, :mod:`.vector`,
:mod:`.deepmind` and :mod:`.deepmind_mila` (the workloads' engines), :mod:`.settings`,
:mod:`.runner` (running the workloads asked for), :mod:`.report` (the JSON report and the
table) and :mod:`.cli` (the command).
"""

from __future__ import annotations

from .cli import register, run
from .engines import (
    ENGINES,
    MILA_MISSING,
    CodeGame,
    codes_module,
    mila_module,
    missing_engines,
    optional_module,
)
from .inputs import (
    FULL_BOARD,
    MovementPhase,
    RecordedGame,
    position_digest,
    prepare_movement_phases,
    record_game,
)
from .measure import MIN_RUN_SECONDS, BenchError, Engine, Measurement, RunCheck, measure
from .mila_api import (
    api_floor_engine,
    code_selfplay_engine,
    mila_api_engines,
    mila_bot,
    mila_selfplay_engine,
)
from .movement import (
    batch_engines,
    external_engines,
    jsonl_engines,
    movement_engines,
    slot_codes,
    strings_engines,
)
from .report import Report, ratios
from .runner import run_benchmarks
from .selfplay import canonical_code_engine, compact, selfplay_engines
from .settings import DEFAULT_WORKLOADS, DESCRIPTIONS, REFERENCE, WORKLOADS, Settings
from .vector import VECTOR_STEPS, vector_engines

__all__ = [
    "DEFAULT_WORKLOADS",
    "DESCRIPTIONS",
    "ENGINES",
    "FULL_BOARD",
    "MILA_MISSING",
    "MIN_RUN_SECONDS",
    "REFERENCE",
    "VECTOR_STEPS",
    "WORKLOADS",
    "BenchError",
    "CodeGame",
    "Engine",
    "Measurement",
    "MovementPhase",
    "RecordedGame",
    "Report",
    "RunCheck",
    "Settings",
    "api_floor_engine",
    "batch_engines",
    "canonical_code_engine",
    "code_selfplay_engine",
    "codes_module",
    "compact",
    "external_engines",
    "jsonl_engines",
    "measure",
    "mila_api_engines",
    "mila_bot",
    "mila_module",
    "mila_selfplay_engine",
    "missing_engines",
    "movement_engines",
    "optional_module",
    "position_digest",
    "prepare_movement_phases",
    "ratios",
    "record_game",
    "register",
    "run",
    "run_benchmarks",
    "selfplay_engines",
    "slot_codes",
    "strings_engines",
    "vector_engines",
]
