"""rulebook tune: the objectives' formulas on records with known answers, the search space,
the overlay it writes, and studies on a small game whose fairest parameter is known (a coin
toss the first seat wins with chance edge/100: the seats are even at edge = 50)."""
from __future__ import annotations

import json
import math

import pytest
import yaml

import interpreter
from interpreter.errors import UsageError
from interpreter.play.simulation.batch import Batch, play_one
from interpreter.play.tuning import objectives as obj
from interpreter.play.tuning.space import Dimension, overlay, overrides, parse_param, space
from interpreter.play.tuning.study import Settings, Tuner, check_resume
from helpers import run_cli, write_ruleset

optuna = pytest.importorskip("optuna", reason="Optuna (pip install '.[tune]') is not installed: tune cannot search")

DUEL = """
game: duel
players: {min: 2, max: 2}
params:
  edge: {type: int, default: 80, min: 0, max: 100, doc: the first seat's chance in 100 to win a toss}
  tosses: {type: int, default: 5, min: 1, max: 9}
  style: {type: str, default: plain, choices: [plain, fancy]}
  price: {value: {red: 2, blue: 3}}
  rounds: {by_players: {"2": 1}}
counters:
  points: {owner: player, start: 0, visible: all}
vars:
  roll: {type: int, start: 0}
  go: {type: int, start: 0}
flow:
  - repeat: params.tosses * params.rounds
    steps:
      - choose: {who: 0, options: "[params.price['red']]", as: go}
      - random: {var: roll, from: "1..100"}
      - if: "roll <= params.edge"
        then: [{with_player: {who: 0, do: [{gain: {counter: points}}]}}]
        else: [{with_player: {who: 1, do: [{gain: {counter: points}}]}}]
scoring:
  categories:
    points: points
"""


@pytest.fixture
def duel(tmp_path):
    path = write_ruleset(tmp_path, DUEL, "duel.yaml")
    return path, interpreter.load(path)


def rec(index, winners, **more):
    return {"index": index, "seed": index, "winners": winners, "scores": [0, 0], "decisions": 10, **more}


# ---------------------------------------------------------------------- objectives
def test_balance_is_the_largest_seat_share_over_an_even_share():
    records = [rec(0, [0]), rec(1, [0]), rec(2, [0]), rec(3, [1])]
    assert obj.loss(obj.parse(["balance"]), records, 2) == pytest.approx(0.25)
    shared = [rec(0, [0, 1]), rec(1, [0]), rec(2, [1])]   # a shared win counts half to each
    assert obj.loss(obj.parse(["balance"]), shared, 2) == pytest.approx(0.0)
    assert obj.loss(obj.parse(["balance"]), [*records, {"index": 9, "error": "boom"}], 2) == pytest.approx(0.25)


def test_chi2_is_one_minus_the_p_value_of_an_even_split():
    assert obj.chi2_sf(3.841458820694124, 1) == pytest.approx(0.05, abs=1e-6)
    assert obj.chi2_sf(1.0, 3) == pytest.approx(0.8012519569012008, rel=1e-9)
    assert obj.chi2_sf(20.0, 3) == pytest.approx(1.6974243555282624e-04, rel=1e-6)
    assert obj.chi2_sf(11.070497693516351, 5) == pytest.approx(0.05, abs=1e-6)
    even = [rec(i, [i % 2]) for i in range(20)]
    assert obj.loss(obj.parse(["chi2"]), even, 2) == pytest.approx(0.0, abs=1e-9)
    lopsided = [rec(i, [0]) for i in range(15)] + [rec(i, [1]) for i in range(15, 20)]   # chi2 = 5, df 1
    assert obj.loss(obj.parse(["chi2"]), lopsided, 2) == pytest.approx(1 - 0.025347318677468, rel=1e-6)


def test_first_player_length_rounds_margin():
    records = [rec(0, [1], first=1, decisions=100, rounds=4, margin_relative=0.5),
               rec(1, [0], first=1, decisions=140, rounds=6, margin_relative=0.1),
               rec(2, [1], first=1, decisions=120, rounds=5, margin_relative=0.3)]
    assert obj.loss(obj.parse(["first_player"]), records, 2) == pytest.approx(2 / 3 - 1 / 2)
    assert obj.loss(obj.parse(["length:100"]), records, 2) == pytest.approx(0.2)
    assert obj.loss(obj.parse(["rounds:4"]), records, 2) == pytest.approx(0.25)
    assert obj.loss(obj.parse(["margin"]), records, 2) == pytest.approx(0.3)
    assert obj.loss(obj.parse(["margin:0.5"]), records, 2) == pytest.approx(0.2)
    both = obj.parse(["length:100*2", "margin"])
    assert obj.loss(both, records, 2) == pytest.approx(2 * 0.2 + 0.3)
    assert obj.parts(both, records, 2) == {"length:100*2": pytest.approx(0.2), "margin": pytest.approx(0.3)}


def test_comeback_and_coverage():
    records = [rec(0, [0], comeback=True), rec(1, [1], comeback=False), rec(2, [1], comeback=False),
               rec(3, [1], comeback=None), rec(4, [0], comeback=True)]
    assert obj.loss(obj.parse(["comeback"]), records, 2) == pytest.approx(1 - 2 / 4)
    assert obj.loss(obj.parse(["comeback:0.25"]), records, 2) == pytest.approx(0.25)
    ctx = {"probes": ["effects", "branch", "ran_out", "category", "option"]}
    fired = [rec(0, [0], coverage={"p": {"0": 3, "2": 1}}), rec(1, [1], coverage={"p": {"3": 1}})]
    assert obj.loss(obj.parse(["coverage"]), fired, 2, ctx) == pytest.approx(2 / 4)   # branch and option never


def test_a_batch_where_every_game_failed_has_an_infinite_loss():
    assert math.isinf(obj.loss(obj.parse(["balance"]), [{"index": 0, "error": "x"}], 2))


@pytest.mark.parametrize("spec, message", [
    ("balanse", "unknown objective 'balanse'"),
    ("length", "needs a positive target"),
    ("balance*x", "a target and a weight are numbers"),
    ("balance*-1", "the weight is a positive number"),
])
def test_a_bad_objective_is_refused_with_the_reason(spec, message):
    with pytest.raises(UsageError, match=message) as e:
        obj.parse([spec])
    if spec == "balanse":
        assert "did you mean 'balance'" in e.value.message


def test_the_paired_difference_says_better_only_when_its_interval_is_above_zero():
    fair = [rec(i, [i % 2]) for i in range(200)]
    unfair = [rec(i, [0] if i % 10 else [1]) for i in range(200)]
    o = obj.parse(["balance"])
    d = obj.paired_difference(o, unfair, fair, 2)
    assert d["better"] and d["diff"] == pytest.approx(0.4) and d["ci"][0] > 0.3
    assert not obj.paired_difference(o, fair, fair, 2)["better"]
    lo, hi = obj.interval(o, unfair, 2)
    assert lo < 0.4 < hi


# ---------------------------------------------------------------------- the space
def test_param_specs(duel):
    _, rules = duel
    defaults = rules.resolve_params(2, {})
    assert parse_param("edge=0..100", defaults) == Dimension("edge", None, "int", 0, 100, None)
    assert parse_param("edge=10..90:10", defaults).step == 10
    assert parse_param("edge=0.5..2.0", defaults).kind == "float"
    d = parse_param("style=plain|fancy", defaults)
    assert d.kind == "choice" and d.choices == ("plain", "fancy")
    assert parse_param("price.red=1..4", defaults).name == "price.red"
    assert parse_param("tosses=[1, 2]|[3]", defaults).choices == ([1, 2], [3])
    for spec, message in [("edgy=1..2", "unknown parameter 'edgy'.*did you mean 'edge'"),
                          ("edge=5..1", "the range is empty"), ("edge", "write NAME=LO..HI"),
                          ("tosses.x=1..2", "not a map parameter"), ("price.green=1..2", "has the keys red, blue"),
                          ("edge=3", "at least two choices")]:
        with pytest.raises(UsageError, match=message):
            parse_param(spec, defaults)


def test_a_choice_is_read_as_set_reads_it(duel):
    """A date is text, a bad tag a usage error (both crashed: ValueError); the check of the
    space then refuses the text where the ruleset wants a list."""
    path, rules = duel
    defaults = rules.resolve_params(2, {})
    assert parse_param("tosses=2001-13-45|[1]", defaults).choices == ("2001-13-45", [1])
    with pytest.raises(UsageError, match=r"--param: cannot read the value '\[!!int x\]': 'x' is not a valid int"):
        parse_param("tosses=[!!int x]|[1]", defaults)
    with pytest.raises(UsageError, match="nests too deeply"):
        parse_param("tosses=" + "- " * 3000 + "1|[1]", defaults)


def test_without_param_the_declared_ranges_and_choices_are_searched(duel):
    _, rules = duel
    names = [(d.name, d.kind) for d in space(rules, 2, [])]
    assert names == [("edge", "int"), ("tosses", "int"), ("style", "choice")]
    with pytest.raises(UsageError, match="names 'edge' twice"):
        space(rules, 2, ["edge=1..2", "edge=3..4"])


def test_a_range_the_ruleset_refuses_is_refused_before_any_game(duel):
    path, rules = duel
    s = Settings(str(path), 2, space(rules, 2, ["edge=50..150"]), obj.parse([]), trials=2, games=4)
    with pytest.raises(UsageError, match="edge.*refuses.*at most 100|edge.*between 0 and 100"):
        Tuner(rules, s).check_space()


def test_the_overlay_keeps_each_declaration_form_and_gives_the_values(duel, tmp_path):
    path, rules = duel
    defaults = rules.resolve_params(2, {})
    dims = space(rules, 2, ["edge=0..100", "price.blue=1..9", "rounds=1..3", "style=plain|fancy"])
    params = overrides(dims, {"edge": 55, "price.blue": 7, "rounds": 2, "style": "fancy"}, defaults)
    data = overlay(rules.params_decl, params, 2)
    assert data["params"] == {"edge": {"default": 55}, "price": {"value": {"red": 2, "blue": 7}},
                              "rounds": {"by_players": {"2": 2}}, "style": {"default": "fancy"}}
    variant = tmp_path / "best.yaml"
    variant.write_text(yaml.safe_dump(data))
    tuned = interpreter.load(path, variant=str(variant))
    assert tuned.resolve_params(2, {}) == {**defaults, **params}
    assert tuned.params_decl["edge"]["max"] == 100    # the declaration's bounds are kept


# ---------------------------------------------------------------------- studies
def test_comeback_is_recorded_when_lead_changes_are_counted(duel):
    path, rules = duel
    records = [play_one(rules, Batch(str(path), 2, seed=5, lead_changes=True), i) for i in range(40)]
    assert all(isinstance(r["comeback"], bool) or r["comeback"] is None for r in records)
    assert any(r["comeback"] for r in records) and not all(r["comeback"] for r in records)
    plain = play_one(rules, Batch(str(path), 2, seed=5), 0)
    assert "comeback" not in plain


def test_a_study_finds_the_fair_edge_and_confirms_it_against_the_base_game(duel, tmp_path):
    path, rules = duel
    s = Settings(str(path), 2, space(rules, 2, ["edge=0..100"]), obj.parse(["balance"]), trials=14, games=160,
                 seed=3, workers=1)
    result = Tuner(rules, s, tmp_path / "study").run()
    first = result["history"][0]
    assert first["values"] == {"edge": 80} and first["params"] == {"edge": 80}   # the base game is trial 0
    best = result["best"]["params"]["edge"]
    assert 35 <= best <= 65, best
    c = result["confirmation"]
    assert c["seed"] != s.seed and c["games"] == 160
    assert c["beats_base"] and c["difference"]["ci"][0] > 0
    assert c["base"]["parts"]["balance"] > 0.2 > c["best"]["parts"]["balance"]
    assert result["trials"] == 14 and result["completed"] + result["pruned"] == 14


def test_a_point_proposed_again_reuses_its_games(duel, monkeypatch):
    path, rules = duel
    s = Settings(str(path), 2, space(rules, 2, ["style=plain|fancy"]), obj.parse(["balance"]), trials=6, games=20,
                 workers=1, prune=False)
    tuner = Tuner(rules, s)
    played = []
    real = tuner.records
    monkeypatch.setattr(tuner, "records", lambda params, *a, **k: played.append(params) or real(params, *a, **k))
    result = tuner.run()
    tried = [json.dumps(h["params"]) for h in result["history"]]
    assert len(set(tried)) == 2 and len(tried) == 6     # two points, proposed six times
    assert len(played) == 2 + 2                          # each played once, then the confirmation's two batches
    for h in result["history"]:
        if h["repeat_of"] is not None:
            first = result["history"][h["repeat_of"]]
            assert (h["loss"], h["params"]) == (first["loss"], first["params"])


def test_a_study_of_a_fair_game_says_no_variant_beats_it(duel, tmp_path):
    path, rules = duel
    s = Settings(str(path), 2, space(rules, 2, ["style=plain|fancy"]), obj.parse(["balance"]), trials=3, games=60,
                 seed=1, workers=1)
    result = Tuner(rules, s).run()
    assert not result["confirmation"]["beats_base"]     # style changes nothing: no variant can be better


def test_a_study_resumes_from_its_folder_and_refuses_other_settings(duel, tmp_path):
    path, rules = duel
    out = tmp_path / "study"
    s = Settings(str(path), 2, space(rules, 2, ["edge=0..100"]), obj.parse(["balance"]), trials=3, games=20,
                 workers=1, prune=False)
    check_resume(out, s.config(rules))
    assert Tuner(rules, s, out).run()["resumed"] == 0
    s.trials = 5
    check_resume(out, s.config(rules))
    again = Tuner(rules, s, out).run()
    assert again["resumed"] == 3 and again["trials"] == 5
    s.games = 40
    with pytest.raises(UsageError, match="games differ"):
        check_resume(out, s.config(rules))
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "x.txt").write_text("x")
    with pytest.raises(UsageError, match="holds no study"):
        check_resume(tmp_path / "other", s.config(rules))


def test_the_command_writes_an_overlay_that_plays_a_report_and_a_summary(duel, tmp_path, capsys):
    path, _ = duel
    out = tmp_path / "tuned"
    code, stdout, err = run_cli(capsys, "tune", path, "--players", 2, "--param", "edge=0..100", "--trials", 8,
                                "--games", 120, "--seed", 2, "--workers", 1, "--out", out)
    assert code == 0, err
    assert "beats the base game" in stdout and "edge = " in stdout
    summary = json.loads((out / "summary.json").read_text())
    best = summary["best"]["params"]["edge"]
    text = (out / "best.yaml").read_text()
    assert text.startswith("# rulebook tune: the best of 8 trials of duel")
    assert yaml.safe_load(text) == {"params": {"edge": {"default": best}}}
    code, stdout, err = run_cli(capsys, "play", path, "--players", 2, "--variant", out / "best.yaml", "--seed", 1)
    assert code == 0, err
    tuned = interpreter.load(path, variant=str(out / "best.yaml"))
    assert tuned.resolve_params(2, {})["edge"] == best
    page = (out / "report.html").read_text()
    for part in ('id="verdict"', 'id="best"', 'id="history"', "data:image/png;base64,", "beats the base game"):
        assert part in page
    assert page.count("<tr><td>") >= 8 + 1 + 1    # the history's trials, the best's parameter, an objective
    designer = (out / "confirmation" / "report.html").read_text()   # simulate's page, base and best side by side
    assert 'href="confirmation/report.html"' in page
    assert 'id="verdict"' in designer and 'id="balance"' in designer and "best" in designer and "base" in designer


def test_a_bundled_game_gets_an_overlay_that_extends_it(tmp_path, capsys, no_plots):
    out = tmp_path / "tuned"
    code, _, err = run_cli(capsys, "tune", "liars_dice", "--players", 2, "--param", "numdice=1|2", "--trials", 2,
                           "--games", 10, "--workers", 1, "--out", out)
    assert code == 0, err
    data = yaml.safe_load((out / "best.yaml").read_text())
    assert data["extends"] == "liars_dice" and data["params"]["numdice"]["default"] in (1, 2)
    code, _, err = run_cli(capsys, "validate", out / "best.yaml")
    assert code == 0, err


@pytest.mark.parametrize("argv, message", [
    (["--objective", "balanse"], "did you mean 'balance'"),
    (["--param", "edgy=1..3"], "did you mean 'edge'"),
    (["--trials", "0"], "--trials must be at least 1"),
    (["--agents", "human"], "'human' agent cannot be used"),
    (["--param", "edge=0..inf"], "'inf' is not a finite number"),      # (these three were internal errors)
    (["--param", "edge=nan..5"], "'nan' is not a finite number"),
    (["--param", "edge=1..5:inf"], "'inf' is not a finite number"),
    (["--param", "edge=1..1e400"], "'1e400' is not a finite number"),
    (["--workers", "100000000"], "per CPU here"),   # (as simulate refuses it: one check, tools/batches.py)
])
def test_bad_arguments_exit_2_with_the_reason(duel, capsys, argv, message):
    path, _ = duel
    code, _, err = run_cli(capsys, "tune", path, "--players", 2, *argv)
    assert code == 2 and message in err and "Traceback" not in err


@pytest.mark.parametrize("option", ["--games", "--confirm"])
def test_games_past_the_bound_are_refused_before_any_trial(duel, capsys, monkeypatch, option):
    """As simulate refuses them (one check, tools/batches.py): a hundred thousand billion was
    an internal error, MemoryError, listing the games' indexes."""
    from interpreter.tools import batches, tune

    def tuned(*args, **kw):
        raise AssertionError("a trial was run")
    monkeypatch.setattr(tune, "Tuner", tuned)
    path, _ = duel
    for games in (batches.MAX_GAMES + 1, 10**14):
        code, _, err = run_cli(capsys, "tune", path, "--players", 2, "--param", "edge=0..100", "--trials", 1,
                               "--games", 2, option, games, "--workers", 1)
        assert code == 2 and f"{option} " in err and f"at most {batches.MAX_GAMES:,}" in err and "Traceback" not in err


def test_a_range_of_more_steps_than_a_study_can_count_is_a_usage_error(capsys):
    code, _, err = run_cli(capsys, "tune", "mister_diamond", "--players", 2, "--param", "skill=0..1:1e-30",
                           "--trials", 1, "--games", 1, "--workers", 1)   # (Optuna's decimal division failed)
    assert code == 2 and "skill=0..1:1e-30: a range has at most 1,000,000,000 steps" in err and "Traceback" not in err


def test_an_out_that_names_a_file_is_a_usage_error(duel, capsys, tmp_path):
    path, _ = duel
    afile = tmp_path / "afile"
    afile.write_text("mine\n")
    code, _, err = run_cli(capsys, "tune", path, "--players", 2, "--trials", 1, "--games", 2, "--out", afile)
    assert code == 2 and f"--out {afile} is a file" in err and afile.read_text() == "mine\n"


@pytest.mark.parametrize("seed", [-1, 2 ** 32, 10 ** 23])
def test_any_whole_seed_is_taken_as_simulate_takes_it(duel, capsys, seed):
    path, _ = duel
    code, out, err = run_cli(capsys, "tune", path, "--players", 2, "--param", "edge=40..60", "--trials", 2,
                             "--games", 2, "--workers", 1, "--seed", seed, "--json")
    assert code == 0, err
    assert json.loads(out)["trials"] == 2


def test_the_sampler_is_seeded_with_the_seed_modulo_2_to_the_32(duel, monkeypatch):
    path, rules = duel
    seeds = []
    monkeypatch.setattr(optuna.samplers, "TPESampler", lambda seed, **k: seeds.append(seed) or optuna.samplers.RandomSampler(seed))
    for seed in (7, 7 + 2 ** 32, -1):
        Tuner(rules, Settings(str(path), 2, space(rules, 2, ["edge=0..100"]), obj.parse([]), seed=seed)).study()
    assert seeds == [7, 7, 2 ** 32 - 1]


def test_a_player_count_the_game_does_not_take_is_refused_before_any_agent_is_made(duel, capsys, monkeypatch):
    from interpreter.play import agents
    path, _ = duel
    made = []

    def make_agents(spec, players, seed):   # (an agent a seat: 10^8 of them filled gigabytes)
        made.append(players)
        raise AssertionError(f"agents made for {players} players")
    monkeypatch.setattr(agents, "make_agents", make_agents)
    code, _, err = run_cli(capsys, "tune", path, "--players", 100_000_000, "--trials", 1, "--games", 1)
    assert code == 2 and "duel is for 2 players, not 100000000" in err and made == []


def test_the_ray_backend_plays_the_same_trials(duel, ray_local):
    path, rules = duel
    s = Settings(str(path), 2, space(rules, 2, ["edge=0..100"]), obj.parse(["balance"]), trials=3, games=20,
                 workers=1, prune=False)
    local = Tuner(rules, s).run()
    s.backend = "ray"
    remote = Tuner(rules, s).run()
    assert [h["loss"] for h in remote["history"]] == [h["loss"] for h in local["history"]]
    assert remote["confirmation"]["difference"] == local["confirmation"]["difference"]
