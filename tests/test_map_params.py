"""Map-valued parameters: values by key (params.price[k]), their keys (keys(params.price)),
checked overrides, and saved states that keep them."""
from __future__ import annotations

import pytest

import interpreter
from interpreter.errors import RulesetError, UsageError
from interpreter.expr import Compiler
from interpreter.expr.parser import ExprError
from interpreter.expr.runtime import ExprRuntimeError
from helpers import load_text

GAME = """
game: mp
players: {min: 2, max: 2}
params:
  price: {value: {red: 2, green: 3, blue: 1}}
counters:
  coins: {owner: player, start: 10}
vars:
  c: str
flow:
  - turns:
      steps:
        - choose: {options: "keys(params.price) where params.price[it] <= coins", as: c, prompt: buy}
        - lose: {counter: coins, amount: "params.price[c]"}
scoring:
  categories: {coins: coins}
"""


@pytest.fixture
def rules(tmp_path):
    return load_text(tmp_path, GAME, "g.yaml")


def test_a_map_is_read_by_key_and_its_keys_keep_the_order_written(rules):
    S = rules.new_game(2, seed=1)
    c = Compiler(rules.names)
    assert c.compile("params.price['green']", has_me=False).fn(S, None, None) == 3
    assert c.compile("keys(params.price)", has_me=False).fn(S, None, None) == ["red", "green", "blue"]
    assert S.legal_actions() == ["red", "green", "blue"]
    S.apply("green")
    assert S.c["coins"] == [7, 10]


def test_a_saved_state_keeps_the_map_and_its_decision(rules):
    S = rules.new_game(2, seed=1)
    T = rules.state_from_json(S.to_json())
    assert T == S and T.legal_actions() == S.legal_actions()


def test_a_loaded_state_lists_a_maps_keys_in_the_order_written(rules):
    """JSON sorts a mapping's keys; a loaded state's map keeps the order written, so an error
    listing the keys reads the same as in the game it was saved from (found by the fuzzer's
    clone check: a clone and a saved copy of it stopped with two texts)."""
    S = rules.new_game(2, seed=1)
    T = rules.state_from_json(S.to_json())
    assert list(T.p["price"]) == list(S.p["price"]) == ["red", "green", "blue"]
    read = Compiler(rules.names).compile("params.price[first(['pink'])]", has_me=False).fn
    errors = []
    for state in (S, T):
        with pytest.raises(ExprRuntimeError) as info:
            read(state, None, None)
        errors.append(str(info.value))
    assert errors[0] == errors[1] and "(its keys: red, green, blue)" in errors[0]


@pytest.mark.parametrize("price,players", [
    ("{by_players: {2: {red: 2, green: 3, blue: 1}, 3: {blue: 1, red: 2, green: 3}}}", 3),   # another order for 3
    ("{by_players: {3: {blue: 1, red: 2, green: 3}}, default: {red: 2, green: 3, blue: 1}}", 2),
])
def test_a_loaded_state_keeps_the_order_its_players_map_has(tmp_path, price, players):
    """The order of the map a game of these players has (its by_players entry, or its default),
    not the first one written; and a map nested in a map keeps its order too."""
    text = GAME.replace("  price: {value: {red: 2, green: 3, blue: 1}}",
                        f"  price: {price}\n  nest: {{value: {{z: {{y: 1, x: 2}}, a: {{y: 3, x: 4}}}}}}")
    text = text.replace("players: {min: 2, max: 2}", "players: {min: 2, max: 3}")
    rules = load_text(tmp_path, text, "g.yaml")
    S = rules.new_game(players, seed=1)
    T = rules.state_from_json(S.to_json())
    assert list(T.p["price"]) == list(S.p["price"]) and list(T.p["nest"]["z"]) == list(S.p["nest"]["z"]) == ["y", "x"]
    assert list(T.p["nest"]) == ["z", "a"]


def test_an_override_must_give_the_same_keys_and_kinds(rules):
    S = rules.new_game(2, seed=1, options={"params": {"price": {"red": 11, "green": 1, "blue": 1}}})
    assert S.legal_actions() == ["green", "blue"]
    with pytest.raises(UsageError) as info:
        rules.new_game(2, seed=1, options={"params": {"price": {"red": 9}}})
    assert "is a map with the keys red, green, blue, got red" in info.value.message
    with pytest.raises(UsageError) as info:
        rules.new_game(2, seed=1, options={"params": {"price": {"red": "x", "green": 1, "blue": 1}}})
    assert "price['red'] is an int, got 'x'" in info.value.message


def test_a_key_the_map_does_not_have(rules):
    S = rules.new_game(2, seed=1)
    c = Compiler(rules.names)
    with pytest.raises(ExprRuntimeError, match=r"^'pink' is not a key of the map \(its keys: red, green, blue\)$"):
        c.compile("params.price[first(['pink'])]", has_me=False).fn(S, None, None)   # a computed key
    with pytest.raises(ExprError, match=r"^the map has no key 'pink' \(its keys: red, green, blue\)$"):
        c.compile("params.price['pink']", has_me=False)   # a key written: known wrong at load
    with pytest.raises(ExprError, match=r"^a map is read by key \(a str\), got int$"):
        c.compile("params.price[1]", has_me=False)


def test_keys_of_something_else_is_a_load_error(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text(GAME.replace("keys(params.price) where", "keys(coins) where"))
    with pytest.raises(RulesetError) as info:
        interpreter.load(path)
    assert "keys() takes a counter family" in info.value.message


def test_a_map_with_digit_keys_is_a_map(tmp_path):
    # YAML keys are text as written, `2:` as well as `"2":`: a map of card faces to ranks
    rules = load_text(tmp_path, GAME.replace("{red: 2, green: 3, blue: 1}", '{"2": 2, 3: 3, T: 10}'), "g.yaml")
    S = rules.new_game(2, seed=1)
    c = Compiler(rules.names)
    assert c.compile("params.price['T'] + params.price['2']", has_me=False).fn(S, None, None) == 12
    assert c.compile("keys(params.price)", has_me=False).fn(S, None, None) == ["2", "3", "T"]
    assert S.legal_actions() == ["2", "3", "T"]


@pytest.mark.parametrize("keys,read,message,hint", [
    ('{"2": 2, 3: 3, T: 10}', "params.price[3]", "a map is read by key (a str), got int",
     "its keys are text: params.price['3']"),
    ('{"2": 2, 3: 3, T: 10}', "params.price['Q']", "the map has no key 'Q' (its keys: 2, 3, T)", None),
    ("{red: 2, green: 3, blue: 1}", "params.price['gren']", "the map has no key 'gren' (its keys: red, green, blue)",
     "did you mean 'green'?"),
])
def test_a_map_read_with_a_key_it_cannot_have_is_a_located_error(tmp_path, keys, read, message, hint):
    text = GAME.replace("{red: 2, green: 3, blue: 1}", keys).replace("params.price[c]", read)
    with pytest.raises(RulesetError) as info:
        load_text(tmp_path, text, "g.yaml")
    [d] = info.value.diagnostics
    line = next(i for i, t in enumerate(text.split("\n")) if "lose:" in t) + 1
    assert (d.message, d.hint, d.loc.line) == (message, hint, line)


VARIED = GAME.replace("players: {min: 2, max: 2}", "players: {min: 2, max: 3}").replace(
    "  price: {value: {red: 2, green: 3, blue: 1}}",
    "  price: {by_players: {2: {red: 2, green: 3}, 3: {blue: 1, red: 2, green: 3}}}")


def _price(by_players: str, text: str = VARIED) -> str:
    return text.replace("{by_players: {2: {red: 2, green: 3}, 3: {blue: 1, red: 2, green: 3}}}", by_players)


def _keys(rules, players: int) -> tuple:
    """keys(params.price) in a game of these players, and what its first choice offers."""
    S = rules.new_game(players, seed=1)
    return Compiler(rules.names).compile("keys(params.price)", has_me=False).fn(S, None, None), S.legal_actions()


@pytest.mark.parametrize("price,two,three", [
    ("{by_players: {2: {red: 2, green: 3}, 3: {blue: 1, red: 2, green: 3}}}", ["red", "green"], ["blue", "red", "green"]),
    ("{by_players: {2: {red: 2, green: 3, blue: 1}, 3: {blue: 1, red: 2, green: 3}}}",   # the same keys, another order
     ["red", "green", "blue"], ["blue", "red", "green"]),
    ("{by_players: {3: {blue: 1, red: 2}}, default: {red: 2, green: 3}}", ["red", "green"], ["blue", "red"]),
    ("{by_players: {2: {red: 2, green: 3}, 3: {red: 2.5, green: 3}}}", ["red", "green"], ["red", "green"]),  # int, num
])
def test_keys_of_a_map_by_players_are_the_keys_of_the_games_map(tmp_path, price, two, three):
    """Each player count's map has its own keys, in the order written: a 3-player game is
    offered blue as well (it was offered the first map's keys). Maps of whole numbers and of
    numbers are maps of numbers (they were of any type, which keys() refused)."""
    rules = load_text(tmp_path, _price(price).replace("amount: \"params.price[c]\"", "amount: \"1\""))
    assert _keys(rules, 2) == (two, two) and _keys(rules, 3) == (three, three)
    assert rules.names.params["price"] == ("map[num]" if "2.5" in price else "map[int]")


def test_keys_of_a_map_the_same_for_every_player_count_are_a_constant(tmp_path):
    """The common case stays a constant list in the generated code; keys that vary read the game's map."""
    same = load_text(tmp_path, _price("{by_players: {2: {red: 2, green: 3}, 3: {red: 1, green: 1}}}"), "s.yaml")
    assert Compiler(same.names).compile("keys(params.price)").source == "['red', 'green']"
    varied = load_text(tmp_path, VARIED, "v.yaml")
    assert Compiler(varied.names).compile("keys(params.price)").source == "list(S.p['price'])"


def test_a_key_one_player_counts_map_lacks_is_a_located_runtime_error(tmp_path):
    """params.price['blue'] loads (a 3-player game's map has it); a 2-player game that reads it
    stops with an error at the step, naming the keys its map has."""
    rules = load_text(tmp_path, VARIED.replace("params.price[c]", "params.price['blue']"), "g.yaml")
    three = rules.new_game(3, seed=1)
    three.apply("red")
    assert three.c["coins"] == [9, 10, 10]
    two = rules.new_game(2, seed=1)
    with pytest.raises(interpreter.GameError) as info:
        two.apply("red")
    line = next(i for i, t in enumerate(VARIED.split("\n")) if "lose:" in t) + 1
    assert "'blue' is not a key of the map (its keys: red, green)" in str(info.value)
    assert f"g.yaml:{line}:" in str(info.value)


def test_a_key_no_player_counts_map_has_is_a_load_error(tmp_path):
    with pytest.raises(RulesetError) as info:
        load_text(tmp_path, VARIED.replace("params.price[c]", "params.price['bleu']"), "g.yaml")
    [d] = info.value.diagnostics
    assert (d.message, d.hint) == ("the map has no key 'bleu' for any player count (its keys: red, green, blue)",
                                   "did you mean 'blue'?")


def test_a_loaded_state_offers_its_player_counts_keys(tmp_path):
    rules = load_text(tmp_path, VARIED, "g.yaml")
    keys = Compiler(rules.names).compile("keys(params.price)", has_me=False).fn
    for players, want in ((2, ["red", "green"]), (3, ["blue", "red", "green"])):
        T = rules.state_from_json(rules.new_game(players, seed=1).to_json())
        assert keys(T, None, None) == T.legal_actions() == want


def test_an_override_gives_its_player_counts_keys(tmp_path):
    rules = load_text(tmp_path, VARIED, "g.yaml")
    price = {"green": 1, "red": 1, "blue": 1}
    S = rules.new_game(3, seed=1, options={"params": {"price": price}})
    assert S.legal_actions() == ["blue", "red", "green"]   # (in the order of the map it replaces)
    with pytest.raises(UsageError) as info:
        rules.new_game(2, seed=1, options={"params": {"price": price}})
    assert "is a map with the keys red, green, got green, red, blue" in info.value.message


def test_a_variant_that_adds_a_key_for_one_player_count(tmp_path):
    """A variant merges into the map it changes: here the 3-player map gains a key, so the
    player counts' keys differ from then on."""
    base = _price("{by_players: {2: {red: 2, green: 3}, 3: {red: 2, green: 3}}}")
    text = base + "variants:\n  rainbow:\n    params: {price: {by_players: {3: {blue: 1}}}}\n"
    plain, rainbow = load_text(tmp_path, text, "g.yaml"), load_text(tmp_path, text, "g.yaml", variant="rainbow")
    assert _keys(plain, 3) == (["red", "green"], ["red", "green"])
    assert _keys(rainbow, 2) == (["red", "green"], ["red", "green"])
    assert _keys(rainbow, 3) == (["red", "green", "blue"], ["red", "green", "blue"])


def test_a_maps_key_read_as_an_attribute_is_a_located_error(tmp_path):
    text = VARIED.replace("params.price[c]", "params.price.blue")
    with pytest.raises(RulesetError) as info:
        load_text(tmp_path, text, "g.yaml")
    [d] = info.value.diagnostics
    assert (d.message, d.hint) == ("a map is read by key, not as an attribute: 'blue'", "write params.price['blue']")


def test_a_tuned_key_is_one_of_its_player_counts_map(tmp_path):
    from interpreter.play.tuning.space import space
    rules = load_text(tmp_path, VARIED, "g.yaml")
    [d] = space(rules, 3, ["price.blue=1..3"])
    assert (d.param, d.key, d.low, d.high) == ("price", "blue", 1, 3)
    with pytest.raises(UsageError, match=r"the map 'price' has the keys red, green$"):
        space(rules, 2, ["price.blue=1..3"])


NESTED = GAME.replace("  price: {value: {red: 2, green: 3, blue: 1}}",
                      "  price: {value: {red: 2, green: 3, blue: 1}}\n  nest: {value: {z: {y: 1, x: 2}, a: {y: 3, x: 4}}}")


def test_keys_of_a_map_in_a_map_keep_the_order_written(tmp_path):
    """(they were sorted)"""
    rules = load_text(tmp_path, NESTED, "g.yaml")
    keys = Compiler(rules.names).compile("keys(params.nest['z'])", has_me=False).fn
    assert keys(rules.new_game(2, seed=1), None, None) == ["y", "x"]


def test_an_override_of_a_map_in_a_map_is_checked_into_its_order(tmp_path):
    """A map in the map an override gives has the same keys, in the order of the one it
    replaces: a saved game reloads with the same order (it kept the override's, and a reload
    the default's: the two listed the keys apart)."""
    rules = load_text(tmp_path, NESTED, "g.yaml")
    c = Compiler(rules.names)
    keys, read = (c.compile(text, has_me=False).fn for text in ("keys(params.nest['z'])", "params.nest['z'][first(['w'])]"))
    S = rules.new_game(2, seed=1, options={"params": {"nest": {"z": {"x": 5, "y": 6}, "a": {"x": 7, "y": 8}}}})
    T = rules.state_from_json(S.to_json())
    assert S.p["nest"] == {"z": {"x": 5, "y": 6}, "a": {"x": 7, "y": 8}}
    assert keys(S, None, None) == keys(T, None, None) == ["y", "x"]
    for state in (S, T):
        with pytest.raises(ExprRuntimeError, match=r"\(its keys: y, x\)$"):
            read(state, None, None)
    for nest, message in (({"z": {"q": 1}, "a": {"y": 3, "x": 4}}, "parameter 'nest': nest['z'] is a map with the keys y, x, got q"),
                          ({"z": {"y": "s", "x": 2}, "a": {"y": 3, "x": 4}}, "parameter 'nest': nest['z']['y'] is an int, got 's'")):
        with pytest.raises(UsageError) as info:
            rules.new_game(2, seed=1, options={"params": {"nest": nest}})
        assert info.value.message == message


LISTED = GAME.replace("  price: {value: {red: 2, green: 3, blue: 1}}",
                      "  price: {value: {red: 2, green: 3, blue: 1}}\n  tiers: {value: [{red: 2, green: 3, blue: 1}]}\n"
                      "  deep: {value: {a: [{y: 1, x: 2}]}}\n  more: {type: list, value: []}").replace(
    "keys(params.price) where params.price[it] <= coins", "keys(params.tiers[0]) + keys(params.deep['a'][0])").replace(
    "params.price[c]", "count(params.more)")


@pytest.mark.parametrize("given", [
    {},
    {"tiers": [{"blue": 1, "red": 2, "green": 3}, {"green": 1, "red": 1, "blue": 1}],   # (a second: like the first)
     "deep": {"a": [{"x": 5, "y": 6}]}, "more": [{"b": 1, "a": 2}]},   # (a map replacing none: its keys sorted)
])
def test_a_map_at_any_depth_keeps_its_order_after_a_reload(tmp_path, given):
    """A map in a list (in a map) lists its keys in the order written, in a game and after a
    reload (JSON sorts them: a reload stopped with 'not the decision its step asks'); an
    override's maps take the order of those they replace."""
    rules = load_text(tmp_path, LISTED, "g.yaml")
    c = Compiler(rules.names)
    S = rules.new_game(2, seed=1, options={"params": given})
    T = rules.state_from_json(S.to_json())
    assert T == S and T.legal_actions() == S.legal_actions() == ["red", "green", "blue", "y", "x"]
    for state in (S, T):
        assert [list(m) for m in state.p["more"]] == ([["a", "b"]] if given else [])
        assert [list(t) for t in state.p["tiers"]] == [["red", "green", "blue"]] * len(state.p["tiers"])
        assert c.compile("keys(params.deep['a'][0])", has_me=False).fn(state, None, None) == ["y", "x"]


@pytest.mark.parametrize("given,message", [
    ({"tiers": [{"red": 2}]}, "parameter 'tiers': tiers[0] is a map with the keys red, green, blue, got red"),
    ({"tiers": [{"red": 2, "green": 3, "blue": 1}, {"red": "x", "green": 3, "blue": 1}]},
     "parameter 'tiers': tiers[1]['red'] is an int, got 'x'"),
    ({"deep": {"a": [{"y": 1}]}}, "parameter 'deep': deep['a'][0] is a map with the keys y, x, got y"),
    ({"deep": {"a": [3]}}, "parameter 'deep': deep['a'][0] is a map, got 3"),
    ({"tiers": [4]}, "parameter 'tiers' is a list of map, got 4 in it"),
])
def test_an_override_is_checked_like_the_value_it_replaces_at_every_level(tmp_path, given, message):
    rules = load_text(tmp_path, LISTED, "g.yaml")
    with pytest.raises(UsageError) as info:
        rules.new_game(2, seed=1, options={"params": given})
    assert info.value.message == message


def test_an_override_of_a_map_of_numbers_takes_a_fraction_for_every_player_count(tmp_path):
    """The values' kind is the parameter's type (here map[num], a 3-player game's 2.5), not
    that of the map of this player count (whole numbers): 2.5 was refused for 2 players."""
    rules = load_text(tmp_path, _price("{by_players: {2: {red: 2, green: 3}, 3: {red: 2.5, green: 3}}}")
                      .replace("amount: \"params.price[c]\"", "amount: \"1\""), "g.yaml")
    S = rules.new_game(2, seed=1, options={"params": {"price": {"green": 1, "red": 2.5}}})
    assert S.p["price"] == {"red": 2.5, "green": 1} and list(S.p["price"]) == ["red", "green"]
    assert rules.state_from_json(S.to_json()) == S
    with pytest.raises(UsageError, match=r"parameter 'price': price\['red'\] is a num, got 'x'$"):
        rules.new_game(2, seed=1, options={"params": {"price": {"green": 1, "red": "x"}}})


OUTSIDE = _price("{by_players: {2: {red: 2, green: 3}, 3: {red: 2, green: 3}, 7: {red: 1, green: 1, gold: 1}}}")


def test_a_by_players_entry_no_game_plays_is_a_located_warning_and_gives_no_keys(tmp_path):
    """A 7-player map of a 2-3 player game: a warning at its entry, and its keys are none a
    game has (params.price['gold'] loaded, and failed in every game)."""
    rules = load_text(tmp_path, OUTSIDE, "g.yaml")
    [w] = [d for d in rules.warnings if d.code == "params"]
    line = next(i for i, t in enumerate(OUTSIDE.split("\n")) if "gold" in t) + 1
    assert (w.message, w.loc.line, w.loc.col) == (
        "parameter 'price': no game of this ruleset has 7 players (its games: 2 to 3)", line,
        OUTSIDE.split("\n")[line - 1].index("7:") + 1)
    with pytest.raises(RulesetError) as info:
        load_text(tmp_path, OUTSIDE.replace("params.price[c]", "params.price['gold']"), "g.yaml")
    assert [d.message for d in info.value.diagnostics if d.severity == "error"] == [
        "the map has no key 'gold' (its keys: red, green)"]


def test_an_entry_a_variant_plays_is_no_warning():
    """Diamonds' rounds for 2 players: its two_player variant's."""
    from helpers import bundled
    assert not [d for d in bundled("diamonds").warnings if d.code == "params"]


def test_a_playable_count_with_no_value_is_a_load_error(tmp_path):
    text = _price("{by_players: {2: {red: 2, green: 3}}}").replace("max: 3}", "max: 4}")
    with pytest.raises(RulesetError) as info:
        load_text(tmp_path, text, "g.yaml")
    [d] = info.value.diagnostics
    assert (d.message, d.hint) == ("parameter 'price' has no value for 3, 4 players (by_players: 2)",
                                   "give it a default: for the other player counts")
    assert d.loc.line == next(i for i, t in enumerate(text.split("\n")) if "price:" in t) + 1


def test_an_action_space_lists_the_keys_of_its_player_counts_map(tmp_path):
    from interpreter.adapters.actions import action_space
    rules = load_text(tmp_path, VARIED, "g.yaml")
    assert sorted(action_space(rules, 2).labels) == ["green", "red"]
    assert sorted(action_space(rules, 3).labels) == ["blue", "green", "red"]


RANKS = "{2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, T: 10, J: 11, Q: 12, K: 13, A: 14}"


def test_a_set_maps_keys_are_text_as_written():
    """YAML reads `2:` as a whole number; a --set value's keys are text as a ruleset's are
    (it was refused: 'keys 2, 3, ..., got 2, 3, ...')."""
    from helpers import bundled
    rules = bundled("spades")
    S = rules.new_game(4, seed=1, options={"params": {"rank_of": RANKS}})
    assert S.p["rank_of"] == rules.new_game(4, seed=1).p["rank_of"] and list(S.p["rank_of"])[:2] == ["2", "3"]
    with pytest.raises(UsageError, match=r"expects map, got .*: duplicate key '2' \(at character 8\)$"):
        rules.new_game(4, seed=1, options={"params": {"rank_of": RANKS.replace("3: 3", "'2': 3")}})
    with pytest.raises(UsageError, match=r"a map's keys are text, got 2 \(write '2'\)$"):
        rules.new_game(4, seed=1, options={"params": {"rank_of": {2: 2}}})


def test_a_nested_maps_key_read_as_an_attribute_has_a_hint_of_the_whole_read(tmp_path):
    text = NESTED.replace("params.price[c]", "params.nest['z'].y")
    with pytest.raises(RulesetError) as info:
        load_text(tmp_path, text, "g.yaml")
    [d] = info.value.diagnostics
    assert (d.message, d.hint) == ("a map is read by key, not as an attribute: 'y'", "write params.nest['z']['y']")


def test_an_empty_map_for_one_player_count_is_a_map(tmp_path):
    rules = load_text(tmp_path, _price("{by_players: {2: {}, 3: {blue: 1, red: 2}}}").replace(
        "amount: \"params.price[c]\"", "amount: \"1\""), "g.yaml")
    assert rules.names.params["price"] == "map[int]"
    keys = Compiler(rules.names).compile("keys(params.price)", has_me=False).fn
    assert [keys(rules.new_game(n, seed=1), None, None) for n in (2, 3)] == [[], ["blue", "red"]]
    alone = load_text(tmp_path, GAME.replace("{red: 2, green: 3, blue: 1}", "{}").replace(
        "amount: \"params.price[c]\"", "amount: \"1\""), "e.yaml")
    assert alone.names.params["price"] == "map[any]"


def test_keys_of_a_define_holding_a_map(tmp_path):
    rules = load_text(tmp_path, VARIED.replace("vars:", "define:\n  pr: \"params.price\"\nvars:")
                      .replace("keys(params.price) where", "keys(pr) where"), "g.yaml")
    assert [rules.new_game(n, seed=1).legal_actions() for n in (2, 3)] == [["red", "green"], ["blue", "red", "green"]]


def test_an_override_of_an_empty_map_or_a_nested_value_names_it_plainly(tmp_path):
    """An empty map is "an empty map" (it read "the keys , got a"), a nested value's place is
    written as an expression reads it, nested[0][0] (it read "0.0 is a int")."""
    text = GAME.replace("  price: {value: {red: 2, green: 3, blue: 1}}",
                        "  price: {value: {red: 2, green: 3, blue: 1}}\n  none: {value: {}}\n  nested: {value: [[1, 2], [3]]}")
    rules = load_text(tmp_path, text, "g.yaml")
    for given, message in (({"none": "{a: 1}"}, "parameter 'none' is an empty map, got a"),
                           ({"nested": "[[1.5]]"}, "parameter 'nested': nested[0][0] is an int, got 1.5")):
        with pytest.raises(UsageError) as info:
            rules.new_game(2, seed=1, options={"params": given})
        assert info.value.message == message


TABLED = GAME.replace("players: {min: 2, max: 2}", "players: {min: 2, max: 3}").replace(
    "  price: {value: {red: 2, green: 3, blue: 1}}", "  price: {by_players: {2: {red: 2}, 3: {red: 1}, 5: {red: 1}}}")


def test_a_variants_own_entry_for_a_count_it_has_not_is_a_located_warning(tmp_path):
    """A variant's by_players entries are checked against its own games (they were never
    checked); the ruleset's 5 is no warning: the variant 'big' has games of 5."""
    text = TABLED + ("variants:\n  small:\n    players: {max: 2}\n    params:\n      price: {by_players: {2: {red: 1}, 3: {red: 3}}}\n"
                     "  big:\n    players: {max: 5}\n    params:\n      price: {by_players: {4: {red: 1}}, default: {red: 2}}\n")
    rules = load_text(tmp_path, text, "g.yaml")
    [w] = [d for d in rules.warnings if d.code == "params"]
    line = text.split("\n").index("      price: {by_players: {2: {red: 1}, 3: {red: 3}}}") + 1
    assert (w.message, w.loc.line, w.loc.col) == (
        "parameter 'price': no game of variant small has 3 players (its games: 2)", line, 41)


def test_an_entry_not_written_plainly_is_a_warning(tmp_path):
    """02: counted as reachable (2 players), and no game reads it: a 2-player game reads 2."""
    rules = load_text(tmp_path, TABLED.replace("2: {red: 2}", "02: {red: 2}").replace("5: {red: 1}", "2: {red: 2}"), "g.yaml")
    assert [d.message for d in rules.warnings if d.code == "params"] == [
        "parameter 'price': no game reads the entry 02 (a game of 2 players reads the entry 2)"]


def test_validate_drops_a_bases_warning_for_an_entry_a_file_extending_it_reads(tmp_path, capsys):
    """base.yaml (2-3 players) gives a value for 5, which big.yaml (extends it, up to 5 players)
    reads: validated together, --strict passes (it failed on the base's warning)."""
    from helpers import run_cli
    base = tmp_path / "base.yaml"
    base.write_text(TABLED.replace("3: {red: 1}, 5:", "3: {red: 1}, 4: {red: 1}, 5:"))
    (tmp_path / "big.yaml").write_text("extends: base.yaml\nplayers: {max: 5}\n")
    code, out, err = run_cli(capsys, "validate", "--strict", base, tmp_path / "big.yaml")
    assert code == 0 and out.endswith("2 checked: ok\n") and not err
    code, out, err = run_cli(capsys, "validate", "--strict", base)
    assert code == 1 and "no game of this ruleset has 5 players" in err
