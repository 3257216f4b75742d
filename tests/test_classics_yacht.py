"""Yacht against OpenSpiel's ``yacht`` (the machinery of tests/test_classics.py, imported: a twin
and its replay): seeded games replayed in both, with a count of the rules of a turn they
exercised; every roll scored in every category in both (random play seldom scores a straight or
a yacht), with a count of the scoring rules. Its scenarios (rulesets/scenarios/yacht.yaml) and
a game of the search agents run with the other classics' in tests/test_classics.py.

    python -m pytest tests/test_classics_yacht.py -q                  # 3 to 6 games a case
    YACHT_GAMES=200 python -m pytest tests/test_classics_yacht.py -q  # 200 a case, on demand
"""
from __future__ import annotations

import functools
import itertools
import os
import random
from collections import Counter
from pathlib import Path

import pytest

import interpreter
from test_classics import NO_OPENSPIEL, Twin, attr, cards, case_id, plays_as_openspiel, win_loss

try:
    import pyspiel
except ImportError:       # the twin is skipped
    pyspiel = None

ROOT = Path(__file__).resolve().parent.parent

# ---------------------------------------------------------------------- the twin
# yacht with players=N and the ruleset's parameters of the same names (num_dice, dice_sides,
# rolls_per_turn, sort_dice). A move: "Keep all (proceed to scoring)" is the reroll labelled
# "Keep all", "Reroll dice: 0,2" the one labelled "0,2", "Score in Full House" the category
# labelled "Full House". Chance: each roll, of the dice at the positions the last move named
# (all of them at a turn's start), is one outcome, the faces rolled as digits base dice_sides
# from the lowest position (face - 1 each); with sort_dice OpenSpiel sorts the dice after the
# roll, so the faces rolled are the dice now in the cup less the ones kept, in any order.
# Returns: win/loss split among the winners (as Goofspiel's), and for one player the score
# over the most a sheet can score (OpenSpiel's max_possible_score).
def dice(rules, S) -> list[int]:
    """The faces in the cup, by position."""
    return [attr(rules, "face", d) for d in cards(S, "cup")]


def os_dice(os_state) -> list[int]:
    """OpenSpiel's dice (0 for a die not rolled yet), read from its state's text."""
    line = next(x for x in str(os_state).splitlines() if x.startswith("Dice:"))
    return [int(x) for x in line.split()[1:]]


def yacht_chance(rules, S, os_state):
    params = os_state.get_game().get_parameters()
    n, sides = params["num_dice"], params["dice_sides"]
    history = os_state.history()
    mask = history[-1] if history and history[-1] < 1 << n else (1 << n) - 1
    rolled = [i for i in range(n) if mask >> i & 1]
    now = dice(rules, S)
    if params["sort_dice"]:
        left = Counter(now) - Counter(f for i, f in enumerate(os_dice(os_state)) if i not in rolled)
        faces = sorted(left.elements())
    else:
        faces = [now[i] for i in rolled]
    outcome = sum((f - 1) * sides ** j for j, f in enumerate(faces))
    after = os_state.clone()        # the dice after the roll, die by die: the same in both
    after.apply_action(outcome)
    assert os_dice(after) == now, f"after a roll, OpenSpiel's dice {os_dice(after)}, Rulebook's {now}"
    return outcome


def yacht_action(seat: int, label: str) -> str:
    if label == "Keep all":
        return "Keep all (proceed to scoring)"
    return f"Reroll dice: {label}" if label[0].isdigit() else f"Score in {label}"


def most(num_dice: int, sides: int) -> int:
    """OpenSpiel's max_possible_score (YachtGame's constructor), a solo player's divisor."""
    upper = sum(f * num_dice for f in range(1, 7) if f <= sides)
    return (upper + sides * num_dice + (num_dice * sides if num_dice >= 4 else 0)
            + (num_dice * sides if num_dice >= 5 else 0) + (30 if sides >= 5 and num_dice >= 5 else 0)
            + (30 if sides >= 6 and num_dice >= 5 else 0) + 50)


def yacht_returns(rules, S):
    if S.n > 1:
        return win_loss(rules, S)
    return [S.scores()[0] / most(S.p["num_dice"], S.p["dice_sides"])]


def yacht(players: tuple[int, ...], **params) -> Twin:
    return Twin("yacht", "yacht", players, lambda n: {"players": n, **params}, yacht_chance,
                yacht_action, yacht_returns, params=dict(params))


# each case with its games in the suite (YACHT_GAMES=N: N each); the turns' rules fire in them
# (test_the_replayed_games_exercise_every_rule), few faces or six dice bring the rarer scores
# (five alike, the full houses of six dice), and twelve faces the faces past six on five dice
TWINS = [(yacht((1, 2, 3)), 5),
         (yacht((2,), sort_dice=True), 5),
         (yacht((2,), rolls_per_turn=1), 5), (yacht((2,), rolls_per_turn=2, sort_dice=True), 5),
         (yacht((2,), dice_sides=3, rolls_per_turn=4), 5),
         (yacht((2,), num_dice=6, dice_sides=2), 5),
         (yacht((1,), num_dice=6), 3),
         (yacht((2,), num_dice=6, dice_sides=5, sort_dice=True), 6),
         (yacht((2,), num_dice=3, dice_sides=8), 6), (yacht((2,), dice_sides=12), 4)]
CASES = [(twin, n, int(os.environ.get("YACHT_GAMES", games))) for twin, games in TWINS for n in twin.players]


@pytest.mark.parametrize("twin,n,games", [pytest.param(*case, id=case_id(*case[:2])) for case in CASES])
def test_twin_plays_as_openspiel(twin, n, games):
    plays_as_openspiel(twin, n, games)


# ---------------------------------------------------------------------- the rules of a turn
CATEGORIES = ["Ones", "Twos", "Threes", "Fours", "Fives", "Sixes", "Chance", "Four of a Kind", "Full House",
              "Small Straight", "Large Straight", "Yacht"]
TURN_RULES = ([f"{c} chosen" for c in CATEGORIES]
              + ["keep all before the last roll", "reroll some dice", "reroll every die", "score after the last roll",
                 "a turn of one roll", "dice sorted after a roll", "solo: the score over the most possible",
                 "a tie", "a single winner"])


def rules_fired(twin: Twin, n: int, seed: int, rules) -> Counter:
    """The rules of a turn a replayed game exercised, by name: the game test_classics.replay
    plays for this twin, player count and seed (the same seeded choices), in Rulebook alone."""
    rng, fired = random.Random(seed), Counter()
    S = rules.new_game(n, seed, {"params": dict(twin.params)})
    kept = False
    while not S.is_terminal():
        labels, seat, prompt = S.legal_actions(), S.current_player(), S.prompt()
        label = rng.choice(labels)
        S.apply(label)
        if prompt == "reroll":
            kept = label == "Keep all"
            fired["keep all before the last roll" if kept else
                  "reroll every die" if label.count(",") == S.p["num_dice"] - 1 else "reroll some dice"] += 1
            if not kept and S.p["sort_dice"] and S.current_player() == seat:
                fired["dice sorted after a roll"] += dice(rules, S) == sorted(dice(rules, S))
            continue
        if not kept:
            fired["a turn of one roll" if S.p["rolls_per_turn"] == 1 else "score after the last roll"] += 1
        kept = False
        fired[f"{label} chosen"] += 1
    fired["solo: the score over the most possible" if n == 1 else "a tie" if len(S.winners()) > 1
          else "a single winner"] += 1
    return fired


def test_the_replayed_games_exercise_every_rule_of_a_turn():
    """Each rule of a turn fired in the games the suite replays: each move, each way a turn
    ends, the sorted dice, each category chosen, a tie, a solo game's returns."""
    rules = interpreter.load(interpreter.ruleset_path("yacht"))
    total = sum((rules_fired(twin, n, seed, rules) for twin, n, games in CASES for seed in range(1, games + 1)),
                Counter())
    assert set(total) <= set(TURN_RULES), sorted(set(total) - set(TURN_RULES))
    assert [r for r in TURN_RULES if not total[r]] == []


# ---------------------------------------------------------------------- every roll, every category
# Random play rarely scores a straight or a yacht, so the scores are proved on their own: for
# every roll there is (each multiset of faces) and each category, the roll is patched into
# Rulebook's cup and given to OpenSpiel's first chance node, both keep all and score in that
# category, and the category's score must be the same (OpenSpiel's from its state's text).
OS_NAMES = ["Ones", "Twos", "Threes", "Fours", "Fives", "Sixes", "Chance", "4Kind", "Full", "SmStr", "LgStr", "Yacht"]
SCORE_RULES = ([f"{c}: scores" for c in CATEGORIES] + [f"{c}: nothing" for c in CATEGORIES if c != "Chance"]
               + [f"Full House: {shape}" for shape in ("three and two", "five alike", "three and three",
                                                       "four and two")]
               + ["Four of a Kind: four alike, nothing with fewer than 3 faces"]
               + [f"{c}: alike past six" for c in ("Four of a Kind", "Full House", "Yacht")]
               + ["Large Straight: nothing, five faces from 2 with one past six"])
# the faces past six on four dice or more: the alike categories of faces 7 to 12, and a
# straight that is not one (2, 3, 4, 5, 7)
TABLES = [{}, {"num_dice": 6}, {"num_dice": 5, "dice_sides": 2}, {"num_dice": 4, "dice_sides": 5},
          {"num_dice": 3, "dice_sides": 8}, {"num_dice": 5, "dice_sides": 8}, {"num_dice": 5, "dice_sides": 12}]


def os_score(os_state, category: int) -> int:
    """The score of a category on OpenSpiel's sheet of a solo game (its state's text)."""
    line = next(x for x in str(os_state).splitlines() if x.startswith(f"  {OS_NAMES[category]}: "))
    return int(line.split(": ")[1])


@functools.cache
def scores_of_every_roll(table: int) -> Counter:
    """Every roll scored in every category in both engines, with the parameters TABLES[table]
    (an AssertionError at the first difference); the scoring rules that fired, counted."""
    params = TABLES[table]
    from interpreter.play.checks.scenarios import patch
    pytest.importorskip("pyspiel", reason=NO_OPENSPIEL)
    rules = interpreter.load(interpreter.ruleset_path("yacht"))
    game = pyspiel.load_game("yacht", {"players": 1, **params})
    n, sides = game.get_parameters()["num_dice"], game.get_parameters()["dice_sides"]
    fired = Counter()
    for faces in itertools.combinations_with_replacement(range(1, sides + 1), n):
        S = rules.new_game(1, 1, {"params": params})
        patch(S, {"zones": {"cup": [f"{i}:{f}" for i, f in enumerate(faces)]}})
        S.apply("Keep all")
        os_state = game.new_initial_state()
        os_state.apply_action(sum((f - 1) * sides ** i for i, f in enumerate(faces)))
        os_state.apply_action(0)                                        # keep all
        alike = sorted(Counter(faces).values(), reverse=True) + [0]
        past_six = any(f > 6 and k >= 3 for f, k in Counter(faces).items())    # three alike at least
        for c, name in enumerate(CATEGORIES):
            ours, theirs = S.clone(), os_state.clone()
            ours.apply(name)
            theirs.apply_action((1 << n) + c)
            value = ours.counter(f"sheet.{name.lower().replace(' ', '_')}")[0]
            assert value == os_score(theirs, c), f"{faces} in {name}: {value} in Rulebook, {os_score(theirs, c)}"
            fired[f"{name}: {'scores' if value else 'nothing'}"] += 1
            if name == "Full House" and value:
                fired["Full House: " + ("five alike" if alike[0] >= 5 else "three and three" if alike[:2] == [3, 3]
                                        else "four and two" if alike[:2] == [4, 2] else "three and two")] += 1
            if name == "Four of a Kind" and alike[0] >= 4 and not value:
                fired["Four of a Kind: four alike, nothing with fewer than 3 faces"] += 1
            if name in ("Four of a Kind", "Full House", "Yacht") and value and past_six:
                fired[f"{name}: alike past six"] += 1
            if name == "Large Straight" and len({f for f in faces if f >= 2}) == 5 and max(faces) > 6:
                fired["Large Straight: nothing, five faces from 2 with one past six"] += 1
    return fired


@pytest.mark.parametrize("table", range(len(TABLES)), ids=["-".join(f"{k}={v}" for k, v in t.items()) or "default" for t in TABLES])
def test_every_roll_scores_as_in_openspiel_in_every_category(table):
    scores_of_every_roll(table)


def test_every_scoring_rule_is_compared():
    """Each scoring rule fired in the rolls the tables compare (each table's once a run)."""
    total = sum((scores_of_every_roll(t) for t in range(len(TABLES))), Counter())
    assert set(total) <= set(SCORE_RULES), sorted(set(total) - set(SCORE_RULES))
    assert [r for r in SCORE_RULES if not total[r]] == []


def test_explain_names_the_score_sheet_in_its_table():
    """A family's keys are among its notes: in the name's cell, the sheet's twelve keys made the
    row too long, and the cell moved to a note, the row left without its name."""
    from interpreter.tools.explain import explain
    text = explain(interpreter.load(interpreter.ruleset_path("yacht")))
    assert "| score sheet (`sheet`) | each player | 0 | everyone | see note 1 |" in text
    assert "1. notes of score sheet (`sheet`): one per key: [ones, twos," in text
