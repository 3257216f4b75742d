"""Mutated rulesets: copies of the bundled rulesets and the documentation's examples with a
few random changes, which must load and play, or fail with a RulebookError: never another
exception (a crash), never a hang.

Mutations work on the text (characters inserted or deleted, lines duplicated or dropped,
values replaced by ones of another type, YAML tags, anchors and huge numbers) or on the data
(a key dropped, a list item duplicated, a number made huge or negative, an expression swapped
for another of the same ruleset or cut short, `extends:` pointed elsewhere). A case is a
function of its seed: ``make_case(random.Random(seed))`` makes the same files every time.
"""
from __future__ import annotations

import copy
import itertools
import random
from dataclasses import dataclass, field
from pathlib import Path

import yaml

import interpreter
from interpreter.errors import RulebookError
from .clones import check_clone

ROOT = Path(__file__).resolve().parent.parent.parent
SOURCES = sorted((ROOT / "rulesets").glob("*.yaml")) + sorted((ROOT / "docs" / "examples").glob("*.yaml"))

TOKENS = ["{", "}", "[", "]", ":", "-", "'", '"', "  ", "\n", "\t", "x", "0", "none", "players", "me", "count(",
          ")", "where", "*", "$replace", "$remove", "null", "true", "[]", "{}", "1..3", "&a ", "*a", "<<: ",
          "!!python/object/apply:os.system ['true'] ", "!!binary ", "?", "|", ">", "#", "%", "@", "..", "__class__",
          "99999999999999999999", "é", "\x00", "by:", "to:", "if", "else", "//", "/ 0"]
VALUES = ["[]", "{}", "3", "0", "-1", "null", "'x'", "[1, 2]", "{a: 1}", "true", "1e400", ".nan", "-.inf",
          "10000000", "4611686018427387904", "'1..100000'", "'me'", "'players'", "'count(deck)'", "*a",
          "!!python/name:os.system", "'" + "(" * 60 + "1" + ")" * 60 + "'", "'x' ", "[[[[[[]]]]]]",
          "{extends: '/etc/passwd'}"]
NUMBERS = [0, -1, -5, 2, 7, 100, 10**6, 10**9, 2**63, 2**64 + 1, 0.5, float("inf")]
EXTENDS = ["/etc/passwd", "../../../etc/hosts", "little_tricks.yaml", "missing.yaml", "case.yaml", "", 3, None]


@dataclass
class Case:
    """The files of one case (name -> text), the one to load, a variant, seeds of the game."""
    files: dict
    main: str
    variant: str | None = None
    seed: int = 0
    mutations: list = field(default_factory=list)


def make_case(rnd: random.Random) -> Case:
    source = rnd.choice(SOURCES)
    case = Case({source.name: source.read_text(encoding="utf-8")}, source.name, seed=rnd.randrange(1 << 30))
    if "extends:" in case.files[source.name]:   # a variant file: the files of its folder beside it
        case.files.update({p.name: p.read_text(encoding="utf-8") for p in SOURCES if p.parent == source.parent})
    target = source.name if rnd.random() < 0.8 else rnd.choice(sorted(case.files))
    text = case.files[target]
    for _ in range(rnd.choice([1, 1, 1, 2, 2, 3])):
        if rnd.random() < 0.4:
            text, what = mutate_text(text, rnd), "text"
        else:
            text, what = mutate_data(text, rnd)
        case.mutations.append(f"{target}: {what}")
    case.files[target] = text
    data = _data(case.files[case.main])
    if isinstance(data, dict) and isinstance(data.get("variants"), dict) and data["variants"] and rnd.random() < 0.3:
        case.variant = rnd.choice(sorted(map(str, data["variants"])))
    return case


def mutate_text(text: str, rnd: random.Random) -> str:
    lines = text.split("\n")
    k = rnd.randrange(len(lines))
    line, op = lines[k], rnd.random()
    if op < 0.3 and line:
        j = rnd.randrange(len(line) + 1)
        lines[k] = line[:j] + rnd.choice(TOKENS) + line[j:]
    elif op < 0.5 and line:
        j = rnd.randrange(len(line))
        lines[k] = line[:j] + line[j + rnd.randint(1, 5):]
    elif op < 0.65:
        lines[k] = lines[rnd.randrange(len(lines))]
    elif op < 0.8:
        del lines[k]
    elif ": " in line:
        lines[k] = line.split(": ", 1)[0] + ": " + rnd.choice(VALUES)
    else:
        lines.insert(k, lines[k])
    return "\n".join(lines)


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)   # (libyaml: ten times faster)
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def _data(text):
    try:
        return yaml.load(text, Loader=_LOADER)  # noqa: S506 - a safe loader
    except yaml.YAMLError:
        return None


def mutate_data(text: str, rnd: random.Random) -> tuple[str, str]:
    """One change to the data of the ruleset, written back as YAML (a text that is not YAML
    any more is mutated as text)."""
    data = _data(text)
    nodes = list(itertools.islice(_walk(data, ()), 20_000))   # (aliases may share a node many times)
    if not isinstance(data, dict) or not nodes:
        return mutate_text(text, rnd), "text"
    path, value = rnd.choice(nodes)
    parent = _at(data, path[:-1])
    key = path[-1]
    strings = [v for _, v in nodes if isinstance(v, str)]
    op = rnd.random()
    if op < 0.15:
        what = "drop"
        if isinstance(parent, dict):
            del parent[key]
        else:
            parent.pop(key)
    elif op < 0.25 and (isinstance(parent, list) or (items := _list_items(data, nodes))):
        what = "duplicate"   # a list item (another node's, when this one is a mapping's value)
        if not isinstance(parent, list):
            path = rnd.choice(items)
            parent, key = _at(data, path[:-1]), path[-1]
        parent.insert(key, parent[key])
    elif op < 0.45 and isinstance(value, str):
        what = "expression"
        parent[key] = rnd.choice(strings) if rnd.random() < 0.5 else _cut(value, rnd)
    elif op < 0.6 and isinstance(value, (int, float)) and not isinstance(value, bool):
        what = "number"
        parent[key] = rnd.choice(NUMBERS)
    elif op < 0.65:
        what = "extends"
        data["extends"] = rnd.choice(EXTENDS)
    elif op < 0.8:
        what = "type"
        parent[key] = rnd.choice([[], {}, 3, None, "x", [value], {"a": value}, True, "1..10000", "$replace"])
    else:
        what = "copy"   # a value of elsewhere in the ruleset
        parent[key] = copy.deepcopy(rnd.choice(nodes)[1])   # (a copy: never a cycle)
    try:
        return yaml.dump(data, Dumper=_DUMPER, sort_keys=False, allow_unicode=True), what
    except (yaml.YAMLError, RecursionError, ValueError):
        return mutate_text(text, rnd), "text"


def _list_items(data, nodes) -> list:
    """The paths of the nodes that are items of a list."""
    return [p for p, _ in nodes if p and isinstance(_at(data, p[:-1]), list)]


def _walk(node, path):
    if isinstance(node, dict):
        items = node.items()
    elif isinstance(node, list):
        items = enumerate(node)
    else:
        return
    for k, v in list(items):
        yield (*path, k), v
        yield from _walk(v, (*path, k))


def _at(data, path):
    for k in path:
        data = data[k]
    return data


def _cut(text: str, rnd: random.Random) -> str:
    i, j = sorted(rnd.randrange(len(text) + 1) for _ in range(2))
    return text[:i] + rnd.choice(["", " ", "(", ")", "'", ".", " where ", " + ", "[0]", "none"]) + text[j:]


# ---------------------------------------------------------------------- running a case
def run_case(case: Case, folder: Path, decisions: int = 200) -> str:
    """Load and play the case in ``folder``: "played", or "refused" / "game-error" (a
    RulebookError, which must carry a message). Any other exception propagates: a crash."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in case.files.items():
        (folder / name).write_text(text, encoding="utf-8")
    rnd = random.Random(case.seed)
    try:
        rules = interpreter.load(folder / case.main, variant=case.variant)
    except RulebookError as e:
        assert e.diagnostics and str(e), "a RulebookError without a message"
        return "refused"
    try:
        players = rnd.choice(sorted(rules.player_counts))
        S = rules.new_game(players, seed=case.seed)
        for step in range(decisions):
            if S.is_terminal():
                S.scores(), S.winners()
                break
            actions = S.legal_actions()
            if step % 25 == 0:   # what a seat is shown, the state as data, a clone played on
                S.observation(S.current_player())
                S.to_json()
                check_clone(S, step, 10)
            S.apply_index(rnd.randrange(len(actions)))
    except RulebookError as e:
        assert str(e), "a RulebookError without a message"
        return "game-error"
    return "played"
