"""The search agents on a card chosen in secret and left in the hand until it is placed.

A simultaneous choice of a card of one's hand, revealed into a public variable, the cards
placed one by one after another decision: a determinization must leave each revealed card
where the rules will look for it (engine/knowledge.py), and ``ismcts`` must survive a sampled
game that breaks on the first visit of a new option (play/agents/search.py).
"""
from __future__ import annotations

import random

from helpers import load_text, tiny_ruleset
from interpreter.play.agents import choose, make_agents

SECRET = tiny_ruleset("""
  hand: {owner: player, visible: owner, sorted: true}
  row: {}
counters:
  points: {owner: player}
vars:
  pick: "list[card]"
  act: str
flow:
  - shuffle: deck
  - deal: {from: deck, to: hand, count: 4}
  - repeat: 4
    steps:
      - choose: {options: hand, as: pick, prompt: play, simultaneous: true}
      - choose: {who: 0, options: "['a', 'b']", as: act, prompt: wait}
      - for_each:
          in: players
          as: me
          do:
            - gain: {counter: points, amount: "pick[me].n"}
            - move: {from: hand, to: row, cards: "[pick[me]]"}
scoring:
  categories:
    total: points
""", game="secret", players=(2, 4), card="card", attributes="n: 1..20", label="c{n}")

# an option whose game always breaks (a division by zero in the rules)
BOOM = """
game: boom
players: {min: 2, max: 2}
counters:
  points: {owner: player}
vars:
  act: str
  zero: {type: int, start: 0}
flow:
  - choose: {who: 0, options: "['safe', 'boom']", as: act, prompt: go}
  - if: "act == 'boom'"
    then: [{set: {zero: "1 // zero"}}]
  - gain: {counter: "points[0]", amount: 1}
scoring:
  categories:
    total: points
"""


def test_a_determinization_leaves_a_revealed_card_in_its_owners_hand(tmp_path):
    rules = load_text(tmp_path, SECRET)
    S = rules.new_game(3, 1, knowledge=True)
    for _ in range(3):                      # the three secret choices: revealed into pick
        S.apply_index(0)
    assert S.prompt() == "wait"
    picks = S.v["pick"]
    assert all(c in S.z["hand"][p] for p, c in enumerate(picks))
    rng = random.Random(1)
    for _ in range(30):
        D = S.determinize(1, rng)
        assert all(c in D.z["hand"][p] for p, c in enumerate(picks))
        D.apply_index(0)                    # the cards are placed from the hands that hold them
        assert all(c in D.z["row"] for c in picks)
    # the other cards of the hidden hands are still dealt again
    assert {tuple(S.determinize(1, rng).z["hand"][0]) for _ in range(20)} != {tuple(S.z["hand"][0])}


def test_ismcts_and_greedy_play_it_to_the_end(tmp_path):
    rules = load_text(tmp_path, SECRET)
    for seed in (1, 2):
        agents = make_agents("ismcts:iterations=25,greedy:samples=2,ismcts:iterations=25", 3, seed)
        S = rules.new_game(3, seed, knowledge=True)
        while not S.is_terminal():
            S.apply_index(choose(agents[S.current_player()], S, S.current_player()))
        assert S.winners()
        assert agents[0].failures == agents[2].failures == 0   # no sampled game broke


def test_ismcts_counts_a_sampled_game_that_breaks_as_lost(tmp_path):
    rules = load_text(tmp_path, BOOM)
    agent = make_agents("ismcts:iterations=10,random", 2, 0)[0]
    S = rules.new_game(2, 0, knowledge=True)
    assert S.legal_actions()[choose(agent, S, 0)] == "safe"
    assert agent.failures > 0
