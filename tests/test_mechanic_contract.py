"""The mechanic contract (interpreter/mechanics/contract.py) holds: the classes behind its
protocols have every member it lists, the mechanics use no member it does not list, a step's
members are each grouped under one client; and a new mechanic (tests/example_mechanic.py, the
example of docs/mechanics/adding.md) is added, built and played through the public registry."""
from __future__ import annotations

import ast
import re
import textwrap
from pathlib import Path

import pytest

import interpreter
from interpreter.errors import RulesetError
from interpreter.mechanics import contract
from interpreter.mechanics.base import EFFECT_KINDS, STEP_KINDS, Step
from helpers import bundled, load_text, tiny_ruleset

ROOT = Path(__file__).resolve().parent.parent
MECHANICS = ROOT / "interpreter" / "mechanics"
PAGE = ROOT / "docs" / "mechanics" / "adding.md"


# ---------------------------------------------------------------------- the contract itself
def _members(proto) -> set[str]:
    return {n for n in vars(proto) if not n.startswith("_")} | set(getattr(proto, "__annotations__", {}))


def test_every_member_of_a_step_is_grouped_under_one_client():
    public = {n for n in dir(Step) if not n.startswith("_")}
    grouped = [n for names in contract.CLIENTS.values() for n in names]
    assert sorted(set(grouped)) == sorted(grouped), "a member grouped twice"
    assert set(grouped) == public, (set(grouped) - public, public - set(grouped))


def test_the_classes_behind_the_protocols_have_every_member():
    from interpreter.building.builder import Builder
    from interpreter.building.emitter import Emitter
    from interpreter.building.flowgen import FlowSource
    from interpreter.loading.variants import load_data
    from interpreter.loading.resources import find_ruleset
    ctx = Builder(load_data(find_ruleset("diamonds")))
    ctx.build()
    rules = bundled("diamonds")
    pairs = [(ctx, contract.BuildContext), (ctx.fx, contract.EffectContext),
             (Emitter(), contract.Emitter),
             (rules.new_game(4, seed=1), contract.RunState),
             (FlowSource(rules.steps, rules.max_steps), contract.FlowWriter)]
    for obj, proto in pairs:
        missing = [m for m in sorted(_members(proto)) if not hasattr(obj, m)]
        assert not missing and isinstance(obj, proto), f"{type(obj).__name__} lacks {missing} of {proto.__name__}"


# the names the mechanics give the contexts they are handed (mechanics/contract.py)
USED_AS = {"ctx": contract.BuildContext, "fx": contract.EffectContext, "em": contract.Emitter,
           "S": contract.RunState, "g": contract.FlowWriter}


def _uses(path: Path) -> list[tuple[str, str, int]]:
    """(context name, member, line) of every ``ctx.x``, ``fx.x``, ``S.x``... in a module's code
    (not in the Python it writes as text)."""
    tree = ast.parse(path.read_text())
    return [(n.value.id, n.attr, n.lineno) for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in USED_AS]


def test_the_mechanics_use_only_what_the_contract_lists():
    outside = [f"{p.name}:{line}: {name}.{attr}" for p in sorted(MECHANICS.glob("*.py"))
               for name, attr, line in _uses(p) if attr not in _members(USED_AS[name])
               and not (name == "fx" and p.name == "base.py")]   # (base.py's fx is an effect step)
    assert not outside, f"members the mechanic contract does not list: {outside}"


def test_the_contract_check_sees_a_member_it_does_not_list(tmp_path):
    fake = tmp_path / "m.py"
    fake.write_text("def build(ctx, S):\n    ctx.error('x', ())\n    return ctx.secret, S.z\n")
    uses = _uses(fake)
    assert ("ctx", "secret", 3) in uses and "secret" not in _members(contract.BuildContext)


# ---------------------------------------------------------------------- the example mechanic
GAME = """
game: vote_demo
players: {min: 3, max: 3}
counters:
  points: {owner: player}
  pot: {start: 9}
flow:
  - vote: {options: "['red', 'blue']", as: colour, then: [{gain: {counter: points, amount: 2}}]}
  - halve: {counter: pot}
"""


def test_the_example_mechanic_builds_and_plays(example, tmp_path):
    rules = load_text(tmp_path, textwrap.dedent(GAME))
    S = rules.new_game(3, seed=1, record=True)
    assert S.current_player() == 0 and S.legal_actions() == ["red", "blue"] and S.prompt() == "vote"
    S.apply("blue")
    assert S.observation(2)["votes"] == ["blue"]
    assert rules.state_from_json(S.to_json()) == S   # its frame fits the shape it declares
    S.apply("red")
    S.apply("red")
    assert S.is_terminal()
    assert S.v["colour"] == "red" and S.c["points"] == [0, 2, 2] and S.c["pot"] == 4
    assert {"ev": "halve", "counter": "pot", "who": None} in S.ev


def test_the_example_mechanic_offers_a_fixed_action_space(example, tmp_path):
    from interpreter.adapters.actions import action_space, space_warning
    rules = load_text(tmp_path, textwrap.dedent(GAME))
    assert action_space(rules, 3).labels == ("blue", "red") and space_warning(rules) is None


def test_the_example_mechanic_keys_are_checked_from_its_table(example, tmp_path):
    bad = GAME.replace("as: colour,", "as: colour, voterz: players,").replace("{counter: pot}", "{count: pot}")
    with pytest.raises(RulesetError) as e:
        load_text(tmp_path, textwrap.dedent(bad))
    text = str(e.value)
    assert "unknown key 'voterz'" in text and "did you mean 'voters'" in text
    assert "missing required key 'counter'" in text and "halve takes counter:" in text


def test_the_example_mechanic_is_removed_after_its_tests(example):
    assert "vote" in STEP_KINDS and example.Vote.keys == example.VOTE_KEYS


def test_the_page_shows_the_example_as_it_is():
    """Each Python block of docs/mechanics/adding.md is a part of tests/example_mechanic.py,
    and each YAML block of it builds with the example registered (below)."""
    source = (Path(__file__).parent / "example_mechanic.py").read_text()
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text(), flags=re.S)
    assert len(blocks) >= 3
    for block in blocks:
        assert block.strip() in source, f"not in tests/example_mechanic.py:\n{block}"


def test_the_page_groups_a_steps_members_as_the_contract_does():
    rows = re.findall(r"^\| (\w+) [^|]*\| (`.*`) \|$", PAGE.read_text(), flags=re.M)
    shown = {client.lower(): set(re.findall(r"`(\w+)`", members)) for client, members in rows}
    assert shown == {client: set(names) for client, names in contract.CLIENTS.items()}


def test_the_yaml_of_the_page_builds(example, tmp_path):
    blocks = re.findall(r"```yaml\n(.*?)```", PAGE.read_text(), flags=re.S)
    assert blocks
    for block in blocks:
        rules = load_text(tmp_path, block)
        assert rules.new_game(rules.min_players, seed=1).legal_actions()


def test_the_bundled_kinds_stay_without_the_example():
    """The example registers only inside its own tests' fixture."""
    assert "vote" not in STEP_KINDS and "halve" not in EFFECT_KINDS
    assert interpreter.load  # (the package imports with no example in it)


BASE = tiny_ruleset("""
  hand: {owner: player}
""", attributes="rank: 1..4", label="{rank}", seen=None)


def test_a_kind_with_keys_says_which_when_given_no_mapping(tmp_path):
    """The message names the keys from the kind's table (not a list written beside it)."""
    from interpreter.mechanics.contract import key_names
    with pytest.raises(RulesetError) as e:
        load_text(tmp_path, BASE + "flow:\n  - pick: hand\n")
    assert f"pick takes a mapping ({', '.join(key_names(STEP_KINDS['pick'].keys))})" in str(e.value)
    assert "if_none" in str(e.value)


def test_turns_alone_is_one_round(tmp_path):
    rules = load_text(tmp_path, BASE + "flow:\n  - turns:\n    steps: [{move: {from: deck, to: hand, count: 1}}]\n")
    S = rules.new_game(2, seed=1)
    assert S.is_terminal() and [len(h) for h in S.z["hand"]] == [1, 1]


@pytest.mark.parametrize("where", ["flow:\n  - if: 'true'\n    than: [{move: {from: deck, to: hand}}]\n",
                                   "flow:\n  - turns:\n    steps: [{choose: {options: '[1]', as: x, then: "
                                   "[{if: 'true', than: []}]}}]\n"])
def test_an_if_has_one_table_of_keys_as_a_step_and_as_an_effect(tmp_path, where):
    with pytest.raises(RulesetError) as e:
        load_text(tmp_path, BASE + where)
    assert "unknown key 'than'" in str(e.value) and "did you mean 'then'" in str(e.value)
