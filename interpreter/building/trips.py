"""The game loop's next trips written into a resolve, up the flow (``FlowSource.next_step``).

A resolve that runs its step's next run at once (an attempt's roll after its target, a
sequence after a choice) may find that run done, having changed nothing a check reads and
asked nothing: its frame removed, the one on top now an ancestor's (the frames on the stack
are those of steps each inside the one below it, some left out where a step took its
parent's place). The loop would run that frame next, with no check between; the resolve runs
it instead, by name, while the frame on top is one of its step's ancestors', and hands the
loop only a change, a decision, the end of the game or a frame it does not expect: one call
each where the loop's trip costs a generic call and its tests, and no loop at all when the
flow goes on to the next question."""
from __future__ import annotations

from ..expr.names import item_read, state_add, state_read


def pending(auto_forced: bool) -> str:
    """The test that a decision is pending (one of a single option is none, where forced moves
    are played: ``auto_forced``)."""
    dec = state_read("dec")
    return f"{dec} is not None" + (f" and len({item_read(dec, '1')}) > 1" if auto_forced else "")


def ancestors(g, step) -> list:
    """The steps ``step`` is inside, nearest first, that keep a frame of their own (no effect list,
    no sequence whose one step takes its place: ``FlowSource.start``)."""
    parent = g.__dict__.get("parent_of")
    if parent is None:   # (made once a module: a resolve that asks asks for its ancestors)
        parent = g.parent_of = {c.index: s for s in g.steps for c in s.children()}
    out, at = [], parent.get(step.index)
    while at is not None:
        if not at.inline and g.start(at)[1] == g.run(at):
            out.append(at)
        at = parent.get(at.index)
    return out


def up_source(g, step, pad: str) -> list:
    """Lines after ``changed = R<step>(...)`` in a resolve (the trip counted): each ancestor's
    frame found on top run at once, counted and checked against the budget as the loop does,
    while nothing changed, nothing is asked and the game goes on. None in the plain reference."""
    above = [] if g.plain else ancestors(g, step)
    if not above:
        return []
    # (the state's reads in the compiler's dialect: expr/names.py state_read)
    stack, steps = state_read("stack"), state_read("steps")
    lines = [f"{pad}while {state_read('dec')} is None and changed is U and not {state_read('over')} and {stack}:",
             f"{pad}    top = {stack}[-1]",
             f"{pad}    i = top[0]"]
    for k, a in enumerate(above):
        lines += [f"{pad}    {'elif' if k else 'if'} i == {a.index}:",
                  f"{pad}        changed = {g.run(a)}(S, top)",
                  f"{pad}        {state_add('steps', 1 + a.charge)}"]
    return [*lines, f"{pad}    else:", f"{pad}        break",
            f"{pad}    if {steps} > {g.max_steps}:", f"{pad}        _over_budget(S)"]
