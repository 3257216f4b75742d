"""A trigger's ``do:`` counted against the step budget each time it fires, as a step run is
(mechanics/triggers.py ``_charged``): one, and one more per hundred operations its expressions
may cost, a ``when:`` trigger's (``fire_charged``, per player: for each seat it fires for) and
an ``on_enter`` trigger's (for each card that fires it), the budget tested there and the game
stopped at the trigger's ``do:``; the generated module counts what the plain reference counts,
also where a step writes in place an effect list that fills the zone (``hooks_may``). A ``do:``
whose one firing (a per_player one's for every seat of the largest game), or an asked ``if:``
whose one asking, may cost more than the budget is refused at load, past 1/100 of it warned of
(building/bounded.py ``weigh_triggers``)."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import interpreter
from fuzzing.lockstep import reference
from helpers import chips_game, load_text
from test_budget_counted import played

# a nested filter over the 81 chips: some 33,000 operations, a charge of 332 units
COSTLY = "count(pool as a where count(pool as b where a.n < b.m) > x)"
TRIGGERS = {"when": 'when: "x == 0"', "per_player": 'when: "x == 0"\n    per_player: true', "on_enter": "on_enter: mine"}
# setup moves 3 chips into seat 0's mine (3 steps, one a card: the on_enter trigger fires for each)
# while x is 0 (a when: trigger fires at the game's first check, before the flow's first step)
AT_START = """setup: [{{move: {{from: pool, to: "mine[0]", count: 3}}}}]
flow:
  - turns:
      rounds: 3
      steps:
        - choose: {{options: "[1, 2]", as: x}}
triggers:
  t:
    {trigger}
    do: [{{set: {{y: "{do}"}}}}]
limits: {{steps: {budget}}}
scoring:
  categories: {{chips: "count(mine)"}}
"""


def at_start(kind: str, budget: int, do: str = COSTLY) -> str:
    return chips_game(AT_START.format(trigger=TRIGGERS[kind], do=do, budget=budget), game="trigger_charge",
                      players=(2, 3), attributes="n: 1..9, m: 1..9", ints="x y z", start=0)


def effects(rules, kind: str):
    """The compiled ``do:`` of the one trigger of a game of ``kind``."""
    return rules.triggers.enter["mine"][0][2] if kind == "on_enter" else rules.triggers.when[0][2]


def started(rules, players: int) -> tuple:
    """A new game's step count, or the error it stopped with (its kind and line)."""
    try:
        return rules.new_game(players, seed=0).steps, None
    except interpreter.GameError as e:
        return None, (type(e).__name__, e.loc.line)


def refused(folder, text: str) -> list:
    """The (severity, code, line) of each diagnostic about a trigger's cost loading ``text`` gives."""
    try:
        rules = load_text(folder, text)
    except interpreter.RulesetError as e:
        return [(d.severity, d.code, d.loc.line) for d in e.diagnostics if "trigger's" in d.message]
    return [(d.severity, d.code, d.loc.line) for d in rules.warnings if "trigger's" in d.message]


@pytest.mark.parametrize("kind", sorted(TRIGGERS))
def test_a_costly_do_exhausts_the_budget_at_the_count_it_fires_with(tmp_path, kind):
    """Setup counts 3; the trigger then fires once (when:), once for each seat (per_player: 2 or
    3) or once for each of the 3 chips (on_enter), each firing counting one and the do:'s work
    over 100 (332) before it runs, as a step run counts: the budget one short of 3 + fires x 333
    stops the game at the trigger's do:, that budget itself at the flow's first step, the choose
    (its trip counts one more), and one more lets the game start, the count 3 + fires x 333 + 1;
    module and reference alike. A budget under one firing's charge (332, a per_player trigger's
    for each seat of the largest game: 3 x 332) is refused at load, located at the do:. A cheap
    do: counts one a firing (3 + fires + 1 steps); no step is charged more for either."""
    text = at_start(kind, 10 ** 6)
    costly = load_text(tmp_path, text)
    charge = effects(costly, kind).work // 100
    assert charge == 332
    do_line = text.splitlines().index(f'    do: [{{set: {{y: "{COSTLY}"}}}}]') + 1
    step_line = text.splitlines().index('        - choose: {options: "[1, 2]", as: x}') + 1
    least = charge * (3 if kind == "per_player" else 1)   # (what a budget must hold at least: load)
    for players in (2, 3):
        fires = {"when": 1, "per_player": players, "on_enter": 3}[kind]
        full = 3 + fires * (1 + charge)
        for budget, expected in ((full - 1, (None, ("BudgetExceeded", do_line))),
                                 (full, (None, ("BudgetExceeded", step_line))),
                                 (full + 1, (full + 1, None))):
            folder = tmp_path / f"{players}-{budget}"
            folder.mkdir(exist_ok=True)
            if budget < least:   # (a per_player trigger's 2-seat game: its budget refused for 3 seats)
                assert refused(folder, at_start(kind, budget)) == [("error", "limit", do_line)]
                continue
            rules = load_text(folder, at_start(kind, budget))
            assert started(rules, players) == expected == started(reference(rules), players), (players, budget)
    for budget, diagnostics in ((least - 1, [("error", "limit", do_line)]), (least, [("warning", "cost", do_line)]),
                                (least * 100 - 1, [("warning", "cost", do_line)]), (least * 100, [])):
        (tmp_path / f"load-{budget}").mkdir()
        assert refused(tmp_path / f"load-{budget}", at_start(kind, budget)) == diagnostics, budget
    (tmp_path / "cheap").mkdir()
    cheap = load_text(tmp_path / "cheap", at_start(kind, 10 ** 6, "x + 1"))
    assert effects(cheap, kind).work < 100
    for players in (2, 3):
        fires = {"when": 1, "per_player": players, "on_enter": 3}[kind]
        assert started(cheap, players) == (3 + fires + 1, None) == started(reference(cheap), players)
    # (compiled before the flow: no step's charge holds the do:'s work)
    assert [s.charge for s in costly.steps] == [s.charge for s in cheap.steps]


def test_a_costly_if_asked_at_each_entry_is_weighed_at_load(tmp_path):
    """An on_enter trigger's if: that reads the state (asked at each entry, each time charged its
    work over 100: 332) is refused where the budget cannot hold one asking, and warned of past
    1/100 of it, located at the if:; one that reads only the entering card is decided for each
    card at load (asked never) and weighed not at all."""
    def game(cond: str, budget: int) -> str:
        return at_start("on_enter", budget, "x + 1").replace("    do:", f'    if: "{cond}"\n    do:', 1)
    costly = f"{COSTLY} >= 0"
    if_line = game(costly, 0).splitlines().index(f'    if: "{costly}"') + 1
    for budget, diagnostics in ((331, [("error", "limit", if_line)]), (332, [("warning", "cost", if_line)]),
                                (33_200, [])):
        (tmp_path / str(budget)).mkdir()
        assert refused(tmp_path / str(budget), game(costly, budget)) == diagnostics, budget
    assert refused(tmp_path, game("card.n > 3", 10)) == []


def test_a_for_each_in_a_do_is_weighed_at_its_passes(tmp_path):
    """An on_enter trigger's do: of a for_each over 1..50 whose body may cost 332 units: one firing
    counts 1 + 334 + 50 x 333 (its passes as they run: 16,650), module and reference alike (setup's 3
    chips fire it 3 times), and is weighed so at load: refused at a budget of 2,000 (it was warned of
    at 335 steps), warned of at 40,000 with that count, located at the do:."""
    loop = f'[{{for_each: {{in: "1..50", as: k, do: [{{set: {{y: "{COSTLY}"}}}}]}}}}]'

    def game(budget: int) -> str:
        return at_start("on_enter", budget).replace(f'    do: [{{set: {{y: "{COSTLY}"}}}}]', f"    do: {loop}")
    do_line = game(0).splitlines().index(f"    do: {loop}") + 1
    rules = load_text(tmp_path, game(10 ** 6))
    fn = effects(rules, "on_enter")
    assert (fn.work // 100, fn.pass_steps) == (334, 16_650)
    firing = 1 + 334 + 16_650
    assert started(rules, 2) == (3 + 3 * firing + 1, None) == started(reference(rules), 2)
    for budget, diagnostics in ((2_000, [("error", "limit", do_line)]), (firing - 2, [("error", "limit", do_line)]),
                                (firing - 1, [("warning", "cost", do_line)]), (40_000, [("warning", "cost", do_line)])):
        (tmp_path / str(budget)).mkdir()
        assert refused(tmp_path / str(budget), game(budget)) == diagnostics, budget
    with pytest.raises(interpreter.RulesetError) as e:
        load_text(tmp_path / "2000", game(2_000))
    assert f"this trigger's do: may count {firing:,} steps a firing (its for_each passes 16,650 of them" in str(e.value)


def test_a_costly_if_with_no_effects_is_not_weighed(tmp_path):
    """An on_enter trigger whose do: is empty is never asked its if: (mechanics/triggers.py
    ``_run_hooks``): no warning of its cost, where the same if: with effects is warned of."""
    costly = f"{COSTLY} >= 0"
    for do, diagnostics in (("[]", []), ('[{set: {z: 1}}]', [("warning", "cost")])):
        text = at_start("on_enter", 1_000).replace(f'    do: [{{set: {{y: "{COSTLY}"}}}}]', f'    if: "{costly}"\n    do: {do}')
        (tmp_path / do[:2]).mkdir()
        assert [d[:2] for d in refused(tmp_path / do[:2], text)] == diagnostics, do


# a when: trigger fires as x turns 1 (per player: for each seat), an on_enter trigger for each chip
# moved into mine (one or two a turn); a costly if: runs at once after a change the end
# condition reads (a charged step: Sequence._segment), and, where it holds, the move into mine in place
IN_PLAY = """flow:
  - turns:
      rounds: 6
      steps:
        - choose: {{options: "[1, 2]", as: x}}
        - set: {{z: "z + x"}}
        - if: "count(pool where n + m > 2 and n * m < 60 and n != m + 1) > 0"
          then:
            - move: {{from: pool, to: mine, count: "x"}}
            - choose: {{options: "[1, 2]", as: y}}
            - set: {{x: 0}}
triggers:
  t:
    {trigger}
    do: [{{set: {{y: "{do}"}}}}]
end_when: ["z > 90"]
limits: {{steps: {budget}}}
scoring:
  categories: {{chips: "count(mine)"}}
"""
PLAYED = {"when": 'when: "x == 1"', "per_player": 'when: "x == 1"\n    per_player: true', "on_enter": "on_enter: mine"}


PLAYED_DO = "count(pool where n + m > 2 and n * m < 60 and n != m + 1)"   # (1,380 operations: 13 units)


def in_play(kind: str, budget: int, do: str = PLAYED_DO) -> str:
    return chips_game(IN_PLAY.format(trigger=PLAYED[kind], do=do, budget=budget), game="trigger_in_play", players=(2, 2), attributes="n: 1..9, m: 1..9", ints="x y z",
                      start=0)


def fired(rules, cheap, seed: int, fn) -> tuple:
    """The same random decisions (seeded) in a game of ``rules`` and of ``cheap``: how many steps
    more the first counts, and how many times its trigger's ``do:``, ``fn``, ran."""
    calls, rnd = [0], random.Random(seed)

    def profile(frame, event, arg):
        if event == "call" and frame.f_code is fn.__code__:
            calls[0] += 1
    S, C = rules.new_game(2, seed=seed), cheap.new_game(2, seed=seed)
    sys.setprofile(profile)
    try:
        while not S.is_terminal():
            k = rnd.randrange(len(S.dec[1]))
            S.apply_index(k)
            C.apply_index(k)
    finally:
        sys.setprofile(None)
    assert C.is_terminal()
    return S.steps - C.steps, calls[0]


@pytest.mark.parametrize("kind", sorted(PLAYED))
def test_every_budget_stops_where_the_reference_stops(tmp_path, kind):
    """A do: of 13 units fired as the game goes: a whole game counts 13 more each time it
    fires than with a cheap do: (both one for the firing), and every budget from 26 to 199 stops the game at the same
    decision, count, error and state as the reference, several at the trigger's do: (an
    on_enter trigger's fired from the move a step writes in place, which tests the budget
    after it as the reference does: with ``hooks_may`` blind to it, the module stopped elsewhere
    at 313 of the 740)."""
    rules = load_text(tmp_path, in_play(kind, 10 ** 6))
    fn = effects(rules, kind)
    assert fn.work // 100 == 13
    (tmp_path / "cheap").mkdir()
    cheap = load_text(tmp_path / "cheap", in_play(kind, 10 ** 6, "x"))
    assert effects(cheap, kind).work < 100
    if kind == "on_enter":   # (every firing counts: a move into mine may test the budget)
        assert rules.triggers.hooks_may("mine", "counts") and cheap.triggers.hooks_may("mine", "counts")
    do_line = in_play(kind, 0).splitlines().index(f'    do: [{{set: {{y: "{PLAYED_DO}"}}}}]') + 1
    for seed in range(3):
        got, fires = fired(rules, cheap, seed, fn)
        assert fires > 3 and got == fires * 13, seed
    lines = set()
    for budget in range(26, 200):   # (a per_player do: of 13 units for each of 2 seats: 26 at least, load)
        (tmp_path / str(budget)).mkdir()
        rules = load_text(tmp_path / str(budget), in_play(kind, budget))
        ref = reference(rules)
        for seed in range(4):
            got = played(rules, seed)
            assert got == played(ref, seed), (budget, seed)
            if got[2] == "BudgetExceeded":
                lines.add(int(got[3].split(":")[1]))
    assert do_line in lines and len(lines) > 1


def test_every_bundled_games_trigger_firing_counts_one():
    """No bundled game's trigger effects may cost 100 operations: each firing counts one, a step
    run's base, and the generated module counts each when: trigger's firing (``fire_charged``)."""
    root = Path(__file__).parent.parent / "rulesets"
    for path in sorted(root.glob("*.yaml")):
        rules = interpreter.load(str(path))
        fns = [w[2] for w in rules.triggers.when] + [h[2] for hooks in rules.triggers.enter.values() for h in hooks]
        assert all(fn is None or fn.work < 100 for fn in fns), path.stem
        assert ("fire_charged" in rules.module_source) == any(w[2] is not None for w in rules.triggers.when), path.stem
        assert "_T.fire(" not in rules.module_source, path.stem
