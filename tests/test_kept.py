"""What loading keeps between loads (loading/kept.py): trees, code objects, rewritten
conditions and checked files, by the text they were made from. Kept results are shared, so
the tests check that what is kept is what a fresh load gives, that an edited file is read
again, and that nobody's changes reach what the next load gets."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import interpreter
from interpreter.expr.parser import ExprError, parse
from interpreter.loading.kept import Kept, compiled
from interpreter.loading.variants import load_data

ROOT = Path(__file__).resolve().parent.parent
LITTLE = ROOT / "docs" / "examples" / "little_tricks.yaml"


def test_a_store_is_bounded_by_the_sizes_it_keeps():
    store, made = Kept(10), []

    def make(v):
        made.append(v)
        return v * 2
    assert store.get("a", lambda: make(1), 4) == 2
    assert store.get("a", lambda: make(9), 4) == 2 and made == [1]   # kept: not made again
    store.get("b", lambda: make(2), 4)
    assert len(store) == 2 and store.size == 8
    store.get("c", lambda: make(3), 4)            # past the bound: the rest dropped
    assert len(store) == 1 and store.size == 4
    assert store.get("a", lambda: make(5), 4) == 10 and made == [1, 2, 3, 5]


def test_an_error_is_raised_every_time_and_never_kept():
    store = Kept(100)

    def fail():
        raise ValueError("no")
    for _ in range(2):
        with pytest.raises(ValueError):
            store.get("x", fail, 1)
    assert len(store) == 0
    for _ in range(2):   # a syntax error is the same located error each time
        with pytest.raises(ExprError, match="unexpected"):
            parse("count(hand where)")


def test_a_text_is_parsed_once_and_its_tree_is_the_fresh_parse():
    text = "count(hand where rank == 3 and suit != 'H') > params.n"
    tree = parse(text)
    assert parse(text) is tree
    assert parse(text + " ") is not tree and parse(text + " ") == tree   # (equal trees, another text)


def test_code_is_compiled_once_a_source_and_file_name():
    code = compiled("lambda x: x + 1", "<t>", "eval")
    assert compiled("lambda x: x + 1", "<t>", "eval") is code
    assert compiled("lambda x: x + 1", "<u>", "eval") is not code
    assert eval(code)(1) == 2   # noqa: S307 - the test's own source
    with pytest.raises(SyntaxError):
        compiled("lambda x:", "<t>", "eval")


def test_a_file_edited_between_two_loads_is_read_again(tmp_path):
    path = tmp_path / "little.yaml"
    shutil.copy(LITTLE, path)
    assert interpreter.load(path).new_game(4, 1).p["exact_bonus"] == 5
    path.write_text(path.read_text().replace("exact_bonus: 5", "exact_bonus: 7"))
    assert interpreter.load(path).new_game(4, 1).p["exact_bonus"] == 7
    path.write_text(path.read_text().replace("exact_bonus: 7", "exact_bonus: [7"))
    with pytest.raises(interpreter.RulesetError):   # the broken text is reported, not the kept one
        interpreter.load(path)


def test_a_load_gets_its_own_data_whatever_the_previous_one_did_with_its(tmp_path):
    for keep_ids in (True, False):
        first = load_data(LITTLE, keep_ids=keep_ids)
        first.data["params"]["exact_bonus"] = 99
        first.data["flow"].clear()
        again = load_data(LITTLE, keep_ids=keep_ids)
        assert again.data["params"]["exact_bonus"] == 5 and again.data["flow"]


def test_a_ruleset_loaded_again_plays_the_same_games():
    first = interpreter.load(LITTLE)
    again = interpreter.load(LITTLE)
    for seed in range(3):
        a, b = first.new_game(4, seed), again.new_game(4, seed)
        while not a.over:
            a.apply_index(seed % len(a.dec[1]))
            b.apply_index(seed % len(b.dec[1]))
        assert a.to_json() == b.to_json()


def test_the_grammar_tables_are_kept_only_in_a_folder_of_this_users_own(tmp_path, monkeypatch):
    from interpreter.loading.resources import cache_file
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_file("g.lark") == str(tmp_path / "rulebook" / "g.lark")
    assert (tmp_path / "rulebook").stat().st_mode & 0o777 == 0o700
    (tmp_path / "rulebook").chmod(0o777)            # others may write in it: not used
    assert cache_file("g.lark") is None
    (tmp_path / "rulebook").chmod(0o700)
    monkeypatch.setenv("RULEBOOK_NO_CACHE", "1")
    assert cache_file("g.lark") is None
    monkeypatch.delenv("RULEBOOK_NO_CACHE")
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))   # cannot be made: none
    assert cache_file("g.lark") is None


def test_a_damaged_or_stale_grammar_cache_is_built_again(tmp_path, monkeypatch):
    from interpreter.expr import parser
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    kept = tmp_path / "rulebook" / "expression-grammar.lark"
    text = "count(hand where rank == 3) > 0"
    want = parser._parsed(text)
    try:
        for damage in (None, b"not a cache\n", b"", b"0" * 64 + b"\n\x80\x04garbage"):
            parser._parser.cache_clear()
            if damage is not None:
                kept.write_bytes(damage)
            assert parser._parser().parse(text) == want
            assert kept.is_file() and kept.stat().st_size > 1000   # (written again, whole)
    finally:
        parser._parser.cache_clear()


def _load_in_child(path, cache) -> dict:
    """What a new process that loads ``path`` with the cache folder ``cache`` imports and says."""
    import json
    import os
    import subprocess
    import sys
    code = ("import sys, json, interpreter\n"
            "try:\n    interpreter.load(sys.argv[1]); ok = True\n"
            "except interpreter.RulesetError as e:\n    ok = str(e)\n"
            "print(json.dumps({'ok': ok, 'jsonschema': 'jsonschema' in sys.modules}))")
    env = {k: v for k, v in os.environ.items() if k != "RULEBOOK_NO_CACHE"}
    env.update(XDG_CACHE_HOME=str(cache), PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, env=env,
                          check=True)
    return json.loads(done.stdout)


def test_a_text_that_passed_the_schema_is_not_checked_again_in_a_new_process(tmp_path):
    path = tmp_path / "little.yaml"
    shutil.copy(LITTLE, path)
    assert _load_in_child(path, tmp_path / "cache") == {"ok": True, "jsonschema": True}
    assert _load_in_child(path, tmp_path / "cache") == {"ok": True, "jsonschema": False}   # remembered
    assert _load_in_child(path, tmp_path / "other") == {"ok": True, "jsonschema": True}    # (another folder)
    path.write_text(path.read_text().replace("exact_bonus: 5", "exact_bonus: 6"))           # edited: checked
    assert _load_in_child(path, tmp_path / "cache") == {"ok": True, "jsonschema": True}
    path.write_text(path.read_text().replace("players: {min: 3, max: 4}", "players: {min: 3, most: 4}"))
    for _ in range(2):   # a text that fails is never remembered: its errors every time
        found = _load_in_child(path, tmp_path / "cache")
        assert "most" in found["ok"] and found["jsonschema"]


def test_passes_are_kept_by_schema_and_data_and_a_damaged_file_is_ignored(tmp_path, monkeypatch):
    from interpreter.loading import schema as sch
    from interpreter.loading.source import SourceMap
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    (tmp_path / "rulebook").mkdir(mode=0o700)
    (tmp_path / "rulebook" / "schema-passed").write_text("garbage\n" + "z" * 64 + "\n")
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "mini.json").write_text('{"type": "object", "required": ["a"]}')
    monkeypatch.setattr(sch, "resource_dir", lambda kind: tmp_path / "s")
    sch._passed.cache_clear()
    try:
        mini = sch.load_schema("mini.json")
        assert sch.check_schema({"a": 1}, SourceMap.empty(), mini) == []
        lines = (tmp_path / "rulebook" / "schema-passed").read_text().split()
        assert len(lines) == 3 and len(lines[-1]) == 64
        assert sch.check_schema({"b": 1}, SourceMap.empty(), mini)            # other data: checked
        (tmp_path / "s" / "other.json").write_text('{"type": "object", "required": ["b"]}')
        assert sch.check_schema({"a": 1}, SourceMap.empty(), sch.load_schema("other.json"))   # other schema
    finally:
        sch._passed.cache_clear()
        sch._schema.cache_clear()
