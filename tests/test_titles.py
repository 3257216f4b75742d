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
