"""What scoring adds and orders is a number (mechanics/scoring.py): a tie-break of type any (or made
of one) is checked where it is read, as a category is, so a string, ``true``, a list or none is a
runtime error located at the tie-break, never Python's comparison of an int with a string nor
``true`` ranked as 1; a category or a tie-break of type int that is none (a variable never set,
``first`` of nothing) is a runtime error located at it, in the scores, the ranking, the breakdown
and what decided the game, in the module as in the plain reference."""
from __future__ import annotations

import pytest

import interpreter
from fuzzing.lockstep import reference
from helpers import load_text, tiny_ruleset

SCORED = tiny_ruleset("""vars:
  loose: any
  n: int
flow:
  - choose: {who: 0, options: "[1, 2]", as: picked}
  - set: {loose: "%s"}
scoring: {categories: %s, tiebreak: %s}
""")
LINE = 13   # (the scoring's line)


def ended(rules):
    S = rules.new_game(2, seed=0)
    S.apply_index(0)
    assert S.is_terminal()
    return S


def failure(rules, read: str) -> str:
    """The first line of the error reading the scoring (``read``: a State method) raises."""
    with pytest.raises(interpreter.GameError) as e:
        getattr(ended(rules), read)()
    return str(e.value).splitlines()[0]


@pytest.mark.parametrize("loose, got", [("'seven'", "'seven'"), ("true", "True"), ("[1, 2]", "[1, 2]"),
                                        ("first([])", "none")])
@pytest.mark.parametrize("tiebreak", ["loose", "loose if me == 0 else 1"], ids=["any", "made-of-any"])
def test_a_tiebreak_of_type_any_is_a_number_located_at_it(tmp_path, loose, got, tiebreak):
    # (before: 'seven' against 1 an internal TypeError, none an unlocated '*', true, a string or a
    # list ranked silently)
    text = SCORED % (loose, '{q: "1"}', f'["{tiebreak}"]')
    col = text.splitlines()[LINE - 1].index(f'"{tiebreak}"') + 1
    for rules in (load_text(tmp_path, text), reference(load_text(tmp_path, text))):
        assert ended(rules).scores() == [1, 1]
        for read in ("winners", "decided"):
            first = failure(rules, read) if read == "winners" else _decided_failure(rules)
            assert f"g.yaml:{LINE}:{col}: error[runtime]: in scoring tiebreak: a scoring tiebreak is a number: " \
                   f"expected a number" in first and first.endswith(f"got {got}")


def _decided_failure(rules) -> str:
    with pytest.raises(interpreter.GameError) as e:
        rules.scoring.decided(ended(rules))
    return str(e.value).splitlines()[0]


@pytest.mark.parametrize("value", ["n", "first([1, 2] where it > 5)", "n if picked > 0 else 0"])
def test_a_category_of_type_int_that_is_none_is_located_at_it(tmp_path, value):
    # (before: "in ?: '+' cannot combine int and none", located nowhere; the breakdown held none)
    _category_p_is_none(tmp_path, value, "[]")


def _category_p_is_none(tmp_path, value: str, tiebreaks: str) -> None:
    """Category p (``value``, beside q: 1) is blamed for being none wherever the scores are read,
    located at it, in the module and in its plain reference."""
    text = SCORED % ("0", f'{{p: "{value}", q: "1"}}', tiebreaks)
    col = text.splitlines()[LINE - 1].index(f'"{value}"') + 1
    for rules in (load_text(tmp_path, text), reference(load_text(tmp_path, text))):
        for read in ("scores", "winners", "breakdown"):
            assert failure(rules, read).endswith(f"g.yaml:{LINE}:{col}: error[runtime]: in scoring category p: "
                                                 "scoring category 'p' is a number: expected a number, got none")


def test_a_tiebreak_of_type_int_that_is_none_is_located_at_it(tmp_path):
    text = SCORED % ("0", '{q: "1"}', '["picked", "n"]')
    col = text.splitlines()[LINE - 1].index('"n"') + 1
    assert failure(load_text(tmp_path, text), "winners").endswith(
        f"g.yaml:{LINE}:{col}: error[runtime]: in scoring tiebreak: a scoring tiebreak is a number: expected a "
        "number, got none")


def test_numbers_score_and_break_ties_as_before(tmp_path):
    # a tie-break of type any that is a number ranks as one; one of type int reads no check
    rules = load_text(tmp_path, SCORED % ("2", '{q: "1", r: "n if n != none else 0"}', '["loose if me == 0 else 1"]'))
    S = ended(rules)
    assert S.scores() == [1, 1] and S.winners() == [0] and S.breakdown() == [{"q": 1, "r": 0}] * 2
    assert rules.scoring.decided(S)["by"] == "tiebreak"


@pytest.mark.parametrize("tiebreaks", ['["10 // me"]', '["n if me == 0 else 0"]', '["10 // me", "n"]'],
                         ids=["raises", "none-first-seat", "both"])
def test_a_category_that_is_none_is_blamed_before_any_tiebreak(tmp_path, tiebreaks):
    # category p is none for seat 1 alone; a tie-break raises (10 // 0) or is none for seat 0, which
    # the sum of the scores never read (before: the raise gave up, "in ?: '+' cannot combine int and
    # none" unlocated; the none of seat 0's tie-break was blamed, read before seat 1's category)
    _category_p_is_none(tmp_path, "n if me == 1 else 0", tiebreaks)


def test_a_tiebreak_that_is_none_for_a_later_seat_is_located_at_it(tmp_path):
    # the scores add up; the first tie-break raises for no seat tied, the second is none for seat 1
    text = SCORED % ("0", '{q: "1"}', '["picked - picked", "n if me == 1 else 0"]')
    col = text.splitlines()[LINE - 1].index('"n if me == 1 else 0"') + 1
    for rules in (load_text(tmp_path, text), reference(load_text(tmp_path, text))):
        assert ended(rules).scores() == [1, 1]
        for first in (failure(rules, "winners"), _decided_failure(rules)):
            assert first.endswith(f"g.yaml:{LINE}:{col}: error[runtime]: in scoring tiebreak: a scoring tiebreak is a "
                                  "number: expected a number, got none")


def test_an_eligible_that_raises_is_located_at_it(tmp_path):
    # eligible: raises (100 // 0) before any seat is ranked: located at it, in the ranking as in
    # what decided the game (before: an internal UnboundLocalError of the ranking's seats)
    text = SCORED.replace("tiebreak: %s}", 'eligible: "100 // n > 0"}') % ("0", '{q: "1"}')
    text = text.replace("  - set: {loose:", "  - set: {n: 0}\n  - set: {loose:")
    col = text.splitlines()[LINE].index('"100 // n > 0"') + 1
    for rules in (load_text(tmp_path, text), reference(load_text(tmp_path, text))):
        for first in (failure(rules, "winners"), _decided_failure(rules)):
            assert first.endswith(f"g.yaml:{LINE + 1}:{col}: error[runtime]: in scoring eligible: division by zero")
