"""Small valid rulesets with random flows (tests/fuzzing/flows.py) play alike in their generated
module and in its plain reference (tests/fuzzing/lockstep.py): sequences, turns, loops, ifs,
phases, chooses, branches, picks, attempts and effect lists (declared effects among them, some
calling others) nested at random, with costly conditions, expressions that raise now and then
(inside declared effects too: located at the item that failed and the items that called it, both
ways alike), end conditions, triggers and small step budgets. Fixed seeds: the same cases every run; `python benchmarks/fuzz.py
--flows N` runs long campaigns (docs/fuzzing.md)."""
from __future__ import annotations

import collections
import random

import pytest

import interpreter
from fuzzing.flows import make_flow_case
from fuzzing.limits import bounded_campaign
from fuzzing.lockstep import run_lockstep
from interpreter.errors import RulebookError

CASE_SECONDS = 20
SEEDS, CASES = 4, 30


def _campaign(seed: int, folder, cases: int = CASES) -> collections.Counter:
    return bounded_campaign(make_flow_case, run_lockstep, f"flows:{seed}", cases, folder, CASE_SECONDS)


@pytest.mark.parametrize("seed", range(SEEDS))
def test_random_flows_play_alike_in_the_module_and_its_reference(tmp_path, seed):
    outcomes = _campaign(seed, tmp_path)
    assert outcomes["refused"] <= CASES // 5, outcomes   # at least 80% load
    assert outcomes["played"] >= CASES // 2, outcomes
    assert outcomes["effect-error"] >= 1, outcomes   # an error inside a declared effect, located alike


def test_the_campaign_stops_games_on_budgets_and_errors(tmp_path):
    """Among the seeded cases some games stop on the step budget and some on a runtime error
    of the rules, inside a declared effect or not, both at the same decision and in the same
    state both ways (and at the same item, called from the same items)."""
    outcomes = _campaign(SEEDS + 1, tmp_path, 40)
    assert outcomes["budget"] >= 3 and outcomes["game-error"] >= 1 and outcomes["effect-error"] >= 1, outcomes


def test_the_flows_hold_the_specialised_constructs(tmp_path):
    """The cases load (most of them), hold each construct the generators specialise, and some
    step carries a budget charge for its costly expressions; some keep a record of each card's
    zone and views (building/record.py), which the lockstep checks against the zones."""
    seen, loaded, charged, recorded, views = collections.Counter(), 0, 0, 0, 0
    for i in range(60):
        case = make_flow_case(random.Random(f"shapes:{i}"))
        seen.update(case.mutations[0].split(", "))
        (tmp_path / case.main).write_text(case.files[case.main], encoding="utf-8")
        try:
            rules = interpreter.load(tmp_path / case.main)
        except RulebookError:
            continue
        loaded += 1
        charged += any(s.charge > 0 for s in rules.steps)
        recorded, views = recorded + bool(rules.names.recorded), views + bool(rules.names.views)
    assert loaded >= 48 and charged >= 5 and recorded >= 6 and views >= 2, (loaded, charged, recorded, views)
    for what in ("attempt", "branch", "costly", "declared", "raising", "end_game", "end_when", "for_each", "if-step",
                 "loop", "nested", "pool-loop", "triggers", "turns", "union", "who-none"):
        assert seen[what] >= 3, (what, seen)
    assert sum(n for w, n in seen.items() if w.startswith("budget ")) >= 30


def test_a_turns_reading_each_seat_s_me_in_a_branch_s_alternative_loads(tmp_path):
    """A case holding, in a branch's alternative, a turns whose skip: reads points (each seat's
    me, not the branch's) and an attempt with an actor: loads and plays alike both ways."""
    case = make_flow_case(random.Random("rv54"))
    assert "skip: points > 2" in case.files[case.main]
    assert run_lockstep(case, tmp_path) != "refused"
