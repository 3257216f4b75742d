"""Scanners: the plain loops that find the first element of a list passing a few comparisons of
its attributes, or count those that pass (``first(ZONE where A == a and B != b)``,
``count(L where ...)``), each made once per set of operators from this module's own template,
never from a ruleset's text (expr/fastpaths.py writes their calls; accel/rulesets.py compiles
their text for the compiled tier)."""


SCAN_OPS = {"Eq": "==", "NotEq": "!=", "Lt": "<", "LtE": "<=", "Gt": ">", "GtE": ">="}
_SCANNERS: dict = {}   # comparison operators -> the plain loop that tests them (a few per ruleset)


def scanner(ops: tuple, counting: bool = False) -> tuple:
    """(name, function) of a plain loop ``f(seq, t0, v0, t1, v1, ...)`` returning the first
    ``x`` of ``seq`` with ``t0[x] OP0 v0 and t1[x] OP1 v1 ...`` (None if there is none): what
    ``first(ZONE where A == a and B != b ...)`` asks, without a generator (a generator and
    next() cost about twice the loop). ``counting``: the loop returns how many pass (what
    ``count(L where ...)`` asks, without building the list). ``ops`` are names of ``ast``
    comparison operators; the code is made from this module's own template, never from a
    ruleset's text."""
    fn = _SCANNERS.get((ops, counting))
    name = ("_count_" if counting else "_scan_") + "_".join(op.lower() for op in ops)
    if fn is None:
        namespace: dict = {"__builtins__": {}}
        # (named for a profile: expr/scanners.py, not <string>)
        exec(compile(scanner_text(name, ops, counting), "<scanners.scanner>", "exec"), namespace)  # noqa: S102 - a fixed template
        fn = _SCANNERS[(ops, counting)] = namespace[name]
    return name, fn


def _subscript(table: str, x: str) -> str:
    return f"{table}[{x}]"


def scanner_text(name: str, ops: tuple, counting: bool, item=_subscript) -> str:
    """The def of the scanner ``name`` (``scanner``), its items read as ``item`` spells them
    (the compiled tier's dialect reads them at their offsets: accel/rulesets.py)."""
    params = ", ".join(f"t{i}, v{i}" for i in range(len(ops)))
    test = " and ".join(f"{item(f't{i}', 'x')} {SCAN_OPS[op]} v{i}" for i, op in enumerate(ops))
    if counting:
        body = f"    n = 0\n    for x in seq:\n        if {test}:\n            n += 1\n    return n\n"
    else:
        body = f"    for x in seq:\n        if {test}:\n            return x\n    return None\n"
    return f"def {name}(seq, {params}):\n{body}"


def made_by_scanner(fn) -> tuple | None:
    """The (ops, counting) a scanner function was made from (``scanner``), or None: not one."""
    return next((key for key, made in _SCANNERS.items() if made is fn), None)
