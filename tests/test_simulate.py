"""Batches of games: determinism across workers and backends, records, summary, --out and
resuming, failures, compare, and the CLI contracts of simulate and compare."""
from __future__ import annotations

import json
import re

import pytest

import interpreter
from interpreter.tools import cli as commands
from interpreter.engine import rng
from interpreter.play.simulation import batch as one, runs, summary, workers
from interpreter.tools import args as cli_args
from interpreter.play.agents import make_agents
from interpreter.play.logs.gamelog import play_game
from interpreter.engine.state import State
from helpers import bundled, write_ruleset

DIAMONDS = str(interpreter.ruleset_path("diamonds"))
FAST = {"rounds": 1}

FRAGILE = """
game: fragile
players: {min: 2, max: 4}
counters:
  points: {owner: player, start: 0}
vars:
  x: {type: int, start: 0}
flow:
  - repeat: 2
    as: round
    steps:
      - turns:
          steps:
            - choose: {options: "1..9", as: x, prompt: pick}
            - gain: {counter: points, amount: "12 // (x - 1)"}   # picking 1 divides by zero
scoring:
  categories: {points: points}
"""


@pytest.fixture(scope="module")
def rules():
    return bundled("diamonds")


def batch(rules, **kw):
    kw.setdefault("params", FAST)
    return one.Batch(path=DIAMONDS, players=kw.pop("players", 4), hash=rules.hash, **kw)



# ---------------------------------------------------------------------- determinism
def test_workers_1_and_2_give_identical_records_and_summary(rules):
    b = batch(rules, seed=5)
    one = runs.simulate(b, 12, workers=1, rules=rules)
    two = runs.simulate(b, 12, workers=2, rules=rules)
    assert one["records"] == two["records"]
    assert one["summary"] == two["summary"]
    assert [r["index"] for r in one["records"]] == list(range(12))
    assert [r["seed"] for r in one["records"]] == [rng.derive(5, i) for i in range(12)]


def test_forked_workers_use_the_compiled_ruleset_instead_of_loading_it_again(rules, monkeypatch):
    import multiprocessing
    if multiprocessing.get_start_method() != "fork":
        pytest.skip("workers are forked only where fork is the start method")
    b = batch(rules, seed=2)
    expected = runs.simulate(b, 6, workers=1, rules=rules)["records"]

    def no_loading(batch):
        raise AssertionError("a worker compiled the ruleset again")
    monkeypatch.setattr(workers, "load_batch_rules", no_loading)   # inherited by the forked workers
    monkeypatch.setattr(workers, "_WORKER", {})
    assert runs.simulate(b, 6, workers=2, rules=rules)["records"] == expected


def test_workers_that_cannot_load_the_ruleset_fail_their_games_and_do_not_hang(rules, monkeypatch):
    """A Pool initializer that raises is respawned for ever; a worker that cannot load the
    ruleset (changed or removed since the batch started) records the reason for each game."""
    def broken(batch):
        raise interpreter.RulesetError("the file changed")
    import signal
    if not hasattr(signal, "SIGALRM"):
        pytest.skip("needs SIGALRM to stop a hang")
    monkeypatch.setattr(workers, "load_batch_rules", broken)
    monkeypatch.setattr(workers, "_WORKER", {})

    def hung(*_):
        raise AssertionError("the pool hung")
    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(60)
    try:
        records = sorted(workers.run_local(batch(rules, seed=2), [0, 1, 2, 3], 2), key=lambda r: r["index"])
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert [r["index"] for r in records] == [0, 1, 2, 3]
    assert all("could not load the ruleset: the file changed" in r["error"] for r in records)


@pytest.mark.parametrize("choice", [True, -1, 99, "0", 1.0])
def test_an_agent_choice_that_is_not_an_option_index_fails_the_game(rules, monkeypatch, choice):
    from interpreter.play import agents as agents_module

    class Bad:
        name, blind, reads_labels = "bad", True, False

        def __init__(self, seed=0, seat=0):
            pass

        def act(self, observation, legal):
            return choice
    monkeypatch.setitem(agents_module.AGENTS, "bad", Bad)
    rec = one.play_one(rules, batch(rules, agents="bad"), 0)
    assert "chose" in rec["error"] and repr(choice) in rec["error"]


def test_a_record_is_the_game_rulebook_play_plays_with_its_seed(rules):
    rec = one.play_one(rules, batch(rules, seed=9), 3)
    seed = rng.derive(9, 3)
    played = play_game(rules, 4, seed, make_agents("random", 4, seed), {"params": FAST})
    assert (rec["scores"], rec["winners"], rec["decisions"]) == (played["scores"], played["winners"],
                                                                 played["decisions"])


def test_record_fields_rounds_first_margin(rules):
    rec = one.play_one(rules, batch(rules, params={"rounds": 2}), 0)
    assert set(rec) >= {"index", "seed", "scores", "winners", "decisions", "rounds", "first", "margin",
                        "lead_changes"}
    assert rec["rounds"] == 2                     # the outermost repeat ran twice
    assert rec["lead_changes"] is None            # off unless asked
    assert 0 <= rec["first"] < 4
    best = sorted(rec["scores"], reverse=True)
    assert rec["margin"] == best[0] - best[1]
    assert rec["margin_relative"] == pytest.approx(rec["margin"] / best[0])
    on = one.play_one(rules, batch(rules, params={"rounds": 2}, lead_changes=True), 0)
    assert isinstance(on["lead_changes"], int) and on["lead_changes"] >= 0
    assert on.pop("comeback") in (True, False, None)   # the mid-game leader's fate (tune's comeback)
    assert {**on, "lead_changes": None} == rec    # counting lead changes changes nothing else


def test_agents_that_only_count_options_get_no_labels_made(rules, monkeypatch):
    """random and first declare reads_labels = False: a batch never labels their options."""
    expected = one.play_one(rules, batch(rules, seed=4), 2)

    def no_labels(self):
        raise AssertionError("labels were made for an agent that does not read them")
    monkeypatch.setattr(State, "legal_actions", no_labels)
    assert one.play_one(rules, batch(rules, seed=4), 2) == expected
    assert "error" not in expected


def test_agents_that_pick_from_the_count_alone_are_asked_nothing_else(rules, monkeypatch):
    """An agent with pick(n) (random, first) is called with the number of options, not act():
    the same games as through act()."""
    from interpreter.play import agents as agents_module
    from interpreter.play.agents import RandomAgent
    expected = one.play_one(rules, batch(rules, seed=4), 2)

    class ActOnly(RandomAgent):
        def __init__(self, seed=0, seat=0):
            super().__init__(seed, seat)
            self.pick = None
    monkeypatch.setitem(agents_module.AGENTS, "random", ActOnly)
    assert one.play_one(rules, batch(rules, seed=4), 2) == expected
    monkeypatch.setitem(agents_module.AGENTS, "random", RandomAgent)

    def no_act(self, observation, legal):
        raise AssertionError("act() was called for an agent that picks from the count")
    monkeypatch.setattr(RandomAgent, "act", no_act)
    assert one.play_one(rules, batch(rules, seed=4), 2) == expected
    assert "error" not in expected


def test_a_pick_that_is_not_an_option_index_fails_the_game(rules, monkeypatch):
    from interpreter.play import agents as agents_module

    class BadPick:
        name = "badpick"

        def __init__(self, seed=0, seat=0):
            pass

        def pick(self, n):
            return n                               # one past the last option
    monkeypatch.setitem(agents_module.AGENTS, "badpick", BadPick)
    rec = one.play_one(rules, batch(rules, agents="badpick"), 0)
    assert "chose" in rec["error"]


def test_a_batch_keeps_the_compiled_ruleset_out_of_full_garbage_collections(rules):
    """Workers freeze what is alive once the ruleset is loaded (gc.freeze); the command line
    does so for the batch only and gives it back after."""
    import gc
    gc.unfreeze()   # (conftest freezes what earlier tests left)
    assert gc.get_freeze_count() == 0
    with workers.settled():
        assert gc.get_freeze_count() > 1000             # the ruleset's functions, tables, dicts...
    assert gc.get_freeze_count() == 0
    b = batch(rules, seed=1)
    try:
        workers._WORKER.clear()
        workers._init_worker(b)                              # a worker loading the ruleset itself
        assert "rules" in workers._WORKER and gc.get_freeze_count() > 1000
    finally:
        gc.unfreeze()
        workers._WORKER.clear()


def test_lazy_labels_are_the_labels_when_read(rules):
    from interpreter.play.agents import LazyLabels
    S = rules.new_game(4, 3, {"params": FAST})
    lazy = LazyLabels(S)
    assert len(lazy) == len(S.dec[1])
    assert list(lazy) == S.legal_actions() and lazy[-1] == S.legal_actions()[-1]
    assert lazy.index(lazy[0]) == 0 and lazy[0] in lazy


def test_rounds_are_counted_when_the_repeat_frame_moves_on_the_stack(rules):
    """The rounds' repeat frame is looked for again when it is not where it was."""
    rec = one.play_one(rules, batch(rules, params={"rounds": 3}), 5)
    assert rec["rounds"] == 3


def test_teams_margin_is_between_teams(rules):
    teams = interpreter.load(DIAMONDS, variant="teams")
    b = one.Batch(path=DIAMONDS, players=4, variant="teams", params=FAST, hash=teams.hash)
    rec = one.play_one(teams, b, 1)
    s = rec["scores"]
    assert s[0] == s[2] and s[1] == s[3]          # partners share their counters
    assert rec["margin"] == abs(s[0] - s[1])      # not 0 between partners


def test_skill_is_passed_as_an_option(rules, monkeypatch):
    assert cli_args.parse_skill("0.9,0.6,0.5,0.4", 4) == (0.9, 0.6, 0.5, 0.4)
    assert cli_args.parse_skill("0.7", 3) == (0.7, 0.7, 0.7)
    seen = []
    real = type(rules).new_game

    def spy(self, players, seed=0, options=None, record=False, knowledge=False):
        seen.append(options)
        return real(self, players, seed, options, record, knowledge)
    monkeypatch.setattr(type(rules), "new_game", spy)
    one.play_one(rules, batch(rules, skill=(0.9, 0.6, 0.5, 0.4)), 0)
    assert seen[-1] == {"params": FAST, "skill": [0.9, 0.6, 0.5, 0.4]}


# ---------------------------------------------------------------------- summary
def rec(index, scores, winners, first=0, decisions=10, margin=None, error=None):
    r = {"index": index, "seed": index * 7, "scores": scores, "winners": winners, "decisions": decisions,
         "rounds": None, "first": first, "margin": margin, "lead_changes": None}
    if error:
        r = {"index": index, "seed": index * 7, "error": error, "decisions": 0}
    return r


def test_summary_shared_wins_count_one_over_k():
    records = [rec(0, [5, 5, 1], [0, 1], margin=4),     # shared: 1/2 each
               rec(1, [9, 2, 1], [0], margin=7),
               rec(2, [1, 2, 8], [2], first=2, margin=6),
               rec(3, [3, 3, 3], [0, 1, 2], margin=0),  # shared: 1/3 each
               rec(4, None, None, error="GameError: boom")]
    s = summary.summarise(records, 3)
    assert s["games"] == 5 and s["completed"] == 4 and s["failed"] == 1
    assert s["failed_seeds"] == [28] and s["failures"][0]["error"] == "GameError: boom"
    assert s["wins"] == pytest.approx([1 / 2 + 1 + 1 / 3, 1 / 2 + 1 / 3, 1 + 1 / 3])
    assert s["win_rate"] == pytest.approx([w / 4 for w in s["wins"]])
    assert sum(s["win_rate"]) == pytest.approx(1.0)
    assert s["wins_outright"] == [1, 0, 1] and s["wins_shared"] == [2, 2, 1]
    assert s["score_mean"][0] == pytest.approx(4.5) and s["scores"][0]["max"] == 9
    assert s["decisions_mean"] == 10
    assert s["margin"]["mean"] == pytest.approx(17 / 4)
    fp = s["first_player"]      # first seats: 0, 0, 2, 0 -> shares 1/2, 1, 1, 1/3
    assert fp["seats"] == [3, 0, 1] and fp["win_rate"] == pytest.approx((0.5 + 1 + 1 + 1 / 3) / 4)
    assert fp["expected"] == pytest.approx(1 / 3) and 0 <= fp["p"] <= 1
    lo, hi = s["win_rate_ci"][0]
    assert lo < s["win_rate"][0] < hi


def test_compare_pairs_games_by_index():
    a = [rec(i, [1, 0], [0], decisions=10, margin=1) for i in range(20)]
    b = [rec(i, [0, 1], [1] if i % 2 else [0], decisions=12 + i % 2, margin=1) for i in range(20)]
    out = summary.compare({"base": a, "v": b}, 2)
    d = out["differences"]["v"]
    assert d["pairs"] == 20
    assert d["win_rate"][1]["diff"] == pytest.approx(0.5) and d["win_rate"][1]["significant"]
    assert d["decisions"]["diff"] == pytest.approx(2.5) and d["decisions"]["p"] < 1e-6
    assert d["margin"]["diff"] == 0 and d["margin"]["p"] == 1.0 and not d["margin"]["significant"]
    same = summary.compare({"base": a, "again": a}, 2)["differences"]["again"]
    assert same["decisions"]["p"] == 1.0 and same["win_rate"][0]["diff"] == 0


# ---------------------------------------------------------------------- failures
def test_failing_games_are_recorded_with_their_seed_and_the_batch_goes_on(tmp_path):
    path = write_ruleset(tmp_path, FRAGILE, "fragile.yaml")
    rules = interpreter.load(path)
    b = one.Batch(path=str(path), players=3, seed=1, hash=rules.hash)
    result = runs.simulate(b, 30, workers=1, rules=rules, out=tmp_path / "out", plot=False)
    s = result["summary"]
    bad = [r for r in result["records"] if "error" in r]
    assert 0 < s["failed"] < 30 and s["completed"] == 30 - s["failed"]
    assert s["failed_seeds"] == [r["seed"] for r in bad]
    assert "division by zero" in bad[0]["error"]
    lines = [json.loads(x) for x in (tmp_path / "out" / "games.jsonl").read_text().splitlines()]
    assert sum("error" in x for x in lines) == s["failed"]
    assert all(r["rounds"] == 2 for r in result["records"] if "error" not in r)


# ---------------------------------------------------------------------- --out and resuming
def test_out_writes_records_summary_and_plots(cli, tmp_path):
    pytest.importorskip("matplotlib", reason="the plots extra (pip install '.[plots]') is not installed")
    out = tmp_path / "run"
    code, stdout, err = cli("simulate", DIAMONDS, "--players", 4, "--games", 8, "--set", "rounds=1",
                            "--workers", 1, "--out", out, "--json")
    assert code == 0, err
    lines = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]
    assert sorted(x["index"] for x in lines) == list(range(8))
    assert json.loads((out / "summary.json").read_text())["games"] == 8
    assert json.loads(stdout)["games"] == 8
    for png in ("scores.png", "win_rate.png"):
        assert (out / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code, stdout, err = cli("simulate", DIAMONDS, "--players", 4, "--games", 8, "--set", "rounds=1",
                            "--workers", 1, "--out", out)                # read back: every file named
    last = stdout.strip().splitlines()[-1]
    assert code == 0 and last == f"wrote {out / 'run.json'}, games.jsonl, summary.json, scores.png, win_rate.png, report.html"
    assert sorted(p.name for p in out.iterdir()) == ["games.jsonl", "report.html", "run.json", "scores.png", "summary.json",
                                                    "win_rate.png"]


def test_the_throughput_of_the_games_played_is_reported_but_not_stored(cli, tmp_path, no_plots):
    out = tmp_path / "speed"
    args = ["simulate", DIAMONDS, "--players", 4, "--games", 6, "--set", "rounds=1", "--workers", 1, "--out", out]
    code, stdout, err = cli(*args, "--json")
    assert code == 0, err
    timing = json.loads(stdout)["timing"]
    assert timing["played"] == 6 and timing["workers"] == 1 and timing["seconds"] > 0
    t = timing["seconds"]                                                    # rounded to 1 ms
    assert 6 / (t + 0.0006) - 0.1 <= timing["games_per_s"] <= 6 / max(t - 0.0006, 1e-6) + 0.1
    assert "timing" not in json.loads((out / "summary.json").read_text())   # the saved summary is reproducible
    code, stdout, _ = cli(*args)                                     # all 6 read back: none played
    assert code == 0 and "no game played" in stdout
    code, stdout, _ = cli("simulate", DIAMONDS, "--players", 4, "--games", 2, "--set", "rounds=1",
                          "--workers", 1)
    assert re.search(r"played 2 games in [\d.]+ s on 1 worker: [\d.]+ games/s", stdout)


def test_the_workers_reported_are_those_that_played(cli):
    """More workers asked than games: a worker a game is started, and that is what is said."""
    code, stdout, err = cli("simulate", DIAMONDS, "--players", 4, "--games", 2, "--set", "rounds=1",
                            "--workers", 3, "--json")
    assert code == 0, err
    assert json.loads(stdout)["timing"]["workers"] == 2


def test_workers_far_beyond_the_cpus_are_refused_before_any_is_started(cli):
    from interpreter.play.simulation.workers import default_workers
    from interpreter.tools.batches import MAX_WORKERS_PER_CPU
    most = MAX_WORKERS_PER_CPU * default_workers()
    for command in ("simulate", "compare"):
        extra = ["--variants", "base,teams"] if command == "compare" else []
        code, _, err = cli(command, DIAMONDS, "--players", 4, "--games", 2, *extra, "--workers", most + 1)
        assert code == 2 and f"at most {most}" in err, err


def test_games_past_the_bound_are_refused_before_any_is_played(cli, monkeypatch):
    """Found by a review: --games had no upper bound, and a hundred thousand billion took 8 GB
    in 30 s listing the games' indexes (an internal error, MemoryError, under a limit)."""
    from interpreter.tools import batches

    def played(*args, **kw):
        raise AssertionError("a game was played")
    monkeypatch.setattr(batches, "simulate", played)
    for games in (batches.MAX_GAMES + 1, 10**14):
        for command in ("simulate", "compare"):
            extra = ["--variants", "base,teams"] if command == "compare" else []
            code, _, err = cli(command, DIAMONDS, "--players", 4, "--games", games, *extra, "--workers", 1)
            assert code == 2 and f"at most {batches.MAX_GAMES:,}" in err and "Traceback" not in err, err
    assert "--games 100,000,000,000,000 is more games than one batch plays" in err


def test_a_count_of_games_or_workers_below_the_least_is_told_by_its_figure():
    """Found by a review: --games -999... (4,000 digits) was written back whole in the message."""
    from interpreter.errors import UsageError
    from interpreter.tools import batches
    huge = -10 ** 4000
    for check, args in ((batches.check_games, (huge,)), (batches.check_workers, (huge,))):
        with pytest.raises(UsageError) as refused:
            check(*args)
        assert "less than -10^15" in str(refused.value) and len(str(refused.value)) < 200
    with pytest.raises(UsageError, match="got -3"):
        batches.check_games(-3)


def test_a_tiny_batch_plots_and_its_summary_has_typed_parameters(cli, tmp_path):
    """3 games: a seat that never wins has the interval [0, x] (rounding once made its error bar
    negative and the plot an internal error); --set values are stored as the parameter's type."""
    pytest.importorskip("matplotlib", reason="the plots extra (pip install '.[plots]') is not installed")
    out = tmp_path / "tiny"
    code, stdout, err = cli("simulate", DIAMONDS, "--players", 4, "--games", 3, "--set", "rounds=1",
                            "--workers", 1, "--out", out, "--json")
    assert code == 0, err
    summary = json.loads(stdout)
    assert summary["params"] == {"rounds": 1} and 0.0 in summary["win_rate"]
    assert (out / "win_rate.png").exists()


def test_an_interrupted_run_resumes_without_replaying_finished_games(rules, tmp_path, monkeypatch):
    b = batch(rules, seed=2)
    full = runs.simulate(b, 10, workers=1, rules=rules)
    out = tmp_path / "partial"
    runs.prepare_out(out, b)
    kept = full["records"][:3] + full["records"][6:7]
    text = "".join(json.dumps(r) + "\n" for r in kept) + '{"index": 4, "seed": 12'   # torn last line
    (out / "games.jsonl").write_text(text)
    played = []
    real = one.play_one

    def counting(rules_, batch_, index, step=-1):
        played.append(index)
        return real(rules_, batch_, index, step)
    monkeypatch.setattr(workers, "play_one", counting)
    resumed = runs.simulate(b, 10, workers=1, rules=rules, out=out, plot=False)
    assert sorted(played) == [3, 4, 5, 7, 8, 9]
    assert resumed["resumed"] == 4
    assert resumed["records"] == full["records"]
    lines = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]
    assert sorted(x["index"] for x in lines) == list(range(10))
    full_summary = {k: v for k, v in full["summary"].items() if k != "resumed"}
    assert {k: v for k, v in resumed["summary"].items() if k != "resumed"} == full_summary


def test_resuming_another_batch_in_the_same_folder_is_refused(cli, tmp_path, no_plots):
    out = tmp_path / "run"
    args = ["simulate", DIAMONDS, "--players", 4, "--games", 2, "--set", "rounds=1", "--workers", 1, "--json",
            "--out", out]
    assert cli(*args)[0] == 0
    code, _, err = cli(*args[:-2], "--seed", 3, "--out", out)
    assert code == 2 and "another batch" in err and "seed" in err and "Traceback" not in err


def test_out_naming_a_file_is_a_usage_error_and_the_file_is_kept(cli, tmp_path):
    out = tmp_path / "results.json"
    out.write_text("mine\n")
    code, _, err = cli("simulate", DIAMONDS, "--players", 4, "--games", 2, "--set", "rounds=1",
                       "--out", out)
    assert code == 2 and "is a file" in err and "folder" in err and "Traceback" not in err
    assert out.read_text() == "mine\n"


# ---------------------------------------------------------------------- the CLI
def test_simulate_json_contract(cli):
    code, out, err = cli("simulate", "diamonds", "--players", 4, "--games", 6, "--set", "rounds=1",
                         "--workers", 1, "--seed", 4, "--json")
    assert code == 0, err
    assert err == ""                                   # no progress bar when not on a terminal
    s = json.loads(out)
    for key in ("games", "win_rate", "win_rate_ci", "score_mean", "score_sd", "decisions_mean", "failed",
                "wins_outright", "first_player", "margin", "rounds"):
        assert key in s
    assert s["games"] == 6 and len(s["win_rate"]) == 4 and len(s["win_rate_ci"][0]) == 2


def test_simulate_human_output_is_a_table(cli):
    code, out, _ = cli("simulate", "diamonds", "--players", 3, "--games", 4, "--set", "rounds=1",
                       "--workers", 1, "--skill", "0.8", "--lead-changes")
    assert code == 0
    assert "win rate" in out and "first player" in out and "lead changes" in out


@pytest.mark.parametrize("argv, code, words", [
    (["--games", 0], 2, "--games"),
    (["--workers", 0], 2, "--workers"),
    (["--skill", "0.9,x"], 2, "--skill"),
    (["--skill", "0.9,0.8"], 2, "2 values for 4 players"),
    (["--agents", "human"], 2, "human"),
    (["--set", "nope=1"], 2, "unknown parameter"),
    (["--variant", "nosuch"], 1, "nosuch"),
    (["--address", "auto"], 2, "--backend ray"),
])
def test_simulate_usage_errors(cli, argv, code, words):
    got, out, err = cli("simulate", "diamonds", "--players", 4, "--games", 3, "--workers", 1, *argv)
    assert got == code and words in err and "Traceback" not in err


def test_simulate_wrong_player_count_is_a_usage_error(cli, monkeypatch):
    from interpreter.play import agents
    from interpreter.tools import batches
    made = []

    def make_agents(spec, players, seed):   # (an agent a seat: 10^8 of them filled gigabytes)
        made.append(players)
        raise AssertionError(f"agents made for {players} players")
    monkeypatch.setattr(agents, "make_agents", make_agents)
    monkeypatch.setattr(batches, "parse_skill", lambda text, players: make_agents(text, players, 0))
    for players in (9, 100_000_000):
        for more in ([], ["--skill", "0.9"]):   # (nor a skill for each seat)
            code, _, err = cli("simulate", "diamonds", "--players", players, "--games", 2, *more)
            assert code == 2 and f"is for 3 to 6 players, not {players}" in err
    assert made == []      # refused before any agent is made, as play refuses it


def test_compare_cli_json(cli):
    code, out, err = cli("compare", "diamonds", "--variants", "base,teams", "--players", 4,
                         "--games", 8, "--set", "rounds=1", "--workers", 1, "--json")
    assert code == 0, err
    r = json.loads(out)
    assert r["variants"] == ["base", "teams"] and r["baseline"] == "base"
    d = r["differences"]["teams"]
    assert d["pairs"] == 8 and len(d["win_rate"]) == 4
    for t in [*d["win_rate"], d["decisions"], d["margin"]]:
        if t is not None:
            assert set(t) >= {"diff", "ci", "p", "significant"}
    assert r["summaries"]["base"]["games"] == 8


def test_compare_table_and_errors(cli):
    code, out, _ = cli("compare", "diamonds", "--variants", "base,teams", "--players", 4, "--games", 4,
                       "--set", "rounds=1", "--workers", 1)
    assert code == 0 and "teams vs base" in out and "decisions" in out
    assert cli("compare", "diamonds", "--variants", "base", "--players", 4, "--games", 2)[0] == 2
    assert cli("compare", "diamonds", "--variants", "base,base", "--players", 4, "--games", 2)[0] == 2


def test_compare_out_keeps_each_variant_batch_the_result_and_a_plot(cli, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib", reason="the plots extra (pip install '.[plots]') is not installed")
    out = tmp_path / "cmp"
    args = ["compare", "diamonds", "--variants", "base,teams", "--players", 4, "--games", 6, "--set", "rounds=1",
            "--workers", 1, "--json", "--out", out]
    code, stdout, err = cli(*args)
    assert code == 0, err
    assert json.loads((out / "compare.json").read_text()) == json.loads(stdout)
    assert (out / "compare.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for v in ("base", "teams"):
        recs = [json.loads(x) for x in (out / v / "games.jsonl").read_text().splitlines()]
        assert sorted(r["index"] for r in recs) == list(range(6))
        saved = json.loads((out / v / "summary.json").read_text())
        assert saved["games"] == 6 and saved["win_rate"] == json.loads(stdout)["summaries"][v]["win_rate"]
    # run again: every game is read back, none is played, the result is the same
    monkeypatch.setattr(workers, "play_one", lambda *a, **k: pytest.fail("a finished game was played again"))
    code, again, err = cli(*args)
    assert code == 0, err
    assert json.loads(again)["differences"] == json.loads(stdout)["differences"]
    (tmp_path / "file").write_text("x")
    code, _, err = cli(*args[:-1], tmp_path / "file")
    assert code == 2 and "is a file" in err


# ---------------------------------------------------------------------- Ray
def test_ray_backend_gives_the_local_results(rules, ray_local):
    b = batch(rules, seed=11)
    local = runs.simulate(b, 10, workers=1, rules=rules)
    searching = batch(rules, seed=11, agents="ismcts:iterations=8,depth=4,greedy,random,random")
    local_search = runs.simulate(searching, 2, workers=1, rules=rules)
    remote = runs.simulate(b, 10, backend="ray")
    remote_search = runs.simulate(searching, 2, backend="ray")   # search agents on Ray: the same moves
    assert remote["records"] == local["records"]
    assert remote["summary"] == local["summary"]
    assert remote_search["records"] == local_search["records"]


def test_a_damaged_wrong_or_repeated_record_is_played_again_on_resume(tmp_path, capsys, no_plots):
    out = tmp_path / "run"
    args = ["simulate", "diamonds", "--players", "4", "--games", "5", "--set", "rounds=1", "--workers", "1",
            "--out", str(out), "--json"]
    assert commands.main(args) == 0
    first = json.loads(capsys.readouterr().out)
    recs = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    damaged = [{**recs[0], "margin": [1, 2]},                    # a field of another type
               {**recs[1], "seed": recs[1]["seed"] + 1},         # not the seed game 1 is played with
               recs[2], {**recs[2], "scores": [0, 0, 0, 0]},     # game 2 twice: which is right?
               {**recs[3], "winners": [0, 0]}, recs[4]]
    (out / "games.jsonl").write_text("".join(json.dumps(r) + "\n" for r in damaged))
    assert commands.main(args) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["resumed"] == 1 and again["win_rate"] == first["win_rate"] and again["scores"] == first["scores"]
    assert [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()] == \
        [recs[i] for i in (4, 0, 1, 2, 3)]   # game 4 kept, the others played again as they were
