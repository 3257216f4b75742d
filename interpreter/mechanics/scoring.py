"""Scoring: named categories added up per player, ordered tie-breaks, shared victory.

    scoring:
      categories: {coins: "coins", vault: "vault * 2"}   # each with me = the player
      tiebreak: ["vault"]        # compared in order among the players tied on score
      eligible: "count(required) == 3"   # optional: who may be ranked at all
      lowest_wins: false
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.loop import located
from ..errors import raised_in, tag_origin
from ..expr.runtime import RUNTIME_ERRORS, ExprRuntimeError
from ..expr.types import BOOL, NUM, unproven
from ..engine.values import as_typed
from .contract import SCORING_KEYS, key_names

if TYPE_CHECKING:
    from ..expr.compiler import ExprFn


class Scoring:
    def __init__(self):
        self.categories: list[tuple[str, ExprFn]] = []
        self.tiebreak: list[ExprFn] = []
        self.tiebreak_texts: list[str] = []   # as written in the ruleset, to say what broke a tie
        self.eligible: ExprFn | None = None
        self.eligible_loc = None          # where eligible: is written (reports point there)
        self.lowest_wins = False
        self.origins: list = []    # (compiled expression, what it is, location): to locate runtime errors

    @classmethod
    def build(cls, ctx, spec):
        s = cls()
        ctx.check_keys(spec, key_names(SCORING_KEYS), ("scoring",))
        cats = spec.get("categories") or {}
        if not isinstance(cats, dict):
            ctx.error("categories is a mapping of name: expression", ("scoring", "categories"), "schema")
            cats = {}
        for name, text in cats.items():
            s.categories.append((name, _numbered(f"scoring category '{name}'",
                                                 ctx.expr(text, ("scoring", "categories", name), expect=NUM))))
        s.tiebreak = [_numbered("a scoring tiebreak", ctx.expr(t, ("scoring", "tiebreak", i), expect=NUM))
                      for i, t in enumerate(spec.get("tiebreak") or [])]
        s.tiebreak_texts = [str(t) for t in spec.get("tiebreak") or []]
        if "eligible" in spec:
            s.eligible = ctx.expr(spec["eligible"], ("scoring", "eligible"), expect=BOOL)
        s.lowest_wins = bool(spec.get("lowest_wins", False))
        loc = ctx.smap.loc
        s.origins = [(fn, f"scoring category {name}", loc(("scoring", "categories", name)))
                     for name, fn in s.categories]
        s.origins += [(fn, "scoring tiebreak", loc(("scoring", "tiebreak", i))) for i, fn in enumerate(s.tiebreak)]
        if s.eligible is not None:
            s.origins.append((s.eligible, "scoring eligible", loc(("scoring", "eligible"))))
            s.eligible_loc = loc(("scoring", "eligible"))
        return s

    def breakdown(self, S) -> list[dict]:
        try:
            rows = [{name: fn(S, p, None) for name, fn in self.categories} for p in S.players]
        except RUNTIME_ERRORS as e:
            raise self._located(S, e) from None
        if any(v is None for row in rows for v in row.values()):   # (what scores() fails on)
            raise self._located(S, ExprRuntimeError("a scoring category is none")) from None
        return rows

    def scores(self, S) -> list:
        cats = [fn for _, fn in self.categories]
        try:
            return [sum(fn(S, p, None) for fn in cats) for p in S.players]
        except RUNTIME_ERRORS as e:
            raise self._located(S, e) from None

    def winners(self, S) -> list[int]:
        """Seats with the best score, then the best of each tie-break in turn; ties share."""
        sign = -1 if self.lowest_wins else 1
        scores = self.scores(S)
        field: list = []   # (the seats the failing ranking compared: none where eligible: fails)
        try:
            field = [p for p in S.players if self.eligible is None or self.eligible(S, p, None)]
            if not field:
                return []
            keys = {p: [sign * scores[p]] + [sign * tb(S, p, None) for tb in self.tiebreak] for p in field}
            best = max(keys.values())
        except RUNTIME_ERRORS as e:
            raise self._located(S, e, field) from None
        return [p for p in field if keys[p] == best]

    def unranked(self, S) -> list[int]:
        """The seats ``eligible:`` leaves out of the ranking."""
        if self.eligible is None:
            return []
        try:
            return [p for p in S.players if not self.eligible(S, p, None)]
        except RUNTIME_ERRORS as e:
            raise self._located(S, e) from None

    def decided(self, S) -> dict:
        """What decided the ranking of a finished game, for people: ``by`` is "score" (one best
        score), "tiebreak" (the tie-break ``tiebreak`` separated the ``tied`` seats, whose
        ``values`` it lists), "shared" (still tied after every tie-break) or "nobody" (no seat
        may be ranked); ``unranked`` lists the seats ``eligible:`` leaves out."""
        if not S.over:
            return {}
        sign = -1 if self.lowest_wins else 1
        scores = self.scores(S)
        tied: list = []   # (the seats whose tie-breaks are read)
        try:
            field = [p for p in S.players if self.eligible is None or self.eligible(S, p, None)]
            unranked = [p for p in S.players if p not in field]
            if not field:
                return {"by": "nobody", "unranked": unranked}
            best = max(sign * scores[p] for p in field)
            tied = [p for p in field if sign * scores[p] == best]
            out = {"unranked": unranked} if unranked else {}
            if len(tied) == 1:
                return {"by": "score", **out}
            for text, tb in zip(self.tiebreak_texts, self.tiebreak):
                values = {p: tb(S, p, None) for p in tied}
                top = max(sign * v for v in values.values())
                left = [p for p in tied if sign * values[p] == top]
                if len(left) < len(tied):
                    return {"by": "tiebreak", "tiebreak": text, "tied": tied, "values": values,
                            "score": scores[tied[0]], **out}
                tied = left
            return {"by": "shared", "tied": tied, "score": scores[tied[0]], **out}
        except RUNTIME_ERRORS as e:
            raise self._located(S, e, tied) from None

    def _located(self, S, e, tied: list | None = None):
        """A runtime error of a scoring expression as a GameError located at that expression; one
        of adding or ordering their values (a category or tie-break of type int that is none) at
        the first of them that is none (``_none_read``), the tie-breaks of the seats ``tied`` (those
        the failing operation ordered: none, where it only added up the categories) among them."""
        for fn, what, loc in self.origins:
            if raised_in(e, fn):
                tag_origin(e, what, loc)
                break
        else:
            e = self._none_read(S, tied or []) or e
        return located(S, e)

    def _none_read(self, S, tied: list) -> Exception | None:
        """The error of the first category whose value is none for a seat, every category of every
        seat first (the scores add them all up before any tie-break is read), then of the first
        tie-break that is none for one of the seats ``tied``, located at it; None if none is. A value
        of type int or num may be none (a variable not set, ``first`` of nothing), which no check
        reads where the load proves the type (``_numbered``): the sum or the order of the values
        fails on it, and only then are they read again, so a game that scores pays nothing for it.
        One that raises when read again was not read by the operation that failed: passed over."""
        count = len(self.categories)
        named = [*((fn, f"scoring category '{name}'", origin, S.players)
                   for (name, fn), origin in zip(self.categories, self.origins)),
                 *((fn, "a scoring tiebreak", origin, tied) for fn, origin in zip(self.tiebreak, self.origins[count:]))]
        for fn, subject, (_, what, loc), seats in named:
            for p in seats:
                try:
                    value = fn(S, p, None)
                except RUNTIME_ERRORS:
                    continue
                if value is None:
                    e = ExprRuntimeError(_not_a_number(subject))
                    tag_origin(e, what, loc)
                    return e
        return None


def _not_a_number(subject: str) -> str:
    return f"{subject} is a number: expected a number, got none"


def _numbered(subject, fn):
    """A category's or a tie-break's expression ``fn`` (``subject``: "scoring category 'vault'",
    as messages name it): itself where the load proves it a number (none read as ``_none_read``
    says), else (of type any, or made of one: a string, true, a list, none) checked a number where
    it is read, its runtime error located at it as any of its own is (engine/values.py ``as_typed``)."""
    if not unproven(fn.proven, NUM):
        return fn

    def category(S, me, L):
        value = fn(S, me, L)
        if value is None:
            raise ExprRuntimeError(_not_a_number(subject))
        return as_typed(S, NUM, f"{subject} is a number", value)
    return category
