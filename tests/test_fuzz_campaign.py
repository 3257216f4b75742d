"""benchmarks/fuzz.py: a case that crashes, hangs or disagrees is counted, written to --out
and replayed from there; the rest of the campaign goes on. The failures are planted (the
case runner patched before the workers fork)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def fuzz(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import fuzz
    return fuzz


def test_failing_cases_are_counted_saved_and_replayed(fuzz, monkeypatch, tmp_path, capsys):
    if sys.platform == "win32":
        pytest.skip("the planted failures reach the workers by fork")
    real = fuzz.run_case

    def planted(case, folder, decisions=200):
        if case.seed % 3 == 0:
            raise ZeroDivisionError("planted")
        if case.seed % 3 == 1:
            while True:   # processor time: the case's time bound counts it
                pass
        return real(case, folder, decisions)
    monkeypatch.setattr(fuzz, "run_case", planted)
    out = tmp_path / "failures"
    code = fuzz.main(["--rulesets", "6", "--expressions", "0", "--seed", "3", "--jobs", "2",
                      "--timeout", "1", "--out", str(out)])
    shown = capsys.readouterr().out
    assert code == 1
    saved = sorted(out.iterdir())
    verdicts = [json.loads((p / "case.json").read_text())["verdict"] for p in saved]
    assert "crash" in verdicts and "hang" in verdicts and set(verdicts) == {"crash", "hang"}, verdicts
    assert f"{verdicts.count('crash')} crashes, {verdicts.count('hang')} hangs, 0 mismatches" in shown
    assert "6 mutated rulesets" in shown
    crash = next(p for p, v in zip(saved, verdicts) if v == "crash")
    assert "ZeroDivisionError: planted" in json.loads((crash / "case.json").read_text())["detail"]
    assert {p.name for p in crash.glob("*.yaml")} >= {json.loads((crash / "case.json").read_text())["main"]}
    monkeypatch.setattr(fuzz, "run_case", real)   # replayed with the real runner: the case itself is sound
    assert fuzz.main(["--replay", str(crash)]) == 0
    assert "(was crash)" in capsys.readouterr().out


def test_a_mismatch_is_saved_with_its_expression(fuzz, monkeypatch, tmp_path, capsys):
    from fuzzing.differential import Verdict, World
    monkeypatch.setattr(World, "check", lambda self, text: Verdict("mismatch", text, "planted"))
    out = tmp_path / "failures"
    assert fuzz.main(["--rulesets", "0", "--expressions", "2", "--seed", "1", "--jobs", "1", "--out", str(out)]) == 1
    assert "0 crashes, 0 hangs, 2 mismatches" in capsys.readouterr().out
    saved = json.loads((out / "expression-1-0.json").read_text())
    assert saved["verdict"] == "mismatch" and saved["detail"] == "planted" and saved["text"]


@pytest.mark.parametrize("kind,flag,label", [("lockstep", "--lockstep", "lockstep games"),
                                             ("flow", "--flows", "random flows")])
def test_a_lockstep_mismatch_is_saved_and_replayed(fuzz, monkeypatch, tmp_path, capsys, kind, flag, label):
    if sys.platform == "win32":
        pytest.skip("the planted failures reach the workers by fork")
    real = fuzz.run_lockstep

    def planted(case, folder, decisions=200):
        if case.seed % 2 == 0:
            raise fuzz.Mismatch("planted: the states differ after 3 decisions")
        return real(case, folder, decisions)
    monkeypatch.setattr(fuzz, "run_lockstep", planted)
    out = tmp_path / "failures"
    code = fuzz.main(["--rulesets", "0", "--expressions", "0", flag, "6", "--seed", "2", "--jobs", "1",
                      "--out", str(out)])
    shown = capsys.readouterr().out
    saved = sorted(out.iterdir()) if out.exists() else []
    assert code == (1 if saved else 0) and f"6 {label}" in shown
    assert saved, "no case of an even seed among six"   # (the seeds are drawn: six give some even one)
    info = json.loads((saved[0] / "case.json").read_text())
    assert info["kind"] == kind and info["verdict"] == "mismatch" and "planted" in info["detail"]
    assert f"0 crashes, 0 hangs, {len(saved)} mismatches" in shown
    assert (saved[0] / info["main"]).exists()
    monkeypatch.setattr(fuzz, "run_lockstep", real)   # replayed with the real runner: the module agrees
    assert fuzz.main(["--replay", str(saved[0])]) == 0
    assert "(was mismatch)" in capsys.readouterr().out
