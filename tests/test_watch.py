"""Quiet effect steps (interpreter/building/watch.py): after an effect list that cannot change
what the when-triggers and end conditions read, the engine skips those checks; the others still
run. What each function touches is noted while it is compiled (interpreter/expr/access.py)."""

import pytest

import interpreter
from interpreter.expr.access import Access
from interpreter.expr.compiler import compile_expression
from interpreter.expr.names import Names
from interpreter.mechanics.base import Effects
from interpreter.building.watch import watched
from helpers import load_text, play_first, tiny_ruleset

RULES = tiny_ruleset("""
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
""", game="w", card="card", attributes="n: 1..12", label="c{n}", seen=None)


def load(tmp_path, step):
    return load_text(tmp_path, RULES.replace("{STEP}", step), "w.yaml")


def quiet_flags(r):
    return [s.quiet for s in r.steps if isinstance(s, Effects)]


def play(r):
    S = r.new_game(2, seed=1)
    play_first(S)
    return S


def test_each_function_carries_what_it_reads_writes_calls_and_enters(tmp_path):
    r = load(tmp_path, "to_market")
    (_, when, _, _, _), = r.triggers.when
    assert when.access == Access(reads=frozenset({("z", "market")}))
    draw, note, call, back = (s.fn.access for s in r.steps if isinstance(s, Effects))
    assert draw.names == {("z", "deck"), ("z", "hand")} and ("z", "hand") in draw.writes
    assert not (draw.calls or draw.zones_entered or draw.opaque)
    assert note.reads == {("v", "note")} and note.writes == {("v", "note")}
    assert call.calls == {"to_market"} and not call.names   # (what to_market touches is its own)
    assert r.setup.access.writes >= {("z", "deck"), ("z", "market")}
    relay = load(tmp_path, "move: {from: deck, to: relay, count: 1}")
    assert [s.fn.access.zones_entered for s in relay.steps if isinstance(s, Effects)][2] == {"relay"}
    assert back.names == {("z", "market"), ("z", "deck")}


@pytest.fixture
def peek():
    """A built-in ``peek(x)`` whose helper is handed the state, registered as a mechanic would
    register it (and taken out again)."""
    from interpreter.expr import builtins, runtime
    from interpreter.expr.types import NUM

    def _peek(S, x):
        return x

    def b_peek(c, n, scope, args, kw):
        return f"_peek(S, {c.node(args[0], scope)[0]})", NUM
    builtins.register_builtin("peek", b_peek, {"_peek": _peek})
    yield
    del builtins.BUILTINS["peek"], runtime.HELPERS["_peek"]
    builtins.SEES_STATE.discard("peek")
    builtins.WALKS.discard("peek")


def test_a_helper_handed_the_state_or_a_computed_counter_may_touch_anything(peek):
    names = Names(vars={"k": "int"}, counters={"gems.red": "none", "gems.blue": "none"},
                  keyed={"gems": ["red", "blue"]}, params={"skill": "num"})
    assert compile_expression("k + gems['red']", names).access == Access(
        reads=frozenset({("v", "k"), ("c", "gems.red")}))
    assert compile_expression("gems['r' + 'ed']", names).access.opaque   # (a key computed when it runs)
    assert not compile_expression("left(0) + partner(0)", names).access.opaque   # (helpers that check a seat)
    assert compile_expression("peek(0) > 0.5", names).access.opaque   # (a mechanic's helper given S)
    # (unless its mechanic says what the helper reads: skill() reads the option and the parameter)
    assert compile_expression("skill(0) > 0.5", names).access == Access(
        fixed=frozenset({"params.skill", "options.skill"}), helpers=frozenset({"skill"}))
    fixed = compile_expression("left(0) + team(1) + count(players) + params.skill", names).access
    assert fixed.fixed == {"num_players", "team", "players", "params.skill"} and not fixed.names
    assert watched([Access(reads=frozenset({("z", "market")})), Access(reads=frozenset({("v", "k")}))]) \
        == {("z", "market"), ("v", "k")}
    assert watched([Access(opaque=True)]) is None and watched([Access(calls=frozenset({"e"}))]) is None


def test_the_record_notes_the_acting_seat_the_locals_and_what_seat_helpers_read():
    names = Names(vars={"k": "int"}, counters={"coins": "player"})
    assert compile_expression("coins > 0", names).access.me            # (the acting seat's, unwritten)
    seat = compile_expression("coins[1] > 0", names).access
    assert not seat.me and seat.fixed == {"num_players"}               # (_seat checks a number is a seat)
    assert compile_expression("partner(me)", names).access.fixed == {"team"}
    assert compile_expression("count(members(0))", names).access.fixed == {"teams", "num_teams"}
    used = compile_expression("x + k", names, locals={"x": "int", "y": "int"}).access
    assert used.locals == {"x"} and not used.me


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


def test_an_effect_that_only_reads_a_watched_zone_is_quiet(tmp_path):
    # the when-trigger watches the market; this step reads it and writes only a variable nobody reads
    r = load(tmp_path, 'set: {note: "count(market)"}')
    fn = [s.fn for s in r.steps if isinstance(s, Effects)][2]
    assert ("z", "market") in fn.access.reads and ("z", "market") not in fn.access.writes
    assert quiet_flags(r) == [True, True, True, False]
    assert play(r).c["fills"] == 0   # (the market never holds two cards)
    # a step that reads the market and moves a card into it is still watched
    r = load(tmp_path, 'move: {from: deck, to: market, count: "count(market)"}')
    assert quiet_flags(r) == [True, True, False, False]


BRANCHED = 'if: "k == 2"\n        then: [{move: {from: deck, to: market, count: 1}}]'


def test_a_branch_that_may_change_what_a_check_reads_is_noted_where_it_begins(tmp_path):
    from test_flowgen import lockstep
    r = load(tmp_path, BRANCHED)
    step = [s for s in r.steps if isinstance(s, Effects)][2]
    assert not step.quiet and step.noted == (1,)   # marks: the list (0), its then (1)
    assert [len(writes) for _, _, writes in step.fn.marks] == [0, 1]
    # the sequence notes the change in the branch; with the other branch taken it goes on at
    # once, with no check: the same games, triggers and step counts as the plain reference
    assert "_changed = False" in r.flow_source and "if _changed:" in r.flow_source
    assert sum(lockstep(r, 2, seed) for seed in range(6)) > 30
    fills = set()
    for seed in range(6):
        S = r.new_game(2, seed=seed)
        rnd = __import__("random").Random(seed)
        while not S.over:
            S.apply_index(rnd.randrange(len(S.dec[1])))
        fills.add(S.c["fills"])
    assert len(fills) > 1   # (the market filled in some games, not in others: both branches ran)
