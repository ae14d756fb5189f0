"""``diplo adjudicate``: one phase as a JSON document in, the ruling out; ``--jsonl`` rules a
stream of documents, one line in, one line out (``docs/json-contract.md``)."""

from __future__ import annotations

import argparse
import json
import os
import select
import sys
from collections.abc import Iterator
from typing import Any, BinaryIO

from ..api.backends import BackendError, check_backend
from ..formats.contract import DocumentError, adjudicate_document, adjudicate_document_text
from ..model.limits import DOCUMENT_LIMIT, show
from ..model.map import Map, MapError, shipped_name
from ..model.rules import Rules, RulesError
from ..model.variants import add_variant_arguments, variant_arguments
from ..model.wording import BAD_INPUT, for_command_line
from ..model.wording import fail as _fail
from .common import INTERNAL_ERROR, contract_path
from .common import describe as _describe


def register(sub: Any) -> None:
    """Add ``diplo adjudicate`` to the command line."""
    adj = sub.add_parser(
        "adjudicate",
        help="rule on one phase given as JSON (see the JSON contract)",
        description="Rule on one phase given as a JSON document; print the ruling and the next "
        "position as JSON.",
        epilog=f"The documents are described in the JSON contract, shipped with the package: "
        f"{contract_path()}",
    )
    adj.add_argument("file", nargs="?", default="-", help="input document, '-' for stdin")
    adj.add_argument("--jsonl", action="store_true", help="one document per line in and out")
    adj.add_argument(
        "--backend",
        choices=("rust", "python"),
        default=None,
        help="rust (the engine) or python (the reference rules); default: the fastest built",
    )
    adj.add_argument(
        "--indent", type=int, default=None, help="pretty-print the output (not with --jsonl)"
    )
    add_variant_arguments(adj)
    adj.set_defaults(handler=_adjudicate)


def _adjudicate(args: argparse.Namespace) -> int:
    try:
        backend = None if args.backend is None else check_backend(args.backend)
        game_map, rules = variant_arguments(args)
    except (ValueError, MapError, RulesError) as exc:
        return _fail(str(exc))
    if args.jsonl and args.indent is not None:
        return _fail("--indent cannot be used with --jsonl (one output line per input line)")
    if args.indent is not None and not 0 <= args.indent <= 16:
        return _fail(f"--indent must be from 0 to 16, got {args.indent}")
    rule = _Variant(game_map, rules)
    source: BinaryIO
    if args.file == "-":
        source = sys.stdin.buffer
    else:
        try:
            source = open(args.file, "rb")  # noqa: SIM115
        except OSError as exc:
            return _fail(f"cannot read {args.file}: {exc.strerror}")
    with source:
        if args.jsonl:
            return _adjudicate_lines(source, backend, rule)
        data = source.read(DOCUMENT_LIMIT + 1)
    if len(data) > DOCUMENT_LIMIT:
        return _fail(f"the document is larger than the limit of {DOCUMENT_LIMIT} bytes")
    try:
        out = rule.adjudicate(_decode(data), backend)
    except BackendError as exc:
        return _fail(str(exc))
    except _InputError as exc:
        return _fail(str(exc))
    except DocumentError as exc:
        return _fail(f"bad document: {exc}")
    print(json.dumps(out, indent=args.indent))
    return 0


def run_jsonl(source: BinaryIO, backend: str | None = None) -> int:
    """``diplo adjudicate --jsonl [--backend B]`` on ``source``, writing to standard output: the
    stream the command rules (the bench's jsonl workload runs it in its own process)."""
    return _adjudicate_lines(
        source, None if backend is None else check_backend(backend), _Variant(None, None)
    )


class _Variant:
    """``--map`` and ``--rules`` of ``diplo adjudicate``: the map and rules of documents that
    name none. A document's own ``"rules"`` win; a document's own ``"map"`` must be the map
    ``--map`` gives (any other is refused, exit 2, or an error line with ``--jsonl``)."""

    def __init__(self, game_map: Map | None, rules: Rules | None) -> None:
        self.maps = None if game_map is None else {game_map.name: game_map}
        self.map_name = None if game_map is None else game_map.name
        self.rules = None if rules is None else rules.to_json()

    def _complete(self, doc: Any) -> Any:
        """``doc`` with ``--map`` and ``--rules`` filled in where it names none; a document
        that names another map than ``--map`` is refused (:class:`_InputError`): which of the
        two was meant cannot be told, and ruling on either would silently drop the other."""
        if not isinstance(doc, dict):
            return doc
        if self.map_name is not None:
            if "map" not in doc:
                doc = {**doc, "map": self.map_name}
            elif not self._same_map(doc["map"]):
                raise _InputError(
                    f"the document names the map {show(doc['map'])} but --map gives "
                    f'{self.map_name!r}: drop --map, or the document\'s "map", or make them agree'
                )
        if self.rules is not None and "rules" not in doc:
            doc = {**doc, "rules": self.rules}
        return doc

    def _same_map(self, named: Any) -> bool:
        if named == self.map_name:
            return True
        shipped = shipped_name(named)
        return shipped is not None and shipped == shipped_name(self.map_name)

    def adjudicate(self, doc: Any, backend: str | None) -> dict[str, Any]:
        return adjudicate_document(self._complete(doc), backend, self.maps)

    def adjudicate_text(self, doc: Any, backend: str | None) -> str:
        """:meth:`adjudicate` as one JSON line (``json.dumps`` of it, byte for byte)."""
        return adjudicate_document_text(self._complete(doc), backend, self.maps)


class _InputError(ValueError):
    """Input that is not a JSON document (encoding, syntax, depth, numbers)."""


def _decode(data: bytes) -> Any:
    """One JSON document from raw bytes, or :class:`_InputError` saying why not."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _InputError(
            f"not UTF-8: byte 0x{data[exc.start]:02x} at offset {exc.start}"
        ) from None
    if not text or text.isspace():  # (no copy of the line, as strip() made)
        raise _InputError("empty input (expected one JSON document)")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise _InputError(f"bad JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise _InputError("bad JSON: nested too deeply") from None
    except ValueError as exc:
        if "digits" in str(exc):  # Python reads integers of at most 4,300 digits
            raise _InputError("bad JSON: a number of more than 4300 digits") from None
        raise _InputError(f"bad JSON: {_describe(exc)}") from None


def _adjudicate_lines(source: BinaryIO, backend: str | None, rule: _Variant) -> int:
    """One output line per input line, whatever the line holds; errors name the line. A blank
    line (nothing but white space, as JSONL files often end) is answered with a blank line and
    is no error. When standard output is closed before every answer is written, the command
    says so on standard error and exits 1: answers were lost.

    Each answer is written as soon as it is ruled unless more input is already waiting (a
    complete line read ahead, or bytes in the pipe): then answers are gathered, up to
    :data:`_OUTPUT_BATCH` characters, and written together. A client that sends one document
    and waits gets its answer at once; a stream read as fast as it comes keeps batch
    throughput."""
    status = 0
    pending: list[str] = []  # output lines not written yet
    size = 0
    out = sys.stdout
    adjudicate = rule.adjudicate_text
    lines = _LineReader(source, DOCUMENT_LIMIT)
    for number, line in lines:
        try:
            if line is not None and (not line or line.isspace()):
                text = ""  # a blank line: a blank answer, so the lines still pair up
            elif line is None:
                raise _InputError(f"the line is longer than the limit of {DOCUMENT_LIMIT} bytes")
            else:
                text = adjudicate(_decode(line), backend)
        except BackendError as exc:  # --backend rust on a map past the engine's limits
            text = json.dumps({"error": f"line {number}: {exc}"})
            status = max(status, BAD_INPUT)
        except _InputError as exc:
            text = json.dumps({"error": f"line {number}: {exc}"})
            status = max(status, 1)
        except DocumentError as exc:
            text = json.dumps({"error": for_command_line(f"line {number}: bad document: {exc}")})
            status = max(status, 1)
        except Exception as exc:  # a bug: reported on its line, the stream goes on
            text = json.dumps({"error": f"line {number}: internal error: {_describe(exc)}"})
            status = INTERNAL_ERROR
        pending.append(text)
        size += len(text)
        if size >= _OUTPUT_BATCH or not lines.waiting():
            pending.append("")
            if not _deliver(out, "\n".join(pending), number):
                return 1
            pending.clear()
            size = 0
    if pending:
        pending.append("")
        if not _deliver(out, "\n".join(pending), number):
            return 1
    elif not _deliver(out, "", 0):
        return 1
    return status


def _deliver(out: Any, text: str, number: int) -> bool:
    """Write and flush ``text``; False (said on standard error) when standard output is closed."""
    try:
        out.write(text)
        out.flush()
    except BrokenPipeError:
        print(
            f"diplo: adjudicate --jsonl: standard output was closed; the answers up to line "
            f"{number} were not all delivered",
            file=sys.stderr,
        )
        # Nothing more reaches the closed pipe (Python would flush to it again on exit).
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, out.fileno())
        return False
    return True


#: Characters of output lines gathered at most before one write (about 16 movement documents).
_OUTPUT_BATCH = 1 << 17

#: Bytes read from the input at a time.
_CHUNK = 1 << 16


class _LineReader:
    """``(number, line)`` per input line split at LF only (a CR inside a line stays in it; a CRLF
    end is dropped), or ``(number, None)`` for a line longer than ``limit`` bytes, skipped in
    bounded chunks. Reads the file descriptor itself where there is one (so that
    :meth:`waiting` can tell whether more input has arrived), else the stream's ``read``."""

    def __init__(self, source: BinaryIO, limit: int) -> None:
        self.source = source
        self.limit = limit
        self.buf = bytearray()
        self.pos = 0  # where the next line starts in buf
        self.eof = False
        self.fd: int | None
        try:
            self.fd = source.fileno()
        except (AttributeError, OSError, ValueError):
            self.fd = None

    def _fill(self) -> bool:
        """Reads more input into the buffer; False at the end of the input."""
        if self.eof:
            return False
        if self.pos:
            del self.buf[: self.pos]
            self.pos = 0
        chunk = os.read(self.fd, _CHUNK) if self.fd is not None else self.source.read(_CHUNK)
        if not chunk:
            self.eof = True
            return False
        self.buf += chunk
        return True

    def waiting(self) -> bool:
        """Whether more input is already there: a complete line read ahead, or bytes ready to be
        read (only a descriptor can tell; without one, input is taken as waiting)."""
        if self.buf.find(b"\n", self.pos) >= 0:
            return True
        if self.eof:
            return False
        if self.fd is None:
            return True
        try:
            ready, _, _ = select.select([self.fd], [], [], 0)
        except (OSError, ValueError):  # (no select on this kind of descriptor)
            return False
        return bool(ready)

    def __iter__(self) -> Iterator[tuple[int, bytes | None]]:
        number = 0
        limit = self.limit
        buf = self.buf
        while True:
            end = buf.find(b"\n", self.pos)
            while end < 0 and len(buf) - self.pos <= limit:
                scanned = len(buf) - self.pos
                if not self._fill():
                    break
                end = buf.find(b"\n", self.pos + scanned)
            if end < 0 and self.pos == len(buf):
                return  # the end of the input
            number += 1
            if (end if end >= 0 else len(buf)) - self.pos > limit:
                # Longer than the limit: skipped to its end in bounded memory.
                while end < 0:
                    buf.clear()
                    self.pos = 0
                    if not self._fill():
                        break
                    end = buf.find(b"\n")
                self.pos = len(buf) if end < 0 else end + 1
                yield number, None
                continue
            if end < 0:  # a last line without LF
                line = bytes(buf[self.pos :])
                self.pos = len(buf)
            else:
                line = bytes(buf[self.pos : end])
                self.pos = end + 1
                if line.endswith(b"\r"):
                    line = line[:-1]
            yield number, line
