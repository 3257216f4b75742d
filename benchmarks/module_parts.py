#!/usr/bin/env python3
"""What the generated module's bookkeeping costs: a ruleset's games counted by valgrind with one
kind of bookkeeping line taken out of its module, against the module as it is.

    python benchmarks/module_parts.py [--game mister_diamond] [--games 10] [--seed 1] [--only PART]
    python benchmarks/module_parts.py --module GENERATED EDITED [--games 200 --no-gc]

The games are those of ``versus_handwritten.py --instructions`` (the interpreter's side: game
``g`` from the seed ``seed + g``, each option drawn by its own ``random.Random(seed + g)``), so a
part's figure reads against the hand-written program's. Each variant is the module's source with
a text replaced before it is compiled (``building/flowmodule.py``'s ``compiled``, patched in the
child): a what-if, not an engine (without its budget a game that never ends would hang), so it
only runs games that never reach the budget, and each variant must play the same games (the
same decisions a game; a variant that does not is reported and not counted). The parts:

- ``counts``: every ``S.steps += n`` (the step budget's counts: a trip of the loop, a card moved);
- ``tests``: every test of the budget (``if S.steps > n``);
- ``budget``: both;
- ``hooks``: the tests of the event record, the knowledge record and copy-on-write
  (``S.ev``, ``S.kn``, ``S.sh``: none is on in these games, so the lines they guard never run);
- ``knowledge``: the knowledge record's tests alone (``S.kn``), each followed by the event
  record's at a move: the bound of what one test for the two at a move could spare;
- ``tuple``: the options of a question copied to a tuple (``S.dec = (seat, tuple(options))``),
  the list handed over as it is: the bound of what a question handing over its options could
  spare (unsafe: a reader keeping the options would see the list change).

``--module GENERATED EDITED`` counts instead the module's whole text replaced by a copy edited by
hand (``GENERATED``: what ``python -m interpreter compile rulesets/G.yaml -o GENERATED --force``
wrote, which the child checks it is about to compile; ``EDITED``: the same, edited): the bound of
a change of the generators, measured before it is built. ``--no-gc``: the collector off in every
child (after ``settle()``), as a layout's young collections at other moments otherwise move a
count: an edit of code that never runs moved Mister Diamond's by -0.36% with it on, +0.07% off.

Counted as benchmarks/instructions.py counts (``per_game``): a child with N games less one with
none, divided by N, each variant with its own pair of children (its module compiled in both).
Needs valgrind; about 30 s a part.
"""
from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE)]

from instructions import per_game as instructions_per_game  # noqa: E402  (the same child settings as instructions.py)
from versus_handwritten import _child  # noqa: E402  (the interpreter's games of versus_handwritten)

# part -> ((regular expression, replacement), ...) applied to the module's source
PARTS = {
    "counts": ((r"S\.steps \+= [^\n;]+", "pass"),),
    "tests": ((r"if S\.steps > \d+:", "if False:"),),
    "budget": ((r"S\.steps \+= [^\n;]+", "pass"), (r"if S\.steps > \d+:", "if False:")),
    "hooks": ((r"if S\.ev is not None", "if False"), (r"if S\.kn is not None", "if False"),
              (r"if S\.sh:", "if False:")),
    "knowledge": ((r"if S\.kn is not None", "if False"),),
    "tuple": ((r"S\.dec = \((\w+), tuple\((\w+)\)\)", r"S.dec = (\1, \2)"),),
}

PATCH = """
import re
import interpreter.building.flowmodule as _flowmodule
_compiled, _replaced = _flowmodule.compiled, {replaced!r}
def _variant(source, filename, mode):
    if filename.startswith("<module "):
        for pattern, text in _replaced:
            source = re.sub(pattern, text, source)
    return _compiled(source, filename, mode)
_flowmodule.compiled = _variant
"""


# --module: the module's whole text replaced by an edited copy, once it is checked to be the one edited
WHOLE = """
import interpreter.building.flowmodule as _flowmodule
_compiled = _flowmodule.compiled
with open({generated!r}) as _f, open({edited!r}) as _g:
    _generated, _edited = _f.read(), _g.read()
def _variant(source, filename, mode):
    if filename.startswith("<module "):
        if source.rstrip() != _generated.rstrip():
            raise SystemExit("the module generated is not the one the edited copy was made from: "
                             "write it again (python -m interpreter compile ... --force) and edit that")
        source = _edited
    return _compiled(source, filename, mode)
_flowmodule.compiled = _variant
"""
NO_GC = "import gc\ngc.disable()\n"   # (settle()'s gc.collect() still runs: it is called explicitly)


def child(game: str, games: int, seed: int, replaced: tuple, module: tuple | None = None,
          no_gc: bool = False) -> str:
    """The interpreter's child of versus_handwritten.py, its module's source ``replaced``, or
    with ``module`` (generated, edited: two files) its whole text replaced by the edited one."""
    code = _child("interpreter", game, games, seed)
    head, sep, rest = code.partition("import interpreter\n")
    patch = WHOLE.format(generated=module[0], edited=module[1]) if module else PATCH.format(replaced=replaced)
    return head + sep + (NO_GC if no_gc else "") + patch + rest


def per_game(game: str, games: int, seed: int, replaced: tuple, module: tuple | None = None,
             no_gc: bool = False) -> tuple[float, float]:
    """(instructions a game, decisions a game) of the games with the module's source ``replaced``
    (or replaced by an edited copy, ``module``)."""
    return instructions_per_game(lambda n: child(game, n, seed, replaced, module, no_gc), games)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="mister_diamond", help="a bundled ruleset (mister_diamond)")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", choices=sorted(PARTS), action="append", help="count this part only (repeatable)")
    ap.add_argument("--module", nargs=2, metavar=("GENERATED", "EDITED"),
                    help="count the module's text replaced by EDITED, a copy of GENERATED edited by hand, instead")
    ap.add_argument("--no-gc", action="store_true", help="the collector off in every child")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    base, decisions = per_game(args.game, args.games, args.seed, (), no_gc=args.no_gc)
    print(f"{args.game}, 4 players, {args.games} games (seed {args.seed}), {decisions:.1f} decisions a game"
          f"{', the collector off' if args.no_gc else ''}")
    print(f"{'the module as it is':34s} {base / 1e3:10.1f} k instructions a game")
    variants = [("edited", (), tuple(args.module))] if args.module else [
        (name, PARTS[name], None) for name in args.only or list(PARTS)]
    for name, replaced, module in variants:
        count, seen = per_game(args.game, args.games, args.seed, replaced, module, args.no_gc)
        if seen != decisions:
            print(f"{_label(name, module):34s} plays other games ({seen:.1f} decisions a game): not counted")
            continue
        print(f"{_label(name, module):34s} {count / 1e3:10.1f} k   {(base - count) / 1e3:7.1f} k  "
              f"{(base - count) / base:6.1%} of the game")
    return 0


def _label(name: str, module) -> str:
    return "the module edited" if module else "without its " + name


if __name__ == "__main__":
    sys.exit(main())
