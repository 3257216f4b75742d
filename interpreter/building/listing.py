"""A ruleset's generated code as one Python module: what runs, and what ``rulebook compile`` prints.

The compilers write each expression and effect list as a function (expr/compiler.py,
building/effects.py), and the flow as one function per step and the game loop
(building/flowgen.py). ``module`` writes them out together, each function named as the flow
names it (``F3``) and headed by the rule it comes from (``my_game.yaml:163:9``); flowgen.py
executes that text once, and every function object the steps, triggers and tables hold takes
its code from it (``graft``), so that the text anyone reads, profiles or diffs is what runs.
Each function's code is named by its rule's line (``<my_game.yaml:163>``, rulelines.by_rule), with
the module's text behind that name for tracebacks.
"""
from __future__ import annotations


def listing(rules) -> str:
    """The module the ruleset runs (``rulebook compile``)."""
    return rules.module_source


def module(rules, named: dict, flow_source: str) -> tuple[str, dict, int]:
    """(the module's text: a header, every generated function, then the flow; its name -> the
    function object written under it; the line of the module, from 1, the flow's first line is
    on, counted as the text is put together). ``named``: what the flow calls each F<n> and K<n>."""
    parts = [_header(rules)]
    functions: dict = {}
    listed: set[int] = set()
    for name, obj in named.items():
        if _listable(obj) and id(obj) not in listed:
            parts.append(_function(name, obj))
            listed.add(id(obj))
            functions[name] = obj
        else:
            parts.append(f"# {name}: {_described(obj)}")
    for where, obj in _elsewhere(rules):
        if id(obj) not in listed:
            listed.add(id(obj))
            functions[_identifier(where)] = obj
            parts.append(_function(where, obj))
    before = "\n\n".join(parts) + "\n\n# ---------------------------------------------------------------- the flow\n\n"
    return before + flow_source.rstrip() + "\n", functions, before.count("\n") + 1


def graft(functions: dict, ns: dict, by_rule) -> None:
    """Give each function object the code its definition in the executed module (``ns``) has:
    whoever holds the object (a step, a trigger, a table) runs the module's code; the module's
    own definitions give way to the objects (the flow calls them by name, and code written in
    place in it the declared effects)."""
    for name, fn in functions.items():
        fn.__code__ = ns[name].__code__   # (same parameters, no closure: a top-level def each)
        by_rule(fn, getattr(fn, "loc", None))   # (rulelines.by_rule: its code named by its rule's line)
        ns[name] = fn


def _header(rules) -> str:
    variant = f", variant {rules.variant}" if rules.variant else ""
    return (f'"""{rules.name}{variant}: the Python its rules compile to, as it runs (rulebook compile).\n\n'
            f"Ruleset {str(rules.path).rsplit('/', 1)[-1]}, content hash {rules.hash[:16]}. Each function is headed by the\n"
            "rule it comes from; F<n> are the names the flow (at the end) calls them by, R<i> and\n"
            'Q<i> the run and resolve of step i, W<i> a trick\'s end. Generated: read, do not edit.\n"""')


def _listable(obj) -> bool:
    return callable(obj) and isinstance(getattr(obj, "code", None), str)


def _function(name: str, fn) -> str:
    loc = getattr(fn, "loc", None)
    where = f"{loc.path.rsplit('/', 1)[-1]}:{loc.line}:{loc.col}" if loc is not None else "the ruleset"
    text = getattr(fn, "source", None)
    head = f"# {name}: {where}" + (f"  ({_short(text)})" if isinstance(text, str) and "\n" not in text else "")
    # (the function written under its name here: its code starts with its own def line)
    return head + "\n" + fn.code.rstrip().replace(f"def {fn.__name__}(", f"def {_identifier(name)}(", 1)


def _identifier(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in name)


def _short(text: str) -> str:
    return text if len(text) <= 80 else text[:77] + "..."


def _described(obj) -> str:
    """What a name the flow uses stands for, when it is not a generated function."""
    if hasattr(obj, "kind") and hasattr(obj, "index"):   # a step (an inline effect list has no index)
        return f"the {obj.kind} step" + (f" {obj.index}" if obj.index >= 0 else "") + _at(obj)
    if isinstance(obj, (list, tuple)) and obj and all(hasattr(x, "kind") for x in obj):
        return "a sequence's children: " + ", ".join(x.kind for x in obj)
    if isinstance(obj, tuple):
        return f"a table of {len(obj)} values (a card attribute, an outcome's names)"
    if isinstance(obj, frozenset):
        return f"a set of {len(obj)} values (the cards that may fire a zone's triggers)"
    owner = getattr(obj, "__self__", None)
    if type(owner) is tuple:
        return f"a lookup in a table of {len(owner)} values (a card attribute)"
    if owner is not None:
        return f"{type(owner).__name__}.{getattr(obj, '__name__', '?')} of step {getattr(owner, 'index', '?')}"
    code = getattr(obj, "__code__", None)
    if code is not None and getattr(obj, "__module__", None) is None:   # eval'd: its code is named by what it is
        return f"generated {code.co_filename}"   # (<zone hand>, <where quality != none>)
    return f"{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', repr(obj))}"


def _at(step) -> str:
    loc = getattr(step, "loc", None) or getattr(getattr(step, "fn", None), "loc", None)
    return f" at {loc.path.rsplit('/', 1)[-1]}:{loc.line}" if loc is not None else ""


def _elsewhere(rules):
    """(a name, a generated function) the flow does not call by name: those the steps' own
    methods call (a market's price, a choice's options), triggers, scoring, end conditions,
    invariants and requirements."""
    for step in rules.steps:
        for attr, value in sorted(vars(step).items()):
            for k, fn in enumerate(_functions(value)):
                yield f"{step.kind}{step.index}_{attr}{'_' + str(k) if k else ''}", fn
    for k, fn in enumerate(rules.end_checks):
        if _listable(fn):
            yield f"end_when_{k}", fn
    for k, (fn, _, _) in enumerate(rules.invariants):
        if _listable(fn):
            yield f"invariant_{k}", fn
    for k, req in enumerate(rules.requires):
        if _listable(req.fn):
            yield f"requirement_{k}", req.fn
        for j, piece in enumerate(p for p in req.pieces if not isinstance(p, str)):
            if _listable(piece.fn):
                yield f"requirement_{k}_message_{j}", piece.fn
    for zone, fn in getattr(rules, "zone_max", {}).items():   # (a zone's max: evaluated as a game starts)
        if _listable(fn):
            yield f"max_{zone}", fn
    if _listable(rules.heuristic):
        yield "heuristic", rules.heuristic
    for name in rules.effect_names:   # declared effects, which effect lists call by name
        fn = rules.namespace.get(f"E_{name}")
        if _listable(fn):
            yield f"E_{name}", fn
    for owner, label in ((rules.triggers, "trigger"), (rules.scoring, "scoring")):
        for attr, value in sorted(vars(owner).items()):
            for k, fn in enumerate(_functions(value, depth=3)):
                yield f"{label}_{attr}_{k}", fn
    if _listable(rules.setup):
        yield "setup", rules.setup


def _functions(value, depth: int = 2):
    """The generated functions in a value: itself, or inside its lists, tuples and dicts."""
    if _listable(value):
        yield value
    elif depth > 0 and isinstance(value, (list, tuple)):
        for v in value:
            yield from _functions(v, depth - 1)
    elif depth > 0 and isinstance(value, dict):
        for v in value.values():
            yield from _functions(v, depth - 1)

