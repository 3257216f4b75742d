"""The envs researchers reach for: PettingZoo's global state (``state()``, ``state_space``) and
a parallel env for simultaneous choices (parallel_api_test); a single-agent gymnasium env
against fixed opponents (gymnasium's check_env) and its vectorised form."""
from __future__ import annotations

import warnings
from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="the rl extra (pip install '.[rl]') is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra (pip install '.[rl]') is not installed")
pytest.importorskip("gymnasium", reason="the rl extra (pip install '.[rl]') is not installed")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test  # noqa: E402

from interpreter.adapters import gymnasium as gym_adapter  # noqa: E402
from interpreter.adapters import pettingzoo  # noqa: E402
from interpreter.errors import UsageError  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SEALED = str(ROOT / "docs" / "examples" / "sealed_bids.yaml")
SEEDS4 = [("diamonds", 3, {"rounds": 1}), ("diams", 2, {}), ("mister_diamond", 2, {}), ("diamonds_club", 2, {})]
IDS = [g for g, _, _ in SEEDS4]
# every seed game and a variant of one (its own player count): what check_env and parallel_api_test run on
EVERY = [(*game, None) for game in SEEDS4] + [("diamonds", 2, {"rounds": 1}, "two_player")]
EVERY_IDS = [*IDS, "diamonds_two_player"]


def test_the_aec_envs_state_is_the_global_state_and_the_engines_is_game_state():
    env = pettingzoo.env("diamonds", players=3, params={"rounds": 1})
    env.reset(seed=4)
    from interpreter.engine.state import State
    assert isinstance(env.game_state, State)
    for _ in range(5):
        agent = env.agent_selection
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
    state = env.state()
    assert state.shape == env.state_space.shape and env.state_space.contains(state)
    # every seat's tensor, seat 0's first: what the seats see between them
    L = env.table.layout
    for p, agent in enumerate(env.possible_agents):
        assert np.array_equal(state[p * L.size:(p + 1) * L.size], env.observe(agent)["observation"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=50)


def test_the_parallel_env_asks_every_chooser_of_a_simultaneous_choice_at_once():
    env = pettingzoo.parallel_env(SEALED, players=3)
    obs, infos = env.reset(seed=2)
    assert all(obs[a]["action_mask"].any() for a in env.agents)      # all bid at once
    assert all(infos[a]["prompt"] == "bid" for a in env.agents)
    bids = {a: int(np.flatnonzero(obs[a]["action_mask"])[k]) for k, a in enumerate(env.agents)}
    env.step(bids)
    labels = env.table.actions.labels
    assert env.game_state.v["bid"] == [int(labels[bids[a]]) for a in env.possible_agents]   # revealed together
    with pytest.raises(ValueError, match="decides now and was given no action"):
        env.step({})


@pytest.mark.parametrize("name,players,params,variant", [(SEALED, 3, {}, None), ("goofspiel", 2, {}, None), *EVERY],
                         ids=["sealed_bids", "goofspiel", *EVERY_IDS])
def test_the_parallel_env_passes_parallel_api_test(name, players, params, variant):
    env = pettingzoo.parallel_env(name, players=players, params=params, variant=variant)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_api_test(env, num_cycles=1000)
    obs, _ = env.reset(seed=1)
    assert env.state().shape == env.state_space.shape
    rng = np.random.default_rng(1)   # (random: always the first option may never end a game, as in Diamonds Club)
    while env.agents:                            # a turn-based game: one seat acts a step
        acting = [a for a in env.agents if obs[a]["action_mask"].any()]
        assert len(acting) == 1 or name in (SEALED, "goofspiel")     # (their choices are simultaneous)
        obs, rewards, terms, _, _ = env.step({a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"])))
                                              for a in acting})
    assert all(terms.values()) and sum(rewards.values()) == pytest.approx(1.0)


@pytest.mark.parametrize("name,players,params,variant", EVERY, ids=EVERY_IDS)
def test_the_gymnasium_env_passes_check_env_and_plays_a_game_against_random_seats(name, players, params, variant):
    env = gym_adapter.env(name, players=players, seat=1, params=params, variant=variant)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # (its notes on unbounded Box observations)
        check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=3)
    assert env.game_state.dec[0] == 1 and info["labels"]      # the learner's turn
    rng = np.random.default_rng(3)
    total, terminated = 0.0, False
    while not terminated:
        assert env.observation_space.contains(obs)
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        total += reward
    assert env.game_state.over and total == env.table.returns(env.game_state)[1]
    with pytest.raises(ValueError, match="the game is over"):
        env.step(0)


def test_the_gymnasium_env_takes_agent_specs_and_handles_an_illegal_action_as_asked():
    env = gym_adapter.env("diamonds", players=3, opponents="greedy", params={"rounds": 1})
    obs, _ = env.reset(seed=5)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info) == (0.0, True, {"illegal": True})
    strict = gym_adapter.env("diamonds", players=3, illegal="raise", params={"rounds": 1})
    obs, _ = strict.reset(seed=5)
    with pytest.raises(ValueError, match="is not legal now"):
        strict.step(illegal)
    a, b = (gym_adapter.env("diamonds", players=3, opponents="random,greedy,random") for _ in range(2))
    assert a.reset(seed=9)[0]["observation"].tobytes() == b.reset(seed=9)[0]["observation"].tobytes()
    for bad, message in ((dict(seat=3), "seat is one of 0..2"), (dict(illegal="skip"), "illegal is one of"),
                         (dict(opponents="nobody"), "nobody")):
        with pytest.raises(UsageError, match=message):
            gym_adapter.env("diamonds", players=3, **bad)


@pytest.mark.parametrize("name,players,params", SEEDS4, ids=IDS)
def test_the_vector_env_steps_several_games_and_resets_each_at_its_end(name, players, params):
    envs = gym_adapter.vector_env(name, 2, players=players, params=params)
    obs, _ = envs.reset(seed=0)
    assert obs["observation"].shape == (2, envs.single_observation_space["observation"].shape[0])
    ended, rng = 0, np.random.default_rng(0)
    for _ in range(400):
        # (after a game ends, the next step resets that copy: its action is not read)
        acts = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in obs["action_mask"]]
        obs, rewards, terminated, truncated, _ = envs.step(np.array(acts))
        ended += int(terminated.sum())
        if ended >= 2:
            break
    assert ended >= 2
    envs.close()


def test_the_training_example_of_docs_rl_learns(capsys):
    # the REINFORCE example of docs/rl.md, run as written: its seat wins more chips a game
    # against the random opponent after training than before (the same evaluation seeds)
    import re
    text = (ROOT / "docs" / "rl.md").read_text()
    block = next(b for b in re.findall(r"^```python\n(.*?)^```", text, re.S | re.M) if "theta +=" in b)
    space: dict = {}
    exec(compile(block, "docs/rl.md", "exec"), space)   # noqa: S102 - our own documentation
    assert space["after"] > space["before"] + 0.25
    assert capsys.readouterr().out.startswith("chips a game against random: ")


@pytest.mark.parametrize("name,players,params", [*SEEDS4, (SEALED, 3, {}), ("kuhn_poker", 2, {})],
                         ids=[*IDS, "sealed_bids", "kuhn_poker"])
def test_the_envs_ids_labels_and_mask_are_the_engines_options(name, players, params):
    # ids read from the card table (no label made) or from the labels, and labels read back from
    # the ids: at every decision the engine's options, in option order
    env = pettingzoo.env(name, players=players, params=params)
    index = env.table.actions.index
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        labels = env.game_state.legal_actions()
        assert list(info["labels"]) == labels and list(env.legal_ids) == [index[x] for x in labels]
        assert list(np.flatnonzero(obs["action_mask"])) == sorted(set(env.legal_ids))
        env.step(env.legal_ids[int(rng.integers(len(labels)))])


def test_the_gymnasium_env_works_out_ids_and_labels_for_the_learners_decisions_only():
    # the opponents' agents read the state: their decisions' ids and labels are nobody's, so
    # only the learner's decisions (and the end) are worked out
    env = gym_adapter.env("diamonds", players=3, seat=1, params={"rounds": 1})
    asked = []

    def counted(decide):
        return lambda S, options: asked.append(S.dec[0]) or decide(S, options)
    env.aec._deciders = tuple(map(counted, env.aec._deciders))   # (each step's: the env reads them by index)
    obs, _ = env.reset(seed=3)
    asked.clear()                      # (reset's own: the game's first decision, whoever's)
    rng, terminated, mine = np.random.default_rng(3), False, 0
    while not terminated:
        obs, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        mine += not terminated
        assert terminated or info["labels"] == tuple(env.game_state.legal_actions())
    assert asked == [1] * mine and mine > 5


def test_ids_and_labels_of_a_decision_with_no_option_are_empty():
    env = pettingzoo.env("diamonds", players=3, params={"rounds": 1})
    env.reset(seed=1)
    S = env.game_state
    assert env.table.actions.ids_and_labels(S.stack[-1][0], S, []) == ((), ())
