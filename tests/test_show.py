"""The show effect: cards made known to one seat only (mechanics/show.py).

A seat shown a card of another's hand sees it in its observation (``known``) while the card
stays there, the other seats do not; a log redacted for the shown seat names the card, one
redacted for another seat gives a count; a determinization for the shown seat keeps it.
"""
from __future__ import annotations

import json
import random

import pytest

from helpers import load_text, tiny_ruleset
from interpreter.errors import RulesetError
from interpreter.play import agents
from interpreter.play.logs import gamelog, replay

# three seats with a card each; seat 0 looks at seat 1's card (the look), then seat 1 may
# swap its card with the deck's top (the card leaves the hand: seat 0 loses track of it)
PEEK = tiny_ruleset("""
  hand: {owner: player, visible: owner}
  pile: {}
vars:
  act: str
flow:
  - deal: {from: deck, to: hand, count: 1}
  - choose: {who: 0, options: "['look', 'skip']", as: act, prompt: look}
  - if: "act == 'look'"
    then:
      - show: {cards: "hand[1]", to: 0}
  - choose: {who: 1, options: "['keep', 'swap']", as: act, prompt: swap}
  - if: "act == 'swap'"
    then:
      - move: {from: "hand[1]", to: deck, count: 1, bottom: true}
      - move: {from: deck, to: "hand[1]", count: 1}
  - choose: {who: 2, options: "['end']", as: act, prompt: done}
""", game="peek", players=(3, 3), card="card", attributes="n: 1..9", label="c{n}")


@pytest.fixture
def peek(tmp_path):
    return load_text(tmp_path, PEEK)


def test_only_the_shown_seat_sees_the_card_in_its_observation(peek):
    S = peek.new_game(3, 1)
    card = peek.card_labels[S.z["hand"][1][0]]
    assert all("known" not in S.observation(p) for p in range(3))   # nothing shown yet
    S.apply("look")
    assert S.observation(0)["known"] == {"hand[1]": [card]}
    assert S.observation(0)["zones"]["hand"][1] == 1                 # the hand itself stays hidden
    assert "known" not in S.observation(2)
    assert "known" not in S.observation(1)                           # its own card it sees anyway
    assert "known" not in S.observation(None)


def test_a_shown_card_that_moves_out_of_sight_is_no_longer_known(peek):
    S = peek.new_game(3, 1)
    S.apply("look")
    S.apply("swap")                  # the card goes to the deck, another comes from it
    assert "known" not in S.observation(0)
    S = peek.new_game(3, 1)
    S.apply("look")
    S.apply("keep")
    assert "known" in S.observation(0)


def test_a_redacted_log_names_the_shown_card_to_its_seat_alone(peek, tmp_path):
    log = tmp_path / "g.jsonl"
    gamelog.play_game(peek, 3, 1, agents.make_agents("first", 3, 1), log=log)
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    shows = [e for line in lines for e in line.get("events") or () if e["ev"] == "show"]
    assert len(shows) == 1
    ev = shows[0]
    assert ev["shown_to"] == 0 and ev["from"] == "hand" and ev["from_owner"] == 1 and len(ev["cards"]) == 1
    told = {seat: [e for line in replay.redact(lines, seat, peek) for e in line.get("events") or ()
                   if e["ev"] == "show"][0] for seat in range(3)}
    assert told[0]["cards"] == ev["cards"] and told[1]["cards"] == ev["cards"]   # the seer and the holder
    assert "cards" not in told[2] and told[2]["count"] == 1
    assert replay.replay(log, peek.path)["decisions"] == 3      # the show event replays as logged


def test_a_determinization_for_the_shown_seat_keeps_the_card(peek):
    S = peek.new_game(3, 1)
    S.apply("look")
    card = S.z["hand"][1][0]
    rng = random.Random(5)
    assert all(S.determinize(0, rng).z["hand"][1] == [card] for _ in range(20))
    assert {S.determinize(2, rng).z["hand"][1][0] for _ in range(40)} != {card}   # seat 2 was not shown


def test_show_checks_its_keys_and_seat(tmp_path):
    bad = PEEK.replace("show: {cards: \"hand[1]\", to: 0}", "show: {cards: \"hand[1]\", for: 0}")
    with pytest.raises(RulesetError) as err:
        load_text(tmp_path, bad)
    assert "missing required key 'to'" in str(err.value)
    wrong = PEEK.replace("to: 0}", "to: \"'x'\"}")
    with pytest.raises(RulesetError):
        load_text(tmp_path, wrong, name="w.yaml")


# every card face up, then gathered into the deck (every seat knows they are all there),
# shuffled, and one dealt to each hand: no seat can tell which cards left the deck
REDEAL = """
game: redeal
players: {min: 3, max: 3}
components:
  card: {attributes: {n: 1..9}, label: "c{n}"}
zones:
  deck: {visible: none}
  pile: {start: [card]}
  hand: {owner: player, visible: owner}
vars:
  act: str
flow:
  - gather: {from: [pile], to: deck}
  - shuffle: deck
  - deal: {from: deck, to: hand, count: 1}
  - choose: {who: 0, options: "['end']", as: act, prompt: done}
"""


def test_a_seat_that_sees_neither_zone_forgets_which_cards_stayed(tmp_path):
    rules = load_text(tmp_path, REDEAL, name="r.yaml")
    S = rules.new_game(3, 1, knowledge=True)
    assert not any(m & 1 for m in S.kn.values())          # seat 0 knows no hidden card's place
    rng = random.Random(2)
    assert len({S.determinize(0, rng).z["hand"][1][0] for _ in range(40)}) > 2   # seat 1's card is any of 8


def test_explain_says_who_is_shown_the_cards(peek):
    from interpreter.tools.explain import explain
    text = explain(peek, strict=True)     # (strict: no effect falls back to its data)
    assert "Show the cards in the hand of 1 to player 0 alone (the others do not see them)" in text


def test_show_takes_cards(tmp_path):
    with pytest.raises(RulesetError) as err:
        load_text(tmp_path, PEEK.replace('show: {cards: "hand[1]"', 'show: {cards: "players"'), name="p.yaml")
    assert "expected a list of cards (list[card]), got list[player]" in str(err.value)


def test_show_is_for_one_seat_not_a_team(tmp_path):
    with pytest.raises(RulesetError) as err:
        load_text(tmp_path, PEEK.replace('to: 0}', 'to: "team(0)"}'), name="t.yaml")
    assert "show is for one seat: to: a player, not a team" in str(err.value)
