"""Mutated rulesets played twice in lockstep: by the ruleset's generated module (every
specialisation on) and by its plain reference (the same generators with their specialisations
off, ``compile_flow(rules, plain=True)``). The two must agree after every decision on the state
(its step count and stack of frames included), the options and the events; where one raises a
GameError the other must raise the same error with the same message at the same decision and
stand in the same state. What a state keeps besides the data ``to_json`` writes (the record of
each card's zone, the views, the seats' lists: tests/fuzzing/derived.py) must be alike too and
what its zones and members say, in both: a stale record written the same way by both is caught
at the decision that left it, not where something reads it. The events and knowledge hooks are on or off, and both games are cloned
at a random decision and played on as clones (their tables shared until written: a list a clone
holds as its original does must be named in the ``sh`` of each). A case is a mutated copy of a bundled ruleset or example
(``rulesets.make_case``) given a small step budget half the time, so that the budget stops
games mid-flow at every kind of place: the contract the generator's in-place runs keep with the
loop (docs/architecture.md, "The compiled flow"), which hand-written tests check one shape at a
time.
"""
from __future__ import annotations

import copy
import random
from pathlib import Path

import yaml

import interpreter
from interpreter.building.flowmodule import compile_flow
from interpreter.engine.layout import Layout
from interpreter.engine.state import State
from interpreter.errors import GameError, RulebookError
from .derived import derived, stale, unshared
from .rulesets import _DUMPER, SOURCES, Case, _data, mutate_data

BUDGETS = (3, 5, 8, 13, 20, 40, 80, 150, 300, 600, 1200, 2500, 5000, 10000, 20000)


class Mismatch(AssertionError):
    """The generated module and its plain reference played differently."""


def reference(rules):
    """The same ruleset run by the reference loop and the steps' plain functions (each kind's
    generator with its specialisations off, or its own methods where it still has them)."""
    ref = copy.copy(rules)
    runs, resolves, advance, apply_index, *_ = compile_flow(rules, plain=True)
    assert advance is not rules.advance and advance.__code__.co_filename.startswith("<")   # generated, as the fast one
    for name, value in (("runs", runs), ("resolves", resolves), ("advance", advance), ("apply_index", apply_index)):
        object.__setattr__(ref, name, value)
    object.__setattr__(ref, "layout", Layout(State, ref))   # (its states' class: the reference's apply_index)
    ref.layout.cls.apply_index = apply_index
    return ref


def make_lockstep_case(rnd: random.Random) -> Case:
    """A bundled ruleset or example, one data mutation of it half the time (a text mutation
    seldom loads), and a small step budget two times in three."""
    source = rnd.choice(SOURCES)
    case = Case({source.name: source.read_text(encoding="utf-8")}, source.name, seed=rnd.randrange(1 << 30))
    if "extends:" in case.files[source.name]:   # a variant file: the files of its folder beside it
        case.files.update({p.name: p.read_text(encoding="utf-8") for p in SOURCES if p.parent == source.parent})
    if rnd.random() < 0.5:
        case.files[case.main], what = mutate_data(case.files[case.main], rnd)
        case.mutations.append(f"{case.main}: {what}")
    data = _data(case.files[case.main])
    if isinstance(data, dict) and rnd.random() < 2 / 3:
        limits = data.get("limits") if isinstance(data.get("limits"), dict) else {}
        data["limits"] = {**limits, "steps": rnd.choice(BUDGETS) + rnd.randrange(8)}
        try:
            case.files[case.main] = yaml.dump(data, Dumper=_DUMPER, sort_keys=False, allow_unicode=True)
            case.mutations.append(f"{case.main}: budget {data['limits']['steps']}")
        except (yaml.YAMLError, RecursionError, ValueError):
            pass
    if isinstance(data, dict) and isinstance(data.get("variants"), dict) and data["variants"] and rnd.random() < 0.3:
        case.variant = rnd.choice(sorted(map(str, data["variants"])))
    return case


def _error(e: RulebookError) -> tuple:
    """What both ways must raise alike: the error's kind, its text, its location and the items
    that called the declared effect it arose in (its text quotes them too: said here outright)."""
    return type(e).__name__, str(e), e.loc, e.calls


def _step(S, i: int):
    """Apply option ``i``: None, or the GameError raised (``_error``)."""
    try:
        S.apply_index(i)
    except GameError as e:
        return _error(e)
    return None


def _start(rules, players: int, seed: int, record: bool, knowledge: bool, options: dict | None):
    try:
        return rules.new_game(players, seed=seed, options=options, record=record, knowledge=knowledge), None
    except RulebookError as e:   # (a runtime error of the setup, or a UsageError: a parameter with no value for the players)
        return None, _error(e)


def _unchanged(origins: tuple, clones: tuple, played: int) -> None:
    """The states a clone was made of, as they were then (their record and views too): a table
    written in place without its own copy first (``State.own``) shows here, in the state the
    clone shared it with; and no list is held by a clone and its original without being named
    in the ``sh`` of each (which a write would take in place)."""
    for (S, then, kept), C, who in zip(origins, clones, ("module", "reference")):
        if S.to_json() != then or derived(S) != kept:
            raise Mismatch(f"playing the clone changed the {who}'s original, {played} decisions in")
        for X, Y, whose in ((C, S, "clone"), (S, C, "original")):
            if names := unshared(X, Y):
                raise Mismatch(f"the {who}'s {whose} holds the lists of {', '.join(names)} as the other does, "
                               f"not named in its sh, {played} decisions in")


def _derived_alike(a, b, played: int) -> None:
    """The record, the views and the seats' lists of each state what its data say
    (tests/fuzzing/derived.py): alike where the data are."""
    problems = stale(a), stale(b)
    if any(problems):
        who = "both" if all(problems) else "the module" if problems[0] else "the reference"
        raise Mismatch(f"a derived table is stale in {who} after {played} decisions: {problems[0] or problems[1]}")


def _verdict(err: tuple) -> str:
    """"budget", or "effect-error" (a runtime error inside a declared effect: at its item, with
    the items that called it), or "game-error" (any other)."""
    if err[0] == "BudgetExceeded":
        return "budget"
    return "effect-error" if err[3] else "game-error"


def run_lockstep(case: Case, folder: Path, decisions: int = 200) -> str:
    """Load the case in ``folder`` and play one game both ways: "played", "budget" (both
    stopped by the step budget at the same place), "effect-error" (both raised the same error
    inside a declared effect, at the same item called from the same items), "game-error" (both
    raised the same other GameError) or "refused" (the ruleset does not load). Raises Mismatch where
    the two differ; any other exception propagates (a crash)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in case.files.items():
        (folder / name).write_text(text, encoding="utf-8")
    try:
        rules = interpreter.load(folder / case.main, variant=case.variant)
    except RulebookError:
        return "refused"
    ref = reference(rules)
    rnd = random.Random(case.seed)
    players = rnd.choice(sorted(rules.player_counts))
    # the hooks on or off (their code paths differ), and a clone played on from some decision
    # (its tables shared until written: the copy-on-write paths)
    record, knowledge, cloned = rnd.random() < 0.5, rnd.random() < 0.3, rnd.randrange(2 * decisions)
    # an attempt's outcome said by the table (the game option resolve: ask) a time in four
    options = {"resolve": "ask"} if rnd.random() < 0.25 else None
    (a, err), (b, ref_err) = (_start(r, players, case.seed, record, knowledge, options) for r in (rules, ref))
    played, origins = 0, ()
    while True:
        _unchanged(origins, (a, b), played)
        if a is not None and b is not None:   # (first: a stale record read may have made the games differ)
            _derived_alike(a, b, played)
        if err != ref_err:
            raise Mismatch(f"after {played} decisions: the module {err or 'raised nothing'}, "
                           f"the reference {ref_err or 'raised nothing'}")
        if a is None or b is None:
            return _verdict(err)
        if a.to_json() != b.to_json():
            raise Mismatch(f"the states differ after {played} decisions{' and an error' if err else ''}")
        if derived(a) != derived(b):
            raise Mismatch(f"the record or the views differ after {played} decisions")
        if a.ev != b.ev:
            raise Mismatch(f"the events differ after {played} decisions")
        if err:
            return _verdict(err)
        if a.is_terminal() or b.is_terminal():
            if a.is_terminal() != b.is_terminal():
                raise Mismatch(f"only one game is over after {played} decisions")
            return "played"
        if played == decisions:
            return "played"
        if a.legal_actions() != b.legal_actions():
            raise Mismatch(f"the options differ after {played} decisions")
        if played == cloned:   # (the originals kept: playing a clone must leave them as they were)
            origins = tuple((S, S.to_json(), derived(S)) for S in (a, b))
            a, b = a.clone(), b.clone()
            if record:   # (a clone records nothing: State.clone)
                a.ev, b.ev = [], []
            _derived_alike(a, b, played)
            _unchanged(origins, (a, b), played)
        i = rnd.randrange(len(a.dec[1]))
        err, ref_err = _step(a, i), _step(b, i)
        played += 1
