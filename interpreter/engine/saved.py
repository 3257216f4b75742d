"""Saved states read back: ``Ruleset.state_from_json`` checks every field before it trusts one.

A saved state is input from outside (a file someone edited, a message from a client), so
its text is bounded before it is parsed (``MAX_STATE_CHARS``), and its shape, types and
ranges are checked against the ruleset (a message written only for what does not fit): the
zones, counters and variables it declares, card ids that exist and sit in one place at a time
(a zone, or a step that holds them aside), what the table learnt of hands that could not follow
(engine/voids.py ``check``), seats and teams of this game, whole numbers within the language's
bounds, finite numbers, an RNG state of 64 bits, and a pending decision that the flow, asked
again, gives back unchanged, leaving the same frames (the step asking it on top). Anything
else is a GameError naming the field, never a raw Python exception; a re-ask that fails (a
runtime error, the budget) is one too, naming the cause. Each frame of the running steps is
held to the shape its step kind declares, slot by slot (engine/frames.py: a seat, a list of
cards, a position within a list...), and the stack as a whole to the flow tree (each frame's
step one the step of the frame below it runs: frames.py ``stacking``), so that an
observation, a determinization or the question shown to a person reads what it expects, and
a step reading the frame below its own finds its parent's; a frame that fits but was edited
into nonsense that still poses the same decision fails, when the game goes on, as a located
runtime error.
"""
from __future__ import annotations

import json
from functools import partial

from ..errors import GameError, RulebookError
from ..expr.runtime import MAX_INT, MIN_INT, RUNTIME_ERRORS
from ..expr.types import ANY
from ..loading.jsondata import JSONInputError, loads as json_loads
from . import voids
from .beliefs import revealed_into
from .copies import order_key
from .capacity import overfull
from .frames import check_frame
from .state import FORMAT, from_dict
from .values import Bad as _Bad, check_value as _check_value, need as _need, sizes_of as _sizes, whole as _int

FIELDS = ("format", "ruleset", "hash", "seed", "players", "teams", "params", "options", "zones",
          "counters", "vars", "rng", "stack", "decision", "over", "steps", "known")
OPTIONAL = ("voids",)   # fields a state writes only when it has something there (engine/voids.py)
MAX_STEPS = 10 ** 12   # steps a saved game may have run (far above any budget)
# characters (or bytes) of a saved state's text, checked before it is parsed: parsed, it holds
# 460 MB at the most (a list of empty lists: python benchmarks/saved_states.py --load lists)
MAX_STATE_CHARS = 16 << 20


def _check_zones(rules, d: dict, n_owners: dict) -> set:
    """The cards found in the zones (each once; else Bad)."""
    zones = d["zones"]
    _need(isinstance(zones, dict) and set(zones) == set(rules.zone_owner),
          "zones: expected exactly the ruleset's zones")
    n_cards, seen = len(rules.card_labels), set()

    def cards(part, where):
        _need(isinstance(part, list), f"{where}: expected a list of card ids")
        for c in part:   # (a message written only when it is raised)
            if not (_int(c) and 0 <= c < n_cards):
                raise _Bad(f"{where}: no card {c!r} (card ids are 0 to {n_cards - 1})")
            if c in seen:
                raise _Bad(f"{where}: card {c} ({rules.card_labels[c]}) is in two places")
            seen.add(c)

    for name, shape in rules.zone_shapes:
        zone = zones[name]
        if shape == 0:
            cards(zone, f"zones.{name}")
        elif shape == 1:
            owners = n_owners[rules.zone_owner[name]]
            _need(isinstance(zone, list) and len(zone) == owners,
                  f"zones.{name}: expected one list per owner ({owners})")
            for i, part in enumerate(zone):
                cards(part, f"zones.{name}[{i}]")
        else:
            _need(isinstance(zone, dict), f"zones.{name}: expected a mapping card id -> cards")
            for key, part in zone.items():
                _need(isinstance(key, str) and key.isascii() and key.isdigit() and int(key) < n_cards,
                      f"zones.{name}: no card {key!r}")
                cards(part, f"zones.{name}[{key}]")
    return seen


def _check_counters(rules, d: dict, n_owners: dict) -> None:
    counters = d["counters"]
    _need(isinstance(counters, dict) and set(counters) == set(rules.counter_owner),
          "counters: expected exactly the ruleset's counters")
    for name, owner in rules.counter_owner.items():
        value = counters[name]
        values = [value] if owner == "none" else value
        if owner != "none":
            _need(isinstance(value, list) and len(value) == n_owners[owner],
                  f"counters.{name}: expected one number per owner ({n_owners[owner]})")
        for v in values:
            if not (_int(v) and MIN_INT <= v <= MAX_INT):
                raise _Bad(f"counters.{name}: expected whole numbers, got {v!r}")


def _check_flow(rules, d: dict, players: int, sizes: dict, placed: set) -> None:
    """The stack, its decision and its counts. The cheap checks first, each message written
    only when it fails: frame by frame, its step index and whether its step may run directly
    over the frame below (so a stack deeper than the flow tree is refused at the frame past its
    depth, whatever its length); then each frame's slots (engine/frames.py)."""
    stack, dec = d["stack"], d["decision"]
    _need(isinstance(stack, list), "stack: expected a list of frames")
    _check_stacking(rules, stack)
    for i, frame in enumerate(stack):   # (its kind's shape, slot by slot; its place written only for a message)
        check_frame(rules.steps[frame[0]], frame, partial("stack[{}]".format, i), sizes, placed)
    _need(isinstance(d["over"], bool), f"over: expected true or false, got {d['over']!r}")
    _need(_int(d["steps"]) and 0 <= d["steps"] <= MAX_STEPS, f"steps: expected a count, got {d['steps']!r}")
    if dec is not None:
        _need(isinstance(dec, list) and len(dec) == 2 and _int(dec[0]) and 0 <= dec[0] < players
              and isinstance(dec[1], list) and dec[1], "decision: expected [seat, [options...]] or null")
        _need(bool(stack), "decision: a pending decision needs the step that asks it (stack is empty)")
        top = rules.steps[stack[-1][0]]
        _need(top.asks, f"stack[{len(stack) - 1}]: a pending decision needs the step that asks it on top of the "
                        f"stack, and step {stack[-1][0]} ({top.kind}) asks none")
    _need(not (d["over"] and dec is not None), "decision: a finished game has no pending decision")
    _need(d["over"] or dec is not None, "decision: an unfinished game waits for a decision")


def _check_stacking(rules, stack: list) -> None:
    """Each frame a frame of one of the steps, where the flow tree puts it (engine/frames.py ``stacking``)."""
    bottom, over = rules.stacking
    count, below = len(rules.steps), None
    for i, frame in enumerate(stack):
        if not (isinstance(frame, list) and frame and _int(frame[0]) and 0 <= frame[0] < count):
            raise _Bad(f"stack[{i}]: expected a frame [step index, ...] of one of the {count} steps")
        if frame[0] not in (bottom if below is None else over[below]):
            step = rules.steps[frame[0]]
            if below is None:
                raise _Bad(f"stack[0]: step {frame[0]} ({step.kind}) is not one the flow starts with (the stack's "
                           f"bottom is the flow's outermost step, step {rules.root}, or one that took its place)")
            raise _Bad(f"stack[{i}]: step {frame[0]} ({step.kind}) does not run directly over step {below} "
                       f"({rules.steps[below].kind}), the frame below it: it is not a step that one runs")
        below = frame[0]


def check(rules, d):
    """Raise _Bad for the first field of a saved state that does not fit ``rules``; else a new
    game of its values (what they give: its zones' maxes, ``S.cap``)."""
    _need(isinstance(d, dict) and "format" in d, "expected the JSON object State.to_json() writes")
    _need(_int(d["format"]) and d["format"] == FORMAT, f"format {d['format']!r} is not {FORMAT}")   # (nor true, 1.0)
    missing = [k for k in FIELDS if k not in d]
    unknown = sorted(set(d) - set(FIELDS) - set(OPTIONAL))
    _need(not missing, f"missing {', '.join(missing)}")
    _need(not unknown, f"unknown field {', '.join(unknown)}")
    players, seed = d["players"], d["seed"]
    _need(_int(players) and players in rules.player_counts,
          f"players: {players!r} is not a player count of {rules.name} ({rules.players_text()})")
    _need(_int(seed) and abs(seed) <= MAX_INT, f"seed: expected a whole number within 64 bits, got {seed!r}")
    _need(_int(d["rng"]) and 0 <= d["rng"] < 2 ** 64, f"rng: expected a 64-bit state, got {d['rng']!r}")
    _need(d["teams"] == [list(t) for t in rules.team_members(players)],
          f"teams: not the teams of {rules.name} for {players} players")
    _need(isinstance(d["params"], dict) and isinstance(d["options"], dict), "params, options: expected mappings")
    try:   # the same checks as a new game's options (and the same values once checked)
        template = rules.new_game(players, seed, {"params": d["params"], **d["options"]})
    except RulebookError as e:
        raise _Bad(f"params, options: {e.message}") from None
    for key, checked in (("params", template.p), ("options", template.o)):
        _need(json.dumps(checked, sort_keys=True) == json.dumps(d[key], sort_keys=True),
              f"{key}: not the values a game of these players takes ({json.dumps(checked, sort_keys=True)})")
    n_owners = {"player": players, "team": len(template.members), "card": len(rules.card_labels)}
    placed = _check_zones(rules, d, n_owners)
    _check_counters(rules, d, n_owners)
    vars_ = d["vars"]
    _need(isinstance(vars_, dict) and set(vars_) == set(template.v), "vars: expected exactly the ruleset's variables")
    sizes = _sizes(rules, players, len(template.members))
    for name, value in vars_.items():
        _check_value(value, rules.names.vars.get(name, ANY), f"vars.{name}", sizes)
    _check_flow(rules, d, players, sizes, placed)   # (a card a step holds aside is in no zone)
    known = d["known"]
    if known is not None:
        _need(isinstance(known, dict), "known: expected a mapping card id or private variable -> seats, or null")
        # (a list only a simultaneous choice writes: one entry a seat, or its start; a variable a
        # single choice stores into too may hold anything that choice stores)
        entries = revealed_into(rules) - {step.choice_var() for step in rules.steps
                                          if not getattr(step, "private_choice", False)}
        started = rules.started(template) if entries else None
        for key, mask in known.items():
            _need(isinstance(key, str), "known: expected a card id or a private variable's name")
            if key.isascii() and key.isdigit():   # (not "²", which isdigit() takes)
                _need(int(key) < len(rules.card_labels), f"known: no card {key!r}")
            elif key.startswith("@"):   # the seats told of a card in a zone, not of its order there
                _need(key in order_keys(rules, players, len(template.members)), f"known: no zone {key[1:]!r}")
            else:   # (who knows a private variable's value: engine/knowledge.py)
                _need(key in rules.names.vars and not rules.visibility.var_seers(key), f"known: no private variable {key!r}")
                value = vars_[key]
                _need(key not in entries or (value.__class__ is list and len(value) == players)
                      or value == started.v[key],   # type: ignore[union-attr]  # (started: made where entries are)
                      f"known[{key}]: seats that know their own entry of the list a simultaneous choice reveals into "
                      f"{key}, one entry a seat ({players}), but it holds "
                      f"{f'a list of {len(value)}' if value.__class__ is list else 'no list'}")
            _need(_int(mask) and 0 <= mask < 2 ** players, f"known[{key}]: expected a bitmask of seats")
    voids.check(rules, d, players, n_owners)   # (what the table learnt of hands that could not follow)
    return template


def _recheck_decision(S, saved) -> None:
    """The flow, asked again, must pose the decision the state says is pending."""
    from .loop import reask
    if S.dec is None:
        return
    probe = S.clone()
    probe.steps = 0   # (the probe's count is not the state's: one saved near its budget still loads)
    try:
        reask(probe)
    except RulebookError as e:   # (a located runtime error, the budget: the state's fault, not the ruleset's)
        raise _Bad(f"the flow cannot resume from it: {e.message}") from None
    asked = None if probe.dec is None else [probe.dec[0], list(probe.dec[1])]
    _need(json.dumps(asked, sort_keys=True) == json.dumps(saved, sort_keys=True),   # (a map's keys as to_json sorts them)
          "decision: not the decision its step asks in this state (the stack or the decision was edited)")
    # the same frames, the asker on top (a frame of another step over it would label the decision)
    _need(_same_frames(probe.stack, S.stack),
          f"stack: not the frames that ask the decision (asked again, the flow leaves frames of steps "
          f"{_steps(probe.stack)}, not {_steps(S.stack)})")


def _same_frames(asked: list, stack: list) -> bool:
    """Whether two stacks hold the same frames, as JSON writes them (a slot a clone shares with
    the state, as each frame's lists are, is not written out: a stack of long lists is compared
    at once)."""
    return len(asked) == len(stack) and all(
        len(f) == len(g) and all(x is y or json.dumps(x, sort_keys=True) == json.dumps(y, sort_keys=True)
                                 for x, y in zip(f, g)) for f, g in zip(asked, stack))


def _steps(stack) -> str:
    return "[" + ", ".join(str(frame[0]) for frame in stack) + "]"


def state_from_json(rules, text: str):
    """The State saved in ``text`` by ``rules`` (see the module docstring); GameError otherwise."""
    if not isinstance(text, (str, bytes)):
        raise GameError(f"not a saved state: expected JSON text, got {type(text).__name__}")
    if len(text) > MAX_STATE_CHARS:
        raise GameError(f"not a saved state: its text has {len(text):,} {'bytes' if isinstance(text, bytes) else 'characters'}, "
                        f"more than a saved state may hold ({MAX_STATE_CHARS:,})")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            raise GameError(f"not a saved state: the bytes are not UTF-8 text (byte {e.start})") from None
    try:
        d = json_loads(text)
    except JSONInputError as e:
        raise GameError(f"not a saved state: the text is not JSON ({e.msg})") from None
    if isinstance(d, dict) and "ruleset" in d and d.get("ruleset") != rules.name:
        raise GameError(f"this state belongs to ruleset '{d.get('ruleset')}', not '{rules.name}'")
    if isinstance(d, dict) and "hash" in d and d.get("hash") != rules.hash:
        raise GameError(f"this state was saved with another version of ruleset '{rules.name}' (hash "
                        f"{str(d.get('hash'))[:12]}, now {rules.hash[:12]}): its zones and flow may not fit")
    try:
        S = from_dict(rules, d, check(rules, d).cap)   # (the maxes of its values: a new game's of them)
        rules.keep_sorted(S)
        over = overfull(S) if rules.zone_max else None   # (each zone within its max: engine/capacity.py)
        _need(over is None, str(over))
        _recheck_decision(S, d["decision"])
    except _Bad as e:
        raise GameError(f"not a saved state of {rules.name}: {e}") from None
    except RUNTIME_ERRORS as e:   # a frame whose contents its step cannot read
        raise GameError(f"not a saved state of {rules.name}: the flow cannot resume from it "
                        f"({type(e).__name__})") from None
    return S


def order_keys(rules, players: int, teams: int) -> set:
    """Every zone instance's key in the knowledge record (engine/knowledge.py ``order_key``)."""
    owners = {"none": [None], "player": range(players), "team": range(teams), "card": range(len(rules.card_labels))}
    return {order_key(name, who) for name, kind in rules.zone_owner.items() for who in owners[kind]}
