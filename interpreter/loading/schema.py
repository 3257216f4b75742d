"""JSON Schema validation of loaded YAML data, with every error located and phrased for people."""
from __future__ import annotations

import json
import re
from typing import Iterator

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

from ..errors import Diagnostic, RulebookError, did_you_mean, key_hint
from .resources import resource_dir
from .source import SourceMap

# JSON Schema type names, in the words of a YAML author
_TYPE_WORDS = {"object": "mapping", "array": "list"}


def load_schema(name: str = "ruleset.schema.json") -> dict:
    path = resource_dir("schemas") / name
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise RulebookError(f"cannot load schema {path}: {e}", code="schema") from None


def check_schema(data, smap: SourceMap, schema: dict) -> list[Diagnostic]:
    """All schema violations of `data` as located diagnostics, sorted by position."""
    diags, seen = [], set()
    for error in Draft202012Validator(schema).iter_errors(data):
        for d in _diagnose(error, smap):
            if (d.loc, d.message) not in seen:  # e.g. one "required" error per missing key
                seen.add((d.loc, d.message))
                diags.append(d)
    diags.sort(key=lambda d: (d.loc is None, d.loc or ("", 0, 0)))
    return diags


def _short(value) -> str:
    """A repr that never dumps a whole subtree into a message."""
    r = repr(value)
    return r if len(r) <= 60 else r[:57] + "..."


def _type_name(value) -> str:
    for t, name in ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"),
                    (list, "list"), (dict, "mapping"), (type(None), "null")):
        if isinstance(value, t):
            return name
    return type(value).__name__


def _diagnose(error: ValidationError, smap: SourceMap) -> Iterator[Diagnostic]:
    path = tuple(error.absolute_path)
    kind, inst, expected = error.validator, error.instance, error.validator_value
    loc, span = smap.loc(path), smap.span(path)

    if kind in ("oneOf", "anyOf") and error.context:
        yield from _diagnose_alternatives(error, smap)
        return
    if kind in ("additionalProperties", "unevaluatedProperties") and isinstance(inst, dict):
        known = list(error.schema.get("properties", {}))
        if kind == "additionalProperties":
            patterns = error.schema.get("patternProperties", {})
            extra = [k for k in inst if k not in known and not any(re.search(p, k) for p in patterns)]
        else:  # which keys were unevaluated is only known to jsonschema: it quotes them
            extra = [k for k in inst if repr(k) in error.message]
        for key in extra:
            yield _unknown_key(key, known, smap.key_loc(path + (key,)))
        if extra:
            return
    if kind == "required" and isinstance(inst, dict):
        for key in expected:
            if key not in inst:
                yield Diagnostic(f"missing required key '{key}'", loc, "missing-key")
        return
    if kind == "type":
        names = expected if isinstance(expected, list) else [expected]
        words = " or ".join(_TYPE_WORDS.get(n, n) for n in names)
        yield Diagnostic(f"expected {words}, got {_type_name(inst)}", loc, "type", span=span)
        return
    if kind == "enum":
        options = ", ".join(_short(v) for v in expected)
        close = did_you_mean(inst, [v for v in expected if isinstance(v, str)]) if isinstance(inst, str) else None
        yield Diagnostic(f"{_short(inst)} is not one of {_short_text(options)}", loc, "schema",
                         hint=f"did you mean '{close}'?" if close else None, span=span)
        return
    if kind == "const":
        yield Diagnostic(f"expected {_short(expected)}, got {_short(inst)}", loc, "schema", span=span)
        return
    if kind == "oneOf":  # no sub-errors: it matched several alternatives
        yield Diagnostic("matches more than one of the allowed forms", loc, "schema", span=span)
        return
    # Anything else: jsonschema's own wording, with the instance repr shortened.
    msg = error.message.replace(repr(inst), _short(inst))
    if kind is None:  # a `false` schema (jsonschema does not say which key it was)
        msg = f"{_short(inst)} is not allowed here"
    yield Diagnostic(_short_text(msg), loc, "schema", span=span)


def _unknown_key(key, known, loc) -> Diagnostic:
    """The did-you-mean goes in the hint, as for every other unknown name, with the keys
    accepted there when they are few enough to read."""
    return Diagnostic(f"unknown key '{key}'", loc, "unknown-key", hint=key_hint(did_you_mean(str(key), known), known),
                      span=len(str(key)))



def _diagnose_alternatives(error: ValidationError, smap: SourceMap) -> Iterator[Diagnostic]:
    """A value matching none of several alternatives (typically: kinds of step)."""
    by_alt: dict = {}
    for e in error.context:
        by_alt.setdefault(e.schema_path[0], []).append(e)
    # An alternative that accepted this level and failed only deeper is the one the author meant.
    inner = [e for errs in by_alt.values() if all(e.relative_path for e in errs) for e in errs]
    if inner:
        yield from _diagnose(best_match(inner), smap)
        return
    # If every alternative rejects extra keys, a key none of them knows is the mistake.
    top = [e for e in error.context if not e.relative_path and isinstance(e.schema, dict)]
    closed = {e.schema_path[0] for e in top if e.validator == "additionalProperties"}
    if isinstance(error.instance, dict) and closed == set(by_alt):
        known = sorted({k for e in top for k in e.schema.get("properties", {})})
        path = tuple(error.absolute_path)
        unknown = [k for k in error.instance if k not in known]
        for key in unknown:
            yield _unknown_key(key, known, smap.key_loc(path + (key,)))
        if unknown:
            return
    yield from _diagnose(best_match(error.context), smap)


def _short_text(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."
