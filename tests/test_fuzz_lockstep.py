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
    assert outcomes["played"] + outcomes["budget"] + outcomes["game-error"] + outcomes["effect-error"] >= 8, outcomes


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


def test_a_module_whose_moves_leave_the_record_stale_is_caught(tmp_path, monkeypatch):
    """A planted fault: the module's decisions leave the record of each card's zone as it was
    before their moves (the reference keeps it); the lockstep sees it at the first decision that
    moves a card between recorded zones, before anything reads it."""
    def plant(cls):
        apply = cls.apply_index

        def forgetful(S, i):
            kept = S.at[:]
            apply(S, i)
            S.at = kept
            return S
        return {"apply_index": forgetful}
    with pytest.raises(Mismatch, match=r"stale in the module after \d+ decisions: card \S+ is in "):
        run_lockstep(_planted(monkeypatch, plant), tmp_path)


@pytest.mark.parametrize("kept", ["record", "views"])
def test_a_move_that_forgets_the_record_in_both_is_caught(tmp_path, monkeypatch, kept):
    """A planted fault in the generator both sides share (mechanics/cards.py): every move writes
    the record of each card's zone, or the views, into a copy thrown away. The module and its
    reference agree, both wrong; each state checked against its zones shows it."""
    import interpreter.mechanics.cards as cards
    from interpreter.expr.names import RECORD, VIEWS
    write, key = cards.record_writable, {"record": RECORD, "views": VIEWS}[kept]
    monkeypatch.setattr(cards, "record_writable", lambda writes, k=RECORD: (
        ("S.at[:]" if k == RECORD else "[view[:] for view in S.vw]") if k == key else write(writes, k)))
    with pytest.raises(Mismatch, match=r"stale in both after \d+ decisions: "
                       + ("card" if kept == "record" else "the view of fake_spots \\+ real_spots holds \\S+, not in its zones")):
        run_lockstep(_planted(monkeypatch, lambda cls: {}), tmp_path)


def test_a_clone_that_forgets_a_shared_table_is_caught_at_once(tmp_path, monkeypatch):
    """A planted fault: the module's clone shares the record of each card's zone with its
    original without naming it in its ``sh``; caught at the clone, before a write lands in the
    original."""
    from interpreter.expr.names import RECORD

    def plant(cls):
        clone = cls.clone

        def forgetful(S):
            C = clone(S)
            C.sh.discard(RECORD)
            return C
        return {"clone": forgetful}
    with pytest.raises(Mismatch, match=r"the module's clone holds the lists of the record as the other does, not named in its sh"):
        run_lockstep(_planted(monkeypatch, plant), tmp_path)
