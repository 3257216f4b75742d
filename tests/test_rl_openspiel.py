"""OpenSpiel's own tools on the adapter: every bundled ruleset registered at import (in a fresh
process and in one that only unpickles), a game type that tells the truth (utility,
max_game_length), ISMCTSBot through resample_from_infostate, and generate_playthrough."""
from __future__ import annotations

import pickle
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="the rl extra (pip install '.[rl]') is not installed")
pytest.importorskip("pyspiel", reason="the rl extra (pip install '.[rl]'): open_spiel is not installed")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import generate_playthrough, ismcts, mcts  # noqa: E402

from helpers import gaining  # noqa: E402
from interpreter.adapters import openspiel  # noqa: E402
from test_rl import deal  # noqa: E402  (an OpenSpiel state's chance nodes played at random)

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = [p.stem for p in sorted((ROOT / "rulesets").glob("*.yaml"))]
SEEDS4 = [("diamonds", 3, {"rounds": 1}), ("diams", 2, {}), ("mister_diamond", 2, {}), ("diamonds_club", 2, {})]


def _run(code: str, stdin: bytes | None = None) -> str:
    done = subprocess.run([sys.executable, "-c", code], input=stdin, capture_output=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    return done.stdout.decode().strip()


def test_every_bundled_ruleset_registers_at_import_in_a_fresh_process():
    out = _run("import pyspiel, interpreter.adapters.openspiel\n"
               "g = pyspiel.load_game('rulebook_diamonds(players=4)')\n"
               "v = pyspiel.load_game('rulebook_diamonds_two_player')\n"
               "names = sorted(n for n in pyspiel.registered_names() if n.startswith('rulebook_'))\n"
               "print(g.num_players(), str(g), v.num_players(), names)")
    players, text, two, names = out.split(" ", 3)
    assert (players, two) == ("4", "2") and text == "rulebook_diamonds(chance=explicit,options={},params={},players=4,reward=win)"
    for name in ("rulebook_diamonds", "rulebook_diams", "rulebook_mister_diamond", "rulebook_diamonds_club",
                 "rulebook_diamonds_teams", "rulebook_diams_closing_last"):
        assert f"'{name}'" in names


def test_a_pickled_game_and_state_load_where_the_adapter_was_never_imported():
    # a worker process (multiprocessing pickles what it hands over) gets the game it was sent
    game = openspiel.load_game("diamonds", players=5, reward="score", params={"rounds": 1})
    state = game.new_initial_state()
    deal(state, 11)
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    out = _run("import pickle, sys\n"
               "game, state = pickle.loads(sys.stdin.buffer.read())\n"
               "print(str(game)); print(state.current_player(), state.legal_actions()); print(game.max_utility())",
               pickle.dumps((game, state)))
    assert out.splitlines() == [str(game), f"{state.current_player()} {state.legal_actions()}", "1000000000.0"]


def test_a_short_name_plays_the_defaults_not_the_latest_settings():
    openspiel.load_game("mister_diamond", players=5, reward="score")
    game = pyspiel.load_game("rulebook_mister_diamond")
    assert game.num_players() == 2 and game.max_utility() == 1.0
    assert str(game) == "rulebook_mister_diamond(chance=explicit,options={},params={},players=2,reward=win)"
    assert pyspiel.load_game(str(game)).num_players() == 2


@pytest.mark.parametrize("name,players,params", SEEDS4, ids=[g for g, _, _ in SEEDS4])
def test_the_game_type_says_what_the_reward_makes_the_game(name, players, params):
    game = openspiel.load_game(name, players=players, params=params)
    ranks_all = game.table.rules.scoring.eligible is None      # Diamonds Club: a seat may be unranked
    Utility = pyspiel.GameType.Utility
    assert game.get_type().utility == (Utility.CONSTANT_SUM if ranks_all else Utility.GENERAL_SUM)
    scored = openspiel.load_game(name, players=players, reward="score", params=params)
    assert scored.get_type().utility == Utility.GENERAL_SUM
    state = game.new_initial_state()
    rng = np.random.RandomState(4)
    moves = 0
    while not state.is_terminal():
        moves += not state.is_chance_node()     # (max_game_length counts decisions, as random_sim_test)
        state.apply_action(rng.choice(state.legal_actions()))
    assert moves <= game.max_game_length()
    if ranks_all:
        assert game.utility_sum() == 1.0 and sum(state.returns()) == pytest.approx(1.0)


# the bundled rulesets whose flow bounds their length (no loop on a condition, fixed counts)
DERIVED = {"euchre", "goofspiel", "hearts", "kuhn_poker", "oh_hell", "spades", "diamonds"}


# docs/rl.md's table of each bundled ruleset's max_game_length: name -> (players, bound, from)
LENGTHS = {m[0]: (int(m[1]), int(m[2]), m[3]) for m in re.findall(
    r"^\| ([a-z_]+) \| (\d+) \| (\d+) \| (flow|random games) \|", (ROOT / "docs" / "rl.md").read_text(), re.M)}


def test_the_docs_give_every_bundled_rulesets_max_game_length():
    assert sorted(LENGTHS) == BUNDLED


@pytest.mark.parametrize("name", BUNDLED)
def test_max_game_length_is_a_bound_no_random_game_exceeds(name):
    from interpreter.adapters.length import LENGTH_GAMES, LENGTH_MARGIN, derived, longest
    game = pyspiel.load_game(f"rulebook_{name}")
    bound = game.max_game_length()
    assert LENGTHS.get(name) == (game.num_players(), bound, game.table.length_from)   # (docs/rl.md's row)
    if name in DERIVED:    # from the flow: no game played to find it, and not absurdly loose
        assert game.table.length_from == "flow" and bound == derived(game.table) < game.table.rules.max_steps
        assert bound <= 10 * longest(game.table, range(LENGTH_GAMES))
    else:                  # a loop on a condition: measured
        assert game.table.length_from == "random games" and derived(game.table) is None
        assert bound == LENGTH_MARGIN * longest(game.table, range(LENGTH_GAMES)) < game.table.rules.max_steps
    # other games than those measured, played through OpenSpiel (chance nodes not counted, as random_sim_test)
    rng = np.random.RandomState(7)
    for _ in range(3):
        state, moves = game.new_initial_state(), 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randint(len(outcomes))][0])
                continue
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
        assert moves <= bound
    assert longest(game.table, range(1000, 1000 + 4 * LENGTH_GAMES)) <= bound


def _decode(row, players: int):
    """A history row of the information-state tensor: (the mover relative to the seat, the
    action's id or None where the seat did not see it)."""
    mover = int(np.flatnonzero(row[:players])[0])
    bits = row[players + 1:]
    return mover, (int(sum(int(b) << k for k, b in enumerate(bits))) if row[players] else None)


@pytest.mark.parametrize("name,players,params", [("kuhn_poker", 2, {}), ("diamonds", 3, {"rounds": 1}),
                                                 ("diams", 2, {})], ids=["kuhn_poker", "diamonds", "diams"])
def test_the_information_state_tensor_is_the_seats_tensor_and_each_decision_as_it_saw_it(name, players, params):
    game = openspiel.load_game(name, players=players, params=params)
    assert game.get_type().provides_information_state_tensor
    size = game.table.layout.size
    (length,) = game.information_state_tensor_shape()
    rows = game.max_game_length()
    assert (length - size) % rows == 0
    state, rng, taken = game.new_initial_state(), random.Random(3), []
    while not state.is_terminal():
        if state.is_chance_node():
            deal(state, rng.randrange(1 << 30))
            continue
        for seat in range(players):
            t = np.array(state.information_state_tensor(seat))
            assert t.shape == (length,) and np.array_equal(t[:size], state.observation_tensor(seat))
            history = t[size:].reshape(rows, -1)
            for k, (mover, action) in enumerate(taken):
                seen_mover, seen_action = _decode(history[k], players)
                assert seen_mover == (mover - seat) % players
                assert seen_action in (action, None) and (seen_action is not None or mover != seat)
            assert not history[len(taken):].any()
        action = rng.choice(state.legal_actions())
        taken.append((state.current_player(), action))
        state.apply_action(action)
    if name == "kuhn_poker":     # every bet is public: each seat saw every action
        for seat in range(2):
            history = np.array(state.information_state_tensor(seat))[size:].reshape(rows, -1)
            assert [_decode(row, 2)[1] for row in history[:len(taken)]] == [a for _, a in taken]


def test_the_information_state_tensor_is_the_same_in_worlds_the_seat_cannot_tell_apart():
    game = openspiel.load_game("diamonds", players=3, params={"rounds": 1})
    state, rng = game.new_initial_state(), random.Random(5)
    while state.is_chance_node() or len(state.history()) < 60:
        if state.is_chance_node():
            deal(state, rng.randrange(1 << 30))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    sampler = iter(np.random.RandomState(2).random_sample(8))
    for _ in range(4):
        world = state.resample_from_infostate(seat, lambda: next(sampler))
        assert world.information_state_tensor(seat) == state.information_state_tensor(seat)
        assert world.information_state_string(seat) == state.information_state_string(seat)
    assert state.information_state_tensor(seat) != state.information_state_tensor((seat + 1) % 3)


def test_openspiels_rl_environment_and_random_sim_test_read_the_information_state_tensor():
    from open_spiel.python import rl_environment
    game = openspiel.load_game("kuhn_poker", players=2)
    # (random_sim_test checks every seat's tensor at every state: its size and finite values)
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)
    env = rl_environment.Environment(game)
    step = env.reset()
    (length,) = game.information_state_tensor_shape()
    assert len(step.observations["info_state"][0]) == length > game.observation_tensor_size()
    while not step.last():
        player = step.observations["current_player"]
        step = env.step([step.observations["legal_actions"][player][0]])
    assert len(step.rewards) == 2


def test_a_two_player_constant_sum_game_passes_exploitabilitys_checks():
    from open_spiel.python.algorithms import exploitability
    game = openspiel.load_game("diams", players=2)
    assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM and game.utility_sum() == 1.0
    # (exploitability walks the whole tree: out of reach here; its refusal of general-sum games is what this checks)
    general = openspiel.load_game("diams", players=2, reward="score")
    with pytest.raises(ValueError, match="constant- or zero-sum"):
        exploitability.exploitability(general, None)


def _diamonds_played(rounds: int, seed: int, moves: int, plays: int):
    """Three-seat Diamonds of ROUNDS rounds dealt from SEED, then MOVES random legal actions
    (numpy's RandomState(PLAYS)): its OpenSpiel state."""
    state = openspiel.load_game("diamonds", players=3, params={"rounds": rounds}).new_initial_state()
    deal(state, seed)
    rng = np.random.RandomState(plays)
    for _ in range(moves):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_resample_from_infostate_keeps_the_seats_information_state_and_deals_the_rest_again():
    state = _diamonds_played(rounds=1, seed=21, moves=8, plays=0)
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0., 1.)
    worlds = [state.resample_from_infostate(seat, sampler) for _ in range(6)]
    other = (seat + 1) % 3
    hands = {str(w.h.state.observation(other)) for w in worlds}
    assert len(hands) > 1                                      # the other seats' cards dealt again
    for w in worlds:
        assert type(w) is type(state) and w.current_player() == seat
        assert w.information_state_string(seat) == state.information_state_string(seat)
        assert w.observation_tensor(seat) == state.observation_tensor(seat)
        assert w.legal_actions() == state.legal_actions()
        w.apply_action(w.legal_actions()[0])                   # and it plays on
        assert w.information_state_string(seat).startswith(state.information_state_string(seat).rsplit("\n", 1)[0])


@pytest.mark.parametrize("name,players,params", SEEDS4, ids=[g for g, _, _ in SEEDS4])
def test_ismcts_bot_plays_a_whole_game(name, players, params):
    game = openspiel.load_game(name, players=players, params=params)
    rng = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=3,
                           random_state=rng)
    state = game.new_initial_state()
    asked = 0
    while not state.is_terminal():          # (evaluate_bots asks restart_at, which ISMCTSBot lacks)
        if state.is_chance_node():
            deal(state, asked)
            continue
        if state.current_player() == 0:
            action = bot.step(state)
            asked += 1
        else:
            action = rng.choice(state.legal_actions())
        assert action in state.legal_actions()
        state.apply_action(action)
    assert asked and len(state.returns()) == players


def test_generate_playthrough_runs_and_shows_every_kind_of_observation():
    openspiel.load_game("diamonds", players=3, params={"rounds": 1})
    text = "\n".join(generate_playthrough.playthrough_lines("rulebook_diamonds(players=3)", seed=5))
    assert "GameType.provides_information_state_tensor = True" in text and "InformationStateTensor(0)" in text
    assert "PublicObservationString() = " in text and "PrivateObservationString(0) = " in text
    assert "Returns() = " in text and "IsTerminal() = True" in text


def _place(S, card):
    for name, zone in S.z.items():
        if zone and isinstance(zone[0], list):
            for owner, cards in enumerate(zone):
                if card in cards:
                    return name, owner
        elif card in zone:
            return name, None
    return None


def test_resample_from_infostate_keeps_in_place_the_hidden_cards_the_seat_knows_the_place_of():
    # after the pass in Diamonds a seat knows where the cards it passed went: every world keeps
    # them there (the game is replayed keeping what each seat knows, then determinized)
    game = openspiel.load_game("diamonds", players=3, params={"rounds": 1}, chance="seed")   # (the engine's game of seed 21)
    state = game.new_initial_state()
    state.apply_action(21)
    rng = np.random.RandomState(0)
    while state.h.state.prompt() != "play" or state.current_player() < 0:
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    K = game.table.new_game(21, knowledge=True)
    for i in state.h.moves:
        K.apply_index(i)
    real = state.h.state
    known = [c for c, seats in K.kn.items() if seats & (1 << seat) and _place(real, c)[1] != seat]
    assert known                                           # the cards it passed, in another hand
    sampler = pyspiel.UniformProbabilitySampler(0., 1.)
    for _ in range(5):
        world = state.resample_from_infostate(seat, sampler).h.state
        assert [_place(world, c) for c in known] == [_place(real, c) for c in known]


def test_a_game_sent_to_a_spawned_worker_plays_there():
    import multiprocessing
    import operator
    from concurrent.futures import ProcessPoolExecutor
    game = openspiel.load_game("diamonds", players=4, params={"rounds": 1})
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        worker = pool.submit(operator.methodcaller("num_distinct_actions"), game).result(timeout=120)
        text = pool.submit(str, game).result(timeout=120)
    assert (worker, text) == (game.num_distinct_actions(), str(game))


@pytest.mark.parametrize("name", sorted(DERIVED))
def test_the_bound_derived_from_the_flow_holds_at_every_player_count(name):
    from interpreter.adapters.common import Table
    from interpreter.adapters.length import derived, longest
    rules = pyspiel.load_game(f"rulebook_{name}").table.rules
    for players in rules.player_counts:
        table = Table(name, players)
        bound = derived(table)
        most = longest(table, range(40))
        assert most <= bound <= 10 * most, (players, most, bound)


COUNTED = """
game: counted
players: {min: 2, max: 3}
params: {laps: 3}
vars: {x: {type: int, start: 0}}
counters: {n: {owner: player}}
flow:
  - repeat: "params.laps"
    steps:
      - turns:
          steps:
            - choose: {options: "[1, 2]", as: x}
            - gain: {counter: n, amount: x}
LOOP
scoring: {categories: {n: n}}
"""


def test_a_count_fixed_by_the_settings_is_derived_and_a_loop_on_a_condition_is_measured(tmp_path):
    from interpreter.adapters.common import Table
    from interpreter.adapters.length import derived
    path = tmp_path / "counted.yaml"
    path.write_text(COUNTED.replace("LOOP\n", ""))
    assert derived(Table(path, 2)) == 3 * 2 and derived(Table(path, 3, params={"laps": 5})) == 5 * 3
    game = openspiel.load_game(str(path), players=3)
    assert game.max_game_length() == 9 and game.table.length_from == "flow"
    # a count read from the state bounds nothing, nor does a loop on a condition
    path.write_text(COUNTED.replace("LOOP\n", "").replace('"params.laps"', '"x + 1"'))
    assert derived(Table(path, 2)) is None
    path.write_text(COUNTED.replace("LOOP\n", "  - until: \"x == 1\"\n    steps:\n"
                                               "      - choose: {who: 0, options: \"[1, 2]\", as: x}\n"))
    assert derived(Table(path, 2)) is None
    assert openspiel.load_game(str(path), players=2).table.length_from == "random games"


def test_a_pass_whose_count_and_givers_the_settings_fix_asks_each_giver_its_count():
    # Hearts: four givers of 3 cards each, then the tricks of its 52 cards (a pass once a card
    # of the deck would give 52 + 52); Diamonds' count is a seat's choice: once a card
    from interpreter.adapters.common import Table
    from interpreter.adapters.length import derived, longest
    hearts = Table("hearts", 4)
    assert derived(hearts) == 4 * 3 + 52 >= longest(hearts, range(40))
    assert derived(Table("diamonds", 3)) == 6 * (1 + 60 + 60)


def test_a_resampled_world_plays_on_with_the_chance_of_its_draw_and_no_chance_node():
    # docs/rl.md: a world drawn by resample_from_infostate is one sampled world: its undrawn
    # cards put in an order when it is drawn, its later chance (the next round's shuffle) its
    # own RNG's, both from the sampler's draw: the same draw gives the same world and chance
    state = _diamonds_played(rounds=2, seed=5, moves=12, plays=1)
    worlds = [state.resample_from_infostate(0, lambda draw=draw: draw) for draw in (0.25, 0.25, 0.75)]
    dealt = []
    for w in worlds:
        assert not getattr(w.h.state.z["deck"], "u", 0)       # (no position left to draw)
        plays, rounds = np.random.RandomState(2), []
        while not w.is_terminal():
            assert not w.is_chance_node() and w.chance_outcomes() == []
            if w.h.state.v["round"] == 2 and not rounds:
                rounds.append(w.h.state.digest())             # round 2's deal, made inside a move
            w.apply_action(plays.choice(w.legal_actions()))
        dealt.append((rounds, w.returns()))
    assert dealt[0] == dealt[1] and dealt[0][0] != dealt[2][0]


def test_perfect_recall_of_a_move_past_the_events_a_log_keeps_plays_on(tmp_path, monkeypatch):
    # a log stops a game at more than MAX_EVENTS events between two decisions; the recall that
    # replays each move with its events keeps the first MAX_EVENTS and marks the move truncated
    # (not how many more: the hidden ones would count), and the game goes on as it plays
    from interpreter.adapters import recall
    from interpreter.engine import events
    monkeypatch.setattr(events, "MAX_EVENTS", 20)
    path = tmp_path / "g.yaml"
    told = {}
    for count in (20, 30):
        path.write_text("game: g\nplayers: {min: 1, max: 1}\ncounters:\n  c: 0\nflow:\n"
                        "  - choose: {who: 0, options: \"[1, 2]\", as: x}\n"
                        f"  - repeat: {count}\n    steps:\n      - gain: {{counter: c}}\n"
                        "  - choose: {who: 0, options: \"[1, 2]\", as: x}\n")
        state = openspiel.load_game(str(path), players=1).new_initial_state()
        state.apply_action(state.legal_actions()[0])
        told[count] = state.information_state_string(0)
        assert not state.is_terminal() and state.legal_actions()
    assert recall.TRUNCATED not in told[20]
    assert recall.TRUNCATED in told[30] and told[30].count('"gain"') == 20


def test_perfect_recall_keeps_the_events_a_log_keeps_over_the_whole_game(tmp_path, monkeypatch):
    # a recall kept each move's events whatever the game had recalled before (5.66 MB a move a
    # seat, some 4.5 GB a seat over a game): it keeps the game's first MAX_GAME_EVENTS (of at most
    # MAX_GAME_EVENT_SIZE), as a log does, and marks every move past them truncated, the game
    # playing on
    from interpreter.adapters import recall
    from interpreter.engine import events
    monkeypatch.setattr(events, "MAX_GAME_EVENTS", 25)
    path = tmp_path / "g.yaml"
    path.write_text(gaining(5))
    state = openspiel.load_game(str(path), players=1).new_initial_state()
    told = []
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
        told.append(state.information_state_string(0))
    assert state.is_terminal()
    assert [t.count('"gain"') for t in told] == [10, 20, 25, 25, 25]
    assert [t.count(recall.TRUNCATED) for t in told] == [0, 0, 1, 2, 3]
    monkeypatch.setattr(events, "MAX_GAME_EVENT_SIZE", 500)   # (a gain as recalled: 56 characters, and ", ")
    state = openspiel.load_game(str(path), players=1).new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    gain = '{"amount": 1, "counter": "c", "ev": "gain", "who": null}'
    assert state.information_state_string(0).count(gain) == (500 - 2) // (len(gain) + 2)
