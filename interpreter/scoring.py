"""Scoring: named categories added up per player, ordered tie-breaks, shared victory.

    scoring:
      categories: {coins: "coins", vault: "vault * 2"}   # each with me = the player
      tiebreak: ["vault"]        # compared in order among the players tied on score
      eligible: "count(required) == 3"   # optional: who may be ranked at all
      lowest_wins: false
"""
from __future__ import annotations

from .expr.types import BOOL, NUM


class Scoring:
    def __init__(self):
        self.categories: list[tuple[str, object]] = []
        self.tiebreak: list = []
        self.eligible = None
        self.lowest_wins = False

    @classmethod
    def build(cls, ctx, spec):
        s = cls()
        ctx.check_keys(spec, ("categories", "tiebreak", "eligible", "lowest_wins"), ("scoring",))
        cats = spec.get("categories") or {}
        if not isinstance(cats, dict):
            ctx.error("categories is a mapping of name: expression", ("scoring", "categories"), "schema")
            cats = {}
        for name, text in cats.items():
            s.categories.append((name, ctx.expr(text, ("scoring", "categories", name), expect=NUM)))
        s.tiebreak = [ctx.expr(t, ("scoring", "tiebreak", i), expect=NUM)
                      for i, t in enumerate(spec.get("tiebreak") or [])]
        if "eligible" in spec:
            s.eligible = ctx.expr(spec["eligible"], ("scoring", "eligible"), expect=BOOL)
        s.lowest_wins = bool(spec.get("lowest_wins", False))
        return s

    def breakdown(self, S) -> list[dict]:
        return [{name: fn(S, p, None) for name, fn in self.categories} for p in S.players]

    def scores(self, S) -> list:
        cats = [fn for _, fn in self.categories]
        return [sum(fn(S, p, None) for fn in cats) for p in S.players]

    def winners(self, S) -> list[int]:
        """Seats with the best score, then the best of each tie-break in turn; ties share."""
        sign = -1 if self.lowest_wins else 1
        scores = self.scores(S)
        field = [p for p in S.players if self.eligible is None or self.eligible(S, p, None)]
        if not field:
            return []
        keys = {p: [sign * scores[p]] + [sign * tb(S, p, None) for tb in self.tiebreak] for p in field}
        best = max(keys.values())
        return [p for p in field if keys[p] == best]
