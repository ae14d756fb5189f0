"""One self-contained HTML page stepping through a game: the board, and its orders beside it.

No external files, scripts or fonts: the pictures are inline SVG and the script is a few lines.
``#N`` (a frame number from 0) or ``#S1901M`` in the address opens that phase.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from .frames import Frame
from .svg import CENTRES_WHEN, escape, phase_name

__all__ = ["CSP", "game_page"]

_STYLE = """
body { margin: 0; font-family: "DejaVu Sans", Verdana, sans-serif; background: #f3f1ea;
       color: #24303a; }
header { display: flex; align-items: center; gap: 12px; padding: 10px 16px; background: #24303a;
         color: #fff; }
header h1 { font-size: 18px; margin: 0 12px 0 0; font-weight: 600; }
header button { font-size: 15px; padding: 5px 14px; border-radius: 5px; border: 1px solid #889;
                background: #fff; cursor: pointer; }
header button:disabled { opacity: 0.4; cursor: default; }
header select { font-size: 14px; padding: 4px; }
#where { font-size: 14px; opacity: 0.85; }
main { display: flex; gap: 14px; padding: 12px; align-items: flex-start; }
.board { flex: 1 1 auto; min-width: 0; }
.board svg { width: 100%; height: auto; background: #fff; border-radius: 6px;
             box-shadow: 0 1px 4px rgba(0,0,0,.2); }
aside { flex: 0 0 340px; max-height: calc(100vh - 90px); overflow-y: auto; background: #fff;
        border-radius: 6px; padding: 10px 14px; box-shadow: 0 1px 4px rgba(0,0,0,.2);
        font-size: 13px; }
aside h2 { font-size: 15px; margin: 6px 0; }
aside h3 { font-size: 13px; margin: 10px 0 4px; }
aside ul { list-style: none; margin: 0; padding: 0; }
aside li { padding: 2px 0 2px 8px; border-left: 4px solid #ccc; margin: 2px 0; }
aside li .why { display: block; color: #6b7780; font-size: 11.5px; }
aside li.ok { border-left-color: #3a9a48; }
aside li.bad { border-left-color: #d0021b; }
aside li.implied { color: #6b7780; }
.frame[hidden] { display: none; }
"""

_SCRIPT = """
(function () {
  var frames = document.querySelectorAll('.frame');
  var phases = JSON.parse(document.getElementById('phases').textContent);
  var pick = document.getElementById('pick');
  var at = 0;
  function show(i) {
    at = Math.max(0, Math.min(frames.length - 1, i));
    for (var k = 0; k < frames.length; k++) { frames[k].hidden = (k !== at); }
    document.getElementById('prev').disabled = (at === 0);
    document.getElementById('next').disabled = (at === frames.length - 1);
    document.getElementById('where').textContent = (at + 1) + ' / ' + frames.length;
    pick.value = String(at);
    document.body.setAttribute('data-frame', String(at));
    if (history.replaceState) { history.replaceState(null, '', '#' + phases[at]); }
  }
  function fromHash() {
    var h = decodeURIComponent(location.hash.replace('#', ''));
    if (/^[0-9]+$/.test(h)) { return parseInt(h, 10); }
    var k = phases.indexOf(h.toUpperCase());
    return k < 0 ? 0 : k;
  }
  document.getElementById('prev').onclick = function () { show(at - 1); };
  document.getElementById('next').onclick = function () { show(at + 1); };
  pick.onchange = function () { show(parseInt(pick.value, 10)); };
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowLeft') { show(at - 1); }
    if (e.key === 'ArrowRight') { show(at + 1); }
  });
  window.addEventListener('hashchange', function () { show(fromHash()); });
  show(fromHash());
})();
"""


def _digest(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


#: The page's Content-Security-Policy: nothing loads from anywhere, and the only style and
#: script that run are the page's own (by hash), so no text copied from a game can act.
CSP = (
    f"default-src 'none'; style-src {_digest(_STYLE)}; script-src {_digest(_SCRIPT)}; "
    "img-src data:; base-uri 'none'; form-action 'none'"
)


def game_page(frames: Sequence[Frame], title: str = "diplo game") -> str:
    """The page for ``frames`` (see :func:`~diplo.render.frames.frames_of_game`)."""
    if not frames:
        raise ValueError("a game page needs at least one frame")
    keys = _keys(frames)
    options = "".join(
        f'<option value="{i}">{escape(f.title)}</option>' for i, f in enumerate(frames)
    )
    body: list[str] = []
    for i, frame in enumerate(frames):
        body.append(
            f'<section class="frame" data-phase="{escape(keys[i])}"{" hidden" if i else ""}>'
            f'<main><div class="board">{frame.svg(f"f{i}-")}</div>'
            f"<aside>{_orders_html(frame)}</aside></main></section>"
        )
    phases_json = json.dumps(keys).replace("</", "<\\/")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        f"<title>{escape(title)}</title>"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<style>{_STYLE}</style></head><body>"
        f"<header><h1>{escape(title)}</h1>"
        '<button id="prev" type="button">&#9664; Previous</button>'
        f'<select id="pick" aria-label="phase">{options}</select>'
        '<button id="next" type="button">Next &#9654;</button>'
        '<span id="where"></span></header>'
        + "".join(body)
        + f'<script type="application/json" id="phases">{phases_json}</script>'
        f"<script>{_SCRIPT}</script></body></html>\n"
    )


def _keys(frames: Sequence[Frame]) -> list[str]:
    """A name per frame for the address (``S1901M``; the final board is ``END``)."""
    keys: list[str] = []
    for frame in frames:
        key = str(frame.phase)
        keys.append(key if key not in keys else f"{key}-{len(keys)}")
    return keys


def _orders_html(frame: Frame) -> str:
    parts = [f"<h2>{escape(phase_name(frame.phase, frame.position.map.calendar.names))}</h2>"]
    # Which board and which centres the picture beside shows (its header says the same).
    when = "position" if not frame.results else "after" if frame.centers_after else "before"
    parts.append(f'<p class="shows">{escape(CENTRES_WHEN[when][0])}.</p>')
    if frame.note:
        parts.append(f"<p><b>{escape(frame.note)}</b></p>")
    if not frame.results:
        parts.append("<p>No orders: the board as it stands.</p>")
        return "".join(parts)
    by_power: dict[str, list[Mapping[str, Any]]] = {}
    for r in frame.results:
        by_power.setdefault(str(r.get("power") or "other"), []).append(r)
    powers = [p for p in frame.position.map.powers if p in by_power]
    powers += [p for p in by_power if p not in powers]
    for power in powers:
        parts.append(f"<h3>{escape(power.title())}</h3><ul>")
        for r in by_power[power]:
            code = str(r.get("code", ""))
            cls = "ok" if r.get("success") else "bad"
            if not r.get("given", True):
                cls += " implied"
            reason = str(r.get("reason", ""))
            parts.append(
                f'<li class="{cls}" data-code="{escape(code)}">{escape(str(r.get("order")))} '
                f"<b>{escape(code)}</b>"
                + (f'<span class="why">{escape(reason)}</span>' if reason else "")
                + "</li>"
            )
        parts.append("</ul>")
    if frame.dislodged:
        parts.append("<h3>Dislodged</h3><ul>")
        for d in frame.dislodged.values():
            where = ", ".join(d.options) if d.options else "nowhere: disbanded"
            parts.append(
                f'<li class="bad">{escape(str(d.piece))} may retreat to {escape(where)}</li>'
            )
        parts.append("</ul>")
    return "".join(parts)
