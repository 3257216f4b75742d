"""The agent-environment cycle over a ruleset: turns, observations, rewards, truncation."""
import random

import pytest

import interpreter
from interpreter.play.env import GameEnv
from interpreter.errors import UsageError

RULES = interpreter.load(interpreter.ruleset_path("diamonds"))


def play(env, seed):
    rnd = random.Random(seed)
    seen = set()
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        assert not terminated and reward == 0.0 and obs["player"] == env.possible_agents.index(agent)
        assert info["legal_actions"] and "legal_actions" in obs     # the acting agent sees its options
        seen.add(agent)
        env.step(rnd.randrange(len(info["legal_actions"])))
    return seen


def test_a_whole_game_through_the_cycle_gives_win_rewards():
    env = GameEnv(RULES, players=4)
    env.reset(seed=3)
    assert play(env, 3) == set(env.possible_agents)
    assert env.state.is_terminal() and all(env.terminations.values())
    winners = env.state.winners()
    assert sum(env.rewards.values()) == pytest.approx(1.0)
    assert {a for a, r in env.rewards.items() if r > 0} == {env.possible_agents[w] for w in winners}


def test_score_rewards_truncation_and_labels():
    env = GameEnv(RULES, players=3, reward="score", max_decisions=5)
    env.reset(seed=1)
    first = env.agent_selection
    env.step(env.last()[4]["legal_actions"][0])          # a label works too
    play(env, 1)
    assert env.decisions == 5 and all(env.truncations.values()) and not env.state.is_terminal()
    with pytest.raises(UsageError):
        env.step(0)
    assert first in env.possible_agents
    full = GameEnv(RULES, players=3, reward="score")
    full.reset(seed=1)
    play(full, 2)
    assert list(full.rewards.values()) == [float(s) for s in full.state.scores()]


def test_other_agents_do_not_see_a_hand():
    env = GameEnv(RULES, players=4)
    env.reset(seed=2)
    me = env.agent_selection
    other = next(a for a in env.possible_agents if a != me)
    assert isinstance(env.observe(other)["zones"]["hand"][env.possible_agents.index(me)], int)
    assert env.last(other)[4]["legal_actions"] == []


def test_reset_without_a_seed_plays_the_next_game():
    """PettingZoo's reset() passes no seed: each reset is a new game, the same on every run."""
    env = GameEnv(RULES, players=4)
    env.reset()
    first = env.state.to_json()
    assert env.state.seed == 0
    env.reset()
    assert env.state.seed == 1 and env.state.to_json() != first
    env.reset(seed=0)
    assert env.state.to_json() == first
