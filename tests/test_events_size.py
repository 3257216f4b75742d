"""The size of the events a recorded game keeps (engine/events.py): what each value costs to
keep, whatever its shape or its characters."""
import pytest

import interpreter
from interpreter.engine import events
from interpreter.web.games import LiveGame

GAME = """\
game: g
players: {min: 1, max: 1}
limits: {steps: 1000000}
vars:
  L: {type: "TYPE", start: "START"}
flow:
  - repeat: 1000
    steps:
      - choose: {who: 0, options: "[1, 2]", as: x}
      - repeat: 10
        steps:
          - set: {L: "L"}
"""


def _game(tmp_path, typ, start):
    path = tmp_path / "g.yaml"
    path.write_text(GAME.replace("TYPE", typ).replace("START", start), encoding="utf-8")
    return interpreter.load(path)


@pytest.mark.parametrize("typ, start", [("list[list[int]]", "map(1..1000, to: [])"),
                                        ("list[str]", "map(1..1000, to: '')")])
def test_empty_values_count_what_keeping_them_costs(tmp_path, monkeypatch, typ, start):
    # an empty list or text counted nothing: a live game setting a list of 10,000 of them grew
    # 40 MB a second without end, and a log's one decision past 3 GB. Every value counts at
    # least a number's width, so such a game stops on the size as any other
    rules = _game(tmp_path, typ, start)
    assert events.size([], 20) == events.size("", 20) == events.size({}, 20) == 20
    assert events.size([[], ""], 20) == 60   # (the list itself and each value in it)
    assert events.size(-3.3333333333333335e-301, 20) == 26 == len(repr(-3.3333333333333335e-301) + ", ")   # (JSON's width)
    assert events.size([[[[]]]], 20) == 80   # (lists nested: each of them counts)
    S = rules.new_game(1, 0, record=True)
    S.ev = events.Events(rules)
    S.apply_index(0)
    assert S.ev.size >= 10 * 1000 * 20
    monkeypatch.setattr(events, "MAX_GAME_EVENT_SIZE", 1_000_000)
    live = LiveGame(rules, 1, 0, "random")
    assert "events of more than 1000000 bytes in the game" in live.error
    assert len(live.positions) == 6   # (the setup, four decisions of 200,000 and more, the error)


def test_a_number_with_a_fraction_counts_its_width_as_a_game_records_it(tmp_path):
    # FLOAT_WIDTH was checked on size() alone: a decision's events, as Events.append counts them,
    # count each fraction set FLOAT_WIDTH (JSON may write -3.3333333333333335e-301), a whole number
    # NUMBER_WIDTH
    sizes = {}
    for typ, start in (("int", "-3"), ("num", "0 - 10 / 3 / 1000000000000000000")):
        rules = _game(tmp_path, typ, start)
        S = rules.new_game(1, 0, record=True)
        S.ev = events.Events(rules)
        S.apply_index(0)
        assert [type(ev["value"]) for ev in S.ev] == [float if typ == "num" else int] * 10
        sizes[typ] = S.ev.size
    assert sizes["num"] - sizes["int"] == 10 * (events.FLOAT_WIDTH - events.NUMBER_WIDTH) > 0


def test_a_text_counts_the_bytes_it_may_take_kept(tmp_path, monkeypatch):
    # a text counted its characters, an emoji one where it takes 4 bytes in memory and in a log,
    # 12 in JSON's escapes: a live game setting emoji held 412 MB where ASCII held 92. A character
    # of a text not printable ASCII counts WIDE = 6 at least, one outside the BMP 12 (its escapes)
    assert events.size("abc", 1) == 3 + 4   # (its quotes and the separator after it)
    assert events.size("😀é\x01", 1) == events.size({"ab": "😀é\x01"}, 1) - 2 - 4 - 1 == 12 + 2 * events.WIDE + 4
    assert events.text_size("a" * 30) == 30 and events.text_size("a\n") == 12 and events.text_size('"\\') == 4
    assert events.size("a", 20) == 20   # (the floor of any value: in size, the one definition)
    sizes = {}
    for text in ("a", "😀"):
        rules = _game(tmp_path, "str", f"'{text * 1000}'")
        S = rules.new_game(1, 0, record=True)
        S.ev = events.Events(rules)
        S.apply_index(0)
        sizes[text] = S.ev.size
    assert sizes["😀"] - sizes["a"] == 10 * 1000 * (12 - 1)


SHAPES = """\
game: g
players: {min: 1, max: 1}
params:
  t: TEXT
components:
  c: {attributes: {a: 1..30}, label: LABEL}
zones:
  deck: {owner: none, visible: all, start: [c]}
  pile: {owner: none, visible: all}
vars:
  s: {type: str, start: "''"}
  f: {type: num, start: 0}
  L: {type: "list[list[num]]", start: "[]"}
  M: {type: "list[list[str]]", start: "[]"}
  C: {type: "list[card]", start: "[]"}
flow:
  - choose: {who: 0, options: "[1, 2]", as: x}
  - set: {s: "params.t"}
  - set: {f: "-10 / 3 / 1000000000000000000 / 1000000000000000000"}
  - set: {L: "[[f, f, f, f, f, f, f, f, f, f], [], [f], [0 - 9223372036854775807]]"}
  - set: {M: "[[params.t, ''], [], [s, s]]"}
  - set: {C: "deck"}
  - move: {from: deck, to: pile, cards: "deck"}
  - move: {from: pile, to: deck, count: 1}
"""


def _yaml_text(text: str) -> str:
    """``text`` as a YAML double-quoted scalar (JSON's, with what YAML reads as a line break or
    refuses in a file escaped)."""
    import json
    return json.dumps(text, ensure_ascii=False).replace("\u2028", "\\u2028").replace("\x7f", "\\x7f")


@pytest.mark.parametrize("label, text", [
    ("{a}", '"' * 500), ("{a}", "\\" * 500), ("😀" * 190 + "{a}", "a"), ("é\"{a}", "😀" * 400),
    ("{a}", "\x01\n\u2028\x7fé" * 100), ("\\{a}\x01", '"\\😀' * 150)])
def test_the_size_counted_is_at_least_the_json_any_writer_makes(tmp_path, label, text):
    # a card counted its label's characters (198 emoji: a decision counted 9.5 MB made a 214 MB
    # page of the web viewer, whose JSON escapes them), a text of quotes or backslashes one each,
    # an emoji 6 where JSON's escapes write 12. What a decision's events count is at least the
    # JSON of them a log writes (its bytes) and the web viewer's (its ASCII escapes)
    import json
    from interpreter.play.logs.gamelog import _ENCODE, events_out
    path = tmp_path / "g.yaml"
    path.write_text(SHAPES.replace("TEXT", _yaml_text(text)).replace("LABEL", _yaml_text(label)), encoding="utf-8")
    rules = interpreter.load(path)
    S = rules.new_game(1, 0, record=True)
    S.ev = events.Events(rules)
    S.apply_index(0)
    out = events_out(rules, S.ev)
    assert out[0]["value"] == text and out[-2]["cards"][0] == label.replace("{a}", "1")
    for writer in (json.dumps, lambda v: _ENCODE(v).encode()):
        assert S.ev.size >= len(writer(out)), (S.ev.size, len(writer(out)))
        for ev, plain in zip(S.ev, out):   # (each event, with the ", " after it)
            assert events.size(ev, S.ev.each) >= len(writer(plain)) + 2


@pytest.mark.parametrize("value", [
    "", "a" * 50, '"' * 50, "\\" * 50, "😀" * 50, "é" * 50, "\x01" * 50, "\n\u2028\x7f" * 20, "a😀" * 20,
    -9223372036854775807, 0, True, None, -3.3333333333333335e-301, -1.7976931348623157e+308, float("inf"),
    [-9223372036854775807] * 8, [-9223372036854775807] * 9, [1.5e-300] * 12, ['"'] * 30, [[[]]], [{}] * 5,
    {"k": [1, 2, 3]}, {'"q"': '\\'}, {f"k{i}": -9223372036854775807 for i in range(8)}, {1: 2, "😀": []},
    [{"a": ["😀" * 3, [-1.0e-300, None]], "b": {"c": '"'}}] * 3])
def test_every_value_counts_at_least_its_json_and_separator(value):
    import json
    from interpreter.play.logs.gamelog import _ENCODE
    each = events.NUMBER_WIDTH
    assert events.size(value, each) >= len(json.dumps(value)) + 2
    assert events.size(value, each) >= len(_ENCODE(value).encode()) + 2


SECRET = """\
game: g
players: {min: 2, max: 2}
counters:
  c: 0
vars:
  _s: {type: str, start: "''"}
flow:
  - choose: {who: 0, options: "['a', 'TEXT']", as: _s}
  - set: {_s: "_s"}
  - repeat: 10
    steps:
      - gain: {counter: c}
  - choose: {who: 1, options: "[1, 2]", as: x}
"""


def test_a_seats_recall_is_cut_by_what_it_is_told(tmp_path, monkeypatch):
    # seat 1's recall was cut by the size of the move's events, the text seat 0 chose in secret
    # counted: it was told 7 or 6 public gains depending on that text. Each seat's recall is
    # bounded by the size of what it is told, as stored (its JSON text): a text not ASCII counts
    # 4 bytes a character, and is stored as it is, an emoji not 12 characters of escapes
    from interpreter.adapters import openspiel
    path = tmp_path / "g.yaml"
    monkeypatch.setattr(events, "MAX_EVENT_SIZE", 500)
    for text, wide in (("b" * 50, 1), ("😀" * 10, 4)):
        path.write_text(SECRET.replace("TEXT", text), encoding="utf-8")
        told = []
        for option in (0, 1):
            state = openspiel.load_game(str(path), players=2).new_initial_state()
            state.apply_action(state.legal_actions()[option])
            told.append(state.information_state_string(1))
        assert told[0] == told[1] and "more events not recalled" in told[0]
        # (of 10: the set's 26 characters as seat 1 is told it, each gain 56 and ", ", the brackets: within 500)
        assert told[0].count('"gain"') == 8
        path.write_text(SECRET.replace("TEXT", text).replace("_s", "s"), encoding="utf-8")   # (told to all)
        state = openspiel.load_game(str(path), players=2).new_initial_state()
        state.apply_action(state.legal_actions()[1])
        told = state.information_state_string(1)
        recalled = told.split("\n", 1)[0]   # (the move recalled; then the observation)
        assert recalled.count(text) == 2 and "\\ud83d" not in recalled   # (the action and the set's value)
        # the set's event, 86 characters of JSON (46 with emoji), and each gain 58, with their brackets and
        # commas: 4 bytes a character with emoji, so fewer gains within a move's 500
        assert told.count('"gain"') == (7 if wide == 1 else 1)


REPEATED = """\
game: g
players: {min: 2, max: 2}
counters:
  c: 0
vars:
  _s: {type: str, start: "''"}
  _k: {type: int, start: 0}
flow:
  - choose: {who: 0, options: "[1, 2]", as: _k}
  - repeat: 5
    steps:
      - set: {_s: "'TEXT' if _k == 2 else 'a'"}
  - repeat: 20
    steps:
      - gain: {counter: c}
  - choose: {who: 1, options: "[1, 2]", as: x}
"""


@pytest.mark.parametrize("text", ["b" * 400, "😀" * 100])
def test_a_seats_recall_never_depends_on_the_size_of_what_it_is_not_told(tmp_path, monkeypatch, text):
    # the move's events, hidden ones included, were kept while within players x MAX_EVENT_SIZE
    # and cut there for every seat: seat 1 recalled some public gains, or none when seat 0 chose
    # in secret to set a long private text 5 times (at the real bounds: 5 gains, or none and
    # "more events not recalled"). Each event is told to each seat as it is made and a seat's
    # recall is cut by what it is told only
    from interpreter.adapters import openspiel
    monkeypatch.setattr(events, "MAX_EVENT_SIZE", 500)
    path = tmp_path / "g.yaml"
    path.write_text(REPEATED.replace("TEXT", text), encoding="utf-8")
    told = []
    for option in (0, 1):
        state = openspiel.load_game(str(path), players=2).new_initial_state()
        state.apply_action(state.legal_actions()[option])
        told.append(state.information_state_string(1))
    assert told[0] == told[1] and "more events not recalled" in told[0]
    seat0 = state.information_state_string(0)   # (seat 0 sees nothing more of a private variable)
    assert seat0.split("\n")[0].count('"gain"') == told[1].split("\n")[0].count('"gain"') > 0


def test_a_log_line_of_many_events_is_never_built_whole(tmp_path, monkeypatch):
    # events_out turned a decision's events to plain data through one json.dumps of them all
    # (118 million characters for one line of emoji texts) before the log wrote them 256 at a
    # time: every text made of them is of 256 events at most
    import json
    from interpreter.play import agents
    from interpreter.play.logs import gamelog
    path = tmp_path / "g.yaml"
    path.write_text("game: g\nplayers: {min: 1, max: 1}\ncounters:\n  c: 0\nflow:\n"
                    "  - choose: {who: 0, options: \"[1, 2]\", as: x}\n"
                    "  - repeat: 2000\n    steps:\n      - gain: {counter: c}\n")
    longest = [0]

    def measured(encode):
        def text(*a, **k):
            out = encode(*a, **k)
            longest[0] = max(longest[0], len(out))
            return out
        return text
    monkeypatch.setattr(json, "dumps", measured(json.dumps))
    monkeypatch.setattr(gamelog, "_ENCODE", measured(gamelog._ENCODE))
    gamelog.play_game(interpreter.load(path), 1, 0, agents.make_agents("first", 1, 0), log=tmp_path / "a.jsonl")
    line = (tmp_path / "a.jsonl").read_text().splitlines()[2]
    assert line.count('"gain"') == 2000
    assert longest[0] < len(line) / 7   # (256 events of 2,000)
