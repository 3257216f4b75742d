"""What both adapters share: the ruleset and its seats, the action space and the tensors,
and what a game's end is worth to each seat."""
from __future__ import annotations

from numbers import Integral

from ..building import load
from ..errors import UsageError
from .actions import action_space
from .tensors import layout

REWARDS = ("win", "score")


class Table:
    """A compiled ruleset at a fixed player count, with its action space and tensor layout."""

    def __init__(self, path, players: int | None = None, variant: str | None = None, reward: str = "win",
                 params: dict | None = None, **options):
        if reward not in REWARDS:
            raise UsageError(f"reward is one of {', '.join(REWARDS)}, not {reward!r}")
        self.rules = load(path, variant)
        self.players = players if players is not None else self.rules.min_players
        if self.players not in self.rules.player_counts:
            raise UsageError(f"{self.rules.name} is for {self.rules.players_text()} players, not {self.players}")
        self.reward = reward
        self.options = {"params": dict(params or {}), **options}
        self.rules.new_game(self.players, 0, self.options)   # refuse bad options now, not in a game
        self.actions = action_space(self.rules, self.players, self.options["params"])
        self.layout = layout(self.rules, self.players)
        self.explicit = False   # chance as explicit nodes (adapters/chance.py), set by the OpenSpiel adapter
        self.length: int | None = None   # max_game_length, once measured (adapters/length.py)

    def new_game(self, seed: int, knowledge: bool = False):
        """The game of ``seed``; ``knowledge``: keeping what each seat knows of the hidden
        cards' places (for ``State.determinize``; about a fifth slower a move)."""
        return self.rules.new_game(self.players, seed, self.options, knowledge=knowledge)

    def returns(self, S) -> list[float]:
        """At the end: ``win`` gives each of k winners 1/k and the others 0 (both adapters; a
        game without a winner, 0 to all); ``score`` gives each seat its final score."""
        if not S.over:
            return [0.0] * self.players
        if self.reward == "score":
            return [float(s) for s in S.scores()]
        winners = S.winners()
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(self.players)]

    def constant_sum(self) -> float | None:
        """What the returns of every game add up to, when the reward makes it one number:
        ``win`` gives 1 in all (its 1/k to each of k winners) unless ``scoring: eligible`` may
        rank nobody (then 0 to all); ``score`` sums the scores, which the rules fix nowhere."""
        if self.reward == "win" and self.rules.scoring.eligible is None:
            return 1.0
        return None

    def bounds(self) -> tuple[float, float]:
        if self.reward == "win":
            return 0.0, 1.0
        return -1e9, 1e9



def is_whole(value) -> bool:
    """An int or a numpy integer scalar: not a bool (``step(True)`` is not action 1), a float or
    an array (numpy's bool is no Integral). A plain int is told first: ``isinstance`` of an ABC
    costs some 5 k instructions, a sixth of a bare decision of a trick-taking seed game (an env step asks it)."""
    return type(value) is int or (isinstance(value, Integral) and not isinstance(value, bool))


def whole(value, what: str) -> int:
    """``value`` as an int (is_whole); TypeError otherwise, naming what is accepted."""
    if not is_whole(value):
        raise TypeError(f"{what} is an int or a numpy integer, not {type(value).__name__} {value!r}")
    return int(value)
