"""The ``view:`` section: optional layout hints for the web viewer (interpreter/web/), checked at load.

    view:
      order: [table, hand]                  # drawn first, in this order (zones and counters)
      hide: [deck]                          # not drawn (still in every observation)
      collapse: [supply]                    # drawn as counts of each label, not card by card
      vars: [round, start_player]           # the variables shown (default: every public one)
      board: {x: col, y: row}               # where a board's positions are drawn: two number attributes
      colors: {by: suit, map: {H: "#c0392b", D: "#d35400"}}   # a card's colour by an attribute

Nothing in a game reads them: a ruleset plays the same with or without. The names must be
declared zones or counters, ``vars`` declared variables (a typo is a located error with a did-you-mean); ``colors.by`` a
card attribute; a colour a CSS hex colour (``#rgb`` or ``#rrggbb``) or a plain colour name.
"""
from __future__ import annotations

import re
from typing import Any

_COLOUR = re.compile(r"^(#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|[a-zA-Z]{3,20})$")


def view_hints(ctx, spec, r) -> dict:
    """The checked hints, with every key present: {order, hide, collapse, vars, colors: {by, map}, board}
    (``vars`` None: every public variable)."""
    out: dict[str, Any] = {"order": [], "hide": [], "collapse": [], "vars": None, "colors": {"by": None, "map": {}},
           "board": None}
    if not isinstance(spec, dict):
        return out   # the schema said so
    drawn = {**ctx.names.zones, **ctx.names.counters}
    for key in ("order", "hide", "collapse"):
        pool = ctx.names.zones if key == "collapse" else drawn
        for i, name in enumerate(spec.get(key) or []):
            if ctx.known("zone" if key == "collapse" else "zone or counter", name, pool, ("view", key, i)):
                out[key].append(name)
    if "vars" in spec:
        out["vars"] = [name for i, name in enumerate(spec.get("vars") or [])
                       if ctx.known("variable", name, ctx.names.vars, ("view", "vars", i))]
    board = spec.get("board")
    if isinstance(board, dict):
        axes = {k: board.get(k) for k in ("x", "y")}
        if all(ctx.known("card attribute", a, ctx.names.attrs, ("view", "board", k)) for k, a in axes.items()):
            out["board"] = axes
    colors = spec.get("colors") or {}
    by = colors.get("by")
    if by is not None and ctx.known("card attribute", by, ctx.names.attrs, ("view", "colors", "by")):
        out["colors"]["by"] = by
    for value, colour in (colors.get("map") or {}).items():
        if not isinstance(colour, str) or not _COLOUR.match(colour):
            ctx.error(f"'{colour}' is not a colour (write #rgb, #rrggbb or a colour name such as red)",
                      ("view", "colors", "map", value), "type")
            continue
        out["colors"]["map"][str(value)] = colour
    return out
