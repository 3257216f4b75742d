"""The game loop written for a ruleset, ``advance(S, changed=True)``, and the end of a resolve
that asks its step's next question itself (``asks_again``): the loop's next iteration written in.
building/flowgen.py puts both in the ruleset's module beside the steps' functions."""
from __future__ import annotations

from ..expr.limits import STEP_WORK_UNIT
from ..expr.names import item_read, state_add, state_read, state_write


def asks_again(rules, step) -> str:
    """The end of a compiled resolve whose step stays on top and asks the next question (a
    trick's next card) when no check can see what the answer changed: the game loop's next
    iteration written in (run the step, count it, hand the decision back), so that a decision
    costs one call instead of a trip through the loop. The loop takes over wherever it would
    do something else: the game over, another frame on top, no decision asked, a forced move."""
    over, stack, steps = state_read("over"), state_read("stack"), state_read("steps")
    return "\n".join([f"    if {over} or {stack}[-1] is not frame:",
                      "        return None",
                      f"    changed = R{step.index}(S, frame)",
                      f"    {state_add('steps', 1 + step.charge)}",
                      f"    if {steps} > {rules.max_steps}:",
                      "        _over_budget(S)",
                      f"    if {state_read('dec')} is not None:",   # (no forced move calls it: FlowSource.runs_on)
                      "        return ASKED",
                      "    return changed"])


def advance_source(rules, g, plain: bool = False) -> str:
    """The game loop, ``advance(S, changed=True)``: run the flow until a decision is pending or
    the game is over. Triggers and end conditions are checked whenever the state may have
    changed: on entry (after a decision was applied) and after every step that does not report
    UNCHANGED (``changed=False``: only frames changed, so not before the first step). Every step
    run counts against the step budget (a step whose expressions may cost more counts more), and
    so does every pass of a ``for_each`` effect (effects.py), so no flow runs forever.

    Written for this ruleset, without the branches it cannot take (no triggers, no end
    conditions, no forced moves, every step charged one), its budget and its ``when:``
    triggers' check written in; ``plain``:
    the reference, every branch kept, the constants read from ``S.rules.loop`` and each
    trigger's condition called by its function."""
    return "\n".join(["def advance(S, changed=True):", *loop_lines(rules, g, plain)])


def checks_charge(rules) -> int:
    """What every step but a sequence or an effect list counts against the budget, beyond its own
    charge, for the checks the game loop may ask after it (builder.py adds it to their charge):
    the worst-case operations of the end conditions and ``when:`` triggers' conditions (a
    per-player one's for each seat of the largest game) over 100, none where they cost less. The
    loop asks them after a trip that may have changed what they read and after a decision's
    answer; a trip runs such a step (counted wherever it runs, in its own trip or at once in
    its parent's), or resumes a sequence after one of them ended, or runs the effect list that
    one started: a few checks at most for each step counted. Counted by the step rather than
    where a check is asked, so that the generated module, which skips a check where it knows
    nothing it reads changed, counts what the plain reference counts."""
    work = sum(check.work for check in rules.end_checks) + sum(
        cond.work * (rules.max_players if per else 1) for _, cond, _, per, _ in rules.triggers.when)
    return work // STEP_WORK_UNIT


def check_lines(rules, g, pad: str, ended: list, plain: bool = False, failed: tuple = ()) -> list:
    """The checks the game loop asks after a change, indented by ``pad``: the ``when:`` triggers'
    check (mechanics/triggers.py, written for the ruleset) and the end conditions, each asked in
    turn (``plain``: called from ``S.rules.loop`` in a loop over them), an end condition's error
    tagged as its own. ``ended``: the lines run once a check ended the game (``S.over`` set):
    the loop's ``break``, or where a run asks them in place (``in_place``) what hands the loop
    back the game as it would stand; ``failed``: the lines leaving the state as the loop's would
    stand when an end condition raises there."""
    over, inner = state_read("over"), pad + "        "
    lines = []
    if rules.triggers.when:   # the triggers' check written for the ruleset, in place (mechanics/triggers.py)
        lines += [*rules.triggers.watch_source(g, pad, plain), f"{pad}if {over}:", *(f"{pad}    {e}" for e in ended)]
    if plain:
        lines += [f"{pad}try:", f"{pad}    for check in ENDS:", f"{pad}        if check(S, None, None):",
                  f"{inner}    {state_write('over', 'True')}", f"{inner}    break",
                  f"{pad}except _RUNTIME_ERRORS as e:",
                  f"{pad}    _tag_origin(e, 'end_when', _rules.end_locs.get(id(check)))", f"{pad}    raise",
                  f"{pad}if {over}:", *(f"{pad}    {e}" for e in ended)]
    for k, check in enumerate(() if plain else rules.end_checks):   # each asked in turn, no loop over them
        g.ns[f"END{k}"], g.ns[f"END{k}_LOC"] = check, rules.end_locs.get(id(check))
        lines += [f"{pad}try:", f"{pad}    if END{k}(S, None, None):", f"{pad}        {state_write('over', 'True')}",
                  *(f"{pad}        {e}" for e in ended),
                  f"{pad}except _RUNTIME_ERRORS as e:", *(f"{pad}    {x}" for x in failed),
                  f"{pad}    _tag_origin(e, 'end_when', END{k}_LOC)", f"{pad}    raise"]
    return lines


def in_place(rules, g, charge: int, pad: str, ended: list, guard: str | None = None) -> list | None:
    """The checks the loop would ask next written where a run of a frame resumed by its own trip
    (counted ``1 + charge`` by its caller once it returns) made a change they can see (``guard``:
    where the run notes whether it did, ``_changed``), so that it goes on in place (mechanics/base.py
    Sequence) with the loop's next trip: first the budget as the loop checks it after the run's
    trip (past it, ``ended``: the loop counts the trip and stops the game at the same step), then
    ``check_lines``. None where the loop asks them: in the plain reference, and where the ruleset
    has ``when:`` triggers (a trigger fired may push frames, which the loop runs next)."""
    if g.plain or rules.triggers.when:
        return None
    inner = pad if guard is None else pad + "    "
    # (an end condition raising: the state as the loop's, the run's trip counted; ``ended`` ends in its return)
    failed = (*ended[:-1], state_add("steps", 1 + charge))
    return [f"{pad}if {state_read('steps')} > {rules.max_steps - 1 - charge}:", *(f"{pad}    {e}" for e in ended),
            *([] if guard is None else [f"{pad}if {guard}:"]), *check_lines(rules, g, inner, ended, failed=failed)]


def loop_lines(rules, g, plain: bool = False) -> list:
    """The game loop's body (advance_source), as lines: also written into ``apply_index``
    (building/decision.py), a call fewer a decision that does not ask its next question itself."""
    watch = bool(rules.triggers.when)
    charges = tuple(1 + s.charge for s in rules.steps)
    g.ns["CHARGES"] = charges
    # (the state's reads in the compiler's dialect: expr/names.py state_read)
    over, dec, steps = state_read("over"), state_read("dec"), state_read("steps")
    lines = [f"    stack = {state_read('stack')}", "    runs = RUNS"]
    if plain:
        lines.append("    budget, ENDS, auto, checks, CHARGES = S.rules.loop")
    lines += ["    try:", f"        while not {over}:"]
    if plain or watch or rules.end_checks:
        lines.append("            if changed and checks:" if plain else "            if changed:")
        lines += check_lines(rules, g, " " * 16, ["break"], plain)
    lines.append(f"            if {dec} is not None:")
    if plain or rules.auto_forced:   # a decision with one option is no decision
        lines += [f"                if auto and len({item_read(dec, '1')}) == 1:" if plain else
                  f"                if len({item_read(dec, '1')}) == 1:",
                  "                    changed = _forced(S, stack[-1])",
                  "                    continue"]
    lines += ["                break",
              "            if not stack:",
              f"                {state_write('over', 'True')}",
              "                break",
              "            frame = stack[-1]"]
    if set(charges) == {1} and not plain:
        lines += [f"            changed = {item_read('runs', item_read('frame', '0'))}(S, frame) is not U",
                  f"            {state_add('steps', 1)}"]
    else:
        lines += [f"            i = {item_read('frame', '0')}",
                  f"            changed = {item_read('runs', 'i')}(S, frame) is not U",
                  f"            {state_add('steps', item_read('CHARGES', 'i'))}"]
    lines += [f"            if {steps} > budget:" if plain else f"            if {steps} > {rules.max_steps}:",
              "                _over_budget(S)",
              "    except _RUNTIME_ERRORS as e:",
              "        raise _located(S, e) from None",
              f"    if {over}:",
              f"        {state_write('dec', 'None')}"]
    return lines
