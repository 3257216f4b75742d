"""A turn's entry with its frames pushed late (building/late.py): the turn's `until`, its attempt
and the attempt's target entered in the turn's own function push their three frames in one go
once the until's condition and the actor are known, each early return pushing what the
reference has pushed by then; the actor's none test left out where it is the turns' player just
set; the first lap's order the table's rotation. Every game, every budget's stop and every error
leave the state the plain reference leaves, and a state saved at a turn's first question plays
on as the game it came from."""
from __future__ import annotations

import random

import pytest

import interpreter
from helpers import load_text
from test_flowgen import _function, lockstep, reference

GAME = """
game: turn_entry
players: {{min: 2, max: 4}}
params: {{skill: 0.6}}
components:
  spots:
    attributes: {{n: 1..9}}
zones:
  board: {{owner: none, visible: all, start: [spots]}}
  taken: {{owner: player, visible: all}}
vars:
  pick: card
  done: bool
  k: int
setup:
  - set: {{k: 0}}
flow:
  - turns:
      from: {start}
{laps}      until: "count(board) == 0"
      steps:
        - set: {{done: "{done}", k: "k + 1"}}
{more}        - until: "{cond}"
          steps:
            - attempt:
                who: {who}
                target: {{from: "board", as: pick}}
                outcomes:
                  slip: {{chance: "1 - skill(me)", steps: [{{set: {{done: true}}}}]}}
                  take: {{chance: rest, steps: [{{move: {{from: board, to: taken, cards: "[pick]"}}}}]}}
limits: {{steps: {budget}}}
scoring:
  categories: {{taken: "count(taken)"}}
"""
PLAIN = dict(start="0", laps="", done="false", more="", cond="done or count(board) == 0", who="me", budget=10 ** 6)
# the until done at once every third turn (its condition tested before any frame is pushed)
AT_ONCE = dict(PLAIN, done="k % 3 == 0")
# an actor none now and then (its frames pushed as the reference's stand: the until's)
NOBODY = dict(PLAIN, who="\"none if count(board) % 4 == 0 and k % 2 == 0 else me\"")
# the turns' player written before the until: its none test kept (none where it is)
WRITTEN = dict(PLAIN, more="        - set: {turn_player: \"none if count(board) == 5 else me\"}\n")
CASES = {"plain": PLAIN, "at-once": AT_ONCE, "nobody": NOBODY, "written": WRITTEN,
         "from-2": dict(AT_ONCE, start="2"), "from-var": dict(PLAIN, start="k"),
         "rounds": dict(PLAIN, start="5", laps="      rounds: \"k + 2\"\n")}


def ruleset(tmp_path, case: dict, **changes):
    folder = tmp_path / str(len(list(tmp_path.iterdir())))
    folder.mkdir()
    return load_text(folder, GAME.format(**dict(case, **changes)))


def played(rules, seed: int, players: int) -> tuple:
    """Random decisions until the game ends or raises: (decisions, the error's kind and text or
    None, the state as it stands then)."""
    rnd, k, S = random.Random(seed), 0, None
    try:
        S = rules.new_game(players, seed=seed)
        while not S.is_terminal():
            S.apply_index(rnd.randrange(len(S.dec[1])))
            k += 1
    except interpreter.GameError as e:
        return k, f"{type(e).__name__}: {e}", S and S.to_json()   # (none: the new game's own trips ran out)
    return k, None, S.to_json()


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_turns_entry_plays_as_the_reference(tmp_path, case):
    """The same games as the reference (states and events after every decision), or, where an
    actor none leaves the until going round with nothing to do, the same budget error with the
    same state."""
    rules = ruleset(tmp_path, CASES[case])
    turns, attempt = (next(s for s in rules.steps if s.kind == k) for k in ("turns", "attempt"))
    body = _function(rules.flow_source, f"R{turns.index}")
    assert "S.dec = " in body and body.count("S.stack.extend(") == 1, body
    # the actor's none test only where the actor may be none there
    assert ("actor is None" in body) == (case in ("nobody", "written")), body
    # the first lap's order from the table where the first seat is a whole number and the laps
    # a bare value (laps that are a call, which may fail, made by the step's enter: the error
    # located at the turns)
    assert (f"E{turns.index}(" in rules.flow_source) == (case in ("from-var", "rounds"))
    ref = reference(rules)
    for players in (2, 3, 4):
        for seed in range(3):
            got = played(rules, seed, players)
            assert got == played(ref, seed, players), (players, seed)
            if got[1] is None:
                assert lockstep(rules, players, seed) == got[0]
            else:
                assert case in ("nobody", "written") and got[1].startswith("BudgetExceeded"), got[1]
    assert attempt.me_var == turns.var


@pytest.mark.parametrize("case", ["plain", "at-once", "nobody"])
def test_every_budget_stops_where_the_reference_stops(tmp_path, case):
    """Budgets from 1 to 80 steps, each turn's entry running out at each of its trips (the turns',
    the until's test, the target asked at once): the same decisions, error, message and state as
    the reference."""
    stops = set()
    for budget in range(1, 81):
        rules = ruleset(tmp_path, CASES[case], budget=budget)
        ref = reference(rules)
        for seed in range(2):
            got = played(rules, seed, 3)
            assert got == played(ref, seed, 3), (budget, seed)
            stops.add(got[0])
    assert len(stops) > 5, stops


def test_an_error_in_the_untils_condition_leaves_the_references_state(tmp_path):
    """The until's condition tested before its frame is pushed raises with that frame pushed, as
    the reference stands: the same message, located at the until, and the same state."""
    cond = "done or 10 / (count(board) - 7) < -100"
    rules = ruleset(tmp_path, PLAIN, cond=cond)
    ref = reference(rules)
    for seed in range(3):
        got = played(rules, seed, 2)
        assert got == played(ref, seed, 2), seed
        assert got[1] is not None and "in until:" in got[1] and "by zero" in got[1], got[1]


def test_a_state_saved_at_a_turns_first_question_plays_on_the_same(tmp_path):
    """A state saved at the target's question a turn's entry asked (its frames pushed in one go,
    the turns' order a tuple of the table), read back, plays the same game as the state it was
    saved from and as the reference's."""
    rules = ruleset(tmp_path, AT_ONCE, start="1")
    ref = reference(rules)
    turns = next(s for s in rules.steps if s.kind == "turns")
    checked = 0
    for seed in range(4):
        S, R, rnd, turn = rules.new_game(3, seed=seed), ref.new_game(3, seed=seed), random.Random(seed), None
        while not S.is_terminal():
            assert S.to_json() == R.to_json()
            frame = next(f for f in S.stack if f[0] == turns.index)
            if (frame[2], frame[3]) != turn:   # (a turn's first question: the frames its entry pushed on top)
                turn = frame[2], frame[3]
                assert [S.rules.steps[f[0]].kind for f in S.stack[-3:]] == ["until", "attempt", "attempt.target"]
                back, other, rest = rules.state_from_json(S.to_json()), S.clone(), random.Random(seed * 7)
                assert back == S
                while not back.is_terminal():
                    i = rest.randrange(len(back.dec[1]))
                    back.apply_index(i)
                    other.apply_index(i)
                    assert back.to_json() == other.to_json()
                checked += 1
            i = rnd.randrange(len(S.dec[1]))
            S.apply_index(i)
            R.apply_index(i)
    assert checked >= 8, checked
