"""The built-in functions: count, sum, min/max, highest/lowest, top/bottom, any/all, one,
first/last, distinct, map, abs, left/right, team, partner, members, keys, text (textual.py),
subsets (sublists.py); and ``register_builtin``
for the functions a mechanic adds (combos(), neighbors(), skill()...).

Each built-in is ``build(compiler, node, scope, args, kwargs) -> (python source, type)``.
"""
from __future__ import annotations

from lark import Tree

from . import known, nesting, runtime, texts, walks
from .walks import RANK_WORK, WALK_WORK, walked
from .arity import check_arity, list_arg
from .code import AnyLoop, any_loop, Count, Filter, Size, Hoisted, KeyLookup, Mapped, Not, Ranked, Summed, code, lookup, lookup_table, shape, walkable, \
    zone_name
from .named import element_names
from .nesting import bind_element, deepest, element_of, innered
from .names import item_read, state_read
from .fastpaths import attr_equals, comparison_tests, count_in_bytes, count_in_record, negated, scan_call, scan_first
from .parser import ExprError, offset_of
from .sublists import b_subsets, v_subsets
from .tallies import tallied
from .textual import b_text
from .types import ANY, BOOL, INT, NUM, PLAYER, STR, TEAM, NONE, elem, is_map, is_numeric, list_of, unify


# ---------------------------------------------------------------------- built-in functions
def key_fn(var: str, src: str, plain: bool = False) -> str:
    """The source of a one-argument key function: the table's own lookup (a C-level call) when
    the key only looks an attribute (or a table bound before) up by the element; else (or
    ``plain``: the reference compile) a lambda."""
    table = _key_table(var, src, plain)
    return code(f"_lookup({table})", KeyLookup(table)) if table is not None else f"lambda {var}: {src}"


def _key_table(var: str, src: str, plain: bool) -> str | None:
    """The table key_fn looks the element up in (None: it writes a lambda)."""
    return None if plain else lookup_table(src, var, attributes_or_bound=True)


def keyed_arg(c, scope, kwargs, typ, key="by", coll=None, lam=True, var=None):
    """Compile ``by: expr`` with the list element bound; returns (var, src, type).
    ``lam``: the body becomes a lambda's, so nothing inside may be hoisted; a builder that puts
    the body in a comprehension passes lam=False. ``var``: the element's name (default: a new one).
    ``coll``: the list's node; the names its filters give the element with ``as`` are the
    element's in the body too (expr/named.py)."""
    var = var or c.fresh()
    if lam:
        c.lambda_vars.add(var)
    if coll is not None:
        bind_element(c, var, coll, typ)
        walks.bound_over(c, var, coll, scope)
    inner = scope.with_element(var, elem(typ), element_names(coll))
    body = lambda: c.node(kwargs[key], inner)  # noqa: E731
    s, t = c.in_loop(coll, body) if coll is not None else body()
    if lam and _key_table(var, s, c.plain) is None:
        c.holds_loop(True)   # key_fn writes the body as a lambda
    return var, s, t


def b_count(c, n, scope, args, kw):
    check_arity(n, args, kw, "count", 1)
    src, _ = list_arg(c, scope, args[0], "count")
    inner = shape(src).inner if isinstance(shape(src), Hoisted) else src   # a map lifted out of a filter is still a map
    while isinstance(shape(inner), Mapped):   # a map has as many elements as its list: count that, skip the mapping
        src = inner = shape(inner).iter
    out = f"len({src})"
    counted = shape(inner)
    if not isinstance(counted, Filter):
        c.holds_loop(getattr(src, "loops", False))   # (a map's loop is left out)
        return (code(out, Size(src)) if zone_name(src) else out), INT   # (compared with 0: operators.n_compare)
    if not c.plain:   # count(L where comparisons): a loop that counts, no list built
        tests = comparison_tests(counted.var, counted.cond)
        if tests is not None:   # (in a loop that cannot change the zone, a tally's count: tallies.py)
            out = tallied(c, counted, tests) or scan_call(c, counted.iter, tests, counting=True)
            c.holds_loop(any_loop(counted.iter, counted.cond))   # (the filter's own loop is left out)
        elif (in_bytes := count_in_record(c, counted.var, counted.iter, counted.cond)
              or count_in_bytes(c, counted.var, counted.iter, counted.cond)) is not None:
            out = in_bytes   # (cards of a tuple looked for in bytes: no loop)
            c.holds_loop(any_loop(counted.iter, counted.cond))
    return code(out, Count(counted), walks=getattr(out, "walks", False)), INT   # (count(...) > 0 asks for one: operators.n_compare)


def b_first(c, n, scope, args, kw):
    """first(L where P) stops at the first element that passes (a generator, not the whole list);
    first(ZONE where ATTR == X), X not reading the element, is a plain loop (``_first_eq``)."""
    check_arity(n, args, kw, "first", 1)
    src, typ = list_arg(c, scope, args[0], "first")
    element_of(c, n, args[0], elem(typ))
    typ, found = elem(typ), shape(src)
    if isinstance(found, Filter):
        var, coll, cond = found.var, found.iter, found.cond
        zone = None if c.plain else zone_name(coll)
        lookup = attr_equals(var, cond) if zone else None
        if zone is not None and lookup is not None:   # X evaluated only if the zone has an element (as a filter)
            c.holds_loop(any_loop(coll, cond))   # (the filter's own loop is left out)
            if zone in c.names.sorted_zones:   # in card order: the cards with X, by bisection
                index = "I_" + lookup[0][2:]
                return f"(_first_sorted({coll}, {lookup[0]}, {index}, {lookup[1]}) if {coll} else None)", typ
            return f"(_first_eq({coll}, {lookup[0]}, {lookup[1]}) if {coll} else None)", typ
        scan = None if c.plain else scan_first(c, var, coll, cond)
        if scan is not None:
            c.holds_loop(any_loop(coll, cond))
            return scan, typ
        return code(f"next(({var} for {var} in {coll} if {cond}), None)", loops=True), typ
    return f"_first({src})", typ


def b_sum(c, n, scope, args, kw):
    check_arity(n, args, kw, "sum", 1, kw=("by",))
    src, typ = list_arg(c, scope, args[0], "sum")
    walked(c, n, c.size(args[0]), WALK_WORK, "sum()")   # (sum() of the list, or of its by: values)
    if "by" in kw:
        var, s, t = keyed_arg(c, scope, kw, typ, coll=args[0], lam=False)
        c.expect_type(t, NUM, kw["by"])
        # (of whole numbers, statements.py may add it up in a loop: the same total)
        return code(f"sum([{s} for {var} in {src}])", Summed(var, src, s) if t == INT else None, loops=True), t
    if not is_numeric(elem(typ)):
        raise ExprError(f"sum() of a list of {elem(typ)}: add by: to say what to add up", offset_of(n), code="type")
    return f"sum({src})", elem(typ)


_CHEAP = frozenset({"add", "sub", "neg", "int_", "float_", "name", "attr"})


def _cheap(c, node) -> bool:
    """Whether an argument only reads names and attributes and adds them up (no call, no
    define, which may stand for anything): cheap enough to be written twice (a call of the
    builtin max() or min() of two costs some hundreds of instructions, a conditional a few
    bytecodes)."""
    if not isinstance(node, Tree):
        return False
    for sub in node.iter_subtrees():
        if sub.data not in _CHEAP or sub.data == "name" and str(sub.children[0]) in c.names.defines:
            return False
    return True


def _minmax(fname):
    def build(c, n, scope, args, kw):
        if len(args) >= 2 and not kw:
            parts = [c.node(a, scope) for a in args]
            for (_, t), a in zip(parts, args):
                c.expect_type(t, NUM, a)
            walks.ordered(c, n, [(a, t) for (_, t), a in zip(parts, args)], f"{fname}()")   # (values of type any)
            typ = unify([t for _, t in parts])
            if len(parts) == 2 and not c.plain and all(_cheap(c, a) for a in args):
                (a, _), (b, _) = parts   # max(a, b) keeps a unless b > a, as Python's max() does
                return f"({b} if ({a}) {'<' if fname == 'max' else '>'} ({b}) else {a})", typ
            return f"{fname}({', '.join(s for s, _ in parts)})", typ
        check_arity(n, args, kw, fname, 1, kw=("by",))
        src, typ = list_arg(c, scope, args[0], fname)
        walked(c, n, c.size(args[0]), WALK_WORK, f"{fname}()")   # (of the list, or of its by: values)
        if "by" in kw:
            var, s, t = keyed_arg(c, scope, kw, typ, coll=args[0], lam=False)
            c.expect_type(t, NUM, kw["by"])
            walks.ranked(c, n, kw["by"], t, f"{fname}()", c.size(args[0]))   # (its keys of type any compared)
            return code(f"{fname}([{s} for {var} in {src}], default=0)", loops=True), t
        if not (is_numeric(elem(typ)) or elem(typ) == STR):
            raise ExprError(f"{fname}() of a list of {elem(typ)}: add by: to say what to compare",
                            offset_of(n), code="type")
        walks.ranked(c, n, args[0], elem(typ), f"{fname}()")   # (its elements of type any compared)
        return f"{fname}({src}, default=0)", elem(typ)
    return build


def _extreme(fname, helper):
    def build(c, n, scope, args, kw):
        check_arity(n, args, kw, fname, 1, kw=("by",))
        src, typ = list_arg(c, scope, args[0], fname)
        walked(c, n, c.size(args[0]), RANK_WORK, f"{fname}()")   # (its helper's loop, a key call an element)
        if "by" not in kw:
            if not is_numeric(elem(typ)):
                raise ExprError(f"{fname}() needs by: to order a list of {elem(typ)}", offset_of(n), code="arity")
            walks.ranked(c, n, args[0], elem(typ), f"{fname}()")   # (its elements made of one of type any compared)
            var, s = "_x", "_x"
            c.holds_loop(True)   # (key_fn writes lambda _x: _x)
        else:
            var, s, t = keyed_arg(c, scope, kw, typ, coll=args[0], lam=True)
            if not (is_numeric(t) or t == STR):
                raise ExprError(f"by: must give a number, got {t}", offset_of(kw["by"]), code="type")
            walks.ranked(c, n, kw["by"], t, f"{fname}()", c.size(args[0]))   # (its keys of type any compared)
        result = elem(typ) if fname in ("highest", "lowest") else typ
        c.sized(n, c.size(args[0]))
        if result != typ:
            element_of(c, n, args[0], result)
        else:   # (top, bottom: no longer than the list)
            known.inherited(c, n, args[0])
        key = key_fn(var, s, c.plain)
        return code(f"{helper}({src}, {key})", Ranked(helper, src, key), walks=True), result
    return build


def b_one(c, n, scope, args, kw):
    """one(L); one(top(L, by: K)) (or bottom) without the list of ties (runtime._sole)."""
    check_arity(n, args, kw, "one", 1)
    src, typ = list_arg(c, scope, args[0], "one")
    element_of(c, n, args[0], elem(typ))
    ranked = shape(src)
    if isinstance(ranked, Ranked) and ranked.helper in ("_top", "_bottom") and not c.plain:
        return code(f"_one{ranked.helper}({ranked.iter}, {ranked.key})", walks=True), elem(typ)
    return f"_one({src})", elem(typ)


def b_any_all(fname):
    def build(c, n, scope, args, kw):
        check_arity(n, args, kw, fname, 1, kw=("by",))
        src, typ = list_arg(c, scope, args[0], fname)
        if "by" in kw:
            var, s, t = keyed_arg(c, scope, kw, typ, coll=args[0], lam=False)
            c.expect_type(t, BOOL, kw["by"])
            # stops at the first element that decides: a plain loop when the condition is
            # comparisons (scanner), else a generator that yields only then
            scan = None if c.plain else scan_first(c, var, src, s if fname == "any" else negated(s))
            if scan is not None:
                return f"({scan} {'is not' if fname == 'any' else 'is'} None)", BOOL
            if fname == "any":
                return code(f"any(True for {var} in {src} if {s})", AnyLoop(var, src, s), loops=True), BOOL
            loop = code(f"any(True for {var} in {src} if not ({s}))", AnyLoop(var, src, f"not ({s})"), loops=True)
            return code(f"(not {loop})", Not(loop), loops=True), BOOL
        if elem(typ) == BOOL:
            walked(c, n, c.size(args[0]), WALK_WORK, f"{fname}()")
            return f"{fname}({src})", BOOL
        # a list of things: any = not empty, all = always (vacuous) -> only any makes sense
        if fname == "all":
            raise ExprError("all() of a list that is not of conditions: add by: CONDITION", offset_of(n), code="type")
        return f"(len({src}) > 0)", BOOL
    return build


def _unary_list(fname, helper, result_elem=True):
    def build(c, n, scope, args, kw):
        check_arity(n, args, kw, fname, 1)
        src, typ = list_arg(c, scope, args[0], fname)
        c.sized(n, c.size(args[0]))
        if result_elem:
            element_of(c, n, args[0], elem(typ))
        return f"{helper}({src})", elem(typ) if result_elem else typ
    return build


def b_distinct(c, n, scope, args, kw):
    """distinct(L); distinct(map(ZONE, to: attr)) over a zone kept in card order jumps over the
    runs of cards that share the value (runtime._distinct_sorted)."""
    check_arity(n, args, kw, "distinct", 1)
    src, typ = list_arg(c, scope, args[0], "distinct")
    c.sized(n, c.size(args[0]))
    known.inherited(c, n, args[0])
    walks.spread_as(c, n, args[0])
    walks.keyed(c, n, args[0], nesting.held_as(c, args[0], typ), "distinct()")   # (made of any: keyed as any)
    texts.holds_of(c, n, [args[0]])
    mapped = shape(src)
    if isinstance(mapped, Mapped) and mapped.lookup is not None and mapped.lookup[1] == "attr" \
            and zone_name(mapped.iter) in c.names.sorted_zones:
        table = mapped.lookup[0]
        return code(f"_distinct_sorted({mapped.iter}, {table}, I_{table[2:]})", walks=True), typ
    return code(f"_distinct({src})", walks=True), typ


def b_map(c, n, scope, args, kw):
    check_arity(n, args, kw, "map", 1, kw=("to",))
    if "to" not in kw:
        raise ExprError("map() needs to: EXPR", offset_of(n), code="arity")
    src, typ = list_arg(c, scope, args[0], "map")
    # map(L where C, ...): one pass, no list in between; the mapping reads the element under C's name
    inner = None if c.plain else shape(src)
    inner = inner if isinstance(inner, Filter) else None
    var, s, t = keyed_arg(c, scope, kw, typ, key="to", coll=args[0], lam=False,
                          var=inner.var if inner is not None else None)
    c.sized(n, c.size(args[0]))
    known.inherited(c, n, args[0])
    walks.spread_as(c, n, args[0])
    innered(c, n, deepest(c, [(kw["to"], t)]))   # (its elements: what to: gives, each)
    if t == STR:
        texts.holds(c, n, texts.chars(c, kw["to"]))
    if inner is not None:   # (the filter's leading terms that do not read the element: asked once)
        out = c.filter_source(var, inner.iter, inner.cond, s)
    else:
        out = f"[{s} for {var} in {src}]"
    table = lookup(s, var)
    if table is None or c.plain or not walkable(src) or inner is not None:
        return code(out, Mapped(src), loops=True), list_of(t)   # count(map(L, ...)) is count(L)
    return code(out, Mapped(src, (table.table, table.kind)), loops=True), list_of(t)   # x in map(ZONE, to: attr): a loop


def _seat(fname, template, result=PLAYER, lo=1, hi=1):
    def build(c, n, scope, args, kw):
        check_arity(n, args, kw, fname, lo, hi)
        c.access.fixed("num_players")
        parts = [c.node(a, scope) for a in args]
        for (_, t), a in zip(parts, args):
            c.expect_type(t, PLAYER, a)
        codes = [whole_number(c, s, fname) if nesting.held_as(c, a, t) == ANY else s for (s, t), a in zip(parts, args)]
        return template.format(*codes, k=codes[1] if len(codes) > 1 else "1", n=state_read("n")), result
    return build


def whole_number(c, s, what: str) -> str:
    """``s``, of type any (or made of one), checked a whole number where ``what`` uses it as a seat
    or a count, as the load holds a typed one (runtime._whole_num): ``left(w)`` of a fraction is no
    seat 0.5, and a string never reaches Python's ``%`` formatting."""
    c.names.namespace.setdefault("_whole_num", runtime.CHECKS["_whole_num"])
    return f"_whole_num({s}, {what!r})"


def _of_player(fname, template, result, reads=None):
    """team(p) / partner(p): a player argument; a whole number is checked to be a seat.
    ``reads``: what the template reads of the seats (expr/access.py ``fixed``)."""
    def build(c, n, scope, args, kw):
        check_arity(n, args, kw, fname, 1)
        if reads is not None:
            c.access.fixed(reads)
        s, t = c.node(args[0], scope)
        if t not in (PLAYER, INT, ANY, NONE):
            raise ExprError(f"{fname}() takes a player, got {t}", offset_of(args[0]), code="type")
        if t != PLAYER:
            c.access.fixed("num_players")   # (_seat checks it is a seat)
        return template(s if t == PLAYER else f"_seat(S, {s})"), result
    return build


def b_members(c, n, scope, args, kw):
    check_arity(n, args, kw, "members", 1)
    s, t = c.node(args[0], scope)
    if t not in (TEAM, INT, ANY, NONE):
        hint = "write members(team(p)) for a player's team" if t == PLAYER else None
        raise ExprError(f"members() takes a team, got {t}", offset_of(args[0]), hint, code="type")
    c.access.fixed("teams")
    if t != TEAM:
        c.access.fixed("num_teams")   # (_team checks it is a team)
    return f"_members(S, {s if t == TEAM else f'_team(S, {s})'})", list_of(PLAYER)


def b_keys(c, n, scope, args, kw):
    """keys(FAMILY): the keys of a counter family, in their order (a constant list); keys(MAP):
    a map parameter's, in the order the game's map is written."""
    check_arity(n, args, kw, "keys", 1)
    a = args[0]
    name = str(a.children[0]) if isinstance(a, Tree) and a.data == "name" else None
    if name in c.names.keyed:
        c.used.add(name)
        c.sized(n, len(c.names.keyed[name]))
        walked(c, n, c.size(n), WALK_WORK, "keys()")
        return repr(list(c.names.keyed[name])), list_of(STR)
    if name is None or name not in c.names.all_names() or name in c.names.defines:   # (a define: where used)
        src, typ = c.node(a, scope)
        if is_map(typ):   # a map parameter's keys, in the order its map for this game is written
            param = a.data == "attr" and getattr(a.children[0], "data", None) == "name" \
                and str(a.children[0].children[0]) == "params"
            orders = c.names.param_keys.get(str(a.children[1])) if param else None
            c.sized(n, max(map(len, orders or ()), default=c.size(a)))   # (an override keeps its keys)
            walked(c, n, c.size(n), WALK_WORK, "keys()")
            if orders is not None and len(orders) == 1:   # the same for every player count: a constant
                return repr(list(orders[0])), list_of(STR)
            return f"list({src})", list_of(STR)   # (a game's maps, nested ones too, keep the order written)
    raise ExprError("keys() takes a counter family (counters: {NAME: {keys: [...]}}) or a map parameter",
                    offset_of(a), code="type")


def b_abs(c, n, scope, args, kw):
    check_arity(n, args, kw, "abs", 1)
    s, t = c.node(args[0], scope)
    c.expect_type(t, NUM, args[0])
    return f"abs({s})", t


BUILTINS = {
    "count": b_count,
    "sum": b_sum,
    "min": _minmax("min"),
    "max": _minmax("max"),
    "highest": _extreme("highest", "_highest"),
    "lowest": _extreme("lowest", "_lowest"),
    "top": _extreme("top", "_top"),
    "bottom": _extreme("bottom", "_bottom"),
    "any": b_any_all("any"),
    "all": b_any_all("all"),
    "one": b_one,
    "first": b_first,
    "last": _unary_list("last", "_last"),
    "distinct": b_distinct,
    "map": b_map,
    "abs": b_abs,
    "left": _seat("left", "((({0}) + {k}) % {n})", lo=1, hi=2),
    "right": _seat("right", "((({0}) - {k}) % {n})", lo=1, hi=2),
    "team": _of_player("team", lambda p: item_read(state_read("tm"), p), TEAM, reads="team"),
    "partner": _of_player("partner", lambda p: f"_partner(S, {p})", PLAYER, reads="team"),
    "members": b_members,
    "keys": b_keys,
    "text": b_text,
    "subsets": b_subsets,
}


CORE = frozenset(BUILTINS)       # the language's own built-ins (the others a mechanic added: register_builtin)
DISTINCT_BUILTINS: set = {"keys"}   # built-ins whose results never hold two values with the same label
VOCABULARIES: dict = {"subsets": v_subsets}   # built-in -> fn(domains, args, kwargs): the labels of the lists it makes


MEMBERSHIP: dict = {}            # built-in -> fn(compiler, call node, scope) -> (test helper, source of its set)
ASKED = "asked"   # (the fact of a call node of MEMBERSHIP's that is ``x in`` its list: no list is built)
SEES_STATE: set = set()          # built-ins whose code hands the state to a helper that may touch any name
WALKS: set = set()               # built-ins whose code calls a helper a mechanic added (one that walks a list)


def call_args(n) -> tuple[list, dict]:
    """The positional argument nodes and the keyword argument nodes of a call node."""
    fname = str(n.children[0])
    argnode = n.children[1] if len(n.children) > 1 else None
    args, kwargs = [], {}
    for a in (argnode.children if argnode is not None else []):
        if isinstance(a, Tree) and a.data == "kwarg":
            key = str(a.children[0])
            if key in kwargs:
                raise ExprError(f"{fname}() has '{key}:' twice", offset_of(a), code="arity")
            kwargs[key] = a.children[1]
        else:
            args.append(a)
    return args, kwargs


def labels_distinct(tree) -> bool:
    """Whether an expression's list can never hold two values with the same label."""
    return tree.data == "range" or (tree.data == "call" and str(tree.children[0]) in DISTINCT_BUILTINS)


def register_builtin(name: str, build, helpers: dict | None = None, distinct: bool = False,
                     member=None, vocabulary=None, sees_state: bool | None = None) -> None:
    """Add a built-in function from a mechanic's module.

    ``build(compiler, node, scope, args, kwargs) -> (python source, type)`` checks and compiles
    a call; ``helpers`` are runtime functions the generated source may call (names start with _).
    ``distinct``: its list never holds two values with the same label (a choose over it skips
    removing duplicates). ``member(compiler, node, scope) -> (test, source)``: how to answer
    ``x in f(...)`` without building the list: ``test(value of source, x)`` must equal
    ``x in f(...)`` for every x (the call node ``x in`` reads has the fact ``ASKED``, in the
    reference compile too, so that ``build`` may weigh only the test).
    ``vocabulary(domains, args, kwargs) -> labels | None``: the
    labels of every list it can return (the fixed action space of a choice among them,
    adapters/actions.py). ``sees_state``: its code hands the state to a helper that may read or
    change any zone, counter or variable (expr/access.py: opaque); None: whenever one of its
    helpers takes the state (a first parameter named S)."""
    BUILTINS[name] = build
    if sees_state is None:
        sees_state = any(_takes_state(fn) for fn in (helpers or {}).values())
    (SEES_STATE.add if sees_state else SEES_STATE.discard)(name)
    if vocabulary is not None:
        VOCABULARIES[name] = vocabulary
    if distinct:
        DISTINCT_BUILTINS.add(name)
    if member is not None:
        MEMBERSHIP[name] = member
    if helpers:
        runtime.HELPERS.update(helpers)
    (WALKS.add if helpers else WALKS.discard)(name)


def _takes_state(fn) -> bool:
    code = getattr(fn, "__code__", None)
    return code is not None and code.co_argcount > 0 and code.co_varnames[0] == "S"
