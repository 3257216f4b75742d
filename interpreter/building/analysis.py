"""Static checks on the compiled flow: steps that can never run, and games that can never end.

The analysis is deliberately simple and sound for what it reports: it only trusts
conditions and counts that are constants (``while: true``, ``repeat: 0``, an option whose
``if`` is ``false``). A loop that can never be left, with no ``end_when`` and no
``end_game`` effect anywhere, is an error: the game could not end. Steps after such a loop,
loops that never run and options never offered are warnings.
"""
from __future__ import annotations

from ..errors import digits


def constant(fn):
    """The value of a compiled expression if it is a literal constant, else a sentinel."""
    src = getattr(fn, "source", None)
    if src in ("True", "False", "None"):
        return {"True": True, "False": False, "None": None}[src]
    if isinstance(src, str) and digits(src, signed=True):
        return int(src)
    return _UNKNOWN


class _Unknown:
    def __repr__(self):
        return "<unknown>"


_UNKNOWN = _Unknown()


def check_flow(ctx, root, can_end_otherwise: bool) -> None:
    """Report unreachable steps and a flow that never ends through ``ctx`` (the Builder)."""
    endless = _walk(ctx, root)
    if endless and not can_end_otherwise:
        ctx.error("the game can never end: the flow has a loop that is never left, and there is no "
                  "end_when condition and no end_game effect", endless.path, "no-end", key=True)


def _walk(ctx, step):
    """Return the step that loops forever inside ``step`` (None if control flow goes on)."""
    kind = step.kind
    if kind == "steps":
        for i, child in enumerate(step.steps):
            stuck = _walk(ctx, child)
            if stuck is not None:
                if i + 1 < len(step.steps):
                    later = step.steps[i + 1]
                    ctx.warn("unreachable: the loop before this step is never left", later.path,
                             code="unreachable")
                return stuck
        return None
    if kind == "repeat":
        if constant(step.times) == 0:
            ctx.warn("this repeat runs 0 times: its steps never run", step.path, code="unreachable")
            return None
        return _walk(ctx, step.body)
    if kind in ("while", "until"):
        c = constant(step.cond)
        never = (c is False) if kind == "while" else (c is True)
        forever = (c is True) if kind == "while" else (c is False)
        if never:
            ctx.warn(f"this {kind} loop never runs: its condition is constant", step.path, code="unreachable")
            return None
        inner = _walk(ctx, step.body)
        return step if forever else inner
    if kind == "turns":
        forever = step.until is not None and step.rounds is None and constant(step.until) is False
        inner = _walk(ctx, step.body)
        return step if forever else inner
    if kind == "branch":   # endless only if every option that can be taken is endless
        outcomes = []
        for name, cond, body in zip(step.names, step.conds, step.bodies):
            if cond is not None and constant(cond) is False:
                ctx.warn(f"option '{name}' is never offered: its condition is constant false",
                         (*body.path[:-1], "if"), code="unreachable")
                continue
            outcomes.append(_walk(ctx, body))
        return outcomes[0] if outcomes and all(outcomes) else None
    for child in step.children():
        stuck = _walk(ctx, child)
        if stuck is not None:
            return stuck
    return None
