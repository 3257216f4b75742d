"""A ruleset's generated module (building/listing.py, what ``rulebook compile`` prints) compiled
by Cython into an extension module, cached by its text's hash in the cache folder
(``$XDG_CACHE_HOME/rulebook/compiled``), and its game loop, runs and resolves put in place of
the Python ones (``use_compiled``), when asked: ``load(path, compiled=True)``, or
``RULEBOOK_COMPILED=1`` in the environment (building/__init__.py).

Off by default: the first compile of a seed ruleset takes from about a minute to several on the
development machine, far over the 10 s a first load may cost, for a few percent fewer
instructions a game (docs/performance.md "The compiled tier"). When it cannot be used (no C
compiler, no Cython, a cache folder that cannot be written, a compile that fails) the reason is
shown once and the ruleset runs as built.
"""
from __future__ import annotations

import builtins
import hashlib
import importlib.util
import os
import shutil
import sys
import symtable
import tempfile
from pathlib import Path

from ..loading.resources import cache_file
from .build import DIRECTIVES, EXTENSION_SUFFIXES, BuildError, compile_file

# the C compiler's optimisation of a ruleset's module (its first compile's time is most of a
# first load's; benchmarks/compiled_tier.py --optimize measures the trade)
OPTIMIZE = "-O2"
_said: set[str] = set()     # the reasons already shown in this process (each once)
_loaded: set[str] = set()   # the modules loaded from the cache in this process


def use_compiled(rules) -> bool:
    """Run ``rules``' flow (its game loop, each step's run and resolve) from its compiled module,
    compiling it first when it is not cached. False, with the reason shown once, when it cannot."""
    try:
        module = compiled_module(rules)
        names = _globals_of(rules, module)
    except BuildError as e:
        _say(str(e))
        return False
    module.__dict__.update(names)
    ns = module.__dict__
    runs = tuple(ns.get(f"R{s.index}", fn) for s, fn in zip(rules.steps, rules.runs))
    ns["RUNS"] = runs
    resolves = tuple(ns.get(f"Q{s.index}", fn) for s, fn in zip(rules.steps, rules.resolves))
    for key, value in (("runs", runs), ("resolves", resolves), ("advance", ns["advance"])):
        object.__setattr__(rules, key, value)   # (a frozen Ruleset: the same functions, compiled)
    return True


def compiled_module(rules):
    """The extension module of ``rules.module_source``, from the cache or compiled now."""
    try:
        from Cython import __version__ as cython
    except ImportError:
        raise BuildError("Cython is not installed (pip install 'rulebook-engine[fast]')") from None
    text = rules.module_source
    free = free_names(text)
    key = hashlib.sha256("\n".join([text, cython, sys.version, repr(sorted(DIRECTIVES.items())), OPTIMIZE]).encode()
                         ).hexdigest()
    name = f"rulebook_{key[:24]}"
    place = cache_file("compiled")
    if place is None:
        raise BuildError("the cache folder ($XDG_CACHE_HOME/rulebook, else ~/.cache/rulebook) cannot be written"
                         " or is not this user's alone")
    folder = Path(place)
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
    except OSError as e:
        raise BuildError(f"cannot make the cache folder {folder}: {e.strerror}") from None
    found = _extension(folder, name)
    if found is None:
        # (a command asked for it with RULEBOOK_COMPILED=1 would otherwise seem to hang)
        print(f"rulebook: compiling {getattr(rules, 'name', 'the ruleset')}'s module to C, once (seconds to minutes;"
              f" cached in {folder})", file=sys.stderr)
        # the free names declared at the end (Cython refuses a global it never sees assigned;
        # use_compiled sets them): the lines above keep the numbers `rulebook compile` shows
        source = text + "\n\n# names the loader sets (interpreter/accel/rulesets.py)\n" + \
            (" = ".join(free) + " = None\n" if free else "")
        with tempfile.TemporaryDirectory(prefix="rulebook-ruleset-") as tmp:
            src = Path(tmp) / f"{name}.py"
            src.write_text(source)
            built = compile_file(src, name, Path(tmp), OPTIMIZE)
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
    module.__dict__["__free__"] = free
    return module


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


def _globals_of(rules, module) -> dict:
    """What each free name of the module stands for: the flow's namespace, else the namespace
    its expressions and effects were compiled in. A name the two give different values stops
    the compiled module from being used (its functions share one namespace)."""
    spaces: list[dict] = []
    for fn in (rules.advance, *rules.runs, *rules.resolves, *rules.end_checks):
        ns = getattr(fn, "__globals__", None)
        if isinstance(ns, dict) and all(ns is not s for s in spaces):
            spaces.append(ns)
    spaces.append(rules.names.namespace)
    out = {}
    for name in module.__dict__["__free__"]:
        values = [ns[name] for ns in spaces if name in ns]
        if not values:
            raise BuildError(f"the compiled module reads {name!r}, which the ruleset does not define")
        if any(v is not values[0] for v in values[1:]):
            raise BuildError(f"the name {name!r} means two things in the ruleset's generated code")
        out[name] = values[0]
    return out


def _extension(folder: Path, name: str) -> Path | None:
    for suffix in EXTENSION_SUFFIXES:
        if (folder / (name + suffix)).is_file():
            return folder / (name + suffix)
    return None


def _say(reason: str) -> None:
    if reason not in _said:
        _said.add(reason)
        print(f"rulebook: the ruleset's compiled module is not used ({reason}); the Python one runs",
              file=sys.stderr)
