"""The fixed action space and the observation tensors: complete, stable, of a fixed shape."""
from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import interpreter
from interpreter.adapters.actions import ActionSpaceError, action_space
from interpreter.tools.cli import main

ROOT = Path(__file__).resolve().parent.parent
GAMES = [("diamonds", None), ("diamonds", "teams"), ("diamonds", "two_player"), ("diams", None),
         ("mister_diamond", None), ("diamonds_club", None), (str(ROOT / "docs/examples/little_tricks.yaml"), None),
         (str(ROOT / "docs/examples/sealed_bids.yaml"), None)]


@pytest.mark.parametrize("name,variant", GAMES, ids=[f"{Path(n).stem}-{v or 'base'}" for n, v in GAMES])
def test_every_label_of_random_play_is_in_the_action_space(name, variant):
    rules = interpreter.load(name, variant=variant)
    for players in rules.player_counts:
        space = action_space(rules, players)
        assert len(set(space.labels)) == len(space) and space.index[space.labels[-1]] == len(space) - 1
        for seed in range(2):
            S = rules.new_game(players, seed)
            rnd = random.Random(seed)
            while not S.is_terminal():
                ids = space.ids(S)
                assert len(set(ids)) == len(ids) and [space.label(i) for i in ids] == S.legal_actions()
                S.apply_index(rnd.randrange(len(ids)))


@pytest.mark.parametrize("name,variant", GAMES, ids=[f"{Path(n).stem}-{v or 'base'}" for n, v in GAMES])
def test_a_steps_labels_are_its_options_labelled_one_by_one(name, variant):
    # the steps label a decision's options in one pass (State.legal_actions): the same as each alone
    rules = interpreter.load(name, variant=variant)
    for seed in range(2):
        S = rules.new_game(rules.player_counts[-1], seed)
        rnd = random.Random(seed)
        while not S.is_terminal():
            step = rules.steps[S.stack[-1][0]]
            assert S.legal_actions() == [step.label(S, o) for o in S.dec[1]]
            S.apply_index(rnd.randrange(len(S.dec[1])))
    cards = next((s for s in rules.steps if s.option_type == "list[card]"), None)
    if cards is not None:   # a list of cards: joined by "+"; none and a tuple take the slow path
        S = rules.new_game(rules.player_counts[0], 0)
        label = rules.card_labels
        assert cards.labels(S, [[0, 1], (1, 0), [None, 2], []]) == [
            f"{label[0]}+{label[1]}", f"{label[1]}+{label[0]}", f"none+{label[2]}", "[]"]   # (an empty list: [])


def test_the_action_space_is_the_same_in_another_process():
    code = ("import hashlib, interpreter; from interpreter.adapters.actions import action_space; "
            "print(hashlib.sha256('\\n'.join(action_space(interpreter.load('diams'), 4).labels).encode()).hexdigest())")
    here = hashlib.sha256("\n".join(action_space(interpreter.load("diams"), 4).labels).encode()).hexdigest()
    there = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert there.stdout.strip() == here


def test_the_spaces_of_the_seed_games_are_small_enough():
    sizes = {n: len(action_space(interpreter.load(n), interpreter.load(n).min_players))
             for n in ("diamonds", "diams", "mister_diamond", "diamonds_club")}
    assert sizes["diamonds"] == 63                      # 1, 2 or 3 cards to pass, and the 60 cards
    assert 500 < sizes["diams"] < 1000                   # the trades' subsets among them
    assert all(s < 10_000 for s in sizes.values())


def test_a_choice_of_computed_numbers_has_no_action_space(tmp_path):
    p = tmp_path / "g.yaml"
    p.write_text("""
game: open_ended
players: {min: 2, max: 2}
counters: {n: {owner: player}}
flow:
  - turns:
      until: "any(players, by: n > 10)"
      steps:
        - choose: {options: "[n + 1, n * 2]", as: pick}
        - gain: {counter: n, amount: pick}
vars: {pick: int}
scoring: {categories: {n: n}}
""")
    with pytest.raises(ActionSpaceError, match="cannot be listed in advance") as e:
        action_space(interpreter.load(p), 2)
    assert (e.value.loc.line, e.value.diagnostics[0].code) == (9, "actions")   # the choose, located
    assert str(e.value).startswith(f"{p}:9:11: error[actions]: the options of this choose")
    assert "0..params.most where it <= limit" in e.value.diagnostics[0].hint


BIDS = """
game: bids
players: {min: 2, max: 4}
params: {most: 5}
counters: {points: {owner: player}}
vars: {max_bid: int, bid: int}
flow:
  - turns:
      rounds: 1
      steps:
        - set: {max_bid: "points + 3"}
        - choose: {options: "OPTIONS", as: bid, prompt: bid}
        - gain: {counter: points, amount: bid}
scoring: {categories: {points: points}}
"""


def test_validate_warns_with_a_hint_when_the_rl_adapters_would_refuse_the_ruleset(tmp_path, capsys):
    open_ended, bounded = tmp_path / "open.yaml", tmp_path / "bounded.yaml"
    open_ended.write_text(BIDS.replace("OPTIONS", "0..max_bid"))
    bounded.write_text(BIDS.replace("OPTIONS", "0..params.most where it <= max_bid"))   # the hint's fix
    assert main(["validate", str(open_ended), str(bounded)]) == 0   # a warning: the game itself is fine
    out, err = capsys.readouterr()
    assert f"{open_ended}: ok, 2 warnings" in out and f"{bounded}: ok\n" in out
    assert f"{open_ended}:12:11: warning[actions]: the RL adapters refuse this ruleset: the options of this " \
           "choose cannot be listed in advance" in err
    assert 'hint: offer values the declarations bound' in err and str(bounded) not in err
    assert len(action_space(interpreter.load(bounded), 2)) == 6


def test_rulebook_actions_prints_the_table(capsys):
    assert main(["actions", "diamonds", "--players", "4"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "diamonds, 4 players: 63 actions" and out[1].split() == ["0", "1"]
    assert main(["actions", "diamonds", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert table[3] == {"id": 3, "label": "1D"}
    assert main(["actions", "diamonds", "--players", "9"]) == 2


def test_the_games_parameters_reach_the_action_space(capsys):
    # a parameter given to the game stands for its declared value: a pass of 4 cards and a
    # seventh market row have their labels, and every label of random play is in the space
    diamonds, club = interpreter.load("diamonds"), interpreter.load("diamonds_club")
    for rules, players, params, new in ((diamonds, 3, {"pass_options": [1, 2, 4]}, "4"),
                                        (club, 2, {"market_rows": 7}, "c1r7:S5")):
        plain, space = action_space(rules, players), action_space(rules, players, params)
        assert new in space.index and new not in plain.index
        assert action_space(rules, players, dict(params)) is space            # kept by value
        S, rnd = rules.new_game(players, 4, {"params": params}), random.Random(4)
        while not S.is_terminal():
            assert [space.label(i) for i in space.ids(S)] == S.legal_actions()
            S.apply_index(rnd.randrange(len(S.dec[1])))
    # the command line's text, parsed as the game parses it: the same space
    assert action_space(diamonds, 3, {"pass_options": "[1, 2, 4]"}) is action_space(diamonds, 3, {"pass_options": [1, 2, 4]})
    assert main(["actions", "diamonds_club", "--players", "2", "--set", "market_rows=7", "--json"]) == 0
    assert [row["label"] for row in json.loads(capsys.readouterr().out)] == list(action_space(club, 2, {"market_rows": 7}).labels)
    assert main(["actions", "diamonds", "--set", "pass_options=[1, 2, \"x\"]"]) == 2
    assert "pass_options" in capsys.readouterr().err


def test_tensors_have_a_fixed_shape_and_hide_what_a_seat_cannot_see():
    np = pytest.importorskip("numpy", reason="the rl extra (pip install '.[rl]') is not installed")
    from interpreter.adapters.tensors import layout
    rules = interpreter.load("diamonds")
    L = layout(rules, 4)
    S = rules.new_game(4, 1)
    a, b = L.encode(S, 0), L.encode(S, 1)
    assert a.shape == b.shape == (L.size,) and a.dtype == np.float32
    piece = {name: (off, size) for name, off, size in L.pieces}
    off, size = piece["zone:hand+0"]
    assert a[off:off + size].sum() == 10                  # my hand
    off, size = piece["zone:hand+1"]
    assert a[off:off + size].sum() == 0 and a[piece["size:hand+1"][0]] == 10   # the next hand: its size only
    T = S.clone()                                          # swap cards between two other hands
    hand = T.own("hand")                                   # (a clone's lists are shared until written)
    hand[2][0], hand[3][0] = hand[3][0], hand[2][0]
    T.rules.keep_sorted(T)
    assert (L.encode(T, 0) == a).all() and not (L.encode(T, 2) == L.encode(S, 2)).all()
