"""A failed scenario expectation says what the values were, not just that it was false."""
from __future__ import annotations

import pytest

from interpreter.play.checks.scenarios import run_file
from helpers import tiny_ruleset

CASES = [
    ("count(hand[0]) == 3", "expected count(hand[0]) == 3, but count(hand[0]) is 10"),
    ("count(deck) == 20 and count(hand[1]) > 11",           # the first part holds: the second is shown
     "expected count(deck) == 20 and count(hand[1]) > 11, but count(hand[1]) is 10"),
    ("first(hand[0]) in table", "expected first(hand[0]) in table, but first(hand[0]) is 4D and table is []"),
    ("count(deck) > count(hand[0]) * 3", "expected count(deck) > count(hand[0]) * 3, but count(deck) is 20 and "
                                         "count(hand[0]) * 3 is 30"),
    ("any(players, by: showroom > 3)", "expected any(players, by: showroom > 3), but it is false"),
    ("safe[0] == 0 and any(players, by: showroom > 3)",
     "expected safe[0] == 0 and any(players, by: showroom > 3), but any(players, by: showroom > 3) is false"),
]


@pytest.mark.parametrize("expect,message", CASES)
def test_a_false_expectation_shows_its_values(tmp_path, expect, message):
    path = tmp_path / "s.yaml"
    path.write_text(f"ruleset: diamonds\nscenarios:\n  - {{name: x, players: 4, seed: 1, expect: [{expect!r}]}}\n")
    [outcome] = run_file(path)
    assert not outcome.ok and outcome.message == message


def _run(tmp_path, scenarios: str, ruleset: str | None = None):
    if ruleset is not None:
        (tmp_path / "g.yaml").write_text(ruleset)
    path = tmp_path / "s.yaml"
    path.write_text(f"ruleset: {'g.yaml' if ruleset else 'diamonds'}\nscenarios:\n{scenarios}")
    return run_file(path)


def test_a_misspelt_key_fails_its_scenario_with_a_did_you_mean(tmp_path):
    bad, patch, action, fine = _run(tmp_path, (
        "  - {name: a, players: 4, expcet: ['count(deck) == 999']}\n"
        "  - {name: b, players: 4, patch: {zone: {}}}\n"
        "  - {name: c, players: 4, actions: [{seet: 0, action: x}]}\n"
        "  - {name: d, players: 4, scores: [3, 3, 3, 3]}\n"))
    assert not bad.ok and bad.message == "unknown key 'expcet': did you mean 'expect'?"
    assert (bad.loc.line, bad.loc.col) == (3, 27)
    assert not patch.ok and patch.message.startswith("unknown key 'zone': did you mean 'zones'?")
    assert not action.ok and action.message.startswith("unknown key 'seet': did you mean 'seat'?")
    assert fine.ok


SPOTS = """
game: spots
players: {min: 2, max: 2}
components:
  spot: {cards: [{at: a1}, {at: a2}], label: "{at}"}
  chip: {attributes: {n: 1..4}, label: "c{n}"}
zones:
  board: {start: [spot]}
  pool: {start: [chip]}
  under: {owner: card}
flow:
  - turns:
      rounds: 1
      steps:
        - choose: {options: "pool", as: got, prompt: take}
        - move: {from: pool, cards: "[got]", to: "under[first(board)]"}
vars:
  got: card
scoring:
  categories: {n: "count(under[first(board)])"}
"""


def test_a_card_owned_zone_is_patched_by_its_cards_label_and_legal_is_in_any_order(tmp_path):
    [o] = _run(tmp_path, "  - name: x\n    players: 2\n    patch: {zones: {under: {a2: [c1, c2]}}}\n"
                         "    legal: [c4, c3]\n    expect: ['count(under[last(board)]) == 2']\n", SPOTS)
    assert o.ok, o.message


LEAD = tiny_ruleset("""
  hand: {owner: player, visible: owner}
  pile: {}
vars:
  first: player
flow:
  - shuffle: deck
  - deal: {from: deck, to: hand, count: 3}
  - set: {first: "first(players where count(hand[it] where n == 1) > 0)"}
  - turns:
      from: first
      rounds: 1
      steps:
        - pick: {from: hand, to: pile, count: 1}
scoring:
  categories: {n: "count(hand)"}
""", game="lead", players=(3, 3), card="card", attributes="n: 1..9", label="c{n}")


def test_deal_sets_an_opening_hand_before_the_steps_that_read_it(tmp_path):
    # seed 1 deals c1 to seat 0; the holder of c1 leads, decided before the first decision
    dealt, patched, too_many = _run(tmp_path, (
        "  - {name: dealt, players: 3, seed: 1, deal: {hand: {2: [c1, c5], 0: [c9]}}, current: 2,\n"
        "     expect: ['first == 2', 'count(hand[2] where n == 5) == 1', 'count(hand[0] where n == 9) == 1',\n"
        "              'count(hand[1]) == 3 and count(deck) == 0']}\n"
        "  - {name: patched, players: 3, seed: 1, patch: {zones: {hand: {2: [c1, c5, c2]}}}, current: 0}\n"
        "  - {name: too many, players: 3, deal: {hand: {0: [c1, c2, c3, c4]}}}\n"), LEAD)
    assert dealt.ok, dealt.message
    assert patched.ok, patched.message   # a patch comes after: the lead was already decided
    assert not too_many.ok and too_many.message == "the game could not start: deal: hand[0] is dealt 3 cards, not 4"


def test_deal_sets_an_opening_hand_when_the_setup_leaves_cards_out_of_the_shuffle(tmp_path):
    """A deck shuffled after some cards were set aside (a smaller deck, Crazy Eights' second
    pack): deal: relabels only the cards it places and those they displace, all in the deck
    shuffled (it relabelled cards up the whole card table, and refused: "not dealt from one
    shuffled zone")."""
    boxed = LEAD.replace("flow:\n  - shuffle: deck", "flow:\n  - move: {from: deck, to: pile, cards: \"deck where n > 1 and n < 5\"}"
                         "\n  - shuffle: deck").replace("count: 3}", "count: 2}")
    dealt, = _run(tmp_path, (
        "  - {name: dealt, players: 3, seed: 1, deal: {hand: {2: [c1, c9]}}, current: 2,\n"
        "     expect: ['first == 2', 'count(hand[2] where n == 9) == 1', 'count(pile) == 3 and count(deck) == 0']}\n"),
        boxed)
    assert dealt.ok, dealt.message


def test_a_patched_variable_is_held_to_its_type_and_a_card_is_named_by_its_label(tmp_path):
    """A patch writes a state from outside, as a saved state does: its variables are checked as
    a saved state's are (the code that reads a card variable trusts it to be a card that exists:
    a recorded zone's membership reads an item by it), and a card may be named by its label."""
    run = tmp_path / "s.yaml"
    cases = {
        "spot: a1": None,
        "spot: g4": None,
        "spot: 99": "patch: variable 'spot': no card 99 (there are 58)",
        "spot: -3": "patch: variable 'spot': no card -3 (there are 58)",
        "spot: zz": "patch: variable 'spot': expected a whole number, got 'zz'",
        "turn_over: 3": "patch: variable 'turn_over': expected true or false, got 3",
        "victim: 4": "patch: variable 'victim': no player 4 (there are 4)",
    }
    for given, message in cases.items():
        run.write_text("ruleset: mister_diamond\nscenarios:\n"
                       f"  - {{name: x, players: 4, seed: 1, patch: {{vars: {{{given}}}}}, expect: ['spot in real_spots + fake_spots']}}\n")
        [o] = run_file(run)
        if message is None:
            assert o.ok, (given, o.message)
        else:
            assert not o.ok and o.message == message, (given, o.message)


NONE_IN_A_LIST = """game: none_in_list
players: {min: 2, max: 2}
components:
  card:
    attributes: {rank: 1..3}
    label: "r{rank}"
zones:
  deck: {start: [card], visible: none}
  hand: {owner: player, visible: owner}
vars:
  bid: "list[card]"
  x: {type: str}
setup:
  - move: {from: deck, to: "hand[0]", count: 2}
flow:
  - choose: {options: hand, as: bid, prompt: bid, simultaneous: true}
  - choose: {who: 0, options: "['end']", as: x, prompt: finish}
"""


def test_a_none_in_a_value_shown_is_written_none(tmp_path):
    """Seat 1 has no card to bid: its bid is none, written as the language writes it (before:
    Python's None)."""
    (tmp_path / "none_in_list.yaml").write_text(NONE_IN_A_LIST)
    path = tmp_path / "s.yaml"
    path.write_text("ruleset: none_in_list.yaml\nscenarios:\n  - name: x\n    players: 2\n    seed: 1\n"
                    "    actions: [r3]\n    expect: [\"bid == []\", \"x == 'end'\"]\n")
    [outcome] = run_file(path)
    assert not outcome.ok and outcome.message == "expected bid == [], but bid is [r3, none] and [] is []"
    path.write_text(path.read_text().replace('"bid == []", ', ""))
    [outcome] = run_file(path)
    assert not outcome.ok and outcome.message == "expected x == 'end', but x is none"
