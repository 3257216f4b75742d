"""The web viewer without a browser: the table a seat sees, a log's positions, a live game,
and the HTTP API (tests/test_web_browser.py drives the page itself in Chromium)."""
from __future__ import annotations

import json
from pathlib import Path
from contextlib import ExitStack, contextmanager
import urllib.error
import urllib.parse
import urllib.request

import pytest

import interpreter
from interpreter.errors import GameError
from interpreter.play.agents import make_agents
from interpreter.play.logs.gamelog import play_game
from interpreter.web.server import make_server, serving
from interpreter.web.games import LiveGame, LogView
from interpreter.play.display.table import Table
from helpers import ONE_DECISION, load_text, tiny_ruleset

SEEDS = [("diamonds", 4), ("diams", 3), ("mister_diamond", 3), ("diamonds_club", 3)]


def _walk(rules, players, seed, steps):
    S = rules.new_game(players, seed)
    for i in range(steps):
        if S.over:
            break
        S.apply_index((i * 7) % len(S.dec[1]))
    return S


def _labels(items, name):
    """The card labels of zone ``name`` among a panel's items (None: not shown card by card)."""
    for it in items:
        if it["name"] == name and it["kind"] == "zone":
            if it.get("hidden"):
                return None
            return [c["label"] for c in it.get("cards") or []] or [
                g["label"] for g in it.get("groups") or [] for _ in range(g["count"])]
    raise AssertionError(f"no zone {name}")


@pytest.mark.parametrize("name,players", SEEDS)
def test_a_seat_sees_what_its_observation_shows_and_no_more(name, players):
    rules = interpreter.load(name)
    table = Table(rules)
    S = _walk(rules, players, 5, 40)
    for seat in range(players):
        obs = S.observation(seat)
        view = table.render(S, seat)
        for zone, owner in rules.zone_owner.items():
            if owner != "player" or zone in table.hide:
                continue
            for p in range(players):
                shown = _labels(view["seats"][p]["items"], zone)
                want = obs["zones"][zone][p]
                assert shown == (None if isinstance(want, int) else want), (zone, seat, p)
        # the options only to the seat that decides
        assert (view["prompt"]["options"] is not None) == (S.current_player() == seat)
    everything = table.render(S, "all")
    for zone, owner in rules.zone_owner.items():
        if owner == "player" and zone not in table.hide:
            for p in range(players):
                assert _labels(everything["seats"][p]["items"], zone) == [rules.card_labels[c] for c in S.z[zone][p]]
    json.dumps(everything)   # plain data


def test_a_spectator_sees_no_hand():
    rules = interpreter.load("diamonds")
    S = _walk(rules, 4, 1, 3)
    view = Table(rules).render(S, None)
    assert all(_labels(s["items"], "hand") is None for s in view["seats"])
    assert view["prompt"] == {"seat": S.current_player(), "prompt": S.prompt(), "options": None, "asks": S.prompt()}


def test_a_grid_market_is_drawn_as_a_grid_with_the_prices_the_options_cost():
    rules = interpreter.load("diamonds_club")
    S = rules.new_game(3, 1)
    while S.prompt() != "buy":
        S.apply_index(0)
    seat = S.current_player()
    view = Table(rules).render(S, seat)
    grid = next(it for it in view["shared"] if it["kind"] == "grid")
    rows = S.p["market_rows"]
    assert grid["rows"] == rows and grid["cols"] * rows >= len(S.z["market"])
    cells = {c["at"]: c for row in grid["cells"] for c in row if c}
    notes = {o["label"]: o["note"] for o in view["prompt"]["options"]}
    for label, note in notes.items():
        if label == "pass":
            assert note is None
            continue
        at, card = label.split(":")
        assert cells[at]["label"] == card
        assert note == f"{cells[at]['price']} coin{'' if cells[at]['price'] == 1 else 's'}"   # the space's price, in words
    # and the price is what buying it costs
    label = next(lab for lab in notes if lab != "pass")
    before = S.c["coins"][seat]
    S.apply(label)
    assert before - S.c["coins"][seat] == cells[label.split(":")[0]]["price"]


def test_tracks_are_drawn_with_their_last_space():
    rules = interpreter.load("diamonds_club")
    view = Table(rules).render(rules.new_game(3, 1), 0)
    items = {it["name"]: it for it in view["seats"][0]["items"]}
    assert items["forest_pos"]["track"] == rules.new_game(3, 1).p["track_last"]
    assert "track" not in items["coins"]


def test_view_hints_order_hide_collapse_and_colour(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text(tiny_ruleset("""
  pile: {}
  hand: {owner: player, visible: owner}
vars:
  x: {type: int}
flow:
  - deal: {from: deck, to: hand, count: 2}
  - choose: {who: 0, options: "[1, 2]", as: x}
view:
  order: [pile, hand]
  hide: [deck]
  colors: {by: suit, map: {R: "#ff0000"}}
""", game="hinted", card="card", attributes="suit: [R, B], rank: 1..3", seen="all"))
    rules = interpreter.load(path)
    view = Table(rules).render(rules.new_game(2, 0), 0)
    assert [it["name"] for it in view["shared"]] == ["pile"]
    hand = view["seats"][0]["items"][0]
    assert {c["color"] for c in hand["cards"] if c["label"].endswith("R")} <= {"#ff0000"}
    bad = tmp_path / "bad.yaml"
    bad.write_text(path.read_text().replace("hide: [deck]", "hide: [dek]").replace('"#ff0000"', '"url(x)"'))
    with pytest.raises(interpreter.RulebookError) as e:
        interpreter.load(bad)
    text = str(e.value)
    assert "bad.yaml:" in text and "'dek'" in text and "did you mean 'deck'" in text
    assert "'url(x)' is not a colour" in text


# ---------------------------------------------------------------------- games
def _log(tmp_path, name, players, seed=2):
    rules = interpreter.load(name)
    path = tmp_path / f"{name}.jsonl"
    result = play_game(rules, players, seed, make_agents("random", players, seed), log=str(path))
    return path, result


def test_a_log_view_has_a_position_per_decision_and_ends_on_the_result(tmp_path):
    path, result = _log(tmp_path, "diamonds", 4)
    s = LogView(path)
    assert len(s.positions) == result["decisions"] + 1
    last = s.view(len(s.positions) - 1, None)
    assert last["over"] and last["result"] == {"scores": result["scores"], "winners": result["winners"],
                                              "breakdown": result["breakdown"], "decided": ""}   # (one best score)
    first = s.view(0, 2)
    assert any("dealt" in e["text"] and "your hand" in e["text"] for e in first["events"])
    assert all("your" not in e["text"] for e in s.view(0, None)["events"])
    told = s.view(1, "all")
    assert told["line"]["seat"] == s.positions[1][0]["seat"] and told["said"]


def test_a_redacted_log_is_shown_as_the_story_its_seat_saw(tmp_path):
    """A log redacted for seat 1 cannot be replayed; the viewer opens it as a timeline: one
    position per decision, each told as seat 1 may know it (its own cards named, the others'
    hidden), the scores at the end, and no other seat's view."""
    from interpreter.web.timeline import TimelineView, open_log
    rules = interpreter.load("diamonds")
    full, path = tmp_path / "f.jsonl", tmp_path / "r.jsonl"
    result = play_game(rules, 4, 1, make_agents("random", 4, 1), log=str(full))
    play_game(rules, 4, 1, make_agents("random", 4, 1), log=str(path), log_for=1)
    with pytest.raises(interpreter.RulebookError, match="redacted for seat 1.*rulebook view"):
        LogView(path)
    assert isinstance(open_log(full), LogView)
    t = open_log(path)
    assert isinstance(t, TimelineView) and t.describe()["mode"] == "timeline" and t.describe()["seat"] == 1
    replayed = LogView(full)
    assert len(t.positions) == len(replayed.positions) == result["decisions"] + 1
    S = replayed.positions[0][1]
    first = t.view(0, t.seat_of(None))
    mine = " ".join(rules.card_labels[c] for c in S.z["hand"][1])
    assert any(mine in e["text"] and "your hand" in e["text"] for e in first["events"])
    theirs = [rules.card_labels[c] for c in S.z["hand"][0]]
    assert not any(f" {label} " in f" {first['said']} " for label in theirs)   # seat 0's deal: a count
    assert "10 hidden cards dealt" in first["said"]
    for at in (1, len(t.positions) // 2):   # each position: the decision of the full log, as seat 1 saw it
        line, full_line = t.positions[at], replayed.positions[at][0]
        assert line["seat"] == full_line["seat"] and line["prompt"] == full_line["prompt"]
        if full_line["seat"] == 1:
            assert line["action"] == full_line["action"] and t.view(at)["said"].startswith("you ")
    last = t.view(10**6)
    assert last["at"] == len(t.positions) - 1 and last["over"]
    assert last["result"] == {"scores": result["scores"], "winners": result["winners"], "breakdown": result["breakdown"]}
    assert last["story"] == t.story and len(t.story) == len(t.positions)
    with pytest.raises(interpreter.RulebookError, match="what seat 1 saw"):
        t.seat_of("0")


def test_a_redacted_log_that_does_not_hold_together_is_refused_at_its_line(tmp_path):
    from interpreter.web.timeline import TimelineView
    rules = interpreter.load("diamonds")
    path = tmp_path / "r.jsonl"
    play_game(rules, 4, 1, make_agents("random", 4, 1), log=str(path), log_for=1)
    lines = path.read_text().splitlines()
    first = json.loads(lines[2])   # (the first decision: a line changed in its place)
    for broken, message in ((lines + [lines[2]], f"line {len(lines) + 1}: a 'decision' line after the result line"),
                            (lines[:3] + [lines[1]] + lines[3:], "line 4: an events line after the first decision"),
                            (lines[:2] + [json.dumps({**first, "events": 3})] + lines[3:], "line 3: the decision has no valid 'events'"),
                            (lines[:2] + ['{"type": "decision", "events": 3}'] + lines[2:], "line 3: the decision has no valid 'n'"),
                            (lines[:2] + ['{"type": "move"}'] + lines[2:], "line 3: unknown line type 'move'"),
                            ([lines[0].replace('"redacted_for": 1', '"redacted_for": 7')] + lines[1:], "line 1: not a log redacted"),
                            (lines[:2] + [json.dumps({**first, "events": [{"ev": "trick", "cards": 5}]})] + lines[3:],
                             "line 3: an event of this line cannot be told"),
                            (lines[:-1] + ['{"type": "result", "scores": [1, 2, 3, 4], "winners": "all"}'],
                             f"line {len(lines)}: the result line has no list")):
        path.write_text("\n".join(broken) + "\n")
        with pytest.raises(interpreter.RulebookError, match=message):
            TimelineView(path)


def test_a_log_holds_one_setup_line_as_its_writer_writes_it(tmp_path):
    # a log's setup line repeated 100,000 times replayed ok (each "verified"), and the viewer kept
    # a state for each (89 MB), then failed on KeyError 'action' stepping to the first decision.
    # A writer writes one events line, the setup's: a second is refused at its line
    from interpreter.play.logs.replay import replay
    rules = interpreter.load("kuhn_poker")
    path = tmp_path / "k.jsonl"
    play_game(rules, 2, 3, make_agents("random", 2, 3), log=str(path))
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:2] + [lines[1]] * 100 + lines[2:]) + "\n")
    for read in (replay, LogView):
        with pytest.raises(interpreter.RulebookError, match="line 3: a second events line "
                                                          r"\(line 2 is the setup's: a log has one\)"):
            read(path)


def test_a_live_game_waits_for_its_human_and_refuses_other_moves():
    rules = interpreter.load("diamonds")
    s = LiveGame(rules, 3, 4, "random,human,random")
    assert s.humans == [1] and s.waiting_for() == 1
    with pytest.raises(GameError, match="seat 0 is not played here"):
        s.act(0, 0, _at(s))
    with pytest.raises(GameError, match="no option 99"):
        s.act(1, 99, _at(s))
    while not s.state.over:
        s.act(1, 0, _at(s))
        assert s.waiting_for() in (1, None)
    assert s.view(len(s.positions) - 1, 1)["result"]["winners"]
    with pytest.raises(GameError, match="over"):
        s.act(1, 0, _at(s))


# ---------------------------------------------------------------------- the HTTP API
class Api:
    """A served game's address and token: ``api(path, body)`` is (status, body) of a call that
    carries the token (``token=``: another one, or None for none)."""

    def __init__(self, url):
        parts = urllib.parse.urlsplit(url)
        self.base = f"{parts.scheme}://{parts.netloc}"
        self.port = parts.port
        self.token = urllib.parse.parse_qs(parts.query).get("token", [None])[0]

    def __call__(self, path, body=None, token="", headers=None):
        token = self.token if token == "" else token
        return _get(self.base + path, body, {**({"X-Rulebook-Token": token} if token else {}), **(headers or {})})


@pytest.fixture
def served():
    with ExitStack() as stack:
        yield lambda game, **options: Api(stack.enter_context(serving(game, **options)))


@contextmanager
def _server(game, **options):
    """A served game's server itself (``serving`` yields its address alone)."""
    import threading
    server = make_server(game, **options)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def _api(server):
    return Api(f"http://127.0.0.1:{server.server_address[1]}/?token={server.token}")


def _get(url, body=None, headers=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def _at(game):
    return len(game.positions) - 1


def test_the_api_serves_the_page_the_views_and_nothing_else(served, tmp_path):
    path, result = _log(tmp_path, "diamonds", 4)
    api = served(LogView(path))
    made = make_server(LogView(path))
    assert made.server_address[0] == "127.0.0.1"   # this machine only, by default
    made.server_close()
    status, page = api("/", token=None)            # the page needs no token; its API does
    assert status == 200 and b"app.js" in page
    assert api("/static/app.js", token=None)[0] == 200
    for bad in ("/static/../server.py", "/static/%2e%2e/server.py", "/etc/passwd", "/static/"):
        assert api(bad)[0] == 404
    status, body = api("/api/game")
    assert status == 200 and json.loads(body)["length"] == result["decisions"] + 1
    status, body = api("/api/view?at=-1&seat=all")
    assert json.loads(body)["result"]["scores"] == result["scores"]
    status, body = api("/api/view?at=0&seat=9")
    assert status == 400 and "no seat 9" in json.loads(body)["error"]
    assert api("/api/act", {"seat": 0, "index": 0, "at": 0})[0] == 404     # a log is not played


def test_the_api_plays_a_live_game(served):
    rules = interpreter.load("diamonds")
    game = LiveGame(rules, 3, 1, "human,random,random", {"params": {"hand_size": 2, "rounds": 1, "pass_options": [1, 2]}})
    api = served(game)
    status, body = api("/api/view?at=-1&seat=all")
    assert status == 403 and "only for reading a log" in json.loads(body)["error"]
    for bad in ({"seat": 0, "index": "x", "at": _at(game)}, {"seat": 0.0, "index": 0, "at": _at(game)},
                {"seat": 0, "index": True, "at": _at(game)}, {"seat": 0, "index": 0, "at": "1"}):
        status, body = api("/api/act", bad)
        assert status == 400 and "is a whole number" in json.loads(body)["error"], bad
    before = len(game.positions)
    for move in ({"seat": 0, "index": 0}, {"seat": 0, "index": 0, "at": None}):   # (null was played unchecked)
        status, body = api("/api/act", move)
        assert status == 400 and "the position the move answers" in json.loads(body)["error"]
    assert len(game.positions) == before
    assert api("/api/act", b"[]".decode())[0] == 400
    while not game.state.over:
        status, body = api("/api/act", {"seat": 0, "index": 0, "at": _at(game)})
        assert status == 200, body
    view = json.loads(api("/api/view?at=-1&seat=0")[1])
    assert view["over"] and view["result"]["scores"] == game.state.scores()


# ---------------------------------------------------------------------- the command line
def test_view_and_serve_print_their_address_and_stop_on_ctrl_c(tmp_path, capsys, monkeypatch):
    from interpreter.tools.cli import main
    from interpreter.web import server

    def interrupted(self, *a, **k):
        raise KeyboardInterrupt
    monkeypatch.setattr(server.Server, "serve_forever", interrupted)
    path, _ = _log(tmp_path, "diams", 3)
    assert main(["view", str(path)]) == 0
    assert "serving diams at http://127.0.0.1:" in capsys.readouterr().out
    redacted = tmp_path / "mine.jsonl"
    assert main(["play", "diams", "--players", "3", "--seed", "0", "--log", str(redacted), "--log-for", "2"]) == 0
    capsys.readouterr()
    assert main(["view", str(redacted)]) == 0   # as seat 2 saw it
    assert "serving diams at http://127.0.0.1:" in capsys.readouterr().out
    assert main(["serve", "diamonds", "--players", "3", "--agents", "human,random,random"]) == 0
    assert "serving diamonds at http://127.0.0.1:" in capsys.readouterr().out


def test_serve_without_a_seed_draws_one_for_the_operator_never_for_a_seat(served, capsys, monkeypatch):
    """No --seed: a fresh seed each time (a constant one would let a seat rebuild every hand),
    printed on the operator's stderr, the one the game is dealt with, in no answer of the API;
    a seed given on the command line, with a human seat, is warned about (a small one is found
    by trying)."""
    from interpreter.tools.cli import main
    from interpreter.web import server
    games = []
    monkeypatch.setattr(server, "run", lambda game, *a: games.append(game) or 0)
    rules = interpreter.load("diamonds")
    seeds = []
    for _ in range(2):
        assert main(["serve", "diamonds", "--players", "3", "--set", "rounds=1"]) == 0
        err = capsys.readouterr().err
        assert "warning" not in err
        seeds.append(int(err.split("rulebook: seed ")[1].split()[0]))
    assert seeds[0] != seeds[1] and min(seeds) >= 2 ** 20
    first = games[0].positions[0][1]          # the game as dealt: the printed seed's deal
    assert first.zone("hand") == rules.new_game(3, seeds[0], {"params": {"rounds": "1"}}).zone("hand")
    api = served(games[0])
    answers = list(_texts_of_every_answer(api, games[0], ("0", "spectator")))
    assert answers and not [text[:200] for text in answers if str(seeds[0]) in text]
    assert main(["serve", "diamonds", "--players", "3", "--seed", "7"]) == 0
    assert "warning: --seed 7 deals every hidden card" in capsys.readouterr().err
    assert main(["serve", "diamonds", "--players", "3", "--seed", "7", "--agents", "random"]) == 0
    assert capsys.readouterr().err == ""      # no person plays: nothing to warn of, the seed known


def test_view_and_serve_refuse_bad_input_with_a_clear_message(tmp_path, capsys):
    from interpreter.tools.cli import main
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "header"\n')
    assert main(["view", str(bad)]) == 1
    assert "not valid JSON" in capsys.readouterr().err
    assert main(["serve", "diamonds", "--players", "9"]) == 2
    assert "not 9" in capsys.readouterr().err
    assert main(["serve", "diamonds", "--players", "3", "--port", "70000"]) == 2
    assert "not a port" in capsys.readouterr().err
    assert main(["serve", "diamonds", "--players", "3", "--agents", "humn"]) == 2
    assert "did you mean 'human'" in capsys.readouterr().err
    for name in ("table.lan:8080", "a b", "http://x"):
        assert main(["serve", "diamonds", "--players", "3", "--allow-host", name]) == 2
        assert "without a port" in capsys.readouterr().err
    assert main(["serve", "diamonds", "--players", "3", "--host", "192.0.2.1"]) == 2   # (TEST-NET-1: no machine's address)
    assert "cannot listen there" in capsys.readouterr().err


def test_allow_host_takes_host_names_label_by_label(capsys, monkeypatch):
    from interpreter.tools.cli import main
    from interpreter.web import server

    def interrupted(self, *a, **k):
        raise KeyboardInterrupt
    monkeypatch.setattr(server.Server, "serve_forever", interrupted)
    longest = ".".join(["a" * 63] * 3 + ["b" * 61])                      # 253 characters
    for name in ("table.lan", "Table.LAN.", "x-y.z9", "[::1]", "192.0.2.7", longest):
        assert main(["serve", "diamonds", "--players", "3", "--allow-host", name]) == 0, name
    for name in ("a..b", "a-.b", "a.-b", "a" * 64, longest + "b", ".", "", "a" * 60 + "!"):   # (the last one
        assert main(["serve", "diamonds", "--players", "3", "--allow-host", name]) == 2, name   # backtracked for ever)
        assert "without a port" in capsys.readouterr().err


def test_a_board_is_drawn_as_its_graph_and_hides_what_hidden_zones_hold():
    rules = interpreter.load("mister_diamond")
    table = Table(rules)
    S = _walk(rules, 3, 2, 12)
    board = table.render(S, None)["shared"][0]
    assert board["kind"] == "board"
    labels = [n["label"] for n in board["nodes"]]
    nb = rules.namespace["_NB"]
    want = {tuple(sorted((labels.index(rules.card_labels[a]), labels.index(rules.card_labels[b]))))
            for a in rules.board["positions"] for b in nb[a]}
    assert {tuple(e) for e in board["edges"]} == want and len(want) > 40
    # the hint places rows top to bottom: row a above row g
    y = {n["label"]: n["y"] for n in board["nodes"]}
    assert y["a1"] == 0 and y["g1"] == 1
    # a spectator cannot tell a real piece from a hidden fake; the full log can
    for n in board["nodes"]:
        card = rules.card_id(n["label"])
        if card in S.z["real_spots"] or card in S.z["fake_spots"]:
            assert n["zone"] == ""
    everything = {n["label"]: n["zone"] for n in table.render(S, "all")["shared"][0]["nodes"]}
    assert {everything[rules.card_labels[c]] for c in S.z["real_spots"]} == {"real_spots"}


@pytest.mark.parametrize("name,players", SEEDS)
def test_every_seed_game_is_played_to_its_end_from_the_page_api(name, players):
    rules = interpreter.load(name)
    agents = ",".join(["human"] + ["random"] * (players - 1))
    s = LiveGame(rules, players, 3, agents)
    moves = 0
    while not s.state.over:
        view = s.view(len(s.positions) - 1, 0)
        assert view["prompt"]["seat"] == 0 and view["prompt"]["options"]      # only ever asked of the human
        s.act(0, len(view["prompt"]["options"]) - 1 if moves % 2 else 0, _at(s))
        moves += 1
        assert moves < 2000
    assert s.error is None and moves > 0
    assert s.view(len(s.positions) - 1, 0)["result"]["scores"] == json.loads(json.dumps(s.state.scores()))


def test_a_position_says_what_was_chosen_next_as_the_seat_may_know_it(tmp_path):
    path, _ = _log(tmp_path, "diamonds", 4)
    s = LogView(path)
    passes = [k for k in range(len(s.positions) - 1) if s.positions[k + 1][0].get("prompt") == "pass"]
    k = passes[0]
    line = s.positions[k + 1][0]
    assert s.view(k, "all")["chosen"] == line["action"]
    assert s.view(k, line["seat"])["chosen"] == line["action"]          # one's own pass
    other = (line["seat"] + 1) % 4
    assert other not in line["seen_by"]                                  # a pass is face down
    assert s.view(k, other)["chosen"] == "?" and s.view(k, None)["chosen"] == "?"
    assert "chosen" not in s.view(len(s.positions) - 1, "all")


def test_a_move_from_python_names_its_position_as_one_from_the_page_does():
    # LiveGame.act is the one check of the position a move answers: the page's and Python's
    from interpreter.web.games import Stale
    s = LiveGame(interpreter.load("diamonds"), 3, 4, "random,human,random")
    before = len(s.positions)
    with pytest.raises(GameError, match="the position the move answers"):
        s.act(1, 0, None)                      # (was played unchecked: a move sent twice played twice)
    with pytest.raises(Stale, match=f"answers position {before - 2}, but the game is at position {before - 1}"):
        s.act(1, 0, before - 2)
    assert len(s.positions) == before
    s.act(1, 0, _at(s))
    assert len(s.positions) > before


def test_a_game_played_in_the_page_is_logged_as_it_goes_and_replays(tmp_path):
    from interpreter.play.logs.replay import replay
    rules = interpreter.load("diamonds")
    path = tmp_path / "played.jsonl"
    s = LiveGame(rules, 3, 5, "human,random,greedy", {"params": {"hand_size": 3}}, log=str(path))
    s.act(0, 0, _at(s))
    partial = path.read_text().splitlines()              # written line by line: nothing lost on a stop
    assert len(partial) == len(s.positions) + 1           # the header, the setup, each decision
    while not s.state.over:
        s.act(0, 0, _at(s))
    result = replay(path)
    assert result["scores"] == s.state.scores() and result["decisions"] == len(s.positions) - 1
    assert LogView(path).positions[-1][1].scores() == s.state.scores()
    with pytest.raises(interpreter.RulebookError, match="the file exists"):
        LiveGame(rules, 3, 5, "human,random,random", log=str(path))


@pytest.mark.parametrize("stop", ["ctrl_c", "sigterm"])
def test_a_served_game_stopped_half_way_ends_its_log_so_and_replays(tmp_path, capsys, monkeypatch, stop):
    # rulebook serve --log, stopped by Ctrl-C or a terminate signal before the game's end: the
    # log ends with a stopped line; replay verifies its decisions, view and a redacted copy read it
    import os
    import signal
    from interpreter.play.logs.replay import redact, replay
    from interpreter.tools.cli import main
    from interpreter.web import server
    from interpreter.web.timeline import TimelineView

    def stopped(self, *a, **k):
        if stop == "sigterm":
            os.kill(os.getpid(), signal.SIGTERM)   # (handled as Ctrl-C while serving)
        raise KeyboardInterrupt
    monkeypatch.setattr(server.Server, "serve_forever", stopped)
    path = tmp_path / "playtest.jsonl"
    assert main(["serve", "diams", "--players", "3", "--seed", "2", "--log", str(path)]) == 0
    assert signal.getsignal(signal.SIGTERM) is not server._interrupt      # put back as it was
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    decided = sum(1 for x in lines if x["type"] == "decision")
    assert lines[-1] == {"type": "stopped", "decisions": decided} and decided >= 1   # the agents' moves before seat 0's
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"replay ok: {decided} decisions of a game stopped before its end (seat 0 was to decide")
    result = replay(path)
    assert result["stopped"] and result["waiting"]["seat"] == 0 and "scores" not in result
    view = LogView(path)
    assert len(view.positions) == decided + 1 and not view.positions[-1][1].over
    mine = tmp_path / "mine.jsonl"
    mine.write_text("\n".join(json.dumps(x) for x in redact(path.read_text().splitlines(), 1)) + "\n")
    t = TimelineView(mine)
    assert not t.describe()["over"] and len(t.positions) == decided + 1
    # a stopped line that does not hold: refused at its line
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(json.dumps(x) for x in lines[:-1] + [{"type": "stopped", "decisions": decided + 1}]) + "\n")
    with pytest.raises(interpreter.RulebookError, match=f"line {len(lines)}: decisions: the log has {decided + 1}"):
        replay(bad)


def test_the_api_refuses_other_sites_requests(served):
    rules = interpreter.load("diamonds")
    game = LiveGame(rules, 3, 1, "human,random,random")
    api = served(game)
    before = len(game.positions)
    form = urllib.request.Request(f"{api.base}/api/act?token={api.token}", data=b'{"seat": 0, "index": 0, "at": 0}',
                                  headers={"Content-Type": "text/plain"})   # what a form of another site can send
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(form, timeout=10)
    assert e.value.code == 415 and len(game.positions) == before
    assert api("/api/game", headers={"Host": f"evil.example:{api.port}"})[0] == 403
    assert api("/api/act", {"seat": 0, "index": 0, "at": _at(game)})[0] == 200 and len(game.positions) > before


def test_a_live_game_tells_the_human_what_the_agents_did_since_their_move():
    rules = interpreter.load("diamonds")
    s = LiveGame(rules, 4, 2, "human,random,random,random")
    while s.state.prompt() != "play":
        s.act(0, 0, _at(s))
    s.act(0, 0, _at(s))                                   # seat 0 plays; the three agents follow
    view = s.view(len(s.positions) - 1, 0)
    moves = [line for line, _ in s.positions[1:] if line.get("seat") != 0]
    last_mine = max(k for k, (line, _) in enumerate(s.positions) if line.get("seat") == 0)
    told = view["since"]
    assert len(told) == len(s.positions) - last_mine - 1 and told and moves
    assert all(t.startswith("seat ") for t in told)          # the agents' moves, in words


def test_each_person_is_told_what_the_others_did_since_their_own_move():
    s = LiveGame(interpreter.load("diamonds"), 4, 2, "human,human,random,random")
    for _ in range(200):    # until seat 0 decides again, seat 1 having decided since seat 0 last did
        lines = s.positions.lines
        last = [max((k for k, line in enumerate(lines) if line.get("seat") == p), default=-1) for p in (0, 1)]
        if s.waiting_for() == 0 and last[1] > last[0] >= 0:
            break
        s.act(s.waiting_for(), 0, _at(s))
    told = s.view(len(s.positions) - 1, 0)["since"]
    assert len(told) == len(s.positions) - last[0] - 1          # seat 1's move too: another person's
    assert any(t.startswith("seat 1 ") for t in told)


def _every_ruleset():
    from pathlib import Path
    root = Path(interpreter.__file__).resolve().parent.parent
    for path in sorted([*root.glob("rulesets/*.yaml"), *root.glob("docs/examples/*.yaml")]):
        base = interpreter.load(path)
        if base.data.get("extends"):
            continue
        for variant in [None, *(base.data.get("variants") or {})]:
            yield path, variant


@pytest.mark.parametrize("path,variant", list(_every_ruleset()), ids=lambda x: getattr(x, "stem", str(x)))
def test_every_ruleset_and_variant_is_drawn_for_every_seat(path, variant):
    from interpreter.play.display.terminal import render
    rules = interpreter.load(path, variant=variant)
    table = Table(rules)
    players = rules.player_counts[-1]
    S = rules.new_game(players, 4)
    for k in range(60):
        if S.over:
            break
        if k % 15 == 0:
            for seat in [None, "all", *range(players)]:
                view = table.render(S, seat)
                json.dumps(view)
                assert render(view)                      # the terminal draws it too
                assert len(view["seats"]) == players
        S.apply_index((k * 5) % len(S.dec[1]))


def test_a_counter_on_grid_spaces_is_drawn_only_where_everyone_sees_it(tmp_path):
    text = (Path(interpreter.ruleset_path("diamonds_club")).read_text()
            .replace("  coins_on: {owner: card", "  coins_on: {visible: none, owner: card"))
    assert "coins_on: {visible: none" in text
    rules = load_text(tmp_path, text, "dc.yaml")
    S = rules.new_game(3, 1)
    while not any(S.c["coins_on"]):
        S.apply_index(0)
    grid = next(it for it in Table(rules).render(S, 0)["shared"] if it["kind"] == "grid")
    assert all(not c["on"] for row in grid["cells"] for c in row if c)


def _prices(view):
    grid = next(it for it in view["shared"] if it["kind"] == "grid")
    return [c["price"] for row in grid["cells"] for c in row if c and c["price"] is not None]


def test_prices_reading_a_hidden_counter_are_shown_only_to_the_seat_deciding(tmp_path):
    rules = interpreter.load("diamonds_club")
    S = rules.new_game(3, 1)
    while S.prompt() != "buy":
        S.apply_index(0)
    seat, other = S.current_player(), (S.current_player() + 1) % 3
    table = Table(rules)
    assert all(_prices(table.render(S, who)) for who in (None, "all", seat, other))   # coins_on: public
    # the same game with the counter the price reads hidden from everyone
    text = (Path(interpreter.ruleset_path("diamonds_club")).read_text()
            .replace("  coins_on: {owner: card", "  coins_on: {visible: none, owner: card"))
    hidden = load_text(tmp_path, text, "dc.yaml")
    H = hidden.new_game(3, 1)
    while H.prompt() != "buy":
        H.apply_index(0)
    table = Table(hidden)
    assert not _prices(table.render(H, None)) and not _prices(table.render(H, other))
    assert _prices(table.render(H, seat)) == _prices(Table(rules).render(S, seat))   # its options' costs
    assert _prices(table.render(H, "all"))


def test_the_api_answers_a_bad_length_and_an_internal_failure_with_a_message(served, monkeypatch):
    rules = interpreter.load("diamonds")
    game = LiveGame(rules, 3, 1, "human,random,random")
    api = served(game)
    status, _ = api("/api/act", {"seat": 0, "index": 0, "at": 0}, headers={"Content-Length": "x"})
    assert status == 400
    monkeypatch.setattr(game, "describe", lambda: 1 / 0)
    status, body = api("/api/game")
    assert status == 500 and "internal error: ZeroDivisionError" in json.loads(body)["error"]


def test_the_api_answers_a_deep_body_a_non_ascii_length_and_a_bad_position_with_400(served):
    import socket
    rules = interpreter.load("diamonds")
    api = served(LiveGame(rules, 3, 1, "human,random,random"))
    req = urllib.request.Request(f"{api.base}/api/act?token={api.token}", data=b"[" * 4000 + b"]" * 4000,
                                 headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as e:       # (json.loads would recurse too deep)
        urllib.request.urlopen(req, timeout=10)
    assert e.value.code == 400 and "not JSON" in json.loads(e.value.read())["error"]
    status, body = api("/api/view?at=abc&seat=0")
    assert status == 400 and "at= is a position" in json.loads(body)["error"]
    with socket.create_connection(("127.0.0.1", api.port), timeout=10) as sock:   # '²'.isdigit() is true
        sock.sendall(b"POST /api/act HTTP/1.1\r\nHost: " + f"127.0.0.1:{api.port}".encode()
                     + b"\r\nX-Rulebook-Token: " + api.token.encode()
                     + b"\r\nContent-Type: application/json\r\nContent-Length: \xc2\xb2\r\n\r\n{}")
        assert sock.recv(200).split(b"\r\n")[0].endswith(b" 400 Bad Request")
    for length in (b"9" * 5000, b"10001", b"0"):   # (int() of 5,000 digits raises: no traceback, a 400)
        answer = _raw(api.port, b"POST /api/act HTTP/1.0\r\nHost: 127.0.0.1:%d\r\nX-Rulebook-Token: %s\r\n"
                      b"Content-Type: application/json\r\nContent-Length: %s\r\n\r\n{}" % (api.port, api.token.encode(), length))
        assert answer.startswith(b"HTTP/1.0 400 ") and b"a few bytes" in answer


# ---------------------------------------------------------------------- what a client may read and do
SEED = 987654321123   # distinctive: found in an answer's text only if the seed leaks


def test_a_live_game_serves_its_client_only_the_human_seats_and_the_spectator(served):
    game = LiveGame(interpreter.load("diamonds"), 4, 3, "human,random,random,random")
    api = served(game)
    assert api("/api/view?seat=0")[0] == 200 and api("/api/view?seat=spectator")[0] == 200
    for seat in ("1", "2", "3", "all"):
        status, body = api(f"/api/view?at=0&seat={seat}")
        assert status == 403, seat
        assert "hand" not in body.decode() or seat == "all"
    before = len(game.positions)
    status, body = api("/api/act", {"seat": 1, "index": 0, "at": _at(game)})
    assert status == 403 and len(game.positions) == before


def test_several_human_seats_each_have_their_own_token(monkeypatch):
    game = LiveGame(interpreter.load("diamonds"), 3, 1, "human,human,random")
    with _server(game) as server:
        api = _api(server)
        tokens = server.seat_tokens
        assert sorted(tokens) == [0, 1] and len({server.token, *tokens.values()}) == 3
        for seat, token in tokens.items():
            other = 1 - seat
            status, body = api("/api/game", token=token)
            assert status == 200 and json.loads(body)["yours"] == [seat]
            assert api(f"/api/view?seat={seat}", token=token)[0] == 200
            assert api("/api/view?seat=spectator", token=token)[0] == 200
            status, body = api(f"/api/view?seat={other}", token=token)          # the other person's hand
            assert status == 403 and f"this page plays seat {seat}" in json.loads(body)["error"]
            before = len(game.positions)
            status, body = api("/api/act", {"seat": other, "index": 0, "at": _at(game)}, token=token)
            assert status == 403 and "another person's" in json.loads(body)["error"]
            assert len(game.positions) == before
        assert json.loads(api("/api/game")[1])["yours"] == []                   # the game's token: a spectator's
        assert api("/api/view?seat=spectator")[0] == 200
        for seat in (0, 1):
            assert api(f"/api/view?seat={seat}")[0] == 403
            assert api("/api/act", {"seat": seat, "index": 0, "at": _at(game)})[0] == 403
        while not game.state.over:                                              # each plays their own seat
            seat = game.waiting_for()
            status, body = api("/api/act", {"seat": seat, "index": 0, "at": _at(game)}, token=tokens[seat])
            assert status == 200, body
    one = make_server(LiveGame(interpreter.load("diamonds"), 3, 1, "human,random,random"))
    one.server_close()
    assert one.seat_tokens == {}                      # one human seat: the game's token plays it, as before


def test_serve_prints_an_address_for_each_human_seat(capsys, monkeypatch):
    from interpreter.tools.cli import main
    from interpreter.web import server

    def interrupted(self, *a, **k):
        raise KeyboardInterrupt
    monkeypatch.setattr(server.Server, "serve_forever", interrupted)
    assert main(["serve", "diamonds", "--players", "3", "--agents", "human,human,random"]) == 0
    out = capsys.readouterr().out
    tokens = [line.rpartition("?token=")[2] for line in out.splitlines() if "?token=" in line]
    assert "seat 0: http://127.0.0.1:" in out and "seat 1: http://127.0.0.1:" in out
    assert "a spectator: http://127.0.0.1:" in out and "seat 2:" not in out
    assert len(tokens) == len(set(tokens)) == 3


def _texts_of_every_answer(api, game, seats):
    yield api("/api/game")[1].decode()
    for at in range(len(game.positions)):
        for seat in seats:
            status, body = api(f"/api/view?at={at}&seat={seat}")
            assert status == 200, body
            yield body.decode()


def test_no_answer_of_view_or_serve_holds_the_seed(served, tmp_path):
    rules = interpreter.load("diams")
    full, mine = tmp_path / "full.jsonl", tmp_path / "mine.jsonl"
    play_game(rules, 3, SEED, make_agents("random", 3, 1), log=str(full))
    play_game(rules, 3, SEED, make_agents("random", 3, 1), log=str(mine), log_for=1)
    from interpreter.web.timeline import open_log
    log, timeline = open_log(full), open_log(mine)
    live = LiveGame(rules, 3, SEED, "human,random,random", {"params": {"rounds": 1}})
    api = served(live)
    answers = []
    while not live.state.over:
        status, body = api("/api/act", {"seat": 0, "index": 0, "at": _at(live)})
        assert status == 200, body
        answers.append(body.decode())
    answers += _texts_of_every_answer(api, live, ("0", "spectator"))
    answers += _texts_of_every_answer(served(log), log, ("all", "spectator", "0", "1", "2"))
    answers += _texts_of_every_answer(served(timeline), timeline, ("1",))
    assert len(answers) > 100
    assert not [text[:200] for text in answers if str(SEED) in text]
    # nor the random generator's state at any position (from which the rest of the game follows)
    streams = {str(S.rng) for game in (log, live) for _, S in game.positions}
    assert len(streams) >= 2 and not [text[:200] for text in answers if any(r in text for r in streams)]


def test_every_api_call_needs_the_games_token(served):
    game = LiveGame(interpreter.load("diamonds"), 3, 1, "human,random,random")
    api = served(game)
    assert api.token and len(api.token) >= 32
    before = len(game.positions)
    for token in (None, "x", api.token[:-1], api.token + "x", "é"):
        for path in ("/api/game", "/api/view?seat=0"):
            status, body = api(path, token=token)
            assert status == 403 and "token" in json.loads(body)["error"], (path, token)
        assert api("/api/act", {"seat": 0, "index": 0, "at": _at(game)}, token=token)[0] == 403
    assert len(game.positions) == before
    import socket
    with socket.create_connection(("127.0.0.1", api.port), timeout=10) as sock:   # a whole URL as the target
        sock.sendall(f"GET {api.base}/api/view?seat=0 HTTP/1.0\r\nHost: 127.0.0.1:{api.port}\r\n\r\n".encode())
        assert sock.recv(100).startswith(b"HTTP/1.0 403 ")
    assert _get(f"{api.base}/api/game?token={api.token}")[0] == 200        # a query parameter, as the URL has
    assert api("/api/game")[0] == 200                                    # a header, as the page sends
    status, _ = api("/", token=None)
    assert status == 200
    with urllib.request.urlopen(api.base + "/", timeout=10) as r:     # the page's URL goes to no other site
        assert r.headers["Referrer-Policy"] == "no-referrer"
    made = make_server(game)
    made.server_close()
    assert made.token != api.token                                       # a new server, a new token
    assert api("/api/game", token=made.token)[0] == 403


def test_off_loopback_a_request_must_name_the_server(served):
    game = LiveGame(interpreter.load("diamonds"), 3, 1, "human,random,random")
    api = served(game, host="0.0.0.0")
    p = api.port
    assert api("/api/game", headers={"Host": f"127.0.0.1:{p}"})[0] == 200
    assert api("/api/game", headers={"Host": f"localhost:{p}"})[0] == 200
    for host in (f"evil.example:{p}", f"table.lan:{p}", "table.lan", f"127.0.0.1:{p + 1}", "", f"[::1]x:{p}"):
        assert api("/api/game", headers={"Host": host})[0] == 403, host
        assert api("/api/act", {"seat": 0, "index": 0, "at": _at(game)}, headers={"Host": host})[0] == 403, host
    allowed = served(game, host="0.0.0.0", allow=["Table.LAN"])
    assert allowed("/api/game", headers={"Host": f"table.lan:{allowed.port}"})[0] == 200
    assert allowed("/api/game", headers={"Host": f"evil.example:{allowed.port}"})[0] == 403


def test_off_loopback_serve_warns_who_can_reach_the_game(capsys, monkeypatch):
    from interpreter.tools.cli import main
    from interpreter.web import server

    def interrupted(self, *a, **k):
        raise KeyboardInterrupt
    monkeypatch.setattr(server.Server, "serve_forever", interrupted)
    assert main(["serve", "diamonds", "--players", "3", "--host", "127.0.0.1"]) == 0
    out, err = capsys.readouterr()
    assert "?token=" in out and "warning" not in err
    assert main(["serve", "diamonds", "--players", "3", "--host", "0.0.0.0", "--allow-host", "table.lan"]) == 0
    out, err = capsys.readouterr()
    assert "serving diamonds at http://127.0.0.1:" in out and "?token=" in out
    assert "warning: listening on every address of this machine" in err
    assert "plays seat(s) 0" in err and "table.lan" in err


def test_on_port_80_a_host_without_a_port_is_this_server(served):
    game = LiveGame(interpreter.load("diamonds"), 3, 1, "human,random,random")
    try:
        api = served(game, port=80)
    except OSError as e:
        pytest.skip(f"port 80 cannot be bound here ({e.strerror})")
    assert api.port == 80 and api("/api/game")[0] == 200                 # Host: 127.0.0.1 (urllib leaves out :80)
    assert api("/api/game", headers={"Host": "localhost"})[0] == 200
    assert api("/api/game", headers={"Host": "localhost:80"})[0] == 200
    assert api("/api/game", headers={"Host": "localhost:8080"})[0] == 403


def test_the_server_binds_ipv6_loopback(served):
    import socket
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
    except OSError as e:
        pytest.skip(f"this machine has no IPv6 loopback ({e.strerror})")
    game = LiveGame(interpreter.load("diamonds"), 3, 1, "human,random,random")
    api = served(game, host="::1")
    assert api.base.startswith("http://[::1]:")
    status, body = api("/api/game")
    assert status == 200 and json.loads(body)["mode"] == "play"
    assert api("/api/game", headers={"Host": f"evil.example:{api.port}"})[0] == 403


def test_a_move_sent_twice_is_played_once(served):
    game = LiveGame(interpreter.load("diamonds"), 3, 1, "human,random,random")
    api = served(game)
    at = _at(game)
    move = {"seat": 0, "index": 0, "at": at}
    assert api("/api/act", move)[0] == 200
    after = len(game.positions)
    assert after > at + 1
    status, body = api("/api/act", move)                     # a double click, a retry
    answer = json.loads(body)
    assert status == 409 and answer["at"] == after - 1 and answer["length"] == after
    assert f"answers position {at}" in answer["error"]
    assert len(game.positions) == after
    mine = [line for line in game.positions.lines[1:] if line.get("seat") == 0]
    assert len(mine) == 1


def _until_closed(sock) -> bytes:
    """What the server sends before it closes the connection (10 s at most: a server that keeps
    the connection open fails the test with a timeout)."""
    sock.settimeout(10)
    data = b""
    try:
        while chunk := sock.recv(4096):
            data += chunk
    except ConnectionResetError:
        pass
    return data


def _connect(port, source: str = "127.0.0.1"):
    """A connection from ``source`` (another address of the loopback network: another client)."""
    import socket
    try:
        return socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    except OSError as e:
        pytest.skip(f"{source} is not an address of this machine ({e.strerror})")


def _raw(port, request: bytes, source: str = "127.0.0.1") -> bytes:
    """The whole answer to a request sent from ``source``."""
    with _connect(port, source) as sock:
        sock.sendall(request)
        return _until_closed(sock)


def _half(port, source: str = "127.0.0.1"):
    """A connection that sent half a request and waits."""
    sock = _connect(port, source)
    sock.sendall(b"GET /api/game HTTP/1.1\r\nHost: 127.0.0")
    return sock


@contextmanager
def _held(monkeypatch, owner, name: str, after: bool = False):
    """``owner.name`` held in every thread that calls it, before it runs (``after``: once it has
    run), as a loaded machine may hold a thread there: an Event set when one is reached, and one
    that lets them all go (set on leaving)."""
    import threading
    reached, release = threading.Event(), threading.Event()
    run = getattr(owner, name)

    def held(self, *args):
        done = run(self, *args) if after else None
        reached.set()
        release.wait(30)
        return done if after else run(self, *args)
    monkeypatch.setattr(owner, name, held)
    try:
        yield reached, release
    finally:
        release.set()


def _threads_held(monkeypatch):
    """Every connection's thread held before it reads, as a loaded machine may (``_held``)."""
    from interpreter.web import connections
    return _held(monkeypatch, connections.Server, "process_request_thread")


@pytest.mark.parametrize("threads_slow", [False, True])
def test_half_sent_requests_hold_a_bounded_number_of_threads_and_give_way_to_newer_ones(monkeypatch, threads_slow):
    import threading
    game = LiveGame(interpreter.load("diamonds"), 3, 1, "human,random,random")
    before = threading.active_count()
    with ExitStack() as stack:
        release = stack.enter_context(_threads_held(monkeypatch))[1] if threads_slow else None
        server = stack.enter_context(_server(game, workers=4, timeout=30))   # (a held connection could stay the 30 s)
        held = [_half(server.server_address[1]) for _ in range(12)]         # three times the workers
        if release is not None:   # every place taken from a thread not yet ended, then they run
            for _ in range(1000):
                if len(server.leaving) == 4:
                    break
                threading.Event().wait(0.01)
            assert len(server.leaving) == 4
            release.set()
        try:
            assert [_until_closed(sock) for sock in held[:8]] == [b""] * 8   # each gave its place to a newer one
            assert threading.active_count() <= before + 1 + 2 * 4   # the serving thread, 4 workers, 4 ending at most
            assert _api(server)("/api/game")[0] == 200           # and so does the last one to this request
        finally:
            for sock in held:
                sock.close()


def test_a_request_sent_whole_keeps_its_place_before_its_thread_reads_it(monkeypatch):
    game = LiveGame(interpreter.load("diamonds"), 3, 1, "human,random,random")
    with _threads_held(monkeypatch) as (reached, release), _server(game, workers=1) as server:
        port = server.server_address[1]
        whole = _connect(port)
        whole.sendall(f"GET /api/game?token={server.token} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        assert reached.wait(10)                                   # accepted, its thread not yet reading
        half = _half(port)
        assert _until_closed(half).startswith(b"HTTP/1.0 503 ")   # no place to take
        release.set()
        assert _until_closed(whole).startswith(b"HTTP/1.0 200 ")
        half.close()
        whole.close()


def _dripping_move(port, token, source: str = "127.0.0.1", sent: bytes = b""):
    """A connection that sent a move's whole headers (with a seat's token), and ``sent`` of its
    body of 9,000 bytes, and waits."""
    sock = _connect(port, source)
    sock.sendall(f"POST /api/act HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\nX-Rulebook-Token: {token}\r\n"
                 "Content-Type: application/json\r\nContent-Length: 9000\r\n\r\n".encode() + sent)
    return sock


def _until_read(server, count: int) -> None:
    """Waits (10 s at most) until ``count`` connections are held, the headers of each read."""
    import threading
    for _ in range(1000):
        with server.guard:
            if sum(server.held.values()) == count and all(h.whole is not None for h in server.arriving.values()):
                return
        threading.Event().wait(0.01)
    raise AssertionError(f"{sum(server.held.values())} held, not {count}")


def test_a_body_dripping_in_gives_its_place_to_a_newer_request_whatever_token_it_carries():
    game = LiveGame(interpreter.load("diamonds"), 3, 1, "human,random,random")
    with _server(game, workers=4, per_client=3, timeout=30) as server:   # (a held connection could stay the 30 s)
        port = server.server_address[1]
        page = f"GET / HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
        drips = [_dripping_move(port, server.token, f"127.0.0.{2 + k // 3}", b'{"seat": 0') for k in range(4)]
        try:
            _until_read(server, 4)                 # every place: a move of seat 0, its body arriving
            assert _raw(port, page).startswith(b"HTTP/1.0 200 ")     # a newer client takes a place ...
            assert _until_closed(drips[0]) == b""                     # ... the oldest of the client holding most
            assert server.held == {"127.0.0.2": 2, "127.0.0.3": 1}    # (closed unanswered)
            drips[1].sendall(b" " * (9000 - len(b'{"seat": 0')))       # the others still wait for theirs
            assert _until_closed(drips[1]).startswith(b"HTTP/1.0 400 ")   # (not JSON: answered all the same)
        finally:
            for sock in drips:
                sock.close()


def test_a_move_sent_whole_keeps_its_place_while_its_body_waits_to_be_read(monkeypatch):
    import threading
    from interpreter.web import connections
    game = LiveGame(interpreter.load("diamonds"), 3, 1, "human,random,random")
    reached, release = threading.Event(), threading.Event()
    headed = connections.Server.headed

    def held(self, request, body):   # its headers parsed and told, most of its body not yet read
        kept = headed(self, request, body)
        reached.set()
        release.wait(30)
        return kept
    monkeypatch.setattr(connections.Server, "headed", held)
    with _server(game, workers=1) as server:
        port = server.server_address[1]
        move = json.dumps({"seat": 0, "index": 0, "at": 0}).encode()
        whole = _dripping_move(port, server.token, sent=move + b" " * (9000 - len(move)))
        try:
            assert reached.wait(10)
            assert len(server.arriving) == 1       # (its body's rest in the socket's buffer)
            half = _half(port)
            assert _until_closed(half).startswith(b"HTTP/1.0 503 ")   # no place to take
        finally:
            release.set()
        assert _until_closed(whole).split(b"\r\n")[0] in (b"HTTP/1.0 200 OK", b"HTTP/1.0 409 Conflict")
        half.close()
        whole.close()


def test_a_request_read_whole_keeps_its_place_while_it_is_parsed(monkeypatch):
    from http.server import BaseHTTPRequestHandler
    game = LiveGame(interpreter.load("diamonds"), 3, 1, "human,random,random")
    # its line and headers read and parsed, not yet told to the server
    with _held(monkeypatch, BaseHTTPRequestHandler, "parse_request", after=True) as (reached, release), \
            _server(game, workers=1) as server:
        port = server.server_address[1]
        whole = _connect(port)
        try:
            whole.sendall(f"GET /api/game?token={server.token} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            assert reached.wait(10)
            half = _half(port)
            assert _until_closed(half).startswith(b"HTTP/1.0 503 ")
        finally:
            release.set()
        assert _until_closed(whole).startswith(b"HTTP/1.0 200 ")
        half.close()
        whole.close()


def test_a_request_answered_an_error_about_its_line_keeps_its_place_and_never_stalls_the_server(monkeypatch):
    from http.server import BaseHTTPRequestHandler
    game = LiveGame(interpreter.load("diamonds"), 3, 1, "human,random,random")
    # its 400 begun (its socket given a timeout to write with), not yet sent
    with _held(monkeypatch, BaseHTTPRequestHandler, "end_headers") as (reached, release), \
            _server(game, workers=1, timeout=30) as server:   # (a look at its buffer waiting would wait 30 s)
        port = server.server_address[1]
        bad = _connect(port)
        try:
            bad.sendall(b"G\r\n")
            assert reached.wait(10)
            half = _half(port)
            assert _until_closed(half).startswith(b"HTTP/1.0 503 ")   # at once
        finally:
            release.set()
        assert b"Error code explanation: 400" in _until_closed(bad)   # (its request line of no version: HTTP/0.9, no status line)
        half.close()
        bad.close()


def test_a_request_whose_headers_run_past_their_bound_is_closed(served):
    from interpreter.web.connections import MAX_HEAD
    game = LiveGame(interpreter.load("diamonds"), 3, 1, "human,random,random")
    api = served(game)
    head = b"GET / HTTP/1.0\r\nHost: 127.0.0.1:%d\r\n" % api.port
    fits = head + b"X: " + b"a" * (MAX_HEAD - len(head) - 7) + b"\r\n\r\n"
    assert len(fits) == MAX_HEAD and _raw(api.port, fits).startswith(b"HTTP/1.0 200 ")
    assert _raw(api.port, fits[:-2] + b"X: b\r\n\r\n") == b""   # (http.server alone reads up to 100 lines of 64 KiB)


def test_a_request_dripping_in_is_closed_at_its_deadline(served):
    import socket
    import threading
    game = LiveGame(interpreter.load("diamonds"), 3, 1, "human,random,random")
    api = served(game, workers=2, timeout=0.3)
    drips = [socket.create_connection(("127.0.0.1", api.port), timeout=10) for _ in range(2)]
    stop = threading.Event()

    def drip():   # a byte every 20 ms: never silent for as long as the deadline
        while not stop.wait(0.02):
            for sock in drips:
                try:
                    sock.sendall(b"x")
                except OSError:
                    pass
    drips[0].sendall(b"GET /api/game HTTP/1.1\r\nX-Slow: ")                 # its headers, or its body
    drips[1].sendall(f"POST /api/act?token={api.token} HTTP/1.1\r\nHost: 127.0.0.1:{api.port}\r\n"
                     "Content-Type: application/json\r\nContent-Length: 9000\r\n\r\n".encode())
    thread = threading.Thread(target=drip, daemon=True)
    thread.start()
    try:
        assert [_until_closed(sock) for sock in drips] == [b"", b""]   # however slowly it keeps coming
        assert api("/api/game")[0] == 200
    finally:
        stop.set()
        thread.join()
        for sock in drips:
            sock.close()


@contextmanager
def _answering(monkeypatch, count, **options):
    """A server with ``count`` requests of this client read and being answered (their answers
    held back while the block runs): (its port, those connections, a request for the page)."""
    import threading
    game = LiveGame(interpreter.load("diamonds"), 3, 1, "human,random,random")
    answer, release = game.describe, threading.Event()
    monkeypatch.setattr(game, "describe", lambda: release.wait(30) and answer())
    with _server(game, **options) as server:
        port = server.server_address[1]
        answering = [_connect(port) for _ in range(count)]
        for sock in answering:
            sock.sendall(f"GET /api/game?token={server.token} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        for _ in range(1000):       # (until each is read and waits for its answer)
            if not server.arriving and sum(server.held.values()) == count:
                break
            threading.Event().wait(0.01)
        assert not server.arriving and sum(server.held.values()) == count
        yield port, answering, f"GET / HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
        release.set()
        assert all(_until_closed(sock).startswith(b"HTTP/1.0 200 ") for sock in answering)
        assert _raw(port, b"GET / HTTP/1.0\r\nHost: 127.0.0.1:%d\r\n\r\n" % port).startswith(b"HTTP/1.0 200 ")


def test_requests_being_answered_keep_their_places_and_past_them_one_is_answered_503_at_once(monkeypatch):
    with _answering(monkeypatch, 2, workers=3, per_client=2) as (port, answering, page):
        status, body = _raw(port, page).split(b"\r\n", 1)
        assert status == b"HTTP/1.0 503 Service Unavailable" and b"busy" in body   # its share: all answering
        half = _half(port, "127.0.0.2")                                 # the last place, half-sent
        assert _raw(port, page, "127.0.0.3").startswith(b"HTTP/1.0 200 ")   # ... given to another client
        assert _until_closed(half) == b""


def test_a_client_holding_more_places_takes_none_from_one_holding_fewer(monkeypatch):
    with _answering(monkeypatch, 2, workers=4, per_client=3) as (port, answering, page):
        halves = [_half(port, "127.0.0.2"), _half(port, "127.0.0.3")]   # every place taken
        assert _raw(port, page).startswith(b"HTTP/1.0 503 ")            # holding 2: takes neither
        assert _raw(port, page, "127.0.0.4").startswith(b"HTTP/1.0 200 ")   # holding none: the oldest
        assert _until_closed(halves[0]) == b""
        halves[1].close()


def test_a_client_resetting_its_connection_prints_no_traceback(served, capfd):
    import socket
    import struct
    game = LiveGame(interpreter.load("diamonds"), 3, 1, "human,random,random")
    api = served(game, workers=1)          # one at a time: busy (503) until the reset one is done
    for half in (b"GET /api/game HTTP/1.1\r\nHost: 127.0.0", b""):
        sock = socket.create_connection(("127.0.0.1", api.port), timeout=30)
        if half:
            sock.sendall(half)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()                       # a reset, not a close
        statuses = [api("/api/game")[0]]
        while statuses[-1] == 503 and len(statuses) < 1000:
            statuses.append(api("/api/game")[0])
        assert statuses[-1] == 200
    err = capfd.readouterr().err
    assert "Traceback" not in err and "ConnectionResetError" not in err, err


def test_positions_are_kept_as_checkpoints_and_rebuilt_between_them(tmp_path):
    from interpreter.play.logs.replay import replay
    from interpreter.web.games import Positions
    for name, players in SEEDS:
        path, _ = _log(tmp_path, name, players)
        every = []
        replay(path, None, every)
        kept = Positions(every=5)
        replay(path, None, kept)
        assert len(kept) == len(every) > 50
        assert len(kept.states) <= len(every) // 5 + 2           # a state every 5 positions (and the last)
        for k in [*range(len(every)), 7, 3, 40, 41, 42, 0]:      # on, back, and on again
            assert kept[k][0] == every[k][0] and kept[k][1].to_json() == every[k][1].to_json(), (name, k)
    # a live game's positions likewise (rebuilt by the option index taken)
    live = LiveGame(interpreter.load("diams"), 3, 2, "human,random,random", log=str(tmp_path / "live.jsonl"))
    while not live.state.over:
        live.act(0, len(live.state.legal_actions()) - 1, _at(live))
    assert len(live.positions.states) < len(live.positions) // 32
    logged = []
    replay(tmp_path / "live.jsonl", None, logged)
    assert [S.to_json() for _, S in live.positions] == [S.to_json() for _, S in logged]
    assert LogView(path).positions.every == 64 and len(LogView(path).positions.states) <= len(every) // 64 + 2


def test_a_ruleset_whose_cards_have_a_list_attribute_is_drawn(tmp_path):
    """A list-valued attribute (a board position [x, y]) is no colour key: the table is drawn
    (it raised 'unhashable type: list' while choosing the attribute that colours the cards)."""
    from interpreter.play.display.table import table_of
    path = tmp_path / "lists.yaml"
    path.write_text("""
game: lists
players: {min: 2, max: 2}
components:
  cell: {attributes: {at: [[0, 0], [0, 1], [1, 0]], tone: [red, blue, red]}, label: "c{tone}"}
zones:
  board: {owner: none, visible: all, start: [cell]}
""" + ONE_DECISION)
    rules = interpreter.load(path)
    view = table_of(rules).render(rules.new_game(2, 0), 0)
    assert "board" in json.dumps(view)


def test_a_rounds_end_is_a_summary_table_on_the_page_and_not_said_twice(tmp_path):
    path, _ = _log(tmp_path, "diams", 4)
    s = LogView(path)
    views = [s.view(at, 0) for at in range(len(s.positions))]
    ends = [v for v in views if v["summary"]]
    assert ends, "a game of diams has a round's end"
    for v in ends:
        summary = v["summary"]
        assert summary["seats"][0] == "you" and all(len(row) == len(summary["seats"]) + 1 for row in summary["rows"])
        for row in summary["rows"]:
            assert f"{row[0]}:" not in v["said"]   # told by the table, not also in words
            assert all(c == "" or c[0] in "+-" and c[1:].isdigit() for c in row[1:])
    assert all(v["summary"] is None for v in views if v not in ends)
