"""A trick's order of play: from the table of rotations kept for up to MAX_ROTATED seats, by
slices beyond; either way the games the plain reference (seats sorted from the leader) plays."""
from __future__ import annotations

import pytest

from helpers import load_text, trick_ruleset
from interpreter.mechanics.tricks import MAX_ROTATED, rotations
from test_flowgen import lockstep


def test_each_rotation_is_the_seats_from_the_leader_on():
    table = rotations(6)
    assert table[0] == ()
    assert table[4][0] == (0, 1, 2, 3) and table[4][2] == (2, 3, 0, 1) and table[4][3] == (3, 0, 1, 2)
    assert all(table[n][k] == tuple(range(k, n)) + tuple(range(k)) for n in range(7) for k in range(n))


@pytest.mark.parametrize("n,plays", [(3, 1), (5, 2), (MAX_ROTATED, 1), (MAX_ROTATED + 1, 1), (MAX_ROTATED + 1, 2)])
def test_a_trick_plays_in_order_from_the_leader_with_or_without_the_table(tmp_path, n, plays):
    rules = load_text(tmp_path, trick_ruleset(game="order", players=n, ranks=2 * n, leader=1, trick=f"plays: {plays}"),
                      "order.yaml")
    assert ("[S.n][leader]" in rules.module_source) == (n <= MAX_ROTATED)
    for seed in range(3):
        assert lockstep(rules, n, seed) >= 4 * n // plays
