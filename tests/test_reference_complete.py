"""docs/reference.md covers every construct the interpreter registers, so that a feature
nobody can find does not exist: every step kind, effect kind and top-level section, every
built-in function (there or in docs/language.md §6), the game API and the log format."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import interpreter.building  # noqa: F401  (registers every mechanic)
from interpreter.expr.builtins import BUILTINS
from interpreter.loading.schema import load_schema
from interpreter.mechanics.base import EFFECT_KINDS, SECTIONS, STEP_KINDS

DOCS = Path(__file__).resolve().parent.parent / "docs"
REFERENCE = (DOCS / "reference.md").read_text(encoding="utf-8")
LANGUAGE = (DOCS / "language.md").read_text(encoding="utf-8")
STEP_TABLE = REFERENCE[REFERENCE.index("## Flow and steps"):REFERENCE.index("### phase")]
TOP_TABLE = REFERENCE[REFERENCE.index("## Top-level keys"):REFERENCE.index("## Players and teams")]


@pytest.mark.parametrize("kind", sorted(STEP_KINDS) + ["if"])
def test_every_step_kind_is_in_the_step_table(kind):
    assert f"| `{kind}`" in STEP_TABLE or f"`{kind}` /" in STEP_TABLE or f"/ `{kind}`" in STEP_TABLE


@pytest.mark.parametrize("kind", sorted(EFFECT_KINDS))
def test_every_effect_kind_is_documented(kind):
    assert f"`{kind}`" in REFERENCE or f"- {kind}:" in REFERENCE


@pytest.mark.parametrize("key", sorted(set(load_schema()["properties"]) | set(SECTIONS)))
def test_every_top_level_key_is_in_the_table(key):
    assert f"`{key}`" in TOP_TABLE


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_every_function_is_specified(name):
    pattern = re.compile(rf"`{name}\(")
    assert pattern.search(REFERENCE) or pattern.search(LANGUAGE)


@pytest.mark.parametrize("api", ["current_player()", "legal_actions()", "apply(", "apply_index(", "observation(",
                                 "clone()", "determinize(", "is_terminal()", "scores()", "winners()"])
def test_the_game_api_is_documented(api):
    assert api in REFERENCE


def test_every_event_the_bundled_games_log_is_in_the_event_table():
    import random

    import interpreter
    logs = REFERENCE[REFERENCE.index("## Game logs"):]
    table = logs[logs.index("| `ev` |"):logs.index("`seen_by` (on a decision")]
    kinds = set()
    for name in ("diamonds", "diams", "mister_diamond", "diamonds_club"):
        rules = interpreter.load(interpreter.ruleset_path(name))
        rnd = random.Random(1)
        S = rules.new_game(4, seed=1, record=True)
        while not S.is_terminal():
            S.apply_index(rnd.randrange(len(S.dec[1])))
        kinds |= {e["ev"] for e in S.ev}
    assert len(kinds) > 15
    assert not [k for k in sorted(kinds) if f"`{k}`" not in table]


def test_the_keys_of_each_kind_are_the_generated_ones():
    """The reference's "Keys of each kind" is written from the kinds' tables of keys, the same
    ones the builder checks: run ``python -m interpreter.tools.schema_gen`` after changing one."""
    from interpreter.tools.schema_gen import KEYS_END, KEYS_START, keys_reference
    section = REFERENCE[REFERENCE.index(KEYS_START):REFERENCE.index(KEYS_END) + len(KEYS_END)]
    assert section == keys_reference(), "run: python -m interpreter.tools.schema_gen"
    for kind, cls in sorted(STEP_KINDS.items()):
        for key in cls.keys:
            assert f"**`{kind}`** (step)" in section and f"| `{key.name}` |" in section


def test_the_keys_section_follows_a_table_that_changes():
    from interpreter.mechanics.contract import Key
    from interpreter.tools.schema_gen import keys_reference
    pick = STEP_KINDS["pick"]
    saved = pick.keys
    try:
        pick.keys = (*saved, Key("undo", "bool", "take back a card"))
        assert "| `undo` | bool |  | take back a card |" in keys_reference()
    finally:
        pick.keys = saved


@pytest.mark.parametrize("name", ["zone", "counter", "variable", "parameter", "scoring", "trigger",
                                  "board", "requirement"])
def test_the_keys_of_each_section_are_the_generated_ones(name):
    """The tables of the keys of a zone, a counter, a variable, scoring:, a trigger and board: are written from the tables the
    schema is (mechanics/contract.py): run ``python -m interpreter.tools.schema_gen`` after changing one."""
    from interpreter.tools.schema_gen import SECTION_TABLES, section_markers, section_reference
    start, end = section_markers(name)
    assert REFERENCE.count(start) == 1, f"docs/reference.md has no table of {name} keys"
    table = REFERENCE[REFERENCE.index(start):REFERENCE.index(end) + len(end)]
    assert table == section_reference(name), "run: python -m interpreter.tools.schema_gen"
    assert all(f"| `{key.name}` |" in table for key in SECTION_TABLES[name])


def test_a_sections_table_follows_its_keys(monkeypatch):
    from interpreter.mechanics.contract import ZONE_KEYS, Key
    from interpreter.tools import schema_gen
    monkeypatch.setitem(schema_gen.SECTION_TABLES, "zone", (*ZONE_KEYS, Key("capacity", "int", "how many it holds")))
    assert "| `capacity` | int |  | how many it holds |" in schema_gen.section_reference("zone")
    assert "| `capacity` |" in schema_gen.with_keys(REFERENCE)
