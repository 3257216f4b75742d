"""The flow compiled to Python: one function per step of the structure, and the game loop.

Expressions and effect lists already compile to Python functions. This module does the same
for the flow: every step whose kind can write its own source (``flow_source``: sequences,
phases, loops, effect lists standing as a body) becomes a function specialised to that one
place in the ruleset: its children's functions called directly, its constants (a variable's
name, a budget charge, whether a check can see an effect) written into the code instead of
looked up, the frames of its children written as list displays. The game loop itself is
generated for the ruleset too, without the branches it cannot take (no end conditions, no
forced moves).

Nothing of the state moves into code: where the game is stays in the frames on ``S.stack``,
so a state still clones, saves, replays and determinizes as plain data, and a step run by
its generated function behaves exactly as its ``run`` method (tests/test_flowgen.py checks
the two on every step of every bundled ruleset; tests/test_trajectories.py, whole games).

The names in a generated module: ``R<i>`` and ``Q<i>`` the run and resolve functions of step
i (generated, or the step's bound methods), ``E<i>`` a step's bound ``enter``, ``F<n>`` a compiled expression or effect list, ``K<n>`` a
step object (to locate an error at it, or its generic ``run`` for a frame no generated path
expects), ``U`` UNCHANGED.
"""
from __future__ import annotations


from ..engine.protocol import ASKED, UNCHANGED
from ..expr.code import Const, Seats, Table, Var, shape
from ..expr.reuse import global_names
from ..expr.names import item_read, state_add, state_read, table_ref
from ..mechanics.base import Effects, Sequence, Step
from .declared import parameter
from .late import Late
from .inlined import INLINE_LINES, LATE_BOUND, declared_in, items_of, written_in
from .gameloop import in_place
from .trips import at_once, climb_source, own_trips, parents, trip_charges, up_source



class FlowSource:
    """What a step's ``flow_source(g)`` uses to write its function (``g``).

    ``plain``: write the reference instead, each step's behaviour with its specialisations off
    (no shortcut that depends on how the ruleset is declared: a hand kept sorted, a question
    asked again from the resolve, a card key's table written in). The specialised and the plain
    functions come from the same generator, so a rule is written once; tests/test_flowgen.py
    plays every ruleset both ways in lockstep."""

    def __init__(self, steps, max_steps: int = 0, auto_forced: bool = False, plain: bool = False, cards: int = 0):
        self.steps = steps
        self.max_steps, self.auto_forced, self.plain = max_steps, auto_forced, plain
        # whether a resolve may run the flow on past its own step (the loop's next trips written
        # in): not in the plain reference, nor where a forced move may call it (engine/loop.py
        # forced: its event's seen_by and its step count come between the resolve and what follows)
        self.runs_on = not plain and not auto_forced
        self.cards = cards   # (the game's: a bound written in)
        self.rules = None    # (the ruleset whose loop's checks a run may ask in place: compile_flow)
        self.ns: dict = {"U": UNCHANGED, "ASKED": ASKED}
        self._named: dict = {}   # id(object) -> its name (one name each)
        # the effect lists written in place, by number: the effect items each of its lines comes
        # from, from its heading (which carries the number, MARK), where a runtime error's line in
        # the module names the item that failed (engine/effectlines.py; ``unmarked`` says where each is)
        self.written: list = []
        self._items: dict = {}   # (equal items held once: a run's lines of one item have alike ones)

    late = Late   # (what the lines before an entry leave to it: building/late.py)

    def run(self, step) -> str:
        """The name of ``step``'s run function."""
        return f"R{step.index}"

    def enter(self, step) -> str:
        """An expression that makes ``step``'s new frame: a list display where its kind's frames
        start as constants (``Step.enter``, from ``fresh_frame``), else a call of its enter. A
        kind whose frame is never written (``frame_read_only``: a loop's, a target's) gets a
        constant tuple, no list made; not in the plain reference (a saved state's frames are
        lists again, and behave the same)."""
        if _constant_frame(step):
            if not self.plain and getattr(step, "frame_read_only", False):
                return repr((step.index, *step.fresh_frame))
            return repr([step.index, *step.fresh_frame])
        made = getattr(step, "enter_source", None) if not self.plain and "enter" not in step.__dict__ else None
        if made is not None and (made := made(self)) is not None:   # (a kind's new frame written as a display)
            return made
        self.ns[f"E{step.index}"] = step.enter
        return f"E{step.index}(S)"

    def constant(self, step) -> bool:
        """Whether ``step``'s new frames are constants (a list display of its index and its
        ``fresh_frame``), so that generated code may write one with other values in its slots."""
        return _constant_frame(step)

    def start(self, step) -> tuple[str, str]:
        """(a new frame, the run to call on it) for ``step`` entered and run at once. A sequence
        of one step and no effects hands its frame to that step at its first run (a tail call):
        where that step's frame is a constant (nothing to raise an error located at the
        sequence), it is entered in the sequence's place: the same stack after the run, a frame
        and a call fewer. The plain reference enters every step itself."""
        step = self._started(step)
        return self.enter(step), self.run(step)

    def _started(self, step):
        """The step ``start`` enters for ``step`` (through sequences of one step)."""
        while (not self.plain and type(step) is Sequence and len(step.steps) == 1
               and _constant_frame(step.steps[0]) and "enter" not in step.__dict__):
            step = step.steps[0]
        return step

    def me(self, var) -> str:
        """The acting player in a scope whose ``me`` is variable ``var``."""
        return "None" if var is None else table_ref("v", var)

    def checks(self, charge: int, pad: str, ended: list, guard: str | None = None) -> list | None:
        """Lines asking, where a run of a frame resumed by its own trip (counted ``1 + charge``)
        made a change they can see (``guard``: the run's note that it did), the checks the game
        loop would ask next (``ended``: the lines handing the loop the game as it would stand, once
        one ended it or the budget is past), so that the run goes on in place (building/gameloop.py
        in_place); None where the loop asks them."""
        return None if self.rules is None else in_place(self.rules, self, charge, pad, ended, guard)

    def own_trips(self, step) -> bool:
        """Whether every trip that may run a new frame of ``step`` is counted as its own (trips.py)."""
        return own_trips(self, step)

    def at_once(self, step, trip: bool = False) -> int:
        """What ``step`` started and run at once counts beyond the loop's trips (trips.py)."""
        return at_once(step, self._started(step), trip)

    def step(self, step) -> str:
        """A name for the step object itself (an inline effect list has no index of its own)."""
        return self._name(step, "K")

    def found(self, step, lines: list, pad: str, push, failed: int = 0) -> list:
        """``lines`` (at ``pad`` + 4) finding in place what ``step``'s run finds first (Step.skip_source),
        before its frame is pushed: an error in them located at ``step``, its new frame pushed first
        (``push(slots)``) and ``failed`` added to the step count, as the reference's run leaves the state."""
        return [f"{pad}try:", *lines, f"{pad}except Exception as e:", f"{pad}    if getattr(e, 'rulebook_step', None) is None:",
                f"{pad}        e.rulebook_step = {self.step(step)}", *(f"{pad}    {line}" for line in push([repr(v) for v in step.fresh_frame])),
                *([f"{pad}    {state_add('steps', failed)}"] if failed else []), f"{pad}    raise"]

    def _name(self, obj, prefix: str) -> str:
        name = self._named.get(id(obj))
        if name is None:
            self._named[id(obj)] = name = f"{prefix}{len(self._named)}"
            self.ns[name] = obj
        return name

    def enters(self, step, pad: str, late: Late | None = None) -> list:
        """Lines that push a new frame of ``step``'s and run it at once (``start``), returning what it
        reports: a run whose own work changed nothing but frames. ``late``: what the lines before
        leave to it (building/late.py: frames not pushed yet, variables known to hold a seat)."""
        seq, lines = self._started(step), []
        if not self.plain and type(seq) is Sequence and "enter" not in seq.__dict__ and len(seq.steps) > 1 and all(
                c.inline for c in seq.steps[:-1]) and not seq.steps[-1].inline and _constant_frame(seq.steps[-1]):
            # effects then one step: the effects written here, the step entered in the sequence's
            # place (its run's first branch: the same stack after it, a frame and a call fewer)
            if late is not None:   # (an effect may raise: the frames pushed before it runs)
                lines += late.before(pad)
            own = [f"{state_read('stack')}.append({self.enter(seq)})"]   # (the sequence's frame, which the
            for fx in seq.steps[:-1]:   # reference has on the stack where an effect raises or ends the game)
                lines += [*self.charged(fx.charge, pad),
                          *self.effects(fx.fn, self.me(fx.me_var), pad, fx, failed=own), *self.ended(fx.fn, pad, own)]
                late = late and late.after(fx.fn)
            step = seq.steps[-1]
            if not all(fx.quiet for fx in seq.steps[:-1]):   # (a change the checks can see: the loop checks first)
                return [*lines, f"{pad}{state_read('stack')}.append({self.enter(step)})", f"{pad}return None"]
        new, _ = self.start(step)
        started, stack = self._started(step), state_read("stack")
        if not self.plain and getattr(started, "pushes_late", False) and _constant_frame(started):
            # (its entry pushes the frame itself, once its tests are passed and its slots hold their values)
            return [*lines, *self.charged(self.at_once(step), pad), *self.run_new(started, "f", pad, late or Late())]
        # (each step run at once counts its charge, as the reference's sequence counts its children's)
        return [*lines, *self.charged(self.at_once(step), pad), *(late.push(pad, f"(f := {new})") if late is not None else [f"{pad}{stack}.append(f := {new})"]),
                *self.run_new(started, "f", pad)]

    def run_new(self, step, frame: str, pad: str, late: Late | None = None) -> list:
        """Lines that run ``frame``, a new frame of ``step``'s just pushed, and return what the run
        reports: its run called, or where its kind writes the run of a new frame as lines
        (``entry_source(g, frame, pad)``: a loop's test, an attempt's start, a target's question,
        a sequence's first branch, each its run's own lines, ending in a return) those lines in
        place, no call. A step's entries nest (a turn's `until`, its attempt and the attempt's
        target, in the turn's function): each ends the function, so none reads a local the next one
        sets. ``late``: the frame not pushed yet: the entry of a kind that ``pushes_late`` pushes it
        (building/late.py)."""
        entry = None if self.plain else getattr(step, "entry_source", None)
        lines = (entry(self, frame, pad) if late is None else entry(self, frame, pad, late=late)) if entry is not None else None
        return lines if lines is not None else [f"{pad}return {self.run(step)}(S, {frame})"]

    def next_step(self, caller, step, frame: str | None, pad: str, asked: bool = False, tail: bool = False) -> list:
        """Lines that run ``step``'s frame at once, as the game loop's next iteration would,
        and return what it reports. ``frame``: just pushed or left on top (None: a new one,
        made here, ``start``: pushed, or with ``tail`` put in the place of the frame on top,
        the caller's, which is done once ``step`` starts). ``caller``: the step whose run()
        this is, or None in a resolve. ``asked``: a decision the step asked ends the resolve
        (``ASKED``: the loop has nothing to do) when nothing changed.

        The budget: the iteration written in is counted here (``1 + charge``; the loop counts
        the caller's own when the caller returns) and checked only in a resolve, which nothing
        may follow: a run is called by the loop, or by a run the loop called, down the flow (a
        chain no longer than the flow is deep), and the loop checks after each iteration; a run
        counts it ``ahead``, handing the loop the frame where its own trip may pass the budget."""
        run, push, count, stack = self.run(step), [], f"{pad}{state_add('steps', 1 + step.charge)}", state_read("stack")
        started = self._started(step) if frame is None and caller is not None else None
        # (handed to the loop, the frame is the one the reference's loop finds: step's own, not the one started)
        hand = f"{stack}[-1] = {self.enter(step)}" if started is not None and started is not step else ""
        # the step's trip counted ahead of the caller's, whose frame was resumed by its own trip (the
        # reference's loop counts it before the step's run): where that run raises, the caller's
        # counted instead (``failed``); where it may test the budget (a for_each's pass), the
        # caller's counted ahead and the step's once it returns (``later``)
        differ = 0 if caller is None or self.plain else caller.charge - step.charge
        later = -differ if differ and self.tests_budget(step) else 0
        failed = differ + later
        ahead = self.ahead(caller, step.charge - later, pad, hand) if caller is not None else [count]
        if type(started) is Effects and _constant_frame(started):
            # an effect list's run pops the frame it was given and runs the effects: its effects
            # written here, no frame made and no call, its trip counted ahead; an error in them is
            # located at the list, and where one is raised or the list ends the game, the frame the
            # reference's run leaves is pushed (its sequence's, ``placed``), as where it is handed
            # to the loop (tail: popped first)
            left = [f"{stack}.append({self.enter(step)})"] if started is not step else []
            return [*([f"{pad}{stack}.pop()"] if tail else []), *self.ahead(caller, step.charge - later, pad, f"{stack}.append({self.enter(step)})"),
                    *self.charged(started.charge, pad),
                    *self.effects(started.fn, self.me(started.me_var), pad, started, failed=[
                        *([state_add("steps", failed)] if failed else []), *left]),
                    *([f"{pad}{state_add('steps', later)}"] if later else []), *self.ended(started.fn, pad, left),
                    f"{pad}return {'U' if started.quiet else 'None'}"]
        if frame is None:
            new, run = self.start(step)
            push, frame = [f"{pad}{stack}[-1] = f = {new}" if tail else f"{pad}{stack}.append(f := {new})"], "f"
        # (the steps its frame's run starts at once, through sequences of one step, count their charges)
        inner = self.charged(self.at_once(step, trip=True), pad) if push else []
        if caller is not None:
            ran = self.run_new(self._started(step), frame, pad) if push else [f"{pad}return {run}(S, {frame})"]
            return [*push, *ahead, *inner, *(self.recounted(ran, pad, failed, later) if failed or later else ran)]
        lines = [*push, *inner, f"{pad}changed = {run}(S, {frame})", count,
                 f"{pad}if {state_read('steps')} > {self.max_steps}:", f"{pad}    _over_budget(S)"]
        if asked:   # (then the loop's trips up the flow, where it has any)
            return [*lines, *(up_source(self, step, pad) or [f"{pad}if changed is U and {state_read('dec')} is not None:",
                                                          f"{pad}    return ASKED", f"{pad}return changed"])]
        return [*lines, f"{pad}return changed"]

    def ahead(self, step, charge: int, pad: str, hand: str = "") -> list:
        """Lines counting the loop's next trip (``1 + charge``: a step entered and run at once by
        ``step``'s run, which changed nothing a check reads) ahead of the trip running that run,
        which the loop counts once it returns: first, where that trip counted may pass the budget
        (the most a trip running ``step``'s code is charged: trips.py ``trip_charges``), the frame
        handed to the loop (``return U``; ``hand``: a line pushing it first, where it is not yet),
        which stops the game there as the reference's loop does."""
        if self.plain:
            return [f"{pad}{state_add('steps', 1 + charge)}"]
        return [f"{pad}if {state_read('steps')} > {self.max_steps - 1 - max(trip_charges(self, step))}:",
                *([f"{pad}    {hand}"] if hand else []), f"{pad}    return U", f"{pad}{state_add('steps', 1 + charge)}"]

    def climb(self, step, pad: str, ended: bool = True) -> list:
        """Lines ending a resolve that removed ``step``'s frame, having changed nothing a check reads
        and asked nothing: the loop's next trips, up the flow, written in (building/trips.py); none
        in the plain reference or where the step has no ancestor (``ended``: the resolve ran code
        that may have ended the game, ``may_end``)."""
        return climb_source(self, step, pad, ended)

    def key(self, fn, card: str, led: str = "None") -> str:
        """A card key (``ctx.card_key``) applied to ``card``: a plain attribute is its table's
        lookup written in (``A[c]``), a key that reads the state a call with the state and the
        local ``led`` (the source of the led card), anything else a call on the card."""
        table = getattr(fn, "__self__", None)
        if not self.plain and type(table) is tuple and getattr(fn, "__name__", "") == "__getitem__":
            return item_read(self.fn(table), card)
        if getattr(fn, "reads_state", False):
            return f"{self.fn(fn)}(S, None, {{'led': {led}}}, {card})"
        return f"{self.fn(fn)}({card})"

    def fn(self, fn) -> str:
        """A name for a compiled expression or effect function (or a table)."""
        return self._name(fn, "F")

    def value(self, fn, me: str = "me", L: str = "None") -> str:
        """The value of compiled expression ``fn`` where it is needed: the expression itself,
        written in, when its compiler noted a bare read of a parameter, variable or table, the
        seats or a constant (``expr/code.py`` shapes: no call, and nothing in it can raise the
        TypeError its function turns into the language's error); else a call."""
        if self.bare(fn):
            return f"({fn.source})"
        return f"{self.fn(fn)}(S, {me}, {L})"

    def bare(self, fn) -> bool:
        """Whether ``value`` writes ``fn`` in as its source: a bare read, nothing to raise."""
        form = shape(getattr(fn, "source", None))
        return not self.plain and (isinstance(form, (Const, Var, Seats)) or isinstance(form, Table) and not form.bound)

    def inline(self, fn) -> bool:
        """Whether ``fn``'s body (``fn.body``: its statements and the value it returns, as its
        compiler wrote them) is written in place: not in the plain reference, at most
        INLINE_LINES statements, and every global it reads put in the module's namespace."""
        body, code = getattr(fn, "body", None), getattr(fn, "__code__", None)
        if self.plain or body is None or code is None or len(body[0]) > INLINE_LINES:
            return False
        names = {k: fn.__globals__[k] for k in global_names(code) if k in fn.__globals__}
        return not LATE_BOUND & names.keys() and self.bind(names)

    def _heading(self, fn, name: str | None = None) -> str:
        """Where a body written in place comes from (the function it is listed as, ``name`` if
        given, and its rule)."""
        loc = getattr(fn, "loc", None)
        return (name or self.fn(fn)) + (f": {str(loc.path).rsplit('/', 1)[-1]}:{loc.line}:{loc.col}" if loc else "")

    def charged(self, charge: int, pad: str) -> list:
        """The line counting an inline effect list's ``charge`` against the budget, as a
        sequence's run counts its inline child's; none for none."""
        return [f"{pad}{state_add('steps', charge)}"] if charge else []

    def may_end(self, fn) -> bool:
        """Whether running effect list ``fn`` may end the game (its compiler's ``ends``); always
        in the plain reference."""
        return self.plain or getattr(fn, "ends", True)

    def ended(self, fn, pad: str, left: list | tuple = ()) -> list:
        """Lines ending a run, as the reference does, where effect list ``fn``, just run, ended the
        game (``left``: the lines leaving the frames the reference's run leaves); none where it
        cannot (``may_end``)."""
        return [f"{pad}if {state_read('over')}:", *(f"{pad}    {x}" for x in left), f"{pad}    return None"] if self.may_end(fn) else []

    def recounted(self, lines: list, pad: str, failed: int = 0, later: int = 0) -> list:
        """``lines`` (at ``pad``, ending in returns: a step's runs, at once) with the step count put
        right after them: ``failed`` added where they raise, ``later`` where they return (the try
        costs nothing when nothing is raised)."""
        return [f"{pad}try:", *(f"    {x}" for x in lines), f"{pad}except BaseException:",
                f"{pad}    {state_add('steps', failed - later)}", f"{pad}    raise",
                *([f"{pad}finally:", f"{pad}    {state_add('steps', later)}"] if later else [])]

    def tests_budget(self, step) -> bool:
        """Whether a run of ``step`` or of one inside may test the budget: a for_each's pass (effects.py ``counts``)."""
        return any(getattr(v, "counts", False) for v in vars(step).values()) or any(
            self.tests_budget(c) for c in step.children())

    def placed(self, step):
        """The sequence whose new frames effect list ``step``'s frame stands in place of (``start``:
        a sequence of that one list), where its run leaves that sequence's frame on an error or
        an end; None elsewhere (its own frame, as in the plain reference)."""
        seq = parents(self).get(step.index)
        return seq if type(seq) is Sequence and self._started(seq) is step else None

    def notes(self, fx) -> bool:
        """Whether effect step ``fx``, written in place, can note whether it changed what the checks
        read (``noting``): it has marks, and its list itself (mark 0) changes nothing they read."""
        return fx.noted is not None and 0 not in fx.noted and self.inline(fx.fn)

    def noting(self, fx, pad: str) -> list:
        """Lines running effect step ``fx`` as ``effects`` does, setting ``_changed`` where a
        change the checks can see may be made: written in place, at the start of each branch
        of its list whose own items may make one (``fx.noted``, watch.Quiet.noted), so that a
        branch not taken leaves the checks as they were (a called list is quiet: Sequence._segment)."""
        return self.effects(fx.fn, self.me(fx.me_var), pad, fx, noted=fx.noted or ())

    def effects(self, fn, me: str, pad: str, step=None, values: dict | None = None, noted: tuple = (),
                failed: list | tuple = ()) -> list:
        """Lines running effect list ``fn`` as the seat ``me`` with a hook's locals ``values``
        (name -> source; None: no locals): the ones it reads passed as its parameters
        (``fn.params``, a hook compiled ``by_name``), else as ``L`` (``locals``). Its statements
        are written in place where ``inline`` says (binding ``me``, its parameters or ``L``, and
        the names the effect compiler made fresh in it, all ``_``-prefixed: the caller uses none
        of them, nor ``me`` or ``L`` in another meaning), with the bodies of the declared effects
        it calls where ``declared_in`` says (building/inlined.py), else it is called. ``step``: the step
        an error inside is located at (a handler around it says so, naming the traceback's
        entry by the effect's rule as the called function's frame was named); None: located
        as the running step. ``failed``: lines run before an error in them goes on (with ``step``).
        A list written in place is headed by a comment carrying its number (MARK): the lines go
        into the step's source as given, indented further as need be, one line each."""
        params, access = getattr(fn, "params", None), getattr(fn, "access", None)
        L = "None" if values is None else self.locals(fn, values)
        if params is not None:   # (what the compiler named them, as declared effects' parameters)
            binds = [f"{parameter(k, list(values or ()).index(k))} = {(values or {})[k]}" for k in params]
            call = f"{self.fn(fn)}(S, {me}{''.join(', ' + (values or {})[k] for k in params)})"
        else:   # (``L`` named only where a local is read, expr/names.py, or a for_each binds one)
            local = getattr(fn, "binds_local", True) or access is None or access.locals
            binds = [f"L = {L}"] if local else []
            call = f"{self.fn(fn)}(S, {me}, {L})"
        if not self.inline(fn):
            run = [call]
        else:
            declared = declared_in(self, fn)
            # ``me`` bound where the code asks for it (expr/access.py ``actor``), or where the list
            # sets the variable it is read from (an event after that names the seat the list
            # started as); else only in an event's branch, for its payload (taken when events are
            # recorded). A declared effect written in (``declared``) asks as its own code does.
            both = (access, *(e.access for e in declared.values())) if access is not None else ()
            actor = me != "me" and (access is None or not hasattr(fn, "events") or any(
                a.me or a.keeps_me or a.opaque or a.zones_entered or a.calls - (declared.keys() if a is access else set())
                for a in both) or any(kind == "v" and me == self.me(name) for a in both for kind, name in a.writes))
            # its lines, each in a list of its own (the lines that take its place, a declared effect's
            # body, or come before it): the positions its compiler noted hold
            body = [[line] for line in (*fn.body[0], "")]
            # (beside each line, the effect items it comes from, the outermost first: engine/effectlines.py)
            owners = [[items_of(fn, at)] for at in range(len(body))]
            for at, column in getattr(fn, "events", ()) if me != "me" and not actor else ():
                body[at][0] = f"{body[at][0][:column]}me = {me}; {body[at][0][column:]}"
            for at, depth, name, args in getattr(fn, "calls", ()):
                if name in declared:
                    effect = declared[name]
                    body[at] = written_in(effect, self._heading(effect, effect.__name__), "    " * depth, args,
                                          None if actor else me)
                    owners[at] = [(), *(owners[at][0] for _ in args),
                                  *(owners[at][0] + items_of(effect, k) for k in range(len(effect.body[0])))]
            for at, depth, _ in (fn.marks[k] for k in noted):
                body[at].insert(0, "    " * depth + "_changed = True")
                owners[at].insert(0, ())
            # (its heading marked with its number: the module's writer notes on which line it lands)
            head = [f"# {self._heading(fn)}, written in place{MARK}{len(self.written)}{MARK}",
                    *([f"me = {me}"] if actor else []), *binds]
            kept = [*((line, ()) for line in head), *((line, at) for lines, ats in zip(body, owners)
                                                       for line, at in zip(lines, ats) if line)]
            run = [line for line, _ in kept]
            # (each line's items, a statement of several lines giving each of them its own)
            self.written.append(tuple(self._items.setdefault(at, at) for line, at in kept for _ in range(line.count("\n") + 1)))
        if step is None:
            return [pad + line for line in run]
        # (each line its own: a caller may indent them all further)
        handler = [f"_relocated(e, {self.step(step)}, {self.fn(fn)})"] if len(run) > 1 else [
            "if getattr(e, 'rulebook_step', None) is None:", f"    e.rulebook_step = {self.step(step)}"]
        return [f"{pad}try:", *(f"{pad}    {line}" for line in run),
                f"{pad}except Exception as e:   # located at the step the effect belongs to",
                *(f"{pad}    {x}" for x in (*handler, *failed)), f"{pad}    raise"]

    def assign(self, fn, target: str, me: str, pad: str, L: str = "None", form: str = "{}",
               values: dict | None = None) -> list:
        """Lines setting ``target`` to the value of compiled expression ``fn`` for the seat ``me``
        with the locals ``L`` (``form``: what is done with the value, ``float({})``; ``values``:
        name -> source of the locals of one compiled ``by_name``, its parameters): written in
        (``value``), or its statements in place where ``inline`` says (binding ``me`` if it reads it, its
        parameters or ``L`` if it reads a local, and its own ``_``-names: a caller uses neither
        ``me`` nor ``L`` in another meaning), inside the handler its function has (none used as
        a value is the language's error), or a call."""
        params, access = getattr(fn, "params", None), getattr(fn, "access", None)
        # (``me`` bound only for an expression that reads it, as its compiler noted: expr/access.py)
        bind_me = [f"me = {me}"] if me != "me" and (access is None or access.opaque or access.me) else []
        if params is not None and values is not None:
            args = [values[k] for k in params]
            if not self.inline(fn):
                call = f"{self.fn(fn)}(S, {me}, {', '.join(args)})"
                return [f"{pad}{target} = {form.format(call)}"]
            binds = [*bind_me, *(f"{parameter(k, i)} = {a}" for i, (k, a) in enumerate(zip(params, args)))]
        elif self.bare(fn) or not self.inline(fn):
            return [f"{pad}{target} = {form.format(self.value(fn, me, L))}"]
        else:
            # (``L`` only for one that reads a local: the one way an expression's code names it, expr/names.py)
            binds = [*bind_me, *([f"L = {L}"] if L != "L" and (access is None or access.locals) else [])]
        statements, result = fn.body
        kept = [f"{target} = {result}"] if result != target else []   # (its statements set it already)
        return [f"{pad}try:   # {self._heading(fn)}, written in place",
                *(f"{pad}    {line}" for line in (*binds, *statements, *kept)),
                f"{pad}except TypeError as e:", f"{pad}    raise _none_used(e)",
                *([f"{pad}{target} = {form.format(target)}"] if form != "{}" else [])]   # (outside: its own errors)

    def locals(self, fn, values: dict) -> str:
        """The locals a hook ``fn`` is called with (``values``: name -> source), as a dict
        display of only those its code reads, as its compiler noted them (expr/access.py): a
        hook reading ``card`` costs no copy of a trick. All of them where the record may be
        incomplete (opaque), and in the plain reference."""
        access = getattr(fn, "access", None)
        read = None if self.plain or access is None or access.opaque else access.locals
        return "{" + ", ".join(f"{k!r}: {v}" for k, v in values.items() if read is None or k in read) + "}"

    def bind(self, names: dict) -> bool:
        """Put ``names`` into the module's namespace: the globals of code written in (a card's
        table, a runtime helper a condition calls). False, and nothing put, where one of them
        already names something else there."""
        if any(self.ns.get(k, v) is not v for k, v in names.items()):
            return False
        self.ns.update(names)
        return True

    def named(self) -> dict:
        """Each F<n> and K<n> the source calls -> what it stands for, in the order given."""
        return {name: self.ns[name] for name in sorted(self._named.values(), key=lambda n: (n[0], int(n[1:])))}


# What ends the heading comment of an effect list written in place, around its number in
# ``FlowSource.written``: a character no generated line holds (Python compiles no text holding
# it, and a value's repr escapes it), taken out of the text, the line noted, by ``unmarked``.
MARK = "\x00"


def unmarked(source: str) -> tuple[str, list]:
    """(``source``, the flow as the steps' generators wrote it, without the marks of its effect
    lists written in place; [(the line of the text, from 0, each mark is on, the number it
    carries)]): the lines counted as the pieces between the marks are put together."""
    pieces = source.split(MARK)
    if len(pieces) % 2 == 0 or not all(pieces[k].isdigit() for k in range(1, len(pieces), 2)):
        raise AssertionError("a mark of an effect list written in place is not whole")   # (internal)
    text, marks, line = [pieces[0]], [], pieces[0].count("\n")
    for k in range(1, len(pieces) - 1, 2):
        marks.append((line, int(pieces[k])))
        text.append(pieces[k + 1])
        line += pieces[k + 1].count("\n")
    return "".join(text), marks


def _constant_frame(step) -> bool:
    """Whether ``step``'s new frames are constants (``Step.fresh_frame``), written as a list
    display; not where coverage wraps the step's own enter (it counts the entries)."""
    return "enter" not in step.__dict__ and type(step).enter is Step.enter
