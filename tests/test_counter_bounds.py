"""A counter's value stays within the 64 bits an amount is held to.

Each amount a gain, lose, transfer or advance is given is held to 64 bits (runtime._stored); the
counter's new value is too, where it is written (mechanics/counters.py ``bounded``): four gains
of 2^62 wrote 2^64, and the state then did not reload. Past the bound, the located runtime error
an amount past it gets, in the generated module and its plain reference alike; up to it, the
game goes on and its state reloads.
"""
from __future__ import annotations

import pytest

from helpers import chips_game, load_text
from test_budget_counted import played
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
