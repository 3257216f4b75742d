"""Keep the JSON Schema's list of step and effect kinds in step with the registries.

Editors complete and document the keys of flow items and effect lists from the schema's
``$defs/step`` and ``$defs/effect``, generated here from STEP_KINDS and EFFECT_KINDS (each
kind with its one-line doc). Run ``python -m interpreter.schema_gen`` after adding a kind;
tests/test_schema_gen.py fails while the schema is out of date.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from ..building.effects import EFFECT_KINDS
from ..loading.resources import resource_dir
from ..mechanics import STEP_KINDS


def kinds_schema() -> dict:
    """``$defs`` for a flow item and an effect item: any mapping, its known keys documented."""
    import interpreter.building  # noqa: F401  (imports every mechanic, so every kind is registered)
    effect: dict[str, Any] = {
        "description": "An effect: a one-key mapping naming its kind, or the name of a declared effect.",
        "type": ["object", "string"],
        "properties": {k: {"description": doc} for k, doc in sorted(EFFECT_KINDS.items())}}
    # (cls.doc: STEP_KINDS holds Step classes, typed dict[str, type] in mechanics/base.py)
    step = {"description": "A step of the flow (a step kind, with its options beside or inside it) or an effect.",
            "type": ["object", "string"],
            "properties": {**{k: {"description": cls.doc}  # type: ignore[attr-defined]
                              for k, cls in sorted(STEP_KINDS.items())},
                           **effect["properties"],
                           "steps": {"description": "the steps inside a phase, loop or alternative",
                                     "type": "array", "items": {"$ref": "#/$defs/step"}}}}
    return {"step": step, "effect": effect}


def updated(schema: dict) -> dict:
    out = dict(schema)
    out["$defs"] = {**schema.get("$defs", {}), **kinds_schema()}
    props = dict(out["properties"])
    props["flow"] = {**props["flow"], "items": {"$ref": "#/$defs/step"}}
    out["properties"] = props
    return out


def main() -> int:
    path = Path(resource_dir("schemas")) / "ruleset.schema.json"
    schema = json.loads(path.read_text())
    new = updated(schema)
    if new != schema:
        path.write_text(json.dumps(new, indent=2) + "\n")
        print(f"{path}: updated")
    else:
        print(f"{path}: up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
