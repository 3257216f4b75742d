"""The compiled tier and a step whose own code calls generated functions it holds: a grid's
prices (mechanics/grid_prices.py, called from the step's offer, not from the flow) are among
the functions chosen for the compiled module, and taken from it (accel/rulesets.py)."""
from __future__ import annotations

import types

import pytest

from helpers import load_text
from test_accel import _final_states, can_compile, _kept
from test_club_mechanics import GRID


def _grid(rules):
    return next(s for s in rules.steps if getattr(s, "local", None) is not None)


def test_a_grids_prices_are_among_the_hot_functions_compiled(tmp_path):
    from interpreter.accel.rulesets import hot_source
    rules = load_text(tmp_path, GRID)
    kept = set(_kept(hot_source(rules, rules.module_source, 10**6)))
    prices = {fn.__code__.co_name for fn in _grid(rules).local.functions}
    assert prices and prices & kept, (prices, kept)


@pytest.mark.slow   # (a small first compile)
@can_compile
def test_a_grids_prices_run_compiled_and_play_the_same_games(tmp_path, monkeypatch):
    from interpreter.accel import rulesets
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
    rules = load_text(tmp_path, GRID)
    python = _grid(rules).local.functions
    assert rulesets.use_compiled(rules)
    now = _grid(rules).local.functions
    module = rules.advance.__globals__
    assert any(not isinstance(fn, types.FunctionType) and module[fn.__name__] is fn for fn in now)
    assert all(fn is old or fn.__name__ == old.__code__.co_name for fn, old in zip(now, python))
    assert _final_states(rules) == _final_states(load_text(tmp_path, GRID, "pure.yaml"))
