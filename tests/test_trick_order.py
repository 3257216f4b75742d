"""A trick's order of play: from the table of rotations kept for up to MAX_ROTATED seats, by
slices beyond; either way the games the plain reference (seats sorted from the leader) plays."""
from __future__ import annotations

import json

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


def test_a_seat_with_nothing_left_is_passed_over_and_the_trick_names_who_played(tmp_path):
    """Seat 1 holds one card, the others four: from the second trick it is passed over. What the
    trick shows (its seats), who wins it, and a state saved and loaded mid-trick all follow the
    seats that played, not the order of seats."""
    from interpreter.engine.state import from_dict
    rules = load_text(tmp_path, trick_ruleset(game="skip", players=3).replace(
        "  - deal: {from: deck, to: hand, count: 4}\n",
        "  - deal: {from: deck, to: hand, count: 4}\n  - move: {from: 'hand[1]', to: deck, count: 3}\n"), "skip.yaml")
    rank, suit = rules.attr_tables["rank"], rules.attr_tables["suit"]
    passed_over = 0
    for seed in range(6):
        S = rules.new_game(3, seed=seed, record=True)
        plays: list = []   # (seat, card) of the trick in progress, from the events
        seen = 0
        while not S.is_terminal():
            assert [t["seat"] for t in S.observation(None).get("trick", [])] == [p for p, _ in plays]
            if plays and len(plays) < 3:   # mid-trick: a saved state plays on alike
                T = from_dict(rules, json.loads(S.to_json()))
                T.apply_index(0)
                U = S.clone().apply_index(0)
                assert T.to_json() == U.to_json()
            S.apply_index(seed % len(S.dec[1]))
            for e in S.ev[seen:]:
                if e["ev"] == "play":
                    plays.append((e["who"], rules.card_ids[e["cards"][0]] if isinstance(e["cards"][0], str)
                                  else e["cards"][0]))
                elif e["ev"] == "trick":
                    led = suit[plays[0][1]]
                    best = max((rank[c], -i, p) for i, (p, c) in enumerate(plays) if suit[c] == led)
                    assert e["winner"] == best[2]
                    passed_over += len(plays) < 3
                    plays = []
            seen = len(S.ev)
    assert passed_over >= 6 * 2   # (each game passes seat 1 over in its last three tricks)
