"""Monte Carlo tree search agents: ``ismcts`` (information-set MCTS, the default search agent)
and ``mcts`` (UCT on the true state, which sees hidden information: an upper bound).

``ismcts`` is single-observer information-set MCTS (Cowling, Powley and Whitehouse 2012,
"Information Set Monte Carlo Tree Search"): each iteration plays on a new determinization
of the game for the agent's seat (``view.sample``), so the tree's statistics belong to the
agent's information set, not to any one hidden deal. A tree node is reached by a sequence
of options; each node keeps, per seat, the sum of the rewards of the iterations through it,
and how often it was visited and available. Selection takes, for the seat to move, the
option with the best ``mean + c * sqrt(ln(available) / visits)`` among the options legal in
this iteration's determinization (untried ones first, at random); the rollout then plays
random moves to the end, or ``depth`` moves and evaluates (``evaluation.py``); the rewards
of every seat go back up the path. The move played is the root's most visited option.

``mcts`` is the same search on copies of the true state (``view.true_state``): it knows
every hidden card, which no player does. It measures how much hidden information is worth,
and is never a default.

Parameters (``ismcts:iterations=200,c=0.7,depth=40``): ``iterations`` (200), or ``ms`` a
time budget per decision (then the agent is not deterministic); ``c`` the exploration
constant (0.7, for rewards in [0, 1]); ``depth`` (20) the random moves a rollout plays
before it evaluates the position (0: evaluate the new node at once; a game shorter than
the depth is played to its end); ``rollout`` random (the only policy); ``reward`` margin
(the default) or win (``evaluation.REWARDS``): a depth-limited search learns more from the
margin, which every position has, than from who leads. Given the game's seed the agent's
moves are always the same (its RNG is seeded by its seat's seed, agents.agent_seed).
"""
from __future__ import annotations

import math
import time

from ...engine.knowledge import unknowing
from ...engine.rng import seed_state
from ...errors import GameError
from .evaluation import REWARDS, agent_rng, play_out, rewards


class Node:
    __slots__ = ("children", "visits", "avail", "totals")

    def __init__(self, n: int):
        self.children: dict = {}     # option value -> Node
        self.visits = 0
        self.avail = 0
        self.totals = [0.0] * n      # per seat, the sum of rewards of the iterations through here


PARAMS = {"iterations": int, "ms": float, "c": float, "depth": int, "rollout": str, "reward": str}


class SearchAgent:
    """The shared search; subclasses say which state an iteration plays on."""
    name = "search"
    needs_knowledge = True    # games are started keeping what each seat knows (determinization)

    def __init__(self, seed: int = 0, seat: int = 0, iterations: int = 200, ms: float | None = None,
                 c: float = 0.7, depth: int = 20, rollout: str = "random", reward: str = "margin"):
        if reward not in REWARDS:
            raise ValueError(f"reward is one of {', '.join(REWARDS)}, not {reward!r}")
        if rollout != "random":
            raise ValueError(f"rollout is random (the only policy), not {rollout!r}")
        if iterations < 1 or (ms is not None and ms <= 0) or c < 0 or depth < 0:
            raise ValueError("iterations and ms are positive, c and depth not negative")
        self.seat = seat
        self.rng = agent_rng(self.name, seed, seat)
        self.iterations, self.ms, self.c, self.depth, self.reward = iterations, ms, c, depth, reward
        self.failures = 0     # iterations whose sampled game raised an error

    def start(self, view):
        raise NotImplementedError

    def decide(self, view) -> int:
        n = view.options
        if n == 1:
            return 0
        root = Node(view.rules.max_players)
        deadline = time.perf_counter() + self.ms / 1000.0 if self.ms else None
        done = 0
        while done < self.iterations if deadline is None else time.perf_counter() < deadline:
            done += 1
            try:
                S = self.start(view)
            except GameError:   # a world that cannot be built (engine/knowledge.py: no deal lets the asker
                self.failures += 1   # be asked again): no iteration, counted as a sampled game that breaks
                continue
            self.iterate(root, S)
        keys = [_key(v) for v in view.option_values()]
        return max(range(n), key=lambda i: (root.children[keys[i]].visits if keys[i] in root.children else -1,
                                            self.rng.random()))

    def iterate(self, root: Node, S) -> None:
        unknowing(S)   # (its own copy) a playout needs no record of who knows where cards are: each move pays it
        path = [root]
        try:
            self.descend(root, S, path)
            self.rollout(S)
            r = rewards(S, self.reward)
        except GameError:   # a sampled game that breaks (its step budget...) counts as lost for all
            self.failures += 1
            r = [0.0] * len(root.totals)
        for node in path:
            node.visits += 1
            totals = node.totals
            for p, x in enumerate(r):
                totals[p] += x

    def descend(self, root: Node, S, path: list) -> None:
        """Down the tree to a new node (or the game's end), applying the options on ``S``."""
        rng, c = self.rng, self.c
        node = root
        while not S.over:
            seat, options = S.dec
            keys = [_key(v) for v in options]
            untried = [i for i, k in enumerate(keys) if k not in node.children]
            if untried:
                i = untried[rng.randrange(len(untried))]
                child = node.children[keys[i]] = Node(len(node.totals))
                child.avail += 1
                path.append(child)   # (before it is played: a game that breaks there still visits it)
                S.apply_index(i)
                break
            best, best_score = 0, -1.0
            for i, k in enumerate(keys):   # each option legal here was available once more
                child = node.children[k]
                child.avail += 1
                score = child.totals[seat] / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
                if score > best_score or (score == best_score and rng.random() < 0.5):
                    best, best_score = i, score
            S.apply_index(best)
            node = node.children[keys[best]]
            path.append(node)

    def rollout(self, S) -> None:
        play_out(S, self.rng, self.depth)


def _key(value):
    """An option as a tree edge: option values are plain data (a list of cards becomes a tuple)."""
    return tuple(_key(v) for v in value) if isinstance(value, list) else value


class ISMCTSAgent(SearchAgent):
    """Information-set MCTS: each iteration on a new determinization for the agent's seat."""
    name = "ismcts"

    def start(self, view):
        return view.sample(self.rng)


class MCTSAgent(SearchAgent):
    """UCT on copies of the true state: sees every hidden card (an upper bound, never a default)."""
    name = "mcts"
    needs_knowledge = False

    def start(self, view):
        S = view.true_state()
        S.rng = seed_state(self.rng.getrandbits(63))   # the future chance is not known: a new draw each time
        return S
