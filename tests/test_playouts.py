"""validate --playouts: random games that find dead ends, endless games, runtime errors and
broken invariants, each reported with the seed that replays it."""
from __future__ import annotations

from pathlib import Path

import pytest

import interpreter
from interpreter.tools.cli import main
from interpreter.errors import RulesetError
from interpreter.play.checks.playouts import play_one, playouts

ROOT = Path(__file__).resolve().parent.parent

# A small game that is fine as written; each variant breaks it in one way.
FAULTY = """\
game: faulty
players: {min: 2, max: 3}
params: {limit: 99}
components:
  cards: {attributes: {rank: 1..6}, label: "c{rank}"}
zones:
  deck: {start: [cards]}
  pile: {}
vars:
  x: {type: int, start: 0}
invariants:
  - "count(deck) + count(pile) == 6"
  - "count(pile) <= params.limit"
flow:
  - shuffle: deck
  - turns:
      rounds: 2
      steps:
        - branch:
            options:
              play: {if: "count(deck) > 0", steps: [{move: {from: deck, to: pile, count: 1}}]}
              wait: {if: "x >= 0"}
variants:
  crash:                  # one option divides by zero
    flow:
      - turns:
          steps:
            - branch:
                options:
                  safe: {}
                  risky: {steps: [{set: {x: "1 // (count(pile) - count(pile))"}}]}
  endless:                # the deck never holds 7 cards: only the step budget stops it
    limits: {steps: 200}
    end_when: ["x > 5"]
    flow:
      - until: "count(deck) == 7"
        steps:
          - turns:
              steps:
                - branch: {options: {a: {}, b: {}}}
  leaky:                  # the second invariant breaks once two cards are played
    params: {limit: 1}
"""


@pytest.fixture
def faulty(tmp_path):
    path = tmp_path / "faulty.yaml"
    path.write_text(FAULTY, encoding="utf-8")
    return path


def test_a_sound_game_has_no_problems(faulty):
    report = playouts(interpreter.load(faulty), games=5)
    assert report.ok and report.games == 10 and report.decisions > 0


def test_runtime_error_is_located_with_its_seed(faulty):
    rules = interpreter.load(faulty, variant="crash")
    report = playouts(rules, games=3, players=[2])
    assert report.problems and {p.kind for p in report.problems} == {"error"}
    p = report.problems[0]
    assert "division by zero" in p.message and p.loc.line == 31
    again, _ = play_one(rules, p.players, p.seed)           # the seed replays it
    assert (again.kind, again.decisions, again.message) == (p.kind, p.decisions, p.message)


def test_endless_game_hits_the_budget(faulty):
    report = playouts(interpreter.load(faulty, variant="endless"), games=2, players=[3], seed=5)
    assert [(p.kind, p.players, p.seed) for p in report.problems] == [("budget", 3, 5), ("budget", 3, 6)]
    assert "step budget of 200" in report.problems[0].message


def test_broken_invariant_names_the_condition(faulty):
    report = playouts(interpreter.load(faulty, variant="leaky"), games=4)
    # 7 of the 8 random games (4 each at 2 and 3 players) play a second card: each is reported
    assert len(report.problems) == 7 and {p.kind for p in report.problems} == {"invariant"}
    p = report.problems[0]
    assert p.message == "invariant 'count(pile) <= params.limit' is false: count(pile) is 2 and params.limit is 1"
    assert p.loc.line == 13 and p.decisions >= 2


def test_a_decision_without_options_is_a_dead_end(example, tmp_path, monkeypatch):
    # no step kind of the engine asks a decision with no option; a new mechanic might (the
    # example mechanic's vote, patched before the load: the flow calls the run() of a step
    # kind that has no generator)
    monkeypatch.setattr(example.Vote, "run", lambda self, S, frame: setattr(S, "dec", (0, ())))
    path = tmp_path / "vote.yaml"
    path.write_text("game: dead_end\nplayers: {min: 2, max: 3}\n"
                    "flow:\n  - vote: {options: \"['red', 'blue']\", as: colour}\n", encoding="utf-8")
    [p] = playouts(interpreter.load(path), games=1, players=[2]).problems
    assert p.kind == "dead-end" and "seat 0 must decide" in p.message and "no option" in p.message


def test_invariants_are_checked_at_load(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(FAULTY.replace('"count(pile) <= params.limit"', '"count(pile) + me"'), encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        interpreter.load(path)
    assert "'me' has no meaning here" in info.value.message and info.value.loc.line == 13


def test_cli_reports_each_problem_with_a_replay_command(faulty, capsys):
    assert main(["validate", str(faulty), "--playouts", "2", "--players", "2"]) == 1
    out, err = capsys.readouterr()
    assert f"{faulty}: ok, 1 warning; 2 random games" in out   # (a gap: the pile never got two of its cards)
    assert f"{faulty} (variant leaky): failed: 2 playout problems; 2 random games" in out
    assert f"{faulty} (variant crash): error: 2 players, seed 1, after 0 decisions" in err
    assert f"replay: rulebook play {faulty} --players 2 --seed 1 --variant leaky" in err
    # the printed command replays the crash
    assert main(["play", str(faulty), "--players", "2", "--seed", "1", "--variant", "crash"]) == 1
    assert "division by zero" in capsys.readouterr().err


def test_cli_json_and_usage(faulty, capsys):
    import json
    assert main(["validate", str(faulty), "--playouts", "1", "--json"]) == 1
    files = json.loads(capsys.readouterr().out)["files"]
    leaky = next(f for f in files if f["variant"] == "leaky")
    assert leaky["ok"] is False and leaky["playouts"]["problems"][0]["kind"] == "invariant"
    assert main(["validate", str(faulty), "--players", "2"]) == 2
    assert main(["validate", str(faulty), "--playouts", "1", "--players", "9"]) == 2


def test_diamonds_holds_its_invariants(capsys):
    rules = interpreter.load(ROOT / "rulesets" / "diamonds.yaml")
    assert len(rules.invariants) >= 3
    assert playouts(rules, games=2, players=[3, 6], seed=11).ok
    assert main(["validate", "diamonds", "--playouts", "1", "--players", "4"]) == 0


def test_cli_set_plays_the_random_games_with_a_parameter(faulty, capsys):
    """validate --playouts --set NAME=VALUE: the random games play with the parameter set (the
    rules it turns on fire), and each replay command carries it; a parameter the ruleset refuses,
    or --set without --playouts, is a usage error."""
    assert main(["validate", str(faulty), "--playouts", "2", "--players", "2", "--set", "limit=1"]) == 1
    out, err = capsys.readouterr()
    assert f"{faulty}: failed: 2 playout problems; 2 random games" in out   # the leaky variant's invariant
    assert f"replay: rulebook play {faulty} --players 2 --seed 0 --set limit=1" in err
    assert main(["validate", str(faulty), "--playouts", "1", "--set", "limt=1"]) == 2
    assert "unknown parameter 'limt' (did you mean 'limit'?)" in capsys.readouterr().err
    assert main(["validate", str(faulty), "--set", "limit=1"]) == 2


LIST_PARAM = """\
game: picks
players: {min: 2, max: 2}
params:
  picks: {type: list, default: [1, 2]}
  label: {type: str, default: "x"}
vars:
  n: int
flow:
  - choose: {who: 0, options: "params.picks", as: n, prompt: go}
  - set: {n: "n // (n - 3)"}
"""


def test_the_replay_command_pastes_back_as_it_was_given(tmp_path, capsys):
    """The printed replay command is shell-quoted: split as a shell splits it, it gives the CLI
    the same arguments (a list value with a space, a path with a space), and it replays the
    crash; --json records the parameters set in the summary (overrides) too."""
    import json
    import shlex
    from interpreter.tools.cli import build_parser
    folder = tmp_path / "my games"
    folder.mkdir()
    path = folder / "picks.yaml"
    path.write_text(LIST_PARAM, encoding="utf-8")
    sets = ["picks=[3, 3]", "label=it's"]
    argv = ["validate", str(path), "--playouts", "1", "--seed", "4"] + [a for s in sets for a in ("--set", s)]
    assert main(argv) == 1
    err = capsys.readouterr().err
    [line] = [x for x in err.splitlines() if "replay:" in x]
    words = shlex.split(line.split("replay: ", 1)[1])
    assert words[0] == "rulebook"
    args = build_parser().parse_args(words[1:])
    assert (args.command, args.path, args.players, args.seed, args.sets) == ("play", str(path), 2, 4, sets)
    assert main(words[1:]) == 1 and "division by zero" in capsys.readouterr().err
    assert main(argv + ["--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["overrides"] == {"picks": "[3, 3]", "label": "it's"}
    assert report["files"][0]["playouts"]["problems"][0]["replay"] == line.split("replay: ", 1)[1]
    assert main(["validate", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["overrides"] == {}
