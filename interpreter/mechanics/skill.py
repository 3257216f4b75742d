"""The game options of physical acts (``skill``, ``resolve``) and the ``skill(p)`` built-in
that reads a seat's skill (mechanics/dexterity.py's attempts ask it in their chances).

Per-seat skill: ``skill(p)`` is seat p's skill, a number in [0, 1]: the game option
``skill`` (a list, one per seat, or one number for all; ``--skill 0.9,0.6``), or else the
ruleset's ``params.skill``, which a ruleset using ``skill()`` must declare.
"""
from __future__ import annotations

from ..errors import UsageError
from ..expr.arity import check_arity
from ..expr.builtins import register_builtin
from ..expr.fastpaths import pure_value
from ..expr.names import state_read, table_ref
from ..expr.parser import ExprError, offset_of
from ..expr.types import NUM, PLAYER
from ..engine.protocol import game_option

RESOLVE_MODES = ("random", "ask")


# ---------------------------------------------------------------------- game options
@game_option("skill")
def check_skill(rules, players, value):
    """One number in [0, 1] per seat (a list, a comma-separated string, or one number for all)."""
    raw = value
    if isinstance(value, str):
        parts = [p.strip() for p in value.split(",")]
        try:
            value = [float(p) for p in parts]
        except ValueError:
            raise UsageError(f"skill: expected numbers separated by commas, got {raw!r}") from None
        if len(value) == 1:          # "0.7": one number for every seat
            value = value[0]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = [value] * players
    if not isinstance(value, (list, tuple)) or any(isinstance(v, bool) or not isinstance(v, (int, float))
                                                     for v in value):
        raise UsageError(f"skill: expected one number per seat, got {raw!r}")
    if len(value) != players:
        raise UsageError(f"skill: expected {players} values (one per seat), got {len(value)}")
    for seat, v in enumerate(value):
        if not 0 <= v <= 1:
            raise UsageError(f"skill of seat {seat} must be between 0 and 1, got {v}")
    return [float(v) for v in value]


@game_option("resolve")
def check_resolve(rules, players, value):
    if value not in RESOLVE_MODES:
        raise UsageError(f"resolve: expected one of {', '.join(RESOLVE_MODES)}, got {value!r}")
    return value


# ---------------------------------------------------------------------- skill(p)
def _skill(S, p, default):
    given = S.o.get("skill")
    return given[p] if given is not None else default


def b_skill(c, n, scope, args, kw):
    check_arity(n, args, kw, "skill", 1)
    src, typ = c.node(args[0], scope)
    c.expect_type(typ, PLAYER, args[0])
    if "skill" not in c.names.params:
        raise ExprError("skill() needs a default skill: declare params.skill (a number in [0, 1])",
                        offset_of(n), code="unknown-name")
    used = getattr(c, "used", None)
    if used is not None:
        used.add("params.skill")     # the default is read through the option (no unused warning)
    c.access.fixed("params.skill")   # what it reads: values fixed before the game starts (not opaque:
    c.access.fixed("options.skill")  # register_builtin below), so a requirement may read it (requires:)
    if c.plain or not pure_value(src):
        return f"_skill(S, {src}, S.p['skill'])", NUM
    # a seat read plainly (it cannot fail: reading it only where the option is given changes
    # nothing): _skill() written in place, no call (a roll asks it each time; the options tested
    # by their truth first, then by `in`, no dict.get call: most games give none)
    p, o = table_ref("p", "skill"), state_read("o")
    return f"({p} if not {o} or 'skill' not in {o} or {o}['skill'] is None else {o}['skill'][{src}])", NUM


register_builtin("skill", b_skill, {"_skill": _skill}, sees_state=False)   # (_skill reads S.o and S.p only)
