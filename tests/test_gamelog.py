"""Agents, play_game, the JSON Lines log, replay verification and redaction."""
import hashlib
import io
import json
import re
from pathlib import Path

import pytest

import interpreter
from interpreter.play import agents
from interpreter.play.logs import gamelog, redacted, replay
from interpreter.errors import ReplayError, UsageError
from helpers import bundled, gaining, load_text, tiny_ruleset, write_log, write_ruleset


@pytest.fixture(scope="module")
def rules():
    return bundled("diamonds")


def short(rules, seed=3, players=4, log=None, **kw):
    return gamelog.play_game(rules, players, seed, agents.make_agents("random", players, seed),
                             {"params": {"rounds": 1}}, log=log, **kw)


# ---------------------------------------------------------------------- agents
def test_make_agents_one_name_for_all_and_per_seat():
    a = agents.make_agents("random", 3, 0)
    assert [x.name for x in a] == ["random"] * 3
    b = agents.make_agents("first, random ,human", 3, 0)
    assert [x.name for x in b] == ["first", "random", "human"]
    assert all(isinstance(x, agents.Agent) for x in b)


@pytest.mark.parametrize("spec,needle", [("random,first", "2 agents for 3 players"),
                                         ("frist", "did you mean 'first'?"), ("random,,first", "empty")])
def test_make_agents_errors(spec, needle):
    with pytest.raises(UsageError) as e:
        agents.make_agents(spec, 3, 0)
    assert needle in str(e.value) and e.value.exit_code == 2


def test_random_agent_is_seeded_by_game_and_seat():
    legal = [str(i) for i in range(50)]

    def picks(seed, seat):
        return [agents.RandomAgent(seed, seat).act({}, legal) for _ in range(1)] + \
            [a.act({}, legal) for a in [agents.RandomAgent(seed, seat)] for _ in range(20)]
    assert picks(1, 0) == picks(1, 0)
    assert picks(1, 0) != picks(1, 1) and picks(1, 0) != picks(2, 0)


def test_human_agent_reads_numbers_and_labels(rules):
    S = rules.new_game(3, 0)
    obs, legal = S.observation(S.current_player()), S.legal_actions()
    out = io.StringIO()
    h = agents.HumanAgent(0, S.current_player(), stdin=io.StringIO("nonsense\n9\n2\n"), stdout=out)
    assert h.act(obs, legal) == 1
    assert "not an option" in out.getvalue() and "hand:" in out.getvalue()
    h = agents.HumanAgent(0, 0, stdin=io.StringIO(legal[-1] + "\n"), stdout=io.StringIO())
    assert h.act(obs, legal) == len(legal) - 1
    with pytest.raises(UsageError):
        agents.HumanAgent(0, 0, stdin=io.StringIO(""), stdout=io.StringIO()).act(obs, legal)
    out = io.StringIO()
    assert agents.HumanAgent(0, 0, stdin=io.StringIO("1\n"), stdout=out).act(obs, legal[:1]) == 0
    assert "Enter takes 1" in out.getvalue() and "1-1" not in out.getvalue()


def test_agents_see_only_their_observation(rules):
    seen = []

    class Spy:
        name = "spy"

        def act(self, obs, legal):
            seen.append(obs)
            return 0
    gamelog.play_game(rules, 3, 1, [Spy(), Spy(), Spy()], {"params": {"rounds": 1}})
    for obs in seen:
        me = obs["player"]
        hands = obs["zones"]["hand"]
        assert isinstance(hands[me], list)
        assert all(isinstance(h, int) for i, h in enumerate(hands) if i != me)
        assert obs["legal_actions"]


# ---------------------------------------------------------------------- play and the log format
def test_play_game_result_and_log_format(rules, tmp_path):
    log = tmp_path / "g.jsonl"
    res = short(rules, log=log)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    head = lines[0]
    assert head == {"type": "header", "format": 3, "ruleset": "diamonds", "hash": rules.hash,
                    "file_hash": hashlib.sha256(Path(rules.path).read_bytes()).hexdigest(),
                    "path": None, "bundled": True,   # (a bundled ruleset: its name finds it)
                    "variant": None, "players": 4, "seed": 3, "agents": ["random"] * 4,
                    "params": {"rounds": 1}, "options": {}}
    assert lines[1]["type"] == "events" and any(e["ev"] == "deal" for e in lines[1]["events"])
    decisions = lines[2:-1]
    assert [d["n"] for d in decisions] == list(range(1, res["decisions"] + 1))
    assert all(d["type"] == "decision" and {"seat", "prompt", "action", "events"} <= set(d) for d in decisions)
    plays = [e for d in decisions for e in d["events"] if e["ev"] == "play"]
    assert plays and all(len(e["cards"]) == 1 and e["cards"][0] in rules.card_labels for e in plays)
    assert all(e["from"] == "hand" and e["to"] == "table" and e["from_owner"] == e["who"] for e in plays)
    assert lines[-1] == {"type": "result", "scores": res["scores"], "winners": res["winners"],
                         "decisions": res["decisions"], "breakdown": res["breakdown"]}


def test_same_seed_same_log(rules, tmp_path):
    short(rules, log=tmp_path / "a.jsonl")
    short(rules, log=tmp_path / "b.jsonl")
    assert (tmp_path / "a.jsonl").read_text() == (tmp_path / "b.jsonl").read_text()


def test_log_to_a_stream_and_card_ids_become_labels(rules):
    buf = io.StringIO()
    short(rules, log=buf)
    assert buf.getvalue().count("\n") > 10
    evs = gamelog.events_out(rules, [{"ev": "move", "cards": [0, 1, "x"]}, {"ev": "play", "card": 2}])
    assert evs == [{"ev": "move", "cards": [rules.card_labels[0], rules.card_labels[1], "x"]},
                   {"ev": "play", "card": rules.card_labels[2]}]


# ---------------------------------------------------------------------- replay
@pytest.fixture
def logged(rules, tmp_path):
    log = tmp_path / "g.jsonl"
    res = short(rules, log=log)
    return log, [json.loads(line) for line in log.read_text().splitlines()], res


def test_replay_ok(logged):
    log, _, res = logged
    r = replay.replay(log)
    assert r["decisions"] == res["decisions"] and r["scores"] == res["scores"] and r["winners"] == res["winners"]


def test_replay_variant_and_params(rules, tmp_path):
    teams = bundled("diamonds", "teams")
    log = tmp_path / "t.jsonl"
    res = gamelog.play_game(teams, 4, 9, agents.make_agents("first", 4, 9), {"params": {"rounds": 1}}, log=log)
    assert json.loads(log.read_text().splitlines()[0])["variant"] == "teams"
    assert replay.replay(log)["scores"] == res["scores"]


def mutate(log, objs, index, **changes):
    objs = [dict(o) for o in objs]
    objs[index].update(changes)
    write_log(log, objs)
    with pytest.raises(ReplayError) as e:
        replay.replay(log)
    return str(e.value)


def test_replay_detects_wrong_seat_prompt_action_events_result(logged):
    log, objs, _ = logged
    i = next(k for k, o in enumerate(objs) if o.get("prompt") == "play")
    d = objs[i]
    assert f"line {i + 1}: the log has seat" in mutate(log, objs, i, seat=(d["seat"] + 1) % 4)
    assert f"line {i + 1}: the log has prompt 'bid'" in mutate(log, objs, i, prompt="bid")
    msg = mutate(log, objs, i, action="99Z")
    assert f"line {i + 1}: seat {d['seat']} played '99Z', which is not legal here; legal: " in msg
    assert f"line {i + 1}: event 1 differs" in mutate(log, objs, i, events=[{"ev": "play", "who": 0, "card": "1D"}])
    assert "events, the replay gives" in mutate(log, objs, i, events=d["events"] + [{"ev": "end_game"}])
    assert "line 2: " in mutate(log, objs, 1, events=[])
    last = len(objs) - 1
    assert f"line {last + 1}: scores:" in mutate(log, objs, last, scores=[0, 0, 0, 0])
    assert f"line {last + 1}: winners:" in mutate(log, objs, last, winners=[])


def test_replay_structure_errors(logged):
    log, objs, _ = logged
    write_log(log, objs[:-1] + [objs[2]])          # one decision too many at the end
    with pytest.raises(ReplayError, match="game is already over"):
        replay.replay(log)
    write_log(log, objs[:5] + [objs[-1]])          # result while the game is running
    with pytest.raises(ReplayError, match="line 6: the log ends but the game is not over"):
        replay.replay(log)
    write_log(log, objs + [objs[-1]])
    with pytest.raises(ReplayError, match="after the result line"):
        replay.replay(log)
    write_log(log, objs[1:])
    with pytest.raises(ReplayError, match="line 1: expected a header"):
        replay.replay(log)
    write_log(log, [{**objs[0], "format": 99}] + objs[1:])
    with pytest.raises(ReplayError, match=r"format 99 is not supported \(expected 2 or 3;"):
        replay.replay(log)
    for fmt in (3.0, 2.0, True, "3"):   # a whole number only: 3.0 == 3 and True == 1 in Python, not in a log
        write_log(log, [{**objs[0], "format": fmt}] + objs[1:])
        with pytest.raises(ReplayError, match=rf"format {fmt!r} is not supported"):
            replay.replay(log)
    write_log(log, [{**objs[0], "players": 12}] + objs[1:])
    with pytest.raises(ReplayError, match="cannot start"):
        replay.replay(log)
    log.write_text("[1, 2]\n")
    with pytest.raises(ReplayError, match="not a log line"):
        replay.replay(log)


def test_replay_finds_the_ruleset_by_name_when_the_path_is_gone(logged):
    log, objs, _ = logged
    write_log(log, [{**objs[0], "path": "/nowhere/diamonds.yaml"}] + objs[1:])
    assert replay.replay(log)["decisions"] == len(objs) - 3
    write_log(log, [{**objs[0], "path": "/nowhere/x.yaml", "ruleset": "nosuchgame"}] + objs[1:])
    with pytest.raises(ReplayError, match="cannot find the ruleset"):
        replay.replay(log)


# ---------------------------------------------------------------------- redaction
def test_redact_hides_other_seats_hidden_choices(logged, rules):
    _, objs, _ = logged
    red = replay.redact([json.dumps(o) for o in objs], 1)
    assert red[0]["redacted_for"] == 1 and "redacted_for" not in objs[0]
    for o, r in zip(objs, red):
        if o.get("prompt") == "pass":   # shown to the receiver only when the card arrives alone
            alone = [e["cards"] for e in r["events"] if e["ev"] == "receive" and e["to_owner"] == 1] == [[o["action"]]]
            assert r["action"] == (o["action"] if o["seat"] == 1 or alone else "?")
            assert o["seat"] in o["seen_by"] and (1 in o["seen_by"]) == (alone or o["seat"] == 1)
        elif o.get("prompt") == "play":
            assert r["action"] == o["action"]            # played face up: every seat sees it
        elif o["type"] == "result":
            assert r == o


def test_redact_events_that_move_hidden_cards(rules):
    r = gamelog.Redactor(rules, 0)
    assert r.event({"ev": "move", "from": "deck", "to": "hand", "cards": ["1D", "2D"]}) == \
        {"ev": "move", "from": "deck", "to": "hand", "count": 2}
    public = {"ev": "move", "from": "hand", "to": "table", "cards": ["1D"]}
    assert r.event(public) == public
    assert r.event({"ev": "play", "who": 1, "card": "3D"}) == {"ev": "play", "who": 1, "card": "3D"}
    with pytest.raises(UsageError):
        replay.redact([{"type": "header", "players": 2}], 5, rules)


# ---------------------------------------------------------------------- a game that fails
FRAGILE = tiny_ruleset("""
counters:
  points: {owner: player, start: 0}
vars:
  x: {type: int, start: 0}
flow:
  - repeat: 5
    steps:
      - turns:
          steps:
            - choose: {options: "1..9", as: x, prompt: pick}
            - gain: {counter: points, amount: "12 // (x - 1)"}   # picking 1 divides by zero
scoring:
  categories: {points: points}
""", game="fragile", players=(2, 4), card="chip", attributes="v: 1..9", label="c{v}", deck="pool", seen="all")


def test_a_failing_game_ends_its_log_with_the_error_and_replays_it(tmp_path):
    rules = load_text(tmp_path, FRAGILE, "fragile.yaml")
    seed = next(s for s in range(50) if _fails(rules, s))
    log = tmp_path / "f.jsonl"
    with pytest.raises(interpreter.GameError, match="division by zero"):
        gamelog.play_game(rules, 2, seed, agents.make_agents("random", 2, seed), log=log)
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    last = lines[-1]
    assert last["type"] == "error" and last["action"] == "1" and "division by zero" in last["message"]
    assert last["n"] == sum(1 for x in lines if x["type"] == "decision") + 1
    gain_line = next(i for i, t in enumerate(FRAGILE.splitlines(), 1) if "12 // (x - 1)" in t)
    assert last["loc"].endswith(f":{gain_line}:15")                  # the gain that divides
    r = replay.replay(log)
    assert r["error"] == last["message"] and r["decisions"] == last["n"] - 1
    write_log(tmp_path / "t.jsonl", [*lines[:-1], {**last, "message": "something else"}])
    with pytest.raises(ReplayError, match="another message"):
        replay.replay(tmp_path / "t.jsonl")
    write_log(tmp_path / "u.jsonl", [*lines[:-1], {**last, "action": "5"}])
    with pytest.raises(ReplayError, match="but the replay applies it"):
        replay.replay(tmp_path / "u.jsonl")
    seen_by_other = gamelog.Redactor(rules, 1 - last["seat"]).line(last)
    assert seen_by_other["action"] == "1"                            # not a card label: nothing to hide
    # a runtime error's message never names the seed (a secret), in the full log or a seat's
    assert str(seed) not in last["message"] and seen_by_other["message"] == last["message"]
    mine = tmp_path / "mine.jsonl"
    with pytest.raises(interpreter.GameError):
        gamelog.play_game(rules, 2, seed, agents.make_agents("random", 2, seed), log=mine, log_for=0)
    assert f"seed {seed}" not in mine.read_text().splitlines()[-1]
    assert redacted.read_redacted(mine)[2][-1][1]["type"] == "error"


def test_a_redacted_log_keeps_no_seed_and_says_it_cannot_be_replayed(rules, tmp_path):
    seed = 8765432123456789
    full, mine = tmp_path / "full.jsonl", tmp_path / "mine.jsonl"
    for log, log_for in ((full, None), (mine, 2)):
        gamelog.play_game(rules, 4, seed, agents.make_agents("random", 4, seed), {"params": {"rounds": 1}},
                          log=log, log_for=log_for)
    head = json.loads(mine.read_text().splitlines()[0])
    assert "seed" not in head and head["redacted_for"] == 2 and head["replayable"] is False
    assert str(seed) not in mine.read_text()
    by_redact = replay.redact(full.read_text().splitlines(), 2)
    assert by_redact[0] == head and str(seed) not in json.dumps(by_redact)
    with pytest.raises(ReplayError, match="redacted for seat 2: it keeps no seed"):
        replay.replay(mine)
    write_log(tmp_path / "r.jsonl", [{k: v for k, v in head.items() if k != "redacted_for"}] + by_redact[1:])
    with pytest.raises(ReplayError, match="not replayable"):
        replay.replay(tmp_path / "r.jsonl")
    ruleset, read_head, body = redacted.read_redacted(mine)   # what rulebook view reads
    assert ruleset.hash == rules.hash and read_head["players"] == 4 and body[-1][1]["type"] == "result"


def _fails(rules, seed):
    try:
        gamelog.play_game(rules, 2, seed, agents.make_agents("random", 2, seed))
    except interpreter.GameError:
        return True
    return False


# ---------------------------------------------------------------------- the events kept between decisions
EVENTFUL = """\
game: eventful
players: {min: 1, max: 1}
counters:
  c: 0
vars:
  x: int
flow:
  - repeat: SETUP
    steps:
      - gain: {counter: c}
  - choose: {who: 0, options: "[1, 2]", as: x}
  - repeat: 30
    steps:
      - gain: {counter: c}
"""


def test_a_recorded_game_stops_past_the_events_kept_between_two_decisions(tmp_path, monkeypatch):
    # a log (and a live game) keeps a decision's events until its line is written: 4,000,000
    # gains before the first decision filled 2 GB. Past MAX_EVENTS the game stops at the rule
    # that made one more, its log's last line saying so (never an event dropped unsaid), in
    # the generated module and the plain reference alike; a game nobody records plays on
    from fuzzing.lockstep import reference
    from interpreter.engine import events
    from interpreter.errors import GameError
    from interpreter.web.games import LiveGame
    monkeypatch.setattr(events, "MAX_EVENTS", 20)
    path = tmp_path / "g.yaml"
    path.write_text(EVENTFUL.replace("SETUP", "10"))
    rules = interpreter.load(path)
    log = tmp_path / "g.jsonl"
    with pytest.raises(GameError, match="more than 20 events since the last decision"):
        gamelog.play_game(rules, 1, 0, agents.make_agents("first", 1, 0), log=log)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(lines[1]["events"]) == 10
    assert lines[-1]["type"] == "error" and lines[-1]["loc"] == f"{path}:14:9"
    assert lines[-1]["message"].startswith("in effects: more than 20 events since the last decision")
    assert replay.replay(log)["error"] == lines[-1]["message"]   # (the stop replays: the same error)
    for way in (rules, reference(rules)):
        line, error = gamelog.logged_decision(way, way.new_game(1, 0, record=True), 0, 1)
        assert {k: line[k] for k in ("type", "message", "loc")} == {k: lines[-1][k] for k in ("type", "message", "loc")}
    live = LiveGame(rules, 1, 0, "random")
    assert "more than 20 events since the last decision" in live.error
    assert gamelog.play_game(rules, 1, 0, agents.make_agents("first", 1, 0))["decisions"] == 1
    path.write_text(EVENTFUL.replace("SETUP", "21"))   # before the first decision: the game does not start
    with pytest.raises(GameError, match=r"g.yaml:10:9: error\[runtime\]: in effects: more than 20 events"):
        gamelog.play_game(interpreter.load(path), 1, 0, agents.make_agents("first", 1, 0), log=tmp_path / "h.jsonl")


def test_a_recorded_game_stops_past_the_events_kept_over_the_whole_game(tmp_path, monkeypatch):
    # a live game keeps every position's events (19 million filled 4.9 GB), a log every line:
    # past MAX_GAME_EVENTS over the game it stops, located, and its log's stop replays the same;
    # a game nobody records plays on
    from interpreter.engine import events
    from interpreter.errors import GameError
    from interpreter.web.games import LiveGame
    monkeypatch.setattr(events, "MAX_GAME_EVENTS", 50)
    path = tmp_path / "g.yaml"
    path.write_text(gaining(10))
    rules = interpreter.load(path)
    live = LiveGame(rules, 1, 0, "random")
    assert "more than 50 events in the game" in live.error and len(live.positions) == 7   # (the setup, 5 decisions, the error)
    assert sum(len(line.get("events") or ()) for line in live.positions.lines) == 50
    log = tmp_path / "g.jsonl"
    with pytest.raises(GameError, match=r"g.yaml:11:13: error\[runtime\]: in effects: more than 50 events in the game"):
        gamelog.play_game(rules, 1, 0, agents.make_agents("first", 1, 0), log=log)
    assert replay.replay(log)["error"].startswith("in effects: more than 50 events in the game")
    assert gamelog.play_game(rules, 1, 0, agents.make_agents("first", 1, 0))["decisions"] == 10


BIG_EVENTS = """\
game: g
players: {min: 1, max: 1}
components:
  c: {attributes: {a: 1..50}, label: "LABEL{a}"}
zones:
  deck: {owner: none, visible: all, start: [c]}
  pile: {owner: none, visible: all}
vars:
  s: {type: str, start: "'abcdefghij'"}
flow:
  - repeat: 4
    steps:
      - set: {s: "s + s"}
  - repeat: 10
    steps:
      - choose: {who: 0, options: "[1, 2]", as: x}
      - repeat: 3
        steps:
          - set: {s: "s"}
          - move: {from: deck, to: pile}
          - move: {from: pile, to: deck}
"""


def test_a_recorded_game_stops_past_the_size_of_the_events_it_keeps(tmp_path, monkeypatch):
    # one event may carry a text of 100,000 characters or move 100,000 cards: a live game kept
    # 4,013 sets of an 81,920-character text (507 MB), 40 moves of 100,000 labelled cards (1.25
    # GB). What is kept is bounded by its size too (texts' characters, a card its label's, a
    # number 22, any value at least 22, each with its quotes and separator: tests/test_events_size.py),
    # counted as each event is appended: past MAX_EVENT_SIZE in a decision, or
    # MAX_GAME_EVENT_SIZE in the game, the game stops located, and its log's stop replays the same
    from interpreter.engine import events
    from interpreter.errors import GameError
    from interpreter.web.games import LiveGame
    path = tmp_path / "g.yaml"
    path.write_text(BIG_EVENTS.replace("LABEL", "x" * 100))
    rules = interpreter.load(path)
    # (each name with its quotes and ": ", each value with its separator, and the record itself)
    assert events.size({"ev": "set", "var": "s", "value": "a" * 160}, 20) == 6 + 20 + 7 + 20 + 9 + 164 + 20
    S = rules.new_game(1, 0, record=True)
    S.ev = events.Events(rules)
    S.apply_index(0)
    # a decision's three sets of 160 characters, six moves of 50 cards of 102-character labels
    # (each the widest label's, with its quotes and separator), and the names of the events' fields and zones
    assert S.ev.size == sum(events.size(ev, 106) for ev in S.ev) > 3 * 160 + 6 * 50 * 106
    per_decision = S.ev.size
    monkeypatch.setattr(events, "MAX_EVENT_SIZE", per_decision - 1)
    with pytest.raises(GameError, match=r"g.yaml:2\d:\d+: error\[runtime\]: in effects: events of more than "
                                        rf"{per_decision - 1} bytes since the last decision"):
        gamelog.play_game(rules, 1, 0, agents.make_agents("first", 1, 0), log=tmp_path / "a.jsonl")
    assert replay.replay(tmp_path / "a.jsonl")["error"].startswith("in effects: events of more than")
    monkeypatch.setattr(events, "MAX_EVENT_SIZE", per_decision)
    setup = rules.new_game(1, 0, record=True).ev.size   # (the events before the first decision)
    monkeypatch.setattr(events, "MAX_GAME_EVENT_SIZE", 4 * per_decision + setup)
    live = LiveGame(rules, 1, 0, "random")
    assert "bytes in the game" in live.error and len(live.positions) == 6   # (the setup, 4 decisions, the error)
    with pytest.raises(GameError, match=r"error\[runtime\]: in effects: events of more than \d+ bytes in the game"):
        gamelog.play_game(rules, 1, 0, agents.make_agents("first", 1, 0), log=tmp_path / "b.jsonl")
    assert replay.replay(tmp_path / "b.jsonl")["error"].startswith("in effects: events of more than")
    assert gamelog.play_game(rules, 1, 0, agents.make_agents("first", 1, 0))["decisions"] == 10   # (nothing recorded)


def test_a_person_at_the_terminal_keeps_no_events_and_stops_no_game(monkeypatch):
    # an agent told what happens (a person at the terminal) prints each line and keeps none: a
    # game played so, no log written, is not stopped by the bounds of a game's events kept
    from interpreter.engine import events
    monkeypatch.setattr(events, "MAX_GAME_EVENTS", 50)

    class Person:
        name = "person"

        def act(self, obs, legal):
            return 0

        def hear(self, line):
            pass
    rules = interpreter.load("diamonds")
    assert gamelog.play_game(rules, 3, 1, [Person(), *agents.make_agents("first", 2, 0)])["decisions"] > 50


def test_a_log_line_past_the_room_left_is_refused_before_it_is_written_out(tmp_path, monkeypatch):
    # play --log built a whole decision line of 1.49 GB with json.dumps before it checked its
    # size: the line is written out a few hundred events at a time, refused past the room left
    monkeypatch.setattr(gamelog, "MAX_LOG_BYTES", 100_000)
    monkeypatch.setattr(gamelog, "LOG_END_ROOM", 1_000)
    encoded = []
    monkeypatch.setattr(gamelog, "_ENCODE", lambda obj, encode=gamelog._ENCODE: encoded.append(text := encode(obj)) or text)
    writer = gamelog.LogWriter(tmp_path / "g.jsonl")
    line = {"type": "decision", "n": 1, "seat": 0, "prompt": "p", "action": "1",
            "events": [{"ev": "set", "var": "s", "value": "x" * 100}] * 10_000, "seen_by": [0]}
    assert gamelog._within(line, 10**7) == json.dumps(line, ensure_ascii=False) + "\n"   # (as json.dumps writes it)
    encoded.clear()
    with pytest.raises(gamelog.LogFull, match=r"g.jsonl: decision 1 \(seat 0, 'p'\) is not written"):
        writer.write(line)
    assert sum(map(len, encoded)) < 200_000 < len(gamelog._within(line, 10**7))
    assert (tmp_path / "g.jsonl").read_text().startswith('{"type": "stopped", "decisions": 0')


def test_a_redacted_log_is_refused_at_a_line_no_writer_writes_so_the_viewer_keeps_no_more(tmp_path):
    # every line of a redacted log is kept (the viewer's timeline): lines of {"type": "decision"},
    # 19 bytes each, kept some 450 bytes each (a log of 255 MB, some 9 GB); now a decision line
    # has each field of its type and no other, is the next decision, and a log holds no more
    # decisions than its game's step budget, each counting one
    path = write_ruleset(tmp_path, """\
        game: lim
        players: {min: 2, max: 2}
        limits: {steps: 30}
        vars:
          x: {type: int, start: "0"}
        flow:
          - choose: {who: 0, options: "[1, 2]", as: x}
        """)
    rules = interpreter.load(path)
    mine = tmp_path / "mine.jsonl"
    gamelog.play_game(rules, 2, 1, agents.make_agents("random", 2, 1), log=mine, log_for=1)
    lines = [json.loads(line) for line in mine.read_text().splitlines()]
    assert [line["type"] for line in lines] == ["header", "events", "decision", "result"]
    assert redacted.read_redacted(mine)[2][1][1] == lines[2]
    decision = lines[2]
    log = tmp_path / "r.jsonl"
    for changed, said in (
            ([{"type": "decision"}] * 3, "line 3: the decision has no valid 'n'"),
            ([{**decision, "seat": "0"}], "line 3: the decision has no valid 'seat'"),
            ([{**decision, "note": 1}], "line 3: the decision line has 'note', which no writer writes on one"),
            ([decision, decision], "line 4: decision 1 of seat 0: not decision 2 of a seat"),
            ([{**decision, "seat": 2}], "line 3: decision 1 of seat 2: not decision 1 of a seat"),
            ([{**decision, "n": n} for n in range(1, 32)], "line 33: more decisions than the game's step budget of 30")):
        write_log(log, [*lines[:2], *changed, lines[-1]])
        with pytest.raises(ReplayError, match=re.escape(said)):
            redacted.read_redacted(log)
    write_log(log, [*lines[:2], *({**decision, "n": n} for n in range(1, 31)), lines[-1]])
    assert len(redacted.read_redacted(log)[2]) == 32   # (as many as the budget: read)
