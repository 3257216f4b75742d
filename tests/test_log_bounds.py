"""What a log may hold (play/logs/gamelog.py ``values``, MAX_LINE_VALUES, MAX_LOG_VALUES): the
JSON values a line can make, counted on its bytes before it is parsed, by the writer and by
every reader alike; a replay keeps one line at a time."""
from __future__ import annotations

import json
import random

import pytest

import interpreter
from interpreter.engine import events
from interpreter.errors import ReplayError
from interpreter.play import agents
from interpreter.play.logs import gamelog, replay
from interpreter.play.logs.gamelog import values
from interpreter.web.games import LogView
from interpreter.web.timeline import open_log
from helpers import write_log


def _outside(text: str) -> int:
    """One, and one for each [ { , : outside the texts of a JSON text, read character by character."""
    n, inside, escaped = 1, False, False
    for ch in text:
        if inside:
            escaped, inside = (False, True) if escaped else (ch == "\\", ch != '"')
        elif ch == '"':
            inside = True
        elif ch in "[{,:":
            n += 1
    return n


def _made(value) -> int:
    """The values json makes of a value: it, and those inside it (a record's keys too)."""
    if isinstance(value, list):
        return 1 + sum(map(_made, value))
    if isinstance(value, dict):
        return 1 + sum(1 + _made(v) for v in value.values())
    return 1


@pytest.mark.parametrize("window", [gamelog._WINDOW, 1, 2, 5])
def test_a_lines_values_are_its_brackets_commas_and_colons_outside_its_texts(monkeypatch, window):
    # counted on the bytes, never parsed: a text of commas, colons, escaped quotes and
    # backslashes is one value, whatever it holds; counted exactly, and never fewer than json
    # makes, a part of the line at a time (``window`` bytes: a text or an escape across parts)
    monkeypatch.setattr(gamelog, "_WINDOW", window)
    assert values(b'[[], [[]], {}]') == 8 and values(b"1") == 1
    assert values(json.dumps({"a": "x,y:[{", "b": [1, {"c": '\\"', "d": "\\", "e": 'q"r,'}]}).encode()) == 13
    assert values(json.dumps(["\u2028,", ",,,:" * 1000, {"": []}], ensure_ascii=False).encode()) == 7
    assert values(b'"' + b"a,b" * (10_000 if window < 100 else 100_000) + b'"') == 1   # (more than a window of it: one text)
    for run in (1, 2, 7, 38, 1001):   # (runs of escaped backslashes across parts, an escaped quote after one)
        assert values(json.dumps(["\\" * run + ',"[', "x", {"\\" * run: 1}]).encode()) == 6
    rnd = random.Random(5)
    chars = ["a", ",", ":", "[", "{", '"', "\\", "\n", "\u2028", "é", " "]

    def some(depth):
        r = rnd.random()
        if depth > 3 or r < 0.3:
            return "".join(rnd.choice(chars) for _ in range(rnd.randrange(4)))
        if r < 0.4:
            return rnd.randrange(-5, 500)
        if r < 0.7:
            return [some(depth + 1) for _ in range(rnd.randrange(4))]
        return {some(9): some(depth + 1) for _ in range(rnd.randrange(4))}
    for _ in range(3000 if window > 100 else 300):
        value = some(0)
        for text in (json.dumps(value), json.dumps(value, ensure_ascii=False)):
            assert values(text.encode()) == _outside(text) >= _made(value), text
            assert values(b"xx" + text.encode() + b"y", 2, len(text.encode()) + 2) == _outside(text)   # (a part of raw)


def test_a_run_of_backslashes_is_counted_a_part_at_a_time_not_a_byte_at_a_time(monkeypatch):
    # a part of the line that ended inside a run of escaped backslashes grew one byte at a time
    # through the run (a Python step each: 50 MB of them took 13.5 s to refuse, 1.9 s for
    # letters); the bytes of the line are now looked at a part at a time, whatever they hold
    monkeypatch.setattr(gamelog, "_WINDOW", 64)
    looks = []

    class Line(bytes):
        def __getitem__(self, at):
            looks.append(at)
            return super().__getitem__(at)
    raw = Line(b'["' + b"\\" * 50_000 + b'", 1]')
    assert values(raw) == 3
    assert len(looks) <= 2 * (len(raw) // 64 + 1)


@pytest.mark.parametrize("value", [[], [[[[]]]], {"": []}, {"a": [], "b": {}}, "", [""] * 40, list(range(30)),
                                   [{"": {"": []}}] * 20, [1.5, None, True]])
def test_events_make_at_most_three_values_for_each_number_width_of_their_size(value):
    # what MAX_LINE_VALUES and MAX_LOG_VALUES are made of: every value of an event counts at
    # least NUMBER_WIDTH of its size (engine/events.py), a list or record that of its own, and
    # brings at most two brackets, commas or colons; so a line of the engine's events within
    # MAX_EVENT_SIZE makes at most 3 * MAX_EVENT_SIZE // NUMBER_WIDTH values, the densest shapes too
    evs = [{"ev": "set", "var": "v", "value": value}] * 7
    size = sum(events.size(ev, events.NUMBER_WIDTH) for ev in evs)
    made = values(json.dumps(evs).encode()) - 1   # (the events' list: a line's own)
    assert made <= 3 * size // events.NUMBER_WIDTH
    assert gamelog.MAX_LINE_VALUES >= 3 * events.MAX_EVENT_SIZE // events.NUMBER_WIDTH + gamelog.LINE_ROOM
    assert gamelog.MAX_LOG_VALUES - gamelog.LOG_END_VALUES >= 3 * events.MAX_GAME_EVENT_SIZE // events.NUMBER_WIDTH


def _header(tmp_path):
    """A real game's log (tic-tac-toe), its lines as JSON objects."""
    path = tmp_path / "real.jsonl"
    gamelog.play_game(interpreter.load("tic_tac_toe"), 2, 1, agents.make_agents("random", 2, 1), log=path)
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_line_of_more_values_than_a_game_writes_is_refused_before_it_is_parsed(tmp_path, cli, monkeypatch):
    # a forged line of "[]," made some 25 times its bytes in memory as json parsed it whole
    # (a 30 MB line: 860 MB): its values are counted on its bytes first, and it is refused
    lines = _header(tmp_path)
    forged = tmp_path / "forged.jsonl"
    many = gamelog.MAX_LINE_VALUES // 2 + 1
    forged.write_text(json.dumps(lines[0]) + '\n{"type": "events", "events": [' + ",".join(["[]"] * many) + "]}\n")
    parsed = []
    monkeypatch.setattr(replay, "json_loads", lambda text, **kw: parsed.append(len(text)) or json.loads(text))
    code, out, err = cli("replay", forged)
    assert code == 1 and not out and "Traceback" not in err
    assert err.startswith(f"error[replay]: {forged}: line 2: this line may make more JSON values than the "
                          f"{gamelog.MAX_LINE_VALUES:,} of a line (no game's log holds more): not read")
    assert len(parsed) == 1   # (the header alone)


def test_every_reader_of_a_log_refuses_lines_past_the_values_of_a_log(tmp_path, monkeypatch):
    # the lines together are bounded too (a redacted log's timeline keeps them all): replay,
    # view (a full log, a redacted one) and redact read through the one check
    lines = _header(tmp_path)
    full = tmp_path / "full.jsonl"
    write_log(full, lines)
    red = tmp_path / "red.jsonl"
    write_log(red, replay.redact([json.dumps(o) for o in lines], 0))
    counts = [values(json.dumps(o).encode()) for o in lines]
    monkeypatch.setattr(replay, "MAX_LOG_VALUES", sum(counts[:4]))   # (lines 1 to 4, not 5)
    said = f"line 5: the log's lines may make more JSON values than the {sum(counts[:4]):,} of a log, up to this one"
    for read in (replay.replay, LogView, open_log):
        with pytest.raises(ReplayError, match=said):
            read(full)
    with pytest.raises(ReplayError, match=r"line \d: the log's lines may make more JSON values than the [\d,]+ of a log"):
        open_log(red)   # (a redacted log's timeline)
    with pytest.raises(ReplayError, match=f"redact: {said}"):
        replay.redact([json.dumps(o) for o in lines], 0)
    monkeypatch.setattr(replay, "MAX_LOG_VALUES", sum(counts))
    assert replay.replay(full)["decisions"] == len(lines) - 3


def test_the_writer_stops_a_log_before_it_holds_more_values_than_its_readers_read(tmp_path, monkeypatch):
    # one bound, defined once: the writer counts what it writes as the readers count what they read,
    # and ends a log that would pass it with a stopped line, which replays
    rules = interpreter.load("tic_tac_toe")
    lines = _header(tmp_path)
    room = sum(values(json.dumps(o, ensure_ascii=False).encode()) for o in lines[:4])
    for module in (gamelog, replay):
        monkeypatch.setattr(module, "MAX_LOG_VALUES", room + gamelog.LOG_END_VALUES)
    path = tmp_path / "stopped.jsonl"
    with pytest.raises(gamelog.LogFull, match=r"decision 3 \(seat 0, 'mark'\) is not written: the log would hold more "
                                              rf"JSON values than the {room + gamelog.LOG_END_VALUES:,} of a log"):
        gamelog.play_game(rules, 2, 1, agents.make_agents("random", 2, 1), log=path)
    assert replay.replay(path)["stopped"] and len(path.read_text().splitlines()) == 5
    fewer = values(json.dumps(lines[2], ensure_ascii=False).encode()) - 1   # (a line's bound too)
    monkeypatch.setattr(gamelog, "MAX_LINE_VALUES", fewer)
    monkeypatch.setattr(gamelog, "MAX_LOG_VALUES", 1 << 25)
    with pytest.raises(gamelog.LogFull, match=rf"decision 1 \(seat 0, 'mark'\) is not written: the log would hold more "
                                              rf"JSON values than the {fewer:,} of a line"):
        gamelog.play_game(rules, 2, 1, agents.make_agents("random", 2, 1), log=tmp_path / "line.jsonl")


def test_a_replay_reads_each_line_as_it_gets_to_it(tmp_path, monkeypatch):
    # the whole log was parsed before the first decision was replayed: a replay keeps one line
    # at a time (a viewer keeps its own lines: the replay's)
    path = tmp_path / "dc.jsonl"
    gamelog.play_game(interpreter.load("diamonds_club"), 4, 3, agents.make_agents("random", 4, 3), log=path)
    parsed = []
    monkeypatch.setattr(replay, "json_loads", lambda text, **kw: parsed.append(1) or json.loads(text))

    class Positions(list):
        def append(self, item):
            assert len(parsed) == len(self) + 2   # (the header, and the lines up to this one)
            super().append(item)
    positions = Positions()
    result = replay.replay(path, positions=positions)
    assert result["decisions"] == len(positions) - 1 > 300 and len(parsed) == len(positions) + 2


GAME = """\
game: g
players: {min: 1, max: 1}
limits: {steps: 1000000}
vars:
  L: {type: "list[list[int]]", start: "[]"}
  t: {type: str, start: "''"}
flow:
  - set: {t: "'a\\u2028b,c'"}
  - choose: {who: 0, options: "[1, 2]", as: x}
  - repeat: 20
    steps:
      - set: {L: "map(1..10000, to: [])"}
  - choose: {who: 0, options: "[1, 2]", as: y}
"""


def test_a_game_near_the_bounds_of_a_decisions_events_logs_and_replays(tmp_path):
    # a decision setting 200,000 empty lists (4 MB of MAX_EVENT_SIZE's 10, of the densest values:
    # 400,000 of MAX_LINE_VALUES' 2,412,212) is logged and replays; and a text holding U+2028,
    # written as it is, is read as one line (read as two, it was not JSON)
    path = tmp_path / "g.yaml"
    path.write_text(GAME, encoding="utf-8")
    rules = interpreter.load(path)
    log = tmp_path / "g.jsonl"
    gamelog.play_game(rules, 1, 0, agents.make_agents("first", 1, 0), log=log)
    raw = log.read_bytes().split(b"\n")
    assert "\u2028".encode() in raw[1] and len(raw) == 6   # (the header, the setup, 2 decisions, the result)
    assert 400_000 < values(raw[2]) <= 3 * 4_000_800 // events.NUMBER_WIDTH
    assert replay.replay(log)["decisions"] == 2


def test_lines_are_numbered_as_written_whatever_blank_lines_come_between(tmp_path):
    # blank lines are skipped at once (30 MB of them took 850 MB, a list of every line made
    # first); a byte order mark, CR LF and white space are read as before, each line numbered
    lines = _header(tmp_path)
    path = tmp_path / "spaced.jsonl"
    head, tail = "\r\n".join(map(json.dumps, lines[:3])), "\r\n".join(map(json.dumps, lines[3:]))
    path.write_bytes(("\ufeff" + head + "\r\n\n   \n\t\r\n" + tail + "\n \n").encode())
    assert [no for no, _ in replay.read_log(path)] == [1, 2, 3, *range(7, len(lines) + 4)]
    assert replay.replay(path)["decisions"] == len(lines) - 3
    path.write_bytes(("\ufeff" + head + "\r\n\n   \n\t\r\n").encode() + b"{\xff" + tail.encode())
    with pytest.raises(ReplayError, match=r"line 7: not UTF-8 text \(its byte 2\)"):
        replay.read_log(path)


def test_a_forced_moves_seen_by_counts_in_the_size_of_the_events(tmp_path):
    # a forced move's seen_by, known once the move is made, was added to its event after the
    # event was counted: up to 64 seats a move uncounted, past what the bounds of a line's
    # values assume. It counts as any field does
    from test_redaction import HUSH
    path = tmp_path / "hush.yaml"
    path.write_text(HUSH)
    rules = interpreter.load(path)
    S = rules.new_game(3, 2, record=True)
    seen = 0
    while not S.is_terminal():
        S.ev = events.Events(rules)
        S.apply_index(0)
        assert S.ev.size == sum(events.size(ev, S.ev.each) for ev in S.ev)
        seen += sum(1 for ev in S.ev if ev["ev"] == "forced" and "seen_by" in ev)
    assert seen
