"""An attempt's target (mechanics/dexterity.py): the card the actor names before the roll, chosen
among a list offered in id order; and the slots of the attempt's frame, which its question and
answer read and write."""
from __future__ import annotations

from typing import Any

from ..expr.code import Join, shape, zone_name
from ..expr.fastpaths import joined_lists, shared_zones
from ..expr.types import ANY, CARD, NONE, elem, is_list
from ..expr.names import VIEWS, item_read, record_read, state_read, state_write, var_write
from ..engine.frames import seat, whole
from ..engine.protocol import UNCHANGED
from ..engine.visibility import ALL, Visibility
from .base import Step
from .contract import Key, key_names, required_names

TARGET_KEYS = (Key("from", "expression: list", "what may be aimed at (me = the actor)", required=True),
               Key("as", "variable name", "the variable holding what was aimed at", required=True),
               Key("prompt", "text", "the decision's name", default="the variable's name"),
               Key("doc", "text", "what it is, for people"))

# the slots of an attempt's frame: [step index, stage, the acting seat, the outcome chosen]
STAGE, ACTOR, CHOSEN = 1, 2, 3
FRAME_SHAPE = (whole("the stage"), seat("the acting seat", none=True),
               whole("the outcome chosen", high=lambda s: len(s.outcomes) - 1, none=True))


class Target(Step):
    """The actor names what they attempt: a card among a list, offered in id order."""
    kind = "attempt.target"
    option_type = CARD
    cards: Any                      # the expression of the cards that may be named
    var: str                        # the variable the card named is stored in
    unique_labels: bool             # no two cards share a label: the cards are the options

    @classmethod
    def make(cls, ctx, spec, path, scope):
        if not isinstance(spec, dict):
            ctx.error(f"target takes a mapping ({', '.join(key_names(TARGET_KEYS))})", path, "step")
            spec = {}
        ctx.check_keys(spec, key_names(TARGET_KEYS), path, required=required_names(TARGET_KEYS))
        t = cls()
        t.cards = ctx.expr(spec.get("from", "[]"), (*path, "from"), has_me=True, expect="list")
        if is_list(t.cards.type) and elem(t.cards.type) not in (CARD, ANY, NONE):
            ctx.error(f"target from: expected a list of cards, got {t.cards.type}", (*path, "from"), "type")
        t.var = ctx.declare_var(spec.get("as", "target"), CARD, (*path, "as"))
        t.prompt = str(spec.get("prompt", t.var))
        t.unique_labels = ctx.unique_labels
        zones = shared_zones(t.cards.source) if isinstance(shape(t.cards.source), Join) else None
        if zones is not None and len(set(zones)) == len(zones):   # a union of shared zones: a view, where recorded
            union = tuple(sorted(zones))
            ctx.names.unions.add(union)   # (building/record.py)
            t.view = ctx.names.views.index(union) if union in ctx.names.views else None
        return ctx.add(t, path)

    view = None         # the index of the view (S.vw) of the union of zones it offers, if one is kept
    attempt = None      # the attempt it belongs to (build)
    resolved = None     # UNCHANGED when no check reads the target's variable (settle)

    def settle(self, quiet, watched_vars):
        if self.var not in watched_vars:
            self.resolved = UNCHANGED

    asks = True
    frame_read_only = True   # (its question and answer write the attempt's frame, not its own)
    # (labels: the card's own, Step.labels reading the table for the whole list at once)

    def choice_var(self):
        return self.var

    def vocabulary(self, V, spec):
        return V.labels(spec.get("from", "[]"), CARD)

    def flow_source(self, g):
        return "\n".join([f"def R{self.index}(S, frame):", *self.entry_source(g, "frame", "    ")])

    def entry_source(self, g, frame: str, pad: str, parent: str | None = None) -> list:
        """The cards offered once each (no none), in id order (``parent``: the local holding the
        attempt's frame, its actor in ``actor``, where the attempt asks; else read from the stack). Specialised: the cards of one
        zone, or of different zones joined, are sorted as they are (no card is ever in two
        zones, and none in none: every move takes its cards out of their source), a joined
        list (a new one) in place; a union of zones kept as a view (building/record.py) as the view
        holds it, in card order; where no two cards share a label, the cards are the options."""
        cards = f"{g.fn(self.cards)}(S, actor, None)"
        if g.plain or not apart_zones(self.cards.source):
            listed, ordered = [f"{pad}cards = set({cards})", f"{pad}cards.discard(None)"], [f"{pad}options = sorted(cards)"]
        elif self.view is not None:   # (copied below: the moves change the view in place)
            listed, ordered = [f"{pad}cards = options = {item_read(record_read(VIEWS), str(self.view))}"], []
        elif isinstance(shape(self.cards.source), Join):   # (the list, in place: no call)
            listed, ordered = [*g.assign(self.cards, "cards", "actor", pad), f"{pad}options = cards"], [f"{pad}options.sort()"]
        else:
            listed, ordered = [*g.assign(self.cards, "cards", "actor", pad)], [f"{pad}options = sorted(cards)"]
        rules = state_read("rules")
        asked = "(actor, tuple(options))" if self.unique_labels and not g.plain else \
            f"(actor, tuple(options) if {rules}.unique_labels else tuple({rules}.distinct_cards(options)))"
        head = [f"{pad}parent = {state_read('stack')}[-2]", f"{pad}actor = parent[{ACTOR}]"] if parent is None else []
        return [*head, *listed, f"{pad}if not cards:", f"{pad}    {parent or 'parent'}[{STAGE}] = 9",
                f"{pad}    {state_read('stack')}.pop()",
                f"{pad}    return U",
                *ordered,
                f"{pad}{state_write('dec', asked)}",
                f"{pad}return U"]

    def resolve_source(self, g):
        """Take the target named (written once: this is its only definition); when no check
        reads the target, the attempt's roll follows at once (the game loop's next iteration
        written in), except in the plain reference."""
        told = "".join(f", {k!r}: {v!r}" for k, v in secret(self.var).items())   # (a private variable: named)
        lines = [f"def Q{self.index}(S, frame, card):",
                 f"    stack = {state_read('stack')}",
                 "    stack.pop()",
                 f"    {var_write(self.var, 'card')}",
                 "    parent = stack[-1]",
                 f"    if {state_read('ev')} is not None:",
                 f"        {state_read('ev')}.append({{'ev': 'target', 'who': parent[2], 'card': {state_read('rules')}"
                 f".card_labels[card]{told}}})"]
        if self.resolved is not UNCHANGED:
            return "\n".join([*lines, "    return None"])
        if not g.runs_on:
            return "\n".join([*lines, "    return U"])
        return "\n".join([*lines, *g.next_step(None, self.attempt, "parent", "    ", asked=True)])


def secret(var: str | None) -> dict:
    """An announcement's ``var`` field (engine/sight.py ``told_seers``): the private variable its
    value (a target, an outcome) is kept in, named so that only the actor is shown the value;
    nothing for a public one (every seat sees it)."""
    return {"var": var} if var is not None and Visibility.var_seers(var) != ALL else {}


def apart_zones(src) -> bool:
    """Whether the list ``src`` compiles to is one zone's cards, or those of different zones
    joined (``A + B``): then it holds no card twice and no none."""
    names = [zone_name(part) for part in joined_lists(src) or [src]]
    return None not in names and len(set(names)) == len(names)
