"""The RL adapters pass their libraries' own API tests on the four seed games and the tutorial's
game: PettingZoo's api_test and seed_test, OpenSpiel's random_sim_test, and OpenSpiel's MCTS
bot with evaluate_bots. Skipped, saying so, where the rl extra is not installed."""
from __future__ import annotations

import json
import random
import warnings
from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="the rl extra (pip install '.[rl]') is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra (pip install '.[rl]') is not installed")
pytest.importorskip("pyspiel", reason="the rl extra (pip install '.[rl]'): open_spiel is not installed")

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
VARIANT = ("diamonds", 2, {"rounds": 1}, "two_player")   # a variant of a seed game, at its own player count


@pytest.mark.parametrize("name,players,params,variant", [*((*g, None) for g in GAMES), VARIANT],
                         ids=[*IDS, "diamonds_two_player"])
def test_pettingzoo_api_and_seed_tests(name, players, params, variant):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")       # (its notes on dict observations, which it allows)
        api_test(pettingzoo.env(name, players=players, params=params, variant=variant, render_mode="ansi"),
                 num_cycles=200)
        seed_test(lambda: pettingzoo.env(name, players=players, params=params, variant=variant), num_cycles=40)


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
    before = env.game_state.to_json()
    env.step(np.int64(legal[0]))              # a numpy integer, as a policy's argmax gives
    assert env.game_state.to_json() != before


def deal(state, seed: int) -> None:
    """The chance nodes from here to the next decision, played at random (the seed; or each
    card, draw and roll)."""
    rng = random.Random(seed)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0])


@pytest.mark.parametrize("name,players,params", GAMES, ids=IDS)
def test_openspiel_random_sim_test(name, players, params):
    game = openspiel.load_game(name, players=players, params=params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    assert game.get_type().short_name.startswith("rulebook_")
    default = pyspiel.load_game(game.get_type().short_name)     # the ruleset's defaults, not the latest load's
    assert default.num_players() == min(game.table.rules.player_counts) and default.table.options == {"params": {}}


@pytest.mark.parametrize("name,players,params", GAMES, ids=IDS)
def test_openspiel_legal_actions_asked_from_python_are_pyspiels(name, players, params):
    # the state answers legal_actions() itself (no round trip through C++): the same lists as
    # pyspiel's own binding, at the chance node, for the seat deciding and for the others
    game = openspiel.load_game(name, players=players, params=params)
    state = game.new_initial_state()
    rnd = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():   # (a card, a draw, a roll: its outcomes)
            outcomes = [a for a, _ in state.chance_outcomes()]
            assert state.legal_actions() == pyspiel.State.legal_actions(state) == outcomes
            assert pyspiel.State.is_chance_node(state)
            state.apply_action(outcomes[rnd.randrange(len(outcomes))])
            continue
        assert not pyspiel.State.is_chance_node(state)
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
    game = openspiel.load_game("diamonds", players=3, params={"rounds": 1}, chance="seed")
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


def test_openspiel_games_of_one_ruleset_with_other_settings_coexist():
    # each game keeps its own player count, reward and parameters, whatever was loaded after it;
    # str(game) names its settings and loads the same game again
    g3 = openspiel.load_game("diamonds", players=3, params={"rounds": 1})
    g4 = openspiel.load_game("diamonds", players=4, reward="score", params={"rounds": 1, "pass_options": [1, 2, 4]})
    assert (g3.num_players(), g3.max_utility(), g4.num_players(), g4.max_utility()) == (3, 1.0, 4, 1e9)
    pyspiel.random_sim_test(g3, num_sims=1, serialize=True, verbose=False)
    state = g3.new_initial_state()
    deal(state, 2)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert len(state.returns()) == 3 and sum(state.returns()) == pytest.approx(1.0)
    again = pyspiel.load_game(str(g4))
    assert str(again) == str(g4) and again.num_players() == 4 and again.num_distinct_actions() == g4.num_distinct_actions()
    assert "4" in g4.table.actions.index and "4" not in g3.table.actions.index   # a pass of four cards
    assert pyspiel.load_game("rulebook_diamonds").num_players() == 3      # its defaults, not the latest settings
    assert str(pyspiel.load_game("rulebook_diamonds")) == "rulebook_diamonds(chance=explicit,options={},params={},players=3,reward=win)"


def test_openspiel_a_serialized_game_and_state_load_in_another_process():
    import subprocess
    import sys
    g3 = openspiel.load_game("diamonds", players=3, params={"rounds": 1})
    state = g3.new_initial_state()
    deal(state, 6)
    for _ in range(5):
        state.apply_action(state.legal_actions()[-1])
    text = pyspiel.serialize_game_and_state(g3, state)
    code = ("import sys, pyspiel\n"
            "from interpreter.adapters.openspiel import load_game\n"
            "load_game('diamonds', players=4)\n"     # the ruleset known, with other settings
            "game, state = pyspiel.deserialize_game_and_state(sys.stdin.read())\n"
            "print(game.num_players(), state.current_player(), state.legal_actions())")
    done = subprocess.run([sys.executable, "-c", code], input=text, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == f"3 {state.current_player()} {state.legal_actions()}"


def test_openspiel_observers_of_each_kind():
    from open_spiel.python.observation import make_observation
    game = openspiel.load_game("diamonds", players=3, params={"rounds": 1}, chance="seed")
    state = game.new_initial_state()
    assert state.chance_outcomes()[0] == (0, 1.0 / openspiel.SEEDS)
    state.apply_action(7)
    assert state.chance_outcomes() == []                    # none at a decision, as OpenSpiel's
    seat = state.current_player()
    full = np.array(state.observation_tensor(seat))
    # the default: the seat's tensor, its pieces by the layout's names (views of it)
    seen = make_observation(game)
    seen.set_from(state, seat)
    assert np.array_equal(seen.tensor, full) and seen.dict["zone:hand+0"].sum() == 10
    # the public part: the seat's own hand zeroed, the rest as it was; a spectator's string
    public = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    public.set_from(state, seat)
    private = np.zeros(len(full), bool)
    for offset, size in game.table.layout.private_pieces():
        private[offset:offset + size] = True
    assert private.sum() == 60 + 1                          # its hand, and its own safe (visible: owner)
    assert not public.tensor[private].any() and full[private].sum() == 10
    assert np.array_equal(public.tensor[~private], full[~private])
    assert public.string_from(state, seat) == json.dumps(state.h.state.observation(None), sort_keys=True)
    assert public.string_from(state, seat) == public.string_from(state, (seat + 1) % 3)
    # the information state: the string, and a tensor: the seat's, then its history (none yet)
    assert game.get_type().provides_information_state_tensor
    infostate = np.array(state.information_state_tensor(seat))
    assert np.array_equal(infostate[:len(full)], full) and not infostate[len(full):].any()
    assert state.information_state_string(seat).endswith(state.observation_string(seat))
    with pytest.raises(ValueError, match="no observation of this kind"):
        make_observation(game, pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))
    with pytest.raises(ValueError, match="parameters are not supported"):
        game.make_py_observer(None, {"x": 1})


def test_pettingzoo_seeds_as_gymnasium_and_infos_of_the_agent_to_act():
    def first(env):
        return env.game_seed, env.last()[0]["observation"].tobytes()
    a, b = pettingzoo.env("diamonds", players=3), pettingzoo.env("diamonds", players=3)
    a.reset(seed=0)
    a.reset()                                   # a seed drawn from the generator seed 0 seeded
    b.reset(seed=1)
    assert first(a) != first(b) and a.game_seed != 1
    c = pettingzoo.env("diamonds", players=3)
    c.reset(seed=0)
    c.reset()
    assert first(c) == first(a)                 # the same seed, the same draws
    d, e = pettingzoo.env("diamonds", players=3), pettingzoo.env("diamonds", players=3)
    d.reset()
    e.reset()
    assert d.game_seed != e.game_seed           # unseeded: from the system's entropy
    env = pettingzoo.env("diamonds", players=3, params={"rounds": 1})
    env.reset(seed=2)
    assert env.game_seed == 2
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert info == {}
            env.step(None)
            continue
        assert info["labels"] and all(env.infos[other] == {} for other in env.agents if other != agent)
        env.step(env.table.actions.index[info["labels"][0]])
    assert all(i == {} for i in env.infos.values())


def test_the_examples_of_docs_rl_run(capsys):
    import re
    text = (ROOT / "docs" / "rl.md").read_text()
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)
    assert len(blocks) >= 2
    for block in blocks:
        exec(compile(block, "docs/rl.md", "exec"), {})   # noqa: S102 - our own documentation
    out = capsys.readouterr().out.splitlines()
    assert len(out) >= 2 and out[0].startswith("{'player_0': ") and out[0] != "{}"   # the rewards shown


def _eager_recall(name, players, seed):
    """What each seat saw of each move, recorded move by move as the game is played (the
    reference the adapter's replayed recall must equal), and the option indices taken."""
    import json
    from interpreter.engine.sight import Choice
    from interpreter.play.logs.gamelog import events_out, seen_field
    from interpreter.play.logs.redact import Redactor
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
    game = openspiel.load_game(name, players=3, params={"rounds": 1}, chance="seed")   # (the engine's game of seed 9)
    state = game.new_initial_state()
    state.apply_action(9)
    space = game.table.actions
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


def test_the_adapters_refuse_a_bool_a_float_or_an_array_as_an_action_or_a_seed():
    env = pettingzoo.env("diamonds", players=3, params={"rounds": 1})
    env.reset(seed=5)
    legal = sorted(np.flatnonzero(env.last()[0]["action_mask"]))
    before = env.game_state.to_json()
    one = 1 if 1 in legal else legal[0]
    for bad in (one == 1, float(one), np.array([one]), np.array(one)):   # each == a legal id
        with pytest.raises(ValueError, match=rf"is not legal: an action is an int or a numpy integer, "
                                             rf"not {type(bad).__name__}"):
            env.step(bad)
    assert env.game_state.to_json() == before
    for seed in (1.5, "abc", True, np.float64(2.0)):
        with pytest.raises(TypeError, match=f"a seed is an int or a numpy integer, not {type(seed).__name__}"):
            env.reset(seed=seed)
    env.reset(seed=np.int64(5))
    assert env.game_state.to_json() == before
    game = openspiel.load_game("diamonds", players=3, params={"rounds": 1}, chance="seed")
    state = game.new_initial_state()
    with pytest.raises(ValueError, match=f"the chance node's outcomes are 0..{openspiel.SEEDS - 1}, not 65536"):
        state.apply_action(openspiel.SEEDS)
    assert state.is_chance_node()
    state.apply_action(openspiel.SEEDS - 1)
    assert not state.is_chance_node()


def _play_keeping(env, seed, agents=None):
    """Random play through ``env`` (``agents``: its agent_iter, else the env's own): the agents
    as the iterator gave them, and every observation last() returned, as returned and as copied."""
    env.reset(seed=seed)
    rnd, order, kept = random.Random(seed), [], []
    for agent in (env.agent_iter() if agents is None else agents):
        order.append(agent)
        obs, reward, terminated, truncated, info = env.last()
        kept.append((obs, {k: v.copy() for k, v in obs.items()}))
        seat = env.possible_agents.index(agent)   # the agent's own observation, as the reference encodes it
        assert np.array_equal(obs["observation"], env.table.layout.encode(env.game_state, seat))
        assert list(np.flatnonzero(obs["action_mask"])) == sorted(set(env.legal_ids or ()))
        again = env.observe(agent)                # (asked again at this decision: the same arrays)
        assert all(again[k] is obs[k] for k in obs)
        assert (reward, terminated, truncated, info) == (env._cumulative_rewards[agent], env.terminations[agent],
                                                         env.truncations[agent], env.infos[agent])
        if terminated or truncated:
            env.step(None)
            continue
        S = env.game_state   # the decision's ids and labels, as the action space gives them one by one
        assert env.legal_ids == env.table.actions.ids(S)
        assert info["labels"] == tuple(S.legal_actions()) == env.table.actions.labels_of(env.legal_ids)
        assert info["prompt"] == S.rules.steps[S.stack[-1][0]].prompt and len(info) == 2
        env.step(env.legal_ids[rnd.randrange(len(env.legal_ids))])
    return order, kept


@pytest.mark.parametrize("name,players,params", GAMES[:3] + GAMES[-1:], ids=IDS[:3] + IDS[-1:])
def test_pettingzoo_agent_iter_and_last_are_pettingzoos_and_what_they_returned_stays(name, players, params):
    """The env's own agent_iter and last() (cheaper than AECEnv's) give what AECEnv's give, and
    an observation returned earlier is not changed by later steps (a learner may store it)."""
    from pettingzoo.utils.env import AECIterable
    env = pettingzoo.env(name, players=players, params=params)
    order, kept = _play_keeping(env, 3)
    assert order == _play_keeping(env, 3, AECIterable(env, 2**63))[0]
    assert all(np.array_equal(obs[k], copy[k]) for obs, copy in kept for k in copy)
    assert len({id(obs["observation"]) for obs, _ in kept}) == len(kept)   # (each a fresh array)
    for cap in (0, 1, 7):
        env.reset(seed=3)
        steps = env.agent_iter(cap)
        assert list(steps) == [env.agent_selection] * cap and len(list(iter(steps))) == cap   # (iterable again)
    env.reset(seed=3)
    steps = iter(env.agent_iter())
    next(steps)
    env.reset(seed=4)                       # (a reset in the loop: the iterator follows the new game)
    assert next(steps) == env.agent_selection
    assert _play_keeping(env, 4, steps)[0] == _play_keeping(env, 4)[0]


def test_pettingzoo_env_keeps_its_attributes_in_slots():
    """What a step reads is in slots, not in the instance's dictionary (AECEnv's), which CPython
    reads by a hashed lookup once it holds more than 30 keys: only the class attribute it
    overrides (metadata) is there, and a wrapper may still set attributes of its own."""
    env = pettingzoo.env("diamonds", players=4, params={"rounds": 1})
    env.reset(seed=1)
    for _ in range(5):
        env.last()
        env.step(env.legal_ids[0])
    assert set(vars(env)) == {"metadata"} and env.metadata["name"] == "rulebook_diamonds_v0"
    env.note = 1
    assert env.note == 1


def test_pettingzoo_infos_of_agents_not_acting_are_one_read_only_empty_dict():
    """The agents not acting share one empty info, which refuses writes (no write shows in
    another agent's info); the acting agent's info is its own, and one kept by a learner stays
    as it was returned."""
    env = pettingzoo.env("diamonds", players=4, params={"rounds": 1})
    env.reset(seed=2)
    kept = []
    for _ in range(12):
        obs, _, _, _, info = env.last()
        kept.append((info, dict(info), info["labels"]))
        others = [env.infos[a] for a in env.agents if a != env.agent_selection]
        assert all(isinstance(i, dict) and i == {} for i in others) and len({id(i) for i in others}) == 1
        assert info["labels"] and info is not others[0]
        for write in (lambda i: i.__setitem__("x", 1), lambda i: i.update(x=1), lambda i: i.setdefault("x"),
                      lambda i: i.pop("x", None), lambda i: i.clear()):
            with pytest.raises(TypeError, match="the info of an agent not acting is empty and read-only"):
                write(others[0])
        assert others[0] == {} and dict(others[0]) == {}
        env.step(env.legal_ids[0])
    assert all(info == copy and info["labels"] is labels for info, copy, labels in kept)


@pytest.mark.parametrize("n", [63, pettingzoo.KEPT_MASK, pettingzoo.KEPT_MASK + 1, 4788])
def test_pettingzoo_masks_are_fresh_arrays_of_their_ids_alone(n):
    """A mask is the decision's ids set, a fresh writable int8 array: one returned earlier keeps
    its ids after later masks (kept bytes copied in a small space, fresh bytes in a large one)."""
    mask_of, rnd = pettingzoo._mask_of(n), random.Random(n)
    made = []
    for k in (1, 5, 0, 3, n // 2):
        ids = tuple(rnd.sample(range(n), k))
        m = mask_of(ids)
        assert m.dtype == np.int8 and m.shape == (n,) and m.flags.writeable
        assert not any(np.shares_memory(m, other) for other, _ in made)
        made.append((m, ids))
    for m, ids in made:
        assert sorted(np.flatnonzero(m)) == sorted(ids)
    made[0][0][:] = 1                       # (writing into one leaves the next alone)
    assert not mask_of(()).any()
