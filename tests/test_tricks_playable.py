"""tricks: playable restricts the cards a player may play, on top of following, with the
fallback "if nothing is playable, any card that follows"; the trick's state (led, trick,
tricks_played) is in scope. A hearts-like game checked decision by decision against the rules
computed independently from the state."""
from __future__ import annotations

import random

import pytest

import interpreter
from interpreter.errors import RulesetError
from helpers import bundled, load_text

GAME = """
game: hearts_lite
players: {min: 3, max: 3}
components:
  cards: {attributes: {suit: [C, D, H], rank: 2..6}, label: "{rank}{suit}"}
zones:
  deck: {owner: none, visible: none, start: [cards]}
  hand: {owner: player, visible: owner, sorted: true}
  table: {owner: none, visible: all}
  taken: {owner: player, visible: all}
vars:
  broken: {type: bool, start: false}
setup:
  - shuffle: deck
  - deal: {from: deck, to: hand, count: 5}
flow:
  - tricks:
      hand: hand
      table: table
      collect: taken
      leader: "first(players where any(hand[it], by: rank == 2 and suit == 'C'))"
      follow: suit
      rank: rank
      playable: >-
        (tricks_played > 0 or led != none or rank == 2 and suit == 'C')
        and (led != none or suit != 'H' or broken)
        and (tricks_played > 0 or suit != 'H')
      on_play: [{if: "card.suit == 'H'", then: [{set: {broken: true}}]}]
scoring:
  categories: {hearts: "count(taken where suit == 'H')"}
"""


def legal(rules, S) -> set:
    """The rules of the game above, from the state alone."""
    labels = rules.card_labels
    suit = {c: labels[c][-1] for c in range(len(labels))}
    seat = S.current_player()
    hand = S.z["hand"][seat]
    table = S.z["table"]
    follows = [c for c in hand if suit[c] == suit[table[0]]] if table else []
    follows = follows or list(hand)
    first = not S.z["taken"][0] and not S.z["taken"][1] and not S.z["taken"][2]

    def ok(c):
        if first and not table and labels[c] != "2C":
            return False
        if not table and suit[c] == "H" and not S.v["broken"]:
            return False
        return not (first and suit[c] == "H")
    playable = [c for c in follows if ok(c)]
    return {labels[c] for c in (playable or follows)}


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    return load_text(tmp_path_factory.mktemp("g"), GAME, "hearts.yaml")


def test_every_decision_offers_exactly_the_playable_cards(rules):
    fallbacks = first_leads = 0
    for seed in range(40):
        S = rules.new_game(3, seed=seed)
        rnd = random.Random(seed)
        while not S.is_terminal():
            want = legal(rules, S)
            assert set(S.legal_actions()) == want, (seed, S.legal_actions(), want)
            first_leads += S.legal_actions() == ["2C"]
            hand = S.z["hand"][S.current_player()]
            fallbacks += not S.z["table"] and all(rules.card_labels[c][-1] == "H" for c in hand) and not S.v["broken"]
            S.apply_index(rnd.randrange(len(S.dec[1])))
    assert first_leads >= 40          # the 2C leads every game
    assert fallbacks >= 1             # a hand of hearts only leads one before hearts are broken


def test_the_compiled_trick_step_agrees_with_its_methods(rules):
    from test_flowgen import lockstep
    for seed in range(5):
        lockstep(rules, 3, seed)


def test_playable_is_type_checked_and_located(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(GAME.replace("(tricks_played > 0 or led != none", "(tricks_played + 1 or led != none"))
    with pytest.raises(RulesetError) as info:
        interpreter.load(path)
    assert "true/false" in info.value.message or "bool" in info.value.message


@pytest.mark.parametrize("plays", ["4611686018427387904", "0", "61"])
def test_a_trick_going_round_more_times_than_there_are_cards_is_a_located_error(tmp_path, plays):
    """Found by fuzzing: `plays: 4611686018427387904` built the trick's list of turns and ran
    out of memory (and `plays: 0` indexed an empty one)."""
    from pathlib import Path
    from interpreter.errors import GameError
    text = Path(interpreter.ruleset_path("diamonds")).read_text()
    assert "plays: params.plays_per_trick" in text
    rules = load_text(tmp_path, text.replace("plays: params.plays_per_trick", f"plays: {plays}", 1), "d.yaml")
    with pytest.raises(GameError, match=rf"d\.yaml:\d+:\d+: .*plays: a trick goes round 1 to {len(rules.card_labels)} times .*not {plays}"):
        S = rules.new_game(4, 1)
        while not S.over:
            S.apply_index(0)


def test_the_bound_of_a_tricks_plays_is_the_card_count_written_in():
    """The cards of the game are known when it is built: the trick's check of its plays reads
    no table (the plain reference does), and 60 plays of 60 cards are allowed (61 are not, above)."""
    from interpreter.building.flowmodule import compile_flow
    rules = bundled("diamonds")
    assert len(rules.card_labels) == 60 and "not 0 < k <= 60:" in rules.module_source
    assert "not 0 < k <= len(S.rules.card_labels):" in compile_flow(rules, plain=True)[4]
