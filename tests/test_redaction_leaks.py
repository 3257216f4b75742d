"""What a seat reads of a game (a log redacted for it, the web table it is shown, its
observation) agrees with what the ruleset lets it see: the reveal of a simultaneous choice into a
private variable, every event kind the engine emits, and a runtime error's message, which may
name what the seat does not see (docs/security.md, "What a seat reads")."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import interpreter
from interpreter.errors import GameError
from interpreter.play import agents
from interpreter.play.logs import gamelog, replay
from interpreter.play.logs.redact import Redactor
from interpreter.web.games import LiveGame
from helpers import dealt_hands, tiny_ruleset, write_ruleset

ROOT = Path(__file__).resolve().parent.parent

VOTE = """
game: secret_vote
players: {min: 3, max: 3}
counters:
  yes_votes: {start: 0}
vars:
  BALLOT: "list[str]"
flow:
  - choose: {options: "['yes', 'no']", as: BALLOT, prompt: vote, simultaneous: true}
  - set: {yes_votes: "count(players where BALLOT[it] == 'yes')"}
scoring:
  categories:
    votes: yes_votes
"""

# seat 1's first card decides which key of the map is read: a suit the map has not (S) stops the game
LEAK = """
game: errleak
players: {min: 2, max: 2}
params:
  bonus: {value: {H: 1, D: 2}}
components:
  card:
    attributes: {suit: [H, D, S], rank: 1..3}
    label: "{rank}{suit}"
zones:
  deck: {start: [card], visible: none}
  hand: {owner: player, visible: owner}
counters:
  pts: {owner: player}
setup:
  - shuffle: deck
  - deal: {from: deck, to: hand, count: 2}
flow:
  - choose: {who: 0, options: "['go']", as: x, prompt: go}
  - with_player:
      who: 1
      do: [{gain: {counter: pts, amount: "params.bonus[first(hand).suit]"}}]
vars:
  x: str
scoring:
  categories:
    p: pts
"""


class _Lines(list):
    """A log written to a list (play_game's ``log``: a text stream)."""

    def write(self, text):
        self.extend(json.loads(line) for line in text.splitlines() if line)


def _vote(tmp_path, var):
    return interpreter.load(write_ruleset(tmp_path, VOTE.replace("BALLOT", var), f"vote{var}.yaml"))


def _reveals(lines):
    return [ev for line in lines for ev in line.get("events") or () if ev.get("ev") == "reveal"]


@pytest.mark.parametrize("var", ["_ballot", "ballot"])
def test_a_reveal_shows_its_values_only_where_the_variable_is_seen(tmp_path, var):
    """Revealed into a private variable, the choices stay secret: no seat's log, web table nor
    observation holds them (each seat's own choice is in its own decision line); into a public
    one, every seat reads them in all three."""
    rules = _vote(tmp_path, var)
    out = _Lines()
    gamelog.play_game(rules, 3, 1, agents.make_agents("random", 3, 1), log=out)
    [full] = _reveals(out)
    assert len(full["value"]) == 3
    public = not var.startswith("_")
    for seat in (0, 1, 2, None):
        red = [Redactor(rules, seat, rules.team_members(3)).line(o) for o in out]
        [shown] = _reveals(red)
        assert shown == (full if public else {"ev": "reveal", "var": var})
    game = LiveGame(rules, 3, 1, "human,random,random")
    game.act(0, 0, 0)
    S = game.state
    for seat in (0, None):
        view = game.view(len(game.positions) - 1, seat)
        texts = " ".join(e["text"] for e in view["events"])
        assert (var in S.observation(seat)["vars"]) is public
        assert ("seat 1 " in texts and "seat 2 " in texts) is public, texts
        assert ("revealed" in texts) is public, texts


# for each rule's kinds, an event of seat 1 holding what seat 0 may not see (its hand, its hidden
# coins, the private _v) and the fields that hold it (none: nothing of it is secret, kept whole)
PRIVATE = tiny_ruleset("""
  hand: {owner: player, visible: owner}
counters:
  coins: {owner: player, start: 9, visible: owner}
  gems: {owner: player, start: 2, visible: owner}
  taken: {owner: card}
vars:
  _v: str
  bought: card
flow:
  - turns:
      rounds: 1
      steps:
        - grid: {zone: deck, rows: 2, cost: "1", pay: coins, mark: taken, as: bought, pass: false}
scoring:
  categories: {coins: coins}
""", game="private", card="spaces", attributes='n: "1..6"', label="s{n}")
MOVED = {"from": "hand", "from_owner": 1, "to": "hand", "to_owner": 1, "cards": ["s1", "s2"]}
CASES = {
    **{kind: ({"ev": kind, "who": 1, **MOVED}, ("cards",))
       for kind in ("move", "deal", "pick", "pass", "receive", "play")},
    "gather": ({"ev": "gather", "from": ["hand", "deck"], "to": "deck", "cards": ["s1"]}, ("cards",)),
    "trick": ({"ev": "trick", "winner": 1, **MOVED}, ("cards",)),
    "show": ({"ev": "show", "who": 1, "shown_to": 1, "from": "hand", "from_owner": 1, "cards": ["s1"]}, ("cards",)),
    "target": ({"ev": "target", "who": 1, "card": "s1", "var": "_v"}, ("card",)),
    **{kind: ({"ev": kind, "counter": "coins", "owner": 1, "who": 1, "amount": 7}, ("amount",)) for kind in ("gain", "lose")},
    "transfer": ({"ev": "transfer", "from": "coins", "from_owner": 1, "to": "gems", "to_owner": 1, "amount": 7}, ("amount",)),
    "advance": ({"ev": "advance", "counter": "coins", "owner": 1, "who": 1, "from": 3, "to": 7}, ("from", "to")),
    "pay": ({"ev": "pay", "who": 1, "counter": "coins", "amount": 7}, ("counter", "amount")),
    "set_counter": ({"ev": "set_counter", "counter": "coins", "owner": 1, "value": 7}, ("value",)),
    **{kind: ({"ev": kind, "var": "_v", "value": "x"}, ("value",)) for kind in ("set", "random", "reveal")},
    "roll": ({"ev": "roll", "who": 1, "chances": {"hit": 0.25}}, ("chances",)),
    "forced": ({"ev": "forced", "seat": 1, "prompt": "p", "action": "s1", "seen_by": [1]}, ("action",)),
    "attempt": ({"ev": "attempt", "who": 1, "outcome": "hit", "var": "_v"}, ("outcome",)),
    "grid": ({"ev": "grid", "who": 1, "space": "s1", "cost": 7}, ("cost",)),
    "reset": ({"ev": "reset", "counters": ["gems"]}, ()),
    "branch": ({"ev": "branch", "option": "a"}, ()),
    "end_game": ({"ev": "end_game"}, ()),
}


def test_each_rule_hides_what_its_kind_holds_of_another_seat(tmp_path):
    """Every kind of Redactor.KINDS, in a case private to seat 1: seat 0 and a spectator read none
    of the fields holding it (a forced move's action as "?"; a change of counters it does not
    see, a pay's included, not at all, nor a spectator a reset of counters only their owners
    see), seat 1 reads them (but for what no
    seat reads: a private variable's value, an attempt's outcome drawn into one, a gather out of a
    hidden zone, a roll's chances); a
    kind nobody listed shows its kind alone."""
    rules = interpreter.load(write_ruleset(tmp_path, PRIVATE, "private.yaml"))
    assert set(CASES) == set(Redactor.KINDS)
    for kind, (ev, secret) in CASES.items():
        for seat in (0, None):
            shown = Redactor(rules, seat, rules.team_members(2)).event(ev)
            if shown is None:   # a change of counters the seat does not see: left out of its line
                assert Redactor.KINDS[kind] == "counter" or (kind, seat) == ("reset", None), kind
                continue
            assert shown["ev"] == kind and all(shown.get(f) in (None, "?") for f in secret), (kind, shown)
            assert secret or shown == ev, kind
        if kind not in ("set", "random", "reveal", "gather", "roll", "attempt"):   # (no seat reads those)
            mine = Redactor(rules, 1, rules.team_members(2)).event(ev)
            assert all(mine.get(f) == ev[f] for f in secret), kind
    assert Redactor(rules, 0).event({"ev": "brand_new", "who": 1, "value": "s1"}) == {"ev": "brand_new"}


def test_every_event_kind_the_engine_emits_is_decided_by_the_redactor():
    """Each kind written as ``'ev': 'kind'`` in interpreter/ (and the counter effects' gain and
    lose, whose kind is their effect's name) has its rule in Redactor.KINDS, and the table names
    no kind nobody emits: a new event is not shown to seats by default."""
    found = set()
    for path in (ROOT / "interpreter").rglob("*.py"):
        found |= set(re.findall(r"""["']ev["']: *["']([a-z_]+)["']""", path.read_text(encoding="utf-8")))
    found |= {"gain", "lose"}   # (mechanics/counters.py: {'ev': kind})
    assert found == set(Redactor.KINDS), (found ^ set(Redactor.KINDS))
    assert set(Redactor.KINDS.values()) <= {"cards", "counter", "variable", "roll", "forced", "told", "amounts"}


def _leak_game(tmp_path):
    """(the ruleset, a seed whose game stops on seat 1's hidden card)."""
    rules = interpreter.load(write_ruleset(tmp_path, LEAK, "errleak.yaml"))
    for seed in range(50):
        S = rules.new_game(2, seed)
        if rules.card_labels[S.z["hand"][1][0]].endswith("S"):
            return rules, seed
    raise AssertionError("no seed deals seat 1 a first card of suit S")


def test_a_runtime_error_names_its_values_only_in_the_omniscient_log(tmp_path):
    rules, seed = _leak_game(tmp_path)
    out = _Lines()
    with pytest.raises(GameError, match="'S' is not a key of the map") as raised:
        gamelog.play_game(rules, 2, seed, agents.make_agents("random", 2, seed), log=out)
    full = out[-1]
    assert full["type"] == "error" and full["message"] == raised.value.message
    assert full["summary"] == "in effects: a key not in the map"
    for seat in (0, 1, None):
        shown = Redactor(rules, seat, rules.team_members(2)).line(full)
        assert shown["message"] == "in effects: a key not in the map" and shown["loc"] == full["loc"]
        assert "summary" not in shown
    red = replay.redact(out, 0, rules)
    assert "'S'" not in json.dumps(red) and "its keys" not in json.dumps(red)
    # a log written before the summary: the message is not shown at all
    old = {k: v for k, v in full.items() if k != "summary"}
    assert Redactor(rules, 0).line(old)["message"] == "a runtime error (its message is in the full log only)"


def test_a_live_games_error_is_shown_to_its_seats_without_its_values(tmp_path):
    rules, seed = _leak_game(tmp_path)
    game = LiveGame(rules, 2, seed, "human,random")
    game.act(0, 0, 0)
    assert game.describe()["error"] == "in effects: a key not in the map"
    for seat in (0, None):
        view = game.view(len(game.positions) - 1, seat)
        assert view["line"]["message"] == "in effects: a key not in the map"
        assert "its keys" not in json.dumps(view), seat


def test_two_options_sharing_a_label_are_summarised_without_the_labels(tmp_path):
    """engine/labels.py names the two options (which may be a hidden hand's cards): a seat reads
    the kind of error only."""
    rules = interpreter.load(write_ruleset(tmp_path, """
        game: labels
        players: {min: 2, max: 2}
        vars: {x: str, pick: "list[str]"}
        flow:
          - choose: {who: 0, options: "['go']", as: x, prompt: go}
          - choose: {who: 1, options: "[['a+b'], ['a', 'b']]", as: pick, prompt: pick}
        scoring: {categories: {none: "0"}}
        """, "labels.yaml"))
    out = _Lines()
    with pytest.raises(GameError, match="share the label"):
        gamelog.play_game(rules, 2, 1, agents.make_agents("random", 2, 1), log=out)
    assert out[-1]["summary"] == "in choose: two options share a label"
    assert Redactor(rules, 1).line(out[-1])["message"] == "in choose: two options share a label"


# the game ends after seat 0's one decision; scoring reads seat 0's first card's suit (S: not in the map)
SCORE = dealt_hands("scoreleak", """
flow:
  - choose: {who: 0, options: "['go']", as: x, prompt: go}
vars:
  x: str
scoring:
  categories:
    p: "params.bonus[first(hand[1]).suit]"
""", params="bonus: {value: {H: 1, D: 2}}")
SCORED = "in scoring category p: a key not in the map"


def _score_game(tmp_path):
    """(the ruleset file, the ruleset, a seed whose scoring fails on seat 1's hidden card)."""
    path = write_ruleset(tmp_path, SCORE, "scoreleak.yaml")
    rules = interpreter.load(path)
    for seed in range(50):
        if rules.card_labels[rules.new_game(2, seed).z["hand"][1][0]].endswith("S"):
            return path, rules, seed
    raise AssertionError("no seed deals seat 1 a first card of suit S")


def test_a_scoring_error_ends_the_log_as_an_error_line(tmp_path):
    """The rules failing while the game is scored, after its last decision: the log's last line
    is an error line (the message in the full log, its summary for each seat), which replays."""
    path, rules, seed = _score_game(tmp_path)
    out = _Lines()
    with pytest.raises(GameError, match="'S' is not a key of the map") as raised:
        gamelog.play_game(rules, 2, seed, agents.make_agents("random", 2, seed), log=out)
    decision, end = out[-2:]
    assert decision["type"] == "decision" and decision["n"] == 1
    assert end == {"type": "error", "decisions": 1, "message": raised.value.message,
                   "loc": str(raised.value.loc), "summary": SCORED}
    for seat in (0, 1, None):
        assert Redactor(rules, seat, rules.team_members(2)).line(end) == {
            "type": "error", "decisions": 1, "message": SCORED, "loc": end["loc"]}
    log = tmp_path / "game.jsonl"
    log.write_text("".join(json.dumps(o) + "\n" for o in out))
    assert replay.replay(log, str(path))["error"] == raised.value.message
    log.write_text("".join(json.dumps(o) + "\n" for o in out[:-1]) + json.dumps({**end, "message": "x"}) + "\n")
    with pytest.raises(interpreter.ReplayError, match="fails again, but with another message"):
        replay.replay(log, str(path))


def test_a_live_games_scoring_error_ends_it_and_every_view_works(tmp_path):
    """A live game whose scoring fails: its seats read the summary (the game's error, the page's
    last position), never the message; every position still renders; the log ends on the error."""
    path, rules, seed = _score_game(tmp_path)
    log = tmp_path / "live.jsonl"
    game = LiveGame(rules, 2, seed, "human,random", log=str(log))
    game.act(0, 0, 0)
    described = game.describe()
    assert described["over"] and described["error"] == SCORED and described["length"] == 3
    for seat in (0, None):
        for at in range(len(game.positions)):
            view = game.view(at, seat)
            assert "its keys" not in json.dumps(view) and "'S'" not in json.dumps(view), (seat, at)
        assert view["line"]["message"] == SCORED and view["result"] is None
        assert SCORED in view["said"]
    assert json.loads(log.read_text().splitlines()[-1])["summary"] == SCORED
    assert "error" in replay.replay(log, str(path))


TARGET = dealt_hands("tgt", """
counters:
  pts: {owner: player}
flow:
  - turns:
      rounds: 1
      steps:
        - attempt:
            target: {from: hand, as: TGT, prompt: aim}
            as: RES
            outcomes:
              hit: {chance: "0.5", steps: [{gain: {counter: pts}}]}
              miss: {chance: rest}
scoring:
  categories:
    p: pts
""", deal=3)


def _target(tmp_path, private):
    names = ("_t", "_res") if private else ("t", "res")
    text = TARGET.replace("TGT", names[0]).replace("RES", names[1])
    return interpreter.load(write_ruleset(tmp_path, text, f"target{private}.yaml"))


def _told(line):
    """(the card of the line's target event, the outcome of its attempt event), as written."""
    evs = {ev["ev"]: ev for ev in line["events"]}
    return evs["target"].get("card"), evs["attempt"].get("outcome")


@pytest.mark.parametrize("private", [True, False])
def test_an_attempts_target_and_outcome_are_the_actors_alone_in_a_private_variable(tmp_path, private):
    """docs/mechanics/dexterity.md: an attempt whose ``target: {as: _name}`` and ``as: _name``
    are private tells the other seats that the actor tried, not what nor how it went (its
    decision "?"), in the log, the web page, its words and the observation; public, everyone.
    The outcome drawn into ``_res`` is seen by no seat, the actor included: no observation shows
    it (the actor's own log agrees with its observation)."""
    rules = _target(tmp_path, private)
    out = _Lines()
    gamelog.play_game(rules, 2, 3, agents.make_agents("random", 2, 3), log=out)
    full = [o for o in out if o["type"] == "decision" and o["seat"] == 1][0]
    card, outcome = _told(full)
    assert card in rules.card_labels and outcome in ("hit", "miss")
    for seat in (0, None, 1):
        shown = Redactor(rules, seat, rules.team_members(2)).line(full)
        seen = not private or seat == 1
        assert _told(shown) == ((card, outcome) if not private else (card if seen else None, None)), seat
        assert (shown["action"] == card) is seen
    game = LiveGame(rules, 2, 3, "human,random")
    game.act(0, 0, 0)   # seat 0 aims, then seat 1 (an agent)
    S = game.state
    view = game.view(len(game.positions) - 1, 0)
    texts = " ".join([*(e["text"] for e in view["events"]), *view["since"]])
    assert (f"seat 1 tries {S.rules.card_labels[S.v['t' if not private else '_t']]}" in texts) is not private, texts
    assert ("seat 1 tries a hidden card" in texts) is private, texts
    assert ({"t", "res"} <= set(S.observation(0)["vars"])) is not private
    assert not {"_t", "_res"} & set(S.observation(0)["vars"]) and not {"_t", "_res"} & set(S.observation(1)["vars"])


def test_an_outcome_reported_into_a_private_variable_is_the_actors_alone(tmp_path):
    """``resolve: ask``: the actor tells what happened; kept in ``as: _res``, another seat reads "?"."""
    rules = _target(tmp_path, True)
    S = rules.new_game(2, 3, {"resolve": "ask"}, record=True)
    S.ev = None
    lines = [gamelog.logged_decision(rules, S, 0, n)[0] for n in (1, 2)]   # seat 0 aims, then reports
    assert [line["prompt"] for line in lines] == ["aim", "outcome"] and lines[1]["seen_by"] == []
    assert Redactor(rules, 1).line(lines[1])["action"] == "?"
    assert Redactor(rules, 0).line(lines[1])["action"] == lines[1]["action"] in ("hit", "miss")


def test_another_seats_private_target_is_not_in_the_openspiel_information_state(tmp_path):
    pytest.importorskip("pyspiel", reason="the rl extra (pip install '.[rl]'): open_spiel is not installed")
    from interpreter.adapters.openspiel import load_game
    path = write_ruleset(tmp_path, TARGET.replace("TGT", "_t").replace("RES", "_res"), "spiel.yaml")
    st = load_game(str(path), players=2, chance="seed").new_initial_state()
    st.apply_action(3)
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    told = [json.loads(row) for row in st.information_state_string(0).splitlines() if row.startswith("[1,")]
    assert told and all("card" not in ev and "outcome" not in ev for _, _, evs in told for ev in evs), told


def test_a_person_at_a_seats_terminal_reads_the_summary_and_where_the_message_is(tmp_path, cli, monkeypatch):
    """``play --agents human,...``: the terminal (stdout and stderr alike) says the error's place and
    kind, and where its full message is: the full log, which alone holds it."""
    import io
    rules, seed = _leak_game(tmp_path)
    path, log = tmp_path / "errleak.yaml", tmp_path / "game.jsonl"
    for extra, where in (((), "only a full log keeps it"), (("--log", str(log)), f"is in the log {log}")):
        monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))
        code, out, err = cli("play", str(path), "-p", "2", "--seed", str(seed), "--agents", "human,random", *extra)
        assert code == 1 and "in effects: a key not in the map" in out + err and where in err, err
        assert "'S'" not in out + err and "its keys" not in out + err and "Traceback" not in err
    assert "'S' is not a key of the map" in log.read_text().splitlines()[-1]
    code, out, err = cli("play", str(path), "-p", "2", "--seed", str(seed))   # no person: the whole message
    assert code == 1 and "'S' is not a key of the map (its keys: H, D)" in err


def test_a_game_whose_scoring_fails_before_any_decision_ends_with_that_error(tmp_path):
    """Over as it starts (no option: ``if_none: end_game``): the live game's error and log, and the
    log viewed again (web LogView), as after a last decision."""
    from interpreter.web.games import LogView
    seed = _score_game(tmp_path)[2]   # (the same deal)
    path = write_ruleset(tmp_path, SCORE.replace('''options: "['go']"''', 'options: "[]", if_none: end_game'), "zero.yaml")
    rules, log = interpreter.load(path), tmp_path / "zero.jsonl"
    game = LiveGame(rules, 2, seed, "human,random", log=str(log))
    assert game.describe()["error"] == SCORED and game.describe()["length"] == 2
    end = json.loads(log.read_text().splitlines()[-1])
    assert end["decisions"] == 0 and end["summary"] == SCORED and "'S'" in end["message"]
    view = LogView(str(log), str(path)).view(1, 0)
    assert view["line"]["message"] == SCORED and view["result"] is None and "'S'" not in json.dumps(view)
