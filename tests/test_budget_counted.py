"""The step budget counted as the loop counts it where a charged step (a ``while`` re-testing a
costly condition, an ``if:`` with a costly condition, turns with a costly ``until``) runs a
sequence at once: the loop counts that step's trip, ``1 + charge``, once the call returns, not
the sequence's own. A child of the sequence found not to apply (a choose with nothing to offer)
then hands the loop the sequence's frame (mechanics/base.py ``Sequence._segment``) instead of
counting the trip as the sequence's and going on; the checks asked in place (building/gameloop.py
``in_place``) are then only asked in the sequence's own trips. Every budget stops the game at the
same decision, with the same error, the same message and the same step count as the plain
reference's; an effect's error raised later is raised where the reference raises it. A step its
parent starts at once (a choose asked in its sequence's place, a branch, a one-step body's step)
counts its charge there, as the reference's sequence counts it (building/trips.py ``at_once``)."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import interpreter
from helpers import chips_game, load_text, spots_game
from test_flowgen import ATTEMPTS, reference

HEAD = chips_game("", game="budget_counted", players=(2, 2), attributes="n: 1..9, m: 1..9", ints="x y z")
COSTLY = "count(pool where n + m > 2) > 0"   # (81 chips: a charge of some units)
# the sequence run at once by its charged parent: a choose that never applies (skipped), a change
# the end condition reads (surely made, or noted inside an if), and a choose whose options raise
# once z is 2 (an error the reference never reaches where the budget ran out first)
BODY = """{pad}{first}
{pad}{then}
{pad}- set: {{z: "z + 1"}}
{pad}- choose: {{options: "[4, 5] where 10 / (2 - z) != 0", as: y, prompt: second}}
{pad}- set: {{x: "y - 2"}}"""
NEVER = '- choose: {{options: "[4, 5] where x == 9", as: y, prompt: never}}'
MOVE = "- move: {{from: pool, to: mine, count: 1}}"
NOTED = '- if: "z < 99"\n{pad}  then: [{{move: {{from: pool, to: mine, count: 1}}}}]'
WHILE = """flow:
  - turns:
      rounds: 40
      steps:
        - choose: {{options: "[1, 2, 3]", as: x, prompt: first}}
        - set: {{z: 0}}
        - while: "x == 3 and {costly}"
          steps:
{body}"""
IF = """flow:
  - set: {{z: 0}}
  - turns:
      rounds: 40
      steps:
        - move: {{from: pool, to: mine, count: 1}}
        - if: "{costly}"
          then:
{body}"""
UNTIL = """flow:
  - set: {{z: 0}}
  - turns:
      until: "x == 1 and {costly}"
      steps:
        - choose: {{options: "[1, 2, 3]", as: x, prompt: first}}
        - move: {{from: pool, to: mine, count: 1}}
        - turns:
            until: "x == 2 or not {costly}"
            as: inner
            steps:
{body}"""
TAIL = """end_when:
  - "count(pool) < 60"
limits: {{steps: {budget}}}
scoring:
  categories: {{chips: "count(mine)"}}
"""
PARENTS = {"while": (WHILE, 12), "if": (IF, 12), "until": (UNTIL, 14)}


def text(parent: str, change: str, budget: int, first: bool = False) -> str:
    flow, indent = PARENTS[parent]
    pad = " " * indent
    never, change = NEVER.format(pad=pad), change.format(pad=pad)
    body = BODY.format(pad=pad, first=change if first else never, then=never if first else change)
    return HEAD + flow.format(costly=COSTLY, body=body) + "\n" + TAIL.format(budget=budget)


def played(rules, seed: int, players: int = 2, options: dict | None = None) -> tuple:
    """Random decisions until the game ends or raises: (decisions, steps, the error's kind and
    text, or None, and the state then)."""
    rnd, k, S = random.Random(seed), 0, None
    try:
        S = rules.new_game(players, seed=seed, options=options)
        while not S.is_terminal():
            S.apply_index(rnd.randrange(len(S.dec[1])))
            k += 1
    except interpreter.GameError as e:
        return k, S.steps if S is not None else None, type(e).__name__, str(e), S and S.to_json()
    return k, S.steps, None, S.to_json()


def played_alike(rules, seed: int = 0, options: dict | None = None) -> tuple:
    """``played`` (two seats) by the ruleset's module and by its plain reference: both the same;
    the outcome."""
    got = played(rules, seed, options=options)
    assert got == played(reference(rules), seed, options=options)
    return got


@pytest.mark.parametrize("first", [False, True], ids=["skipped-first", "change-first"])
@pytest.mark.parametrize("change", [MOVE, NOTED], ids=["changed", "noted"])
@pytest.mark.parametrize("parent", sorted(PARENTS))
def test_every_budget_stops_where_the_reference_stops(tmp_path, parent, change, first):
    """Every budget from 5 (the parent's charge, 4, and one) to 90 steps, three games each: the same decisions, step count, error
    and message as the reference (the charged parent's trip counted before the budget is tested)."""
    rules = load_text(tmp_path, text(parent, change, 10 ** 6, first))
    assert any(s.charge and s.kind in ("while", "if", "turns") for s in rules.steps)   # (a charged parent)
    kinds = set()
    for budget in range(5, 91):
        (tmp_path / str(budget)).mkdir()
        rules = load_text(tmp_path / str(budget), text(parent, change, budget, first))
        ref = reference(rules)
        for seed in range(3):
            got = played(rules, seed)
            assert got == played(ref, seed), (budget, seed)
            kinds.add(got[2])
    assert "BudgetExceeded" in kinds


def test_an_attempt_stops_where_the_reference_stops(tmp_path):
    """Mister Diamond's attempt (charged 347 for its chances) runs its outcome's steps at once, and
    its target is asked at once by the ``until`` around it (both counted ahead of the trip running
    them: FlowSource.ahead): every budget from 487 to 599 steps stops the game at the same
    decision, step count and error as the reference, the first within the attempt's trip (every
    step but a sequence or an effect list counts 17 more for the end condition: building/gameloop.py
    checks_charge). Under 487 the first build, which decides the zones recorded (building/record.py)
    and so weighs its 'spot in real_spots' as walks, refuses the attempt."""
    text = (Path(__file__).parent.parent / "rulesets" / "mister_diamond.yaml").read_text()
    stopped = set()
    for budget in range(487, 600):
        (tmp_path / str(budget)).mkdir()
        rules = load_text(tmp_path / str(budget), text + f"\nlimits: {{steps: {budget}}}\n")
        got = played(rules, 0, 3)
        assert got == played(reference(rules), 0, 3), budget
        stopped.add(got[:3])
    # (its outcome's choose, run at once, counts its charge: the second decision asked at 515)
    assert {(0, 495, "BudgetExceeded"), (0, 515, "BudgetExceeded"), (1, 516, "BudgetExceeded")} <= {s[:3] for s in stopped}


UNCHANGED = """flow:
  - set: {{z: 0}}
  - turns:
      rounds: 40
      steps:
        - move: {{from: pool, to: mine, count: 1}}
{wrap}{pad}- if: "z > 99"
{pad}  then: [{{move: {{from: pool, to: mine, count: 1}}}}]
{pad}- choose: {{options: "[4, 5] where 10 / (7 - z) != 0", as: y, prompt: second}}
{pad}- set: {{z: "z + 1"}}
"""


@pytest.mark.parametrize("charged", [False, True], ids=["own-trip", "charged-parent"])
def test_a_noted_change_not_made_counts_the_trip_where_the_reference_does(tmp_path, charged):
    """A sequence whose effects may change what a check reads (an ``if`` effect) and did not:
    the next step runs at once, the trip running the sequence tested against the budget first (its
    own, or the charged parent's that ran it at once); every budget stops where the reference stops,
    and an error raised after it counts the steps the reference counts."""
    wrap = f'        - if: "{COSTLY}"\n          then:\n' if charged else ""
    flow = UNCHANGED.format(wrap=wrap, pad=" " * (12 if charged else 8))
    for budget in [*range(4, 60), 10 ** 6]:
        (tmp_path / str(budget)).mkdir()
        rules = load_text(tmp_path / str(budget), HEAD + flow + TAIL.format(budget=budget).replace("< 60", "< 50"))
        ref = reference(rules)
        for seed in range(2):
            assert played(rules, seed) == played(ref, seed), (budget, seed)


@pytest.mark.parametrize("body", ["effects", "choose"])
def test_an_outcome_run_at_once_stops_where_the_reference_stops(tmp_path, body):
    """An attempt's roll runs its outcome's steps at once (FlowSource.next_step), their trip counted
    ahead of the roll's (FlowSource.ahead): an effect list (``set:``, ``move:``) written into the
    roll, or a step entered in its one-step sequence's place (a choose). Where the roll's trip may
    pass the budget, the outcome's frame is handed to the loop first (the effects not run), the
    sequence's as the reference's loop finds it: every budget from 2 to 60 stops the game at the
    same decision, with the same step count, error and state (the stack) as the reference."""
    text = ATTEMPTS if body == "effects" else ATTEMPTS.replace(
        """steps: [{set: {result: "'halfway'"}}]""", """steps: [{choose: {options: "['a', 'b']", as: result}}]""")
    stopped = set()
    for budget in range(2, 61):
        (tmp_path / str(budget)).mkdir()
        rules = load_text(tmp_path / str(budget), text % f"limits: {{steps: {budget}}}")
        assert rules.steps[-4].kind == "attempt" and rules.steps[-4].outcomes[-1].body.steps[0].kind == "effects"
        ref = reference(rules)
        for seed in range(4):
            got = played(rules, seed, options={"resolve": "random"})
            assert got == played(ref, seed, options={"resolve": "random"}), (budget, seed)
            stopped.add(got[2])
    assert "BudgetExceeded" in stopped and None in stopped


OUTCOMES = """flow:
  - turns:
      until: "count(pool) < 70"
      steps:
        - attempt:
            target: {{from: "pool", as: pick}}
            outcomes:
              slip: {{chance: "1 - skill(me)", steps: [{{set: {{z: 1}}}}]}}
              take: {{chance: rest, steps: [{{move: {{from: pool, to: mine, cards: "[pick]"}}}}]}}
limits: {{steps: {budget}}}
scoring:
  categories: {{chips: "count(mine)"}}
"""


def test_an_attempts_outcome_of_effects_stops_where_the_reference_stops(tmp_path):
    """An outcome whose steps are effects alone, written into the attempt's roll (run at once, no
    frame made), where the trip rolling may pass the budget hands the loop the outcome's frame as
    the reference has it: every budget stops the game with the same step count, message and state
    (before, the effects ran and were counted past the budget)."""
    head = HEAD.replace("vars:", "params: {skill: 0.5}\nvars:\n  pick: card")
    for budget in range(1, 60):
        (tmp_path / str(budget)).mkdir()
        rules = load_text(tmp_path / str(budget), head + OUTCOMES.format(budget=budget))
        ref = reference(rules)
        for seed in range(3):
            got = played(rules, seed)
            assert got == played(ref, seed), (budget, seed)
            assert stand(rules, seed) == stand(ref, seed), (budget, seed)


def stand(rules, seed: int) -> str | None:
    """The state as it stands once a random game ends or raises (None: its new game raised)."""
    rnd, S = random.Random(seed), None
    try:
        S = rules.new_game(2, seed=seed)
        while not S.is_terminal():
            S.apply_index(rnd.randrange(len(S.dec[1])))
    except interpreter.GameError:
        pass
    return None if S is None else S.to_json()


@pytest.mark.parametrize("body", [
    '[{for_each: {in: "[1, 2, 3, 4, 5]", as: k, do: [{set: {z: "z + k"}}]}}]',
    '[{for_each: {in: "[1, 2, 3]", as: k, do: [{set: {z: "z + k"}}]}}, {choose: {options: "[1, 2]", as: x}}]',
    '[{for_each: {in: "[1, 2, 3]", as: k, do: [{set: {z: "z + count(board where n + m > k and n * m < 50 and n != m)"}}]}}]',
], ids=["for_each", "for_each-then-choose", "costly-body"])
def test_a_for_each_in_an_outcome_of_a_charged_attempt_stops_where_the_reference_stops(tmp_path, body):
    """A ``for_each`` (each pass counted and tested against the budget, at the for_each) in an
    outcome run at once by a roll charged for its chances: the roll's trip counted before the
    outcome's steps run, as the reference's loop counts it, so that every budget from 12 to 90
    stops the game at the same pass, step count and state (the costly body's list: 36 steps a run
    at worst, its 3 passes 9 each, refused at load below 35)."""
    from test_flow_in_place import CHARGED_CHANCE, OUTCOMES
    stopped = set()
    for budget in range(12, 91):
        (tmp_path / str(budget)).mkdir()
        try:
            rules = load_text(tmp_path / str(budget), OUTCOMES % (CHARGED_CHANCE, body, f"limits: {{steps: {budget}}}"))
        except interpreter.RulesetError as e:
            assert "count(board" in body and budget < 35 and [d.code for d in e.diagnostics if d.severity == "error"] == [
                "limit"] and any("its for_each passes 27 of them" in d.message for d in e.diagnostics), budget
            continue
        assert next(s for s in rules.steps if s.kind == "attempt").charge > 0
        ref = reference(rules)
        for seed in range(4):
            got = played(rules, seed, options={"resolve": "random"})
            assert got == played(ref, seed, options={"resolve": "random"}), (budget, seed)
            stopped.add(got[2])
    assert "BudgetExceeded" in stopped


def test_a_costly_effect_list_outcome_written_into_the_roll_counts_its_charge(tmp_path):
    """An outcome of one costly effect list (charged for its expression), written into the roll
    (FlowSource.next_step): its charge counted as the reference's sequence counts it, so a whole
    game ends with the reference's step count and every budget stops where the reference stops."""
    from test_flow_in_place import OUTCOMES
    body = '[{set: {x: "count(board where n + m > 2 and n * m < 50 and n != m)"}}]'
    for budget in [*range(10, 40), 10 ** 6]:
        (tmp_path / str(budget)).mkdir()
        rules = load_text(tmp_path / str(budget), OUTCOMES % ("0.3", body, f"limits: {{steps: {budget}}}"))
        assert any(s.kind == "effects" and s.charge for s in rules.steps)
        ref = reference(rules)
        for seed in range(4):
            assert played(rules, seed, options={"resolve": "random"}) == played(ref, seed, options={"resolve": "random"}), (budget, seed)


FOR_EACH = """flow:
  - for_each: {in: "[1, 2, 3, 4, 5]", as: %s, do: [{set: {y: "%s"}}]}
  - choose: {who: 0, options: "[1, 2]", as: x}
limits: {steps: %d}
scoring:
  categories: {chips: "count(mine)"}
"""
PASS_BODY = "count(pool where n + m > k and n * m < 60 and n != m + 1)"   # (1,380 operations: 13 units)


def test_each_pass_of_a_for_each_counts_one_and_its_bodys_charge(tmp_path):
    """A for_each over 5 elements whose body may cost 1,380 operations (13 units): each pass counts
    1 + 13 before its body runs, as a step run does, and the effect list's own run 1 + 13 (the
    body's work in its charge too: one pass over-counted, never under), so the game's first
    decision stands at 14 + 5 x 14 = 84 steps (a cheap body: 1 + 5 x 1 = 6; before, 1 + 13 + 5 = 19);
    every budget below 83 stops the game at a pass of the for_each, 83 at the next step, as the
    reference does, and 84 starts it."""
    body = PASS_BODY

    def game(body: str, budget: int) -> str:
        return chips_game(FOR_EACH % ("k", body, budget), game="for_each_passes",
                          players=(2, 2), attributes="n: 1..9, m: 1..9", ints="x y z", start=0)
    line = next(i for i, x in enumerate(game(body, 0).splitlines(), 1) if x.startswith("  - for_each:"))
    rules = load_text(tmp_path, game(body, 10 ** 6))
    assert [s.charge for s in rules.steps if s.kind == "effects"] == [13]
    assert rules.new_game(2, seed=0).steps == 84 == reference(rules).new_game(2, seed=0).steps
    (tmp_path / "cheap").mkdir()
    cheap = load_text(tmp_path / "cheap", game("1", 10 ** 6))
    assert cheap.new_game(2, seed=0).steps == 6 == reference(cheap).new_game(2, seed=0).steps
    (tmp_path / "me").mkdir()   # (as: me, over the 2 seats: 2 passes)
    seats = load_text(tmp_path / "me", game(body, 10 ** 6).replace('in: "[1, 2, 3, 4, 5]", as: k', 'in: "players", as: me')
                      .replace("> k", "> me"))
    assert [s.charge for s in seats.steps if s.kind == "effects"] == [13]
    assert seats.new_game(2, seed=0).steps == 14 + 2 * 14 == reference(seats).new_game(2, seed=0).steps
    for budget in range(14, 85):
        (tmp_path / str(budget)).mkdir()
        if budget < 83:   # (one run may count 1 + 13 + 5 x 14 = 84: refused at load below 83, at the step)
            with pytest.raises(interpreter.RulesetError) as e:
                load_text(tmp_path / str(budget), game(body, budget))
            assert [(d.code, d.loc.line) for d in e.value.diagnostics] == [("limit", line)], budget
            continue
        rules = load_text(tmp_path / str(budget), game(body, budget))
        got = [started_at(r) for r in (rules, reference(rules))]
        # (the list's charge, 13, counted before it runs, its passes 5 x 14 as they run, its trip's
        # one once it returns: past 83, the game stopped then, at the next step, the choose)
        assert got[0] == got[1] == ((84, None) if budget == 84 else (None, line + 1)), budget
    twice = game(body, 10 ** 6).replace("  - for_each:", "  - repeat: 2\n    steps:\n      - for_each:")
    stops = set()
    for budget in range(83, 170):   # (run twice: the second run stops at each of its passes in turn)
        (tmp_path / f"twice-{budget}").mkdir()
        rules = load_text(tmp_path / f"twice-{budget}", twice.replace("steps: 1000000", f"steps: {budget}"))
        got = [started_at(r) for r in (rules, reference(rules))]
        assert got[0] == got[1], budget
        stops.add(got[0][1])
    assert line + 2 in stops   # (at a pass of the for_each, now at line + 2)


WEIGHED = """%s
flow:
  - for_each: {in: "%s", as: k, do: [%s]}
  - choose: {who: 0, options: "[1, 2]", as: x}
limits: {steps: %d}
scoring:
  categories: {chips: "count(mine)"}
"""
PASS_SET = '{set: {y: "%s"}}' % PASS_BODY
IN_EFFECT = ('effects:\n  each: [{for_each: {in: "[1, 2]", as: j, do: [{set: {y: "%s"}}]}}]'
             % PASS_BODY.replace("> k", "> j"))


@pytest.mark.parametrize("declared, over, body", [
    ("", "1..5", PASS_SET),
    ("", "1..3", '{for_each: {in: "[1, 2]", as: j, do: [%s]}}' % PASS_SET),
    (IN_EFFECT, "1..3", "each")], ids=["flat", "nested", "in-a-declared-effect"])
def test_a_for_each_is_weighed_at_load_as_its_passes_count(tmp_path, declared, over, body):
    """A step's weight at load (what building/bounded.py weigh_steps compares with the budget) is
    its charge and what its for_each passes may count (``pass_steps``): each of its list's elements
    at most (a range of literals: all of them) a pass of one and its body's charge, the passes of
    the loops in the body (a nested for_each's, a declared effect's it calls) times as many; over
    literal lists every pass runs, so one run counts exactly 1 + charge + pass_steps, module and
    reference alike (the first decision stands just after it). Before, the weight was the charge."""
    rules = load_text(tmp_path, chips_game(WEIGHED % (declared, over, body, 10 ** 6), game="weighed", players=(2, 2),
                                           attributes="n: 1..9, m: 1..9", ints="x y z", start=0))
    step = next(s for s in rules.steps if s.kind == "effects")
    assert step.pass_steps == {"1..5": 5 * 14, "1..3": 3 * (1 + 13 + 2 * 14) + 3 * (body == "each")}[over]
    assert rules.new_game(2, seed=0).steps == 1 + step.charge + step.pass_steps == reference(rules).new_game(2, seed=0).steps


def loaded(folder, text: str) -> tuple:
    """The rules loaded from ``text`` and the (severity, code, line, message) of their cost
    diagnostics, or None and those of the error refusing them."""
    try:
        rules = load_text(folder, text)
    except interpreter.RulesetError as e:
        return None, [(d.severity, d.code, d.loc.line, d.message) for d in e.diagnostics]
    return rules, [(d.severity, d.code, d.loc.line, d.message) for d in rules.warnings if d.code == "cost"]


REVIEWED = """flow:
  - turns:
      rounds: 2
      steps:
        - choose: {options: "[1, 2]", as: x}
        - for_each: {in: "%s", as: k, do: [{set: {y: "count(pool as a where count(pool as b where a.n < b.m) > x) + k"}}]}
limits: {steps: %d}
scoring:
  categories: {chips: "count(mine)"}
"""


def test_a_costly_for_each_step_is_warned_and_refused_at_its_passes_weight(tmp_path):
    """A step of a for_each over 1..50 whose body may cost some 33,300 operations (332 units): one
    run counts 1 + 334 + 50 x 333 = 16,985 steps (it was weighed at 334: not warned at a budget of
    40,000, where the game stopped at the third run). Refused at a budget below 16,984, at the
    step; warned of at 16,984 and at 40,000 with that count and the runs that stop a game (3: two
    runs, after two decisions, then the third stops it, module and reference alike). A for_each over
    a list whose length is known only as a variable's (1..x) is weighed at one pass."""
    def game(over: str, budget: int) -> str:
        return chips_game(REVIEWED % (over, budget), game="reviewed", players=(2, 3),
                          attributes="n: 1..9, m: 1..9", ints="x y z", start=0)
    line = next(i for i, x in enumerate(game("1..50", 0).splitlines(), 1) if "- for_each:" in x)
    for budget in (16_983, 16_984, 40_000):
        (tmp_path / str(budget)).mkdir()
        rules, said = loaded(tmp_path / str(budget), game("1..50", budget))
        assert [d[:3] for d in said] == [("error" if rules is None else "warning", "limit" if rules is None else "cost",
                                          line)], budget
        assert "16,985 steps" in said[0][3] and "its for_each passes 16,650 of them" in said[0][3], said
        if rules is not None:
            step = next(s for s in rules.steps if s.pass_steps)
            assert (step.charge, step.pass_steps) == (334, 16_650)
    assert f"a game running it {40_000 // 16_985 + 1} times stops" in said[0][3]
    got = [played(r, 0) for r in (rules, reference(rules))]
    assert got[0][:3] == got[1][:3] and got[0][0] == 2 and got[0][2] == "BudgetExceeded"
    assert ("every step run, every pass of a for_each, every firing of a trigger's do: and every turn a turns step "
            "skips counts one" in got[0][3])   # (what counts, said where the game stops: engine/loop.py over_budget)
    (tmp_path / "x").mkdir()
    rules, said = loaded(tmp_path / "x", game("1..x", 10 ** 6))
    assert said == [] and next(s for s in rules.steps if s.pass_steps).pass_steps == 1 + 332


def started_at(rules) -> tuple:
    """A new game's step count, or the line the budget stopped it at."""
    try:
        return rules.new_game(2, seed=0).steps, None
    except interpreter.BudgetExceeded as e:
        return None, e.loc.line


CHECKED_THEN_FOR_EACH = chips_game("""flow:
  - turns:
      rounds: 6
      steps:
        - choose: {options: "[1, 2]", as: x}
        - set: {z: "z + x"}
        - if: "count(pool where n + m > 2 and n * m < 60 and n != m + 1) > 0"
          then:
            - for_each: {in: "[1, 2, 3, 4, 5]", as: k, do: [{set: {y: "y + k"}}]}
            - choose: {options: "[1, 2]", as: y}
            - set: {x: 0}
end_when: ["z > 90"]
limits: {steps: %d}
scoring:
  categories: {chips: "count(mine)"}
""", game="checked_then_for_each", players=(2, 2), attributes="n: 1..9, m: 1..9", ints="x y z", start=0)


def test_a_for_each_in_a_charged_step_run_after_the_checks_stops_where_the_reference_stops(tmp_path):
    """A charged ``if`` run at once by its sequence after a change an end condition reads (its trip
    counted ahead of the checks: Sequence._segment), whose body's ``for_each`` counts and tests each
    pass: the sequence's trip counted ahead, the ``if``'s once it returns, so that every budget from
    15 to 129 stops the game at the same pass, step count and state as the reference."""
    stopped = set()
    for budget in range(15, 130):
        (tmp_path / str(budget)).mkdir()
        rules = load_text(tmp_path / str(budget), CHECKED_THEN_FOR_EACH % budget)
        assert next(s for s in rules.steps if s.kind == "if").charge > 0
        ref = reference(rules)
        for seed in range(4):
            got = played(rules, seed)
            assert got == played(ref, seed), (budget, seed)
            stopped.add(got[2])
    assert "BudgetExceeded" in stopped


COSTLY_BODY = spots_game("""
flow:
  - turns:
      from: 0
      until: "count(board) < 10"
      steps:
        - choose: {options: "[1, 2, 3]", as: x}
        - move: {from: board, to: taken, count: 1}
        - %s
%s
scoring:
  categories: {taken: "count(taken)"}
""", game="costly_body")
COSTLY_SET = '{set: {z: "z + count(board where n + m > 2 and n * m < 60 and n != m + 1)"}}'


@pytest.mark.parametrize("body", ["phase: p\n          steps: [%s]", "repeat: 2\n          steps: [%s]",
                                  'while: "x == 3 and z < 80"\n          steps: [%s]',
                                  "turns:\n            rounds: 1\n            as: inner\n            steps: [%s]"],
                         ids=["phase", "repeat", "while", "turns"])
def test_a_body_of_one_costly_effect_list_run_at_once_counts_its_charge(tmp_path, body):
    """A loop's or phase's body of one costly effect list, run at once where its frame is pushed
    (FlowSource.enters, the list in its one-step sequence's place): its charge counted as the
    reference's sequence counts it (before, never: a whole game 181 steps against 586), and
    every budget stops the game where the reference's does."""
    for limit in ["", *(f"limits: {{steps: {n}}}" for n in range(12, 100, 9))]:
        (tmp_path / (limit[-4:-1].strip() or "none")).mkdir()
        rules = load_text(tmp_path / (limit[-4:-1].strip() or "none"), COSTLY_BODY % (body % COSTLY_SET, limit))
        assert any(s.kind == "effects" and s.charge for s in rules.steps)
        ref = reference(rules)
        for seed in range(2):
            assert played(rules, seed) == played(ref, seed), (limit, seed)


# steps that their parent starts at once (no trip of the loop's of their own), each charged: a choose
# asked in its sequence's place, an ``if`` never taken, a branch after a quiet ``set``, a choose in
# the one-step body of a ``while`` and of a branch's alternative (FlowSource.enters, next_step)
AT_ONCE = chips_game("""flow:
  - turns:
      rounds: 8
      steps:
        - choose: {options: "[1, 2, 3] if count(pool where n + m > 2 and n != m) > 0 else [4]", as: x, prompt: first}
        - if: "count(pool where n + m > 40 and n != m) > 0"
          then: [{set: {z: 0}}]
        - set: {z: "z + count(pool where n * m > 6 and n != m)"}
        - branch:
            prompt: act
            options:
              take: {if: "count(pool where n + m > x and n != m) > 0", steps: [{move: {from: pool, to: mine, count: 1}}]}
              more: {if: "count(pool where n * m > x and n != m) > 1", steps: [{choose: {options: "[1, 2] if count(pool where n > m) > 0 else [3]", as: y, prompt: more}}]}
              rest: {}
        - while: "y == 1 and count(pool where n + m > 3) > 0"
          steps:
            - choose: {options: "[1, 2] if count(pool where n > m + 1) > 0 else [3]", as: y, prompt: again}
limits: {steps: %d}
scoring:
  categories: {chips: "count(mine)"}
""", game="at_once", players=(2, 2), attributes="n: 1..9, m: 1..9", ints="x y z", start=0)


def test_a_step_run_at_once_counts_its_charge_each_run(tmp_path):
    """A choose, set, choose (each charged), the first choose asked in its sequence's place and the
    second run at once after the quiet ``set``: each choose's options count their charge where they
    are found, as the set's do (before, only the set's were: 10 steps for this game's 22)."""
    flow = chips_game("""flow:
  - choose: {who: "first(players)", options: "[1, 2] if count(pool where n + m > 2) > 0 and count(pool where n > m) > 0 else [3]", as: x}
  - set: {y: "count(pool where n + m > 2) + count(pool where n + m > 3)"}
  - choose: {who: "first(players)", options: "[1, 2] if count(pool where n + m > 2) > 0 and count(pool where n > m) > 0 else [3]", as: y}
scoring:
  categories: {chips: "count(mine)"}
""", game="three_charged", players=(2, 2), attributes="n: 1..9, m: 1..9", ints="x y", start=0)
    rules = load_text(tmp_path, flow)
    first, setting, second = rules.steps[:3]
    assert (first.kind, setting.kind, second.kind) == ("choose", "effects", "choose") and all(
        s.charge for s in (first, setting, second))
    for r in (rules, reference(rules)):
        S = r.new_game(2, seed=0)
        assert S.steps == 1 + first.charge   # (the flow's trip, and the choose it runs at once)
        S.apply_index(0)
        S.apply_index(0)
        assert S.is_terminal() and S.steps == 2 + first.charge + setting.charge + second.charge


def test_the_steps_a_parent_runs_at_once_stop_where_the_reference_stops(tmp_path):
    """Every fourth budget from 30 (the branch's charge, 29, and one) to 230 stops a game of steps run at once (AT_ONCE) at the same decision,
    step count, error and state as the plain reference; a whole game counts each choose's charge
    each time it is asked at least, and each run of the branch's."""
    rules = load_text(tmp_path, AT_ONCE % 10 ** 6)
    first = next(s for s in rules.steps if s.kind == "choose" and s.prompt == "first")
    branch = next(s for s in rules.steps if s.kind == "branch")
    assert first.charge and branch.charge and all(s.charge for s in rules.steps if s.kind in ("choose", "if", "while"))
    for seed in range(3):   # (every turn asks 'first' once and runs the branch once)
        rnd, S, asked = random.Random(seed), rules.new_game(2, seed=seed), 0
        while not S.is_terminal():
            asked += S.prompt() == "first"
            S.apply_index(rnd.randrange(len(S.dec[1])))
        assert asked == 16 and S.steps > asked * (first.charge + branch.charge)
        assert played(rules, seed) == played(reference(rules), seed)
    stopped = set()
    for budget in range(30, 231, 4):
        (tmp_path / str(budget)).mkdir()
        rules = load_text(tmp_path / str(budget), AT_ONCE % budget)
        ref = reference(rules)
        for seed in range(2):
            got = played(rules, seed)
            assert got == played(ref, seed), (budget, seed)
            assert stand(rules, seed) == stand(ref, seed), (budget, seed)
            stopped.add(got[2])
    assert "BudgetExceeded" in stopped


# ---------------------------------------------------------------------- the checks asked after a step
# a condition never true whose nested filter over the 81 chips may cost some 20,000 operations
# (a charge of some 200 units); the flow changes what it reads at every step
CHECKED = "count(pool as a where count(pool as b where a.n < b.m) > x) == 12345 + x"
CHECKS = {"end_when": 'end_when: ["{cond}"]',
          "when": "triggers:\n  t:\n    when: \"{cond}\"\n    per_player: true\n    do: [{{set: {{z: \"z + 1\"}}}}]",
          "on_enter": "triggers:\n  t:\n    on_enter: mine\n    if: \"{cond}\"\n    do: [{{set: {{z: \"z + 1\"}}}}]"}
CHECKED_FLOW = """flow:
  - turns:
      rounds: 30
      steps:
        - choose: {{options: "[1, 2, 3]", as: y, prompt: first}}
        - set: {{x: "x + y"}}
        - move: {{from: pool, to: mine, count: 2}}
{check}
limits: {{steps: {budget}}}
scoring:
  categories: {{chips: "count(mine)"}}
"""


def checked_game(kind: str, budget: int, cond: str = CHECKED) -> str:
    """A game of 30 rounds for 2 or 3 seats asking ``cond`` as ``kind`` says (CHECKS), its budget ``budget``."""
    return chips_game(CHECKED_FLOW.format(check=CHECKS[kind].format(cond=cond), budget=budget),
                      game="checked", players=(2, 3), attributes="n: 1..9, m: 1..9", ints="x y z", start=0)


def asked(rules, seed: int, cond) -> tuple:
    """``played`` (random decisions), and how many times ``cond`` (a compiled condition) ran."""
    calls = [0]

    def profile(frame, event, arg):
        if event == "call" and frame.f_code is cond.__code__:
            calls[0] += 1
    sys.setprofile(profile)
    try:
        got = played(rules, seed, 3)
    finally:
        sys.setprofile(None)
    return got, calls[0]


def condition(rules, kind: str):
    """The compiled condition a ``checked_game`` of ``kind`` asks."""
    if kind == "end_when":
        return rules.end_checks[0]
    return rules.triggers.when[0][1] if kind == "when" else rules.triggers.enter["mine"][0][1]


@pytest.mark.parametrize("kind", sorted(CHECKS))
def test_a_costly_check_is_counted_each_time_it_is_asked(tmp_path, kind):
    """An end condition, a when: trigger's condition (per player: for each seat) and an enter
    trigger's if:, each costing some 200 units: a whole game counts each time the reference asks
    it (the generated module asks it no oftener), the same steps as the reference; every budget
    (every 500th from 2,000 to 27,000 steps) stops the game at the same decision, count, error and
    state in both, having counted each time it asked the condition. The same game with a cheap
    condition counts none of it."""
    rules = load_text(tmp_path, checked_game(kind, 10 ** 6))
    cost = condition(rules, kind).work // 100
    assert cost > 150
    (tmp_path / "cheap").mkdir()
    cheap = load_text(tmp_path / "cheap", checked_game(kind, 10 ** 6, "x == 12345"))
    ref = reference(rules)
    got, times = asked(ref, 0, condition(rules, kind))
    assert got == played(rules, 0, 3) and got[2] is None
    assert times >= 30 and got[1] >= times * cost
    assert played(cheap, 0, 3)[1] < 1000 < times * cost   # (nothing counted for a cheap one)
    stopped, lines = set(), set()
    for budget in range(2000, 27001, 500):
        (tmp_path / str(budget)).mkdir()
        rules = load_text(tmp_path / str(budget), checked_game(kind, budget))
        got, times = asked(reference(rules), 1, condition(rules, kind))
        assert got == played(rules, 1, 3), budget
        assert got[2] == "BudgetExceeded" and got[1] >= times * cost, budget
        stopped.add(got[0])
        lines.add(int(got[3].split(":")[1]))
    assert len(stopped) > 5   # (at several decisions of the game)
    if kind == "on_enter":   # (stopped at the if: where it passed the budget)
        text = checked_game(kind, 0).splitlines()
        assert text.index(f'    if: "{CHECKED}"') + 1 in lines


def test_cheap_checks_add_nothing_to_the_generated_code():
    """The bundled games' end conditions and when: triggers cost less than 100 operations but
    Mister Diamond's (the sum over its seats' won tiles: 17 units on each step but a sequence or an
    effect list), and no enter trigger's
    condition is asked at entry: no step counts more for them, and no line counts nothing."""
    from interpreter.building.gameloop import checks_charge
    root = Path(__file__).parent.parent / "rulesets"
    for path in sorted(root.glob("*.yaml")):
        rules = interpreter.load(str(path))
        assert checks_charge(rules) == (17 if path.stem == "mister_diamond" else 0), path.stem
        assert "S.steps += 0\n" not in rules.module_source
        assert all(table is not None or cond is None or cond.work < 100
                   for hooks in rules.triggers.enter.values() for _, cond, _, table in hooks)
