"""The card classics beyond tricks, each proved game by game (the machinery of
tests/test_classics.py, imported: a twin and its replay; that file also runs their scenarios
and plays them with the search agents):

- Crazy Eights against OpenSpiel's ``crazy_eights``;
- Love Letter and 6 nimmt!, which have no OpenSpiel twin, against independent referees
  written from the published rules (tests/oracles/card_referees.py), replayed over seeded games.
"""
from __future__ import annotations

import random

import pytest

import interpreter
from oracles.card_referees import LoveLetter, SixNimmt
from test_classics import GAMES, Twin, attr, cards, cases, plays_as_openspiel

try:
    import pyspiel
except ImportError:       # the scenarios and the referees still run; the twin is skipped
    pyspiel = None


# ---------------------------------------------------------------------- Crazy Eights
# crazy_eights with players=N and its defaults (max_draw_cards 5, max_turns 100,
# use_special_cards false, reshuffle false), and cases that set each of them (the ruleset's
# parameters of the same meaning: max_draw_cards, max_turns, special_cards, reshuffle). Chance: the dealer (52 + seat), then the deal one
# card at a time from the dealer's left (a card's number is rank * 4 + suit, ranks 2..A and
# suits C D H S indexed from 0), the starter, then each card drawn (after a 2 of the special
# cards, a draw is several chance nodes in a row: the cards drawn, in order). OpenSpiel turns up an
# eight as the starter and puts it back: the ruleset takes the first card that is not an
# eight, so the replay gives that card at once (the same distribution: a random non-eight).
# A move "Play <card>", "Draw", "Pass", "Nominate suit <S>"; the returns are the penalties,
# which the ruleset scores with penalties: openspiel.
RANKS, SUITS = "23456789TJQKA", "CDHS"


def card_number(rules, card: int) -> int:
    return RANKS.index(attr(rules, "rank", card)) * 4 + SUITS.index(attr(rules, "suit", card))


def crazy_eights_chance(rules, S, os_state):
    done, n = len(os_state.history()), S.n
    dealt = n * (7 if n == 2 else 5)
    if done == 0:
        return 52 + S.v["dealer"]
    if done <= dealt:                                # the k-th card of the deal, from the dealer's left
        seat = (S.v["dealer"] + done) % n
        return card_number(rules, cards(S, "hand", seat)[(done - 1) // n])
    if done == dealt + 1:
        return card_number(rules, cards(S, "pile")[0])
    k = 0                                            # the k-th card of this draw (2s make it several)
    for step in reversed(os_state.full_history()):
        if step.player != pyspiel.PlayerId.CHANCE:
            break
        k += 1
    return card_number(rules, S.v["_drawn"][k])


def crazy_eights_action(seat: int, label: str) -> str:
    if label in ("Draw", "Pass"):
        return label
    return f"Nominate suit {label}" if len(label) == 1 else f"Play {label}"


CRAZY_EIGHTS = Twin("crazy_eights", "crazy_eights", (2, 3, 5, 6), lambda n: {"players": n}, crazy_eights_chance,
                    crazy_eights_action, lambda rules, S: [float(x) for x in S.scores()],
                    params={"penalties": "openspiel"})
CRAZY_EIGHTS_SHORT = Twin("crazy_eights", "crazy_eights", (2, 4),
                          lambda n: {"players": n, "max_draw_cards": 2, "max_turns": 20}, crazy_eights_chance,
                          crazy_eights_action, lambda rules, S: [float(x) for x in S.scores()],
                          params={"penalties": "openspiel", "max_draw_cards": 2, "max_turns": 20})

CRAZY_EIGHTS_RESHUFFLE = Twin("crazy_eights", "crazy_eights", (2, 3),
                              lambda n: {"players": n, "reshuffle": True}, crazy_eights_chance,
                              crazy_eights_action, lambda rules, S: [float(x) for x in S.scores()],
                              params={"penalties": "openspiel", "reshuffle": True})

CRAZY_EIGHTS_SPECIAL = Twin("crazy_eights", "crazy_eights", (2, 3, 4),
                            lambda n: {"players": n, "use_special_cards": True},
                            crazy_eights_chance, crazy_eights_action, lambda rules, S: [float(x) for x in S.scores()],
                            params={"penalties": "openspiel", "special_cards": True})

CRAZY_EIGHTS_SPECIAL_RESHUFFLE = Twin("crazy_eights", "crazy_eights", (2,),
                                      lambda n: {"players": n, "use_special_cards": True, "reshuffle": True},
                                      crazy_eights_chance, crazy_eights_action,
                                      lambda rules, S: [float(x) for x in S.scores()],
                                      params={"penalties": "openspiel", "special_cards": True, "reshuffle": True})

TWINS = [CRAZY_EIGHTS, CRAZY_EIGHTS_SHORT, CRAZY_EIGHTS_RESHUFFLE, CRAZY_EIGHTS_SPECIAL, CRAZY_EIGHTS_SPECIAL_RESHUFFLE]
@pytest.mark.parametrize("twin,n", cases(TWINS))
def test_twin_plays_as_openspiel(twin, n):
    plays_as_openspiel(twin, n, GAMES)


# ---------------------------------------------------------------------- the refereed classics
def labels(rules, cards_: list[int]) -> list[str]:
    return sorted(rules.card_labels[c] for c in cards_)


def love_letter_deck(rules, S) -> list[str]:
    """The round's shuffled deck as Rulebook dealt it (the last card on top), read at the round's
    first decision: what is left, the first player's draw, the deal from the first player,
    the cards laid aside face up, the card set aside face down."""
    n, first = S.n, S.v["start"]
    dealt = [labels(rules, cards(S, "hand", (first + i) % n)) for i in range(n)]
    draw = dealt[0].pop()                     # the first player holds its dealt card and its draw
    removed = [rules.card_labels[c] for c in cards(S, "removed")]
    return ([rules.card_labels[c] for c in cards(S, "deck")] + [draw] + [h[0] for h in reversed(dealt)]
            + removed[::-1] + [rules.card_labels[c] for c in cards(S, "aside")])


def referee_replay(name: str, n: int, seed: int, referee, deck, table) -> tuple[int, list]:
    """One seeded random game in Rulebook, each decision checked against the referee (the seat,
    the prompt, the options, every hand, what lies face up); its number of decisions and its
    scores."""
    rules = interpreter.load(interpreter.ruleset_path(name))
    S = rules.new_game(n, seed)
    rng = random.Random(seed)
    decisions = 0
    while not S.is_terminal():
        if referee.round_over:
            referee.deal(deck(rules, S), S.v.get("start"))
        seat, prompt, options = referee.legal()
        where = f"{name}, {n} players, seed {seed}, decision {decisions + 1}"
        assert (S.current_player(), S.prompt()) == (seat, prompt), f"{where}: Rulebook asks {S.current_player()} {S.prompt()}, the referee {seat} {prompt}"
        assert sorted(S.legal_actions()) == sorted(options), f"{where}: Rulebook offers {S.legal_actions()}, the referee {options}"
        assert [labels(rules, h) for h in S.z["hand"]] == [sorted(map(str, h)) for h in referee.hands], f"{where}: the hands differ"
        assert table(rules, S) == referee.table(), f"{where}: the table differs: {table(rules, S)} and the referee's {referee.table()}"
        label = rng.choice(S.legal_actions())
        S.apply(label)
        referee.play(label)
        decisions += 1
    assert referee.over, f"{name}, {n} players, seed {seed}: Rulebook's game ended, the referee's goes on"
    assert S.scores() == referee.scores(), f"{name}, {n} players, seed {seed}: scores {S.scores()}, the referee's {referee.scores()}"
    return decisions, S.scores()


def six_nimmt_deck(rules, S) -> list[str]:
    """The round's shuffled deck as Rulebook dealt it (the last card on top), read at the round's
    first decision: what is left, the rows' first cards (row A first), the hands (dealt one
    card at a time from seat 0; which card of a hand came in which pass does not matter)."""
    hands = [labels(rules, h) for h in S.z["hand"]]
    dealt = [hands[p][k] for k in range(len(hands[0])) for p in range(S.n)]
    rows = [rules.card_labels[S.z["line"][r][0]] for r in cards(S, "rows")]
    return [rules.card_labels[c] for c in cards(S, "deck")] + rows[::-1] + dealt[::-1]


def love_letter_table(rules, S) -> tuple:
    """What lies face up, as Rulebook has it: each seat's cards played, who is out."""
    return [labels(rules, h) for h in S.z["played"]], list(S.c["out"])


def six_nimmt_table(rules, S) -> tuple:
    """The rows in order (oldest card first), each seat's cards taken this round."""
    L = rules.card_labels
    return [[L[c] for c in S.z["line"].get(r, [])] for r in cards(S, "rows")], [labels(rules, h) for h in S.z["taken"]]


REFEREES = {"love_letter": (LoveLetter, love_letter_deck, love_letter_table, (2, 3, 4)),
            "six_nimmt": (SixNimmt, six_nimmt_deck, six_nimmt_table, (2, 4, 10))}
REFEREED = tuple(REFEREES)   # the classics without a twin (test_classics.py checks the list)


@pytest.mark.parametrize("name,n", [(name, n) for name, (*_, counts) in REFEREES.items() for n in counts])
def test_referee_agrees_with_every_decision(name, n):
    make, deck, table, _ = REFEREES[name]
    results = [referee_replay(name, n, seed, make(n), deck, table) for seed in range(1, GAMES // 3 + 1)]
    assert len({tuple(scores) for _, scores in results}) > 1    # the games did not all end alike


def test_a_priest_shows_a_hand_to_its_player_alone():
    """Love Letter's Priest (the show effect): its player's observation lists the card it looked
    at in the hand it lies in; the other seats' observations of that hand are unchanged."""
    rules = interpreter.load(interpreter.ruleset_path("love_letter"))
    looks = 0
    for seed in range(1, 40):
        S = rules.new_game(3, seed)
        rng = random.Random(seed)
        while not S.is_terminal() and looks < 5:
            if S.prompt() == "target" and rules.card_labels[S.v["card"]] == "Priest":
                me, target = S.current_player(), rng.choice(S.legal_actions())
                t = int(target[1:])
                card = rules.card_labels[S.z["hand"][t][0]]
                before = [S.observation(p).get("known", {}).get(f"hand[{t}]") for p in range(3)]
                assert before[me] != [card]
                S.apply(target)
                assert S.observation(me)["known"][f"hand[{t}]"] == [card]
                for p in set(range(3)) - {me, t}:   # the third seat learns nothing
                    assert S.observation(p).get("known", {}).get(f"hand[{t}]") == before[p]
                looks += 1
                continue
            S.apply(rng.choice(S.legal_actions()))
    assert looks == 5
