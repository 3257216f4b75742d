"""Card effects: move cards between zones, shuffle, deal to each player, gather zones into one.

    - move: {from: deck, to: market, count: 3}
    - move: {from: hand, to: discard, cards: "hand where suit == 'H'", bottom: true}
    - move: {from: hand, to: discard, cards: "hand where suit == 'H'", count: 2}   # the first two of them
    - shuffle: deck
    - deal: {from: deck, to: hand, count: 10, start: dealer}
    - gather: {from: [hand, taken, table], to: deck}

A zone declared ``sorted: true`` stays in card order (cards are inserted in place); a zone
with ``on_enter`` triggers is told of every card that enters it.
"""
from __future__ import annotations

from ..expr import ExprError, parse
from ..expr.code import Const, shape
from ..expr.parser import as_expr, bare_name
from ..expr.types import BOOL, CARD, INT, PLAYER, is_list, list_of
from ..expr.cdialect import list_take, sorted_put, sorted_take, sorted_take_inline
from ..engine.capacity import guard
from ..expr.names import VIEWS, item_read, record_writable, state_add, state_read, zone_ref
from .base import effect_kind
from .contract import Key, players_key

LONG = 24   # a sorted zone's length past which a card is found by bisection rather than list.remove


@effect_kind("move", "move cards from one zone to another",
             keys=(Key("from", "zone", "where the cards come from (ZONE_A if CONDITION else ZONE_B: either)", required=True),
                   Key("to", "zone", "where they go", required=True),
                   Key("cards", "expression: list of cards", "which cards (default: all, or the top count:)"),
                   Key("count", "expression: int", "how many from the top (with cards: the first N of them)"),
                   Key("bottom", "bool", "put them under the pile", default=False)), seat_noted=True)
def e_move(fx, em, spec, path, locals, has_me):
    if "cards" in spec and "count" in spec:
        try:
            zone = bare_name(parse(as_expr(spec["cards"])))
        except ExprError:
            zone = None    # reported by the move itself
        if zone is not None and zone in fx.ctx.names.zones:
            # the first N of a zone's list are its bottom cards, while count: alone takes the top
            fx.ctx.error(f"cards: {zone} with count: would take the first (bottom) cards of '{zone}'", (*path, "cards"),
                         "type", f"for the top cards write count: alone ({{move: {{from: {zone}, to: ..., count: N}}}}); "
                                 "for N of some cards, cards: a list of them ('" + zone + " where ...')")
            return
    _move(fx, em, spec, path, locals, has_me, {})


def _listed(value) -> tuple | None:
    """The items of the list display ``value`` (``[spot]``: one), or None: another expression."""
    try:
        tree = parse(as_expr(value))
    except ExprError:
        return None    # reported by the move itself
    return tuple(c for c in tree.children if c is not None) if tree.data == "list_" else None


def _branch(value):
    """The parsed ``A if C else B`` a zone of a move is written as, or None."""
    try:
        tree = parse(str(value))
    except ExprError:
        return None    # reported by the move itself
    return tree if tree.data == "cond" else None


def _move(fx, em, spec, path, locals, has_me, parts):
    """A move, its ``from`` and ``to`` each a zone or ``ZONE_A if CONDITION else ZONE_B`` (at any
    depth): the condition picks which move runs, every zone checked at load (``parts``: the
    branch already taken on each side, as a part of its parsed text)."""
    for side in ("from", "to"):
        tree = parts.get(side) or (_branch(spec[side]) if side not in parts else None)
        if tree is not None and tree.data == "cond":
            a, cond, b = tree.children
            text = str(spec[side])
            c, _ = fx.expr(text[cond.meta.start_pos:cond.meta.end_pos], (*path, side), locals, has_me, BOOL, tree=cond)
            for header, part in ((f"if {c}:", a), ("else:", b)):
                em.line(header)
                em.depth += 1
                _move(fx, em, spec, path, locals, has_me, {**parts, side: part})
                em.depth -= 1
            return
    # each zone and its owner evaluated once, before the cards move: where they go is where the
    # event, the knowledge and the triggers say they went
    src, sname, sowner = fx.target_owner(spec["from"], (*path, "from"), locals, has_me, "zone", any_owner=True,
                                         tree=parts.get("from"), em=em)
    s = em.fresh("_s")
    em.line(f"{s} = {src}")
    dst, dname, downer = fx.target_owner(spec["to"], (*path, "to"), locals, has_me, "zone", any_owner=True,
                                         tree=parts.get("to"), em=em)
    d, cs = em.fresh("_d"), em.fresh("_c")
    em.line(f"{d} = {dst}")
    moved = f"len({cs})"
    one = None   # a one-card move's card, held in a local: no list made unless something is told
    if "cards" in spec:
        csrc, ctype = fx.expr(spec["cards"], (*path, "cards"), locals, has_me, list_of(CARD))
        items = None if "count" in spec else _listed(spec["cards"])
        listed = None if items is None else len(items)
        if "count" in spec:   # the first N of these cards (all of them when they are fewer)
            n, _ = fx.expr(spec["count"], (*path, "count"), locals, has_me, INT)
            em.line(f"{cs} = list({csrc})[:max(0, {n})]")
        elif items is not None and len(items) == 1 and is_list(ctype):   # ``[spot]``: its item alone (checked as the list above)
            card, _ = fx.expr(spec["cards"], (*path, "cards"), locals, has_me, None, tree=items[0])
            em.line(f"{cs} = {card}")
            one, cs = cs, f"[{cs}]"   # (the list made only where the move is told)
            moved = "1"
        elif listed is not None:   # a list display (``[spot]``): a new list of known length
            em.line(f"{cs} = {csrc}")
            moved = str(listed)
        else:
            em.line(f"{cs} = list({csrc})")
        # a zone in card order: a card found by bisection (_remove_sorted), not by comparing
        # every card before it, where the zone is long (a supply; a hand's few are compared at
        # once, in C); otherwise list.remove (a C call costs as much as the rest of a one-card move)
        sort = sname and fx.ctx.zone_sorted(sname)
        remove = f"{sorted_take(s, '_x')} if len({s}) > {LONG} else {list_take(s, '_x')}" if sort else list_take(s, "_x")
        if one is not None:   # (a sorted zone's bisection written in: no call)
            em.line(sorted_take_inline(s, one, em.fresh("_i")) if sort else list_take(s, one))
        elif listed is not None and listed < 8:
            em.line(f"for _x in {cs}: {remove}")
        else:
            em.line(f"if len({cs}) < 8:   # (a few cards: removed in place, no call)")
            em.line(f"    for _x in {cs}: {remove}")
            em.line("else:")
            em.line(f"    _take_out({s}, {cs})")
    elif "count" in spec:
        n, _ = fx.expr(spec["count"], (*path, "count"), locals, has_me, INT)
        k = em.fresh("_k")
        if fx.ctx.probes is not None:   # coverage: the zone held fewer cards than asked for
            em.line(f"if len({s}) < ({n}): {fx.ctx.probes.line('ran_out', f'move from {sname} ran out', path)}")
        const = shape(n)
        if isinstance(const, Const) and type(const.value) is int and const.value == 1:   # the top card: no slices
            em.line(f"{cs} = [{s}.pop()] if {s} else []")
            count_cards(em, moved)
            return _moved(fx, em, spec, path, d, cs, sname, sowner, dname, downer, None)
        if isinstance(const, Const) and type(const.value) is int and const.value >= 0:   # no min() and max() calls
            em.line(f"{k} = {const.value} if len({s}) > {const.value} else len({s})")
        else:
            em.line(f"{k} = max(0, min({n}, len({s})))")
        em.line(f"{cs} = {s}[len({s}) - {k}:][::-1]")   # the top of a pile is its end
        em.line(f"del {s}[len({s}) - {k}:]")
    else:
        em.line(f"{cs} = {s}[:]")
        em.line(f"{s}.clear()")
    count_cards(em, moved)
    _moved(fx, em, spec, path, d, cs, sname, sowner, dname, downer, one)


def _moved(fx, em, spec, path, d, cs, sname, sowner, dname, downer, one) -> None:
    """Emit the rest of a move, its cards ``cs`` taken out of their source: into the zone ``d``,
    known, told, its triggers called (``one``: the local holding the one card moved, or None)."""
    bottom = spec.get("bottom")
    if bottom and dname and fx.ctx.zone_sorted(dname):
        fx.ctx.warn(f"zone '{dname}' is kept sorted: bottom: has no effect on where the cards go",
                      (*path, "bottom"), "sorted")
        bottom = False
    if bottom:
        em.line(f"{d}[0:0] = {cs}[::-1]")   # under the pile: the first card moved ends lowest
    elif one is not None and dname and fx.ctx.zone_sorted(dname):
        em.line(sorted_put(d, one))
    elif one is not None:
        em.line(f"{d}.append({one})")
    else:
        put(fx, em, d, cs, dname)
    for line in guard(fx.ctx.zone_max(dname), dname, d):
        em.line(line)
    recorded = fx.ctx.names.recorded
    if sname in recorded or dname in recorded:   # each card's zone, where the rules ask it
        at, to = record_writable(fx.ctx.compiler.writes), recorded.get(dname, 0)
        em.line(f"{at}[{one}] = {to}" if one is not None else f"for _x in {cs}: {at}[_x] = {to}")
    for i, union in enumerate(fx.ctx.names.views):   # each view (a union of recorded zones) the cards leave or enter
        if (sname in union) != (dname in union):
            keep = sorted_take if sname in union else sorted_put
            view = item_read(record_writable(fx.ctx.compiler.writes, VIEWS), str(i))
            if one is not None and sname in union:   # (its bisection written in: no call)
                em.line(sorted_take_inline(view, one, em.fresh("_i"), em.fresh("_v")))
            else:
                em.line(keep(view, one) if one is not None else f"for _x in {cs}: {keep(view, '_x')}")
    maybe_empty = None if one is not None else cs
    knowing(em, cs, sname, sowner, dname, downer, maybe_empty)
    fx.ctx.flows(sname, dname, kept=True)   # (the record kept above: building/record.py)
    fx.event(em, f"{{'ev': 'move', 'from': {sname!r}, {owner_key('from', sowner)}'to': {dname!r}, "
                 f"{owner_key('to', downer)}'cards': {cs}}}", maybe_empty)   # no empty moves
    # the zone's triggers after the move is told: what they do (take the card out again) comes after it
    notify(fx, em, dname, cs, downer)


@effect_kind("shuffle", "shuffle a zone (chance)", seat_noted=True)
def e_shuffle(fx, em, spec, path, locals, has_me):
    src, name = fx.target(spec, path, locals, has_me, "zone")
    fx.ctx.shuffled.add(name)   # (None: a zone load cannot tell, e.g. a declared effect's parameter)
    z = em.fresh("_z")
    em.line(f"{z} = {src}")
    em.line(f"_shuffle(S, {z})")
    count_cards(em, f"len({z})")
    if name and fx.ctx.zone_sorted(name):   # the draws are made all the same (the same games)
        fx.ctx.warn(f"zone '{name}' is kept sorted: shuffling it does not change its order", path, "sorted")
        em.line(f"{z}.sort()")


@effect_kind("deal", "deal cards one at a time from a zone to each player's zone",
             keys=(Key("from", "zone", "the deck", required=True),
                   Key("to", "zone name", "a zone owned by each player or team", required=True),
                   Key("count", "expression: int", "cards to each player", required=True),
                   players_key("who is dealt to"),
                   Key("start", "expression: player", "the first dealt to (default: the first of players)")), seat_noted=True)
def e_deal(fx, em, spec, path, locals, has_me):
    # (the zone dealt to's triggers, run after each card, may set a variable the source's owner
    # reads: the next card's event and knowledge name the zone it came from all the same)
    varies = isinstance(spec["to"], str) and spec["to"] in fx.ctx.triggers.enter
    src, sname, sowner = fx.target_owner(spec["from"], (*path, "from"), locals, has_me, "zone", any_owner=True, em=em,
                                         varies=varies)
    to = declared(fx, spec["to"], (*path, "to"), "zone", fx.ctx.names.zones)
    if to is None:
        return
    if fx.ctx.names.zones[to] == "none":
        fx.ctx.error(f"deal: '{to}' must be a zone owned by each player or team", (*path, "to"), "type")
        return
    fx.ctx.flows(sname, to)
    n, _ = fx.expr(spec["count"], (*path, "count"), locals, has_me, INT)
    who, _ = fx.expr(spec.get("players", "players"), (*path, "players"), locals, has_me, "list")
    every_seat = _every_seat(spec.get("players", "players"), locals)
    s, w, k, g = em.fresh("_s"), em.fresh("_w"), em.fresh("_k"), em.fresh("_g")
    em.line(f"{s} = {src}")
    em.line(f"{w} = {who}" if every_seat else f"{w} = [_seat(S, _x) for _x in {who}]")   # (no seat: an error)
    if "start" in spec:
        st, _ = fx.expr(spec["start"], (*path, "start"), locals, has_me, PLAYER)
        i = em.fresh("_i")
        em.line(f"{i} = {w}.index({st}) if {st} in {w} else 0")
        em.line(f"{w} = {w}[{i}:] + {w}[:{i}]")
    zone = em.fresh("_z")
    em.line(f"{zone} = {fx.writable(to)}")
    key = item_read(state_read("tm"), "_p") if fx.ctx.names.zones[to] == "team" else "_p"
    em.line(f"{k} = {n}")
    c = em.fresh("_c")   # the cards it deals: min(max(0, k) * seats, cards there), as two tests, not two C calls
    em.line(f"{c} = ({k} if {k} > 0 else 0) * len({w})")
    em.line(f"if {c} > len({s}): {c} = len({s})")
    count_cards(em, c)   # (before: the cards it deals)
    if fx.ctx.probes is not None:   # coverage: the source held fewer cards than the deal asks for
        em.line(f"if len({s}) < {k} * len({w}): {fx.ctx.probes.line('ran_out', f'deal from {sname} ran out', path)}")
    em.line(f"{g} = [] if {state_read('ev')} is not None else None   # (seat, card) dealt, for the events")
    pad = ""
    if key == "_p" and every_seat and to not in fx.ctx.triggers.enter and sname != to:
        # nothing to tell card by card (no events, no knowledge, no trigger) and a zone per seat:
        # the cards dealt are the source's last ones, the first seat's every len(players)-th
        # from the top; the seats being distinct, one slice each
        d, np = em.fresh("_d"), em.fresh("_n")
        em.line(f"if {g} is None and {state_read('kn')} is None:")
        em.line(f"    if {c}:")
        em.line(f"        {d} = {s}[:-{c} - 1:-1]")
        em.line(f"        del {s}[-{c}:]")
        em.line(f"        {np} = len({w})")
        em.line(f"        for _j, _p in enumerate({w}):")
        em.line(f"            {zone}[_p].extend({d}[_j::{np}])")
        for line in guard(fx.ctx.zone_max(to), to, f"{zone}[_p]", "            "):
            em.line(line)
        em.line("else:")
        pad = "    "
    # a round deals at least one card while the source lasts: no more rounds than its cards
    em.line(f"{pad}for _r in range(min({k}, len({s}))):")
    em.line(f"{pad}    for _p in {w}:")
    em.line(f"{pad}        if {s}:")
    em.line(f"{pad}            _x = {s}.pop()")
    em.line(f"{pad}            {zone}[{key}].append(_x)")
    for line in guard(fx.ctx.zone_max(to), to, f"{zone}[{key}]", f"{pad}            "):
        em.line(line)
    em.line(f"{pad}            if {state_read('kn')} is not None: _know(S, (_x,), {sname!r}, {sowner[0] if sowner else None}, "
            f"{to!r}, {key})")
    event = (f"{{'ev': 'deal', 'from': {sname!r}, {owner_key('from', sowner)}'to': {to!r}, 'to_owner': {key}, "
             f"'cards': %s}}")
    if to in fx.ctx.triggers.enter:
        # each card told as it arrives, before what its zone's triggers do with it (a log never
        # shows a card leave before it came)
        em.line(f"{pad}            if {state_read('ev')} is not None: {state_read('ev')}.append({event % '[_x]'})")
        live = fx.ctx.triggers.live_name(fx.ctx.names.namespace, to)
        call = f"_triggers.entered(S, {to!r}, {key}, {fx.ctx.names.zones[to] == 'team'}, [_x], me)"
        em.line(f"{pad}            {call}" if live is None else f"{pad}            if _x in {live}: {call}")
        fx.access.enter(to)
    else:
        em.line(f"{pad}            if {g} is not None: {g}.append((_p, _x))")
    if fx.ctx.zone_sorted(to):
        em.line(f"for _h in {zone}: _h.sort()")
    if to not in fx.ctx.triggers.enter:
        # one event per player dealt to, naming its cards (a redacted log hides them from others)
        em.line(f"if {state_read('ev')} is not None:")
        em.line(f"    for _p in {w}:")
        em.line(f"        {state_read('ev')}.append({event % f'[_x for _q, _x in {g} if _q == _p]'})")


def _every_seat(value, locals) -> bool:
    """Whether a deal's ``players:`` is the constant ``players`` (every seat, in order), read from
    its tree: a bare name no local shadows."""
    try:
        return bare_name(parse(as_expr(value))) == "players" and "players" not in (locals or {})
    except ExprError:   # (reported where it was compiled)
        return False


@effect_kind("gather", "move every card of some zones (all owners) into one zone",
             keys=(Key("from", "zone names", "a zone or a list of zones, every owner's", required=True),
                   Key("to", "zone", "where all their cards go (its on_enter triggers run for each card that comes; "
                       "a zone gathered into keeps its own cards)", required=True)), seat_noted=True)
def e_gather(fx, em, spec, path, locals, has_me):
    dst, dname, downer = fx.target_owner(spec["to"], (*path, "to"), locals, has_me, "zone", any_owner=True, em=em)
    froms = spec["from"] if isinstance(spec["from"], list) else [spec["from"]]
    d, n0 = em.fresh("_d"), em.fresh("_n")
    em.line(f"{d} = {dst}")
    em.line(f"{n0} = len({d})")
    for i, zname in enumerate(froms):
        zpath = (*path, "from", i) if isinstance(spec["from"], list) else (*path, "from")
        if declared(fx, zname, zpath, "zone", fx.ctx.names.zones) is None:
            continue
        owned = fx.ctx.names.zones[zname]
        # the zone gathered into, among those gathered from, keeps its cards where they are
        # (extended by itself, then emptied, it would lose them)
        if owned == "none" and zname == dname:
            fx.ctx.warn(f"zone '{zname}' is the zone gathered into: its cards stay where they are", zpath, "unused")
            continue
        fx.ctx.flows(zname, dname)
        fx.access.write("z", zname)   # (emptied below)
        others = f" if _h is not {d}" if zname == dname else ""   # (an owner's zone gathered into)
        if dname:   # who knows where the cards went (engine/knowledge.py), zone by zone
            each = {"none": f"((None, {zone_ref(zname)}),)", "card": f"{zone_ref(zname)}.items()"}.get(
                owned, f"enumerate({zone_ref(zname)})")
            em.line(f"if {state_read('kn')} is not None:")
            em.line(f"    for _o, _h in {each}: _know(S, _h, {zname!r}, _o, {dname!r}, "
                    f"{downer[0] if downer else None}){others and f'{others} else None'}")
        if owned == "none":
            em.line(f"{d}.extend({zone_ref(zname)}); {fx.writable(zname)}.clear()")
        elif fx.ctx.names.zones[zname] == "card":
            # a zone per card is a dict of the cards' non-empty zones: emptied, it drops them
            em.line(f"for _k in sorted({zone_ref(zname)}): {d}.extend({zone_ref(zname)}[_k])   # (in card order)")
            em.line(f"{zone_ref(zname)}.clear()")
        elif others:   # the other owners' cards come to the one gathered into
            em.line(f"for _h in [_h for _h in {fx.writable(zname)} if _h and _h is not {d}]: {d}.extend(_h); _h.clear()")
        else:   # (filter(None, ...) skips the empty ones in C)
            em.line(f"for _h in filter(None, {fx.writable(zname)}): {d}.extend(_h); _h.clear()")
    for line in guard(fx.ctx.zone_max(dname), dname, d):
        em.line(line)
    count_cards(em, f"len({d}) - {n0}")
    gathered = [z for z in froms if isinstance(z, str) and z in fx.ctx.names.zones]
    came = None
    if dname in fx.ctx.triggers.enter:   # (the cards that came, in gathering order, for its triggers)
        came = em.fresh("_g")
        em.line(f"{came} = {d}[{n0}:]")
    fx.event(em, f"{{'ev': 'gather', 'from': {gathered!r}, 'to': {dname!r}, {owner_key('to', downer)}"
                 f"'cards': {came or f'{d}[{n0}:]'}}}")   # (before a sort: the cards that came, in gathering order)
    if dname and fx.ctx.zone_sorted(dname):
        em.line(f"{d}.sort()")
    if came is not None:   # the zone's triggers, each card entering as a move's do, after the gather is told
        notify(fx, em, dname, came, downer)


def count_cards(em, count: str) -> None:
    """Emit: ``count`` more units against the game's step budget, for an effect whose work
    grows with the cards (or counter values) it handles: a shuffle, move, deal, gather or
    reset of n of them costs n (checked after the step, as every step is: engine/loop.py)."""
    em.line(state_add("steps", count))


def take_out(zone: list, cards: list) -> None:
    """Remove many ``cards`` from ``zone`` in one pass over it (each must be there: ValueError
    otherwise, as ``list.remove`` says); a move of a few removes them in place instead."""
    gone = set(cards)
    kept = [x for x in zone if x not in gone]
    if len(gone) != len(cards) or len(kept) != len(zone) - len(cards):
        raise ValueError("list.remove(x): x not in list")
    zone[:] = kept


def put(fx, em, dst_var, cards_var, zone_name):
    """Emit: the cards into the zone (in order, or where a sorted zone keeps them); its enter
    triggers are the caller's to call (``notify``), once the move is told."""
    if zone_name and fx.ctx.zone_sorted(zone_name):
        em.line(f"for _x in {cards_var}: {sorted_put(dst_var, '_x')}")
    else:
        em.line(f"{dst_var}.extend({cards_var})")


def notify(fx, em, zone_name, cards_var, owner):
    """Call the enter triggers of the zone, if it has any (known at compile time). A zone owned
    by each card tells its triggers no owner (``me`` is the acting player there)."""
    if owner is not None and owner[1] is None:
        owner = None
    if zone_name in fx.ctx.triggers.enter:
        who, by_team = owner if owner is not None else ("None", False)
        call = f"_triggers.entered(S, {zone_name!r}, {who}, {by_team}, {cards_var}, me)"
        live = fx.ctx.triggers.live_name(fx.ctx.names.namespace, zone_name)
        em.line(call if live is None else f"if not {live}.isdisjoint({cards_var}): {call}")   # (decided per card)
        fx.access.enter(zone_name)


def knowing(em, cards_var, src, src_owner, dst, dst_owner, unless_empty) -> None:
    """Emit: tell the seats' knowledge of hidden cards about the move (engine/knowledge.py),
    when the game keeps it (``unless_empty``: not when that list is empty)."""
    if src and dst:
        when = f" and {unless_empty}" if unless_empty else ""
        em.line(f"if {state_read('kn')} is not None{when}: _know(S, {cards_var}, {src!r}, "
                f"{src_owner[0] if src_owner else None}, {dst!r}, {dst_owner[0] if dst_owner else None})")


def declared(fx, value, path, what: str, pool) -> str | None:
    """``value``, a name written in YAML, when it names a declared ``what`` (a zone, a variable)
    of ``pool``, noted as used; None after a located error (not a plain name, or an unknown one
    with a did-you-mean)."""
    name = fx.name(value, path, f"{what} name")
    if name is None:
        return None
    fx.ctx.compiler.used.add(name)
    if name not in pool:
        fx.ctx.unknown(what, name, pool, path)
        return None
    return name


def owner_key(side: str, owner) -> str:
    """The ``'from_owner': SOURCE, `` part of an event for an owned zone or counter (its owner's
    index: a seat, a team, or the owning card; ``side`` "" gives ``'owner'``), or nothing for a
    shared one."""
    key = f"{side}_owner" if side else "owner"
    return f"'{key}': {owner[0]}, " if owner is not None else ""
