"""Bad input never gives a traceback: mutated copies of the real rulesets (characters
inserted or deleted, lines duplicated or dropped, values of the wrong type) either load and
play, or fail with a located RulebookError. Fixed seeds: the same mutations every run."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import interpreter
from interpreter.errors import RulebookError

RULESETS = sorted((Path(__file__).resolve().parent.parent / "rulesets").glob("*.yaml"))
TOKENS = ["{", "}", "[", "]", ":", "-", "'", '"', "  ", "\n", "x", "0", "none", "players", "me", "count(",
          ")", "where", "*", "$replace", "null", "true", "[]", "{}", "1..3"]
VALUES = ["[]", "{}", "3", "null", "'x'", "[1, 2]", "{a: 1}", "true", "-1"]


def mutate(text: str, rnd: random.Random) -> str:
    lines = text.split("\n")
    for _ in range(rnd.randint(1, 3)):
        k = rnd.randrange(len(lines))
        line, op = lines[k], rnd.random()
        if op < 0.3 and line:
            j = rnd.randrange(len(line))
            lines[k] = line[:j] + rnd.choice(TOKENS) + line[j:]
        elif op < 0.5 and line:
            j = rnd.randrange(len(line))
            lines[k] = line[:j] + line[j + rnd.randint(1, 5):]
        elif op < 0.7:
            lines[k] = lines[rnd.randrange(len(lines))]
        elif op < 0.85:
            del lines[k]
        elif ": " in line:
            lines[k] = line.split(": ", 1)[0] + ": " + rnd.choice(VALUES)
    return "\n".join(lines)


@pytest.mark.parametrize("seed", range(8))
def test_mutated_rulesets_load_or_fail_cleanly(tmp_path, seed):
    rnd = random.Random(seed)
    for i in range(25):
        source = rnd.choice(RULESETS)
        path = tmp_path / source.name
        path.write_text(mutate(source.read_text(), rnd))
        try:
            rules = interpreter.load(path)
            S = rules.new_game(rules.min_players, seed=i)
            for _ in range(200):
                if S.is_terminal():
                    break
                S.apply_index(rnd.randrange(len(S.legal_actions())))
        except RulebookError as e:
            assert e.diagnostics and str(e)
