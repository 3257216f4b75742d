"""The schema documents every step and effect kind the interpreter knows (for editors)."""
import json

from interpreter.loading.resources import resource_dir
from interpreter.tools.schema_gen import updated


def test_schema_lists_every_registered_kind():
    schema = json.loads((resource_dir("schemas") / "ruleset.schema.json").read_text())
    assert updated(schema) == schema, "run: python -m interpreter.tools.schema_gen"
    step = schema["$defs"]["step"]["properties"]
    for kind in ("tricks", "pass", "branch", "pick", "turns", "gain", "move", "attempt", "grid", "pay"):
        assert step[kind]["description"]
    assert schema["properties"]["flow"]["items"] == {"$ref": "#/$defs/step"}


def test_the_schema_documents_each_kinds_keys_from_its_table():
    """Editors complete ``tricks: {hand: ...}``: each key of a kind's table (mechanics/contract.py
    Key) is in the schema with its doc, and a key added to a table changes the generated schema."""
    from interpreter.mechanics import STEP_KINDS
    from interpreter.mechanics.base import EFFECT_KEYS
    from interpreter.mechanics.contract import Key
    schema = json.loads((resource_dir("schemas") / "ruleset.schema.json").read_text())
    step, effect = schema["$defs"]["step"]["properties"], schema["$defs"]["effect"]["properties"]
    for kind in ("tricks", "choose", "grid", "turns"):
        inside = [k for k in STEP_KINDS[kind].keys if k.place != "beside"]
        assert inside and list(step[kind]["properties"]) == [k.name for k in inside]
    assert "the public zone" in step["tricks"]["properties"]["table"]["description"]
    assert step["pass"]["properties"]["players"]["default"] == "players"
    # a mapping of names to mappings: each entry's keys complete too (branch: options: {draw: {if: ...}})
    assert list(step["branch"]["properties"]["options"]["additionalProperties"]["properties"]) == ["if", "steps", "doc"]
    assert list(step["attempt"]["properties"]["target"]["properties"]) == ["from", "as", "prompt", "doc"]
    assert list(effect["move"]["properties"]) == [k.name for k in EFFECT_KEYS["move"]]
    tricks = STEP_KINDS["tricks"]
    saved = tricks.keys
    try:
        tricks.keys = (*saved, Key("undo", "bool", "take back a card"))
        assert "undo" in updated(schema)["$defs"]["step"]["properties"]["tricks"]["properties"]
    finally:
        tricks.keys = saved


def test_the_schema_checks_each_sections_keys_from_its_table(monkeypatch):
    """A zone's, a counter's, a variable's, a parameter's and a trigger's keys, scoring:'s and board:'s are the
    schema's (which reports a misspelt one) as their tables (mechanics/contract.py) declare them,
    with their values, defaults and required keys; a key added to a table is accepted by the
    schema written from it."""
    from interpreter.mechanics.contract import (BOARD_KEYS, COUNTER_KEYS, PARAM_KEYS, SCORING_KEYS, TRIGGER_KEYS,
                                                VAR_KEYS, ZONE_KEYS, Key)
    from interpreter.tools import schema_gen
    schema = json.loads((resource_dir("schemas") / "ruleset.schema.json").read_text())
    props = schema["properties"]
    zone = props["zones"]["additionalProperties"]
    counter = props["counters"]["additionalProperties"]["anyOf"][1]
    var = props["vars"]["additionalProperties"]["anyOf"][1]
    trigger = props["triggers"]["additionalProperties"]
    for entry, keys in ((zone, ZONE_KEYS), (counter, COUNTER_KEYS), (var, VAR_KEYS), (props["scoring"], SCORING_KEYS),
                        (trigger, TRIGGER_KEYS), (props["board"], BOARD_KEYS),
                        (props["params"]["additionalProperties"]["anyOf"][1], PARAM_KEYS)):
        assert entry["additionalProperties"] is False
        assert list(entry["properties"]) == [k.name for k in keys]
        assert entry.get("required", []) == [k.name for k in keys if k.required]
    assert trigger["required"] == ["do"] and props["board"]["required"] == ["positions"]
    assert zone["properties"]["owner"]["enum"] == ["none", "player", "team", "card"]
    assert zone["properties"]["owner"]["default"] == "none" and zone["properties"]["sorted"]["type"] == "boolean"
    assert counter["properties"]["start"]["default"] == 0 and var["properties"]["type"]["default"] == "any"
    assert props["scoring"]["properties"]["lowest_wins"] == {
        "description": SCORING_KEYS[-1].doc, "type": "boolean", "default": False}
    assert props["scoring"]["properties"]["tiebreak"]["items"]["type"][0] == "string"   # each an expression
    monkeypatch.setitem(schema_gen.ENTRY_KEYS, "zones",
                        ((*ZONE_KEYS, Key("capacity", "int", "how many cards it holds", json={"type": "integer"})),
                         ("additionalProperties",)))
    new = updated(schema)["properties"]["zones"]["additionalProperties"]["properties"]
    assert new["capacity"] == {"description": "how many cards it holds", "type": "integer"}


def test_players_teams_limits_and_view_are_checked_from_their_tables():
    """players:, teams:, limits: and view: are written from their tables like the other sections: the
    schema refuses a misspelt key (also inside view: colors and board), requires what the table
    requires, and the reference shows each table."""
    import jsonschema
    from interpreter.mechanics.contract import LIMITS_KEYS, PLAYERS_KEYS, TEAMS_KEYS, VIEW_KEYS
    from interpreter.tools.schema_gen import section_reference
    schema = json.loads((resource_dir("schemas") / "ruleset.schema.json").read_text())
    props = schema["properties"]
    for name, keys in (("players", PLAYERS_KEYS), ("teams", TEAMS_KEYS), ("limits", LIMITS_KEYS), ("view", VIEW_KEYS)):
        assert props[name]["additionalProperties"] is False
        assert list(props[name]["properties"]) == [k.name for k in keys]
    assert props["players"]["required"] == ["min", "max"]
    assert props["view"]["properties"]["board"]["required"] == ["x", "y"]
    assert props["limits"]["properties"]["steps"]["default"] == 500_000

    def errors(section, value):
        return [e.message for e in jsonschema.Draft202012Validator(props[section]).iter_errors(value)]
    assert errors("view", {"colors": {"by": "suit", "mpa": {}}}) and not errors("view", {"colors": {"by": "suit"}})
    assert errors("view", {"board": {"x": "col"}}) and errors("limits", {"step": 3}) and errors("players", {"min": 2})
    assert not errors("players", {"min": 2, "max": 4}) and not errors("teams", {"by_players": {"4": [[0, 2], [1, 3]]}})
    assert "| `colors.by` | attribute |" in section_reference("view")
    assert "| `min` | integer 1..64 | required |" in section_reference("players")


def test_a_scenario_key_is_known_from_its_table(tmp_path):
    """The scenario runner accepts what the scenario table names and refuses the rest with a
    did-you-mean; a key added to the table is accepted (the runner reads the table)."""
    from interpreter.play.checks import scenario_keys, scenarios
    f = tmp_path / "s.yaml"
    f.write_text("ruleset: diamonds\nscenarios:\n"
                 "  - {name: a, players: 4, seed: 1, expcet: ['true']}\n"
                 "  - {name: b, players: 4, seed: 1, expect: ['true']}\n")
    first, second = scenarios.run_file(f)
    assert not first.ok and "did you mean 'expect'" in first.message and second.ok
    assert scenario_keys.SCENARIO_NAMES == tuple(k.name for k in scenario_keys.SCENARIO_KEYS)
