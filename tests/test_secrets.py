"""The game's seed is a secret: nothing a seat reads holds it or lets the game be rebuilt.

With the seed, ``new_game(players, seed)`` deals every hidden card again and draws every chance
to come. Over the four seed games and the example rulesets, for a distinctive seed, what seat
reads — its redacted log (every line as text), its observation (as JSON), a determinized state
for it and that state's JSON, the seed its agent is built with — never holds the seed in decimal,
and no whole number in it starts a game with the true game's cards. And a determinized world's
future chance is its own: the next round's deal in it matches the true one as often as a random
deal does (docs/security.md, "What each party can learn").
"""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

import interpreter
from interpreter.play import agents
from interpreter.play.logs import gamelog

ROOT = Path(__file__).resolve().parent.parent
SEED = 8765432123456789
GAMES = [(name, None) for name in ("diamonds", "diams", "mister_diamond", "diamonds_club")] + \
        [(str(p), None) for p in sorted((ROOT / "docs" / "examples").glob("*.yaml"))]
PARAMS = {"diamonds": {"rounds": 1}, "diams": {"rounds": 1}}   # (one round says it all, sooner)
INTEGER = re.compile(r"-?\d+")


class Lines:
    """A text stream that keeps the lines written to it."""

    def __init__(self):
        self.lines: list[str] = []

    def write(self, text: str) -> None:
        self.lines += [line for line in text.splitlines() if line]


def what_the_seat_reads(rules, players: int, seat: int, options: dict) -> list[str]:
    """Texts seat ``seat`` reads along one game of random agents: its redacted log, its
    observation at each of its decisions, a determinization for it there and its seed, and the
    seed its agent is built with."""
    log = Lines()
    seen: list[str] = [str(agents.agent_seed(SEED, seat))]

    class Watched(agents.RandomAgent):
        needs_knowledge = True

        def decide(self, view):
            seen.append(json.dumps(view.observation))
            D = view.sample(random.Random(len(seen)))
            seen.extend([D.to_json(), str(D.seed)])
            return self.pick(view.options)

    table = agents.make_agents("random", players, SEED)
    table[seat] = Watched(agents.agent_seed(SEED, seat), seat)
    gamelog.play_game(rules, players, SEED, table, options, log=log, log_for=seat)
    return log.lines + seen


def setup(rules, players: int, seed: int, options: dict):
    """Where a game of ``seed`` has every card at its start (hidden ones too), and its RNG."""
    S = rules.new_game(players, seed, options)
    return json.dumps(S.z, sort_keys=True), S.rng


@pytest.mark.parametrize("name,variant", GAMES, ids=[Path(g).stem for g, _ in GAMES])
def test_nothing_a_seat_reads_holds_the_seed_or_rebuilds_the_game(name, variant):
    rules = interpreter.load(name, variant=variant)
    players = max(3, rules.min_players) if 3 in rules.player_counts else rules.min_players
    options = {"params": PARAMS.get(rules.name, {})}
    true_zones, true_rng = setup(rules, players, SEED, options)
    assert setup(rules, players, SEED + 1, options)[0] != true_zones   # (its start is dealt by chance)
    for seat in (0, players - 1):
        texts = what_the_seat_reads(rules, players, seat, options)
        assert len(texts) > 3
        for text in texts:
            assert str(SEED) not in text, text[:200]
        numbers = {int(x) for text in texts for x in INTEGER.findall(text)}
        for x in sorted(numbers):
            if not -(1 << 63) <= x < 1 << 63:
                continue   # (not a seed a game takes)
            zones, rng = setup(rules, players, x, options)
            assert rng != true_rng and zones != true_zones, f"the seed {x} found in what seat {seat} reads"


def test_a_redacted_log_names_no_path_of_the_writer(tmp_path):
    path = tmp_path / "mine" / "game.yaml"
    path.parent.mkdir()
    path.write_text((ROOT / "docs" / "examples" / "sealed_bids.yaml").read_text())
    rules = interpreter.load(path)
    log = tmp_path / "out.jsonl"
    gamelog.play_game(rules, 3, SEED, agents.make_agents("random", 3, SEED), log=log, log_for=1)
    text = log.read_text()
    assert str(tmp_path) not in text and str(SEED) not in text
    assert json.loads(text.splitlines()[0])["path"] == "mine/game.yaml"


def next_hand(S, seat: int):
    """The cards dealt to ``seat`` at the next deal, everyone taking the first option until then."""
    T = S.clone()
    T.ev = []
    while not T.over:
        done = len(T.ev)
        T.apply_index(0)
        for ev in T.ev[done:]:
            if ev.get("ev") == "deal" and ev.get("to_owner") == seat:
                return set(ev["cards"])
    return None


def test_a_determinized_worlds_next_deal_matches_the_true_one_no_more_than_chance():
    # Diamonds, 4 players, 60 cards, a hand of 10: a random hand holds a given card of the true
    # next hand with chance 1/6, so it shares 10/6 = 1.67 of its cards on average
    rules = interpreter.load("diamonds")
    S = rules.new_game(4, SEED, knowledge=True)
    rnd = random.Random(1)
    for _ in range(30):                       # into round 1's tricks
        S.apply_index(rnd.randrange(len(S.dec[1])))
    assert S.prompt() == "play" and S.v["round"] == 1
    seat = S.current_player()
    true = next_hand(S, seat)
    assert true is not None and len(true) == 10
    worlds, shared, same, control = 200, 0, 0, 0
    for k in range(worlds):
        D = S.determinize(seat, random.Random(k))
        hand = next_hand(D, seat)
        shared += len(hand & true)
        same += hand == true
        D.rng = S.rng                         # the same world on the true game's stream
        control += len(next_hand(D, seat) & true)
    assert same == 0
    assert abs(shared / worlds - 10 / 6) < 0.35, shared / worlds   # (5 standard errors: 0.077)
    assert control / worlds > 10 / 6 + 1      # the measure sees a world that follows the true stream
