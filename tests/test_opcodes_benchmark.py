"""benchmarks/opcodes.py --agent: the opcodes counted are the agent's decisions, by function."""
import sys
from pathlib import Path

import interpreter

ROOT = Path(__file__).resolve().parent.parent


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
    # greedy samples the hidden cards, plays each option on a clone and evaluates it
    assert {"knowledge.py:determinize", "state.py:clone", "evaluation.py:evaluate"} <= keys, sorted(keys)
    random_counts, made = opcodes.count_agent(rules, 4, "random", skip=25, decisions=2)
    # a random choice (its observation and the labels included) looks nothing ahead: fewer
    # opcodes than greedy's sample and clone an option, and none of them in a clone
    assert made == 2 and sum(random_counts.values()) < sum(counts.values())
    assert not any(key.startswith("state.py:") and key.endswith(":clone") for key in random_counts)
