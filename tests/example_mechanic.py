"""The example mechanic of docs/mechanics/adding.md: a ``vote`` step kind and a ``halve``
effect kind, registered through the public registry (mechanics/base.py) and built and played
by tests/test_mechanic_contract.py, so the page cannot go stale.

    - vote: {options: "['red', 'blue']", as: colour, then: [{gain: {counter: points}}]}
    - halve: {counter: points}

Every voter, in seat order, picks one option; the option with the most votes (on a tie, the
first voted for) is stored in ``as:``, then ``then:`` runs once for each voter who voted for
it, with ``me`` = that voter. ``halve`` halves a counter, rounding down.

A mechanic of the interpreter lives in ``interpreter/mechanics/`` and is imported by
``mechanics/__init__.py``; this one registers when its test imports it, and the test takes
it out again, so the bundled schema and reference stay those of the bundled kinds.
"""
from __future__ import annotations

from interpreter.engine.frames import listof, option, seat, whole
from interpreter.engine.protocol import UNCHANGED
from interpreter.expr.types import elem
from interpreter.mechanics.base import Step, effect_kind, step_kind
from interpreter.mechanics.contract import Key

# the frame: [step index, POS, VOTERS, VOTES], each slot named once
POS, VOTERS, VOTES = 1, 2, 3
VOTE_KEYS = (Key("options", "expression: list", "what may be voted for (me = the voter)", required=True),
             Key("as", "variable name", "the variable the winning option is stored in", required=True),
             Key("voters", "expression: list of players", "who votes, in order", default="players"),
             Key("prompt", "text", "the decision's name", default="vote"),
             Key("then", "effects", "run for each voter who voted for the winner, me = that voter"))
HALVE_KEYS = (Key("counter", "counter", "the counter halved (rounding down)", required=True),)


@step_kind("vote", "every voter picks an option; the one with most votes is stored", keys=VOTE_KEYS)
class Vote(Step):
    asks = True   # its options make the action space (adapters/actions.py)
    # what each slot holds: a saved state's frame that does not fit is refused (engine/frames.py)
    frame_shape = (whole("the voter's position", upto=(VOTERS,)), listof("the voters", seat("a voter")),
                   listof("the votes so far", option("a vote")))

    @classmethod
    def build(cls, ctx, main, rest, path, scope):
        s, main, p = cls.started(ctx, main, rest, path, scope)   # its keys checked, from VOTE_KEYS
        s.options = ctx.expr(main.get("options", "[]"), (*p, "options"), has_me=True, expect="list")
        s.option_type = elem(s.options.type)
        s.voters = ctx.expr(main.get("voters", "players"), (*p, "voters"), has_me=scope.has_me, expect="list")
        s.var = ctx.declare_var(main.get("as"), s.option_type, (*p, "as"))
        s.prompt = str(main.get("prompt", "vote"))
        s.then = ctx.effects(main.get("then"), (*p, "then"), has_me=True)
        return s

    def enter(self, S):
        voters = self.voters(S, self.me(S, self.me_var), None)
        return [self.index, 0, tuple(voters), ()]

    def run(self, S, frame):
        voters = frame[VOTERS]
        while frame[POS] < len(voters):
            seat = voters[frame[POS]]
            options = tuple(self.options(S, seat, None))
            if options:
                S.dec = (seat, options)
                return UNCHANGED   # nothing changed but the frame: the engine skips its checks
            frame[POS] += 1        # nothing to vote for: this voter abstains
        tally: dict = {}
        for vote in frame[VOTES]:
            if vote is not None:
                tally[vote] = tally.get(vote, 0) + 1
        winner = max(tally, key=tally.__getitem__) if tally else None   # (a tie: the first voted for)
        S.v[self.var] = winner
        S.stack.pop()
        if self.then is not None:
            for seat, vote in zip(voters, frame[VOTES]):
                if vote == winner:
                    self.then(S, seat, None)
        return None

    def resolve(self, S, frame, value):
        frame[VOTES] = (*frame[VOTES], value)   # replaced, never changed in place (clones share it)
        frame[POS] += 1
        return UNCHANGED

    def observe(self, S, frame, player):
        """Public: the votes cast so far."""
        return {"votes": [self.label(S, v) for v in frame[VOTES]]}

    def choice_var(self):
        return self.var

    def vocabulary(self, V, spec):
        """Every label a vote may offer, read from the declarations (None: it cannot tell)."""
        return V.labels(spec.get("options", "[]"), self.option_type)


@effect_kind("halve", "halve a counter, rounding down", keys=HALVE_KEYS)
def e_halve(fx, em, spec, path, locals, has_me):
    """Emit the lines of ``halve``: its keys were checked against HALVE_KEYS already."""
    dst, name, _ = fx.target_owner(spec["counter"], (*path, "counter"), locals, has_me, "counter", em=em)
    em.line(f"{dst} = {dst} // 2")
    fx.event(em, f"{{'ev': 'halve', 'counter': {name!r}, 'who': me}}")

