"""Run a harness written for MILA on the drop-in with no change to its code::

    python -m diplo.compat.mila.run harness.py [its arguments]        # ruled as MILA rules
    DIPLO_MILA_RULING=datc python -m diplo.compat.mila.run harness.py   # by diplo's, the DATC

MILA's module paths (``import diplomacy``, ``diplomacy.utils.export``,
``diplomacy.engine.renderer``, ...) answer with the drop-in's names
(:func:`diplo.compat.mila.install`), then the script runs as ``__main__``; ``-m module`` runs a
module instead of a file."""

from __future__ import annotations

import importlib.util
import runpy
import sys
from pathlib import Path

from . import install


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if args else 2
    install()
    if args[0] == "-m":
        if len(args) < 2:
            print("diplo.compat.mila.run: -m needs a module name", file=sys.stderr)
            return 2
        try:
            found = importlib.util.find_spec(args[1])
        except (ImportError, ValueError):
            found = None
        if found is None:
            print(f"diplo.compat.mila.run: no module named {args[1]}", file=sys.stderr)
            return 2
        sys.argv = args[1:]
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
    else:
        if not Path(args[0]).is_file():
            print(f"diplo.compat.mila.run: no such script: {args[0]}", file=sys.stderr)
            return 2
        sys.argv = args
        runpy.run_path(args[0], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
