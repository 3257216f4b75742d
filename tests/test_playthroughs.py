"""Readable playthroughs: one short seeded game of each bundled ruleset, variant and example.

``tests/playthroughs/<ruleset>[__<variant>].txt`` (and one per ``docs/examples/*.yaml``) lists
each decision of a seeded game: its number, seat and prompt, the legal labels, the move, the
events it caused (the log's events: play/logs/gamelog.py) and what changed in each seat's
observation (``State.observation(seat)``), then the final scores and winners. The test plays
each game again in memory and diffs it with the file, line by line: a failure names the
decision where play diverged. When a rule or a ruleset changes on purpose, review and rewrite:

    python tests/test_playthroughs.py --update            # prints which files changed; writes nothing
    python tests/test_playthroughs.py --update --accept   # prints them and rewrites them

A long game is shortened by its parameters (one round), or shown in full for its first
decisions and then one line a decision; the file's header says which.
"""
from __future__ import annotations

import difflib
import itertools
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.loading.resources import bundled_rulesets  # noqa: E402
from interpreter.play.agents import choose, make_agents  # noqa: E402
from interpreter.play.logs.gamelog import events_out, logged_decision  # noqa: E402
from helpers import bundled, update_command  # noqa: E402

FOLDER = Path(__file__).with_name("playthroughs")
EXAMPLES = ROOT / "docs" / "examples"


@dataclass(frozen=True)
class Case:
    ruleset: str                 # a bundled ruleset's name, or a path from the repository root
    variant: str | None = None
    seed: int = 1
    agents: str = "first"
    params: dict = field(default_factory=dict)   # overrides that shorten the game
    full: int | None = None      # decisions shown in full; the rest one line each (None: all)
    note: str = ""               # why the game is shortened, for the file's header

    @property
    def name(self) -> str:
        return Path(self.ruleset).stem + (f"__{self.variant}" if self.variant else "")

    @property
    def path(self) -> Path:
        return FOLDER / f"{self.name}.txt"


ONE_ROUND = "one round instead of the whole game"
SHORT_ROUND = "one round of 5 cards each instead of the whole game"
CASES = [
    Case("diamonds", params={"rounds": 1, "hand_size": 5}, note=SHORT_ROUND),
    Case("diamonds", "two_player", params={"rounds": 1, "hand_size": 5}, note=SHORT_ROUND),
    Case("diamonds", "teams", params={"rounds": 1, "hand_size": 5}, note=SHORT_ROUND),
    Case("diams", params={"rounds": 1}, agents="random", full=30, note=ONE_ROUND),
    Case("diams", "closing_last", params={"rounds": 1}, agents="random", full=30, note=ONE_ROUND),
    # no parameter shortens it: the seed of a short game (173 decisions), the first ones in full
    Case("diamonds_club", agents="random", seed=4, full=12),
    Case("diamonds_club", "cost_by_coins", agents="random", seed=27, full=12),
    Case("mister_diamond", agents="random", params={"target": 3000},
         note="a target of 3000 instead of 10000 (params.target)"),
    Case("kuhn_poker", agents="random", seed=3),
    Case("leduc_poker", agents="random", seed=3),
    Case("goofspiel", agents="random", params={"num_cards": 5}, note="5 cards in each suit instead of 13"),
    Case("tic_tac_toe", agents="random"),
    Case("liars_dice", agents="random", seed=2),
    Case("connect_four", agents="random", full=12),
    Case("oh_hell", agents="random", params={"num_tricks": 3}, note="3 tricks instead of a drawn number"),
    Case("hearts", agents="random", full=20),
    Case("euchre", agents="random", seed=2),
    Case("spades", agents="random", full=20),
    Case("crazy_eights", agents="random", full=12),
    Case("love_letter", agents="random", full=20),
    Case("six_nimmt", agents="random", params={"target": 10}, full=20, note="a target of 10 bullheads instead of 66"),
    Case("oware", agents="random", full=12),
    Case("go_fish", agents="random", full=20),
    Case("yacht", agents="random", full=12),
    Case("docs/examples/little_tricks.yaml", params={"rounds": 1}, note=ONE_ROUND),
    Case("docs/examples/little_tricks_trumps.yaml", params={"rounds": 1}, note=ONE_ROUND),
    Case("docs/examples/sealed_bids.yaml", agents="random"),
]


def load(ruleset: str, variant: str | None = None):
    return bundled(ROOT / ruleset if "/" in ruleset else ruleset, variant)


# ---------------------------------------------------------------------- the text
def text(value, none: str = "none") -> str:
    """A value as a person reads it: lists in brackets, labels unquoted; None is ``none``
    (a counter's hidden value: ``?``)."""
    if value is None:
        return none
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (list, tuple)):   # a run of equal items once: [light×11 dark×5]
        runs = [(v, len(list(g))) for v, g in itertools.groupby(text(v, none) for v in value)]
        return "[" + " ".join(v if k == 1 else f"{v}×{k}" for v, k in runs) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {text(v, none)}" for k, v in value.items()) + "}"
    return str(value)


def event_line(ev: dict) -> str:
    """``play who=1 from=hand[1] to=table cards=[7D]``: the log's event, its zone's owner
    written beside the zone."""
    out = [str(ev.get("ev"))]
    for key, value in ev.items():
        if key == "ev" or key.endswith("_owner") and key[:-6] in ev:
            continue
        owner = ev.get(f"{key}_owner")
        out.append(f"{key}={text(value)}" + (f"[{owner}]" if owner is not None else ""))
    return " ".join(out)


# what the decision's own line says already: not repeated among the observation's changes
SAID = ("player", "players", "prompt", "legal_actions", "current_player")


def view_lines(obs: dict) -> dict[str, str]:
    """An observation as ``{what: its value}``, one entry per zone, counter, variable and other
    part: a zone owned by each seat reads ``[its cards] | 10 | 10`` (a hidden one its size)."""
    out = {}
    for part in ("zones", "counters", "vars"):
        for name, value in obs.get(part, {}).items():
            kind = part[:-1] if part != "vars" else "var"
            none = "?" if part == "counters" else "none"   # a hidden counter reads None
            if isinstance(value, list) and (part == "counters" or part == "zones" and value and isinstance(value[0], (list, int))):
                shown = " | ".join(text(v, none) for v in value)   # one per owner
            else:
                shown = text(value, none)
            out[f"{kind} {name}"] = shown
    for key, value in obs.items():
        if key not in ("zones", "counters", "vars", *SAID):
            out[key] = text(value)
    return out


def changes(before: list[dict], after: list[dict], n: int) -> list[str]:
    """What changed in each seat's view, one line per part and value: ``all: counter safe = 1 | 0``,
    ``seat 0: zone hand = [...] | 9`` (the seats that see the same change share a line)."""
    parts = list(dict.fromkeys(what for view in (*after, *before) for what in view))
    lines = []
    for what in parts:
        found: dict[str, list[int]] = {}
        for seat in range(n):
            value = after[seat].get(what, "(gone)")
            if before[seat].get(what, "(gone)") != value:
                found.setdefault(value, []).append(seat)
        for value, seats in found.items():
            who = "all" if len(seats) == n else "seat " + ",".join(map(str, seats))
            lines.append(f"  {who}: {what} = {value}")
    return lines


def playthrough(case: Case) -> str:
    """The playthrough of ``case``, played now."""
    rules = load(case.ruleset, case.variant)
    n = min(rules.player_counts)
    agents = make_agents(case.agents, n, case.seed)
    S = rules.new_game(n, case.seed, {"params": dict(case.params)}, record=True)
    title = Path(case.ruleset).stem if "/" in case.ruleset else case.ruleset
    lines = [f"# {title}" + (f", variant {case.variant}" if case.variant else ""),
             f"# ruleset: {case.ruleset}",
             f"# {n} players, seed {case.seed}, agents: {case.agents}"
             + (" (seeded by the game's seed)" if case.agents == "random" else "")]
    if case.params:
        lines.append("# params: " + ", ".join(f"{k} = {text(v)}" for k, v in case.params.items())
                     + (f": {case.note}" if case.note else ""))
    if case.full is not None:
        lines.append(f"# decisions 1-{case.full} in full, then one line each: decision, seat, prompt, move")
    lines += ["# regenerate: python tests/test_playthroughs.py --update [--accept]",
              "# each decision: its seat and prompt, the legal labels, the move, the events it caused,",
              "# then what changed in each seat's observation (all: every seat sees the same)", ""]
    views = [view_lines(S.observation(seat)) for seat in range(n)]
    lines.append("## setup")
    lines += [f"  {event_line(ev)}" for ev in events_out(rules, S.ev)]
    lines.append("observations:")
    lines += changes([{}] * n, views, n)
    decision = 0
    while not S.is_terminal():
        decision += 1
        seat = S.current_player()
        i = choose(agents[seat], S, seat)
        legal = S.legal_actions()
        line, error = logged_decision(rules, S, i, decision)
        if error is not None:
            raise error
        if case.full is not None and decision > case.full:
            lines.append(f"{decision}. seat {seat} {line['prompt']}: {line['action']}")
            continue
        seen = f"  (seen by {text(line['seen_by'])})" if "seen_by" in line else ""
        lines += ["", f"## decision {decision}: seat {seat}, {line['prompt']}",
                  f"legal ({len(legal)}): " + " | ".join(map(str, legal)),
                  f"move: {line['action']}{seen}"]
        lines += [f"  {event_line(ev)}" for ev in line["events"]]
        now = [view_lines(S.observation(s)) for s in range(n)]
        seen_lines = changes(views, now, n)
        if seen_lines:
            lines += ["observations:", *seen_lines]
        views = now
    lines += ["", "## end", f"decisions: {decision}", f"scores: {text(S.scores())}",
              f"winners: {text(S.winners())}"]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- the tests
def first_difference(expected: str, actual: str) -> str:
    """The first lines that differ, under the decision they belong to."""
    old, new = expected.splitlines(), actual.splitlines()
    pairs = list(zip(old + [None] * len(new), new + [None] * len(old)))
    at = next((i for i, (a, b) in enumerate(pairs) if a != b), None)
    if at is None:
        return "the same"
    a, b = pairs[at]
    heading = next((h for h in reversed(new[:at + 1]) if h.startswith("## ")), "## the header")
    step = re.match(r"(\d+)\. seat", (b or a or ""))
    where = f"decision {step.group(1)}" if step else heading[3:]
    diff = list(difflib.unified_diff(old[at:at + 12], new[at:at + 12], "file", "now", lineterm="", n=2))
    return f"first difference at line {at + 1}, {where}:\n" + "\n".join(diff[2:])


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_game_plays_as_written(case):
    assert case.path.exists(), (f"{case.path} is missing: write it with "
                                "`python tests/test_playthroughs.py --update --accept`")
    expected, actual = case.path.read_text(encoding="utf-8"), playthrough(case)
    if actual != expected:   # (pytest.fail: the message alone, not a diff of two whole files)
        pytest.fail(f"{case.name}: the game no longer plays as written in {case.path.name}\n"
                    + first_difference(expected, actual)
                    + "\nif a rule changed on purpose, review and rewrite with "
                      "`python tests/test_playthroughs.py --update --accept`", pytrace=False)


def wanted() -> list[str]:
    """The name of every playthrough there must be: each bundled ruleset, each variant it
    declares, and each example game."""
    names = []
    for name in bundled_rulesets():
        names.append(name)
        names += [f"{name}__{v}" for v in (load(name).data.get("variants") or {})]
    return names + [p.stem for p in sorted(EXAMPLES.glob("*.yaml"))]


def test_every_ruleset_variant_and_example_has_a_playthrough():
    have = {c.name for c in CASES}
    missing = [name for name in wanted() if name not in have or not (FOLDER / f"{name}.txt").exists()]
    assert not missing, f"no playthrough for {', '.join(missing)}: add a Case to CASES and write it"
    stray = sorted(p.name for p in FOLDER.glob("*.txt") if p.stem not in have)
    assert not stray, f"playthroughs of no case: {', '.join(stray)}"


def test_a_difference_is_shown_under_its_decision():
    text_ = "# head\n\n## decision 1: seat 0, play\nlegal (2): a | b\nmove: a\n"
    assert first_difference(text_, text_) == "the same"
    shown = first_difference(text_, text_.replace("move: a", "move: b"))
    assert shown.startswith("first difference at line 5, decision 1: seat 0, play:")
    assert "-move: a" in shown and "+move: b" in shown
    short = "## decision 30: seat 1, buy\n31. seat 0 buy: r1\n"
    assert "decision 31" in first_difference(short, short.replace("r1", "r2"))


def test_a_view_shows_each_owner_and_hides_what_it_may_not_see():
    obs = {"player": 0, "zones": {"hand": [["7H", "2C"], 3], "deck": 40, "table": ["5S"]},
           "counters": {"safe": [1, None], "pot": None}, "vars": {"thief": 0}, "phase": "play"}
    assert text(["light"] * 3 + ["dark", "light", "light"]) == "[light×3 dark light×2]"
    assert view_lines(obs) == {"zone hand": "[7H 2C] | 3", "zone deck": "40", "zone table": "[5S]",
                               "counter safe": "1 | ?", "counter pot": "?", "var thief": "0",
                               "phase": "play"}
    assert changes([{"a": "1", "b": "2"}] * 2, [{"a": "1", "b": "3"}, {"a": "0", "b": "3"}], 2) == [
        "  seat 1: a = 0", "  all: b = 3"]


# ---------------------------------------------------------------------- rewriting
def update(accept: bool) -> int:
    """Print which playthroughs changed (and where); with ``accept``, rewrite them."""
    FOLDER.mkdir(exist_ok=True)
    changed = 0
    for case in CASES:
        now = playthrough(case)
        old = case.path.read_text(encoding="utf-8") if case.path.exists() else None
        if old == now:
            continue
        changed += 1
        print(f"{case.path.name}: " + ("new" if old is None else first_difference(old, now)))
        if accept:
            case.path.write_text(now, encoding="utf-8")
    print(f"{changed} playthrough(s) changed" if changed else "no playthrough changed")
    if changed and not accept:
        print(f"nothing written: rerun with --update --accept to rewrite them in {FOLDER}")
    return 0


if __name__ == "__main__":
    update_command(update, "test_playthroughs.py")
