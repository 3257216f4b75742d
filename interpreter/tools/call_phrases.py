"""How each built-in function of the expression language reads in words (``CALLS``: name ->
``call(phraser, args, kwargs)``), for tools/phrases.py: ``count(L)`` is "the number of ...",
``top(players, by: score)`` "the players with the highest score"."""
from __future__ import annotations

from lark import Tree

from .nouns import Noun, Unphrasable, words


def _bare(t):
    return str(t.children[0]) if isinstance(t, Tree) and t.data == "name" else None


def _keyed(p, items, body):
    """``(noun of the list items, the body's name, the body in words)``, the body (a ``by:`` or
    ``to:``) read in the elements' scope; its name: a bare name's, or the attribute an element
    reads of itself (``it.rank``, ``c.rank`` where ``c`` names it: "rank", never "its rank"),
    else None."""
    def read():
        own = p.element_part(body) if isinstance(body, Tree) and body.data == "attr" else None
        return own or _bare(body), p.s(body)
    noun, (bare, said) = p.filtered(items, read)
    return noun, bare, said


def _of_list(fn, keys=("by",)):
    """A function of one list and an optional element expression (``by:``): ``fn(p, noun, by)``,
    ``by`` in words ("rank" for a bare name, else its phrase in the elements' scope)."""
    def call(p, args, kw):
        if len(args) != 1 or set(kw) - set(keys):
            raise Unphrasable
        body = kw.get(keys[0])
        if body is None:
            return fn(p, p.as_noun(args[0]), None)
        noun, bare, by = _keyed(p, args[0], body)
        return fn(p, noun, words(bare) if bare is not None else by)
    return call


def _by(word, by: str) -> str:
    """``with the highest X`` for a ``by:`` phrase ("the number of cards..." -> "most cards...")."""
    if by.startswith("the number of "):
        return f"with the {'most' if word == 'highest' else 'fewest'} {by[len('the number of '):]}"
    return f"with the {word} {by[4:] if by.startswith('the ') else by}"


def _sum(p, noun, by):
    return f"the total {by + ' ' if by else ''}of {noun.the()}" if " " not in (by or "") else \
        f"the total, over {noun.the()}, of {by}"


def _extreme(word):
    def fn(p, noun, by):
        return f"the {word} {by + ' ' if by else ''}among {noun.the()}"
    ext = _of_list(fn)

    def call(p, args, kw):
        if len(args) >= 2 and not kw:
            return f"the {word[:-3]}er of " + ", ".join(p.s(a) for a in args[:-1]) + f" and {p.s(args[-1])}"
        return ext(p, args, kw)
    return call


def _best(word, many=False):
    def fn(p, noun, by):
        tail = " " + _by(word, by) if by else ""
        return noun.more(tail) if many else f"the {noun.singular}{noun.more(tail).in_phrase()}"
    return _of_list(fn)


def _any_all(quantifier):
    def call(p, args, kw):
        if len(args) != 1 or set(kw) - {"by"}:
            raise Unphrasable
        if "by" not in kw:
            noun = p.as_noun(args[0])
            return f"there is {noun.many('at least one')}" if quantifier == "some" else f"all of {noun.the()} hold"
        if quantifier == "some":
            noun, rel = p.filtered(args[0], lambda: p.relative(kw["by"]))
            return f"there is {noun.many('a')} {rel}"
        noun, cond = p.filtered(args[0], lambda: p.s(kw["by"]))
        return f"for {noun.each()}, {cond}"
    return call


def _map(p, args, kw):
    if len(args) != 1 or set(kw) != {"to"}:
        raise Unphrasable
    away = _seats_away(p, args[0], kw["to"])
    if away is not None:
        return away
    noun, bare, to = _keyed(p, args[0], kw["to"])
    if bare is not None and noun.kind == "card" and bare in p.attrs:
        return Noun(words(bare), "value", f" of {noun.each()}")
    return Noun("value", "value", head=f"{to} for {noun.each()}")


def _seats_away(p, numbers, to) -> Noun | None:
    """``map(A..B, to: left(X, it))``: the players so many seats to the left of X, "the
    players 1 to 4 seats to the left of the dealer" (in seat order: the first of them is the
    nearest); None for another map."""
    if not (isinstance(numbers, Tree) and numbers.data == "range" and isinstance(to, Tree) and to.data == "call"
            and str(to.children[0]) in ("left", "right") and len(to.children) > 1):
        return None
    seat_args = to.children[1].children
    if len(seat_args) != 2 or any(isinstance(a, Tree) and a.data == "kwarg" for a in seat_args) \
            or not (isinstance(seat_args[1], Tree) and seat_args[1].data == "name" and str(seat_args[1].children[0]) == "it"):
        return None
    lo, hi = (p.s(n) for n in numbers.children)
    who = p.s(seat_args[0])
    return Noun("player", "player", f" {lo} to {hi} seats to the {to.children[0]} of {who}")


def _seat(side):
    def call(p, args, kw):
        if not args or len(args) > 2 or kw:
            raise Unphrasable
        who = p.s(args[0])
        if len(args) == 2:   # (so many seats as an element of a list: "that many")
            many = p.s(args[1])
            return f"the player {'that many' if many == 'it' else many} seats to the {side} of {who}"
        return f"the player on your {side}" if who == "you" else f"the player on the {side} of {who}"
    return call


def _of_player(word):
    simple = _simple(f"the {word} of {{}}", 1)
    return lambda p, args, kw: (lambda r: f"your {word}" if r == f"the {word} of you" else r)(simple(p, args, kw))


def _simple(template, n, noun=False):
    def call(p, args, kw):
        if len(args) != n or kw:
            raise Unphrasable
        text = template.format(*(p.s(a) for a in args))
        return Noun("card", "card", text) if noun else text
    return call


def _parts(template, keys):
    """sums / combos / groups: a list built from the parts of another, in words."""
    def call(p, args, kw):
        if len(args) != 1 or set(kw) != set(keys):
            raise Unphrasable
        noun, bare, by = _keyed(p, args[0], kw["by"])
        by = words(bare) if bare else by
        singular, tail = template
        return Noun(singular, "value", tail.format(by=by, list=noun.many(), total=p.s(kw.get("total", by))))
    return call


def _subsets(p, args, kw):
    """subsets(L): "the sub-lists of L"; with size: K, "the sub-lists of K of L"."""
    if len(args) != 1 or set(kw) - {"size"}:
        raise Unphrasable
    size = f" of {p.s(kw['size'])}" if "size" in kw else ""
    return Noun("sub-list", "value", f"{size} of {p.as_noun(args[0]).many()}")


def _first(noun) -> str:
    """"the first card in your hand"; of a zone titled as one card ("public card"), that card."""
    where = noun.in_phrase()
    if not noun.head and where.startswith(" in ") and where.endswith(" " + noun.singular) and " " not in noun.singular:
        return where[4:]
    return f"the first {noun.singular}{where}"


CALLS = {"count": _of_list(lambda p, noun, by: f"the number of {noun.many()}"), "sum": _of_list(_sum),
          "min": _extreme("lowest"), "max": _extreme("highest"), "highest": _best("highest"),
          "lowest": _best("lowest"), "top": _best("highest", True), "bottom": _best("lowest", True),
          "any": _any_all("some"), "all": _any_all("every"),
          "one": _of_list(lambda p, noun, by: f"the one {noun.singular}{noun.in_phrase()}, if there is exactly one"),
          "first": _of_list(lambda p, noun, by: _first(noun)),
          "last": _of_list(lambda p, noun, by: f"the last {noun.singular}{noun.in_phrase()}"),
          "distinct": _of_list(lambda p, noun, by: noun.more(" (each once)")), "map": _map,
          "abs": _simple("the absolute value of {}", 1), "left": _seat("left"), "right": _seat("right"),
          "team": _of_player("team"), "partner": _of_player("partner"), "skill": _of_player("skill"),
          "members": _simple("the members of {}", 1), "keys": _simple("the keys of {}", 1),
          "neighbors": _simple(" next to {}", 1, noun=True), "adjacent": _simple("{} is next to {}", 2),
          "sums": _parts(("total", " of {by} that some of {list} add up to"), ("by",)),
          "combos": _parts(("set", " of {list} whose {by} adds up to {total}"), ("by", "total")),
          "groups": _parts(("group", " of {list} with the same {by}"), ("by",)),
          "text": _simple("{} as text", 1), "subsets": _subsets}
