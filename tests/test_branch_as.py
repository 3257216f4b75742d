"""A branch's ``as:`` (docs/reference.md "branch"): the variable naming the seat that chose, ``me``
in the chosen alternative's steps. Written where ``who`` is another than ``me`` and the steps
read ``me``; a name of its own, which nothing in the steps writes; nested branches each hold
their own seat. In the module as in its plain reference."""
from __future__ import annotations

import textwrap

import pytest

from fuzzing.lockstep import reference
from helpers import load_text, three_seats
from interpreter.errors import RulesetError

BASE = three_seats()   # (helpers.py: a sorted hand each, a pile, points, a pot, x and y)


def text(steps: str, extra: str = "", after: str = "") -> str:
    """``steps`` in seat 0's turn only (me = 0 where they stand), after a deal of 3 cards each."""
    return (BASE + extra + "flow:\n  - deal: {from: deck, to: hand, count: 3}\n"
            + "  - turns:\n      skip: \"me != 0\"\n      steps:\n" + textwrap.indent(textwrap.dedent(steps), "        ")
            + after)


def load(tmp_path, steps: str, extra: str = "", after: str = ""):
    return load_text(tmp_path, text(steps, extra, after))


def error(tmp_path, steps: str, extra: str = "") -> str:
    with pytest.raises(RulesetError) as e:
        load(tmp_path, steps, extra)
    return str(e.value)


NESTED = """
- branch:
    who: "left(me)"
    as: {outer}
    options:
      a:
        steps:
          - branch:
              who: "left(me)"
              as: {inner}
              options: {{b: {{steps: [{{set: {{x: me}}}}]}}}}
          - set: {{y: me}}
"""


def test_nested_branches_each_hold_their_own_seat(tmp_path):
    """Outer asked of seat 1, inner of the left of the outer's me (2): the inner steps' me is 2,
    the outer steps' me after the inner branch is 1 again."""
    r = load(tmp_path, NESTED.format(outer="first", inner="second"))
    for rules in (r, reference(r)):
        S = rules.new_game(3)
        assert S.current_player() == 1 and S.legal_actions() == ["a"]
        S.apply("a")
        assert S.current_player() == 2 and S.legal_actions() == ["b"]
        S.apply("b")
        assert (S.v["x"], S.v["y"], S.v["first"], S.v["second"]) == (2, 1, 1, 2) and S.is_terminal()


def test_a_branch_inside_a_nested_turns_leaves_the_outer_seat_alone(tmp_path):
    r = load(tmp_path, """
        - branch:
            who: "left(me)"
            as: first
            options:
              a:
                steps:
                  - turns:
                      players: "[2]"
                      as: inner_turn
                      steps:
                        - branch: {who: "left(me)", as: second, options: {b: {steps: [{set: {x: me}}]}}}
                  - set: {y: me}
    """)
    for rules in (r, reference(r)):
        S = rules.new_game(3)
        S.apply("a")
        assert S.current_player() == 0   # (the left of seat 2)
        S.apply("b")
        assert (S.v["x"], S.v["y"]) == (0, 1) and S.is_terminal()


def test_as_written_with_who_me_holds_the_seat_asked(tmp_path):
    r = load(tmp_path, "- branch: {as: mover, options: {a: {steps: [{set: {x: \"mover + 10\"}}]}}}")
    for rules in (r, reference(r)):
        S = rules.new_game(3)
        S.apply("a")
        assert S.v["mover"] == 0 and S.v["x"] == 10 and S.is_terminal()


def test_steps_that_do_not_read_me_need_no_as(tmp_path):
    r = load(tmp_path, "- branch: {who: \"left(me)\", options: {a: {steps: [{gain: {counter: pot}}]}, b: {}}}")
    S = r.new_game(3)
    assert S.current_player() == 1
    S.apply("a")
    assert S.c["pot"] == 1 and S.is_terminal()


def test_sibling_branches_may_share_a_name(tmp_path):
    r = load(tmp_path, """
        - branch: {who: "left(me)", as: giver, options: {a: {steps: [{set: {x: me}}]}}}
        - branch: {who: "right(me)", as: giver, options: {a: {steps: [{set: {y: me}}]}}}
    """)
    S = r.new_game(3)
    S.apply("a")
    S.apply("a")
    assert (S.v["x"], S.v["y"], S.v["giver"]) == (1, 2, 2) and S.is_terminal()


@pytest.mark.parametrize("steps", ["[{set: {x: me}}]", "[{gain: {counter: points}}]",
                                   "[{move: {from: hand, to: pile, count: 1}}]", "[{set: {x: mine}}]",
                                   "[{choose: {options: \"[1, 2]\", as: x}}]", "[{if: \"me == 1\", then: [{end_game: {}}]}]",
                                   "[{branch: {who: \"left(me)\", as: inner, options: {b: {}}}}]"])
def test_without_as_steps_reading_me_are_a_located_error_at_who(tmp_path, steps):
    """Directly, through a counter or zone of the acting player's, a define, a step asking me by
    default, an if holding steps, a nested branch asking the left of me."""
    message = error(tmp_path, f"- branch: {{who: \"left(me)\", options: {{a: {{steps: {steps}}}, b: {{}}}}}}",
                    "define:\n  mine: \"me + 1\"\n")
    assert "g.yaml:22:25: error[missing-key]: this branch asks another seat than me, and its alternatives' " \
           "steps read me: write as: NAME" in message
    assert "hint: as: NAME beside who:" in message


@pytest.mark.parametrize("name, says", [
    ("me", "'me' is a name of the expression language"), ("none", "'none' is a name of the expression language"),
    ("players", "'players' is a name of the expression language"), ("it", "'it' is a name of the expression language"),
    ("hand", "'hand' is already a zone or counter"), ("points", "'points' is already a zone or counter"),
    ("mine", "'mine' is already a define"), ("x", "variable 'x' is already a int, not a player"),
    ("turn_player", "'turn_player' holds the seat me stands for here (the variable of an enclosing turns)"),
])
def test_as_names_a_variable_of_its_own(tmp_path, name, says):
    message = error(tmp_path, f"- branch: {{who: \"left(me)\", as: {name}, options: {{a: {{steps: [{{set: {{y: me}}}}]}}}}}}",
                    "define:\n  mine: \"me + 1\"\n")
    assert "g.yaml:22:41: error[" in message and says in message


def test_as_is_not_the_seat_an_enclosing_branch_holds(tmp_path):
    message = error(tmp_path, NESTED.format(outer="first", inner="first"))
    assert message.startswith(str(tmp_path / "g.yaml") + ":29:27: error[name]: 'first' holds the seat me stands for here "
                              "(the as: of an enclosing branch)")
    assert message.count("error[") == 1


UNDER_BRANCH = "- branch: {{who: \"left(me)\", as: q, options: {{a: {{steps: [{step}]}}}}}}"


@pytest.mark.parametrize("step, says", [
    ("{turns: {as: turn_player, players: \"[me]\", steps: [{gain: {counter: points}}]}}",
     "20:79: error[name]: 'turn_player' is the variable of an enclosing turns: writing it would change who me is"),
    ("{choose: {who: me, options: \"[1, 2]\", as: turn_player}}",
     "20:108: error[name]: 'turn_player' is the variable of an enclosing turns: writing it would change who me is"),
    ("{turns: {players: \"[me]\", steps: [{gain: {counter: points}}]}}",
     "20:67: error[missing-key]: this turns stands where turn_player is the variable of an enclosing turns: "
     "write as: NAME"),
])
def test_the_seat_of_a_turns_outside_a_branch_is_not_said_to_be_me(tmp_path, step, says):
    """Under a branch's as: q, me stands for q: the enclosing turns' variable is named as what it
    is, not as the seat me stands for."""
    message = error(tmp_path, UNDER_BRANCH.format(step=step))
    assert message.startswith(str(tmp_path / "g.yaml") + ":" + says) and message.count("error[") == 1
    assert "me stands for" not in message


WRITTEN = "23:41: error[name]: 'giver' holds the seat that chose, me in the steps: "


@pytest.mark.parametrize("steps, says", [
    ("[{set: {giver: 2}}]", WRITTEN + "an effect at line 23 writes it"),
    ("[{hand_over: {}}]", WRITTEN + "an effect at line 23 writes it"),
    ("[{turns: {players: \"[2]\", as: giver, steps: []}}]", "23:99: error[name]: 'giver' holds the seat me stands for here"),
    ("[{choose: {options: players, as: giver}}]", "23:102: error[name]: 'giver' holds the seat me stands for here"),
])
def test_nothing_in_the_steps_writes_the_seat(tmp_path, steps, says):
    """An effect (or a declared effect it calls); a step's as: (a turns', a choice's) is told where it is."""
    message = error(tmp_path, f"- branch: {{who: \"left(me)\", as: giver, options: {{a: {{steps: {steps}}}}}}}",
                    "  giver: player\neffects:\n  hand_over: {do: [{set: {giver: 0}}]}\n")
    assert message.startswith(str(tmp_path / "g.yaml") + ":" + says) and message.count("error[") == 1


def test_a_choose_s_as_is_no_name_of_the_language_nor_the_turn_s_seat(tmp_path):
    assert "'none' is a name of the expression language" in error(tmp_path, "- choose: {options: players, as: none}")
    assert "'turn_player' holds the seat me stands for here" in error(
        tmp_path, "- choose: {options: players, as: turn_player}")


def test_a_trigger_reads_the_seat_declared_in_vars(tmp_path):
    """Triggers are compiled before the flow: they read a step's variable once vars: declares it."""
    trigger = "triggers:\n  chosen: {when: \"giver == 1\", do: [{gain: {counter: pot, amount: 7}}]}\n"
    steps = "- branch: {who: \"left(me)\", as: giver, options: {a: {steps: [{set: {x: me}}]}}}"
    with pytest.raises(RulesetError, match="unknown name 'giver'"):
        load(tmp_path, steps, trigger)
    r = load(tmp_path, steps, "  giver: player\n" + trigger)
    for rules in (r, reference(r)):
        S = rules.new_game(3)
        S.apply("a")
        assert S.v["x"] == 1 and S.c["pot"] == 7 and S.is_terminal()


def test_explain_words_a_bracketed_you_before_a_verb_as_they(tmp_path):
    """The conditions read for the seat asked: "(you are 1" reads "(they are 1", not "(them are"."""
    from interpreter.tools.explain import explain
    r = load(tmp_path, "- branch: {who: \"left(me)\", options: {a: {if: \"(me == 1 or me == 2) and count(hand) > 0\"}}}")
    assert "**a**, if (they are 1 or they are 2) and there is at least one card in their hand: nothing." in explain(r)


def test_a_declared_variable_is_no_name_of_the_language_nor_a_define(tmp_path):
    with pytest.raises(RulesetError, match="'none' is a name of the expression language, not a variable name"):
        load(tmp_path, "- set: {x: 1}", "  none: int\n")
    with pytest.raises(RulesetError, match="g.yaml:16:6: error\\[duplicate\\]: 'y' is already a variable"):
        load(tmp_path, "- set: {x: 1}", "define:\n  y: \"1\"\n")


@pytest.mark.parametrize("steps", [
    "[{choose: {who: 2, options: hand, as: c}}]", "[{branch: {who: 2, options: {b: {if: \"me == 2\"}}}}]",
    "[{pick: {who: 2, from: hand, to: pile, count: 1}}]", "[{attempt: {who: 2, outcomes: {b: {chance: \"skill(me)\"}}}}]",
    "[{pay: {who: 2, costs: {points: \"me\"}}}]", "[{pass: {from: hand, players: \"[2]\", count: 1, to: \"right(me)\"}}]",
    "[{grid: {who: 2, zone: deck, rows: 2, where: \"rank == me\", cost: me, pay: points, as: spot}}]",
    "[{tricks: {hand: hand, table: pile, collect: hand, leader: 2, players: \"[2]\", rank: rank, count: 1, "
    "playable: \"rank > me - 5\"}}]",
])
def test_steps_asking_a_seat_of_their_own_read_its_me_not_the_branch_s(tmp_path, steps):
    """A step whose who: is its own (2) reads me, in what it reads for the seat it asks, as that
    seat: the branch's steps read no me of the branch's, so it needs no as:. Seat 1 takes a, seat 2
    is asked next."""
    r = load(tmp_path, f"- branch: {{who: \"left(me)\", options: {{a: {{steps: {steps}}}}}}}", "params:\n  skill: 1\n")
    for rules in (r, reference(r)):
        S = rules.new_game(3)
        assert S.current_player() == 1 and S.legal_actions() == ["a"]
        S.apply("a")
        while not S.is_terminal():
            assert S.current_player() == 2
            S.apply(S.legal_actions()[0])


def test_a_turns_as_is_not_the_seat_an_enclosing_turns_holds(tmp_path):
    """Written (turn_player, or a branch's name) or left to its default inside another turns."""
    message = error(tmp_path, "- turns: {players: \"[1]\", as: turn_player, steps: [{set: {x: me}}]}")
    assert message.startswith(str(tmp_path / "g.yaml") + ":20:39: error[name]: 'turn_player' holds the seat me "
                              "stands for here (the variable of an enclosing turns)")
    message = error(tmp_path, "- turns: {players: \"[1]\", steps: [{set: {x: me}}]}")
    assert message.startswith(str(tmp_path / "g.yaml") + ":20:11: error[missing-key]: this turns stands where "
                              "turn_player holds the seat me stands for (the variable of an enclosing turns): "
                              "write as: NAME")
    assert "hint: as: NAME (a name of your own" in message and message.count("error[") == 1


def test_a_turns_inside_another_with_a_name_of_its_own_leaves_the_outer_seat_alone(tmp_path):
    r = load(tmp_path, """
        - turns: {players: "[1, 2]", as: inner, steps: [{set: {x: "x * 10 + me"}}]}
        - set: {y: me}
    """)
    for rules in (r, reference(r)):
        S = rules.new_game(3)
        assert (S.v["x"], S.v["y"], S.v["inner"]) == (12, 0, 2) and S.is_terminal()


@pytest.mark.parametrize("who", ["me if x == 0 else none", "none if x == 1 else me"])
def test_a_who_asking_no_seat_but_me_needs_no_as(tmp_path, who):
    """me or none, or a choice of such: the steps read the me of the seat asked, if any."""
    r = load(tmp_path, f"- branch: {{who: \"{who}\", options: {{a: {{steps: [{{set: {{y: \"me + 1\"}}}}]}}}}}}")
    for rules in (r, reference(r)):
        S = rules.new_game(3)
        assert S.current_player() == 0 and S.legal_actions() == ["a"]
        S.apply("a")
        assert S.v["y"] == 1 and S.is_terminal()
    message = error(tmp_path, "- branch: {who: \"me if x == 0 else 1\", options: {a: {steps: [{set: {y: me}}]}}}")
    assert "g.yaml:20:25: error[missing-key]: this branch asks another seat than me" in message


def test_a_turns_in_the_steps_reads_each_seat_s_me_in_skip_and_sort_by(tmp_path):
    """A turns' skip: and sort_by: read me as each seat in turn, not the branch's: no as: is
    needed. Seat 0 (6 points) is skipped, seats 2 then 1 (sorted by me, highest first) gain."""
    r = load(tmp_path, """
        - gain: {counter: points}
        - branch:
            who: "left(me)"
            options:
              a:
                steps:
                  - turns: {as: q, skip: "points > 5", sort_by: me, steps: [{gain: {counter: points}}, {set: {x: "x * 10 + me"}}]}
    """)
    for rules in (r, reference(r)):
        S = rules.new_game(3)
        assert S.current_player() == 1 and S.legal_actions() == ["a"]
        S.apply("a")
        assert S.c["points"] == [6, 6, 6] and S.v["x"] == 21 and S.is_terminal()


@pytest.mark.parametrize("effect, points", [
    ("{for_each: {in: players, as: me, do: [{gain: {counter: points}}]}}", [6, 6, 6]),
    ("{with_player: {who: 2, do: [{gain: {counter: points}}, bonus]}}", [5, 5, 16]),
])
def test_an_effect_setting_me_in_the_steps_reads_its_own_seat(tmp_path, effect, points):
    """for_each as: me and with_player (a declared effect called there too) read the branch's me
    only in their in: or who:: no as: is needed."""
    r = load(tmp_path, f"- branch: {{who: \"left(me)\", options: {{a: {{steps: [{effect}]}}}}}}",
             "effects:\n  bonus: {do: [{gain: {counter: points, amount: 10}}]}\n")
    for rules in (r, reference(r)):
        S = rules.new_game(3)
        S.apply("a")
        assert S.c["points"] == points and S.is_terminal()
    message = error(tmp_path, f"- branch: {{who: \"left(me)\", options: {{a: {{steps: [{effect}, {{set: {{y: me}}}}]}}}}}}",
                    "effects:\n  bonus: {do: []}\n")
    assert "error[missing-key]: this branch asks another seat than me" in message


def test_a_turns_in_the_steps_names_the_branch_holding_turn_player(tmp_path):
    """The inner turns' default, turn_player, is the branch's as: the error names what holds it."""
    flow = "flow:\n  - branch: {who: 1, as: turn_player, options: {a: {steps: [{turns: {steps: [{gain: {counter: points}}]}}]}}}\n"
    with pytest.raises(RulesetError) as e:
        load_text(tmp_path, BASE + flow)
    assert str(e.value).startswith(str(tmp_path / "g.yaml") + ":16:62: error[missing-key]: this turns stands where "
                                   "turn_player holds the seat me stands for (the as: of an enclosing branch): "
                                   "write as: NAME")
