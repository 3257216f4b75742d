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

from ..expr.names import state_add, state_read

# The most ancestors' frames a resolve runs at once (the nearest): each is some 50 bytecodes
# written in, and the farther ones (a round's, a phase's) are seldom reached from a question;
# beyond them the loop runs the flow.
CLIMB = 3


def parents(g) -> dict:
    """Each step's index -> the step it is inside (made once a module)."""
    parent = g.__dict__.get("parent_of")
    if parent is None:
        parent = g.parent_of = {c.index: s for s in g.steps for c in s.children()}
    return parent


def trip_charges(g, step) -> set:
    """The charges of the trips that may run a new frame of ``step`` (the loop counts ``1 +``
    each): its own, the loop's trip to the frame, and those of the steps it is inside, any of
    which may run it at once (a loop re-testing its condition, an ``if:``, an attempt's outcome,
    a sequence entering it) in a trip of its own or of a step it is inside."""
    parent, out, at = parents(g), {step.charge}, step
    while (at := parent.get(at.index)) is not None:
        out.add(at.charge)
    return out


def at_once(step, started, trip: bool = False) -> int:
    """What a run of ``step`` pushed and run at once by the step it is inside counts beyond the
    loop's trips, ``started`` the step it starts at once in turn (``FlowSource.start``: through
    sequences of one step; else ``step``): the charge of each, as the reference's sequence counts
    the charge of a child it runs at once (mechanics/base.py ``Sequence``), so that a step's
    expressions count each time they are found; not ``step``'s own where its run is the loop's
    trip (``trip``: counted ``1 + charge`` there), nor that of a kind whose new frame's run does not
    compute what it is charged for (``entry_charged``: an attempt's, which asks its target first)."""
    return (0 if trip or not step.entry_charged else step.charge) + (
        started.charge if started is not step and started.entry_charged else 0)


def own_trips(g, step) -> bool:
    """Whether every trip that may run a new frame of ``step`` is counted as its own (``trip_charges``)."""
    return trip_charges(g, step) == {step.charge}


def ancestors(g, step) -> list:
    """The steps ``step`` is inside, nearest first, whose frame may be on the stack beneath its own:
    no effect list, no sequence whose one step takes its place (``FlowSource.start``), and no
    sequence entered on its last child, which took the sequence's place (a tail call)."""
    parent = parents(g)
    out, child, at = [], step, parent.get(step.index)
    while at is not None:
        if not at.inline and g.start(at)[1] == g.run(at) and not at.takes_place(child):
            out.append(at)
        child, at = at, parent.get(at.index)
    return out


def up_source(g, step, pad: str) -> list:
    """Lines after ``changed = R<step>(...)`` in a resolve (the trip counted), to its end: each
    ancestor's frame found on top, nearest first, run at once, counted and checked against the
    budget as the loop does, while nothing changed, nothing is asked and the game goes on; the
    loop is handed a change, a decision, the end of the game, or a frame it runs next (one not
    expected there, or past the nearest ``CLIMB``). None where no resolve runs the flow on
    (``FlowSource.runs_on``: the plain reference, a ruleset with forced moves), or where the
    step has no ancestor (the resolve then ends as the loop's next trip would begin)."""
    above = ancestors(g, step)[:CLIMB] if g.runs_on else []
    return _chain(g, above, pad, after_run=True) if above else []


def climb_source(g, step, pad: str, ended: bool = True) -> list:
    """Lines ending a resolve that removed ``step``'s frame, having changed nothing a check reads
    and asked nothing: the loop's next trips up the flow written in as ``up_source`` writes
    them, from the frame on top (the game's end tested first where the resolve's code may have
    ended it, ``ended``: a resolve starts with the game going). None where no resolve runs the
    flow on (``FlowSource.runs_on``), or where the step has no ancestor."""
    above = ancestors(g, step)[:CLIMB] if g.runs_on else []
    if not above:
        return []
    stack = state_read("stack")
    return [f"{pad}if {state_read('over') + ' or ' if ended or g.plain else ''}not {stack}:", f"{pad}    return U",
            f"{pad}top = {stack}[-1]", *_chain(g, above, pad, after_run=False)]


def _chain(g, above: list, pad: str, after_run: bool) -> list:
    """``above``'s frames, each run where it is found on top (``top``), in turn, one test of its
    index each, no loop (``after_run``: first, what the run just made hands back). A kind that
    writes its run there (``climb_source``: a loop's test) says when its frame is done having
    changed, asked and ended nothing: the climb then goes on with no test of those. After the
    last, a game over or an empty stack would return U as the chain's end does: not tested."""
    # (the state's reads in the compiler's dialect: expr/names.py state_read)
    stack, steps, dec = state_read("stack"), state_read("steps"), state_read("dec")
    back = [f"{pad}if changed is not U:", f"{pad}    return changed",
            f"{pad}if {dec} is not None:", f"{pad}    return ASKED",   # (no forced move runs this: runs_on)
            f"{pad}if {state_read('over')} or not {stack}:", f"{pad}    return U",
            f"{pad}top = {stack}[-1]"]
    lines = list(back) if after_run else []
    for k, a in enumerate(above):
        last = k == len(above) - 1
        count = [f"{pad}{state_add('steps', 1 + a.charge)}",
                 f"{pad}if {steps} > {g.max_steps}:", f"{pad}    _over_budget(S)"]
        ran = [*count, *(back[:-3] if last else back)]
        resume = None if g.plain else getattr(a, "climb_source", None)
        if resume is None:
            body = [f"{pad}changed = {g.run(a)}(S, top)", *ran]
        else:   # (done: the game still on, as tested before it; the next frame's test follows)
            done = [*count, *([] if last else [f"{pad}if not {stack}:", f"{pad}    return U", f"{pad}top = {stack}[-1]"])]
            body = resume(g, "top", pad, done, ran)
        lines += [f"{pad}if top[0] == {a.index}:", *(f"    {line}" for line in body)]
    return [*lines, f"{pad}return U   # (a frame the loop runs next)"]
