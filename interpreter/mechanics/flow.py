"""Flow structure: phases, loops and turns (the boardgame.io idea: flow as data).

Each kind's run exists only as the Python its ``flow_source`` writes (building/flowgen.py), for
the game and, with ``g.plain``, for the reference: written once."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..expr.code import Const, shape
from ..expr.builtins import whole_number
from ..expr.types import ANY, BOOL, INT, NUM, PLAYER, walked
from ..expr.names import state_add, state_read, var_ref, var_write
from ..engine.frames import listof, seat, whole
from ..engine.invariants import weight
from ..engine.loop import at_step
from ..engine.sight import unseen_by
from .recounts import reads_hidden, seats_again
from .base import IF_KEYS, STEPS_BESIDE, Step, step_kind
from .contract import Key, players_key, key_names
from .tricks import MAX_ROTATED, rotations

if TYPE_CHECKING:
    from ..expr.compiler import ExprFn


ENTERED = whole("its steps entered", low=1, high=lambda s: 1, later=True)   # a phase's or an if's: [index], then [index, 1]


@step_kind("phase", "a named group of steps; the name shows in observations",
           keys=(STEPS_BESIDE,))
class Phase(Step):
    frame_shape = (ENTERED,)

    def __init__(self, name, body):
        self.name, self.body = name, body

    @classmethod
    def build(cls, ctx, main, rest, path, scope):
        cls.check_declared(ctx, main, rest, path)
        body = ctx.steps(rest.get("steps", []), (*path, "steps"), scope)
        return cls(str(main), body)

    def flow_source(self, g):
        return "\n".join([f"def R{self.index}(S, frame):",
                          "    if len(frame) == 1:",
                          "        frame.append(1)",
                          *g.enters(self.body, "        "),
                          f"    {state_read('stack')}.pop()",
                          "    return U"])

    def children(self):
        return [self.body]


DONE, TIMES = 1, 2   # a repeat's frame: [step index, passes begun, passes to run]


@step_kind("repeat", "run steps a number of times (as: VAR counts 1, 2, ...)",
           keys=(STEPS_BESIDE,
          Key("as", "variable name", "counts the passes 1, 2, ...", place="beside")))
class Repeat(Step):
    frame_shape = (whole("passes begun"), whole("passes to run", low=None))
    me_var: str | None      # the variable holding 'me' where the step runs

    def __init__(self, times, var, body):
        self.times, self.var, self.body = times, var, body

    @classmethod
    def build(cls, ctx, main, rest, path, scope):
        cls.check_declared(ctx, main, rest, path)
        times = whole_count(ctx, ctx.expr(main, (*path, "repeat"), has_me=scope.has_me, expect=INT), (*path, "repeat"))
        var = rest.get("as")
        if var is not None:
            var = ctx.declare_var(var, INT, (*path, "as"))
        body = ctx.steps(rest.get("steps", []), (*path, "steps"), scope)
        step = cls(times, var, body)
        step.me_var = scope.me_var
        return step

    watched = False     # whether a trigger or end condition reads the pass's number (settle)
    hidden_kept: tuple | None = None   # (the ruleset, what reads_hidden found)

    def settle(self, quiet, watched_vars):
        self.watched = self.var is not None and self.var in watched_vars

    def enter(self, S):
        try:
            return [self.index, 0, self.times(S, self.me(S, self.me_var), None)]
        except Exception as e:   # (its count's error: located here, not at the step entering it)
            at_step(e, self)
            raise

    def hidden_values(self, S, frame, seat, rng):
        """A determinization for ``seat`` (engine/knowledge.py): a count that read a private
        variable, a counter not every seat sees (``repeat: "_secret"``) or the cards of a zone
        instance the seat does not see (``count(hand[0] where n > 6)`` for any seat but 0:
        ``unseen_by``) is counted again on what the world holds of them now, never below the
        passes begun; one that cannot be counted there (a private number the world holds as none)
        ends with the pass running. A seat that sees every zone instance the count read knows
        it: the count stays the flow's own, read when the loop started, as does a count of how
        many cards zones hold (``count(hand[0])``: every seat sees it; the world holds no earlier
        state to count them as they were)."""
        me = self.me(S, self.me_var)
        if not unseen_by(S, reads_hidden(self, S, self.times)[0], seat, me):
            return 0
        try:
            times = self.times(S, me, None)
        except Exception:   # noqa: BLE001 - any failure of the count: no pass after this one
            times = None
        frame[TIMES] = max(times, frame[DONE]) if times.__class__ is int else frame[DONE]
        return weight(self.times)

    def flow_source(self, g):
        lines = [f"def R{self.index}(S, frame):",
                 f"    k = frame[{DONE}]",
                 f"    if k >= frame[{TIMES}]:",
                 f"        {state_read('stack')}.pop()",
                 "        return U",
                 f"    frame[{DONE}] = k + 1"]
        if self.var is not None:
            lines.append(f"    {var_write(self.var, 'k + 1')}")
            if self.watched:   # the loop checks, then runs the body
                return "\n".join([*lines, f"    {state_read('stack')}.append({g.enter(self.body)})", "    return None"])
        return "\n".join([*lines, *g.enters(self.body, "    ")])

    def children(self):
        return [self.body]


def whole_count(ctx, fn, path):
    """A flow's seat or count (a turns' ``from:`` and ``rounds:``, a repeat's count, ``path``'s key)
    held to a whole number, as a frame keeps it and a saved state's frames are held to: one of
    type num (``rounds: "n / 2"``) is an error at load; one of type any, or made of one, is
    checked where it is computed (expr/builtins.py ``whole_number``: 1.5 laps, or seat 0.5 asked
    a decision, a located runtime error), its function compiled again with the check in it."""
    if fn.type == NUM:
        ctx.error(f"{path[-1]} is a whole number, and this may have a fraction: divide with //", path, "type")
    if walked(fn.type, fn.proven) != ANY:
        return fn
    src = whole_number(ctx.compiler, fn.source, path[-1])
    checked = ctx.compiler.to_function(src, f"{path[-1]}: {src[:40]}")
    checked.__dict__.update({k: v for k, v in vars(fn).items() if k not in ("code", "body")})
    checked.source = src
    return checked


class _Loop(Step):
    negate = False
    frame_read_only = True   # (its run reads nothing of its frame: FlowSource.enter makes a tuple)

    def __init__(self, cond, body, me_var):
        self.cond, self.body, self.me_var = cond, body, me_var

    @classmethod
    def build(cls, ctx, main, rest, path, scope):
        cls.check_declared(ctx, main, rest, path)
        cond = ctx.expr(main, (*path, cls.kind), has_me=scope.has_me, expect=BOOL)
        body = ctx.steps(rest.get("steps", []), (*path, "steps"), scope)
        return cls(cond, body, scope.me_var)

    def flow_source(self, g):
        run = [f"def R{self.index}(S, frame):", *self.entry_source(g, "frame", "    ")]
        if not g.runs_on:
            return "\n".join(run)
        # a new pass alone, for a climb that tested the condition itself (climb_source)
        return "\n".join([*run, "", f"def {self._pass(g)}(S, frame):", *g.enters(self.body, "    ")])

    pushes_late = True   # (a new frame's entry pushes it once the loop is not done: FlowSource.run_new)

    def entry_source(self, g, frame: str, pad: str, late=None) -> list:
        """The run's lines, which read nothing of the frame: also written where a new frame of the
        loop is pushed (FlowSource.run_new), no call. ``late``: the frame not pushed yet
        (building/late.py): the condition tested first, where it reads no frame (its compiler's
        record complete), its frame pushed with those of the body's entry; where it raises, the frames
        pushed then, as the reference stands, and where the loop is done, none."""
        stack = state_read("stack")
        access = getattr(self.cond, "access", None)
        if late is not None and (access is None or access.opaque):
            late, lines = None, late.push(pad, f"({frame} := {g.enter(self)})")
        else:
            lines = []
        if late is None:
            return [*lines, *self._test(g, pad), f"{pad}    {stack}.pop()", f"{pad}    return U", *g.enters(self.body, pad)]
        own = g.enter(self)
        return [f"{pad}try:", *self._holds(g, pad + "    "), f"{pad}except BaseException:   # (the reference's stand: the frame pushed)",
                *late.push(pad + "    ", own), f"{pad}    raise", self._done(pad), *late.before(pad + "    "), f"{pad}    return U",
                *g.enters(self.body, pad, late.inside(own))]

    def _test(self, g, pad: str) -> list:
        """The condition, and the test that the loop is done (its body follows)."""
        return [*self._holds(g, pad), self._done(pad)]

    def _holds(self, g, pad: str) -> list:
        """The condition's value, as ``holds``."""
        return g.assign(self.cond, "holds", g.me(self.me_var), pad)

    def _done(self, pad: str) -> str:
        """The test that the loop is done, ``holds`` known (its body follows)."""
        return f"{pad}if {'holds' if self.negate else 'not holds'}:"

    def _pass(self, g) -> str:
        return f"{g.run(self)}_pass"

    def climb_source(self, g, frame: str, pad: str, done: list, ran: list) -> list:
        """The run of ``frame``, a frame of this loop found on top by a resolve going up the flow
        (building/trips.py), written there: its test in place; where the loop is done, its frame
        removed, then ``done`` (it changed, asked and ended nothing); else a new pass, its body
        entered by a call of the run's own lines after the test (``R<i>_pass``, no second
        test), ``changed`` what it reports, then ``ran``. ``done`` and ``ran``: lines at ``pad``."""
        return [*self._test(g, pad), f"{pad}    {state_read('stack')}.pop()", *(f"    {line}" for line in done),
                f"{pad}else:", f"{pad}    changed = {self._pass(g)}(S, {frame})", *(f"    {line}" for line in ran)]

    def children(self):
        return [self.body]


@step_kind("while", "run steps again and again while a condition holds (checked before each pass)",
           keys=(STEPS_BESIDE,))
class While(_Loop):
    negate = False


@step_kind("until", "run steps again and again until a condition holds (checked before each pass)",
           keys=(STEPS_BESIDE,))
class Until(_Loop):
    negate = True


# a turns step's frame: [step index, the seats' order this lap, the position in it, laps done,
# laps to run (None: until its condition holds)]
ORDER, POS, LAPS, LAP_LIMIT = 1, 2, 3, 4


@step_kind("turns", "each player in turn runs the steps, with me = that player",
           keys=(Key("from", "expression: player", "the first seat", default=0),
          Key("order", "clockwise or counterclockwise", "the way round the table", default="clockwise"),
          players_key("who takes turns"),
          Key("sort_by", "expression: number", "seats by this value, highest first (ties keep seat order)"),
          Key("rounds", "expression: int", "times round the table", default=1),
          Key("until", "condition", "go round until it holds (checked before each turn)"),
          Key("skip", "condition", "a seat for which it holds misses its turn"),
          Key("as", "variable name", "the variable holding the seat", default="turn_player"),
          Key("steps", "steps", "each turn's steps, me = the seat", place="either")))
class Turns(Step):
    """Frame: [index, ORDER, POS, LAPS, LAP_LIMIT] (the slots above)."""
    frame_shape = (listof("the seats' order this lap", seat("a seat")), whole("the position", upto=(ORDER,)),
                   whole("laps done"), whole("laps to run", low=None, none=True))

    watched = True      # whether a trigger or end condition reads the turn's player (settle)
    me_var: str | None      # the variable holding 'me' where the step runs
    start: ExprFn | None    # the first seat (None: the first of the seats)
    who: ExprFn | None      # the seats taking turns (None: all)
    sort_by: ExprFn | None  # a seat's key, highest first (None: round the table from start)
    rounds: ExprFn | None   # laps (None: one, or as many as until needs)
    until: ExprFn | None    # checked after each turn: true ends the step
    skip: ExprFn | None     # true: the seat's turn is skipped
    clockwise: bool
    var: str                # the variable holding the turn's player
    body: Step              # the steps each turn runs

    rotations: tuple | None = None   # the seats' orders from each first seat (tricks.rotations), where they are all a lap takes

    def __init__(self):
        self.start = self.who = self.sort_by = self.until = self.skip = None
        self.rounds = None
        self.clockwise = True

    @classmethod
    def build(cls, ctx, main, rest, path, scope):
        spec = cls.check_declared(ctx, {} if main is None else main, rest, path)   # (- turns: alone: one round)
        p = (*path, "turns")
        step = cls()
        step.me_var = scope.me_var
        has_me = scope.has_me
        if "from" in spec:
            step.start = whole_count(ctx, ctx.expr(spec["from"], (*p, "from"), has_me=has_me, expect=PLAYER), (*p, "from"))
        order = spec.get("order", "clockwise")
        if order not in ("clockwise", "counterclockwise"):
            ctx.error(f"order is clockwise or counterclockwise, got {order!r}", (*p, "order"), "enum")
        step.clockwise = order != "counterclockwise"
        if "players" in spec:
            step.who = ctx.expr(spec["players"], (*p, "players"), has_me=has_me, expect="list")
        var = spec.get("as", "turn_player")
        if "as" not in spec and var in scope.seats:   # (a turns inside another: the default is taken)
            ctx.error(f"this turns stands where turn_player {scope.holding(var)}: "
                      "write as: NAME, a variable of its own holding its player (the default, turn_player, would "
                      "change who me is there)", p, "missing-key", "as: NAME (a name of your own, e.g. as: inner_player)",
                      key=True)
        else:
            var = ctx.declare_as(var, PLAYER, (*p, "as"), scope)
        step.var = var
        inner = scope.within(var, "the variable of an enclosing turns")
        if "sort_by" in spec:
            with ctx.asking(None):   # (each seat's key: me = that seat)
                step.sort_by = ctx.expr(spec["sort_by"], (*p, "sort_by"), has_me=True, expect="num")
        if "rounds" in spec:
            step.rounds = whole_count(ctx, ctx.expr(spec["rounds"], (*p, "rounds"), has_me=has_me, expect=INT), (*p, "rounds"))
        if "until" in spec:
            step.until = ctx.expr(spec["until"], (*p, "until"), has_me=has_me, expect=BOOL)
        if "skip" in spec:
            with ctx.asking(None):   # (each seat's: me = that seat)
                step.skip = ctx.expr(spec["skip"], (*p, "skip"), has_me=True, expect=BOOL)
        if step.who is None and step.sort_by is None and step.clockwise and ctx.names.max_players <= MAX_ROTATED:
            step.rotations = rotations(ctx.names.max_players)   # (each lap's order: a table's, written in)
        body_spec = spec.get("steps", rest.get("steps", []))
        body_path = (*p, "steps") if "steps" in spec else (*path, "steps")
        with ctx.compiler.access.apart():   # (what the steps read of me is the turn's player: expr/access.py)
            step.body = ctx.steps(body_spec, body_path, inner)
        return step

    def settle(self, quiet, watched_vars):
        self.watched = self.var in watched_vars

    hidden_kept: tuple | None = None   # (the ruleset, what reads_hidden found)

    def hidden_values(self, S, frame, seat, rng):
        """A determinization for ``seat`` (engine/knowledge.py), as a repeat's: laps to run that
        read a private variable, a hidden counter or the cards of a zone instance the seat does
        not see (``rounds: "_secret"``; ``unseen_by``) are counted again on the world's values,
        never fewer than the lap running (none counted: the lap running is the last); a lap's
        order that read one (``sort_by: "power[me]"``, ``players:``, ``from:``) is made again
        there (``seats_again``)."""
        me, work = self.me(S, self.me_var), 0
        rounds, start, who, sort_by = reads_hidden(self, S, self.rounds, self.start, self.who, self.sort_by)
        if self.rounds is not None and frame[LAP_LIMIT] is not None and unseen_by(S, rounds, seat, me):
            try:
                laps = self.rounds(S, me, None)
            except Exception:   # noqa: BLE001 - any failure of the count: no lap after this one
                laps = None
            frame[LAP_LIMIT] = max(laps, frame[LAPS] + 1) if laps.__class__ is int else frame[LAPS] + 1
            work += weight(self.rounds)
        who = unseen_by(S, who, seat, me)
        if who or unseen_by(S, start, seat, me) or unseen_by(S, sort_by, seat, None):   # (sort_by: each seat's key)
            seq, pos = frame[ORDER], frame[POS]   # (the seats still to play: counted again where players: read it)
            frame[ORDER] = seats_again(seq, pos, lambda: self.order(S), None if who else seq[pos:], S.n)
            work += sum(weight(fn) * k for fn, k in ((self.start, 1), (self.who, 1), (self.sort_by, S.n)) if fn is not None)
        return work

    def order(self, S):
        me = self.me(S, self.me_var)
        n = S.n
        if self.start is not None:
            first = self.start(S, me, None)
            ring = [(first + k) % n for k in range(n)] if self.clockwise else [(first - k) % n for k in range(n)]
        else:
            ring = list(range(n)) if self.clockwise else [(-k) % n for k in range(n)]
        if self.who is None:
            seats = ring   # every player, from the first one round the table
        else:
            seats = list(self.who(S, me, None))
            rank = {p: i for i, p in enumerate(ring)}
            seats.sort(key=rank.__getitem__)
        if self.sort_by is not None:   # stable: ties keep the order round the table
            sort_by = self.sort_by
            keys = {p: -sort_by(S, p, None) for p in seats}
            seats.sort(key=keys.__getitem__)
        return seats

    def enter(self, S):
        me = self.me(S, self.me_var)
        try:
            laps = self.rounds(S, me, None) if self.rounds is not None else (None if self.until is not None else 1)
            return [self.index, self.order(S), 0, 0, laps]
        except Exception as e:   # (its laps' or its first lap's error: located here)
            at_step(e, self)
            raise

    def flow_source(self, g):
        lines = [f"def R{self.index}(S, frame):"]
        if self.until is not None and self.me_var is not None:
            lines.append(f"    me = {var_ref(self.me_var)}")
        lines.append("    while True:")
        if self.until is not None:
            lines += [*g.assign(self.until, "over", "me" if self.me_var is not None else "None", "        "),
                      "        if over:",
                      f"            {state_read('stack')}.pop()",
                      "            return None"]
        lines += [f"        seq = frame[{ORDER}]",
                  f"        pos = frame[{POS}]",
                  "        if pos >= len(seq):",
                  f"            frame[{LAPS}] += 1",
                  f"            if (frame[{LAP_LIMIT}] is not None and frame[{LAPS}] >= frame[{LAP_LIMIT}]) or not seq:",
                  f"                {state_read('stack')}.pop()",
                  "                return None",
                  *self._lap_source(g),
                  "            pos = 0",
                  "        player = seq[pos]",
                  f"        frame[{POS}] = pos + 1"]
        if self.skip is not None:   # (a turn skipped counts as the turn's trip would: every seat
            # skipped lap after lap, with laps or an until that never ends them, meets the budget)
            lines += [f"        if {g.fn(self.skip)}(S, player, None):",
                      f"            {state_add('steps', 1 + self.charge)}",
                      f"            if {state_read('steps')} > {g.max_steps}:",
                      "                _over_budget(S)",
                      "            continue"]
        lines.append(f"        {var_write(self.var, 'player')}")
        if self.watched:   # the loop checks, then runs the body
            lines += [f"        {state_read('stack')}.append({g.enter(self.body)})", "        return None"]
        else:   # (the body entered knowing the player a seat, as the order holds only seats)
            lines += g.enters(self.body, "        ", g.late((), frozenset((self.var,))))
        return "\n".join(lines)

    def _lap_source(self, g) -> list:
        """The seats' order for a new lap. Specialised: round the table from the first seat, every
        seat in turn, the table's rotation (a tuple: frame contents are replaced, never mutated)."""
        if self.rotations is None or g.plain:
            return [f"            frame[{ORDER}] = seq = {g.fn(self.order)}(S)"]
        n, order = state_read("n"), self._rotation(g)
        if order is not None:
            return [f"            frame[{ORDER}] = seq = {order}"]
        assert self.start is not None
        return [f"            first = {g.value(self.start, g.me(self.me_var))}",   # (not a whole number: the order's own error)
                f"            frame[{ORDER}] = seq = {g.fn(self.rotations)}[{n}][first % {n}] if first.__class__ is int "
                f"else {g.fn(self.order)}(S)"]

    def _rotation(self, g) -> str | None:
        """The seats' order round the table from the first seat, as the table's rotation, where the
        first seat is a whole number written (None elsewhere, and in the plain reference)."""
        first = shape(self.start.source) if self.start is not None else Const(0)
        if self.rotations is None or g.plain or not (isinstance(first, Const) and type(first.value) is int):
            return None
        n = state_read("n")
        return f"{g.fn(self.rotations)}[{n}][{'0' if first.value == 0 else f'{first.value} % {n}'}]"

    def enter_source(self, g) -> str | None:
        """A new frame as a list display (FlowSource.enter), its first lap's order the table's
        rotation (``_rotation``: no list made), where there is one; else None (``enter``)."""
        order = self._rotation(g)
        if order is None or (self.rounds is not None and not g.bare(self.rounds)):   # (a call, which may
            return None   # raise: made by enter, its error located here)
        laps = g.value(self.rounds, g.me(self.me_var)) if self.rounds is not None else "None" if self.until is not None else "1"
        return f"[{self.index}, {order}, 0, 0, {laps}]"

    def children(self):
        return [self.body]


class Conditional(Step):
    """``if: COND`` in a flow list whose ``then`` or ``else`` holds steps (an ``if`` of effects
    only stays an effect, run inline). Built by building/builder.py ``steps()``, not from a key
    of its own: the YAML is the effect's ``if / then / else``. Frame: [index] until the
    branch is entered, then [index, 1]."""
    kind = "if"
    frame_shape = (ENTERED,)

    def __init__(self, cond, then, orelse, me_var):
        self.cond, self.then, self.orelse, self.me_var = cond, then, orelse, me_var

    @classmethod
    def from_item(cls, ctx, item, path, scope):
        ctx.check_keys(item, ("if", *key_names(IF_KEYS, "beside")), path)
        cond = ctx.expr(item.get("if"), (*path, "if"), has_me=scope.has_me, expect=BOOL)
        then = ctx.steps(item.get("then") or [], (*path, "then"), scope)
        orelse = ctx.steps(item["else"], (*path, "else"), scope) if item.get("else") else None
        return cls(cond, then, orelse, scope.me_var)

    def flow_source(self, g):
        lines = [f"def R{self.index}(S, frame):",
                 "    if len(frame) == 1:",
                 *g.assign(self.cond, "holds", g.me(self.me_var), "        "),
                 "        if holds:",
                 "            frame.append(1)",
                 *g.enters(self.then, "            ")]
        if self.orelse is not None:
            lines += ["        frame.append(1)", *g.enters(self.orelse, "        ")]
        else:
            lines += [f"        {state_read('stack')}.pop()", "        return U"]
        lines += [f"    {state_read('stack')}.pop()", "    return U"]
        return "\n".join(lines)

    def children(self):
        return [self.then] + ([self.orelse] if self.orelse is not None else [])
