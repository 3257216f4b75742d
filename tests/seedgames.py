"""The scaffolding the four seed games' test files share: where a game's ruleset and scenario
file are, its compiled rulesets (cached per variant), its scenarios as pytest cases, the check
that every ruling has a scenario, and random whole games.

    GAME = SeedGame("diams")
    test_scenario = GAME.scenario_test()
    test_every_ruling_has_a_scenario = GAME.ruling_test("DM", 1, 11)
    S, actions = GAME.play_random(players=4, seed=1)
"""
from __future__ import annotations

import random
import re
from functools import cached_property
from pathlib import Path

import pytest
import yaml

import interpreter
from helpers import module_from_file, scenario_outcomes

ROOT = Path(__file__).resolve().parent.parent


def handwritten(name: str):
    """The module of a seed game's hand-written reference program (tests/oracles/), which
    the lockstep tests replay the engine's games with."""
    return module_from_file(f"{name}_handwritten", ROOT / "tests" / "oracles" / f"{name}_handwritten.py")


class SeedGame:
    def __init__(self, name: str):
        self.name = name
        self.ruleset = ROOT / "rulesets" / f"{name}.yaml"
        self.scenarios = ROOT / "rulesets" / "scenarios" / f"{name}.yaml"
        self._rules: dict = {}

    def rules(self, variant: str | None = None):
        """The compiled ruleset (or variant), loaded once per test session."""
        if variant not in self._rules:
            self._rules[variant] = interpreter.load(self.ruleset, variant=variant)
        return self._rules[variant]

    @cached_property
    def outcomes(self) -> list:
        """Every scenario of the game's scenario file, run (rulebook test)."""
        return scenario_outcomes(self.scenarios)

    def scenario_test(self):
        """A test with one case per scenario: each must pass."""
        outcomes = self.outcomes

        @pytest.mark.parametrize("outcome", outcomes, ids=[o.name for o in outcomes])
        def test_scenario(outcome):
            assert outcome.ok, f"{outcome.loc}: {outcome.message}"
        return test_scenario

    def cited_rulings(self) -> str:
        """The ``rule:`` fields of all scenarios, joined (the rulings they prove)."""
        data = yaml.safe_load(self.scenarios.read_text())
        return " ".join(str(sc.get("rule", "")) for sc in data["scenarios"])

    def ruling_test(self, prefix: str, first: int, last: int, elsewhere: tuple = ()):
        """A test that every ruling PREFIX-first .. PREFIX-last is cited by a scenario
        (``elsewhere``: rulings about component data, tested in Python beside it)."""
        def test_every_ruling_has_a_scenario():
            cited = self.cited_rulings()
            missing = [f"{prefix}-{i}" for i in range(first, last + 1)
                       if not re.search(rf"\b{prefix}-{i}\b", cited) and f"{prefix}-{i}" not in elsewhere]
            assert not missing, f"no scenario cites {', '.join(missing)}"
        return test_every_ruling_has_a_scenario

    def play_random(self, players: int, seed: int, variant: str | None = None, check=None,
                    max_decisions: int = 20_000):
        """A whole game with a seeded random agent; ``check(S)`` runs before every decision and
        at the end. Returns (final state, the labels played)."""
        S = self.rules(variant).new_game(players, seed)
        rnd = random.Random(seed * 7919 + players)
        actions = []
        while not S.is_terminal():
            if check is not None:
                check(S)
            legal = S.legal_actions()
            assert legal, f"a pending decision with no options at {S.prompt()!r}"
            a = rnd.choice(legal)
            actions.append(a)
            S.apply(a)
            assert len(actions) < max_decisions, "the game does not end"
        if check is not None:
            check(S)
        return S, actions


def cards_in_play(S) -> list:
    """Every card id in every zone of a state (owned zones flattened)."""
    out = []
    for zone in S.z.values():
        for item in zone:
            out.extend(item if isinstance(item, list) else [item])
    return out
