"""What a ruleset's compiled module reaches beyond the flow (accel/rulesets.py): the generated
functions a step's own code calls (a grid's prices, mechanics/grid_prices.py, called from the
step's offer) are among the functions chosen, and taken from it; the engine's helpers made from
a template (expr/scanners.py) that the chosen functions call are compiled with them."""
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
    # the cost's count of neighbours, a scanner, compiled with the module that calls it
    assert "_count_gt" in rules.module_source and not isinstance(module["_count_gt"], types.FunctionType)


def test_a_scanner_the_hot_functions_call_is_written_for_the_compiler_with_them(tmp_path):
    from interpreter.accel.rulesets import _helpers, _item, hot_source
    from interpreter.expr.scanners import scanner
    rules = load_text(tmp_path, GRID)
    hot = hot_source(rules, rules.module_source, 10**6)
    helpers = _helpers(rules, hot, _item)
    assert "def _count_gt(seq, t0, v0):" in helpers and "_rb_at(t0, x) > v0" in helpers
    assert "_scan_" not in helpers   # (only what the module calls)
    ns: dict = {"__builtins__": {}, "_rb_at": lambda t, x: t[x]}
    exec(_helpers(rules, hot, None), ns)   # (as Python: the scanner's own loop)
    cards, taken = [3, 0, 2, 1], [0, 1, 0, 4]
    assert ns["_count_gt"](cards, taken, 0) == scanner(("Gt",), True)[1](cards, taken, 0) == 2
