"""Write what each step and effect kind, and each section, declares into the JSON Schema and the reference.

Editors complete and document flow items and effect lists from the schema's ``$defs/step``
and ``$defs/effect``, generated here from STEP_KINDS and EFFECT_KINDS: each kind with its
one-line doc and, from its table of keys (mechanics/contract.py ``Key``), each key's doc,
type and default, so that ``tricks: {hand: ...}`` completes. The same tables give the
reference's "Keys of each kind" (docs/reference.md, between its ``keys`` markers). There the
schema documents the keys and does not check them: the builder does, with located errors.

The keys of an entry of ``zones:``, ``counters:``, ``vars:``, ``params:`` and ``triggers:``,
and of ``scoring:``, ``board:``, ``players:``, ``teams:``, ``limits:``, ``view:`` and ``requires:`` (contract.py ``ZONE_KEYS``...) are written into the schema,
which checks them (a misspelt key: a located error with a did-you-mean), and into the
reference's table between that section's markers. Run ``python -m interpreter.tools.schema_gen``
after adding a kind or a key; tests/test_schema_gen.py and tests/test_reference_complete.py
fail while either is out of date.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from ..building.effects import EFFECT_KINDS
from ..loading.resources import resource_dir
from ..mechanics import STEP_KINDS
from ..mechanics.base import EFFECT_EMITTERS, EFFECT_KEYS
from ..play.checks.scenario_keys import ACTION_KEYS, SCENARIO_KEYS
from ..mechanics.contract import (BOARD_KEYS, COUNTER_KEYS, LIMITS_KEYS, PARAM_KEYS, PLAYERS_KEYS, REQUIRE_KEYS,
                                  SCORING_KEYS, TEAMS_KEYS, TRIGGER_KEYS, VAR_KEYS, VIEW_KEYS, ZONE_KEYS, required_names)

KEYS_START = "<!-- keys: written by python -m interpreter.tools.schema_gen from each kind's table of keys -->"
KEYS_END = "<!-- /keys -->"


def _ours(obj) -> bool:
    """Whether a kind was registered by the package (not by a test or a plug-in in this process);
    an effect construct of building/effects.py has no emitter (None)."""
    return obj is None or obj.__module__.startswith("interpreter.")


def _step_keys() -> dict:
    import interpreter.building  # noqa: F401  (imports every mechanic, so every kind is registered)
    return {kind: cls.keys for kind, cls in sorted(STEP_KINDS.items()) if _ours(cls)}


def _effect_keys() -> dict:
    """Every bundled effect kind, with its table of keys (None: its value is not a mapping of keys)."""
    import interpreter.building  # noqa: F401
    return {kind: EFFECT_KEYS.get(kind) for kind in sorted(EFFECT_KINDS) if _ours(EFFECT_EMITTERS.get(kind))}


def _is_value(default) -> bool:
    """Whether a key's default is a value (``0``, ``players``), not words (``the costs' counters``)."""
    return default is not None and " " not in str(default)


def _key_schema(key) -> dict:
    out: dict[str, Any] = {"description": f"{key.doc} ({key.shown_type}{', required' if key.required else ''})"}
    if _is_value(key.default):
        out["default"] = key.default
    if key.keys:   # a mapping of its own keys, or (named) of names to such mappings
        inner = {"properties": {k.name: _key_schema(k) for k in key.keys}}
        out.update({"additionalProperties": inner} if key.named else inner)
    return out


def _default_cell(key) -> str:
    if key.required:
        return "required"
    if not _is_value(key.default):
        return key.default or ""
    return f"`{json.dumps(key.default) if isinstance(key.default, bool) else key.default}`"


def _kind_schema(doc: str, keys) -> dict:
    out: dict[str, Any] = {"description": doc}
    inside = [k for k in keys if k.place != "beside"]
    if inside:
        out["properties"] = {k.name: _key_schema(k) for k in inside}
    return out


# beside any step or effect: the rulebook's sentence for it
_DOC_BESIDE = {"description": "the rulebook's sentence for this rule (rulebook explain quotes it)", "type": "string"}


def kinds_schema() -> dict:
    """``$defs`` for a flow item and an effect item: any mapping, its known keys documented."""
    step_keys, effect_keys = _step_keys(), _effect_keys()
    effect: dict[str, Any] = {
        "description": "An effect: a one-key mapping naming its kind, or the name of a declared effect.",
        "type": ["object", "string"],
        "properties": {**{k: _kind_schema(EFFECT_KINDS[k], keys or ()) for k, keys in effect_keys.items()},
                       "doc": _DOC_BESIDE}}
    step = {"description": "A step of the flow (a step kind, with its options beside or inside it) or an effect.",
            "type": ["object", "string"],
            "properties": {**{k: _kind_schema(STEP_KINDS[k].doc, keys) for k, keys in step_keys.items()},
                           **effect["properties"],
                           "steps": {"description": "the steps inside a phase, loop or alternative",
                                     "type": "array", "items": {"$ref": "#/$defs/step"}}}}
    return {"step": step, "effect": effect}


def _entry_properties(keys) -> dict:
    """A section entry's keys, checked by the schema: each with its doc, values and default; a
    key whose value is a mapping of its own keys (``view: {colors: {by, map}}``) checks those."""
    out = {}
    for k in keys:
        inner = {"type": "object", "additionalProperties": False, "properties": _entry_properties(k.keys),
                 **({"required": list(required_names(k.keys))} if required_names(k.keys) else {})} if k.keys else {}
        out[k.name] = {"description": k.doc, **({"enum": list(k.choices)} if k.choices else {}), **inner,
                       **(k.json or {}), **({"default": k.default} if _is_value(k.default) else {})}
    return out


def _with_entry_keys(section: dict, keys, *where) -> dict:
    """``section`` with the mapping at ``where`` (below its entries' schema) given ``keys``."""
    if not where:
        out = {**section, "properties": _entry_properties(keys), "required": list(required_names(keys))}
        if not out["required"]:
            del out["required"]
        return out
    head, *rest = where
    value = section[head]
    if isinstance(value, list):   # an alternative of anyOf: the next step of the path is its index
        i, *rest = rest
        return {**section, head: [*value[:i], _with_entry_keys(value[i], keys, *rest), *value[i + 1:]]}
    return {**section, head: _with_entry_keys(value, keys, *rest)}


# where each section's mapping of keys sits in its schema (a counter's: a number, or a mapping)
ENTRY_KEYS = {"scoring": (SCORING_KEYS, ()), "board": (BOARD_KEYS, ()), "players": (PLAYERS_KEYS, ()),
              "teams": (TEAMS_KEYS, ()), "limits": (LIMITS_KEYS, ()), "view": (VIEW_KEYS, ()),
              "triggers": (TRIGGER_KEYS, ("additionalProperties",)), "requires": (REQUIRE_KEYS, ("items",)),
              "params": (PARAM_KEYS, ("additionalProperties", "anyOf", 1)),
              "zones": (ZONE_KEYS, ("additionalProperties",)),
              "counters": (COUNTER_KEYS, ("additionalProperties", "anyOf", 1)),
              "vars": (VAR_KEYS, ("additionalProperties", "anyOf", 1))}


def updated(schema: dict) -> dict:
    out = dict(schema)
    out["$defs"] = {**schema.get("$defs", {}), **kinds_schema()}
    props = dict(out["properties"])
    props["flow"] = {**props["flow"], "items": {"$ref": "#/$defs/step"}}
    for section, (keys, where) in ENTRY_KEYS.items():
        props[section] = _with_entry_keys(props[section], keys, *where)
    out["properties"] = props
    return out


def _cell(text) -> str:
    return str(text).replace("|", "\\|")


def _rows(keys, prefix: str) -> list[str]:
    """A table's rows for ``keys``, each followed by the rows of its own keys (``options.NAME.if``)."""
    out = []
    for k in keys:
        where = " (beside the kind's key)" if k.place == "beside" else ""
        out.append(f"| `{prefix}{k.name}` | {_cell(k.shown_type)} | {_cell(_default_cell(k))} | {_cell(k.doc)}{where} |")
        out += _rows(k.keys, f"{prefix}{k.name}.{'NAME.' if k.named else ''}")
    return out


def keys_reference() -> str:
    """The reference's tables of keys, one a kind that has keys, from the kinds' tables."""
    lines = [KEYS_START, ""]
    for title, tables in (("step", _step_keys()), ("effect", _effect_keys())):
        for kind, keys in tables.items():
            if not keys:
                continue
            lines += [f"**`{kind}`** ({title})", "", "| key | value | default | what it is |", "|---|---|---|---|"]
            lines += _rows(keys, "")
            lines.append("")
    return "\n".join([*lines, KEYS_END])


SECTION_TABLES = {"zone": ZONE_KEYS, "counter": COUNTER_KEYS, "variable": VAR_KEYS, "scoring": SCORING_KEYS,
                  "trigger": TRIGGER_KEYS, "board": BOARD_KEYS, "parameter": PARAM_KEYS, "players": PLAYERS_KEYS,
                  "teams": TEAMS_KEYS, "limits": LIMITS_KEYS, "view": VIEW_KEYS, "requirement": REQUIRE_KEYS,
                  "scenario": SCENARIO_KEYS,
                  "scenario action": ACTION_KEYS}


def section_markers(name: str) -> tuple[str, str]:
    return (f"<!-- {name} keys: written by python -m interpreter.tools.schema_gen from its table of keys -->",
            f"<!-- /{name} keys -->")


def section_reference(name: str) -> str:
    """The reference's table of the keys of one section's entries (a zone's, a counter's)."""
    start, end = section_markers(name)
    return "\n".join([start, "", "| key | value | default | what it is |", "|---|---|---|---|",
                      *_rows(SECTION_TABLES[name], ""), "", end])


def _replaced(text: str, start: str, end: str, new: str) -> str:
    i, j = text.index(start), text.index(end) + len(end)
    return text[:i] + new + text[j:]


def with_keys(reference: str) -> str:
    """``reference`` with its generated tables rewritten (it must hold each pair of markers)."""
    out = _replaced(reference, KEYS_START, KEYS_END, keys_reference())
    for name in SECTION_TABLES:
        out = _replaced(out, *section_markers(name), section_reference(name))
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
    reference = path.parent.parent / "docs" / "reference.md"   # (in a checkout; an install has no docs)
    if reference.exists():
        text = reference.read_text(encoding="utf-8")
        new_text = with_keys(text)
        if new_text != text:
            reference.write_text(new_text, encoding="utf-8")
        print(f"{reference}: {'updated' if new_text != text else 'up to date'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
