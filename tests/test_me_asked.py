"""``me`` in an asking step's own expressions is the seat asked (docs/reference.md "Flow and steps"):
each step kind asked of another seat than the turn's player (``who: left(me)``, read where the step
stands) offers what its expressions give for the seat asked, and its generated module plays as its
plain reference."""
from __future__ import annotations

import random
import textwrap

import pytest

from fuzzing.lockstep import reference
from helpers import load_text, tiny_ruleset

BASE = tiny_ruleset("""
  hand: {owner: player, visible: all, sorted: true}
  pile: {visible: all}
counters:
  points: {owner: player, start: 5}
  gold: {owner: player, start: 5}
  joker: {owner: player, start: 1}
vars:
  x: {type: int, start: 0}
  y: {type: int, start: 0}
  spot: card
  _outcome: str
  bids: "list[int]"
  picks: "list[card]"
  q: player
""", players=(3, 3))
DEALT = "  - deal: {from: deck, to: hand, count: 3}\n"


def load(tmp_path, flow: str, deal: bool = True):
    return load_text(tmp_path, BASE + "flow:\n" + (DEALT if deal else "") + textwrap.indent(textwrap.dedent(flow), "  "))


def hand(r, S, seat) -> list:
    return [r.card_labels[c] for c in S.z["hand"][seat]]


def turn_of_seat_0(steps: str) -> str:
    """``steps`` in seat 0's turn only (the turn's player: me = 0 where the step stands)."""
    return "- turns:\n    skip: \"me != 0\"\n    steps:\n" + textwrap.indent(textwrap.dedent(steps), "      ")


def test_a_choose_offers_the_options_of_the_seat_asked_and_its_then_runs_as_it(tmp_path):
    r = load(tmp_path, turn_of_seat_0("""
        - set: {y: "me + 7"}             # (effects before: the choose asked in place, its sequence's own code)
        - choose: {who: "left(me)", options: "[me * 10 + 1, me * 10 + 2]", as: x, then: [{set: {y: me}}]}
    """))
    S = r.new_game(3)
    assert S.current_player() == 1 and S.legal_actions() == ["11", "12"]   # (me = the turn's player: 1, 2)
    S.apply("12")
    assert S.v["x"] == 12 and S.v["y"] == 1 and S.is_terminal()


def test_a_choose_reads_the_seat_asked_s_own_zone_written_bare(tmp_path):
    r = load(tmp_path, turn_of_seat_0("- choose: {who: 2, options: hand, as: spot}"))
    S = r.new_game(3)
    assert S.current_player() == 2 and S.legal_actions() == hand(r, S, 2) != hand(r, S, 0)


def test_a_choose_asked_outside_any_turn_may_read_me(tmp_path):
    """Where no player acts, a choose asked of a seat reads ``me`` in its options (they were a
    located error: 'hand' belongs to each player)."""
    r = load(tmp_path, "- choose: {who: 1, options: \"hand where rank > 1 or me == 0\", as: spot}")
    S = r.new_game(3)
    assert S.current_player() == 1
    assert S.legal_actions() == [c for c in hand(r, S, 1) if int(c[:-1]) > 1]


def test_a_choose_asked_of_nobody_does_not_read_its_options(tmp_path):
    """``who`` is found first: none, and the step does not apply; its options are not asked for
    nobody (here they would divide by zero)."""
    r = load(tmp_path, turn_of_seat_0("""
        - set: {y: 1}
        - choose: {who: "none if y == 1 else me", options: "[10 // count(pile)]", as: x, if_none: skip}
        - choose: {who: "left(me)", options: "[count(hand) + me]", as: x}
    """))
    S = r.new_game(3)
    assert S.current_player() == 1 and S.legal_actions() == ["4"]


def test_a_branch_offers_the_alternatives_whose_condition_holds_for_the_seat_asked(tmp_path):
    """Its conditions read me as the seat asked; the chosen alternative's steps run for the seat
    that chose (me = ``as``)."""
    r = load(tmp_path, turn_of_seat_0("""
        - branch:
            who: "left(me)"
            as: chooser
            options:
              mine:    {if: "me == 0", steps: [{gain: {counter: points}}]}
              yours:   {if: "me == 1", steps: [{gain: {counter: points, amount: 10}}]}
              counted: {if: "count(hand) == 3 and me > 0", steps: []}
              always:  {}
    """))
    S = r.new_game(3)
    assert S.current_player() == 1 and S.legal_actions() == ["yours", "counted", "always"]
    S.apply("yours")
    assert S.c["points"] == [5, 15, 5] and S.v["chooser"] == 1 and S.is_terminal()


def test_a_branch_s_chosen_steps_act_on_what_its_condition_read(tmp_path):
    """A guard reading the chooser's hand and steps moving from it: the same hand (the steps
    read the turn's player's, emptied, before); a step nested there asks the chooser (who: me by
    default), and after the branch me is the turn's player again."""
    r = load(tmp_path, turn_of_seat_0("""
        - move: {from: hand, to: pile, count: 3}
        - branch:
            who: "left(me)"
            as: giver
            options:
              discard:
                if: "count(hand) > 0"
                steps:
                  - move: {from: hand, to: pile, count: 1}
                  - choose: {options: hand, as: spot}
                  - set: {y: "giver * 10 + me"}
              keep: {}
        - set: {x: "me + 7"}
    """))
    S = r.new_game(3)
    assert S.current_player() == 1 and S.legal_actions() == ["discard", "keep"]
    S.apply("discard")
    assert [len(h) for h in S.z["hand"]] == [0, 2, 3] and len(S.z["pile"]) == 4
    assert S.current_player() == 1 and S.legal_actions() == hand(r, S, 1)
    S.apply(S.legal_actions()[0])
    assert S.v["y"] == 11 and S.v["giver"] == 1 and S.v["x"] == 7 and S.is_terminal()


def test_a_branch_s_chooser_read_by_an_end_condition_is_checked_before_its_steps(tmp_path):
    """The seat that chose is a variable like any other: an end condition reading it is checked
    once it is set, before the chosen steps run, in the module as in its reference."""
    text = BASE + "flow:\n" + DEALT + textwrap.indent(turn_of_seat_0("""
        - branch: {who: "left(me)", as: chooser, options: {a: {steps: [{gain: {counter: points}}]}, b: {}}}
    """), "  ") + "end_when: [\"chooser == 1\"]\n"
    r = load_text(tmp_path, text)
    for rules in (r, reference(r)):
        S = rules.new_game(3)
        S.apply("a")
        assert S.is_terminal() and S.c["points"] == [5, 5, 5]


def test_a_branch_asked_outside_any_turn_may_read_me(tmp_path):
    r = load(tmp_path, "- branch: {who: 2, options: {a: {if: \"me == 2\"}, b: {if: \"me != 2\"}}}", deal=False)
    S = r.new_game(3)
    assert S.current_player() == 2 and S.legal_actions() == ["a"]


def test_a_pick_reads_its_zones_and_filter_for_the_picker(tmp_path):
    r = load(tmp_path, turn_of_seat_0("- pick: {who: \"left(me)\", from: hand, to: pile, where: \"rank > me\", count: \"me\"}"))
    S = r.new_game(3)
    assert S.current_player() == 1 and S.legal_actions() == [c for c in hand(r, S, 1) if int(c[:-1]) > 1]


def test_a_grid_prices_its_spaces_for_the_seat_asked(tmp_path):
    r = load(tmp_path, turn_of_seat_0("""
        - grid: {who: "left(me)", zone: deck, rows: 2, where: "rank == me + 1", cost: "me * 2", pay: points,
                 as: spot, pass: false}
    """), deal=False)
    S = r.new_game(3)
    assert S.current_player() == 1 and [a.split(":")[1] for a in S.legal_actions()] == ["2A", "2B"]
    S.apply(S.legal_actions()[0])
    assert S.c["points"] == [5, 3, 5]


def test_a_grid_labels_its_spaces_by_its_rows_for_the_seat_asked(tmp_path):
    r = load(tmp_path, turn_of_seat_0("""
        - grid: {who: "left(me)", zone: deck, rows: "me + 1", where: "rank == 1", cost: 0, pay: points, as: spot}
    """), deal=False)
    S = r.new_game(3)
    deck = S.z["deck"]
    assert S.legal_actions() == [f"c{i // 2 + 1}r{i % 2 + 1}:{r.card_labels[c]}" for i, c in enumerate(deck)
                                 if r.card_labels[c].startswith("1")] + ["pass"]


def test_a_pay_owes_what_its_costs_give_for_the_payer(tmp_path):
    r = load(tmp_path, turn_of_seat_0("- pay: {who: \"left(me)\", costs: {gold: \"me + 1\"}, joker: joker}"), deal=False)
    S = r.new_game(3)
    asked = 0
    while not S.is_terminal():
        assert S.current_player() == 1 and S.legal_actions() == ["gold", "joker"]
        S.apply("gold")
        asked += 1
    assert asked == 2 and S.c["gold"] == [5, 3, 5]


def test_an_attempt_offers_its_targets_and_rolls_its_chances_for_the_actor(tmp_path):
    r = load(tmp_path, turn_of_seat_0("""
        - attempt:
            who: "left(me)"
            target: {from: hand, as: spot}
            outcomes: {hit: {chance: me, if: "me == 1"}, miss: rest}
            as: _outcome
    """))
    S = r.new_game(3)
    assert S.current_player() == 1 and S.legal_actions() == sorted(hand(r, S, 1), key=r.card_id)
    S.apply(S.legal_actions()[0])
    assert S.v["_outcome"] == "hit"   # (for seat 0, the turn's player, no hit is offered: a certain miss)


def test_a_pass_sends_each_giver_s_cards_to_its_to_with_me_the_giver(tmp_path):
    r = load(tmp_path, turn_of_seat_0("- pass: {from: hand, players: \"[1]\", count: 1, to: \"left(me)\"}"))
    S = r.new_game(3)
    assert S.current_player() == 1 and S.legal_actions() == hand(r, S, 1)
    card = S.legal_actions()[0]
    S.apply(card)
    assert card in hand(r, S, 2) and len(hand(r, S, 0)) == 3


def test_a_simultaneous_choice_offers_each_chooser_its_own_options(tmp_path):
    r = load(tmp_path, "- choose: {options: \"[me, me + 10]\", as: bids, simultaneous: true}", deal=False)
    S = r.new_game(3)
    for seat in range(3):
        assert S.current_player() == seat and S.legal_actions() == [str(seat), str(seat + 10)]
        S.apply(str(seat + 10))
    assert S.v["bids"] == [10, 11, 12]


def test_a_simultaneous_choice_s_then_runs_only_for_the_seats_that_chose(tmp_path):
    """A seat with no option chooses nothing (its none) and its then: does not run; a seat that
    chose the option none does run it. (Its options read again after the reveal would differ:
    they read the variable revealed into.)"""
    r = load(tmp_path, """
        - choose: {options: "[] if me == 1 or bids != none else [none, me]", as: bids, simultaneous: true,
                   then: [{gain: {counter: points, amount: 10}}]}
    """, deal=False)
    for rules in (r, reference(r)):
        S = rules.new_game(3)
        assert S.current_player() == 0 and S.legal_actions() == ["none", "0"]
        S.apply("none")
        assert S.current_player() == 2
        S.apply("2")
        assert S.is_terminal() and S.v["bids"] == [None, None, 2] and S.c["points"] == [15, 5, 15]


def test_a_trick_offers_each_player_the_cards_playable_for_it(tmp_path):
    r = load(tmp_path, """
        - tricks: {hand: hand, table: pile, collect: hand, leader: 1, rank: rank, count: 1,
                   playable: "rank > me"}
    """)
    S = r.new_game(3)
    assert S.current_player() == 1 and S.legal_actions() == [c for c in hand(r, S, 1) if int(c[:-1]) > 1]


SHUFFLED = "- shuffle: deck\n- deal: {from: deck, to: hand, count: 3}\n"
FLOWS = [   # (each a shuffled deal, so that seeds deal differently)
    SHUFFLED + """- turns:
    steps:
      - set: {y: "me + 7"}
      - choose: {who: "left(me)", options: "hand where rank > me + 1", as: spot, if_none: skip,
                 then: [{set: {y: me}}, {move: {from: hand, to: pile, cards: "[spot]"}}]}
      - choose: {who: "none if y == 1 else right(me)", options: "[me, count(hand)]", as: x, prompt: second}
      - branch:
          who: "left(me)"
          as: taker
          options:
            a: {if: "me == 1 and count(hand) > 1", steps: [{gain: {counter: points}},
                                                           {choose: {options: "[me, count(hand)]", as: x, prompt: nested}}]}
            b: {if: "me != 1", steps: [{move: {from: hand, to: pile, count: 1}}]}
            c: {if: "count(hand) > 2"}
""",
    SHUFFLED + "- turns:\n    steps:\n      - choose: {who: \"right(me)\", options: \"hand\", as: spot, if_none: skip}\n"
    "      - move: {from: \"hand[right(me)]\", to: pile, cards: \"[spot]\"}\n",
]
# what each flow's random games must ask, over the seeds: (prompt, label) pairs, a label None for any
ASKED = [{("spot", None), ("second", None), ("nested", None), ("action", "a"), ("action", "b"), ("action", "c")},
         {("spot", None)}]


@pytest.mark.parametrize("k", range(len(FLOWS)), ids=["branches", "turns"])
def test_the_module_plays_as_its_reference(tmp_path, k):
    """Each path taken (asserted): a choose skipped (no option, or asked of nobody) or asked, each
    alternative of the branch taken and its nested question asked of the seat that chose."""
    r = load(tmp_path, FLOWS[k], deal=False)
    ref = reference(r)
    asked, deals, skipped = set(), set(), 0
    for seed in range(8):
        a, b, rnd = r.new_game(3, seed=seed, record=True), ref.new_game(3, seed=seed, record=True), random.Random(seed)
        deals.add(str(a.z["hand"]))
        questions = 0
        while not a.is_terminal():
            assert a.to_json() == b.to_json() and a.ev == b.ev and a.legal_actions() == b.legal_actions()
            i = rnd.randrange(len(a.dec[1]))
            label = a.legal_actions()[i]
            asked |= {(a.prompt(), None), (a.prompt(), label)}
            a.apply_index(i)
            b.apply_index(i)
            questions += 1
        skipped += questions < 4 * 3   # (flow 0: four questions a turn where none is skipped)
        assert b.is_terminal() and a.to_json() == b.to_json()
    assert ASKED[k] <= asked and len(deals) > 1 and (k == 1 or skipped > 0)


def test_explain_words_what_a_step_asked_of_another_seat_reads_as_that_seat_s(tmp_path):
    """``rulebook explain``: "their hand" where the seat asked is another than the acting player,
    "they" as a verb's subject and "them" as an object; its then: and a branch's chosen steps
    "as that player"."""
    from interpreter.tools.explain import explain
    r = load(tmp_path, turn_of_seat_0("""
        - choose: {who: "left(me)", options: hand, as: spot, then: [{move: {from: hand, to: pile, cards: "[spot]"}}]}
        - branch:
            who: "left(me)"
            as: giver
            options: {a: {if: "count(hand) > 1 and me != 2", steps: [{move: {from: hand, to: pile, count: 1}}]}, b: {}}
        - choose: {who: "left(me)", options: "players where it != me", as: q}
        - choose: {who: "left(me)", options: "hand where rank == me + 1", as: spot}
        - choose: {options: hand, as: picks, simultaneous: true}
        - pick: {from: hand, to: pile, count: 1}
    """))
    text = explain(r)
    assert "The player on your left chooses the spot from the cards in their hand." in text
    assert "Then, as that player:\n" in text
    assert "if there is more than 1 card in their hand and they are not 2, as that player (*giver*):\n" in text
    assert "- Move the top card of your hand to the pile." in text
    assert "from the players other than them." in text and "whose rank is them plus 1." in text
    assert "each choose, at once and in secret, the picks from the cards in their hand;" in text
    assert "You pick 1 of the cards in your hand" in text
