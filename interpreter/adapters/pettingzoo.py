"""Any ruleset as a PettingZoo ``AECEnv`` (turn-based: one agent acts at a time).

    from interpreter.adapters.pettingzoo import env
    e = env("my_game.yaml", players=4)       # a path, or a bundled ruleset's name
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else policy(obs["observation"], obs["action_mask"])
        e.step(action)

Agents are ``player_0`` .. ``player_{N-1}`` (seats); whoever must decide is
``agent_selection`` (the ruleset's turn order, not a fixed round). Actions are ids of the
ruleset's fixed action space (``Discrete(len)``, ``info["labels"]`` names the legal ones);
observations are ``{"observation": float32 tensor, "action_mask": int8 mask}``. Rewards come
at the end (``reward="win"``: 1/k to each of k winners; ``"score"``: the final scores).
``reset(seed=S)`` plays the game of seed S and seeds the env's own generator, from which
each later ``reset()`` draws its game's seed (a first ``reset()`` with no seed draws one from
the system's entropy), as gymnasium's environments do; ``game_seed`` is the seed of the game
being played (``rulebook play ... --seed`` plays it again). ``infos[agent]`` holds the labels
and prompt of the agent to act, and is empty for the others. ``render_mode="ansi"`` renders
the acting seat's view as text.
"""
from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..play.agents import summarise
from .common import Table, is_whole, whole

if TYPE_CHECKING:
    from ..engine.state import State


_I8 = np.dtype(np.int8)
_view = np.frombuffer


def _mask_of(n: int):
    """The action mask of a decision's ids: a fresh int8 array each call (the consumer may write
    into it), written as bytes and viewed by numpy. Cheaper than numpy's own zeros and index
    assignment for the few ids a decision offers, and than keeping masks by their ids (in
    random play most sets are new). A long mask's fresh bytes are a copy of kept zeros:
    ``bytearray(n)`` of 4,788 actions costs 6.6 k instructions, the copy 2.4 k
    (below about 2,000 bytes ``bytearray(n)`` is the cheaper, by some 150)."""
    zeros = bytes(n) if n > 2048 else n

    def mask(ids) -> np.ndarray:
        fresh = bytearray(zeros)
        for i in ids:
            fresh[i] = 1
        return _view(fresh, _I8)
    return mask


def env(path, players: int | None = None, variant: str | None = None, reward: str = "win",
        render_mode: str | None = None, params: dict | None = None, **options) -> "RulebookEnv":
    return RulebookEnv(Table(path, players, variant, reward, params, **options), render_mode)


class RulebookEnv(AECEnv):
    metadata = {"render_modes": ["ansi"], "name": "rulebook_v0", "is_parallelizable": False}

    def __init__(self, table: Table, render_mode: str | None = None):
        super().__init__()
        self.table = table
        self.metadata = {**self.metadata, "name": f"rulebook_{table.rules.name}_v0"}
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(table.players)]
        n = len(table.actions)
        obs = spaces.Dict({"observation": spaces.Box(-np.inf, np.inf, (table.layout.size,), np.float32),
                           "action_mask": spaces.Box(0, 1, (n,), np.int8)})
        self._obs_spaces = {a: obs for a in self.possible_agents}
        self._act_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._seeds: random.Random | None = None   # the generator of the seeds reset() draws
        self.game_seed: int | None = None
        # the game, from reset() on (the API asks for reset() before anything else)
        self.state: State = None  # type: ignore[assignment]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        self._encode = table.layout.encoder()   # this env's own: it keeps what it wrote last
        self._masks = _mask_of(n)
        self._steps, self._index = table.rules.steps, table.actions.index
        self._seen: tuple | None = None         # (agent, tensor, mask) last observed at this decision
        self._ids: list[int] | None = None      # the legal ids in option order (None: the game is over)

    def observation_space(self, agent):
        return self._obs_spaces[agent]

    def action_space(self, agent):
        return self._act_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        seed = None if seed is None else whole(seed, "a seed")
        if seed is not None:
            self._seeds = random.Random(int(seed))
            self.game_seed = int(seed)
        else:
            if self._seeds is None:
                self._seeds = random.Random()   # (seeded from the system's entropy)
            self.game_seed = self._seeds.getrandbits(63)
        self.state = self.table.new_game(self.game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        S = self.state
        self._seen = None
        last = getattr(self, "agent_selection", None)   # (whose infos hold the labels of the last decision)
        if S.over:
            self._ids = None
            if last in self.infos:
                self.infos[last] = {}
            self._end()
            return
        # (State.legal_actions and prompt, inline; S.dec is a decision: the game is not over)
        step, (seat, options) = self._steps[S.stack[-1][0]], S.dec  # type: ignore[misc]
        labels = step.labels(S, options)   # once a decision: the ids and the mask read them too
        index = self._index
        self._ids = [index[x] for x in labels]
        agent = self.agent_selection = self.possible_agents[seat]
        infos = self.infos
        if last is not agent and last in infos:
            infos[last] = {}                   # (the labels of a decision that is gone)
        infos[agent] = {"labels": labels, "prompt": step.prompt}

    def _end(self) -> None:
        returns = self.table.returns(self.state)
        for p, a in enumerate(self.possible_agents):
            if a in self.agents:
                self.rewards[a] = returns[p]
                self.terminations[a] = True
        self._accumulate_rewards()
        self.agent_selection = self.agents[0] if self.agents else self.possible_agents[0]

    def observe(self, agent):
        """The seat's tensor and action mask, computed once a decision: asked again before the
        next step (last() then observe()), it returns the same arrays."""
        seen = self._seen                  # (forgotten at each step and reset)
        if seen is not None and seen[0] == agent:
            return {"observation": seen[1], "action_mask": seen[2]}
        S, seat = self.state, self._seat[agent]
        d = S.dec
        tensor = self._encode(S, seat)
        mask = self._masks(self._ids if d is not None and d[0] == seat else ())
        self._seen = (agent, tensor, mask)
        return {"observation": tensor, "action_mask": mask}

    def step(self, action) -> None:
        ids = self._ids
        if ids is None:         # the game is over: every agent is terminated (_end)
            self._was_dead_step(action)
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        if not is_whole(action):
            raise ValueError(f"action {action!r} is not legal: an action is an int or a numpy integer, "
                             f"not {type(action).__name__}")
        try:
            i = ids.index(action)
        except ValueError:
            raise ValueError(f"action {action} is not legal for {self.agent_selection} now; legal: {ids}") from None
        self.state.apply_index(i)
        self._select()          # (rewards and their sums stay 0 until the end: nothing to clear)

    def render(self):
        if self.render_mode != "ansi":
            return None
        S = self.state
        seat = S.current_player()
        if seat < 0:
            return f"game over: scores {S.scores()}, winners {S.winners()}"
        return summarise(S.observation(seat)) + "\n  options: " + ", ".join(S.legal_actions())

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return json.dumps({"ruleset": self.table.rules.name, "players": self.table.players})
