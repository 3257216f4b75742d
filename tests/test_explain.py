"""``rulebook explain`` in plain English: a golden file per seed ruleset, the tutorial's
game and the Sealed Bids example (simultaneous choices, a counter family), focused tests of the phrases, the YAML comments as parameters' meanings, and explain
never failing on a ruleset that loads.

The golden files are tests/golden/explain/NAME.md, ``explain(load(path))`` exactly. After a
deliberate change of the wording, read the diff, then regenerate them with

    RULEBOOK_REGENERATE=1 python -m pytest tests/test_explain.py -p no:cacheprovider
"""
from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

import interpreter
from interpreter.tools.explain import explain
from interpreter.tools.nouns import words
from interpreter.tools.phrases import Phraser
from helpers import load_text, tiny_ruleset

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "explain"
GAMES = {"diamonds": "rulesets/diamonds.yaml", "diams": "rulesets/diams.yaml",
         "mister_diamond": "rulesets/mister_diamond.yaml", "diamonds_club": "rulesets/diamonds_club.yaml",
         "little_tricks": "docs/examples/little_tricks.yaml", "sealed_bids": "docs/examples/sealed_bids.yaml"}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_explain_matches_its_golden_file(name):
    text = explain(interpreter.load(ROOT / GAMES[name]), strict=True)   # no step falls back to its data
    path = GOLDEN / f"{name}.md"
    if os.environ.get("RULEBOOK_REGENERATE"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}: regenerate (see the module docstring)"
    assert text == path.read_text(encoding="utf-8"), f"explain({GAMES[name]}) changed: regenerate if meant"


def test_explain_is_deterministic():
    rules = interpreter.load(ROOT / GAMES["diamonds_club"])
    assert explain(rules) == explain(rules) == explain(interpreter.load(ROOT / GAMES["diamonds_club"]))


@pytest.fixture(scope="module")
def tricks():
    return Phraser(interpreter.load(ROOT / GAMES["little_tricks"]))


def test_a_count_of_a_filtered_zone_reads_as_a_number_of_cards(tricks):
    text = tricks.phrase("count(hand where suit == led.suit)")
    assert text == "the number of cards in your hand with the same suit as the led card"


def test_you_takes_are_not_is(tricks):
    """A comparison or a membership whose subject is you agrees with it (it read "you is")."""
    assert tricks.phrase("me == dealer") == "you are the dealer"
    assert tricks.phrase("me != dealer") == "you are not the dealer"
    assert tricks.phrase("me in [0, 1]") == "you are in [0, 1]"
    assert tricks.phrase("dealer == me") == "the dealer is you"


def test_a_filter_naming_its_element_reads_as_a_filter(tricks):
    """``L as x where C`` is phrased as ``L where C`` is, x named where a filter within reads it
    (it was left as code)."""
    assert tricks.phrase("hand as c where c.rank > 3") == "the cards in your hand (each *c*) whose rank is more than 3"
    assert tricks.phrase("hand as c where count(table where suit == c.suit) > 0") == (
        "the cards in your hand (each *c*) for which there is at least one card in the table with the same suit as *c*")


def test_an_element_named_with_as_reads_as_the_element_in_a_by_over_its_filter(tricks):
    """The name reaches a by: or to: over the filter, and a filter chained to it: there it is the
    element ("its rank"), as in the filter's own condition (it read "the rank of c")."""
    assert tricks.phrase("sum(hand as c where rank > 1, by: c.rank * 2)") == \
        tricks.phrase("sum(hand where rank > 1, by: rank * 2)").replace("your hand", "your hand (each *c*)")
    assert tricks.phrase("hand as c where rank > 1 where c.rank < 5") == \
        "the cards in your hand (each *c*) whose rank is more than 1 whose rank is less than 5"
    assert tricks.phrase("any(hand as c where rank > 1, by: count(table where suit == c.suit) > 0)").endswith(
        "with the same suit as *c*")


def test_a_chained_or_nested_filter_giving_a_name_again_reads_in_words(tricks):
    """A filter chained to one of the same name (``L as w where C as w where D``: the same
    elements, named once) and a nested filter hiding an outer name read in words: no internal
    error (the inner name's end removed the outer one), and the outer name is back after it."""
    assert tricks.phrase("won as w where rank > 3 as w where w.rank < 6") == \
        "the cards in your won (each *w*) whose rank is more than 3 whose rank is less than 6"
    assert tricks.phrase("hand as c where count(table as c where c.rank > 3) > 0 and c.rank > 4") == \
        tricks.phrase("hand as c where count(table as d where d.rank > 3) > 0 and c.rank > 4").replace("*d*", "*c*")


@pytest.mark.parametrize("call, bare", [
    ("highest(hand as c where true, by: c.rank)", "highest(hand as c where true, by: rank)"),
    ("bottom(hand as c where true, by: c.rank)", "bottom(hand as c where true, by: rank)"),
    ("max(hand as c where true, by: c.rank)", "max(hand as c where true, by: rank)"),
    ("groups(hand as c where true, by: c.suit)", "groups(hand as c where true, by: suit)"),
    ("map(hand as q where true, to: q.rank)", "map(hand as q where true, to: rank)"),
    ("highest(hand, by: it.rank)", "highest(hand, by: rank)")])
def test_an_element_s_own_attribute_in_a_by_reads_as_the_attribute(tricks, call, bare):
    """``by: c.rank`` (``c`` the element) reads as ``by: rank``: "with the highest rank", not
    "with the highest its rank"."""
    assert tricks.phrase(call) == tricks.phrase(bare) and " its " not in tricks.phrase(call)


def test_comparisons_of_counts_read_as_there_are(tricks):
    assert tricks.phrase("count(hand) == 0") == "there are no cards in your hand"
    assert tricks.phrase("count(won) > 0") == "there is at least one card in your won"
    assert tricks.phrase("count(deck where rank >= 3) >= 2") == "there are at least 2 cards in the deck whose rank is at least 3"


def test_players_functions_and_parameters_read_as_words(tricks):
    assert tricks.phrase("left(dealer)") == "the player on the left of the dealer"
    assert tricks.phrase("left(me)") == "the player on your left"
    assert tricks.phrase("params.hand_size") == "`hand_size` (5)"
    assert tricks.phrase("top(players, by: score)") == "the players with the highest score"
    assert tricks.phrase("players where tricks == 0") == "the players with no tricks"   # a counter named in the plural
    assert tricks.phrase("players where tricks > 2") == "the players with more than 2 tricks"
    assert tricks.phrase("players where tricks != 1") == "the players whose tricks are not 1"
    assert tricks.phrase("players where score == 0") == "the players whose score is 0"
    assert tricks.phrase("sum(won, by: rank) * 2") == "the total rank of the cards in your won times 2"


def test_the_players_so_many_seats_away_read_as_players(tricks):
    """``map(A..B, to: left(X, it))`` is the players 1 to B seats to the left of X, a list of
    players (a filter reads them as players); it read "the first value in the player it seats
    to the left of the dealer for each number from 1 to ..."."""
    assert tricks.phrase("map(1..3, to: left(dealer, it))") == "the players 1 to 3 seats to the left of the dealer"
    assert tricks.phrase("first(map(1..num_players, to: right(me, it)) where tricks == 0)") == (
        "the first player 1 to the number of players seats to the right of you with no tricks")
    assert tricks.phrase("first(map(1..num_players, to: left(dealer, it)) where count(hand[it]) > 0)") == (
        "the first player 1 to the number of players seats to the left of the dealer for which there is at "
        "least one card in the hand of the player")
    assert tricks.phrase("map([1, 3], to: left(dealer, it))") == (
        "the player that many seats to the left of the dealer for each entry in [1, 3]")
    assert tricks.phrase("left(dealer, 2)") == "the player 2 seats to the left of the dealer"


def test_what_cannot_be_phrased_stays_as_code(tricks):
    assert tricks.phrase("bids[(me - left(dealer)) % num_players]") == "`bids[(me - left(dealer)) % num_players]`"
    assert tricks.phrase("count(") == "`count(`"          # not an expression: shown whole
    assert "`frobnicate(hand)`" in tricks.phrase("count(hand) + frobnicate(hand)")


def explained(tmp_path, text: str, name: str = "g.yaml") -> str:
    """explain() of the ruleset of YAML text (written to a file: its comments are read too)."""
    return explain(load_text(tmp_path, text, name))


def test_parameters_by_player_count_have_a_column_for_each_count_a_game_has(tmp_path):
    """Teams for 4 and 6 players: no game has 5, and no column says so (a "5 players" column was
    shown, read off by_players over min..max)."""
    text = explained(tmp_path, """\
game: g
players: {min: 4, max: 6}
teams:
  by_players:
    4: [[0, 2], [1, 3]]
    6: [[0, 2, 4], [1, 3, 5]]
params:
  hand: {by_players: {4: 7, 5: 6, 6: 5}}
vars: {x: int}
flow:
  - choose: {who: 0, options: '[params.hand]', as: x}
""")
    assert "| parameter | 4 players | 6 players | meaning |\n|---|---|---|---|\n| hand | 7 | 5 |  |" in text


def test_parameters_by_player_count_show_what_they_allow_when_one_declares_it(tmp_path):
    """A parameter by player count that declares its type and bounds shows them as the others do,
    in an "allowed" column the table has only when one of its parameters declares something."""
    text = explained(tmp_path, """\
game: g
players: {min: 2, max: 3}
params:
  hand: {type: int, by_players: {2: 7}, default: 5, min: 1, max: 9, doc: cards dealt to each player}
  deck: {by_players: {2: 30, 3: 40}}
vars: {x: int}
flow:
  - choose: {who: 0, options: '[params.hand, params.deck]', as: x}
""")
    assert ("| parameter | 2 players | 3 players | otherwise | allowed | meaning |\n|---|---|---|---|---|---|\n"
            "| hand | 7 | — | 5 | int, 1..9 | cards dealt to each player |\n| deck | 30 | 40 | — |  |  |") in text


def test_parameters_take_their_meaning_from_comments_and_doc(tmp_path):
    text = explained(tmp_path, """\
game: g
players: {min: 2, max: 2}
params:
  hand_size: 10   # cards dealt to each player
  # the rounds of a game,
  # one deal each
  rounds: 3
  bonus: {value: 2, doc: "points for an exact bid"}
  plain: 1
  label: "a # not a comment"
vars: {x: int}
flow:
  - choose: {who: 0, options: '[1, 2]', as: x}
""")
    assert "| hand_size | 10 |  | cards dealt to each player |" in text
    assert "| rounds | 3 |  | the rounds of a game, one deal each |" in text
    assert "| bonus | 2 |  | points for an exact bid |" in text
    assert "| plain | 1 |  |  |" in text
    assert "| label | a # not a comment |  |  |" in text
    assert "Player 0 chooses the x from [1, 2]." in text


def test_a_trigger_and_an_unknown_shape_read_as_sentences(tmp_path):
    text = explained(tmp_path, tiny_ruleset("""
  hand: {owner: player}
counters:
  points: {owner: player}
triggers:
  high_card:
    on_enter: hand
    if: "card.rank == 4"
    do: [{gain: {counter: points, amount: 2}}]
flow:
  - deal: {from: deck, to: hand, count: 2}
""", card="card", attributes="rank: 1..4", label="{rank}", seen=None), "t.yaml")
    assert "- **high_card**: whenever a card enters a player's hand, if the rank of the card is 4" in text
    assert "  - Add 2 to your points." in text
    assert "- Deal 2 cards from the deck to each player's hand, one at a time." in text


def test_explain_never_fails_on_a_mutated_ruleset_that_loads(tmp_path):
    from fuzzing.rulesets import make_case
    from interpreter.errors import RulebookError
    explained = 0
    for i in range(200):   # (most mutants do not load: draw until enough do)
        if explained >= 8:
            break
        case = make_case(random.Random(f"explain:{i}"))
        folder = tmp_path / str(i)
        folder.mkdir()
        for name, text in case.files.items():
            (folder / name).write_text(text, encoding="utf-8")
        try:
            rules = interpreter.load(folder / case.main, variant=case.variant)
        except RulebookError:
            continue
        assert explain(rules).startswith("# ")
        explained += 1
    assert explained >= 5


def test_no_step_of_a_bundled_ruleset_or_variant_falls_back_to_its_data():
    for path in sorted([*ROOT.glob("rulesets/*.yaml"), *ROOT.glob("docs/examples/*.yaml")]):
        base = interpreter.load(path)
        for variant in [None, *(base.data.get("variants") or {})]:
            assert explain(interpreter.load(path, variant=variant), strict=True)


def test_a_nested_conditional_keeps_its_parentheses(tricks):
    # the inner conditional is the value when the outer condition holds: without its
    # parentheses it would read as another rule ("4 if A, else 2 if B, else 1")
    nested = tricks.phrase("(4 if count(won) > 0 else 2) if count(hand) == 5 else 1")
    assert nested.startswith("(4 if there is at least one card in your won, else 2) if ") and nested.endswith(", else 1")
    chained = tricks.phrase("4 if count(won) > 0 else 2 if count(hand) == 5 else 1")
    assert "(" not in chained and chained.startswith("4 if there is at least one card in your won, else 2 if ")
    assert "if (1 if " in tricks.phrase("4 if (1 if count(hand) == 5 else 0) > 0 else 1")


def test_a_sum_as_the_value_of_a_conditional_keeps_its_parentheses(tricks):
    # Python reads "1000 + x if c else y" as (1000 + x) if c else y: the words must too
    text = tricks.phrase("1000 + count(won) if count(hand) == 5 else 2")
    assert text == "(1000 plus the number of cards in your won) if there are exactly 5 cards in your hand, else 2"
    assert tricks.phrase("1000 + (count(won) if count(hand) == 5 else 2)").startswith("1000 plus (the number")


BUNDLED = sorted(p.stem for p in (ROOT / "rulesets").glob("*.yaml"))


@pytest.mark.parametrize("name", BUNDLED)
def test_no_line_of_an_explanation_is_over_200_characters(name):
    rules = interpreter.load(ROOT / "rulesets" / f"{name}.yaml")
    for variant in [None, *(rules.data.get("variants") or {})]:
        text = explain(interpreter.load(ROOT / "rulesets" / f"{name}.yaml", variant=variant))
        long = [line for line in text.splitlines() if len(line) > 200]
        assert not long, f"{name} ({variant}): {len(long)} lines over 200 characters, as {long[0][:80]}..."


def test_a_long_table_row_keeps_its_longest_cells_as_notes():
    from interpreter.tools.explain import _table
    rows = [["short", "x" * 170, "y"], ["other", "a", "b"]]
    out = _table(["name", "value", "note"], rows)
    assert out[2] == "| short | see note 1 | y |" and out[3] == "| other | a | b |"
    assert out[-1] == "1. value of short: " + "x" * 170


def test_zones_counters_and_variables_read_as_their_titles(tmp_path):
    text = explained(tmp_path, """\
game: t
players: {min: 2, max: 2}
components:
  card: {attributes: {rank: 1..4}, label: "{rank}"}
zones:
  deck: {start: [card], title: draw pile}
  hand: {owner: player}
counters:
  vp: {owner: player, title: victory points}
vars:
  n_give: {type: int, start: 2, title: cards to deal}
flow:
  - deal: {from: deck, to: hand, count: n_give}
  - for_each: {in: players, as: p, do: [{gain: {counter: "vp[p]", amount: 1}}]}
""", "t.yaml")
    assert "- Deal the cards to deal from the draw pile to each player's hand, one at a time." in text
    assert "victory points" in text and "Add 1 to" in text
    assert "| draw pile (`deck`) | shared |" in text and "| hand | each player |" in text   # untitled: its name
    assert "- cards to deal: `n_give` (int), starts at `2`" in text
    assert words("deck") == "deck"   # the titles hold only while a ruleset is explained


def test_a_filter_s_and_of_an_or_keeps_its_grouping(tricks):
    """`A and (B or C)` and `(A or B) and C` in a filter read apart, as outside one: the clauses
    were joined flat, both reading "whose rank is more than 1 and whose suit is "H" or ..."."""
    one = tricks.phrase("count(hand where rank > 1 and (suit == 'H' or rank > 3))")
    other = tricks.phrase("count(hand where (rank > 1 and suit == 'H') or rank > 3)")
    assert one == 'the number of cards in your hand whose rank is more than 1 and (whose suit is "H" or whose rank is more than 3)'
    # a group first reads after "for which", not straight after the noun (an aside, there)
    assert other == 'the number of cards in your hand for which (its rank is more than 1 and its suit is "H") or its rank is more than 3'


@pytest.mark.parametrize("text, expected", [
    # not over a group keeps the group, in a filter and outside one (it was joined flat)
    ("count(hand where not (rank > 1 or suit == 'H'))",
     'the number of cards in your hand for which not (its rank is more than 1 or its suit is "H")'),
    ("count(hand where rank > 1 and not (suit == 'H' or rank > 3))",
     'the number of cards in your hand whose rank is more than 1 and for which not (its suit is "H" or its rank '
     'is more than 3)'),
    ("count(hand) > 1 and not (count(deck) > 2 or count(won) > 3)",
     "there is more than 1 card in your hand and not (there are more than 2 cards in the deck or there are more "
     "than 3 cards in your won)"),
    ("not (count(deck) > 2)", "not there are more than 2 cards in the deck"),
    # a filter's own group inside an operand: the operand in parentheses
    ("count(hand where rank > 1 and (suit == 'H' or rank > 3)) > 0 or count(deck) > 0",
     '(there is at least one card in your hand whose rank is more than 1 and (whose suit is "H" or whose rank is '
     'more than 3)) or there is at least one card in the deck'),
    ("count(hand where rank > 1 or (suit == 'H' and count(deck where rank > 3 and suit == 'S') > 0))",
     'the number of cards in your hand whose rank is more than 1 or (whose suit is "H" and (for which there is at '
     'least one card in the deck whose rank is more than 3 and whose suit is "S"))'),
    # conditions compared: each in parentheses, its verb apart from the comparison's (Euchre's may_bid)
    ("(count(deck) > 2) == (count(won) > 3)",
     "(there are more than 2 cards in the deck) is (there are more than 3 cards in your won)"),
    # `a or b or c` (parsed (a or b) or c) is one list of operands
    ("count(hand where (rank > 1 and suit == 'H') or (rank > 2 and suit == 'S') or rank > 3)",
     'the number of cards in your hand for which (its rank is more than 1 and its suit is "H") or (its rank is '
     'more than 2 and its suit is "S") or its rank is more than 3'),
])
def test_and_or_not_keep_their_grouping(tricks, text, expected):
    assert tricks.phrase(text) == expected
