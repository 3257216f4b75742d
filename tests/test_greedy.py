"""The cheap agents, greedy (one step, valued once it settles) and rollouts (flat Monte Carlo):
they see only what their seat may know, they are the same for a seed, and they prefer the
option that scores, now or once the other seats have answered it."""
from __future__ import annotations

import random

import pytest

import interpreter
from interpreter.engine.knowledge import seers
from interpreter.engine.rng import seed_state
from interpreter.errors import UsageError
from interpreter.play.agents import choose, make_agents
from interpreter.play.logs.gamelog import play_game
from interpreter.play.agents.view import SeatView

CHEAP = ("greedy:samples=2", "rollouts:n=2,depth=30")

# Each turn a seat plants 0 or 1 tree (a choice that scores nothing now, or, with
# ``scores_now``, a point at once); when both seats have had three turns, each tree is worth
# a point. The player with more points wins.
ORCHARD = """
game: orchard
players: {min: 2, max: 2}
counters:
  turns_left: {start: 6}
  trees: {owner: player}
  points: {owner: player}
vars:
  turn: player
  planted: int
flow:
  - turns:
      from: 0
      until: "turns_left == 0"
      steps:
        - choose: {options: "[0, 1]", as: planted, prompt: plant}
        - gain: {counter: trees, amount: planted}
        - lose: {counter: turns_left}
  - for_each:
      in: players
      as: me
      do: [{gain: {counter: points, amount: trees}}]
scoring:
  categories: {points: points}
"""


@pytest.fixture(scope="module")
def orchard(tmp_path_factory):
    d = tmp_path_factory.mktemp("orchard")
    later, now = d / "later.yaml", d / "now.yaml"
    later.write_text(ORCHARD)
    now.write_text(ORCHARD.replace("        - lose: {counter: turns_left}",
                                   "        - gain: {counter: points, amount: planted}\n"
                                   "        - lose: {counter: turns_left}"))
    return interpreter.load(later), interpreter.load(now)


def first_choice(rules, spec, seed):
    S = rules.new_game(2, 0, knowledge=True)
    return S.legal_actions()[choose(make_agents(spec, 2, seed)[0], S, 0)]


@pytest.mark.parametrize("spec", ("greedy", "greedy:depth=0", "rollouts", "rollouts:n=1,reward=margin"))
def test_an_option_that_scores_now_is_taken(orchard, spec):
    _, now = orchard
    assert {first_choice(now, spec, seed) for seed in range(8)} == {"1"}


@pytest.mark.parametrize("spec", ("greedy", "rollouts"))
def test_an_option_that_scores_once_the_others_answer_is_taken(orchard, spec):
    later, _ = orchard
    assert {first_choice(later, spec, seed) for seed in range(8)} == {"1"}
    # valued at once (depth 0), the tree is worth nothing yet: the choice is a coin toss
    if spec == "greedy":
        assert {first_choice(later, "greedy:depth=0", seed) for seed in range(8)} == {"0", "1"}


def hidden_swaps(S, seat):
    """Places (zone, owner, index) of cards the seat can neither see nor place."""
    out = []
    for name, kind in S.rules.zone_owner.items():
        zone = S.z[name]
        each = [(None, zone)] if kind == "none" else sorted(zone.items()) if kind == "card" else enumerate(zone)
        for owner, cards in each:
            if cards and not seers(S, name, owner) >> seat & 1:
                out += [(name, owner, i) for i, c in enumerate(cards) if not (S.kn or {}).get(c, 0) >> seat & 1]
    return out


def place(S, name, owner):
    zone = S.z[name]
    return zone if owner is None else zone[owner]


def twins(name, players, seed, every=9, limit=150):
    """(S, T, seat): states of a seeded random game, and a copy with two cards swapped between
    two places hidden from the seat to decide (and not known to it), or with another chance
    to come (its random generator): the seat's observation and options are the same, the
    states are not."""
    rules = interpreter.load(name)
    S = rules.new_game(players, seed, knowledge=True)
    rnd = random.Random(seed)
    for k in range(limit):
        if S.over:
            return
        seat = S.current_player()
        if k % every == 0 and len(S.dec[1]) > 1:
            T = S.clone()
            T.rng = seed_state(rnd.getrandbits(63))
            yield S.clone(), T, seat
            hidden = hidden_swaps(S, seat)
            pairs = [(a, b) for a in hidden for b in hidden if a[:2] != b[:2]
                     and place(S, *a[:2])[a[2]] != place(S, *b[:2])[b[2]]]
            if pairs:
                (n1, o1, i1), (n2, o2, i2) = rnd.choice(pairs)
                T = S.clone().own_all()             # (written below: its own lists)
                z1, z2 = place(T, n1, o1), place(T, n2, o2)
                z1[i1], z2[i2] = z2[i2], z1[i1]
                T.rules.keep_sorted(T)
                if T.digest() != S.digest() and T.observation(seat) == S.observation(seat) \
                        and T.legal_actions() == S.legal_actions():
                    yield S.clone(), T, seat
        S.apply_index(rnd.randrange(len(S.dec[1])))


def pick(X, seat, spec, players):
    """The move a fresh agent (the same RNG every call) chooses for ``seat``."""
    return make_agents(spec, players, 11)[seat].decide(SeatView(X, seat))


@pytest.mark.parametrize("name,players", [("diamonds", 4), ("diams", 3), ("mister_diamond", 3),
                                          ("diamonds_club", 3)])
def test_the_cheap_agents_decide_the_same_whatever_the_hidden_cards(name, players, monkeypatch):
    pairs = list(twins(name, players, seed=2))
    assert sum(S.digest() != T.digest() for S, T, _ in pairs) >= 3
    for S, T, seat in pairs:
        for spec in CHEAP:
            assert pick(S, seat, spec, players) == pick(T, seat, spec, players), spec
    # the check can tell: agents that played on the true state would differ on some pair
    monkeypatch.setattr(SeatView, "sample", lambda view, rng: view.true_state())
    if name in ("diamonds", "diams"):
        assert any(pick(S, seat, spec, players) != pick(T, seat, spec, players)
                   for S, T, seat in pairs for spec in CHEAP)


def test_the_cheap_agents_play_the_same_game_for_a_seed():
    rules = interpreter.load("diams")
    spec = "greedy:samples=2,rollouts:n=2,depth=20,random"
    one = play_game(rules, 3, 7, make_agents(spec, 3, 7))
    two = play_game(rules, 3, 7, make_agents(spec, 3, 7))
    assert one == two and one["decisions"] > 0
    other = play_game(rules, 3, 7, make_agents(spec, 3, 8))   # other seats' seeds: other choices
    assert other != one


def test_specs_of_the_cheap_agents():
    g, r, m = make_agents("greedy:samples=3,depth=0,rollouts:n=5,depth=9,reward=margin,rollouts", 3, 1)
    assert (g.samples, g.depth) == (3, 0)
    assert (r.n, r.depth, r.reward) == (5, 9, "margin")
    assert (m.n, m.depth, m.reward) == (8, 0, "win")
    for spec, needle in (("rollouts:reward=points", "reward is one of win, margin"),
                         ("rollouts:n=0", "n is at least 1"), ("greedy:depth=-1", "depth not negative"),
                         ("rollouts:depht=3", "did you mean 'depth'")):
        with pytest.raises(UsageError) as e:
            make_agents(spec, 2, 0)
        assert needle in str(e.value), spec
