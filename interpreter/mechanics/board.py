"""board: positions joined by adjacencies, declared as data; ``neighbors(p)`` and ``adjacent(a, b)``.

The positions are the cards of one component (so zones can hold them: occupied, empty,
hidden...). Which positions touch is given either by a rule over two positions' attributes,
evaluated once at load time, or by an attribute listing each position's neighbours by label:

    components:
      spot:
        cards:                              # doubled columns: x steps by 2 along a row
          - {row: 0, x: 1}
          - {row: 0, x: 3}
          - {row: 1, x: 0}
          - {row: 1, x: 2}
          - {row: 1, x: 4}
        label: "r{row}x{x}"
    board:
      positions: spot
      # hexagonal grid in doubled coordinates: same row 2 apart, next row 1 apart
      adjacent: "a.row == b.row and abs(a.x - b.x) == 2 or abs(a.row - b.row) == 1 and abs(a.x - b.x) == 1"

    board: {positions: room, neighbors: exits}      # or: exits: [hall, kitchen] on each card

Adjacency is symmetric (a rule is checked both ways; a listed neighbour is a neighbour of
both) and never reflexive. The table is built once into the compiled ruleset; nothing about
the board is stored in a game State.
"""
from __future__ import annotations

from ..expr.parser import ExprError, offset_of
from ..expr.builtins import register_builtin
from ..expr.code import Cards, Copy, code
from ..expr.messages import describe
from ..expr.names import NEIGHBOURS
from ..expr.types import BOOL, CARD, list_of
from .base import section_kind
from .contract import BOARD_KEYS, key_names, required_names

MAX_PAIRS = 4_000_000    # a rule is evaluated for every pair of positions
MAX_BOARD_WORK = 50_000_000   # pairs x the rule's worst-case operations, at load (a few seconds)


@section_kind("board")
def build_board(ctx, spec, path, rules) -> None:
    if not isinstance(spec, dict):
        ctx.error("board takes a mapping (positions, adjacent | neighbors)", path, "schema")
        return
    ctx.check_keys(spec, key_names(BOARD_KEYS), path, required=required_names(BOARD_KEYS))
    comp = spec.get("positions")
    cards = rules.cards
    if comp not in cards.by_component:
        ctx.unknown("component", comp, cards.by_component, (*path, "positions"))
        return
    ids = cards.by_component[comp]
    if ("adjacent" in spec) == ("neighbors" in spec):
        ctx.error("a board has exactly one of adjacent: (a rule over a and b) or neighbors: (an attribute)",
                  path, "schema", key=True)
        return
    adj: dict[int, set] = {i: set() for i in ids}
    if "adjacent" in spec:
        if len(ids) ** 2 > MAX_PAIRS:
            ctx.error(f"too many positions for an adjacent: rule ({len(ids)}); list neighbors instead",
                      (*path, "positions"), "limit")
            return
        rule = ctx.expr(spec["adjacent"], (*path, "adjacent"), {"a": CARD, "b": CARD}, has_me=False, expect=BOOL)
        reads = rule.access
        if reads.names or reads.fixed or reads.opaque:   # (noted as it was compiled: expr/access.py)
            ctx.error("adjacent: may use only the positions' attributes (a and b) and constants",
                      (*path, "adjacent"), "type")
            return
        work = len(ids) * (len(ids) - 1) * max(1, ctx.compiler.cost)
        if work > MAX_BOARD_WORK:
            ctx.error(f"adjacent: {len(ids)} positions and a rule of up to {ctx.compiler.cost:,} operations "
                      f"take {work:,} operations at load (limit {MAX_BOARD_WORK:,})", (*path, "adjacent"), "limit",
                      "simplify the rule, or list each position's neighbours (neighbors: ATTRIBUTE)")
            return
        try:
            for a in ids:
                for b in ids:
                    if a != b and rule(None, None, {"a": a, "b": b}):
                        adj[a].add(b)
                        adj[b].add(a)
        except Exception as e:   # the rule runs at load time: its failure is the ruleset's error
            ctx.error(f"adjacent: failed for positions {cards.labels[a]} and {cards.labels[b]}: {describe(e)}",
                      (*path, "adjacent"), "runtime")
            return
    else:
        attr = spec["neighbors"]
        if attr not in cards.attr_types:
            ctx.unknown("attribute", attr, [k for k in cards.attr_types if k != "kind"], (*path, "neighbors"))
            return
        by_label = {cards.labels[i]: i for i in ids}
        for a in ids:
            listed = cards.rows[a].get(attr) or []
            if not isinstance(listed, list):
                listed = [listed]
            for lab in listed:
                b = by_label.get(str(lab))
                if b is None:
                    ctx.error(f"{cards.labels[a]}: neighbour '{lab}' is not a position of '{comp}'",
                              ("components", comp), "unknown-name")
                    continue
                if b != a:
                    adj[a].add(b)
                    adj[b].add(a)
    table = [()] * len(cards)
    for a, ns in adj.items():
        table[a] = tuple(sorted(ns))
    ctx.names.namespace[NEIGHBOURS] = tuple(table)
    rules.board = {"positions": tuple(ids), "neighbours": tuple(table)}   # for viewers (play/display/table.py)


def _need_board(c, n):
    if NEIGHBOURS not in c.names.namespace:
        raise ExprError(f"{n.children[0]}() needs a board: declare board: {{positions: ..., adjacent: ...}}",
                        offset_of(n), code="unknown-name")


def _card_args(c, n, scope, args, kw, fname, k):
    if len(args) != k or kw:
        raise ExprError(f"{fname}() takes {k} position{'s' if k > 1 else ''}", offset_of(n), code="arity")
    out = []
    for a in args:
        s, t = c.node(a, scope)
        if t not in (CARD, "any"):
            raise ExprError(f"{fname}() takes a position (a card), got {t}", offset_of(a), code="type")
        out.append(s)
    return out


def b_neighbors(c, n, scope, args, kw):
    _need_board(c, n)
    (p,) = _card_args(c, n, scope, args, kw, "neighbors", 1)
    walked = code(f"{NEIGHBOURS}[{p}]", Cards(NEIGHBOURS, p))   # (a count of them may read them as bytes: fastpaths)
    return code(f"list({walked})", Copy(walked)), list_of(CARD)


def b_adjacent(c, n, scope, args, kw):
    _need_board(c, n)
    a, b = _card_args(c, n, scope, args, kw, "adjacent", 2)
    return f"({b} in {NEIGHBOURS}[{a}])", BOOL


register_builtin("neighbors", b_neighbors)
register_builtin("adjacent", b_adjacent)
