"""A choice among one zone's cards (the zone, or a filter of it) in a ruleset where every card is
labelled its own way offers them as they are: no card is ever twice in a zone, so none shares
a label with another (no pass removing duplicates). Any other list, or cards that share labels,
are offered once each, as the reference offers them."""
from __future__ import annotations

import pytest

from helpers import load_text
from interpreter.engine.ruleset import Ruleset
from test_flowgen import lockstep

GAME = """
game: choose_one_zone
players: {min: 2, max: 2}
components:
  chips:
    label: "%s"
    attributes: {n: 1..6}
zones:
  pool: {owner: none, visible: all, start: [chips]}
  mine: {owner: player, visible: all}
vars:
  c: card
flow:
  - turns:
      from: 0
      until: "count(pool) < 3"
      steps:
        - choose: {options: "%s", as: c}
        - move: {from: pool, to: mine, cards: "[c]"}
scoring:
  categories: {chips: "count(mine)"}
"""


def _play(rules, monkeypatch) -> tuple[int, list]:
    """(calls of Ruleset.distinct, the options of every question) over a few random games."""
    calls, asked = [0], []
    plain = Ruleset.distinct

    def counted(self, options, typ):
        calls[0] += 1
        return plain(self, options, typ)

    monkeypatch.setattr(Ruleset, "distinct", counted)
    for seed in range(3):
        S = rules.new_game(2, seed=seed)
        while not S.is_terminal():
            asked.append(S.dec[1])
            S.apply_index(seed % len(S.dec[1]))
    return calls[0], asked


@pytest.mark.parametrize("options", ["pool", "pool where n > 1", "pool as x where x.n < 6 where n > 1"])
def test_one_zones_cards_labelled_their_own_way_are_the_options(tmp_path, monkeypatch, options):
    rules = load_text(tmp_path, GAME % ("c{n}", options))
    calls, asked = _play(rules, monkeypatch)
    assert calls == 0 and asked
    for seed in range(3):
        assert lockstep(rules, 2, seed) > 0


@pytest.mark.parametrize("label,options,offered", [
    ("same", "pool", 1),                          # every chip labelled alike: one option
    ("c{n}", "pool + pool", 6),                   # the same zone twice: each card once
])
def test_cards_that_may_share_a_label_are_offered_once(tmp_path, monkeypatch, label, options, offered):
    rules = load_text(tmp_path, GAME % (label, options))
    calls, asked = _play(rules, monkeypatch)
    assert calls > 0 and len(asked[0]) == offered
    for seed in range(3):
        assert lockstep(rules, 2, seed) > 0
