"""The compiled flow (building/flowgen.py) plays exactly the games the reference loop plays.

Every ruleset runs its flow through generated functions: sequences, phases, loops and turns
written out for their place in the ruleset, the trick step's run and resolve specialised, a
resolve that asks the next card itself, and the game loop generated per ruleset. The
reference is the same generators with their specialisations off (``compile_flow(rules,
plain=True)``): the loop with every branch kept, each step's plain run and resolve.
The two must agree on every state after every decision (the step count included), on the
options offered and on the events logged."""
from __future__ import annotations

import contextlib
import json
import random
from pathlib import Path

import pytest

import interpreter
from fuzzing.derived import derived, stale
from fuzzing.lockstep import reference
from helpers import bundled, calls_in_play, load_text, trick_ruleset

ROOT = Path(__file__).resolve().parent.parent
RULESETS = [("diamonds", None), ("diamonds", "teams"), ("diamonds", "two_player"), ("diams", None),
            ("mister_diamond", None), ("diamonds_club", None)]
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.yaml"))


def lockstep(rules, players: int, seed: int, decisions: int = 10_000) -> int:
    """Play one random game both ways, comparing after every decision (the tables each state
    derives from its zones checked against them too: tests/fuzzing/derived.py); the decisions played."""
    ref = reference(rules)
    a = rules.new_game(players, seed=seed, record=True)
    b = ref.new_game(players, seed=seed, record=True)
    rnd = random.Random(seed)
    for played in range(decisions):
        assert stale(a) is None and stale(b) is None, (played, stale(a), stale(b))   # (the record, the views)
        assert a.to_json() == b.to_json(), f"states differ after {played} decisions"
        assert derived(a) == derived(b), f"records or views differ after {played} decisions"
        assert a.ev == b.ev, f"events differ after {played} decisions"
        if a.is_terminal():
            assert b.is_terminal()
            return played
        assert a.legal_actions() == b.legal_actions()
        i = rnd.randrange(len(a.dec[1]))
        a.apply_index(i)
        b.apply_index(i)
    return decisions


@pytest.mark.parametrize("name,variant", RULESETS)
def test_bundled_rulesets_play_the_same_games_compiled(name, variant):
    rules = interpreter.load(interpreter.ruleset_path(name), variant=variant)
    n = rules.player_counts
    games = 2 if name == "diamonds_club" else 4
    played = sum(lockstep(rules, n[k % len(n)], seed=k) for k in range(games))
    assert played > 20 * games


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_documentation_examples_play_the_same_games_compiled(path):
    rules = interpreter.load(path)
    for k in range(3):
        lockstep(rules, rules.player_counts[k % len(rules.player_counts)], seed=k)


TRICKS = trick_ruleset("%s", game="lockstep", hooks="on_void: [{gain: {counter: points}}]\n"
                                                      "on_win: [{gain: {counter: points, amount: 2}}]")


@pytest.mark.parametrize("extra", [
    "",                                                         # nothing checked: a card played asks the next
    "end_when: ['any(players, by: points >= 3)']",              # a check reads what the hooks change
    "end_when: ['count(table) == 2']",                          # a check reads the trick itself: ends mid-trick
    "auto_forced: true",                                        # a single legal card is played without asking
    "end_when: ['count(taken[0]) > 0']\nauto_forced: true",
], ids=["quiet", "hooks-watched", "table-watched", "forced", "forced-watched"])
def test_a_trick_asks_its_next_card_itself_only_where_the_loop_would(tmp_path, extra):
    rules = load_text(tmp_path, TRICKS % extra, "lockstep.yaml")
    step = next(s for s in rules.steps if s.kind == "tricks")
    assert step.asks_again == (extra in ("", "auto_forced: true"))
    for seed in range(6):
        lockstep(rules, 3, seed)



@pytest.mark.parametrize("void,win", [
    ("card.rank", "tricks_played + 1"),                   # each hook reads one local
    ("count(trick)", "card.rank if led == card else 3"),  # the trick so far; the winning and the led card
    ("1", "count(trick) + tricks_played"),                # none; two
], ids=["one-each", "trick-and-cards", "none-and-two"])
def test_a_trick_hook_is_given_the_locals_it_reads(tmp_path, void, win):
    """A hook is called with only the locals its code reads (a copy of the trick made only for
    a hook that reads it): the same games as the plain reference, which gives every local."""
    text = TRICKS.replace("on_void: [{gain: {counter: points}}]",
                          f'on_void: [{{gain: {{counter: points, amount: "{void}"}}}}]').replace(
        "on_win: [{gain: {counter: points, amount: 2}}]", f'on_win: [{{gain: {{counter: points, amount: "{win}"}}}}]')
    rules = load_text(tmp_path, text % "", "lockstep.yaml")
    for seed in range(6):
        lockstep(rules, 3, seed)
    module = rules.module_source
    copied = module.count("P_trick = table[:]")   # (the hook's parameter, bound where it is written in place)
    assert copied == (1 if "trick" in void else 0), module



@pytest.mark.parametrize("plays,written_in", [
    ("params.plays", True),           # a parameter read
    ("1", True),                      # a constant
    ("max(1, params.plays)", False),  # a call: its function turns none used into the language's error
])
def test_a_trick_reads_a_bare_value_in_place(tmp_path, plays, written_in):
    """An expression its compiler noted as a bare read (expr/code.py shapes) is written into the
    step's code, not called; the games are the plain reference's."""
    text = TRICKS.replace("game: lockstep\n", "game: lockstep\nparams:\n  plays: 1\n").replace(
        "follow: suit", f"follow: suit\n      plays: {plays!r}")
    rules = load_text(tmp_path, text % "", "lockstep.yaml")
    assert ("k = (" in rules.flow_source) == written_in, rules.flow_source
    for seed in range(3):
        lockstep(rules, 3, seed)


PASSING = """
game: passing
players: {min: 4, max: 4}
teams: {by_players: {"4": [[0, 2], [1, 3]]}}
components:
  cards:
    attributes: {suit: [A, B], rank: 1..8}
zones:
  deck: {owner: none, visible: none, start: [cards]}
  hand: {owner: %s, visible: owner}
counters:
  points: {owner: player, start: 0, visible: all}
setup:
  - shuffle: deck
  - deal: {from: deck, to: hand, count: 3}
flow:
  - repeat: 3
    steps:
      - pass: {from: hand, to: "left(me)", count: 2}
      - for_each: {in: players, as: me, do: [{gain: {counter: points, amount: "count(hand)"}}]}
%s
scoring:
  categories: {points: points}
"""


@pytest.mark.parametrize("owner,extra", [
    ("player", ""),                                              # nothing checked: a card passed asks the next
    ("team", ""),                                                # a team's hand: its givers pick from it
    ("player", "end_when: ['count(hand[1]) == 0']"),             # a check reads the hands: the loop asks
    ("player", "auto_forced: true"),                             # a single card left is passed without asking
], ids=["quiet", "team-hand", "hand-watched", "forced"])
def test_a_pass_asks_its_next_card_itself_only_where_the_loop_would(tmp_path, owner, extra):
    rules = load_text(tmp_path, PASSING % (owner, extra), "passing.yaml")
    step = next(s for s in rules.steps if s.kind == "pass")
    assert step.asks_again == ("end_when" not in extra)
    assert rules.resolves[step.index].__name__ == f"Q{step.index}"   # generated: a pass has no resolve method
    for seed in range(6):
        assert lockstep(rules, 4, seed) >= 12


def test_a_sequence_resumed_where_no_compiled_branch_expects_runs_as_the_reference(tmp_path):
    """A patched state may leave a sequence's frame between two effects: the generated
    function runs it as the plain reference does."""
    rules = interpreter.load(interpreter.ruleset_path("diamonds"))
    seq = next(s for s in rules.steps if s.kind == "steps" and len(s.steps) > 3
               and all(c.inline for c in s.steps))
    S = rules.new_game(4, seed=3)
    a, b = S.clone(), S.clone()
    for T in (a, b):
        T.dec = None
        T.stack.append([seq.index, 2])   # after the second effect of the list
    rules.runs[seq.index](a, a.stack[-1])
    reference(rules).runs[seq.index](b, b.stack[-1])
    assert json.loads(a.to_json()) == json.loads(b.to_json()) != json.loads(S.to_json())


def test_the_generated_flow_names_no_text_of_the_ruleset(tmp_path):
    """Nothing the author wrote is pasted into the flow's source but checked names (zones,
    variables) as string literals: a hostile name cannot become code."""
    rules = interpreter.load(interpreter.ruleset_path("mister_diamond"))
    compile(rules.flow_source, "<flow>", "exec")
    for name in rules.zone_owner:
        assert name.isidentifier()
    assert "import" not in rules.flow_source and "__" not in rules.flow_source.replace("__class__", "")


ATTEMPTS = """
game: lockstep_attempts
players: {min: 2, max: 2}
params: {skill: 0.7}
components:
  spots:
    attributes: {n: 1..6}
zones:
  board: {owner: none, visible: all, start: [spots]}
  taken: {owner: player, visible: all}
vars:
  result: str
  pick: card
flow:
  - turns:
      from: 0
      until: "count(board) == 0"
      steps:
        - attempt:
            target: {from: board, as: pick}
            as: result
            outcomes:
              slip: {chance: "1 - skill(me)"}
              half: {chance: "0.1", if: "count(board) > 3", steps: [{set: {result: "'halfway'"}}]}
              take: {chance: rest, if: "count(board) > 2", steps: [{move: {from: board, to: taken, cards: "[pick]"}}]}
        - attempt:                    # no target, no rest: the remainder is no outcome
            outcomes:
              lucky: {chance: "0.4 if count(board) > 0 else 0", steps: [{move: {from: board, to: taken, count: 1}}]}
%s
scoring:
  categories: {taken: "count(taken)"}
"""


@pytest.mark.parametrize("extra", [
    "",                                                          # nothing checked: the roll and its steps at once
    "end_when: [\"result == 'half' and count(taken[0]) > 3\"]",    # a check reads the outcome
    "end_when: ['pick != none and count(board) == 1']",          # a check reads the target
    "auto_forced: true",                                         # a single target is taken without asking
], ids=["quiet", "outcome-watched", "target-watched", "forced"])
@pytest.mark.parametrize("resolve", ["random", "ask"])
def test_an_attempt_compiled_plays_as_the_reference(tmp_path, extra, resolve):
    rules = load_text(tmp_path, ATTEMPTS % extra, "attempts.yaml")
    ref = reference(rules)
    for seed in range(8):
        a = rules.new_game(2, seed=seed, record=True, options={"resolve": resolve})
        b = ref.new_game(2, seed=seed, record=True, options={"resolve": resolve})
        rnd = random.Random(seed)
        while not a.is_terminal():
            assert a.to_json() == b.to_json() and a.ev == b.ev
            assert a.legal_actions() == b.legal_actions()
            i = rnd.randrange(len(a.dec[1]))
            a.apply_index(i)
            b.apply_index(i)
        assert b.is_terminal() and a.to_json() == b.to_json() and a.ev == b.ev


@pytest.mark.parametrize("chance,message", [("1.5", "is 1.5, not between 0 and 1"), ("0.9", "add up to 1.2")])
def test_an_attempt_compiled_fails_as_the_reference(tmp_path, chance, message):
    rules = load_text(tmp_path, (ATTEMPTS % "").replace('chance: "0.1"', f'chance: "{chance}"'), "attempts.yaml")
    errors = []
    for r in (rules, reference(rules)):
        S = r.new_game(2, seed=0)
        with pytest.raises(interpreter.GameError) as e:
            while not S.is_terminal():
                S.apply_index(0)
        errors.append(str(e.value))
    assert errors[0] == errors[1] and message in errors[0]


@pytest.mark.parametrize("follow,rank,plain", [
    ("suit", "rank", True),
    ("it.suit", "it.rank", True),                       # the element named
    ("colour", "strength", True),                       # defines that are attributes
    ("suit", "7 - rank", False),                        # computed: a call, not a lookup
])
def test_a_trick_key_that_is_a_plain_attribute_is_a_table_lookup(tmp_path, follow, rank, plain):
    """Read from the expression's tree, not its generated text: a key naming an attribute, as
    it stands or through a define, is the attribute's table; anything else is compiled."""
    text = TRICKS.replace("follow: suit", f"follow: {follow!r}").replace("rank: rank\n", f"rank: {rank!r}\n") % (
        "define: {colour: suit, strength: rank}")
    rules = load_text(tmp_path, text, "keys.yaml")
    step = next(s for s in rules.steps if s.kind == "tricks")
    assert (type(getattr(step.rank, "__self__", None)) is tuple) == plain
    assert type(getattr(step.follow, "__self__", None)) is tuple
    ranks = getattr(step.rank, "__self__", None)
    assert all(step.rank(c) == (ranks[c] if plain else 7 - rules.attr_tables["rank"][c])
               for c in range(len(rules.card_labels)))
    for seed in range(3):
        lockstep(rules, 3, seed)


def test_a_pick_asks_its_count_once_a_question():
    """A ``count:`` that is an expression bounds the pick from above and from below: its compiled
    run works it out once a question, not once for each bound; the games are the reference's."""
    rules = interpreter.load("diams")
    pick = next(s for s in rules.steps if s.kind == "pick" and s.lo is s.hi and s.hi.source != "1")
    count_code, run_code = pick.hi.__code__, rules.runs[pick.index].__code__
    calls = calls_in_play(rules, (count_code, run_code), 4, range(3))
    assert calls[run_code] > 0 and calls[count_code] <= calls[run_code], calls
    lockstep(rules, 4, 0)


BRANCHING = """
flow:
  - repeat: 6
    steps:
      - branch:
          who: 0
          options:
            draw: {steps: [{move: {from: deck, to: pile, count: 1}}, {choose: {who: 1, options: "[1, 2]", as: x}}]}
            think: {if: "count(pile) < 4", steps: [{choose: {who: 0, options: "[1, 2, 3]", as: x}}]}
            wait: {}
      - branch:
          who: 1
          options:
            only: {steps: [{choose: {who: 1, options: "[x, x + 1]", as: x}}]}
%s
"""


@pytest.mark.parametrize("extra", ["", "auto_forced: true", "end_when: ['count(pile) >= 3']",
                                   "triggers:\n  t: {when: 'x >= 2', do: [{move: {from: deck, to: pile, count: 1}}]}"],
                         ids=["plain", "forced", "ended", "watched"])
def test_a_branch_answered_runs_its_alternative_at_once(tmp_path, extra):
    """The chosen steps run in the answer's own call, up to their first question (no trip
    through the game loop); the games are the reference's."""
    import sys
    from test_mechanics import load
    rules = load(tmp_path, BRANCHING % extra)
    branches = [s for s in rules.steps if s.kind == "branch"]
    loops = []

    def profile(frame, event, arg):
        if event == "call" and frame.f_code is rules.advance.__code__:
            loops.append(frame.f_code)

    S = rules.new_game(2, seed=3)
    asked_again = 0
    while not S.is_terminal():
        at_branch = S.stack[-1][0] in {b.index for b in branches}
        loops.clear()
        sys.setprofile(profile)
        try:
            S.apply_index(0)
        finally:
            sys.setprofile(None)
        asked_again += at_branch and not loops and S.dec is not None
    assert asked_again > 0
    for seed in range(6):
        lockstep(rules, 2, seed)


@pytest.mark.parametrize("source,apart", [
    ("board", True),
    ("board + aside", True),                # zones never share a card: no set needed
    ("board + aside + aside", False),
    ("board + board", False),               # the same zone twice: each card twice
    ("taken[0] + taken[1]", False),         # one zone, two owners: not told apart here
    ("[pick] + board", False),              # a list that may hold none, or a card of the board
    ("board where n > 2", False),
], ids=lambda v: str(v))
def test_an_attempt_target_from_zones_is_offered_as_the_reference(tmp_path, source, apart):
    """The cards of one zone, or of different zones joined, are offered sorted as they are;
    any other list once each, without none, as the plain reference offers them."""
    from interpreter.mechanics.attempt_target import apart_zones
    text = (ATTEMPTS % "").replace("target: {from: board, as: pick}", f"target: {{from: '{source}', as: pick}}")
    text = text.replace("  taken: {owner: player, visible: all}",
                        "  taken: {owner: player, visible: all}\n  aside: {owner: none, visible: all}")
    text = text.replace("take: {chance: rest, if: \"count(board) > 2\", steps: [{move: {from: board, to: taken, cards: \"[pick]\"}}]}",
                        "take: {chance: rest, if: \"count(board) > 2\", steps: [{move: {from: board, to: aside, count: 1}}]}")
    rules = load_text(tmp_path, text, "attempts.yaml")
    target = next(s for s in rules.steps if s.kind == "attempt.target")
    assert apart_zones(target.cards.source) is apart
    for seed in range(6):
        played = lockstep(rules, 2, seed)
        assert played > 0
    S = rules.new_game(2, seed=1)
    while not S.is_terminal():
        options = S.dec[1]
        assert len(set(options)) == len(options) and None not in options and list(options) == sorted(options)
        S.apply_index(0)


ENTRIES = """
game: entries
players: {min: 2, max: 2}
params: {skill: 0.7}
components:
  spots:
    attributes: {n: 1..6}
zones:
  board: {owner: none, visible: all, start: [spots]}
  taken: {owner: player, visible: all}
vars:
  pick: card
  done: bool
flow:
  - turns:
      from: 0
      until: "count(board) == 0"
      steps:
        - set: {done: false}
        - until: "done or count(board) == 0"
          steps:
            - attempt:
                target: {from: "%s", as: pick}
                outcomes:
                  slip: {chance: "1 - skill(me)", steps: [{set: {done: true}}]}
                  take: {chance: rest, steps: [{move: {from: board, to: taken, cards: "[pick]"}}]}
scoring:
  categories: {taken: "count(taken)"}
"""


def _function(source: str, name: str) -> str:
    """The text of generated function ``name`` in ``source``."""
    return next(part for part in source.split("\ndef ") if part.startswith(f"{name}("))


@pytest.mark.parametrize("cards", ["board", "board where n / (count(board) - 3) > -100"], ids=["plays", "fails"])
def test_a_new_frame_runs_in_place_where_it_is_pushed_as_the_reference(tmp_path, cards):
    """A turn's `until`, its attempt's start and the attempt's target question run in the turn's
    own function (FlowSource.run_new), no call of theirs, the question reading the attempt's frame
    and actor as its start left them: the same games as the reference, and an error raised in
    place (a division by 0 in the target's cards) located at the same step."""
    rules = load_text(tmp_path, ENTRIES % cards, "entries.yaml")
    turns, until, attempt = (next(s for s in rules.steps if s.kind == k) for k in ("turns", "until", "attempt"))
    body = _function(rules.flow_source, f"R{turns.index}")
    assert f"R{until.index}(" not in body and f"R{attempt.index}(" not in body and "S.dec = " in body, body
    assert "stack[-2]" not in body, body   # (the target's question reads the attempt's frame where it was made)
    errors = []
    for r in (rules, reference(rules)):
        S = r.new_game(2, seed=0)
        with pytest.raises(interpreter.GameError) if cards != "board" else contextlib.nullcontext() as e:
            while not S.is_terminal():
                S.apply_index(0)
        errors.append(None if e is None else str(e.value))
    assert errors[0] == errors[1] and (errors[0] is None) == (cards == "board")
    assert errors[0] is None or "in attempt.target:" in errors[0] and "by zero" in errors[0], errors
    if cards == "board":
        for seed in range(8):
            lockstep(rules, 2, seed)


def test_a_decision_runs_the_game_loop_in_its_own_function():
    """``apply_index`` has the game loop's lines written in (building/decision.py): after a
    decision whose resolve did not ask the next question itself (Mister Diamond's tile chosen),
    no call of ``advance``; the lockstep tests above play it against the reference."""
    rules = bundled("mister_diamond")
    code = rules.advance.__code__
    assert calls_in_play(rules, {code}, 4, range(2)) == {code: 0}


def test_a_frame_never_written_is_a_tuple_and_plays_the_same_saved():
    """A loop's and a target's frames are constant tuples in the compiled flow (no list made,
    ``frame_read_only``), lists in the reference and once saved and read back: the same state,
    and the same game from there."""
    rules = bundled("mister_diamond")
    S, rnd = rules.new_game(4, seed=5), random.Random(5)
    kinds = {rules.steps[f[0]].kind: type(f) for f in S.stack}
    assert kinds["until"] is tuple and kinds["attempt.target"] is tuple, kinds
    assert all(type(f) is list for f in reference(rules).new_game(4, seed=5).stack)
    back = rules.state_from_json(S.to_json())
    assert all(type(f) is list for f in back.stack) and back == S
    while not S.is_terminal():
        i = rnd.randrange(len(S.dec[1]))
        S.apply_index(i)
        back.apply_index(i)
        assert back.to_json() == S.to_json()
