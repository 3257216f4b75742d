"""A value a step keeps in a private variable (``as: _name``) is the acting seat's alone, in
every step kind that takes ``as:``; and a log written before an event named that variable
(``var``) still replays and opens in the viewer (docs/reference.md, "Game logs")."""
from __future__ import annotations

import io
import json

import pytest

import interpreter
from interpreter.errors import ReplayError
from interpreter.play import agents
from interpreter.play.logs import gamelog, replay
from interpreter.web.games import LogView
from helpers import dealt_hands, write_log, write_ruleset

TARGET = dealt_hands("tgt2", """
counters:
  pts: {owner: player, visible: owner}
flow:
  - turns:
      rounds: 2
      steps:
        - attempt:
            target: {from: hand, as: _t, prompt: aim}
            as: _res
            prompt: report
            outcomes:
              zapped: {chance: "0.5", steps: [{gain: {counter: pts}}]}
              fizzled: {chance: rest}
vars:
  _t: card
  _res: str
scoring:
  categories:
    p: pts
""", deal=3)


def _log(rules, seed=4) -> list[dict]:
    out = io.StringIO()
    gamelog.play_game(rules, 2, seed, agents.make_agents("random", 2, seed), log=out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _older(lines: list[dict], format: int = 2) -> list[dict]:
    """The log as an engine that wrote no ``var`` on an announcement wrote it (format 2)."""
    return [{**o, "events": [{k: v for k, v in ev.items() if k != "var"} for ev in o["events"]]}
            if "events" in o else {**o, "format": format} if o["type"] == "header" else o for o in lines]


def test_a_log_written_before_events_named_the_private_variable_replays_and_opens(tmp_path):
    path = write_ruleset(tmp_path, TARGET, "t2.yaml")
    rules = interpreter.load(path)
    lines = _log(rules)
    assert any("var" in ev for o in lines for ev in o.get("events", ())), "the engine names the variable"
    old = tmp_path / "old.jsonl"
    write_log(old, _older(lines))
    assert replay.replay(old)["decisions"] == len([o for o in lines if o["type"] == "decision"])
    assert len(LogView(old, path).positions) > 1
    # what matters is still checked: another card aimed at is refused
    first = next(o for o in lines if o.get("n") == 1)
    other = next(c for c in rules.card_labels if c != first["action"])
    forged = [{**o, "events": [{**ev, "card": other} if ev["ev"] == "target" else ev for ev in o["events"]]}
              if o.get("n") == 1 else o for o in _older(lines)]
    write_log(old, forged)
    with pytest.raises(ReplayError, match="event 1 differs"):
        replay.replay(old)


def test_a_log_of_the_current_format_lacking_a_field_the_rules_add_is_refused(tmp_path):
    """The fields an older engine did not write (replay.ADDED) are forgiven only to a log whose
    header says an older format: a log of the current one without ``var`` on an announcement
    (which a redaction reads to hide its card) is refused at its line, by replay and the viewer,
    and so is a decision without the ``seen_by`` the replay gives it."""
    path = write_ruleset(tmp_path, TARGET, "t2.yaml")
    rules = interpreter.load(path)
    lines = _log(rules)
    assert lines[0]["format"] == gamelog.FORMAT == 3
    stripped = tmp_path / "stripped.jsonl"
    write_log(stripped, _older(lines, format=gamelog.FORMAT))
    first = next(no for no, o in enumerate(lines, 1) if any("var" in ev for ev in o.get("events", ())))
    with pytest.raises(ReplayError, match=rf"stripped.jsonl: line {first}: event \d+ differs: the log has "
                                          r'\{"ev": "(target|attempt)", [^}]*\}, the replay gives \{.*"var": "_'):
        replay.replay(stripped)
    with pytest.raises(ReplayError, match=rf"line {first}: event"):
        LogView(stripped, path)
    seen = next(no for no, o in enumerate(lines, 1) if "seen_by" in o)
    unseen = [{k: v for k, v in o.items() if k != "seen_by"} if no == seen else o for no, o in enumerate(lines, 1)]
    write_log(stripped, unseen)
    with pytest.raises(ReplayError, match=rf"line {seen}: seen_by: the log has null, the replay gives \["):
        replay.replay(stripped)
    write_log(stripped, [{**o, "format": 2} if o["type"] == "header" else o for o in unseen])
    assert replay.replay(stripped)["decisions"] == len([o for o in lines if o["type"] == "decision"])


SECRET = """
game: hidchoice
players: {min: 2, max: 2}
vars:
  _c: int
  x: {type: str}
flow:
  - choose: {who: 0, options: "[1, 2, 3]", as: _c, prompt: secret}
  - choose: {who: 1, options: "['a']", as: x, prompt: poke}
scoring:
  categories:
    g: "_c"
"""


@pytest.mark.parametrize("game", ["target", "secret"])
def test_an_older_log_shows_a_seat_what_its_replay_hides_not_what_its_lines_lack(tmp_path, game):
    """A format 2 log without ``var`` on an announcement (the card aimed at) or ``seen_by`` on a
    decision (a choice kept in ``_c``) replays; what the viewer shows each seat of it, and
    replay.redact, are what they show of the full log (the lines as the replay worked them out),
    never the value its lines leave unhidden. redact refuses such a log of the current format."""
    path = write_ruleset(tmp_path, TARGET if game == "target" else SECRET, "g.yaml")
    rules = interpreter.load(path)
    lines = _log(rules)
    older = [{k: v for k, v in o.items() if k != "seen_by"} for o in _older(lines)]
    assert older[1:] != lines[1:] and older[0]["format"] == 2
    full, old = tmp_path / "full.jsonl", tmp_path / "old.jsonl"
    write_log(full, lines)
    write_log(old, older)
    views = [LogView(p, path) for p in (full, old)]
    for seat in (0, 1, None):
        for at in range(len(views[0].positions)):
            assert views[1].view(at, seat) == views[0].view(at, seat), (seat, at)
    for seat in (0, 1):
        red = replay.redact(older, seat, rules)
        assert red == replay.redact(lines, seat, rules)
    assert '"hidden": true' in json.dumps(red) or '"action": "?"' in json.dumps(red)   # (seat 1: seat 0's secret)
    with pytest.raises(ReplayError, match="redact: line [0-9]+: (event|seen_by)"):
        replay.redact([{**older[0], "format": 3}, *older[1:]], 0, rules)


KINDS_AS = """
game: privas
players: {min: 2, max: 2}
components:
  card: {attributes: {n: "1..9"}, label: "s{n}"}
zones:
  deck: {start: [card], visible: none}
  hand: {owner: player, visible: owner}
counters:
  coins: {owner: player, start: 9}
vars:
  _v: card
  _res: str
setup:
  - shuffle: deck
  - deal: {from: deck, to: hand, count: 3}
flow:
  - turns:
      rounds: 1
      steps:
        - STEP
scoring:
  categories: {coins: coins}
"""
# each step kind whose ``as:`` keeps what a seat chose, or what chance gave it, in a variable
TAKEN = {
    "choose": "choose: {options: 'hand', as: _v, prompt: pick}",
    "attempt": "attempt: {target: {from: hand, as: _v, prompt: aim}, as: _res, prompt: report, "
               "outcomes: {zapped: {chance: '0.5'}, fizzled: {chance: rest}}}",
    "grid": "grid: {zone: deck, rows: 2, cost: '1', pay: coins, as: _v, pass: false}",
}
# the others' ``as:`` holds what every seat knows: the seat asked (the prompts are public), a count
PUBLIC = {"branch": "the seat that chose", "turns": "the seat whose turn it is", "repeat": "the pass's number"}


@pytest.mark.parametrize("kind", sorted(TAKEN))
@pytest.mark.parametrize("resolve", ["random", "ask"])
def test_a_value_kept_in_a_private_as_is_never_named_to_another_seat(tmp_path, kind, resolve):
    """Another seat, and a spectator, read no label of what seat 1 kept in ``_v`` or ``_res``
    (in its decisions' lines, redacted for them); seat 1 reads it."""
    from interpreter.mechanics import STEP_KINDS
    from interpreter.play.logs.redact import Redactor
    assert {k for k, c in STEP_KINDS.items() if any(key.name == "as" for key in c.keys)} == {*TAKEN, *PUBLIC}
    rules = interpreter.load(write_ruleset(tmp_path, KINDS_AS.replace("STEP", TAKEN[kind]), f"{kind}.yaml"))
    for seed in range(4):
        S = rules.new_game(2, seed, {"resolve": resolve}, record=True)
        S.ev, n, lines = None, 0, []
        while not S.is_terminal():
            n += 1
            seat = S.current_player()
            line, _ = gamelog.logged_decision(rules, S, n % len(S.legal_actions()), n)
            if seat == 1:
                lines.append((line, {str(v) if not isinstance(v, int) else rules.card_labels[v]
                                     for k, v in S.v.items() if k in ("_v", "_res") and v is not None}))
        assert lines and any(kept for _, kept in lines)
        for line, kept in lines:
            for reader in (0, None):
                text = json.dumps(Redactor(rules, reader, rules.team_members(2)).line(line))
                assert not [w for w in kept if f'"{w}"' in text], (kind, reader, text)
            mine = json.dumps(Redactor(rules, 1, rules.team_members(2)).line(line))
            assert any(f'"{w}"' in mine for w in kept) or not line["events"], (kind, mine)
