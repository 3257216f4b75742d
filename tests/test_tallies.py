"""Counts by an attribute inside a for_each read from a tally (expr/tallies.py): the same games,
the same errors, as the reference compile (``Compiler(plain=True)``), which walks the zone at
every count; and no tally of a zone the loop's body may write, itself or through what it calls."""
from __future__ import annotations

import random

import pytest

import interpreter.building.builder as builder
from interpreter.errors import GameError
from interpreter.expr.compiler import Compiler
from helpers import bundled, load_text, write_ruleset

GAME = """
game: t
players: {min: 2, max: 3}
components:
  cards: {attributes: {suit: [A, B, C], rank: 1..5}, label: "{rank}{suit}"}
zones:
  deck: {start: [cards], visible: none}
  pile: {owner: player, visible: all}
  spare: {owner: none, visible: all}
counters:
  pts: {owner: player, start: 0, visible: all}
vars:
  x: {type: int, start: 0}
  nobody: player
params:
  order: [A, B, C, Z]          # Z: no card has it
effects:
  sweep: [{gather: {from: [spare], to: deck}}]
setup:
  - shuffle: deck
flow:
  - repeat: 4
    steps:
      - choose: {who: 0, options: "[1, 2, 3]", as: x}
      - deal: {from: deck, to: pile, count: x}
      - move: {from: deck, to: spare, count: 1}
      - for_each:
          in: params.order
          as: s
          do:
%s
scoring: {categories: {p: pts}}
"""

# the majorities of Diamonds, a seat's own pile (me), a shared zone, and an outer element inside an inner loop
READS = """
            - with_player:
                who: "one(top(players, by: count(pile where suit == s)))"
                do: [{gain: {counter: pts, amount: "count(pile where suit == s) + count(spare where suit == s)"}}]
            - for_each: {in: players, as: p, do: [{gain: {counter: "pts[p]", amount: "count(pile[p] where suit == s)"}}]}
"""


def indented(body: str) -> str:
    return "\n".join("    " + line for line in body.strip("\n").splitlines())


def built(tmp_path, body: str, plain: bool, monkeypatch):
    """The ruleset with ``body`` in its loop, its expressions compiled plainly or not."""
    with monkeypatch.context() as m:
        if plain:
            m.setattr(builder, "Compiler", lambda names: Compiler(names, plain=True))
        return load_text(tmp_path, GAME % indented(body), "plain.yaml" if plain else "fast.yaml")


def same_games(fast, plain, seeds=range(6)) -> None:
    for seed in seeds:
        a, b = fast.new_game(3, seed=seed, record=True), plain.new_game(3, seed=seed, record=True)
        rnd = random.Random(seed)
        while not a.is_terminal():
            assert a.to_json() == b.to_json() and a.ev == b.ev
            i = rnd.randrange(len(a.dec[1]))
            a.apply_index(i)
            b.apply_index(i)
        assert b.is_terminal() and a.to_json() == b.to_json() and a.ev == b.ev


def test_counts_in_a_loop_that_cannot_change_the_zones_read_tallies_and_play_the_same_games(tmp_path, monkeypatch):
    fast, plain = built(tmp_path, READS, False, monkeypatch), built(tmp_path, READS, True, monkeypatch)
    assert fast.module_source.count("_tally(") == 4 and "_count_eq" not in fast.module_source
    assert "_tally(" not in plain.module_source
    same_games(fast, plain)


@pytest.mark.parametrize("writes, tallied", [
    ("- gather: {from: [pile], to: deck}", 1),    # the pile written: only the shared zone tallied
    ("- sweep", 3),                               # a declared effect writes the shared zone
    ("- move: {from: deck, to: spare, count: 1}", 3),
    ("- if: 'x > 9'\n  then: [{move: {from: deck, to: 'pile[0]', count: 1}}]", 1),   # (whatever a branch writes)
])
def test_no_tally_of_a_zone_the_loop_may_write(tmp_path, monkeypatch, writes, tallied):
    body = READS + "".join(f"            {line}\n" for line in writes.splitlines())
    fast, plain = built(tmp_path, body, False, monkeypatch), built(tmp_path, body, True, monkeypatch)
    assert fast.module_source.count("_tally(") == tallied and "_count_eq" in fast.module_source
    same_games(fast, plain)


def test_a_tally_of_no_one_fails_as_the_walk_does(tmp_path, monkeypatch):
    body = '            - set: {x: "count(pile[nobody] where suit == s)"}'
    fast, plain = built(tmp_path, body, False, monkeypatch), built(tmp_path, body, True, monkeypatch)
    assert "_tally(" in fast.module_source
    said = []
    for rules in (fast, plain):
        S = rules.new_game(2, seed=1)
        with pytest.raises(GameError) as info:
            S.apply_index(0)
        said.append(str(info.value).replace("plain.yaml", "fast.yaml"))
    assert said[0] == said[1] and "fast.yaml:27:9: error[runtime]: in effects: a value is none" in said[0]


def test_diamonds_majorities_are_tallied(tmp_path):
    # (its games are tests/test_trajectories.py's; the loop writes counters only)
    assert "_tally(_k" in bundled("diamonds").module_source



def test_a_body_compiled_again_keeps_one_coverage_counter_each(tmp_path, monkeypatch):
    """The pile written in the loop: the body compiled a second time, without its tally, its
    first compile's coverage counters forgotten (the same counters as the plain build's)."""
    from interpreter.building import load
    body = READS + "            - gather: {from: [pile], to: deck}\n"
    path = write_ruleset(tmp_path, GAME % indented(body))
    counted = load(path, coverage=True)
    with monkeypatch.context() as m:
        m.setattr(builder, "Compiler", lambda names: Compiler(names, plain=True))
        plain = load(path, coverage=True)
    assert "_tally(" in counted.module_source and "_tally(" not in plain.module_source
    seen = [(p.kind, p.what, p.loc.line, p.loc.col) for p in counted.probes.items]
    assert seen == [(p.kind, p.what, p.loc.line, p.loc.col) for p in plain.probes.items] and len(set(seen)) == len(seen)
    same_games(counted, plain, seeds=range(2))
    assert counted.probes.counts == plain.probes.counts and sum(counted.probes.counts) > 0


def test_a_count_read_from_a_tally_is_compiled_again_where_compiles_are_reused(monkeypatch):
    """The language server's compiler reuses an expression's compile (expr/reuse.py): not one in
    a for_each's body, whose source names the loop's tally."""
    from interpreter.building import load
    from interpreter.expr.reuse import Reusing
    monkeypatch.setattr(builder, "Compiler", Reusing)
    first, again = load("diamonds"), load("diamonds")
    assert "_tally(_k" in again.module_source and again.module_source == first.module_source
