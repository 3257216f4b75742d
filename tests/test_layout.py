"""The state layout (engine/layout.py): each zone, counter and variable in a slot of the
ruleset's State class, which generated code reads; ``S.z``, ``S.c``, ``S.v`` by name."""
from __future__ import annotations

import copy
import json

import pytest

import interpreter
from interpreter.expr.names import counter_ref, slot, var_ref, zone_ref
from helpers import load_text, tiny_ruleset

GAME = tiny_ruleset("""
  hand: {owner: player}
counters:
  score: {owner: player}
  tokens: {owner: player, keys: [gold, silver]}
  tokens__gold: {start: 7}
vars:
  turn_seat: {type: int, start: 0}
  pick: int
triggers:
  rich:
    when: "score[0] >= 3"
    do:
      - set: {turn_seat: 9}
flow:
  - repeat: 2
    steps:
      - deal: {from: deck, to: hand, count: 1}
      - set: {"score[0]": "score[0] + 1"}
  - choose: {who: 0, options: "[1, 2]", as: pick}
  - set: {"score[0]": "score[0] + 1"}
""", game="g", attributes="rank: 1..6", label="{rank}", seen=None)


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    return load_text(tmp_path_factory.mktemp("layout"), GAME, "g.yaml")


def test_each_table_has_a_slot_of_its_own(rules):
    layout = rules.layout
    assert len(set(layout.slots)) == len(layout.slots)   # one name, one slot
    assert slot("c", "tokens.gold") != slot("c", "tokens__gold")
    assert slot("z", "my-zone").isidentifier() and slot("z", "my-zone") != slot("z", "my_zone")
    S = rules.new_game(2, seed=1)
    assert type(S).__mro__[1] is interpreter.State and not hasattr(S, "__dict__")
    assert getattr(S, layout.zones["deck"]) is S.z["deck"]   # the dict holds the state's own lists
    assert getattr(S, layout.counters["tokens__gold"]) == 7 and S.c["tokens.gold"] == [0, 0]


def test_generated_code_reads_the_slots(rules):
    listing = rules.module_source
    assert zone_ref("hand") in listing and counter_ref("score") in listing and var_ref("turn_seat") in listing
    assert "S.z[" not in listing and "S.v[" not in listing


def test_a_write_through_the_dicts_is_the_states(rules):
    S = rules.new_game(2, seed=1)
    S.c["score"] = [2, 0]   # (a scenario's patch, a test's set-up)
    S.v["turn_seat"] = 1
    held = len(S.zone("hand")[1])
    S.z["hand"][1].append(S.z["deck"].pop())
    assert S.counter("score") == [2, 0] and S.var("turn_seat") == 1 and len(S.zone("hand")[1]) == held + 1
    kept = S.c   # a dict taken from the slots: a later change is the state's, not the dict's
    S.set_counter("score", [5, 5])
    assert kept["score"] == [2, 0] and S.c["score"] == [5, 5]
    with pytest.raises(KeyError):
        S.c["no_such_counter"] = 1
    with pytest.raises(TypeError):
        S.v.pop("turn_seat")
    copied = copy.deepcopy(S.z)   # plain data, apart from the state
    assert type(copied) is dict and copied == S.z and copied["deck"] is not S.zone("deck")
    assert json.loads(json.dumps(S.c)) == {"score": [5, 5], "tokens.gold": [0, 0], "tokens.silver": [0, 0],
                                           "tokens__gold": 7}


def test_a_triggers_memory_is_absent_until_checked_as_before(rules):
    S = rules.new_game(2, seed=1)
    memory = sorted(rules.layout.memory)
    assert memory and all(getattr(S, rules.layout.vars[k]) is False for k in memory)   # checked at the start
    blank = interpreter.engine.state.blank(rules, 2, 0, {}, {}, ((0,), (1,)))
    assert not set(memory) & set(blank.v) and set(blank.v) == {"turn_seat", "pick"}
    while not S.is_terminal():
        S.apply_index(0)
    assert S.v["turn_seat"] == 9 and S.v[memory[0]] is True


def test_a_clone_copies_every_slot_and_shares_the_lists_until_written(rules):
    S = rules.new_game(2, seed=3)
    C = S.clone()
    assert type(C) is type(S) and C.to_json() == S.to_json()
    assert C.zone("deck") is S.zone("deck") and "deck" in C.sh
    C.own("deck").pop()
    assert len(C.zone("deck")) == len(S.zone("deck")) - 1
    assert interpreter.engine.state.from_dict(rules, json.loads(S.to_json())).digest() == S.digest()


def test_each_state_takes_a_decision_by_its_rulesets_own_apply_index():
    """A decision's apply_index is written for each ruleset beside its game loop (building/
    decision.py) and is its State class's method: the same generated module, no call between."""
    rules = interpreter.load("diamonds")
    S = rules.new_game(4, seed=1)
    assert type(S).apply_index is rules.apply_index
    assert rules.apply_index.__code__.co_filename == rules.advance.__code__.co_filename
    assert rules.apply_index.__globals__["advance"] is rules.advance
    other = interpreter.load("hearts")
    assert type(other.new_game(4, seed=1)).apply_index is other.apply_index is not rules.apply_index
