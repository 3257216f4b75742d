"""Terminal play a person can follow: the table as the seat sees it, compactly (play/display/terminal.py),
costs on the options, and ``--resolve ask`` asking the person at the terminal."""
from __future__ import annotations

import io
import json
import re

import pytest

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
                assert re.search(rf"\d+\. {re.escape(label)} \({costs[card]} coins?\)", text), label
    # a supply is counted, not listed card by card; only the hinted variables are shown
    assert re.search(r"equipment supply: mine_blue ×\d+", text)
    assert "start player: " in lines[0] and "table_card" not in text and "open_required" not in text


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
    asked = len(re.findall(r"seat 0, (?:choose|Enter takes)", text))
    assert text.count("─── Diamonds") == asked                                      # the table before each question
    assert re.search(r"seat [123] plays \S+", text) and "wins the trick" in text
    assert "pass_count" not in text.split("─── Diamonds")[1].splitlines()[0]        # no engine variable in the header


def test_resolve_ask_asks_the_person_at_the_terminal_even_with_agents(tmp_path, capsys, monkeypatch):
    from interpreter.tools.cli import main
    answers = io.StringIO("2\n" * 400)                   # always the second outcome offered
    monkeypatch.setattr("sys.stdin", answers)
    log = tmp_path / "md.jsonl"
    assert main(["play", "mister_diamond", "--players", "2", "--seed", "0", "--resolve", "ask", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    asked = out.count("what happened?")
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    reports = [x for x in lines if x.get("type") == "decision" and x["prompt"] == "what happened"]
    assert asked == len(reports) > 0                     # every outcome was asked, none decided by an agent
    assert re.search(r"seat [01] tries \S+", out)        # the person is told what is tried


def test_a_pass_says_how_many_cards_and_to_whom():
    rules = interpreter.load("diamonds")
    S = _at(rules, 4, 1, "pass")
    seat = S.current_player()
    table = Table(rules).render(S, seat)
    count = S.stack[-1][5]                     # the cards each giver passes (mechanics/passing.py)
    to = rules.steps[S.stack[-1][0]].to(S, seat, None)
    cards = f"{count} card{'s' if count != 1 else ''}"
    assert table["prompt"]["asks"] == f"pass {cards} to seat {to}"
    assert f"You (seat {seat}) to pass {cards} to seat {to}:" in render(table)
    # another seat reads the prompt alone: what the giver is asked is theirs
    other = (seat + 1) % 4
    assert Table(rules).render(S, other)["prompt"]["asks"] == "pass"


def test_a_pass_of_several_cards_counts_down():
    rules = interpreter.load("diamonds")
    S = rules.new_game(4, 1)
    while S.prompt() != "pass":
        S.apply_index(len(S.legal_actions()) - 1)   # the largest pass count offered
    seat, count = S.current_player(), S.stack[-1][5]
    assert count > 1
    S.apply_index(0)
    assert Table(rules).render(S, seat)["prompt"]["asks"].startswith(f"pass {count - 1} more card")
    assert f"(of {count})" in Table(rules).render(S, seat)["prompt"]["asks"]


def test_a_market_says_what_the_seat_can_spend():
    rules = interpreter.load("diamonds_club")
    S = _at(rules, 3, 1, "buy")
    seat = S.current_player()
    asks = Table(rules).render(S, seat)["prompt"]["asks"]
    assert asks == f"buy a space or pass: {S.c['coins'][seat]} coins"


def test_enter_takes_the_only_option_and_is_refused_among_several():
    from interpreter.play.display.terminal import read_answer
    out = io.StringIO()
    assert read_answer(["done"], 0, io.StringIO("\n"), out) == 0
    assert "Enter takes done" in out.getvalue()
    out = io.StringIO()
    assert read_answer(["a", "b"], 0, io.StringIO("\n2\n"), out) == 1
    assert "2 options: type a number from 1 to 2" in out.getvalue()


def test_a_question_mark_lists_the_options_with_their_notes():
    from interpreter.play.display.terminal import read_answer
    out = io.StringIO()
    options = [{"index": 0, "label": "c1r1:mine", "note": "3 coins"}, {"index": 1, "label": "pass", "note": None}]
    assert read_answer(["c1r1:mine", "pass"], 1, io.StringIO("?\npass\n"), out, options) == 1
    listed = out.getvalue()
    assert "  1. c1r1:mine (3 coins)" in listed and "  2. pass" in listed
    out = io.StringIO()
    assert read_answer(["c1r1:mine", "pass"], 1, io.StringIO("pas\n1\n"), out) == 0
    assert "'pas' is not an option (did you mean 'pass'?); ? lists them" in out.getvalue()


def test_a_pick_says_how_many_cards_it_takes():
    from interpreter.play.display.ask import asked
    who = {0: "you"}.get
    assert asked("mine", {"picked": 0, "least": 1, "most": 1}, 3, who) == "mine 1 card"
    assert asked("take", {"picked": 1, "least": 3, "most": 3}, 3, who) == "take 2 more cards (of 3)"
    assert asked("secure", {"picked": 0, "least": 3, "most": None}, 4, who) == "secure a card (at least 3)"
    assert asked("secure", {"picked": 3, "least": 3, "most": 5}, 4, who) == "secure a card (3 picked, up to 5); done stops"


@pytest.mark.parametrize("name,prompt,asks", [("diams", "secure", "secure a card (at least 3)"), ("diamonds_club", "mine", "mine 1 card (one option: Enter takes it)"),
                                              ("diams", "quality", "quality (pierce quality, 1 to 10)"),
                                              ("diamonds", "pass_count", "cards to pass (1 to 3)")])
def test_a_seed_games_pick_is_asked_with_its_count(name, prompt, asks):
    import random
    rules = interpreter.load(name)
    S, pick = rules.new_game(3, 0), random.Random(0)
    while not S.over and S.prompt() != prompt:
        S.apply_index(pick.randrange(len(S.legal_actions())))
    assert Table(rules).render(S, S.current_player())["prompt"]["asks"] == asks


def test_a_trick_says_whether_the_seat_leads_or_which_card_led():
    rules = interpreter.load("diamonds")
    S = _at(rules, 4, 2, "play")
    assert Table(rules).render(S, S.current_player())["prompt"]["asks"] == "play a card to lead the trick"
    led = S.legal_actions()[0]
    S.apply_index(0)
    assert Table(rules).render(S, S.current_player())["prompt"]["asks"] == f"play a card ({led} led)"


def test_a_question_mark_says_what_each_option_would_do_as_far_as_the_seat_can_tell():
    import random
    from interpreter.play.display.foresee import foreseen
    from interpreter.play.display.narrate import owners
    from interpreter.play.agents.view import SeatView
    rules = interpreter.load("diamonds")
    S = rules.new_game(4, seed=2)
    while not (S.prompt() == "play" and len(S.observation(0)["zones"]["table"]) == 3):   # the trick's last card
        S.apply_index(0)
    seat = S.current_player()
    view, rng = SeatView(S, seat), random.Random(1)
    said = foreseen([view.sample(rng) for _ in range(3)], seat, owners(rules, S.members))
    assert len(said) == len(S.legal_actions())
    for label, does in zip(S.legal_actions(), said):
        assert does.startswith(f"you play {label}. ")    # the option's own move, in words...
        assert "wins the trick" in does or "win the trick" in does   # ...and what it settles: the trick's winner
    before = S.to_json()
    out = io.StringIO()
    from interpreter.play.display.terminal import read_answer
    read_answer(S.legal_actions(), seat, io.StringIO("?\n1\n"), out, None, lambda: said)
    assert f"  1. {S.legal_actions()[0]}: {said[0]}" in out.getvalue()
    assert S.to_json() == before                                  # the real game is not played


def test_what_an_option_would_do_leaves_out_what_hangs_on_chance():
    import random
    from interpreter.play.display.foresee import foreseen
    from interpreter.play.agents.view import SeatView
    rules = interpreter.load("mister_diamond")   # a try's outcome is the dexterity's: not foreseen
    S = rules.new_game(3, seed=2)
    view = SeatView(S, S.current_player())
    said = foreseen([view.sample(random.Random(s)) for s in range(3)], S.current_player(), None)
    assert said and all(d.startswith("you try ") and "outcome" not in d for d in said)


def test_play_at_the_terminal_answers_a_question_mark_with_what_each_option_would_do(capsys, monkeypatch):
    from interpreter.tools.cli import main
    monkeypatch.setattr("sys.stdin", io.StringIO("?\n" + "1\n" * 300))
    assert main(["play", "diamonds", "--players", "4", "--agents", "human,random,random,random", "--seed", "3",
                 "--set", "rounds=1"]) == 0
    listed = [line for line in capsys.readouterr().out.splitlines() if re.match(r"\s+\d+\. \S+: ", line)]
    assert listed and all(re.match(r"\s+\d+\. (\S+): you pass \1 to seat \d\.$", line) for line in listed)
