"""``diplo render`` (JSON -> SVG pictures) and ``diplo view`` (game file -> one HTML page)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..model.map import Map, MapError
from ..model.position import Phase, PositionError
from ..model.variants import add_map_argument, map_argument
from ..model.wording import count, fail
from .frames import Frame, RenderError, frames_from_document
from .geometry import GeometryError
from .html import game_page


def register(sub: Any) -> None:
    render = sub.add_parser(
        "render",
        help="draw a position, a contract output or a game file as SVG",
        description=(
            "Draw the board as SVG: a position or input document (with 'orders' the phase is "
            "adjudicated and the ruling drawn), an output document of 'diplo adjudicate', or a "
            "game file (one picture per phase and one of the final board)."
        ),
    )
    render.add_argument("file", help="JSON document, '-' for stdin")
    render.add_argument(
        "-o",
        "--output",
        default=None,
        help="SVG file to write (default stdout); for several pictures, a directory that gets "
        "one file per phase (NNN-S1901M.svg)",
    )
    render.add_argument(
        "--phase",
        default=None,
        help="draw only this phase of a game file (e.g. F1903M, or 'last' for the final board)",
    )
    add_map_argument(render, "the map the document names")
    _add_no_verify(render)
    render.set_defaults(handler=_render)

    view = sub.add_parser(
        "view",
        help="write one self-contained HTML page stepping through a game file",
        description=(
            "Write one HTML page with every phase of the game drawn, previous/next buttons (and "
            "the arrow keys), and the orders with their results beside the board."
        ),
    )
    view.add_argument("file", help="a game file (or any document 'diplo render' reads)")
    view.add_argument(
        "-o", "--output", default=None, help="HTML file to write (default: FILE with .html)"
    )
    view.add_argument("--title", default=None, help="page title (default: the file name)")
    add_map_argument(view, "the map the game file names")
    _add_no_verify(view)
    view.set_defaults(handler=_view)


def _fail(message: str) -> int:
    return fail(message)


def _add_no_verify(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-verify",
        action="store_true",
        help="draw a game file's rulings as it records them, without replaying them",
    )


def _frames(path: str, map_arg: str | None, verify: bool = True) -> list[Frame]:
    """The pictures of the document at ``path``; ``--map`` supplies a map the document names
    that is not shipped (a game file carries its own such map)."""
    maps: dict[str, Map] | None = None
    try:
        extra = map_argument(map_arg)
    except MapError as exc:
        raise RenderError(f"--map: {exc}") from exc
    if extra is not None:
        maps = {extra.name: extra}
    try:
        raw = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as exc:
        raise RenderError(f"cannot read {path}: {exc.strerror or exc}") from exc
    doc = read_json(raw, path)
    if extra is not None and isinstance(doc, dict) and "map" not in doc:
        doc = {**doc, "map": extra.name}  # --map: the map of a document that names none
    return frames_from_document(doc, maps, verify=verify)


def read_json(raw: bytes, path: str) -> Any:
    """A JSON document from ``raw`` bytes; anything that is not one (not UTF-8, bad JSON,
    nested too deeply, a number too long to read) is a :class:`RenderError` naming ``path``."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RenderError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RenderError(f"{path}: bad JSON: {exc.msg} at line {exc.lineno}") from None
    except RecursionError:
        raise RenderError(f"{path}: bad JSON: nested too deeply") from None
    except ValueError as exc:  # an integer of too many digits
        raise RenderError(f"{path}: bad JSON: {exc}") from None


def _select(frames: list[Frame], phase: str) -> Frame:
    if phase.lower() == "last":
        return frames[-1]
    try:
        wanted = Phase.parse(phase)
    except PositionError as exc:
        raise RenderError(str(exc)) from exc
    for frame in frames:
        if frame.phase == wanted and frame.results:
            return frame
    for frame in frames:
        if frame.phase == wanted:
            return frame
    have = ", ".join(str(f.phase) for f in frames[:8]) + (" ..." if len(frames) > 8 else "")
    raise RenderError(f"no phase {wanted} in this document (it has {have})")


def _render(args: argparse.Namespace) -> int:
    try:
        frames = _frames(args.file, args.map, not args.no_verify)
        if args.phase is not None:
            frames = [_select(frames, args.phase)]
        if len(frames) == 1:
            svg = frames[0].svg()
            if args.output is None or args.output == "-":
                sys.stdout.write(svg + "\n")
            else:
                Path(args.output).write_text(svg + "\n", encoding="utf-8")
            return 0
        if args.output is None or args.output == "-":
            raise RenderError(
                f"this document has {len(frames)} pictures: name a directory with -o, "
                "or one phase with --phase"
            )
        target = Path(args.output)
        if target.suffix.lower() == ".svg" or (target.exists() and not target.is_dir()):
            raise RenderError(
                f"this document has {len(frames)} pictures and -o {args.output} names one file: "
                "name a directory for one file per phase, or one phase with --phase"
            )
        target.mkdir(parents=True, exist_ok=True)
        for index, frame in enumerate(frames):
            name = f"{index:03d}-{frame.phase}{'-end' if not frame.results else ''}.svg"
            (target / name).write_text(frame.svg() + "\n", encoding="utf-8")
        print(f"wrote {count(len(frames), 'picture')} to {target}")
        return 0
    except (RenderError, GeometryError) as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"cannot write {args.output}: {exc.strerror}")


def _view(args: argparse.Namespace) -> int:
    try:
        frames = _frames(args.file, args.map, not args.no_verify)
        title = args.title or ("diplo game" if args.file == "-" else Path(args.file).name)
        page = game_page(frames, title)
        if args.output is not None:
            output = Path(args.output)
        elif args.file == "-":
            raise RenderError("reading stdin: name the page to write with -o")
        else:
            output = Path(args.file).with_suffix(".html")
        output.write_text(page, encoding="utf-8")
        print(f"wrote {output} ({count(len(frames), 'picture')})")
        return 0
    except (RenderError, GeometryError) as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"cannot write: {exc.strerror}")
