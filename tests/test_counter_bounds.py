"""A counter's value stays within the 64 bits an amount is held to.

Each amount a gain, lose, transfer or advance is given is held to 64 bits (runtime._stored); the
counter's new value is too, where it is written (mechanics/counters.py ``bounded``): four gains
of 2^62 wrote 2^64, and the state then did not reload. Past the bound, the located runtime error
an amount past it gets, in the generated module and its plain reference alike; up to it, the
game goes on and its state reloads.
"""
from __future__ import annotations

import json

import pytest

from helpers import chips_game, load_text
from test_budget_counted import played, played_alike
from test_counter_amounts import GAME
from test_flowgen import reference

BIG = 2 ** 62
FLOW = """counters:
  pts: {owner: player, start: %s, visible: all}
  bank: {owner: none, start: %s, visible: all}
  height: {owner: player, start: %s, visible: all}
flow:
  - turns:
      rounds: 1
      steps:
        - choose: {options: "[1, 2]", as: x, prompt: first}
        - for_each: {in: "1..%d", as: k, do: [{%s}]}
scoring:
  categories: {chips: "count(mine)"}
"""


def outcome(tmp_path, effect: str, times: int, pts=0, bank=0, height=0) -> tuple:
    """The game played (seed 0), by the module and by its plain reference: both the same."""
    rules = load_text(tmp_path, chips_game("", game="bounds", players=(2, 2)) + FLOW % (pts, bank, height, times, effect))
    got = played(rules, 0)
    assert got == played(reference(rules), 0)
    return rules, got


@pytest.mark.parametrize("effect, start", [
    (f'gain: {{counter: pts, amount: "{BIG}"}}', {}),
    (f'gain: {{counter: pts, amount: "-{BIG}"}}', {}),
    (f'gain: {{counter: pts, amount: "max(k, {BIG})"}}', {}),                 # (an amount not written out)
    (f'gain: {{counter: pts, amount: "{BIG}", from: bank}}', {"pts": BIG, "bank": 2 ** 63 - 1}),
    (f'transfer: {{from: bank, to: pts, amount: "{BIG}"}}', {"pts": BIG, "bank": 2 ** 63 - 1}),
    (f'lose: {{counter: pts, amount: "{BIG}", to: bank}}', {"pts": 2 ** 63 - 1, "bank": 2 ** 63 - 1}),
    (f'advance: {{counter: pts, by: "{BIG}"}}', {}),
    ('advance: {counter: pts, by: 1, stack: height}', {"height": 2 ** 63 - 1}),
])
def test_a_counter_past_64_bits_is_a_located_error(tmp_path, effect, start):
    """Moves of 2^62, each amount within 64 bits (four of them wrote 2^64): the counter's value
    past 2^63 - 1 (or under -2^63) is the runtime error 'a whole number beyond 64 bits', located
    in the ruleset."""
    _, (decisions, _, kind, message, _) = outcome(tmp_path, effect, 4, **start)
    assert (decisions, kind) == (0, "GameError")   # (at the first decision's effects)
    assert "g.yaml:" in message.splitlines()[0] and "a whole number beyond 64 bits" in message


@pytest.mark.parametrize("effect", [
    f'gain: {{counter: pts, amount: "{BIG}"}}', f'gain: {{counter: pts, amount: "-{BIG}"}}',
    f'advance: {{counter: pts, by: "{BIG}", max: "{2 ** 63 - 1}"}}',
])
def test_a_counter_up_to_64_bits_goes_on_and_reloads(tmp_path, effect):
    """Up to the ends: 2^62 - 1 and a gain of 2^62 make 2^63 - 1, the most a counter holds, and
    -2^62 and a gain of -2^62 the least, -2^63; an advance with max: keeps within it, four
    times over."""
    start = 0 if "max" in effect else -BIG if "-" in effect else BIG - 1
    rules, (decisions, _, kind, state) = outcome(tmp_path, effect, 4 if "max" in effect else 1, pts=start)
    assert kind is None and decisions == 2
    rules.state_from_json(state)


B = 2 ** 63 - 1
GRID = 'grid: {who: 0, zone: deck, rows: 2, cost: "%s", pay: coins, mark: paid, as: spot, pass: false}'


@pytest.mark.parametrize("item", [GRID % f"-{B} - {B}", GRID % f"-{B}",
                                  f'advance: {{counter: "pos[0]", by: "{B} + {B}", max: "{B} + {B}"}}'],
                         ids=["grid-cost", "grid-paid", "advance-max"])
def test_a_price_paid_or_an_advance_to_a_max_past_64_bits_is_a_located_error(tmp_path, item):
    """A grid's price paid (coins 5 - price) and marked, and an advance with max: (the least of
    by: and max: past the old space), are held to 64 bits as a gain is: before, coins held
    2^64 + 3 and pos 2^64 - 2, states that did not reload. Located at the step's item."""
    decisions, _, kind, message, _ = played_alike(load_text(tmp_path, GAME % ("0", item)))
    assert (decisions, kind) == (1 if "grid" in item else 0, "GameError")   # (a price is paid once the space is taken)
    assert message.splitlines()[0].endswith("a whole number beyond 64 bits (-2^63 .. 2^63-1)")
    assert "g.yaml:17:5: error[runtime]: in " in message.splitlines()[0]


@pytest.mark.parametrize("item, coins, pos", [(GRID % f"-{B} + 5", B, 0), (GRID % "2", 3, 0),
                                              (f'advance: {{counter: "pos[0]", by: "{B} + {B}", max: "{B}"}}', 5, B)])
def test_a_price_paid_or_an_advance_to_a_max_up_to_64_bits_goes_on_and_reloads(tmp_path, item, coins, pos):
    """Up to the end: a price of 5 - (2^63 - 1) leaves coins 2^63 - 1, an advance of 2^64 - 2 to a
    max of 2^63 - 1 stops there; the game goes on, its state reloads."""
    rules = load_text(tmp_path, GAME % ("0", item))
    decisions, _, kind, state = played_alike(rules)
    assert kind is None and decisions == (3 if "grid" in item else 2)
    assert json.loads(state)["counters"]["coins"][0] == coins and json.loads(state)["counters"]["pos"][0] == pos
    rules.state_from_json(state)
