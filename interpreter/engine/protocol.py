"""What the engine asks of the steps it runs, and the options a game can be started with.

The engine knows step kinds only through this protocol: a step's ``run(S, frame)`` and
``resolve(S, frame, option)`` return ``UNCHANGED`` when they changed nothing but frames
(pushed, popped, or asked a decision), so the loop skips re-checking triggers and end
conditions; returning anything else (None) is always safe. A resolve compiled by
building/flowgen.py may return ``ASKED``: it ran the game loop's next step itself. Mechanics register game options
(``new_game(options={name: value})``) here so that a Ruleset can check them without knowing
the mechanics.
"""
from __future__ import annotations

UNCHANGED = "unchanged"
# what a compiled resolve returns when it went on to the step's next question itself, exactly
# as the game loop would have (building/flowgen.py): the decision is pending, nothing is left to do
ASKED = "asked"

GAME_OPTIONS: dict = {}


def game_option(name: str):
    """Register the check of a game option (``new_game(options={name: value})``) from a
    mechanic's module: ``fn(ruleset, players, value) -> value`` normalises the value into
    plain data or raises UsageError. The checked value is stored in ``S.o[name]``."""
    def register(fn):
        GAME_OPTIONS[name] = fn
        return fn
    return register
