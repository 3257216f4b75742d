"""The seed games name their things as their rulebooks do (shared/seeds/*.txt): Mister
Diamond's tiles in front of a player and the slots filled on a tile, Diamonds Club's gems."""
from __future__ import annotations

import interpreter
from interpreter.play.display.narrate import owners, tell


def _told(name, players, events, me=0):
    rules = interpreter.load(name)
    return tell({"type": "events", "events": events}, me, owners(rules, rules.team_members(players)))


def test_mister_diamonds_tiles_and_slots_read_as_the_rulebooks():
    told = _told("mister_diamond", 3, [
        {"ev": "gain", "counter": "filled", "owner": "2000a", "who": 1, "amount": 1},
        {"ev": "move", "from": "row", "to": "won", "to_owner": 1, "cards": ["2000a"]}])
    assert told == "2000a: slots filled +1. 2000a moved from face-up tiles to tiles acquired of seat 1."


def test_diamonds_clubs_gems_read_as_gems_and_diamonds():
    told = _told("diamonds_club", 3, [{"ev": "pay", "who": 1, "counter": "blue", "amount": 1},
                                       {"ev": "pay", "who": 1, "counter": "red", "amount": 2},
                                       {"ev": "gain", "counter": "diamond", "owner": 2, "who": 2, "amount": 1}])
    assert told == "seat 1 pays 1 blue gem and 2 red gems. diamonds of seat 2 gain 1."


def test_a_piece_tried_and_the_outcome_are_one_sentence_and_a_seat_chosen_reads_as_a_seat():
    rules = interpreter.load("mister_diamond")
    words = owners(rules, rules.team_members(3))
    tried = {"type": "decision", "seat": 1, "prompt": "take", "action": "d7", "events": [
        {"ev": "target", "who": 1, "card": "d7"}, {"ev": "roll", "who": 1, "chances": {"touch": 0.2, "clean": 0.8}},
        {"ev": "attempt", "who": 1, "outcome": "clean"}]}
    assert tell(tried, 0, words) == "seat 1 tries d7: clean."
    assert tried["events"][0] == {"ev": "target", "who": 1, "card": "d7"}   # the line itself is not changed
    placed = {"type": "decision", "seat": 1, "prompt": "place", "action": "steal_b", "events": [
        {"ev": "gain", "counter": "filled", "owner": "steal_b", "who": 1, "amount": 1}]}
    assert tell(placed, 0, words) == "seat 1 chooses place: steal_b (slots filled +1)."
    robbed = {"type": "decision", "seat": 1, "prompt": "steal_from", "action": "p2", "events": []}
    assert tell(robbed, 0, words) == "seat 1 chooses steal from: seat 2."
    assert tell(robbed, 2, words) == "seat 1 chooses steal from: you."
