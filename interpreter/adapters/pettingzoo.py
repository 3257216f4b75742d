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
and prompt of the agent to act, and is empty for the others (one read-only empty dict, shared). ``render_mode="ansi"`` renders
the acting seat's view as text. ``state()`` is the global state (``state_space``): every
seat's tensor, one after another; ``game_state`` is the engine's ``State``.
``parallel_env(...)`` is a ``ParallelEnv`` of the same game (RulebookParallelEnv).
"""
from __future__ import annotations

import copy
import json
import random
import sys
from itertools import repeat
from typing import TYPE_CHECKING, Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from ..mechanics.choose import Simultaneous
from ..play.agents import summarise
from .common import Table, is_whole, whole

if TYPE_CHECKING:
    from ..engine.state import State


_I8 = np.dtype(np.int8)
_array = np.ndarray


# actions: a space this small has its masks copied from kept bytes, a larger one's made over fresh
# bytes (the copy and the clearing each go over all the bytes: even at 611, 0.6 k more at 4,788)
KEPT_MASK = 512


def _mask_bytes(n: int):
    """A small space's kept mask bytes, an int8 array over them and their zeros (None in a large
    space): ``_mask_of``'s, and ``RulebookEnv.last``'s, which makes the acting agent's mask in its
    own body (a call less a decision: 0.4 k instructions, valgrind)."""
    if n > KEPT_MASK:
        return None
    kept = bytearray(n)   # (a bytearray: bytes would be copied into one first, 0.9 k)
    return kept, _array(n, _I8, kept), bytearray(n)


def _mask_of(n: int, parts=None):
    """The action mask of a decision's ids: a fresh int8 array each call (the consumer may write
    into it). In a small space the ids are set in kept bytes viewed by a kept array, which numpy
    copies, then the bytes are cleared: ``ndarray.copy`` costs some 1.8 k instructions
    (valgrind), where fresh bytes (a slice of kept zeros, 0.6 k) and numpy's constructor over
    them (2.1 k) cost 2.7 k; clearing 63 bytes costs 0.5 k. In a large one, the fresh bytes
    viewed by the constructor. Cheaper than numpy's own zeros and index assignment for the few
    ids a decision offers, and than keeping masks by their ids (in random play most sets are
    new). ``parts``: the kept bytes, view and zeros (``_mask_bytes``) to share."""
    parts = parts or _mask_bytes(n)
    if parts is None:
        zeros = bytearray(n)

        def large(ids) -> np.ndarray:
            fresh = zeros[:]
            for i in ids:
                fresh[i] = 1
            return _array(n, _I8, fresh)
        return large
    kept, view, clear = parts

    def small(ids) -> np.ndarray:
        for i in ids:     # (the ids are the action space's: each in range)
            kept[i] = 1
        out = view.copy()
        kept[:] = clear
        return out
    return small


class _NoInfo(dict):
    """The info of an agent not acting: empty, one object shared by those agents, which refuses
    to be written (so that no write shows in another agent's info, and a learner that kept it
    sees it unchanged). A fresh ``{}`` a step cost some 280 instructions (valgrind)."""
    __slots__ = ()

    def _refuse(self, *args, **kwargs):
        raise TypeError("the info of an agent not acting is empty and read-only (one object shared by "
                        "those agents): dict(info) is a copy to write into")

    __setitem__ = __delitem__ = __ior__ = update = pop = popitem = clear = setdefault = _refuse  # type: ignore[assignment]


NO_INFO = _NoInfo()


class _AgentIter:
    """``agent_iter``'s iterable, as PettingZoo's (``agent_selection`` while any agent is left, at
    most ``max_iter`` times), its iterator a generator that watches the env's ``agents`` list
    (the same list object for the env's life: reset refills it). PettingZoo's iterator is a
    Python ``__next__``, called from C: 1.3 k instructions a step (valgrind, ``next``
    included), a chain of C iterators (``map`` reading ``agent_selection``, ``compress``,
    ``takewhile``) 0.7 k, this generator's resumption 0.47 k."""
    __slots__ = ("env", "max_iter")

    def __init__(self, env, max_iter: int):
        self.env, self.max_iter = env, max_iter

    def __iter__(self):
        e, n = self.env, self.max_iter
        agents = e.agents
        if n >= sys.maxsize:   # (no cap: the loop as short as it can be)
            while agents:
                yield e.agent_selection
            return
        for _ in repeat(None, n):
            if not agents:
                return
            yield e.agent_selection


def global_state(encode, S, players: int) -> np.ndarray:
    return np.concatenate([encode(S, p) for p in range(players)])


def env(path, players: int | None = None, variant: str | None = None, reward: str = "win",
        render_mode: str | None = None, params: dict | None = None, **options) -> "RulebookEnv":
    return RulebookEnv(Table(path, players, variant, reward, params, **options), render_mode)


class RulebookEnv(AECEnv):
    metadata = {"render_modes": ["ansi"], "name": "rulebook_v0", "is_parallelizable": False}
    # its attributes in slots, read at a fixed offset: not in the instance's dictionary (AECEnv's),
    # which CPython 3.11 reads by a hashed lookup once it holds more than 30 keys (docs/rl.md:
    # 3 keys more cost an env step some 4.6 k instructions)
    __slots__ = ("table", "render_mode", "possible_agents", "agents", "agent_selection", "_obs_spaces",
                 "state_space", "_global", "_act_spaces", "_seeds", "game_seed", "game_state", "_seat",
                 "_encode", "_masks", "_mbytes", "_mview", "_mzeros", "_prompts", "_deciders", "_tensor", "_mask",
                 "legal_ids", "rewards", "_cumulative_rewards", "terminations", "truncations", "infos")

    def __init__(self, table: Table, render_mode: str | None = None):
        super().__init__()
        self.table = table
        # (metadata: a class attribute, so in the dictionary, not a slot)
        self.metadata = {**self.metadata, "name": f"rulebook_{table.rules.name}_v0"}  # type: ignore[misc]
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(table.players)]
        n = len(table.actions)
        obs = spaces.Dict({"observation": spaces.Box(-np.inf, np.inf, (table.layout.size,), np.float32),
                           "action_mask": spaces.Box(0, 1, (n,), np.int8)})
        self._obs_spaces = {a: obs for a in self.possible_agents}
        self.state_space = spaces.Box(-np.inf, np.inf, (table.players * table.layout.size,), np.float32)
        self._global = table.layout.encoder()   # (its own: state() does not disturb the seats' encoder)
        self._act_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._seeds: random.Random | None = None   # the generator of the seeds reset() draws
        self.game_seed: int | None = None
        # the game, from reset() on (the API asks for reset() before anything else)
        self.game_state: State = None  # type: ignore[assignment]
        self.agent_selection = self.possible_agents[0]   # (read by step: whose infos to clear)
        self.agents: list[str] = []   # (one list for the env's life: agent_iter's iterators watch it)
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        self._encode = table.layout.encoder()   # this env's own: it keeps what it wrote last
        # a small space's mask bytes (None in a large one): last() sets and copies them itself
        parts = _mask_bytes(n)
        self._mbytes: Any
        self._mview: Any
        self._mzeros: Any
        self._mbytes, self._mview, self._mzeros = parts or (None, None, None)
        self._masks = _mask_of(n, parts)
        # each step's prompt by its index (a step's attribute is read by a hashed lookup: some 350
        # instructions a read, where this list's item costs a tenth)
        self._prompts = [step.prompt for step in table.rules.steps]
        self._deciders = table.actions.deciders   # (a decision's ids and labels, by its step's index)
        self._tensor: np.ndarray | None = None  # the acting agent's observation at this decision, once asked
        self._mask: np.ndarray | None = None
        self.legal_ids: tuple[int, ...] | None = None   # the legal ids in option order (None: the game is over)

    def __deepcopy__(self, memo):
        """A deep copy with mask bytes of its own: a copied numpy view is no longer a view of the
        copied bytes (last() would set the bytes and copy a view of others: all zeros)."""
        new = self.__class__.__new__(self.__class__)
        memo[id(self)] = new
        new.__dict__.update(copy.deepcopy(self.__dict__, memo))
        for name in self.__slots__:
            if hasattr(self, name):
                setattr(new, name, copy.deepcopy(getattr(self, name), memo))
        parts = _mask_bytes(len(self.table.actions))
        new._mbytes, new._mview, new._mzeros = parts or (None, None, None)
        new._masks = _mask_of(len(self.table.actions), parts)
        return new

    def observation_space(self, agent):
        return self._obs_spaces[agent]

    def action_space(self, agent):
        return self._act_spaces[agent]

    def state(self) -> np.ndarray:
        """The global state (``state_space``): every seat's observation tensor, seat 0's first,
        one after another: what the seats see between them (a card no seat sees, as the
        deck's, is in none). For a centralised critic; a seat's policy reads ``observe``."""
        return global_state(self._global, self.game_state, self.table.players)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        seed = None if seed is None else whole(seed, "a seed")
        if seed is not None:
            self._seeds = random.Random(int(seed))
            self.game_seed = int(seed)
        else:
            if self._seeds is None:
                self._seeds = random.Random()   # (seeded from the system's entropy)
            self.game_seed = self._seeds.getrandbits(63)
        self.game_state = self.table.new_game(self.game_seed)
        self.agents[:] = self.possible_agents
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: NO_INFO for a in self.agents}
        self.select_agent()

    def select_agent(self) -> None:
        """The decision now pending on ``game_state`` (its agent, ids, labels), or the end: after
        reset, or moves made on the engine's state directly (the gymnasium env's opponents)."""
        self.step(None, _made=True)

    def _end(self) -> None:
        returns = self.table.returns(self.game_state)
        for p, a in enumerate(self.possible_agents):
            if a in self.agents:
                self.rewards[a] = returns[p]
                self.terminations[a] = True
        self._accumulate_rewards()
        self.agent_selection = self.agents[0] if self.agents else self.possible_agents[0]

    def agent_iter(self, max_iter: int = 2**63) -> _AgentIter:   # type: ignore[override]
        return _AgentIter(self, max_iter)

    def last(self, observe: bool = True):
        """As ``AECEnv.last``: the acting agent's observation, cumulative reward, termination,
        truncation and info."""
        agent, ids = self.agent_selection, self.legal_ids
        if ids is not None:   # in play: no reward yet, none terminated nor truncated (_end)
            if not observe:
                return None, 0.0, False, False, self.infos[agent]
            tensor = self._tensor
            if tensor is None:   # (the acting seat's, kept until the next step: _observe_acting inline)
                S = self.game_state
                seat = S.dec[0]  # type: ignore[index]
                tensor = self._tensor = self._encode[seat](S, seat)
                kept = self._mbytes
                if kept is not None:   # (a small space: _mask_of's small inline)
                    for i in ids:
                        kept[i] = 1
                    mask = self._mask = self._mview.copy()
                    kept[:] = self._mzeros
                else:
                    mask = self._mask = self._masks(ids)
            else:
                mask = self._mask
            return {"observation": tensor, "action_mask": mask}, 0.0, False, False, self.infos[agent]
        if not observe:
            obs = None
        elif self._tensor is not None:         # (asked again at this decision: the same arrays)
            obs = {"observation": self._tensor, "action_mask": self._mask}
        else:
            obs = self._observe_acting()
        return (obs, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent],
                self.infos[agent])

    def observe(self, agent):
        """The seat's tensor and action mask, computed once a decision for the acting agent: asked
        again before the next step (last() then observe()), it returns the same arrays."""
        if agent != self.agent_selection:    # (a seat not acting: its mask is all zeros)
            S, seat = self.game_state, self._seat[agent]
            return {"observation": self._encode[seat](S, seat), "action_mask": self._masks(())}
        if self._tensor is not None:
            return {"observation": self._tensor, "action_mask": self._mask}
        return self._observe_acting()

    def _observe_acting(self) -> dict:
        """The acting agent's observation, kept (``_tensor``, ``_mask``) until the next step."""
        S, ids = self.game_state, self.legal_ids
        if ids is None:    # (the game is over: no seat acts)
            seat, ids = self._seat[self.agent_selection], ()
        else:
            seat = S.dec[0]  # type: ignore[index]
        tensor = self._tensor = self._encode[seat](S, seat)
        mask = self._mask = self._masks(ids)
        return {"observation": tensor, "action_mask": mask}

    def step(self, action, _made: bool = False) -> None:
        """As ``AECEnv.step``; then the next decision worked out (its ids, the labels in the acting
        agent's infos) or the end (the rewards). ``_made``: the move is already made on the state
        (select_agent); the next decision only. (One method: a call less a step.)"""
        S = self.game_state
        if not _made:
            ids = self.legal_ids
            if ids is None:         # the game is over: every agent is terminated (_end)
                self._was_dead_step(action)
                self._tensor = None           # (the next agent's observation is its own)
                if self.agents:
                    self.agent_selection = self.agents[0]
                return
            if type(action) is not int and not is_whole(action):   # (a plain int told without a call)
                raise ValueError(f"action {action!r} is not legal: an action is an int or a numpy integer, "
                                 f"not {type(action).__name__}")
            try:
                i = ids.index(action)
            except ValueError:
                raise ValueError(f"action {action} is not legal for {self.agent_selection} now; "
                                 f"legal: {ids}") from None
            S.apply_index(i)
        self._tensor = None
        last, infos = self.agent_selection, self.infos   # (last: whose infos hold the labels of the last decision)
        if S.over:
            self.legal_ids = None
            infos[last] = NO_INFO
            self._end()
            return
        # once a decision: the mask and step() read the ids, the labels are read from them; rewards
        # and their sums stay 0 until the end (nothing to clear)
        at, (seat, options) = S.stack[-1][0], S.dec  # type: ignore[misc]
        self.legal_ids, labels = self._deciders[at](S, options)
        agent = self.possible_agents[seat]
        if last is not agent:
            self.agent_selection = agent
            infos[last] = NO_INFO              # (the labels of a decision that is gone)
        infos[agent] = {"labels": labels, "prompt": self._prompts[at]}

    def render(self):
        if self.render_mode != "ansi":
            return None
        S = self.game_state
        seat = S.current_player()
        if seat < 0:
            return f"game over: scores {S.scores()}, winners {S.winners()}"
        return summarise(S.observation(seat)) + "\n  options: " + ", ".join(S.legal_actions())

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return json.dumps({"ruleset": self.table.rules.name, "players": self.table.players})


def parallel_env(path, players: int | None = None, variant: str | None = None, reward: str = "win",
                 render_mode: str | None = None, params: dict | None = None, **options) -> "RulebookParallelEnv":
    return RulebookParallelEnv(Table(path, players, variant, reward, params, **options), render_mode)


class RulebookParallelEnv(ParallelEnv):
    """The game as a PettingZoo ``ParallelEnv``: at each step, every seat that must decide now
    acts: all the choosers still to choose of a ``choose`` with ``simultaneous: true`` at once
    (each on the state before any of them chose, as the rules have it), else the one seat
    deciding. The others' masks are all zeros and their actions, if given, are ignored; a
    seat that acts must be given an action. Observations, spaces, rewards (at the end),
    seeding, ``state()`` and ``game_state`` as the AEC env's."""
    metadata = {"render_modes": ["ansi"], "name": "rulebook_v0"}

    def __init__(self, table: Table, render_mode: str | None = None):
        self.aec = RulebookEnv(table, render_mode)   # (its spaces, seeding, tensors and state())
        self.table, self.render_mode = table, render_mode
        self.metadata = {**self.metadata, "name": str(self.aec.metadata["name"])}
        self.possible_agents = self.aec.possible_agents
        self.state_space = self.aec.state_space
        self.agents: list[str] = []
        self._actors: dict[int, tuple[int, ...]] = {}     # seat -> its legal ids, for those who act now

    def observation_space(self, agent):
        return self.aec.observation_space(agent)

    def action_space(self, agent):
        return self.aec.action_space(agent)

    @property
    def game_state(self):
        return self.aec.game_state

    @property
    def game_seed(self):
        return self.aec.game_seed

    def state(self) -> np.ndarray:
        return self.aec.state()

    def reset(self, seed: int | None = None, options: dict | None = None):
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.possible_agents)
        return self._observe(), self._infos()

    def _find_actors(self) -> None:
        S, ids_of = self.game_state, self.table.actions.ids_of
        self._actors = {}
        if S.dec is None:
            return
        frame = S.stack[-1]
        step = self.table.rules.steps[frame[0]]
        seats = [S.dec[0]]
        if isinstance(step, Simultaneous) and frame[1] is not None:
            seats = frame[1][frame[2]:]           # (the state stays as it is until all have chosen)
        for seat in seats:
            # (a chooser with nothing to choose is skipped by the rules: it does not act)
            opts = S.dec[1] if seat == S.dec[0] else step.options_of(S, seat)
            if opts:
                self._actors[seat] = ids_of(frame[0], S, opts)

    def _observe(self) -> dict:
        self._find_actors()
        encode, masks = self.aec._encode, self.aec._masks
        S = self.game_state
        return {a: {"observation": encode[p](S, p), "action_mask": masks(self._actors.get(p, ()))}
                for p, a in enumerate(self.possible_agents) if a in self.agents}

    def _infos(self) -> dict:
        S = self.game_state
        out: dict[str, dict] = {a: {} for a in self.agents}
        if S.dec is not None:
            step = self.table.rules.steps[S.stack[-1][0]]
            for seat, ids in self._actors.items():
                out[self.possible_agents[seat]] = {"labels": self.table.actions.labels_of(ids),
                                                   "prompt": step.prompt}
        return out

    def step(self, actions: dict):
        S, space = self.game_state, self.table.actions
        for seat in list(self._actors):
            agent = self.possible_agents[seat]
            if agent not in actions:
                raise ValueError(f"{agent} decides now and was given no action")
            action = actions[agent]
            ids = space.ids(S)   # (the rules ask the choosers in turn)
            if S.dec[0] != seat or not is_whole(action) or action not in ids:
                raise ValueError(f"action {action!r} is not legal for {agent} now; legal: {ids}")
            S.apply_index(ids.index(action))
        agents = self.agents
        over = S.over
        returns = self.table.returns(S) if over else [0.0] * self.table.players
        seat_of = {a: p for p, a in enumerate(self.possible_agents)}
        rewards = {a: returns[seat_of[a]] for a in agents}
        terminations = {a: over for a in agents}
        truncations = {a: False for a in agents}
        observations, infos = self._observe(), self._infos()
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self):
        return self.aec.render()

    def close(self) -> None:
        pass
