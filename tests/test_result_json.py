"""One writer of a result's JSON per language: :meth:`diplo.model.results.Result.to_json` (the
dict: the contract's ``results`` entries) and, for the engine's fast paths that write text,
:func:`diplo.model.results.legal_result_text` in Python and ``game_file::result_start`` /
``result_end`` in Rust, each byte for byte ``json.dumps`` of that dict. The Python writer is
held to it here on drawn values; the Rust one by ``tests/test_engine.py`` (``to_json_text``
against the reference's ``json.dumps``) and the rollout tests (game files against
``gamefile.to_json``)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from diplo.apps.peers.common import result_entry
from diplo.model.results import Result, legal_result_text

# Names on a plain-named map: printable ASCII without quote or backslash.
NAME = st.text(st.characters(min_codepoint=32, max_codepoint=126, exclude_characters='"\\'))
CODES = st.sampled_from(["ok", "bounce", "cut", "dislodged", "no_convoy", "void"])


@given(
    NAME,
    st.none() | NAME,
    NAME,
    st.booleans(),
    st.booleans(),
    CODES,
    st.text(),
    st.none() | NAME,
)
def test_the_text_writer_writes_what_json_dumps_writes_of_the_dict(
    power: str,
    unit: str | None,
    order: str,
    given_: bool,
    success: bool,
    code: str,
    reason: str,
    dislodged_by: str | None,
) -> None:
    result = Result(power, unit, order, given_, True, success, code, reason, dislodged_by)
    text = legal_result_text(
        power, unit, order, given_, success, code, json.dumps(reason), dislodged_by
    )
    assert text == json.dumps(result.to_json())


def test_a_peer_s_entry_is_the_result_s_dict() -> None:
    entry = result_entry("FRANCE", "A PAR", "A PAR - BUR", True, True, "ok", "moved")
    assert list(entry) == ["power", "unit", "order", "given", "legal", "success", "code", "reason"]
    refused = result_entry("FRANCE", "A PAR", "A PAR - MOS", False, True, "ok", "not adjacent")
    assert (refused["legal"], refused["success"], refused["code"]) == (False, False, "illegal")
