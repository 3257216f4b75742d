"""Rules stated one by one, each on a ruleset written for it, with the outcome the rule gives:
scoring (tie-breaks, lowest_wins, decided(), unranked()), per-player `when` triggers,
counter-clockwise turns from a seat, and the trick rules (equal ranks, trumps, following,
playable). The lockstep tests compare two engines; these say what both must do."""
from __future__ import annotations

import pytest

import interpreter
from interpreter.errors import GameError, RulesetError, UsageError
from test_flowgen import reference
from test_mechanics import BASE, load, play_first
from helpers import tiny_ruleset


@pytest.fixture(params=["compiled", "reference"])
def engine(request):
    """Each rule holds in the compiled flow and in the reference loop (test_flowgen.py)."""
    return (lambda rules: rules) if request.param == "compiled" else reference


# ---------------------------------------------------------------------- scoring
def scored(tmp_path, scoring: str, players=3):
    """A game over at once, its ranking read from ``points`` set by the test."""
    S = load(tmp_path, "flow: []\nscoring:\n" + scoring).new_game(players)
    assert S.is_terminal()
    return S


def test_lowest_wins_turns_the_tiebreaks_round_too(tmp_path):
    S = scored(tmp_path, '  categories: {p: points}\n  tiebreak: ["x + me"]\n  lowest_wins: true\n')
    S.c["points"] = [4, 4, 9]          # 0 and 1 tie on the lowest score; the lower tie-break wins
    assert S.winners() == [0]
    S.c["points"] = [9, 4, 4]
    assert S.winners() == [1]
    d = S.rules.scoring.decided(S)
    assert d == {"by": "tiebreak", "tiebreak": "x + me", "tied": [1, 2], "values": {1: 1, 2: 2}, "score": 4}


def test_highest_wins_with_the_highest_tiebreak(tmp_path):
    S = scored(tmp_path, '  categories: {p: points}\n  tiebreak: ["me"]\n')
    S.c["points"] = [4, 4, 1]
    assert S.winners() == [1]


def test_decided_names_the_tiebreak_that_broke_the_tie_not_one_that_broke_nothing(tmp_path):
    S = scored(tmp_path, '  categories: {p: points}\n  tiebreak: ["x", "0 - me", "me"]\n')
    S.c["points"] = [2, 7, 7]
    d = S.rules.scoring.decided(S)
    assert d["by"] == "tiebreak" and d["tiebreak"] == "0 - me"   # "x" is 0 for both: it broke nothing
    assert d["tied"] == [1, 2] and d["values"] == {1: -1, 2: -2} and S.winners() == [1]
    S.c["points"] = [7, 1, 1]
    assert S.rules.scoring.decided(S) == {"by": "score"}


def test_decided_says_shared_when_no_tiebreak_separates(tmp_path):
    S = scored(tmp_path, '  categories: {p: points}\n  tiebreak: ["x"]\n')
    S.c["points"] = [3, 3, 1]
    assert S.rules.scoring.decided(S) == {"by": "shared", "tied": [0, 1], "score": 3}
    assert S.winners() == [0, 1]


def test_unranked_lists_the_seats_eligible_leaves_out(tmp_path):
    S = scored(tmp_path, '  categories: {p: points}\n  eligible: "points > 0"\n')
    S.c["points"] = [0, 4, 2]
    assert S.rules.scoring.unranked(S) == [0]
    assert S.rules.scoring.decided(S) == {"by": "score", "unranked": [0]}
    S.c["points"] = [0, 0, 0]
    assert S.rules.scoring.unranked(S) == [0, 1, 2] and S.winners() == []
    assert S.rules.scoring.decided(S) == {"by": "nobody", "unranked": [0, 1, 2]}


def test_unranked_is_empty_without_eligible(tmp_path):
    S = scored(tmp_path, "  categories: {p: points}\n")
    assert S.rules.scoring.unranked(S) == []


# ---------------------------------------------------------------------- triggers and turns
def test_a_per_player_when_trigger_fires_once_per_player_as_its_condition_becomes_true(tmp_path, engine):
    r = load(tmp_path, """
    triggers:
      rich:
        when: "points >= 2"
        per_player: true
        do: [{gain: {counter: bonus}}]
    flow:
      - repeat: 4
        steps:
          - gain: {counter: "points[0]"}
          - choose: {who: 0, options: "[1]", as: x}
      - gain: {counter: "points[1]", amount: 2}
      - choose: {who: 1, options: "[1]", as: x}
      - lose: {counter: "points[1]", amount: 2}
      - choose: {who: 1, options: "[1]", as: x}
      - gain: {counter: "points[1]", amount: 3}
      - choose: {who: 1, options: "[1]", as: x}
    """, base=BASE.replace("counters:\n", "counters:\n  bonus: {owner: player, start: 0}\n"))
    S = engine(r).new_game(3)
    play_first(S)
    # seat 0 reached 2 once and stayed (1, 2, 3, 4); seat 1 rose twice; seat 2 never
    assert S.c["bonus"] == [1, 2, 0]


@pytest.mark.parametrize("players, start, order", [(4, 1, [1, 0, 3, 2]), (3, 2, [2, 1, 0]), (4, 0, [0, 3, 2, 1])])
def test_counterclockwise_turns_start_at_from_and_go_down_the_seats(tmp_path, engine, players, start, order):
    r = load(tmp_path, f"""
    flow:
      - turns: {{from: {start}, order: counterclockwise, steps: [{{set: {{order: "order + [me]"}}}}]}}
    """)
    assert engine(r).new_game(players).v["order"] == order


def test_counterclockwise_turns_with_from_and_rounds(tmp_path, engine):
    r = load(tmp_path, """
    flow:
      - turns: {from: 1, order: counterclockwise, rounds: 2, steps: [{set: {order: "order + [me]"}}]}
    """)
    assert engine(r).new_game(3).v["order"] == [1, 0, 2, 1, 0, 2]


@pytest.mark.parametrize("players, start, order", [(3, "0", [0, 1, 2] * 3), (4, "2", [2, 3, 0, 1] * 3),
                                                    (3, "5", [2, 0, 1] * 3), (3, "x // 3", [0, 1, 2, 1, 2, 0, 2, 0, 1])])
def test_clockwise_turns_start_each_lap_at_from(tmp_path, engine, players, start, order):
    """Each lap goes round the table from ``from:`` as it stands then (one more than the seats:
    round again), the lap's order a table's rotation where every seat takes a turn, the order's
    method called only for the first lap (at the step's start), and not at all where ``from:`` is
    a whole number (the first lap's rotation written into the new frame: Turns.enter_source)."""
    import sys
    from interpreter.mechanics.flow import Turns
    r = load(tmp_path, f"""
    flow:
      - turns: {{from: "{start}", rounds: 3, steps: [{{set: {{order: "order + [me]", x: "x + 1"}}}}]}}
    """)
    ran, calls = engine(r), []
    sys.setprofile(lambda frame, event, arg: calls.append(1) if event == "call" and frame.f_code is Turns.order.__code__
                   else None)
    try:
        S = ran.new_game(players)
    finally:
        sys.setprofile(None)
    assert S.v["order"] == order and len(calls) == (3 if ran is not r else 0 if start.isdigit() else 1)


# ---------------------------------------------------------------------- tricks
TRICKS = tiny_ruleset("""
  hand: {owner: player, visible: owner}
  table: {}
  won: {owner: player, visible: all}
""", game="tr", players=(2, 3), attributes="suit: [A, B, C], rank: 1..6")


def trick(tmp_path, engine, hands: list[str], leader=0, extra=""):
    """A game of one trick: each seat's hand dealt by label ("1A 3B"), then the trick."""
    setup = "".join(f"  - move: {{from: deck, to: 'hand[{p}]', cards: \"deck where rank == {c[:-1]} and suit == '{c[-1]}'\"}}\n"
                    for p, h in enumerate(hands) for c in h.split())
    path = tmp_path / "tr.yaml"
    path.write_text(TRICKS + f"setup:\n{setup}flow:\n  - tricks: {{hand: hand, table: table, leader: {leader}, "
                    f"follow: suit, rank: RANK, collect: won, count: 1{extra}}}\n"
                    .replace("RANK", "'rank // 2'" if "equal" in extra else "rank").replace(", equal", ""))
    return engine(interpreter.load(path)).new_game(len(hands))


def won_by(S) -> int:
    assert S.is_terminal()
    owners = [p for p, z in enumerate(S.z["won"]) if z]
    assert len(owners) == 1
    return owners[0]


@pytest.mark.parametrize("hands, leader, plays, winner", [
    (["2A", "3A"], 0, ["2A", "3A"], 0),        # rank // 2: 2A and 3A are both rank 1; the first played wins
    (["3A", "2A"], 0, ["3A", "2A"], 0),
    (["2A", "3A"], 1, ["3A", "2A"], 1),        # seat 1 leads
    (["2A", "3A 4A"], 0, ["2A", "4A"], 1),     # a higher rank beats it
])
def test_of_equal_ranks_the_first_played_wins(tmp_path, engine, hands, leader, plays, winner):
    S = trick(tmp_path, engine, hands, leader, extra=", equal")
    for label in plays:
        S.apply(label)
    assert won_by(S) == winner


def test_a_card_that_does_not_follow_never_wins_without_trumps(tmp_path, engine):
    S = trick(tmp_path, engine, ["2A", "6B"])
    S.apply("2A")
    assert S.legal_actions() == ["6B"]          # void in A: any card may be played
    S.apply("6B")
    assert won_by(S) == 0


def test_a_trump_beats_the_led_suit_and_the_highest_trump_wins(tmp_path, engine):
    S = trick(tmp_path, engine, ["6A", "1B 5C", "2B"], extra=", trump: \"'B'\"")
    S.apply("6A")
    S.apply("1B")
    S.apply("2B")
    assert won_by(S) == 2                       # two trumps: the higher one, not the led suit's 6
    S = trick(tmp_path, engine, ["6A", "1B 5C", "3C"], extra=", trump: \"'B'\"")
    for label in ("6A", "1B", "3C"):
        S.apply(label)
    assert won_by(S) == 1                       # the lowest trump beats the led suit


@pytest.mark.parametrize("hands, extra, legal, winner", [
    (["1B", "6A 2B"], ", trump: \"'B'\"", ["2B"], 1),
    (["2A", "6B 1A 3C 5A"], "", ["1A", "5A"], 0),
], ids=["a_trump_led_is_followed_as_a_suit", "a_player_who_can_follow_must"])
def test_the_led_suit_is_followed(tmp_path, engine, hands, extra, legal, winner):
    # seat 0 leads its one card; seat 1 is offered only the cards that follow, plays the first
    S = trick(tmp_path, engine, hands, extra=extra)
    S.apply(hands[0])
    assert sorted(S.legal_actions()) == legal
    S.apply(legal[0])
    assert won_by(S) == winner


def test_a_player_who_cannot_follow_may_play_any_card(tmp_path, engine):
    S = trick(tmp_path, engine, ["2A", "6B 3C"])
    S.apply("2A")
    assert sorted(S.legal_actions()) == ["3C", "6B"]


PLAYABLE = ", playable: \"led != none or suit != 'B'\""   # B may not be led


def test_playable_restricts_the_cards_offered(tmp_path, engine):
    S = trick(tmp_path, engine, ["1A 4B 2C", "3B"], extra=PLAYABLE)
    assert sorted(S.legal_actions()) == ["1A", "2C"]


def test_when_nothing_is_playable_any_card_that_follows_may_be_played(tmp_path, engine):
    S = trick(tmp_path, engine, ["1B 4B", "3B 2A"], extra=PLAYABLE)
    assert sorted(S.legal_actions()) == ["1B", "4B"]            # nothing playable: leading anything
    S.apply("4B")
    assert S.legal_actions() == ["3B"]                           # following B: playable once led


def test_playable_keeps_following_suit(tmp_path, engine):
    S = trick(tmp_path, engine, ["1A", "3B 2A 5C"], extra=", playable: \"suit != 'A'\"")
    S.apply("1A")
    # 2A is the only card that follows, and it is not playable: the fallback offers the cards
    # that follow, not the whole hand
    assert S.legal_actions() == ["2A"]


# ---------------------------------------------------------------------- simultaneous choices
def test_a_seat_with_nothing_to_choose_is_passed_over_in_a_simultaneous_choice(tmp_path, engine):
    r = load(tmp_path, """
    flow:
      - choose: {options: "[] if me == 0 else [me, me * 10]", as: bids, prompt: bid, simultaneous: true}
    """, base=BASE + "  bids: list[int]\n")
    S = engine(r).new_game(4)
    asked = []
    while not S.is_terminal():
        asked.append(S.current_player())
        S.apply_index(1)
    assert asked == [1, 2, 3] and S.v["bids"] == [None, 10, 20, 30]


# ---------------------------------------------------------------------- end_when
def counting(tmp_path, end_when: str, name="t.yaml"):
    """A game that adds 1 to x, then asks seat 0, five times, with this ``end_when:``."""
    return load(tmp_path, "end_when: " + end_when + """
flow:
  - repeat: 5
    steps:
      - set: {x: "x + 1"}
      - choose: {who: 0, options: "[1]", as: y}
""", base=BASE + "  y: int\n", name=name)


def test_end_when_ends_at_once_and_its_runtime_error_is_located_there(tmp_path, engine):
    S = engine(counting(tmp_path, '["x >= 2"]')).new_game(2)
    play_first(S)
    assert S.v["x"] == 2
    r = counting(tmp_path, '["10 // (x - 1) > 100"]', name="z.yaml")
    with pytest.raises(GameError) as e:
        engine(r).new_game(2)
    assert "in end_when" in e.value.message and "division by zero" in e.value.message
    assert '"10 // (x - 1) > 100"' in (tmp_path / "z.yaml").read_text().splitlines()[e.value.loc.line - 1]
    r = counting(tmp_path, '\n  - "x > 100"\n  - "10 // (x - 1) > 100"\n  - "x > 200"', name="z2.yaml")
    with pytest.raises(GameError) as e:   # located at the condition that failed, not the first
        engine(r).new_game(2)
    assert '"10 // (x - 1) > 100"' in (tmp_path / "z2.yaml").read_text().splitlines()[e.value.loc.line - 1]


def test_end_when_is_about_the_game_not_a_player(tmp_path):
    with pytest.raises(RulesetError) as e:
        load(tmp_path, 'end_when: ["points >= 2"]\nflow: []\n')
    assert "'points' belongs to each player: write points[p] (no player is acting here)" in e.value.message
    assert (e.value.loc.line, e.value.loc.col) == (15, 13)      # at points, in end_when


# ---------------------------------------------------------------------- load limits
def test_the_whole_ruleset_limit_on_define_expansions_is_reported_once(tmp_path):
    """Each use of d3 expands 445 defines (under the 500 of one expression); 12 uses pass the
    5,000 of a whole ruleset: one error, where the limit was first met, not one per use."""
    uses = "".join(f"  - set: {{x: \"d3 + {k}\"}}\n" for k in range(12))
    with pytest.raises(RulesetError) as e:
        load(tmp_path, 'define:\n  d0: "x"\n  d1: "' + " + ".join(["d0"] * 10) + '"\n'
             '  d2: "' + " + ".join(["d1"] * 10) + '"\n  d3: "' + " + ".join(["d2"] * 4) + '"\n'
             "flow:\n" + uses)
    errors = [d for d in e.value.diagnostics if d.severity == "error"]
    assert [d.message for d in errors] == ["defines are expanded more than 5,000 times in the whole ruleset"]


def test_an_unused_counter_or_family_is_warned_and_a_used_one_is_not(tmp_path):
    extra = ("  spare: {owner: player}\n  gems: {owner: player, keys: [red, blue]}\n"
             "  unused_gems: {owner: player, keys: [red, blue]}\n")
    r = load(tmp_path, """
    flow:
      - gain: {counter: "(0).gems['red']", amount: "points[0]"}
    """, base=BASE.replace("counters:\n", "counters:\n" + extra))
    text = "\n".join(w.format() for w in r.warnings)
    assert "counter 'spare' is declared but never used" in text
    assert "counter 'unused_gems' is declared but never used" in text
    assert "'gems'" not in text and "'points'" not in text and "gems.blue" not in text


# ---------------------------------------------------------------------- trigger chains
def chain(tmp_path, limit):
    """Three moves into the pile fire the trigger without a chain (depth back to 0 each time);
    then a move sets off a chain of limit - 3 moves."""
    return load(tmp_path, f"""
    triggers:
      more:
        on_enter: pile
        if: "x == 1 and count(pile) < {limit}"
        do: [{{move: {{from: deck, to: pile, count: 1}}}}]
    flow:
      - repeat: 3
        steps: [{{move: {{from: deck, to: pile, count: 1}}}}]
      - set: {{x: 1}}
      - move: {{from: deck, to: pile, count: 1}}
    """, base=BASE.replace("rank: 1..5", "rank: 1..40"))


def test_triggers_may_set_each_other_off_50_times_in_a_chain_and_no_more(tmp_path, engine):
    assert len(engine(chain(tmp_path, 53)).new_game(2).z["pile"]) == 53     # a chain of 50
    with pytest.raises(GameError, match=r"t\.yaml:\d+:\d+: error\[runtime\]: in trigger more"):
        engine(chain(tmp_path, 54)).new_game(2)                              # 51


def test_a_chain_of_triggers_too_long_says_so(tmp_path):
    with pytest.raises(GameError, match="triggers set each other off more than 50 times in a chain"):
        chain(tmp_path, 54).new_game(2)


# ---------------------------------------------------------------------- options, parameters, states
def test_a_string_none_and_none_are_one_option_as_they_share_a_label(tmp_path):
    r = load(tmp_path, """
    flow:
      - choose: {who: 0, options: "['none', s]", as: s2}
    """, base=BASE + "  s: str\n  s2: str\n")
    assert r.new_game(2).legal_actions() == ["none"]


def test_a_parameters_declared_type_is_its_type_not_its_defaults(tmp_path):
    r = load(tmp_path, """
    params:
      share: {type: num, default: 1}
    flow:
      - set: {y: "params.share * 10"}
    """, base=BASE + "  y: num\n")
    assert r.new_game(2, options={"params": {"share": "2.5"}}).v["y"] == 25
    with pytest.raises(UsageError, match="parameter 'share' expects num, got 'x'"):
        r.new_game(2, options={"params": {"share": "x"}})


def test_a_map_parameters_override_keeps_the_keys_in_the_defaults_order(tmp_path):
    r = load(tmp_path, """
    params:
      price: {value: {red: 2, green: 3, blue: 1}}
    flow:
      - set: {order: "map(keys(params.price), to: params.price[it])"}
    """)
    assert r.new_game(2).v["order"] == [2, 3, 1]
    S = r.new_game(2, options={"params": {"price": {"blue": 7, "red": 5, "green": 6}}})
    assert S.v["order"] == [5, 6, 7] and list(S.p["price"]) == ["red", "green", "blue"]


def test_a_saved_states_rng_and_seed_are_64_bit_numbers(tmp_path):
    import json
    r = load(tmp_path, 'flow:\n  - choose: {who: 0, options: "[1, 2]", as: x}\n')
    S = r.new_game(2, 5)
    saved = json.loads(S.to_json())
    assert r.state_from_json(json.dumps({**saved, "rng": 2 ** 64 - 1})).rng == 2 ** 64 - 1
    for bad in (-1, 2 ** 64, 1.5, "7"):
        with pytest.raises(GameError, match=r"rng: expected a 64-bit state, got"):
            r.state_from_json(json.dumps({**saved, "rng": bad}))
    assert r.state_from_json(json.dumps({**saved, "seed": -(2 ** 63) + 1})).seed == -(2 ** 63) + 1
    for bad in (2 ** 63, -(2 ** 64), 2.5):
        with pytest.raises(GameError, match=r"seed: expected a whole number within 64 bits, got"):
            r.state_from_json(json.dumps({**saved, "seed": bad}))


def test_states_are_equal_when_their_data_is(tmp_path):
    r = load(tmp_path, 'flow:\n  - choose: {who: 0, options: "[1, 2]", as: x}\n  - choose: {who: 1, options: "[1]", as: x}\n')
    S = r.new_game(2, 5)
    T = S.clone()
    assert T == S and hash(T) == hash(S) and T is not S and T != "a state"
    T.apply("2")
    assert T != S and T.digest() != S.digest()
    assert repr(S) == "<State t players=2 steps=%d over=False>" % S.steps


def test_an_if_step_with_a_key_it_does_not_take_is_a_located_error(tmp_path):
    with pytest.raises(RulesetError) as e:
        load(tmp_path, """
        flow:
          - if: "x > 0"
            then: [{choose: {who: 0, options: "[1]", as: x}}]
            otherwise: [{choose: {who: 0, options: "[2]", as: x}}]
        """)
    assert e.value.message.startswith("unknown key 'otherwise'") and (e.value.loc.line, e.value.loc.col) == (19, 5)
    assert "accepted keys: if, then, else" in str(e.value)


def test_a_card_picked_into_a_zone_fires_its_on_enter_trigger(tmp_path, engine):
    r = load(tmp_path, """
    triggers:
      scored:
        on_enter: pile
        do: [{gain: {counter: points}}]
    flow:
      - deal: {from: deck, to: hand, count: 2}
      - pick: {who: 1, from: hand, to: pile, count: 1}
    """)
    S = engine(r).new_game(2)
    S.apply_index(0)
    assert S.c["points"] == [0, 1] and len(S.z["pile"]) == 1


@pytest.mark.parametrize("body, where, message, hint", [
    ("flow:\n  - shuffle: dek\n", (16, 14), "unknown zone 'dek'", "did you mean 'deck'?"),
    ("flow:\n  - deal: {from: deck, to: hnd, count: 1}\n", (16, 28), "unknown zone 'hnd'", "did you mean 'hand'?"),
])
def test_a_step_naming_an_unknown_zone_is_a_located_error_with_a_did_you_mean(tmp_path, body, where, message, hint):
    with pytest.raises(RulesetError) as e:
        load(tmp_path, body)
    assert e.value.message == message and (e.value.loc.line, e.value.loc.col) == where
    assert f"hint: {hint}" in str(e.value)


def test_cards_moved_or_dealt_into_a_zone_fire_its_on_enter_trigger(tmp_path, engine):
    r = load(tmp_path, """
    triggers:
      scored:
        on_enter: pile
        do: [{gain: {counter: "points[0]", amount: 10}}]
      dealt:
        on_enter: hand
        do: [{gain: {counter: "points[1]"}}]
    flow:
      - deal: {from: deck, to: hand, count: 1}
      - move: {from: deck, to: pile, count: 2}
      - choose: {who: 0, options: "[1]", as: x}
    """)
    S = engine(r).new_game(2)
    assert len(S.z["pile"]) == 2 and S.c["points"] == [20, 2]   # once a card, each zone's trigger


def test_a_loop_that_never_runs_is_found_inside_any_step_that_holds_steps(tmp_path):
    """The flow check (building/analysis.py) walks into every step that holds steps: a phase
    here, whose while loop can never run, is warned about at its place."""
    r = load(tmp_path, """
    flow:
      - phase: main
        steps:
          - while: "false"
            steps:
              - choose: {who: 0, options: "[1]", as: x}
      - choose: {who: 0, options: "[2]", as: x}
    """)
    found = [w for w in r.warnings if "never runs" in w.message]
    assert len(found) == 1 and found[0].loc.line == 19, [(w.message, w.loc) for w in r.warnings]
