import json

import pytest

from interpreter.loading import resources
from interpreter.errors import Location, RulebookError
from interpreter.loading.schema import check_schema, load_schema
from interpreter.loading.source import SourceMap, load_yaml

STEP_KINDS = {"oneOf": [
    {"type": "object", "required": ["shuffle"], "additionalProperties": False,
     "properties": {"shuffle": {"type": "string"}}},
    {"type": "object", "required": ["deal"], "additionalProperties": False,
     "properties": {"deal": {"type": "object", "required": ["count"],
                             "properties": {"count": {"type": "integer", "minimum": 1}}}}},
]}

SCHEMA = {
    "type": "object",
    "required": ["game", "flow"],
    "additionalProperties": False,
    "properties": {
        "game": {"type": "string"},
        "players": {"type": "object", "additionalProperties": False,
                    "properties": {"min": {"type": "integer"}, "max": {"type": "integer"}}},
        "zones": {"type": "object", "additionalProperties": {
            "type": "object", "properties": {"visible": {"enum": ["all", "owner", "nobody"]}}}},
        "flow": {"type": "array", "items": STEP_KINDS},
        "tags": {"type": "array", "maxItems": 2},
    },
}


def check(text):
    data, smap = load_yaml(text, "g.yaml")
    return check_schema(data, smap, SCHEMA)


def L(line, col):
    return Location("g.yaml", line, col)


def test_valid_document_has_no_diagnostics():
    assert check("game: x\nflow:\n  - shuffle: main\n  - deal: {count: 3}\n") == []


def test_unknown_key_with_suggestion_at_the_key():
    [d] = check("game: x\nflow: []\nplayers:\n  min: 2\n  mxa: 4\n")
    assert (d.code, d.loc, d.span) == ("unknown-key", L(5, 3), 3)
    assert d.message == "unknown key 'mxa'" and d.hint == "did you mean 'max'? (accepted keys: min, max)"
    assert d.format() == ("g.yaml:5:3: error[unknown-key]: unknown key 'mxa'\n"
                          "      mxa: 4\n"
                          "      ^^^\n"
                          "  hint: did you mean 'max'? (accepted keys: min, max)")


def test_unknown_key_without_suggestion_lists_allowed_keys():
    [d] = check("game: x\nflow: []\nplayers: {qqq: 1}\n")
    assert d.message == "unknown key 'qqq'" and d.loc == L(3, 11)
    assert d.hint == "accepted keys: min, max"


def test_a_text_cut_at_a_comma_is_told_to_be_quoted():
    """In a flow mapping a comma ends a value: `{min: 2, max: 4, the most seats}` makes a key of
    `the most seats`; a key with a space is no misspelling, and the hint says to quote the text."""
    [d] = check("game: x\nflow: []\nplayers: {min: 2, max: 4, the most seats}\n")
    assert d.message == "unknown key 'the most seats'" and d.loc == L(3, 27)
    assert d.hint == ("a comma inside { } ends the text before it: put a text holding a comma in quotes "
                      "(accepted keys: min, max)")


def test_a_ruleset_s_text_cut_at_a_comma_is_told_to_be_quoted(tmp_path):
    import interpreter
    path = tmp_path / "g.yaml"
    path.write_text("game: g\nplayers: {min: 2, max: 2}\ncomponents:\n  cards: {attributes: {rank: 1..3}, label: \"{rank}\"}\n"
                    "zones:\n  deck: {start: [cards], doc: the deck, face down}\nflow: []\n")
    with pytest.raises(RulebookError) as info:
        interpreter.load(path)
    d = info.value.diagnostics[0]
    assert d.message == "unknown key 'face down'" and d.hint.startswith("a comma inside { } ends the text before it")


RULESET = ("game: g\nplayers: {min: 2, max: 2}\ncomponents:\n  cards: {attributes: {rank: 1..3}, label: \"{rank}\"}\n"
           "zones:\n  deck: {start: [cards]%s}\ncounters:\n  points: {owner: player}\nflow:%s\n%s")


@pytest.mark.parametrize("deck, flow, top, key, hint", [
    # a key with no value in { }: the rest of a text cut at a comma, in one word too
    (", doc: the deck, faceup", " []", "", "faceup", "a comma inside { } ends the text before it"),
    # a key with a value, or in a block mapping, is no cut text: its did-you-mean, or the accepted keys
    ("", " []", "end when: [\"true\"]\n", "end when", "did you mean 'end_when'?"),
    ("", "\n  - gain: {counter: points, amount: 1, to whom: me}", "", "to whom", "accepted keys: counter, amount"),
    # with no value in { } but a close key: the did-you-mean
    (", doc: the deck, sortd", " []", "", "sortd", "did you mean 'sorted'?"),
])
def test_the_quote_hint_is_for_a_key_with_no_value_in_braces(tmp_path, deck, flow, top, key, hint):
    import interpreter
    path = tmp_path / "g.yaml"
    path.write_text(RULESET % (deck, flow, top))
    with pytest.raises(RulebookError) as info:
        interpreter.load(path)
    [d] = [d for d in info.value.diagnostics if d.code == "unknown-key"]
    assert d.message == f"unknown key '{key}'" and d.hint.startswith(hint)


def test_missing_required_key_at_the_mapping():
    [d] = check("game: x\nplayers: {min: 1}\n")
    assert (d.code, d.message, d.loc) == ("missing-key", "missing required key 'flow'", L(1, 1))


def test_wrong_type():
    [d] = check("game: x\nflow: []\nplayers:\n  min: three\n")
    assert (d.code, d.message, d.loc, d.span) == ("type", "expected integer, got string", L(4, 8), 5)
    [d] = check("game: [a]\nflow: {}\n")[:1]
    assert d.message == "expected string, got list"


def test_enum_with_suggestion():
    [d] = check("game: x\nflow: []\nzones:\n  hand: {visible: ownr}\n")
    assert d.message == "'ownr' is not one of 'all', 'owner', 'nobody'"
    assert d.hint == "did you mean 'owner'?" and d.loc == L(4, 19)


def test_one_of_reports_the_alternative_that_was_meant():
    diags = check("game: x\nflow:\n  - shuffle: 3\n  - deal: {count: 0}\n  - dael: {count: 1}\n")
    assert [(d.loc, d.message) for d in diags] == [
        (L(3, 14), "expected string, got integer"),
        (L(4, 19), "0 is less than the minimum of 1"),
        (L(5, 5), "unknown key 'dael'"),
    ]


def test_one_of_falls_back_to_best_match():
    [d] = check("game: x\nflow:\n  - 5\n")
    assert d.loc == L(3, 5) and d.message == "expected mapping, got integer"


def test_all_errors_collected_and_sorted():
    diags = check("players: {min: x}\ngame: 1\nfllow: []\n")
    assert [(d.loc.line, d.code) for d in diags] == [
        (1, "missing-key"), (1, "type"), (2, "type"), (3, "unknown-key")]
    assert diags[3].message == "unknown key 'fllow'" and diags[3].hint.startswith("did you mean 'flow'? (accepted keys: ")


def test_messages_never_dump_the_instance():
    [d] = check("game: x\nflow: []\ntags: [" + ", ".join(["a-rather-long-tag-name"] * 20) + "]\n")
    assert d.loc == L(3, 7) and len(d.message) < 120 and "..." in d.message


def test_data_built_in_code_has_no_location():
    [d] = check_schema({"game": 1, "flow": []}, SourceMap.empty(), SCHEMA)
    assert d.loc is None and d.message == "expected string, got integer"


def test_resource_dir_prefers_checkout():
    root = resources.resource_dir("schemas").parent
    assert (root / "pyproject.toml").is_file() and (root / "interpreter").is_dir()
    with pytest.raises(ValueError):
        resources.resource_dir("secrets")


def test_load_schema(monkeypatch, tmp_path):
    (tmp_path / "mini.json").write_text(json.dumps({"type": "object"}))
    monkeypatch.setattr("interpreter.loading.schema.resource_dir", lambda kind: tmp_path)
    assert load_schema("mini.json") == {"type": "object"}
    with pytest.raises(RulebookError):
        load_schema("absent.json")



def test_a_misspelt_key_in_a_mapping_that_may_also_be_a_bare_value_is_an_unknown_key():
    """A counter, a variable or a parameter is a bare value or a mapping of keys: a mapping with a
    misspelt key is reported as that key, with a did-you-mean, not as the wrong type; a value of
    neither form is still the wrong type."""
    text = ("game: x\nplayers: {min: 2, max: 2}\nparams:\n  skill: {defualt: 0.8}\n"
            "counters:\n  coins: {owner: player, strat: 3}\nflow: []\n")
    data, smap = load_yaml(text, "x.yaml")
    diags = check_schema(data, smap, load_schema())
    assert [(d.loc.line, d.message, d.hint.split("?")[0]) for d in diags] == [
        (4, "unknown key 'defualt'", "did you mean 'default'"),
        (6, "unknown key 'strat'", "did you mean 'start'")]
    data, smap = load_yaml(text.replace("{owner: player, strat: 3}", "[3]"), "x.yaml")
    assert [d.message for d in check_schema(data, smap, load_schema())][1].startswith("expected ")
