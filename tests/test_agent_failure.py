"""An agent's failure is not the rules': a search agent's sampled world the rules cannot score
is skipped (docs/agents.md), and an agent that fails to decide ends the game with a located
error line saying so, which replays, reads redacted and ends a live game (docs/reference.md,
"Game logs"); and a result line whose game the replay cannot score is refused at its line."""
from __future__ import annotations

import io
import json

import pytest

import interpreter
from interpreter.errors import GameError
from interpreter.play import agents
from interpreter.play.logs import gamelog, replay
from interpreter.play.logs.redact import Redactor
from interpreter.web.games import LiveGame
from helpers import dealt_hands, write_ruleset

# seat 0's first card keys a map that has no S: a sampled world dealing it an S cannot be scored
GUESSED = dealt_hands("greedyleak", """
flow:
  - choose: {who: 0, options: "['go']", as: x, prompt: go}
  - choose: {who: 1, options: "['a', 'b']", as: y, prompt: pick}
vars:
  x: str
  y: str
scoring:
  categories:
    p: "params.bonus[first(hand[0]).suit]"
""", params="bonus: {value: {H: 1, D: 2}}")


def _rules(tmp_path):
    return interpreter.load(write_ruleset(tmp_path, GUESSED, "g.yaml"))


def test_a_world_the_rules_cannot_score_is_skipped_by_the_greedy_agent(tmp_path):
    rules = _rules(tmp_path)
    played = 0
    for seed in range(12):
        if rules.card_labels[rules.new_game(2, seed).z["hand"][0][0]].endswith("S"):
            continue   # (the real game's scoring fails: the rules' error, told as such)
        result = gamelog.play_game(rules, 2, seed, agents.make_agents("random,greedy", 2, seed), log=io.StringIO())
        assert result["decisions"] == 2
        played += 1
    assert played >= 4


class Broken:
    name = "broken"

    def act(self, observation, legal):
        raise KeyError("a card it guessed")


def _failing_log(rules, tmp_path):
    path = tmp_path / "broken.jsonl"
    with pytest.raises(GameError) as caught:
        gamelog.play_game(rules, 2, 0, [agents.make_agents("random", 2, 0)[0], Broken()], log=str(path))
    return path, caught.value


def test_an_agent_that_fails_ends_the_game_with_a_located_error_line_that_replays(tmp_path):
    rules = _rules(tmp_path)
    path, error = _failing_log(rules, tmp_path)
    assert "seat 1's agent 'broken' failed to decide 'pick' (the agent failed, not the rules)" in error.message
    line = GUESSED.splitlines().index("  - choose: {who: 1, options: \"['a', 'b']\", as: y, prompt: pick}") + 1
    assert "KeyError" in error.message and str(error.loc).startswith(f"{tmp_path / 'g.yaml'}:{line}:5")
    last = json.loads(path.read_text().splitlines()[-1])
    assert last["type"] == "error" and last["agent"] == "broken" and last["seat"] == 1 and "action" not in last
    assert last["loc"] == str(error.loc) and last["n"] == 2
    failed = replay.replay(path)["agent_failed"]
    assert failed == {"seat": 1, "agent": "broken", "decision": 2, "message": error.message}
    for seat in (0, None):
        shown = Redactor(rules, seat).line(last)["message"]
        assert shown == "seat 1's agent 'broken' failed to decide 'pick' (the agent failed, not the rules)"
    path.write_text(path.read_text().replace('"prompt": "pick", "agent"', '"prompt": "go", "agent"'))
    with pytest.raises(Exception, match="an agent's failure"):
        replay.replay(path)


def test_a_live_game_ends_when_its_agent_fails(tmp_path):
    rules = _rules(tmp_path)
    log = tmp_path / "live.jsonl"
    game = LiveGame(rules, 2, 0, "human,random", log=str(log))
    game.agents[1] = Broken()
    game.act(0, 0, 0)   # seat 0 goes; seat 1's agent fails
    assert game.waiting_for() is None and game.error.startswith("seat 1's agent ") and "failed to decide 'pick'" in game.error
    said = game.view(len(game.positions) - 1, 0)["said"]
    assert game.describe()["error"] == game.error and said.startswith("the game ends: seat 1's agent "), said
    assert replay.replay(log)["agent_failed"]["message"].endswith("KeyError: 'a card it guessed'")


def test_replay_says_an_agents_failure_is_the_logs_word_and_never_prints_its_text_raw(tmp_path, capsys):
    """An agent's failure cannot be re-played: replay checks where it happened (the game's next
    decision, that seat, that prompt, the agent the header names for the seat), says the rest is
    the log's word, and exits 0 as for a stopped game (every decision before it verified); a
    log's text reaches the terminal with its control characters escaped, an error's too."""
    from interpreter.tools.cli import main
    rules = _rules(tmp_path)
    path, _ = _failing_log(rules, tmp_path)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    forged = "OK\x1b[2J\x1b[31mreplay verified: seat 1 WON\nanything\x1b]0;pwned\x07\u202e"
    lines[-1]["message"] = forged
    path.write_text("".join(json.dumps(o) + "\n" for o in lines))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("replay ok: 1 decisions; then the log says seat 1's agent 'broken' failed at decision 2: "
                          "not re-played"), out
    assert out.endswith("unchecked: OK\\x1b[2J\\x1b[31mreplay verified: seat 1 WON\\nanything\\x1b]0;pwned"
                        "\\x07\\u202e\n"), out
    assert out.count("\n") == 1 and out.isascii() and "\x1b" not in out and "\x07" not in out
    for agent, named in (("random", "'broken' for seat 1"), ("x\x1b[2J", "'broken' for seat 1")):
        lines[-1]["agent"] = agent
        path.write_text("".join(json.dumps(o) + "\n" for o in lines))
        assert main(["replay", str(path)]) == 1
        err = capsys.readouterr().err
        assert f"line {len(lines)}: an agent's failure of seat 1's agent" in err and named in err
        assert "\x1b" not in err and err.count("\n") == 1, err
    lines[0]["agents"] = "broken"   # a header naming no agent for each seat
    lines[-1]["agent"] = "broken"
    path.write_text("".join(json.dumps(o) + "\n" for o in lines))
    assert main(["replay", str(path)]) == 1
    assert "the header names no agent of each seat" in capsys.readouterr().err
    # a header's text quoted by an error is escaped too (its hash: not the ruleset's)
    lines[0] = {**lines[0], "agents": ["random", "broken"], "hash": "\x1b[2J\x1b]0;x\x07" + "0" * 60}
    path.write_text("".join(json.dumps(o) + "\n" for o in lines))
    assert main(["replay", str(path), "--ruleset", str(tmp_path / "g.yaml")]) == 1
    err = capsys.readouterr().err
    assert "\\x1b[2J\\x1b]0;x\\x07" in err and "\x1b" not in err and "\x07" not in err, err


def test_replay_names_the_result_line_whose_scoring_fails(tmp_path, capsys):
    """A log whose result line says the game scored, where the replay's scoring fails (the
    rules', on seat 0's real card): refused at that line."""
    from interpreter.tools.cli import main
    rules = _rules(tmp_path)
    seed = next(s for s in range(50) if rules.card_labels[rules.new_game(2, s).z["hand"][0][0]].endswith("S"))
    path = tmp_path / "forged.jsonl"
    with pytest.raises(GameError, match="in scoring category p"):
        gamelog.play_game(rules, 2, seed, agents.make_agents("random", 2, seed), log=str(path))
    lines = path.read_text().splitlines()
    lines[-1] = json.dumps({"type": "result", "scores": [1, 1], "winners": [0, 1], "decisions": 2})
    path.write_text("\n".join(lines) + "\n")
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"forged.jsonl: line {len(lines)}: a result line, but the replay's scoring fails: in scoring category p" in err
