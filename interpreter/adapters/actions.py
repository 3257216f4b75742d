"""A fixed integer action space per ruleset: every label a ruleset's decisions can offer, each
with a stable id, for the reinforcement-learning adapters.

``action_space(rules, players, params)`` lists, step by step in flow order, the labels each step
that asks can offer (``Step.vocabulary``), and numbers the distinct labels in that order: the
same ruleset, variant, player count and parameters give the same ids in any process. A
parameter given to the game stands for its declared value (its declared ``choices`` stay in
the space): a market of 7 rows has the labels of its seventh row. Each step derives its
labels from the declarations: a card choice from the cards its zone can hold, a branch from
its option names, a grid from its positions and spaces, a choice from its options expression
(``Domains``: literals, ranges, parameters, card attributes, zones, defines and the values
assigned to a variable anywhere in the ruleset; by type when nothing narrower is known: every
card, seat, team, yes/no, or every string the ruleset can produce). A label outside the space
is impossible by construction; ``ActionSpace.ids`` maps a decision's options to their ids.

A ruleset whose labels cannot be listed (a choice of computed numbers) or would be more than
``MAX_ACTIONS`` has no action space: ``ActionSpaceError`` says which step and why.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from operator import itemgetter

from lark import Tree

from ..building.targets import zone_named
from ..engine.params import value_for
from ..errors import Diagnostic, RulebookError, UsageError
from ..expr.parser import as_expr, parse, unquote
from ..expr.builtins import VOCABULARIES
from ..expr.types import BOOL, CARD, INT, PLAYER, STR, TEAM, is_list
from .decisions import deciders

MAX_ACTIONS = 100_000
LISTABLE_HINT = ("offer values the declarations bound: a range of literals or parameters, filtered by the "
                 "computed limit (options: \"0..params.most where it <= limit\", not \"0..limit\")")


class ActionSpaceError(RulebookError):
    """A ruleset with no fixed action space (its options cannot be listed, or are too many)."""
    default_code = "actions"


@dataclass(frozen=True)
class ActionSpace:
    labels: tuple          # id -> label
    index: dict            # label -> id
    card_ids: dict = field(default_factory=dict)   # card (None: "none") -> the id of its label, those in the space
    by_card: frozenset = frozenset()   # the steps whose options are labelled as plain cards
    card_labels: dict = field(default_factory=dict)   # card (None: "none") -> its label, as card_ids
    deciders: tuple = field(default=(), compare=False, repr=False)   # step index -> its decisions' ids and labels

    def __len__(self) -> int:
        return len(self.labels)

    def ids(self, state) -> tuple[int, ...]:
        """The ids of the pending decision's options, in option order. A step offering plain
        cards reads each card's id from a table, no label made; the others' labels are looked
        up. One ``itemgetter`` call, a C loop: a comprehension costs some 300 instructions an
        option more (a label outside the space raises KeyError, as it is impossible)."""
        d = state.dec
        if d is None:
            return ()
        return self.ids_of(state.stack[-1][0], state, d[1])

    def ids_of(self, at: int, state, options) -> tuple[int, ...]:
        """The ids of ``options`` offered by the step of index ``at`` (``ids``; a simultaneous
        choice's other choosers: their options on the same state). The step is named by its
        index, the frame's: a step's own attributes are read by a hashed lookup (some 350
        instructions each), and a card step's path reads none."""
        if at in self.by_card:
            table, keys = self.card_ids, options
        else:
            table, keys = self.index, state.rules.steps[at].labels(state, options)
        # (itemgetter of one key gives the value, not a tuple)
        return itemgetter(*keys)(table) if len(keys) > 1 else tuple(map(table.__getitem__, keys))

    def ids_and_labels(self, at: int, state, options) -> tuple[tuple[int, ...], tuple[str, ...]]:
        """``ids_of`` and the ids' labels at once (the env asks both each decision): the function
        of the step of index ``at`` (adapters/decisions.py)."""
        return self.deciders[at](state, options)

    def labels_of(self, ids) -> tuple[str, ...]:   # (a decision's ids, in their order)
        return itemgetter(*ids)(self.labels) if len(ids) > 1 else tuple(map(self.labels.__getitem__, ids))

    def label(self, action_id: int) -> str:
        return self.labels[action_id]


def warnings_of(rules) -> list:
    """The ruleset's warnings, and one more when the RL adapters would refuse it (no fixed action
    space): what ``validate`` and the language server report for a ruleset that loads."""
    refused = space_warning(rules)
    return list(rules.warnings) + ([refused] if refused else [])


def space_warning(rules):
    """A warning Diagnostic when ``rules`` has no fixed action space at its smallest player
    count (the RL adapters would refuse it), else None: ``validate`` says so before they do."""
    try:
        action_space(rules, min(rules.player_counts))
    except ActionSpaceError as e:
        d = e.diagnostics[0]
        return Diagnostic(f"the RL adapters refuse this ruleset: {d.message}", d.loc, "actions", "warning",
                          d.hint, d.span)
    return None


def action_space(rules, players: int, params: dict | None = None) -> ActionSpace:
    """The action space of ``rules`` with ``players`` seats and the game's ``params`` (those
    given, as ``--set`` or ``new_game``'s options take them), cached on the ruleset."""
    if params:   # their values as the game reads them (a command line's text parsed; a bad one: UsageError)
        resolved = rules.resolve_params(players, params)
        params = {name: resolved[name] for name in params}
    cache = rules.__dict__.setdefault("_action_spaces", {})
    key = (players, json.dumps(params, sort_keys=True, default=repr) if params else "")
    if key not in cache:
        cache[key] = _build(rules, players, params or {})
    return cache[key]


def _build(rules, players: int, params: dict) -> ActionSpace:
    V = Domains(rules, players, params)
    labels: dict = {}
    for step in rules.steps:
        vocab = getattr(step, "vocabulary", None)
        if vocab is None or not getattr(step, "asks", False):
            continue
        spec = V.spec(step)
        got = vocab(V, spec)
        if got is None:
            raise ActionSpaceError(f"the options of this {step.kind} cannot be listed in advance "
                                   "(computed numbers or lists): no fixed action space for this ruleset", step.loc,
                                   hint=LISTABLE_HINT)
        for label in got:
            labels.setdefault(label, None)
        if len(labels) > MAX_ACTIONS:
            raise ActionSpaceError(f"more than {MAX_ACTIONS:,} distinct actions: the action space "
                                   "is too large for the adapters", step.loc)
    ordered = tuple(labels)
    index = {label: i for i, label in enumerate(ordered)}
    by_card = frozenset(step.index for step in rules.steps if step.labels_cards())
    card_ids: dict[int | None, int] = {card: index[label] for card, label in enumerate(rules.card_labels) if label in index}
    if "none" in index:   # (a card step's "no card" option, labelled so)
        card_ids[None] = index["none"]
    card_labels = {card: ordered[i] for card, i in card_ids.items()}
    return ActionSpace(ordered, index, card_ids, by_card, card_labels,
                       deciders(rules.steps, index, by_card, card_ids, card_labels))


class Domains:
    """The values an expression of a ruleset can take, from its declarations."""

    def __init__(self, rules, players: int, params: dict | None = None):
        self.rules, self.players, self.params = rules, players, params or {}
        self.names = rules.names
        self._var_sources: dict | None = None
        self._busy: set = set()

    # ---------------------------------------------------------------- helpers for the steps
    def spec(self, step):
        """The YAML mapping of a step (its options), from its path in the ruleset."""
        node = self.rules.data
        for k in step.path:
            try:
                node = node[k]
            except (KeyError, IndexError, TypeError):
                return {}
        return node if isinstance(node, dict) else {}

    def card_labels(self, ids) -> list[str]:
        labels = self.rules.card_labels
        return list(dict.fromkeys(labels[c] for c in sorted(ids)))

    def zone_cards(self, zone) -> set:
        """The cards a zone (a name, or a reference such as hand[p]) can hold."""
        name = zone_named(zone)
        if name not in self.rules.zone_holds:
            return set(range(len(self.rules.card_labels)))
        kinds = self.rules.zone_holds[name]
        return {c for c, k in enumerate(self.rules.cards.kinds) if k in kinds}

    def labels(self, text, typ: str) -> list[str] | None:
        """The labels of the elements of a list expression of type ``typ`` (its element type)."""
        try:
            tree = parse(as_expr(text))
        except RulebookError:
            return None
        if is_list(typ):   # a choice among lists (combos()...): what the built-in can make
            return self.list_labels(tree)
        values = self.elems(tree)
        if values is None:
            values = self.by_type(typ)
        if values is None:
            return None
        label = self.rules.label
        return list(dict.fromkeys(label(v, typ if typ != "any" else _type_of(v)) for v in _sorted(values)))

    def list_labels(self, tree) -> list[str] | None:
        """The labels of the lists an expression of lists offers: a built-in that makes them
        says (``register_builtin(vocabulary=...)``); a conditional offers both sides'."""
        kind = tree.data if isinstance(tree, Tree) else None
        if kind == "cond":
            a, b = self.list_labels(tree.children[0]), self.list_labels(tree.children[2])
            return None if a is None or b is None else list(dict.fromkeys(a + b))
        if kind == "list_" and not tree.children:
            return []
        if kind == "call" and str(tree.children[0]) in VOCABULARIES:
            args, kwargs = _call_args(tree)
            return VOCABULARIES[str(tree.children[0])](self, args, kwargs)
        return None

    # ---------------------------------------------------------------- domains
    def by_type(self, typ: str):
        if typ == CARD:
            return set(range(len(self.rules.card_labels)))
        if typ == PLAYER:
            return set(range(self.players))
        if typ == TEAM:
            return set(range(len(self.rules.team_members(self.players))))
        if typ == BOOL:
            return {False, True}
        if typ == STR and not self.names.str_concat:
            return set(self.names.string_literals) | self._attr_strings() | self._param_strings()
        return None

    def elems(self, n):
        """The values the elements of the list expression ``n`` can take, or None."""
        kind = n.data if isinstance(n, Tree) else None
        if kind == "list_":
            return self._union(self.dom(c) for c in n.children if c is not None)
        if kind == "range":
            lo, hi = self.dom(n.children[0]), self.dom(n.children[1])
            if lo is None or hi is None or not lo or not hi:
                return None
            if not all(isinstance(x, int) for x in (*lo, *hi)) or max(hi) - min(lo) > 10_000:
                return None
            return set(range(min(lo), max(hi) + 1))
        if kind in ("where",):
            return self.elems(n.children[0])
        if kind == "cond":
            return self._union([self.elems(n.children[0]), self.elems(n.children[2])])
        if kind == "add":
            return self._union([self.elems(n.children[0]), self.elems(n.children[1])])
        if kind == "name":
            return self._name_elems(str(n.children[0]))
        if kind == "attr":
            return self._attr(n, True, self.names.zones, self.zone_cards)
        if kind == "index":
            target = n.children[0]
            if isinstance(target, Tree) and target.data == "name" and str(target.children[0]) in self.names.zones:
                return self.zone_cards(str(target.children[0]))
            return None
        if kind == "call":
            return self._call_elems(n)
        return None

    def dom(self, n):
        """The values the scalar expression ``n`` can take, or None."""
        kind = n.data if isinstance(n, Tree) else None
        if kind in ("int_", "float_", "string", "true", "false", "none"):
            return {_literal(n)}
        if kind == "neg":
            d = self.dom(n.children[0])
            return None if d is None else {-x for x in d if isinstance(x, (int, float))}
        if kind == "cond":
            return self._union([self.dom(n.children[0]), self.dom(n.children[2])])
        if kind == "attr":
            return self._attr(n, False, self.names.attrs, self._attr_values)
        if kind == "name":
            name = str(n.children[0])
            if name in self.names.vars:
                return self._var_values(name)
            if name in self.names.defines:
                return self._define(name, self.dom)
            if name in ("num_players",):
                return {self.players}
            return None
        if kind == "call" and str(n.children[0]) in ("first", "last", "one"):
            return self.elems(_args(n)[0]) if _args(n) else None
        return None

    def _attr(self, n, element: bool, names, values):
        """What ``X.attr`` can be: ``params.attr``'s values (each element's, with ``element``),
        else ``values(attr)`` where ``attr`` is one of ``names``; None when unknown."""
        target, attr = n.children
        if isinstance(target, Tree) and target.data == "name" and str(target.children[0]) == "params":
            return self._param_values(str(attr), element)
        return values(str(attr)) if str(attr) in names else None

    def _union(self, parts):
        out = set()
        for p in parts:
            if p is None:
                return None
            out |= p
        return out

    def _name_elems(self, name):
        if name in self.names.zones:
            return self.zone_cards(name)
        if name == "players":
            return set(range(self.players))
        if name == "teams":
            return set(range(len(self.rules.team_members(self.players))))
        if name in self.names.defines:
            return self._define(name, self.elems)
        if name in self.names.vars:
            return self._var_elems(name)
        return None

    def _define(self, name, how):
        key = ("define", name, how.__name__)
        if key in self._busy:
            return None
        self._busy.add(key)
        try:
            return how(parse(self.names.defines[name]))
        except RulebookError:
            return None
        finally:
            self._busy.discard(key)

    def _call_elems(self, n):
        fname = str(n.children[0])
        args, kwargs = _call_args(n)
        if fname in ("distinct", "top", "bottom") and args:
            return self.elems(args[0])
        if fname == "map" and args and "to" in kwargs:
            to = kwargs["to"]
            if isinstance(to, Tree) and to.data == "name" and str(to.children[0]) in self.names.attrs:
                cards = self.elems(args[0])
                attr = str(to.children[0])
                if cards is None:
                    return self._attr_values(attr)
                table = self.rules.attr_tables.get(attr)
                return {table[c] for c in cards if isinstance(c, int)} if table is not None else None
            return self.dom(to)
        return None

    def _attr_values(self, attr: str):
        table = self.rules.attr_tables.get(attr)
        return None if table is None else {v for v in table if v is not None}

    def _attr_strings(self) -> set:
        return {v for table in self.rules.attr_tables.values() for v in table if isinstance(v, str)}

    def _param_values(self, name: str, element: bool):
        spec = self.rules.params_decl.get(name)
        if spec is None:
            return None
        try:   # the game's value (the one given, else its own for these players), and the declared choices
            vals = [self.params[name] if name in self.params else value_for(name, spec, self.players),
                    *(spec.get("choices") or () if isinstance(spec, dict) else ())]
        except UsageError:   # (no value for these players: no game of them)
            return None
        out = set()
        for v in vals:
            if element:
                if not isinstance(v, list):
                    return None
                out |= {_hashable(x) for x in v}
            else:
                out.add(_hashable(v))
        return out

    def _param_strings(self) -> set:
        out = set()
        for name in self.rules.params_decl:
            for v in self._param_values(name, False) or ():
                for x in (v if isinstance(v, tuple) else (v,)):
                    if isinstance(x, str):
                        out.add(x)
        return out

    # ---------------------------------------------------------------- variables
    def var_sources(self) -> dict:
        """var -> [("value" | "element", expression text) ...]: every place the ruleset sets it."""
        if self._var_sources is None:
            out: dict = {}
            d = self.rules.data
            for name, decl in (d.get("vars") or {}).items():
                if isinstance(decl, dict) and "start" in decl:
                    out.setdefault(name, []).append(("value", decl["start"]))
            for section in ("flow", "effects", "triggers", "setup"):
                _walk(d.get(section), out)
            self._var_sources = out
        return self._var_sources

    def _var_values(self, name: str):
        return self._var(name, element=False)

    def _var_elems(self, name: str):
        return self._var(name, element=True)

    def _var(self, name: str, element: bool):
        key = ("var", name, element)
        if key in self._busy:
            return set()   # a cycle adds nothing new
        self._busy.add(key)
        try:
            out: set = set()
            for how, text in self.var_sources().get(name, []):
                got: set | None
                if how == "values":
                    got = set(text)
                else:
                    try:
                        tree = parse(as_expr(text))
                    except RulebookError:
                        return None
                    if how == "value":
                        got = self.elems(tree) if element else self.dom(tree)
                    else:   # an element of a list (choose, random)
                        got = None if element else self.elems(tree)
                if got is None:
                    return None
                out |= got
            return out
        finally:
            self._busy.discard(key)


def _walk(node, out: dict) -> None:
    """Collect the variables effects and steps set, anywhere under ``node``."""
    if isinstance(node, list):
        for x in node:
            _walk(x, out)
        return
    if not isinstance(node, dict):
        return
    for key, value in node.items():
        if key == "set" and isinstance(value, dict):
            for var, text in value.items():
                out.setdefault(var, []).append(("value", text))
        elif key == "random" and isinstance(value, dict) and "var" in value:
            out.setdefault(value["var"], []).append(("element", value.get("from", "[]")))
        elif key == "choose" and isinstance(value, dict) and "as" in value:
            out.setdefault(value["as"], []).append(("element", value.get("options", "[]")))
        elif key == "attempt" and isinstance(value, dict):
            if "as" in value:
                out.setdefault(value["as"], []).append(("values", list((value.get("outcomes") or {}).keys())))
            target = value.get("target")
            if isinstance(target, dict) and "as" in target:
                out.setdefault(target["as"], []).append(("element", target.get("from", "[]")))
        _walk(value, out)


def _args(n) -> list:
    return _call_args(n)[0]


def _call_args(n):
    argnode = n.children[1] if len(n.children) > 1 else None
    args, kwargs = [], {}
    for a in (argnode.children if argnode is not None else []):
        if isinstance(a, Tree) and a.data == "kwarg":
            kwargs[str(a.children[0])] = a.children[1]
        else:
            args.append(a)
    return args, kwargs


def _literal(n):
    kind = n.data
    if kind == "int_":
        return int(n.children[0])
    if kind == "float_":
        return float(n.children[0])
    if kind == "string":
        return unquote(n.children[0])
    return {"true": True, "false": False, "none": None}[kind]


def _hashable(v):
    if isinstance(v, dict):   # a map parameter: its keys (keys()) and its values, the text it can give
        return tuple(_hashable(x) for x in (*v, *v.values()))
    return tuple(_hashable(x) for x in v) if isinstance(v, list) else v


def _type_of(v) -> str:
    return BOOL if isinstance(v, bool) else INT if isinstance(v, int) else STR


def _sorted(values):
    return sorted(values, key=lambda v: (str(type(v)), v if not isinstance(v, tuple) else str(v)))
