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
