"""The RL adapters pass their libraries' own API tests on the four seed games and the tutorial's
game: PettingZoo's api_test and seed_test, OpenSpiel's random_sim_test, and OpenSpiel's MCTS
bot with evaluate_bots. Skipped, saying so, where the rl extra is not installed."""
from __future__ import annotations

import random
import warnings
from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="the rl extra (pip install 'rulebook[rl]') is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra (pip install 'rulebook[rl]') is not installed")
pytest.importorskip("pyspiel", reason="the rl extra (pip install 'rulebook[rl]'): open_spiel is not installed")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots, mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import interpreter  # noqa: E402
from interpreter.adapters import openspiel, pettingzoo  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = str(ROOT / "docs" / "examples" / "little_tricks.yaml")
SEALED = str(ROOT / "docs" / "examples" / "sealed_bids.yaml")   # simultaneous choices: sequential, hidden
GAMES = [("diamonds", 4, {"rounds": 1}), ("diams", 3, {}), ("mister_diamond", 3, {}), ("diamonds_club", 2, {}),
         (TUTORIAL, 3, {"rounds": 1}), (SEALED, 3, {})]
IDS = [Path(g).stem for g, _, _ in GAMES]


@pytest.mark.parametrize("name,players,params", GAMES, ids=IDS)
def test_pettingzoo_api_and_seed_tests(name, players, params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")       # (its notes on dict observations, which it allows)
        api_test(pettingzoo.env(name, players=players, params=params, render_mode="ansi"), num_cycles=200)
        seed_test(lambda: pettingzoo.env(name, players=players, params=params), num_cycles=40)


def test_pettingzoo_env_plays_a_game_with_masks_and_rewards_at_the_end():
    env = pettingzoo.env("diamonds", players=3, params={"rounds": 1})
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    rewards = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        assert obs["observation"].shape == env.observation_space(agent)["observation"].shape
        if terminated or truncated:
            rewards[agent] = reward
            env.step(None)
            continue
        assert reward == 0 and obs["action_mask"].sum() == len(info["labels"])
        ids = [env.table.actions.index[label] for label in info["labels"]]
        assert sorted(np.flatnonzero(obs["action_mask"])) == sorted(ids)   # the mask is of the legal ids
        choice = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs["action_mask"][:] = 1          # a consumer may write into its mask: the next is its own
        for other in env.agents:           # a seat that does not decide now may take nothing
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        env.step(choice)
    assert sorted(rewards) == ["player_0", "player_1", "player_2"] and 0.99 < sum(rewards.values()) < 1.01
    assert env.render() is None                                        # no render mode asked


def test_pettingzoo_env_takes_a_legal_id_of_any_integer_type_and_refuses_the_rest():
    env = pettingzoo.env("diamonds", players=3, params={"rounds": 1})
    env.reset(seed=5)
    legal = sorted(np.flatnonzero(env.last()[0]["action_mask"]))
    illegal = next(i for i in range(len(env.table.actions)) if i not in legal)
    for bad in (illegal, legal[0] + 0.5, None, str(legal[0])):
        with pytest.raises(ValueError, match="is not legal"):
            env.step(bad)
    assert sorted(np.flatnonzero(env.last()[0]["action_mask"])) == legal   # a refused step changes nothing
    before = env.state.to_json()
    env.step(np.int64(legal[0]))              # a numpy integer, as a policy's argmax gives
    assert env.state.to_json() != before


@pytest.mark.parametrize("name,players,params", GAMES, ids=IDS)
def test_openspiel_random_sim_test(name, players, params):
    game = openspiel.load_game(name, players=players, params=params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    assert game.get_type().short_name.startswith("rulebook_")
    assert pyspiel.load_game(game.get_type().short_name).num_players() == players


@pytest.mark.parametrize("name,players,params", GAMES, ids=IDS)
def test_openspiel_legal_actions_asked_from_python_are_pyspiels(name, players, params):
    # the state answers legal_actions() itself (no round trip through C++): the same lists as
    # pyspiel's own binding, at the chance node, for the seat deciding and for the others
    game = openspiel.load_game(name, players=players, params=params)
    state = game.new_initial_state()
    assert state.legal_actions() == pyspiel.State.legal_actions(state) == list(range(openspiel.SEEDS))
    assert state.is_chance_node() and pyspiel.State.is_chance_node(state)
    state.apply_action(3)
    rnd = random.Random(3)
    while not state.is_terminal():
        assert not state.is_chance_node() and not pyspiel.State.is_chance_node(state)
        seat = state.current_player()
        legal = state.legal_actions()
        assert legal == pyspiel.State.legal_actions(state) == state.legal_actions(seat) \
            == pyspiel.State.legal_actions(state, seat) == sorted(legal) and legal
        for other in range(players):
            if other != seat:
                assert state.legal_actions(other) == [] == pyspiel.State.legal_actions(state, other)
        legal.append(-1)                      # the caller's own list: the state's is untouched
        assert -1 not in state.legal_actions()
        state.apply_action(legal[rnd.randrange(len(legal) - 1)])
    assert state.legal_actions() == [] == pyspiel.State.legal_actions(state) and not state.is_chance_node()


def test_openspiel_mcts_bot_and_evaluate_bots():
    game = openspiel.load_game("diamonds", players=3, params={"rounds": 1})
    rng = np.random.RandomState(7)
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=20, evaluator=mcts.RandomRolloutEvaluator(1, rng),
                       random_state=rng)
    bots = [bot, uniform_random.UniformRandomBot(1, rng), uniform_random.UniformRandomBot(2, rng)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert len(returns) == 3 and 0.99 < sum(returns) < 1.01


def test_openspiel_states_clone_serialize_and_hide_the_seed():
    game = openspiel.load_game("diamonds", players=3, params={"rounds": 1})
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == openspiel.SEEDS
    state.apply_action(5)
    for _ in range(4):
        state.apply_action(state.legal_actions()[0])
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert str(copy) != str(state)
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state) and again.legal_actions() == state.legal_actions()
    seat = state.current_player()
    info = state.information_state_string(seat)
    assert "seed" not in info and len(state.observation_tensor(seat)) == game.observation_tensor_size()
    other = (seat + 1) % 3
    assert state.information_state_string(other) != info


def test_the_examples_of_docs_rl_run(capsys):
    import re
    text = (ROOT / "docs" / "rl.md").read_text()
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)
    assert len(blocks) >= 2
    for block in blocks:
        exec(compile(block, "docs/rl.md", "exec"), {})   # noqa: S102 - our own documentation
    assert capsys.readouterr().out.count("\n") >= 2


def _eager_recall(name, players, seed):
    """What each seat saw of each move, recorded move by move as the game is played (the
    reference the adapter's replayed recall must equal), and the option indices taken."""
    import json
    from interpreter.engine.sight import Choice
    from interpreter.play.gamelog import events_out, seen_field
    from interpreter.play.redact import Redactor
    rules = interpreter.load(name)
    S, rnd = rules.new_game(players, seed, {"params": {"rounds": 1}}), random.Random(seed)
    seen, moves = [[] for _ in range(players)], []
    while not S.over and len(moves) < 60:
        i = rnd.randrange(len(S.dec[1]))
        seat, label, choice = S.current_player(), S.legal_actions()[i], Choice.pending(S, i)
        S.ev = []
        S.apply_index(i)
        events, S.ev = S.ev, None
        line = {"type": "decision", "seat": seat, "prompt": None, "action": label,
                "events": events_out(rules, events), **seen_field(choice, S, events)}
        for p in range(players):
            shown = Redactor(rules, p, S.members).line(line)
            seen[p].append(json.dumps([shown["seat"], shown["action"], shown["events"]], sort_keys=True))
        moves.append(label)
        yield seen, moves


@pytest.mark.parametrize("name", ["diamonds", "diams"])
def test_openspiel_information_states_recall_every_move_as_each_seat_saw_it(name):
    """The perfect recall is worked out when asked, by replaying the moves: it equals a record
    made move by move, on the state, its clones (one moved on, one not) and its serialization."""
    game = openspiel.load_game(name, players=3, params={"rounds": 1})
    state = game.new_initial_state()
    state.apply_action(9)
    space = openspiel._TABLES[game.get_type().short_name].actions
    for k, (seen, moves) in enumerate(_eager_recall(name, 3, 9)):
        state.apply_action(space.index[moves[-1]])
        if k % 7:
            continue
        twin = state.clone()
        for p in range(3):
            now = state.information_state_string(p).split("\n")
            assert now[:-1] == seen[p], (name, k, p)
        if not twin.is_terminal():
            twin.apply_action(twin.legal_actions()[-1])    # a clone that moves on keeps its own recall
            lines = twin.information_state_string(0).split("\n")
            assert len(lines) == k + 3 and lines[:k + 1] == seen[0]   # its k + 2 moves, then now
            assert state.information_state_string(0).split("\n")[:-1] == seen[0]   # and the state its own
        again = game.deserialize_state(state.serialize())
        assert again.information_state_string(1) == state.information_state_string(1)
