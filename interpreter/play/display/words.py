"""The words a person reads for a ruleset's zones, counters and variables, and which of them
are the engine's bookkeeping rather than the table's.

- a title: the declaration's ``title:`` (``zones: {stock: {title: draw pile}}``), else its
  name with underscores as spaces (``round_score`` -> "round score");
- internal (not drawn, not told): a zone no card is ever visible in (``visible: none``: a
  box or a face-down stock; its size is no decision's matter) and a flag (a ``bool``
  variable); when ``view: vars`` names the variables shown, every other one. The ``view:``
  hints override: a zone named in ``order`` or ``collapse`` is drawn, ``hide`` hides anything;
- points: a counter a scoring category counts as it stands, told as points for that category.
"""
from __future__ import annotations

from weakref import WeakKeyDictionary

from ...expr.parser import ExprError, as_expr, bare_name, parse

_WORDS: WeakKeyDictionary = WeakKeyDictionary()
# the titles of the variables a step declares by default, not the ruleset (a turns step's seat: mechanics/flow.py)
# and of what a running step shows (a simultaneous choice: mechanics/choose.py, observe)
IMPLIED = {"turn_player": "to play", "simultaneous": "secret choices"}


def words_of(rules) -> "Words":
    """The Words of a ruleset, made once."""
    if rules not in _WORDS:
        _WORDS[rules] = Words(rules)
    return _WORDS[rules]


def _declared(data, section: str) -> dict:
    found = data.get(section) if isinstance(data, dict) else None
    return found if isinstance(found, dict) else {}


class Words:
    def __init__(self, rules):
        data = rules.data
        hints = getattr(rules, "view", None) or {}
        self.titles: dict[str, str] = {}
        self.docs: dict[str, str] = {}
        self.types: dict[str, str] = {}
        for section in ("zones", "counters", "vars"):
            for name, decl in _declared(data, section).items():
                decl = decl if isinstance(decl, dict) else {}
                title = decl.get("title")
                self.titles[name] = title if isinstance(title, str) and title.strip() else str(name).replace("_", " ").strip()
                if isinstance(decl.get("doc"), str):
                    self.docs[name] = decl["doc"]
                if section == "vars":
                    raw = _declared(data, "vars")[name]
                    self.types[name] = str(raw.get("type") if isinstance(raw, dict) else raw)
        shown = set(hints.get("order") or ()) | set(hints.get("collapse") or ())
        # (as the visibility table reads ``visible:``, engine/visibility.py: not a second reading)
        never_seen = {name for name, (visible, _kind) in rules.visibility.zones.items()
                      if visible == "none" and name not in shown}
        self.hidden = set(hints.get("hide") or ()) | never_seen
        # a counter a scoring category counts as it stands (``points: points``, ``vault: "vault * 2"``):
        # its gain is told as points for that category
        self.points: dict[str, tuple[str, int]] = {}
        scoring = _declared(data, "scoring")
        for category, text in _declared(scoring, "categories").items():
            counted = _counted(text)
            if counted is not None and counted[0] in _declared(data, "counters"):
                self.points[counted[0]] = (str(category).replace("_", " "), counted[1])
        for name, typ in getattr(getattr(rules, "names", None), "vars", {}).items():
            self.types.setdefault(name, str(typ))   # the variables steps declare (turn_player) too
        # the counter an amount in a step's event is counted in (a grid's cost: its pay:), when
        # every step of that kind agrees: "takes R4 for 2 coins"
        units: dict = {}
        for step in getattr(rules, "steps", ()):
            for ev, fields in step.event_amounts().items():
                for field, counters in fields.items():
                    units.setdefault((ev, field), set()).add(counters[0] if counters else None)
        self.units = {key: next(iter(c)) for key, c in units.items() if len(c) == 1 and None not in c}
        # the prompts of the choices among seats (their options labelled "p2"), told as seats
        self.seat_prompts = {getattr(step, "prompt", None) for step in getattr(rules, "steps", ())
                             if str(getattr(step, "option_type", "")) == "player"}
        # the value a `reset` puts each counter back to, where the ruleset writes it as a number
        self.starts: dict = {}
        for name, decl in _declared(data, "counters").items():
            start = decl.get("start", 0) if isinstance(decl, dict) else decl
            if isinstance(start, (int, float)) and not isinstance(start, bool):
                self.starts[name] = start
        # the variables a decision of each prompt stores its answer in (with no event of its own)
        self.prompt_vars: dict = {}
        for step in getattr(rules, "steps", ()):
            var = step.choice_var() if hasattr(step, "choice_var") else None
            if var is not None:
                self.prompt_vars.setdefault(getattr(step, "prompt", None), set()).add(var)
        # a yes/no: a bool variable, or a counter only ever set to 0 or 1 ("protection")
        self.flags = {n for n, t in self.types.items() if t == "bool"} | _flag_counters(data)
        told = hints.get("vars")
        self.quiet_vars = {name for name, typ in self.types.items()
                           if (told is not None and name not in told) or (told is None and typ == "bool")}

    def title(self, name) -> str:
        return self.titles.get(name) or IMPLIED.get(name) or str(name).replace("_", " ")

    def amount(self, n, name) -> str:
        """An amount of a counter in words: "2 coins", "1 coin", "3 yellow"."""
        title = self.title(name)
        return f"{n} {singular(title) if n in (1, -1) else title}"

    def value(self, name, value, who) -> str:
        """A variable's value as a person reads it: a seat by ``who(seat)``, a flag yes or no,
        a list's items bare, none as "none"."""
        if value is None:
            return "none"
        if self.types.get(name) == "player" and isinstance(value, int) and not isinstance(value, bool):
            return who(value)
        if isinstance(value, bool) or (name in self.flags and value in (0, 1)):
            return "yes" if value else "no"
        if isinstance(value, list):
            return " ".join(["none" if v is None else str(v) for v in value]) or "-"
        return str(value)


def _plural_word(w: str) -> bool:
    return len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is"))


def is_plural(title: str) -> bool:
    """Whether a title reads as a plural ("tricks won", "coins", "cards taken"; not "score",
    "pos", "bonus"): its first or last word ends in a plural s."""
    parts = title.split() or [""]
    return _plural_word(parts[0]) or _plural_word(parts[-1])


def singular(title: str) -> str:
    """A plural title for one ("coins" -> "coin", "tokens of affection" -> "token of
    affection"): its head noun (the last word before "of", "in", "on") without its plural s."""
    words = title.split(" ")
    head = next((i - 1 for i, w in enumerate(words) if i and w in ("of", "in", "on", "for")), len(words) - 1)
    w = words[head]
    if _plural_word(w):
        words[head] = w[:-3] + "y" if w.endswith("ies") else w[:-1]
    return " ".join(words)


def base_name(text) -> str | None:
    """The name an expression is, or is an entry of (``safe``, ``out[p]``), else None."""
    try:
        tree = parse(as_expr(text))
    except (ExprError, TypeError, ValueError, RecursionError):
        return None
    if getattr(tree, "data", None) == "index":
        tree = tree.children[0]
    return bare_name(tree)


def _flag_counters(data) -> set[str]:
    """The counters starting at 0 or 1 that every step and effect only sets to 0 or 1 (``set:
    {safe: 1}``) or resets: anywhere else a counter is named alone (``counter: safe``, ``pay:
    safe``, a cost's key), it may count, and is not one."""
    counters = _declared(data, "counters")
    candidates = {n for n, d in counters.items()
                  if (d.get("start", 0) if isinstance(d, dict) else d) in (0, 1, None)
                  and not isinstance(d.get("start") if isinstance(d, dict) else d, bool)}
    set_to: dict[str, set] = {}
    other: set[str] = set()

    def walk(node):
        if isinstance(node, list):
            for x in node:
                walk(x)
        elif isinstance(node, dict):
            for k, v in node.items():
                if k == "set" and isinstance(v, dict):
                    for target, value in v.items():
                        base = base_name(target)
                        if base is not None:
                            set_to.setdefault(base, set()).add(value if type(value) is int else None)
                    continue
                if k == "reset":
                    continue
                other.add(str(k))
                if isinstance(v, str):
                    base = base_name(v)
                    if base is not None:
                        other.add(base)
                else:
                    walk(v)
    for section, body in data.items():
        if section not in ("counters", "zones", "vars", "components", "params", "define", "scoring", "view"):
            walk(body)
    return {n for n in candidates if set_to.get(n) and set_to[n] <= {0, 1} and n not in other}


def _counted(text) -> tuple[str, int] | None:
    """(NAME, K) when a scoring category's expression is ``NAME`` or ``NAME * K`` (K a whole
    number), read from its parsed tree; else None."""
    try:
        tree = parse(as_expr(text))
    except (ExprError, TypeError, ValueError):
        return None
    name = bare_name(tree)
    if name is not None:
        return name, 1
    if getattr(tree, "data", None) == "mul" and len(tree.children) == 2:
        left, k = tree.children
        name = bare_name(left)
        if name is not None and getattr(k, "data", None) == "int_":
            return name, int(str(k.children[0]))
    return None
