"""A multi-agent environment over any ruleset, in the agent-environment-cycle style of
PettingZoo (without depending on it): one agent acts at a time.

    env = GameEnv(interpreter.load("rulesets/my_game.yaml"), players=4)
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        env.step(policy(obs, info["legal_actions"]))    # an index into the legal actions
    print(env.rewards)                                  # {"player_0": 0.0, "player_1": 1.0, ...}

Agents see only their observation (``State.observation``) and the legal actions. Rewards
are given when the game ends: ``reward="win"`` gives each of k winners 1/k (others 0),
``reward="score"`` gives every seat its final score. ``env.state`` is the plain-data game
state, for search (``env.state.clone()``).
"""
from __future__ import annotations

from ..errors import UsageError


class GameEnv:
    def __init__(self, rules, players: int, options: dict | None = None, reward: str = "win",
                 max_decisions: int | None = None):
        if reward not in ("win", "score"):
            raise UsageError(f"reward is 'win' or 'score', not {reward!r}")
        self.rules, self.players, self.options = rules, players, options
        self.reward_kind, self.max_decisions = reward, max_decisions
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.state = None

    # ------------------------------------------------------------------ the cycle
    def reset(self, seed: int | None = None) -> None:
        """A new game with this seed; without one (PettingZoo's ``reset()``), the seed after the
        last game's (0 first), so successive resets play different games, reproducibly."""
        if seed is None:
            seed = 0 if self.state is None else self.state.seed + 1
        self.state = self.rules.new_game(self.players, seed=seed, options=self.options)
        self.agents = list(self.possible_agents)
        self.decisions = 0
        self.rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._settle()

    @property
    def agent_selection(self) -> str | None:
        seat = self.state.current_player()
        return self.possible_agents[seat] if seat >= 0 else None

    def agent_iter(self):
        """Yield the agent to act until the game ends or is truncated; then read ``rewards``."""
        while not (self.state.is_terminal() or any(self.truncations.values())):
            yield self.agent_selection

    def observe(self, agent: str) -> dict:
        return self.state.observation(self._seat(agent))

    def last(self, agent: str | None = None):
        agent = agent or self.agent_selection or self.possible_agents[0]
        seat = self._seat(agent)
        legal = self.state.legal_actions() if self.state.current_player() == seat else []
        info = {"legal_actions": legal, "prompt": self.state.prompt() if legal else None}
        return (self.observe(agent), self.rewards[agent], self.terminations[agent], self.truncations[agent], info)

    def step(self, action) -> None:
        """Apply an action of the current agent: an index into its legal actions, or a label."""
        if self.state.is_terminal() or any(self.truncations.values()):
            raise UsageError("the game is over: call reset()")
        if isinstance(action, str):
            self.state.apply(action)
        else:
            self.state.apply_index(action)
        self.decisions += 1
        self._settle()

    # ------------------------------------------------------------------ helpers
    def _seat(self, agent: str) -> int:
        try:
            return self.possible_agents.index(agent)
        except ValueError:
            raise UsageError(f"unknown agent {agent!r}; agents are {', '.join(self.possible_agents)}") from None

    def _settle(self) -> None:
        S = self.state
        if S.is_terminal():
            if self.reward_kind == "score":
                values = S.scores()
            else:
                winners = S.winners()
                values = [1.0 / len(winners) if p in winners else 0.0 for p in range(self.players)]
            self.rewards = {a: float(v) for a, v in zip(self.possible_agents, values)}
            self.terminations = {a: True for a in self.possible_agents}
        elif self.max_decisions is not None and self.decisions >= self.max_decisions:
            self.truncations = {a: True for a in self.possible_agents}
