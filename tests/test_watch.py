"""Quiet effect steps (interpreter/watch.py): after an effect list that cannot change what the
when-triggers and end conditions read, the engine skips those checks; the others still run."""

import interpreter
from interpreter.mechanics.base import Effects
from interpreter.building.watch import mentions, watched
from helpers import load_text, play_first

RULES = """
game: w
players: {min: 2, max: 2}
components:
  card: {attributes: {n: 1..12}, label: "c{n}"}
zones:
  deck: {start: [card]}
  hand: {owner: player}
  market: {}
  relay: {}
counters:
  fills: {start: 0}
vars:
  k: {type: int, start: 0}
  note: {type: int, start: 0}
triggers:
  market_filled:                  # reads the market only
    when: "count(market) >= 2"
    do: [{gain: {counter: fills}}]
  relayed:                        # a card entering relay goes on to the market
    on_enter: relay
    do: [{move: {from: relay, to: market, cards: "[card]"}}]
effects:
  to_market: [{move: {from: deck, to: market, count: 1}}]
setup: [{move: {from: deck, to: market, count: 1}}]
flow:
  - repeat: 3
    steps:
      - move: {from: deck, to: "hand[0]", count: 1}     # quiet: hand, deck
      - set: {note: "note + 1"}                          # quiet: a variable nothing reads
      - choose: {who: 0, options: "[1, 2]", as: k}
      - {STEP}
      - choose: {who: 1, options: "[1, 2]", as: k}
      - move: {from: market, to: deck, count: 1}         # not quiet: the market
"""


def load(tmp_path, step):
    return load_text(tmp_path, RULES.replace("{STEP}", step), "w.yaml")


def quiet_flags(r):
    return [s.quiet for s in r.steps if isinstance(s, Effects)]


def play(r):
    S = r.new_game(2, seed=1)
    play_first(S)
    return S


def test_mentions_reads_names_calls_and_entered_zones():
    m = mentions("def fx(S, me, L):\n    S.z['hand'][me].append(S.z['deck'].pop())\n"
                 "    _triggers.entered(S, 'market', None, False, [1], me)\n    E_refill(S, me, {})\n"
                 "    S.c['x'][0] += _below(S, 3)\n")
    assert m.names == {("z", "hand"), ("z", "deck"), ("c", "x")}
    assert m.calls == {"refill"} and m.zones_entered == {"market"} and not m.opaque
    assert mentions("helper(S)").opaque and mentions("S.z[name]").opaque and mentions("S.c.get('x')").opaque
    assert watched(["(len(S.z['market']) >= 2)", "(S.v['k'] > 1)"]) == {("z", "market"), ("v", "k")}
    assert watched(["helper(S)"]) is None


def test_an_effect_on_what_nothing_watches_is_quiet_and_the_trigger_still_fires(tmp_path):
    r = load(tmp_path, "move: {from: deck, to: market, count: 1}")
    assert quiet_flags(r) == [True, True, False, False]
    S = play(r)
    assert S.c["fills"] == 3          # the step brings the market to 2 cards once per pass: checked
                                      # at once (the next check, after the last move, would see 1)


def test_a_declared_effect_or_an_enter_trigger_that_fills_the_market_is_not_quiet(tmp_path):
    for step in ("to_market", "move: {from: deck, to: relay, count: 1}"):
        r = load(tmp_path, step)
        assert quiet_flags(r) == [True, True, False, False], step
        assert play(r).c["fills"] == 3, step


def test_what_an_end_condition_reads_is_watched_too(tmp_path):
    r = load(tmp_path, "move: {from: deck, to: market, count: 1}")
    assert quiet_flags(r)[0]
    path = tmp_path / "w.yaml"
    # an end condition on the hand: drawing into it is no longer quiet
    path.write_text(path.read_text() + 'end_when: ["count(hand[0]) > 5"]\n')
    r = interpreter.load(path)
    assert quiet_flags(r) == [False, True, False, False]   # the draw into hand[0] is now watched
    S = play(r)
    assert len(S.z["hand"][0]) == 3 and S.c["fills"] == 3
