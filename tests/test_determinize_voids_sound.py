"""What the table learns of a hand that could not follow is true and bounded (engine/voids.py):
the led value's cards read in the state the hand's options were read in, before the card
leaves it and before the table's triggers run; nothing learnt where the follow key reads what
not every seat sees; a key that reads the state read for every card within a bound of work,
never charged (a game's steps the same with knowledge kept or not); a playout's or look
ahead's copy keeps no record."""
from __future__ import annotations

import json
import random

import pytest

import interpreter
from interpreter.engine import voids
from interpreter.play.agents.evaluation import samples
from interpreter.play.agents.view import SeatView
from fuzzing.lockstep import reference
from helpers import load_text

GAME = """
game: g
players: {min: 3, max: 3}
components:
  cards: {attributes: {suit: [A, B, C, D], rank: 1..RANKS}, label: "{rank}{suit}"}
zones:
  deck: {start: [cards], visible: none}
  secret: {owner: none, visible: SECRET}
  hand: {owner: player, visible: owner}
  table: {owner: none, visible: all}
  taken: {owner: player, visible: all}
counters:
  points: {owner: player, start: 0, visible: all}
  odd: {start: 0, visible: ODD}
vars:
  _t: {type: int, start: 0}
  t: {type: int, start: 0}
TRIGGERS
setup:
  - shuffle: deck
  - move: {from: deck, to: secret, count: 1}
  - deal: {from: deck, to: hand, count: DEALT}
flow:
  - tricks:
      hand: hand
      table: table
      leader: 0
      follow: FOLLOW
      rank: rank
      collect: taken
      on_win: [{gain: {counter: points}}, {gain: {counter: odd}}, {set: {_t: "_t + 1"}}, {set: {t: "t + 1"}}]
scoring:
  categories: {points: points}
"""


def game(tmp_path, follow: str = "suit", *, ranks: int = 6, dealt: int = 4, secret: str = "none", odd: str = "none",
         triggers: str = "", name: str = "g.yaml"):
    text = (GAME.replace("RANKS", str(ranks)).replace("DEALT", str(dealt)).replace("SECRET", secret)
            .replace("ODD", odd).replace("TRIGGERS", triggers).replace("FOLLOW", json.dumps(follow)))
    return load_text(tmp_path, text, name)


def played(rules, seeds, check, players: int = 3) -> int:
    """Random games of ``rules`` with knowledge kept, the generated module and the plain
    reference in lockstep; ``check(before, S)`` after each move. The voids recorded in all."""
    ref, total = reference(rules), 0
    for seed in seeds:
        S, R = rules.new_game(players, seed, knowledge=True), ref.new_game(players, seed, knowledge=True)
        rnd = random.Random(seed)
        while not S.over:
            before, i = S.clone(), rnd.randrange(len(S.dec[1]))
            S.apply_index(i)
            R.apply_index(i)
            assert S.to_json() == R.to_json()
            check(before, S)
            total += len(set(S.vd) - set(before.vd))
    return total


def holds(before, S) -> None:
    """Every recorded void holds, and the state saves and loads again."""
    for zone, owner, cards, _ in S.vd:
        assert cards.isdisjoint(S.z[zone][owner]), (zone, owner)
    S.rules.state_from_json(S.to_json())


REFILL = "triggers:\n  refill:\n    on_enter: table\n    do: [{deal: {from: deck, to: hand, count: 1}}]\n"


def test_a_card_a_table_trigger_deals_into_the_hand_drops_what_the_play_taught(tmp_path):
    # a card played onto the table deals one card into every hand: what the play taught of the
    # hand that did not follow (read before) no longer holds once a card entered it
    rules = game(tmp_path, triggers=REFILL, dealt=1)
    played(rules, range(60), holds)


def test_a_key_reading_the_table_is_read_as_the_options_read_it(tmp_path):
    # the led card's value is its suit while the table holds less than two cards, then 'Z': as
    # the hand's options read it, before the card played joins the table
    rules = game(tmp_path, "suit if count(table) < 2 else 'Z'")
    suit = rules.attr_tables["suit"]
    seen = []

    def check(before, S):
        holds(before, S)
        new = set(S.vd) - set(before.vd)
        if new:
            (zone, owner, cards, _), = new
            table = before.z["table"]
            assert len(table) < 2   # a third card is 'Z' as the led one: it always follows
            known = {c for entry in before.vd if entry[:2] == (zone, owner) for c in entry[2]}   # (joined)
            assert cards == known | {c for c in range(len(suit)) if suit[c] == suit[table[0]]}
            seen.append(len(table))
    assert played(rules, range(30), check) > 0
    assert 1 in seen


@pytest.mark.parametrize("reads", ["secret where rank == 1", "odd", "_t"])
def test_a_key_reading_what_not_every_seat_sees_teaches_nothing(tmp_path, reads):
    # which cards follow depends on a face-down card, a hidden counter or a private variable: the
    # cards a void names would tell of it; the same key over what every seat sees teaches
    key = {"secret where rank == 1": "count(secret where rank == 1) == 0", "odd": "odd < 2",
           "_t": "_t < 2"}[reads]
    follow = f"suit if {key} else ('AB' if suit in ['A', 'B'] else 'CD')"
    hidden = game(tmp_path, follow, ranks=5, dealt=5, name="hidden.yaml")
    assert played(hidden, range(20), holds) == 0
    shown = game(tmp_path, follow.replace("_t", "t"), ranks=5, dealt=5, secret="all", odd="all", name="shown.yaml")
    assert played(shown, range(20), holds) > 0


COSTLY = "suit if count(secret where rank == 0) == 0 else 'A'"


def first_void(rules, seed: int, knowledge: bool):
    """The steps charged by the first play of a game at random that records a void with
    knowledge kept (the same play in a game without), and the entry."""
    S = rules.new_game(3, seed, knowledge=knowledge)
    K = rules.new_game(3, seed, knowledge=True)
    rnd = random.Random(seed)
    while not K.over:
        i, steps, vd = rnd.randrange(len(K.dec[1])), S.steps, K.vd
        K.apply_index(i)
        S.apply_index(i)
        if set(K.vd) - set(vd):
            return S.steps - steps, (set(K.vd) - set(vd)).pop()
    return None


CHEAP = "suit if count(secret) < 1000 else 'A'"   # (reads the state: a zone's size, a few operations a card)


def test_a_key_reading_the_state_reads_every_card_within_its_bound_and_costs_no_step(tmp_path):
    # 2,400 cards: a key reading a zone's size is read for each of them at a void (a quarter of
    # them named: the led suit's); one counting a pile of 300 would take more than VOID_WORK
    # worst-case operations and learns nothing. Both keys name the suit (no card of rank 0), so
    # the two games play alike; neither void is charged: the steps of a game with knowledge kept
    # are those of the same game without
    cheap = game(tmp_path, CHEAP, ranks=600, secret="all", name="cheap.yaml")
    costly = game(tmp_path, COSTLY, ranks=600, secret="all", name="costly.yaml")
    cards = len(cheap.card_labels)
    work = [next(s for s in r.steps if getattr(s, "follow", None) is not None).follow.work for r in (cheap, costly)]
    assert cards * work[0] <= voids.VOID_WORK < cards * work[1]
    seed = next(seed for seed in range(20) if first_void(cheap, seed, True))
    (with_kept, entry), (without, _) = first_void(cheap, seed, True), first_void(cheap, seed, False)
    assert with_kept == without and len(entry[2]) == cards // 4
    S, K = costly.new_game(3, seed), costly.new_game(3, seed, knowledge=True)
    rnd = random.Random(seed)
    while not S.over:
        i = rnd.randrange(len(S.dec[1]))
        S.apply_index(i)
        K.apply_index(i)
        assert K.steps == S.steps and not K.vd


def test_a_game_with_knowledge_kept_plays_the_steps_of_one_without(tmp_path):
    # a budget the game without knowledge meets exactly: the game with knowledge (its voids read
    # at every card that does not follow) ends on the same steps
    rules = game(tmp_path, CHEAP, ranks=600, secret="all")
    learnt = 0
    for seed in range(3):
        S, K = rules.new_game(3, seed), rules.new_game(3, seed, knowledge=True)
        rnd = random.Random(seed)
        while not S.over:
            i = rnd.randrange(len(S.dec[1]))
            S.apply_index(i)
            K.apply_index(i)
            assert K.steps == S.steps
            learnt += bool(K.vd)
    assert learnt


def test_a_look_aheads_copy_keeps_no_voids_and_saves():
    # a world a look ahead plays keeps no record of who knows where cards are, nor so of voids
    rules = interpreter.load("hearts")
    for seed in range(20):
        S, rnd = rules.new_game(4, seed, knowledge=True), random.Random(seed)
        while not S.over and not S.vd:
            S.apply_index(rnd.randrange(len(S.dec[1])))
        if S.vd and not S.over:
            break
    seat = S.current_player()
    assert any(entry[3] >> seat & 1 for entry in S.vd)   # (its worlds keep what it saw)
    for D, _ in samples(SeatView(S, seat), random.Random(0), 3):
        assert D.kn is None and D.vd == ()
        rules.state_from_json(D.to_json())
