"""benchmarks/opcodes.py --agent: the opcodes counted are the agent's decisions, by function."""
import sys
from pathlib import Path

import pytest

import interpreter
from interpreter.accel import loaded

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(loaded()["engine.state"], reason="counts engine/state.py's Python opcodes: the compiled tier runs it as C")
def test_an_agents_opcodes_are_counted_where_its_decisions_spend_them():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import opcodes
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    rules = interpreter.load(interpreter.ruleset_path("diamonds"))
    counts, made = opcodes.count_agent(rules, 4, "greedy", skip=25, decisions=2)
    assert made == 2
    keys = {key.split(":")[0] + ":" + key.split(":")[-1] for key in counts}
    # greedy samples the hidden cards, plays each option on a clone (the ruleset's own, written by
    # engine/layout.py) and evaluates it
    assert {"knowledge.py:determinize", "<layout>:clone", "evaluation.py:evaluate"} <= keys, sorted(keys)
    random_counts, made = opcodes.count_agent(rules, 4, "random", skip=25, decisions=2)
    # a random choice (its observation and the labels included) looks nothing ahead: fewer
    # opcodes than greedy's sample and clone an option, and none of them in a clone
    assert made == 2 and sum(random_counts.values()) < sum(counts.values())
    assert not any(key.endswith(":clone") for key in random_counts)


def test_opcodes_are_compared_with_the_handwritten_program_by_prompt():
    """benchmarks/versus_handwritten.py --by-prompt: each side's opcodes are given to the prompt
    last asked (the start of a game apart), and the rows add up to the game."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import versus_handwritten
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    table = versus_handwritten.by_prompt("diams", 1, 3)
    game = table.pop("(a game)")
    start = table.pop("(start)")
    assert start["opcodes"][0] > 0 and start["opcodes"][1] > 0
    for side in (0, 1):
        decisions = sum(row["decisions"][side] for row in table.values())
        assert decisions == game["decisions"][side] > 100
        work = start["opcodes"][side] + sum(row["opcodes"][side] * row["decisions"][side] for row in table.values())
        assert abs(work - game["opcodes"][side]) < 1e-6 * game["opcodes"][side]
    # both ask Diam's decisions by the ruleset's prompts: the common ones are on both sides
    assert {"draw", "action", "give", "take"} <= {p for p, row in table.items() if min(row["decisions"]) > 0}
    text = versus_handwritten._prompt_rows(versus_handwritten.by_prompt("diamonds", 1, 3), "Diamonds", 1)
    assert "(any)" in text and "play" in text   # the Diamonds program names no prompts: one row


def test_mister_diamond_is_measured_on_the_same_games_on_both_sides():
    """benchmarks/versus_handwritten.py chooses as the hand-written programs do (game g: its own
    random.Random(seed + g)); Mister Diamond's program asks the ruleset's decisions with the
    same options, so each game is the same game on both sides: as long, with the same scores."""
    sys.path[:0] = [str(ROOT / "benchmarks"), str(ROOT / "tests" / "oracles")]
    try:
        import versus_handwritten
        from mister_diamond_handwritten import Game
    finally:
        del sys.path[:2]
    rules = interpreter.load(interpreter.ruleset_path("mister_diamond"))
    for g in range(5):
        ours = versus_handwritten.interpreted(rules, 1, 40 + g)["decisions"]
        theirs = Game(4, 40 + g)
        scores = theirs.play()
        assert ours == theirs.decisions > 10
        S = rules.new_game(4, seed=40 + g)
        rnd = versus_handwritten.random.Random(40 + g)
        while not S.over:
            S.apply_index(rnd.randrange(len(S.dec[1])))
        assert list(S.scores()) == scores
