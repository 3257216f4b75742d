"""The agents that play well: greedy, ismcts and mcts; their specs, their determinism, that
they see only what their seat may know, and that they find the better move."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import interpreter
from interpreter.errors import UsageError
from interpreter.play import agents
from interpreter.play.agents import choose, make_agents, parse_spec
from interpreter.play.simulation.batch import Batch, play_one
from interpreter.play.logs.gamelog import play_game
from interpreter.play.agents.view import SeatView
from interpreter.tools.cli import main

ROOT = Path(__file__).resolve().parent.parent
SMALL = "ismcts:iterations=12,depth=6"

# A game a good agent wins and a random one does not: take 1 to 3 counters from a heap of 7,
# whoever takes the last one wins (take 3 first, then make it 4 left: a win for the first seat).
NIM = """
game: nim
players: {min: 2, max: 2}
counters:
  heap: {start: 7}
  won: {owner: player}
vars:
  turn: player
  took: int
flow:
  - turns:
      from: 0
      until: "heap == 0"
      steps:
        - choose: {options: "[1, 2, 3] where it <= heap", as: took, prompt: take}
        - lose: {counter: heap, amount: took}
        - if: "heap == 0"
          then: [{gain: {counter: won}}]
scoring:
  categories: {won: won}
"""


@pytest.fixture(scope="module")
def nim(tmp_path_factory):
    p = tmp_path_factory.mktemp("nim") / "nim.yaml"
    p.write_text(NIM)
    return interpreter.load(p)


def test_specs_give_agents_their_parameters():
    assert parse_spec("ismcts:iterations=200,c=0.7,rollout=random,depth=40,random") == [
        ("ismcts", {"iterations": 200, "c": 0.7, "rollout": "random", "depth": 40}), ("random", {})]
    a = make_agents("ismcts:iterations=50,greedy:samples=2,random", 3, 1)
    assert [x.name for x in a] == ["ismcts", "greedy", "random"]
    assert a[0].iterations == 50 and a[1].samples == 2
    assert [x.iterations for x in make_agents("mcts:iterations=9", 3, 1)] == [9, 9, 9]


@pytest.mark.parametrize("spec,needle", [("ismcts:iteratons=5", "did you mean 'iterations'"),
                                         ("ismcts:iterations=many", "expects int"),
                                         ("c=1,random", "no agent comes before it"),
                                         ("random:depth=3", "takes no parameters"),
                                         ("ismcts:reward=points", "reward is one of win, margin"),
                                         ("ismcts:iterations=0", "positive")])
def test_bad_specs_are_usage_errors(spec, needle):
    with pytest.raises(UsageError) as e:
        make_agents(spec, 2, 0)
    assert needle in str(e.value)


def test_search_agents_find_the_winning_move(nim):
    for spec in ("ismcts:iterations=300", "mcts:iterations=300", "greedy"):
        S = nim.new_game(2, 0, knowledge=True)
        S.apply("3")                       # 4 left, seat 1 to move: every move loses...
        S.apply("1")                       # ...3 left for seat 0: take 3 and win
        agent = make_agents(spec, 2, 5)[0]
        assert S.legal_actions()[choose(agent, S, 0)] == "3", spec
    S = nim.new_game(2, 0, knowledge=True)     # from 7: take 3 (leave 4), the only winning move
    assert S.legal_actions()[choose(make_agents("ismcts:iterations=600", 2, 5)[0], S, 0)] == "3"


def test_ismcts_beats_random_at_nim(nim):
    wins = 0
    for seed in range(10):
        res = play_game(nim, 2, seed, [make_agents("ismcts:iterations=150", 2, seed)[0],
                                       make_agents("random", 2, seed)[1]])
        wins += 0 in res["winners"]
    assert wins >= 9


def test_greedy_follows_a_declared_heuristic(tmp_path):
    p = tmp_path / "h.yaml"
    # seat 0 values a small heap, seat 1 a large one: greedy seat 0 takes as many as it can
    p.write_text(NIM.replace("scoring:", 'heuristic: "(7 - heap) if me == 0 else heap"\nscoring:'))
    rules = interpreter.load(p)
    S = rules.new_game(2, 0, knowledge=True)
    assert S.legal_actions()[choose(make_agents("greedy", 2, 1)[0], S, 0)] == "3"


def test_same_seed_same_moves_in_any_number_of_workers():
    rules = interpreter.load("diamonds")
    batch = Batch(path="diamonds", players=3, seed=4, agents=SMALL, params={"rounds": 1}, hash=rules.hash)
    one = [play_one(rules, batch, i) for i in range(2)]
    again = [play_one(rules, batch, i) for i in range(2)]
    assert one == again
    from interpreter.play.simulation.runs import simulate
    two = simulate(batch, 2, workers=2, rules=rules)["records"]
    assert [r["scores"] for r in two] == [r["scores"] for r in one]


def unknown(S, seat, h):
    """The indices of the cards in seat h's hand that ``seat`` does not know."""
    return [i for i, c in enumerate(S.z["hand"][h]) if not S.kn.get(c, 0) >> seat & 1]


def pick(X, seat, spec):
    """The move a fresh agent made from ``spec`` (same RNG every call) chooses for ``seat``."""
    return make_agents(spec, 4, 11)[seat].decide(SeatView(X, seat))


def test_ismcts_decides_the_same_whatever_the_hidden_cards():
    """Swap cards between two opponents' hands: what the seat sees is the same, and so is
    the agent's choice (same RNG). The true-state mcts agent may see the difference."""
    rules = interpreter.load("diamonds")
    changed_mcts = 0
    for seed in range(6):
        S = rules.new_game(4, seed, {"params": {"rounds": 1}}, knowledge=True)
        rnd = random.Random(seed)
        while S.prompt() != "play":
            S.apply_index(rnd.randrange(len(S.dec[1])))
        seat = S.current_player()
        a, b = (seat + 1) % 4, (seat + 2) % 4
        i, j = unknown(S, seat, a)[0], unknown(S, seat, b)[0]   # (not a card the seat passed: it knows where those are)
        T = S.clone().own_all()                   # (written below: its own lists)
        T.z["hand"][a][i], T.z["hand"][b][j] = T.z["hand"][b][j], T.z["hand"][a][i]
        T.rules.keep_sorted(T)
        assert T.observation(seat) == S.observation(seat) and T.digest() != S.digest()
        assert pick(S, seat, "ismcts:iterations=40,depth=8") == pick(T, seat, "ismcts:iterations=40,depth=8")
        assert pick(S, seat, "greedy") == pick(T, seat, "greedy")
        changed_mcts += pick(S, seat, "mcts:iterations=40,depth=8") != pick(T, seat, "mcts:iterations=40,depth=8")
    assert changed_mcts >= 0   # (informative only: the true-state agent is allowed to differ)


@pytest.mark.parametrize("name,players", [("diamonds", 3), ("diams", 2), ("mister_diamond", 2),
                                          ("diamonds_club", 2),
                                          (str(ROOT / "docs" / "examples" / "little_tricks.yaml"), 3),
                                          (str(ROOT / "docs" / "examples" / "sealed_bids.yaml"), 3)])
def test_every_agent_plays_every_seed_game(name, players):
    rules = interpreter.load(name)
    params = {"rounds": 1} if "rounds" in rules.params_decl else {}
    res = play_game(rules, players, 3, make_agents(f"{SMALL},greedy" + ",random" * (players - 2), players, 3),
                    {"params": params})
    assert res["decisions"] > 0 and res["winners"] is not None


def test_agents_from_the_command_line(capsys, tmp_path):
    assert main(["play", "diamonds", "-p", "3", "--seed", "0", "--set", "rounds=1", "--agents", f"{SMALL},greedy,random",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["agents"] == ["ismcts", "greedy", "random"]
    assert main(["simulate", "diamonds", "-p", "3", "-g", "2", "--set", "rounds=1", "--agents", SMALL,
                 "--json", "-w", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["completed"] == 2
    assert main(["simulate", "diamonds", "-p", "3", "-g", "2", "--agents", "ismcts:budget=3"]) == 2
    assert "no parameter 'budget'" in capsys.readouterr().err


def test_an_agent_can_be_added_from_python(nim):
    class Lowest:
        name = "lowest"

        def __init__(self, seed=0, seat=0, bias=0):
            self.bias = bias

        def decide(self, view):
            return min(range(view.options), key=lambda i: view.legal[i])

    agents.register_agent("lowest", Lowest, {"bias": int})
    try:
        res = play_game(nim, 2, 0, make_agents("lowest:bias=1", 2, 0))
        assert res["decisions"] == 7            # one counter at a time
    finally:
        del agents.AGENTS["lowest"], agents.AGENT_PARAMS["lowest"]


def test_an_agent_is_given_its_seats_seed_never_the_games(monkeypatch):
    # with the game's seed an agent could deal every hidden card again (new_game): each seat's
    # agent gets a seed of its own, the same for the same game and seat, apart for each seat
    given = []

    class Spy:
        name = "spy"

        def __init__(self, seed, seat):
            given.append(seed)

        def act(self, observation, legal):
            return 0

    monkeypatch.setitem(agents.AGENTS, "spy", Spy)
    monkeypatch.setitem(agents.AGENT_PARAMS, "spy", {})
    seed = 8765432123456789
    make_agents("spy", 4, seed)
    make_agents("spy", 4, seed)
    assert given[:4] == given[4:] and len(set(given[:4])) == 4
    rules = interpreter.load("diamonds")
    hands = rules.new_game(4, seed).z["hand"]
    for s in given[:4]:
        assert s != seed and str(seed) not in str(s) and 0 <= s < 1 << 63
        assert rules.new_game(4, s).z["hand"] != hands
