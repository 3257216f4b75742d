"""An effect list that may end the game (an ``end_game`` in any branch, in a declared effect it
calls or in the enter triggers of a zone it fills) is followed by a test of ``S.over`` in the
generated steps; one that cannot end it is not (building/effects.py ``may_end``, the compiled
function's ``ends``; flowgen.FlowSource.ended). Either way the games are those of the plain
reference, which tests after every effect: the same states after every decision, the frames
left on the stack where a game ended included."""
from __future__ import annotations

import random

import pytest

import interpreter

from helpers import load_text, trick_ruleset
from test_flowgen import lockstep, reference

# an end_game in a turn's first effects, in a declared effect called from the turn's steps, in
# an attempt's outcome, in the enter trigger of a zone an outcome fills, in an if: between a
# turn's steps and in a choice's then: (its resolve goes on up the flow: FlowSource.climb); each its condition (%(first)s...) and its effect (%(first_fx)s...)
ENDS = """
game: ends_by_effect
players: {min: 2, max: 3}
params: {skill: 0.6}
components:
  spots:
    attributes: {n: 1..9}
zones:
  board: {owner: none, visible: all, start: [spots]}
  taken: {owner: player, visible: all}
  lost: {owner: none, visible: all}
vars:
  result: str
  pick: card
  rounds: {type: int, start: 0}
  x: int
effects:
  count_round:
    - set: {rounds: "rounds + 1"}
    - if: "%(declared)s"
      then: [%(declared_fx)s]
triggers:
  lost_one:
    on_enter: lost
    if: "%(trigger)s"
    do: [%(trigger_fx)s]
flow:
  - turns:
      from: 0
      until: "count(board) == 0"
      steps:
        - if: "%(first)s"
          then: [%(first_fx)s]
        - count_round
        - attempt:
            target: {from: board, as: pick}
            as: result
            outcomes:
              slip: {chance: "1 - skill(me)", steps: [{move: {from: board, to: lost, count: 1}},
                                                      {if: "%(outcome)s", then: [%(outcome_fx)s]}]}
              take: {chance: rest, steps: [{move: {from: board, to: taken, cards: "[pick]"}}]}
        - set: {x: "count(taken[me])"}
        - if: "%(sequence)s"
          then: [%(sequence_fx)s]
        - choose: {who: me, options: "[1, 2]", as: x, then: [{if: "%(choose)s", then: [%(choose_fx)s]}]}
        - set: {x: "x + 1"}
scoring:
  categories: {taken: "count(taken)"}
"""
PLACES = ("first", "declared", "outcome", "trigger", "sequence", "choose")
NO_END = "{set: {x: 0}}"   # (an effect in the end_game's place that cannot end the game)


def ends(where: str | None, elsewhere: str = "end_game") -> str:
    """ENDS with the end_game at ``where`` taken once four turns were played, the other places'
    condition false and their effect ``elsewhere`` (None: no place's condition holds)."""
    values = {p: "rounds >= 4" if p == where else "false" for p in PLACES}
    return ENDS % {**values, **{f"{p}_fx": "end_game" if p == where else elsewhere for p in PLACES}}


@pytest.mark.parametrize("where", PLACES)
@pytest.mark.parametrize("alone", [False, True], ids=["every-place-may-end", "one-place-may-end"])
def test_a_game_ended_by_an_effect_plays_as_the_reference(tmp_path, where, alone):
    rules = load_text(tmp_path, ends(where, NO_END if alone else "end_game"), "ends.yaml")
    ended = 0
    for seed in range(12):
        lockstep(rules, 2 + seed % 2, seed)   # (the stack at the end compared too: to_json)
        game = rules.new_game(2 + seed % 2, seed=seed, record=True)
        while not game.is_terminal():
            game.apply_index(0)
        ended += {"ev": "end_game"} in game.ev
    assert ended > 0   # (the end_game was reached: the place is exercised)


def _reads_over(fn) -> bool:
    """Whether a generated function's code reads or writes ``S.over``."""
    return "over" in fn.__code__.co_names


def test_no_over_test_follows_an_effect_that_cannot_end_the_game(tmp_path):
    """With no end_game anywhere, the turns' and the sequences' functions never read ``S.over``
    (before, one test followed each of their effect lists, a ``set`` of a variable included);
    with one in an if: between the turn's steps, the sequence running it tests after it."""
    quiet = load_text(tmp_path, ends(None, NO_END), "quiet.yaml")
    runs = {s.index: (s.kind, fn) for s, fn in zip(quiet.steps, quiet.runs)}
    flow = [fn for kind, fn in runs.values() if kind in ("turns", "steps")]
    assert len(flow) >= 3 and not any(map(_reads_over, flow)), quiet.module_source
    for seed in range(4):
        lockstep(quiet, 2, seed)
    one = load_text(tmp_path, ends("sequence", NO_END), "one.yaml")
    body = next(s for s in one.steps if s.kind == "steps" and any(c.kind == "choose" for c in s.steps))
    assert _reads_over(one.runs[body.index])
    turns = next(s for s in one.steps if s.kind == "turns")
    assert not _reads_over(one.runs[turns.index])   # (its first effects written in: none may end the game)


@pytest.mark.parametrize("hooks,tested", [
    ('on_void: [{gain: {counter: points}}, {if: "tricks_played >= 1 and card.rank > 3", then: [end_game]}]', True),
    ('on_play: [{if: "tricks_played >= 2 and card.rank > 4", then: [end_game]}]', True),
    ("on_void: [{gain: {counter: points}}]", False),
], ids=["void-ends", "play-ends", "void-cannot-end"])
def test_a_trick_hook_ending_the_game_stops_the_trick_as_the_reference(tmp_path, hooks, tested):
    rules = load_text(tmp_path, trick_ruleset(game="ends", hooks=hooks), "ends.yaml")
    step = next(s for s in rules.steps if s.kind == "tricks")
    assert step.asks_again   # (the next seat's question written in the resolve, after the hooks)
    assert ("not S.over and S.stack[-1] is frame" in rules.module_source) == tested
    for seed in range(10):
        lockstep(rules, 3, seed)


@pytest.mark.parametrize("where", [None, "choose"], ids=["then-cannot-end", "then-may-end"])
def test_a_choice_going_on_up_the_flow_tests_the_end_only_after_a_then_that_may_end(tmp_path, where):
    """A choice's resolve goes on up the flow after its answer (FlowSource.climb): the game's end
    is tested first only where its ``then:`` may end the game (a resolve starts with it going)."""
    rules = load_text(tmp_path, ends(where, NO_END), "choice.yaml")
    choose = next(s for s in rules.steps if s.kind == "choose")
    source = rules.module_source
    resolve = source[source.index(f"def Q{choose.index}("):]
    climb = resolve[resolve.index("    S.stack.pop()\n"):].splitlines()[1]
    assert climb == ("    if S.over or not S.stack:" if where else "    if not S.stack:")
    for seed in range(6):
        lockstep(rules, 2 + seed % 2, seed)


# the end reached through a chain the analysis follows: a zone's trigger filling another zone
# whose trigger ends the game, a declared effect calling one that fills it, a for_each filling it
CHAINS = """
game: chain
players: {min: 2, max: 3}
components:
  spots:
    attributes: {n: 1..9}
zones:
  board: {owner: none, visible: all, start: [spots]}
  a: {owner: none, visible: all}
  b: {owner: none, visible: all}
vars:
  x: int
effects:
  inner: [{move: {from: board, to: b, count: 1}}]
  outer: [inner]
triggers:
  to_b:
    on_enter: a
    do: [{move: {from: a, to: b, count: 1}}]
  ends:
    on_enter: b
    if: "count(b) >= %(enough)s"
    do: [end_game]
flow:
  - turns:
      from: 0
      until: "count(board) == 0"
      steps:
        - %(fills)s
        - set: {x: 2}
        - choose: {who: me, options: "[1, 2]", as: x}
"""


@pytest.mark.parametrize("fills", ["move: {from: board, to: a, count: 1}", "outer",
                                   "for_each: {in: '[1, 2]', as: k, do: [{move: {from: board, to: b, count: 1}}]}"])
def test_an_end_reached_through_triggers_or_declared_effects_is_tested_after_the_effect(tmp_path, fills):
    rules = load_text(tmp_path, CHAINS % {"fills": fills, "enough": 3})
    for seed in range(4):
        for players in (2, 3):
            lockstep(rules, players, seed)
    S = rules.new_game(2, seed=0)
    while not S.is_terminal():
        S.apply_index(0)
    assert len(S.to_dict()["zones"]["board"]) > 0   # (ended by the trigger, not by the board emptied)


def _until_error(rules, seed: int):
    """The error and the state a random game of two raises with (it must raise)."""
    rnd, S = random.Random(seed), rules.new_game(2, seed=seed)
    try:
        while not S.is_terminal():
            S.apply_index(rnd.randrange(len(S.dec[1])))
    except interpreter.GameError as e:
        return str(e), S.to_json()
    raise AssertionError("the game did not raise")


def test_an_effect_written_into_a_turns_entry_raising_leaves_the_references_state(tmp_path):
    """The turn's first effects, written where the turn begins (FlowSource.enters), raising: the
    same error, located at the same rule, and the same stack (the turn's sequence's frame on it,
    as the reference's sequence has it) as the reference."""
    fills = "move: {from: board, to: b, count: 1}\n        - set: {x: \"[1, 2, 3][count(b)]\"}"
    rules = load_text(tmp_path, CHAINS % {"fills": fills, "enough": 99})
    ref = reference(rules)
    for seed in range(3):
        got = _until_error(rules, seed)
        assert got == _until_error(ref, seed)
        assert "index" in got[0] and "g.yaml:30" in got[0], got[0]


@pytest.mark.parametrize("place", ["outcome", "while", "turns"])
def test_a_game_ended_by_a_one_effect_list_body_leaves_its_frame(tmp_path, place):
    """An ``end_game`` in an effect list that is a whole body (an attempt's outcome, a ``while``'s or
    a ``turns``'s steps), written or run in the body's place (FlowSource.next_step, start): the
    body's sequence frame is left on the stack where the game ended, as the reference leaves it
    (a finished game's saved state is compared whole)."""
    from test_flow_in_place import LOOPS, ONE_EFFECT_BODY, OUTCOMES, played_states
    from test_flowgen import reference
    text = (OUTCOMES % ("0.3", "[{end_game: {}}]", "") if place == "outcome" else
            ONE_EFFECT_BODY % (LOOPS[place] % "{end_game: {}}"))
    rules = load_text(tmp_path, text)
    got = played_states(rules, range(6), {"resolve": "random"})
    assert got == played_states(reference(rules), range(6), {"resolve": "random"})
    assert all(error is None for _, error, _, _ in got)
