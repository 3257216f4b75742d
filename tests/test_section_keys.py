"""The builder checks the keys of scoring:, a trigger and board: against their tables of keys
(mechanics/contract.py), the ones the schema and the reference are written from: a key the
schema let through (a ruleset built without it) gets the same located error, listing the table."""
from __future__ import annotations

import pytest

from interpreter.building.builder import Builder
from interpreter.errors import RulesetError
from interpreter.loading.variants import load_data
from interpreter.mechanics.contract import BOARD_KEYS, SCORING_KEYS, TRIGGER_KEYS, key_names

RULESET = """\
game: x
players: {min: 2, max: 2}
components:
  spot: {cards: [{name: a}, {name: b}], label: "{name}"}
zones:
  hand: {owner: player}
counters:
  points: {owner: player}
board: {positions: spot, adjacent: "true"}
triggers:
  t: {on_enter: hand, do: []}
scoring:
  categories: {base: points}
flow: []
"""


def _unknown_keys(tmp_path, where, key) -> list:
    path = tmp_path / "g.yaml"
    path.write_text(RULESET)
    loaded = load_data(path)
    node = loaded.data
    for k in where:
        node = node[k]
    node[key] = True   # past the schema, which reported it on load
    builder = Builder(loaded)
    try:
        builder.build()
    except RulesetError:
        pass   # (its diagnostics are the builder's)
    return [d for d in builder.diags if d.code == "unknown-key"]


@pytest.mark.parametrize("where, keys", [(("scoring",), SCORING_KEYS), (("triggers", "t"), TRIGGER_KEYS),
                                         (("board",), BOARD_KEYS)])
def test_the_builder_checks_a_sections_keys_against_its_table(tmp_path, where, keys):
    [d] = _unknown_keys(tmp_path, where, "xyzzy")
    assert d.message == "unknown key 'xyzzy'"
    assert d.hint == f"accepted keys: {', '.join(key_names(keys))}"
    assert not _unknown_keys(tmp_path, where, keys[-1].name)
