"""The ``when:`` triggers' check written for the ruleset into its game loop (mechanics/triggers.py
``watch_source``, the one definition of the check): the games the reference loop plays (the same
writer with its specialisation off: each condition called by its function), its errors those of
the condition's own function, located at the trigger."""
from __future__ import annotations

import sys

import pytest

from interpreter.building.flowmodule import compile_flow
from interpreter.errors import GameError
from test_flowgen import lockstep, reference
from test_mechanics import load

WATCHED = """
triggers:
  threes:                                  # a scan, a card's table: the condition written in
    when: "count(pile where rank == 3) >= 2"
    do: [{set: {x: "x + 1"}}]
  quiet:                                   # no effects: its value kept all the same
    when: "count(pile) > 4"
    do: []
  rich:                                    # per player: its condition called for each seat
    when: "points >= 2"
    per_player: true
    do: [{gain: {counter: points, amount: 3}}]
flow:
  - repeat: 12
    steps:
      - choose: {who: 0, options: "[1, 2, 3]", as: x}
      - move: {from: deck, to: pile, count: 1}
      - gain: {counter: "points[x % 2]"}
      - if: "count(pile) == 6"
        then: [{move: {from: pile, to: deck, count: "count(pile)"}}, {shuffle: deck}]
"""


def test_the_loop_checks_when_triggers_by_code_written_for_the_ruleset(tmp_path):
    rules = load(tmp_path, WATCHED)
    threes = rules.triggers.when[0][1]
    loop = rules.flow_source[rules.flow_source.index("def advance("):]
    assert threes.source in loop                                   # written in, not called
    plain = compile_flow(rules, plain=True)[4]
    assert threes.source not in plain[plain.index("def advance("):]   # the reference calls it
    calls = []

    def profile(frame, event, arg):
        if event == "call" and frame.f_code is threes.__code__:
            calls.append(frame.f_code.co_name)

    S = rules.new_game(3, seed=1)
    sys.setprofile(profile)
    try:
        while not S.is_terminal():
            S.apply_index(S.steps % len(S.dec[1]))
    finally:
        sys.setprofile(None)
    assert calls == []
    fired = 0
    for seed in range(8):   # the same states, events and options as the reference check's, every decision
        assert lockstep(rules, 3, seed) > 0
        S = rules.new_game(3, seed=seed)
        while not S.is_terminal():
            S.apply_index(0)
        fired += S.v["x"]
    assert fired > 0


@pytest.mark.parametrize("engine", [lambda r: r, reference], ids=["compiled", "reference"])
def test_a_when_condition_using_none_is_the_language_error_at_the_trigger(tmp_path, engine):
    r = load(tmp_path, """
    triggers:
      t:
        when: "first(pile).rank > 2"
        do: [{set: {x: 5}}]
    flow:
      - choose: {who: 0, options: "[1, 2]", as: x}
    """)
    with pytest.raises(GameError) as e:
        engine(r).new_game(2)
    assert "in trigger t" in e.value.message and "none used as a value" in e.value.message
    assert 'when: "first(pile).rank > 2"' in (tmp_path / "t.yaml").read_text().splitlines()[e.value.loc.line - 1]
