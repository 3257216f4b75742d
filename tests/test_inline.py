"""The generated module passes arguments as arguments and writes small bodies in place
(building/effects.py, building/flowgen.py): what runs keeps its meaning and its places."""
from __future__ import annotations

from helpers import load_text
from interpreter.building.listing import listing

DECLARED = """
game: params
players: {min: 2, max: 2}
vars:
  a: {type: int, start: 0}
  b: {type: int, start: 0}
  total: {type: int, start: 0}
effects:
  pair:
    params: {x: int, y: int}
    do:
      - set: {a: "x", b: "y"}
      - for_each: {in: "[1, 2, 3]", as: x, do: [{set: {total: "total + x * y"}}]}
flow:
  - choose: {who: 0, options: "[0, 1]", as: a}
  - pair: {y: "a + 10", x: "a + 1"}
  - pair: {x: "b", y: "2"}
"""


def test_a_declared_effect_takes_its_arguments_as_parameters(tmp_path):
    rules = load_text(tmp_path, DECLARED)
    fn = rules.namespace["E_pair"]
    assert fn.__code__.co_varnames[:fn.__code__.co_argcount] == ("S", "me", "P_x", "P_y")
    text = listing(rules)
    assert "E_pair(S, me, P_y=" in text                # written y first: keywords, evaluated as written
    assert "E_pair(S, me, S.v['b'], 2)" in text          # in order: positional, no dict
    S = rules.new_game(2, seed=1)
    S.apply_index(1)                                    # a = 1
    # pair(x=2, y=11): a, b = 2, 11, total += (1+2+3) * 11 (the element x hides the parameter);
    # pair(x=11, y=2): a, b = 11, 2, total += 6 * 2
    assert (S.v["a"], S.v["b"], S.v["total"]) == (11, 2, 66 + 12)
