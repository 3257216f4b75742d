"""Rulebook: a declarative rules engine for tabletop games.

    import interpreter
    rules = interpreter.load("rulesets/my_game.yaml")
    state = rules.new_game(players=4, seed=1)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    print(state.scores(), state.winners())
"""
from __future__ import annotations

from pathlib import Path

if (Path(__file__).parent / "accel" / "built" / "manifest.txt").is_file():
    # the optional compiled tier: its modules loaded while built from the sources as they are
    from .accel import install
    install()

from .errors import (BudgetExceeded, Diagnostic, GameError, Location, Refused, ReplayError, RulebookError, RulesetError,
                     UsageError)

__version__ = "0.1.0"


def load(path, variant: str | None = None, compiled: bool | None = None):
    """Load, check and compile a ruleset: a path, or the name of a bundled ruleset
    (``load("NAME")`` for a bundled ruleset), optionally with a variant (a name under ``variants:`` or a file).
    ``compiled=True``: its flow run from its generated module compiled to C, cached after the first
    compile (docs/performance.md "The compiled tier"); None: when ``RULEBOOK_COMPILED=1``."""
    from .building import load as build_load
    return build_load(path, variant, compiled=compiled)


def ruleset_path(name) -> Path:
    """The path of a bundled ruleset by name (its file name without .yaml) or the path itself if it exists."""
    from .loading.resources import ruleset_path as find
    return find(name)


def __getattr__(name):
    """``interpreter.Ruleset`` and ``interpreter.State``, imported when first asked for."""
    if name == "Ruleset":
        from .engine.ruleset import Ruleset
        return Ruleset
    if name == "State":
        from .engine.state import State
        return State
    raise AttributeError(f"module 'interpreter' has no attribute {name!r}")


__all__ = ["load", "ruleset_path", "Ruleset", "State", "RulebookError", "RulesetError", "UsageError", "Refused", "GameError",
           "BudgetExceeded", "ReplayError", "Diagnostic", "Location"]
