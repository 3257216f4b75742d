"""The Step base class, the registries of step, effect and section kinds, and Sequence (a list of steps)."""
from __future__ import annotations

from ..engine.frames import Slot, whole
from ..engine.protocol import UNCHANGED
from ..expr.parser import bare_name
from ..expr.types import CARD, PLAYER, is_list, list_of
from ..expr.names import state_add, state_read, var_at
from .contract import BuildContext, FlowWriter, Key, RunState, key_names, required_names
from .step_scope import StepScope

STEP_KINDS: dict[str, type[Step]] = {}
IF_NONE = ("skip", "pass", "end_game")   # what a step with no option to offer does (Step.no_option)
_CARDS = list_of(CARD)
# keys several step kinds share (their tables: step_kind(keys=))
WHO = Key("who", "expression: player", "who is asked (me: as where the step stands)", default="me")
IF_NONE_KEY = Key("if_none", "skip, pass or end_game", "what happens when there is nothing to offer", default="skip")
STEPS_BESIDE = Key("steps", "steps", "the steps inside", place="beside")
# an if's keys, beside its own: an effect (building/effects.py), or a step when they hold steps (flow.py Conditional)
IF_KEYS = (Key("then", "effects (in a flow: steps)", "run when the condition holds", place="beside"),
           Key("else", "effects (in a flow: steps)", "run when it does not", place="beside"))

# UNCHANGED (engine/protocol.py) is what run() returns when it changed nothing but frames. A step that pushes a
# child's frame having changed nothing runs the child's run at once and returns its result: the loop would run it
# next with no check between, so this saves a trip through the loop. (Only down the flow: no deeper than the flow.)
SECTIONS: dict = {}


def section_kind(name: str):
    """Register the compiler of a top-level ruleset key owned by a mechanic's module.

    ``fn(ctx, spec, path, ruleset)`` runs once the cards are built (their attribute tables are known) and before
    zones, expressions and steps compile; it may add names to ``ctx.names.namespace`` for its built-in functions.
    The key must also be in the schema."""
    def register(fn):
        SECTIONS[name] = fn
        return fn
    return register


EFFECT_KINDS: dict[str, str] = {}   # effect kind -> its one-line doc (schema, docs, did-you-mean)
EFFECT_EMITTERS: dict = {}          # effect kind -> the function that emits its Python lines
# effect kind -> its table of keys (contract.Key); a kind whose value is not a mapping of fixed keys (shuffle: a
# zone, set: variables) has none
EFFECT_KEYS: dict[str, tuple[Key, ...]] = {}
EFFECT_SEAT_NOTED: set[str] = set()   # kinds whose lines name ``me`` only where noted (effect_kind)


def effect_kind(name: str, doc: str, keys: tuple[Key, ...] | None = None, seat_noted: bool = False):
    """Register an effect kind from a mechanic's own module.

    The function is called as ``fn(fx, em, spec, path, locals, has_me)`` at compile time and
    emits Python lines with ``em.line(...)``; ``fx`` is the effect-list compiler
    (mechanics/contract.py ``EffectContext``; ``fx.access`` is where it notes what its lines
    touch beyond its expressions and targets: expr/access.py). With ``keys``, the effect is a
    mapping of those keys, checked before ``fn`` is called (``fn`` is not called when they are
    wrong). ``seat_noted``: its lines name ``me`` only where it is noted (expressions, targets,
    events, enter triggers); else written in place ``me`` is bound first (flowgen.py effects)."""
    def register(fn):
        EFFECT_KINDS[name] = doc
        EFFECT_EMITTERS[name] = fn
        EFFECT_SEAT_NOTED.update([name] if seat_noted else [])
        if keys is not None:
            EFFECT_KEYS[name] = tuple(keys)
        return fn
    return register


def checked_mapping(ctx, spec, path, keys):
    """``spec`` if it is a mapping of ``keys`` (contract.Key) holding every required one, else
    None, the problem reported at ``path`` (an effect's keys: checked before its emitter runs)."""
    required = required_names(keys)
    optional = tuple(k for k in key_names(keys) if k not in required)
    if not isinstance(spec, dict):
        ctx.error(f"expected a mapping with {', '.join(required) or 'options'}", path, "effect")
        return None
    for k in required:
        if k not in spec:
            takes = ", ".join(f"{x}:" for x in required) + (
                f" (and optionally {', '.join(f'{x}:' for x in optional)})" if optional else "")
            ctx.error(f"missing required key '{k}'", path, "missing-key",
                      f"{path[-1]} takes {takes}" if isinstance(path[-1], str) else None, key=True)
            return None
    for k in spec:
        if k not in required and k not in optional:
            ctx.unknown("key", k, [*required, *optional], (*path, k), key=True)
    return spec


def step_kind(name: str, doc: str, keys: tuple[Key, ...] = ()):
    """Register a Step subclass under the YAML key ``name``, with its table of keys
    (mechanics/contract.py ``Key``: what ``check_declared`` accepts, the schema and the
    reference list)."""
    def register(cls):
        cls.kind, cls.doc, cls.keys = name, doc, tuple(keys)
        STEP_KINDS[name] = cls
        return cls
    return register


class Step:
    """A resumable step. Subclasses implement build(), enter(), run() and, if they ask, resolve().
    Its members, grouped by the client that calls them: mechanics/contract.py ``CLIENTS``."""
    kind = "?"
    doc = ""
    keys: tuple[Key, ...] = ()   # its table of keys (step_kind)
    prompt: str | None = None
    inline = False      # True for effect steps: Sequence runs them without a frame
    loc = None
    index = -1
    work = 0            # worst-case operations of its own expressions (building/builder.py _weighed)
    charge = 0          # budget units a run costs beyond one: work // STEP_WORK_UNIT
    entry_charged = True   # a new frame's run computes what it is charged for (run at once too: trips.py at_once)
    if_none = "skip"    # what happens when it has no option to offer (IF_NONE)
    none_probe = None   # the coverage counter of those times, when if_none was not declared

    me_var: str | None = None   # the variable holding who `me` is where the step stands (None: no one)

    @classmethod
    def build(cls, ctx: BuildContext, main, rest, path, scope: StepScope) -> "Step":
        """The step of ``- KIND: main`` (``rest``: the item's other keys) at ``path``."""
        raise NotImplementedError

    @classmethod
    def started(cls, ctx, main, rest, path, scope) -> tuple:
        """A new step of this kind at ``path``: its keys checked (``check_declared``) and the
        ``me`` of the scope it runs in noted. Returns (the step, its checked mapping, the path of
        its keys: ``(*path, kind)``), what every kind's ``build`` starts from."""
        main = cls.check_declared(ctx, main, rest, path)
        s = cls()
        s.me_var = scope.me_var
        return s, main, (*path, cls.kind)

    @classmethod
    def check_declared(cls, ctx, main, rest, path):
        """Check ``- KIND: main`` (``rest``: the item's other keys) at ``path`` against the
        kind's table of keys: a kind with keys inside its mapping needs one, and unknown keys
        and missing required ones are located errors; beside any kind, ``doc:`` quotes the
        rulebook's sentence (rulebook explain shows it). Returns ``main`` ({} if it is no mapping)."""
        inside = [k for k in cls.keys if k.place != "beside"]
        if inside and not isinstance(main, dict):
            ctx.error(f"{cls.kind} takes a mapping ({', '.join(key_names(inside))})", (*path, cls.kind), "step")
            main = {}
        ctx.check_keys(rest, (*key_names(cls.keys, "beside"), "doc"), path)   # any step may quote its rule
        if inside:
            ctx.check_keys(main, key_names(inside), (*path, cls.kind), required=required_names(inside))
        return main

    fresh_frame: tuple = ()   # the slots of a new frame after the index, where they are constants
    frame_shape: tuple[Slot, ...] = ()   # what each slot after the index holds (engine/frames.py): a saved frame's check

    def frame_fault(self, frame: list) -> str | None:   # (a saved frame whose slots fit: engine/frames.py)
        return None   # what does not fit in its slots together (a pay's: its units left and owed)

    def enter(self, S: RunState) -> list:
        """The frame for a new run of this step (generated code writes it as a list display)."""
        return [self.index, *self.fresh_frame]

    def run(self, S: RunState, frame: list):
        """Run from ``frame``: push a child's frame, pop its own, or ask (``S.dec = (seat,
        options)``). Return UNCHANGED if it changed nothing but frames."""
        raise NotImplementedError

    def resolve(self, S: RunState, frame: list, value):
        """Take the answer. Return UNCHANGED if it changed nothing but frames (the engine then
        skips checking triggers and end conditions once); anything else is always safe."""
        raise NotImplementedError(f"step '{self.kind}' asks no decision")

    def observe(self, S, frame, player) -> dict | None:
        """What this running step adds to ``player``'s observation (public or theirs only)."""
        return None

    # True on a step whose question is what happened at a real table (a dexterity attempt's outcome under
    # resolve: ask), not a choice: `play --resolve ask` asks it of the person at the terminal whatever agent
    # holds the seat (play/agents/registry.py, TableReporter).
    reports = False

    # what a layout's prices read (an expr.access.Access: the viewer shows them to a seat only when it sees all of
    # it, or decides now); None: unknown
    price_access = None

    def layout(self, S, seat, prices=True) -> dict | None:
        """How a viewer may draw what this step works on, for ``seat`` (None: a spectator): ``{"grid":
        ZONE, "rows": R, "prices": {card: cost}}`` for a market laid as a grid (no prices unless
        ``prices``), or None. Read by the web viewer (interpreter/web/); never by the game."""
        return None

    def option_notes(self, S, options) -> list | None:
        """A short note per option of the pending decision, or None: text, or a cost as
        ``(amount, counter)``, which the viewer says in the counter's words ("3 coins", "1 coin")."""
        return None

    def asked(self, S, frame) -> dict | None:
        """What the pending decision asks beyond its prompt, for a person (play/display/ask.py):
        ``count`` (cards still to give), ``of`` (in all), ``to`` (the receiving seat), ``pay``
        and ``has`` (the counter paid from and what the seat holds), ``can_pass``; ``picked``,
        ``least`` and ``most`` (cards picked so far, and how many may be); ``leads`` and ``led``
        (whether the seat leads the trick, else the card led). None: nothing."""
        return None

    def hidden_cards(self, S, frame, player) -> list:
        """Cards this running step holds outside every zone that ``player`` may not see (a card
        passed face down): a determinization deals them again (engine/knowledge.py)."""
        return []

    def put_hidden_cards(self, S, frame, player, cards) -> None:
        """Put back, in the order ``hidden_cards`` gave them, the cards a determinization dealt."""

    def hidden_values(self, S, frame, seat, rng) -> int | None:
        """Replace, in this running step's frame, what ``seat`` may not know (choices other seats
        made in secret) with values drawn from ``rng``, for a determinization; what the expressions
        it counted again weigh (engine/invariants.py ``weight``: the world's checks), None: none."""

    def reask(self, S, frame) -> None:
        """Forget a pending question so that run() asks it again (after a state patch)."""

    def label(self, S, value) -> str:
        return S.rules.label(value, self.option_type)

    def labels_cards(self) -> bool:
        """Whether its options are cards labelled by the cards' own labels (its labels read the card
        table: the action space then maps a card to its id directly)."""
        return self.option_type == CARD and type(self).label is Step.label and type(self).labels is Step.labels

    def labels(self, S, options) -> list[str]:
        """The labels of a decision's options (State.legal_actions: once a decision for agents
        and the RL adapters, so a step whose options are plain cards reads the table directly)."""
        if self.option_type == CARD and type(self).label is Step.label:
            table = S.rules.card_labels
            if None not in options:   # (a comprehension: a tuple's __getitem__ through map costs twice as much)
                return [table[o] for o in options]
            return [table[o] if o is not None else "none" for o in options]
        if is_list(self.option_type) and type(self).label is Step.label:   # lists ("c4+c2"): joined in one pass
            return S.rules.labels(options, self.option_type)
        return [self.label(S, o) for o in options]

    def named(self, S, frame, value) -> list:
        """What the label of option ``value`` names that a seat may not see (engine/sight.py): card
        ids and ``(counter, owner)`` pairs. By default the card of a card option, the cards of a list."""
        t = self.option_type
        if t == CARD:
            return [value] if type(value) is int and value >= 0 else []   # (not a 'done' or 'pass')
        if t == _CARDS and isinstance(value, (list, tuple)):
            return [c for c in value if type(c) is int]
        return []

    def read_if_none(self, ctx, spec, path) -> None:
        """The step's ``if_none:`` (skip, the default; pass; end_game). Left out, a ruleset
        built with coverage counts the times the step found nothing to offer, and
        ``validate --playouts`` reports them; written out, the author meant it."""
        value = spec.get("if_none", "skip") if isinstance(spec, dict) else "skip"
        if value not in IF_NONE:
            ctx.error(f"if_none is one of {', '.join(IF_NONE)}, got {value!r}", (*path, "if_none"), "enum")
            value = "skip"
        self.if_none = value
        if value == "end_game":
            ctx.has_end_game = True
        if not (isinstance(spec, dict) and "if_none" in spec) and ctx.probes is not None:
            self.none_probe = ctx.probes.add("no_option", f"{self.kind} '{self.prompt}' had no option", path)

    def no_option(self, S):
        """Nothing to offer: the step ends, and with ``if_none: pass`` its variable becomes none,
        with ``end_game`` the game ends at once (scored as it stands)."""
        if self.none_probe is not None:
            S.rules.probes.counts[self.none_probe] += 1
        S.stack.pop()
        if self.if_none == "skip":
            return UNCHANGED
        if self.if_none == "pass":
            var = self.choice_var()
            if var is not None:
                S.set_var(var, None)
            return None
        S.over = True
        if S.ev is not None:
            S.ev.append({"ev": "end_game"})
        return None

    def flow_source(self, g: FlowWriter) -> str | None:
        """The source of ``def R<index>(S, frame)``, this step's run() specialised to its place in
        the ruleset (building/flowgen.py; ``g`` names its children's functions and frames), or None."""
        return None

    def resolve_source(self, g: FlowWriter) -> str | None:
        """The source of ``def Q<index>(S, frame, value)``, resolve() specialised, or None."""
        return None

    def skip_source(self, g: FlowWriter, pad: str, push, failed: int = 0) -> list | None:
        """Lines a sequence runs in place of this step's run: they push its frame (``push(slots)``: the
        lines pushing a new frame of the step's holding ``slots``, the sources of the values after its
        index, as ``f``) and return what the run returns, or end where it would only pop it (a pick by
        nobody; ``failed``: steps added where they raise, FlowSource.found). None: run it."""

    def settle(self, quiet, watched_vars) -> None:
        """Once the whole ruleset is built: learn which of this step's own changes the
        when-triggers and end conditions can see (``quiet.quiet(fn)`` for an effect function,
        ``name in watched_vars`` for a variable), so that run() and resolve() report UNCHANGED
        after a change no check reads (building/watch.py)."""

    def choice_var(self) -> str | None:
        """The variable the chosen option is stored in, if any: while it holds the choice every
        observation shows it, and a private one (``_name``) keeps it from the other seats."""
        return None

    def event_amounts(self) -> dict:
        """The fields of this step's events that carry amounts of counters, ``{event: {field:
        [counters]}}``: a log redacted for a seat that may not see one of them drops the field."""
        return {}

    option_type = "any"
    asks = False        # True for steps that ask decisions (their labels make the action space)

    def vocabulary(self, V, spec) -> list[str] | None:
        """Every label this step's decisions can offer, from the declarations (``V``: the
        ruleset's domains, adapters/actions.py; ``spec``: the step's YAML); None: cannot tell."""
        return None

    def children(self) -> list["Step"]:
        return []

    def pushed_over(self) -> list["Step"]:
        """The steps besides ``children()`` whose frame this step pushes over its own (an attempt's
        target and report, which read and write the attempt's frame: engine/frames.py ``stacking``)."""
        return []

    def takes_place(self, child) -> bool:
        """Whether a frame of ``child`` (one of ``children()``) takes the place of this step's frame,
        which is then never beneath it (a sequence's last step, an attempt's outcome, a branch's
        alternative: building/trips.py climbs past it)."""
        return False

    @staticmethod
    def me(S, scope_var):
        return S.var(scope_var) if scope_var is not None else None

    @staticmethod
    def asker(ctx, value, path, scope):
        """The compiled ``who:`` of a step that asks (default: me), and whether it is just
        ``me`` (the step then reads the acting player itself: no call per question)."""
        who = ctx.expr(value, path, has_me=scope.has_me, expect=PLAYER)
        return (who, True) if bare_name(who.tree) == "me" else (checked_seat(ctx, who), False)


def checked_seat(ctx, who):
    """A step's ``who:`` (or a pass's ``to:``) that must be a seat (or none): ``who: 99`` is a located
    runtime error. Compiled again as statements with the test written in (``_seat`` called only to
    raise), so that a step writing them in place (flowgen.py ``assign``) makes no call a question."""
    test = f"if _who is not None and (_who.__class__ is not int or not 0 <= _who < {state_read('n')}): _seat(S, _who)   # (raises)"
    fn = ctx.compiler.to_function("_who", who.source, (f"_who = {who.source}", test))
    fn.source, fn.type, fn.distinct, fn.access = f"_seat(S, {who.source})", who.type, who.distinct, who.access
    return fn


class Effects(Step):
    """Consecutive effects in a flow list, compiled to one function and run inline."""
    kind = "effects"
    inline = True
    quiet = False       # True: cannot change what when-triggers and end conditions read (watch.py)
    noted: tuple | None = None   # the marks of fn where such a change may begin (watch.Quiet.noted); None: unknown

    def __init__(self, fn, me_var):
        self.fn, self.me_var = fn, me_var

    def flow_source(self, g):   # (a whole body's run; in its one-step sequence's place, located at it, leaving that frame: g.placed)
        seq, stack = g.placed(self), state_read("stack")
        left = [] if seq is None else [f"{stack}.append({g.enter(seq)})"]
        return "\n".join([f"def R{self.index}(S, frame):", f"    {stack}.pop()", *g.effects(self.fn, g.me(self.me_var), "    ", *(
            () if seq is None else (self,)), failed=left), *(g.ended(self.fn, "    ", left) if left else []), f"    return {'U' if self.quiet else 'None'}"])


NEXT = 1   # the slot of a sequence's frame holding the position of the next child to run


class Sequence(Step):
    """Run child steps in order. Frame: [index, NEXT]."""
    kind = "steps"

    fresh_frame = (0,)
    frame_shape = (whole("the next child's position", high=lambda s: len(s.steps)),)

    def __init__(self, steps):
        self.steps = steps

    def flow_source(self, g):
        """One branch per place the frame can resume at (the start, and just after each child
        step that is not the last): the effects up to the next child step written out, then
        that step entered (and run at once if no check can see what the effects changed). A
        frame resumed at another place (a patched state) runs the plain loop over the children,
        which is also the whole of the plain reference (``g.plain``)."""
        if g.plain:
            return self._plain_source(g, f"R{self.index}")
        lines = [f"def R{self.index}(S, frame):", f"    k = frame[{NEXT}]"]
        n, start, segment, own = len(self.steps), 0, [], g.own_trips(self)
        for pos, child in enumerate(self.steps):
            if child.inline:
                segment.append(child)
                continue
            lines += self._segment(g, start, segment, child, pos == n - 1, pos + 1, self.charge, own=own or start > 0)
            start, segment = pos + 1, []
        if segment or not self.steps:   # effects after the last child step, or nothing at all
            lines += self._segment(g, start, segment, None, True, None, self.charge)
        lines.append(f"    return R{self.index}_any(S, frame)   # resumed at another place (a patched state)")
        return "\n".join(lines) + "\n\n" + self._plain_source(g, f"R{self.index}_any")

    def _plain_source(self, g, name):
        """The children run in order from the frame's place: the effects inline (each error
        located at its effect), the first child step entered, and run at once if nothing changed."""
        return "\n".join([
            f"def {name}(S, frame):",
            f"    steps = {g.fn(self.steps)}", f"    i = frame[{NEXT}]",
            "    n = len(steps)", "    result = U",
            "    while i < n:", "        child = steps[i]", "        i += 1",
            "        if child.inline:",
            "            if child.charge:   # costly effects count against the budget (engine/loop.py)",
            f"                {state_add('steps', 'child.charge')}",
            "            if not child.quiet:   # a quiet effect leaves the checks as they were",
            "                result = None",
            "            try:",
            f"                child.fn(S, {var_at('child.me_var')} if child.me_var is not None else None, None)",
            "            except Exception as e:   # located at the effect, not at the list",
            "                if getattr(e, 'rulebook_step', None) is None:",
            "                    e.rulebook_step = child",
            "                raise",
            f"            if {state_read('over')}:", "                return None", "            continue",
            "        if i == n:   # the last child takes this frame's place (a tail call)",
            f"            {state_read('stack')}[-1] = f = child.enter(S)",
            "        else:", f"            frame[{NEXT}] = i",
            f"            {state_read('stack')}.append(f := child.enter(S))",
            "        if result is not U:   # (the loop checks first; else run at once, charged: building/trips.py at_once)",
            "            return result", f"        {state_add('steps', '(child.charge if child.entry_charged else 0)')}",
            f"        return {state_read('rules')}.runs[child.index](S, f)",
            f"    {state_read('stack')}.pop()",
            "    return result"])

    def entry_source(self, g, frame: str, pad: str) -> list | None:
        """A new frame's run (FlowSource.run_new): its first branch, where the frame is pushed (``frame``). None: plain."""
        if g.plain:
            return None
        first = next((k for k, c in enumerate(self.steps) if not c.inline), None)
        fx, child = (self.steps, None) if first is None else (self.steps[:first], self.steps[first])
        return self._segment(g, 0, fx, child, first is None or first == len(self.steps) - 1, None if first is None else first + 1,
                             self.charge, pad, frame, self.index, g.own_trips(self))

    @staticmethod
    def _segment(g, start, effects, child, last, resume, charge, pad="        ", frame="frame", entry=None, own=True):
        """The branch of the run resuming at ``start`` (``entry``: the sequence's index, written
        where its new frame ``frame`` is pushed: no branch, and a child not applying ends in a
        call of the run from the next place; ``own``: the trip running it is counted as the sequence's
        own, ``1 + charge``, FlowSource.own_trips: else that child hands the loop the frame)."""
        changed, stack = any(not fx.quiet for fx in effects), state_read("stack")
        # noted: a change the checks see noted as made (FlowSource.notes); none made: the child at once
        noted = changed and all(fx.quiet or g.notes(fx) for fx in effects)
        out = [*([f"    if k == {start}:"] if entry is None else []), *([f"{pad}_changed = False"] if noted else [])]
        for fx in effects:
            if fx.charge:   # costly effects count against the budget (engine/loop.py)
                out.append(f"{pad}{state_add('steps', fx.charge)}")
            out += [*(g.noting(fx, pad) if noted else g.effects(fx.fn, g.me(fx.me_var), pad, fx)), *g.ended(fx.fn, pad)]
        if child is None:
            return [*out, f"{pad}{state_read('stack')}.pop()", f"{pad}return {'None if _changed else U' if noted else 'None' if changed else 'U'}"]

        def place(new):   # the last child takes this frame's place (a tail call)
            return [f"{stack}[-1] = f = {new}"] if last else [f"{frame}[{NEXT}] = {resume}", f"{stack}.append(f := {new})"]
        asked = changed and entry is None and start > 0 and g.checks(charge, pad, []) is not None   # (resumed by its trip)
        unchanged = not changed or noted or asked   # (else the loop checks first; asked: here, FlowSource.checks)
        new, run = g.start(child) if unchanged else (g.enter(child), None)
        *mark, push = place(new)   # (a child that may not apply pushes its frame only where it does)
        # (the child's trip counted ahead: raising, this run's instead; testing the budget, as FlowSource.next_step)
        later = child.charge - charge if (noted or asked) and charge != child.charge and g.tests_budget(child) else 0
        failed = (charge - child.charge if noted or asked else 0) + later
        skip = None if not unchanged or run != g.run(child) or not g.constant(child) else child.skip_source(
            g, pad, lambda slots: place(f"[{child.index}, {', '.join(slots)}]")[-1:], failed)
        out += [f"{pad}{line}" for line in mark]
        if noted or asked:   # (the checks, here or the loop's; then its trip to the child, which the reference takes, counted)
            first = skip is None and run == g.run(child)   # (the frame the loop finds pushed before the checks)
            back = [*([] if first else [place(g.enter(child))[-1]]), "return None"]   # (the loop's stand then)
            late = [] if skip is None else [place(g.enter(child))[-1]]   # (the child's frame, where not pushed)
            out += [*([f"{pad}{push}"] if first else []), *(g.checks(charge, pad, back, "_changed" if noted else None)
                                                            if asked else [f"{pad}if _changed:", *(f"{pad}    {x}" for x in back)]),
                    *([f"{pad}{push}"] if not first and skip is None else []), *([] if asked else [   # (nothing changed:
                        # the running trip tested first, its own; any other's, the loop counts: the frame handed back)
                        f"{pad}if {state_read('steps')} > {g.max_steps - 1 - charge}:", *(f"{pad}    {x}" for x in late),
                        f"{pad}    return U"] if own else [*(f"{pad}{x}" for x in late), f"{pad}return U"]),
                    f"{pad}{state_add('steps', 1 + child.charge - later + g.at_once(child, trip=True))}"]
        else:   # (run at once: its charge counted, as the reference's run counts it)
            out += [*(g.charged(g.at_once(child), pad) if unchanged else []), *([f"{pad}{push}"] if skip is None else [])]
        if skip is None:
            ran = [f"{pad}return None" if not unchanged else f"{pad}return {run}(S, f)"]
            return [*out, *(g.recounted(ran, pad, failed, later) if failed or later else ran)]
        # not applying: this frame popped if last, else the next child at once (own: the loop's trip counted)
        return [*out, *(g.recounted(skip, pad, 0, later) if later else skip), *([f"{pad}{state_read('stack')}.pop()", f"{pad}return U"] if last else [f"{pad}return U"] if not own else [
            f"{pad}{state_add('steps', 1 + charge)}", f"{pad}if {state_read('steps')} > {g.max_steps}: _over_budget(S)",
            f"{pad}k = {resume}" if entry is None else f"{pad}return R{entry}(S, {frame})"])]

    def children(self):
        return list(self.steps)

    def takes_place(self, child):
        return bool(self.steps) and self.steps[-1] is child
