"""A define is compiled where it is used (docs/reference.md "Defines"): the element of a
filter, `it` and a hook's locals mean there what they mean at the use; a define that only
makes sense in such a place is an error where it is used elsewhere, not where it is written."""
from __future__ import annotations

import pytest

import interpreter
from interpreter.errors import RulesetError
from helpers import load_text

GAME = """
game: defines
players: {min: 2, max: 2}
components:
  cards: {attributes: {suit: [A, B], rank: 1..5}, label: "{rank}{suit}"}
zones:
  deck: {owner: none, visible: all, start: [cards]}
  hand: {owner: player, visible: owner}
  table: {owner: none, visible: all}
  won: {owner: player, visible: all}
counters:
  points: {owner: player}
define:
  high: "rank > 3"
  of_a: "suit == 'A'"
  own_rank: "it.rank"
  led_high: "led.rank > 3"
vars:
  n: int
setup:
  - deal: {from: deck, to: hand, count: 3}
flow:
  - set: {n: "%s"}
  - tricks:
      hand: hand
      table: table
      leader: 0
      rank: rank
      collect: won
      on_win: [{if: led_high, then: [{gain: {counter: points}}]}]
scoring:
  categories: {points: points}
"""


def load(tmp_path, use):
    return load_text(tmp_path, GAME % use, "g.yaml")


def rank(rules, c) -> int:
    return int(rules.card_labels[c][:-1])


@pytest.mark.parametrize("use", ["count(deck where high and of_a)", "sum(deck where high, by: own_rank)",
                                 "count(map(deck, to: own_rank) where it > 3)"])
def test_a_define_reads_the_element_where_it_is_used(tmp_path, use):
    rules = load(tmp_path, use)
    S = rules.new_game(2, seed=4)
    high = [c for c in S.z["deck"] if rank(rules, c) > 3]
    expected = {"count(deck where high and of_a)": sum(1 for c in high if rules.card_labels[c].endswith("A")),
                "sum(deck where high, by: own_rank)": sum(rank(rules, c) for c in high),
                "count(map(deck, to: own_rank) where it > 3)": len(high)}[use]
    assert S.v["n"] == expected and expected > 0


def test_a_hook_local_in_a_define_means_the_hook_s_local(tmp_path):
    rules = load(tmp_path, "0")
    S = rules.new_game(2, seed=4, record=True)
    while not S.is_terminal():
        S.apply_index(0)
    tricks = [e for e in S.ev if e["ev"] == "trick"]
    expected = [0, 0]
    for e in tricks:   # led_high: the led card (the trick's first) is above 3
        if rank(rules, e["cards"][0]) > 3:
            expected[e["winner"]] += 1
    assert len(tricks) == 3 and S.c["points"] == expected


def test_used_where_no_card_is_in_scope_it_is_an_error_at_the_use(tmp_path):
    with pytest.raises(RulesetError) as info:
        load(tmp_path, "1 if high else 0")
    d = info.value.diagnostics[0]
    assert d.message == "in define 'high': unknown name 'rank'"
    assert d.loc.line == (GAME % "").splitlines().index('  - set: {n: ""}') + 1 and d.loc.col == 20


def test_a_real_mistake_in_a_define_is_still_reported_where_it_is_written(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text((GAME % "0").replace('  of_a: "suit == \'A\'"', '  of_a: "suit == \'A\'"\n  bad: "count(3) > 0"'))
    with pytest.raises(RulesetError) as info:
        interpreter.load(path)
    assert info.value.message == "count() needs a list, got int"
    assert info.value.loc.line == path.read_text().splitlines().index('  bad: "count(3) > 0"') + 1


def test_a_define_over_a_card_define_is_checked_where_it_is_used(tmp_path):
    """A define built on another define that reads a card's attributes means nothing where it is
    written either: it was refused there (`in define 'high': unknown name 'rank'`); it is checked
    at its uses, as the define it builds on."""
    game = GAME.replace('  of_a: "suit == \'A\'"', '  of_a: "suit == \'A\'"\n  high_a: "high and of_a"')
    rules = load_text(tmp_path, game % "count(deck where high_a)", "g.yaml")
    S = rules.new_game(2, seed=4)
    assert S.v["n"] == sum(1 for c in S.z["deck"] if rank(rules, c) > 3 and rules.card_labels[c].endswith("A")) > 0
    with pytest.raises(RulesetError) as info:
        load_text(tmp_path, game % "1 if high_a else 0", "g.yaml")
    d = info.value.diagnostics[0]
    assert d.message == "in define 'high_a': in define 'high': unknown name 'rank'"
    assert d.loc.line == (game % "").splitlines().index('  - set: {n: ""}') + 1


@pytest.mark.parametrize("extra, use", [('high_a: "high and of_a"', "1 if high else 0"),
                                        ('o2: "own_rank > 3"', "own_rank + 1")])
def test_a_define_over_a_card_define_leaves_the_other_s_wrong_use_reported(tmp_path, extra, use):
    """Checking the define built on another (put off to its uses) leaves no trace: the other
    define's own use where no card is in scope is still an error there (it was silenced, validate
    said ok and the value was None at run time)."""
    game = GAME.replace('  led_high: "led.rank > 3"', f'  led_high: "led.rank > 3"\n  {extra}')
    with pytest.raises(RulesetError) as info:
        load_text(tmp_path, game % use, "g.yaml")
    errors = [d for d in info.value.diagnostics if d.severity == "error"]
    assert [d.code for d in errors] == ["unknown-name"]
    assert errors[0].loc.line == (game % "").splitlines().index('  - set: {n: ""}') + 1


def test_a_define_s_name_out_of_its_filter_is_reported_once_at_the_define(tmp_path):
    """A define whose 'as' name is read after its filter is told at the define, and not again at
    each use (it was, the second time as if the name came from another define)."""
    game = GAME.replace('  of_a: "suit == \'A\'"', '  of_a: "suit == \'A\'"\n  bad: "count(hand as c where rank > 1) + c.rank"')
    game = game.replace("categories: {points: points}", 'categories: {points: "points + bad", more: "bad * 2"}')
    with pytest.raises(RulesetError) as info:
        load_text(tmp_path, game % "0", "g.yaml")
    errors = [d for d in info.value.diagnostics if d.severity == "error"]
    assert [d.message.split(":")[0] for d in errors] == ["'c' is out of scope here"], errors
    assert "names the elements of its filter only" in errors[0].message
    assert errors[0].loc.line == (game % "").splitlines().index('  bad: "count(hand as c where rank > 1) + c.rank"') + 1


def test_a_long_chain_of_defines_parses_each_define_once(tmp_path, monkeypatch):
    """A name read in a chain of defines, one of which gives that name with 'as' (each define
    checked where it is written asks which of the defines it uses gives it): each define is
    parsed once for that, not once per define above it in the chain (1,200 of them gave an
    internal error, RecursionError, and 800 took seconds)."""
    from interpreter.expr import named
    parsed = []
    monkeypatch.setattr(named, "parse", lambda text: parsed.append(text) or interpreter.expr.parser.parse(text))
    chain = "\n".join(f'  d{i}: "card.rank + d{i - 1}"' for i in range(1, 1500))
    game = GAME.replace('  of_a: "suit == \'A\'"', f'  of_a: "suit == \'A\'"\n  z: "deck as card where true"\n'
                        f'  d0: "card.rank"\n{chain}')
    rules = load_text(tmp_path, game % "count(z)", "g.yaml")
    S = rules.new_game(2, seed=4)
    assert S.v["n"] == len(S.z["deck"]) > 0
    assert 1500 < len(parsed) < 1600, len(parsed)
