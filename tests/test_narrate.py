"""Terminal play a person can follow: what the other seats did and what it caused is told in
one line per decision, from the listening seat, no more than that seat may know."""
from __future__ import annotations

import io
import re

import interpreter
from interpreter.play.agents import HumanAgent, make_agents
from interpreter.play.logs.gamelog import play_game
from interpreter.play.display.narrate import tell


def test_a_decision_is_told_once_with_what_it_caused():
    line = {"type": "decision", "seat": 2, "prompt": "play", "action": "7H",
            "events": [{"ev": "play", "who": 2, "from": "hand", "from_owner": 2, "to": "table", "cards": ["7H"]},
                       {"ev": "trick", "winner": 0, "from": "table", "to": "taken", "to_owner": 0,
                        "cards": ["2H", "9H", "4H", "7H"]},
                       {"ev": "gain", "counter": "safe", "owner": 0, "who": 0, "amount": 1}]}
    assert tell(line) == "seat 2 plays 7H. seat 0 wins the trick (2H 9H 4H 7H). safe of seat 0 gains 1."
    assert tell(line, me=0) == "seat 2 plays 7H. you win the trick (2H 9H 4H 7H). your safe gains 1."
    assert tell(line, me=2) == "you play 7H. seat 0 wins the trick (2H 9H 4H 7H). safe of seat 0 gains 1."


def test_what_a_redacted_line_hides_stays_hidden():
    line = {"type": "decision", "seat": 1, "prompt": "pass", "action": "?",
            "events": [{"ev": "pass", "who": 1, "from": "hand", "from_owner": 1, "for": 2, "count": 1},
                       {"ev": "gain", "counter": "coins", "owner": 1, "who": 1, "hidden": True}]}
    assert tell(line, me=0) == "seat 1 passes 1 hidden card to seat 2. coins of seat 1 changes."
    choice = {"type": "decision", "seat": 1, "prompt": "bid", "action": "?", "events": []}
    assert tell(choice, me=0) == "seat 1 chooses bid in secret."
    reveal = {"type": "events", "events": [{"ev": "reveal", "var": "bid", "value": ["11", None, "13"]}]}
    assert tell(reveal, me=2) == "bid revealed: seat 0 11, you 13."   # each seat's choice by its seat


def test_a_person_at_the_terminal_hears_the_other_seats_and_nothing_hidden():
    rules = interpreter.load(interpreter.ruleset_path("diamonds"))
    out = io.StringIO()
    human = HumanAgent(seed=1, seat=0, stdin=io.StringIO("1\n" * 200), stdout=out)
    agents = [human, *make_agents("random,random,random,random", 4, 1)[1:]]
    play_game(rules, 4, 1, agents, {"params": {"rounds": 1}})
    told = [line.strip() for line in out.getvalue().splitlines() if line.startswith("  ") and not line.startswith("   ")]
    assert any(re.match(r"seat [123] plays \S+\.$", t) for t in told)                   # the others' cards
    assert any("wins the trick" in t or "you win the trick" in t for t in told)        # who won each trick
    assert any(t.startswith("you play ") for t in told)                                # the person's own, briefly
    assert "10 hidden cards dealt to hand of seat 1." in told   # (from the deck no seat sees: not named)                # others' hands stay hidden
    # a choice is told once: a hidden pass by its event alone ("passes 1 hidden card"), never also as
    # "pass: ?"; a card the person saw passed (it came to them alone) is named with it
    assert not any("pass: ?" in t for t in told if t.startswith("seat"))


def test_in_a_game_of_teams_a_teams_things_are_named_as_the_teams():
    from interpreter.play.display.narrate import owners, tell
    rules = interpreter.load(interpreter.ruleset_path("diamonds"), variant="teams")
    members = rules.team_members(4)
    team_of = {p: t for t, m in enumerate(members) for p in m}
    line = {"type": "events", "events": [{"ev": "gain", "counter": "safe", "owner": 1, "who": 1, "amount": 1},
                                         {"ev": "gain", "counter": "tricks_won", "owner": 2, "who": 2, "amount": 1}]}
    told = owners(rules, members)
    mate = next(p for p in members[1] if p != 1)
    assert tell(line, mate, told) == "your team scores 2 points for the safe. tricks won of seat 2 gain 1."
    other = next(p for p in range(4) if team_of[p] != 1)
    assert tell(line, other, told).startswith("team 1 scores 2 points for the safe")
    assert tell(line, other).startswith("safe of seat 1 gains 1")     # without the teams: the owner's number
    solo = interpreter.load(interpreter.ruleset_path("diamonds"))
    assert tell(line, 1, owners(solo, solo.team_members(4))).startswith("you score 2 points for the safe")   # teams of one: a seat's


def test_a_pick_says_where_the_cards_went_and_whose_zones_they_are():
    from interpreter.play.display.narrate import owners, tell
    rules = interpreter.load(interpreter.ruleset_path("diams"))
    told = owners(rules, rules.team_members(3))
    line = {"type": "events", "events": [
        {"ev": "pick", "who": 0, "from": "hand", "to": "safe", "cards": ["2*"], "from_owner": 0},
        {"ev": "pick", "who": 1, "from": "hand", "to": "market", "cards": ["6"], "from_owner": 1}]}
    assert tell(line, 0, told) == "you put 2* from your hand into your safe. seat 1 puts 6 from their hand into market."
    assert tell(line, 2, told).startswith("seat 0 puts 2* from their hand into their safe")


def _diams_words():
    from interpreter.play.display.narrate import owners
    rules = interpreter.load(interpreter.ruleset_path("diams"))
    return owners(rules, rules.team_members(4))


def test_a_change_of_nothing_is_not_told():
    line = {"type": "events", "events": [{"ev": "gain", "counter": "tokens", "owner": 1, "who": 1, "amount": 0},
                                         {"ev": "gain", "counter": "tokens", "owner": 2, "who": 2, "amount": 2}]}
    assert tell(line, 0) == "tokens of seat 2 gain 2."
    assert tell({"type": "events", "events": line["events"][:1]}, 0) is None


def test_a_flag_raised_and_lowered_in_one_step_is_not_told_and_a_value_is_told_once():
    line = {"type": "events", "events": [{"ev": "set", "var": "turn_over", "value": True},
                                         {"ev": "set", "var": "score_now", "value": 1},
                                         {"ev": "set", "var": "turn_over", "value": False},
                                         {"ev": "set", "var": "score_now", "value": 4}]}
    assert tell(line, 0) == "score_now is now 4."


def test_bookkeeping_variables_are_not_told_and_seats_are_named():
    told = _diams_words()   # view: vars names round, first_player and closer: excess is the engine's
    line = {"type": "events", "events": [{"ev": "set", "var": "excess", "value": -5},
                                         {"ev": "set", "var": "first_player", "value": 2}]}
    assert tell(line, 0, told) == "start player is now seat 2."   # (first_player's title)
    assert tell(line, 2, told) == "start player is now you."


def test_a_rounds_end_is_one_summary_per_counter():
    events = [{"ev": "gain", "counter": "round_score", "owner": p, "who": p, "amount": a}
              for p, a in enumerate([3, 0, 5, 1])]
    told = tell({"type": "events", "events": events}, 0, _diams_words())
    assert told == "round score: you +3, seat 2 +5, seat 3 +1."


def test_boxes_no_seat_sees_are_not_told_and_a_gather_is_counted():
    told = _diams_words()
    line = {"type": "events", "events": [
        {"ev": "move", "from": "stock", "to": "pile_bottom", "cards": ["7", "8"]},             # both face down, never seen
        {"ev": "gather", "from": ["market", "hand"], "to": "stock", "cards": ["1", "2", "3"]}]}
    assert tell(line, 0, told) == "3 cards gathered from market, hand."   # (stock's title)


def test_a_decision_is_headed_by_the_title_of_what_it_sets():
    from interpreter.play.display.narrate import owners
    rules = interpreter.load(interpreter.ruleset_path("diamonds"))
    line = {"type": "decision", "seat": 3, "prompt": "pass_count", "action": "2", "events": []}
    assert tell(line, 0, owners(rules, rules.team_members(4))) == "seat 3 chooses cards to pass: 2."
    assert tell(line, 0) == "seat 3 chooses pass_count: 2."   # (without the ruleset's words: its name)


def test_a_choice_that_caused_nothing_is_still_told_in_the_rulesets_words():
    from interpreter.play.display.narrate import choice, owners
    rules = interpreter.load(interpreter.ruleset_path("diamonds"))
    line = {"type": "decision", "seat": 0, "prompt": "pass_count", "action": "1", "events": []}
    told = owners(rules, rules.team_members(4))
    assert tell(line, 0, told) is None                       # one's own choice is not repeated...
    assert choice(line, 0, told) == "you choose cards to pass: 1."   # ...but the page says it when nothing else is
    assert choice({"type": "events"}, 0, told) is None


def test_a_counter_a_scoring_category_counts_is_told_as_points_for_it():
    from interpreter.play.display.narrate import owners
    rules = interpreter.load(interpreter.ruleset_path("diamonds"))   # showroom: showroom, safe: "safe * 2"
    told = owners(rules, rules.team_members(4))
    line = {"type": "events", "events": [{"ev": "gain", "counter": "showroom", "owner": 2, "who": 2, "amount": 3},
                                         {"ev": "lose", "counter": "safe", "owner": 0, "who": 0, "amount": 1},
                                         {"ev": "gain", "counter": "tricks_won", "owner": 1, "who": 1, "amount": 1}]}
    assert tell(line, 0, told) == ("seat 2 scores 3 points for the showroom. you lose 2 points for the safe. "
                                   "tricks won of seat 1 gain 1.")


def test_a_rounds_end_is_a_table_at_the_terminal_with_each_seats_net_change():
    from interpreter.play.display.terminal import heard
    events = [{"ev": "gain", "counter": "coins", "owner": p, "who": p, "amount": a} for p, a in enumerate([3, 0, 5, 1])]
    events += [{"ev": "lose", "counter": "coins", "owner": 2, "who": 2, "amount": 2},
               {"ev": "set", "var": "round", "value": 2}]
    lines = heard({"type": "events", "events": events}, 0, None)
    assert lines[0] == "round is now 2."
    head, row = lines[1:]
    assert head.split() == ["you", "seat", "2", "seat", "3"] and row.split() == ["coins", "+3", "+3", "+1"]
    assert head.index("you") + len("you") == row.index("+3") + len("+3")   # right-aligned under its seat


def test_a_box_the_view_hides_is_not_named_and_a_grid_choice_is_told_once():
    from interpreter.play.display.narrate import owners
    rules = interpreter.load(interpreter.ruleset_path("diamonds_club"))   # view: hide: [space_box, park_box, piece_box]
    told = owners(rules, rules.team_members(3))
    line = {"type": "decision", "seat": 2, "prompt": "buy", "action": "c2r6:R4+2h", "events": [
        {"ev": "grid", "who": 2, "space": "R4+2h", "cost": 1},
        {"ev": "move", "from": "space_box", "to": "market", "cards": ["R3", "AV"]},
        {"ev": "move", "from": "piece_box", "to": "pieces", "to_owner": 1, "cards": ["piece1"]},
        {"ev": "gather", "from": ["market"], "to": "space_box", "cards": ["R3", "AV", "DT"]}]}
    assert tell(line, 0, told) == ("seat 2 takes R4+2h for 1 coin. R3 AV placed in market. piece1 placed in playing pieces "
                                   "of seat 1. 3 cards gathered from market.")


def _club_words():
    from interpreter.play.display.narrate import owners
    rules = interpreter.load(interpreter.ruleset_path("diamonds_club"))
    return owners(rules, rules.team_members(3))


def test_a_grid_purchase_says_its_price_in_the_counter_paid_and_a_cards_counter_by_its_card():
    line = {"type": "decision", "seat": 2, "prompt": "buy", "action": "c4r2:AP", "events": [
        {"ev": "grid", "who": 2, "space": "AP", "cost": 2},
        {"ev": "gain", "counter": "filled", "owner": "light", "who": 2, "amount": 1},
        {"ev": "gain", "counter": "coins", "owner": 2, "who": 2, "amount": 1}]}
    told = tell(line, 0, _club_words())
    assert told.startswith("seat 2 takes AP for 2 coins. light: built on +1. ")   # (coins: the grid's pay:)
    assert told.endswith("coins of seat 2 gain 1.")                              # a plural title agrees
    one = {**line, "events": [{"ev": "grid", "who": 2, "space": "AP", "cost": 1}]}
    assert tell(one, 0, _club_words()) == "seat 2 takes AP for 1 coin."


def test_a_payment_unit_by_unit_is_one_sentence_and_a_pass_is_told_once():
    words = _club_words()
    line = {"type": "decision", "seat": 1, "prompt": "pay", "action": "green", "events": [
        {"ev": "pay", "who": 1, "counter": "green", "amount": 1},
        {"ev": "pay", "who": 1, "counter": "diamond", "amount": 1},
        {"ev": "pay", "who": 1, "counter": "green", "amount": 1}]}
    told = tell(line, 0, words)
    assert told.count("pays") == 1 and "chooses" not in told and told == "seat 1 pays 2 green gems and 1 diamond."
    passed = {"type": "decision", "seat": 1, "prompt": "buy", "action": "pass", "events": [
        {"ev": "grid", "who": 1, "pass": True},
        {"ev": "gain", "counter": "passed", "owner": 1, "who": 1, "amount": 1},
        {"ev": "gain", "counter": "diamond", "owner": 2, "who": 2, "amount": 1},
        {"ev": "gain", "counter": "diamond", "owner": 2, "who": 2, "amount": 1}]}
    # the pass once (not also "chooses buy: pass", nor "passed of seat 1 gains 1"); two gains in a row as one
    assert tell(passed, 0, words) == "seat 1 passes. diamonds of seat 2 gain 2."


def test_a_deal_round_by_round_is_one_sentence_per_hand():
    line = {"type": "events", "events": [
        {"ev": "deal", "from": "deck", "to": "hand", "to_owner": p, "cards": [c]} if p == 0 else
        {"ev": "deal", "from": "deck", "to": "hand", "to_owner": p, "count": 1}
        for c in ("4D", "7D") for p in range(3)]}
    assert tell(line, 0) == ("4D 7D dealt from deck to your hand. 2 hidden cards dealt from deck to hand of seat 1. "
                             "2 hidden cards dealt from deck to hand of seat 2.")
    assert line["events"][0]["cards"] == ["4D"]   # the line itself is not changed


def test_cards_moved_and_back_are_not_told_and_a_move_in_parts_is_one_sentence():
    line = {"type": "events", "events": [
        {"ev": "move", "from": "strips", "to": "layout", "cards": ["s6", "s2"]},
        {"ev": "random", "var": "face", "value": "A"},
        {"ev": "move", "from": "faces", "to": "market", "cards": ["R3", "AV"]},
        {"ev": "move", "from": "faces", "to": "market", "cards": ["DT"]},
        {"ev": "move", "from": "layout", "to": "strips", "cards": ["s2", "s6"]}]}
    told = tell(line, 0)
    assert "s6" not in told and "R3 AV DT placed in market." not in told   # (faces: a box only without words)
    assert told.count("market") == 1 and "R3 AV DT moved from faces to market." in told


def test_a_counter_named_for_what_a_seat_chose_is_not_told_again():
    line = {"type": "decision", "seat": 1, "prompt": "build", "action": "pass",
            "events": [{"ev": "gain", "counter": "passed", "owner": 1, "who": 1, "amount": 1}]}
    assert tell(line, 0, _club_words()) == "seat 1 chooses build: pass."
    assert tell(line, 1, _club_words()) is None   # your own choice, and nothing else happened


def test_a_run_of_gains_tells_each_counter_of_each_owner_once():
    events = [{"ev": "gain", "counter": "round_score", "owner": p, "who": p, "amount": a}
              for p, a in [(2, 8), (1, 3), (2, 5), (1, 0)]]
    assert tell({"type": "events", "events": events}, 0) == \
        "round_score of seat 2 gains 13. round_score of seat 1 gains 3."


def test_a_card_passed_to_the_listener_is_named_once_where_the_line_shows_it():
    line = {"type": "decision", "seat": 3, "prompt": "pass", "action": "8S",
            "events": [{"ev": "pass", "who": 3, "from": "hand", "from_owner": 3, "for": 0, "count": 1}]}
    assert tell(line, 0) == "seat 3 passes 8S to you."    # not "chooses pass: 8S. ... 1 hidden card ..."
    hidden = {**line, "action": "?"}
    assert tell(hidden, 1) == "seat 3 passes 1 hidden card to seat 0."


def test_a_track_already_at_its_last_space_and_a_transfer_of_nothing_are_not_told():
    line = {"type": "events", "events": [
        {"ev": "advance", "counter": "forest_pos", "owner": 0, "who": 0, "from": 4, "to": 4},
        {"ev": "advance", "counter": "tech_pos", "owner": 0, "who": 0, "from": 1, "to": 2},
        {"ev": "transfer", "from": "coins", "from_owner": 1, "to": "coins", "to_owner": 0, "amount": 0}]}
    assert tell(line, 0, _club_words()) == "your Technology track moves from 1 to 2."   # (nor 0 coins moved)


def test_a_set_to_the_value_the_story_last_told_is_not_told_again():
    """Love Letter sets a player's protection to no at the start of every turn: at the terminal
    (the story told in order) it is told when it changes, not each turn; told line by line with
    no story kept (a viewer jumping to a position), each set is still told."""
    import re as _re
    from interpreter.play.logs.gamelog import logged_decision
    from interpreter.play.logs.redact import Redactor
    from interpreter.play.display.narrate import owners as owners_of, told
    rules = interpreter.load(interpreter.ruleset_path("love_letter"))
    out = io.StringIO()
    human = HumanAgent(seed=3, seat=0, stdin=io.StringIO("1\n" * 400), stdout=out)
    agents = [human, *make_agents("random,random,random", 3, 3)[1:]]
    play_game(rules, 3, 3, agents, {})
    heard = [t.strip() for t in out.getvalue().splitlines() if t.startswith("  ") and "protection" in t]
    last: dict = {}
    for t in heard:   # each said value differs from the one said before it of the same owner
        if "back to the start" in t:   # a new round: every protection back to no
            last = dict.fromkeys(last, "no")
            continue
        owner, value = _re.match(r"(your protection|protection of seat \d) is now (\w+)", t).groups()
        assert last.get(owner) != value, heard
        last[owner] = value
    assert any("is now yes" in t for t in heard)
    S = rules.new_game(3, seed=3, record=True)
    redactor, words = Redactor(rules, 0, S.members), owners_of(rules, S.members)
    lines = []
    while not S.over and len(lines) < 60:
        line, _ = logged_decision(rules, S, 0, len(lines) + 1)
        lines.append(redactor.line(line))

    def protections(known):
        return sum("protection" in s and "is now" in s for line in lines for s in told(line, 0, words, known)[0])
    assert protections(None) > protections({}) > 0
