"""Rules of the ruleset builder stated one by one, each on a ruleset written for it."""
from __future__ import annotations

from interpreter.building import load
from helpers import write_ruleset
from test_hardening import GAME

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
