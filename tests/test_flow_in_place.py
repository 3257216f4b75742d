"""Less flow between two questions (docs/performance.md "The execution model", "The flow, and the
protocol between the loop and the steps"): a ``choose`` in a sequence asked from the sequence's own
function, its frame made only to ask; an answer that changed nothing a check reads running the flow
on up to the next question in the resolve (building/trips.py); an attempt's frame pushed once its
actor is known. Each plays exactly the games of the plain reference (the step count and the saved
state included)."""
from __future__ import annotations

import random

import pytest

import interpreter
from interpreter.building.flowgen import FlowSource
from interpreter.building.trips import ancestors
from interpreter.engine.protocol import ASKED, UNCHANGED
from helpers import calls_in_play, chips_game, load_text, spots_game, tiny_ruleset
from test_flowgen import lockstep, reference
from fuzzing.lockstep import run_lockstep
from fuzzing.rulesets import Case

GAME = chips_game("""flow:
  - turns:
      rounds: 3
      steps:
        - set: {x: 0, y: 0}
        - choose: {options: "[1, 2, 3]", as: x, prompt: first}
        - move: {from: pool, to: mine, count: 1}
        - choose: {options: "%s", as: y, prompt: second}
        - choose: {who: "%s", options: "[4, 5]", as: y, prompt: third}
        - set: {x: 0}
scoring:
  categories: {chips: "count(mine)"}
""", game="choose_in_place")


def _chooses(rules) -> list:
    return [s for s in rules.steps if s.kind == "choose"]


@pytest.mark.parametrize("second,third", [
    ("[1, 2] where it > x", "me"),                       # asked, or nothing to offer after x = 2, 3
    ("[7] where x == 9", "0 if x == 1 else none"),       # never offered; the third asked of seat 0 or nobody
    ("[x, 8]", "none"),
])
def test_a_choose_in_a_sequence_is_asked_from_it(tmp_path, second, third):
    """Asked from its sequence's function, a choose's run is never called, and with nothing to
    offer (or nobody to ask) the sequence goes on at once: the same games as the reference."""
    rules = load_text(tmp_path, GAME % (second, third))
    chooses = _chooses(rules)
    assert len(chooses) == 3
    runs = {rules.runs[s.index].__code__ for s in chooses}
    assert sum(calls_in_play(rules, runs, 2, range(4)).values()) == 0
    for seed in range(6):
        assert lockstep(rules, 2 + seed % 2, seed) > 0


def test_an_error_in_the_options_is_located_at_the_choose(tmp_path):
    """Found in the sequence's function, before its frame is pushed, the options' error is still
    the choose's (as its own run locates it)."""
    rules = load_text(tmp_path, GAME % ("[1, 2] where it > 6 / (x - 1)", "me"))
    said = []
    for game in (rules, reference(rules)):
        S = game.new_game(2, seed=0)
        with pytest.raises(interpreter.GameError) as e:
            S.apply_index(0)   # x = 1: a division by zero in the second's options
        said.append(str(e.value))
    assert "in choose: division by zero" in said[0] and "prompt: second" in said[0] and said[0] == said[1]


def test_an_answer_runs_the_flow_up_to_the_next_question(tmp_path):
    """The answer to the first choose changes nothing a check reads: its resolve runs its sequence
    on (the move, the next question) and reports it asked (ASKED: the game loop has nothing to do),
    where the reference leaves the rest to the loop."""
    rules = load_text(tmp_path, GAME % ("[1, 2] where it > x", "me"))
    for game, asked in ((rules, ASKED), (reference(rules), UNCHANGED)):
        S = game.new_game(2, seed=1)
        frame, value = S.stack[-1], S.dec[1][0]
        S.dec = None
        assert game.resolves[frame[0]](S, frame, value) is asked
    a, b = rules.new_game(2, seed=1), reference(rules).new_game(2, seed=1)
    a.apply_index(0)
    b.apply_index(0)
    assert a.to_json() == b.to_json() and a.dec is not None


def test_an_attempt_frame_is_pushed_with_its_actor():
    """Where a turn's ``until`` enters the attempt, its frame is made with its stage and actor, not
    made blank and filled in after; a saved state shows it as ever."""
    rules = interpreter.load(interpreter.ruleset_path("mister_diamond"))
    attempt = next(s for s in rules.steps if s.kind == "attempt")
    pushed = []

    class Stack(list):   # (the stack the generated code pushes frames on: each frame as pushed)
        def append(self, frame):
            pushed.append(list(frame))
            super().append(frame)

        def extend(self, frames):   # (frames pushed in one go: building/late.py)
            pushed.extend(list(f) for f in frames)
            super().extend(frames)

    S, rnd = rules.new_game(4, seed=3), random.Random(3)
    S.stack = Stack(S.stack)
    for _ in range(40):
        S.apply_index(rnd.randrange(len(S.dec[1])))
    made = [f for f in pushed if f[0] == attempt.index]
    assert made and all(f[1] == 1 and f[2] is not None for f in made)
    for seed in range(3):
        assert lockstep(rules, 4, seed) > 0


def test_a_climb_passes_the_frames_taken_in_place():
    """The steps a resolve climbs to, nearest first, leave out a sequence on its last step and an
    attempt's outcome (their frames took the place of the ancestor's, decided on the step tree)."""
    rules = interpreter.load(interpreter.ruleset_path("mister_diamond"))
    g = FlowSource(rules.steps)
    attempt = next(s for s in rules.steps if s.kind == "attempt")
    assert [a.kind for a in ancestors(g, attempt)] == ["until", "turns"]
    place = next(s for s in rules.steps if s.kind == "choose" and s.prompt == "place")
    assert [a.kind for a in ancestors(g, place)] == ["steps", "until", "turns"]


def test_a_new_sequence_runs_where_it_is_entered():
    """A sequence entered and run at once (an attempt's outcome) has its first branch written
    where its frame is pushed: Mister Diamond's fake outcome, two effects, never calls its run."""
    rules = interpreter.load(interpreter.ruleset_path("mister_diamond"))
    attempt = next(s for s in rules.steps if s.kind == "attempt")
    fake = next(o.body for o in attempt.outcomes if o.name == "fake")
    assert len(fake.steps) == 2 and calls_in_play(rules, {rules.runs[fake.index].__code__}, 4, range(3)) == {
        rules.runs[fake.index].__code__: 0}
    for seed in range(3):
        assert lockstep(rules, 4, seed) > 0


FORCED = tiny_ruleset("""  hand: {owner: player, visible: owner}
auto_forced: true
vars:
  x: card
  y: int
flow:
  - turns:
      rounds: 3
      steps:
        - move: {from: deck, to: hand, count: 1}
        - choose: {options: "hand", as: x}
        - set: {x: none}
        - choose: {options: "[1, 2]", as: y}
""")


def test_a_forced_answer_runs_no_flow_on_in_its_resolve(tmp_path):
    """With forced moves (auto_forced), a resolve runs its own step alone: the forced move's event
    tells who may see it from that step's events only, and counts its step before the flow goes
    on (engine/loop.py forced), as the plain reference does; no budget reached at another place."""
    rules = load_text(tmp_path, FORCED)
    assert "top = S.stack[-1]" not in rules.module_source   # (no climb written anywhere)
    for seed in range(6):
        assert lockstep(rules, 2, seed) > 0
    S = rules.new_game(2, seed=0, record=True)
    forced = [e for e in S.ev if e["ev"] == "forced"]
    assert forced and all("seen_by" not in e for e in forced)   # (the set after it is no one's secret)
    (tmp_path / "b").mkdir()
    budget = load_text(tmp_path / "b", FORCED.replace("auto_forced: true", "auto_forced: true\nlimits: {steps: 12}"))
    for g in (budget, reference(budget)):
        with pytest.raises(interpreter.BudgetExceeded):
            S = g.new_game(2, seed=0)
            while not S.over:
                S.apply_index(0)


def test_a_choice_of_another_seat_with_none_for_options_raises_as_the_reference_does(tmp_path):
    """A choose asked of a seat other than ``me``, in a sequence, whose options are none: the
    options are made a tuple before the seat is found, so the error is raised, at the choose,
    not the step skipped as if it had nothing to offer."""
    rules = load_text(tmp_path, tiny_ruleset("""vars:
  x: "list[int]"
  y: int
flow:
  - choose: {who: 0, options: "[1, 2]", as: y}
  - choose: {who: 1, options: "x", as: y}
  - choose: {who: 0, options: "[3, 4]", as: y}
"""))
    for g in (rules, reference(rules)):
        S = g.new_game(2, seed=0)
        with pytest.raises(interpreter.GameError, match="in choose: a list was needed, got none") as e:
            S.apply_index(0)
        assert "g.yaml:12:5" in str(e.value)   # (the second choose)


RAISING = chips_game("""flow:
  - choose: {who: 0, options: "[1, 5]", as: x}
  - set: {z: "z + x"}
  - %s
%s
scoring:
  categories: {z: "z"}
""", game="raising", players=(2, 2), ints="x z", start=0)


@pytest.mark.parametrize("step", [
    'choose: {who: 1, options: "[[0, 1], [1, 2]][z]", as: x}',   # the options raise (z = 5)
    'choose: {who: "[0, 1][z]", options: "[0, 1]", as: x}',   # the seat asked raises
    'pick: {from: pool, to: mine, who: "[0, 1][z]", count: 1}',
], ids=["choose-options", "choose-who", "pick-who"])
@pytest.mark.parametrize("after", ["  - set: {z: 0}", ""], ids=["then-more", "last"])
def test_an_error_found_in_place_leaves_the_frame_the_reference_pushed(tmp_path, step, after):
    """A step asked from its sequence's function (Step.skip_source) whose options or seat raise:
    the same error at the same place, and the state as the reference's run leaves it, the step's
    new frame pushed (in the sequence's place where it is the last) before the error."""
    rules = load_text(tmp_path, RAISING % (step, after))
    stood = []
    for game in (rules, reference(rules)):
        S = game.new_game(2, seed=0)
        with pytest.raises(interpreter.GameError, match="index 5 is out of range") as e:
            S.apply_index(1)   # x = 5: z = 5
        stood.append((str(e.value), S.steps, S.stack, S.dec, S.to_dict()))
    assert stood[0] == stood[1]
    assert stood[0][2][-1][0] == [s for s in rules.steps if s.kind == step.split(":")[0]][-1].index   # (its frame)
    assert "g.yaml:15:5" in stood[0][0]


RAISING_IN_TURNS = chips_game("""flow:
  - turns:
      rounds: 2
      steps:
        - choose: {options: "[1, 5]", as: x}
        - set: {z: "z + x"}
        - %s
%s
scoring:
  categories: {z: "z"}
""", game="raising_in_turns", players=(2, 2), ints="x z", start=0)


@pytest.mark.parametrize("step", [
    'choose: {options: "[[0, 1], [1, 2]][z]", as: x}',   # the options raise (z = 5)
    'choose: {who: "[me, none][z]", options: "[0, 1]", as: x}',   # the seat asked raises
    'pick: {from: pool, to: mine, who: "[me, none][z]", count: 1}',
], ids=["choose-options", "choose-who", "pick-who"])
@pytest.mark.parametrize("after", ["        - set: {z: 0}", ""], ids=["then-more", "last"])
def test_an_error_found_in_place_inside_turns_leaves_the_reference_state(tmp_path, step, after):
    """As above, inside a ``turns`` whose choose asks the default seat (``me``): the same error,
    step count and stack as the reference's."""
    rules = load_text(tmp_path, RAISING_IN_TURNS % (step, after))
    stood = []
    for game in (rules, reference(rules)):
        S = game.new_game(2, seed=0)
        with pytest.raises(interpreter.GameError, match="index 5 is out of range") as e:
            S.apply_index(1)   # x = 5: z = 5
        stood.append((str(e.value), S.steps, S.dec, S.to_json()))
    assert stood[0] == stood[1]
    assert "g.yaml:18:11" in stood[0][0]


CHARGED_CHOOSE = chips_game("""flow:
  - turns:
      rounds: 6
      steps:
        - choose: {options: "[1, 2]", as: x}
        - set: {z: "z + x"}
        - choose: {options: "[1, 2] where count(pool where n + m > 2 and n * m < 60) > 0 and 10 / (2 - z) != 0", as: y}
        %s
end_when: ["z > 90"]
scoring:
  categories: {chips: "count(mine)"}
""", game="charged_choose", players=(2, 2), attributes="n: 1..9, m: 1..9", ints="x y z", start=0)


@pytest.mark.parametrize("after", ["- set: {y: 0}", ""], ids=["then-more", "last"])
def test_an_error_found_in_place_after_a_checked_change_counts_the_reference_steps(tmp_path, after):
    """A charged choose found in place after a change an end condition reads: its trip is counted
    ahead of the checks, but where its options raise the reference has counted only the
    sequence's trip (the choose's never ends): the same step count, error and stack."""
    rules = load_text(tmp_path, CHARGED_CHOOSE % after)
    assert [s for s in rules.steps if s.kind == "choose"][-1].charge > 0
    stood = []
    for game in (rules, reference(rules)):
        S = game.new_game(2, seed=0)
        with pytest.raises(interpreter.GameError, match="division by zero") as e:
            S.apply_index(1)   # x = 2: z = 2
        stood.append((str(e.value), S.steps, S.to_json()))   # (the stack as a saved state holds it)
    assert stood[0] == stood[1]


OUTCOMES = spots_game("""
flow:
  - turns:
      from: 0
      until: "count(board) < 20"
      steps:
        - choose: {options: "[1, 2]", as: z}
        - attempt:
            as: result
            outcomes:
              slip: {chance: "%s", steps: [{move: {from: board, to: taken, count: 1}}]}
              half: {chance: "0.5", steps: %s}
              take: {chance: rest, steps: [{move: {from: board, to: taken, count: 1}}]}
%s
scoring:
  categories: {taken: "count(taken)"}
""", game="outcomes_raising", extra_vars="  result: str\n")
CHARGED_CHANCE = "0.3 if count(board where n + m > 2 and n * m < 60 and n != m + 1) > 0 else 0.2"
OUTCOME_BODIES = {
    "effects": '[{set: {x: "[1, 2][x + 5]"}}]',
    "effects-more": '[{set: {z: 1}}, {set: {x: "[1, 2][x + 5]"}}]',
    "choose": '[{choose: {options: "[[1, 2]][x + 5]", as: x}}]',
    "choose-then": '[{choose: {options: "[[1, 2]][x + 5]", as: x}}, {set: {z: 1}}]',
    "pick-who": '[{pick: {from: board, to: taken, count: 1, who: "[0, 1][x + 5]"}}, {set: {z: 1}}]',
}


def played_states(rules, seeds, options=None) -> list:
    """Random games, each until it ends or raises: (decisions, the error's text, steps, the saved
    state: ``to_json``, whose frames are lists, a constant frame's tuple too)."""
    out = []
    for seed in seeds:
        rnd, k, S = random.Random(seed), 0, rules.new_game(2, seed=seed, options=options)
        try:
            while not S.is_terminal():
                S.apply_index(rnd.randrange(len(S.dec[1])))
                k += 1
            out.append((k, None, S.steps, S.to_json()))
        except interpreter.GameError as e:
            out.append((k, str(e), S.steps, S.to_json()))
    return out


@pytest.mark.parametrize("charged", [False, True], ids=["uncharged", "charged"])
@pytest.mark.parametrize("body", sorted(OUTCOME_BODIES))
def test_an_error_in_an_outcome_run_at_once_leaves_the_reference_state(tmp_path, body, charged):
    """An attempt's outcome run at once from its roll (FlowSource.next_step; an effect list
    written into the roll) whose steps raise: the error located where the reference locates it
    (at the effect), the outcome's sequence frame on the stack and the attempt's trip counted
    (charged for its chances, or not) as the reference leaves them."""
    rules = load_text(tmp_path, OUTCOMES % (CHARGED_CHANCE if charged else "0.3", OUTCOME_BODIES[body], ""))
    assert bool(rules.steps[-4].charge if rules.steps[-4].kind == "attempt" else
                next(s for s in rules.steps if s.kind == "attempt").charge) == charged
    got = played_states(rules, range(4), {"resolve": "random"})
    assert got == played_states(reference(rules), range(4), {"resolve": "random"})
    assert all(error is not None for _, error, _, _ in got)


ONE_EFFECT_BODY = chips_game("""flow:
  - turns:
      rounds: 3
      steps:
        - choose: {options: "[1, 2, 3]", as: x}
        - move: {from: pool, to: mine, count: 1}
        - %s
scoring:
  categories: {chips: "count(mine)"}
""", game="one_effect_body", players=(2, 2), ints="x z", start=0)
LOOPS = {"while": 'while: "x == 3 and z < 1"\n          steps: [%s]', "turns": "turns:\n            rounds: 1\n            as: inner\n            steps: [%s]"}


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_an_error_in_a_body_of_one_effect_list_is_located_at_the_effect(tmp_path, loop):
    """A ``while``'s or ``turns``'s body of one effect list, run as that list in the body's place
    (FlowSource.start): its error located at the effect ("in effects"), the body's frame left on
    the stack, as the reference leaves them."""
    rules = load_text(tmp_path, ONE_EFFECT_BODY % (LOOPS[loop] % '{set: {z: "[1, 2][x + 5]"}}'))
    got = played_states(rules, range(6))
    assert got == played_states(reference(rules), range(6))
    assert any(error is not None and "in effects" in error for _, error, _, _ in got)


# an attempt charged for its chances whose outcome's effects hold an if of one effect on each side
# (found by the random flows of tests/fuzzing/flows.py: the one line locating an error at that
# effect was written as two in one, and its second line lost the indent of the branch around it)
CHARGED_OUTCOME_IF = chips_game("""flow:
  - repeat: 4
    steps:
      - attempt:
          who: 1
          outcomes:
            slip: {chance: "0.3 if count(pool where n + m > 2) > 0 else 0.1"}
            take:
              steps:
                - set: {z: "z + 1"}
                - if: "z %% 2 == 1 and count(pool where n + m > 2) > 0"
                  then: [{for_each: {in: pool, do: %s}}]
                  else: [{for_each: {in: "pool where n == 1", do: [{set: {x: "10 // (2 - z)"}}]}}]
scoring:
  categories: {z: "z"}
""", game="charged_outcome_if", players=(2, 2), attributes="n: 1..9, m: 1..3", ints="x z", start=0)


@pytest.mark.parametrize("body", ["[]", '[{set: {x: "x + it.n"}}]'], ids=["empty", "one-effect"])
def test_an_if_of_one_effect_each_side_in_a_charged_outcome_compiles(tmp_path, body):
    rules = load_text(tmp_path, CHARGED_OUTCOME_IF % body)
    assert next(s for s in rules.steps if s.kind == "attempt").charge > 0
    verdicts = {run_lockstep(Case({"g.yaml": CHARGED_OUTCOME_IF % body}, "g.yaml", seed=seed), tmp_path / str(seed))
                for seed in range(12)}
    assert verdicts == {"played", "game-error"}   # z == 2: 10 // 0 in the else, raised alike


# a when trigger fires at a check (its flag set true, its effects making its condition false), then an
# if effect not quiet runs in place and its branch taken (or none) writes nothing a check reads: the
# reference checks after the step (the flag now false), the module notes no change and does not (the
# flag stays true), so the saved states differ and, once the condition holds again, the trigger fires
# in the reference only (found by the random flows of tests/fuzzing/flows.py, campaign seed 3, cases
# 2972 and, it seems, 1024: y 3 in the module, 0 in the reference)
WHEN_THEN_IF = chips_game("""effects:
  award: {do: []}
flow:
  - turns:
      steps:
        - repeat: 3
          steps:
            - choose: {options: "[1, 2, 3]", as: y}
            - if: "y > 1"
              then: %s
            - choose: {options: "[1, 2]", as: z}
triggers:
  many:
    when: "y > 2"
    do: [{set: {y: 0}}]
scoring:
  categories: {y: "y"}
""", game="when_then_if", players=(2, 2), ints="y z", start=0)


@pytest.mark.parametrize("then", ['[{set: {y: "y"}}]', "[award]"], ids=["writes-y", "calls-an-empty-effect"])
def test_a_when_trigger_is_checked_after_an_if_effect_as_in_the_reference(tmp_path, then):
    rules = load_text(tmp_path, WHEN_THEN_IF % then)
    for seed in range(4):
        lockstep(rules, 2, seed)
