"""choose: one player picks one value from a list; the value goes into a variable."""
from __future__ import annotations

from ..expr.types import elem
from ..engine.protocol import UNCHANGED
from .base import AskOnce, step_kind


@step_kind("choose", "a player picks one option from a list; the choice is stored in a variable")
class Choose(AskOnce):

    @classmethod
    def build(cls, ctx, main, rest, path, scope):
        p = (*path, "choose")
        if not isinstance(main, dict):
            ctx.error("choose takes a mapping (who, options, as, prompt, then)", p, "step")
            main = {}
        ctx.check_keys(rest, (), path)
        ctx.check_keys(main, ("who", "options", "as", "prompt", "then", "if_none"), p, required=("options", "as"))
        step = cls()
        step.me_var = scope.me_var
        step.who, step.who_me = cls.asker(ctx, main.get("who", "me"), (*p, "who"), scope)
        opts = ctx.expr(main.get("options", "[]"), (*p, "options"), has_me=scope.has_me, expect="list")
        step.options = opts
        step.distinct = opts.distinct
        step.option_type = elem(opts.type)
        step.var = ctx.declare_var(main.get("as", "choice"), step.option_type, (*p, "as"))
        step.prompt = str(main.get("prompt", step.var))
        step.then = ctx.effects(main.get("then"), (*p, "then"), has_me=True)
        step.read_if_none(ctx, main, p)
        return step

    def question(self, S, me):
        options = self.options(S, me, None)
        if not options and self.who_me:   # nothing to choose from: the step is skipped
            return me, ()
        options = tuple(options) if self.distinct else tuple(S.rules.distinct(options, self.option_type))
        return (me if self.who_me else self.who(S, me, None)), options

    def choice_var(self):
        return self.var

    def vocabulary(self, V, spec):
        return V.labels(spec.get("options", "[]"), self.option_type)

    resolved = None     # UNCHANGED when nothing a check reads is changed by the answer (settle)

    def settle(self, quiet, watched_vars):
        if self.var not in watched_vars and (self.then is None or quiet.quiet(self.then)):
            self.resolved = UNCHANGED

    def resolve(self, S, frame, value):
        S.v[self.var] = value
        if self.then is not None:
            self.then(S, frame[1], None)
        S.stack.pop()
        return self.resolved
