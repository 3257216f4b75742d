"""A decision taken, ``apply_index(S, i)``, written for each ruleset beside its game loop: the
answer handed to the resolve of the step that asked, then the loop run to the next question.

It is each ruleset's State class's ``apply_index`` (engine/layout.py), what agents, playouts,
the adapters and ``State.apply`` call once a decision: written in the ruleset's module, its
reads of the state are spelt in the compiler's dialect (expr/names.py) like the rest of it, so
that the compiled tier compiles them at the state's slots rather than by Cython's generic
attribute lookup of a static module (docs/performance.md "The compiled tier")."""
from __future__ import annotations

from ..expr.names import item_read, state_read, state_write


def apply_index_source(loop: list) -> str:
    """Take option ``i`` of the pending decision; returns S. The checks an index needs cost
    nothing when it is a plain one in range: anything else (no decision pending, a negative
    or out-of-range index, a numpy integer) is ``_checked_index``'s (engine/loop.py). Where the
    resolve did not ask the next question itself, the game loop runs: ``loop``, the lines of
    ``advance``'s body (building/gameloop.py), written in here (a call fewer a decision)."""
    dec, stack = state_read("dec"), state_read("stack")
    return "\n".join([
        "def apply_index(S, i):",
        "    try:",
        f"        value = {item_read(item_read(dec, '1'), 'i')}",
        "        if i < 0:",
        "            raise IndexError",
        "    except (TypeError, IndexError):",
        "        i = _checked_index(S, i)   # (the error, or an index of another integer type)",
        f"        value = {dec}[1][i]",
        f"    frame = {stack}[-1]",
        f"    {state_write('dec', 'None')}",
        "    try:",
        f"        changed = {item_read('RESOLVES', item_read('frame', '0'))}(S, frame, value)",
        "    except _RUNTIME_ERRORS as e:",
        "        raise _located(S, e) from None",
        "    if changed is ASKED:",
        "        return S",
        "    changed = changed is not U",
        *loop,
        "    return S"])
