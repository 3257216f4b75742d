"""Bad input never gives a traceback, nor a hang: mutated copies of the real rulesets and of
the documentation's examples (tests/fuzzing/rulesets.py: characters inserted or deleted,
lines duplicated or dropped, values of the wrong type, keys dropped, numbers made huge,
expressions swapped or cut, `extends:` pointed elsewhere) either load and play, or fail with
a located RulebookError, each within a time bound. Fixed seeds: the same cases every run;
benchmarks/fuzz.py runs long campaigns (docs/fuzzing.md)."""
from __future__ import annotations

import random
import time

import pytest

from fuzzing.limits import Hang, bounded_campaign, time_limit
from fuzzing.rulesets import SOURCES, make_case, run_case

CASE_SECONDS = 10


@pytest.mark.parametrize("seed", range(8))
def test_mutated_rulesets_load_or_fail_cleanly(tmp_path, seed):
    outcomes = bounded_campaign(make_case, run_case, f"test:{seed}", 25, tmp_path, CASE_SECONDS)
    assert outcomes["played"] + outcomes["game-error"] >= 2, outcomes   # some still load and play


def test_the_cases_cover_every_source_and_kind_of_mutation():
    cases = [make_case(random.Random(f"cover:{i}")) for i in range(200)]   # a "number" is 1 in 40
    assert {c.main for c in cases} == {p.name for p in SOURCES}
    kinds = {m.split(": ")[1] for c in cases for m in c.mutations}
    assert kinds == {"text", "drop", "duplicate", "expression", "number", "extends", "type", "copy"}, kinds
    assert any(c.variant for c in cases) and any(len(c.files) > 1 for c in cases)
    again = make_case(random.Random("cover:7"))
    assert (again.files, again.variant, again.seed) == (cases[7].files, cases[7].variant, cases[7].seed)


def test_an_unmutated_ruleset_plays(tmp_path):
    case = make_case(random.Random(0))
    where = {p.name: p for p in SOURCES}   # the unmutated files, wherever they come from
    case.files = {name: where[name].read_text(encoding="utf-8") for name in case.files}
    case.variant = None
    assert run_case(case, tmp_path) == "played"


def test_a_case_past_its_time_bound_is_a_hang():
    start = time.perf_counter()
    with pytest.raises(Hang):
        with time_limit(0.2):
            while True:
                pass
    assert time.perf_counter() - start < 2


def test_a_saved_failing_case_is_replayed_with_its_own_seed(tmp_path):
    """benchmarks/fuzz.py saves a failing ruleset case as its files and case.json; the replay
    must play the same game: the case's seed, not the campaign's (the campaign's seed once
    overwrote it, and the crash it had saved replayed as another game)."""
    import importlib.util
    from pathlib import Path
    spec = importlib.util.spec_from_file_location("fuzz_bench", Path(__file__).resolve().parent.parent / "benchmarks" / "fuzz.py")
    fuzz = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fuzz)
    case = make_case(random.Random("saved:1"))
    result = {"kind": "ruleset", "index": 1, "verdict": "crash", "seconds": 0.1,
              "case": fuzz._case_data(case)}
    folder = fuzz.save_failure(tmp_path, 77, result)
    import json
    info = json.loads((folder / "case.json").read_text(encoding="utf-8"))
    assert info["seed"] == case.seed != 77 and info["campaign_seed"] == 77
    assert {p.name: p.read_text(encoding="utf-8") for p in folder.glob("*.yaml")} == case.files


@pytest.mark.parametrize("campaign,index", [(29, 1249)])
def test_the_ruleset_cases_long_campaigns_found_play_cleanly(tmp_path, monkeypatch, campaign, index):
    """Cases a campaign (benchmarks/fuzz.py --seed CAMPAIGN) found crashing, fixed since: 29/1249,
    Diam's without its triggers, whose closing card reaches a hand that may not hold it (a
    determinization found no deal: now a GameError)."""
    import fuzzing.rulesets
    # the files the campaign mutated: the seed games and the examples (a case is chosen among
    # the sources, so a ruleset bundled since would make the same seed another case)
    monkeypatch.setattr(fuzzing.rulesets, "SOURCES", [p for p in SOURCES if p.parent.name == "examples"
                                                      or p.stem in ("diamonds", "diamonds_club", "diams", "mister_diamond")])
    case = make_case(random.Random(f"{campaign}:ruleset:{index}"))
    assert case.main == "diams.yaml"
    # the case as the campaign made it: Diam's with its triggers: section taken out (the seed's
    # mutation itself lands elsewhere once the file's text changes, as titles added to it do)
    text = next(p for p in SOURCES if p.name == "diams.yaml").read_text(encoding="utf-8")
    start, end = text.index("\ntriggers:") + 1, text.index("\nsetup:") + 1
    case.files = {"diams.yaml": text[:start] + text[end:]}
    with time_limit(CASE_SECONDS):
        assert run_case(case, tmp_path) in ("played", "game-error")
