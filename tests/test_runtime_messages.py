"""A Python error raised by generated code is said in the language's terms (expr/messages.py):
each kind of error, raised for real, and the sentence an author reads."""
from __future__ import annotations

from fractions import Fraction

import pytest

from interpreter.expr.messages import describe
from interpreter.expr.runtime import ExprRuntimeError

NOT_THERE = ("a card is not in the zone it is taken from (it lies in another zone, or is none: the first() of "
             "an empty list, a variable not set yet...)")
NONE_HINT = " (a value is none: the first() of an empty list, a variable not set yet, no partner...)"


def raised(fn):
    try:
        fn()
    except Exception as e:   # noqa: BLE001 - the error under test
        return e
    raise AssertionError("no error raised")


@pytest.mark.parametrize("fn, message", [
    (lambda: 1 // 0, "division by zero"),
    (lambda: Fraction(1) / 0, "division by zero"),
    (lambda: [1][3], "index out of range"),
    (lambda: {"a": 1}["b"], "no entry 'b'"),
    (lambda: 1 + "a", "'+' cannot combine int and str"),
    (lambda: None - 1, "'-' cannot combine none and int" + NONE_HINT),
    (lambda: 1 < "a", "'<' cannot compare int with str"),
    (lambda: None >= 2.5, "'>=' cannot compare none with number" + NONE_HINT),
    (lambda: "a" + 1, "'+' cannot combine str and int"),
    (lambda: -"a", "'-' needs a number, got str"),
    (lambda: -None, "'-' needs a number, got none" + NONE_HINT),
    (lambda: list(3), "a list was needed, got int"),
    (lambda: (lambda x: x[0])(None), "a list was needed, got none" + NONE_HINT),
    (lambda: {[1]}, "a list cannot be an element of a set or a key of a map"),
    (lambda: (3).rank, "int has no attribute 'rank'"),
    (lambda: None.rank, "none has no attribute 'rank'" + NONE_HINT),
    (lambda: int("x"), "a value is out of range for this operation"),
    (lambda: [].remove(None), NOT_THERE),
    (lambda: len(5), "a value has the wrong type for this operation"),
    (lambda: len(None), "a value is none where a number, card or player was needed (the first() of an empty "
                        "list, a variable not set yet, no partner...)"),
    (lambda: 10 ** 10000 * 1.0, "a number is too large"),
    (lambda: (_ for _ in ()).throw(RecursionError()), "the expression nests too deeply"),
    (lambda: (_ for _ in ()).throw(MemoryError()), "out of memory: a value grew too large"),
    (lambda: (_ for _ in ()).throw(ExprRuntimeError("there is no player 7")), "there is no player 7"),
    (lambda: (_ for _ in ()).throw(LookupError("x")), "LookupError: x"),
])
def test_a_python_error_is_said_in_the_languages_terms(fn, message):
    assert describe(raised(fn)) == message


@pytest.mark.parametrize("text", ["-" * 45 + "1", "1" + " + (1" * 45 + ")" * 45, "not " * 45 + "true"])
def test_an_expression_nested_past_the_limit_is_refused_when_parsed(text):
    from interpreter.expr.parser import ExprError, parse
    with pytest.raises(ExprError, match=r"^expression is nested too deeply \(limit 40\)$"):
        parse(text)
    parse("-" * 30 + "1")                      # within the limit


def test_a_product_of_whole_numbers_must_stay_within_64_bits():
    from interpreter.expr.runtime import _mul
    assert _mul(-(2 ** 62), 2) == -(2 ** 63) and _mul(2 ** 62 - 1, 2) == 2 ** 63 - 2 and _mul(0.5, 3) == 1.5
    for a, b in ((-(2 ** 63) - 1, 1), (2 ** 63, 1), (2 ** 32, 2 ** 32)):
        with pytest.raises(ExprRuntimeError, match=r"^a whole number beyond 64 bits \(-2\^63 \.\. 2\^63-1\)$"):
            _mul(a, b)


@pytest.mark.parametrize("sorted_pile", [False, True])
@pytest.mark.parametrize("cards", ["[first(deck)]", "[c]", "deck", "deck where rank > 1"])
def test_a_move_of_a_card_that_is_not_in_its_zone_says_so(tmp_path, sorted_pile, cards):
    """A move takes its cards out of its from: zone; a card lying elsewhere (or none) was said
    "a value is out of range for this operation". One card, a few, many (taken out in one pass),
    from a zone in card order (found by bisection) or not: each is said the same, at the move."""
    from helpers import load_text
    from interpreter.errors import GameError
    rules = load_text(tmp_path, f"""
        game: t
        players: {{min: 1, max: 1}}
        components:
          cards: {{attributes: {{rank: 1..12}}, label: "c{{rank}}"}}
        zones:
          deck: {{start: [cards]}}
          pile: {{sorted: {str(sorted_pile).lower()}}}
        vars:
          c: card
        flow:
          - move: {{from: deck, to: pile, count: 1}}
          - move: {{from: pile, to: deck, cards: "{cards}"}}
          - choose: {{who: 0, options: deck, as: c}}
        """)
    with pytest.raises(GameError) as caught:
        rules.new_game(1, 1)
    assert caught.value.message == f"in effects: {NOT_THERE}" and caught.value.loc.line == 13


def test_a_move_of_a_card_not_in_its_zone_says_so_at_the_move(tmp_path):
    """Drawing the last() of an empty pool moves none: the error names the move's mistake, located
    at the move (it read "a value is out of range for this operation")."""
    from helpers import load_text
    from interpreter.errors import GameError
    rules = load_text(tmp_path, """
        game: t
        players: {min: 2, max: 2}
        components:
          cards: {attributes: {rank: 1..10}, label: "c{rank}"}
        zones:
          deck: {start: [cards], visible: none}
          hand: {owner: player}
        vars:
          drawn: card
          n: int
        flow:
          - repeat: 11
            steps:
              - set: {drawn: "last(deck)"}
              - move: {from: deck, to: "hand[0]", cards: "[drawn]"}
              - choose: {who: 0, options: "[1]", as: n, prompt: go}
        """)
    S = rules.new_game(2, 1)
    with pytest.raises(GameError) as raised_:
        for _ in range(11):
            S.apply("1")
    assert NOT_THERE in str(raised_.value) and "g.yaml:16:" in str(raised_.value)
