"""A ruleset's generated module (building/listing.py, what ``rulebook compile`` prints), its hot
functions compiled by Cython into an extension module, cached in the cache folder
(``$XDG_CACHE_HOME/rulebook/compiled``), and its game loop, runs and resolves put in place of
the Python ones (``use_compiled``), when asked: ``load(path, compiled=True)``, or
``RULEBOOK_COMPILED=1`` in the environment (building/__init__.py). The text compiled is the
module written in the compiler's dialect (expr/cdialect.py ``dialect``, building ``written_for_c``):
its reads of the state's slots and of items, made by slots.h at their offsets. The cache's key
is what determines that text (``cache_key``), so a cached module is loaded without writing it.
The functions it names in its own functions are declared cpdef beside it (``direct_calls``):
Cython calls them in C, not through Python's call protocol.

Off by default: a first compile of a seed ruleset takes 4 to 10 s of CPU (several times that
in wall time on a busy machine), once for each text (each variant, each edit), for 12 to 22%
fewer instructions a game: it pays back over a long batch, not a first load
(docs/performance.md "The compiled tier"). When it cannot be used (no C compiler, no Cython, a
cache folder that cannot be written, a compile that fails) the reason is shown once and the
ruleset runs as built.
"""
from __future__ import annotations

import builtins
import dis
import hashlib
import importlib.util
import inspect
import os
import random
import shutil
import sys
import symtable
import tempfile
import types
from pathlib import Path

from ..engine.requires import default_failures
from ..expr.cdialect import CALLS, ITEM_READ, LIST_TAKE, SLOT_READ, SLOT_WRITE, SORTED_PUT, SORTED_TAKE
from ..expr.scanners import made_by_scanner, scanner_text
from ..loading.resources import cache_file
from . import PACKAGE, digest
from .build import DIRECTIVES, BuildError, compile_file, extension

# The first compile's time is most of a first load's: the C compiler's, in proportion to the
# lines compiled (benchmarks/compiled_tier.py measures the trades, docs/performance.md "The
# compiled tier" has the figures). -O1 compiles in 60% of -O2's time for most of its gain; no
# debugging information (a quarter of the compiler's time).
OPTIMIZE = "-O1"
FLAGS = ("-g0",)
# Only the functions that ran in SAMPLE decisions of random play, profiled before the first
# compile, are compiled: the most time a line first, up to LINES lines of the module's source (None:
# every function, run or not).
LINES: int | None = 1000
SAMPLE = 2000
# The module written in expr/cdialect.py's C_SLOTS dialect reads a state's slots with SLOT_READ and
# items with ITEM_READ, which this declaration (beside the module, as Cython's augmenting .pxd)
# makes slots.h's.
HEADER = Path(__file__).resolve().parent / "slots.h"
DECLARED = (f'cdef extern from "{HEADER.name}":\n    object {SLOT_READ} "RB_GET" (object, object)\n'
            f'    object {ITEM_READ} "rb_at" (object, object)\n'
            f'    int {SLOT_WRITE} "RB_SET" (object, object, object) except -1\n'
            f'    int {SORTED_TAKE} "rb_take_sorted" (object, object, object) except -1\n'
            f'    int {SORTED_PUT} "rb_insort" (object, object, object) except -1\n'
            f'    int {LIST_TAKE} "rb_remove" (object, object) except -1\n')
# What Cython refuses as cpdef: a function holding a closure ("closures inside cpdef functions
# not yet supported": a lambda, a generator expression, a def; a comprehension is inlined), a
# generator, *args or **kwargs, and the words its parser reserves as a parameter's name
_INLINED = ("<listcomp>", "<setcomp>", "<dictcomp>")
_NOT_CPDEF = (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS | inspect.CO_GENERATOR | inspect.CO_COROUTINE
              | inspect.CO_ASYNC_GENERATOR | inspect.CO_ITERABLE_COROUTINE)
_STORES = ("STORE_NAME", "STORE_GLOBAL", "DELETE_NAME", "DELETE_GLOBAL")   # (a def's own included)
_CYTHON_WORDS = frozenset(("include", "ctypedef", "cdef", "cpdef", "cimport", "DEF", "IF", "ELIF", "ELSE"))
_said: set[str] = set()     # the reasons already shown in this process (each once)
_loaded: set[str] = set()   # the modules loaded from the cache in this process


def use_compiled(rules, written=None) -> bool:
    """Run ``rules``' flow (its game loop, each step's run and resolve) from its compiled module,
    compiling it first when it is not cached. False, with the reason shown once, when it cannot.
    ``written``: what gives the module's text written for the compiler (the C_SLOTS dialect,
    building/__init__.py); None: its text as it runs, ``rules.module_source``."""
    try:
        module = compiled_module(rules, written)
        names = _globals_of(rules, module)
    except BuildError as e:
        _say(str(e))
        return False
    spaces = _spaces(rules)   # (the Python functions': before the compiled ones take their place)
    module.__dict__.update(names)
    ns = module.__dict__
    for name, value in names.items():   # a name standing for a function compiled here (END0: an end condition)
        target = _name(value, spaces)
        if target is not None and target in ns and target not in ns["__free__"]:
            ns[name] = ns[target]
    runs = tuple(ns.get(f"R{s.index}", fn) for s, fn in zip(rules.steps, rules.runs))
    ns["RUNS"] = runs
    resolves = tuple(ns.get(f"Q{s.index}", fn) for s, fn in zip(rules.steps, rules.resolves))
    ns["RESOLVES"] = resolves
    for key, value in (("runs", runs), ("resolves", resolves), ("advance", ns.get("advance", rules.advance)),
                       ("apply_index", ns.get("apply_index", rules.apply_index))):
        object.__setattr__(rules, key, value)   # (a frozen Ruleset: the same functions, compiled)
    rules.layout.cls.apply_index = rules.apply_index   # (its states' own: engine/ruleset.py freeze)
    if getattr(rules, "effect_lines", None) is not None:   # (its frames run the module's text at its lines)
        rules.effect_lines.spaces.append(ns)
    for step in _taking(rules):   # the generated functions a step's own code calls (a grid's prices)
        step.put_compiled(lambda fn: ns.get(_name(fn, spaces), fn))
    return True


def _taking(rules) -> list:
    """The steps whose own code calls generated functions they hold, which take the compiled
    module's in their place (``put_compiled(compiled)``: a grid's prices, mechanics/grid.py)."""
    return [s for s in rules.steps if callable(getattr(s, "put_compiled", None))]


def _taken(rules) -> list:
    """The functions those steps would take (each asked with the identity, which changes none)."""
    found: list = []

    def noted(fn):
        found.append(fn)
        return fn
    for step in _taking(rules):
        step.put_compiled(noted)
    return found


def _name(fn, spaces) -> str | None:
    """The name a generated function has in the ruleset's module (its code's, listing.py graft),
    if the module's namespace holds it under that name."""
    name = getattr(getattr(fn, "__code__", None), "co_name", None)
    return name if name is not None and any(ns.get(name) is fn for ns in spaces) else None


def compiled_module(rules, written=None):
    """The extension module of ``rules.module_source`` (or of the text ``written()`` gives, the
    same module in another dialect: the same functions at the same lines), from the cache or
    compiled now."""
    name = f"rulebook_{cache_key(rules, written is not None)[:24]}"
    place = cache_file("compiled")
    if place is None:
        raise BuildError("the cache folder ($XDG_CACHE_HOME/rulebook, else ~/.cache/rulebook) cannot be written"
                         " or is not this user's alone")
    folder = Path(place)
    found = extension(folder, name)
    if found is None:
        text = _written(rules, written)
        if text != rules.module_source and _functions(text)[0] != _functions(rules.module_source)[0]:
            raise BuildError("the module written for the compiler does not have the functions of the one that runs")
        try:
            folder.mkdir(mode=0o700, exist_ok=True)
        except OSError as e:
            raise BuildError(f"cannot make the cache folder {folder}: {e.strerror}") from None
        # (a command asked for it with RULEBOOK_COMPILED=1 would otherwise seem to hang)
        print(f"rulebook: compiling {getattr(rules, 'name', 'the ruleset')}'s module to C, once (seconds to minutes;"
              f" cached in {folder})", file=sys.stderr)
        hot = text if LINES is None else hot_source(rules, rules.module_source, LINES, text)
        source = compiled_text(rules, hot, written is not None)
        with tempfile.TemporaryDirectory(prefix="rulebook-ruleset-") as tmp:
            src = Path(tmp) / f"{name}.py"
            src.write_text(source)
            built = _compile(src, name, direct_calls(source, _spaces(rules)))
            try:
                os.replace(built, folder / built.name)   # (whole or not at all: another process may load it)
            except OSError as e:
                raise BuildError(f"cannot write the compiled module into {folder}: {e.strerror}") from None
        found = folder / built.name
    if name not in _loaded:
        module = _load(name, found)
        _loaded.add(name)
    else:
        # a second Ruleset of the same text in this process: a compiled module's namespace lives
        # in its library, one per file loaded, so this one gets a copy of the file of its own
        with tempfile.TemporaryDirectory(prefix="rulebook-module-") as tmp:
            copy = Path(tmp) / found.name
            shutil.copyfile(found, copy)
            module = _load(name, copy)   # (the library stays loaded once its file is gone)
    if not isinstance(module.__dict__.get("__free__"), tuple):
        raise BuildError(f"{found} is not a ruleset's module of this version (delete it)")
    return module


def compiled_text(rules, hot: str, dialect: bool) -> str:
    """The text Cython compiles: ``hot`` (the functions chosen; in the compiler's dialect when
    ``dialect``), the helpers they call, and the names the loader sets."""
    hot += _helpers(rules, hot, _item if dialect else None)
    free = [n for n in free_names(hot) if n not in CALLS]   # (declared: DECLARED)
    # the free names declared at the end (Cython refuses a global it never sees assigned;
    # use_compiled sets them): the lines above keep the numbers `rulebook compile` shows
    return hot + "\n\n# names the loader sets (interpreter/accel/rulesets.py)\n" + \
        (" = ".join(free) + " = None\n" if free else "") + f"__free__ = {tuple(free)!r}\n"


def _compile(src: Path, name: str, direct: str) -> Path:
    """``src`` compiled with its declaration beside it (DECLARED, and ``direct``: the functions
    it calls in C, direct_calls), or without ``direct`` if that fails (a call Cython cannot
    bind, a C function Cython writes wrong: the calls then go through Python, as they run)."""
    pxd = src.with_suffix(".pxd")
    pxd.write_text(DECLARED + direct)
    try:
        return compile_file(src, name, src.parent, (OPTIMIZE, *FLAGS), include=(str(HEADER.parent),))
    except BuildError as e:
        if not direct:
            raise
        # (shown: a module cached so is slower, and the failure may not have been the calls')
        print(f"rulebook: compiled again with its calls through Python ({e})", file=sys.stderr)
    pxd.write_text(DECLARED)
    return compile_file(src, name, src.parent, (OPTIMIZE, *FLAGS), include=(str(HEADER.parent),))


def _item(table: str, x: str) -> str:
    return f"{ITEM_READ}({table}, {x})"   # (the dialect's read of an item: slots.h)


def _helpers(rules, hot: str, item) -> str:
    """The defs of the engine's helpers made from a template (expr/scanners.py ``scanner``: the
    loops of ``first(L where ...)`` and ``count(L where ...)``) that the hot functions call, to
    be compiled with them (``item``: how they read an item; None: as Python does), at the end
    of the module's text, so that the lines above keep their numbers: the module then calls
    them in C, where the helpers made when the engine loads run as Python."""
    spaces = _spaces(rules)
    out = []
    for name in free_names(hot):
        made = made_by_scanner(next((ns[name] for ns in spaces if name in ns), None))
        if made is not None:
            ops, counting = made
            out.append(scanner_text(name, ops, counting) if item is None else scanner_text(name, ops, counting, item))
    return "".join(f"\n\n{text}" for text in out)


def direct_calls(text: str, spaces: list[dict]) -> str:
    """The lines of the augmenting .pxd (beside DECLARED) that make cpdef the functions of
    ``text`` (the module compiled) that its functions name, so that Cython calls them in C
    rather than through Python's call protocol (each keeps a Python wrapper: the module's
    namespace, RUNS and RESOLVES hold it). Only those Cython takes as cpdef (``_NOT_CPDEF``),
    never assigned but by their def, whose defaults are known: those of the function of that
    name and parameters in ``spaces``, the namespaces the module's functions run in. (A call
    by name Cython cannot bind at compile time is its error: compiled_module then compiles
    the module without these lines.)"""
    module = compile(text, "<module>", "exec")
    defs = {c.co_name: c for c in module.co_consts if isinstance(c, types.CodeType)}
    named: set[str] = set()
    stored = [i.argval for i in dis.get_instructions(module) if i.opname in _STORES]
    for code in defs.values():
        for c in _within(code):
            named.update(i.argval for i in dis.get_instructions(c) if i.opname in ("LOAD_GLOBAL", "LOAD_NAME"))
            stored += [i.argval for i in dis.get_instructions(c) if i.opname in _STORES]
    out = []
    for name in sorted(named.intersection(defs)):
        code = defs[name]
        params = code.co_varnames[:code.co_argcount]
        running = next((ns[name] for ns in spaces if name in ns), None)
        running_code = getattr(running, "__code__", None)
        if code.co_flags & _NOT_CPDEF or code.co_posonlyargcount or code.co_kwonlyargcount or stored.count(name) > 1 \
                or _CYTHON_WORDS.intersection(params) or any(c.co_name not in _INLINED for c in _within(code)[1:]) \
                or running_code is None or running_code.co_varnames[:running_code.co_argcount] != params:
            continue
        optional = len(params) - len(getattr(running, "__defaults__", None) or ())
        if _unread(code).intersection(params[optional:]):
            continue
        declared = ", ".join(f"object {p}" + ("=*" if i >= optional else "") for i, p in enumerate(params))
        out.append(f"cpdef object {name}({declared})\n")
    return "".join(out)


def _unread(code) -> set[str]:
    """The local names ``code`` assigns and never reads: Cython 3.3 writes C that does not compile
    for such a parameter with a default in a cpdef function (it drops the variable, not its
    default's reference count)."""
    written: set[str] = set()
    read: set[str] = set()
    for i in dis.get_instructions(code):
        op, names = i.opname, i.argval if isinstance(i.argval, tuple) else (i.argval,)   # (3.13's pairs)
        if op == "STORE_FAST_LOAD_FAST":   # (3.13: one written, then one read)
            written.add(names[0])
            read.update(names[1:])
        elif op.startswith(("STORE_FAST", "DELETE_FAST")) or op == "STORE_DEREF":
            written.update(names)
        elif op.startswith("LOAD_FAST") or op in ("LOAD_CLOSURE", "LOAD_DEREF"):   # (3.14's LOAD_FAST_BORROW too)
            read.update(names)
    return written - read


def _within(code) -> list:
    """``code`` and the code it holds (a comprehension's, a lambda's, a def's), all the way down."""
    found, todo = [], [code]
    while todo:
        c = todo.pop()
        found.append(c)
        todo += [k for k in c.co_consts if isinstance(k, types.CodeType)]
    return found


def cache_key(rules, dialect: bool = True) -> str:
    """The key of ``rules``' compiled module in the cache: what determines the text compiled.
    Written in the compiler's dialect (``dialect``), that text is the module that runs
    (``rules.module_source``) with its reads spelt otherwise by the engine's code, so the module's
    text and the engine's (``engine_fingerprint``) stand for it, and a cached module is found
    without the ruleset built again to write it; then the header and declaration it is compiled
    with, Cython's and Python's versions and the settings."""
    try:
        from Cython import __version__ as cython
    except ImportError:
        raise BuildError("Cython is not installed (pip install 'rulebook-engine[fast]')") from None
    try:
        header = HEADER.read_text()
    except OSError as e:
        raise BuildError(f"cannot read {HEADER}: {e.strerror}") from None
    # (were two builds of one module ever written apart, either compiled text would do for both:
    # the dialect's reads mean what Python's do, dialect_helpers)
    # (the engine's sources in either dialect: the helpers compiled with the module are written
    # from its templates, expr/scanners.py scanner_text)
    written = "written for C" if dialect else "as it runs"
    return hashlib.sha256("\n".join([rules.module_source, written, engine_fingerprint(), DECLARED, header, cython,
                                     sys.version, repr(sorted(DIRECTIVES.items())), OPTIMIZE, *FLAGS, repr(LINES),
                                     repr(SAMPLE)]).encode()).hexdigest()


_fingerprint: list[str] = []   # (the package's sources read once a process)


def engine_fingerprint() -> str:
    """The SHA-256 of the interpreter package's Python sources, which write a module in the
    compiler's dialect (every mechanic's code generation, expr/names.py's spelling): an edit of
    any of them may change the text compiled for the same module, so it changes the key."""
    if not _fingerprint:
        found = digest(sorted(str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")))
        if found is None:
            raise BuildError(f"cannot read the engine's sources in {PACKAGE}")
        _fingerprint.append(found)
    return _fingerprint[0]


def _written(rules, written) -> str:
    """The text to compile: ``written()``'s, the ruleset built again in the compiler's dialect
    (only when no module of its key is cached), else the module that runs."""
    if written is None:
        return rules.module_source
    try:
        return written()
    except Exception as e:   # (the ruleset built again in another dialect: whatever fails, Python runs)
        raise BuildError(f"its module could not be written for the compiler: {type(e).__name__}: {e}") from None


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise BuildError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except ImportError as e:   # a file from another Python, or damaged
        raise BuildError(f"cannot load {path}: {e}") from None
    return module


def free_names(text: str) -> list[str]:
    """The global names ``text``'s functions read that it does not define (the flow's namespace
    and the expressions': steps, tables, helpers)."""
    top = symtable.symtable(text, "<module>", "exec")
    defined = {s.get_name() for s in top.get_symbols() if s.is_assigned() or s.is_imported()}
    found: set[str] = set()
    todo = [top]
    while todo:
        table = todo.pop()
        found |= {s.get_name() for s in table.get_symbols() if s.is_global() and s.is_referenced()}
        todo += table.get_children()
    return sorted(found - defined - set(dir(builtins)))


def _spaces(rules) -> list[dict]:
    """The namespaces the ruleset's generated functions run in: the flow's, and the one its
    expressions and effects were compiled in."""
    spaces: list[dict] = []
    for fn in (rules.advance, *rules.runs, *rules.resolves, *rules.end_checks):
        ns = getattr(fn, "__globals__", None)
        if isinstance(ns, dict) and all(ns is not s for s in spaces):
            spaces.append(ns)
    return spaces + [rules.names.namespace]


def _functions(text: str) -> tuple[dict, dict]:
    """A module's functions: {name: (first line, last line)}, {name: the names it uses}, from
    its compiled code (the top-level functions' code, and the code each holds: a
    comprehension's, a lambda's)."""
    defs, calls = {}, {}
    for code in compile(text, "<module>", "exec").co_consts:
        if hasattr(code, "co_firstlineno"):
            inner, last, used = [code], code.co_firstlineno, set()
            while inner:
                c = inner.pop()
                last = max([last, *(end for _, end, _, _ in c.co_positions() if end is not None)])
                used.update(c.co_names)
                inner += [k for k in c.co_consts if hasattr(k, "co_firstlineno")]
            defs[code.co_name], calls[code.co_name] = (code.co_firstlineno, last), used
    return defs, calls


def hot_source(rules, text: str, budget: int, written: str | None = None) -> str:
    """``text`` (the module; or ``written``, the same module in another dialect) with only its
    hot functions left: those that ran in ``SAMPLE`` decisions of random play, profiled, the
    most time a line first (a comprehension's counted to the function it is in), up to
    ``budget`` lines; the other lines blank, so that the numbers stay. The functions left out
    are free names of the compiled module: it calls them as Python."""
    import cProfile
    defs, calls = _functions(text)
    profile = cProfile.Profile()
    try:
        profile.runcall(_play, rules)
    except Exception as e:   # (a ruleset that fails in random play: its own checks say where)
        raise BuildError(f"its random play, profiled to find its hot functions, failed: {e}") from None
    profile.create_stats()
    rows = profile.stats.items()   # type: ignore[attr-defined]
    # a function of the module: its name and first line, in a file of generated code ("<...>");
    # a comprehension: a code of the same file within its lines
    files = {(where, name) for (where, line, name), _ in rows
             if where.startswith("<") and name in defs and defs[name][0] == line}
    spent: dict[str, float] = {}
    for (where, line, name), row in rows:
        owner = name if (where, name) in files and defs[name][0] == line else next(
            (n for n, (first, last) in defs.items() if first < line <= last and (where, n) in files), None)
        if owner is not None:
            spent[owner] = spent.get(owner, 0.0) + row[2]   # (its own time)
    # a compiled function runs only where use_compiled puts it in place (the loop, a step's run
    # or resolve) or where another compiled function calls it: one of these, or nothing
    spaces = _spaces(rules)
    kept = {fn.__name__ for fn in (rules.advance, rules.apply_index, *rules.runs, *rules.resolves)}
    kept |= {_name(fn, spaces) for fn in _taken(rules)} - {None}   # (and what steps call themselves)
    order = sorted(spent, key=lambda n: (-spent[n] / (defs[n][1] - defs[n][0] + 1), n))   # (the most time a line first)
    lines, chosen = set[int](), set[str]()
    for name in ("apply_index", "advance"):   # (first: the compiled loop runs behind the compiled apply_index)
        if name in defs and len(lines) + defs[name][1] - defs[name][0] + 1 <= budget:
            chosen.add(name)
            lines.update(range(defs[name][0] - 1, defs[name][1]))
    aliases = {n: a for n in set().union(*calls.values()) if (a := _aliased(n, spaces, defs)) is not None}
    while True:   # the hottest function reached that fits in what is left of the budget, in turn
        reached = kept.union(*(calls[c] for c in chosen))
        reached |= {aliases[n] for n in reached if n in aliases}   # (use_compiled binds the alias)
        fits = [n for n in order if n not in chosen and n in reached
                and len(lines) + defs[n][1] - defs[n][0] + 1 <= budget]
        if not fits:
            break
        chosen.add(fits[0])
        lines.update(range(defs[fits[0]][0] - 1, defs[fits[0]][1]))
    # a function left out that the flow's namespaces do not hold (run by the engine from elsewhere,
    # as a ruleset's setup is) is compiled with the functions that call it
    out = (text if written is None else written).splitlines()
    while True:
        hot = "\n".join(line if i in lines else "" for i, line in enumerate(out))
        missing = [n for n in free_names(hot) if n in defs and all(n not in ns for ns in spaces)]
        if not missing:
            return hot
        for name in missing:
            lines.update(range(defs[name][0] - 1, defs[name][1]))


def _aliased(name: str, spaces: list[dict], defs) -> str | None:
    """The function of the module (one of ``defs``) that ``name``, a name of another, stands for
    in the namespaces (the flow's ``END0``: an end condition's ``end_when_0``), if any."""
    if name in defs:
        return None
    target = _name(next((ns[name] for ns in spaces if name in ns), None), spaces)
    return target if target in defs else None


def _play(rules) -> None:
    """``SAMPLE`` decisions of uniformly random play, game after game (seeded: the same games
    each time), of the middle player count, else the nearest its requirements accept."""
    rnd = random.Random(0)
    counts, refused = rules.player_counts, {n for _, n, _ in default_failures(rules)}   # (requires:)
    accepted = [n for n in counts if n not in refused] or counts   # the middle count, else the nearest accepted
    players = min(accepted, key=lambda n: abs(counts.index(n) - len(counts) // 2))
    decisions = seed = 0
    while decisions < SAMPLE:
        S = rules.new_game(players, seed=seed)
        while not S.over and decisions < SAMPLE:
            S.apply_index(rnd.randrange(len(S.dec[1])))
            decisions += 1
        seed += 1


def _globals_of(rules, module) -> dict:
    """What each free name of the module stands for: the flow's namespace, else the namespace
    its expressions and effects were compiled in. A name the two give different values stops
    the compiled module from being used (its functions share one namespace)."""
    spaces = _spaces(rules)
    out = {}
    for name in module.__dict__["__free__"]:
        values = [ns[name] for ns in spaces if name in ns]
        if not values:
            raise BuildError(f"the compiled module reads {name!r}, which the ruleset does not define")
        if any(v is not values[0] for v in values[1:]):
            raise BuildError(f"the name {name!r} means two things in the ruleset's generated code")
        out[name] = values[0]
    return out


def _say(reason: str) -> None:
    if reason not in _said:
        _said.add(reason)
        print(f"rulebook: the ruleset's compiled module is not used ({reason}); the Python one runs",
              file=sys.stderr)
