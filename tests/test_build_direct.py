"""Rules of the ruleset builder stated one by one, each on a ruleset written for it."""
from __future__ import annotations

import pytest

from interpreter.building import load
from interpreter.errors import RulesetError
from helpers import write_ruleset
from test_hardening import GAME
from test_mechanics import BASE, load as load_body

REFUSED_HOIST = GAME.replace("        - gain: {counter: pts, amount: 1}", """\
        - if: "any(hand where first(deck where n == 1) == none, by: n > 0)"
          then: [{gain: {counter: pts, amount: 5}}]
        - gain: {counter: pts, amount: 1}""")


def test_an_effect_list_compiled_again_without_hoisting_has_each_coverage_probe_once(tmp_path):
    """Python refuses the first compile of the `if` (a := in a comprehension): its probes are
    forgotten with it, so the table has one counter per rule point (items[i] <-> counts[i])."""
    rules = load(write_ruleset(tmp_path, REFUSED_HOIST), coverage=True)
    probes = rules.probes
    points = [(p.kind, p.what) for p in probes.items]
    assert len(points) == len(set(points)) and len(probes.counts) == len(probes.items)
    assert [k for k, _ in points].count("then") == 1
    S = rules.new_game(2)
    S.apply_index(0)     # the hand is empty: the `if` runs, its `then` does not
    fired = {what: n for (kind, what), n in zip(points, probes.counts) if kind in ("effects", "then")}
    assert sorted(fired.values()) == [0, 1, 1] and fired["effects: if"] == 1


def test_a_warning_of_an_effect_list_compiled_again_is_said_once(tmp_path):
    text = REFUSED_HOIST.replace("hand: {owner: player, visible: owner}", "hand: {owner: player, visible: owner, sorted: true}")
    text = text.replace("then: [{gain: {counter: pts, amount: 5}}]", "then: [{gain: {counter: pts, amount: 5}}, {shuffle: hand}]")
    rules = load(write_ruleset(tmp_path, text))
    said = [w.message for w in rules.warnings]
    assert said.count("zone 'hand' is kept sorted: shuffling it does not change its order") == 1, said


def test_a_write_to_a_team_s_zone_or_counter_names_the_team_in_its_event(tmp_path):
    """Seat 2 and seat 3 are of teams 0 and 1: the events name the team that owns what changed
    (what redaction and the table read), not the seat."""
    base = BASE.replace("counters:\n", "counters:\n  pot: {owner: team}\n").replace("zones:\n", "zones:\n  stash: {owner: team}\n")
    rules = load_body(tmp_path, """
    teams: {by_players: {"4": [[0, 2], [1, 3]]}}
    flow:
      - with_player:
          who: 2
          do: [{gain: {counter: pot}}, {gain: {counter: "pot[3]", amount: 2}}, {move: {from: deck, to: "stash[3]", count: 1}},
               {move: {from: deck, to: stash, count: 1}}]
    """, base=base)
    S = rules.new_game(4, record=True)
    assert S.c["pot"] == [1, 2] and [len(s) for s in S.z["stash"]] == [1, 1]
    assert [(e["ev"], e.get("owner", e.get("to_owner"))) for e in S.ev] == [("gain", 0), ("gain", 1), ("move", 1), ("move", 0)]


@pytest.mark.parametrize("target, message", [
    ("gems['rde']", "'rde' is not a key of gems (its keys: red, blue)"),
    ("gems[nobody]['red']", "unknown name 'nobody'"),
])
def test_a_wrong_family_counter_as_an_effect_s_target_is_one_error(tmp_path, target, message):
    base = BASE.replace("counters:\n", "counters:\n  gems: {owner: player, keys: [red, blue]}\n")
    with pytest.raises(RulesetError) as info:
        load_body(tmp_path, f"flow:\n  - gain: {{counter: \"{target}\"}}\n", base=base)
    errors = [d for d in info.value.diagnostics if d.severity == "error"]
    assert len(errors) == 1 and errors[0].message.startswith(message), errors
