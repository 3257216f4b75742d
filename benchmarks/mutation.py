#!/usr/bin/env python3
"""Mutation benchmark: how many single-point bugs the tests catch, by area.

    nice -n 10 python benchmarks/mutation.py --per-area 40 --seed 1 [--areas engine,visibility]
                                             [--timeout 120] [--list]

The tree is copied to a temporary folder (the worktree is never touched); in the copy, one
mutant at a time is written, the area's tests run (``pytest -x -q -p no:cacheprovider``, under a
time bound), and the file is restored. A mutant is *caught* when the tests fail or time out,
*survives* when they pass. Python mutants are made with ``ast`` (an operator swapped, a
comparison flipped, a whole number off by one, a boolean or a condition negated, ``and``/``or``
swapped, a statement deleted); ruleset mutants are made on the YAML text (a number + 1, a
comparison flipped inside an expression, a condition negated). ``--per-area`` mutants are drawn
per area with ``--seed`` from every candidate of the area, so a run is repeatable.

Mutants listed in benchmarks/mutation_equivalent.txt (``path:line:col: mutation | why``) behave
exactly like the original: they are left out of the score. Prints the score per area and
overall and every survivor as ``path:line:col: mutation``. Exit status 1 when a survivor is left.
"""
from __future__ import annotations

import argparse
import ast
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENT = Path(__file__).resolve().parent / "mutation_equivalent.txt"

# area -> (files, tests run for each of its mutants)
AREAS: dict[str, tuple[list[str], list[str]]] = {
    "engine": (["interpreter/engine/loop.py", "interpreter/engine/rng.py", "interpreter/engine/ruleset.py",
                "interpreter/engine/saved.py", "interpreter/engine/state.py", "interpreter/engine/protocol.py"],
               ["tests/test_engine_direct.py", "tests/test_rules_direct.py", "tests/test_mechanics.py", "tests/test_saved_states.py",
                "tests/test_rng.py", "tests/test_errors.py", "tests/test_sorted_zones.py", "tests/test_map_params.py",
                "tests/test_visibility_rules.py", "tests/test_simultaneous.py", "tests/test_clone.py", "tests/test_flowgen.py",
                "tests/test_trajectories.py", "tests/test_diamonds.py", "tests/test_diams.py"]),
    "mechanics": (["interpreter/mechanics/*.py"],
                  ["tests/test_effects_direct.py", "tests/test_mechanics_direct.py", "tests/test_rules_direct.py", "tests/test_mechanics.py", "tests/test_tricks_follow.py",
                   "tests/test_tricks_playable.py", "tests/test_market_mechanics.py",
                   "tests/test_dexterity_mechanics.py", "tests/test_club_mechanics.py",
                   "tests/test_counter_families.py", "tests/test_counter_set_and_pay_to.py",
                   "tests/test_deal.py", "tests/test_sorted_zones.py", "tests/test_trajectories.py",
                   "tests/test_diams_lockstep.py", "tests/test_diamonds_club_lockstep.py",
                   "tests/test_golden_errors.py", "tests/test_flowgen.py", "tests/test_actions.py",
                   "tests/test_simultaneous.py", "tests/test_trick_keys.py", "tests/test_move_count.py"]),
    "expr": (["interpreter/expr/*.py"],
             ["tests/test_expr_direct.py", "tests/test_runtime_messages.py", "tests/test_expressions.py", "tests/test_statements.py", "tests/test_if_none.py",
              "tests/test_defines_in_context.py", "tests/test_counter_families.py", "tests/test_map_params.py",
              "tests/test_golden_errors.py", "tests/test_rules_direct.py", "tests/test_mechanics.py",
              "tests/test_fuzz_expressions.py", "tests/test_trajectories.py"]),
    "build": (["interpreter/building/*.py"],
              ["tests/test_build_direct.py", "tests/test_effects_direct.py", "tests/test_rules_direct.py", "tests/test_mechanics.py",
               "tests/test_flowgen.py",
               "tests/test_step_if.py", "tests/test_watch.py", "tests/test_tricks_follow.py",
               "tests/test_trajectories.py", "tests/test_diams_lockstep.py",
               "tests/test_diamonds_club_lockstep.py", "tests/test_coverage.py", "tests/test_golden_errors.py",
               "tests/test_explain.py", "tests/test_counter_families.py", "tests/test_compile.py",
               "tests/test_hardening.py", "tests/test_source.py"]),
    "visibility": (["interpreter/engine/visibility.py", "interpreter/play/logs/redact.py", "interpreter/engine/sight.py",
                    "interpreter/engine/observation.py", "interpreter/engine/knowledge.py",
                    "interpreter/adapters/tensors.py", "interpreter/adapters/*encoder*.py", "interpreter/web/games.py"],
                   ["tests/test_visibility_rules.py", "tests/test_visibility_model.py", "tests/test_secrets.py",
                    "tests/test_redaction.py", "tests/test_tensors.py",
                    "tests/test_determinize.py", "tests/test_web.py", "tests/test_logs.py",
                    "tests/test_gamelog.py", "tests/test_rl.py"]),
    "rulesets": (["rulesets/*.yaml"],
                 ["tests/test_seed_invariants.py", "tests/test_trajectories.py", "tests/test_diamonds.py", "tests/test_diams.py",
                  "tests/test_mister_diamond.py", "tests/test_diamonds_club.py", "tests/test_club_mechanics.py",
                  "tests/test_diams_lockstep.py", "tests/test_diamonds_club_lockstep.py",
                  "tests/test_mister_diamond_lockstep.py", "tests/test_playthroughs.py", "tests/test_classics.py"]),
}


@dataclass(frozen=True)
class Mutant:
    path: str          # relative to the tree
    line: int
    col: int           # of the replaced text, from 1 (two mutants of one line differ by it)
    what: str          # e.g. "< -> >=", "delete statement", "5 -> 6"
    start: int         # character offsets of the replaced text in the file
    end: int
    new: str

    @property
    def key(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.what}"


# ---------------------------------------------------------------------- Python mutants
SWAP_BIN = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
            ast.Div: ast.Mult, ast.Mod: ast.FloorDiv, ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd,
            ast.LShift: ast.RShift, ast.RShift: ast.LShift, ast.BitXor: ast.BitOr}
FLIP_CMP = {ast.Lt: ast.GtE, ast.GtE: ast.Lt, ast.Gt: ast.LtE, ast.LtE: ast.Gt, ast.Eq: ast.NotEq,
            ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
EDGE_CMP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt}   # a boundary moved
SYM = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Div: "/", ast.Mod: "%",
       ast.BitAnd: "&", ast.BitOr: "|", ast.LShift: "<<", ast.RShift: ">>", ast.BitXor: "^",
       ast.Lt: "<", ast.GtE: ">=", ast.Gt: ">", ast.LtE: "<=", ast.Eq: "==", ast.NotEq: "!=",
       ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not"}


def _offsets(text: str) -> list[int]:
    out, n = [0], 0
    for line in text.splitlines(keepends=True):
        n += len(line)
        out.append(n)
    return out


def _skipped(tree: ast.AST) -> set[int]:
    """Nodes not to mutate: docstrings, f-strings (their parts have no reliable source span),
    type annotations and `if TYPE_CHECKING`/`__name__` guards."""
    skip: set[int] = set()

    def mark(node):
        for sub in ast.walk(node):
            skip.add(id(sub))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                mark(first)
        if isinstance(node, ast.JoinedStr):
            mark(node)
        if isinstance(node, (ast.arg, ast.AnnAssign)) and node.annotation is not None:
            mark(node.annotation)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None:
            mark(node.returns)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            mark(node)
    return skip


def python_mutants(root: Path, rel: str) -> list[Mutant]:
    text = (root / rel).read_text()
    tree = ast.parse(text)
    offs = _offsets(text)
    skip = _skipped(tree)
    out: list[Mutant] = []

    def span(node):
        return offs[node.lineno - 1] + node.col_offset, offs[node.end_lineno - 1] + node.end_col_offset

    def add(node, what, new_node=None, new_text=None):
        start, end = span(node)
        if new_text is None:
            new_text = "(" + ast.unparse(new_node) + ")"
        out.append(Mutant(rel, node.lineno, node.col_offset + 1, what, start, end, new_text))

    def clone(node):
        return ast.parse(ast.unparse(node), mode="eval").body

    for node in ast.walk(tree):
        if id(node) in skip or not hasattr(node, "lineno"):
            continue
        if isinstance(node, ast.BinOp) and type(node.op) in SWAP_BIN:
            new = clone(node)
            new.op = SWAP_BIN[type(node.op)]()
            add(node, f"{SYM[type(node.op)]} -> {SYM[type(new.op)]}", new)
        elif isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in FLIP_CMP:
            op = type(node.ops[0])
            for table in (FLIP_CMP, EDGE_CMP):
                if op in table:
                    new = clone(node)
                    new.ops = [table[op]()]
                    add(node, f"{SYM[op]} -> {SYM[table[op]]}", new)
        elif isinstance(node, ast.BoolOp):
            new = clone(node)
            new.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
            add(node, "and -> or" if isinstance(node.op, ast.And) else "or -> and", new)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            add(node, "not removed", new_text="(" + ast.unparse(node.operand) + ")")
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            add(node, f"{node.value} -> {not node.value}", new_text=str(not node.value))
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            add(node, f"{node.value} -> {node.value + 1}", new_text=f"({node.value + 1})")
        elif isinstance(node, ast.AugAssign) and type(node.op) in (ast.Add, ast.Sub):
            new = ast.parse(ast.unparse(node)).body[0]
            new.op = SWAP_BIN[type(node.op)]()
            start, end = span(node)
            out.append(Mutant(rel, node.lineno, node.col_offset + 1, f"{SYM[type(node.op)]}= -> {SYM[type(new.op)]}=",
                              start, end, ast.unparse(new)))
        if isinstance(node, (ast.If, ast.While)) and id(node.test) not in skip:
            add(node.test, "condition negated", new_text="(not (" + ast.unparse(node.test) + "))")
        if isinstance(node, (ast.Expr, ast.Assign, ast.AugAssign, ast.Return, ast.Raise, ast.Delete)) \
                and not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
            add(node, "statement deleted", new_text="pass")
    return out


# ---------------------------------------------------------------------- ruleset mutants
CONDITION_KEYS = ("if", "when", "where", "until", "skip", "playable", "eligible", "while")
CMP_TEXT = {"<=": ">", ">=": "<", "==": "!=", "!=": "==", "<": ">=", ">": "<="}


def yaml_mutants(root: Path, rel: str) -> list[Mutant]:
    text = (root / rel).read_text()
    offs = _offsets(text)
    out: list[Mutant] = []
    prose = None   # the indentation of a description's or doc's block of prose being skipped
    for i, line in enumerate(text.splitlines()):
        code = line.split(" #", 1)[0]
        indent = len(line) - len(line.lstrip())
        if prose is not None and (not line.strip() or indent > prose):
            continue
        prose = None
        if re.match(r"^\s*-?\s*(description|doc)\s*:\s*[>|]", code):
            prose = indent
        if code.lstrip().startswith("#") or re.match(r"^\s*-?\s*(description|doc|label)\s*:", code):
            continue
        base = offs[i]
        for m in re.finditer(r"(?<![\w.'{])(\d+)(?![\w.'}])", code):
            n = int(m.group(1))
            out.append(Mutant(rel, i + 1, m.start(1) + 1, f"{n} -> {n + 1}", base + m.start(1), base + m.end(1), str(n + 1)))
        for m in re.finditer(r"(<=|>=|==|!=|(?<![-=<>])<(?![=<])|(?<![-=<>])>(?![=>]))", code):
            if m.group(1) in (">", "<") and not re.search(r"[\"']", code[:m.start()]):
                continue   # a YAML block scalar marker, not inside an expression
            out.append(Mutant(rel, i + 1, m.start(1) + 1, f"{m.group(1)} -> {CMP_TEXT[m.group(1)]}", base + m.start(1),
                              base + m.end(1), CMP_TEXT[m.group(1)]))
        m = re.match(r"^(\s*-?\s*(?:%s):\s*)(\"[^\"]+\"|'[^']+')\s*$" % "|".join(CONDITION_KEYS), code)
        if m:
            inner = m.group(2)[1:-1]
            q = m.group(2)[0]
            out.append(Mutant(rel, i + 1, m.start(2) + 1, "condition negated", base + m.start(2), base + m.end(2),
                              f"{q}not ({inner}){q}"))
    return out


# ---------------------------------------------------------------------- running
def equivalents() -> dict[str, str]:
    out = {}
    if EQUIVALENT.exists():
        for line in EQUIVALENT.read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                key, _, why = line.partition(" | ")
                out[key.strip()] = why.strip()
    return out


def area_files(root: Path, patterns: list[str]) -> list[str]:
    files = set()
    for pattern in patterns:
        files.update(str(p.relative_to(root)) for p in root.glob(pattern) if p.name != "__init__.py")
    return sorted(files)


def copy_tree(dest: Path) -> Path:
    tree = dest / "tree"
    ignore = shutil.ignore_patterns(".git", "__pycache__", ".pytest_cache", "*.pyc", "*.egg-info")
    shutil.copytree(ROOT, tree, ignore=ignore)
    return tree


def run_tests(tree: Path, tests: list[str], timeout: float, env: dict) -> tuple[str, float]:
    start = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests],
                            cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        code = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        proc.wait()
        return "timeout", time.monotonic() - start
    return ("passed" if code == 0 else "failed"), time.monotonic() - start


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--per-area", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--areas", default=",".join(AREAS))
    ap.add_argument("--timeout", type=float, default=120, help="seconds per mutant (at least 3x the clean run)")
    ap.add_argument("--list", action="store_true", help="print the drawn mutants and stop")
    ap.add_argument("--only", metavar="FILE", help="run only the drawn mutants whose key (path:line:col: mutation) "
                    "appears in FILE, such as the survivors printed by an earlier run")
    args = ap.parse_args(argv)
    areas = [a for a in args.areas.split(",") if a]
    unknown = [a for a in areas if a not in AREAS]
    if unknown:
        ap.error(f"unknown area {unknown[0]!r}; areas: {', '.join(AREAS)}")
    missing = [f"{area}: {p}" for area in areas for p in [*AREAS[area][0], *AREAS[area][1]] if not any(ROOT.glob(p))]
    if missing:   # a file moved: its area would lose its mutants or its tests without a word
        print("no file matches " + "; ".join(missing), file=sys.stderr)
        return 2
    equiv = equivalents()
    with tempfile.TemporaryDirectory(prefix="rulebook-mutation-") as tmp:
        tree = copy_tree(Path(tmp))
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=str(tree),
                   XDG_CACHE_HOME=str(Path(tmp) / "cache"), PYTHONHASHSEED="0")
        totals = {"caught": 0, "survived": 0, "equivalent": 0}
        survivors: list[Mutant] = []
        rows = []
        for area in areas:
            patterns, tests = AREAS[area]
            candidates = []
            for rel in area_files(tree, patterns):
                make = yaml_mutants if rel.endswith(".yaml") else python_mutants
                candidates.extend(make(tree, rel))
            rnd = random.Random(f"{args.seed}:{area}")
            drawn = rnd.sample(candidates, min(args.per_area, len(candidates)))
            drawn.sort(key=lambda m: (m.path, m.line, m.col, m.what))
            if args.only:
                wanted = Path(args.only).read_text()
                drawn = [m for m in drawn if m.key in wanted]
            if args.list:
                print(f"== {area}: {len(drawn)} of {len(candidates)} candidates")
                for m in drawn:
                    print(f"  {m.key}  => {m.new[:60]!r}")
                continue
            status, clean = run_tests(tree, tests, 600, env)
            if status != "passed":
                print(f"{area}: the tests fail on the unmutated tree ({status}); skipped", flush=True)
                continue
            timeout = max(args.timeout, 3 * clean)
            counts = {"caught": 0, "survived": 0, "equivalent": 0}
            for m in drawn:
                if m.key in equiv:
                    counts["equivalent"] += 1
                    continue
                path = tree / m.path
                original = path.read_text()
                path.write_text(original[:m.start] + m.new + original[m.end:])
                try:
                    status, _ = run_tests(tree, tests, timeout, env)
                finally:
                    path.write_text(original)
                if status == "passed":
                    counts["survived"] += 1
                    survivors.append(m)
                    print(f"  survived  {m.key}", flush=True)
                else:
                    counts["caught"] += 1
            for k in totals:
                totals[k] += counts[k]
            scored = counts["caught"] + counts["survived"]
            rows.append((area, counts, scored))
            print(f"{area}: {counts['caught']}/{scored} caught ({100 * counts['caught'] / max(scored, 1):.0f}%), "
                  f"{counts['equivalent']} equivalent, {len(candidates)} candidates, clean run {clean:.1f}s",
                  flush=True)
        if args.list:
            return 0
        print("\narea        caught  scored  score  equivalent")
        for area, counts, scored in rows:
            print(f"{area:<11} {counts['caught']:>6}  {scored:>6}  {100 * counts['caught'] / max(scored, 1):>4.0f}%  "
                  f"{counts['equivalent']:>10}")
        scored = totals["caught"] + totals["survived"]
        print(f"{'overall':<11} {totals['caught']:>6}  {scored:>6}  {100 * totals['caught'] / max(scored, 1):>4.0f}%  "
              f"{totals['equivalent']:>10}")
        if survivors:
            print("\nsurvivors:")
            for m in survivors:
                print(f"  {m.key}")
        return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
