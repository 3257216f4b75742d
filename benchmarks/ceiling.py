#!/usr/bin/env python3
"""The ceiling of the engine's design on Mister Diamond: instructions a game of each rung of
benchmarks/ceiling/mister_diamond_rungs.py and of the interpreter, on the same games.

    python benchmarks/ceiling.py [--games 20] [--seed 1] [--parts] [--json]
    python benchmarks/ceiling.py --opcodes RUNG     # Python opcodes a decision, by function

Each rung is Mister Diamond written by hand, adding one thing the engine's contract asks for:
rung 0 the plain program (tests/oracles/mister_diamond_handwritten.py), rung 1 resumable
(``dec``, ``apply_index``, ``over``), rung 2 the engine's data model, rung 3 the ruleset as it is
written (its conditions, chances, end condition, located errors); the last row is the
interpreter running the ruleset (its generated module, ``python -m interpreter compile``). All
play the same 4-player games: each decision a random option drawn from one
``random.Random(seed)``, as benchmarks/playouts.py plays the engine (rung 0's choices are drawn
from that stream too), so the ratios compare the same work. Counted by valgrind as
benchmarks/instructions.py counts (``per_game``): a child with N games less one with none,
divided by N; the setup (a new game, no decision) is counted apart the same way, the rest of a
game is its play. ``--parts`` also counts each rung with one feature taken out (``variant``: the
lines marked for it, or a text replaced), so the ladder's steps are split into measured parts,
and rung 3 with the interpreter's protocol added (``ADDS``: its module's frames pushed, read and
popped, and its trips counted and tested against the budget, where its module does: the lines
marked ``# [+NAME]``), what that protocol costs at the ceiling.
Needs valgrind; some three minutes (``--parts``: eight more).
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE)]

from instructions import per_game as instructions_per_game  # noqa: E402  (the same child settings as instructions.py)
from versus_handwritten import _child  # noqa: E402  (the interpreter's child: playouts.py's games)

RUNGS_DIR = HERE / "ceiling"
HEAD = f"import sys; sys.path[:0] = [{str(RUNGS_DIR)!r}]\nimport mister_diamond_rungs as M\n"
NAMES = {0: "rung 0: the plain program", 1: "rung 1: + resumable", 2: "rung 2: + the engine's data model",
         3: "rung 3: + the ruleset as written"}

# (rung, what is taken out, lines marked, texts replaced)
PARTS = [
    (0, "its shuffles in plain Python (engine/rng.py's instead)", ("shuffle",), ()),
    (1, "options handed over as the list, not copied to a tuple", (),
     (("tuple(self.hidden)", "self.hidden"), ("tuple(self.row)", "self.row"))),
    (2, "no step budget", ("steps",), ()),
    (2, "no copy-on-write test", ("sh",), ()),
    (2, "no event hook", ("ev",), ()),
    (2, "no knowledge hook", ("kn",), ()),
    (2, "none of these four", ("steps", "sh", "ev", "kn"), ()),
    (2, "sorted zones appended to, not kept sorted", (), (("insort(dest, spot)", "dest.append(spot)"),)),
    (2, "options handed over as the list, not copied to a tuple", (),
     (("tuple(self.vw[0])", "self.vw[0]"), ("tuple(self.z_row)", "self.z_row"))),
    (3, "none of the budget and hooks", ("steps", "sh", "ev", "kn"), ()),
    (3, "no try/except around expressions", ("try",), ()),
    (3, "end condition: the mover's points only (rung 2's)", (),
     (("if self._ended():", "if self._reached(me):"),
      ("if not self._ended():", "if not self._reached(self.v_turn_player):"))),
    (3, "skill and divisor as constants, not params/options read", (),
     (('self.p["skill"] if not o or o.get("skill") is None else o["skill"][me]', "self.skill[me]"),
      ('/ self.p["max_neighbours"]', "/ MAX_NEIGHBOURS"))),
    (3, "chances not made probabilities (no float, clamp, total)", (),
     (('p = float(touch)\n        p0 = p if 0.0 < p <= 1.0 else 0.0 if p == 0.0 else self._clamped("touch", p)',
       "p0 = touch"),
      ('p = float(p)\n            p1 = p if 0.0 < p <= 1.0 else 0.0 if p == 0.0 else self._clamped("fake", p)',
       "p1 = p"),
      ('        if total > 1 + EPS:\n            raise RulesetError(f"the chances of the outcomes add up to {total:g}, more than 1")\n',
       ""))),
    (3, "the place's options: the row, not `row where filled < slots`", (),
     (("options = [t for t in self.z_row if filled[t] < SLOTS[t]]", "options = self.z_row"),)),
    (3, "the attempt as rung 2 writes it (one test, then the record)", (),
     (("    def _take(self, spot):\n        \"\"\"The attempt's", "    def _take_as_written(self, spot):\n        \"\"\"The"),)),
]


# (what is added to rung 3, the lines marked # [+NAME] made code)
ADDS = [
    ("the interpreter's frames (pushed, read and popped where its module does)", ("frames",)),
    ("the interpreter's trip counts and budget tests (the contract's exact count)", ("trips",)),
    ("both: the interpreter's protocol on rung 3's code", ("frames", "trips")),
]


def child(rung: int | str, games: int, seed: int, drop=(), replace=(), setup_only=False, add=()) -> str:
    """The code of a child process playing ``games`` games of ``rung`` (or the interpreter)."""
    if rung == "interpreter":
        if not setup_only:
            return _child("interpreter", "mister_diamond", games, seed)
        return ("import sys; sys.path[:0] = [{root!r}]\nimport interpreter\n"
                "from interpreter.play.simulation.workers import settle\n"
                "rules = interpreter.load(interpreter.ruleset_path('mister_diamond')); settle()\n"
                "for g in range({games}): rules.new_game(4, seed={seed} + g)\n"
                "print(0)\n").format(root=str(HERE.parent), games=games, seed=seed)
    if rung == 0:
        head = HEAD + ("M.shuffle_as_the_engine()\n" if "shuffle" in drop else "")
        if setup_only:
            return head + f"for g in range({games}): M.Game(4, {seed} + g)\nprint(0)\n"
        return head + f"print(M.play_rung0({games}, {seed}))\n"
    new = f"M.variant({rung}, {tuple(drop)!r}, {tuple(replace)!r}, {tuple(add)!r})"
    if setup_only:
        return HEAD + f"cls = {new}\nfor g in range({games}): cls(4, {seed} + g)\nprint(0)\n"
    return HEAD + f"print(M.play({new}, {games}, {seed}))\n"


def per_game(rung, games: int, seed: int, **kw) -> tuple[float, float]:
    """(instructions a game, decisions a game)."""
    return instructions_per_game(lambda n: child(rung, n, seed, **kw), games)


def opcodes(rung: int, games: int, seed: int, top: int) -> str:
    """Python opcodes a decision of a rung, by function (benchmarks/opcodes.py's tracer: what
    ``benchmarks/opcodes.py --ruleset rulesets/mister_diamond.yaml`` gives the interpreter)."""
    sys.path[:0] = [str(RUNGS_DIR)]
    import mister_diamond_rungs as M
    from opcodes import counter
    counts, tracer = counter()
    sys.settrace(tracer)
    try:
        decisions = M.play_rung0(games, seed) if rung == 0 else M.play(M.RUNGS[rung], games, seed)
    finally:
        sys.settrace(None)
    rows = [f"{NAMES[rung]}: {sum(counts.values()) / decisions:.0f} opcodes a decision ({games} games, seed {seed})"]
    rows += [f"{n / decisions:8.1f}  {key}" for key, n in counts.most_common(top)]
    return "\n".join(rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--parts", action="store_true", help="also count each rung with one feature taken out")
    ap.add_argument("--opcodes", type=int, choices=(0, 1, 2, 3), metavar="RUNG",
                    help="Python opcodes a decision of this rung by function instead (no valgrind)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.opcodes is not None:
        print(opcodes(args.opcodes, args.games, args.seed, 14))
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    g, s = args.games, args.seed
    ladder = {}
    for rung in (0, 1, 2, 3, "interpreter"):
        (n, d), (setup, _) = per_game(rung, g, s), per_game(rung, g, s, setup_only=True)
        ladder[rung] = (n, setup, d)
    base, base_play = ladder[0][0], ladder[0][0] - ladder[0][1]
    rows = [f"Mister Diamond, 4 players, the same {g} games (seed {s}): instructions a game, ratio to rung 0, the",
            "step from the row above; the setup (a new game) and the play (the decisions) apart",
            f"{'':40s} {'a game':>9s} {'ratio':>6s} {'step':>6s} {'setup':>7s} {'play':>7s} {'ratio':>6s} "
            f"{'a decision':>10s}"]
    result: dict = {"games": g, "seed": s, "ladder": {}}
    last = None
    for rung, (n, setup, d) in ladder.items():
        name = NAMES.get(rung, "the interpreter (its generated module)")
        step = f"{(n - last) / 1e3:+5.0f}k" if last is not None else ""
        rows.append(f"{name:40s} {n / 1e6:7.3f} M {n / base:5.2f}x {step:>6s} {setup / 1e3:6.0f}k "
                    f"{(n - setup) / 1e3:6.0f}k {(n - setup) / base_play:5.2f}x {(n - setup) / d / 1e3:8.1f} k")
        result["ladder"][str(rung)] = {"instructions": round(n), "ratio": round(n / base, 3), "setup": round(setup),
                                       "play_ratio": round((n - setup) / base_play, 3), "decisions": d}
        last = n
    if args.parts:
        rows.append("")
        rows.append("Parts: a rung with one feature taken out: instructions a game, and what the feature costs a game")
        result["parts"] = []
        for rung, what, drop, replace in PARTS:
            n, _ = per_game(rung, g, s, drop=drop, replace=replace)
            cost = ladder[rung][0] - n
            rows.append(f"rung {rung}, {what:62s} {n / 1e6:7.3f} M {cost / 1e3:+7.1f}k")
            result["parts"].append({"rung": rung, "without": what, "instructions": round(n), "cost": round(cost)})
        rows.append("")
        rows.append("Rung 3 with the interpreter's protocol added: instructions a game, the ratio to rung 0, and what it adds")
        result["adds"] = []
        for what, add in ADDS:
            n, _ = per_game(3, g, s, add=add)
            rows.append(f"rung 3 + {what:74s} {n / 1e6:7.3f} M {n / base:5.2f}x {(n - ladder[3][0]) / 1e3:+7.1f}k")
            result["adds"].append({"with": what, "instructions": round(n), "ratio": round(n / base, 3),
                                   "cost": round(n - ladder[3][0])})
    print(json.dumps(result) if args.json else "\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
