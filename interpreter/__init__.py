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

from .errors import BudgetExceeded, Diagnostic, GameError, Location, ReplayError, RulebookError, RulesetError, UsageError

__version__ = "0.1.0"


def load(path, variant: str | None = None):
    """Load, check and compile a ruleset (optionally with a variant: a name or a file)."""
    from .build.builder import Builder
    from .loading.loader import load_data
    loaded = load_data(path, variant)
    return Builder(loaded).build().freeze()


def ruleset_path(name: str) -> Path:
    """The path of a bundled ruleset by name (its file name without .yaml) or the path itself if it exists."""
    from .loading.resources import resource_dir
    p = Path(name)
    if p.exists():
        return p
    candidate = resource_dir("rulesets") / f"{name}.yaml"
    return candidate if candidate.exists() else p


__all__ = ["load", "ruleset_path", "RulebookError", "RulesetError", "UsageError", "GameError",
           "BudgetExceeded", "ReplayError", "Diagnostic", "Location"]
