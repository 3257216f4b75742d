"""``python -m interpreter.accel build|clean|status``: the compiled tier (interpreter/accel)."""
from __future__ import annotations

import argparse
import sys

from . import MODULES, built, install, stale, tier


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m interpreter.accel",
                                 description="Build, remove or show the optional compiled tier of the engine.")
    sub = ap.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="compile the engine's hot modules into interpreter/accel/built (needs a C compiler and Cython)")
    b.add_argument("--tool", choices=("cython", "mypyc"), default="cython")
    b.add_argument("--modules", nargs="+", choices=MODULES, default=list(MODULES), metavar="MODULE")
    b.add_argument("--jobs", type=int, default=2)
    b.add_argument("--verbose", action="store_true", help="show the compiler's output")
    sub.add_parser("clean", help="delete the built modules (and any built in place beside their sources): the pure-Python engine runs")
    sub.add_parser("status", help="which tier this Python loads, module by module")
    args = ap.parse_args(argv)
    from .build import BuildError, build, clean
    if args.command == "build":
        try:
            build(args.modules, args.tool, args.jobs, args.verbose)
        except BuildError as e:
            print(f"rulebook: the compiled tier was not built: {e}", file=sys.stderr)
            return 1
        install()   # (no module of the engine is loaded yet in this process: the tier is the build's)
        print(f"built {len(args.modules)} modules with {args.tool}: {tier()}")
    elif args.command == "clean":
        print(f"removed {len(clean())} built files: {tier()}")
    else:
        print(tier())
        old = stale()
        for m in MODULES:
            ext = built(m)
            print(f"  {m}: {'pure' if ext is None else ext.name + (' (stale: runs as Python)' if m in old else '')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
