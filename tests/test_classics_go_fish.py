"""Go Fish against OpenSpiel's ``go_fish``, game by game (the machinery of tests/test_classics.py,
imported: a twin and its replay), with a count of the rules each case's games exercised.

Chance: every OpenSpiel chance node is a card drawn from the pool (the deal, a fish, the draw
of a player left without cards), its outcome the card's rank (a = 0, b = 1...). Rulebook
draws from the top of one shuffled pool; the games are started recording their events, and
the k-th chance node gets the rank of the k-th card the events show leaving the pool. A move
"1c" (ask seat 1 for c) is OpenSpiel's action string as it is. Returns: with
``most_books_wins`` the most books win, 1/k to each of k winners, -1/(N-k) to each loser, 0
to all when all tie (Rulebook's winners); without it the player who went out first wins (1,
the others -1/(N-1)), and when nobody went out (``end_on_first_out`` false) OpenSpiel gives
every player -1/(N-1): Rulebook has no winner then.

More games a case: ``GO_FISH_GAMES=200 python -m pytest tests/test_classics_go_fish.py``.
"""
from __future__ import annotations

import os
import random
from collections import Counter

import pytest

import interpreter
from interpreter.errors import Refused
from test_classics import GAMES as SUITE_GAMES, Twin, attr, case_id, cases, plays_as_openspiel, win_loss

try:
    import pyspiel
except ImportError:       # the twin is skipped (its scenarios run in tests/test_classics.py)
    pyspiel = None

GAMES = int(os.environ.get("GO_FISH_GAMES", SUITE_GAMES))   # seeded games a case in the suite (30)


def drawn(S) -> list[int]:
    """The cards drawn from the pool so far, in order (the game's events)."""
    return [c for e in S.ev if e["ev"] == "move" and (e["from"], e["to"]) == ("pool", "hand") for c in e["cards"]]


def go_fish_chance(rules, S, os_state):
    k = sum(1 for step in os_state.full_history() if step.player == pyspiel.PlayerId.CHANCE)
    return ord(attr(rules, "rank", drawn(S)[k])) - ord("a")


def go_fish_returns(rules, S):
    n = S.n
    return win_loss(rules, S) if S.winners() else [-1 / (n - 1)] * n


class Recording:
    """The ruleset, its games started recording their events (``S.ev``), which the chance
    mapping reads."""

    def __init__(self, rules):
        self.rules = rules

    def new_game(self, *args, **kwargs):
        return self.rules.new_game(*args, record=True, **kwargs)

    def __getattr__(self, name):
        return getattr(self.rules, name)


def twin(players: tuple[int, ...], **params) -> Twin:
    return Twin("go_fish", "go_fish", players, lambda n: {"players": n, **params}, go_fish_chance,
                lambda seat, label: label, go_fish_returns, params=dict(params))


SMALL = {"ranks": 4, "suits": 2, "initial_cards": 3}     # books in the deal, a pool soon empty
TWINS = [
    twin((2, 3, 5, 10)),                                     # OpenSpiel's defaults
    twin((2,), **SMALL),
    twin((3, 4), ranks=8, suits=2, initial_cards=2),
    twin((3,), ranks=8, suits=2, initial_cards=2, ask_after_empty_draw=False),
    twin((2, 3), ranks=6, suits=3, initial_cards=4, end_on_first_out=True),
    twin((2, 3), ranks=8, suits=2, initial_cards=3, end_on_first_out=True, most_books_wins=False),
    twin((2,), ranks=5, suits=2, initial_cards=3, most_books_wins=False),
]


# ---------------------------------------------------------------------- the rules that fired
def rules_fired(rules, n: int, seed: int, params: dict) -> tuple[Counter, list]:
    """Play the replay's game again in Rulebook alone (the same seed, the same random choices)
    and name the rules each decision made fire; the count and the scores."""
    S = rules.new_game(n, seed, {"params": dict(params)}, record=True)
    rng = random.Random(seed)
    fired: Counter = Counter()
    dealt_out = ended_in_the_deal(S, params)
    if dealt_out:
        fired["the game ends in the deal: " + dealt_out] += 1
    segment = S.ev[:]
    deal = next((segment[:i] for i, e in enumerate(segment) if e.get("var") == "drawing"), segment)
    moves = [e for e in deal if e["ev"] == "move" and e["to"] in ("hand", "books")]
    for i, e in enumerate(moves):
        if e["to"] == "books":
            fired["a book in the deal, the hand dealt up again" if i + 1 < len(moves)
                  else "a book with the last card of the deal, not dealt up again"] += 1
    classify_draws(segment, fired)
    while not S.is_terminal():
        label = rng.choice(S.legal_actions())
        asked, before = label[1:], len(S.ev)
        S.apply(label)
        segment = S.ev[before:]
        moves = [e for e in segment if e["ev"] == "move"]
        first = moves[0] if moves else None
        if first and first["from"] == "hand":
            fired["ask: the cards handed over, ask again"] += 1
            if len(moves) > 1 and moves[1]["to"] == "books":
                fired["ask: a book from the cards handed over"] += 1
        elif first and first["from"] == "pool":
            got = attr(rules, "rank", first["cards"][0])
            fired["go fish: drew the rank asked, ask again" if got == asked
                  else "go fish: another rank, the turn passes"] += 1
            if len(moves) > 1 and moves[1]["to"] == "books":
                fired["go fish: a book from the pool"] += 1
        else:
            fired["ask refused, the pool empty: the turn passes"] += 1
        classify_draws(segment, fired)
    if "first_out" in S.v and S.v["first_out"] is not None:
        fired["the game ends: a player went out (end_on_first_out)"] += 1
    else:
        fired["the game ends: every card in a book"] += 1
    won, scores = S.winners(), S.scores()
    fired["returns: " + ("no winner" if not won else "all tie" if len(won) == n
                         else "one winner" if len(won) == 1 else "a shared win")] += 1
    if won and scores[won[0]] < max(scores):
        fired["returns: the player out first wins on fewer books"] += 1
    return fired, S.scores()


def classify_draws(segment: list[dict], fired: Counter) -> None:
    """The rules of a player to ask: without cards, draws (an empty draw); holding cards when
    nobody else does, the next draws; without cards and the pool empty, passed over."""
    for i, e in enumerate(segment):
        nxt = segment[i + 1] if i + 1 < len(segment) else {}
        if e["ev"] == "set" and e["var"] == "drawing" and e["value"]:
            fired["nobody else holds cards: the next player draws" if nxt.get("var") == "cur"
                  else "no cards: the player draws"] += 1
        if e["ev"] == "set" and e["var"] == "cur" and nxt.get("ev") == "set" and nxt.get("var") == "cur":
            fired["no cards and the pool empty: passed over"] += 1


# ---------------------------------------------------------------------- the tests
def ended_in_the_deal(S, params: dict) -> str | None:
    """Why a game that ended before any decision ended in the deal (OpenSpiel's ends there
    too): every card in a book, or a player gone out by a book (``end_on_first_out``); None
    if it did not."""
    if not S.is_terminal():
        return None
    if params.get("end_on_first_out") and S.v["first_out"] is not None:
        return "a player went out (end_on_first_out)"
    return "every card in a book" if not S.z["pool"] and not any(S.z["hand"]) else None


def in_the_deal(rules, n: int, params: dict):
    """The seeds whose game may have no decision: those that end in the deal."""
    return lambda seed: ended_in_the_deal(rules.new_game(n, seed, {"params": dict(params)}), params) is not None


@pytest.mark.parametrize("twin,n", cases(TWINS))
def test_twin_plays_as_openspiel(twin, n):
    """The shared checks of test_classics.py: every game replayed in OpenSpiel, decision by
    decision, and the games not all ending alike; a game without a decision only one that
    ended in the deal. With neither most_books_wins nor end_on_first_out nobody ever wins: the
    returns are always alike."""
    rules = interpreter.load(interpreter.ruleset_path(twin.ruleset))
    nobody_wins = not twin.params.get("most_books_wins", True) and not twin.params.get("end_on_first_out")
    results = plays_as_openspiel(twin, n, GAMES, Recording(rules), unplayed=in_the_deal(rules, n, twin.params),
                                 one_result=nobody_wins)
    print(f"{case_id(twin, n)}: {len(results)} games agree, {sum(d for d, _ in results)} decisions")


def test_every_rule_fires_in_the_twins_games():
    """The games the twins replay make every rule fire (the count, per case, printed with -s)."""
    rules = interpreter.load(interpreter.ruleset_path("go_fish"))
    total: Counter = Counter()
    for tw in TWINS:
        for n in tw.players:
            case: Counter = Counter()
            for seed in range(1, GAMES + 1):
                fired, _ = rules_fired(rules, n, seed, tw.params)
                case.update(fired)
            print(case_id(tw, n), dict(sorted(case.items())))
            total.update(case)
    wanted = {"a book in the deal, the hand dealt up again", "a book with the last card of the deal, not dealt up again",
              "ask: the cards handed over, ask again",
              "ask: a book from the cards handed over", "go fish: drew the rank asked, ask again",
              "go fish: another rank, the turn passes", "go fish: a book from the pool",
              "ask refused, the pool empty: the turn passes", "no cards: the player draws",
              "nobody else holds cards: the next player draws", "no cards and the pool empty: passed over",
              "the game ends: a player went out (end_on_first_out)",
              "the game ends in the deal: a player went out (end_on_first_out)",
              "the game ends in the deal: every card in a book", "the game ends: every card in a book",
              "returns: no winner", "returns: all tie", "returns: one winner", "returns: a shared win",
              "returns: the player out first wins on fewer books"}
    print("every case:", dict(sorted(total.items())))
    assert not wanted - set(total), f"never fired: {sorted(wanted - set(total))}"


# decks smaller than the deal: (players, parameters); OpenSpiel's deal of the first and the last
# stops at a chance node with no outcome, of the other two books every card and ends the game
TOO_SMALL = [(3, {"ranks": 2, "suits": 4, "initial_cards": 3}), (10, {"ranks": 2, "suits": 2}),
             (2, {"ranks": 13, "suits": 1}), (4, {"ranks": 3, "suits": 3, "initial_cards": 3})]


@pytest.mark.parametrize("n,params", TOO_SMALL, ids=[f"{n}p-{p}" for n, p in TOO_SMALL])
def test_a_deck_smaller_than_the_deal_is_refused_where_no_player_moves_in_openspiel(n, params):
    """Where the deck is smaller than the deal, no player moves in OpenSpiel: its deal stops at a
    chance node with no outcome, or books every card and ends the game (seat 0 winning). The
    ruleset refuses those parameters (requires:): for a deal that ends the game, a deviation
    (docs/games.md)."""
    rules = interpreter.load(interpreter.ruleset_path("go_fish"))
    with pytest.raises(Refused, match=f"the deck of [0-9]+ cards is too small to deal [0-9]+ to each of {n} players"):
        rules.new_game(n, 1, {"params": params})
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
    game = pyspiel.load_game("go_fish", {"players": n, **params})
    for seed in range(GAMES):
        rnd, state = random.Random(seed), game.new_initial_state()
        while state.is_chance_node() and state.chance_outcomes():
            outcomes = state.chance_outcomes()
            state.apply_action(rnd.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        assert state.is_terminal() or state.is_chance_node(), f"seed {seed}: a player has a move"
