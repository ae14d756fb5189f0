"""Phase summaries, as the fork of MILA that LLM-agent harnesses vendor (GoodStartLabs'
AI_Diplomacy) offers them: ``Game.process(phase_summary_callback=...)`` hands the callback a
system prompt and a description of the phase just ruled, and keeps its answer in
``Game.phase_summaries`` and the phase's ``GamePhaseData.summary``. The wording is diplo's own.
"""

from __future__ import annotations

from typing import Any, Final

from .._press import GamePhaseData

__all__ = ["SUMMARY_SYSTEM_PROMPT", "summary_prompt"]

#: What the callback is told its task is.
SUMMARY_SYSTEM_PROMPT: Final = (
    "You summarise one phase of a game of Diplomacy for the players. Say briefly how the board "
    "changed, which orders failed and why (a bounce, a cut support, a void order, a dislodged "
    "unit), and which supply centres changed hands. Answer with a JSON object whose key "
    '"summary" holds the text.'
)


def _lines(title: str, table: Any) -> str:
    if not isinstance(table, dict) or not table:
        return f"{title}: none"
    return f"{title}:\n" + "\n".join(f"  {key}: {value}" for key, value in table.items())


def summary_prompt(phase: GamePhaseData) -> str:
    """The description of ``phase`` (a processed phase: its state before, orders and results)
    the callback summarises."""
    orders = "\n".join(
        f"  {power}: {', '.join(texts) if texts else 'no orders'}"
        for power, texts in phase.orders.items()
    )
    results = "\n".join(
        f"  {unit}: {', '.join(str(r) for r in labels) or 'succeeded'}"
        for unit, labels in phase.results.items()
    )
    state = phase.state
    return "\n\n".join(
        [
            f"Phase {phase.name}.",
            "Orders:\n" + (orders or "  none"),
            "Results:\n" + (results or "  none"),
            _lines("Units before the phase", state.get("units")),
            _lines("Supply centres before the phase", state.get("centers")),
            _lines("Retreats before the phase", state.get("retreats")),
        ]
    )
