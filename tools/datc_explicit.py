#!/usr/bin/env python3
"""Write ``tests/datc/explicit.json``: the DATC fixture with its positions and codes made explicit.

The Rust tests (``rust/tests/datc.rs``) read it: they have no order parser for the DATC's prose
and no harness to work out the units a case implies, so this file gives them, per phase, the
whole starting position, every order in the canonical short form with its code-API code, and
the expected results (see :func:`diplo.apps.conformance.explicit_cases`). Regenerate it after
``tools/datc.py`` changed ``python/diplo/data/datc_cases.json``::

    python tools/datc_explicit.py            # regenerate
    python tools/datc_explicit.py --check    # exit 1 when it is stale

Needs diplo installed with its compiled core (the codes are the code API's).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CASES = REPO_ROOT / "python" / "diplo" / "data" / "datc_cases.json"
DEFAULT_OUT = REPO_ROOT / "tests" / "datc" / "explicit.json"


def render(cases_path: Path) -> str:
    from diplo.apps.conformance import explicit_cases, load_cases

    explicit = explicit_cases(load_cases(cases_path))
    # One case per line: small, and a change shows as the cases it touches.
    lines = ",\n".join(json.dumps(case, ensure_ascii=False) for case in explicit)
    return f"[\n{lines}\n]\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--cases", type=Path, default=DEFAULT_CASES, help="the DATC fixture")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the file to write")
    parser.add_argument(
        "--check", action="store_true", help="do not write; exit 1 when --out is stale"
    )
    args = parser.parse_args(argv)
    text = render(args.cases)
    if args.check:
        try:
            current = args.out.read_text(encoding="utf-8")
        except OSError:
            current = None
        if current != text:
            print(
                f"datc_explicit.py: {args.out} is stale; run python tools/datc_explicit.py",
                file=sys.stderr,
            )
            return 1
        print(f"{args.out}: up to date")
        return 0
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
