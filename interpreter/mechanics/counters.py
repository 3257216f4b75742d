"""Counter effects: gain, lose, transfer between counters, and reset to the start values.

    - gain: {counter: coins, amount: 2}                # add (an unlimited supply)
    - gain: {counter: tokens, amount: 1, from: bank}     # a limited supply gives what it has
    - lose: {counter: coins, amount: cost, to: bank}   # never below zero
    - transfer: {from: coins[p], to: coins, amount: 1}
    - reset: [round_points, passes]

Each emits Python lines into the effect list's function (building/effects.py) and logs one event.
"""
from __future__ import annotations

from ..engine.values import as_whole
from ..errors import digits
from ..expr.runtime import MAX_INT, stored_source
from ..expr.types import INT, NUM, unproven
from ..expr.names import slot, state_write, table_ref
from .base import effect_kind
from .contract import Key
from .cards import count_cards, owner_key


def take(em, amount: str, src: str, dst: str | None) -> str:
    """Emit: move up to ``amount`` out of counter ``src`` (into ``dst``); the moved amount's name."""
    a = em.fresh("_a")
    if amount.isdigit() and stored_source(amount) == amount:   # a literal: the clamp as two tests, not two C calls
        em.line(f"{a} = {src}")
        em.line(f"if {a} > {amount}: {a} = {amount}")
        em.line(f"elif {a} < 0: {a} = 0")
    else:
        em.line(f"{a} = max(0, min({stored_source(amount)}, {src}))")
    em.line(f"{src} -= {a}")
    if dst is not None:
        bounded(em, dst, f"{dst} + {a}")   # (a: at least 0)
    return a


def bounded(em, dst: str, value: str, rises: bool = True, name: str | None = None) -> None:
    """Emit: counter ``dst`` set to ``value``, its own plus an amount, held to the 64 bits an
    amount is held to (runtime._stored, ``a whole number beyond 64 bits``; four gains of 2^62
    wrote a counter no saved state reloads), by way of the local ``name`` (a fresh one where not
    given). Written into every gain: one comparison, where the amount never takes away
    (``rises``), both ends else, and _stored called only to raise; one statement, as ``+=`` was
    (an effect list of a few statements is written in place: building/inlined.py INLINE_LINES)."""
    em.line(held(dst, value, name or em.fresh("_n"), rises))


def held(dst: str, value: str, n: str, rises: bool = True) -> str:
    """The one statement ``bounded`` writes (by way of the local ``n``), for a step's code written
    as lines (grid.py: a price paid and marked; ``_stored`` bound in its module)."""
    test = f"({n} := {value}) <= {MAX_INT}" if rises else f"{-MAX_INT - 1} <= ({n} := {value}) <= {MAX_INT}"
    return f"{dst} = {n} if {test} else _stored({n})   # (_stored raises)"


# a gain's or a lose's amount (transfer says its own: at most this much), read by amount_of
AMOUNT = Key("amount", "expression: int", "how much", default=1)


def amount_of(fx, spec, path, locals, has_me, name, key: Key = AMOUNT, what: str = "amount") -> str:
    """The compiled amount of a counter effect on counter ``name`` (``key``: its amount:, an
    advance's by: or max:, ``what`` its message calls it): a whole number (a counter holds whole
    numbers, as its saved state does); a number that may have a fraction is a located error, a
    value of type any checked where it is used (``whole``)."""
    given = fx.ctx.expr(spec.get(key.name, key.default), (*path, key.name), locals, has_me, INT)
    may_be_fraction(fx.ctx, given, (*path, key.name), what)
    return whole(fx, name, given.source, given.proven)


def may_be_fraction(ctx, given, path, what: str) -> bool:
    """Whether ``given`` (a compiled expression of type int or num: ``.type``, ``.proven``), an
    amount a counter gains, loses, pays, is marked or moves by (``what``: "amount", "cost"...),
    must be checked a whole number where it is used (engine/values.py ``as_whole``, ``whole``):
    of type any, or made of one. One of type num may have a fraction, which no counter holds: an
    error at load, located at ``path``. The one check of what a counter is given (counters,
    tracks, pay, grid)."""
    if given.type == NUM:
        ctx.error(f"a counter holds whole numbers, and this {what} may have a fraction: divide with //", path, "type")
    return unproven(given.proven, INT)


def counter_starts(ctx, declared: dict) -> dict:
    """Each counter's compiled ``start:`` (a family's counters: the family's), held to a whole
    number as what a counter is given is (``may_be_fraction``: of type num, an error at load, once a
    family; of type any, or made of one, checked as the game starts, engine/ruleset.py)."""
    starts, checked = {}, set()
    for name, decl in declared.items():
        path = ("counters", name.split(".")[0], "start")
        starts[name] = ctx.expr(decl.get("start", 0), path, has_me=False, expect=INT)
        if path not in checked:
            checked.add(path)
            may_be_fraction(ctx, starts[name], path, "start")
    return starts


def whole(fx, name, src: str, proven: str, written: bool = False) -> str:
    """``src``, a value proven of type ``proven`` (expr/nesting.py ``proven``) that counter ``name``
    is set to (``written``: a set, a reset), or gains or loses: itself where the load proves it a
    whole number, else checked where it is used (engine/values.py ``as_whole``: a value of type
    any, or made of one, may be a string, a fraction or none), as a saved state's counters are held
    to. A value of type int may be none too (a variable not set, ``first([])``): where it is written
    but a literal, checked alike (a gain's none fails at the sum)."""
    if not unproven(proven, INT) and (not written or digits(src, signed=True)):
        return src
    fx.ctx.names.namespace["_whole"] = as_whole
    return f"_whole({name!r}, {src})"


def counter_and_amount(fx, em, spec, path, locals, has_me) -> tuple:
    """A gain's or a lose's compiled ``counter:`` (its source, name and owner: its owner evaluated
    once, by ``em``'s lines) and ``amount:``."""
    target = fx.target_owner(spec["counter"], (*path, "counter"), locals, has_me, "counter", any_owner=True, em=em)
    return (*target, amount_of(fx, spec, path, locals, has_me, target[1]))


def counter_event(fx, em, kind: str, name, owner, a: str) -> None:
    """Emit the event of a gain or a lose: ``a``, the amount that moved."""
    fx.event(em, f"{{'ev': {kind!r}, 'counter': {name!r}, {owner_key('', owner)}'who': me, 'amount': {a}}}")


@effect_kind("gain", "add to a counter (optionally taken from a limited supply counter)",
             keys=(Key("counter", "counter", "the counter to add to", required=True),
                   AMOUNT,
                   Key("from", "counter", "a limited supply: gives what it has")), seat_noted=True)
def e_gain(fx, em, spec, path, locals, has_me):
    dst, name, owner, amount = counter_and_amount(fx, em, spec, path, locals, has_me)
    if "from" in spec:   # a limited supply gives what it has
        src, _ = fx.target(spec["from"], (*path, "from"), locals, has_me, "counter", em=em)
        a = take(em, amount, src, dst)
    else:
        a = em.fresh("_a")
        em.line(f"{a} = {stored_source(amount)}")
        bounded(em, dst, f"{dst} + {a}", digits(amount))
    counter_event(fx, em, "gain", name, owner, a)


@effect_kind("lose", "remove from a counter, never below zero (optionally returned to a supply)",
             keys=(Key("counter", "counter", "the counter to take from (never below zero)", required=True),
                   AMOUNT,
                   Key("to", "counter", "the supply it returns to")), seat_noted=True)
def e_lose(fx, em, spec, path, locals, has_me):
    src, name, owner, amount = counter_and_amount(fx, em, spec, path, locals, has_me)
    dst = fx.target(spec["to"], (*path, "to"), locals, has_me, "counter", em=em)[0] if "to" in spec else None
    a = take(em, amount, src, dst)
    counter_event(fx, em, "lose", name, owner, a)


@effect_kind("transfer", "move up to an amount from one counter to another",
             keys=(Key("from", "counter", "where the amount comes from", required=True),
                   Key("to", "counter", "where it goes", required=True),
                   Key("amount", "expression: int", "at most this much", default=1)), seat_noted=True)
def e_transfer(fx, em, spec, path, locals, has_me):
    src, sname, sowner = fx.target_owner(spec["from"], (*path, "from"), locals, has_me, "counter", any_owner=True, em=em)
    dst, dname, downer = fx.target_owner(spec["to"], (*path, "to"), locals, has_me, "counter", any_owner=True, em=em)
    amount = amount_of(fx, spec, path, locals, has_me, sname)
    a = take(em, amount, src, dst)
    fx.event(em, f"{{'ev': 'transfer', 'from': {sname!r}, {owner_key('from', sowner)}'to': {dname!r}, "
                 f"{owner_key('to', downer)}'who': me, 'amount': {a}}}")


@effect_kind("reset", "set counters (every owner's) back to their start values", seat_noted=True)
def e_reset(fx, em, spec, path, locals, has_me):
    names = spec if isinstance(spec, list) else [spec]
    counters = fx.ctx.names.counters
    for i, name in enumerate(names):
        name = fx.name(name, (*path, i) if isinstance(spec, list) else path, "counter name")
        if name is None:
            continue
        p = (*path, i) if isinstance(spec, list) else path
        family = fx.ctx.names.keyed.get(name)
        if name not in counters and family is None:
            fx.ctx.unknown("counter", name, [*counters, *fx.ctx.names.keyed], p)
            continue
        fx.ctx.compiler.used.add(name)
        for one in [f"{name}.{k}" for k in family] if family is not None else [name]:   # a family: each counter
            start = (fx.ctx.counter_decl.get(one) or {}).get("start", 0)
            given = fx.ctx.expr(start, ("counters", name, "start"), {}, False, INT)
            src = whole(fx, name, given.source, given.proven, written=True)
            fx.access.write("c", one)
            if counters[one] == "none":
                em.line(state_write(slot("c", one), src))
            else:
                em.line(state_write(slot("c", one), f"[{src}] * len({table_ref('c', one)})"))
                count_cards(em, f"len({table_ref('c', one)})")   # (a counter owned by each card: one value a card)
    fx.event(em, f"{{'ev': 'reset', 'counters': {list(names)!r}}}")
