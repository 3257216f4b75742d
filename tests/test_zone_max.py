"""A zone's capacity, ``max:`` (engine/capacity.py, building/capped.py): every writer that puts
cards in a zone stops the game past it, a located runtime error naming the zone; a saved or
patched state holding more is refused; a game whose start cards exceed it is refused; the cost
model counts the zone as holding no more; and a zone without max: compiles to the same code."""
from __future__ import annotations

import json
import re

import pytest

from helpers import bundled, load_text, run_cli, trick_ruleset, write_ruleset
from interpreter.errors import GameError, RulebookError, RulesetError, UsageError

CAPPED = """game: capped
players: {min: 2, max: 2}
params:
  limit: {type: int, default: 3, min: 0, max: 6}
components:
  card: {attributes: {rank: 1..10}, label: "c{rank}"}
zones:
  deck: {start: [card], visible: none}
  hand: {owner: player, visible: owner, max: params.limit}
  pile: {max: 2}
vars:
  n: int
flow:
  - deal: {from: deck, to: hand, count: 2}
  - repeat: 5
    steps:
      - choose: {who: 0, options: "[1, 2]", as: n, prompt: draw}
      - move: {from: deck, to: "hand[0]", count: n}
scoring:
  categories:
    cards: "count(hand)"
"""


def _raised(fn) -> RulebookError:
    with pytest.raises(RulebookError) as caught:
        fn()
    return caught.value


def test_a_move_past_the_max_stops_the_game_located_at_the_move(tmp_path):
    rules = load_text(tmp_path, CAPPED)
    S = rules.new_game(2, 0)
    S.apply("1")                                  # 3 cards: the max, allowed
    assert len(S.z["hand"][0]) == 3
    e = _raised(lambda: S.apply("1"))
    assert isinstance(e, GameError)
    assert e.message == "in effects: zone hand[0] would hold 4 cards, more than its max: 3"
    assert (e.loc.line, e.loc.col) == (18, 9)     # the move


def test_the_max_is_the_games_own_parameter(tmp_path):
    rules = load_text(tmp_path, CAPPED)
    S = rules.new_game(2, 0, {"params": {"limit": 6}})
    for _ in range(2):
        S.apply("2")
    assert len(S.z["hand"][0]) == 6
    with pytest.raises(GameError, match=r"zone hand\[0\] would hold 7 cards, more than its max: 6"):
        S.apply("1")
    e = _raised(lambda: rules.new_game(2, 0, {"params": {"limit": 1}}))   # the deal itself
    assert e.message == "in effects: zone hand[0] would hold 2 cards, more than its max: 1" and e.loc.line == 14


def test_the_cli_exits_non_zero_with_the_located_error_and_no_traceback(tmp_path, capsys):
    path = write_ruleset(tmp_path, CAPPED)
    code, out, err = run_cli(capsys, "play", path, "-p", "2", "-a", "first")
    assert code == 1
    assert "g.yaml:18:9: error[runtime]: in effects: zone hand[0] would hold 4 cards, more than its max: 3" in err
    assert "Traceback" not in err + out


@pytest.mark.parametrize("put, cap, said", [
    ("- gather: {from: hand, to: pile}", 2, "zone pile would hold 4 cards, more than its max: 2"),
    ("- pick: {who: 0, from: \"hand[0]\", to: pile, count: 2}", 1, "zone pile would hold 2 cards, more than its max: 1"),
])
def test_a_gather_and_a_pick_are_checked_too(tmp_path, put, cap, said):
    rules = load_text(tmp_path, CAPPED.split("  - repeat")[0].replace("pile: {max: 2}", f"pile: {{max: {cap}}}")
                      + f"  {put}\n  - choose: {{who: 0, options: \"[1]\", as: n}}\n")
    e = _raised(lambda: play(rules))
    assert said in e.message and e.loc.line == 15


def play(rules):
    S = rules.new_game(2, 0)
    while not S.is_terminal():
        S.apply_index(0)


def test_a_pass_and_a_trick_are_checked(tmp_path):
    passing = CAPPED.split("flow:")[0].replace("max: params.limit", "max: 2").replace("pile: {max: 2}", "pile: {}") + (
        "flow:\n  - deal: {from: deck, to: hand, count: 2}\n"
        "  - pass: {from: hand, count: 1, to: \"1 - me\", players: [0]}\n"
        "  - choose: {who: 0, options: \"[1]\", as: n}\nscoring: {categories: {cards: \"count(hand)\"}}\n")
    e = _raised(lambda: play(load_text(tmp_path, passing)))
    assert e.message == "in pass: zone hand[1] would hold 3 cards, more than its max: 2" and e.loc.line == 15
    tricks = trick_ruleset().replace("taken: {owner: player, visible: all}", "taken: {owner: player, visible: all, max: 2}")
    e = _raised(lambda: play_tricks(load_text(tmp_path, tricks, "t.yaml")))
    assert e.message == "in tricks: zone taken[1] would hold 3 cards, more than its max: 2"
    tricks = trick_ruleset().replace("table: {owner: none, visible: all}", "table: {owner: none, visible: all, max: 2}")
    e = _raised(lambda: play_tricks(load_text(tmp_path, tricks, "u.yaml")))
    assert e.message == "in tricks: zone table would hold 3 cards, more than its max: 2"


def play_tricks(rules):
    S = rules.new_game(3, 1)
    while not S.is_terminal():
        S.apply_index(0)


def test_a_saved_state_over_the_max_is_refused(tmp_path):
    rules = load_text(tmp_path, CAPPED)
    S = rules.new_game(2, 0)
    d = json.loads(S.to_json())
    assert rules.state_from_json(json.dumps(d)).to_json() == S.to_json()
    d["zones"]["hand"][1] += [d["zones"]["deck"].pop()]   # seat 1: 3 cards, within 3
    rules.state_from_json(json.dumps(d))
    d["zones"]["hand"][1] += [d["zones"]["deck"].pop()]
    with pytest.raises(GameError) as caught:
        rules.state_from_json(json.dumps(d))
    assert caught.value.message == ("not a saved state of capped: zones.hand[1]: 4 cards, more than the zone's max (3)")


def test_start_cards_over_the_max(tmp_path):
    over = CAPPED.replace("pile: {max: 2}", "pile: {max: 9, start: [card]}").replace(
        "deck: {start: [card], visible: none}", "deck: {visible: none}")
    with pytest.raises(RulesetError) as caught:   # a number: at load
        load_text(tmp_path, over)
    assert "zone 'pile' starts with 10 cards, more than its max: 9" in str(caught.value)
    with pytest.raises(RulesetError) as caught:   # an expression of one value in every game: the same
        load_text(tmp_path, over.replace("max: 9,", "max: \"num_players * 4\","))
    assert "zone 'pile' starts with 10 cards, more than its max: 8" in str(caught.value)
    rules = load_text(tmp_path, over.replace("max: 9,", "max: \"params.limit + 6\","))
    assert any("a game of 2 players with the default values is refused" in w.message for w in rules.warnings)
    with pytest.raises(UsageError, match=r"zone 'pile' starts with 10 cards, more than its max: 9"):
        rules.new_game(2, 0)
    rules.new_game(2, 0, {"params": {"limit": 4}})   # 10 within 10


def test_the_cli_refuses_a_game_whose_start_cards_exceed_its_max(tmp_path, capsys):
    over = CAPPED.replace("pile: {max: 2}", "pile: {max: \"params.limit + 6\", start: [card]}").replace(
        "deck: {start: [card], visible: none}", "deck: {visible: none}")
    path = write_ruleset(tmp_path, over)
    code, _, err = run_cli(capsys, "play", path, "-p", "2")
    assert code == 2 and "g.yaml:10:15: error[capacity]: zone 'pile' starts with 10 cards, more than its max: 9" in err
    assert run_cli(capsys, "play", path, "-p", "2", "--set", "limit=4")[0] == 0


@pytest.mark.parametrize("value, message", [
    ("count(deck)", "a zone's max is checked before the game's setup: it cannot read the zone 'deck'"),
    ("-1", "-1 is less than the minimum of 0"),
    ("2.5", "expected integer or string, got number"),
    ("'num_players > 1'", "expected a number, got bool"),
])
def test_a_max_that_is_no_number_of_the_parameters_is_an_error_at_load(tmp_path, value, message):
    with pytest.raises(RulesetError) as caught:
        load_text(tmp_path, CAPPED.replace("pile: {max: 2}", f"pile: {{max: {value}}}"))
    assert message in str(caught.value)


CHARGED = """game: c
players: {min: 2, max: 2}
params:
  limit: {type: int, default: 3, min: 0, max: 6}
  loose: 4
components:
  card: {attributes: {rank: 1..60}, label: "c{rank}"}
zones:
  deck: {start: [card], visible: none}
  hand: {owner: player, visible: owner MAX}
vars:
  n: int
flow:
  - deal: {from: deck, to: hand, count: 2}
  - set: {n: "count(hand[0] as a where count(hand[0] as b where b.rank > a.rank) > 0)"}
  - choose: {who: 0, options: "[1]", as: n}
scoring:
  categories:
    cards: "count(hand)"
"""


@pytest.mark.parametrize("cap, charge", [("", 183), (", max: 5", 1), (", max: params.limit", 2),
                                         (", max: params.loose", 183), (", max: 'num_players * 2'", 1)])
def test_the_cost_model_counts_a_zone_as_holding_at_most_its_max(tmp_path, cap, charge):
    """A filter over a hand inside another: 60 x 60 comparisons for a hand that may hold every
    card; 5 x 5 for one of max: 5; 6 x 6 for params.limit (declared max: 6). A parameter with no
    bound (loose) bounds nothing: an override may be any number."""
    rules = load_text(tmp_path, CHARGED.replace("MAX", cap))
    assert [s.charge for s in rules.steps if s.charge] == [charge]


def test_a_zone_without_max_compiles_to_the_same_code(tmp_path):
    """The guards are written only for a zone with max: (and its compiled max listed): take them
    out, and the module is the one the same rules without max: compile to, line for line."""
    def body(rules) -> list:
        return rules.module_source.split('"""', 2)[2].splitlines()   # (after the header: its hash)
    without = body(load_text(tmp_path, CAPPED.replace(", max: params.limit", "").replace("{max: 2}", "{}")))
    capped = body(load_text(tmp_path, CAPPED.replace("{max: 2}", "{}")))
    guards = [line for line in capped if "S.cap[" in line]   # (the max in the game, evaluated as it starts)
    assert guards and all(re.fullmatch(r" *if len\(([\w\[\]]+)\) > S\.cap\['hand'\]: _full\(S, 'hand', \1\)", line)
                          for line in guards)   # (the deal's, the move's)
    listed = capped.index("def max_hand(S, me, L):") - 1
    end = next(i for i in range(listed + 2, len(capped)) if not capped[i].startswith(" "))
    assert [line for line in capped[:listed] + capped[end + 1:] if "S.cap[" not in line] == without
    for name in ("hearts", "diamonds"):   # (a trick's steps, and a pass: nothing named for a check either)
        assert "capacity" not in bundled(name).module_source and "_full" not in bundled(name).module_source


def test_a_scenario_patch_over_the_max_fails_its_scenario(tmp_path):
    from interpreter.play.checks.scenarios import run_one
    rules = load_text(tmp_path, CAPPED)
    ok = run_one(rules, {"patch": {"zones": {"hand": {0: ["c1", "c2", "c3"]}}}, "expect": ["count(hand[0]) == 3"]}, "ok")
    assert ok.ok, ok.message
    with pytest.raises(UsageError) as caught:   # (run_file: the scenario failed, with this message)
        run_one(rules, {"patch": {"zones": {"hand": {0: ["c1", "c2", "c3", "c4"]}}}}, "over")
    assert caught.value.message == "patch: hand[0]: 4 cards, more than the zone's max (3)"


def test_the_plain_reference_stops_where_the_generated_code_does(tmp_path):
    """The lockstep reference (each kind's generator with its specialisations off) writes the
    same checks: the same error, at the same place."""
    from fuzzing.lockstep import reference
    rules = load_text(tmp_path, CAPPED)
    errors = []
    for r in (rules, reference(rules)):
        S = r.new_game(2, 0)
        errors.append(_raised(lambda S=S: [S.apply("1") for _ in range(2)]))
    assert [(e.message, e.loc.line) for e in errors] == [
        ("in effects: zone hand[0] would hold 4 cards, more than its max: 3", 18)] * 2


def test_explain_notes_the_max(tmp_path, capsys):
    code, out, _ = run_cli(capsys, "explain", write_ruleset(tmp_path, CAPPED))
    assert code == 0
    assert "| hand | each player | its owner | holds at most `limit` (3) cards each |" in out
    assert "| pile | shared | everyone | holds at most 2 cards |" in out


CARDS_AND_TEAMS = """game: cardz
players: {min: 2, max: 2}
teams: {by_players: {2: [[0, 1]]}}
components:
  card: {attributes: {rank: 1..6}, label: "c{rank}"}
zones:
  deck: {start: [card], visible: none}
  under: {owner: card, max: 1}
  pile: {owner: team, max: 3}
vars:
  n: int
flow:
  - move: {from: deck, to: "under[first(deck)]", count: 1}
  - deal: {from: deck, to: pile, count: DEALT}
  - move: {from: deck, to: "under[last(deck)]", count: 2}
  - choose: {who: 0, options: "[1]", as: n}
scoring: {categories: {c: "0"}}
"""


@pytest.mark.parametrize("dealt, said", [(1, "zone under[c3] would hold 2 cards, more than its max: 1"),
                                         (2, "zone pile[0] would hold 4 cards, more than its max: 3")])
def test_the_error_names_the_instance_that_filled_up_a_cards_and_a_teams(tmp_path, dealt, said):
    """The instance is named as it was filled (found by identity), not by its owner's expression
    evaluated again (under[last(deck)] after the move reads another card)."""
    rules = load_text(tmp_path, CARDS_AND_TEAMS.replace("DEALT", str(dealt)))
    assert _raised(lambda: rules.new_game(2, 0)).message == f"in effects: {said}"


PICKED = """game: pk
players: {min: 2, max: 2}
components:
  card: {attributes: {rank: 1..10}, label: "c{rank}"}
zones:
  deck: {start: [card], visible: all}
  hand: {owner: player, visible: all, max: 2, sorted: true}
counters:
  entered: {owner: player}
triggers:
  counted:
    on_enter: hand
    do: [{gain: {counter: entered}}]
vars:
  n: int
flow:
  - pick: {who: 0, from: FROM, to: TO, count: 4}
  - choose: {who: 0, options: "[1]", as: n}
scoring:
  categories:
    cards: "count(hand)"
"""


@pytest.mark.parametrize("to", ['"players[1].hand"', '"(hand[1])"', '"hand[1]"', '"(players[1]).hand"'])
def test_a_pick_to_a_zone_named_through_an_expression_is_its_zone(tmp_path, to):
    """A pick's zones are the zones their references name, however written: the pick stops at
    the max, keeps the zone in order, runs its on_enter triggers, and its events name it."""
    rules = load_text(tmp_path, PICKED.replace("FROM", '"(deck)"').replace("TO", to))
    S = rules.new_game(2, 0, record=True)
    S.apply("c5")
    S.apply("c2")
    assert S.z["hand"][1] == [1, 4] and S.c["entered"] == [0, 2]   # (c2 before c5: sorted)
    assert [(e["from"], e["to"], e["to_owner"]) for e in S.ev if e["ev"] == "pick"] == [("deck", "hand", 1)] * 2
    e = _raised(lambda: S.apply("c7"))
    assert e.message == "in pick: zone hand[1] would hold 3 cards, more than its max: 2" and e.loc.line == 17


def test_an_expression_max_is_evaluated_once_as_a_game_starts(tmp_path):
    """A max: is a value of the game, kept as it starts (S.cap): no move, clone or check evaluates
    it again; a kept start's games share it, and a state loaded has its values' (a new game's of them)."""
    rules = load_text(tmp_path, CAPPED)
    calls = []
    compiled = rules.zone_max["hand"]
    rules.zone_max["hand"] = lambda S, me, L: calls.append(S.p["limit"]) or compiled(S, me, L)
    S = rules.new_game(2, 0)
    S.clone().apply("1")
    S.apply("1")
    assert calls == [3] and S.cap == {"hand": 3, "pile": 2}
    with pytest.raises(GameError, match="more than its max: 3"):
        S.apply("1")
    rules.new_game(2, 1).apply("1")                    # (its start kept: the same values)
    T = rules.new_game(2, 0, {"params": {"limit": 6}})
    T.apply("2")
    assert calls == [3, 6] and T.cap["hand"] == 6
    d = json.loads(T.to_json())
    assert "cap" not in d                               # (a saved state holds its values, not their max)
    assert rules.state_from_json(json.dumps(d)).cap["hand"] == 6 and calls == [3, 6]   # (its values' start)
    d["params"]["limit"] = 5
    d["zones"]["hand"][0] = d["zones"]["hand"][0][:5]
    assert rules.state_from_json(json.dumps(d)).cap["hand"] == 5 and calls == [3, 6, 5]


@pytest.mark.parametrize("value, message", [
    ('"0 - 1"', "g.yaml:9:46: error[capacity]: max: is a whole number of 0 or more, got -1"),
    ('"-1"', "g.yaml:9:46: error[capacity]: max: is a whole number of 0 or more, got -1"),
    ('"params.limit - 10"', "g.yaml:9:46: error[capacity]: max: is a whole number of 0 or more, and params.limit - 10 "
                            "is at most -4 in every game"),
    ('"3.0"', "g.yaml:9:46: error[type]: a zone's max is a whole number of cards, got num"),
    ('"num_players / 2"', "g.yaml:9:46: error[type]: a zone's max is a whole number of cards, got num"),
    ('"first(players)"', "g.yaml:9:46: error[type]: a zone's max is a whole number of cards, got player"),
])
def test_a_max_no_game_can_have_is_an_error_at_load(tmp_path, value, message):
    """Less than 0 once reduced, or in every game (its span), or not a whole number by its type:
    refused at load, located at the max:, not a warning for each player count (nor a start
    cards' message for a zone that starts with none)."""
    with pytest.raises(RulesetError) as caught:
        load_text(tmp_path, CAPPED.replace("max: params.limit", f"max: {value}"))
    assert str(caught.value).splitlines()[0].endswith(message)
    assert len(caught.value.diagnostics) == 1


def test_a_max_under_0_in_some_games_refuses_those_as_they_start(tmp_path, capsys):
    """A max of the parameters that may be less than 0 (params.limit - 1, limit 0..6) refuses the
    games whose values make it so, located at the max: (exit 2); the others are played."""
    path = write_ruleset(tmp_path, CAPPED.replace("max: params.limit", "max: 'params.limit - 1'"))
    code, out, err = run_cli(capsys, "play", path, "-p", "2", "--set", "limit=0")
    assert code == 2 and "Traceback" not in out + err
    assert "g.yaml:9:46: error[capacity]: zone 'hand': its max is -1, not a whole number of 0 or more" in err
    rules = load_text(tmp_path, CAPPED.replace("max: params.limit", "max: 'params.limit - 1'"))
    assert rules.new_game(2, 0, {"params": {"limit": 4}}).cap["hand"] == 3
    d = json.loads(rules.new_game(2, 0).to_json())
    d["params"]["limit"] = 0                            # (a state whose values give no game)
    with pytest.raises(GameError, match=r"not a saved state of capped: params, options: zone 'hand': its max is -1, not a"):
        rules.state_from_json(json.dumps(d))


@pytest.mark.parametrize("value", ["min(params.limit, 0 - 1)", "params.limit // 10 - 1"])
def test_a_max_under_0_that_load_cannot_bound_refuses_every_game_as_it_starts(tmp_path, value):
    """Load bounds a max through numbers, num_players, the parameters' declared bounds, +, -, *
    and if ... else alone: a max under 0 in every game through min() or // loads (validate warns
    of each player count) and each game is refused as it starts, located at the max:."""
    rules = load_text(tmp_path, CAPPED.replace("max: params.limit", f"max: '{value}'"))
    assert any("a game of 2 players with the default values is refused" in w.message for w in rules.warnings)
    for limit in (0, 6):
        with pytest.raises(UsageError, match=r"g.yaml:9:46: error\[capacity\]: zone 'hand': its max is -1, not a whole"):
            rules.new_game(2, 0, {"params": {"limit": limit}})
