"""The package's layout is the pipeline: each folder a stage, importing only from the stages
below it, no import circles, no giant modules (docs/architecture.md)."""
from __future__ import annotations

import ast
from pathlib import Path

import re

import interpreter

PACKAGE = Path(interpreter.__file__).parent
ARCHITECTURE = PACKAGE.parent / "docs" / "architecture.md"


def _stages() -> tuple[str, ...]:
    """The stages, lowest first, as docs/architecture.md's table lists them (written once,
    there): ``| 3 | `engine/` | ...``. A module may import from its own stage and earlier ones."""
    rows = re.findall(r"^\| (\d+) \| `(\w+)(?:/|\.py)` \|", ARCHITECTURE.read_text(), flags=re.M)
    assert [int(n) for n, _ in rows] == list(range(len(rows))), "the stage table is numbered 0, 1, 2..."
    return tuple(name for _, name in rows)


STAGES = _stages()
# errors.py is the foundation every stage raises from; the package's __init__ is the facade
# over the whole pipeline (it may import anything, and nothing inside imports it).
FACADE = ("__init__", "__main__")
MAX_LINES = 500


def _modules() -> dict[str, Path]:
    out = {}
    for f in sorted(PACKAGE.rglob("*.py")):
        parts = list(f.relative_to(PACKAGE).with_suffix("").parts)
        if parts[-1] == "__init__" and len(parts) > 1:
            parts = parts[:-1]
        out[".".join(parts)] = f
    return out


MODULES = _modules()


def _stage(module: str) -> str:
    return module.split(".")[0]


def _imports(module: str, path: Path) -> list[tuple[str, int]]:
    """Every module of the package that ``module`` imports (at the top or inside a function);
    not the imports under ``if TYPE_CHECKING:``, which only the type checker runs."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            node.body = []
    is_pkg = path.name == "__init__.py"
    here = module.split(".") if module not in FACADE else []
    package = here if is_pkg else here[:-1]
    found = []
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - (node.level - 1)] if node.level > 1 else package
                target = ".".join([*base, *([node.module] if node.module else [])])
            elif (node.module or "").startswith("interpreter"):
                target = node.module[len("interpreter."):] if node.module != "interpreter" else ""
            else:
                continue
            for alias in node.names:   # `from . import x` names a module
                sub = f"{target}.{alias.name}" if target else alias.name
                targets.append(sub if sub in MODULES else target)
        elif isinstance(node, ast.Import):
            targets = [a.name[len("interpreter."):] if a.name != "interpreter" else "__init__"
                       for a in node.names if a.name == "interpreter" or a.name.startswith("interpreter.")]
        for t in targets:
            if t in ("", "__init__"):
                t = "__init__"
            found.append((t, node.lineno))
    return found


def test_the_stage_table_names_every_folder():
    folders = sorted(p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists())
    assert STAGES[0] == "errors" and sorted(STAGES[1:]) == folders


def test_every_module_belongs_to_a_stage():
    strays = [m for m in MODULES if _stage(m) not in STAGES and m not in FACADE]
    assert not strays, f"modules outside the stage folders {STAGES}: {strays}"


def test_no_stage_imports_a_higher_stage_or_the_facade():
    order = {s: i for i, s in enumerate(STAGES)}
    upward = []
    for module, path in MODULES.items():
        if module in FACADE:
            continue
        for target, line in _imports(module, path):
            if target in FACADE:
                upward.append(f"{path.relative_to(PACKAGE)}:{line}: imports the package facade (interpreter/__init__)")
            elif order[_stage(target)] > order[_stage(module)]:
                upward.append(f"{path.relative_to(PACKAGE)}:{line}: {_stage(module)} imports {target} "
                              f"({_stage(target)} is a later stage)")
    assert not upward, "a lower stage reaches up:\n" + "\n".join(upward)


def test_no_import_cycles():
    graph = {m: sorted({t for t, _ in _imports(m, p) if t in MODULES and t != m}) for m, p in MODULES.items()}
    state: dict[str, int] = {}
    cycles = []

    def visit(m, trail):
        state[m] = 1
        for t in graph[m]:
            if state.get(t) == 1:
                cycles.append(" -> ".join([*trail[trail.index(t):], t]))
            elif t not in state:
                visit(t, [*trail, t])
        state[m] = 2

    for m in graph:
        if m not in state:
            visit(m, [m])
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_no_module_is_a_giant():
    big = {str(p.relative_to(PACKAGE)): n for p in MODULES.values()
           if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert not big, f"modules over {MAX_LINES} lines (split them by job): {big}"


# words only the seed games use (their zones, counters and pieces): the interpreter is generic,
# so a game's vocabulary in its code means a special case (a path to a document may name one)
SEED_WORDS = re.compile(r"\b(diamonds?|diams|jewel\w*|gems?|thief|showroom|fakes?)\b", re.IGNORECASE)


def test_the_interpreter_speaks_no_seed_games_words():
    found = [f"{p.relative_to(PACKAGE)}:{i}: {line.strip()}" for p in MODULES.values()
             for i, line in enumerate(p.read_text().splitlines(), 1)
             if SEED_WORDS.search(re.sub(r"docs/\S+", "", line))]
    assert not found, "seed-game words inside interpreter/:\n" + "\n".join(found)


def test_no_two_modules_share_a_name():
    """A module's name says its job once in the package: two ``coverage.py`` in different
    rooms send a reader (and a grep) to the wrong one."""
    by_name: dict[str, list[str]] = {}
    for module, path in MODULES.items():
        if path.name != "__init__.py" and module not in FACADE:
            by_name.setdefault(path.stem, []).append(module)
    twice = {name: mods for name, mods in by_name.items() if len(mods) > 1}
    assert not twice, f"modules of one name: {twice}"


def test_the_checker_resolves_relative_imports(tmp_path):
    """The check itself works: relative imports resolve to the module they name."""
    fake = tmp_path / "x.py"
    fake.write_text("from ..tools.cli import main\nfrom . import rng\nimport interpreter\n"
                    "def f():\n    from ..mechanics.base import Step\n")
    assert _imports("engine.x", fake) == [("tools.cli", 1), ("engine.rng", 2), ("__init__", 3), ("mechanics.base", 5)]


def _own_step_classes():
    import interpreter  # noqa: F401  (registers every step kind)
    from interpreter.mechanics.base import Step
    seen, todo = [], [Step]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            if sub.__module__.startswith("interpreter.") and sub not in seen:
                seen.append(sub)
                todo.append(sub)
    return seen


def test_each_step_kind_defines_its_behaviour_once():
    """A step kind that writes its run (or resolve) as Python source (building/flowgen.py) has no
    method doing the same: the generator, with ``g.plain``, is also the reference, so a rule is
    fixed in one place and the lockstep tests compare specialised with plain code."""
    from interpreter.mechanics.base import Step
    twice = []
    for cls in _own_step_classes():
        for method, source in (("run", "flow_source"), ("resolve", "resolve_source")):
            writes = getattr(cls, source) is not getattr(Step, source)
            defines = getattr(cls, method) is not getattr(Step, method)
            if writes and defines:
                twice.append(f"{cls.__module__}.{cls.__name__}: {method} and {source}")
    assert len(_own_step_classes()) > 15 and not twice, twice


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _privates_defined(tree) -> set[str]:
    """The private names a module defines: its functions and classes (at any depth), what it
    assigns to ``self._x`` or ``cls._x``, and a class body's ``_x = ...`` or ``_x: T``."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    targets = item.targets if isinstance(item, ast.Assign) else [item.target] \
                        if isinstance(item, ast.AnnAssign) else []
                    out |= {t.id for t in targets if isinstance(t, ast.Name)}
        elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
              and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            out.add(node.attr)
    return {n for n in out if _private(n)}


def _private_reach_ins(path: Path) -> list[str]:
    """What counts as reading another object's private member: ``x._name`` (one leading
    underscore, not a dunder) where ``x`` is not the bare ``self`` or ``cls`` and this module
    defines no ``_name`` of its own (so a class may read the private parts of another instance
    of itself, in its own module); the same read spelt ``getattr(x, "_name")`` (or ``hasattr``,
    ``setattr``, ``delattr``); and ``from M import _name``. Generated code (text) is not read."""
    tree = ast.parse(path.read_text())
    own = _privates_defined(tree)
    found = []

    def outside(obj) -> bool:
        return not (isinstance(obj, ast.Name) and obj.id in ("self", "cls"))

    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in own:
            if outside(node.value):
                found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "hasattr", "setattr", "delattr") and len(node.args) >= 2
              and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)
              and _private(node.args[1].value) and node.args[1].value not in own and outside(node.args[0])):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            found += [f"{node.lineno}: from {module} import {a.name}" for a in node.names if _private(a.name)]
    return found


def test_no_module_reads_another_objects_private_members():
    """A member whose name starts with one underscore belongs to its class (or module): another
    module reads it through a public, documented name (the mechanic contract:
    mechanics/contract.py), so that a class can change its insides without breaking a caller."""
    found = {str(p.relative_to(PACKAGE)): hits for p in MODULES.values() if (hits := _private_reach_ins(p))}
    assert not found, f"private members read from outside their module: {found}"


def test_the_private_member_check_finds_reach_ins(tmp_path):
    """The check itself: a read of another object's private member is found, one's own is not."""
    fake = tmp_path / "x.py"
    fake.write_text("from .y import _hidden\n"
                    "class A:\n    _table = {}\n    def __init__(self):\n        self._mine = 1\n"
                    "    def f(self, other, fx):\n        return other._mine, self._table, fx._spec, A._table\n"
                    "    def g(self, fx):\n        return getattr(fx, '_spec', None), getattr(self, '_spec', 0), "
                    "hasattr(fx, '_mine')\n")
    assert _private_reach_ins(fake) == ["1: from .y import _hidden", "7: fx._spec",
                                        "9: getattr(fx, '_spec', None)"]


# Generated Python is never read back as text: what an analysis or a rewrite needs of it is
# noted while it is written (interpreter/expr/access.py, interpreter/expr/code.py). The check is
# on imports: parsing Python source takes `ast`, matching it takes `re`. No module imports
# `ast`, and a module may import `re` only if it is named here with the text its patterns read
# (none of it generated code). STILL_READ_GENERATED names the modules that still parse or match
# generated source (mechanics/, another stage's work); the list may only shrink: a module
# named there that no longer imports `re` or `ast` fails too, so that it is struck off.
READS_OTHER_TEXT = {
    "errors": "line breaks in a ruleset's text",
    "loading.source": "YAML scalars (numbers, booleans, null)",
    "loading.schema": "the schema's key patterns, on YAML keys",
    "building.components": "a component's attribute ranges as written (1..12)",
    "building.view_hints": "colours in view: hints",
    "expr.messages": "Python's TypeError messages, told in the language's words",
    "tools.web": "a host name given on the command line",
    "tools.explain": "whitespace in a ruleset's text",
    "tools.batches": "a batch's names, made file names",
    "play.logs.gamelog": "a log line's bytes: its texts taken out, to count the JSON values the rest can make",
    "play.logs.replay": "a log's bytes: whether any text follows a line (is it the last, perhaps truncated)",
    "lsp.as_names": "an expression being written in an editor's buffer (it need not parse): its brackets, commas and `as x where`",
    "lsp.checking": "an editor's buffer: whether it starts a ruleset (game: or extends:)",
    "lsp.completion": "the text before the cursor in an editor's buffer; the reference's signatures",
    "lsp.diagnostics": "a diagnostic's hint (did you mean 'X'?)",
    "lsp.hover": "the reference's Markdown tables",
    "lsp.navigation": "names in an editor's buffer (a ruleset's YAML and expressions as written)",
    "lsp.positions": "YAML keys and words in an editor's buffer",
}
STILL_READ_GENERATED: dict[str, str] = {}


def _parses_or_matches(path: Path) -> set[str]:
    """Which of ast and re a module imports (at the top or inside a function)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in ("ast", "re")}
        elif isinstance(node, ast.ImportFrom) and node.module in ("ast", "re") and not node.level:
            found.add(node.module)
    return found


def test_no_module_reads_generated_source_as_text():
    wrong = []
    for module, path in MODULES.items():
        used = _parses_or_matches(path)
        if module in STILL_READ_GENERATED:
            if not used:
                wrong.append(f"{module}: no longer parses nor matches: strike it off STILL_READ_GENERATED")
        elif "ast" in used:
            wrong.append(f"{module}: imports ast (what it needs of generated code is noted as it is written)")
        elif "re" in used and module not in READS_OTHER_TEXT:
            wrong.append(f"{module}: imports re: name the text its patterns read in READS_OTHER_TEXT, "
                         "or note what it needs while the code is written")
    stale = [m for m in READS_OTHER_TEXT if m not in MODULES or "re" not in _parses_or_matches(MODULES[m])]
    assert not wrong and not stale, "\n".join(wrong + [f"{m}: listed, imports no re" for m in stale])


# Nor is generated Python rewritten as text: a name the code should read is told to the
# compiler (a local bound to its source: Compiler.compile_element's ``bound``). The check: no
# ``.replace(`` whose text to find spells the state or the locals as generated code reads
# them (``S.``, ``L[``).
GENERATED_SPELLINGS = ("S.", "L[")


def _generated_text_rewrites(path: Path) -> list[str]:
    """The lines of ``path`` calling ``.replace(`` on a literal text spelling generated code
    (an f-string by its constant parts)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "replace" and node.args):
            continue
        parts = node.args[0].values if isinstance(node.args[0], ast.JoinedStr) else [node.args[0]]
        text = "".join(p.value for p in parts if isinstance(p, ast.Constant) and isinstance(p.value, str))
        if any(spelling in text for spelling in GENERATED_SPELLINGS):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_module_rewrites_generated_source_as_text():
    wrong = [f"{module}:{line}" for module, path in MODULES.items() for line in _generated_text_rewrites(path)]
    assert not wrong, "\n".join(wrong)


def test_the_rewrite_check_sees_literals_and_f_strings(tmp_path):
    fake = tmp_path / "x.py"
    fake.write_text("a = src.replace(\"L['neighbours']\", '_nb')\nb = src.replace(f\"S.c[{n!r}]\", 'x')\n"
                    "c = name.replace('_', ' ')\nd = code.replace(co_filename='x')\n")
    assert [line.split(":")[0] for line in _generated_text_rewrites(fake)] == ["1", "2"]


# Generated code names the state's tables (zones, counters, variables) and its copy-on-write
# checks through expr/names.py alone (``zone_ref``, ``counter_ref``, ``var_ref``, ``writable``,
# ``owning``...), so that the state's layout changes in one place. The check: no text literal
# elsewhere in the stages that generate code spells ``S.z``, ``S.c``, ``S.v``, ``S.sh``,
# ``S.own(`` or ``S.`` followed by a computed name (an f-string's ``S.{kind}``); docstrings
# aside. The adapters and play/ read whole tables as generic readers do.
STATE_SPELLING = re.compile(r"\bS\.(?:[zcv]\b|sh\b|own\()")
SPELLS_THE_STATE = ("expr.names",)   # the one place
SPELLING_STAGES = ("engine", "expr", "building", "mechanics")


def _state_spellings(path: Path) -> list[str]:
    """The lines of ``path`` whose text literals (an f-string by each constant part) spell a
    table of the state or its copy-on-write check as generated code reads them."""
    tree = ast.parse(path.read_text())
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):   # S.{kind}[...]: a constant part ends where a value follows
            parts = node.values
            found += [f"{node.lineno}: {ast.unparse(node)}" for a, b in zip(parts, parts[1:])
                      if isinstance(a, ast.Constant) and isinstance(b, ast.FormattedValue)
                      and re.search(r"\bS\.$", str(a.value))]
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
              and STATE_SPELLING.search(node.value)):
            found.append(f"{node.lineno}: {node.value!r}")
    return found


def test_only_expr_names_spells_the_state_for_generated_code():
    wrong = [f"{module}:{line}" for module, path in MODULES.items()
             if _stage(module) in SPELLING_STAGES and module not in SPELLS_THE_STATE
             for line in _state_spellings(path)]
    assert not wrong, "spell these through expr/names.py (zone_ref, counter_ref, var_ref, own_call...):\n" + \
        "\n".join(wrong)


def test_the_spelling_check_sees_literals_and_f_strings(tmp_path):
    fake = tmp_path / "x.py"
    fake.write_text('"""S.z in a docstring."""\na = f"S.z[{n!r}]"\nb = "if S.sh: S.own(\'x\')"\n'
                    'c = f"S.{kind}[{n!r}]"\nd = "S.dec"\ne = S.z[name]\nf = f"S.v[{k}]"\ng = "v = S.v"\n')
    assert sorted(int(line.split(":")[0]) for line in _state_spellings(fake)) == [2, 3, 4, 7, 8]


def test_the_text_check_sees_every_form_of_import(tmp_path):
    fake = tmp_path / "x.py"
    fake.write_text("import os, ast\ndef f():\n    from re import compile\n")
    assert _parses_or_matches(fake) == {"ast", "re"}
    fake.write_text("from .re import x\nimport reader\n")
    assert _parses_or_matches(fake) == set()
