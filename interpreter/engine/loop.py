"""Apply a decision, and what the game loop calls: a forced move, the budget, a located error.

Each running step has a frame on ``S.stack``: ``[step_index, ...its own data]``. A step's
``run(S, frame)`` either pushes a child frame, pops its own, or asks a decision by setting
``S.dec = (player, options)``. ``resolve(S, frame, option)`` takes the answer. The loop that
runs steps until a decision is pending, ``S.rules.advance``, is written for each ruleset by
building/gameloop.py (``advance_source``).
"""
from __future__ import annotations

import inspect
import operator

from ..errors import BudgetExceeded, GameError, tag_origin
from ..expr.messages import describe, kind_of
from ..expr.runtime import RUNTIME_ERRORS
from .events import Events
from .sight import Choice


def forced(S, frame) -> bool:
    """Apply the only option of the pending decision without asking (ruleset auto_forced: true),
    with the same compiled resolve a chosen option runs."""
    step = S.rules.steps[frame[0]]
    seat, (value,) = S.dec
    ev = None
    if S.ev is not None:
        ev = {"ev": "forced", "seat": seat, "prompt": step.prompt, "action": step.label(S, value)}
        S.ev.append(ev)
        k, choice = len(S.ev), Choice(S, step, frame, value)
    S.dec = None
    S.rules.resolves[frame[0]](S, frame, value)
    if ev is not None:   # who may read its label, as for a decision (engine/sight.py)
        seen = choice.seen_by(S, S.ev[k:])
        if seen is not None and isinstance(S.ev, Events):   # (counted in the events' size: engine/events.py)
            S.ev.grew(ev, "seen_by", seen)
        elif seen is not None:
            ev["seen_by"] = seen
    S.steps += 1
    if S.steps > S.rules.max_steps:   # forced moves count against the budget too
        over_budget(S)
    return True


def over_budget(S, loc=None):
    """Stop a game past its step budget, located at ``loc`` (the effect loop that took the last
    step; inside a declared effect, with the items that called it, as ``located`` says), else at
    the running step: the frame on top."""
    budget, calls = S.rules.max_steps, ()
    if loc is None and S.stack:
        loc = S.rules.steps[S.stack[-1][0]].loc
    elif loc is not None and (lines := getattr(S.rules, "effect_lines", None)) is not None:
        items = lines.chain_here(inspect.currentframe())
        if items and items[-1][1] is not None:
            calls = tuple(at for at, _ in reversed(items[:-1]))
    stop = BudgetExceeded(f"the game exceeded its step budget of {budget:,} steps (every step run, every pass of a "
                         "for_each, every firing of a trigger's do: and every turn a turns step skips counts one; a "
                         "step, a pass and a firing one more per hundred operations their expressions may take, and "
                         "so do the end conditions and when: triggers' conditions asked after a step and an on_enter "
                         "trigger's if:; a shuffle, move, deal, gather or reset one more per card (or counter value) it handles, a "
                         "pay two per unit it pays without asking); does the "
                         "flow ever end? raise limits.steps if the game is just long", loc=loc, calls=calls)
    stop.summary = stop.message   # (it names the ruleset's budget, no value of the game)
    raise stop


def run_setup(S, fill, setup) -> None:
    """Fill a new game's zones, counters and variables (``fill``, unless None: a state copied
    from its start) and run its setup effects; a runtime error there is a located GameError
    like any other."""
    try:
        if fill is not None:
            fill(S)
        if setup is not None:
            try:
                setup(S, None, None)
            except RUNTIME_ERRORS as e:   # (no step runs yet: located at setup itself)
                tag_origin(e, "setup", S.rules.setup_loc)
                raise
    except RUNTIME_ERRORS as e:
        raise located(S, e) from None


def apply(S, action) -> None:
    if S.dec is None:
        raise GameError("the game is over: no action can be applied" if S.over else "no decision is pending")
    options = S.dec[1]
    if isinstance(action, int) and not isinstance(action, bool):
        if not 0 <= action < len(options):
            raise GameError(f"action index {action} is out of range (0..{len(options) - 1})")
        S.apply_index(action)
        return
    labels = S.legal_actions()
    try:
        i = labels.index(action)
    except ValueError:
        shown = ", ".join(labels[:20]) + (" ..." if len(labels) > 20 else "")
        raise GameError(f"illegal action {action!r} for seat {S.dec[0]} at '{S.prompt()}'; legal: {shown}") from None
    S.apply_index(i)


def checked_index(S, i) -> int:
    """An action index that is not a plain int in range, or no decision pending: the index as
    an int (numpy integers and other __index__ types are fine), or the error (the ruleset's
    ``apply_index``, building/decision.py, asks it of any index but a plain one in range)."""
    if S.dec is None:
        raise GameError("the game is over: no action can be applied" if S.over else "no decision is pending") from None
    if type(i) is not int:
        try:
            i = operator.index(i)
        except TypeError:
            raise GameError(f"an action index is a whole number, not {type(i).__name__}") from None
    if not 0 <= i < len(S.dec[1]):
        raise GameError(f"action index {i!r} is out of range (0..{len(S.dec[1]) - 1})") from None
    return i


def located(S, e: Exception) -> GameError:
    """A runtime error as a GameError located at the step (or inline effect) that raised it; one
    inside a declared effect at the item of its body that failed, with the items that called it
    (engine/effectlines.py).
    Its message never names the seed (a secret); it may name a card or value hidden from a seat
    ("'S' is not a key of the map"), so its ``summary`` says where and what kind of error
    without the values, which is what a seat is shown (play/logs/redact.py)."""
    where = getattr(e, "rulebook_where", None)
    step = getattr(e, "rulebook_step", None)
    if step is None and S.stack:
        step = S.rules.steps[S.stack[-1][0]]
    lines = getattr(S.rules, "effect_lines", None)   # (None: a ruleset not built with its module)
    items = lines.chain(e, getattr(e, "rulebook_part", None)) if lines is not None else ()
    calls: tuple = ()
    if items and items[-1][1] is not None:   # inside a declared effect: at its item, with where it was called
        place, loc = f"effect {items[-1][1]}", items[-1][0]
        calls = tuple(at for at, _ in reversed(items[:-1]))
    elif where is not None:   # a trigger, an end condition: not the step that was running
        place, loc = where
    else:
        place, loc = (step.kind, step.loc) if step is not None else ("?", None)
    error = GameError(f"in {place}: {describe(e)}", loc=loc, code="runtime", calls=calls)
    error.summary = f"in {place}: {kind_of(e)}"
    return error


def at_step(e: Exception, step) -> None:
    """Note on ``e``, raised while ``step`` made its new frame (a kind's ``enter``: a repeat's count,
    a trick's leader), that it is located at ``step`` (``located``), not at the step entering it,
    unless an inner rule was."""
    if getattr(e, "rulebook_step", None) is None:
        e.rulebook_step = step   # type: ignore[attr-defined]  # (our note, on any exception)


def reask(S) -> None:
    """Recompute the pending decision after the state was changed from outside (a patch)."""
    if S.stack and S.dec is not None:
        frame = S.stack[-1]
        S.dec = None
        S.rules.steps[frame[0]].reask(S, frame)
    S.rules.advance(S)
