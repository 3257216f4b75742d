"""The trick-taking classics against OpenSpiel, game by game.

Oh Hell, Hearts, Euchre and Spades, each played in Rulebook with seeded random choices and
replayed at once in OpenSpiel's game of that name, as tests/test_classics.py does for the
other classics (its ``Twin`` records and ``replay``): the chance outcomes (the number of
tricks, the dealer, every card dealt, the turned card) are read from the Rulebook state, both
engines must offer the same moves to the same player at every decision, and the returns must
be equal. A game of 52 cards is long, so the suite plays few games per twin;
``benchmarks/classics.py`` replays 200 of each.

OpenSpiel numbers a card ``rank * 4 + suit`` (rank 0 the lowest, suits in the game's own order;
Spades ``suit * 13 + rank``); ``os_card`` turns a Rulebook card (attributes ``face`` and
``suit``) into that number.
"""
from __future__ import annotations

import random

import pytest

import interpreter
from interpreter.adapters.actions import action_space
from interpreter.errors import RulesetError
from helpers import load_text, tiny_ruleset
from test_classics import Twin, attr, cards, cases, plays_as_openspiel

try:
    import pyspiel
except ImportError:
    pyspiel = None

FACES = "23456789TJQKA"
GAMES = 10   # seeded games per twin and player count in the suite (benchmarks/classics.py: 200)


def os_card(rules, card: int, suits: str) -> int:
    """OpenSpiel's number for a card: rank * 4 + the suit's place in ``suits``."""
    return FACES.index(attr(rules, "face", card)) * 4 + suits.index(attr(rules, "suit", card))


def scores(rules, S):
    return [float(x) for x in S.scores()]


# ---------------------------------------------------------------------- Oh Hell
# oh_hell with players=N and its defaults (4 suits of 13, off_bid_penalty false,
# points_per_trick 1), num_tricks_fixed as the ruleset's num_tricks (-1: drawn at random).
# Chance: the number of tricks, the dealer, then the cards round the table from seat 0 (the
# k-th card to seat k % N), then the turned card. Cards are "C2" (suit, face), suits C D S H;
# a bid is its number. Returns are the points, as the ruleset scores.
def oh_hell_chance(rules, S, os_state):
    step = len(os_state.history())
    n = os_state.num_players()
    if step == 0:
        return S.v["tricks"]
    if step == 1:
        return S.v["dealer"]
    k = step - 2
    card = cards(S, "turned")[0] if k == n * S.v["tricks"] else cards(S, "hand", k % n)[k // n]
    return os_card(rules, card, "CDSH")


def oh_hell(num_tricks: int, players: tuple[int, ...]) -> Twin:
    return Twin("oh_hell", "oh_hell", players,
                lambda n: {"players": n, "num_tricks_fixed": num_tricks}, oh_hell_chance,
                lambda seat, label: label, scores, params={"num_tricks": num_tricks})


# ---------------------------------------------------------------------- Hearts
# hearts with its default options, each a parameter of the ruleset of the same name. Chance:
# the pass direction (0 none, 1 left, 2 across, 3 right), then the cards round the table from
# seat 0. Cards are "2C" (face, suit), suits C D H S. Returns are 26 minus the penalty points,
# as the ruleset scores.
def hearts_chance(rules, S, os_state):
    step = len(os_state.history())
    if step == 0:
        return S.v["pass_dir"]
    k = step - 1
    return os_card(rules, cards(S, "hand", k % 4)[k // 4], "CDHS")


def hearts(**options) -> Twin:
    return Twin("hearts", "hearts", (4,), lambda n: dict(options), hearts_chance,
                lambda seat, label: label, scores, params=dict(options))


# ---------------------------------------------------------------------- Euchre
# euchre with stick_the_dealer and allow_lone_defender as the ruleset's parameters (OpenSpiel's
# defaults: true, false). Chance: the dealer, then 20 cards round the table from the dealer
# (the k-th to seat dealer + k), then the turned card. Cards are "C9" (suit, face), suits
# C D H S, faces 9 T J Q K A; bids "Pass", "Clubs"...; "Alone" and "Partner". Returns are the
# points, as the ruleset scores. The right and left bowers are ranked by the ruleset's own
# trump-dependent `follow:` and `rank:`.
def euchre_chance(rules, S, os_state):
    step = len(os_state.history())
    if step == 0:
        return S.v["dealer"]
    k = step - 1
    if k == 20:
        return euchre_card(rules, cards(S, "turned")[0])
    return euchre_card(rules, cards(S, "hand", (S.v["dealer"] + k) % 4)[k // 4])


def euchre_card(rules, card: int) -> int:
    return "9TJQKA".index(attr(rules, "face", card)) * 4 + "CDHS".index(attr(rules, "suit", card))


def euchre(**options) -> Twin:
    return Twin("euchre", "euchre", (4,), lambda n: dict(options), euchre_chance,
                lambda seat, label: label, scores, params=dict(options))


# ---------------------------------------------------------------------- Spades
# spades with win_threshold, win_or_loss_bonus and mercy_threshold as the ruleset's parameters
# (OpenSpiel's defaults, which one deal never reaches; a second twin sets them low). Chance:
# the cards round the table from seat 0. OpenSpiel numbers a card suit * 13 + rank here, and
# writes it "C2" (suit, face), suits C D H S; a bid "Nil", "1" .. "13". Returns are the
# partnership's score for the deal, as the ruleset scores.
def spades_chance(rules, S, os_state):
    k = len(os_state.history())
    card = cards(S, "hand", k % 4)[k // 4]
    return "CDHS".index(attr(rules, "suit", card)) * 13 + FACES.index(attr(rules, "face", card))


def spades(**options) -> Twin:
    return Twin("spades", "spades", (4,), lambda n: dict(options), spades_chance,
                lambda seat, label: label, scores, params=dict(options))


TWINS = [oh_hell(-1, (3,)), oh_hell(3, (3, 4, 7)),
         hearts(),
         hearts(pass_cards=False, no_pts_on_first_trick=False, can_lead_any_club=True, jd_bonus=True,
                avoid_all_tricks_bonus=True, must_break_hearts=False, qs_breaks_hearts=False),
         hearts(can_lead_hearts_instead_of_qs=True, qs_breaks_hearts=False, avoid_all_tricks_bonus=True),
         euchre(), euchre(stick_the_dealer=False, allow_lone_defender=True),
         spades(), spades(win_threshold=20, win_or_loss_bonus=50, mercy_threshold=-40)]

@pytest.mark.parametrize("twin,n", cases(TWINS))
def test_twin_plays_as_openspiel(twin, n):
    plays_as_openspiel(twin, n, GAMES)


# ---------------------------------------------------------------------- a trick's key
KEY_RULESET = tiny_ruleset("""
  hand: {owner: player, visible: owner}
  table: {}
  won: {owner: player}
flow:
  - deal: {from: deck, to: hand, count: 3}
  - tricks: {hand: hand, table: table, leader: 0, follow: suit, rank: %s, collect: won}
""", game="keys", card="card", attributes="suit: [A, B], rank: 1..3")


@pytest.mark.parametrize("key", ["rank + tricks_played", "rank + trick_count"])
def test_a_key_naming_what_it_cannot_read_says_what_it_can(tmp_path, key):
    """Euchre's bowers are ranked by keys that read the trump named in play (rulesets/euchre.yaml);
    a key naming something else (a hook's local, an unknown name) is told what a key reads."""
    with pytest.raises(RulesetError) as info:
        load_text(tmp_path, KEY_RULESET % f'"{key}"', "keys.yaml")
    message = str(info.value)
    assert "keys.yaml:12:" in message and "unknown name" in message
    assert ("a trick's key reads the card's attributes (kind, rank, suit), the state (parameters, "
            "variables, counters and zones" in message and "'led'" in message)


def test_a_misspelt_key_keeps_its_did_you_mean(tmp_path):
    with pytest.raises(RulesetError) as info:
        load_text(tmp_path, KEY_RULESET % '"rnk"', "keys.yaml")
    assert "did you mean 'rank'?" in str(info.value) and "a trick's key reads" not in str(info.value)


# ---------------------------------------------------------------------- the RL action space
@pytest.mark.parametrize("name", ["oh_hell", "hearts", "euchre", "spades"])
def test_every_label_of_random_play_is_in_the_action_space(name):
    """The fixed action space of the RL adapters lists every move of random play (Spades' bids
    are the keys of a map parameter, once an internal error while the space was listed)."""
    rules = interpreter.load(interpreter.ruleset_path(name))
    n = rules.player_counts[0]
    space = action_space(rules, n)
    for seed in (1, 2):
        S = rules.new_game(n, seed)
        rnd = random.Random(seed)
        while not S.is_terminal():
            ids = space.ids(S)
            assert [space.label(i) for i in ids] == S.legal_actions()
            S.apply_index(rnd.randrange(len(ids)))
