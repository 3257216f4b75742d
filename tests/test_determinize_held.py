"""What a running step read of the cards a hidden zone holds is counted again in a determinized
world on the world's own deal (each kind's ``hidden_values``, engine/knowledge.py), never kept
at its true value: how many cards a zone holds every seat sees, which cards it holds not
(engine/sight.py ``reads_unseen``). In the generated module and the plain reference alike."""
from __future__ import annotations

import json
import random

from fuzzing.lockstep import reference
from helpers import load_text
from interpreter.engine.sight import reads_unseen
from interpreter.mechanics.recounts import seats_again
from interpreter.mechanics.passing import COUNT, GIVERS

HIDDEN = """
game: held
players: {min: 4, max: 4}
counters:
  gold: {owner: player, start: 20}
  joker: {owner: player, start: 20}
define:
  high: "hand where n > 6"
  held: "count(hand[0])"
components:
  chip: {attributes: {n: 1..12}, label: "c{n}"}
zones:
  deck: {visible: none, start: [chip]}
  hand: {owner: player, visible: owner}
  pile: {start: []}
setup:
  - shuffle: deck
  - deal: {from: deck, to: hand, count: 4}
flow:
  - STEP
  - choose: {who: 1, options: "[1, 2]", as: g, prompt: after}
scoring:
  categories:
    g: gold
"""


def _rules(tmp_path, step: str):
    rules = load_text(tmp_path, HIDDEN.replace("STEP", step))
    return [rules, reference(rules)]


def _high(D, p: int) -> int:
    return sum(1 for c in D.z["hand"][p] if int(D.rules.card_labels[c][1:]) > 6)


def _worlds(S, seat: int, k: int = 8) -> list:
    return [S.determinize(seat, random.Random(i)) for i in range(k)]


def test_a_pay_whose_cost_reads_a_hidden_hands_cards_owes_what_the_worlds_hand_makes(tmp_path):
    # seat 1 cannot see hand[0]: each of its worlds owes the high cards of the hand it dealt
    # seat 0, plus one, not the true debt
    for rules in _rules(tmp_path, 'pay: {who: 0, costs: {gold: "count(high) + 1"}, joker: joker}'):
        for seed in range(4):
            S = rules.new_game(4, seed, knowledge=True)
            true = S.stack[-1][2]
            assert true == [_high(S, 0) + 1]
            owed = [(D.stack[-1][2][0], _high(D, 0) + 1) for D in _worlds(S, 1)]
            assert all(a == b for a, b in owed), owed
            assert {a for a, _ in owed} != {true[0]}, owed


def test_turns_whose_players_read_hidden_hands_cards_count_the_lap_on_the_worlds_deal(tmp_path):
    # seats 2 and 3 play this lap where they hold a card above 10: seat 1 sees neither hand, so
    # its worlds' laps are those of the hands they dealt, not the true one
    step = 'turns: {players: "players where count(hand[it] where n > 10) > 0 or it < 2", steps: [{choose: {options: "[1, 2]", as: g, prompt: go}}]}'
    for rules in _rules(tmp_path, step):
        laps = set()
        for seed in range(5):
            S = rules.new_game(4, seed, knowledge=True)
            S.apply_index(0)   # seat 0 has played: seat 1 asked
            for D in _worlds(S, 1, 6):
                lap = list(next(f for f in D.stack if len(f) == 5)[1])
                assert lap == [0, 1, *(p for p in (2, 3) if any(int(D.rules.card_labels[c][1:]) > 10
                                                                for c in D.z["hand"][p]))], lap
                laps.add(tuple(lap))
        assert len(laps) > 1   # (the worlds' hands differ, and so do their laps)


def test_a_pass_whose_givers_and_count_read_hidden_cards_counts_them_on_the_worlds_deal(tmp_path):
    # seat 1 sees neither hand[0] (the count) nor hands 2 and 3 (who gives): its worlds count
    # both on the hands they dealt
    step = ('pass: {from: hand, to: "left(me)", count: "count(hand[0] where n > 6) + 1", '
            'players: "players where it < 2 or count(hand[it] where n > 10) > 0"}')
    for rules in _rules(tmp_path, step):
        for seed in range(4):
            S = rules.new_game(4, seed, knowledge=True)
            for D in _worlds(S, 1, 6):
                frame = D.stack[-1]
                assert frame[COUNT] == _high(D, 0) + 1
                assert list(frame[GIVERS]) == [0, 1, *(p for p in (2, 3) if any(
                    int(D.rules.card_labels[c][1:]) > 10 for c in D.z["hand"][p]))]


def test_a_repeat_counting_hidden_cards_runs_the_worlds_count(tmp_path):
    step = '{repeat: "count(hand[0] where n > 6)", steps: [{choose: {who: 1, options: "[1, 2]", as: g, prompt: wait}}]}'
    for rules in _rules(tmp_path, step):
        for seed in (0, 1, 2):   # (hand[0] holds a high card: seat 1 is asked in the first pass)
            S = rules.new_game(4, seed, knowledge=True)
            assert _high(S, 0) > 0 and S.current_player() == 1
            counts = [(next(f for f in D.stack if len(f) == 3)[2], _high(D, 0)) for D in _worlds(S, 1, 6)]
            # (never fewer passes than the one begun: a world whose hand holds no high card runs it)
            assert all(a == max(b, 1) for a, b in counts) and {a for a, _ in counts} != {_high(S, 0)}, counts


def test_what_an_expression_reads_of_a_hidden_zone_tells_its_count_from_its_cards(tmp_path):
    rules = load_text(tmp_path, HIDDEN.replace("STEP", "choose: {who: 0, options: '[1]', as: g, prompt: x}"))
    pay = 'pay: {{who: 0, costs: {{gold: "{}"}}, joker: joker}}'
    unseen = {}
    for text in ("count(hand[0])", "count(hand[1]) + count(me.hand) + 1", "held + 1", "count(pile where n > 3)",
                 "count(hand[0] where n > 6)", "count(high)", "count(hand[0]) + count(hand[0] where n > 1)",
                 "count(hand[count(deck where n > 3) % 4])", "first(hand[0]).n", "held + count(high)"):
        ruleset = load_text(tmp_path, HIDDEN.replace("STEP", pay.format(text)))
        fn = next(s for s in ruleset.steps if s.kind == "pay").cost_fns[0]
        unseen[text] = reads_unseen(ruleset, fn)
    assert rules.visibility.zone_public("pile")
    assert unseen == {"count(hand[0])": False, "count(hand[1]) + count(me.hand) + 1": False, "held + 1": False,
                      "count(pile where n > 3)": False, "count(hand[0] where n > 6)": True, "count(high)": True,
                      "count(hand[0]) + count(hand[0] where n > 1)": True,
                      "count(hand[count(deck where n > 3) % 4])": True, "first(hand[0]).n": True,
                      "held + count(high)": True}


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
