"""Values given on the command line, checked: ``--set NAME=VALUE``, ``--skill X,Y,...``, and a
game's ``--seed``."""
from __future__ import annotations

import math
import secrets

from ..errors import UsageError


def parse_sets(items: list[str]) -> dict:
    out = {}
    for item in items:
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            raise UsageError(f"--set expects NAME=VALUE, got {item!r}")
        out[name.strip()] = value
    return out


def parse_skill(text: str | None, players: int) -> tuple | None:
    """--skill 0.9,0.6,... : one number per seat, or one for every seat."""
    if text is None:
        return None
    parts = [p.strip() for p in str(text).split(",")]
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise UsageError(f"--skill expects numbers separated by commas, got {text!r}") from None
    if any(math.isnan(v) or math.isinf(v) for v in values):
        raise UsageError(f"--skill values must be finite numbers, got {text!r}")
    if len(values) == 1:
        values = values * players
    if len(values) != players:
        raise UsageError(f"--skill gives {len(values)} values for {players} players "
                         "(give one for all seats, or one per seat)")
    return tuple(values)


def game_seed(given: int | None) -> int:
    """The seed of a game a seat plays (``play``, ``serve``): the one given with ``--seed``, else
    a fresh one of 63 bits from the operating system's generator, which no seat can guess (the
    seed deals every hidden card: docs/security.md). Batches (``simulate``, ``compare``,
    ``tune``, ``validate --playouts``) keep a fixed default instead: they are meant to repeat."""
    return secrets.randbits(63) if given is None else given
