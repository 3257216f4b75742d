"""The table drawn for people (play/display/table.py, terminal.py): what a running step holds
reads as words, never as the engine's data."""
from __future__ import annotations

import pytest

import interpreter
from interpreter.play.display.table import Table
from interpreter.play.display.terminal import render


@pytest.mark.parametrize("name", ["goofspiel", "six_nimmt"])
def test_a_simultaneous_choice_reads_as_who_has_chosen_and_hides_the_others_choices(name):
    rules = interpreter.load(name)
    S = rules.new_game(3, seed=1)
    while S.current_player() != 0:
        S.apply_index(0)
    first = S.legal_actions()[-1]
    S.apply(first)                       # seat 0 chooses in secret
    S.apply_index(0)                     # then seat 1
    for seat, own in ((0, f"you ({first})"), (2, "seat 0")):
        table = Table(rules).render(S, seat)
        [running] = [r for r in table["running"] if r["name"] == "simultaneous"]
        assert running["title"] == "secret choices"
        assert running["text"] == f"chosen: {own}, seat 1; still to choose: " + ("seat 2" if seat == 0 else "you")
        text = render(table)
        assert f"secret choices: chosen: {own}" in text
        assert "{" not in text and "'chosen'" not in text and "to_choose" not in text


def test_a_flag_counter_reads_yes_or_no_at_the_table_and_in_the_story():
    from interpreter.play.display.narrate import owners, tell
    rules = interpreter.load("love_letter")   # safe (protection) is only ever set to 0 or 1
    S = rules.new_game(2, seed=1)
    table = Table(rules).render(S, 0)
    [safe] = [i for i in table["seats"][0]["items"] if i["name"] == "safe"]
    assert safe["value"] == 0 and safe["text"] == "no"
    assert "protection no" in render(table)
    [tokens] = [i for i in table["seats"][0]["items"] if i["name"] == "tokens"]
    assert "text" not in tokens                        # a counter that counts stays a number
    line = {"type": "events", "events": [{"ev": "set_counter", "counter": "safe", "owner": 1, "value": 1}]}
    assert tell(line, 0, owners(rules, rules.team_members(2))) == "protection of seat 1 is now yes."


def test_a_counter_of_each_card_reads_by_the_cards_labels_with_copies_counted():
    rules = interpreter.load("diamonds_club")
    S = rules.new_game(3, seed=1)
    lights = [c for c, label in enumerate(rules.card_labels) if label == "light"]
    for card in lights[:3]:
        S.c["filled"][card] = 1   # three light-green spaces built on
    table = Table(rules).render(S, 0)
    [built] = [i for i in table["shared"] if i["name"] == "filled"]
    assert built["text"] == "light 1 ×3"
    assert "built on: light 1 ×3" in render(table) and "#" not in render(table)


def test_a_choice_among_seats_names_each_seat_and_asks_no_range_of_numbers():
    rules = interpreter.load("love_letter")
    S = rules.new_game(2, seed=1)
    while S.prompt() != "target":
        S.apply_index(0)
    seat = S.current_player()
    prompt = Table(rules).render(S, seat)["prompt"]
    notes = {o["label"]: o["note"] for o in prompt["options"]}
    assert notes == {f"p{p}": ("you" if p == seat else f"seat {p}") for p in range(2) if f"p{p}" in notes}
    assert prompt["asks"] == "target"   # not "target (0 to 1)"


def test_a_grid_market_asks_with_the_title_of_what_is_paid_agreeing():
    from interpreter.play.display.ask import asked
    who = {0: "you"}.get
    title = {"cash": "gold coins"}.get
    assert asked("buy", {"pay": "cash", "has": 4, "can_pass": True}, 3, who, title) == "buy a space or pass: 4 gold coins"
    assert asked("buy", {"pay": "cash", "has": 1, "can_pass": False}, 3, who, title) == "buy a space: 1 gold coin"


def test_a_grid_spaces_price_reads_in_the_counters_words():
    """A space of a grid market is offered with its price as the counter's title says it, one
    or many ("1 coin", "2 coins"), never the counter's name after any number."""
    rules = interpreter.load(interpreter.ruleset_path("diamonds_club"))
    S = rules.new_game(3, seed=2)
    options = Table(rules).render(S, S.current_player())["prompt"]["options"]
    notes = [o["note"] for o in options if o["label"] != "pass"]
    assert notes and all(n.endswith((" coin", " coins")) for n in notes)
    assert all((n.split()[0] == "1") == n.endswith(" coin") for n in notes)
