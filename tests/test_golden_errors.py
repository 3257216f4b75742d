"""Golden files of broken rulesets: each tests/golden/errors/NN_name.yaml is broken in one
way, and NN_name.expected beside it holds the exact diagnostics ``validate`` prints for it
(tests/golden/warnings/ the same for rulesets that load with warnings).

Paths in the expected text are relative to the repository root (the test runs from there).
A first line ``# golden: --variant NAME`` loads the file with that variant.

Regenerate after a deliberate change of wording, then review every diff by eye:

    RULEBOOK_UPDATE_GOLDEN=1 python -m pytest -q tests/test_golden_errors.py
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

import interpreter
from interpreter.tools.cli import main
from interpreter.errors import RulesetError

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
UPDATE = os.environ.get("RULEBOOK_UPDATE_GOLDEN") == "1"
ERRORS = sorted((GOLDEN / "errors").glob("*.yaml"))
WARNINGS = sorted((GOLDEN / "warnings").glob("*.yaml"))


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def _options(path: Path) -> dict:
    first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    if first.startswith("# golden:"):
        words = first.split(":", 1)[1].split()
        if words[:1] == ["--variant"]:
            return {"variant": words[1]}
    return {}


def diagnostics_text(path: Path) -> str:
    """What validate reports for a golden file, as text (paths relative to the root)."""
    rel = path.relative_to(ROOT).as_posix()
    try:
        rules = interpreter.load(rel, **_options(path))
    except RulesetError as e:
        return "\n".join(d.format() for d in e.diagnostics) + "\n"
    return "\n".join(w.format() for w in rules.warnings) + ("\n" if rules.warnings else "")


def _check(path: Path) -> str:
    got = diagnostics_text(path)
    expected = path.with_suffix(".expected")
    if UPDATE or not expected.exists():
        expected.write_text(got, encoding="utf-8")
        if not UPDATE:
            pytest.fail(f"{expected.name} did not exist: written, review it and commit it")
    assert got == expected.read_text(encoding="utf-8"), f"diagnostics of {path.name} changed"
    return got


@pytest.mark.parametrize("path", ERRORS, ids=[p.stem for p in ERRORS])
def test_broken_ruleset(path):
    got = _check(path)
    rel = path.relative_to(ROOT).as_posix()
    # located in this very file, as an error, and quoting the source line under it
    assert got.startswith(f"{rel}:") and ": error[" in got.splitlines()[0]
    assert "^" in got


@pytest.mark.parametrize("path", WARNINGS, ids=[p.stem for p in WARNINGS])
def test_ruleset_with_warnings(path):
    got = _check(path)
    assert got and "error[" not in got
    assert all(": warning[" in line for line in got.splitlines() if line.startswith("tests/"))


def test_the_corpus_is_large_and_complete():
    assert len(ERRORS) >= 60 and len(WARNINGS) >= 5
    names = [p.stem.split("_", 1)[0] for p in ERRORS]
    assert len(set(names)) == len(names), "two golden files share a number"
    for folder in ("errors", "warnings"):
        for exp in (GOLDEN / folder).glob("*.expected"):
            assert exp.with_suffix(".yaml").exists(), f"{exp.name} has no ruleset"


def test_the_corpus_covers_every_stage():
    codes = set()
    for path in ERRORS:
        text = path.with_suffix(".expected").read_text(encoding="utf-8") if path.with_suffix(".expected").exists() else ""
        codes |= {line.split("error[", 1)[1].split("]", 1)[0] for line in text.splitlines() if "error[" in line}
    for code in ("yaml-syntax", "duplicate-key", "tag", "limit", "schema", "missing-key", "unknown-key",
                 "unknown-name", "type", "arity", "expr-syntax", "cycle", "no-end", "extends", "variant"):
        assert code in codes, f"no golden file shows error[{code}]"


@pytest.mark.parametrize("name", ["unknown_function", "forbidden_python_tag", "unknown_variant"])
def test_the_cli_prints_the_same_diagnostics(name, capsys):
    [path] = (GOLDEN / "errors").glob(f"[0-9][0-9]_{name}.yaml")
    rel = path.relative_to(ROOT).as_posix()
    options = _options(path)
    argv = ["play", rel, "--players", "2", "--variant", options["variant"]] if options else ["validate", rel]
    assert main(argv) == 1
    assert capsys.readouterr().err == path.with_suffix(".expected").read_text(encoding="utf-8")


def test_docs_errors_md_quotes_the_corpus():
    """docs/errors.md draws its examples from the corpus: the names exist, the quotes match."""
    import re
    doc = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    stems = {p.stem for p in [*ERRORS, *WARNINGS]}
    for name in set(re.findall(r"`(?:warnings/)?(\d{2,3}_[a-z_]+)`", doc)):
        assert name in stems, f"docs/errors.md names {name}, which is not in the corpus"
    for block in re.findall(r"```text\n(tests/golden/.*?)```", doc, re.S):
        path = ROOT / block.split(":", 1)[0]
        assert block == path.with_suffix(".expected").read_text(encoding="utf-8")
    codes = set(re.findall(r"^\| `([a-z-]+)`", doc, re.M))
    for path in ERRORS:
        for code in re.findall(r"error\[([a-z-]+)\]", path.with_suffix(".expected").read_text(encoding="utf-8")):
            assert code in codes, f"error[{code}] ({path.name}) is not explained in docs/errors.md"
