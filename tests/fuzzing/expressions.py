"""Random well-typed expressions over the names of world.yaml.

``ExprGen(rnd).expression()`` gives the text of one expression of a random type. The forms
cover the language of docs/language.md (arithmetic, comparisons, logic, if/else, `where`,
`by:`/`to:`, every built-in, list literals, ranges, strings, indexing, none) and, with a
higher weight, the shapes the compiler writes in a faster form (interpreter/expr/fastpaths.py):
comparisons of an element's attribute with a plain value inside filters, first/count/any/all
of such filters over zones (two of them kept sorted), filters of filters and of defines,
`x in map(ZONE, to: attr)`, `distinct(map(ZONE, to: attr))`, calls inside filters that do
not read the element (computed once), `x in sums(...)`.

Inside a filter the generator knows the elements in scope (innermost last), so it names their
members bare (`rank`, `score`...) as a ruleset would, the outer ones too. With ``named=True``
it also names some filters' elements with `as` (`L as x1 where C`, `map(L as x1 where C, to:
x1.rank)`) and reads them by that name inside, in a `by:` or `to:` over the filter too; at times
it gives a name in scope again (the inner element hides the outer one in its filter).
"""
from __future__ import annotations

import random
import re

# the locals every generated expression is compiled with, and their types
LOCALS = {"c0": "card", "k": "int", "who": "player"}

SCALARS = ("int", "num", "bool", "str", "card", "player", "team")
LISTS = ("lcard", "lplayer", "lteam", "lint", "lstr", "lnum", "lbool")
ELEMENT = {"lcard": "card", "lplayer": "player", "lteam": "team", "lint": "int", "lstr": "str",
           "lnum": "num", "lbool": "bool"}
LIST_OF = {v: k for k, v in ELEMENT.items()}

LEAVES = {
    "int": ["0", "1", "2", "3", "7", "-1", "3037000499", "pot", "score", "bank", "params.rounds",
            "num_players", "num_teams", "bid", "round", "k", "count(hand)", "total", "wealth", "score[leader]"],
    "num": ["0.5", "2.5", "1.0", "ratio", "params.bonus"],
    "bool": ["true", "false", "open", "params.flag", "me == leader"],
    "str": ["'H'", "'D'", "'X'", "''", "'ell'", "trump", "params.label"],
    "card": ["chosen", "c0", "first(hand)", "last(table)", "best", "first(stock)"],
    "player": ["me", "leader", "turn_player", "who", "left(me)"],
    "team": ["side", "team(me)", "team(leader)"],
    "lcard": ["hand", "won", "table", "deck", "stock", "high", "reds", "pile", "hand[leader]", "table where false",
              "under[c0]", "c0.under", "[c0, chosen]"],
    "lplayer": ["players", "members(team(me))", "[me, leader]"],
    "lteam": ["teams", "[side]"],
    "lint": ["1..3", "[1, 2, 3]", "bids", "params.sizes", "[]", "map(hand, to: rank)", "0..k"],
    "lstr": ["params.order", "['H', 'S']", "map(table, to: suit)"],
    "lnum": ["[0.5, 1.5]", "[ratio, 2]"],
    "lbool": ["[true, false]", "map(players, to: score > 0)"],
}

# what an element of each type offers bare inside a filter: name -> type
MEMBERS = {
    "card": {"rank": "int", "suit": "str", "kind": "str", "marks": "int", "under": "lcard"},
    "player": {"score": "int", "bank": "int", "hand": "lcard", "won": "lcard", "pile": "lcard"},
    "team": {"bank": "int", "pile": "lcard"},
}
ZONES = ["hand", "stock", "table", "deck", "won", "hand[leader]", "hand[who]", "c0.under"]   # hand, stock sorted
PLAIN_VALUES = {"int": ["0", "2", "4", "-1", "bid", "k", "round", "leader"],
                "str": ["'H'", "'S'", "'X'", "trump", "params.label"]}
OWNED_ZONES = ("hand", "won", "pile", "under")
ORDER = ["<", "<=", ">", ">=", "==", "!="]


class Named(str):
    """An element in scope (its type, as the others) that a filter also named with ``as``."""
    name: str

    def __new__(cls, typ: str, name: str):
        out = super().__new__(cls, typ)
        out.name = name
        return out


class ExprGen:
    def __init__(self, rnd: random.Random, depth: int = 4, locals: bool = True, named: bool = False,
                 extra: bool = False):
        self.r, self.depth = rnd, depth
        self.forms = {t: FORMS[t] + EXTRA_FORMS.get(t, []) for t in FORMS} if extra else FORMS   # (extra: text(), subsets())
        self.locals = locals   # off: no use of LOCALS (a branch's conditions have none)
        self.named, self.names = named, 0   # named: some filters name their element (x1, x2...)

    def expression(self) -> str:
        if self.r.random() < 0.1:   # a condition as a whole expression: loops as statements
            return _statement(self, self.depth - 1, ())
        t = self.r.choice(SCALARS + LISTS)
        return self.gen(t, self.depth, ())

    def pick(self, xs):
        return self.r.choice(xs)

    # ------------------------------------------------------------------ the generator
    def gen(self, t: str, depth: int, env: tuple) -> str:
        r = self.r
        if depth <= 0 or r.random() < 0.2:
            return self.leaf(t, env)
        return f"({self.pick(self.forms[t])(self, depth - 1, env)})"   # (`where` binds loosest)

    def leaf(self, t: str, env: tuple) -> str:
        options = list(LEAVES[t])
        for i, e in enumerate(env):   # members of the elements in scope, named bare
            options += [name for name, mt in MEMBERS.get(e, {}).items() if mt == t] * 2
            if isinstance(e, Named) and not _hidden(e, env[i + 1:]):   # and read off its name
                options += [f"{e.name}.{name}" for name, mt in MEMBERS.get(e, {}).items() if mt == t] * 2
                options += [e.name] * 2 if e == t else []
        if env and env[-1] == t:
            options += ["it"] * 3
        text = self.pick(self.fitting(options, env))
        return f"({text})" if " " in text or ".." in text else text

    def condition(self) -> str:
        """A random condition (for a branch's alternatives)."""
        if self.r.random() < 0.3:
            return _statement(self, self.depth - 1, ())
        return self.gen("bool", self.depth, ())

    def fitting(self, texts, env) -> list:
        """The texts that mean something in ``env``: inside a filter of teams, a player's
        zone or counter named bare is an error (a team has none); without locals, none is used."""
        out = list(texts)
        if "team" in env:
            out = [x for x in out if not _PLAYERS_OWN.search(x)]
        if not self.locals:
            out = [x for x in out if not _LOCAL.search(x)]
        return out

    def sub(self, t, d, env):
        return self.gen(t, d, env)

    def within(self, lt: str, d: int, env: tuple) -> tuple[str, tuple]:
        """A list of type ``lt`` and the scope inside a filter of it."""
        return self.gen(lt, d, env), (*env, ELEMENT[lt])

    def element(self, lt: str, env: tuple = ()) -> str:
        """The element of a list of type ``lt`` in a filter: at times (``named``) named with ``as``,
        at times by the name of an element in scope ``env`` (it hides that one in its filter)."""
        if self.named and self.r.random() < 0.5:
            outer = [e.name for e in env if isinstance(e, Named)]
            if outer and self.r.random() < 0.5:
                return Named(ELEMENT[lt], self.pick(outer))
            self.names += 1
            return Named(ELEMENT[lt], f"x{self.names}")
        return ELEMENT[lt]

    def filter_of(self, coll: str, lt: str, d: int, env: tuple, element: str) -> str:
        """``coll where C``, or ``coll as x where C`` for an element named x."""
        name = f" as {element.name}" if isinstance(element, Named) else ""
        return f"{coll}{name} where {self.test(lt, d, env, element)}"

    def test(self, lt: str, d: int, env: tuple, element: str | None = None) -> str:
        """A condition about an element of ``lt``: often a conjunction of comparisons of its
        members with plain values (what the plain loops take), else any condition."""
        inner = (*env, element or ELEMENT[lt])
        members = [(n, mt) for n, mt in MEMBERS.get(ELEMENT[lt], {}).items() if mt in PLAIN_VALUES]
        if ELEMENT[lt] in PLAIN_VALUES:
            members.append(("it", ELEMENT[lt]))
        if members and self.r.random() < 0.6:
            terms = []
            for _ in range(self.r.randint(1, 3)):
                name, mt = self.pick(members)
                op = self.pick(ORDER if mt == "int" else ["==", "!="])
                value = self.pick(self.fitting(PLAIN_VALUES[mt], env) + [self.gen(mt, min(d, 1), inner)])
                terms.append(f"{name} {op} {value}")
            return " and ".join(terms)
        return self.gen("bool", d, inner)


_LOCAL = re.compile(r"\b(%s)\b" % "|".join(LOCALS))
_PLAYERS_OWN = re.compile(r"(?<![.\w])(score|hand|won|high|total|wealth)\b(?!\[)")


def _hidden(e: Named, inner: tuple) -> bool:
    """Whether an element of ``inner`` (the scopes within ``e``'s) gives ``e``'s name again."""
    return any(isinstance(f, Named) and f.name == e.name for f in inner)


def _bin(t, ops):
    return lambda g, d, e: f"{g.sub(t, d, e)} {g.pick(ops)} {g.sub(t, d, e)}"


def _call(fname, t):
    return lambda g, d, e: f"{fname}({g.sub(t, d, e)})"


def _filtered(lt):
    def form(g, d, e):
        coll = g.gen(lt, d, e)
        return g.filter_of(coll, lt, d, e, g.element(lt, e))
    return form


def _keyed(fname, lt, key_t, key="by"):
    def form(g, d, e):
        coll, inner = g.within(lt, d, e)
        element = g.element(lt, e)
        if isinstance(element, Named):   # a filter naming its element, read by: that name in the key too
            coll, inner = g.filter_of(f"({coll})", lt, d, e, element), (*e, element)
        return f"{fname}({coll}, {key}: {g.sub(key_t, d, inner)})"
    return form


def _any_list(fname):
    return lambda g, d, e: f"{fname}({g.sub(g.pick(LISTS), d, e)})"


def _if(t):
    return lambda g, d, e: f"({g.sub(t, d, e)} if {g.sub('bool', d, e)} else {g.sub(t, d, e)})"


def _index(lt):
    def form(g, d, e):
        coll = g.sub(lt, d, e)
        if coll in OWNED_ZONES:   # hand[i] would be the hand of player i
            coll = f"({coll} where true)"
        return f"{coll}[{g.sub('int', d, e)}]"
    return form


def _attr(owner_t, attr):
    return lambda g, d, e: f"{g.sub(owner_t, d, e)}.{attr}"


def _first_of_zone(g, d, e):
    shape = g.pick(g.fitting(["first({} where {}) != none", "count({} where {}) > 0", "count({} where {}) == 0",
                    "count({} where {}) != 0", "any({}, by: {})", "all({}, by: {})",
                    "first(({} where rank > 1) where {}) != none", "count(high where {1}) > 0"], e))
    return shape.format(g.pick(g.fitting(ZONES, e)), g.test("lcard", d, e))


def _by_attribute(g, d, e) -> str:
    """`ZONE where ATTR == X [and ...]`: a bisection over a sorted zone, X computed once."""
    attr, t = g.pick([("rank", "int"), ("suit", "str"), ("kind", "str")])
    value = g.pick(g.fitting(PLAIN_VALUES[t], e) + [g.sub(t, d, e)])
    rest = f" and {g.test('lcard', d, e)}" if g.r.random() < 0.4 else ""
    return f"{g.pick(g.fitting(ZONES, e))} where {attr} == {value}{rest}"


def _statement(g, d, e):
    lists = g.pick(["hand + table", "deck where rank > 2", "map(players, to: hand[it])[0]"])
    test = f"count(({lists}) where {g.test('lcard', d, e)}) {g.pick(['>', '==', '!='])} 0"
    return g.pick([f"{test} {g.pick(['and', 'or'])} {g.sub('bool', d, e)}", f"not ({test})",
                   f"{g.sub('bool', d, e)} {g.pick(['and', 'or'])} {test}", test])


def _member_of_map(g, d, e):
    attr, t = g.pick([("rank", "int"), ("suit", "str"), ("marks", "int")])
    return f"{g.sub(t, d, e)} {g.pick(['in', 'not in'])} map({g.pick(g.fitting(ZONES, e))}, to: {attr})"


def _count_zero(g, d, e):
    return f"count({_filtered(g.pick(LISTS))(g, d, e)}) {g.pick(['>', '==', '!='])} 0"


def _compare(g, d, e):
    t = g.pick(["int", "int", "num", "str"])
    return f"{g.sub(t, d, e)} {g.pick(ORDER)} {g.sub(t, d, e)}"


def _equal(g, d, e):
    t = g.pick(["card", "player", "team", "lint", "lcard", "bool"])
    other = "none" if g.r.random() < 0.3 else g.sub(t, d, e)
    return f"{g.sub(t, d, e)} {g.pick(['==', '!='])} {other}"


def _in(g, d, e):
    t = g.pick(["int", "str", "card", "player", "team"])
    return f"{g.sub(t, d, e)} {g.pick(['in', 'not in'])} {g.sub(LIST_OF[t], d, e)}"


def _in_joined(g, d, e):
    """`it in A + B`: looked for in each list, none joined (fastpaths.member_of_joined)."""
    zones = g.fitting(ZONES, e)
    shared = [z for z in zones if z in ("stock", "table", "deck")]   # (read as they are: the form applies)
    parts = " + ".join(g.pick(shared if shared and g.r.random() < 0.8 else zones) for _ in range(g.r.randint(2, 3)))
    return f"count({g.pick(zones)} where it {g.pick(['in', 'not in'])} ({parts})) > 0"


def _in_sums(g, d, e):
    source = g.pick(["sums({})".format(g.sub("lint", d, e)),
                     "sums({}, by: rank)".format(g.sub("lcard", d, e))])
    return f"{g.sub('int', d, e)} {g.pick(['in', 'not in'])} {source}"


def _hoisted(g, d, e):
    """A filter whose condition calls something that does not read the element."""
    lt = g.pick(["lcard", "lplayer", "lint"])
    coll, inner = g.within(lt, d, e)
    call = g.pick(g.fitting(["max(map(table, to: rank))", "count(hand where suit == trump)", "sum(bids)",
                             "count(distinct(map(deck, to: suit)))", "min(map(players, to: score))"], inner))
    return f"count({coll} where {g.sub('int', d, inner)} {g.pick(ORDER)} {call})"


def _minmax_args(g, d, e):
    return f"{g.pick(['min', 'max'])}({', '.join(g.sub('int', d, e) for _ in range(g.r.randint(2, 3)))})"


def _seat(fname):
    def form(g, d, e):
        extra = f", {g.sub('int', d, e)}" if g.r.random() < 0.4 else ""
        return f"{fname}({g.sub('player', d, e)}{extra})"
    return form


def _literal(t):
    return lambda g, d, e: "[" + ", ".join(g.sub(t, d, e) for _ in range(g.r.randint(1, 3))) + "]"


FORMS = {
    "int": [_bin("int", ["+", "-", "*", "//", "%"]), lambda g, d, e: f"-{g.sub('int', d, e)}",
            _any_list("count"), _call("sum", "lint"), _keyed("sum", "lcard", "int"), _keyed("sum", "lplayer", "int"),
            _call("max", "lint"), _call("min", "lint"), _keyed("max", "lcard", "int"), _keyed("min", "lteam", "int"),
            _minmax_args, _call("abs", "int"), _if("int"), _attr("player", "score"), _attr("card", "rank"),
            _attr("card", "marks"), _attr("team", "bank"), lambda g, d, e: f"score[{g.sub('player', d, e)}]",
            lambda g, d, e: f"bank[{g.sub('team', d, e)}]", lambda g, d, e: f"marks[{g.sub('card', d, e)}]",
            _call("first", "lint"), _call("last", "lint"), _call("one", "lint"), _call("highest", "lint"),
            _call("lowest", "lint"), _index("lint"), _keyed("highest", "lint", "int"), _hoisted, _hoisted,
            lambda g, d, e: f"count(combos({g.sub('lcard', d, e)}, by: rank, total: {g.sub('int', d, e)}))",
            lambda g, d, e: f"count({g.sub('lint', d, e)} where {g.test('lint', d, e)})",
            lambda g, d, e: f"count(map({g.sub('lcard', d, e)}, to: 10 // rank))"],
    "num": [lambda g, d, e: f"{g.sub('int', d, e)} / {g.sub('int', d, e)}", _bin("num", ["+", "-", "*"]),
            lambda g, d, e: f"{g.sub('num', d, e)} * {g.sub('int', d, e)}", _call("abs", "num"), _if("num"),
            _call("sum", "lnum"), _call("max", "lnum"), lambda g, d, e: f"-{g.sub('num', d, e)}",
            _keyed("sum", "lcard", "num"), _call("first", "lnum")],
    "bool": [_compare, _compare, _equal, _in, _in_joined, _in_sums, _member_of_map, _member_of_map,
             _bin("bool", ["and", "or"]), _bin("bool", ["and", "or"]), lambda g, d, e: f"not {g.sub('bool', d, e)}",
             _keyed("any", "lcard", "bool"), _keyed("all", "lplayer", "bool"), _keyed("any", "lint", "bool"),
             _call("any", "lbool"), _call("all", "lbool"), _any_list("any"), _count_zero, _count_zero,
             _first_of_zone, _first_of_zone, _first_of_zone, _if("bool"), _statement,
             lambda g, d, e: f"first({_by_attribute(g, d, e)}) {g.pick(['==', '!='])} {g.sub('card', d, e)}",
             lambda g, d, e: f"{g.sub('str', d, e)} in {g.sub('str', d, e)}"],
    "str": [_attr("card", "suit"), _attr("card", "kind"), _if("str"), _call("first", "lstr"),
            _index("lstr"), _bin("str", ["+"]), _call("last", "lstr"), _keyed("highest", "lstr", "int")],
    "card": [_call("first", "lcard"), _call("last", "lcard"), _call("one", "lcard"), _index("lcard"),
             _keyed("highest", "lcard", "int"), _keyed("lowest", "lcard", "int"), _if("card"),
             _keyed("lowest", "lcard", "str"), lambda g, d, e: f"first({_by_attribute(g, d, e)})",
             lambda g, d, e: f"first({_by_attribute(g, d, e)})",
             lambda g, d, e: f"first({g.pick(g.fitting(ZONES, e))} where {g.test('lcard', d, e)})",
             lambda g, d, e: f"first({g.sub('lcard', d, e)} where {g.test('lcard', d, e)})"],
    "player": [_seat("left"), _seat("right"), _call("partner", "player"), _keyed("highest", "lplayer", "int"),
               _keyed("lowest", "lplayer", "int"), _call("first", "lplayer"), _index("lplayer"), _if("player"),
               lambda g, d, e: f"first(players where {g.test('lplayer', d, e)})"],
    "team": [_call("team", "player"), _call("first", "lteam"), _keyed("highest", "lteam", "int"), _if("team")],
    "lcard": [_filtered("lcard"), _filtered("lcard"), _filtered("lcard"), _bin("lcard", ["+"]), _by_attribute,
              _by_attribute,
              _keyed("top", "lcard", "int"), _keyed("bottom", "lcard", "int"), _call("distinct", "lcard"),
              _attr("player", "hand"), lambda g, d, e: f"hand[{g.sub('player', d, e)}]", _attr("team", "pile"),
              _attr("card", "under"), _if("lcard"), _literal("card"),
              lambda g, d, e: f"{g.pick(g.fitting(ZONES, e))} where {g.test('lcard', d, e)}",
              lambda g, d, e: f"first(groups({g.sub('lcard', d, e)}, by: suit))",
              lambda g, d, e: f"({g.sub('lcard', d, e)} where {g.test('lcard', d, e)}) where {g.test('lcard', d, e)}"],
    "lplayer": [_filtered("lplayer"), _filtered("lplayer"), _keyed("top", "lplayer", "int"),
                _keyed("bottom", "lplayer", "int"), _call("members", "team"), _keyed("map", "lplayer", "player", "to"),
                _call("distinct", "lplayer"), _bin("lplayer", ["+"]), _literal("player")],
    "lteam": [_filtered("lteam"), _keyed("map", "lplayer", "team", "to"), _keyed("top", "lteam", "int"),
              _literal("team")],
    "lint": [lambda g, d, e: f"{g.sub('int', d, e)}..{g.sub('int', d, e)}", _keyed("map", "lcard", "int", "to"),
             _keyed("map", "lplayer", "int", "to"), _literal("int"), _call("distinct", "lint"), _filtered("lint"),
             _bin("lint", ["+"]), _call("sums", "lint"), _keyed("sums", "lcard", "int"), _if("lint"),
             lambda g, d, e: f"map({g.sub('lcard', d, e)} where {g.test('lcard', d, e)}, to: rank)"],
    "lstr": [_keyed("map", "lcard", "str", "to"), _literal("str"), _filtered("lstr"), _call("distinct", "lstr"),
             lambda g, d, e: f"distinct(map({g.pick(g.fitting(ZONES, e))}, to: {g.pick(['suit', 'kind'])}))"],
    "lnum": [_keyed("map", "lcard", "num", "to"), _literal("num"), _filtered("lnum")],
    "lbool": [_keyed("map", "lplayer", "bool", "to"), _keyed("map", "lcard", "bool", "to"), _literal("bool")],
}


# text() and subsets(), drawn with ExprGen(extra=True) only: a table of their own, so that the seeded
# campaigns of the other forms draw as they did (each of them sees every faster form)
SMALL_LISTS = {"lint": ["1..4", "[1, 1, 2]", "bids", "params.sizes", "[]", "0..k", "map(table, to: rank)"],
               "lcard": ["table", "hand[who]", "[c0, chosen]", "table + [c0]", "won"],
               "lstr": ["['H', 'S']", "params.order", "map(table, to: suit)"],
               "lplayer": ["players", "[me, leader]"]}   # (a few elements: 2^n sub-lists at most)


def _small(g, lt, d, e):
    """A list of type ``lt`` that holds a few elements (a leaf of SMALL_LISTS, at times filtered)."""
    coll = g.pick(g.fitting(SMALL_LISTS[lt], e))
    return f"({coll} where {g.test(lt, d, e)})" if g.r.random() < 0.3 else f"({coll})"


def _subsets(lt):
    """subsets(L) or subsets(L, size: K) of a small list: a list of lists of ``lt``."""
    def form(g, d, e):
        size = f", size: {g.pick(['0', '1', '2', '-1', 'k', 'bid', 'round'] + [g.sub('int', min(d, 1), e)])}" \
            if g.r.random() < 0.5 else ""
        return f"subsets({_small(g, lt, d, e)}{size})"
    return form


def _of_sublists(lt, shape):
    """``shape`` (with {S} for a subsets() of a small list of ``lt``, {T} for a test of an element
    of it, {E} for a value of ``lt``'s element) read back as a scalar or a list the others take."""
    def form(g, d, e):
        sub = _subsets(lt)(g, d, e)
        inner = (*e, lt)   # (a sub-list in scope: `it` is a list)
        return shape.format(S=sub, T=f"count(it) {g.pick(ORDER)} {g.sub('int', min(d, 1), inner)}",
                            E=g.sub(ELEMENT[lt], min(d, 1), e))
    return form


def _text(t):
    return lambda g, d, e: f"text({g.sub(t, d, e)})"


EXTRA_FORMS = {
    "str": [_text("int"), _text("num"), _text("bool"), _text("str"), _text("card"), _text("player"), _text("team"),
            lambda g, d, e: f"text({g.sub('int', d, e)}) + ' ' + text({g.sub('card', d, e)})"],
    "int": [_of_sublists("lint", "count({S})"), _of_sublists("lcard", "count({S} where {T})"),
            _of_sublists("lint", "sum(map({S}, to: count(it)))"), _of_sublists("lstr", "count(distinct({S}))"),
            _of_sublists("lint", "sum(first({S}))"), _of_sublists("lplayer", "count(last({S}))")],
    "bool": [_of_sublists("lint", "[] in {S}"), _of_sublists("lcard", "any({S}, by: count(it) > 1)"),
             _of_sublists("lint", "[{E}] in {S}"), _of_sublists("lstr", "{S} == [[]]")],
    "lint": [_of_sublists("lint", "first({S})"), _of_sublists("lint", "highest({S} where {T}, by: sum(it))")],
    "lcard": [_of_sublists("lcard", "last({S})"), _of_sublists("lcard", "{S}[{E}.rank % 2]")],
    "lstr": [_of_sublists("lstr", "first(distinct({S}) where {T})"),
             lambda g, d, e: f"map({g.sub('lint', d, e)}, to: text(it))"],
}
