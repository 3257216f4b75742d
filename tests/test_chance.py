"""Explicit chance in the OpenSpiel adapter (adapters/chance.py): each random event of a game a
chance node with its real outcomes. The poker twins' chance nodes are OpenSpiel's own, node for
node; a seat's first hand leaves the other hands open; an algorithm that enumerates chance
(CFR, best responses) finds OpenSpiel's values on kuhn_poker.yaml."""
from __future__ import annotations

import pickle
import random

import pytest

pytest.importorskip("numpy", reason="the rl extra (pip install '.[rl]') is not installed")
pytest.importorskip("pyspiel", reason="the rl extra (pip install '.[rl]'): open_spiel is not installed")

import pyspiel  # noqa: E402
from open_spiel.python import policy as os_policy  # noqa: E402
from open_spiel.python.algorithms import cfr, exploitability  # noqa: E402

from interpreter.adapters import chance, openspiel  # noqa: E402

TWINS = [("kuhn_poker", 2), ("kuhn_poker", 3), ("leduc_poker", 2), ("leduc_poker", 3)]


def _label(state, action: int) -> str:
    return state.action_to_string(state.current_player(), action)


@pytest.mark.parametrize("name,players", TWINS)
def test_the_poker_twins_chance_nodes_are_openspiels_own(name, players):
    # both games played in step with seeded random choices: at every chance node the same
    # outcomes (the cards still in the deck, by their ids) with the same probabilities, the
    # same moves at every decision, and the same chips won at the end
    ours = openspiel.load_game(name, players=players, reward="score", chance="explicit")
    theirs = pyspiel.load_game(name, {"players": players})
    nodes = 0
    for seed in range(20):
        rng = random.Random(seed)
        s, o = ours.new_initial_state(), theirs.new_initial_state()
        while not o.is_terminal():
            assert s.is_chance_node() == o.is_chance_node() and s.current_player() == o.current_player()
            if o.is_chance_node():
                assert s.chance_outcomes() == o.chance_outcomes()
                nodes += 1
                a = rng.choice(o.chance_outcomes())[0]
                s.apply_action(a)
                o.apply_action(a)
                continue
            labels = {_label(s, a): a for a in s.legal_actions()}
            os_labels = {_label(o, a): a for a in o.legal_actions()}
            assert sorted(labels) == sorted(os_labels)
            pick = rng.choice(sorted(labels))
            s.apply_action(labels[pick])
            o.apply_action(os_labels[pick])
        assert s.is_terminal() and s.returns() == o.returns()
    assert nodes >= 20 * players


def _setup(state, rng, keep=frozenset(), kept=None):
    """Play the setup's chance nodes: an outcome in ``keep`` where the original game (``kept``:
    its outcomes, in order) drew one, else one drawn at random outside ``keep``."""
    drawn = []
    while state.is_chance_node():
        outcomes = [a for a, _ in state.chance_outcomes()]
        was = kept[len(drawn)] if kept is not None and len(drawn) < len(kept) else None
        if was in keep:
            a = was
        else:
            a = rng.choice([a for a in outcomes if a not in keep])
        drawn.append(a)
        state.apply_action(a)
    return drawn


@pytest.mark.parametrize("name,players,params", [("diamonds", 3, {"rounds": 1}), ("kuhn_poker", 3, {})])
def test_a_seats_first_hand_leaves_the_other_hands_open(name, players, params):
    # the way a seed was found from a seat's first hand: the worlds consistent with what seat 0
    # saw of the deal are many, and the other seats' hands differ between them
    game = openspiel.load_game(name, players=players, params=params, chance="explicit")
    state = game.new_initial_state()
    drawn = _setup(state, random.Random(0))
    seen = state.information_state_string(0)
    mine = set(state.h.state.z["hand"][0])
    others = set()
    rng = random.Random(1)
    for _ in range(12):
        world = game.new_initial_state()
        _setup(world, rng, mine, drawn)
        if world.information_state_string(0) == seen:    # a world seat 0 cannot tell from the game
            others.add(tuple(tuple(sorted(h)) for h in world.h.state.z["hand"][1:]))
    assert len(others) > 1


def test_a_deck_is_drawn_one_card_at_a_time_when_a_card_leaves_it():
    # Leduc: the two private cards at the start, the public card only after the first betting
    # round, among the four cards left; the rest of the deck is never drawn
    game = openspiel.load_game("leduc_poker", players=2, chance="explicit")
    state = game.new_initial_state()
    assert state.is_chance_node() and [a for a, _ in state.chance_outcomes()] == [0, 1, 2, 3, 4, 5]
    state.apply_action(5)
    assert [a for a, _ in state.chance_outcomes()] == [0, 1, 2, 3, 4]
    state.apply_action(0)
    assert not state.is_chance_node() and state.h.state.z["hand"] == [[5], [0]]
    deck = state.h.state.z["deck"]
    assert isinstance(deck, chance.Pile) and deck.u == 4
    for _ in range(2):   # both call: the first round is over, the public card is drawn
        state.apply_action([a for a in state.legal_actions() if _label(state, a) == "Call"][0])
    assert state.is_chance_node() and state.chance_outcomes() == [(a, 0.25) for a in (1, 2, 3, 4)]
    assert _label(state, 3) == "card 1b"
    with pytest.raises(ValueError, match="no outcome of this chance node"):
        state.apply_action(5)   # (a card dealt already)
    state.apply_action(3)
    assert state.h.state.z["board"] == [3] and state.h.state.z["deck"].u == 3


def test_a_state_mid_move_clones_pickles_and_serializes_with_its_draws():
    game = openspiel.load_game("diamonds", players=3, params={"rounds": 1}, chance="explicit")
    state = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(5):
        state.apply_action(rng.choice(state.legal_actions()))
    copy = pickle.loads(pickle.dumps(state))
    again = game.deserialize_state(state.serialize())
    for other in (state.clone(), copy, again):
        assert other.chance_outcomes() == state.chance_outcomes() and other.history() == state.history()
    while not state.is_terminal():
        a = rng.choice(state.legal_actions())
        for s in (state, copy, again):
            s.apply_action(a)
    assert copy.returns() == again.returns() == state.returns()
    assert copy.information_state_string(1) == state.information_state_string(1)


def test_cfr_and_best_responses_find_openspiels_values_on_kuhn_poker():
    # an algorithm that enumerates chance sees the same game: the uniform policy's NashConv,
    # and CFR's average policy after a few iterations, equal on the ruleset and on OpenSpiel's
    ours = openspiel.load_game("kuhn_poker", players=2, reward="score", chance="explicit")
    theirs = pyspiel.load_game("kuhn_poker")
    values = []
    for game in (ours, theirs):
        uniform = exploitability.nash_conv(game, os_policy.UniformRandomPolicy(game))
        solver = cfr.CFRSolver(game)
        for _ in range(8):
            solver.evaluate_and_update_policy()
        values.append((uniform, exploitability.nash_conv(game, solver.average_policy())))
    assert values[0] == pytest.approx(values[1], abs=1e-9)
    assert values[1][0] > values[1][1] > 0


def test_the_seed_is_no_chance_node_of_explicit_chance_and_seed_chance_stays():
    explicit = openspiel.load_game("kuhn_poker", players=2, chance="explicit")
    seeded = openspiel.load_game("kuhn_poker", players=2, chance="seed")
    assert explicit.max_chance_outcomes() == chance.MAX_DRAW and seeded.max_chance_outcomes() == openspiel.SEEDS
    assert len(seeded.new_initial_state().chance_outcomes()) == openspiel.SEEDS
    assert len(explicit.new_initial_state().chance_outcomes()) == 3
    assert "chance=explicit" in str(explicit) and str(pyspiel.load_game(str(explicit))) == str(explicit)
    with pytest.raises(Exception, match="chance is one of explicit, seed, not 'dice'"):
        openspiel.load_game("kuhn_poker", players=2, chance="dice")


def test_a_roll_is_a_node_of_the_attempts_outcomes_and_a_random_draw_one_of_the_lists_places():
    # Mister Diamond: each roll's outcomes with the chances the ruleset gives (they add up to 1),
    # and the outcome applied is the attempt's result; Diamonds: the start player drawn from
    # the players, each equally likely
    game = openspiel.load_game("mister_diamond", players=2)
    attempt = next(step for step in game.table.rules.steps if hasattr(step, "chances"))
    state, rng, rolls = game.new_initial_state(), random.Random(2), 0
    while not state.is_terminal() and rolls < 12:
        if not state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        outcomes = state.chance_outcomes()
        if state.pend[2].kind == "roll":
            assert sum(p for _, p in outcomes) == pytest.approx(1.0) and len(outcomes) > 1
            for a, _ in outcomes:
                tried = state.clone()
                tried.apply_action(a)
                while tried.is_chance_node():
                    tried.apply_action(tried.chance_outcomes()[0][0])
                name = attempt.outcomes[a].name
                assert tried.h.state.v["result"] == name and _label(state, a) == f"roll {name}"
                rolls += 1
        state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
    assert rolls >= 12
    diamonds = openspiel.load_game("diamonds", players=3, params={"rounds": 1})
    for first in range(3):
        state = diamonds.new_initial_state()
        assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
        state.apply_action(first)
        deal = state.clone()
        while deal.is_chance_node():
            deal.apply_action(deal.chance_outcomes()[0][0])
        assert deal.h.state.v["start_player"] == first


def test_a_shuffled_zone_a_seat_sees_is_drawn_whole_when_shuffled():
    # Diamonds Club's strips lie face up: their order is seen at once, so it is drawn at the
    # shuffle, a node a position; a face-down deck stays undrawn until read
    game = openspiel.load_game("diamonds_club", players=2)
    state, rng = game.new_initial_state(), random.Random(0)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    S = state.h.state
    for name in ("dark_strips", "light_strips"):
        assert type(S.z[name]) is list and len(S.z[name]) > 1
    leduc = openspiel.load_game("leduc_poker", players=2).new_initial_state()
    while leduc.is_chance_node():
        leduc.apply_action(leduc.chance_outcomes()[0][0])
    assert type(leduc.h.state.z["deck"]) is chance.Pile


def test_a_whole_zone_read_draws_every_position_and_a_deal_only_the_cards_it_takes():
    # docs/rl.md, Chance: Diamonds deals 10 cards to each of 3 seats from its 60 (a node for the
    # start player, one a card dealt), its 30 other cards never drawn; Diam's setup moves its
    # shuffled stock whole (15 cards under the closing card, the other 38 onto the pile) and
    # the 16 under them: every position drawn before the first decision (a node a card, the
    # last of each block forced), where its deal and market read 9
    def setup(name, players):
        state, rng, nodes = openspiel.load_game(name, players=players).new_initial_state(), random.Random(0), 0
        while state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            nodes += 1
        return nodes, state.h.state.z
    nodes, z = setup("diamonds", 3)
    assert nodes == 1 + 30 and z["deck"].u == len(z["deck"]) == 30
    nodes, z = setup("diams", 2)
    assert nodes == 1 + 15 + 37 + 15 and not any(getattr(zone, "u", 0) for zone in z.values())
    assert sum(map(len, z["hand"])) + len(z["market"]) == 9


def test_explicit_chance_leaves_the_rulesets_built_after_it_alone():
    """Explicit chance swaps the random source in its ruleset's own code, not in the modules of
    the step kinds every ruleset shares: a ruleset built after it in the process is the one a
    fresh process builds (its attempt's roll named the oracle's draw, a full test run's module
    text differed from `rulebook compile`'s)."""
    import interpreter
    before = interpreter.load(interpreter.ruleset_path("mister_diamond")).module_source
    chance.explicit(interpreter.load(interpreter.ruleset_path("mister_diamond")))
    assert interpreter.load(interpreter.ruleset_path("mister_diamond")).module_source == before
