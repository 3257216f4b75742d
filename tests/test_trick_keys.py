"""A trick's follow: and rank: may read the state (parameters, variables, counters) and the
led card: a trump named in play orders the cards, bowers included, with no stand-in cards.
A key over the card alone stays as it was (a table lookup, or a function of the card)."""
from __future__ import annotations

import pytest

from interpreter.errors import RulesetError
from helpers import load_text

# Unshuffled, the deal is fixed: seat 0 holds 4S 2S 4H 2H 4D 2D 4C 2C, seat 1 the 3s and 1s.
# The 2 of trump is the right bower, the 2 of the other suit of its colour the left bower: it
# follows as a trump and beats every trump but the right bower.
NAMING = """
game: naming
players: {min: 2, max: 2}
components:
  cards:
    attributes: {suit: [C, D, H, S], rank: 1..4}
    label: "{rank}{suit}"
zones:
  deck: {start: [cards], visible: none}
  hand: {owner: player, visible: owner%s}
  table: {}
  won: {owner: player}
counters:
  taken: {owner: player}
vars:
  trump: {type: str, start: "'C'"}
define:
  black: "suit == 'C' or suit == 'S'"
  left_bower: "rank == 2 and suit != trump and black == (trump == 'C' or trump == 'S')"
  bower: "rank == 2 and (suit == trump or left_bower)"
flow:
  - deal: {from: deck, to: hand, count: 8}
  - choose: {who: 0, options: "['C', 'D', 'H', 'S']", as: trump, prompt: trump}
  - tricks:
      hand: hand
      table: table
      leader: 0
      follow: "trump if left_bower else suit"
      trump: trump
      rank: "rank + (100 if suit == trump else 0) + (200 if bower else 0) + (1 if bower and suit == trump else 0)"
      collect: won
      on_win: [{gain: {counter: taken}}]
scoring:
  categories: {points: taken}
"""


def labels(rules, cards):
    return sorted(rules.card_labels[c] for c in cards)


@pytest.fixture(params=["", ", sorted: true"], ids=["unsorted", "sorted"])
def naming(request, tmp_path):
    return load_text(tmp_path, NAMING % request.param, "naming.yaml")


@pytest.mark.parametrize("trump,follows,winner", [
    ("C", ["1C", "3C"], 0),   # 2S is the left bower: clubs must follow it, and it beats the 3 of clubs
    ("S", ["1S", "3S"], 0),   # 2S is the right bower
    ("H", ["1S", "3S"], 1),   # 2S is a plain spade: spades follow, and the 3 wins
    ("D", ["1S", "3S"], 1),
])
def test_the_trump_named_in_play_decides_what_follows_and_who_wins(naming, trump, follows, winner):
    from test_flowgen import reference
    for rules in (naming, reference(naming)):   # compiled, and the plain reference
        S = rules.new_game(2, seed=0)
        S.apply(trump)
        S.apply("2S")
        assert sorted(S.legal_actions()) == follows
        S.apply("3" + follows[0][1])
        assert S.c["taken"] == [1 - winner, winner]
        assert labels(rules, S.z["won"][winner]) == sorted(["2S", "3" + follows[0][1]])
        assert S.current_player() == winner   # the winner leads the next trick


def test_a_trump_naming_game_plays_the_same_games_compiled(naming):
    from test_flowgen import lockstep
    for seed in range(4):
        assert lockstep(naming, 2, seed) == 17   # the trump, then eight cards each


LED = """
game: led
players: {min: 3, max: 3}
params: {bonus: 10}
components:
  cards: {attributes: {suit: [A, B, C], rank: 1..4}, label: "{rank}{suit}"}
zones:
  deck: {start: [cards], visible: none}
  hand: {owner: player, visible: owner}
  table: {}
  won: {owner: player}
flow:
  - deal: {from: deck, to: hand, count: 4}
  - tricks: {hand: hand, table: table, leader: 0, collect: won, rank: "%s"}
scoring:
  categories: {points: "count(won)"}
"""


@pytest.mark.parametrize("rank", ["rank + params.bonus if suit == led.suit else 0",
                                  "rank if suit == led.suit else 0"], ids=["parameter", "led-only"])
def test_a_rank_reads_the_led_card_and_parameters(tmp_path, rank):
    """No follow: any card may be played; one off the led suit counts for nothing. A key that
    reads the led card and nothing of the state is still called with the led card (what a key
    reads is noted while its names are resolved, not looked for in its code)."""
    rules = load_text(tmp_path, LED % rank, "led.yaml")
    from test_flowgen import reference
    for r in (rules, reference(rules)):
        S = r.new_game(3, seed=0)
        hands = [labels(r, h) for h in S.z["hand"]]
        assert hands == [["1C", "2B", "3A", "4C"], ["1B", "2A", "3C", "4B"], ["1A", "2C", "3B", "4A"]]
        for card in ("1C", "4B", "2C"):   # seat 1's 4B, off the led suit, counts for nothing: 2C wins
            S.apply(card)
        assert [len(w) for w in S.z["won"]] == [0, 0, 3]


@pytest.mark.parametrize("key", ["rank + taken", "rank if me == 0 else 0"])
def test_a_key_that_reads_me_is_a_located_error(tmp_path, key):
    text = (NAMING % "").replace('follow: "trump if left_bower else suit"', f"follow: {key!r}")
    with pytest.raises(RulesetError) as info:
        load_text(tmp_path, text, "me.yaml")
    message = str(info.value)
    assert "the same for every seat: it cannot read 'me'" in message and "me.yaml:" in message
    assert "follow" in message


def test_a_key_that_reads_the_state_is_listed_under_its_rule(naming):
    """`rulebook compile` shows the key's code headed by its line, and the trick calling it
    with the state and the led card."""
    from interpreter.building.listing import listing
    text = listing(naming)
    assert "naming.yaml:28:15  (trump if left_bower else suit)\ndef F" in text
    assert "(S, None, {'led': table[0]}, c)" in text


def test_a_trump_reads_me_as_where_the_trick_stands(tmp_path):
    """The trump is read once a trick, as a trick's count is, with me where the step stands (here
    the turn's player, seat 1: trump A), not for no seat: seat 1, void in B, trumps both tricks."""
    text = """
    game: me_trump
    players: {min: 2, max: 2}
    components:
      cards: {attributes: {suit: [A, B], rank: 1..5}, label: "{rank}{suit}"}
    zones:
      deck: {start: [cards], visible: none}
      hand: {owner: player, visible: all}
      pile: {visible: all}
      won: {owner: player, visible: all}
    flow:
      - move: {from: deck, to: "hand[0]", cards: "deck where suit == 'B' and rank <= 2"}
      - move: {from: deck, to: "hand[1]", cards: "deck where suit == 'A' and rank <= 2"}
      - turns:
          skip: "me != 1"
          steps:
            - tricks: {hand: hand, table: pile, collect: won, leader: 0, follow: suit, rank: rank,
                       trump: "'A' if me == 1 else 'B'"}
    """
    rules = load_text(tmp_path, text, "trump.yaml")
    from test_flowgen import reference
    for r in (rules, reference(rules)):
        S = r.new_game(2)
        for card in ("1B", "1A", "2A", "2B"):   # seat 1 wins the first trick with 1A, and leads the second
            S.apply(card)
        assert [labels(r, w) for w in S.z["won"]] == [[], ["1A", "1B", "2A", "2B"]] and S.is_terminal()
