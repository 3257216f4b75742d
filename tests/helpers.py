"""Helpers the test files share, importable anywhere (module constants, parametrize lists):
a small ruleset's YAML built from its few parts (a card game's, a chips game's, int variables),
a ruleset written from YAML text and loaded, a game log written from its lines, a bundled
ruleset loaded once, the command line run in-process, a game played out by always taking the
first option. The fixtures built on
them are in conftest.py."""
from __future__ import annotations

import gc
import json
import sys
import textwrap
from functools import cache
from pathlib import Path

import interpreter
from interpreter.play.checks.scenarios import run_file
from interpreter.tools import cli


def write_ruleset(folder: Path, text: str, name: str = "g.yaml") -> Path:
    """YAML text (dedented, so it may be indented like the test around it) written to
    FOLDER/NAME; the file's path."""
    path = Path(folder) / name
    path.write_text(textwrap.dedent(text))
    return path


def tiny_ruleset(rest: str = "", *, game: str = "t", players: tuple = (2, 2), card: str = "cards",
                 attributes: str = "suit: [A, B], rank: 1..5", label: str = "{rank}{suit}", deck: str = "deck",
                 seen: str | None = "none") -> str:
    """A small ruleset's YAML: its name, its seats (min, max), one kind of card (``card``, with
    ``attributes`` and ``label``) and a zone (``deck``, seen by ``seen``; None: no visible key)
    that starts with them all; ``rest`` goes on from there as written (more zones first, two
    spaces in; a first newline is dropped)."""
    visible = f", visible: {seen}" if seen is not None else ""
    return (f"game: {game}\nplayers: {{min: {players[0]}, max: {players[1]}}}\ncomponents:\n"
            f"  {card}: {{attributes: {{{attributes}}}, label: \"{label}\"}}\n"
            f"zones:\n  {deck}: {{start: [{card}]{visible}}}\n") + rest.removeprefix("\n")


def chips_game(rest: str, *, game: str, players: tuple = (2, 3), attributes: str = "n: 1..9", ints: str = "x y",
               start: int | None = None) -> str:
    """A small ruleset's YAML for the tests of the compiled flow against its reference (checks and
    budgets counted in place, a choose asked in place): its name, its seats (min, max), chips of
    ``attributes`` all in a shared pool and each seat's ``mine`` (both visible to all), and an int
    variable each of the names in ``ints`` (starting at ``start``, where given); ``rest`` (the
    flow, end conditions, scoring...) goes on from there as written."""
    return (f"game: {game}\nplayers: {{min: {players[0]}, max: {players[1]}}}\ncomponents:\n  chips:\n"
            f"    attributes: {{{attributes}}}\nzones:\n  pool: {{owner: none, visible: all, start: [chips]}}\n"
            "  mine: {owner: player, visible: all}\n" + int_vars(ints, start) + rest.removeprefix("\n"))


def spots_game(rest: str, *, game: str, extra_vars: str = "") -> str:
    """A small two-seat ruleset's YAML for the tests of attempts and budgets against the reference:
    spots (n: 1..6, m: 1..9: a costly filter over them charges its step) on a shared ``board``,
    each seat's ``taken``, int variables x and z starting at 0 after ``extra_vars`` (lines of
    ``vars:``); ``rest`` (the flow...) goes on from there as written."""
    return ("game: %s\nplayers: {min: 2, max: 2}\ncomponents:\n  spots:\n    attributes: {n: 1..6, m: 1..9}\n"
            "zones:\n  board: {owner: none, visible: all, start: [spots]}\n  taken: {owner: player, visible: all}\n"
            "vars:\n%s  x: {type: int, start: 0}\n  z: {type: int, start: 0}\n" % (game, extra_vars)) + rest.removeprefix("\n")


def int_vars(names: str = "x y", start: int | None = None) -> str:
    """A ruleset's ``vars:`` block: an int variable each of ``names`` (split at spaces), starting
    at ``start`` where given (else none)."""
    typ = "int" if start is None else f"{{type: int, start: {start}}}"
    return "vars:\n" + "".join(f"  {v}: {typ}\n" for v in names.split())


# the flow of a ruleset whose play does not matter to its test: seat 0 answers once, none scores
ONE_DECISION = """flow:
  - choose: {who: 0, options: "[1]", as: x}
vars:
  x: int
scoring:
  categories: {n: "0"}
"""


def three_seats() -> str:
    """``tiny_ruleset``'s YAML for three seats, with a sorted hand each, a shared pile, points
    (5 each), a pot and two int variables x and y: the game the tests of the seat an asking step
    stands for (branch ``as:``, attempt ``actor:``) go on from (their ``flow:``)."""
    return tiny_ruleset("""
  hand: {owner: player, visible: all, sorted: true}
  pile: {visible: all}
counters:
  points: {owner: player, start: 5}
  pot: {start: 0}
vars:
  x: {type: int, start: 0}
  y: {type: int, start: 0}
""", players=(3, 3))


def points_race(more_steps: str = "", zones: str = "") -> str:
    """A small game's YAML (``tiny_ruleset``'s, cards n 1..6, two or three seats): in turn each
    seat chooses 1 or 2 (as x) and gains a point, until one has 3; ``zones`` go on from the deck,
    ``more_steps`` after a turn's two."""
    return tiny_ruleset(zones + """counters:
  pts: {owner: player}
vars: {x: any}
flow:
  - turns:
      until: "any(players, by: pts > 2)"
      steps:
        - choose: {options: "[1, 2]", as: x}
        - gain: {counter: pts, amount: 1}
""" + more_steps + "scoring: {categories: {p: pts}}\n", game="g", players=(2, 3), attributes="n: 1..6",
                        label="c{n}", seen=None)


def dealt_hands(game: str, rest: str, *, deal: int = 2, params: str = "") -> str:
    """A two-seat card game's YAML for the tests of what a seat may learn of another's hand:
    cards of suits H, D and S ranked 1..3 in a hidden deck, shuffled, ``deal`` dealt to each
    seat's hand (seen by its owner); ``params`` (one line of ``params:``) first where given;
    ``rest`` (counters, flow, vars, scoring... as written; a first newline is dropped) goes on
    from the setup."""
    return (f"game: {game}\nplayers: {{min: 2, max: 2}}\n" + (f"params:\n  {params}\n" if params else "")
            + "components:\n  card:\n    attributes: {suit: [H, D, S], rank: 1..3}\n    label: \"{rank}{suit}\"\n"
            "zones:\n  deck: {start: [card], visible: none}\n  hand: {owner: player, visible: owner}\n"
            f"setup:\n  - shuffle: deck\n  - deal: {{from: deck, to: hand, count: {deal}}}\n" + rest.removeprefix("\n"))


def hits_game(game: str, rest: str, *, players: tuple = (2, 2)) -> str:
    """A small game's YAML for the tests of what a determinized world holds: its name, its seats
    (min, max), each seat's ``hit`` counter, ``rest`` (more counters first, two spaces in; then
    vars, components, zones, setup, flow... as written; a first newline is dropped) and the
    scoring of the hits."""
    return (f"game: {game}\nplayers: {{min: {players[0]}, max: {players[1]}}}\ncounters:\n  hit: {{owner: player}}\n"
            + rest.removeprefix("\n") + "scoring:\n  categories:\n    hits: hit\n")


def chip_hands(deal: int, zones: str = "") -> str:
    """The components, zones and setup of a ``hits_game``: chips n 1..8 in a hidden deck,
    shuffled, ``deal`` dealt to each seat's hand (seen by its owner); ``zones``: more zones (one
    a line, two spaces in). More setup steps may follow."""
    return ('components:\n  chip: {attributes: {n: 1..8}, label: "c{n}"}\nzones:\n  deck: {visible: none, start: [chip]}\n'
            f"  hand: {{owner: player, visible: owner}}\n{zones}setup:\n  - shuffle: deck\n"
            f"  - deal: {{from: deck, to: hand, count: {deal}}}\n")


def hit_if(condition: str, who: int = 0) -> str:
    """A flow's step (of ``hits_game``): seat ``who`` gains a hit if ``condition`` holds."""
    return f'  - if: "{condition}"\n    then: [{{with_player: {{who: {who}, do: [{{gain: {{counter: hit}}}}]}}}}]\n'


def gaining(decisions: int, gains: int = 10) -> str:
    """A one-seat game's YAML that records many events: ``decisions`` times its seat chooses 1 or
    2, then gains counter c ``gains`` times (an event each)."""
    return ("game: g\nplayers: {min: 1, max: 1}\ncounters:\n  c: 0\nflow:\n"
            f"  - repeat: {decisions}\n    steps:\n      - choose: {{who: 0, options: \"[1, 2]\", as: x}}\n"
            f"      - repeat: {gains}\n        steps:\n          - gain: {{counter: c}}\n")


def load_text(folder: Path, text: str, name: str = "g.yaml", **options):
    """The ruleset of YAML text, written to FOLDER/NAME and loaded (``options``: the
    variant, as ``interpreter.load`` takes it)."""
    return interpreter.load(write_ruleset(folder, text, name), **options)


def bundled(name, variant: str | None = None):
    """A ruleset (a bundled one's name or a path) with a variant, loaded once per test run:
    a loaded ruleset is frozen, so every test may share it (a name and its file are one)."""
    return _loaded(interpreter.ruleset_path(name).resolve(), variant)


@cache
def _loaded(path: Path, variant: str | None):
    return interpreter.load(path, variant=variant)


def scenario_outcomes(path) -> list:
    """The outcomes of a scenario file (``rulebook test``'s ``run_file``), run once per test run:
    the bundled files are pytest cases of their game's tests and are run again through the
    command line."""
    return _outcomes(Path(path).resolve())


@cache
def _outcomes(path: Path) -> list:
    return run_file(path)


def write_log(path: Path, objs) -> None:
    """A game log of JSON objects, one a line, written to ``path`` (a log a test changed)."""
    path.write_text("".join(json.dumps(o) + "\n" for o in objs))


def run_cli(capsys, *argv):
    """The command line run in-process: (exit code, stdout, stderr)."""
    gc.freeze()   # what the test made so far stays out of a batch's full collection (see conftest.py)
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def play_first(S, limit: int = 10_000) -> int:
    """Plays the first legal option until the game ends (or LIMIT decisions); how many."""
    n = 0
    while not S.is_terminal() and n < limit:
        S.apply_index(0)
        n += 1
    return n


def module_from_file(name: str, path):
    """The module of the file at ``path`` (a ``.py`` or an extension module), imported under ``name``
    and not registered in ``sys.modules``: an oracle, or a build tested beside the package's own."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def trick_ruleset(rest: str = "", *, game: str = "t", players: int = 3, ranks: int = 6, leader: int = 0,
                  trick: str = "", hooks: str = "on_win: [{gain: {counter: points}}]") -> str:
    """A small trick-taking ruleset's YAML (``tiny_ruleset``'s cards of suits A and B, ranked
    1..RANKS, for PLAYERS seats): four cards dealt to each hand, one ``tricks`` step led by seat
    LEADER that follows suit, ranks by rank and collects to ``taken``, with ``trick`` (more of
    its keys, one a line) and ``hooks`` (its ``on_`` keys, one a line); points scored. ``rest``
    (top-level keys, unindented) goes between the flow and the scoring."""
    def keys(lines: str) -> str:
        return "".join(f"      {line}\n" for line in lines.splitlines() if line)
    return tiny_ruleset(
        "  hand: {owner: player, visible: owner}\n  table: {owner: none, visible: all}\n"
        "  taken: {owner: player, visible: all}\n"
        "counters:\n  points: {owner: player, start: 0, visible: all}\n"
        "setup:\n  - shuffle: deck\n  - deal: {from: deck, to: hand, count: 4}\n"
        f"flow:\n  - tricks:\n      hand: hand\n      table: table\n      leader: {leader}\n{keys(trick)}"
        f"      follow: suit\n      rank: rank\n      collect: taken\n{keys(hooks)}"
        f"{rest}\nscoring:\n  categories: {{points: points}}\n",
        game=game, players=(players, players), attributes=f"suit: [A, B], rank: 1..{ranks}")


def update_command(update, script: str) -> None:
    """The command line of a test file that stores what it expects: ``python tests/SCRIPT
    --update [--accept]`` runs ``update(accept)`` and exits with its code."""
    if "--update" not in sys.argv:
        sys.exit(f"usage: python tests/{script} --update [--accept]")
    sys.exit(update("--accept" in sys.argv))


def calls_in_play(rules, codes, players: int, seeds) -> dict:
    """How often each code object of ``codes`` is called (a function's ``__code__``) over random
    games of ``rules``, one a seed (uniform random options, ``random.Random(seed)``)."""
    calls = dict.fromkeys(codes, 0)

    def profile(frame, event, arg):
        if event == "call" and frame.f_code in calls:
            calls[frame.f_code] += 1

    played_profiled(rules, profile, players, seeds)
    return calls


def played_profiled(rules, profile, players: int, seeds) -> None:
    """Random games of ``rules``, one a seed (uniform random options, ``random.Random(seed)``),
    each decision applied under ``sys.setprofile(profile)``."""
    import random
    for seed in seeds:
        S, rnd = rules.new_game(players, seed=seed), random.Random(seed)
        sys.setprofile(profile)
        try:
            while not S.is_terminal():
                S.apply_index(rnd.randrange(len(S.dec[1])))
        finally:
            sys.setprofile(None)
