"""attempt: a dexterity event (or any physical act) whose outcomes have declared chances.

    - attempt:
        who: me                                # default: me
        target:                                # optional: first the actor names what they try
          from: "hidden_a + hidden_b"          # a list of cards; offered sorted by id, so the
          as: spot                             #   order never tells which zone a card came from
          prompt: try
        as: result                             # optional: a str variable set to the outcome's name
        actor: thrower                         # optional: the seat that attempted, me in the outcomes' steps
        prompt: what happened                  # the question when the table is asked (resolve: ask)
        outcomes:                              # in order; each has chance, if, steps
          miss:  {chance: "1 - skill(me)", steps: [...]}
          wobble: "0.1"                        # shorthand: just a chance, nothing happens
          hit:   {chance: rest, if: "count(pile) > 0", steps: [...]}

``chance`` is an expression (me = the actor) giving a probability in [0, 1]; exactly one
outcome may say ``rest`` (the default when chance is left out): it gets 1 minus the others.
Without a ``rest`` outcome the chances must add up to at most 1 and the remainder means no
outcome. ``if`` says whether an outcome can happen at all; an outcome whose ``if`` fails has
chance 0. Chances outside [0, 1], or adding up to more than 1, are runtime errors located
at the step.

How an attempt is resolved is the game option ``resolve`` (``new_game(options=...)``,
``rulebook play --resolve``):

- ``random`` (default): one uniform draw from the seeded RNG in the state picks the outcome.
- ``ask``: the acting seat is asked what happened, the outcomes whose ``if`` holds being
  the options (chances are not consulted). This is for a game played with the physical
  components, Rulebook keeping the state and the score.

Then the chosen outcome's steps run (they may ask decisions, set variables to end a loop...):
with ``actor: NAME``, for the seat that attempted, held in the variable NAME, ``me`` in those
steps, as a branch's ``as:`` holds the seat that chose (mechanics/branch.py, and the same rules:
required where ``who`` is another than ``me`` and the steps read ``me``; building/seats.py).

Per-seat skill: ``skill(p)`` is seat p's skill, a number in [0, 1]: the game option
``skill`` (a list, one per seat, or one number for all; ``--skill 0.9,0.6``), or else the
ruleset's ``params.skill``, which a ruleset using ``skill()`` must declare (mechanics/skill.py).
"""
from __future__ import annotations

from typing import Any

from lark import Tree

from ..expr.parser import bare_name
from ..expr.runtime import ExprRuntimeError
from ..expr.types import BOOL, NUM, PLAYER, STR
from ..expr.names import state_read, var_write
from ..engine.rng import uniform
from ..engine.protocol import UNCHANGED
from .base import WHO, Step, step_kind
from .contract import Key, key_names
from .attempt_target import ACTOR, CHOSEN, FRAME_SHAPE, STAGE, TARGET_KEYS, Target, secret

REST = "rest"
EPS = 1e-9
OUTCOME_KEYS = (Key("chance", "expression: number, or rest", "its probability; rest: what the others leave",
                   default=REST),
                Key("if", "condition", "it can happen only while it holds"),
                Key("steps", "steps", "what follows it (me = the seat that attempted, held in actor; without actor: "
                    "as before the attempt)"),
                Key("doc", "text", "what it is, for people"))


# ---------------------------------------------------------------------- the step
class _Outcome:
    __slots__ = ("name", "chance", "cond", "body", "given")

    def __init__(self, name, chance, cond, body):
        self.name, self.chance, self.cond, self.body = name, chance, cond, body
        self.given = None   # (k, define, chance): its chance reading outcome k's value as a local


# nodes that give no element to the names below them: a define used only under these means
# what it means at the top of the expression
_PLAIN_NODES = frozenset(("cond", "or_", "and_", "not_", "compare", "in_", "not_in", "range", "add", "sub",
                          "mul", "div", "floordiv", "mod", "neg"))


def _plain_uses(tree, name: str) -> int:
    """How often ``name`` is used in ``tree`` under operators only; -1 when it is used anywhere
    else (inside a filter, a call, an index: where it may mean something else)."""
    if bare_name(tree) == name:
        return 1
    if not isinstance(tree, Tree):
        return 0
    if tree.data not in _PLAIN_NODES:
        return -1 if any(bare_name(t) == name for t in tree.iter_subtrees()) else 0
    uses = [_plain_uses(child, name) for child in tree.children]
    return -1 if -1 in uses else sum(uses)




@step_kind("attempt", "a dexterity event: outcomes with chances from expressions (rolled, or asked at a real table)",
           keys=(WHO,
          Key("target", "mapping", "a card aimed at first, chosen from a zone", keys=TARGET_KEYS),
          Key("as", "variable name", "the variable holding the outcome's name"),
          Key("actor", "variable name", "the variable holding the seat that attempted, me in the outcomes' steps "
              "(required where who is not me and the steps read me)"),
          Key("prompt", "text", "the question when the outcome is asked at the table", default="outcome"),
          Key("outcomes", "mapping", "the outcomes and their chances (one may be rest)", required=True,
              keys=OUTCOME_KEYS, named=True),
          Key("doc", "text", "what the attempt is, for people")))
class Attempt(Step):
    """Frame: [index, STAGE, ACTOR, CHOSEN]. Stages: 0 start, 1 ready to resolve,
    2 outcome known; 9 nothing to attempt. The outcome's steps take the frame's place (the
    attempt is done once they start): no trip through the loop to pop it after them."""
    who: Any                        # the acting seat's expression
    who_me: bool                    # it is just me
    var: str | None                 # the variable the outcome's name is stored in (`as:`)
    actor: str | None               # the variable holding the seat that attempted (`actor:`; None: me is as before)
    target: Target | None          # the step naming what is attempted, if any
    outcomes: list[_Outcome]        # in order: each with its chance, condition and steps
    report: _Report                 # the question asked when the outcome is reported at the table

    @classmethod
    def build(cls, ctx, main, rest, path, scope):
        s, main, p = cls.started(ctx, main, rest, path, scope)
        who = main.get("who", "me")   # (the target, chances and ifs read the seat asked's me: ctx.asking)
        s.who, s.who_me = cls.asker(ctx, who, (*p, "who"), scope)   # (who: -1 is no seat)
        s.prompt = str(main.get("prompt", "outcome"))
        s.var = main.get("as")
        if s.var is not None:
            s.var = ctx.declare_var(s.var, STR, (*p, "as"))
        # the outcomes' steps run for the seat that attempted: me = this variable (None: as before the attempt)
        s.actor = ctx.declare_as(main["actor"], PLAYER, (*p, "actor"), scope) if "actor" in main else None
        inner = scope if s.actor is None else scope.within(s.actor, "the actor: of an enclosing attempt")
        s.target = None
        if "target" in main:
            with ctx.asking(who):
                s.target = Target.make(ctx, main["target"], (*p, "target"), scope)
        s.outcomes = []
        outcomes = main.get("outcomes") or {}
        if not isinstance(outcomes, dict) or not outcomes:
            ctx.error("outcomes is a mapping NAME: {chance: EXPR | rest, if: CONDITION, steps: [...]}",
                      (*p, "outcomes"), "step")
            outcomes = {}
        rests = []
        reads_me = False   # whether the outcomes' steps read me
        for name, spec in outcomes.items():
            op = (*p, "outcomes", name)
            if not isinstance(spec, dict):
                spec = {"chance": spec}
            ctx.check_keys(spec, key_names(OUTCOME_KEYS), op)
            raw = spec.get("chance", REST)
            if raw == REST:
                rests.append(name)
            with ctx.asking(who):   # (the seat asked's chance and condition)
                chance = None if raw == REST else ctx.expr(raw, (*op, "chance"), has_me=True, expect=NUM)
                cond = ctx.expr(spec["if"], (*op, "if"), has_me=True, expect=BOOL) if "if" in spec else None
            body, reads = ctx.steps_as(lambda: ctx.steps(spec.get("steps") or [], (*op, "steps"), inner),  # noqa: B023
                                       s.actor, (*p, "actor"), "the seat that attempted")
            reads_me = reads_me or reads
            s.outcomes.append(_Outcome(str(name), chance, cond, body))
        if reads_me and s.actor is None and not ctx.only_me(who):
            ctx.error("this attempt asks another seat than me, and its outcomes' steps read me: write actor: NAME, "
                      "a variable holding the seat that attempted (me in those steps)", (*p, "who"), "missing-key",
                      "actor: NAME beside who: (a name of your own, e.g. actor: thrower)")
        with ctx.asking(who):
            s._share_chances(ctx, outcomes, p)
        if len(rests) > 1:
            ctx.error(f"only one outcome may have chance: rest (here: {', '.join(map(str, rests))})",
                      (*p, "outcomes"), "step", key=True)
        s.report = ctx.add(_Report(s), (*p, "prompt") if "prompt" in main else p)
        if s.target is not None:
            s.target.attempt = s
        return s

    def _share_chances(self, ctx, specs, path):
        """A chance using an earlier unconditional outcome's chance, a define (``touch``, then
        ``1 - touch``), reads the value the roll already has instead of working it out again:
        compiled a second time with the define as a local (the plain chances() keeps the first)."""
        for k, o in enumerate(self.outcomes):
            if o.chance is None or o.chance.tree is None:
                continue
            for j, earlier in enumerate(self.outcomes[:k]):
                name = bare_name(earlier.chance.tree) if earlier.chance is not None and earlier.cond is None else None
                if name is None or name not in ctx.names.defines or _plain_uses(o.chance.tree, name) < 1:
                    continue
                spec = specs[o.name]
                o.given = (j, name, ctx.expr(spec["chance"] if isinstance(spec, dict) else spec,
                                             (*path, "outcomes", o.name, "chance"),
                                             locals={name: earlier.chance.type}, has_me=True, expect=NUM,
                                             by_name=True))
                break

    option_type = STR
    fresh_frame = (0, None, None)   # STAGE, ACTOR, CHOSEN
    frame_shape = FRAME_SHAPE

    def children(self):
        return [o.body for o in self.outcomes]

    def pushed_over(self):
        return [s for s in (self.target, self.report) if s is not None]

    def takes_place(self, child):
        return True   # (the outcome's steps take the attempt's place)

    # ------------------------------------------------------------------ running
    def possible(self, S, actor):
        return [k for k, o in enumerate(self.outcomes) if o.cond is None or o.cond(S, actor, None)]

    def chances(self, S, actor):
        """The probability of each outcome (0 for those that cannot happen)."""
        possible = set(self.possible(S, actor))
        probs = [0.0] * len(self.outcomes)
        rest = None
        for k, o in enumerate(self.outcomes):
            if k not in possible:
                continue
            if o.chance is None:
                rest = k
                continue
            probs[k] = self.clamped(k, float(o.chance(S, actor, None)))
        total = sum(probs)
        if total > 1 + EPS:
            self.too_likely(total)
        if rest is not None:
            probs[rest] = max(0.0, 1.0 - total)
        return probs

    def clamped(self, k, p):
        """A chance within rounding of [0, 1] made a probability; further out, the error."""
        if not -EPS <= p <= 1 + EPS:
            raise ExprRuntimeError(f"the chance of outcome '{self.outcomes[k].name}' is {p:g}, not between 0 and 1")
        return min(1.0, max(0.0, p))

    def too_likely(self, total):
        raise ExprRuntimeError("the chances of the outcomes add up to "
                               f"{total:g}, more than 1 ({', '.join(o.name for o in self.outcomes)})")

    def told(self, S, actor, k, probs=None) -> None:
        """The events of an attempt's outcome ``k`` (None: no outcome), for a game recording
        them: the roll's chances (``probs``, in the outcomes' order) when it was rolled, then
        the outcome."""
        if probs is not None:
            S.ev.append({"ev": "roll", "who": actor, "chances": {o.name: p for o, p in zip(self.outcomes, probs)}})
        S.ev.append({"ev": "attempt", "who": actor, "outcome": None if k is None else self.outcomes[k].name,
                     **secret(self.var)})

    outcome_seen = None     # UNCHANGED when no check reads the outcome's variable nor the actor's (settle)

    def settle(self, quiet, watched_vars):
        if all(v is None or v not in watched_vars for v in (self.var, self.actor)):
            self.outcome_seen = UNCHANGED

    # ------------------------------------------------------------------ run, written once (building/flowgen.py)
    def flow_source(self, g):
        """The attempt's run. Specialised: a roll's chances written out outcome by outcome (the
        conditions first, then the chances, as chances() asks them), and the outcome's steps
        run at once when no check reads the outcome (the game loop's next iteration written
        in); an outcome reported at the table (``resolve: ask``) takes the plain path, which
        is the whole of the plain reference (``g.plain``)."""
        if g.plain:
            return self._plain_source(g, f"R{self.index}")
        k_self, n, opts = g.step(self), len(self.outcomes), state_read("o")
        probs = ", ".join(f"p{k}" for k in range(n)) + ("," if n == 1 else "")
        lines = [f"def R{self.index}(S, frame):",
                 f"    stage = frame[{STAGE}]",
                 # (the option tested without a call, the options' truth first: most games give none)
                 f"    if stage == 1 and (not {opts} or 'resolve' not in {opts} or {opts}['resolve'] != 'ask'):",
                 f"        actor = frame[{ACTOR}]"]
        for k, o in enumerate(self.outcomes):
            if o.cond is not None:
                lines += g.assign(o.cond, f"c{k}", "actor", "        ")
        rest = None
        for k, o in enumerate(self.outcomes):
            if o.chance is None:
                rest = k
            if o.chance is None or o.cond is not None:
                lines.append(f"        p{k} = 0.0")
            if o.chance is None:
                continue
            pad = "        "
            if o.cond is not None:
                lines.append(f"        if c{k}:")
                pad += "    "
            if o.given is not None:
                j, name, given = o.given
                lines += g.assign(given, "p", "actor", pad, form="float({})", values={name: f"v{j}"})
            elif any(later.given is not None and later.given[0] == k for later in self.outcomes):
                lines += [*g.assign(o.chance, f"v{k}", "actor", pad), f"{pad}p = float(v{k})"]
            else:
                lines += g.assign(o.chance, "p", "actor", pad, form="float({})")
            # (a chance of 0, often: 0.0 as clamped() makes it, without the call)
            lines.append(f"{pad}p{k} = p if 0.0 < p <= 1.0 else 0.0 if p == 0.0 else {k_self}.clamped({k}, p)")
        # (sum() of chances in [0, 1], none -0.0: the same total, added without the call)
        lines += [f"        total = {' + '.join(f'p{k}' for k in range(n))}",
                  f"        if total > {1 + EPS!r}:",
                  f"            {k_self}.too_likely(total)"]
        if rest is not None:
            o = self.outcomes[rest]
            pad = "        "
            if o.cond is not None:
                lines.append(f"        if c{rest}:")
                pad += "    "
            # (max(0.0, 1.0 - total), without the call: max() parses its arguments slowly)
            lines += [f"{pad}p = 1.0 - total", f"{pad}p{rest} = p if p > 0.0 else 0.0"]
        # the outcome drawn, and at once what it does: its name, its events, its steps
        lines += [f"        u = {g.fn(uniform)}(S)", "        acc = 0.0"]

        def told(k, pad):   # the outcome's name, the seat that attempted and, when recorded, its events
            name = None if k is None else self.outcomes[k].name
            return ([f"{pad}{var_write(self.var, repr(name))}"] if self.var is not None else []) + (
                [f"{pad}{var_write(self.actor, 'actor')}"] if self.actor is not None else []) + [
                f"{pad}if {state_read('ev')} is not None:", f"{pad}    {k_self}.told(S, actor, {k}, ({probs}))"]
        for k, o in enumerate(self.outcomes):
            pad = "            "
            lines += [f"        {'if' if k == 0 else 'elif'} p{k} > 0 and u < (acc := acc + p{k}):", *told(k, pad)]
            if self.outcome_seen is UNCHANGED:   # nothing to check: the loop would run the steps next
                lines += g.next_step(self, o.body, None, pad, tail=True)
            else:
                lines += [f"{pad}{state_read('stack')}[-1] = {g.enter(o.body)}", f"{pad}return None"]
        seen = "U" if self.outcome_seen is UNCHANGED else "None"
        lines += [*told(None, "        "), f"        {state_read('stack')}.pop()   # no outcome: the attempt is done",
                  f"        return {seen}"]
        lines += ["    if stage == 0:", *self.entry_source(g, "frame", "        "),
                  "    if stage > 2:   # nothing to attempt",
                  f"        {state_read('stack')}.pop()",
                  "        return U",
                  f"    return R{self.index}_any(S, frame)   # resolve: ask, or an outcome reported"]
        return "\n".join(lines) + "\n\n" + self._plain_source(g, f"R{self.index}_any")

    pushes_late = True   # (its entry pushes a new frame once the actor is known: FlowSource.run_new)
    entry_charged = False   # (a new frame's run finds the actor and asks the target: its chances, charged, are rolled in a trip of its own)

    def entry_source(self, g, frame: str, pad: str, plain: bool = False, late=None) -> list:
        """Stage 0 (a new frame: also written where one is pushed, FlowSource.run_new): the actor
        found (none: nothing to attempt; just me: read in place), then the target asked. ``late``:
        the frame is not pushed yet (building/late.py): it is pushed with its stage and actor (who
        is just me: nothing to raise before), and its target's frame, with the frames ``late``
        holds, in one go; none but those where there is no actor, a test left out where the actor
        is a variable known to hold a seat."""
        me, stack = g.me(self.me_var), state_read("stack")
        bare = not plain and self.who_me
        who = me if bare else f"{g.fn(self.who)}(S, {me}, None)"
        above = () if self.target is None or plain else (g.enter(self.target),)
        if late is not None and bare:
            slots = [repr(v) for v in self.fresh_frame]
            slots[STAGE - 1], slots[ACTOR - 1] = "1", "actor"
            some = [] if late.seat(self.who, self.me_var) else [f"{pad}if actor is None:", *late.before(pad + "    "),
                                                               f"{pad}    return U"]
            lines = [f"{pad}actor = {who}", *some, *late.push(pad, f"({frame} := [{self.index}, {', '.join(slots)}])", *above)]
        else:
            own = f"({frame} := {[self.index, *self.fresh_frame]!r})"
            lines = [*(late.push(pad, own) if late is not None else []),
                     f"{pad}actor = {who}", f"{pad}if actor is None:", f"{pad}    {stack}.pop()", f"{pad}    return U",
                     f"{pad}{frame}[{ACTOR}] = actor", f"{pad}{frame}[{STAGE}] = 1", *(f"{pad}{stack}.append({f})" for f in above)]
        if self.target is None:
            return [*lines, f"{pad}return U"]
        if plain:
            return [*lines, f"{pad}{stack}.append({g.enter(self.target)})", f"{pad}return U"]
        # nothing changed: the loop would ask the target next (its trip counted), here, reading this frame and actor
        return [*lines, *g.ahead(self, self.target.charge, pad), *self.target.entry_source(g, "", pad, parent=frame)]

    def _plain_source(self, g, name):
        """Any stage of an attempt: the actor found and the target asked (0), the roll, or the
        outcome asked of the table (1), the outcome's steps entered in the attempt's place (2),
        or nothing to attempt (9, or a number above 2). Only frames, the RNG and the outcome's
        variable change here: the outcome's steps run in frames of their own and report their
        own changes."""
        k_self = g.step(self)
        lines = [f"def {name}(S, frame):", f"    stage = frame[{STAGE}]", "    if stage == 0:",
                 *self.entry_source(g, "frame", "        ", plain=True),
                 f"    actor = frame[{ACTOR}]",
                  f"    outcomes = {k_self}.outcomes",
                  "    probs = None   # (asked at the table: no roll)",
                  "    if stage == 1:",
                  f"        if {state_read('o')}.get('resolve', 'random') == 'ask':",
                  f"            frame[{STAGE}] = 2",
                  f"            {state_read('stack')}.append({g.enter(self.report)})",
                  "            return U",
                  f"        probs = {k_self}.chances(S, actor)",
                  f"        u = {g.fn(uniform)}(S)",
                  "        acc, chosen = 0.0, None",
                  "        for k, p in enumerate(probs):",
                  "            if p > 0:",
                  "                acc += p",
                  "                if u < acc:",
                  "                    chosen = k",
                  "                    break",
                  f"        frame[{STAGE}], frame[{CHOSEN}] = 2, chosen",
                  "        stage = 2",
                  "    if stage == 2:",
                  f"        k = frame[{CHOSEN}]"]
        if self.var is not None:
            lines.append(f"        {var_write(self.var, 'None if k is None else outcomes[k].name')}")
        if self.actor is not None:
            lines.append(f"        {var_write(self.actor, 'actor')}")
        lines += [f"        if {state_read('ev')} is not None:",
                  f"            {k_self}.told(S, actor, k, probs)",
                  "        if k is None:",
                  f"            {state_read('stack')}.pop()",
                  "        else:   # the outcome's steps take the attempt's place",
                  f"            {state_read('stack')}[-1] = outcomes[k].body.enter(S)",
                  f"        return {'U' if self.outcome_seen is UNCHANGED else 'None'}",
                  f"    {state_read('stack')}.pop()   # 9 (nothing to attempt)",
                  "    return U"]
        return "\n".join(lines)


class _Report(Step):
    """resolve: ask — the acting seat tells what happened, among the outcomes that can happen."""
    kind = "attempt.report"
    option_type = STR

    def __init__(self, attempt):
        self.attempt = attempt
        self.prompt = attempt.prompt

    def run(self, S, frame):
        parent = S.stack[-2]
        offered = self.attempt.possible(S, parent[2])
        if not offered:
            S.stack.pop()
            return UNCHANGED
        S.dec = (parent[2], tuple(offered))
        return UNCHANGED

    asks = True
    reports = True   # the answer is what happened at a real table, not a choice (Step.reports)

    def label(self, S, value):
        return self.attempt.outcomes[value].name

    def choice_var(self):   # (the outcome told: kept from the other seats where the variable is private)
        return self.attempt.var

    def vocabulary(self, V, spec):
        return [o.name for o in self.attempt.outcomes]

    def resolve(self, S, frame, value):
        S.stack.pop()
        S.stack[-1][3] = value
        return UNCHANGED   # (a frame: the attempt sets the outcome's variable when it goes on)
