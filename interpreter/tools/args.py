"""Values given on the command line, checked: ``--set NAME=VALUE``, ``--skill X,Y,...``, and a
game's ``--seed``."""
from __future__ import annotations

import math
import secrets
from contextlib import contextmanager
from typing import Iterator

from ..errors import GameError, RulebookError, UsageError


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


SEED_BITS = 53   # a drawn seed below 2^53: a JSON number read as a double (jq, JavaScript) keeps it exactly


def game_seed(given: int | None) -> int:
    """The seed of a game a seat plays (``play``, ``serve``): the one given with ``--seed``, else
    a fresh one of ``SEED_BITS`` bits from the operating system's generator, which no seat can
    guess (the seed deals every hidden card: docs/security.md), and which a tool reading ``--json``
    or a log's header as doubles reads back unrounded. Batches (``simulate``, ``compare``,
    ``tune``, ``validate --playouts``) keep a fixed default instead: they are meant to repeat."""
    return secrets.randbits(SEED_BITS) if given is None else given


@contextmanager
def seed_told_on_error(given: int | None, seed: int, command: str) -> Iterator[None]:
    """Around a game whose seed ``game_seed`` drew (``given`` None): a runtime error that stops it
    (a GameError, or an internal error) carries a note, printed after the error, of the seed
    and of ``command``, which plays the game again up to the error. A game stopped is over,
    so its seed is no longer a secret, and a seat at this terminal reads it only then."""
    try:
        yield
    except Exception as e:
        if given is None and (isinstance(e, GameError) or not isinstance(e, (RulebookError, OSError))):
            note = f"rulebook: the game's seed was {seed} (drawn at random): {command} shows the error again"
            # (Python 3.11's add_note, written so for 3.10: the CLI prints __notes__ after the error)
            e.__notes__ = [*getattr(e, "__notes__", ()), note]   # type: ignore[attr-defined]
        raise
