"""Expressions in words, for ``rulebook explain``: ``count(hand where suit == led.suit)`` reads
"the number of cards in your hand with the same suit as the led card".

The parse tree (grammars/expression.lark) is walked with one function per node kind (``_NODES``)
and one per built-in function (tools/call_phrases.py). The words come from the ruleset's own names (zones,
counters, variables, attributes, defines: underscores become spaces; parameters stay code, with
their value) and from the language and the mechanics' locals (``led``...), never from a game.
A node with no words reads as its source text in backticks, so nothing is ever dropped.

A list reads as a ``Noun`` ("cards" + " in your hand whose rank is 3"), so that functions of
lists can say "the number of cards...", "each card...", "the first card...". Inside a
``where`` / ``by:`` / ``to:`` the element's own names read "its rank", "their hand".
"""
from __future__ import annotations

from lark import Tree

from ..expr.named import element_names
from ..expr.parser import ExprError, parse
from ..play.display.words import is_plural, words_of
from .call_phrases import CALLS
from .nouns import Noun, Unphrasable, code, words

# the names the language and the mechanics bind (docs/reference.md), as words
LOCALS = {"card": "the card", "led": "the led card", "tricks_played": "the number of tricks played",
          "space": "the space", "me": "you", "num_players": "the number of players",
          "num_teams": "the number of teams"}
LIST_LOCALS = {"trick": ("card", " of the trick"), "picked": ("card", " picked so far"),
               "neighbours": ("card", " next to the space"), "players": ("player", ""), "teams": ("team", "")}
OPS = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than", ">=": "is at least"}
COUNT_OPS = dict(zip(OPS, ("exactly", "not exactly", "fewer than", "at most", "more than", "at least")))
ARITH = {"add": ("plus", 1), "sub": ("minus", 1), "mul": ("times", 2), "div": ("divided by", 2),
         "floordiv": ("divided by (rounded down)", 2), "mod": ("modulo", 2)}
CONDITIONS = ("compare", "in_", "not_in", "and_", "or_", "not_")   # nodes that read as a clause
OWNER_WORD = {"player": "your", "team": "your team's", "card": "its"}


class Phraser:
    """The words of one ruleset's expressions. ``phrase(text)`` gives a phrase and never
    raises; ``locals`` are names bound where the expression is (a for_each's ``as:``, an
    effect's parameters), shown in italics; ``scope`` is the kind of element the expression
    is about (``"card"`` for a trick's ``rank:``), whose own names read "its ..."."""

    def __init__(self, rules) -> None:
        names = getattr(rules, "names", None)

        def declared(key: str) -> dict:   # (as Names holds them: keys looked up with any value)
            return dict(getattr(names, key, None) or {})

        self.zones = declared("zones")          # name -> owner
        self.counters = declared("counters")    # name -> owner
        self.vars = declared("vars")            # name -> type
        self.attrs = declared("attrs")          # card attribute -> type
        self.defines = declared("defines")      # name -> expression text
        self.params = dict((getattr(rules, "data", {}) or {}).get("params") or {})
        self.flags = words_of(rules).flags if getattr(rules, "data", None) is not None else set()
        self.scopes: list[str] = []       # element kinds of the enclosing filters, innermost last
        self.aliases: dict[str, int] = {}  # an `L as x where C` filter's x: the depth of its scope
        self.locals: set[str] = set()
        self._src = ""
        self._open: set[str] = set()      # defines being phrased (a define of a define...)

    # ------------------------------------------------------------------ entry points
    def phrase(self, value, locals=(), scope: str | None = None) -> str:
        """A value of the ruleset in words; an expression that cannot be phrased is code."""
        if isinstance(value, bool) or value is None:
            return {True: "true", False: "false", None: "none"}[value]
        if isinstance(value, (int, float)):
            return str(value)
        if isinstance(value, list):
            return "[" + ", ".join(self.phrase(v, locals) for v in value) + "]"
        return str(self._top(value, locals, scope, self.node)) if isinstance(value, str) else code(value)

    def noun(self, value, locals=()) -> Noun | None:
        """A list expression as a Noun, or None when it is not one."""
        out = self._top(value, locals, None, self.node) if isinstance(value, str) else None
        return out if isinstance(out, Noun) else None

    def zone(self, value, locals=()) -> str:
        """A zone reference in words, "your hand" (not "the cards in your hand")."""
        noun = self.noun(value, locals)
        if noun is not None and not noun.head and noun.tail.startswith(" in "):
            return noun.tail[4:]
        return self.phrase(value, locals)

    def cond(self, value, locals=(), scope: str | None = None) -> str:
        """A condition on an element as a relative clause ("whose rank is 3")."""
        if not isinstance(value, str):
            return f"for which {self.phrase(value)}"
        return str(self._top(value, locals, scope, self.relative))

    def _top(self, text, locals, scope, fn):
        saved = (self._src, set(self.locals), list(self.scopes))
        self.locals |= set(locals)
        self.scopes += [scope] if scope else []
        try:
            tree = parse(text)
            self._src = text
            return fn(tree)
        except (ExprError, RecursionError):
            return code(text)
        finally:
            self._src, self.locals, self.scopes = saved

    # ------------------------------------------------------------------ nodes
    def node(self, t):
        """A node in words: a str, or a Noun for a list."""
        try:
            fn = _NODES.get(t.data) if isinstance(t, Tree) else None
            if fn is None:
                raise Unphrasable
            return fn(self, t)
        except Unphrasable:
            return code(self._text(t))

    def s(self, t) -> str:
        return str(self.node(t))

    def _text(self, t) -> str:
        meta = getattr(t, "meta", None)
        return self._src[meta.start_pos:meta.end_pos] if meta is not None and not meta.empty else self._src

    def as_noun(self, t) -> Noun:
        out = self.node(t)
        return out if isinstance(out, Noun) else Noun("entry", "value", head=str(out))

    def is_player(self, t) -> bool:
        n = str(t.children[0]) if isinstance(t, Tree) and t.data in ("name", "call") else None
        return n in ("left", "right") if n and t.data == "call" else n == "me" or self.vars.get(n) == "player"

    # ------------------------------------------------------------------ names
    def name(self, n: str):
        if n in self.aliases:   # the element itself in its filter's condition; named in a filter within
            return self.name("it") if self.aliases[n] == len(self.scopes) else f"*{n}*"
        for kind in reversed(self.scopes):
            owner = self.counters.get(n, self.zones.get(n))
            if kind == "card" and (n in self.attrs or owner == "card"):
                return self.owned(n, "its")
            if kind in ("player", "team") and owner in ("player", "team"):
                return self.owned(n, "their team's" if owner == "team" and kind == "player" else "their")
        if n == "it" and self.scopes:
            return {"card": "the card", "player": "the player", "team": "the team"}.get(self.scopes[-1], "it")
        if n in self.locals:
            return f"*{n}*"
        if n in LIST_LOCALS:
            return Noun(LIST_LOCALS[n][0], LIST_LOCALS[n][0], LIST_LOCALS[n][1])
        if n in LOCALS:
            return LOCALS[n]
        if n in self.zones or n in self.counters:
            owner = self.counters[n] if n in self.counters else self.zones[n]
            return self.owned(n, OWNER_WORD.get(owner, "the"))
        if n in self.vars:
            typ = str(self.vars[n])
            if typ.startswith("list"):
                return Noun("card" if "card" in typ else "entry", "card" if "card" in typ else "value",
                            head=f"the {words(n)}")
            if typ == "player" and words(n).startswith("to "):
                return f"the player {words(n)}"   # a seat titled by what it does: "the player to act"
            return words(n) if typ == "bool" else f"the {words(n)}"
        if n in self.defines and n not in self._open:
            inner = self._define(n)
            if isinstance(inner, Noun):
                return Noun(inner.singular, inner.kind, head=f"*{words(n)}*")
            return f"*{words(n)}*"
        return words(n)

    def _define(self, n):
        self._open.add(n)
        saved = self._src
        try:
            self._src = self.defines[n]
            return self.node(parse(self.defines[n]))
        except ExprError:
            return None
        finally:
            self._open.discard(n)
            self._src = saved

    def owned(self, n, pron):
        if n in self.zones:
            return Noun("card", "card", f" in {pron} {words(n)}")
        return f"{pron} {words(n)}"

    def param(self, n: str) -> str:
        spec = self.params.get(n)
        value = spec.get("value", spec.get("default")) if isinstance(spec, dict) else spec
        if isinstance(value, list) and len(value) <= 6 and all(isinstance(v, (int, str)) for v in value):
            return f"`{n}` ({', '.join(map(str, value))})"
        if isinstance(value, bool) or not isinstance(value, (int, float, str)) or isinstance(spec, dict) and "by_players" in spec:
            return f"`{n}`"
        return f"`{n}` ({value})"

    # ------------------------------------------------------------------ relative clauses
    def relative(self, t) -> str:
        """A condition on the innermost element as a relative clause."""
        if isinstance(t, Tree) and t.data in ("and_", "or_"):
            if _grouped(_operands(t)[0], t.data):   # "for which (A or B) and C": no group straight after a noun
                return f"for which {_logic(self, t, self.s)}"
            return _logic(self, t, self.relative)
        if isinstance(t, Tree) and t.data in ("compare", "in_", "not_in"):
            left, right = t.children[0], t.children[-1]
            subject = self.element_part(left)
            op = str(t.children[1]) if t.data == "compare" else t.data
            verb = OPS.get(op) or ("is in" if op == "in_" else "is not in")
            if subject == "it":
                return f"other than {self.s(right)}" if op == "!=" else f"that {verb} {self.s(right)}"
            if subject is not None:
                if op == "==" and isinstance(right, Tree) and right.data == "attr" and str(right.children[1]) == subject:
                    return f"with the same {words(subject)} as {self.s(right.children[0])}"
                if subject in self.counters and op in COUNT_OPS and op != "!=" and is_plural(words(subject)) \
                        and isinstance(right, Tree) and right.data == "int_":
                    return self._counted(subject, op, right)   # "with no tricks won", not "whose tricks won is 0"
                if subject in self.counters and is_plural(words(subject)) and verb.startswith("is "):
                    verb = "are" + verb[2:]
                yes = self.flag(left, op, right)
                if yes is not None:
                    return f"whose {words(subject)} is {yes}"   # "whose protection is no", not "is 0"
                return f"whose {words(subject)} {verb} {self.s(right)}"
        negated = isinstance(t, Tree) and t.data == "not_"
        inner = t.children[0] if negated else t
        if isinstance(inner, Tree) and inner.data == "name" and self.element_part(inner) not in (None, "it"):
            return f"that are {'not ' if negated else ''}{words(str(inner.children[0]))}"
        return f"for which {self.s(t)}"

    def flag(self, left, op: str, right) -> str | None:
        """"yes" or "no" when ``left op right`` asks whether a flag (a bool variable, a counter
        only ever set to 0 or 1: play/display/words.py) is set: ``safe == 1``, ``out > 0``."""
        base = left.children[0] if isinstance(left, Tree) and left.data == "index" else left
        if not (isinstance(base, Tree) and base.data == "name" and str(base.children[0]) in self.flags
                and isinstance(right, Tree) and right.data == "int_" and str(right.children[0]) in ("0", "1")):
            return None
        one = str(right.children[0]) == "1"
        holds = {"==": one, "!=": not one, ">": not one, ">=": one, "<": one, "<=": not one}.get(op)
        return None if holds is None else "yes" if holds else "no"

    def _counted(self, counter: str, op: str, right) -> str:
        """A comparison of a counter named in the plural as "with N <counter>"."""
        amount = self.s(right)
        if op == "==":
            return f"with {'no' if amount == '0' else amount} {words(counter)}"
        return f"with {COUNT_OPS[op]} {amount} {words(counter)}"

    def element_part(self, t) -> str | None:
        """``rank`` or ``it.rank`` of the innermost element: "rank"; ``it``: "it"; else None."""
        if not self.scopes or not isinstance(t, Tree):
            return None
        kind, here = self.scopes[-1], ("it",) + tuple(a for a, d in self.aliases.items() if d == len(self.scopes))
        if t.data == "attr" and isinstance(t.children[0], Tree) and t.children[0].data == "name" \
                and str(t.children[0].children[0]) in here:
            return str(t.children[1])
        n = str(t.children[0]) if t.data == "name" else None
        if n in here:
            return "it"
        if (kind == "card" and (n in self.attrs or self.counters.get(n) == "card")):
            return n
        return n if kind in ("player", "team") and self.counters.get(n) in ("player", "team") else None

    def filtered(self, t, fn):
        """``(noun of list t, fn())``, fn run in the scope of the list's elements (under the names
        the list's filters give them with ``as`` too: expr/named.py)."""
        noun = self.as_noun(t)
        self.scopes.append(noun.kind)
        aliases = dict(self.aliases)
        self.aliases.update(dict.fromkeys(element_names(t), len(self.scopes)))
        try:
            return noun, fn()
        finally:
            self.scopes.pop()
            self.aliases = aliases


# ---------------------------------------------------------------------- one function per node kind
def _attr(p, t):
    base, attr = t.children[0], str(t.children[1])
    if isinstance(base, Tree) and base.data == "name" and str(base.children[0]) == "params":
        return p.param(attr)
    if p.element_part(t) not in (None, "it"):
        return p.name(attr)
    return _of(p, attr, p.s(base))


def _of(p, name, owner: str):
    """``owner``'s zone, counter or attribute ``name``."""
    if owner == "you":
        return p.owned(name, "your")
    if name in p.zones:
        return Noun("card", "card", f" in the {words(name)} of {owner}")
    return f"the {words(name)} of {owner}"


def _index(p, t):
    base, i = t.children
    n = str(base.children[0]) if isinstance(base, Tree) and base.data == "name" else None
    if n in p.zones or n in p.counters or (n in p.vars and p.is_player(i)):
        return _of(p, n, p.s(i))
    if not isinstance(i, Tree) or i.data not in ("name", "int_", "attr", "neg"):
        raise Unphrasable
    return f"the entry of {p.s(i)} in {p.s(base)}".replace("the entry of you ", "your entry ") \
        if p.is_player(i) else f"the entry of {p.s(base)} at {p.s(i)}"


def _where(p, t):
    noun, rel = p.filtered(t.children[0], lambda: p.relative(t.children[1]))
    return noun.more(" " + rel)


def _where_as(p, t):
    """``L as x where C``: C of each element, called x in the filters within C."""
    name, aliases = str(t.children[1]), dict(p.aliases)
    p.aliases[name] = len(p.scopes) + 1   # (an outer element of the same name hidden here)
    try:
        noun, rel = p.filtered(t.children[0], lambda: p.relative(t.children[2]))
    finally:
        p.aliases = aliases
    named = name in element_names(t.children[0])   # (L as x where C as x where D: named once)
    return noun.more(f" {rel}" if named else f" (each *{name}*) {rel}")


def _logic(p, t, part) -> str:
    """``and`` / ``or`` / ``not`` in words, each operand phrased by ``part`` (``p.s``, or
    ``p.relative`` in a filter's clause) and put in parentheses when its words would run into
    the others' (``_grouped``)."""
    if t.data == "not_":
        c = t.children[0]
        return f"not ({part(c)})" if _grouped(c, None) else f"not {part(c)}"
    return f" {t.data[:-1]} ".join(f"({part(c)})" if _grouped(c, t.data) else part(c) for c in _operands(t))


def _operands(t) -> list:
    """The operands of an ``and`` (an ``or``), those of an operand of the same kind with them:
    ``a or b or c`` parses as ``(a or b) or c``, and reads as one list."""
    return [x for c in t.children for x in (_operands(c) if isinstance(c, Tree) and c.data == t.data else [c])]


def _grouped(c, kind) -> bool:
    """Whether the operand ``c`` of an ``and`` / ``or`` (``kind``; None: of a ``not``) keeps
    parentheses: a group of the other kind (any, under ``not``), a conditional, or an operand
    holding a group of its own (a filter's clause: "(there is a card whose A or whose B) and C")."""
    if not isinstance(c, Tree) or c.data == "not_":
        return False
    if c.data in ("and_", "or_"):
        return c.data != kind
    return c.data == "cond" or any(x.data in ("and_", "or_") for x in c.iter_subtrees())


def _compare(p, t):
    left, op, right = t.children[0], str(t.children[1]), t.children[2]
    if isinstance(left, Tree) and left.data == "call" and str(left.children[0]) == "count" \
            and len(left.children) > 1 and len(left.children[1].children) == 1 \
            and isinstance(right, Tree) and right.data == "int_":
        noun, n = p.as_noun(left.children[1].children[0]), str(right.children[0])
        if n == "0" and op in ("==", "<=", "!=", ">"):
            return f"there are no {noun.many()}" if op in ("==", "<=") else f"there is {noun.many('at least one')}"
        return f"there {'is' if n == '1' else 'are'} {COUNT_OPS[op]} {noun.many(n)}"
    if isinstance(right, Tree) and right.data == "none" and op in ("==", "!="):
        return _be(_operand(p, left), f"is {'' if op == '==' else 'not '}none")
    yes = p.flag(left, op, right)
    if yes is not None:
        return _be(_operand(p, left), f"is {yes}")   # "your protection is yes", not "is 1"
    return _be(_operand(p, left), f"{OPS[op]} {_operand(p, right)}")


def _in(p, t):
    a, right = t.children[0], p.node(t.children[1])
    verb = "is not" if t.data == "not_in" else "is"
    if isinstance(right, Noun):
        zone = right.tail[4:] if right.tail.startswith(" in ") and not right.head and right.kind == "card" else None
        return _be(_operand(p, a), f"{verb} in {zone or right.the()}" if zone or right.head else
                   f"{verb} one of {right.the()}")
    return _be(_operand(p, a), f"{verb} in {right}")


def _be(subject: str, predicate: str) -> str:
    """``subject predicate``, the verb agreeing with "you": "you are not one of...", not "you is"."""
    return f"{subject} {'are' + predicate[2:] if subject == 'you' and predicate.startswith('is ') else predicate}"


def _arith(p, t):
    word, prec = ARITH[t.data]
    first = p.node(t.children[0])
    if t.data == "add" and isinstance(first, Noun):
        second = p.node(t.children[1])
        return first.more(f" and {second.the() if isinstance(second, Noun) else second}")
    parts = []
    for k, c in enumerate(t.children):
        inner = ARITH.get(c.data, (None, 0 if c.data == "cond" else 9))[1] if isinstance(c, Tree) else 9
        wrap = inner < prec or (k == 1 and inner == prec and t.data != "add" and t.data != "mul")
        parts.append(f"({p.s(c)})" if wrap else p.s(c))
    return f" {word} ".join(parts)


def _cond(p, t):
    """"A if C, else B": a conditional or a sum as A, or a conditional as C, keeps its parentheses
    ("(4 if alone, else 2) if ...", "(1000 plus the rank) if ..."), else it would read as another
    rule; as B it chains ("..., else 2 if n is 5, else 1")."""
    a, c, b = t.children
    # a sum as A keeps its parentheses too: "1000 plus X if C" would read as 1000 plus (X if C)
    value = f"({p.s(a)})" if getattr(a, "data", None) in ARITH else _operand(p, a, compared=False)
    return f"{value} if {_operand(p, c, compared=False)}, else {p.s(b)}"


def _operand(p, x, compared=True) -> str:
    """An operand in words, a conditional in parentheses (its commas would swallow the rest), and
    one of a comparison that is a condition ("(the passes is less than 4) is (it is ...)": its
    verb would run into the comparison's)."""
    data = getattr(x, "data", None)
    return f"({p.s(x)})" if data == "cond" or compared and data in CONDITIONS else p.s(x)


def _list(p, t):
    items = [p.node(c) for c in t.children]
    if len(items) == 1 and isinstance(items[0], str):
        return Noun("entry", "value", head=items[0])
    return Noun("entry", "value", head="[" + ", ".join(map(str, items)) + "]" if items else "an empty list")


def _call(p, t):
    args, kw = [], {}
    for a in (t.children[1].children if len(t.children) > 1 else []):
        if isinstance(a, Tree) and a.data == "kwarg":
            kw[str(a.children[0])] = a.children[1]
        else:
            args.append(a)
    fn = CALLS.get(str(t.children[0]))
    if fn is None:
        raise Unphrasable
    return fn(p, args, kw)


_NODES = {"name": lambda p, t: p.name(str(t.children[0])), "int_": lambda p, t: str(t.children[0]),
          "float_": lambda p, t: str(t.children[0]), "string": lambda p, t: '"' + str(t.children[0])[1:-1] + '"',
          "true": lambda p, t: "true", "false": lambda p, t: "false", "none": lambda p, t: "none",
          "attr": _attr, "index": _index, "where": _where, "where_as": _where_as,
          "cond": _cond,
          "or_": lambda p, t: _logic(p, t, p.s), "and_": lambda p, t: _logic(p, t, p.s),
          "not_": lambda p, t: _logic(p, t, p.s), "compare": _compare,
          "in_": _in, "not_in": _in, "neg": lambda p, t: f"minus {p.s(t.children[0])}", "list_": _list,
          "range": lambda p, t: Noun("number", "value", f" from {p.s(t.children[0])} to {p.s(t.children[1])}"),
          **{k: _arith for k in ARITH}, "call": _call}
