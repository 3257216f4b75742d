"""Engine rules stated one by one: what the step budget counts (from a game's first step,
forced moves too), copy on write between clones, and the keys of cards sharing a label."""
from __future__ import annotations

import pytest

from interpreter.engine.ruleset import card_keys
from interpreter.errors import BudgetExceeded
from test_mechanics import load


# ---------------------------------------------------------------------- the step budget
@pytest.mark.parametrize("flow, steps", [
    ("flow:\n  - set: {x: 1}\n  - set: {x: 2}\n", 1),                          # one effect list: one step
    ("flow:\n  - repeat: 4\n    steps: [{set: {x: 'x + 1'}}]\n", 5),           # the repeat, and each pass
])
def test_the_budget_counts_every_step_from_the_game_s_first(tmp_path, flow, steps):
    S = load(tmp_path, f"limits: {{steps: {steps}}}\n" + flow).new_game(2)
    assert S.is_terminal() and S.steps == steps
    if steps > 1:   # (1 is the smallest budget)
        with pytest.raises(BudgetExceeded, match=f"step budget of {steps - 1} steps"):
            load(tmp_path, f"limits: {{steps: {steps - 1}}}\n" + flow, name="less.yaml").new_game(2)


def test_a_forced_move_counts_against_the_budget_even_as_the_game_s_last(tmp_path):
    flow = "auto_forced: true\nflow:\n  - choose: {who: 0, options: '[7]', as: x}\n"
    took = load(tmp_path, flow).new_game(2).steps        # the choice's step and its forced move
    S = load(tmp_path, f"limits: {{steps: {took}}}\n" + flow, name="enough.yaml").new_game(2)
    assert S.is_terminal() and S.v["x"] == 7
    with pytest.raises(BudgetExceeded):
        load(tmp_path, f"limits: {{steps: {took - 1}}}\n" + flow, name="short.yaml").new_game(2)


# ---------------------------------------------------------------------- copy on write
def test_a_clone_s_writer_copies_a_shared_list_once(tmp_path):
    S = load(tmp_path, "flow:\n  - choose: {who: 0, options: '[1]', as: x}\n").new_game(2)
    T = S.clone()
    for name in ("deck", "hand", "points"):
        mine = T.own(name)
        assert T.own(name) is mine                                     # copied once, then this state's
        assert mine is not (S.z.get(name) or S.c.get(name))            # never the other state's list
    T.own("deck").pop()
    T.own("points")[1] = 9
    assert len(T.z["deck"]) == len(S.z["deck"]) - 1 and S.c["points"] == [0, 0] and T.c["points"] == [0, 9]


# ---------------------------------------------------------------------- card keys
def test_cards_sharing_a_label_are_keyed_by_their_rank_among_them():
    assert card_keys(["light", "dark", "light", "sea", "light"]) == ("light#1", "dark", "light#2", "sea", "light#3")
