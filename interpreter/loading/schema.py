"""JSON Schema validation of loaded YAML data, with every error located and phrased for people."""
from __future__ import annotations

import hashlib
import json
import re
from functools import lru_cache
from typing import Iterator

from ..errors import Diagnostic, RulebookError, did_you_mean, key_hint
from .resources import cache_file, resource_dir
from .source import MAX_ERRORS, SourceMap, stopped_at

# (jsonschema is imported when a check runs: its import alone costs about 0.1 s, and a
# text that passed the same schema before is not checked again, see _passed)

# JSON Schema type names, in the words of a YAML author
_TYPE_WORDS = {"object": "mapping", "array": "list"}


def load_schema(name: str = "ruleset.schema.json") -> dict:
    """The schema of that name, read once a process (shared: never change it)."""
    return _schema(str(resource_dir("schemas") / name))


@lru_cache(maxsize=8)
def _schema(path: str) -> dict:
    try:
        with open(path, "rb") as f:
            raw = f.read()
        schema = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError) as e:
        raise RulebookError(f"cannot load schema {path}: {e}", code="schema") from None
    _DIGESTS[id(schema)] = (schema, hashlib.sha256(raw).hexdigest())   # (held: its id stays its own)
    return schema


_DIGESTS: dict = {}   # id of a schema load_schema read -> (the schema, the digest of its file)


def check_schema(data, smap: SourceMap, schema: dict) -> list[Diagnostic]:
    """All schema violations of `data` as located diagnostics, sorted by position. Data that
    passed this schema before (in this process or an earlier one: _passed) passes at once."""
    read = _DIGESTS.get(id(schema))
    key = None if read is None or read[0] is not schema else \
        hashlib.sha256(f"{read[1]}\0{data!r}".encode()).hexdigest()
    passed = _passed()
    if key is not None and key in passed:
        return []
    from jsonschema import Draft202012Validator
    diags, seen = [], set()
    for error in Draft202012Validator(schema).iter_errors(data):
        for d in _diagnose(error, smap):
            if (d.loc, d.message) not in seen:  # e.g. one "required" error per missing key
                seen.add((d.loc, d.message))
                diags.append(d)
        if len(diags) > MAX_ERRORS:   # (the validator goes through the data in order)
            break
    diags.sort(key=lambda d: (d.loc is None, d.loc or ("", 0, 0)))
    if len(diags) > MAX_ERRORS:
        diags[MAX_ERRORS:] = [stopped_at(diags[MAX_ERRORS].loc)]
    if not diags and key is not None:
        _remember(passed, key)
    return diags


KEPT_PASSES = 2000   # digests of the texts that passed, kept in the cache folder's file


@lru_cache(maxsize=1)
def _passed() -> set:
    """The digests (schema and data together) of what passed a check: the user's cache folder
    keeps those of the last runs (resources.cache_file; data there is trusted as this user's own
    files are), so a ruleset checked once is not checked again, nor jsonschema imported, until
    its text or the schema changes."""
    path = cache_file("schema-passed")
    if path is None:
        return set()
    try:
        with open(path, encoding="ascii") as f:
            lines = f.read().split()
    except (OSError, ValueError):
        return set()
    if len(lines) > 2 * KEPT_PASSES:   # the oldest dropped (another process may add meanwhile:
        lines = lines[-KEPT_PASSES:]  # it then only checks its text again)
        try:
            with open(path, "w", encoding="ascii") as f:
                f.write("".join(x + "\n" for x in lines))
        except OSError:
            pass
    return {x for x in lines if len(x) == 64}


def _remember(passed: set, key: str) -> None:
    passed.add(key)
    path = cache_file("schema-passed")
    if path is not None:
        try:
            with open(path, "a", encoding="ascii") as f:   # (one short line: appended whole)
                f.write(key + "\n")
        except OSError:
            pass


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


def _diagnose(error, smap: SourceMap) -> Iterator[Diagnostic]:
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
            yield _unknown_key(key, known, smap, path + (key,))
        if extra:
            return
    if kind == "required" and isinstance(inst, dict):
        for key in expected:
            if key not in inst:
                yield Diagnostic(f"missing required key '{key}'", loc, "missing-key")
        return
    if kind == "type":
        names: list[str] = expected if isinstance(expected, list) else [expected]   # JSON type names
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


def _unknown_key(key, known, smap: SourceMap, path: tuple) -> Diagnostic:
    """The did-you-mean goes in the hint, as for every other unknown name, with the keys
    accepted there when they are few enough to read."""
    hint = key_hint(did_you_mean(str(key), known), known, smap.bare_key(path))
    return Diagnostic(f"unknown key '{key}'", smap.key_loc(path), "unknown-key", hint=hint, span=len(str(key)))


def _diagnose_alternatives(error, smap: SourceMap) -> Iterator[Diagnostic]:
    """A value matching none of several alternatives (typically: kinds of step)."""
    from jsonschema.exceptions import best_match
    context = error.context
    by_alt: dict = {}
    for e in context:
        by_alt.setdefault(e.schema_path[0], []).append(e)
    # The alternatives of the value's own type are the ones meant: a mapping with a misspelt key,
    # where a bare number is also allowed, has an unknown key, not the wrong type.
    fitting = {alt: errs for alt, errs in by_alt.items()
               if not any(e.validator == "type" and not e.relative_path for e in errs)}
    if fitting and len(fitting) < len(by_alt):
        by_alt = fitting
        context = [e for errs in fitting.values() for e in errs]
    # An alternative that accepted this level and failed only deeper is the one the author meant.
    inner = [e for errs in by_alt.values() if all(e.relative_path for e in errs) for e in errs]
    if inner:
        yield from _diagnose(best_match(inner), smap)
        return
    # If every alternative rejects extra keys, a key none of them knows is the mistake.
    top = [e for e in context if not e.relative_path and isinstance(e.schema, dict)]
    closed = {e.schema_path[0] for e in top if e.validator == "additionalProperties"}
    if isinstance(error.instance, dict) and closed == set(by_alt):
        known = sorted({k for e in top for k in e.schema.get("properties", {})})
        path = tuple(error.absolute_path)
        unknown = [k for k in error.instance if k not in known]
        for key in unknown:
            yield _unknown_key(key, known, smap, path + (key,))
        if unknown:
            return
    yield from _diagnose(best_match(context), smap)


def _short_text(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."
