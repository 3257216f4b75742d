"""branch: a player picks one of several named alternatives; its steps run.

    - branch:
        who: me                       # default: me
        prompt: action
        options:
          draw:   {if: "count(pile) > 0", steps: [...]}
          market: {steps: [...]}
          pass:   {}                  # an alternative that does nothing

The options whose ``if`` holds for the seat asked (``me`` = ``who``) are offered, labelled by
their names, in declaration order; the chosen one's steps run for the seat that chose: with
``as: NAME``, that seat is held in the variable NAME, ``me`` in those steps, as a turn's player is
in its steps. A branch whose ``who`` is another than ``me`` and whose steps read ``me`` must write
``as:`` (without, they would act for the seat before the branch); NAME is no other name, nor the
seat an enclosing turns, branch or attempt holds, and nothing in the steps writes it (building/seats.py).
With none offered, the step is skipped. (This is how a turn offers its "moves".)
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..expr.names import state_read, var_write
from ..expr.parser import as_expr
from ..expr.types import BOOL, PLAYER, STR
from .ask_once import SEAT_ASKED, AskOnce
from .base import IF_NONE_KEY, WHO, Step, step_kind
from .contract import Key, key_names

if TYPE_CHECKING:
    from ..expr.compiler import ExprFn

OPTION_KEYS = (Key("if", "condition", "the alternative is offered while it holds (me = the seat asked; default: always)"),
               Key("steps", "steps", "what the alternative does (me = the seat that chose, held in as; without as: "
                   "as before the branch)"),
               Key("doc", "text", "what it is, for people"))


@step_kind("branch", "a player picks one of several named alternatives (each with a condition and steps)",
           keys=(WHO,
          Key("prompt", "text", "the decision's name", default="action"),
          Key("options", "mapping", "the alternatives, offered by name while their if holds", required=True,
              keys=OPTION_KEYS, named=True),
          Key("as", "variable name", "the variable holding the seat that chose, me in the alternative's steps "
              "(required where who is not me and the steps read me)"),
          IF_NONE_KEY))
class Branch(AskOnce):
    option_type = STR

    me_var: str | None                  # the variable holding 'me' where the step runs
    who: ExprFn                         # the seat asked
    who_me: bool                        # who is just 'me'
    names: list[str]                    # the options: their names, conditions (None: always) and steps
    conds: list[ExprFn | None]
    bodies: list[Step]
    offers: Callable[..., Any] | None   # all the conditions in one call: f(S, me, L) -> indexes that hold
    var: str | None                     # the variable holding the seat that chose (None: me is that seat)
    watched = False                     # whether a trigger or end condition reads it (settle)

    @classmethod
    def build(cls, ctx, main, rest, path, scope):
        s, main, p = cls.started(ctx, main, rest, path, scope)
        who = main.get("who", "me")
        s.who, s.who_me = cls.asker(ctx, who, (*p, "who"), scope)
        s.prompt = str(main.get("prompt", "action"))
        s.names, s.conds, s.bodies = [], [], []
        has_me = scope.has_me or not s.who_me   # the conditions are the seat asked's (me = who)
        # the alternatives' steps run for the seat that chose: me = this variable (None: as before the branch)
        s.var = ctx.declare_as(main["as"], PLAYER, (*p, "as"), scope) if "as" in main else None
        inner = scope if s.var is None else scope.within(s.var, "the as: of an enclosing branch")
        texts = []   # the conditions' texts (None: always offered), for compile_offers
        reads_me = False   # whether the alternatives' steps read me
        options = main.get("options") or {}
        if not isinstance(options, dict) or not options:
            ctx.error("options is a mapping NAME: {if: CONDITION, steps: [...]}", (*p, "options"), "step")
            options = {}
        for name, opt in options.items():
            op = (*p, "options", name)
            opt = opt or {}
            if not isinstance(opt, dict):
                ctx.error("an option is a mapping {if: CONDITION, steps: [...]}", op, "step")
                opt = {}
            ctx.check_keys(opt, key_names(OPTION_KEYS), op)
            s.names.append(str(name))
            with ctx.asking(who):
                s.conds.append(ctx.expr(opt["if"], (*op, "if"), has_me=has_me, expect=BOOL) if "if" in opt else None)
            texts.append(opt.get("if"))
            body, reads = ctx.steps_as(lambda: ctx.steps(opt.get("steps") or [], (*op, "steps"), inner),  # noqa: B023
                                       s.var, (*p, "as"))
            s.bodies.append(body)
            reads_me = reads_me or reads
        if reads_me and s.var is None and not ctx.only_me(who):
            ctx.error("this branch asks another seat than me, and its alternatives' steps read me: write as: NAME, "
                      "a variable holding the seat that chose (me in those steps)", (*p, "who"), "missing-key",
                      "as: NAME beside who: (a name of your own, e.g. as: chooser)")
        s.offers = None   # all the conditions in one call (None if there are none, or on errors)
        if any(t is not None for t in texts):
            with ctx.asking(who):
                offers: Any = ctx.compiler.compile_offers([None if t is None else as_expr(t) for t in texts],
                                                          has_me, f"branch {s.prompt}")
            if offers is not None:   # (headed and named by the options' YAML line: building/listing.py)
                offers.loc = ctx.smap.loc((*p, "options"))
            s.offers = offers
        s.read_if_none(ctx, main, p)
        return s

    def flow_source(self, g):
        """The question: the seat asked (none: the step does not apply), then the options whose
        condition holds for it (me = that seat; all of them in one call). Specialised: options
        without conditions written as the tuple they are."""
        me, seat = g.me(self.me_var), "me" if self.who_me else "who"
        lines = [f"def R{self.index}(S, frame):", f"    me = {me}",
                 f"    who = {'me' if self.who_me else f'{g.fn(self.who)}(S, me, None)'}"]
        if self.offers is not None:   # every condition in one call
            found = [f"    options = {g.fn(self.offers)}(S, {seat}, None)"]
        elif all(c is None for c in self.conds) and not g.plain:
            found = [f"    options = {tuple(range(len(self.conds)))!r}"]
        else:
            found = [f"    options = tuple(i for i, c in enumerate({g.step(self)}.conds) "
                     f"if c is None or c(S, {seat}, None))"]
        if self.who_me:   # (me is the seat: the options found before it is tested, in one place)
            return "\n".join([*lines, *found, *self.asked_source(g)])
        return "\n".join([*lines, *self.asked_source(g, found)])

    # resolve exists only as the Python its generator writes (building/flowgen.py)
    resolve = Step.resolve

    def settle(self, quiet, watched_vars):
        self.watched = self.var is not None and self.var in watched_vars

    def resolve_source(self, g):
        """The seat that chose into ``as`` (where there is one), then the chosen alternative's steps
        take the branch's place. Specialised: they run at once (the game loop's next iteration
        written in: the answer changed nothing a check reads), asking their first question in the
        same call; where a check reads ``as``, the loop checks first."""
        lines = [f"def Q{self.index}(S, frame, value):",
                 f"    if {state_read('ev')} is not None:",
                 f"        {state_read('ev')}.append({{'ev': 'branch', 'option': {tuple(self.names)!r}[value]}})"]
        if self.var is not None:
            lines.append(f"    {var_write(self.var, f'frame[{SEAT_ASKED}]')}")
        last = len(self.bodies) - 1
        for k, body in enumerate(self.bodies):
            pad = "    " if last == 0 else "        "
            if last:
                lines.append("    else:" if k == last else f"    {'if' if k == 0 else 'elif'} value == {k}:")
            at_once = g.runs_on and not self.watched
            lines += [f"{pad}{state_read('stack')}[-1] = f = {g.enter(body)}",
                      *([f"{pad}return {'None' if self.watched else 'U'}"] if not at_once
                        else g.next_step(None, body, "f", pad, asked=True))]
        return "\n".join(lines)

    def label(self, S, value):
        return self.names[value]

    def labels(self, S, options):
        names = self.names
        return [names[v] for v in options]

    def vocabulary(self, V, spec):
        return list(self.names)

    @property
    def option_names(self):
        """The named alternatives (coverage counts each one taken)."""
        return self.names

    def children(self):
        return list(self.bodies)

    def takes_place(self, child):
        return True   # (the chosen steps take the branch's place)
