"""Terminal play a person can follow: the table as the seat sees it, compactly (play/display/terminal.py),
costs on the options, and ``--resolve ask`` asking the person at the terminal."""
from __future__ import annotations

import io
import json
import re

import interpreter
from interpreter.play.agents import HumanAgent, make_agents
from interpreter.play.logs.gamelog import play_game
from interpreter.play.display.table import Table
from interpreter.play.display.terminal import render


def _at(rules, players, seed, prompt):
    S = rules.new_game(players, seed)
    while S.prompt() != prompt:
        S.apply_index(0)
    return S


def test_a_grid_market_is_a_grid_and_each_option_says_its_cost():
    rules = interpreter.load("diamonds_club")
    S = _at(rules, 3, 1, "buy")
    seat = S.current_player()
    text = render(Table(rules).render(S, seat))
    lines = text.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("  market"))
    assert lines[head + 1].split() == [f"c{j}" for j in range(1, 7)]            # six columns
    assert [line.split()[0] for line in lines[head + 2:head + 8]] == [f"r{i}" for i in range(1, 7)]
    costs = dict(rules.steps[S.stack[-1][0]].costs(S, seat))
    for label, card in zip(S.legal_actions(), S.dec[1]):
        if label != "pass":
            assert re.search(rf"\d+\. {re.escape(label)} \({costs[card]} coins\)", text), label
    # a supply is counted, not listed card by card; only the hinted variables are shown
    assert re.search(r"equip_supply: mine_blue ×\d+", text)
    assert "start_player" in lines[0] and "table_card" not in text and "open_required" not in text


def test_the_view_hides_what_the_seat_may_not_see():
    rules = interpreter.load("diamonds")
    S = _at(rules, 4, 2, "play")
    text = render(Table(rules).render(S, 0))
    mine = " ".join(rules.card_labels[c] for c in S.z["hand"][0])
    assert f"  hand: {mine}" in text
    for p in (1, 2, 3):
        assert f"  hand: {len(S.z['hand'][p])} hidden cards" in text
    assert text.index("You (seat 0)") < text.index("seat 1")                     # your own seat first
    others = [line for line in text.splitlines() if line.startswith("seat ")]
    assert all("safe ?" in line for line in others)                              # visible: owner counters


def test_a_person_plays_with_the_table_shown_and_hears_every_move():
    rules = interpreter.load("diamonds")
    out = io.StringIO()
    human = HumanAgent(seed=1, seat=0, stdin=io.StringIO("1\n" * 200), stdout=out)
    play_game(rules, 4, 1, [human, *make_agents("random", 4, 1)[1:]], {"params": {"rounds": 1}})
    text = out.getvalue()
    assert text.count("─── Diamonds") == text.count("seat 0, choose")                # the table before each question
    assert re.search(r"seat [123] plays \S+", text) and "wins the trick" in text
    assert "pass_count" not in text.split("─── Diamonds")[1].splitlines()[0]        # no engine variable in the header


def test_resolve_ask_asks_the_person_at_the_terminal_even_with_agents(tmp_path, capsys, monkeypatch):
    from interpreter.tools.cli import main
    answers = io.StringIO("2\n" * 400)                   # always the second outcome offered
    monkeypatch.setattr("sys.stdin", answers)
    log = tmp_path / "md.jsonl"
    assert main(["play", "mister_diamond", "--players", "2", "--resolve", "ask", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    asked = out.count("what happened?")
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    reports = [x for x in lines if x.get("type") == "decision" and x["prompt"] == "what happened"]
    assert asked == len(reports) > 0                     # every outcome was asked, none decided by an agent
    assert re.search(r"seat [01] tries \S+", out)        # the person is told what is tried
