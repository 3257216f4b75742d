"""A ruleset's ``invariants:`` compiled (engine/invariants.py asks them), their cost bounded: a
determinized world is asked them all, again for each world dealt again (engine/knowledge.py), so
together they may cost at most ``MAX_INVARIANTS_WORK`` worst-case operations, what one
expression may (docs/security.md), each weighed with its call (engine/invariants.py ``weight``);
past it the load stops, located at the invariant that passes it."""
from __future__ import annotations

from ..engine.invariants import MAX_INVARIANTS_WORK, weight
from ..errors import figure
from ..expr.parser import as_expr
from ..expr.types import BOOL


def built_invariants(ctx, items) -> tuple:
    """Each invariant as (its condition, its text, its location), their weights (their conditions'
    worst-case operations and their calls) together at most ``MAX_INVARIANTS_WORK`` (a located
    error past it)."""
    out, total = [], 0
    for i, c in enumerate(items or []):
        path = ("invariants", i)
        fn = ctx.expr(c, path, has_me=False, expect=BOOL)
        out.append((fn, as_expr(c), ctx.smap.loc(path)))
        total += weight(fn)
        if total > MAX_INVARIANTS_WORK >= total - weight(fn):   # (said once: at the one that passes it)
            ctx.error(f"the invariants up to this one may take {figure(total)} operations together, more than "
                      f"{MAX_INVARIANTS_WORK:,}: a world a search deals is asked them all, again for each world "
                      "dealt again", path, "limit",
                      hint="state fewer invariants, or cheaper ones (their filters over shorter lists)")
    return tuple(out)
