"""The rulebook command line: exit codes, output contracts, logs, scenario tests, explain."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.tools import cli as commands
from interpreter import ruleset_path

ROOT = Path(__file__).resolve().parent.parent
DIAMONDS = ruleset_path("diamonds")



def play_json(cli, *argv):
    code, out, err = cli("play", "diamonds", "--json", *argv)
    assert code == 0, err
    assert len(out.strip().splitlines()) == 1
    return json.loads(out)


@pytest.fixture
def typo_ruleset(tmp_path):
    text = DIAMONDS.read_text().replace('safe: "safe * 2"', 'safe: "saef * 2"')
    assert "saef" in text
    path = tmp_path / "typo.yaml"
    path.write_text(text)
    line = next(i for i, line in enumerate(text.splitlines(), 1) if "saef" in line)
    return path, line


# ---------------------------------------------------------------------- validate
def test_validate_ok_lists_the_ruleset_and_its_variants(cli):
    code, out, _ = cli("validate", DIAMONDS)
    assert code == 0
    assert f"{DIAMONDS}: ok" in out
    assert "(variant two_player): ok" in out and "(variant teams): ok" in out


def test_validate_typo_is_located_and_exits_1(cli, typo_ruleset):
    path, line = typo_ruleset
    code, out, err = cli("validate", path)
    assert code == 1
    assert f"{path}:{line}:" in err
    assert "saef" in err and "^" in err


def test_validate_json(cli, typo_ruleset):
    path, line = typo_ruleset
    code, out, _ = cli("validate", "--json", DIAMONDS, path)
    assert code == 1
    report = json.loads(out)
    by_path = {(f["path"], f["variant"]): f for f in report["files"]}
    assert by_path[(str(DIAMONDS), None)]["ok"] is True
    bad = by_path[(str(path), None)]
    assert bad["ok"] is False
    assert any(d["line"] == line and d["severity"] == "error" for d in bad["diagnostics"])


def test_validate_missing_file_exits_1(cli, tmp_path):
    code, _, err = cli("validate", tmp_path / "nope.yaml")
    assert code == 1 and "nope.yaml" in err


# ---------------------------------------------------------------------- usage errors
@pytest.mark.parametrize("argv", [
    ["frobnicate"],
    ["play", "diamonds", "--players", "4", "--no-such-flag"],
    ["play", "diamonds"],                                   # --players is required
    ["play", "diamonds", "--players", "four"],
])
def test_argparse_usage_errors_exit_2(cli, argv):
    code, _, err = cli(*argv)
    assert code == 2
    assert "usage:" in err


def test_version_is_printed_on_stdout(cli):
    from importlib.metadata import PackageNotFoundError, version
    try:
        number = version(commands.DISTRIBUTION)
    except PackageNotFoundError:   # a checkout installed under another name, or not at all
        number = "(not installed)"
    from interpreter.accel import tier
    code, out, err = cli("--version")
    assert code == 0 and out == f"rulebook {number} ({tier()})\n" and not err


def test_the_distribution_name_is_the_one_pyproject_declares():
    import re
    text = (ROOT / "pyproject.toml").read_text()   # (tomllib is not in Python 3.10)
    assert re.search(r'^name = "(.*)"$', text, re.M).group(1) == commands.DISTRIBUTION == "rulebook-engine"
    assert 'rulebook = "interpreter.tools.cli:main"' in text


def test_unknown_command_suggests(cli):
    code, _, err = cli("valdiate", "x")
    assert code == 2 and "did you mean 'validate'?" in err


def test_wrong_player_count_exits_2(cli):
    code, out, err = cli("play", "diamonds", "--players", "9")
    assert code == 2
    assert "3 to 6 players, not 9" in err
    assert "Traceback" not in err


def test_unknown_variant_suggests(cli):
    code, _, err = cli("play", "diamonds", "--players", "4", "--variant", "team")
    assert code in (1, 2)
    assert "did you mean 'teams'?" in err


def test_unknown_agent_and_bad_count(cli):
    code, _, err = cli("play", "diamonds", "-p", "4", "--agents", "randon")
    assert code == 2 and "did you mean 'random'?" in err
    code, _, err = cli("play", "diamonds", "-p", "4", "--agents", "random,first")
    assert code == 2 and "2 agents for 4 players" in err


def test_unknown_parameter_and_bad_set(cli):
    code, _, err = cli("play", "diamonds", "-p", "4", "--set", "round=1")
    assert code == 2 and "did you mean 'rounds'?" in err
    code, _, err = cli("play", "diamonds", "-p", "4", "--set", "rounds")
    assert code == 2 and "NAME=VALUE" in err


def test_log_for_needs_log_and_a_real_seat(cli, tmp_path):
    assert cli("play", "diamonds", "-p", "4", "--log-for", "1")[0] == 2
    code, _, err = cli("play", "diamonds", "-p", "4", "--log", tmp_path / "g.jsonl", "--log-for", "7")
    assert code == 2 and "seat 7" in err


def test_internal_errors_are_reported_without_traceback(cli, monkeypatch):
    def boom(args):
        raise RuntimeError("kaboom")
    monkeypatch.setattr(commands, "COMMANDS", [c if c.name != "explain" else commands.Command(c.name, c.help, c.add_arguments, boom)
                                          for c in commands.COMMANDS])
    code, _, err = cli("explain", "diamonds")
    assert code == 1
    assert "rulebook: internal error: RuntimeError: kaboom" in err


# ---------------------------------------------------------------------- play
def test_play_json_keys_and_determinism(cli):
    a = play_json(cli, "--players", "4", "--seed", "5")
    b = play_json(cli, "--players", "4", "--seed", "5")
    assert a == b
    for key in ("ruleset", "variant", "players", "seed", "scores", "winners", "decisions", "breakdown", "params"):
        assert key in a
    assert a["ruleset"] == "diamonds" and a["variant"] is None and a["players"] == 4 and a["seed"] == 5
    assert len(a["scores"]) == 4 and a["winners"] and all(0 <= w < 4 for w in a["winners"])
    assert a["scores"] == [sum(row.values()) for row in a["breakdown"]]
    c = play_json(cli, "--players", "4", "--seed", "6")
    assert c != a


def test_play_first_agents(cli):
    r = play_json(cli, "-p", "3", "--seed", "0", "--agents", "first")
    assert r["agents"] == ["first"] * 3
    assert r == play_json(cli, "-p", "3", "--seed", "0", "--agents", "first,first,first")


def test_play_variants(cli):
    two = play_json(cli, "-p", "2", "--seed", "0", "--variant", "two_player")
    assert two["variant"] == "two_player" and len(two["scores"]) == 2
    teams = play_json(cli, "-p", "4", "--variant", "teams", "--seed", "2")
    assert teams["variant"] == "teams"
    s = teams["scores"]
    assert s[0] == s[2] and s[1] == s[3]          # partners share one showroom and one safe
    assert cli("play", "diamonds", "-p", "2")[0] == 2   # 2 players need the variant


def test_set_reads_json_or_yaml_flow_values(cli):
    flow = play_json(cli, "-p", "4", "--seed", "0", "--set", "majority_order=[S, C, D, H]")
    assert flow["params"]["majority_order"] == ["S", "C", "D", "H"]
    assert play_json(cli, "-p", "4", "--seed", "0", "--set", 'majority_order=["S", "C", "D", "H"]')["params"] == flow["params"]
    code, _, err = cli("play", "diamonds", "-p", "4", "--set", "majority_order=[S, C")
    assert code == 2 and "expects list" in err


@pytest.mark.parametrize("value,why", [
    ("rounds=2001-13-45", "expects int, got '2001-13-45'"),   # (a date to YAML 1.1: ValueError)
    ("majority_order=[!!int x]", "'x' is not a valid int (at character 8)"),
    ("rounds=" + "- " * 3000 + "1", "expects int: the value nests too deeply"),   # (RecursionError)
    ("majority_order=!!python/tuple [1]", "tag '!!python/tuple' not allowed"),
])
def test_a_bad_set_value_is_a_usage_error_naming_the_parameter(cli, value, why):
    """A value that does not read, or reads as what no ruleset can hold, exits 2 naming the
    parameter (it was an internal error)."""
    code, _, err = cli("play", "diamonds", "-p", "4", "--set", value)
    assert code == 2 and f"parameter '{value.partition('=')[0]}'" in err and why in err, err
    assert "internal error" not in err


def test_set_reads_a_value_as_a_ruleset_reads_it(cli):
    """yes, no and 0x10 are text in a ruleset and in --set alike (--set read no as false)."""
    flow = play_json(cli, "-p", "4", "--seed", "0", "--set", "majority_order=[no, yes, 0x10, 2001-01-01]")
    assert flow["params"]["majority_order"] == ["no", "yes", "0x10", "2001-01-01"]


def test_set_rounds_changes_the_game_length(cli):
    full = play_json(cli, "-p", "4", "--seed", "0")
    short = play_json(cli, "-p", "4", "--seed", "0", "--set", "rounds=1")
    assert short["params"]["rounds"] == 1 and full["params"]["rounds"] == 4
    assert short["decisions"] < full["decisions"] / 2


def test_play_human_output_has_a_table(cli):
    code, out, _ = cli("play", "diamonds", "-p", "3", "--seed", "1")
    assert code == 0
    assert "showroom" in out and "safe" in out and "total" in out and "winner" in out
    assert cli("play", "diamonds", "-p", "3", "--seed", "0", "--quiet") == (0, "", "")


def test_human_agent_eof_is_a_clean_usage_error(cli, monkeypatch):
    import io
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
    code, out, err = cli("play", "diamonds", "-p", "3", "--seed", "0", "--agents", "human")
    assert code == 2
    assert "end of its input" in err and "Traceback" not in err
    assert "1. 1" in out          # numbered options were shown


def test_play_without_a_seed_draws_a_fresh_one_that_the_full_log_keeps_and_no_seat_reads(cli, tmp_path):
    """The seed deals every hidden card (docs/security.md): without --seed a game does not get a
    constant one a seat could try first, but one drawn at random, which the operator reads in
    the summary and the full log's header and replays the game with, and a seat's log never holds."""
    def played(name, *more):
        log = tmp_path / name
        code, out, err = cli("play", "diamonds", "-p", "3", "--set", "rounds=1", "--log", log, *more)
        assert code == 0, err
        return out, [json.loads(line) for line in log.read_text().splitlines()]
    out, first = played("a.jsonl")
    seed = first[0]["seed"]
    assert f", seed {seed}, " in out                          # the summary names it
    second = played("b.jsonl")[1]
    assert second[0]["seed"] != seed and min(seed, second[0]["seed"]) >= 2 ** 20   # two games, two seeds, none small
    again = played("c.jsonl", "--seed", str(seed))[1]
    assert again[1:] == first[1:] and again[0]["seed"] == seed    # the logged seed plays the same game
    code, out, _ = cli("play", "diamonds", "-p", "3", "--set", "rounds=1", "--log", tmp_path / "s.jsonl",
                       "--log-for", "1", "--json")
    mine = (tmp_path / "s.jsonl").read_text()
    assert code == 0 and "seed" not in json.loads(mine.splitlines()[0]) and str(json.loads(out)["seed"]) not in mine


# ---------------------------------------------------------------------- logs
def test_log_then_replay(cli, tmp_path):
    log = tmp_path / "g.jsonl"
    code, out, _ = cli("play", "diamonds", "-p", "4", "--seed", "3", "--set", "rounds=1",
                       "--log", log, "--json")
    assert code == 0
    decisions = json.loads(out)["decisions"]
    code, out, err = cli("replay", log)
    assert code == 0, err
    assert out.startswith(f"replay ok: {decisions} decisions, scores [")


def test_tampered_action_names_the_line(cli, tmp_path):
    log = tmp_path / "g.jsonl"
    cli("play", "diamonds", "-p", "4", "--seed", "0", "--set", "rounds=1", "--log", log)
    lines = log.read_text().splitlines()
    no = next(i for i, line in enumerate(lines, 1) if json.loads(line).get("prompt") == "play")
    d = json.loads(lines[no - 1])
    d["action"] = "99X"
    lines[no - 1] = json.dumps(d)
    log.write_text("\n".join(lines) + "\n")
    code, _, err = cli("replay", log)
    assert code == 1
    assert f"line {no}: seat {d['seat']} played '99X', which is not legal here; legal:" in err


def test_truncated_log_is_a_clean_error(cli, tmp_path):
    log = tmp_path / "g.jsonl"
    cli("play", "diamonds", "-p", "4", "--seed", "0", "--set", "rounds=1", "--log", log)
    text = log.read_text()
    log.write_text(text[: len(text) // 2])           # cut in the middle of a line
    code, _, err = cli("replay", log)
    assert code == 1 and "line" in err and "Traceback" not in err
    lines = text.splitlines()
    log.write_text("\n".join(lines[:-1]) + "\n")     # the result line is missing
    code, _, err = cli("replay", log)
    assert code == 1 and "without a result line" in err


def test_changed_hash_is_a_clear_error(cli, tmp_path):
    log = tmp_path / "g.jsonl"
    cli("play", "diamonds", "-p", "4", "--seed", "0", "--set", "rounds=1", "--log", log)
    lines = log.read_text().splitlines()
    head = json.loads(lines[0])
    head["hash"] = "0" * 64
    lines[0] = json.dumps(head)
    log.write_text("\n".join(lines) + "\n")
    code, _, err = cli("replay", log)
    assert code == 1 and "line 1: the ruleset changed since this log was written" in err


def test_edited_ruleset_is_detected(cli, tmp_path):
    rules = tmp_path / "d.yaml"
    rules.write_text(DIAMONDS.read_text() + "\n# my copy\n")   # not the bundled ruleset's content
    log = tmp_path / "g.jsonl"
    assert cli("play", rules, "-p", "3", "--seed", "0", "--set", "rounds=1", "--log", log)[0] == 0
    assert cli("replay", log)[0] == 0
    rules.write_text(DIAMONDS.read_text() + "\n# my copy, edited\n")
    code, _, err = cli("replay", log)
    assert code == 1 and "has changed since the log was written" in err and "my copy" not in err


def test_non_json_and_missing_logs(cli, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("this is not json\n")
    code, _, err = cli("replay", bad)
    assert code == 1 and "line 1: " in err and "not valid JSON" in err
    code, _, err = cli("replay", tmp_path / "missing.jsonl")
    assert code == 1 and "cannot read log" in err
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert cli("replay", empty)[0] == 1


def test_log_for_writes_a_redacted_log(cli, tmp_path):
    log = tmp_path / "g.jsonl"
    assert cli("play", "diamonds", "-p", "4", "--seed", "0", "--set", "rounds=1", "--log", log, "--log-for", "0")[0] == 0
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert lines[0]["redacted_for"] == 0
    passes = [d for d in lines if d.get("prompt") == "pass"]
    # another seat's pass is hidden, unless that very card is all this seat receives at once
    def alone(d):
        return [e.get("cards") for e in d["events"] if e["ev"] == "receive" and e["to_owner"] == 0] == [[d["action"]]]

    assert all(d["action"] == "?" for d in passes if d["seat"] != 0 and not alone(d))
    assert any(d["action"] == "?" for d in passes)
    assert all(d["action"] != "?" for d in passes if d["seat"] == 0)
    assert all("seen_by" not in d for d in lines)
    code, _, err = cli("replay", log)
    assert code == 1 and "redacted" in err


# ---------------------------------------------------------------------- test and explain
def test_scenarios_pass(cli, scenarios_once):
    path = ROOT / "rulesets" / "scenarios" / "diamonds.yaml"
    code, out, _ = cli("test", path)
    assert code == 0
    assert out.strip().splitlines()[-1].endswith(" passed, 0 failed")
    code, out_dir, _ = cli("test", path.parent)   # every scenario file of the folder
    single = int(out.split()[-4])
    assert code == 0 and out_dir.strip().endswith(" passed, 0 failed") and int(out_dir.split()[-4]) >= single


def test_failing_scenario_is_located(cli, tmp_path):
    sc = tmp_path / "s.yaml"
    sc.write_text("ruleset: diamonds\nscenarios:\n"
                  "  - name: fine\n    players: 3\n"
                  "  - name: wrong\n    players: 3\n    over: true\n")
    code, out, _ = cli("test", sc)
    assert code == 1
    assert f"{sc}:5:" in out and "FAIL wrong: over:" in out
    assert out.strip().splitlines()[-1] == "1 passed, 1 failed"
    assert cli("test", tmp_path / "none.yaml")[0] == 2


def test_a_scenario_file_may_name_a_bundled_ruleset_and_a_wrong_name_is_one_located_error(cli, tmp_path):
    sc = tmp_path / "s.yaml"
    sc.write_text("ruleset: diamonds\nscenarios:\n"
                  "  - name: starts\n    players: 3\n"
                  "  - name: actions are a list\n    players: 3\n    actions: abc\n"
                  "  - name: a bad patch\n    players: 3\n    patch: {zones: {nozone: []}}\n")
    code, out, _ = cli("test", sc)
    assert code == 1 and out.strip().splitlines()[-1] == "1 passed, 2 failed"
    assert "FAIL actions are a list: actions: is a list" in out
    assert "FAIL a bad patch: patch: unknown zone 'nozone'" in out and "error[usage]" not in out
    sc.write_text("ruleset: nope.yaml\nscenarios:\n  - {name: a, players: 3}\n  - {name: b, players: 3}\n")
    code, out, err = cli("test", sc)
    assert code == 1 and f"{sc}:1:10: error[io]: ruleset 'nope.yaml' is neither" in err
    assert out.strip().splitlines()[-1] == "0 passed, 1 failed"     # once for the file, not per scenario


def test_a_scenario_file_reads_no_file_outside_its_folders(cli, tmp_path, monkeypatch):
    """A scenario file is untrusted as a ruleset is: its ruleset: (and a scenario's variant
    file) lies in its own folder or below, or just above it (rulesets/scenarios/ names
    ../game.yaml), as extends: is confined; elsewhere, by path, by a link or from the working
    folder, is a located error and the file is never read."""
    (tmp_path / "proj" / "scenarios").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    for folder in ("proj", "elsewhere"):
        (tmp_path / folder / "game.yaml").write_text(DIAMONDS.read_text())
    (tmp_path / "elsewhere" / "v.yaml").write_text("params: {rounds: 1}\n")
    (tmp_path / "proj" / "scenarios" / "v.yaml").write_text("params: {rounds: 1}\n")
    (tmp_path / "proj" / "scenarios" / "link.yaml").symlink_to(tmp_path / "elsewhere" / "game.yaml")
    sc = tmp_path / "proj" / "scenarios" / "s.yaml"
    one = "scenarios:\n  - {name: a, players: 3, expect: ['true']}\n"
    sc.write_text("ruleset: ../game.yaml\n" + one + "  - {name: b, players: 3, variant: v.yaml, expect: ['true']}\n")
    assert cli("test", sc)[:2] == (0, "2 passed, 0 failed\n")
    monkeypatch.chdir(tmp_path / "elsewhere")          # a name is not looked for in the working folder
    for name in ("../../elsewhere/game.yaml", tmp_path / "elsewhere" / "game.yaml", "link.yaml", "v2.yaml"):
        sc.write_text(f"ruleset: {name}\n" + one)
        code, out, err = cli("test", sc)
        said = "is neither a ruleset file" if name == "v2.yaml" else "is outside the folders a scenario file may name"
        assert code == 1 and err.startswith(f"{sc}:1:10: error[io]: ruleset '{name}' {said}"), err
    (tmp_path / "elsewhere" / "v2.yaml").write_text("params: {rounds: 1}\n")
    for name in ("../../elsewhere/v.yaml", tmp_path / "elsewhere" / "v.yaml", "v2.yaml"):
        sc.write_text("ruleset: ../game.yaml\nscenarios:\n"
                      f"  - {{name: b, players: 3, variant: {name}, expect: ['true']}}\n")
        code, out, _ = cli("test", sc)
        said = "variant file" if name == "v2.yaml" else f"variant '{name}' is no variant file (.yaml, .yml) in the folders"
        assert code == 1 and out.startswith(f"{sc}:3:{5 if name == 'v2.yaml' else 36}: FAIL b: {said}"), out


def test_a_loop_of_links_named_by_extends_or_a_scenario_is_a_located_error(cli, tmp_path):
    (tmp_path / "a.yaml").symlink_to(tmp_path / "b.yaml")
    (tmp_path / "b.yaml").symlink_to(tmp_path / "a.yaml")
    (tmp_path / "v.yaml").write_text("extends: a.yaml\n")
    (tmp_path / "s.yaml").write_text("ruleset: a.yaml\nscenarios:\n  - {name: x, players: 3}\n")
    code, _, err = cli("validate", tmp_path / "v.yaml")
    assert code == 1 and "v.yaml:1:10: error[extends]: extends: file 'a.yaml' not found" in err, err
    code, _, err = cli("test", tmp_path / "s.yaml")
    assert code == 1 and "s.yaml:1:10: error[io]: ruleset 'a.yaml' is neither a ruleset file" in err, err


def test_a_folder_without_scenarios_is_not_a_green_run(cli, tmp_path):
    (tmp_path / "empty").mkdir()
    code, out, err = cli("test", tmp_path / "empty")
    assert code == 2 and "0 passed, 0 failed" in out and "no scenario ran" in err and "*.yaml" in err
    sc = tmp_path / "none.yaml"
    sc.write_text("ruleset: diamonds\nscenarios: []\n")
    code, out, err = cli("test", sc)
    assert code == 2 and "no scenario ran" in err


def test_explain_shows_the_flow(cli):
    code, out, _ = cli("explain", "diamonds")
    assert code == 0
    assert out.startswith("# Diamonds")
    for phase in ("deal", "pass", "tricks", "end_of_round"):
        assert f"Phase **{phase}**" in out
    assert "follow suit" in out
    assert "When a player cannot follow:\n        - Do **benefit** with *suit* = the suit of the card." in out
    assert "two_player" in out and "teams" in out
    assert cli("explain", "diamonds")[1] == out      # deterministic
    code, teams, _ = cli("explain", "diamonds", "--variant", "teams")
    assert code == 0 and "variant: teams" in teams and "(applied here)" in teams


def test_python_dash_m_play_json():
    proc = subprocess.run([sys.executable, "-m", "interpreter", "play", "diamonds", "--players", "4",
                           "--seed", "3", "--json"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["players"] == 4 and result["seed"] == 3 and len(result["scores"]) == 4


def test_play_plain_table_without_rich(cli, monkeypatch):
    monkeypatch.setitem(sys.modules, "rich", None)
    monkeypatch.setitem(sys.modules, "rich.console", None)
    code, out, _ = cli("play", "diamonds", "-p", "3", "--seed", "1", "--set", "rounds=1")
    assert code == 0
    head = next(line for line in out.splitlines() if line.startswith("seat"))
    assert head.split() == ["seat", "showroom", "safe", "total"]
    assert sum("winner" in line for line in out.splitlines()) >= 1


def test_list_shows_the_bundled_rulesets(cli):
    code, out, _ = cli("list", "--json")
    rows = {r["name"]: r for r in json.loads(out)}
    assert code == 0 and {"diamonds", "diams", "mister_diamond", "diamonds_club"} <= set(rows)
    assert rows["diamonds"]["players"] == [3, 6] and "teams" in rows["diamonds"]["variants"]
    code, out, _ = cli("list")
    lines = {line.split()[0]: line for line in out.splitlines()}
    assert "Diamonds (3-6 players)  variants: two_player, teams" in lines["diamonds"]
    assert "(4 players)" in lines["hearts"] and "4-4" not in lines["hearts"]   # one count said once


def test_unknown_bundled_name_suggests_the_closest(cli):
    code, _, err = cli("play", "diamods", "--players", "4")
    assert code == 2 and "did you mean 'diamonds'?" in err
