"""What an expression may name, and how each name resolves: declared zones, counters,
variables, parameters and defines, the constants, locals, and the element of a filter.

``NameNodes`` holds the compiler's methods for the nodes that name things (``x``; with
postfix.py's, ``x.y`` and ``x[i]``); ``Scope`` (scope.py) is what is in scope at a node. The functions
below spell every read and write of the state's tables in generated code, in Python's dialect
or the compiled tier's (cdialect.py)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import did_you_mean
from .limits import MAX_EXPANSIONS, MAX_RULESET_EXPANSIONS, MAX_SOURCE, MAX_SUGGESTION_WORK
from .named import out_of_scope
from .nesting import element_read, held, local_read, resized, totalled, zoned
from .parser import ExprError, offset_of, parse, unquote
from .postfix import PostfixNodes
from .access import Recorder
from .cdialect import SLOT_READ, SLOT_WRITE, in_c, item_read   # (the dialect's own: cdialect.py)
from .code import Code, Local, Lookup, Name, Seats, Table, Var, Zone, code
from .runtime import list_bound
from .scope import Scope
from . import texts, walks
from .types import ANY, CARD, INT, PLAYER, STR, TEAM, is_list, list_of


# How generated code names the state's tables: every read or write of a zone, counter or
# variable, and every copy-on-write check, is spelled by these functions and nowhere else
# (tests/test_architecture.py). Each table has a slot of its own on the ruleset's State class
# (engine/layout.py): generated code reads ``S.z_hand``; one named when the code runs is read
# through the state's tables by name (``S.c[...]``, ``S.var(...)``). In the compiled tier's
# dialect (cdialect.py) a slot is read and written by the calls slots.h makes.


def state_read(attr: str) -> str:
    """Source of the state's attribute ``attr`` read as a value (never an assignment target)."""
    return f"{SLOT_READ}(S, {attr!r})" if in_c() else f"S.{attr}"


def state_write(attr: str, value: str) -> str:
    """Source of the statement assigning the source ``value`` to the state's attribute ``attr``
    (a slot assigned whole: ``S.dec = ...``, ``S.v_x = ...``)."""
    return f"{SLOT_WRITE}(S, {attr!r}, {value})" if in_c() else f"S.{attr} = {value}"


def state_add(attr: str, amount) -> str:
    """Source of the statement adding ``amount`` to the state's attribute ``attr`` (a count, the
    step budget's), read and written as ``state_read`` and ``state_write`` spell them."""
    if in_c():
        return state_write(attr, f"{state_read(attr)} + {amount}")
    return f"S.{attr} += {amount}"


def slot(kind: str, name: str) -> str:
    """The State attribute holding zone (z), counter (c) or variable (v) ``name``, one name to
    one attribute: ``z_hand``; a family's counter ``tokens.gold`` as ``k6_tokens_gold`` (the
    family's length first); a name that is no identifier by its UTF-8 in hex (``zx_...``)."""
    fam, dot, key = name.partition(".")
    if dot and fam.isidentifier() and key.isidentifier():
        return f"k{len(fam)}_{fam}_{key}"
    return f"{kind}_{name}" if name.isidentifier() else f"{kind}x_{name.encode().hex()}"


def table_ref(kind: str, name: str) -> str:
    """Source of the table ``name`` of ``kind`` (z zone, c counter, v variable, p parameter),
    read (its items may be assigned: ``table_target`` for the table itself)."""
    return f"{state_read('p')}[{name!r}]" if kind == "p" else state_read(slot(kind, name))


def table_target(kind: str, name: str) -> str:
    """Source of the table ``name`` of ``kind`` as ``table_ref``, one that may be assigned whole."""
    return f"S.p[{name!r}]" if kind == "p" else f"S.{slot(kind, name)}"


def zone_ref(name: str) -> str:
    """Source of zone ``name``'s cards (read, or written in place after ``owning``)."""
    return table_ref("z", name)


def counter_ref(name: str) -> str:
    """Source of counter ``name``: its value, or its list of values per owner (an assignment target too)."""
    return table_target("c", name)


def var_ref(name: str) -> str:
    """Source of variable ``name`` (an assignment target too; a when-trigger's memory is none until first checked)."""
    return table_target("v", name)


def var_write(name: str, value: str, memory: bool = False) -> str:
    """Source of the statement setting variable ``name`` to ``value``; after it no seat knows a private one's value
    (engine/knowledge.py) but a ``memory``'s, which no seat's decision sets (a when-trigger's)."""
    kn, write = state_read("kn"), state_write(slot("v", name), value)
    return write if memory or name[:1] != "_" else f"{write}; {kn} and {kn}.pop({name!r}, None)"


def counter_at(key_src: str) -> str:
    """Source of the counter whose name the source ``key_src`` computes when it runs."""
    return f"S.c[{key_src}]"   # (an assignment target too: S.c writes the slot)


def var_at(name_src: str) -> str:
    """Source of the variable whose name the source ``name_src`` computes when it runs (read)."""
    return f"S.var({name_src})"


def own_call(name: str) -> str:
    """Source of zone or counter ``name``'s list made this state's own (copied if shared with a
    clone: engine/state.py ``State.own``), as a value."""
    return f"S.own({name!r})"


def writable(name: str, is_zone: bool = True, writes: set | None = None) -> str:
    """Source of the list of zone or counter ``name`` to write into: the state's own, copied
    first if it is still shared with a clone (copy on write, engine/state.py ``State.own``).
    ``writes``: the set of tables the generated function owns at its top (``owning``), where the
    name is added and the source is the plain table; else the check is written in place."""
    table = table_ref("z" if is_zone else "c", name)   # (its items are written, not the table)
    if writes is not None:
        writes.add(name)
        return table
    return f"({table} if {name!r} not in {state_read('sh')} else {own_call(name)})"


# the record of each card's zone (Names.recorded), the views of unions of recorded zones
# (Names.views): their keys in ``S.sh``/``S.own`` (no zone's name) -> their State slots
RECORD, VIEWS = "@", "%"
RECORD_SLOTS = {RECORD: "at", VIEWS: "vw"}


def record_read(key: str = RECORD) -> str:
    """Source of the record (``S.at``: card -> its zone's code, 0 none), or the views (``S.vw``)."""
    return state_read(RECORD_SLOTS[key])


def record_writable(writes: set | None, key: str = RECORD) -> str:
    """Source of the record (record_read: ``key``'s) to write into, this state's own (as ``writable``)."""
    if writes is not None:
        writes.add(key)
        return record_read(key)
    return f"({record_read(key)} if {key!r} not in {state_read('sh')} else {own_call(key)})"


def owning(names, pad: str = "    ") -> list[str]:
    """The line a generated function starts with to write the tables ``names`` in place: after a
    clone, each is this state's own (copied on write) from then on."""
    if not any(names):
        return []
    return [f"{pad}if {state_read('sh')}: " + "; ".join(own_call(n) for n in sorted(n for n in names if n))]


@dataclass
class Names:
    """Everything a ruleset declares that an expression may name."""
    zones: dict = field(default_factory=dict)      # name -> owner: "none" | "player" | "team"
    counters: dict = field(default_factory=dict)   # name -> owner
    keyed: dict = field(default_factory=dict)      # a counter family's name -> its keys (counters NAME.KEY)
    param_keys: dict = field(default_factory=dict)   # a map parameter -> its maps' key orders as written (one: keys() a constant)
    vars: dict = field(default_factory=dict)       # name -> type
    params: dict = field(default_factory=dict)     # name -> type
    param_sizes: dict = field(default_factory=dict)   # name -> the most elements its value may hold
    param_totals: dict = field(default_factory=dict)   # name -> (the most elements, characters it holds in all)
    attrs: dict = field(default_factory=dict)      # card attribute -> type
    defines: dict = field(default_factory=dict)    # name -> expression source
    namespace: dict = field(default_factory=dict)  # evaluation globals (attribute tables...)
    max_list: int = 100                            # the longest a zone can be (the number of cards)
    max_players: int = 64                          # the longest the list of players or teams can be
    min_players: int = 1                           # the fewest players a game can have
    param_spans: dict = field(default_factory=dict)   # a number parameter -> (least, greatest) it can be in a game
    param_chars: dict = field(default_factory=dict)   # a text parameter -> the most characters it may have (texts.py)
    attr_sizes: dict = field(default_factory=dict)    # a card attribute of lists -> the longest of them
    attr_chars: dict = field(default_factory=dict)    # a card attribute of strings -> the longest of them (texts.py)
    sorted_zones: set = field(default_factory=set)  # zones declared sorted: true (always in card order)
    zone_sizes: dict = field(default_factory=dict)  # zone -> the most cards its max: lets it hold in any game
    string_literals: set = field(default_factory=set)  # every string the expressions write (adapters/actions.py)
    str_concat: bool = False                        # some expression joins strings (then strings are unbounded)
    recorded: dict = field(default_factory=dict)   # shared zone -> its code in S.at, the record of each card's zone
    asked: set = field(default_factory=set)   # the zones a card is looked for in (x in Z): noted by a first build
    unkept: set = field(default_factory=set)  # those a writer keeping no record moves cards in or out (building/record.py)
    views: tuple = ()   # each a union of recorded zones a target offers, S.vw[i] (reindex; the moves keep it)
    unions: set = field(default_factory=set)   # the unions of shared zones targets offer (noted by a first build)

    def attr_size(self, attr: str) -> int | None:
        """The longest list a card's attribute ``attr`` holds (None: it holds no list)."""
        if attr not in self.attr_sizes:
            lists = [len(v) for v in self.namespace.get(f"A_{attr}", ()) if isinstance(v, list)]
            self.attr_sizes[attr] = max(lists, default=None)
        return self.attr_sizes[attr]

    def all_names(self):
        return [*self.zones, *self.counters, *self.vars, *self.defines, *CONSTANTS]

    def map_keys(self, param: str) -> tuple | None:
        """Every key a map parameter's map has for some player count, first written first (None:
        not a map parameter)."""
        orders = self.param_keys.get(param)
        return None if orders is None else tuple(dict.fromkeys(k for order in orders for k in order))


ME = code("me", Name("me"))   # the acting player, as an owner the compiler passes itself
NEIGHBOURS = "_NB"   # the namespace's table of a board's neighbours, set by a board (mechanics/board.py)

CONSTANTS = {   # name -> (its source, written when it is compiled: in the dialect; its type)
    "me": (lambda: ME, PLAYER),
    "players": (lambda: state_read("players"), list_of(PLAYER)),
    "teams": (lambda: state_read("teams"), list_of(TEAM)),
    "num_players": (lambda: state_read("n"), INT),
    "num_teams": (lambda: f"len({state_read('teams')})", INT),
}
LANGUAGE_NAMES = frozenset({"where", "as", "if", "else", "or", "and", "not", "in", "true", "false", "none",
                            "it", "params", *CONSTANTS})   # the language's own words and constants: never a variable's


class NameNodes(PostfixNodes):
    """Compiler methods for names, attributes and indexing (mixed into Compiler)."""

    acting = ME   # (for PostfixNodes)

    # what these methods use of the Compiler (set in Compiler.__init__, documented there)
    names: Names
    used: set[str]
    cost: int
    suggestion_work: int
    total_expansions: int
    _expansions: int
    _expansion: int
    _expansions_made: int
    _define_stack: list[str]
    _roots: list
    _hoisted: list[str] | None
    made: set[str]
    lvalue: bool
    writes: set[str] | None
    access: Recorder

    if TYPE_CHECKING:   # the Compiler's methods these call (compiler.py)
        def node(self, n: Any, scope: Scope) -> tuple[Code, str]: ...
        def sized(self, n: Any, bound: int) -> None: ...
        def size(self, n: Any) -> int: ...
        def span(self, n: Any) -> tuple | None: ...
        def spanned(self, n: Any, span: tuple | None) -> None: ...
        def table(self, kind: str, name: str) -> Code: ...
        def uses(self, what: str) -> None: ...

    # names
    def n_name(self, n, scope):
        name = str(n.children[0])
        return element_read(self, n, self.resolve_name(name, scope, n))   # (an element: as long as its lists)

    def name_taken(self, name: str, scope: Scope) -> str | None:
        """What a name already means, for a new one that would hide it (``as x``); else None. An outer
        element's name is hidden (expr/named.py), and a local where a define is expanded (its names are its own)."""
        names = self.names
        local = {} if self._define_stack else scope.locals
        for what, pool in (("the element", ("it", "params")), ("a constant", CONSTANTS), ("a local name", local),
                           ("a variable", names.vars), ("a zone", names.zones), ("a counter", names.counters),
                           ("a counter family", names.keyed), ("a define", names.defines),
                           ("a card attribute", names.attrs)):
            if name in pool:
                return what if name != "params" else "the parameters"
        return None

    def resolve_name(self, name: str, scope: Scope, node) -> tuple[str, str]:
        # 0. an element named with 'as' (L as x where ...)
        if name in scope.named:
            var, typ = scope.named[name]
            self.uses(var)
            return code(var, Name(var, var in self.made)), typ
        # 1. the implicit element of where / by: its attributes or per-owner values
        for var, typ in reversed(scope.elements):
            if name == "it":
                self.uses(var)
                return code(var, Name(var, var in self.made)), typ
            found = self.member(code(var, Name(var, var in self.made)), typ, name, node)
            if found is not None:
                self.uses(var)
                return found
        # 2. local bindings
        if name in scope.locals:
            self.access.local(name)
            self.uses(f"L[{name!r}]")   # (compiler._varying: a local that changes with the element)
            local_read(self, node, scope, name)
            return code(scope.bound.get(name) or f"L[{name!r}]", Local(name)), scope.locals[name]
        # 3. constants
        if name in CONSTANTS:
            if name == "me" and not scope.has_me:
                raise ExprError("'me' has no meaning here: no player is acting", offset_of(node), code="unknown-name")
            if name in ("players", "teams"):
                self.sized(node, self.names.max_players)
            if name == "num_players":
                self.spanned(node, (self.names.min_players, self.names.max_players))
            if name == "me":
                self.access.me()
            else:
                self.access.fixed(name)
            src, typ = CONSTANTS[name]
            return code(src(), Name("me") if name == "me" else Seats(name) if name in ("players", "teams") else None), typ
        names = self.names
        if name in names.vars:
            self.used.add(name)
            self.access.read("v", name)
            if is_list(names.vars[name]) or names.vars[name] == ANY:   # as long as _stored lets it be
                self.sized(node, list_bound(names.max_list))
                totalled(self, node, list_bound(names.max_list))   # (at every depth together: walks.py)
            return code(table_ref("v", name), Var(name)), names.vars[name]   # (read: never a target here)
        if name in names.zones or name in names.counters:
            self.used.add(name)
            return self.owned(name, ME, PLAYER, scope, node, implicit=True)
        if name in names.keyed:   # a counter family: the acting player's values, in key order
            return self.family(name, ME, PLAYER, scope, node, implicit=True)
        if name in names.defines:
            self.used.add(name)
            return self.define(name, scope, node)
        if name == "params":
            raise ExprError("write params.NAME to use a parameter", offset_of(node), code="unknown-name")
        elsewhere = out_of_scope(name, node, self._roots, names.defines)   # a name given with 'as' elsewhere
        if elsewhere is not None:
            raise elsewhere
        candidates = [*names.all_names(), *scope.locals, "params"]
        if scope.elements:
            candidates += ["it", *names.attrs]
        hint = self.suggest(name, candidates)
        hint = f"did you mean '{hint}'?" if hint else None
        if hint is None and len(scope.elements) > 1:   # an outer element, wanted inside an inner filter
            hint = ("'it' is the innermost element (of a where, by: or to:): name an outer one with 'as', "
                    "as in players as p where count(hand where suit == p.suit) > 0")
        if hint is None and any(t == CARD for _, t in scope.elements) and names.attrs:
            hint = "a card's attributes are " + ", ".join(sorted(names.attrs))
        raise ExprError(f"unknown name '{name}'", offset_of(node), hint, code="unknown-name", span=len(name))

    def suggest(self, name: str, candidates) -> str | None:
        """did_you_mean, while the names compared for a ruleset stay under MAX_SUGGESTION_WORK:
        each unknown name is compared with every declared one, and a ruleset may declare tens
        of thousands and misspell hundreds."""
        candidates = list(candidates)
        self.suggestion_work += len(candidates)
        return did_you_mean(name, candidates) if self.suggestion_work <= MAX_SUGGESTION_WORK else None

    def define(self, name, scope, node):
        if name in self._define_stack:
            cycle = [*self._define_stack[self._define_stack.index(name):], name]
            through = f" (through {' -> '.join(cycle)})" if len(cycle) > 2 else ""
            e = ExprError(f"define '{name}' refers to itself{through}", offset_of(node),
                          "a define may not use itself, directly or through other defines", code="cycle",
                          span=len(name))
            e.cycle = frozenset(cycle)   # the same cycle met again is reported once (build.py)
            raise e
        self._expansions += 1
        self.total_expansions += 1
        if self.total_expansions > MAX_RULESET_EXPANSIONS:   # one report, not one per expression
            e = ExprError(f"defines are expanded more than {MAX_RULESET_EXPANSIONS:,} times in the whole ruleset",
                          offset_of(node), "a define that uses other defines several times multiplies: "
                          "keep the value in a variable, or use the defines less", code="limit")
            e.once = True
            raise e
        if self._expansions > MAX_EXPANSIONS:
            raise ExprError(f"defines are expanded more than {MAX_EXPANSIONS} times in this expression",
                            offset_of(node), code="limit")
        self._define_stack.append(name)
        outer = self._expansion          # (the sizes of this use's nodes: see Compiler.size)
        self._expansions_made += 1
        self._expansion = self._expansions_made
        roots = len(self._roots)
        try:
            tree = parse(self.names.defines[name])
            self._roots.append(tree)   # (a name given with 'as' out of its reach: told as in the define)
            src, typ = self.node(tree, scope)
            size, span, deep, chars = self.size(tree), self.span(tree), held(self, tree), texts.recorded(self, tree)
            if len(src) > MAX_SOURCE:
                raise ExprError(f"expands to too much code (limit {MAX_SOURCE} characters)", 0, code="limit")
        except ExprError as e:
            if getattr(e, "once", False):
                raise
            if e.code == "cycle":   # the chain already says where: keep it, point at this use
                e.offset, e.span = offset_of(node), len(name)
                raise
            raise ExprError(f"in define '{name}': {e.message}", offset_of(node), e.hint, e.code) from None
        finally:
            self._define_stack.pop()
            del self._roots[roots:]
            self._expansion = outer
        resized(self, node, size, deep)   # (its use is what its tree is: as long, as large)
        self.spanned(node, span)
        texts.kept(self, node, chars)
        return code(f"({src})", like=src), typ

    def member(self, var: str, typ: str, name: str, node=None):
        """``name`` read off an element of type ``typ`` (card attribute, or a player's value)."""
        if typ == CARD and name in self.names.attrs:
            self.access.attribute(name)
            longest = self.names.attr_size(name)
            if longest is not None:   # (a list: as long as the longest a card has)
                self.sized(node, longest)
            if self.names.attrs[name] in (STR, ANY) and node is not None:   # (as long as the longest a card has)
                texts.attribute(self, node, name)
            return code(item_read(f"A_{name}", var), Lookup(f"A_{name}", var, "attr")), self.names.attrs[name]
        self.used.add(name)
        if name in self.names.keyed:
            kind = self.names.counters[f"{name}.{self.names.keyed[name][0]}"] if self.names.keyed[name] else "none"
            if typ in (PLAYER, TEAM) and kind in ("player", "team") or typ == CARD and kind == "card":
                return self.family(name, var, typ, None, node)
            return None
        owner = self.names.zones.get(name) or self.names.counters.get(name)
        if owner is not None and (typ in (PLAYER, TEAM) and owner in ("player", "team")
                                  or typ == CARD and owner == "card"):
            return self.owned(name, var, typ, None, node)
        return None

    # counter families (counters: {NAME: {keys: [...]}}): one counter NAME.KEY per key
    def family(self, name, who_src, who_type, scope, node, implicit=False):
        """A family's values for one owner (or the shared ones), as a list in key order."""
        keys = self.names.keyed[name]
        self.used.add(name)
        parts = [self.owned(f"{name}.{k}", who_src, who_type, scope, node, implicit)[0] for k in keys]
        return "[" + ", ".join(parts) + "]", list_of(INT)

    def family_member(self, name, key_node, who_src, who_type, scope, node, implicit=False):
        """``NAME[KEY]`` of a family, for one owner: a literal key checked now, a computed one when
        evaluated (a runtime error for a key the family does not have)."""
        keys = self.names.keyed[name]
        self.used.add(name)
        if getattr(key_node, "data", None) == "string":
            key = unquote(key_node.children[0])
            if key not in keys:
                close = self.suggest(key, keys)
                raise ExprError(f"'{key}' is not a key of {name} (its keys: {', '.join(keys)})", offset_of(key_node),
                                f"did you mean '{close}'?" if close else None, code="unknown-name")
            return self.owned(f"{name}.{key}", who_src, who_type, scope, node, implicit)
        ksrc, ktype = self.node(key_node, scope)
        if ktype not in (STR, ANY):
            raise ExprError(f"'{name}[...]' needs a key (a str) or an owner, got {ktype}", offset_of(key_node),
                            code="type")
        first = f"{name}.{keys[0]}" if keys else name
        key = f"_ckey({name!r}, {tuple(keys)!r}, {ksrc})"
        self.access.anything()   # (a counter named when it runs: any of the family's, or an error)
        owned = self.names.counters.get(first, "none") != "none"
        base = f"S.own({key})" if self.lvalue and owned else counter_at(key)   # (a write: see writable)
        return self.owned(first, who_src, who_type, scope, node, implicit, base=base)

    def item(self, seq: str, index: str) -> str:
        """``seq[index]``: read (item_read), or the target of a write (``lvalue``)."""
        return f"{seq}[{index}]" if self.lvalue else item_read(seq, index)

    def owned(self, name, who_src, who_type, scope, node, implicit=False, base=None):
        """The value of zone/counter ``name`` owned by ``who_src`` (``base``: the source of its
        table when it is computed: a family's counter for a computed key)."""
        names = self.names
        is_zone = name in names.zones
        owner = names.zones[name] if is_zone else names.counters[name]
        kind, table = "z" if is_zone else "c", None
        if base is None:
            (self.access.write if self.lvalue else self.access.read)(kind, name)
        if is_zone and node is not None:   # (as long as the cards, or as its max: lets it hold: known)
            zoned(self, node, names.zone_sizes.get(name))
        if base is None and self.lvalue and (owner != "card" if is_zone else owner != "none"):
            base = writable(name, is_zone, self.writes)   # the target of a write: this state's own list
            if self.writes is not None:   # (owned from the function's top: the plain table)
                table = code(base, Table(kind, name, False))
        if base is None and self.lvalue and owner == "none":   # a shared counter assigned: the slot itself
            base = table_target(kind, name)
        if base is None:
            base = table = self.table(kind, name)
        typ = list_of(CARD) if is_zone else INT
        if owner == "none":
            return (code(base, Zone(table)) if is_zone and table is not None else base), typ
        if implicit and scope is not None and not scope.has_me:
            raise ExprError(f"'{name}' belongs to each {owner}: write {name}[p] (no player is acting here)",
                            offset_of(node), code="unknown-name")
        if implicit:
            self.access.me()   # (the acting seat's)
        if owner == "card":
            if who_type not in (CARD, ANY):
                raise ExprError(f"'{name}' belongs to each card: write {name}[c] or c.{name} with a card c",
                                offset_of(node) if node is not None else 0, code="type")
            if not is_zone:
                return code(self.item(base, who_src), None if table is None else
                            Lookup(base, who_src, "bound" if table.shape.bound else "state")), typ
            walks.owned_by(self, node, who_src)   # (the zones of a loop's cards: their share)
            # a zone owned by each card is a dict holding only the cards' non-empty zones (a
            # clone copies a few lists, not one per card): read, a missing one is empty; as the
            # target of a move (an lvalue), it is made
            if self.lvalue:   # (a card checked: none would be kept as a key)
                return f"{base}.setdefault(_card(S, {who_src}), [])", typ
            return code(f"({base}.get({who_src}) or [])", Zone(table, who_src, True) if table is not None else None), typ
        if who_type == TEAM:
            if owner == "player":
                raise ExprError(f"'{name}' belongs to each player, not to a team",
                                offset_of(node) if node is not None else 0, code="type")
            return code(self.item(base, who_src), Zone(table, who_src) if is_zone and table is not None else None), typ
        if who_type != PLAYER:   # a whole number, not known to be a seat: checked when evaluated
            self.access.fixed("num_players")   # (the helper checks it is a seat)
            who_src = f"_seat(S, {who_src})"
        if owner == "team":
            self.access.fixed("team")
            return self.item(base, item_read(state_read("tm"), who_src)), typ
        if table is None:
            return self.item(base, who_src), typ
        return code(self.item(base, who_src), Zone(table, who_src) if is_zone else
                    Lookup(base, who_src, "bound" if table.shape.bound else "state")), typ
