"""Reading a log back and replaying it: every decision, its events and the result verified.

A replay finds the log's ruleset without being told where it is (``--ruleset`` overrides):
finding.py. What a replay shows of a log, to a viewer or redacted for a seat, is the log as the
replay worked it out (each line as this engine writes it: its events and ``seen_by`` the
replay's), never a logged line's word: a log of an older format may lack what hides a value.

A log redacted for a seat (``"redacted_for"``, ``"replayable": false``) keeps no seed: it is
read line by line (redacted.py ``read_redacted``), never replayed.
"""
from __future__ import annotations

import codecs
import json
import re
from typing import Callable, Iterable, Iterator, NoReturn, Protocol

from ...errors import ReplayError, RulebookError, RulesetError, UsageError, figure
from ...loading.jsondata import JSONInputError, loads as json_loads
from ...loading.source import read_file
from ...engine.events import Events, Kept
from ...engine.sight import Choice
from .finding import load_for_log
from .gamelog import (FORMAT, LINE_FIELDS, MAX_LINE_VALUES, MAX_LOG_BYTES, MAX_LOG_VALUES, OLDER, agent_failure, ending,
                      error_fields, events_out, seen_field, values)
from .redact import Redactor


# ---------------------------------------------------------------------- reading logs


def read_log(path) -> list[tuple[int, dict]]:
    """(line number, object) for each non-blank line (``log_lines``)."""
    return list(log_lines(path))


def log_lines(path) -> Iterator[tuple[int, dict]]:
    """(line number, object) for each non-blank line, read one at a time, so a replay keeps one
    line of a log at a time; ReplayError for an unreadable log, bad JSON, or a line (or the
    lines so far) of more JSON values than the writer writes (gamelog.py ``values``, counted
    on the line's bytes before they are parsed). Only a regular file is read (a device or a
    named pipe would never end), at most MAX_LOG_BYTES of it; a UTF-8 byte order mark is
    allowed. Lines end at a newline only (a log's text may hold U+2028)."""
    try:
        raw = read_file(path, MAX_LOG_BYTES)
    except RulesetError as e:   # (read_file's reason, after its "cannot read file: PATH: ")
        why = f"larger than {MAX_LOG_BYTES >> 20} MB" if e.diagnostics[0].code == "limit" else e.message.rsplit(": ", 1)[-1]
        raise ReplayError(f"cannot read log {path}: {why}") from None
    at = len(codecs.BOM_UTF8) if raw.startswith(codecs.BOM_UTF8) else 0
    breaks = total = 0   # (the line breaks before ``at``; the values of the lines read)
    while True:
        start = _blank_to(raw, at)   # (blank lines skipped at once, however many)
        breaks += raw.count(b"\n", at, start)
        if start == len(raw):
            break
        end = raw.find(b"\n", start)
        end = len(raw) if end < 0 else end
        no, at = breaks + 1, end
        obj, total = parsed(raw, f"{path}: line {no}", total, _blank_to(raw, end) == len(raw), start, end)
        yield no, obj
    if not total:
        raise ReplayError(f"{path}: the log is empty")


_BLANK = re.compile(rb"[ \t\r\n]+")   # (JSON's white space)


def _blank_to(raw: bytes, at: int) -> int:
    """Where the white space of ``raw`` from ``at`` ends."""
    blank = _BLANK.match(raw, at)
    return at if blank is None else blank.end()


def parsed(raw: bytes, where: str, total: int, last: bool = False, start: int = 0,
           end: int | None = None) -> tuple[dict, int]:
    """(the log line ``raw[start:end]`` parsed, ``total`` and its values), refused before it is
    decoded and parsed when it would make more JSON values than a line (MAX_LINE_VALUES) or the
    log's lines so far (``total``, MAX_LOG_VALUES) the writer writes (gamelog.py ``values``).
    ``where``: "PATH: line N"; ``last``: no line follows (bad JSON there: perhaps truncated)."""
    room = min(MAX_LINE_VALUES, MAX_LOG_VALUES - total)
    count = values(raw, start, end, room)
    if count > room:
        what = (f"this line may make more JSON values than the {figure(MAX_LINE_VALUES)} of a line"
                if room == MAX_LINE_VALUES else
                f"the log's lines may make more JSON values than the {figure(MAX_LOG_VALUES)} of a log, up to this one")
        raise ReplayError(f"{where}: {what} (no game's log holds more): not read; was the log edited?")
    try:
        text = raw[start:end].decode("utf-8")
    except UnicodeDecodeError as e:
        raise ReplayError(f"{where}: not UTF-8 text (its byte {e.start + 1})") from None
    try:
        obj = json_loads(text, unique=True)   # (a key twice: a reader would take one of them)
    except JSONInputError as e:
        raise ReplayError(f"{where}: {'truncated or not valid JSON' if last else 'not valid JSON'} ({e.msg})") from None
    if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
        raise ReplayError(f"{where}: not a log line (expected a JSON object with a \"type\")")
    return obj, total + count


def _check_header(head: dict, where: str, replaying: bool) -> None:
    """A header's fields; ``replaying``: one that can be played again (not redacted: its seed)."""
    if head.get("type") != "header":
        raise ReplayError(f"{where}: line 1: expected a header line, found a {head.get('type')!r} line")
    if type(head.get("format")) is not int or head["format"] not in (*OLDER, FORMAT):   # (not 3.0, nor True)
        raise ReplayError(f"{where}: line 1: log format {head.get('format')!r} is not supported (expected "
                          f"{', '.join(map(str, OLDER))} or {FORMAT}; "
                          "a log of another format replays with the rulebook that wrote it)")
    if replaying and ("redacted_for" in head or head.get("replayable") is False):
        whose = f"redacted for seat {head['redacted_for']}" if "redacted_for" in head else "not replayable"
        raise ReplayError(f"{where}: line 1: this log is {whose}: it keeps no seed, and only a full log can be "
                          "replayed (rulebook view shows it as that seat saw it)")
    for key, typ in (("ruleset", str), ("hash", str), ("players", int), *((("seed", int),) if replaying else ())):
        if not isinstance(head.get(key), typ) or isinstance(head.get(key), bool):
            raise ReplayError(f"{where}: line 1: the header lacks a valid '{key}'")
    for key in ("params", "options"):
        if not isinstance(head.get(key, {}), dict):
            raise ReplayError(f"{where}: line 1: the header's '{key}' is not a mapping")


def read_headed(path, replaying: bool) -> tuple:
    """(the path as text, the (line number, line) pairs after its header, read as they are
    asked for: ``log_lines``, its header, checked)."""
    where = str(path)
    lines = log_lines(path)
    first_no, head = next(lines)
    if first_no != 1:   # (the first line is not a header: _check_header says so)
        head = {"type": None}
    _check_header(head, where, replaying)
    return where, lines, head


def rules_of(head: dict, where: str, ruleset=None):
    """The log's ruleset (load_for_log), refused if it changed since the log was written."""
    rules = load_for_log(head, where, ruleset)
    if rules.hash != head["hash"]:
        raise ReplayError(f"{where}: line 1: the ruleset changed since this log was written: {rules.path} "
                          f"now has hash {rules.hash[:12]}, the log was written with {str(head['hash'])[:12]}")
    return rules


# ---------------------------------------------------------------------- replay
class Recorder(Protocol):
    """What replay() gives each position to, as ``(line, state)``: a list, or the web viewer's
    Positions (web/games.py)."""

    def append(self, item: tuple, /) -> None: ...


def replay(path, ruleset=None, positions: Recorder | None = None) -> dict:
    """Re-run a log and verify every decision, its events and the result.

    Returns {"decisions", "scores", "winners", "ruleset", "variant", "players", "seed"}; for a
    log that ends on an error of the rules, "error" (its message, which the replay raised again)
    in place of the scores; on an agent's failure, "agent_failed" (``_agent_failed``: not
    re-played); stopped before its end, "stopped" and "waiting". Raises ReplayError naming the
    first line that differs. ``positions``: a list (any Recorder) that gets
    (line, a copy of the state after it) for the setup's events line and each decision (a
    viewer steps through them: interpreter/web/), each line as the replay worked it out (below).
    """
    where, lines, head = read_headed(path, replaying=True)
    return _replayed(where, lines, head, rules_of(head, where, ruleset), positions)


def _replayed(where: str, lines: Iterable, head: dict, rules, positions: Recorder | None = None,
              written: list | None = None) -> dict:
    """replay() of a log's (line number, line) pairs after its header (checked), with its
    ruleset: each is replayed as it comes, none kept.
    ``written`` gets each line after the header as the replay worked it out, and so does
    ``positions``: the line this engine writes for it (gamelog.py), its events, ``seen_by`` and
    an error's summary the replay's, so that what a seat is shown of a line never comes from the
    log's word (a log of an older format may lack a field that hides a value from a seat: ADDED)."""
    try:
        S = rules.new_game(head["players"], head["seed"], {**(head.get("options") or {}),
                                                           "params": head.get("params") or {}}, record=True)
    except RulebookError as e:
        raise ReplayError(f"{where}: line 1: the game of this header cannot start: {e.message}") from None

    def fail(no, msg) -> NoReturn:
        raise ReplayError(f"{where}: line {no}: {msg}")

    older = head["format"] in OLDER   # (its events may lack the fields ADDED names: _same_events)
    initial = events_out(rules, S.ev)
    kept = S.ev.kept()   # the game's events recorded, as its writer counted them (MAX_GAME_EVENTS, their size)
    S.ev = None
    n = 0
    result_seen = error = stopped = failed = setup = None
    line: dict
    no = 1
    for no, obj in lines:
        kind = obj["type"]
        if result_seen is not None:
            fail(no, f"a '{kind}' line after the result line (line {result_seen})")
        extra = sorted(obj.keys() - LINE_FIELDS.get(kind, obj.keys()))
        if extra:
            fail(no, f"the {kind} line has {', '.join(map(repr, extra))}, which no writer writes on one")
        if setup is None and not older and kind in ("decision", "result", "error"):   # (the writer writes it first)
            fail(no, f"a '{kind}' line, but no events line of the game's setup before it (a log of this format "
                     "has one after its header)")
        if kind == "events":
            if n:
                fail(no, "an events line after the first decision")
            if setup is not None:   # (a writer writes one: the setup's, line 2)
                fail(no, f"a second events line (line {setup} is the setup's: a log has one)")
            setup = no
            _same_events(obj.get("events"), initial, no, fail, older)
            line = {"type": "events", "events": initial}
        elif kind == "decision":
            n += 1
            kept, line = _replay_decision(S, rules, obj, n, no, fail, kept, older)
        elif kind == "result":
            result_seen = no
            line = _check_result(S, obj, n, no, fail)
        elif kind == "error":
            result_seen = no
            if "agent" in obj and "action" not in obj:   # an agent that failed (gamelog.agent_choice)
                failed, line = _agent_failed(S, head, obj, n + 1, no, fail)
            else:
                error, line = _replay_error(S, obj, n + 1, no, fail, kept, older)
        elif kind == "stopped":
            result_seen = stopped = no
            if S.is_terminal():
                fail(no, "a stopped line, but the game is over: its log ends with the result")
            if not same(obj.get("decisions"), n):
                fail(no, f"decisions: the log has {json.dumps(obj.get('decisions'))}, the replay gives {n}")
            line = {"type": "stopped", "decisions": n}
        else:
            fail(no, f"unknown line type {kind!r}")
        if written is not None:
            written.append(line)
        if positions is not None and kind in ("events", "decision", "error"):
            positions.append((line, S.clone()))
    if result_seen is None:
        fail(no, "the log ends here without a result line (truncated?)")
    if error is not None:
        return {"ruleset": rules.name, "variant": rules.variant, "players": S.n, "seed": S.seed,
                "decisions": n, "error": error}
    if failed is not None:
        return {"ruleset": rules.name, "variant": rules.variant, "players": S.n, "seed": S.seed,
                "decisions": n, "agent_failed": failed}
    if stopped is not None:
        return {"ruleset": rules.name, "variant": rules.variant, "players": S.n, "seed": S.seed,
                "decisions": n, "stopped": True, "waiting": {"seat": S.current_player(), "prompt": S.prompt()}}
    return {"ruleset": rules.name, "variant": rules.variant, "players": S.n, "seed": S.seed,
            "decisions": n, "scores": json.loads(json.dumps(S.scores())), "winners": S.winners()}


def _replay_error(S, obj, n, no, fail: Callable[[int, str], NoReturn], kept: Kept = (0, 0),
                  older: bool = False) -> tuple[str, dict]:
    """The logged failing decision: the same action must fail with the same message; an error
    line naming no decision (gamelog.ending): the game is over and its scoring fails so (an
    agent's failure: ``_agent_failed``). (The message, the line as the replay writes it.)"""
    if "seat" not in obj and "action" not in obj and "message" in obj:
        if not S.is_terminal():
            fail(no, f"an error line of the game's end, but the game is not over: seat {S.current_player()} must "
                     f"still decide '{S.prompt()}'")
        if not same(obj.get("decisions", n - 1), n - 1):
            fail(no, f"decisions: the log has {json.dumps(obj.get('decisions'))}, the replay gives {n - 1}")
        line, error = ending(S, n - 1)
        if error is None:
            fail(no, f"the log says the game's scoring failed ({obj['message']!r}), but the replay scores it")
        if error.message != obj["message"]:
            fail(no, f"the game's scoring fails again, but with another message: {error.message!r}")
        return error.message, line
    for key in ("seat", "action", "message"):
        if key not in obj:
            fail(no, f"the error line has no '{key}'")
    if S.is_terminal():
        fail(no, "an error line, but the game is already over")
    if "n" in obj and not same(obj["n"], n):
        fail(no, f"decision number {obj['n']!r}, expected {n}")
    seat, action, legal = S.current_player(), obj["action"], S.legal_actions()   # (the line: the replay's)
    if not same(obj["seat"], seat) or not isinstance(action, str) or action not in legal:
        fail(no, f"the failing decision (seat {obj['seat']!r}, {action!r}) is not this game's next "
                 f"decision (seat {S.current_player()}, '{S.prompt()}')")
    seen, prompt = seen_field(Choice.pending(S, legal.index(action))), S.prompt()
    _same_seen(obj, seen, no, fail, older)
    S.ev = Events(S.rules, kept)   # recorded as the log's writer did (a decision past MAX_EVENTS fails so)
    try:
        S.apply_index(legal.index(action))
    except RulebookError as e:
        S.ev = None
        if e.message != obj["message"]:
            fail(no, f"the decision fails again, but with another message: {e.message!r}")
        return e.message, {"type": "error", "n": n, "seat": seat, "prompt": prompt, "action": action,
                           **error_fields(e), **seen}
    fail(no, f"the log says {action!r} failed ({obj['message']!r}), but the replay applies it")


def _agent_failed(S, head: dict, obj, n, no, fail: Callable[[int, str], NoReturn]) -> tuple[dict, dict]:
    """The logged failure of an agent to decide (gamelog.agent_choice), which a replay cannot
    run again (the agent is not the rules): checked to be the game's next decision, asked of
    that seat with that prompt, by the agent the header names for it; its ``message`` is the
    log's word, kept as it is (shown only ``printable``; a seat reads the summary the replay
    writes). ({"seat", "agent", "decision", "message"}, the line as the replay writes it.)"""
    seat = obj.get("seat")
    if S.is_terminal() or type(seat) is not int or seat != S.current_player() or obj.get("prompt") != S.prompt():
        fail(no, f"an agent's failure (seat {seat!r}, {obj.get('prompt')!r}), but the game "
                 + ("is over" if S.is_terminal() else f"asks seat {S.current_player()} '{S.prompt()}'"))
    if "n" in obj and not same(obj["n"], n):
        fail(no, f"decision number {obj['n']!r}, expected {n}")
    agents = head.get("agents")
    named = agents[seat] if isinstance(agents, list) and len(agents) == S.n else None
    if not isinstance(named, str) or obj["agent"] != named:
        fail(no, f"an agent's failure of seat {seat}'s agent {obj['agent']!r}, but the header names "
                 + (f"{named!r} for seat {seat}" if isinstance(named, str) else "no agent of each seat"))
    if not isinstance(obj.get("message"), str):
        fail(no, "the error line has no 'message'")
    line = {**agent_failure(named, S, seat, n, "")[0], "message": obj["message"]}
    return {"seat": seat, "agent": named, "decision": n, "message": obj["message"]}, line


def _replay_decision(S, rules, obj, n, no, fail, kept: Kept = (0, 0), older: bool = False) -> tuple[Kept, dict]:
    """Check decision ``n`` (``obj``, line ``no``) of the game ``S`` (``kept``: its events
    recorded before it; ``older``: a log of an older format, ``ADDED``): (the events recorded
    with it, its line as the replay writes it: gamelog.logged_decision's)."""
    if S.is_terminal():
        fail(no, "a decision, but the game is already over")
    if "n" in obj and not same(obj["n"], n):
        fail(no, f"decision number {obj['n']!r}, expected {n}")
    for key in ("seat", "action"):
        if key not in obj:
            fail(no, f"the decision has no '{key}'")
    seat, action = S.current_player(), obj["action"]   # (the line: the replay's)
    if not same(obj["seat"], seat):
        fail(no, f"the log has seat {obj['seat']!r} deciding, but it is seat {seat}'s decision ('{S.prompt()}')")
    if "prompt" in obj and obj["prompt"] != S.prompt():
        fail(no, f"the log has prompt {obj['prompt']!r}, but the game asks {S.prompt()!r}")
    legal = S.legal_actions()
    if not isinstance(action, str) or action not in legal:
        shown = ", ".join(legal[:20]) + (" ..." if len(legal) > 20 else "")
        fail(no, f"seat {seat} played {action!r}, which is not legal here; legal: {shown}")
    choice, prompt = Choice.pending(S, legal.index(action)), S.prompt()
    S.ev = Events(rules, kept)
    try:
        S.apply_index(legal.index(action))
    except RulebookError as e:
        fail(no, f"applying {action!r} failed: {e.message}")
    evs, S.ev = S.ev, None
    line = {"type": "decision", "n": n, "seat": seat, "prompt": prompt, "action": action,
            "events": events_out(rules, evs), **seen_field(choice, S, evs)}
    if "events" in obj:
        _same_events(obj["events"], line["events"], no, fail, older)
    elif not older:   # (format 3 writes every decision's events)
        fail(no, "the decision has no 'events' (a log of this format has them on every decision)")
    _same_seen(obj, line, no, fail, older)
    return evs.kept(), line


def same(logged, replayed) -> bool:
    """Whether a value a log has is the replay's: equal and of the same JSON types throughout
    (Python's ``==`` takes ``true`` for 1 and ``2.0`` for 2, which no writer writes for them)."""
    if logged != replayed:
        return False
    return type(logged) in _SCALARS or json.dumps(logged, sort_keys=True) == json.dumps(replayed, sort_keys=True)


_SCALARS = (str, type(None))   # (equal, and so of one type: a text or null only equals one)


def _same_seen(obj, seen: dict, no, fail, older: bool = False) -> None:
    """A logged ``seen_by`` must be the replay's (none where every seat can tell); a log of an
    older format may have none where the replay gives one."""
    if ("seen_by" in obj or not older) and not same(obj.get("seen_by"), seen.get("seen_by")):
        fail(no, f"seen_by: the log has {json.dumps(obj.get('seen_by'))}, the replay gives "
                 f"{json.dumps(seen.get('seen_by'))}")


# The fields an engine adds to an event of a kind that a log of an older format (gamelog.OLDER)
# may lack: said by the rules, not by the play (who saw a forced move; ``var``, the private
# variable an announcement's value is kept in, which hides it from the other seats). An event
# of such a log without one is compared without it, every other field as it is; a log of the
# current format (gamelog.FORMAT) has them all.
ADDED = {"forced": ("seen_by",), "target": ("var",), "attempt": ("var",), "grid": ("var",)}


def _as_older(a, b):
    """The replayed event ``b`` without the fields ``ADDED`` forgives the logged ``a`` lacking."""
    added = ADDED.get(str(a.get("ev"))) if isinstance(a, dict) and isinstance(b, dict) else None
    missing = [k for k in added or () if k not in a]
    return {k: v for k, v in b.items() if k not in missing} if missing else b


def _same_events(logged, replayed, no, fail, older: bool = False) -> None:
    """The logged events must be the replay's (``older``: but for the fields ``ADDED`` names)."""
    if same(logged, replayed):
        return
    if not isinstance(logged, list):
        fail(no, "'events' is not a list")
    if older:
        replayed = [_as_older(a, b) for a, b in zip(logged, replayed)] + replayed[len(logged):]
        if same(logged, replayed):
            return
    for k, (a, b) in enumerate(zip(logged, replayed)):
        if not same(a, b):
            fail(no, f"event {k + 1} differs: the log has {json.dumps(a)}, the replay gives {json.dumps(b)}")
    fail(no, f"the log has {len(logged)} events, the replay gives {len(replayed)}")


def _check_result(S, obj, n, no, fail) -> dict:
    """The logged result must be the replay's (each field it has): the result line the replay writes."""
    if not S.is_terminal():
        fail(no, f"the log ends but the game is not over: seat {S.current_player()} must still decide "
                 f"'{S.prompt()}'")
    got, error = ending(S, n)
    if error is not None:   # (the log says it scored)
        fail(no, f"a result line, but the replay's scoring fails: {error.message}")
    for key in ("decisions", "scores", "winners", "breakdown"):
        if key in obj and not same(obj[key], got[key]):
            fail(no, f"{key}: the log has {json.dumps(obj[key])}, the replay gives {json.dumps(got[key])}")
    return got


def redact(log_lines: Iterable, seat: int, rules=None) -> list[dict]:
    """A copy of a full log (JSON strings or dicts) as seat ``seat`` may see it (see Redactor),
    made from its replay: each line as the replay worked it out (``_replayed``), never a logged
    line's word, so a log of an older format, lacking a field that hides a value from the seat,
    shows it no more than a log of the current one. A log that does not replay is refused
    (ReplayError: the line that differs), as is one redacted already."""
    lines = []   # (line number, object): a blank line skipped, as log_lines skips it, every other refused as it refuses it
    total = 0
    for no, x in enumerate(log_lines, 1):   # (a text: counted and parsed as a log's line is)
        if isinstance(x, str):
            if not x.strip():
                continue
            obj, total = parsed(x.encode("utf-8", "surrogatepass"), f"redact: line {no}", total)
        else:
            obj = x
        if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
            raise ReplayError(f"redact: line {no}: not a log line (expected a JSON object with a \"type\")")
        lines.append((no, obj))
    if not lines or lines[0][0] != 1 or lines[0][1]["type"] != "header":
        raise ReplayError("redact: the log does not start with a header line")
    head, players = lines[0][1], lines[0][1].get("players")
    if type(players) is int and not 0 <= seat < players:
        raise UsageError(f"redact: seat {seat} does not exist in this {players}-player game")
    _check_header(head, "redact", replaying=True)
    if rules is None:
        rules = rules_of(head, "redact")
    elif rules.hash != head["hash"]:
        raise ReplayError(f"redact: line 1: the log was written with ruleset hash {str(head['hash'])[:12]}, "
                          f"not this ruleset's ({rules.hash[:12]})")
    written: list = []
    _replayed("redact", lines[1:], head, rules, written=written)
    r = Redactor(rules, seat, rules.team_members(head["players"]))   # (its lines are this engine's: its format)
    return [r.line(o) for o in ({**head, "format": FORMAT}, *written)]
