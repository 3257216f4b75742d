"""Scenario tests written in YAML: a setup, scripted actions, expectations as expressions.

    ruleset: ../my_game.yaml           # relative to this file
    scenarios:
      - name: a void play gains the benefit of the suit played
        rule: DI-4                     # the rule it proves (free text)
        players: 4
        seed: 7
        variant: two_player            # optional
        params: {hand_size: 3}         # optional parameter overrides
        deal: {hand: {0: [1D]}}        # optional: cards the opening shuffle deals there
        patch:                         # optional: applied at the first decision
          zones: {hand: {0: [1D, 2H], 1: [3D]}, table: []}
          counters: {coins: {0: 3}, bank: 0}
          vars: {start_player: 0}
        actions:                       # labels; a mapping {seat: N, action: L} also checks the seat;
          - "1"                        # {patch: {...}} patches again mid-way;
          - {expect: ["x == 1"]}       # {expect: [...]} checks expressions mid-way
          - {seat: 0, action: 1D}
        expect:                        # expressions that must hold at the end (no 'me')
          - "safe[0] == 1"
        scores: [3, 4, 4, 3]           # optional
        winners: [1, 2]                # optional
        over: false                    # optional
        legal: [2H]                    # optional: the legal actions at the end, in any order
        prompt: play                   # optional: the pending prompt at the end
        current: 1                     # optional: the seat to act at the end
        illegal: 9S                    # optional: this action must be refused at the end
        refused: "is for 3 to 6"       # optional: new_game must refuse with this in its message

Zone and counter patches name owners by seat (teams by team index for team-owned ones,
cards by label for card-owned ones); cards are named by their labels. ``skill`` and
``resolve`` are passed to the game as options. ``rulebook test FILE...`` runs them.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...engine import loop as engine
from ...engine.capacity import overfull
from ...engine.layout import reindex
from ...engine.values import var_problem
from ...errors import GameError, RulebookError, RulesetError, UsageError, did_you_mean, key_hint, digits
from ...expr import Compiler, ExprError, parse
from ...expr.messages import describe
from ...expr.runtime import RUNTIME_ERRORS
from ...expr.textual import as_text
from ...expr.types import CARD
from ...building import load
from ...loading.resources import RULESET_FILES, bundled_named, exists, is_file, resolved, within
from ...loading.source import load_file
from .scenario_keys import ACTION_NAMES, PATCH_NAMES, SCENARIO_NAMES


@dataclass
class Outcome:
    name: str
    ok: bool
    message: str = ""
    loc: object = None


def run_file(path) -> list[Outcome]:
    data, smap = load_file(str(path))
    if not isinstance(data, dict) or "scenarios" not in data or "ruleset" not in data \
            or not isinstance(data["scenarios"], list) or not isinstance(data["ruleset"], str):
        raise RulesetError("a scenario file has ruleset: (a file name) and scenarios: (a list)", smap.loc(()),
                           "schema")
    base = _scenario_ruleset(path, data["ruleset"], smap)
    cache: dict = {}
    results = []
    for i, sc in enumerate(data["scenarios"] or []):
        loc = smap.key_loc(("scenarios", i))
        if not isinstance(sc, dict):
            results.append(Outcome(f"scenario {i + 1}", False, "a scenario is a mapping (name, players, actions...)", loc))
            continue
        name = str(sc.get("name", f"scenario {i + 1}"))
        wrong = _unknown_key(sc, ("scenarios", i), smap)
        if wrong:
            results.append(Outcome(name, False, *wrong))
            continue
        try:
            if None not in cache:
                cache[None] = load(base)
            variant = _variant(path, sc.get("variant"), cache[None])
            if variant is None and sc.get("variant") is not None:
                results.append(Outcome(name, False, f"variant '{sc['variant']}' is no variant file (.yaml, .yml) in the "
                                       "folders a scenario file may name (its own folder or below it, or the folder "
                                       "just above it)", smap.loc(("scenarios", i, "variant"))))
                continue
            if variant not in cache:
                cache[variant] = load(base, variant=variant)
            results.append(run_one(cache[variant], sc, name, loc))
        except RulebookError as e:
            results.append(Outcome(name, False, e.message if isinstance(e, (RulesetError, UsageError)) else str(e),
                                   loc))
        except (TypeError, ValueError, AttributeError, KeyError, IndexError) as e:
            # a malformed scenario (a mapping where a list belongs...) fails, with the reason
            results.append(Outcome(name, False, f"malformed scenario: {type(e).__name__}: {e}", loc))
    return results


def _unknown_key(sc: dict, path: tuple, smap):
    """(message, location) of the first key of a scenario, of its patches or of its actions
    that nothing reads (a misspelt ``expcet:`` would pass silently), with a did-you-mean."""
    def first(spec, known, where):
        for k in spec if isinstance(spec, dict) else ():
            if k not in known:
                close = did_you_mean(str(k), known)
                hint = key_hint(close, list(known)) or f"accepted keys: {', '.join(known)}"
                return f"unknown key '{k}': {hint}", smap.key_loc((*path, *where, k))
        return None
    found = first(sc, SCENARIO_NAMES, ()) or first(sc.get("patch"), PATCH_NAMES, ("patch",))
    actions = sc.get("actions")
    for j, act in enumerate(actions if isinstance(actions, list) else []):
        if found:
            break
        if isinstance(act, dict):
            known = ("patch",) if "patch" in act else ("expect",) if "expect" in act else ACTION_NAMES
            found = first(act, known, ("actions", j)) or first(act.get("patch"), PATCH_NAMES, ("actions", j, "patch"))
    return found


def _scenario_ruleset(path, name: str, smap) -> Path:
    """The ruleset a scenario file names: a ruleset file beside it (as ``_near`` allows), or else
    a bundled ruleset's name (as the command line accepts); neither, or a path outside those
    folders, is one located error for the whole file."""
    local = _near(path, name)
    if local is None:
        stem = Path(name).stem
        named = f"ruleset: {stem}" if bundled_named(stem) else "see rulebook list"
        raise RulesetError(f"ruleset '{name}' is outside the folders a scenario file may name", smap.loc(("ruleset",)),
                           "io", span=len(name), hint=f"a scenario file names a ruleset file (.yaml, .yml) in its own "
                           f"folder or below it, or in the folder just above it (ruleset: ../game.yaml), or a bundled "
                           f"ruleset by its name ({named})")
    if local.suffix in RULESET_FILES and is_file(local):
        return local
    bundled = bundled_named(name)
    if bundled is not None:
        return bundled
    raise RulesetError(f"ruleset '{name}' is neither a ruleset file (.yaml, .yml) beside this scenario file nor a "
                       "bundled ruleset", smap.loc(("ruleset",)), "io", span=len(name))


def _near(path, name: str) -> Path | None:
    """``name`` resolved from the scenario file's folder when it lies in that folder or below it
    (``extends:``'s test, ``within``), or in the folder just above it (the layout of rulesets/
    and rulesets/scenarios/: ``../game.yaml``); else None: a scenario file is read as untrusted
    as a ruleset, and reads no file elsewhere (docs/security.md). Its callers read a file found
    only if it is a ruleset file (``RULESET_FILES``), its links followed: in the folder just
    above, that keeps a scenario in ``~/Downloads`` from reading ``~/.netrc``."""
    here = Path(path).resolve().parent
    target = resolved(here / name)
    if target is None:   # a loop of links, a NUL byte: no file, which the caller finds so
        return here / name
    return target if within(target, [here]) or target.parent == here.parent else None


def _variant(path, variant, rules):
    """A scenario's ``variant:``: a variant the ruleset declares, or else a variant file, which
    ``_near`` finds from the scenario file (never from the working folder); None: a path outside
    the folders it allows, or a file there that is no ruleset file (``RULESET_FILES``)."""
    if not isinstance(variant, str) or variant in (rules.data.get("variants") or {}):
        return variant
    near = _near(path, variant)
    if near is None:
        return None
    # a name that is no file there stays a name (load says it is declared nowhere), unless the
    # working folder holds a file of that name, which load would read
    found = exists(near) or exists(Path(variant))
    if found and near.suffix not in RULESET_FILES:
        return None
    return str(near) if found else variant


def _whole(value, what: str) -> int:
    """A scenario's player count or seed as a whole number ("3" and 3.0 too); UsageError else."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():   # (not NaN, not an infinity)
        return int(value)
    if isinstance(value, str) and digits(value.strip(), signed=True) and len(value) < 30:
        return int(value)
    raise UsageError(f"{what}: {value!r} is not a whole number")


def _owner(owner, count: int, what: str) -> int:
    """A patch's owner index, 0 to count - 1 (a negative one would name a seat from the end)."""
    k = _whole(owner, f"patch: {what}'s owner")
    if not 0 <= k < count:
        raise UsageError(f"patch: {what} has no owner {owner} (owners are 0 to {count - 1})")
    return k


def run_one(rules, sc: dict, name: str, loc=None) -> Outcome:
    def fail(msg):
        return Outcome(name, False, msg, loc)

    options = {"params": sc.get("params") or {}}
    for k in ("skill", "resolve"):
        if k in sc:
            options[k] = sc[k]
    try:
        S = _new_game(rules, _whole(sc.get("players", rules.min_players), "players"), _whole(sc.get("seed", 0), "seed"),
                      options, sc.get("deal"))
    except RulebookError as e:
        if "refused" in sc and str(sc["refused"]) in e.message:
            return Outcome(name, True)
        return fail(f"the game could not start: {e.message}")
    if "refused" in sc:
        return fail(f"expected the game to be refused ({sc['refused']!r}), but it started")
    if sc.get("patch"):
        patch(S, sc["patch"])
    if not isinstance(sc.get("actions") or [], list):
        return fail("actions: is a list (of labels, {seat, action}, {patch} or {expect})")
    compiler = Compiler(rules.names)
    for j, act in enumerate(sc.get("actions") or []):
        if isinstance(act, dict) and "patch" in act:
            patch(S, act["patch"])
            continue
        if isinstance(act, dict) and "expect" in act:   # a check in the middle of the actions
            problem = _check(compiler, S, act["expect"])
            if problem:
                return fail(f"after {j} action(s): {problem}")
            continue
        seat = None
        if isinstance(act, dict):
            seat, act = act.get("seat"), act.get("action")
        if seat is not None and S.current_player() != seat:
            return fail(f"action {j + 1} ({act}): expected seat {seat} to act, but it is seat "
                        f"{S.current_player()} ('{S.prompt()}')")
        try:
            S.apply(str(act))
        except GameError as e:
            return fail(f"action {j + 1}: {e.message}")
    problem = _check(compiler, S, sc.get("expect") or [])
    if problem:
        return fail(problem)
    checks = [("scores", lambda: S.scores()), ("winners", lambda: S.winners()), ("over", lambda: S.over),
              ("legal", lambda: S.legal_actions()), ("prompt", lambda: S.prompt()),
              ("current", lambda: S.current_player())]
    for key, get in checks:
        if key in sc:
            got = get()
            want = sc[key]
            if key == "legal":
                if not isinstance(want, list):
                    return fail(f"legal: is a list of action labels, not {want!r}")
                want = [str(w) for w in want]
                if sorted(got) == sorted(want):   # the options offered, in any order
                    continue
            if got != want:
                return fail(f"{key}: expected {want!r}, got {got!r}")
    if "illegal" in sc:
        try:
            S.clone().apply(str(sc["illegal"]))
        except GameError:
            pass
        else:
            return fail(f"action {sc['illegal']!r} was accepted but should be illegal")
    return Outcome(name, True)


def _new_game(rules, players: int, seed: int, options: dict, deal):
    """A new game; with ``deal:``, one whose shuffle dealt those cards to those places, so
    the automatic steps before the first decision (a lead decided by who holds a card) see
    them. The game is played once to see where the seed deals every card, then again with
    the shuffled zone's cards renamed (a permutation of the cards, applied right after the
    first shuffle of a zone that holds them all), so each wanted card takes the place of
    one the seed dealt where it is wanted. The draws are the same, so only who holds what
    changes."""
    S = rules.new_game(players, seed, options)
    if not deal:
        return S
    places = _places(S, deal, "deal")
    wanted = {c for cs in places.values() for c in cs}
    perm: dict[int, int] = {}   # a card of the first game -> the card that takes its place
    for (zone, owner), want in places.items():
        have = _cards_at(S, zone, owner)
        if len(want) > len(have):
            where = zone if owner is None else f"{zone}[{owner}]"
            raise UsageError(f"deal: {where} is dealt {len(have)} cards, not {len(want)}")
        slots = [c for c in have if c not in want]
        for w in want:
            perm[w if w in have else slots.pop(0)] = w
    # a card the seed dealt to a wanted place, and not wanted there, takes the place a wanted card
    # left: the cards relabelled are only those, so all lie in the zone shuffled (not a card a
    # setup set aside, nor one of another component)
    left = sorted(w for w in wanted if w not in perm)     # wanted cards dealt elsewhere by the seed
    displaced = sorted(a for a in perm if a not in wanted)
    perm.update(zip(left, displaced))
    moves = {a: b for a, b in perm.items() if a != b}
    namespace = rules.names.namespace
    shuffle = namespace["_shuffle"]

    def rigged(S, items):
        shuffle(S, items)
        if moves and moves.keys() <= set(items):
            items[:] = [moves.get(c, c) for c in items]
            moves.clear()

    namespace["_shuffle"] = rigged
    try:
        S = rules.new_game(players, seed, options)
    finally:
        namespace["_shuffle"] = shuffle
    for (zone, owner), want in places.items():
        if not set(want) <= set(_cards_at(S, zone, owner)):
            raise UsageError("deal: these cards are not dealt from one shuffled zone before the first decision: "
                             "set them with patch:")
    return S


def _cards_at(S, zone, owner) -> list:
    z = S.z[zone]
    return z if owner is None else z.get(owner, []) if isinstance(z, dict) else z[owner]


def _check(compiler, S, expectations) -> str | None:
    """The first expectation (an expression, no 'me') that does not hold, described; else None."""
    for text in expectations if isinstance(expectations, list) else [expectations]:
        try:
            fn = compiler.compile(str(text), has_me=False)
        except ExprError as e:
            return f"expect '{text}': {e.message}"
        try:
            value = fn(S, None, None)
        except RUNTIME_ERRORS as e:   # this scenario fails; the others still run
            return f"expect '{text}' could not be evaluated: {describe(e)}"
        if value is not True:
            if not isinstance(value, bool):
                return f"expect '{text}' gave {value!r}, not true"
            return f"expected {text}, but {why_false(compiler, S, str(text))}"
    return None


_SIDES = {"compare", "in_", "not_in"}   # a comparison's operands are worth showing


def why_false(compiler, S, text: str) -> str:
    """What makes a false expectation false, in the values of its parts: the first false part
    of an ``and``, the operands of a comparison ("count(hand) is 2"); else "it is false"."""
    try:
        tree = top = parse(text)
        while tree.data == "and_":   # the first conjunct that does not hold
            tree = next(c for c in tree.children if _value(compiler, S, _text(text, c)) is not True)
        if tree.data not in _SIDES:
            return "it is false" if tree is top else f"{_text(text, tree)} is false"
        left, right = tree.children[0], tree.children[-1]
        shown = [f"{_text(text, side)} is {_shown(S, compiler.compile(_text(text, side), has_me=False))}"
                 for side in (left, right) if not _literal(side)]
        return " and ".join(shown) or "it is false"
    except Exception:   # noqa: BLE001 - an explanation is a courtesy: never worse than none
        return "it is false"


def _text(text, node) -> str:
    return text[node.meta.start_pos:node.meta.end_pos]


def _literal(node) -> bool:
    return getattr(node, "data", None) in ("int_", "float_", "string", "true", "false", "none")


def _value(compiler, S, text):
    return compiler.compile(text, has_me=False)(S)


def _shown(S, compiled) -> str:
    """A part's value as a person reads it: cards by their labels, players as seats, none as the
    language writes it (expr/textual.py)."""
    value = compiled(S)
    label = {"card": lambda c: S.rules.card_labels[c], "list[card]": lambda c: S.rules.card_labels[c]}.get(compiled.type)

    def one(v) -> str:
        if v is None:
            return as_text(v)
        return label(v) if label and isinstance(v, int) and not isinstance(v, bool) else repr(v)
    if isinstance(value, list):
        return "[" + ", ".join(map(one, value)) + "]"
    return one(value)


def _places(S, zones, what: str = "patch") -> dict:
    """``{zone: cards}`` or ``{zone: {owner: cards}}`` (owners by seat, team index or card
    label; cards by label) as {(zone, owner index or None): [card ids]}."""
    rules = S.rules
    ids = {label: i for i, label in reversed(list(enumerate(rules.card_labels)))}
    taken = set()   # across the whole patch, so identical cards in two zones are two cards

    def cards(labels):
        if not isinstance(labels, list):
            raise UsageError(f"{what}: a zone's cards are a list of labels, not {labels!r}")
        out = []
        for lab in labels:
            lab = str(lab)
            # identical labels (duplicate cards): take the next unused id with that label
            cand = [i for i, label in enumerate(rules.card_labels) if label == lab and i not in taken]
            if not cand:
                raise UsageError(f"{what}: no card labelled '{lab}'" if lab not in ids else
                                 f"{what}: not enough cards labelled '{lab}'")
            taken.add(cand[0])
            out.append(cand[0])
        return out

    if not isinstance(zones, dict):
        raise UsageError(f"{what}: zones is a mapping of zone names to cards")
    placed: dict[tuple[str, int | None], list[int]] = {}
    for name, value in zones.items():
        if name not in S.z:
            raise UsageError(f"{what}: unknown zone '{name}'")
        if rules.zone_owner[name] == "none":
            placed[(name, None)] = cards(value)
        else:
            if not isinstance(value, dict):
                raise UsageError(f"{what}: zone '{name}' has an owner: a mapping of owners to cards ({{0: [...]}})")
            count = len(S.z[name]) if rules.zone_owner[name] != "card" else len(rules.card_labels)
            for owner, labels in value.items():
                if rules.zone_owner[name] == "card" and str(owner) in ids:   # a card by its label
                    owner = ids[str(owner)]
                placed[(name, _owner(owner, count, f"zone '{name}'"))] = cards(labels)
    return placed


def patch(S, spec: dict) -> None:
    """Overwrite parts of a state (zones by card labels, counters, variables), then re-ask."""
    rules = S.rules
    S.own_all()   # written in place below: none of its lists shared with a clone
    ids = {label: i for i, label in reversed(list(enumerate(rules.card_labels)))}
    placed = _places(S, spec.get("zones") or {})
    if placed:
        # a patched card leaves wherever it was, so the total number of cards stays the same
        moving = {c for cs in placed.values() for c in cs}
        for zname, owner in rules.zone_owner.items():
            if owner == "none":
                S.z[zname] = [c for c in S.z[zname] if c not in moving]
            elif owner == "card":
                S.z[zname] = {k: [c for c in h if c not in moving] for k, h in S.z[zname].items()}
            else:
                S.z[zname] = [[c for c in h if c not in moving] for h in S.z[zname]]
        displaced = []
        for (zname, owner), cs in placed.items():
            old = S.z[zname] if owner is None else (S.z[zname].get(owner, []) if isinstance(S.z[zname], dict)
                                                     else S.z[zname][owner])
            displaced += [c for c in old if c not in moving]
            if owner is None:
                S.z[zname] = cs
            else:
                S.z[zname][owner] = cs
        # cards pushed out of a patched zone go home (the shared zone their component starts
        # in), unless that is a patched zone itself: then they leave play, so a patched zone
        # holds exactly the cards it lists (a supply patched down to a few tiles)
        patched = {zname for zname, owner in placed if owner is None}
        for c in displaced:
            home = rules.home_zone(c)
            if home is not None and home not in patched:
                S.z[home].append(c)
        rules.keep_sorted(S)   # a zone declared sorted stays in card order, whatever the patch listed
        over = overfull(S)   # a zone's max: holds in a patched state as in a loaded one
        if over is not None:
            raise UsageError(f"patch: {over[len('zones.'):]}")
        reindex(S)   # (each card's zone, where the ruleset records it: written in place above)
    for name, value in (spec.get("counters") or {}).items():
        if name not in S.c:
            raise UsageError(f"patch: unknown counter '{name}'")
        for v in (value.values() if isinstance(value, dict) else value if isinstance(value, list) else [value]):
            if not (isinstance(v, int) and not isinstance(v, bool)):
                raise UsageError(f"patch: counter '{name}' holds whole numbers, not {v!r}")
        if isinstance(value, dict):
            for owner, v in value.items():
                if rules.counter_owner[name] == "card" and str(owner) in ids:   # a card by its label
                    owner = ids[str(owner)]
                S.c[name][_owner(owner, len(S.c[name]), f"counter '{name}'")] = v
        elif isinstance(S.c[name], list):   # a value for every owner, or a list of one per owner
            if isinstance(value, list):
                if len(value) != len(S.c[name]):   # (its values are whole numbers: checked above)
                    raise UsageError(f"patch: counter '{name}' takes one whole number, or a list of "
                                     f"{len(S.c[name])} (one per owner)")
                S.c[name] = list(value)
            else:
                S.c[name] = [value] * len(S.c[name])
        else:
            S.c[name] = value
    for name, value in (spec.get("vars") or {}).items():
        if name not in S.v:
            raise UsageError(f"patch: unknown variable '{name}'")
        if rules.names.vars.get(name) == CARD and isinstance(value, str) and value in ids:
            value = ids[value]   # a card by its label
        problem = var_problem(S, name, value)
        if problem is not None:   # (the code that reads it trusts its type: a card is one that exists)
            raise UsageError(f"patch: {problem}")
        S.v[name] = value
    engine.reask(S)
