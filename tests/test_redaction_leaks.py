"""What a seat reads of a game (a log redacted for it, the web table it is shown, its
observation) agrees with what the ruleset lets it see: the reveal of a simultaneous choice into a
private variable, and every event kind the engine emits."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import interpreter
from interpreter.play import agents
from interpreter.play.logs import gamelog
from interpreter.play.logs.redact import Redactor
from interpreter.web.games import LiveGame
from helpers import write_ruleset

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


def test_every_event_kind_the_engine_emits_is_decided_by_the_redactor():
    """Each kind written as ``'ev': 'kind'`` in interpreter/ (and the counter effects' gain and
    lose, whose kind is their effect's name) has its rule in Redactor.KINDS, and the table names
    no kind nobody emits: a new event is not shown to seats by default."""
    found = set()
    for path in (ROOT / "interpreter").rglob("*.py"):
        found |= set(re.findall(r"""["']ev["']: *["']([a-z_]+)["']""", path.read_text(encoding="utf-8")))
    found |= {"gain", "lose"}   # (mechanics/counters.py: {'ev': kind})
    assert found == set(Redactor.KINDS), (found ^ set(Redactor.KINDS))
    assert set(Redactor.KINDS.values()) <= {"cards", "counter", "variable", "roll", "forced", "amounts"}
