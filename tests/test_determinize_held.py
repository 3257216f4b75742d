"""What a running step read of a hidden value is counted again in a determinized world
(each kind's ``hidden_values``, engine/knowledge.py), at a cost bounded by the frame's length."""
from __future__ import annotations

import json
import random

from fuzzing.lockstep import reference
from helpers import load_text
from interpreter.mechanics.flow import seats_again

class _Seat(int):
    """A seat that counts the comparisons made of it."""
    compared = [0]

    def __eq__(self, other):
        _Seat.compared[0] += 1
        return int(self) == other

    __hash__ = int.__hash__


def test_a_laps_seats_made_again_ask_each_seat_once_whatever_the_laps_length():
    # a lap may hold MAX_COST seats (a saved state's): the seats that played are looked up as a
    # set, not searched along the list for each seat of the world's order
    n = 3000
    seq = [_Seat(k % 2) for k in range(n)]
    _Seat.compared[0] = 0
    again = seats_again(seq, n - 1, lambda: [_Seat(k % 3) for k in range(n)], None, 3)
    assert again == [*seq[:n - 1], *[2] * (n // 3)]
    assert _Seat.compared[0] <= 4 * n, _Seat.compared[0]


LAP = """
game: longlap
players: {min: 2, max: 2}
vars:
  _k: {type: int, start: 0}
setup:
  - random: {var: _k, from: "[0, 1]"}
flow:
  - turns:
      players: "map(1..10000, to: (it + _k) % 2)"
      steps:
        - choose: {options: "[1, 2]", as: g, prompt: go}
scoring:
  categories:
    n: "0"
"""


def test_a_lap_of_100000_seats_most_of_them_played_determinizes(tmp_path):
    for rules in [(r := load_text(tmp_path, LAP)), reference(r)]:
        d = json.loads(rules.new_game(2, 0, knowledge=True).to_json())
        frame = next(f for f in d["stack"] if isinstance(f[1], list) and len(f[1]) == 10_000)
        frame[1], frame[2] = [k % 2 for k in range(100_000)], 99_999   # (a saved state's lap: longer than a range)
        d["decision"][0] = frame[1][99_998]
        S = rules.state_from_json(json.dumps(d))
        D = S.determinize(1 - S.current_player(), random.Random(0))
        lap = next(f for f in D.stack if len(f) == 5)[1]
        assert list(lap) == frame[1][:99_999]   # (both seats played: the world's order adds none)
