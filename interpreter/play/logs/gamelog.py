"""Playing a game with agents, writing it as a JSON Lines log, replaying and redacting logs.

A log (format 3) is one JSON object per line:

    {"type": "header", "format": 3, "ruleset": "my_game", "hash": "<content hash>",
     "file_hash": "<hash of the ruleset file>", "path": "../rules/my_game.yaml", "bundled": false,
     "variant": null, "players": 4, "seed": 3, "agents": ["random", ...], "params": {"rounds": 1},
     "options": {"skill": [0.9, 0.6, 0.8, 0.8]}}
    {"type": "events", "events": [...]}                 # what happened before the first decision
    {"type": "decision", "n": 1, "seat": 1, "prompt": "pass_count", "action": "2", "events": [...]}
    {"type": "decision", "n": 2, "seat": 1, "prompt": "pass", "action": "7H", "events": [...], "seen_by": [1]}
    ...
    {"type": "result", "scores": [...], "winners": [...], "decisions": 180, "breakdown": [...]}

A game that stops on an error (a runtime error of the rules, a step budget exceeded, more than
``MAX_EVENTS`` events, or events of more than ``MAX_EVENT_SIZE``, recorded since the last
decision, or past their bounds over the game: engine/events.py) ends with the decision that
raised it instead of a result, so the failure is kept and replays (``calls``, only for an error
inside a declared effect: the items that called it, the nearest first, as the error's
diagnostic names them):

    {"type": "error", "n": 7, "seat": 0, "prompt": "pick", "action": "1", "message": "...", "loc": "f.yaml:14:15"}
    {"type": "error", ..., "loc": "f.yaml:30:7", "calls": ["f.yaml:22:7", "f.yaml:41:11"]}

A game whose rules fail while it is scored, after its last decision (a scoring category, a
tie-break, ``eligible``), ends with an error line in place of the result, naming no decision
(``ending``); ``summary`` on either (the message without its values: what a seat reads):

    {"type": "error", "decisions": 12, "message": "...", "loc": "f.yaml:40:8", "summary": "in scoring category p: ..."}

An agent that fails to decide (it raises, or chooses no option: its failure, not the rules')
ends the game with an error line naming the seat, its prompt and the ``agent``, no action,
located at the step asking (``agent_choice``):

    {"type": "error", "n": 5, "seat": 1, "prompt": "pick", "agent": "greedy", "message": "...", "loc": "f.yaml:20:5", "summary": "..."}

A game stopped before its end (``rulebook serve --log`` stopped by Ctrl-C or a terminate
signal) ends with a line that says so, so that its decisions replay and can be viewed:

    {"type": "stopped", "decisions": 12}

A line ends at a newline only (a text is written as it is: it may hold U+2028); what a log holds is
bounded by its bytes (``MAX_LOG_BYTES``) and by the JSON values its lines can make (``values``:
``MAX_LINE_VALUES`` a line, ``MAX_LOG_VALUES`` the log), which the writer and every reader count
alike on a line's bytes: the writer ends a log that would pass them with a ``stopped`` line saying
why, a reader refuses it before it parses the line.

``path`` is the ruleset file's path relative to the log's folder (a log written to a stream:
to the current folder), never the writer's absolute path; a bundled ruleset has none (its
``ruleset`` name finds it); a variant file (``variant``) is named the same way.
``params`` holds only the overrides given (``--set``); the rest follows from the ruleset;
``options`` the game options in effect (``--skill``, ``--resolve``), so that a replay plays the
same game. Events are the engine's event dicts (``{"ev": "gain", "counter": "safe", "who": 1,
"amount": 1}``) with card ids written as labels. An event that moves cards names them and
their zones: ``from``/``to``, and ``from_owner``/``to_owner`` for a zone owned by each player,
team or card: the owner's index (the seat, the team, or the card's number, its position in
the ruleset's card table, since labels need not be unique). ``seen_by`` (on a decision, an error
line or a ``forced`` event) lists the seats that can tell which option was chosen, when some
cannot (the option names a card or counter hidden from them). Logs are omniscient; ``redact``
(or ``--log-for SEAT``) makes the copy one seat may see.

Replaying a log is replay.py; redacting one for a seat is redact.py.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import IO, Callable, NoReturn

from ...engine.events import MAX_EVENT_SIZE, MAX_GAME_EVENT_SIZE, NUMBER_WIDTH, Events, Kept
from ...engine.sight import Choice
from ...errors import GameError, RulebookError, UsageError, figure
from ...loading.resources import resource_dir
from ..agents import choose, needs_knowledge
from .redact import OWNERS, Redactor

FORMAT = 3
# the older formats replay still reads: format 2, whose events may lack a field the rules add
# (replay.py ADDED); format 3 is format 2 with every such field written
OLDER = (2,)


# ---------------------------------------------------------------------- events


def events_out(rules, events) -> list[dict]:
    """Engine events as plain JSON data, every card id turned into its label: the cards an
    event moves ("cards"/"card"), the owner of a zone or counter owned by each card, and the
    value of a variable that holds cards (set, random, reveal)."""
    labels = rules.card_labels

    def label(c):
        return labels[c] if _is_id(c) and 0 <= c < len(labels) else c

    owners = {**rules.zone_owner, **rules.counter_owner}
    var_types = rules.names.vars
    out = []
    for ev in events or ():
        ev = dict(ev)
        if "cards" in ev and isinstance(ev["cards"], (list, tuple)):
            ev["cards"] = [label(c) for c in ev["cards"]]
        if "card" in ev:
            ev["card"] = label(ev["card"])
        for place, owner in OWNERS:
            if owner in ev and owners.get(ev.get(place)) == "card":
                ev[owner] = label(ev[owner])
        if "value" in ev and ev.get("ev") in ("set", "random", "reveal"):
            ev["value"] = _labelled(ev["value"], str(var_types.get(ev.get("var"))), label)
        out.append(ev)
    plain: list[dict] = []   # (tuples -> lists, exactly as a log reads back: _BATCH events at a time,
    for i in range(0, len(out), _BATCH):   # a line's text never built whole, LogWriter)
        plain += json.loads(_ENCODE(out[i:i + _BATCH]))
    return plain


def _labelled(value, typ: str, label):
    """A variable's value with its cards as labels (a reveal's is a list, one per seat)."""
    if typ == "card":
        return label(value)
    if typ == "list[card]" and isinstance(value, (list, tuple)):
        return [label(c) for c in value]
    return value


def logged_decision(rules, S, i: int, n: int, events: Callable[..., Events] = Events, before: Kept = (0, 0)):
    """Apply option ``i`` of the pending decision of ``S`` (which records events, in a new
    ``events``; ``before``: the game's events kept before it, ``Events.kept``): (its log line, None), or (the
    error line, the RulebookError) when the rules fail on it."""
    seat, prompt, label = S.current_player(), S.prompt(), S.legal_actions()[i]
    choice = Choice.pending(S, i)
    S.ev = events(rules, before)
    try:
        S.apply_index(i)
    except RulebookError as e:
        return ({"type": "error", "n": n, "seat": seat, "prompt": prompt, "action": label, **error_fields(e),
                 **seen_field(choice)}, e)
    return ({"type": "decision", "n": n, "seat": seat, "prompt": prompt, "action": label,
             "events": events_out(rules, S.ev), **seen_field(choice, S, S.ev)}, None)


def agent_choice(agent, name: str, S, seat: int, n: int) -> tuple[int, tuple | None]:
    """Seat ``seat``'s agent's choice for decision ``n``: (its index, None); or, when the agent
    fails (it raises, or chooses no option), (-1, (the error line, the GameError)): the agent
    failed, not the rules, located at the step asking. A person's input closing is not a failure."""
    count = len(S.dec[1])
    try:
        i = choose(agent, S, seat)
        what = None if _is_id(i) and 0 <= i < count else f"it chose {i!r}, not an index 0..{count - 1}"
    except UsageError:
        raise
    except Exception as e:   # (any fault of the agent's code; the game's rules run in their own try)
        what = e.message if isinstance(e, RulebookError) else f"{type(e).__name__}: {e}"
    if what is None:
        return i, None
    return -1, agent_failure(name, S, seat, n, what)


def agent_failure(name: str, S, seat: int, n: int, what: str) -> tuple[dict, GameError]:
    """(the error line, the GameError) of seat ``seat``'s agent failing decision ``n`` of ``S``
    (``what``: how), located at the step asking; its summary names no guess of the agent's."""
    step = S.rules.steps[S.stack[-1][0]] if S.stack else None
    said = f"seat {seat}'s agent '{name}' failed to decide '{S.prompt()}' (the agent failed, not the rules)"
    error = GameError(f"{said}: {what}", loc=step.loc if step is not None else None, code="agent")
    error.summary = said   # (its message may name what the agent guessed of hidden cards)
    return {"type": "error", "n": n, "seat": seat, "prompt": S.prompt(), "agent": name, **error_fields(error)}, error


def error_fields(e: RulebookError) -> dict:
    """An error line's account of ``e``: its message, where (``loc``, and ``calls`` inside a
    declared effect) and its ``summary`` (the message without the values it names: what a seat
    is shown, redact.py), when it has one."""
    return {"message": e.message, "loc": str(e.loc) if e.loc else None,
            **({"calls": [str(at) for at in e.calls]} if e.calls else {}),
            **({"summary": e.summary} if isinstance(e, GameError) and e.summary is not None else {})}


def ending(S, decisions: int) -> tuple[dict, RulebookError | None]:
    """The line a finished game's log ends with, after its ``decisions`` decisions: (its result
    line, None); or, when the rules fail while it is scored (a category, a tie-break,
    ``eligible``), (the error line, the error): ``{"type": "error", "decisions": N, "message": ...,
    "loc": ..., "summary": ...}``, which names no decision (each of them was applied)."""
    try:
        return {"type": "result", **result_line(S, decisions)}, None
    except RulebookError as e:
        return {"type": "error", "decisions": decisions, **error_fields(e)}, e


def seen_field(choice, S=None, events=()) -> dict:
    """``{"seen_by": [seats]}`` when some seat cannot tell which option was chosen (it does not
    see a card or counter the option names: engine/sight.py), else nothing. ``S`` and
    ``events``: the state and the engine events after the decision (None: it failed)."""
    seen = choice.seen_by(S, events)
    return {} if seen is None else {"seen_by": seen}


def _is_id(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


# ---------------------------------------------------------------------- playing
MAX_LOG_BYTES = 256 << 20   # a log this large is refused, not read (the longest seed game's is under 1 MB)
LOG_END_ROOM = 1 << 20      # of MAX_LOG_BYTES, kept for a log's last line (its result, error or stop)
# The JSON values a log's lines may make (``values``), which a reader counts on a line's bytes
# before it parses them, and the writer on the bytes it writes: a value kept costs 80 to 100
# bytes of memory whatever its text ("[]," is 3 bytes), so a log within MAX_LOG_BYTES could take
# 30 times its size. A game's events make at most 3 values for each NUMBER_WIDTH of their size
# (engine/events.py: every value counts at least that, a list or record that more of its own,
# and brings at most 2 brackets, commas or colons), so a line's events make at most
# LINE_EVENT_VALUES, a game's GAME_EVENT_VALUES; ``LINE_ROOM`` more is the room of a line's own
# fields and a header's parameters, and the rest of MAX_LOG_VALUES (DECISION_LINES_ROOM) the room
# of the lines' own fields (some DECISION_FIELD_VALUES a decision line; the bundled games' logs
# hold 46,665 values at most: docs/security.md, which quotes these figures: tests/test_docs.py).
LINE_EVENT_VALUES = 3 * MAX_EVENT_SIZE // NUMBER_WIDTH         # 1,363,636
GAME_EVENT_VALUES = 3 * MAX_GAME_EVENT_SIZE // NUMBER_WIDTH    # 6,818,181
LINE_ROOM = 1 << 20
MAX_LINE_VALUES = LINE_EVENT_VALUES + LINE_ROOM   # values of one line (docs/security.md)
MAX_LOG_VALUES = 1 << 25    # values of a log's lines together (docs/security.md)
LOG_END_VALUES = 1 << 20    # of MAX_LOG_VALUES, kept for a log's last line
DECISION_FIELD_VALUES = 20   # a decision line's values beside its events, about
# the decision lines a log may hold beside the most events a game's may make (1,231,954)
DECISION_LINES_ROOM = (MAX_LOG_VALUES - LOG_END_VALUES - LINE_ROOM - GAME_EVENT_VALUES) // DECISION_FIELD_VALUES

_TEXT = re.compile(rb'"[^"]*"')   # a text of a line, once its escaped backslashes and quotes are gone
_OTHERS = bytes(sorted(set(range(256)) - set(b'"[{,:')))
_WINDOW = 1 << 16   # bytes of a line looked at at once (a line of 200 MB is never copied whole)


def values(raw: bytes, start: int = 0, end: int | None = None, limit: float = float("inf")) -> int:
    """How many JSON values the line ``raw`` (its bytes as written; ``raw[start:end]``) can make
    at most, counted before any is made: one, and one for each ``[``, ``{``, ``,`` and ``:``
    outside its texts (every value but the first follows one: its list's or record's opening,
    a separator, its key's colon; a text of commas is one value); past ``limit``, some number
    past it (the count stops there). The writer and the readers of a log count alike. (Where
    JSON would read the line otherwise, it fails there, having made no more than was counted.)"""
    end = len(raw) if end is None else end
    count, inside = 1, False
    while start < end and count <= limit:
        stop = min(start + _WINDOW, end)
        part = raw[start:stop]   # (it starts where no escape is open: the part before ended whole)
        if stop < end and part[-1:] == b"\\" and (len(part) - len(part.rstrip(b"\\"))) % 2:
            stop += 1   # (an escape whole in one part: a run of backslashes counted, not walked)
            part = raw[start:stop]
        if b"\\" in part:   # (every quote left opens or closes a text)
            part = part.replace(b"\\\\", b"").replace(b'\\"', b"")
        kept = (b'"' if inside else b"") + part.translate(None, _OTHERS)   # its marks and quotes,
        kept = kept.replace(b'""', b"")   # without the texts holding no mark (a quote closing one opens none)
        quotes = kept.count(b'"')
        inside = quotes % 2 == 1
        if inside:   # (a text runs on into the next part: its marks are not counted)
            kept = kept[:kept.rfind(b'"')]
        count += len(_TEXT.sub(b"", kept)) if quotes else len(kept)
        start = stop
    return count


# The fields the writer writes on each kind of line after the header (a log of an older format:
# some of them, replay.py ADDED); a reader refuses any other (a note no writer wrote: "seat 2 cheated")
LINE_FIELDS = {"events": frozenset({"type", "events"}),
               "decision": frozenset({"type", "n", "seat", "prompt", "action", "events", "seen_by"}),
               "result": frozenset({"type", "scores", "winners", "decisions", "breakdown"}),
               "error": frozenset({"type", "n", "seat", "prompt", "action", "agent", "decisions", "message", "loc",
                                   "calls", "summary", "seen_by"}),
               "stopped": frozenset({"type", "decisions", "why"})}


class LogFull(GameError):
    """A log that would grow past what replay reads: it ends with a ``stopped`` line saying so."""


_ENCODE = json.JSONEncoder(ensure_ascii=False).encode   # (a line's text: as json.dumps writes it)


class LogWriter:
    """Writes log lines to a path or a text stream, redacted for one seat if asked. Its events
    and decision lines stay within ``MAX_LOG_BYTES - LOG_END_ROOM`` and ``MAX_LOG_VALUES -
    LOG_END_VALUES``, each within ``MAX_LINE_VALUES``: the one that would not ends the log with a
    ``stopped`` line instead (``why``: which bound), and raises LogFull, so every log written is
    one ``replay`` and ``view`` read. Such a line of many events is written out
    ``_BATCH`` events at a time, and refused once its text so far is past the room left: never
    built much larger (a decision's events are at most ``MAX_EVENT_SIZE``: engine/events.py;
    ``events_out`` made them plain ``_BATCH`` at a time too)."""

    def __init__(self, log, redactor=None, force: bool = False):
        self.redactor = redactor
        self.size = self.decisions = self.values = 0   # bytes written, decision lines written, values (``values``)
        self.own = isinstance(log, (str, Path))
        self.name = str(log) if self.own else str(getattr(log, "name", "the log"))   # (its stop is located there)
        # the header's paths are relative to the log's folder (a stream's: the current folder)
        self.folder = Path(log).resolve().parent if self.own else None
        if self.own and Path(log).exists() and not force:
            raise UsageError(f"--log {log}: the file exists; choose another name, or pass --force to replace it")
        try:
            self.f: IO[str] | None = open(log, "w", encoding="utf-8") if self.own else log
        except (OSError, ValueError) as e:   # (a folder that does not exist, no right to write, a NUL)
            raise UsageError(f"--log {log}: cannot write it: {getattr(e, 'strerror', None) or e}") from None

    def write(self, obj: dict) -> None:
        if self.f is None:
            return
        if obj.get("type") == "header" and self.folder is not None:
            obj = {**obj, **{k: rebased(obj[k], self.folder) for k in ("path", "variant")
                             if isinstance(obj.get(k), str) and (k == "path" or is_overlay(obj[k]))}}
        if self.redactor is not None:
            obj = self.redactor.line(obj)
        kind = obj.get("type")
        room = MAX_LOG_BYTES - LOG_END_ROOM - self.size if kind in ("events", "decision") else None
        text = _ENCODE(obj) + "\n" if room is None else _within(obj, room)
        raw = text.encode("utf-8") if text is not None else b""
        if text is None or room is not None and len(raw) > room:
            self._full(obj, f"the log would be larger than {MAX_LOG_BYTES >> 20} MB, which replay reads")
        left = min(MAX_LINE_VALUES, MAX_LOG_VALUES - LOG_END_VALUES - self.values) if room is not None else float("inf")
        count = values(raw, limit=left)   # (as replay counts them: the same bound)
        if count > left:
            self._full(obj, f"the log would hold more JSON values than the {figure(MAX_LINE_VALUES)} of a line"
                       if left == MAX_LINE_VALUES else
                       f"the log would hold more JSON values than the {figure(MAX_LOG_VALUES)} of a log")
        self.size += len(raw)
        self.values += count
        self.decisions += kind == "decision"
        self.f.write(text)

    def _full(self, obj: dict, why: str) -> NoReturn:
        """End the log with a ``stopped`` line saying ``why``, ``obj`` (an events or decision line) not written."""
        assert self.f is not None
        self.f.write(json.dumps({"type": "stopped", "decisions": self.decisions, "why": why}) + "\n")
        self.close()
        self.f = None
        line = (f"decision {obj.get('n')} (seat {obj.get('seat')}, '{obj.get('prompt')}') is"
                if obj.get("type") == "decision" else "the events before the first decision are")
        said = f"{line} not written: {why}; it ends with a stopped line after its {self.decisions} decisions"
        error = LogFull(f"{self.name}: {said}")
        error.summary = said   # (what a live game's page shows: not where the server writes)
        raise error

    def close(self) -> None:
        if self.own and self.f is not None:
            self.f.close()


_BATCH = 256   # events of a log line written out at once


def _within(line: dict, room: int) -> str | None:
    """The text of an events or decision ``line``, or None when it is longer than ``room``
    bytes: its events are written ``_BATCH`` at a time, and the batch that takes it past
    ``room`` characters (each at least a byte) stops it."""
    events = line.get("events")
    if not isinstance(events, list) or len(events) <= _BATCH:
        return _ENCODE(line) + "\n"
    head = _ENCODE({**line, "events": []})
    used = len(head) + 1
    parts = []
    for i in range(0, len(events), _BATCH):
        part = _ENCODE(events[i:i + _BATCH])[1:-1]
        used += len(part) + 2
        if used > room:
            return None
        parts.append(part)
    # (a key is never inside a string: each quote in one is escaped)
    return head.replace('"events": []', '"events": [' + ", ".join(parts) + "]", 1) + "\n"


def header(rules, players: int, seed: int, agents: list[str], params: dict, options: dict | None = None) -> dict:
    """The first line of a log: what it takes to play the same game again. Its paths are
    relative to the current folder (LogWriter makes them relative to its file's folder)."""
    path = Path(rules.path).resolve()
    bundled = path.parent == resource_dir("rulesets").resolve()
    variant = rules.variant
    if variant is not None and is_overlay(variant):
        variant = rebased(variant, Path.cwd())
    return {"type": "header", "format": FORMAT, "ruleset": rules.name, "hash": rules.hash,
            "file_hash": file_hash(path), "path": None if bundled else rebased(str(path), Path.cwd()),
            "bundled": bundled, "variant": variant, "players": players, "seed": seed, "agents": agents,
            "params": dict(params), "options": dict(options or {})}


def rebased(path: str, folder: Path) -> str:
    """``path`` (absolute, or relative to the current folder) relative to ``folder``, with ``/``
    (a reader on any machine resolves it against the log's folder); its file name alone when
    no relative path leads there (another drive)."""
    full = Path.cwd() / path
    try:
        return Path(os.path.relpath(full, folder)).as_posix()
    except ValueError:
        return full.name


def is_overlay(variant: str) -> bool:
    """Whether a header's variant names a file (an overlay), not a variant the ruleset declares."""
    return variant.endswith((".yaml", ".yml")) or "/" in variant or "\\" in variant


def file_hash(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def play_game(rules, players: int, seed: int, agents, options: dict | None = None, log=None,
              log_for: int | None = None, force: bool = False) -> dict:
    """Play one game; each seat's agent sees only its observation and the legal actions.

    ``log`` is a path or a text stream to write the JSON Lines log to (an existing file only with
    ``force``); ``log_for`` writes it redacted for that seat. Returns the result: ruleset,
    variant, players, seed, agents, params (the values in effect), overrides (the ones given),
    options (the game options in effect: skill, resolve), scores, winners, decisions,
    breakdown, decided (what decided the ranking, with the tie-break values).
    """
    options = dict(options or {})
    overrides = dict(options.get("params") or {})
    names = [getattr(a, "name", type(a).__name__) for a in agents]
    listening = [a for a in agents if hasattr(a, "hear")]   # (nothing else reads the events)
    S = rules.new_game(players, seed, options, record=log is not None or bool(listening),
                       knowledge=needs_knowledge(agents))
    writer = None
    if log is not None:
        if log_for is not None and not 0 <= log_for < players:
            raise UsageError(f"--log-for: seat {log_for} does not exist (seats 0 to {players - 1})")
        writer = LogWriter(log, Redactor(rules, log_for, S.members) if log_for is not None else None, force)
    game_options = json.loads(json.dumps(S.o))   # the checked values (a skill per seat...)
    # agents that are told what happens (a person at the terminal), each from its own seat
    listeners = [(Redactor(rules, seat, S.members), a) for seat, a in enumerate(agents) if hasattr(a, "hear")]
    for _, agent in listeners:
        if hasattr(agent, "seated"):
            agent.seated(rules, S.members)

    def tell(line):
        for redactor, agent in listeners:
            agent.hear(redactor.line(line))
    try:
        setup = {"type": "events", "events": events_out(rules, S.ev)}
        if writer:
            writer.write(header(rules, players, seed, names, overrides, game_options))
            writer.write(setup)
        tell(setup)
        # the game's events kept (a log's: bounded by MAX_GAME_EVENTS, their size; a listener keeps none)
        n, kept = 0, S.ev.kept() if writer and S.ev is not None else (0, 0)
        while not S.is_terminal():
            seat = S.current_player()
            i, failed = agent_choice(agents[seat], names[seat], S, seat, n + 1)
            n += 1
            if failed is not None:   # the game ends with the agent's failure, kept in the log
                if writer:
                    writer.write(failed[0])
                tell(failed[0])
                raise failed[1]
            if writer is None and not listeners:   # nothing to record
                S.ev = None
                S.apply_index(i)
                continue
            line, error = logged_decision(rules, S, i, n, before=kept)
            if writer:
                kept = S.ev.kept()
            if writer:
                writer.write(line)
            tell(line)
            if error is not None:   # kept in the log: the game's last line says what failed, and where
                raise error
        S.ev = None
        end, error = ending(S, n)
        if writer:
            writer.write(end)
        if error is not None:   # the game ended, and its scoring failed: told as any runtime error
            tell(end)
            raise error
        result = {k: v for k, v in end.items() if k != "type"}
    finally:
        if writer:
            writer.close()
    return {"ruleset": rules.name, "variant": rules.variant, "players": players, "seed": seed,
            "agents": names, "params": dict(S.p), "overrides": overrides, "options": game_options,
            **result, "decided": S.rules.scoring.decided(S)}


def result_line(S, decisions: int) -> dict:
    return json.loads(json.dumps({"scores": S.scores(), "winners": S.winners(), "decisions": decisions,
                                  "breakdown": S.breakdown()}))
