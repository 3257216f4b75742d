"""The classic games against OpenSpiel, game by game.

Each bundled classic with an OpenSpiel twin is played in Rulebook with seeded random choices;
every game is replayed at once in OpenSpiel's own game of that name (with the parameters that
make its rules the ruleset's, said per twin below). OpenSpiel's chance nodes are given the
outcome Rulebook drew (the cards dealt, the dice rolled: read from the Rulebook state). At
every decision both must offer the same moves (Rulebook's labels mapped to OpenSpiel's action
strings, ``state.action_to_string``) to the same player, and at the end Rulebook's scores (or
winners, as the game defines its returns) must equal OpenSpiel's returns.

Each classic's rules are also proved one by one by its scenarios
(``rulesets/scenarios/<game>.yaml``), which run without OpenSpiel.

``benchmarks/classics.py`` replays 200 games of each and measures both engines' speed.
"""
from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pytest

try:
    import pyspiel
except ImportError:       # the scenarios still run; the twins are skipped (test_twin_plays_as_openspiel)
    pyspiel = None

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import interpreter  # noqa: E402
from helpers import scenario_outcomes  # noqa: E402

CLASSICS = ["kuhn_poker", "leduc_poker", "goofspiel", "tic_tac_toe", "liars_dice", "connect_four",
            "oh_hell", "hearts", "euchre", "spades",   # the trick-taking twins: tests/test_classics_tricks.py
            "crazy_eights", "love_letter", "six_nimmt",  # the card classics: tests/test_classics_cards.py
            "oware", "go_fish", "yacht"]  # each with a file of its own: tests/test_classics_oware.py ...
NO_OPENSPIEL = "OpenSpiel (the `rl` extra: pip install open_spiel) is not installed: the twins cannot be replayed"

GAMES = 30   # seeded games per twin and player count in the suite (benchmarks/classics.py: 200)


def attr(rules, name: str, card: int):
    """A card's attribute, by the card's id."""
    return rules.attr_tables[name][card]


def cards(S, zone: str, owner: int | None = None) -> list[int]:
    """The card ids in a zone (a player's, when ``owner`` is given)."""
    z = S.z[zone]
    return list(z if owner is None else z[owner])


@dataclass
class Twin:
    """A ruleset and its OpenSpiel twin: how to read a chance outcome from the Rulebook state,
    how a Rulebook label is written by OpenSpiel, and OpenSpiel's returns from Rulebook's result."""
    ruleset: str
    openspiel: str
    players: tuple[int, ...]
    os_params: Callable[[int], dict]                 # OpenSpiel's parameters for n players
    chance: Callable                                 # (rules, S, os_state) -> OpenSpiel's outcome
    action: Callable[[int, str], str]                # (seat, Rulebook label) -> action string
    returns: Callable                                # (rules, S) -> OpenSpiel's returns
    params: dict = field(default_factory=dict)       # Rulebook parameter overrides


# ---------------------------------------------------------------------- Kuhn poker
# kuhn_poker with players=N: N+1 cards numbered 0..N, dealt to seats 0..N-1 in order (chance
# outcome = the card's number), one betting round; returns are chips won, as the ruleset scores.
def kuhn_chance(rules, S, os_state):
    seat = len(os_state.history())                   # the k-th deal goes to seat k
    return attr(rules, "rank", cards(S, "hand", seat)[0])


KUHN = Twin("kuhn_poker", "kuhn_poker", (2, 3, 4), lambda n: {"players": n}, kuhn_chance,
            lambda seat, label: label, lambda rules, S: [float(x) for x in S.scores()])


# ---------------------------------------------------------------------- Leduc poker
# leduc_poker with players=N and its defaults (starting_player 0, action_mapping false,
# suit_isomorphism false): 2(N+1) cards, card c of rank c // 2; chance outcome = the card's
# number, rank * 2 + suit (a = 0, b = 1): the private cards to seats 0..N-1, then the public
# card when the second round starts. Returns are chips won, as the ruleset scores.
def card_number(rules, card: int) -> int:
    return attr(rules, "rank", card) * 2 + "ab".index(attr(rules, "suit", card))


def leduc_chance(rules, S, os_state):
    dealt = len(os_state.history())
    n = os_state.num_players()
    card = cards(S, "hand", dealt)[0] if dealt < n else cards(S, "board")[0]
    return card_number(rules, card)


LEDUC = Twin("leduc_poker", "leduc_poker", (2, 3), lambda n: {"players": n}, leduc_chance,
             lambda seat, label: label, lambda rules, S: [float(x) for x in S.scores()])


# ---------------------------------------------------------------------- Goofspiel
# goofspiel with players=N, num_cards=K and its defaults (num_turns = num_cards, points_order
# random, returns_type win_loss): chance outcome = the prize turned up, value - 1; a bid
# "[P<seat>]Bid: <value>". OpenSpiel plays the last turn (one card left in every hand, one
# prize left) by itself, as the ruleset's auto_forced does. Its win_loss returns are read from
# Rulebook's winners: 1/k to each of k winners, -1/(N-k) to each loser, 0 to all when all tie.
# A second twin with returns_type total_points compares the scores themselves.
def goofspiel_chance(rules, S, os_state):
    return attr(rules, "value", cards(S, "lot")[0]) - 1


def win_loss(rules, S):
    n, won = len(S.scores()), S.winners()
    if len(won) == n:
        return [0.0] * n
    return [1 / len(won) if p in won else -1 / (n - len(won)) for p in range(n)]


def goof_params(n: int, **more):
    return {"players": n, **more}


GOOFSPIEL = Twin("goofspiel", "goofspiel", (2, 3, 4), goof_params, goofspiel_chance,
                 lambda seat, label: f"[P{seat}]Bid: {label}", win_loss)
GOOFSPIEL_POINTS = Twin("goofspiel", "goofspiel", (2, 3),
                        lambda n: goof_params(n, num_cards=6, returns_type="total_points"), goofspiel_chance,
                        lambda seat, label: f"[P{seat}]Bid: {label}",
                        lambda rules, S: [float(x) for x in S.scores()], params={"num_cards": 6})


# ---------------------------------------------------------------------- Tic-tac-toe
# tic_tac_toe (no parameters): seat 0 is x, seat 1 is o; a move "x(row,col)" is the cell
# labelled "(row,col)". No chance. Returns 1 / -1 / 0, as the ruleset scores.
TIC_TAC_TOE = Twin("tic_tac_toe", "tic_tac_toe", (2,), lambda n: {}, None,
                   lambda seat, label: "xo"[seat] + label, lambda rules, S: [float(x) for x in S.scores()])


# ---------------------------------------------------------------------- Liar's dice
# liars_dice with players=2, numdice and dice_sides as the ruleset's parameters, bidding_rule
# reset-face (the default): each seat's dice rolled in turn, seat 0's first (chance outcome =
# face - 1; OpenSpiel sorts each cup once rolled, so the faces are given in sorted order); a
# bid "Q-F" is the card labelled so, "Liar" the call. Returns 1 / -1, as the ruleset scores.
def liars_dice_chance(rules, S, os_state):
    rolled = len(os_state.history())
    seat, slot = divmod(rolled, len(cards(S, "cup", 0)))
    return sorted(attr(rules, "face", d) for d in cards(S, "cup", seat))[slot] - 1


def liars_dice(numdice: int, sides: int) -> Twin:
    return Twin("liars_dice", "liars_dice", (2,),
                lambda n: {"players": n, "numdice": numdice, "dice_sides": sides}, liars_dice_chance,
                lambda seat, label: label, lambda rules, S: [float(x) for x in S.scores()],
                params={"numdice": numdice, "dice_sides": sides})



# ---------------------------------------------------------------------- Connect Four
# connect_four with rows, columns and x_in_row as the ruleset's parameters (defaults 6, 7, 4):
# seat 0 is x, seat 1 is o; a move "x3" is the column labelled "3". No chance. Returns
# 1 / -1 / 0, as the ruleset scores. A small grid (4 by 5, lines of 3) adds full-grid draws.
def connect_four(rows: int, columns: int, x_in_row: int) -> Twin:
    grid = {"rows": rows, "columns": columns, "x_in_row": x_in_row}
    return Twin("connect_four", "connect_four", (2,), lambda n: dict(grid), None,
                lambda seat, label: "xo"[seat] + label, lambda rules, S: [float(x) for x in S.scores()],
                params=dict(grid))


TWINS = [KUHN, LEDUC, GOOFSPIEL, GOOFSPIEL_POINTS, TIC_TAC_TOE,
         liars_dice(1, 6), liars_dice(2, 6), liars_dice(2, 4),
         connect_four(6, 7, 4), connect_four(4, 5, 3), connect_four(3, 3, 3)]


# ---------------------------------------------------------------------- the replay
def check(cond: bool, twin: Twin, n: int, seed: int, what: str):
    if not cond:
        raise AssertionError(f"{twin.ruleset}, {n} players, seed {seed}: {what}")


def replay(twin: Twin, n: int, seed: int, rules=None, game=None) -> tuple[int, tuple]:
    """Play one seeded random game in Rulebook and the same game in OpenSpiel in step; return
    the number of decisions and the returns. Any difference is an AssertionError naming the game."""
    rules = rules or interpreter.load(interpreter.ruleset_path(twin.ruleset))
    game = game or pyspiel.load_game(twin.openspiel, twin.os_params(n))
    rng = random.Random(seed)
    S = rules.new_game(n, seed, {"params": dict(twin.params)})
    os_state = game.new_initial_state()
    joint: dict[int, int] = {}      # a simultaneous node's actions chosen so far
    decisions = 0
    while True:
        while os_state.is_chance_node():
            outcome = twin.chance(rules, S, os_state)
            legal = os_state.legal_actions()    # the chance outcomes' actions (fast: 248,832 of a 12-face Yacht roll)
            check(outcome in legal, twin, n, seed, f"chance outcome {outcome} not among {legal[:20]}... ({len(legal)})")
            os_state.apply_action(outcome)
        if S.is_terminal():
            break
        check(not os_state.is_terminal(), twin, n, seed,
              f"OpenSpiel's game ended, Rulebook's goes on (after {decisions} decisions)")
        seat = S.current_player()
        labels = S.legal_actions()
        if os_state.is_simultaneous_node():
            check(seat not in joint, twin, n, seed, f"seat {seat} asked twice at one simultaneous node")
            os_legal = {os_state.action_to_string(seat, a): a for a in os_state.legal_actions(seat)}
        else:
            check(os_state.current_player() == seat, twin, n, seed,
                  f"decision {decisions + 1}: Rulebook asks seat {seat}, OpenSpiel {os_state.current_player()}")
            os_legal = {os_state.action_to_string(seat, a): a for a in os_state.legal_actions()}
        mapped = sorted(twin.action(seat, label) for label in labels)
        check(mapped == sorted(os_legal), twin, n, seed,
              f"decision {decisions + 1} (seat {seat}): Rulebook offers {mapped}, OpenSpiel {sorted(os_legal)}")
        label = rng.choice(labels)
        S.apply(label)
        decisions += 1
        action = os_legal[twin.action(seat, label)]
        if os_state.is_simultaneous_node():
            joint[seat] = action
            if len(joint) == os_state.num_players():
                os_state.apply_actions([joint[p] for p in range(os_state.num_players())])
                joint = {}
        else:
            os_state.apply_action(action)
    check(os_state.is_terminal(), twin, n, seed, f"Rulebook's game ended, OpenSpiel's goes on ({os_state})")
    ours, theirs = twin.returns(rules, S), list(os_state.returns())
    check(ours == pytest.approx(theirs), twin, n, seed, f"returns {ours} in Rulebook, {theirs} in OpenSpiel")
    return decisions, tuple(theirs)


def case_id(twin: Twin, n: int) -> str:
    extra = "".join(f"-{k}={v}" for k, v in twin.params.items())
    return f"{twin.ruleset}{extra}-{n}p"


def cases(twins: list[Twin]) -> list:
    """Each twin at each of its player counts, a test case (tests/test_classics_*.py too)."""
    return [pytest.param(twin, n, id=case_id(twin, n)) for twin in twins for n in twin.players]


def plays_as_openspiel(twin: Twin, n: int, games: int = GAMES, rules=None,
                       unplayed: Callable[[int], bool] | None = None,
                       one_result: bool = False) -> list[tuple[int, tuple]]:
    """``games`` seeded games of the twin at ``n`` players, each replayed in OpenSpiel (replay
    checks every decision and the returns); each game has a decision, but for the seeds
    ``unplayed`` accepts (a game its rules end before any), and the games do not all end
    alike (unless ``one_result``: rules whose every game has the same returns; then they do
    not all last as long). ``rules``: the loaded ruleset (or a wrapper of it). Returns the
    replays' results."""
    pytest.importorskip("pyspiel", reason=NO_OPENSPIEL)
    rules = rules or interpreter.load(interpreter.ruleset_path(twin.ruleset))
    game = pyspiel.load_game(twin.openspiel, twin.os_params(n))
    results = [replay(twin, n, seed, rules, game) for seed in range(1, games + 1)]
    assert all(decisions > 0 or (unplayed is not None and unplayed(seed))
               for seed, (decisions, _) in enumerate(results, 1)), "a game without a decision"
    if one_result:
        assert len({returns for _, returns in results}) == 1 and len({d for d, _ in results}) > 1
    else:
        assert len({returns for _, returns in results}) > 1    # the games did not all end alike
    return results


@pytest.mark.parametrize("twin,n", cases(TWINS))
def test_twin_plays_as_openspiel(twin, n):
    plays_as_openspiel(twin, n)


def test_every_classic_has_a_twin_a_source_and_scenarios():
    from test_classics_tricks import TWINS as TRICK_TWINS
    from test_classics_cards import REFEREED, TWINS as CARD_TWINS   # (all three import this module)
    from test_classics_go_fish import TWINS as GO_FISH_TWINS
    from test_classics_oware import TWINS as OWARE_TWINS
    from test_classics_yacht import TWINS as YACHT_TWINS
    twins = TWINS + TRICK_TWINS + CARD_TWINS + OWARE_TWINS + GO_FISH_TWINS + [twin for twin, _ in YACHT_TWINS]
    assert sorted({twin.ruleset for twin in twins} | set(REFEREED)) == sorted(CLASSICS)
    for name in CLASSICS:
        rules = interpreter.load(interpreter.ruleset_path(name))
        assert "Source of rules" in rules.data["description"], name
        assert (ROOT / "rulesets" / "scenarios" / f"{name}.yaml").exists(), name


SCENARIOS = [(name, outcome) for name in CLASSICS
             for outcome in scenario_outcomes(ROOT / "rulesets" / "scenarios" / f"{name}.yaml")]


@pytest.mark.parametrize("name,outcome", SCENARIOS, ids=[f"{n}: {o.name}" for n, o in SCENARIOS])
def test_scenario(name, outcome):
    assert outcome.ok, f"{outcome.loc}: {outcome.message}"


SEARCH_PARAMS = {"goofspiel": {"num_cards": 5}, "oh_hell": {"num_tricks": 4}, "six_nimmt": {"target": 20},   # shorter games
                 "oware": {"num_houses_per_player": 3, "num_seeds_per_house": 3},
                 "yacht": {"rolls_per_turn": 1}}   # (greedy tries every reroll's outcomes: 32 a decision)


@pytest.mark.parametrize("name", CLASSICS)
def test_the_search_agents_play_each_classic(name):
    """The search agents determinize what they cannot see and read the score mid-game: a game
    of each classic with them ends with every seat scored (a hidden unused box once left the
    determinization no deal, and Leduc's hand strength needed the public card)."""
    from interpreter.play.agents import choose, make_agents
    rules = interpreter.load(interpreter.ruleset_path(name))
    params = SEARCH_PARAMS.get(name, {})
    n = max(2, rules.data["players"]["min"])
    for seed in (1, 2):
        agents = make_agents("ismcts:iterations=30,greedy" + ",greedy" * (n - 2), n, seed)
        S = rules.new_game(n, seed, {"params": params})
        while not S.is_terminal():
            S.apply_index(choose(agents[S.current_player()], S, S.current_player()))
        assert len(S.scores()) == n and S.winners()
