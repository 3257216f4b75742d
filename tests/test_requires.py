"""``requires:``: a ruleset refuses the combinations of parameters, options and player count it
cannot play, when a game starts, as a player count it is not for (docs/reference.md,
Requirements): new_game, the command line, validate, explain, the adapters, the tuner and
saved states."""
from __future__ import annotations

import json

import pytest

import interpreter
from interpreter.errors import GameError, Refused, RulesetError, UsageError
from helpers import bundled, load_text, run_cli, tiny_ruleset, write_ruleset

DEAL = tiny_ruleset("""
  hand: {owner: player, visible: owner}
params:
  hand_size: {type: int, default: 2, min: 1, max: 10, doc: cards dealt to each player}
requires:
  - {if: "num_players * params.hand_size <= 10",
     message: the deck of 10 cards is too small to deal a hand to each player}
vars:
  played: card
flow:
  - deal: {from: deck, to: hand, count: params.hand_size}
  - turns:
      steps:
        - choose: {options: hand, as: played}
        - move: {from: hand, to: deck, cards: "[played]"}
""", game="deal", players=(2, 4))


def deal_rules(tmp_path, text=DEAL):
    return load_text(tmp_path, text, "deal.yaml")


def test_a_game_that_meets_its_requirements_starts(tmp_path):
    rules = deal_rules(tmp_path)
    S = rules.new_game(3, seed=1, options={"params": {"hand_size": 3}})   # 9 cards of 10: met
    assert [len(h) for h in S.z["hand"]] == [3, 3, 3]
    assert rules.new_game(2, options={"params": {"hand_size": 5}}).z["deck"] == []   # exactly the deck


def test_a_game_that_fails_one_is_refused_with_its_message_at_the_requirement(tmp_path):
    rules = deal_rules(tmp_path)
    for _ in range(2):   # (no start is kept for it: refused again)
        with pytest.raises(Refused) as info:
            rules.new_game(3, seed=1, options={"params": {"hand_size": 4}})
        e = info.value
        assert isinstance(e, UsageError) and e.diagnostics[0].code == "requires"
        assert e.message == "deal refuses this game: the deck of 10 cards is too small to deal a hand to each player"
        assert (e.loc.path, e.loc.line, e.loc.col) == (str(tmp_path / "deal.yaml"), 11, 10)
        assert e.diagnostics[0].hint == ("it requires num_players * params.hand_size <= 10; "
                                         "here num_players is 3, params.hand_size is 4")
    rules.new_game(3, seed=1, options={"params": {"hand_size": 3}})   # the same ruleset plays another


def test_the_player_count_alone_can_fail_it(tmp_path):
    rules = deal_rules(tmp_path, DEAL.replace("default: 2,", "default: 3,"))
    rules.new_game(3)
    with pytest.raises(Refused, match="too small"):
        rules.new_game(4)


def test_a_requirement_reads_teams_and_the_game_options(tmp_path):
    rules = load_text(tmp_path, tiny_ruleset("""
params:
  skill: {type: num, default: 1.0}
requires:
  - {if: "skill(0) >= 0.5", message: the first seat plays at half its skill at least}
  - {if: "count(teams) == num_players and count(members(team(1))) == 1", message: one seat a team}
flow: []
""", players=(2, 3)))
    rules.new_game(2, options={"skill": [0.5, 0.1]})
    with pytest.raises(Refused, match="the first seat plays at half its skill at least") as info:
        rules.new_game(2, options={"skill": [0.4, 1.0]})
    # the hint gives the values skill() read: the option's (it gave the unused default, params.skill is 1.0)
    assert info.value.diagnostics[0].hint == "it requires skill(0) >= 0.5; here the option skill is [0.4, 1.0]"
    with pytest.raises(Refused) as info:
        rules.new_game(2, options={"params": {"skill": 0.25}})
    assert info.value.diagnostics[0].hint == "it requires skill(0) >= 0.5; here params.skill is 0.25"


def test_a_requirement_that_cannot_be_evaluated_refuses_the_game(tmp_path):
    rules = load_text(tmp_path, tiny_ruleset("""
params:
  groups: {type: int, default: 2, min: 0}
requires:
  - {if: "10 // params.groups >= num_players", message: a group for each player}
flow: []
"""))
    rules.new_game(2)
    with pytest.raises(Refused, match="its condition could not be evaluated: division by zero"):
        rules.new_game(2, options={"params": {"groups": 0}})


@pytest.mark.parametrize("cond,what,col", [
    ("count(hand[0]) < 5", "the zone 'hand'", 16),   # at the name
    ("points[0] == 0", "the counter 'points'", 10),
    ("num_players > 1 and x == 0", "the variable 'x'", 30),
    ("dealt > 0", "the zone 'hand'", 9),   # through a define: at the condition
])
def test_a_requirement_that_reads_the_state_is_refused_at_load(tmp_path, cond, what, col):
    text = tiny_ruleset(f"""
  hand: {{owner: player}}
counters:
  points: {{owner: player}}
vars:
  x: {{type: int, start: 0}}
define:
  dealt: "count(hand[0])"
requires:
  - if: "{cond}"
    message: never
flow:
  - deal: {{from: deck, to: hand, count: 1}}
  - gain: {{counter: points, amount: x}}
""")
    with pytest.raises(RulesetError) as info:
        load_text(tmp_path, text)
    [d] = [d for d in info.value.diagnostics if d.code == "requires"]
    assert d.message == f"a requirement is checked before the game's setup: it cannot read {what}"
    assert (d.loc.line, d.loc.col) == (15, col)
    assert "params, num_players" in d.hint


PLACED = "message: the deck of 10 cards is too small to deal a hand to each player"


def placed(message: str) -> str:
    """DEAL with its requirement's message written as ``message`` (a YAML scalar)."""
    return DEAL.replace(PLACED, f"message: {message}")


def test_a_message_fills_in_its_placeholders_with_their_values_as_text(tmp_path):
    rules = deal_rules(tmp_path, placed('"{num_players} hands of {params.hand_size} cards take '
                                        '{num_players * params.hand_size} cards (of 10 / 4: {10 / 4}), {{so}} {num_players > 5}"'))
    with pytest.raises(Refused) as info:
        rules.new_game(3, options={"params": {"hand_size": 4}})
    assert info.value.message == "deal refuses this game: 3 hands of 4 cards take 12 cards (of 10 / 4: 2.5), {so} false"
    with pytest.raises(Refused) as info:   # (other values, other text)
        rules.new_game(2, options={"params": {"hand_size": 6}})
    assert "2 hands of 6 cards take 12 cards" in info.value.message


def test_a_message_says_the_defaults_failure_in_validate(tmp_path):
    rules = deal_rules(tmp_path, placed('"{num_players} hands of {params.hand_size}"').replace("default: 2,", "default: 3,"))
    [w] = [d for d in rules.warnings if d.code == "requires"]
    assert w.message == "a game of 4 players with the default values is refused: 4 hands of 3"


def test_a_placeholder_that_stops_is_left_as_written_and_its_error_said(tmp_path):
    rules = deal_rules(tmp_path, placed('"{params.hand_size // (num_players - 3)} each"'))
    with pytest.raises(Refused) as info:
        rules.new_game(3, options={"params": {"hand_size": 4}})
    assert info.value.message == ("deal refuses this game: {params.hand_size // (num_players - 3)} each "
                                  "({params.hand_size // (num_players - 3)} could not be evaluated: division by zero)")


@pytest.mark.parametrize("message,error,code,col", [
    ('"deal {params.hand_siz} each"', "unknown parameter 'hand_siz'", "unknown-name", 29),
    ('"deal {count(deck)} cards"', "it cannot read the zone 'deck'", "requires", 28),
    ('"deal {players}"', "a placeholder is written as text() writes it: a number, a condition, a text, a card, "
                         "a player or a team, got list[player]", "type", 22),
    ('"deal {1 + } x"', "unexpected end of expression", "expr-syntax", 25),
    ('"a { b"', "a '{' with no '}' after it", "requires", 18),
    ('"a {\'b} c"', "this string is never closed", "expr-syntax", 19),   # (not a '{' with no '}')
    ('"a {1 + \'b"', "this string is never closed", "expr-syntax", 23),
    ('"a } b"', "a '}' with no '{' before it", "requires", 18),
    ('"a {  } b"', "an empty {}: nothing to fill in", "requires", 18),
])
def test_a_bad_placeholder_is_an_error_located_in_the_message(tmp_path, message, error, code, col):
    with pytest.raises(RulesetError) as info:
        deal_rules(tmp_path, placed(message))
    [d] = [d for d in info.value.diagnostics if d.severity == "error"]
    assert error in d.message and d.code == code and (d.loc.line, d.loc.col) == (12, col), d


def test_braces_written_twice_are_braces(tmp_path):
    rules = deal_rules(tmp_path, placed('"a {{b}} c }}{{"'))
    with pytest.raises(Refused) as info:
        rules.new_game(3, options={"params": {"hand_size": 4}})
    assert info.value.message == "deal refuses this game: a {b} c }{"


@pytest.mark.parametrize("message,said", [
    ("\"{'}'} {'{}'} {'a}' + text(num_players)}\"", "} {} a}3"),
    ("""'{"}"} {"it''s}"}'""", "} it's}"),
    ("""'{''a\\''}'' + ''b''}'""", "a'}b"),   # (an escaped quote does not end the string)
])
def test_a_brace_in_a_placeholders_string_is_the_strings(tmp_path, message, said):
    """A placeholder ends at its first } outside a string ({'}'} was cut at the quote's })."""
    rules = deal_rules(tmp_path, placed(message))
    with pytest.raises(Refused) as info:
        rules.new_game(3, options={"params": {"hand_size": 4}})
    assert info.value.message == f"deal refuses this game: {said}"


@pytest.mark.parametrize("entry,message", [
    ("{if: \"num_players > 1\"}", "missing required key 'message'"),
    ("{if: \"num_players > 1\", message: x, why: y}", "unknown key 'why'"),
    ("\"num_players > 1\"", "expected mapping, got string"),
    ("{if: \"num_players\", message: x}", "condition"),
])
def test_an_entry_of_another_shape_is_a_located_error(tmp_path, entry, message):
    text = tiny_ruleset(f"requires:\n  - {entry}\nflow: []\n")
    with pytest.raises(RulesetError) as info:
        load_text(tmp_path, text)
    d = info.value.diagnostics[0]
    assert message in d.message and d.loc.line == 8, info.value


def test_validate_warns_where_the_defaults_of_a_player_count_fail(tmp_path, capsys):
    path = write_ruleset(tmp_path, DEAL.replace("default: 2,", "default: 3,"), "deal.yaml")
    code, out, err = run_cli(capsys, "validate", path)
    assert code == 0 and out.strip().endswith("ok, 1 warning")
    assert err.startswith(f"{path}:11:10: warning[requires]: a game of 4 players with the default values is "
                          "refused: the deck of 10 cards is too small to deal a hand to each player\n")
    assert "give such a game other values (--set)" in err
    assert not deal_rules(tmp_path).warnings   # (a default that every count meets: no warning)


def test_the_command_line_refuses_the_game_with_exit_2(tmp_path, capsys):
    path = write_ruleset(tmp_path, DEAL, "deal.yaml")
    for command in (["play", path, "--players", "3", "--set", "hand_size=4"],
                    ["simulate", path, "--players", "3", "--games", "2", "--set", "hand_size=4"],
                    ["validate", path, "--playouts", "2", "--players", "3", "--set", "hand_size=4"]):
        code, out, err = run_cli(capsys, *command)
        assert code == 2, command
        assert err.startswith(f"{path}:11:10: error[requires]: deal refuses this game: the deck of 10 cards")
        assert "Traceback" not in err
    code, out, err = run_cli(capsys, "validate", path, "--playouts", "2", "--set", "hand_size=4")
    assert code == 0 and "(3, 4 players refused by the ruleset)" in out   # every count: those it can play (2)


def test_validate_fails_a_file_whose_every_player_count_is_refused(tmp_path, capsys):
    """Nothing played is nothing checked: the file fails (it said "ok; 0 random games")."""
    path = write_ruleset(tmp_path, DEAL, "deal.yaml")
    code, out, err = run_cli(capsys, "validate", path, "--playouts", "2", "--set", "hand_size=6")
    assert code == 1 and out.strip() == (f"{path}: failed: 1 error; 0 random games, 0 decisions "
                                         "(2, 3, 4 players refused by the ruleset)")
    assert err.startswith("error[requires]: no random game played: every player count (2-4) is refused: "
                          "deal refuses this game: the deck of 10 cards")
    code, out, _ = run_cli(capsys, "validate", path, "--playouts", "2", "--set", "hand_size=6", "--json")
    assert code == 1 and json.loads(out)["ok"] is False


def test_validate_players_refuses_the_game_a_variant_refuses_as_play_does(tmp_path, capsys):
    text = DEAL + "variants:\n  big:\n    params:\n      hand_size: {type: int, default: 4, min: 1, max: 10}\n"
    path = write_ruleset(tmp_path, text, "deal.yaml")
    for command in (["play", path, "--players", "3", "--variant", "big"],
                    ["validate", path, "--playouts", "2", "--players", "3"]):
        code, _, err = run_cli(capsys, *command)
        assert code == 2 and err.startswith(f"{path}:11:10: error[requires]: deal (variant big) refuses this game"), command
    assert run_cli(capsys, "validate", path, "--playouts", "2", "--players", "2")[0] == 0


def test_explain_says_the_requirements(tmp_path):
    from interpreter.tools.explain import explain
    text = explain(deal_rules(tmp_path))
    assert ("## Requirements\n\n- The game requires that the number of players times `hand_size` (2) is at most "
            "10; a game that does not is refused: the deck of 10 cards is too small to deal a hand to each "
            "player.\n") in text.replace("\n  ", " ")
    placed_text = explain(deal_rules(tmp_path, placed('"{num_players} hands of {params.hand_size}, {{so}}"')))
    assert "is refused: `{num_players}` hands of `{params.hand_size}`, {so}.\n" in placed_text.replace("\n  ", " ")


def test_a_saved_state_of_a_refused_combination_does_not_load(tmp_path):
    rules = deal_rules(tmp_path)
    saved = json.loads(rules.new_game(3, seed=2, options={"params": {"hand_size": 3}}).to_json())
    assert rules.state_from_json(json.dumps(saved)).p["hand_size"] == 3
    saved["params"]["hand_size"] = 4
    with pytest.raises(GameError, match="params, options: deal refuses this game: the deck of 10 cards"):
        rules.state_from_json(json.dumps(saved))


def test_go_fish_refuses_a_deck_smaller_than_the_deal():
    rules = bundled("go_fish")
    assert not rules.warnings   # its defaults deal 10 players 50 of 52 cards
    rules.new_game(2, options={"params": {"ranks": 4, "suits": 2, "initial_cards": 4}})   # 8 cards for 8
    rules.new_game(10)
    for players, params, said in ((2, {"ranks": 4, "suits": 2, "initial_cards": 5}, "8 cards is too small to deal 5 to each of 2"),
                                  (10, {"ranks": 2, "suits": 2}, "4 cards is too small to deal 5 to each of 10"),
                                  (2, {"suits": 1}, "13 cards is too small to deal 7 to each of 2")):
        with pytest.raises(Refused, match=f"go_fish refuses this game: the deck of {said} players\n"):
            rules.new_game(players, options={"params": params})


def test_the_adapters_refuse_it_when_they_are_made(tmp_path):
    pytest.importorskip("pettingzoo")
    from interpreter.adapters import pettingzoo
    path = write_ruleset(tmp_path, DEAL, "deal.yaml")
    pettingzoo.env(path, players=3, params={"hand_size": 3}).reset(seed=1)
    with pytest.raises(Refused, match="too small"):
        pettingzoo.env(path, players=3, params={"hand_size": 4})


def test_the_tuner_prunes_a_trial_the_requirements_refuse(tmp_path):
    pytest.importorskip("optuna")
    from interpreter.play.tuning import objectives as obj
    from interpreter.play.tuning.space import space
    from interpreter.play.tuning.study import Settings, Tuner
    path = write_ruleset(tmp_path, DEAL, "deal.yaml")
    rules = interpreter.load(path)
    settings = Settings(str(path), 3, space(rules, 3, ["hand_size=1..10"]), obj.parse(["length:3"]),
                        trials=6, games=2, workers=1)
    result = Tuner(rules, settings).run()
    refused = [t for t in result["history"] if t["refused"]]
    assert refused and all(t["state"] == "pruned" and t["values"]["hand_size"] > 3 for t in refused)
    assert all(t["values"]["hand_size"] <= 3 for t in result["history"] if t["state"] == "complete")


def test_the_reference_quotes_the_refusal_of_its_example(tmp_path):
    """docs/reference.md's Requirements example refuses ``--players 3 --set hand_size=4`` in the
    words it quotes (its text block: the diagnostic without its location and quoted line)."""
    import re

    import yaml
    from interpreter.loading.variants import merge
    from test_docs import DOCS, EXAMPLES, SKELETON
    block, placed = [b for b, _ in EXAMPLES if "requires:" in b]
    said = []
    for k, text in enumerate((block, placed)):
        path = write_ruleset(tmp_path, yaml.safe_dump(merge(SKELETON, yaml.safe_load(text)), sort_keys=False), f"e{k}.yaml")
        with pytest.raises(Refused) as info:
            interpreter.load(path).new_game(3, options={"params": {"hand_size": "4"}})
        said.append(info.value.diagnostics[0])
    d = said[0]
    section = (DOCS / "reference.md").read_text().split("## Requirements", 1)[1]
    quoted = re.search(r"```text\n(.*?)```", section, re.S).group(1)
    assert quoted == f"error[{d.code}]: {d.message}\n  hint: {d.hint}\n"
    # the example of placeholders: the message it quotes
    message = said[1].message.split("refuses this game: ", 1)[1]
    assert f"refuses `--players 3 --set hand_size=4` with `{message}`" in section.replace("\n", " ")


def test_the_language_server_shows_the_warning_and_the_error(tmp_path):
    from interpreter.lsp import checking
    path = write_ruleset(tmp_path, DEAL, "deal.yaml")
    assert checking.check(str(path), {}).diagnostics == []
    found = checking.check(str(path), {str(path): DEAL.replace("default: 2,", "default: 3,")}).diagnostics
    assert [(d.code, d.severity, d.loc.line) for d in found] == [("requires", "warning", 11)]
    found = checking.check(str(path), {str(path): DEAL.replace("num_players * params", "count(hand[0]) * params")}).diagnostics
    assert [(d.code, d.severity, d.loc.line, d.loc.col) for d in found] == [("requires", "error", 11, 17)]
