"""The generated module and its plain reference play mutated rulesets alike
(tests/fuzzing/lockstep.py): copies of the bundled rulesets and examples, one data mutation
half the time and a small step budget two times in three, each played by both in lockstep: the
same states (step count and frames included), options and events after every decision, the same
error at the same decision, and the same state after it. Fixed seeds: the same cases every run;
`python benchmarks/fuzz.py --lockstep N` runs long campaigns (docs/fuzzing.md)."""
from __future__ import annotations

import random

import pytest

from fuzzing.limits import bounded_campaign
from fuzzing.lockstep import Mismatch, make_lockstep_case, run_lockstep
from fuzzing.rulesets import SOURCES, Case

CASE_SECONDS = 20


@pytest.mark.parametrize("seed", range(4))
def test_mutated_rulesets_play_alike_in_the_module_and_its_reference(tmp_path, seed):
    outcomes = bounded_campaign(make_lockstep_case, run_lockstep, f"lockstep:{seed}", 30, tmp_path, CASE_SECONDS)
    assert outcomes["played"] + outcomes["budget"] + outcomes["game-error"] >= 8, outcomes


def test_the_cases_stop_games_on_their_budget():
    """Two cases in three carry a small budget; enough of them stop a game mid-flow."""
    cases = [make_lockstep_case(random.Random(f"budgets:{i}")) for i in range(60)]
    assert sum(any("budget" in m for m in c.mutations) for c in cases) >= 30
    assert any(any(": budget" not in m for m in c.mutations) for c in cases if c.mutations)   # data mutations too


def _planted(monkeypatch, plant) -> Case:
    """A case of Mister Diamond, seed 1, whose module's state class gets the methods ``plant``
    makes of it (a fault planted; the reference keeps its own class)."""
    import fuzzing.lockstep as lockstep
    load = lockstep.interpreter.load

    def planted(*args, **kw):
        rules = load(*args, **kw)
        for name, method in plant(rules.layout.cls).items():
            monkeypatch.setattr(rules.layout.cls, name, method)
        return rules
    monkeypatch.setattr(lockstep.interpreter, "load", planted)
    source = next(p for p in SOURCES if p.name == "mister_diamond.yaml")
    return Case({source.name: source.read_text(encoding="utf-8")}, source.name, seed=1)


def test_a_module_that_counts_otherwise_is_caught(tmp_path, monkeypatch):
    """A planted fault: the module counts one step more at each decision; the lockstep sees it
    at the first decision."""
    def plant(cls):
        apply = cls.apply_index

        def counted(S, i):
            S.steps += 1
            return apply(S, i)
        return {"apply_index": counted}
    with pytest.raises(Mismatch, match="the states differ after 1 decisions"):
        run_lockstep(_planted(monkeypatch, plant), tmp_path)


def test_a_write_into_a_table_shared_with_a_clone_is_caught(tmp_path, monkeypatch):
    """A planted fault: the module's states never take their own copy of a table before writing
    it (State.own), so a clone's moves land in the original too; the lockstep keeps the originals
    and finds them changed."""
    def own(S, name):   # (no copy: the list stays shared with the clone)
        S.sh.discard(name)
        return getattr(S, S.rules.layout.of[name])
    with pytest.raises(Mismatch, match="playing the clone changed the module's original"):
        run_lockstep(_planted(monkeypatch, lambda cls: {"own": own}), tmp_path)
