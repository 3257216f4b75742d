"""The search space: which parameters a study varies, over which values.

    --param NAME=LO..HI         whole numbers LO to HI (``LO..HI:STEP`` a step: at most MAX_STEPS of them)
    --param NAME=LO..HI         real numbers when LO or HI is written with a point (0.5..2.0)
    --param NAME=A|B|C          one of these values (each read as --set reads a value: [1, 2]|[1, 2, 3])
    --param MAP.KEY=...         one key of a map parameter

Without ``--param``, every declared parameter with ``min`` and ``max`` (or ``choices``) is
searched over them. Each value a trial suggests is checked by the ruleset's own parameter
checks (types, bounds, choices), so a study never plays a game the ruleset would refuse.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from ...engine.params import Unreadable, read_value
from ...errors import UsageError, did_you_mean

MAX_STEPS = 10 ** 9   # the steps a range with a step may have (docs/tuning.md)


@dataclass(frozen=True)
class Dimension:
    """One searched value: ``param`` (and ``key`` for one key of a map parameter) over
    ``low..high`` (``kind`` int or float, ``step``) or ``choices``."""
    param: str
    key: str | None
    kind: str                      # int, float or choice
    low: float = 0.0               # (a choice has no range)
    high: float = 0.0
    step: float | None = None
    choices: tuple = ()

    @property
    def name(self) -> str:
        return self.param if self.key is None else f"{self.param}.{self.key}"

    def describe(self) -> str:
        if self.kind == "choice":
            return " | ".join(json.dumps(c) for c in self.choices)
        return f"{self.low:g}..{self.high:g}" + (f" step {self.step:g}" if self.step not in (None, 1) else "")

    def suggest(self, trial) -> Any:
        """The value an Optuna trial proposes for this dimension."""
        if self.kind == "int":
            return trial.suggest_int(self.name, int(self.low), int(self.high), step=int(self.step or 1))
        if self.kind == "float":
            return trial.suggest_float(self.name, self.low, self.high, step=self.step)
        # Optuna keeps choices as plain scalars: a list or map choice is proposed by its index
        index = trial.suggest_categorical(self.name, list(range(len(self.choices))))
        return self.choices[index]

    def value_of(self, params: dict) -> Any:
        """This dimension's value in a trial's Optuna params (the choice itself, not its index)."""
        v = params[self.name]
        return self.choices[v] if self.kind == "choice" else v


def _value(text: str) -> Any:
    try:
        return read_value(text)   # (as --set reads it)
    except Unreadable as e:
        raise UsageError(f"--param: cannot read the value {text!r}" + (f": {e}" if str(e) else "")) from None


def _number(text: str, spec: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise UsageError(f"--param {spec}: {text!r} is not a number") from None
    if not math.isfinite(value):   # (inf, nan, 1e400: no range has such an end, nor such a step)
        raise UsageError(f"--param {spec}: {text.strip()!r} is not a finite number")
    return value


def parse_param(spec: str, defaults: dict) -> Dimension:
    """One ``--param`` spec against the ruleset's parameters (their values for this game)."""
    name, eq, values = spec.partition("=")
    name, values = name.strip(), values.strip()
    if not eq or not name or not values:
        raise UsageError(f"--param {spec!r}: write NAME=LO..HI or NAME=A|B|C")
    param, _, key = name.partition(".")
    if param not in defaults:
        close = did_you_mean(param, defaults)
        raise UsageError(f"--param: unknown parameter '{param}'" + (f" (did you mean '{close}'?)" if close else ""))
    current = defaults[param]
    if key:
        if not isinstance(current, dict):
            raise UsageError(f"--param {name}: '{param}' is not a map parameter, so it has no key '{key}'")
        if key not in current:
            raise UsageError(f"--param {name}: the map '{param}' has the keys {', '.join(map(str, current))}")
        current = current[key]
    if ".." in values and "|" not in values:
        body, _, step = values.partition(":")
        lo_text, _, hi_text = body.partition("..")
        lo, hi = _number(lo_text, spec), _number(hi_text, spec)
        if lo > hi:
            raise UsageError(f"--param {spec}: the range is empty ({lo:g} > {hi:g})")
        real = any("." in t or "e" in t.lower() for t in (lo_text, hi_text)) or isinstance(current, float)
        step_value = _number(step, spec) if step.strip() else None
        if step_value is not None and step_value <= 0:
            raise UsageError(f"--param {spec}: a step is positive")
        if step_value is not None and (hi - lo) / step_value > MAX_STEPS:   # (Optuna's decimal arithmetic fails past 28 digits)
            raise UsageError(f"--param {spec}: a range has at most {MAX_STEPS:,} steps (a larger step, or a narrower range)")
        if not real and (lo != int(lo) or hi != int(hi) or (step_value is not None and step_value != int(step_value))):
            real = True
        return Dimension(param, key or None, "float" if real else "int", lo, hi, step_value)
    choices = tuple(_value(v.strip()) for v in values.split("|"))
    if len(choices) < 2:
        raise UsageError(f"--param {spec}: give a range LO..HI or at least two choices A|B")
    return Dimension(param, key or None, "choice", choices=choices)


def declared(decls: dict) -> list[Dimension]:
    """The dimensions the ruleset declares itself: parameters with min and max, or choices."""
    out = []
    for name, spec in decls.items():
        if not isinstance(spec, dict):
            continue
        if "choices" in spec and len(spec["choices"]) > 1:
            out.append(Dimension(name, None, "choice", choices=tuple(spec["choices"])))
        elif "min" in spec and "max" in spec:
            real = any(isinstance(spec.get(k), float) for k in ("min", "max", "default")) or spec.get("type") == "num"
            out.append(Dimension(name, None, "float" if real else "int", spec["min"], spec["max"]))
    return out


def space(rules, players: int, specs: list[str]) -> list[Dimension]:
    """The study's dimensions: ``--param`` specs, else the declared ranges; UsageError when
    there is nothing to search or a parameter is named twice."""
    defaults = rules.resolve_params(players, {})
    dims = [parse_param(s, defaults) for s in specs] if specs else declared(rules.params_decl)
    if not dims:
        raise UsageError("nothing to search: no parameter declares min and max (or choices); "
                         "name ranges with --param NAME=LO..HI or NAME=A|B")
    names = [d.name for d in dims]
    twice = next((n for n in names if names.count(n) > 1), None)
    if twice:
        raise UsageError(f"--param names '{twice}' twice")
    return dims


def overrides(dims: list[Dimension], values: dict, defaults: dict) -> dict:
    """The game's parameter overrides for one point of the space (``values``: dimension name ->
    value); a map parameter's other keys keep their values."""
    out: dict = {}
    for d in dims:
        v = values[d.name]
        if d.key is None:
            out[d.param] = v
        else:
            out.setdefault(d.param, dict(defaults[d.param]))[d.key] = v
    return out


def overlay(decls: dict, params: dict, players: int) -> dict:
    """A variant overlay that gives these parameter values, keeping each declaration's form:
    a ``default:`` or ``value:`` is replaced, a ``by_players:`` table for this player count only,
    a plain value replaced."""
    out = {}
    for name, value in params.items():
        spec = decls.get(name)
        if isinstance(spec, dict) and "by_players" in spec:
            out[name] = {"by_players": {str(players): value}}
        elif isinstance(spec, dict):
            out[name] = {"value" if "value" in spec and "default" not in spec else "default": value}
        else:
            out[name] = value
    return {"params": out}
