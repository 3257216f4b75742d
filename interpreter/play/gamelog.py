"""Playing a game with agents, writing it as a JSON Lines log, replaying and redacting logs.

A log (format 1) is one JSON object per line:

    {"type": "header", "ruleset": "my_game", "hash": "<content hash>", "path": "rulesets/my_game.yaml",
     "variant": null, "players": 4, "seed": 3, "agents": ["random", ...], "params": {"rounds": 1},
     "format": 1}
    {"type": "events", "events": [...]}                 # what happened before the first decision
    {"type": "decision", "n": 1, "seat": 1, "prompt": "pass_count", "action": "2", "events": [...]}
    ...
    {"type": "result", "scores": [...], "winners": [...], "decisions": 180, "breakdown": [...]}

A game that stops on an error (a runtime error of the rules, a step budget exceeded) ends
with the decision that raised it instead of a result, so the failure is kept and replays:

    {"type": "error", "n": 7, "seat": 0, "prompt": "pick", "action": "1", "message": "...", "loc": "f.yaml:14:15"}

``params`` holds only the overrides given (``--set``); the rest follows from the ruleset.
Events are the engine's event dicts (``{"ev": "gain", "counter": "safe", "who": 1, "amount": 1}``)
with card ids written as labels. Logs are omniscient; ``redact`` makes the copy one seat may see.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Iterable

from ..errors import GameError, ReplayError, RulebookError
from ..build import load
from ..loading.resources import ruleset_path

FORMAT = 1
HIDDEN_EVENT_KINDS = ("deal", "move", "pass", "draw")   # events that move cards between zones
HIDDEN = "?"


# ---------------------------------------------------------------------- events
def events_out(rules, events) -> list[dict]:
    """Engine events as plain JSON data, card ids (ints) under "cards"/"card" turned into labels."""
    labels = rules.card_labels
    out = []
    for ev in events or ():
        ev = dict(ev)
        if "cards" in ev and isinstance(ev["cards"], (list, tuple)):
            ev["cards"] = [labels[c] if _is_id(c) else c for c in ev["cards"]]
        if "card" in ev and _is_id(ev["card"]):
            ev["card"] = labels[ev["card"]]
        out.append(ev)
    return json.loads(json.dumps(out))   # tuples -> lists, exactly as a log reads back


def _is_id(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


# ---------------------------------------------------------------------- playing
class _Writer:
    """Writes log lines to a path or a text stream, redacted for one seat if asked."""

    def __init__(self, log, redactor=None):
        self.redactor = redactor
        self.own = isinstance(log, (str, Path))
        self.f: IO[str] | None = open(log, "w", encoding="utf-8") if self.own else log

    def write(self, obj: dict) -> None:
        if self.f is None:
            return
        if self.redactor is not None:
            obj = self.redactor.line(obj)
        self.f.write(json.dumps(obj, ensure_ascii=False) + "\n")

    def close(self) -> None:
        if self.own and self.f is not None:
            self.f.close()


def header(rules, players: int, seed: int, agents: list[str], params: dict) -> dict:
    return {"type": "header", "ruleset": rules.name, "hash": rules.hash, "path": str(rules.path),
            "variant": rules.variant, "players": players, "seed": seed, "agents": agents,
            "params": dict(params), "format": FORMAT}


def play_game(rules, players: int, seed: int, agents, options: dict | None = None, log=None,
              log_for: int | None = None) -> dict:
    """Play one game; each seat's agent sees only its observation and the legal actions.

    ``log`` is a path or a text stream to write the JSON Lines log to; ``log_for`` writes it
    redacted for that seat. Returns the result: ruleset, variant, players, seed, agents,
    params (the values in effect), overrides (the ones given), scores, winners, decisions,
    breakdown.
    """
    options = dict(options or {})
    overrides = dict(options.get("params") or {})
    names = [getattr(a, "name", type(a).__name__) for a in agents]
    S = rules.new_game(players, seed, options, record=True)
    writer = None
    if log is not None:
        if log_for is not None and not 0 <= log_for < players:
            from ..errors import UsageError
            raise UsageError(f"--log-for: seat {log_for} does not exist (seats 0 to {players - 1})")
        writer = _Writer(log, Redactor(rules, log_for) if log_for is not None else None)
    try:
        if writer:
            writer.write(header(rules, players, seed, names, overrides))
            writer.write({"type": "events", "events": events_out(rules, S.ev)})
        n = 0
        while not S.is_terminal():
            seat = S.current_player()
            legal = S.legal_actions()
            prompt = S.prompt()
            i = agents[seat].act(S.observation(seat), list(legal))
            if not (_is_id(i) and 0 <= i < len(legal)):
                raise GameError(f"agent '{names[seat]}' of seat {seat} chose {i!r}, not an index 0..{len(legal) - 1}")
            S.ev = []
            try:
                S.apply_index(i)
            except RulebookError as e:   # kept in the log: the game's last line says what failed, and where
                if writer:
                    writer.write({"type": "error", "n": n + 1, "seat": seat, "prompt": prompt, "action": legal[i],
                                  "message": e.message, "loc": str(e.loc) if e.loc else None})
                raise
            n += 1
            if writer:
                writer.write({"type": "decision", "n": n, "seat": seat, "prompt": prompt, "action": legal[i],
                              "events": events_out(rules, S.ev)})
        S.ev = None
        result = _result(S, n)
        if writer:
            writer.write({"type": "result", **result})
    finally:
        if writer:
            writer.close()
    return {"ruleset": rules.name, "variant": rules.variant, "players": players, "seed": seed,
            "agents": names, "params": dict(S.p), "overrides": overrides, **result}


def _result(S, decisions: int) -> dict:
    return json.loads(json.dumps({"scores": S.scores(), "winners": S.winners(), "decisions": decisions,
                                  "breakdown": S.breakdown()}))


# ---------------------------------------------------------------------- reading logs
def read_log(path) -> list[tuple[int, dict]]:
    """(line number, object) for each non-blank line; ReplayError for unreadable or bad JSON."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise ReplayError(f"cannot read log {path}: {getattr(e, 'strerror', None) or e}") from None
    out = []
    for no, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except ValueError as e:
            what = "truncated or not valid JSON" if no == len(text.splitlines()) else "not valid JSON"
            raise ReplayError(f"{path}: line {no}: {what} ({getattr(e, 'msg', e)})") from None
        if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
            raise ReplayError(f"{path}: line {no}: not a log line (expected a JSON object with a \"type\")")
        out.append((no, obj))
    if not out:
        raise ReplayError(f"{path}: the log is empty")
    return out


def load_for_log(head: dict, where: str, ruleset=None):
    """The ruleset a log header names: ``ruleset`` if given, else its path, else a bundled name."""
    candidates = [ruleset] if ruleset else [head.get("path"), head.get("ruleset")]
    path = None
    for c in candidates:
        if isinstance(c, str) and c:
            p = ruleset_path(c)
            if p.is_file():
                path = p
                break
    if path is None:
        raise ReplayError(f"{where}: line 1: cannot find the ruleset of this log "
                          f"(path {head.get('path')!r}, name {head.get('ruleset')!r}); pass --ruleset PATH")
    try:
        return load(path, variant=head.get("variant"))
    except RulebookError as e:
        raise ReplayError([*ReplayError(f"{where}: line 1: the log's ruleset {path} does not load").diagnostics,
                           *e.diagnostics]) from None


def _check_header(head: dict, where: str) -> None:
    if head.get("type") != "header":
        raise ReplayError(f"{where}: line 1: expected a header line, found a {head.get('type')!r} line")
    if head.get("format") != FORMAT:
        raise ReplayError(f"{where}: line 1: log format {head.get('format')!r} is not supported (expected {FORMAT})")
    for key, typ in (("ruleset", str), ("hash", str), ("players", int), ("seed", int)):
        if not isinstance(head.get(key), typ):
            raise ReplayError(f"{where}: line 1: the header lacks a valid '{key}'")
    if not isinstance(head.get("params", {}), dict):
        raise ReplayError(f"{where}: line 1: the header's 'params' is not a mapping")


# ---------------------------------------------------------------------- replay
def replay(path, ruleset=None) -> dict:
    """Re-run a log and verify every decision, its events and the result.

    Returns {"decisions", "scores", "winners", "ruleset", "variant", "players", "seed"};
    raises ReplayError naming the first line that differs.
    """
    where = str(path)
    lines = read_log(path)
    first_no, head = lines[0]
    if first_no != 1:
        head = {"type": None}
    _check_header(head, where)
    if "redacted_for" in head:
        raise ReplayError(f"{where}: line 1: this log is redacted for seat {head['redacted_for']}; "
                          "only a full log can be replayed")
    rules = load_for_log(head, where, ruleset)
    if rules.hash != head["hash"]:
        raise ReplayError(f"{where}: line 1: the ruleset changed since this log was written: {rules.path} "
                          f"now has hash {rules.hash[:12]}, the log was written with {str(head['hash'])[:12]}")
    try:
        S = rules.new_game(head["players"], head["seed"], {"params": head.get("params") or {}}, record=True)
    except RulebookError as e:
        raise ReplayError(f"{where}: line 1: the game of this header cannot start: {e.message}") from None

    def fail(no, msg):
        raise ReplayError(f"{where}: line {no}: {msg}")

    initial = events_out(rules, S.ev)
    n = 0
    result_seen = error = None
    for no, obj in lines[1:]:
        kind = obj["type"]
        if result_seen is not None:
            fail(no, f"a '{kind}' line after the result line (line {result_seen})")
        if kind == "events":
            if n:
                fail(no, "an events line after the first decision")
            _same_events(obj.get("events"), initial, no, fail)
        elif kind == "decision":
            n += 1
            _replay_decision(S, rules, obj, n, no, fail)
        elif kind == "result":
            result_seen = no
            _check_result(S, obj, n, no, fail)
        elif kind == "error":
            result_seen = no
            error = _replay_error(S, obj, n + 1, no, fail)
        else:
            fail(no, f"unknown line type {kind!r}")
    if result_seen is None:
        last = lines[-1][0]
        fail(last, "the log ends here without a result line (truncated?)")
    if error is not None:
        return {"ruleset": rules.name, "variant": rules.variant, "players": S.n, "seed": S.seed,
                "decisions": n, "error": error}
    return {"ruleset": rules.name, "variant": rules.variant, "players": S.n, "seed": S.seed,
            "decisions": n, "scores": json.loads(json.dumps(S.scores())), "winners": S.winners()}


def _replay_error(S, obj, n, no, fail) -> str:
    """The logged failing decision: the same action must fail with the same message."""
    for key in ("seat", "action", "message"):
        if key not in obj:
            fail(no, f"the error line has no '{key}'")
    if S.is_terminal():
        fail(no, "an error line, but the game is already over")
    if "n" in obj and obj["n"] != n:
        fail(no, f"decision number {obj['n']!r}, expected {n}")
    seat, action, legal = obj["seat"], obj["action"], S.legal_actions()
    if seat != S.current_player() or action not in legal:
        fail(no, f"the failing decision (seat {seat!r}, {action!r}) is not this game's next "
                 f"decision (seat {S.current_player()}, '{S.prompt()}')")
    try:
        S.apply_index(legal.index(action))
    except RulebookError as e:
        if e.message != obj["message"]:
            fail(no, f"the decision fails again, but with another message: {e.message!r}")
        return e.message
    fail(no, f"the log says {action!r} failed ({obj['message']!r}), but the replay applies it")


def _replay_decision(S, rules, obj, n, no, fail) -> None:
    if S.is_terminal():
        fail(no, "a decision, but the game is already over")
    if "n" in obj and obj["n"] != n:
        fail(no, f"decision number {obj['n']!r}, expected {n}")
    for key in ("seat", "action"):
        if key not in obj:
            fail(no, f"the decision has no '{key}'")
    seat, action = obj["seat"], obj["action"]
    if seat != S.current_player():
        fail(no, f"the log has seat {seat!r} deciding, but it is seat {S.current_player()}'s "
                 f"decision ('{S.prompt()}')")
    if "prompt" in obj and obj["prompt"] != S.prompt():
        fail(no, f"the log has prompt {obj['prompt']!r}, but the game asks {S.prompt()!r}")
    legal = S.legal_actions()
    if not isinstance(action, str) or action not in legal:
        shown = ", ".join(legal[:20]) + (" ..." if len(legal) > 20 else "")
        fail(no, f"seat {seat} played {action!r}, which is not legal here; legal: {shown}")
    S.ev = []
    try:
        S.apply_index(legal.index(action))
    except RulebookError as e:
        fail(no, f"applying {action!r} failed: {e.message}")
    evs, S.ev = S.ev, None
    if "events" in obj:
        _same_events(obj["events"], events_out(rules, evs), no, fail)


def _same_events(logged, replayed, no, fail) -> None:
    if logged == replayed:
        return
    if not isinstance(logged, list):
        fail(no, "'events' is not a list")
    for k, (a, b) in enumerate(zip(logged, replayed)):
        if a != b:
            fail(no, f"event {k + 1} differs: the log has {json.dumps(a)}, the replay gives {json.dumps(b)}")
    fail(no, f"the log has {len(logged)} events, the replay gives {len(replayed)}")


def _check_result(S, obj, n, no, fail) -> None:
    if not S.is_terminal():
        fail(no, f"the log ends but the game is not over: seat {S.current_player()} must still decide "
                 f"'{S.prompt()}'")
    got = _result(S, n)
    for key in ("decisions", "scores", "winners", "breakdown"):
        if key in obj and obj[key] != got[key]:
            fail(no, f"{key}: the log has {json.dumps(obj[key])}, the replay gives {json.dumps(got[key])}")


# ---------------------------------------------------------------------- redaction
class Redactor:
    """Turns omniscient log lines into what seat ``seat`` may see.

    Kept deliberately simple:
    - an event that moves cards between zones (deal, move, pass, draw) shows its cards only
      when one of the zones it names is visible to all; otherwise "cards"/"card" become a
      "count" (so even the viewer's own draws show as counts: their hand is in observations);
    - another seat's action is replaced by "?" when it is a card's label and the (redacted)
      events of the same decision do not show that card (a card played face up to a public
      zone stays visible, a card passed face down does not);
    - the header gets "redacted_for": seat (such a log cannot be replayed); prompts, other
      events and the final result are public.
    """

    def __init__(self, rules, seat: int):
        self.seat = seat
        self.labels = set(rules.card_labels)
        self.public_zones = {name for name, decl in rules.zone_decl.items()
                             if (decl or {}).get("visible", "all") == "all"}

    def event(self, ev: dict) -> dict:
        if ev.get("ev") not in HIDDEN_EVENT_KINDS or not ("cards" in ev or "card" in ev):
            return ev
        zones = [ev.get(k) for k in ("zone", "from", "to")]
        if any(isinstance(z, str) and z in self.public_zones for z in zones):
            return ev
        out = {k: v for k, v in ev.items() if k not in ("cards", "card")}
        cards = ev.get("cards")
        out["count"] = (len(cards) if isinstance(cards, list) else 0) + (1 if "card" in ev else 0)
        return out

    def line(self, obj: dict) -> dict:
        kind = obj.get("type")
        if kind == "header":
            return {**obj, "redacted_for": self.seat}
        if kind == "error":   # another seat's failing action is hidden like its decisions' (no events shown)
            hidden = obj.get("seat") != self.seat and obj.get("action") in self.labels
            return {**obj, "action": HIDDEN} if hidden else obj
        if kind not in ("events", "decision"):
            return obj
        out = dict(obj)
        out["events"] = [self.event(e) for e in obj.get("events") or []]
        if kind == "decision" and obj.get("seat") != self.seat and obj.get("action") in self.labels:
            shown = set()
            for e in out["events"]:
                if isinstance(e.get("cards"), list):
                    shown.update(c for c in e["cards"] if isinstance(c, str))
                if isinstance(e.get("card"), str):
                    shown.add(e["card"])
            if obj["action"] not in shown:
                out["action"] = HIDDEN
        return out


def redact(log_lines: Iterable, seat: int, rules=None) -> list[dict]:
    """A copy of a log (JSON strings or dicts) as seat ``seat`` may see it (see Redactor)."""
    objs = [json.loads(x) if isinstance(x, str) else x for x in log_lines]
    objs = [o for o in objs if o]
    if not objs or objs[0].get("type") != "header":
        raise ReplayError("redact: the log does not start with a header line")
    if rules is None:
        rules = load_for_log(objs[0], "redact")
    if not 0 <= seat < int(objs[0].get("players", 0)):
        from ..errors import UsageError
        raise UsageError(f"redact: seat {seat} does not exist in this {objs[0].get('players')}-player game")
    r = Redactor(rules, seat)
    return [r.line(o) for o in objs]
