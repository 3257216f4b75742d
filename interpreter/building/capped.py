"""A zone's ``max:`` compiled at load (engine/capacity.py enforces it).

``max: N`` is a whole number of 0 or more, or an expression of what is fixed before a game
starts (parameters, ``num_players``, defines of them): one that reads a zone, a counter or a
variable is an error located at that name, as a requirement's is (building/requirements.py).
A number under the cards a shared zone starts with is an error at load; an expression's value
is checked when each game starts. The most the zone can hold in any game, where it is known
(the number; an expression's greatest value, where everything it reads declares its bounds:
``Compiler.span``), bounds the zone's length for the cost model (``Names.zone_sizes``); an
expression whose value is known at load (``2 * 3``) is written in as its number.
"""
from __future__ import annotations

import copy

from ..engine.capacity import over, starts
from ..engine.requires import Seats
from ..errors import Diagnostic, Refused, UsageError, figure
from ..expr import ExprError, parse
from ..expr.parser import as_expr
from ..expr.types import ANY, INT, NUM
from .requirements import stateless

WHAT = ("a zone's max is evaluated before the game's setup: it reads only params, num_players and "
        "defines of them")


def zone_caps(ctx, r) -> None:
    """Compile every zone's ``max:``: ``ctx.zone_caps`` (zone -> its number, or its expression's
    text: what the generated guards write, engine/capacity.py ``guard``), ``r.zone_max`` (zone ->
    f(S, None, None)), ``r.zone_max_locs``, and the cost model's bounds (``ctx.names.zone_sizes``)."""
    r.zone_max, r.zone_max_locs = {}, {}
    for name, decl in ctx.zone_decl.items():
        if not isinstance(decl, dict) or decl.get("max") is None:
            continue
        path = ("zones", name, "max")
        value = decl["max"]
        if isinstance(value, bool) or isinstance(value, float) or isinstance(value, int) and value < 0:
            ctx.error(f"max: is a whole number of 0 or more, or an expression of parameters, got {value!r}",
                      path, "type")
            continue
        before = len(ctx.diags)
        try:   # (its own tree, so that the compile is not one reused: its span is read below)
            tree = copy.deepcopy(parse(as_expr(value)))
        except ExprError as e:
            ctx.expr_error(e, path)
            continue
        fn = ctx.expr(value, path, has_me=False, expect=INT, tree=tree)
        if len(ctx.diags) == before:
            stateless(ctx, fn, path, "a zone's max", WHAT, "capacity")
        if len(ctx.diags) == before and fn.type not in (INT, ANY):   # (a number of another type: refused in every game)
            ctx.error(f"a zone's max is a whole number of cards, got {fn.type}", path, "type",
                      "// divides to a whole number: num_players // 2" if fn.type == NUM else None)
        if len(ctx.diags) > before:
            continue
        span = ctx.compiler.span(tree)
        if span is not None and span[1] < 0:   # (less than 0 in every game: "0 - 1", params.n - 9 where n <= 6)
            ctx.error("max: is a whole number of 0 or more, " + (f"got {figure(span[1])}" if span[0] == span[1] else
                      f"and {as_expr(value).strip()} is {figure(span[1], 'at most')} in every game"), path, "capacity")
            continue
        if type(value) is not int and span is not None and span[0] == span[1] and type(span[0]) is int:
            value = span[0]   # (the same in every game of the ruleset: "2 * 3", num_players of one count)
        most = value if type(value) is int else span[1] if span is not None and span[1] != float("inf") else None
        ctx.zone_caps[name] = value if type(value) is int else as_expr(value)
        r.zone_max[name] = fn
        r.zone_max_locs[name] = ctx.smap.loc(path)
        if most is not None and most < ctx.names.max_list:
            ctx.names.zone_sizes[name] = max(0, int(most))
        started = sum(len(r.cards.by_component.get(c, ())) for c in decl.get("start") or ())
        if type(value) is int and started > value:
            ctx.error(f"zone '{name}' starts with {started} cards, more than its max: {value}", path, "capacity",
                      "raise max:, or start fewer cards here")
    if r.zone_max:
        ctx.names.namespace["_full"] = over


def start_warnings(ctx, r) -> None:
    """A warning at a zone's max for each player count whose default values refuse the game (a
    max under the start cards, or not a whole number): as a requirement's (building/requirements.py)."""
    if not r.zone_max or any(d.severity == "error" for d in ctx.diags):
        return
    for n in r.player_counts:
        try:
            params, members = r.resolve_params(n, {}), r.team_members(n)
        except UsageError:   # (a count without a parameter's value or teams: refused for that already)
            continue
        try:
            starts(r, Seats(r, n, params, {}, members))
        except Refused as e:
            ctx.diags.append(Diagnostic(f"a game of {n} players with the default values is refused: {e.message}",
                                        e.loc, "capacity", "warning", "give such a game other values (--set), "
                                        "or change the defaults or the max"))
