"""The static types of the expression language, as plain strings.

Scalars: int, num (any number), bool, str, card, player, team, none, any.
Lists: ``list[T]``. Maps (a parameter naming values by key): ``map[T]``, read as
``params.price[k]``. Players and teams are whole numbers (seat and team indexes), so they
take part in arithmetic and comparisons.
"""
INT, NUM, BOOL, STR = "int", "num", "bool", "str"
CARD, PLAYER, TEAM = "card", "player", "team"
NONE, ANY = "none", "any"

_NUMERIC = {INT, NUM, PLAYER, TEAM, ANY}


def _container(kind: str):
    """The three functions of the type ``kind[T]``: it of T, whether a type is one, and its T
    (any when the type is not one)."""
    head = f"{kind}["

    def of(t: str) -> str:
        return f"{head}{t}]"

    def is_one(t: str) -> bool:
        return t.startswith(head)

    def inner(t: str) -> str:
        return t[len(head):-1] if t.startswith(head) else ANY
    return of, is_one, inner


list_of, is_list, elem = _container("list")
map_of, is_map, map_value = _container("map")


def is_numeric(t: str) -> bool:
    return t in _NUMERIC


def unify(types) -> str:
    """The common type of several branches (none joins anything; numbers widen)."""
    ts = {t for t in types if t != NONE}
    if not ts:
        return NONE
    if len(ts) == 1:
        return ts.pop()
    if ts <= _NUMERIC:
        return NUM if NUM in ts else INT
    if all(is_list(t) for t in ts):
        return list_of(unify(elem(t) for t in ts))
    if all(is_map(t) for t in ts):
        return map_of(unify(map_value(t) for t in ts))
    return ANY


def joined(types) -> str:
    """The type a value that is one of, or joins, values proven of ``types`` is proven of: as
    ``unify``, but any is never a number here (a branch of type any may hold a string, where
    ``unify`` makes ``x if C else 0`` an int): a part of type any, at any depth, stays any."""
    ts = {t for t in types if t != NONE}
    if ANY in ts:
        return ANY
    if len(ts) > 1 and all(is_list(t) for t in ts):
        return list_of(joined(elem(t) for t in ts))
    if len(ts) > 1 and all(is_map(t) for t in ts):
        return map_of(joined(map_value(t) for t in ts))
    return unify(ts)


def parse_type(text: str) -> str:
    """A type written in a ruleset (``int``, ``list[card]``...); ValueError when unknown."""
    t = text.strip()
    if is_list(t):
        return list_of(parse_type(elem(t)))
    if t in (INT, NUM, BOOL, STR, CARD, PLAYER, TEAM, ANY):
        return t
    if t == "number":
        return NUM
    raise ValueError(f"unknown type '{text}'")


def fits(value: str, declared: str) -> bool:
    """Whether a value of static type ``value`` may be stored where ``declared`` is expected
    (none fits anything; numbers, players and teams are all whole numbers)."""
    if ANY in (value, declared) or value in (NONE, declared):
        return True
    if is_numeric(value) and is_numeric(declared):
        return value != NUM or declared == NUM
    if is_list(value) and is_list(declared):
        return fits(elem(value), elem(declared))
    return False


def unproven(value: str, declared: str) -> bool:
    """Whether a value of static type ``value``, which fits ``declared``, may still not be of it:
    ``any`` where the declared type is not, at any depth of a list (``list[any]`` stored where
    ``list[int]`` is declared). Such a value is checked where it is stored (engine/values.py
    ``as_declared``); any other is what the load proves it. A whole number where a player or a
    team is declared may be no seat or team of the game (``set: {x: 7}``): checked alike."""
    if declared == ANY:
        return False
    if value == ANY or value == INT and declared in (PLAYER, TEAM):
        return True
    return is_list(value) and is_list(declared) and unproven(elem(value), elem(declared))


def proves(value: str, declared: str) -> bool:
    """Whether a value proven of type ``value`` is, as the load proves it, of type ``declared``: it
    fits, and holds no value of type any where ``declared`` says another (``unproven``)."""
    return fits(value, declared) and not unproven(value, declared)


def nests(typ: str) -> bool:
    """A value of this type may hold a list inside it (a list of lists, or anything)."""
    return typ == ANY or is_list(typ) and (elem(typ) == ANY or is_list(elem(typ)))


def holds_growing(typ: str) -> bool:
    """A value of this type may hold a list or a string inside it: stored, each is checked
    against the bounds of a variable's value (runtime._stored ``deep``)."""
    return nests(typ) or is_list(typ) and elem(typ) == STR


def can_grow(typ: str) -> bool:
    """Values of this type could grow without bound if stored again and again, or a number
    overflow to an infinity (docs/language.md §1): stored through ``_stored``'s checks."""
    return typ in (INT, NUM, ANY, STR) or is_list(typ)


def walked(typ: str, proven: str) -> str:
    """The type a value of static type ``typ`` is checked as where it is stored or bound to a local
    (``can_grow``, ``holds_growing``): any where it is made of a value of type any (``proven``,
    expr/nesting.py: ``[0, v, v]`` types as a list of int though its items may be lists), which may
    hold lists at any depth, so its walk counts them all and their depth; else its static type."""
    return ANY if ANY in proven else typ
