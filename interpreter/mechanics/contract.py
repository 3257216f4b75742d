"""The mechanic contract: what a step or effect kind may use, and what it owes its callers.

A mechanic builds with a ``BuildContext`` (``ctx``, building/builder.py), emits an effect's
Python through an ``EffectContext`` (``fx``, building/effects.py) into an ``Emitter``
(``em``), runs against a ``RunState`` (``S``, engine/state.py) and, if it writes its run as
source, asks a ``FlowWriter`` (``g``, building/flowgen.py) for the names of its children.
These protocols list the members a mechanic may use, and no more: a mechanic that needs
something else asks for it to be added here (tests/test_architecture.py checks that the
mechanics use nothing outside them, and that the classes behind them have every member).

``CLIENTS`` groups the members of a step kind (mechanics/base.py ``Step``) by who calls them;
``Key`` is one line of a kind's table of keys (``@step_kind(..., keys=)``,
``@effect_kind(..., keys=)``), from which the builder checks a ruleset's keys and
``rulebook``'s schema_gen writes the JSON schema and the reference's table of keys;
``ZONE_KEYS``, ``COUNTER_KEYS`` and ``VAR_KEYS`` are the same for an entry of ``zones:``,
``counters:`` and ``vars:`` (there the schema checks the keys, written from the table), and
``SCORING_KEYS``, ``TRIGGER_KEYS`` and ``BOARD_KEYS`` are the keys the builder and the schema
check in ``scoring:``, a trigger and ``board:``; ``PARAM_KEYS`` a parameter's (the schema's);
``REQUIRE_KEYS`` an entry of ``requires:``.
Imports nothing of the package: every stage may read it.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Protocol, runtime_checkable

from ..expr.limits import MAX_STEP_BUDGET

PLACES = ("inside", "beside", "either")


@dataclass(frozen=True)
class Key:
    """One key a step or effect kind reads from its YAML.

    ``type`` says what the value is, in the reference's words ("expression: int", "zone",
    "steps", "effects"...); ``default`` is what a missing optional key means (None: nothing,
    or the doc says); ``place`` is where it is written: ``inside`` the kind's mapping
    (``tricks: {hand: ...}``), ``beside`` the kind's key in the list item (``- repeat: 3`` and
    ``steps:``), or ``either``. A value that is a mapping of its own keys has them in ``keys``;
    with ``named``, it maps names to such mappings (a branch's ``options: {NAME: {if, steps}}``)."""
    name: str
    type: str
    doc: str
    required: bool = False
    default: Any = None
    place: str = "inside"
    keys: tuple[Key, ...] = ()
    named: bool = False
    choices: tuple = ()     # the only values it takes (the schema's enum)
    json: Any = None        # the JSON Schema of its value, where the schema checks it (a section's entries)

    @property
    def shown_type(self) -> str:
        """The type as the reference shows it (a mapping: with its keys)."""
        if not self.keys:
            return self.type
        inner = "{" + ", ".join(k.name for k in self.keys) + "}"
        return f"mapping NAME: {inner}" if self.named else f"mapping {inner}"

    def __post_init__(self):
        if self.place not in PLACES:
            raise ValueError(f"key {self.name!r}: place is one of {PLACES}, got {self.place!r}")


def players_key(doc: str) -> Key:
    """The ``players`` key of a kind run for each of a list of players (all, unless it says)."""
    return Key("players", "expression: list of players", doc, default="players")


def key_names(keys, place: str = "inside") -> tuple[str, ...]:
    """The names of the keys written at ``place`` (``inside`` or ``beside``), in table order."""
    return tuple(k.name for k in keys if k.place in (place, "either"))


def required_names(keys) -> tuple[str, ...]:
    return tuple(k.name for k in keys if k.required)


def key_named(keys, name: str) -> Key:
    return next(k for k in keys if k.name == name)


# --------------------------------------------------------------------- the keys of a section's entries
# A zone's and a counter's keys: the schema checks them (schema_gen writes its part from these
# tables), the builder reads the owners from them, and the reference shows them.
_OWNER = Key("owner", "`none`, `player`, `team`, `card`",
             "Who owns it: nobody (one shared instance), each player, each team, or each card "
             "(a counter or a pile on every card).", default="none", choices=("none", "player", "team", "card"))
_VISIBLE = Key("visible", "`all`, `owner`, `none`",
               "Who may see its contents: everyone, its owner (the seat that owns it, or every member of the "
               "team that owns it), or nobody.", default="all", choices=("all", "owner", "none"))
_DOC = Key("doc", "text", "What it is, in the rulebook's words (shown beside it; rulebook explain quotes it).",
           json={"type": "string"})
_TITLE = Key("title", "text", "The name a player reads for it at the table, in the story and in rulebook "
             "explain (default: its name, underscores as spaces; docs/viewer.md, \"Words for people\").",
             json={"type": "string"})
_NAMES = {"type": "array", "items": {"type": "string"}}

_EXPRESSION = {"type": ["string", "number", "boolean", "array", "null"]}
_EXPRESSION_DOC = "An expression (see docs/language.md), or a literal number, boolean or list."
_AN_EXPRESSION = {"description": _EXPRESSION_DOC, **_EXPRESSION}

ZONE_KEYS: tuple[Key, ...] = (
    _OWNER, replace(_VISIBLE, doc=_VISIBLE.doc[:-1] + "; the others see only how many cards it holds."),
    Key("start", "component names", "Components whose cards start here (shared zones only).", json=_NAMES),
    Key("sorted", "`true` / `false`",
        "Keep the cards in card order (hands): every move, deal, pick, pass, gather and collected trick puts "
        "them in order, a shuffle or bottom: does not change it (a warning says so), and a patched or "
        "loaded state is put in order.", json={"type": "boolean"}),
    Key("holds", "component names",
        "The components whose cards this zone can ever hold: a determinization (docs/agents.md) deals only "
        "those into it, and validate --playouts checks it; without it, inferred from the start cards and "
        "the moves that can bring cards into it.", json=_NAMES),
    Key("max", "integer, or expression of parameters",
        "The most cards one instance of it may hold: a move, deal, gather, pick, pass or trick that puts more "
        "in stops the game with an error naming it, a saved or patched state holding more is refused, and "
        "the cost model counts it as holding no more. An expression (params.NAME, num_players) is evaluated "
        "once as each game starts; start: cards over it refuse the game (over a max known at load: an error "
        "there), and so does a value under 0 (under 0 in every game, or not of type int: an error at load).",
        json={"type": ["integer", "string"], "minimum": 0}),
    _DOC, _TITLE)

COUNTER_KEYS: tuple[Key, ...] = (
    _OWNER,
    Key("keys", "names, or `params.NAME`",
        "A family of counters, one per key: a list of names, or params.NAME (a list of names). "
        "Read coins[k], coins[p][k], p.coins[k]; a whole family as coins (the values in key order).",
        json={"type": ["array", "string"], "items": {"type": "string"}}),
    _VISIBLE,
    Key("start", "expression without `me`", _EXPRESSION_DOC, default=0, json=_EXPRESSION),
    _DOC, _TITLE)

VAR_KEYS: tuple[Key, ...] = (
    Key("type", "`int`, `num`, `bool`, `str`, `player`, `team`, `card`, `list[TYPE]`",
        "What it holds.", default="any", json={"type": "string"}),
    Key("start", "expression without `me`", "Its value when the game starts (none if not given): an expression "
        "(see docs/language.md), or a literal number, boolean or list.", json=_EXPRESSION),
    _DOC, _TITLE)


# the keys of ``scoring:`` (one mapping, not entries): checked by the builder and by the schema
SCORING_KEYS: tuple[Key, ...] = (
    Key("categories", "mapping NAME: expression",
        "The categories of the score, each an expression with me = the player; a seat's score is their sum "
        "(breakdown() gives them one by one).", json={"type": "object", "additionalProperties": _AN_EXPRESSION}),
    Key("tiebreak", "list of expressions",
        "Compared in order among the seats tied on score, each with me = the player: the highest breaks "
        "the tie (the lowest, with lowest_wins).",
        json={"type": "array", "items": _AN_EXPRESSION}),
    Key("eligible", "expression: bool", "Who may be ranked at all (with me = the player).",
        default="every seat", json=_EXPRESSION),
    Key("lowest_wins", "`true` / `false`", "The lowest score wins (and the lowest of each tie-break).",
        default=False, json={"type": "boolean"}),
)

_WORDS_DOC = Key("doc", "text", "What it is, in the rulebook's words.", json={"type": "string"})

# an entry of ``triggers:``, and ``board:``: checked by the builder and by the schema
TRIGGER_KEYS: tuple[Key, ...] = (
    Key("on_enter", "zone, or list of zones",
        "A zone name or a list of zone names: the trigger runs when a card enters one (me = the zone's owner).",
        json={"type": ["string", "array"]}),
    Key("when", "expression: bool",
        "A condition; the trigger fires when it becomes true (checked before every step).",
        json={"type": ["string", "boolean"]}),
    Key("per_player", "`true` / `false`", "Check `when` for each player (me = that player).",
        default=False, json={"type": "boolean"}),
    Key("if", "expression: bool", "A condition on the entering card (local: card).",
        json={"type": ["string", "boolean"]}),
    Key("do", "effects", "The effects it runs.", required=True,
        json={"type": "array", "items": {"type": ["object", "string"]}}),
    _WORDS_DOC)

BOARD_KEYS: tuple[Key, ...] = (
    Key("positions", "component", "The component whose cards are the positions.", required=True,
        json={"type": "string"}),
    Key("adjacent", "expression over `a`, `b`",
        "An expression over two positions a and b (their attributes only), true when they touch.",
        json={"type": "string"}),
    Key("neighbors", "attribute", "An attribute of each position: the labels of its neighbours.",
        json={"type": "string"}),
    _WORDS_DOC)

# an entry of ``params:`` written as a mapping (a bare value is the parameter's value)
PARAM_KEYS: tuple[Key, ...] = (
    Key("by_players", "mapping N: value",
        "Its value for each player count N (default: covers the counts not named).", json={"type": "object"}),
    Key("default", "value", "Its value, which --set replaces with one of the same type.", json={}),
    Key("value", "value", "Its value, as default: (a map of values by key: read params.NAME[k]).", json={}),
    Key("doc", "text", "What it is, in the rulebook's words (rulebook explain lists it).", json={"type": "string"}),
    Key("type", "`int`, `num`, `bool`, `str`, `list`", "What it holds; --set is checked against it.",
        choices=("int", "num", "bool", "str", "list")),
    Key("min", "number", "The least value it may take (--set is checked).", json={"type": "number"}),
    Key("max", "number", "The greatest value it may take (--set is checked).", json={"type": "number"}),
    Key("choices", "list", "The only values it may take (--set is checked): each of its type, within min: and max:.",
        json={"type": "array"}),
    Key("max_length", "integer 0..100,000", "The most characters a text parameter, or each string a list or map "
        "parameter holds, may have (--set is checked): "
        "its expressions weigh it at that, not at 100,000.", json={"type": "integer", "minimum": 0, "maximum": 100000}))

# the keys of ``players:``, ``teams:``, ``limits:`` and ``view:`` (one mapping each): the schema
# checks them (written from these tables), the builder reads them, the reference shows them
PLAYERS_KEYS: tuple[Key, ...] = (
    Key("min", "integer 1..64", "The fewest players the game is for; a game for fewer is refused.", required=True,
        json={"type": "integer", "minimum": 1, "maximum": 64}),
    Key("max", "integer 1..64", "The most players the game is for; a game for more is refused.", required=True,
        json={"type": "integer", "minimum": 1, "maximum": 64}))

TEAMS_KEYS: tuple[Key, ...] = (
    Key("by_players", "mapping N: list of lists of seats",
        "The partnerships for each player count N: a list of teams, each the list of its seats. Every count "
        "between players min and max must be named, and every seat be in exactly one team.",
        json={"type": "object", "additionalProperties": {
            "type": "array", "items": {"type": "array", "items": {"type": "integer", "minimum": 0}}}}),)

LIMITS_KEYS: tuple[Key, ...] = (
    Key("steps", "integer 1..5,000,000",
        "The step budget of one game. Every step run counts one, and so do every pass of a for_each effect, every firing of "
        "a trigger's do: and every turn a turns step skips. "
        "A step whose own expressions may cost more than 100 operations counts one more per hundred, and a "
        "shuffle, move, deal, gather or reset one more per card (or counter value) it handles, a pay two for each unit it "
        "pays without asking (a pay owing more units than the budget, which it could never pay, stops as it starts); a for_each's pass and a trigger's "
        "firing count the same for their body's and do:'s expressions. The end conditions and "
        "when: triggers' conditions (a per-player one for each seat) count their cost the same way on every step run (but a sequence or an effect list), "
        "and an on_enter trigger's if: its own each time it is asked "
        "(docs/security.md).",
        default=500_000, json={"type": "integer", "minimum": 1, "maximum": MAX_STEP_BUDGET}),)

VIEW_KEYS: tuple[Key, ...] = (
    Key("order", "zone and counter names", "Drawn first, in this order.", json=_NAMES),
    Key("hide", "zone and counter names",
        "Not drawn, nor named in what happened (observations and logs are unchanged).", json=_NAMES),
    Key("collapse", "zone names", "Drawn as counts of each label, not card by card.", json=_NAMES),
    Key("vars", "variable names", "The variables shown.", default="every public one", json=_NAMES),
    Key("colors", "mapping", "A card's colour by one of its attributes.", keys=(
        Key("by", "attribute", "The card attribute.", json={"type": "string"}),
        Key("map", "mapping VALUE: colour", "Attribute value -> colour: #rgb, #rrggbb or a colour name.",
            json={"type": "object", "additionalProperties": {"type": "string"}}))),
    Key("board", "mapping", "Where a board's positions are drawn.", default="a circle", keys=(
        Key("x", "attribute", "The number attribute giving each position's x.", required=True,
            json={"type": "string"}),
        Key("y", "attribute", "The number attribute giving each position's y.", required=True,
            json={"type": "string"}))))


REQUIRE_KEYS: tuple[Key, ...] = (
    Key("if", "expression: bool",
        "The condition a game must meet to start: it reads the parameters, num_players, players, teams and the "
        "game's options (skill()), never the state (no zone, counter or variable: it is checked before the setup).",
        required=True, json={"type": ["string", "boolean"]}),
    Key("message", "text",
        "What the refusal says: text, each {expr} in it filled in with the value of the expression (which reads what "
        "the condition may read) as text() writes it; {{ and }} are braces.", required=True,
        json={"type": "string", "minLength": 1}))


# --------------------------------------------------------------------- who calls a step's members
CLIENTS: dict[str, tuple[str, ...]] = {
    # building/: the builder, the compiled flow (flowgen.py), the watch (watch.py), the analyses
    "compiler": ("kind", "doc", "keys", "build", "started", "check_declared", "read_if_none", "asker", "me_var",
                 "index", "loc", "work", "charge", "entry_charged", "inline", "children", "settle", "flow_source",
                 "resolve_source", "skip_source", "takes_place", "fresh_frame", "if_none", "none_probe"),
    # engine/: the loop and the State (plain steps run through these; compiled ones through the flow)
    "engine": ("enter", "run", "resolve", "no_option", "me", "reask", "asks", "option_type", "label",
               "labels", "observe", "prompt"),
    # engine/saved.py: a saved state's frames held to their kind's shape, and its stack to the flow tree
    # (engine/frames.py; the tree's children and takes_place are the compiler's)
    "saved": ("frame_shape", "frame_fault", "pushed_over"),
    # engine/knowledge.py: a determinization deals again what a seat cannot know
    "knowledge": ("hidden_cards", "put_hidden_cards", "hidden_values"),
    # engine/sight.py and play/logs/redact.py: a log redacted for one seat
    "redaction": ("named", "choice_var", "event_amounts"),
    # adapters/: the fixed action space (actions.py)
    "rl": ("vocabulary", "labels_cards"),
    # play/display/, web/ and the agents' table reporter: what people are shown
    "viewer": ("layout", "option_notes", "price_access", "reports", "asked"),
}


# --------------------------------------------------------------------- what a mechanic builds with
@runtime_checkable
class BuildContext(Protocol):
    """``ctx``: the ruleset being compiled (building/builder.py ``Builder``). Errors are
    collected (``error``, ``warn``, ``unknown``, ``known``), not raised."""
    names: Any          # the declared names: zones, counters (and keyed families), namespace
    compiler: Any       # the expression compiler (expr/compiler.py): compile_element, compile_offers, used
    triggers: Any       # the triggers (mechanics/triggers.py): ``enter`` zones with on_enter
    probes: Any         # coverage counters (building/coverage.py), or None
    smap: Any           # the source map: path -> file position
    counter_decl: dict  # counter -> its declaration
    unique_labels: bool  # every card's label is its own
    widest_label: int   # characters of the longest card label (engine/labels.py short_labels)
    has_end_game: bool  # set by a step or effect that may end the game
    shuffled: set  # the zones a shuffle effect names (None: one whose zone load cannot tell)
    heaviest: tuple     # the costliest expression compiled so far of what is being weighed (building/bounded.py)
    pass_steps: int     # what the for_each passes compiled so far may count (building/effects.py charge_pass)
    any_stored: dict    # a variable of type any -> the type what was stored in it unchecked is proven of (variables.checked)

    def error(self, message: str, path, code: str = ..., hint: str | None = ..., key: bool = ...,
              severity: str = ..., offset: int | None = ..., span: int = ...) -> None: ...
    def warn(self, message: str, path, code: str = ...) -> None: ...
    def known(self, kind: str, name, pool, path) -> bool: ...
    def unknown(self, kind, name, candidates, path, key: bool = ..., offset: int | None = ...) -> None: ...
    def check_keys(self, spec, allowed, path, required=...) -> None: ...
    def expr(self, value, path, locals=..., has_me: bool = ..., expect=..., tree=..., by_name: bool = ...) -> Any: ...
    def effects(self, items, path, locals=..., has_me: bool = ..., first: int = ..., by_name: bool = ...) -> Any: ...
    def steps(self, items, path, scope) -> Any: ...
    def add(self, step, path) -> Any: ...
    def declare_var(self, name, typ, path) -> Any: ...
    def declare_as(self, name, typ, path, scope) -> str: ...
    def steps_as(self, build, var: str | None, path, seat: str = ...) -> tuple[Any, bool]: ...
    def only_me(self, who) -> bool: ...
    def asking(self, who) -> Any: ...
    def zone_ref(self, value, path, locals=...) -> Any: ...
    def zone_at_fn(self, value, path, locals=...) -> Any: ...
    def zone_name(self, value) -> Any: ...
    def zone_sorted(self, name) -> bool: ...
    def zone_visible(self, name) -> str: ...   # its visible: as declared (all, owner, none)
    def zone_max(self, name) -> Any: ...   # its max: as guards write it (engine/capacity.py), or None
    def owned_zone(self, value, path) -> Any: ...
    def shared_zone(self, value, path) -> Any: ...
    def flows(self, src, dst) -> None: ...
    def card_filter(self, value, path, locals=...) -> Any: ...
    def card_selector(self, value, path, locals=...) -> Any: ...
    def card_key(self, value, path, locals=...) -> Any: ...
    def element_fn(self, value, path, locals, elem, expect) -> Any: ...


@runtime_checkable
class Emitter(Protocol):
    """``em``: the lines of the effect function being written (building/effects.py)."""
    lines: list[str]
    depth: int          # indentation: += 1 inside a block the emitter opened

    def line(self, text: str) -> None: ...
    def fresh(self, base: str = ...) -> str: ...


@runtime_checkable
class EffectContext(Protocol):
    """``fx``: the effect-list compiler an effect kind emits with (building/effects.py
    ``EffectCompiler``). Its keys were checked against the kind's table before it is called
    (base.py ``checked_mapping``)."""
    ctx: Any            # the BuildContext
    access: Any         # expr/access.py Access: where an effect notes what its lines touch beyond
    #                     its expressions and targets (a zone entered, a variable written)

    def expr(self, text, path, locals, has_me, expect=..., tree=...) -> tuple[str, Any]: ...
    def target(self, text, path, locals, has_me, want, em=...) -> tuple[str, Any]: ...
    def target_owner(self, text, path, locals, has_me, want, any_owner: bool = ..., tree=..., em=...) -> tuple: ...
    def event(self, em, payload: str, unless_empty: str | None = ...) -> None: ...
    def name(self, value, path, what: str = ...) -> Any: ...
    def writable(self, name: str, is_zone: bool = ...) -> str: ...


# --------------------------------------------------------------------- what a mechanic runs with
@runtime_checkable
class RunState(Protocol):
    """``S``: one game in progress (engine/state.py ``State``; its fields are documented there).
    A step never mutates a list stored in its frame, and takes its own copy of a zone or counter
    list before writing it in place (``own``)."""
    rules: Any
    n: int
    players: list
    tm: tuple
    members: tuple
    p: dict
    o: dict
    z: dict
    c: dict
    v: dict
    stack: list
    dec: Any
    over: bool
    steps: int
    ev: Any
    kn: Any
    sh: set

    def own(self, name: str) -> list: ...
    def zone(self, name: str) -> Any: ...   # one table by name (engine/state.py; z, c, v: all of them)
    def counter(self, name: str) -> Any: ...
    def set_counter(self, name: str, value) -> None: ...
    def var(self, name: str) -> Any: ...
    def set_var(self, name: str, value) -> None: ...


@runtime_checkable
class FlowWriter(Protocol):
    """``g``: what a step's ``flow_source(g)`` writes its function with (building/flowgen.py
    ``FlowSource``): the names of functions, frames and steps in the generated module."""
    plain: bool         # write the reference: every specialisation off
    max_steps: int
    auto_forced: bool
    runs_on: bool       # a resolve may run the flow on past its own step (not plain, no forced moves)
    cards: int          # the cards of the game (known when built: written in)
    rules: Any          # the ruleset the module is written for (its visibility: what a step's record may tell)

    def fn(self, fn) -> str: ...
    def run(self, step) -> str: ...
    def enter(self, step) -> str: ...
    def constant(self, step) -> bool: ...
    def start(self, step) -> tuple[str, str]: ...
    def enters(self, step, pad: str, late: Any = ...) -> list: ...
    def late(self, outer: tuple = ..., seats: frozenset = ...) -> Any: ...   # (building/late.py: an entry's frames not pushed yet)
    def me(self, var) -> str: ...
    def step(self, step) -> str: ...
    def found(self, step, lines: list, pad: str, push, failed: int = ...) -> list: ...
    def recounted(self, lines: list, pad: str, failed: int = ..., later: int = ...) -> list: ...
    def placed(self, step) -> Any: ...
    def tests_budget(self, step) -> bool: ...
    def key(self, fn, card: str, led: str = ...) -> str: ...
    def next_step(self, caller, step, frame: str | None, pad: str, asked: bool = ...,
                  tail: bool = ...) -> list: ...
    def climb(self, step, pad: str, ended: bool = ...) -> list: ...
    def checks(self, charge: int, pad: str, ended: list, guard: str | None = ...) -> list | None: ...
    def own_trips(self, step) -> bool: ...
    def at_once(self, step, trip: bool = ...) -> int: ...
    def charged(self, charge: int, pad: str) -> list: ...
    def ahead(self, step, charge: int, pad: str, hand: str = ...) -> list: ...
    def bind(self, names: dict) -> bool: ...
    def value(self, fn, me: str = ..., L: str = ...) -> str: ...
    def bare(self, fn) -> bool: ...   # (whether value writes it in: nothing to raise)
    def locals(self, fn, values: dict) -> str: ...
    # (the lines of an effect list written in place, one statement a line; its heading comment
    # ends in a mark the module writer removes: keep the lines as lines, indented or not)
    def effects(self, fn, me: str, pad: str, step=..., values: dict | None = ..., noted: tuple = ...,
                failed: list | tuple = ...) -> list: ...
    def may_end(self, fn) -> bool: ...
    def ended(self, fn, pad: str, left: list | tuple = ...) -> list: ...
    def notes(self, fx) -> bool: ...
    def noting(self, fx, pad: str) -> list: ...
    def assign(self, fn, target: str, me: str, pad: str, L: str = ..., form: str = ...,
               values: dict | None = ...) -> list: ...


EffectEmitter = Callable[[EffectContext, Emitter, Any, tuple, dict, bool], None]
