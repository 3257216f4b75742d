"""Any ruleset as a single-agent gymnasium ``Env``: one seat learns, the others are fixed agents.

    from interpreter.adapters.gymnasium import env, vector_env
    e = env("my_game.yaml", players=4, seat=0, opponents="random")   # a path, or a bundled name
    obs, info = e.reset(seed=1)
    while True:
        action = policy(obs["observation"], obs["action_mask"])
        obs, reward, terminated, truncated, info = e.step(action)
        if terminated or truncated:
            break
    envs = vector_env("my_game.yaml", 8, players=4)      # gymnasium's SyncVectorEnv of 8

The learner's seat is ``seat``; every other seat is played by ``opponents``: ``"random"`` or
an agent spec as ``rulebook play --agents`` takes it (one agent for all the other seats, or
one per seat of the game, the learner's entry unused: ``"greedy"``,
``"random,ismcts:iterations=50,random,random"``). ``reset`` and ``step`` play the opponents
until the learner must decide or the game ends. Observations and actions are the PettingZoo
env's (``{"observation": float32 tensor, "action_mask": int8}``, ``Discrete`` over the fixed
action space); the reward is 0 until the end, then the seat's (``reward="win"``/``"score"``).
An action that is not legal now: ``illegal="lose"`` (the default) ends the game there, the
seat's reward the game's lowest (0 with ``win``; ``info["illegal"]`` True; what
gymnasium's ``check_env``, which steps random actions, expects of an env), ``"raise"`` a
``ValueError``. ``reset(seed=S)`` plays the game of seed S, the opponents seeded from it.
"""
from __future__ import annotations

import gymnasium

from ..errors import UsageError
from ..play.agents import choose, make_agents, needs_knowledge
from .common import Table, is_whole
from .pettingzoo import RulebookEnv

ILLEGAL = ("lose", "raise")


def env(path, players: int | None = None, seat: int = 0, opponents: str = "random", variant: str | None = None,
        reward: str = "win", illegal: str = "lose", render_mode: str | None = None, params: dict | None = None,
        **options) -> "RulebookGymEnv":
    return RulebookGymEnv(Table(path, players, variant, reward, params, **options), seat, opponents, illegal,
                          render_mode)


def vector_env(path, num_envs: int, **kwargs) -> gymnasium.vector.SyncVectorEnv:
    """``num_envs`` copies of ``env(path, **kwargs)`` stepped together (gymnasium's
    ``SyncVectorEnv``: observations stacked, each copy reset when its game ends)."""
    return gymnasium.vector.SyncVectorEnv([lambda: env(path, **kwargs) for _ in range(num_envs)])


class RulebookGymEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi"]}

    def __init__(self, table: Table, seat: int = 0, opponents: str = "random", illegal: str = "lose",
                 render_mode: str | None = None):
        if not (is_whole(seat) and 0 <= seat < table.players):
            raise UsageError(f"seat is one of 0..{table.players - 1}, not {seat!r}")
        if illegal not in ILLEGAL:
            raise UsageError(f"illegal is one of {', '.join(ILLEGAL)}, not {illegal!r}")
        if not isinstance(opponents, str) or not opponents.strip():
            raise UsageError(f"opponents is 'random' or an agent spec (as --agents), not {opponents!r}")
        make_agents(opponents, table.players, 0)         # (a bad spec: its error now)
        self.aec = RulebookEnv(table, render_mode)
        self.table, self.seat, self.opponents, self.illegal = table, int(seat), opponents, illegal
        self.agent = self.aec.possible_agents[self.seat]
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self._others: list = []
        self._over = False   # (ended by an illegal action)
        self._lowest = table.bounds()[0] if table.reward == "win" else None

    @property
    def game_state(self):
        return self.aec.game_state

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self.aec.reset(seed=seed)
        else:   # (drawn from gymnasium's np_random, which super().reset seeded)
            self.aec.reset(seed=int(self.np_random.integers(1 << 62)))
        game_seed = self.aec.game_seed
        assert game_seed is not None   # (reset() sets it)
        self._others = make_agents(self.opponents, self.table.players, game_seed)
        if needs_knowledge(self._others):   # (a search agent determinizes: the game keeps what each seat knows)
            self.aec.game_state = self.table.rules.new_game(self.table.players, self.aec.game_seed,
                                                            self.table.options, knowledge=True)
        self._over = False
        self._play_others()
        return self._obs(), self._info()

    def _play_others(self) -> None:
        """The opponents' decisions, made on the engine's state until the learner must decide or
        the game ends; then the env's decision (its ids, labels, mask) is worked out once: the
        opponents' own are not (their agents read the state)."""
        S = self.aec.game_state
        while S.dec is not None and S.dec[0] != self.seat:   # (no decision: the game is over)
            seat = S.dec[0]
            S.apply_index(choose(self._others[seat], S, seat))
        self.aec.select_agent()

    def _obs(self) -> dict:
        return self.aec.observe(self.agent)

    def _info(self) -> dict:
        return dict(self.aec.infos.get(self.agent, {}))

    def step(self, action):
        a, S = self.aec, self.aec.game_state
        if S.over or self._over:
            raise ValueError("the game is over: reset() starts the next")
        ids = a.legal_ids or ()
        if not is_whole(action) or action not in ids:
            if self.illegal == "raise":
                raise ValueError(f"action {action!r} is not legal now; legal: {ids}")
            lowest = self._lowest if self._lowest is not None else float(min(S.scores()))
            self._over = True
            seen = {k: v.copy() for k, v in self._obs().items()}   # (the caller keeps what reset gave)
            return seen, float(lowest), True, False, {"illegal": True}
        S.apply_index(ids.index(int(action)))   # (a.step's move, without its next decision's ids: _play_others)
        self._play_others()
        over = S.over
        reward = self.table.returns(S)[self.seat] if over else 0.0
        return self._obs(), float(reward), over, False, self._info()

    def render(self):
        return self.aec.render()
