import sys; MODE = sys.argv[1]
import time, numpy as np, pyspiel
from open_spiel.python.algorithms import generate_playthrough, ismcts, mcts, evaluate_bots
from open_spiel.python.bots import uniform_random
from interpreter.adapters import openspiel
for name, n, params in [("diamonds", 3, {"rounds": 1}), ("diams", 2, {}), ("mister_diamond", 2, {}), ("diamonds_club", 2, {}), ("docs/examples/sealed_bids.yaml", 3, {}), ("docs/examples/little_tricks.yaml", 3, {})]:
    g = openspiel.load_game(name, players=n, params=params, chance=MODE)
    t = time.process_time()
    pyspiel.random_sim_test(g, num_sims=2, serialize=True, verbose=False)
    t1 = time.process_time()
    rng = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(g, mcts.RandomRolloutEvaluator(1, rng), uct_c=2, max_simulations=10, random_state=rng)
    state = g.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            o = state.chance_outcomes(); state.apply_action(o[rng.randint(len(o))][0])
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    r = state.returns()
    t2 = time.process_time()
    print(name, "random_sim_test %.2fs" % (t1 - t), "ismcts %.2fs" % (t2 - t1), r, flush=True)
lines = generate_playthrough.playthrough_lines("rulebook_diamonds(players=3,chance=explicit)", seed=5)
print(len(lines)); print("\n".join(l for l in lines[:80] if "card" in l or "chance" in l.lower())[:1500])
