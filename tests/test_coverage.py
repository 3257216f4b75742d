"""Rule coverage and anomaly reports: the tools that see a rule that never fires, a seat that
wins too often, a draw from an empty zone, a game stuck at its budget."""
from __future__ import annotations

import json

import pytest

import interpreter
from interpreter.building import load
from interpreter.play.simulation import anomalies, rules_fired
from interpreter.play.simulation.batch import Batch, play_one
from interpreter.play.simulation.runs import simulate
from interpreter.play.simulation.summary import summarise
from interpreter.tools.cli import main
from helpers import load_text, tiny_ruleset, write_ruleset

GAME = tiny_ruleset("""
  hand: {owner: player, visible: owner}
counters:
  points: {owner: player}
triggers:
  never_seven:
    when: "points >= 100"
    per_player: true
    do: [{gain: {counter: points}}]
flow:
  - shuffle: deck
  - repeat: 3
    steps:
      - turns:
          steps:
            - branch:
                prompt: act
                options:
                  draw: {steps: [{move: {from: deck, to: hand, count: 2}}]}
                  score: {if: "count(hand) > 0", steps: [{gain: {counter: points, amount: "count(hand)"}}]}
                  impossible: {if: "count(hand) > 99", steps: []}
            - if: "points > 50"
              then: [{gain: {counter: points}}]
              else: [{gain: {counter: points, amount: 0}}]
scoring:
  categories: {points: points, never: "0"}
""", game="coverage_demo", players=(2, 3), attributes="n: 1..6", label="c{n}", seen=None)


@pytest.fixture(scope="module")
def path(tmp_path_factory):
    return write_ruleset(tmp_path_factory.mktemp("cov"), GAME, "demo.yaml")


def batch_of(path, games=40, **kw):
    rules = load(path, coverage=True)
    batch = Batch(path=str(path), players=2, seed=1, hash=rules.hash, coverage=True, **kw)
    return rules, [play_one(rules, batch, i) for i in range(games)]


def test_coverage_counts_rules_and_names_the_ones_that_never_fired(path):
    rules, records = batch_of(path)
    report = rules_fired.report(rules, records)
    never = {row["what"] for row in report["never"]}
    assert "trigger never_seven" in never
    assert "if points > 50: then" in never and "if points > 50: else" not in never
    assert "option 'impossible' of branch (act)" in never and "option 'draw' of branch (act)" not in never
    assert "scoring category never" in never and "scoring category points" not in never
    rows = {row["what"]: row for row in report["probes"]}
    assert rows["option 'draw' of branch (act)"]["games"] == 40
    assert rows["step turns"]["count"] == 40 * 3            # entered once a round
    assert all(row["loc"] and str(path) in row["loc"] for row in report["never"])


def test_a_draw_from_an_empty_zone_is_reported(path):
    rules, records = batch_of(path)
    report = rules_fired.report(rules, records)
    assert [row["what"] for row in report["ran_out"]] == ["move from deck ran out"]
    summary = summarise(records, 2)
    found = anomalies.find(rules, summary, records, report)
    assert any(a["kind"] == "ran_out" and "deck" in a["message"] for a in found)


def test_coverage_does_not_change_the_games(path):
    plain, counted = load(path), load(path, coverage=True)
    for seed in range(5):
        a, b = plain.new_game(2, seed), counted.new_game(2, seed)
        while not a.is_terminal():
            a.apply_index(seed % len(a.legal_actions()))
            b.apply_index(seed % len(b.legal_actions()))
        assert a.digest() == b.digest()


def test_labels_a_zone_never_received_are_reported():
    rules = load("diamonds_club", coverage=True)
    records = [{"index": 0, "coverage": {"p": {}, "e": [f"bonus_won|bonus|{lab}" for lab in
                                                        ("three_fountains", "three_orangeries", "three_pavilions", "all_four_5", "all_four_3")]}}]
    gaps = rules_fired.report(rules, records)["gaps"]
    bonus = [g for g in gaps if g["zone"] == "bonus_won"]
    assert bonus and "three_rose_gardens" in bonus[0]["missing"]


GAPPY = tiny_ruleset("""
  low: {}
flow:
  - turns:
      rounds: 1
      steps:
        - branch:
            prompt: go
            options:
              a: {steps: [{move: {from: deck, to: low, cards: "deck where n <= 3"}}]}
              b: {steps: [{move: {from: deck, to: low, cards: "deck where n <= 2"}}]}
scoring:
  categories: {n: "count(low)"}
""", game="gappy", card="card", attributes="n: 1..6", label="k{n}", seen=None)


def test_a_gap_is_located_at_its_zone_and_never_says_card_cards(tmp_path, capsys):
    # a component named "card" read "received card cards"; a gap had no file:line
    p = write_ruleset(tmp_path, GAPPY, "g.yaml")
    assert main(["validate", str(p), "--playouts", "5"]) == 0
    err = capsys.readouterr().err
    assert f"{p}:7:3: warning[gap]: 2 players: zone low received cards of 'card' but never k4, k5, k6 in 5 games" in err
    assert "card cards" not in err


def test_a_finding_alike_at_several_player_counts_is_one_line_naming_them(tmp_path, capsys):
    # Yacht's ten player counts printed the same warning ten times; --json keeps one entry a count
    p = write_ruleset(tmp_path, GAPPY.replace("max: 2", "max: 5"), "g.yaml")
    assert main(["validate", str(p), "--playouts", "5"]) == 0
    out, err = capsys.readouterr()
    gap = "zone low received cards of 'card' but never k4, k5, k6 in 5 games"
    assert [line for line in err.splitlines() if "warning[gap]" in line] == [f"{p}:7:3: warning[gap]: 2-5 players: {gap}"]
    assert out.startswith(f"{p}: ok, 1 warning; 20 random games")
    assert main(["validate", str(p), "--playouts", "5", "--json"]) == 0
    [report] = json.loads(capsys.readouterr().out)["files"]
    found = report["playouts"]["anomalies"]
    assert [(a["players"], a["message"]) for a in found] == [(n, gap) for n in (2, 3, 4, 5)]
    assert report["warnings"] == 1   # (as the text counts them)


def test_player_counts_read_as_ranges():
    from interpreter.tools.validate import counts_text
    assert [counts_text(c) for c in ([4], [2, 3], [2, 3, 5], list(range(2, 11)), [4, 2, 3, 6], [1, 2, 4, 5, 6, 8])] == \
        ["4", "2, 3", "2, 3, 5", "2-10", "2-4, 6", "1, 2, 4-6, 8"]


def aside_game(first: str) -> str:
    """Cards k4-k6 put aside (half the labels: a gap's share) at the setup or after a decision."""
    return tiny_ruleset(f"""
  aside: {{}}
flow:
{first}
  - move: {{from: deck, to: aside, cards: "deck where n > 3"}}
scoring:
  categories: {{n: "count(aside)"}}
""", game="aside", card="card", attributes="n: 1..6", label="k{n}", seen=None)


def test_a_zone_the_setup_alone_fills_is_no_gap(tmp_path, capsys):
    # Kuhn poker's box (the cards a smaller table leaves out) and Oware's were flagged: what
    # the setup puts aside is its choice, not a rule that never fired
    assert main(["validate", str(write_ruleset(tmp_path, aside_game(""), "g.yaml")), "--playouts", "5"]) == 0
    assert "gap" not in capsys.readouterr().err
    # the same cards put aside after the first decision are checked
    after = "  - turns: {rounds: 1, steps: [{branch: {prompt: go, options: {a: {steps: []}}}}]}"
    assert main(["validate", str(write_ruleset(tmp_path, aside_game(after), "h.yaml")), "--playouts", "5"]) == 0
    assert "zone aside received cards of 'card' but never k1, k2, k3 in 5 games" in capsys.readouterr().err


def test_a_seat_that_wins_too_often_is_flagged_and_an_even_game_is_not():
    rules = interpreter.load("diamonds")
    even = [{"index": i, "seed": i, "scores": [0] * 4, "winners": [i % 4], "decisions": 1} for i in range(400)]
    assert not anomalies.find(rules, summarise(even, 4), even)
    skewed = [{**r, "winners": [0] if r["index"] % 3 else [r["index"] % 4]} for r in even]
    flagged = anomalies.find(rules, summarise(skewed, 4), skewed)
    assert [a["evidence"]["who"] for a in flagged if a["kind"] == "seat_imbalance"][0] == "seat 0"
    assert flagged[0]["evidence"]["p"] < 0.05 / 4


def test_an_asymmetric_ruleset_is_not_checked_for_seat_balance(tmp_path):
    rules = load_text(tmp_path, GAME.replace("game: coverage_demo", "game: asym\nasymmetric: true"), "asym.yaml")
    skewed = [{"index": i, "seed": i, "scores": [0, 0], "winners": [0], "decisions": 1} for i in range(100)]
    assert not [a for a in anomalies.find(rules, summarise(skewed, 2), skewed) if a["kind"] == "seat_imbalance"]


def test_teams_are_summarised_per_team_and_checked_against_the_team_share():
    rules = interpreter.load("diamonds", variant="teams")
    records = [{"index": i, "seed": i, "scores": [0] * 4, "winners": [0, 2] if i % 2 else [1, 3], "decisions": 1}
               for i in range(200)]
    summary = summarise(records, 4, rules.team_members(4))
    assert summary["teams"]["members"] == [[0, 2], [1, 3]]
    assert summary["teams"]["win_rate"] == [0.5, 0.5]
    assert not anomalies.find(rules, summary, records)   # 0.5 each is the even share of two teams


def test_unranked_seats_and_budget_games_are_flagged():
    rules = interpreter.load("diamonds_club")
    recs = [{"index": i, "seed": i, "scores": [0, 0], "winners": [1], "decisions": 1, "unranked": [0]}
            for i in range(30)]
    recs.append({"index": 30, "seed": 30, "error": "BudgetExceeded: the game exceeded its step budget", "decisions": 9})
    found = {a["kind"]: a for a in anomalies.find(rules, summarise(recs, 2), recs)}
    assert "seat 0 was not ranked" in found["unranked"]["message"] and found["unranked"]["loc"]
    assert found["budget"]["evidence"]["seeds"] == [30]


def test_diamonds_club_seats_win_evenly_in_random_four_player_games():
    """The forest defect (DC-12) made seat 0 win 0.71 of random 4-player games; each seat's
    win rate must now be within chance of an even share."""
    rules = interpreter.load("diamonds_club")
    batch = Batch(path="diamonds_club", players=4, seed=1, hash=rules.hash)
    result = simulate(batch, 160, workers=2, rules=rules)
    summary = result["summary"]
    assert not [a for a in summary["anomalies"] if a["kind"] == "seat_imbalance"], summary["win_rate"]
    assert all(lo <= 0.25 <= hi for lo, hi in summary["win_rate_ci"]), summary["win_rate"]


def test_simulate_coverage_writes_the_table_and_names_only_files_written(path, tmp_path, capsys, no_plots):
    out = tmp_path / "run"
    assert main(["simulate", str(path), "-p", "2", "-g", "20", "--coverage", "--out", str(out), "-w", "1"]) == 0
    text = capsys.readouterr().out
    assert "warning[never-fired]: trigger never_seven never fired in 20 games" in text
    assert "plots skipped" in text and "scores.png" not in text
    table = json.loads((out / "coverage.json").read_text())
    assert table["games"] == 20 and any(r["what"] == "trigger never_seven" for r in table["never"])
    assert not (out / "scores.png").exists()
    # the count is of rules: the points that watch for problems (a draw short) are not in it
    rules = [r for r in table["probes"] if r["kind"] not in ("ran_out", "no_option")]
    assert len(rules) < len(table["probes"])
    fired = sum(1 for r in rules if r["games"])
    assert f"coverage: {fired} of {len(rules)} rule points fired in 20 games; {len(table['never'])} never did" in text
    assert fired + len(table["never"]) == len(rules)


def test_validate_playouts_reports_never_fired_rules(path, capsys):
    assert main(["validate", str(path), "--playouts", "10"]) == 0
    err = capsys.readouterr().err
    assert "warning[never-fired]: trigger never_seven never fired in 20 random games" in err
    assert "warning[ran_out]" in err


def test_never_fired_lines_do_not_bury_a_playout_error(tmp_path, capsys):
    # every game fails: no rule "never fired in 0 random games", and the error is the last word
    crash = GAPPY.replace('cards: "deck where n <= 2"}', 'cards: "deck where n <= 2 // (n - n)"}').replace(
        'cards: "deck where n <= 3"}', 'cards: "deck where n <= 3 // (n - n)"}')
    p = write_ruleset(tmp_path, crash, "g.yaml")
    assert main(["validate", str(p), "--playouts", "3"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert not [line for line in err if "never-fired" in line]
    assert err[-1].startswith("    replay: rulebook play") and "division by zero" in "\n".join(err[-3:])


def test_many_never_fired_rules_are_summarised(tmp_path, capsys):
    options = "".join(f"\n              o{k}: {{if: 'count(deck) > 99', steps: [{{move: {{from: deck, to: low}}}}]}}"
                      for k in range(12))
    p = write_ruleset(tmp_path, GAPPY.replace("\n              b: {steps", options + "\n              b: {steps"), "g.yaml")
    assert main(["validate", str(p), "--playouts", "3"]) == 0
    err = capsys.readouterr().err
    never = [line for line in err.splitlines() if "never-fired" in line]
    assert len(never) == 9 and never[-1].endswith(
        "warning[never-fired]: and 16 more rules never fired in 3 random games (validate --json lists them all)")


def test_coverage_keeps_no_events_of_a_whole_game_and_a_failed_game_is_no_never_fired(tmp_path, monkeypatch):
    # coverage kept a whole game's events, so a game under MAX_EVENTS between two decisions
    # failed past it over the game, and each failed game turned into every rule "never fired"
    from interpreter.engine import events
    monkeypatch.setattr(events, "MAX_EVENTS", 20)
    text = ("game: g\nplayers: {min: 1, max: 1}\ncounters:\n  c: 0\nflow:\n  - repeat: 3\n    steps:\n"
            "      - choose: {who: 0, options: \"[1, 2]\", as: x}\n"
            "      - for_each: {in: \"1..GAINS\", as: i, do: [{gain: {counter: c}}]}\n")
    p = tmp_path / "g.yaml"
    p.write_text(text.replace("GAINS", "10"))
    rules = load(p, coverage=True)
    batch = Batch(path=str(p), players=1, seed=1, hash=rules.hash, coverage=True)
    records = [play_one(rules, batch, i) for i in range(2)]
    assert not [r for r in records if "error" in r]
    report = rules_fired.report(rules, records)
    assert report["games"] == 2 and report["never"] == []
    p.write_text(text.replace("GAINS", "1 // (c - c)"))   # every game fails: no rule said never to fire
    rules = load(p, coverage=True)
    records = [play_one(rules, batch, i) for i in range(2)]
    assert all("division by zero" in r["error"] for r in records)
    assert rules_fired.report(rules, records)["never"] == []
