#!/usr/bin/env python3
"""The cost of the RL adapters: a PettingZoo env step (step + last(), which encodes the
observation tensor and the action mask) against a bare ``State.apply_index``, per seed game.

    python benchmarks/rl.py --games 20

Both play the same random games (seeded: the env takes the id of the option the bare loop
takes: the env's ``legal_ids`` are in option order), in the same process, one after the other;
the env side's policy is as cheap as the bare side's (an index into ``legal_ids``, not a search
of the mask, nor the labels, which a learner reading the mask never asks for).
Everything alive before the counted games (the compiled ruleset, numpy, PettingZoo) is
taken out of the garbage collector's full passes first (``settle``, as the batch runner does),
which would otherwise walk it during the games by chance of their timing (the bare apply of
Diamonds read 30 k to 50 k instructions a decision as the imports moved).
Prints microseconds per decision for each, in CPU time of this process (``process_time``:
on a shared machine, wall time also counts the other processes), and their ratio.
``--openspiel`` also plays random games through the OpenSpiel game (its own random
choices: other games of the same seeds). ``--mcts N`` times OpenSpiel's own ``MCTSBot`` (100
simulations of random rollouts a decision) over the first N decisions of a game of seed 11
instead: CPU milliseconds a decision, what a search on the OpenSpiel game pays. Both play
the game with ``--chance`` (seed, the default here: the figures of docs/rl.md's table; or
explicit). ``--chance-costs`` times explicit chance instead: ``chance_outcomes()`` and the
application of a chance outcome. ``--floor``
counts (valgrind) the env's encoder called on a state that did not change since its last call,
and a numpy copy of a tensor of its size: the least a fresh tensor a step costs; then the
bare apply and the env step (as ``--instructions``), and says whether the speed clause holds:
an env step within 2x a bare apply plus that floor; and the same with the encoder's cost in play
(``--in-play``: the floor plus its work on what changed) in the floor's place. ``--in-play`` counts (valgrind) the
encoder called in play (the acting seat's, before each move of the bare loop) and called again
on the same state: what the floor leaves out, the encoder's work on what changed. ``--parts`` also plays the env with a constant
tensor, then with a constant tensor and mask array (one zero array, where numpy copied the
mask's kept bytes or made an array over fresh ones: what the env's own bookkeeping costs, the labels, ids, the mask's
bytes and PettingZoo's protocol). ``--reference`` has the env encode with the reference encoder (``TensorLayout.encode``)
instead of its own. ``--instructions`` counts machine instructions under valgrind instead
(each side in a child process, less the same child playing no game: a figure the machine's
load does not move). Needs the rl extra.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import interpreter  # noqa: E402
import numpy as np  # noqa: E402

from interpreter.adapters import pettingzoo  # noqa: E402
from interpreter.adapters.pettingzoo import env as make_env  # noqa: E402
from interpreter.adapters.tensors import Encoders  # noqa: E402
from interpreter.play.simulation.workers import settle  # noqa: E402

GAMES = [("diamonds", 4), ("diams", 4), ("mister_diamond", 4), ("diamonds_club", 4)]


def bare(rules, players, games):
    """Microseconds a decision of random games played with ``State.apply_index``."""
    settle()
    return _bare(rules, players, games)[1]


def _bare(rules, players, games, first=0):
    decisions, started = 0, time.process_time()
    for seed in range(first, first + games):
        S = rules.new_game(players, seed)
        rnd = random.Random(seed)
        while not S.over:
            S.apply_index(rnd.randrange(len(S.dec[1])))
            decisions += 1
    return decisions, (time.process_time() - started) / max(1, decisions) * 1e6


def with_env(name, players, games, reference=False, constant=()):
    """Microseconds a decision of the same games played through the PettingZoo env."""
    return _with_env(name, players, games, reference, constant=constant)[1]


def _with_env(name, players, games, reference=False, warm=False, constant=()):
    e = make_env(name, players=players)   # (loading the ruleset is not timed)
    if reference:
        e._encode = Encoders(lambda seat: e.table.layout.encode)
    if "tensor" in constant:              # (--parts: what the env costs without them)
        tensor = np.zeros(e.table.layout.size, np.float32)
        e._encode = Encoders(lambda seat: lambda S, p: tensor)   # (not a copy: copying is numpy's work, not the env's)
    if "mask" in constant:                # (the mask's array not made: its bytes are still written)
        n = len(e.table.actions)
        mask = np.zeros(n, np.int8)
        # _mask_of's arrays: a small space's copied from a kept view, a large one's over fresh bytes
        made = SimpleNamespace(copy=lambda: mask) if n <= pettingzoo.KEPT_MASK else mask
        pettingzoo._array = lambda n, dtype, buffer: made
        parts = pettingzoo._mask_bytes(n)   # (last() makes a small space's mask itself, from these)
        e._mbytes, e._mview, e._mzeros = parts or (None, None, None)
        e._masks = pettingzoo._mask_of(n, parts)
    e.reset(seed=10**6)                   # nor the encoder's first call (it compiles code)
    e.last()
    if warm:                              # nor (counting instructions) a whole first game
        for _agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            e.step(None if terminated or truncated else e.legal_ids[0])
    settle()
    decisions, started = 0, time.process_time()
    for seed in range(games):
        e.reset(seed=seed)
        rnd = random.Random(seed)
        for _agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            ids = e.legal_ids
            e.step(ids[rnd.randrange(len(ids))])
            decisions += 1
    return decisions, (time.process_time() - started) / max(1, decisions) * 1e6


def _with_openspiel(name, players, games, warm=False, chance="seed"):
    """Decisions and microseconds a decision of random games played as an OpenSpiel game
    (``legal_actions``, ``apply_action``, ``is_terminal``: what a search or a rollout calls;
    with explicit chance, its chance nodes too, each outcome drawn by its probability, counted
    in the time but not as decisions). The choice is a random legal id, so these are other
    games of the same seeds than the bare loop's: compare figures a decision."""
    from interpreter.adapters.openspiel import load_game
    game = load_game(name, players=players, chance=chance)

    def play(seed):
        state = game.new_initial_state()
        rnd, n = random.Random(seed), 0
        if chance == "seed":
            state.apply_action(seed % (1 << 16))
        while not state.is_terminal():
            if state.is_chance_node():
                ids, probs = zip(*state.chance_outcomes())
                state.apply_action(rnd.choices(ids, probs)[0])
                continue
            actions = state.legal_actions()
            state.apply_action(actions[rnd.randrange(len(actions))])
            n += 1
        return n

    if warm:                              # (counting instructions: a first game not counted)
        play(10**6)
    settle()
    started = time.process_time()
    decisions = sum(play(seed) for seed in range(games))
    return decisions, (time.process_time() - started) / max(1, decisions) * 1e6


def mcts_decisions(name, players, decisions, simulations=100, chance="seed"):
    """CPU milliseconds a decision of OpenSpiel's MCTSBot (random rollouts) over the first
    ``decisions`` decisions of the game of seed 11 (explicit chance: its outcomes drawn from
    a generator seeded 11)."""
    from open_spiel.python.algorithms import mcts
    from interpreter.adapters.openspiel import load_game
    game = load_game(name, players=players, chance=chance)
    rng = np.random.RandomState(7)
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=simulations,
                       evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    rnd = random.Random(11)
    settle()
    started, n = time.process_time(), 0
    while not state.is_terminal() and n < decisions:
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes())
            state.apply_action(11 if chance == "seed" else rnd.choices(ids, probs)[0])
            continue
        state.apply_action(bot.step(state))
        n += 1
    return (time.process_time() - started) / max(1, n) * 1e3


# each child first plays one game it does not count (a game of seed 10**6), so that what is
# compiled or cached on first use is paid by both children and cancels out
CHILD = """
import sys
sys.path[:0] = [{root!r}, {bench!r}]
import interpreter, rl
from interpreter.play.simulation.workers import settle
if {side!r} == "bare":
    rules = interpreter.load({name!r})
    rl._bare(rules, {players}, 1, first=10**6)
    settle()
    print(rl._bare(rules, {players}, {games})[0])
elif {side!r} == "openspiel":
    print(rl._with_openspiel({name!r}, {players}, {games}, warm=True, chance={chance!r})[0])
else:
    print(rl._with_env({name!r}, {players}, {games}, {reference!r}, warm=True, constant={constant!r})[0])
"""


def instructions(name, players, games, side="env", reference=False, constant=(), chance="seed") -> float:
    """Instructions a decision of one side (``bare`` apply or ``env`` step), less a child
    playing no game."""
    from instructions import instructions_of
    here = Path(__file__).resolve().parent
    counts = []
    for n in (0, games):
        code = CHILD.format(root=str(here.parent), bench=str(here), side=side, name=name, players=players,
                            games=n, reference=reference, constant=tuple(constant), chance=chance)
        total, printed = instructions_of(code)
        counts.append((total, int(printed.split()[-1])))
    (base, _), (total, decisions) = counts
    return (total - base) / max(1, decisions)


PARTS = [((), "env step"), (("tensor",), "without the tensor"), (("tensor", "mask"), "nor the mask")]

# the tensor's floor: the env's encoder called again and again on one state (nothing changed
# since its last call, so nothing to bring up to date), and numpy's copy of such a tensor
FLOOR = """
import sys, random
sys.path[:0] = [{root!r}]
import interpreter, numpy as np
from interpreter.adapters.tensors import layout
from interpreter.play.simulation.workers import settle
rules = interpreter.load({name!r})
L = layout(rules, {players})
encode, S = L.encoder(), rules.new_game({players}, 3)
rnd = random.Random(3)
for _ in range(30):
    S.apply_index(rnd.randrange(len(S.dec[1])))
seat, tensor = S.current_player(), np.zeros(L.size, np.float32)
encode[seat](S, seat)
settle()
for _ in range({calls}):
    {call}
"""


def floor(name, players, calls=20_000) -> tuple[float, float]:
    """Instructions a call of the env's encoder on a state that did not change, and of a numpy
    copy of a tensor of the same size: what a fresh tensor a step costs at the least."""
    from instructions import instructions_of
    root = str(Path(__file__).resolve().parent.parent)
    counts = {}
    for what, call in (("none", "pass"), ("encode", "encode[seat](S, seat)"), ("copy", "tensor.copy()")):
        counts[what] = instructions_of(FLOOR.format(root=root, name=name, players=players, calls=calls, call=call))[0]
    return ((counts["encode"] - counts["none"]) / calls, (counts["copy"] - counts["none"]) / calls)


# the encoder in play: the bare loop calling the acting seat's encoder before each move (once,
# or twice: the second call on a state it has just encoded, what the floor measures)
IN_PLAY = """
import sys, random
sys.path[:0] = [{root!r}]
import interpreter
from interpreter.adapters.tensors import layout
from interpreter.play.simulation.workers import settle
rules = interpreter.load({name!r})
encode = layout(rules, {players}).encoder()

def play(first, games, calls):
    n = 0
    for seed in range(first, first + games):
        S, rnd = rules.new_game({players}, seed), random.Random(seed)
        while not S.over:
            seat = S.dec[0]
            for _ in range(calls):
                encode[seat](S, seat)
            S.apply_index(rnd.randrange(len(S.dec[1])))
            n += 1
    return n
play(10**6, 1, 2)
settle()
print(play(0, {games}, {calls}))
"""


def in_play(name, players, games) -> tuple[float, float]:
    """Instructions a decision of the encoder called in play (the acting seat's, before each
    move of the bare loop), and of a second call on the same state (the floor, averaged over
    the games' states)."""
    from instructions import instructions_of
    root = str(Path(__file__).resolve().parent.parent)
    per = []
    for calls in (0, 1, 2):
        base = instructions_of(IN_PLAY.format(root=root, name=name, players=players, games=0, calls=calls))[0]
        total, out = instructions_of(IN_PLAY.format(root=root, name=name, players=players, games=games, calls=calls))
        per.append((total - base) / max(1, int(out.split()[-1])))
    return per[1] - per[0], per[2] - per[1]


def _margin(cost, bound) -> str:
    return f"within by {1 - cost / bound:.1%}" if cost <= bound else f"over by {cost / bound - 1:.1%}"


def chance_costs(name, players, games) -> dict:
    """Explicit chance, in random games played through the OpenSpiel game: chance nodes a
    game, CPU microseconds a ``chance_outcomes()`` call (asked 100 times at each node) and a
    chance outcome applied (the move made again with it, from the state before it)."""
    from interpreter.adapters.openspiel import load_game
    game = load_game(name, players=players, chance="explicit")
    asked = applied = 0.0
    nodes = 0
    for seed in range(games):
        state, rnd = game.new_initial_state(), random.Random(seed)
        while not state.is_terminal():
            if not state.is_chance_node():
                actions = state.legal_actions()
                state.apply_action(actions[rnd.randrange(len(actions))])
                continue
            t = time.process_time()
            for _ in range(100):
                outcomes = state.chance_outcomes()
            asked += (time.process_time() - t) / 100
            ids, probs = zip(*outcomes)
            t = time.process_time()
            state.apply_action(rnd.choices(ids, probs)[0])
            applied += time.process_time() - t
            nodes += 1
    n = max(1, nodes)
    return {"nodes": nodes / max(1, games), "outcomes_us": asked / n * 1e6, "apply_us": applied / n * 1e6}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--reference", action="store_true", help="the env encodes with the reference encoder")
    p.add_argument("--only", help="one game of the list")
    p.add_argument("--instructions", action="store_true", help="count instructions under valgrind (slow)")
    p.add_argument("--parts", action="store_true", help="also the env with a constant tensor, and mask")
    p.add_argument("--openspiel", action="store_true", help="also random play through the OpenSpiel game")
    p.add_argument("--mcts", type=int, metavar="N", help="time OpenSpiel's MCTSBot over N decisions instead")
    p.add_argument("--chance", choices=("seed", "explicit"), default="seed",
                   help="the OpenSpiel game's chance for --openspiel and --mcts (default: seed)")
    p.add_argument("--chance-costs", action="store_true",
                   help="time explicit chance instead: chance_outcomes() and an outcome applied")
    p.add_argument("--floor", action="store_true",
                   help="count the instructions of the encoder on an unchanged state and of a numpy copy instead")
    p.add_argument("--in-play", action="store_true",
                   help="count the encoder called in play, and called again on the same state, instead")
    a = p.parse_args(argv)
    for name, players in GAMES:
        if a.only and name != a.only:
            continue
        if a.in_play:   # what the floor leaves out: the encoder's work on what changed
            once, again = in_play(name, players, a.games if name != "diamonds_club" else max(1, a.games // 5))
            print(f"{name}, {players} players: the encoder in play {once / 1e3:.1f} k instructions a decision, "
                  f"called again on the same state {again / 1e3:.1f} k: {(once - again) / 1e3:.1f} k for what changed")
            continue
        if a.floor:   # the speed clause: an env step within 2x a bare apply plus the tensor's floor
            enc, copy = floor(name, players)
            games = a.games if name != "diamonds_club" else max(1, a.games // 5)
            b = instructions(name, players, games, "bare")
            e = instructions(name, players, games, "env")
            bound = 2 * b + enc
            print(f"{name}, {players} players: the encoder on an unchanged state {enc / 1e3:.1f} k instructions "
                  f"a call, a numpy copy of its tensor {copy / 1e3:.1f} k; env step {e / 1e3:.1f} k against "
                  f"2 x apply {b / 1e3:.1f} k + the floor = {bound / 1e3:.1f} k: {_margin(e, bound)}")
            # the same games with the encoder's own work in play (its update for what changed
            # included), which the floor above charges to the env
            once = in_play(name, players, games)[0]
            print(f"    the encoder in play {once / 1e3:.1f} k a decision: 2 x apply + that = "
                  f"{(2 * b + once) / 1e3:.1f} k: {_margin(e, 2 * b + once)}")
            continue
        if a.mcts:
            print(f"{name}, {players} players: OpenSpiel MCTSBot (100 simulations, chance={a.chance}) "
                  f"{mcts_decisions(name, players, a.mcts, chance=a.chance):.0f} ms a decision")
            continue
        if a.chance_costs:
            c = chance_costs(name, players, a.games)
            print(f"{name}, {players} players: {c['nodes']:.0f} chance nodes a game, chance_outcomes() "
                  f"{c['outcomes_us']:.2f} us a call, an outcome applied {c['apply_us']:.0f} us")
            continue
        games = a.games if name != "diamonds_club" else max(1, a.games // 5)
        parts = PARTS if a.parts else PARTS[:1]
        if a.instructions:
            b = instructions(name, players, games, "bare") / 1e3
            figures = [(what, instructions(name, players, games, "env", a.reference, constant) / 1e3)
                       for constant, what in parts]
            if a.openspiel:
                figures.append(("OpenSpiel", instructions(name, players, games, "openspiel", chance=a.chance) / 1e3))
            unit = "k instructions"
        else:
            rules = interpreter.load(name)
            b = bare(rules, players, games)
            figures = [(what, with_env(name, players, games, a.reference, constant)) for constant, what in parts]
            if a.openspiel:
                figures.append(("OpenSpiel", _with_openspiel(name, players, games, chance=a.chance)[1]))
            unit = "us"
        print(f"{name}, {players} players: apply {b:.1f} {unit} a decision, "
              + ", ".join(f"{what} {e:.1f}: {e / b:.2f}x" for what, e in figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
