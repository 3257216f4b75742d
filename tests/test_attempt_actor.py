"""An attempt's ``actor:`` (docs/reference.md "attempt"): the variable naming the seat that
attempted, ``me`` in its outcomes' steps, as a branch's ``as:`` names the seat that chose (the
same rules: required where ``who`` is another than ``me`` and the steps read ``me``; a name of its
own, which nothing in the steps writes). Rolled or told by the table; in the module as in its
plain reference."""
from __future__ import annotations

import pytest

from fuzzing.lockstep import reference
from helpers import load_text
from test_branch_as import BASE, error, text   # (the same game and flow: a branch's as: is actor:'s model)
from interpreter.errors import RulesetError


THROW = """
- attempt:
    who: "left(me)"
    actor: thrower
    as: result
    outcomes:
      hit:
        chance: "1 if me == 1 else 0"       # (read for the seat asked: certain for seat 1)
        steps:
          - gain: {counter: points, amount: 10}
          - move: {from: hand, to: pile, count: 1}
          - choose: {options: "[me * 10, me * 10 + 1]", as: x}
      miss: {chance: rest, steps: [{set: {x: -1}}]}
- set: {y: "me + 100"}
"""


@pytest.mark.parametrize("resolve", ["random", "ask"])
def test_the_outcome_s_steps_act_for_the_seat_that_attempted(tmp_path, resolve):
    """Asked of seat 1 in seat 0's turn: the outcome's steps gain seat 1's points, move a card of
    seat 1's hand, and ask seat 1 (a choose asking me by default); after the attempt me is seat 0
    again and thrower still holds seat 1."""
    r = load_text(tmp_path, text(THROW))
    for rules in (r, reference(r)):
        S = rules.new_game(3, seed=4, options={"resolve": resolve})
        if resolve == "ask":   # (the table tells what happened: the seat asked is asked)
            assert S.current_player() == 1 and S.legal_actions() == ["hit", "miss"]
            S.apply("hit")
        assert S.current_player() == 1 and S.legal_actions() == ["10", "11"]
        S.apply("11")
        assert S.c["points"] == [5, 15, 5] and [len(h) for h in S.z["hand"]] == [3, 2, 3] and len(S.z["pile"]) == 1
        assert (S.v["x"], S.v["y"], S.v["thrower"], S.v["result"]) == (11, 100, 1, "hit") and S.is_terminal()


def test_without_actor_steps_reading_me_are_a_located_error_at_who(tmp_path):
    message = error(tmp_path, "- attempt: {who: \"left(me)\", outcomes: {hit: {steps: [{gain: {counter: points}}]}}}")
    assert message.startswith(str(tmp_path / "g.yaml") + ":20:26: error[missing-key]: this attempt asks another seat "
                              "than me, and its outcomes' steps read me: write actor: NAME, a variable holding the "
                              "seat that attempted (me in those steps)")
    assert "hint: actor: NAME beside who:" in message and message.count("error[") == 1


def test_steps_that_do_not_read_me_need_no_actor(tmp_path):
    """Nor do its chances, nor steps asking a seat of their own and reading me for it, as a branch's."""
    r = load_text(tmp_path, text("""
        - attempt:
            who: "left(me)"
            outcomes:
              hit:
                chance: "skill(me)"
                steps:
                  - gain: {counter: pot}
                  - choose: {who: 2, options: "[me + 10]", as: x}
    """, "params:\n  skill: 1\n"))
    for rules in (r, reference(r)):
        S = rules.new_game(3)
        assert S.current_player() == 2 and S.legal_actions() == ["12"]
        S.apply("12")
        assert S.c["pot"] == 1 and S.v["x"] == 12 and S.is_terminal()


@pytest.mark.parametrize("name, says", [
    ("me", "20:45: error[name]: 'me' is a name of the expression language"),
    ("hand", "20:45: error[duplicate]: 'hand' is already a zone or counter"),
    ("x", "20:45: error[type]: variable 'x' is already a int, not a player"),
    ("turn_player", "20:45: error[name]: 'turn_player' holds the seat me stands for here"),
])
def test_actor_names_a_variable_of_its_own(tmp_path, name, says):
    message = error(tmp_path, f"- attempt: {{who: \"left(me)\", actor: {name}, outcomes: {{hit: {{steps: [{{set: {{y: me}}}}]}}}}}}")
    assert message.startswith(str(tmp_path / "g.yaml") + ":" + says)


def test_nothing_in_the_outcomes_steps_writes_the_actor(tmp_path):
    message = error(tmp_path, "- attempt: {who: \"left(me)\", actor: thrower, outcomes: {hit: {steps: [{set: {thrower: 2}}]}}}",
                    "  thrower: player\n")
    assert message.startswith(str(tmp_path / "g.yaml") + ":21:45: error[name]: 'thrower' holds the seat that "
                              "attempted, me in the steps: an effect at line 21 writes it")
    assert message.count("error[") == 1


def test_explain_says_the_outcome_s_steps_are_the_actor_s(tmp_path):
    from interpreter.tools.explain import explain
    r = load_text(tmp_path, text(THROW))
    assert "**hit** (chance: 1 if they are 1, else 0), as that player (*thrower*)" in explain(r)


def test_a_who_asking_no_seat_but_me_needs_no_actor(tmp_path):
    r = load_text(tmp_path, text("- attempt: {who: \"none if x == 1 else me\", outcomes: {hit: {steps: [{gain: {counter: points}}]}}}"))
    for rules in (r, reference(r)):
        S = rules.new_game(3)
        assert S.c["points"] == [6, 5, 5] and S.is_terminal()


def test_a_turns_in_the_outcome_reads_each_seat_s_me_in_skip_and_sort_by(tmp_path):
    """A turns' skip: and sort_by: read me as each seat in turn, not the attempt's: no actor: is
    needed. Seat 0 (6 points) is skipped, seats 2 then 1 (sorted by me, highest first) gain."""
    r = load_text(tmp_path, text("""
        - gain: {counter: points}
        - attempt:
            who: "left(me)"
            outcomes:
              hit:
                steps:
                  - turns: {as: q, skip: "points > 5", sort_by: me, steps: [{gain: {counter: points}}, {set: {x: "x * 10 + me"}}]}
    """))
    for rules in (r, reference(r)):
        S = rules.new_game(3)
        assert S.c["points"] == [6, 6, 6] and S.v["x"] == 21 and S.is_terminal()


@pytest.mark.parametrize("effect", [
    "{for_each: {in: players, as: me, do: [{gain: {counter: points}}]}}",
    "{with_player: {who: 2, do: [{gain: {counter: points}}, bonus]}}",
])
def test_an_effect_setting_me_in_the_outcome_reads_its_own_seat(tmp_path, effect):
    """for_each as: me and with_player set me for the effects they run (a declared effect called
    there, a zone's enter triggers, run as that seat too) and give it back: they read the
    attempt's me only in their in: or who:, so no actor: is needed."""
    extra = ("effects:\n  bonus: {do: [{gain: {counter: points, amount: 10}}]}\n"
             "triggers:\n  landed: {on_enter: pile, do: [{gain: {counter: points, amount: 100}}]}\n")
    steps = f"[{effect}, {{with_player: {{who: 1, do: [{{move: {{from: deck, to: pile, count: 1}}}}]}}}}]"
    r = load_text(tmp_path, text(f"- attempt: {{who: \"left(me)\", outcomes: {{hit: {{steps: {steps}}}}}}}", extra))
    for rules in (r, reference(r)):
        S = rules.new_game(3)
        assert S.c["points"] == ([6, 106, 6] if "for_each" in effect else [5, 105, 16]) and S.is_terminal()


@pytest.mark.parametrize("effect", [
    "{for_each: {in: \"players where it != me\", as: me, do: [{gain: {counter: points}}]}}",
    "{with_player: {who: \"left(me)\", do: [{gain: {counter: points}}]}}",
    "{with_player: {who: 2, do: []}}, {gain: {counter: points}}",
])
def test_an_effect_setting_me_reads_the_attempt_s_me_in_its_in_or_who_and_after_it(tmp_path, effect):
    message = error(tmp_path, f"- attempt: {{who: \"left(me)\", outcomes: {{hit: {{steps: [{effect}]}}}}}}")
    assert "g.yaml:20:26: error[missing-key]: this attempt asks another seat than me" in message


def test_a_turns_in_the_outcome_names_the_actor_holding_turn_player(tmp_path):
    """The inner turns' default, turn_player, is the attempt's actor: the error names what holds it."""
    flow = ("flow:\n  - attempt: {who: 1, actor: turn_player, outcomes: {hit: {steps: [{turns: {steps: "
            "[{gain: {counter: points}}]}}]}}}\n")
    with pytest.raises(RulesetError) as e:
        load_text(tmp_path, BASE + flow)
    assert str(e.value).startswith(str(tmp_path / "g.yaml") + ":16:69: error[missing-key]: this turns stands where "
                                   "turn_player holds the seat me stands for (the actor: of an enclosing attempt): "
                                   "write as: NAME")
