"""The dexterity mechanisms on their own, on tiny rulesets: boards as data, pieces hidden from
everyone, attempts with declared chances (rolled or asked), per-seat skill, continuing turns,
tiles with slots refilled from a deck, stealing, and targets by player count."""
from __future__ import annotations

import dataclasses
import math
import sys

import pytest

import interpreter
from interpreter.errors import GameError, RulesetError, UsageError
from interpreter.expr.runtime import ExprRuntimeError
from interpreter.play.agents.view import SeatView
from helpers import load_text


# ---------------------------------------------------------------------- boards
def board_game(name: str, seats: int, piece: str, cards: list[str], label: str, rest: str) -> str:
    """A board game's YAML: NAME for 1 to SEATS seats, with one component, PIECE, whose CARDS
    (each a flow mapping of its attributes) are labelled LABEL; REST (from ``board:`` on) follows."""
    listed = "".join(f"      - {card}\n" for card in cards)
    return (f"\ngame: {name}\nplayers: {{min: 1, max: {seats}}}\ncomponents:\n  {piece}:\n    cards:\n{listed}"
            f"    label: \"{label}\"\n") + rest


# a little hexagon: rows of 2, 3, 2 in doubled columns
HEX = board_game("hexboard", 2, "spot", ["{row: 0, x: 1}", "{row: 0, x: 3}", "{row: 1, x: 0}", "{row: 1, x: 2}",
                                        "{row: 1, x: 4}", "{row: 2, x: 1}", "{row: 2, x: 3}"], "r{row}x{x}", """\
board:
  positions: spot
  adjacent: "a.row == b.row and abs(a.x - b.x) == 2 or abs(a.row - b.row) == 1 and abs(a.x - b.x) == 1"
zones:
  spots: {start: [spot], sorted: true}
vars:
  out: {type: "list[int]", start: "[]"}
  ok: bool
flow:
  - set:
      out: "map(spots, to: count(neighbors(it)))"
      ok: "adjacent(first(spots), last(spots where row == 0)) and not adjacent(first(spots), last(spots))"
""")


def test_board_from_an_adjacency_rule(tmp_path):
    r = load_text(tmp_path, HEX)
    S = r.new_game(1)
    # the centre r1x2 touches all six others; corners touch three
    assert S.v["out"] == [3, 3, 3, 6, 3, 3, 3]
    assert S.v["ok"] is True
    centre = r.card_id("r1x2")
    nb = r.namespace["_NB"]
    assert [r.card_labels[c] for c in nb[centre]] == ["r0x1", "r0x3", "r1x0", "r1x4", "r2x1", "r2x3"]
    assert all(a in nb[b] for a in range(7) for b in nb[a])   # symmetric


@pytest.mark.parametrize("reads", ["num_players > 1", "count(players) > 1", "num_teams > 0", "left(0) == 0",
                                   "team(0) == 0"])
def test_an_adjacency_rule_reading_the_game_is_refused(tmp_path, reads):
    # each reads a game's seats, which the rule, run at load, never has (zones and variables are
    # not declared yet there: unknown names)
    with pytest.raises(RulesetError) as e:
        load_text(tmp_path, HEX.replace('adjacent: "a.row', f'adjacent: "{reads} and a.row'))
    assert "only the positions' attributes" in str(e.value)


# four rooms whose exits list their neighbours (not both ways), and how many each has
ROOMS = board_game("rooms", 1, "room", ["{name: hall, exits: [kitchen, study]}", "{name: kitchen}",
                                        "{name: study, exits: [cellar]}", "{name: cellar}"], "{name}", """\
board: {positions: room, neighbors: exits}
zones:
  rooms: {start: [room]}
vars:
  n: {type: "list[int]", start: "[]"}
flow:
  - set: {n: "map(rooms, to: count(neighbors(it)))"}
""")


def test_a_filter_walks_the_neighbours_where_they_are_and_they_stay_a_list(tmp_path):
    from interpreter.expr import Compiler
    r = load_text(tmp_path, HEX)
    S = r.new_game(1)
    walked = Compiler(r.names).compile("count(neighbors(last(spots)) where row == 2)", has_me=False)
    plain = Compiler(r.names, plain=True).compile("count(neighbors(last(spots)) where row == 2)", has_me=False)
    assert "list(_NB" not in walked.source and "list(_NB" in plain.source   # no copy made to walk them
    assert walked.fn(S, None, None) == plain.fn(S, None, None) == 1         # r2x3 touches r2x1
    value = Compiler(r.names).compile("neighbors(last(spots))", has_me=False).fn(S, None, None)
    assert type(value) is list and value == [r.card_id("r1x2"), r.card_id("r1x4"), r.card_id("r2x1")]


# the hexagon with its positions dealt between two zones, a and b, and a variable naming one
HEX_ZONES = HEX.replace("  spots: {start: [spot], sorted: true}\n",
                        "  spots: {start: [spot], sorted: true}\n  a: {}\n  b: {}\n").replace(
    "  ok: bool\n", "  ok: bool\n  at: card\n")
COUNTS_IN = ["count(neighbors(at) where it in a + b)", "count(neighbors(at) where it not in a + b)",
             "count(neighbors(at) where it in a + b + a)"]   # (a card twice in the bytes looked in)


def _fast_and_plain(r, text):
    from interpreter.expr import Compiler
    return (Compiler(r.names).compile(text, has_me=False), Compiler(r.names, plain=True).compile(text, has_me=False))


@pytest.mark.parametrize("text", COUNTS_IN)
def test_a_count_of_neighbours_in_joined_zones_reads_them_as_bytes_as_the_plain_filter_counts(tmp_path, text):
    """count(neighbors(x) where it in A + B): the neighbours as bytes made once at build, those
    in the zones' bytes deleted in C; the same count as the plain filter for every position and
    every way of dealing the board between the two zones and the rest."""
    import random
    r = load_text(tmp_path, HEX_ZONES)
    S = r.new_game(1)
    fast, plain = _fast_and_plain(r, text)
    assert ".translate(None, " in fast.source and "translate" not in plain.source, fast.source
    rng = random.Random(7)
    for _ in range(200):
        cards = list(range(7))
        rng.shuffle(cards)
        i, j = sorted(rng.sample(range(8), 2))
        S.z["a"], S.z["b"], S.v["at"] = cards[:i], cards[i:j], rng.randrange(7)
        assert fast.fn(S, None, None) == plain.fn(S, None, None), (S.z["a"], S.z["b"], S.v["at"])


def test_a_count_of_neighbours_in_bytes_counts_a_neighbour_listed_twice_twice(tmp_path):
    """The language's boards list a neighbour once (a board is a set of adjacencies); a table
    holding one twice is counted as the filter counts it, and a none position raises as it does."""
    r = load_text(tmp_path, HEX_ZONES)
    assert r.names.namespace["_NB"][0].count(1) == 1   # r0x1 and r0x3: listed once
    S = r.new_game(1)
    names = dataclasses.replace(r.names, namespace={**r.names.namespace, "_NB": ((1, 1, 2, 1),) + r.names.namespace["_NB"][1:]})
    names.namespace.pop("_NB_bytes", None)
    from interpreter.expr import Compiler
    for text in COUNTS_IN:
        fast, plain = Compiler(names).compile(text, has_me=False), Compiler(names, plain=True).compile(text, has_me=False)
        assert "translate" in fast.source
        for a, b in (([1], []), ([1], [2]), ([], [2, 1]), ([3], [4])):
            S.z["a"], S.z["b"], S.v["at"] = a, b, 0
            assert fast.fn(S, None, None) == plain.fn(S, None, None), (text, a, b)
        S.v["at"] = None
        errors = []
        for f in (fast, plain):
            with pytest.raises(ExprRuntimeError) as e:
                f.fn(S, None, None)
            errors.append(str(e.value))
        assert errors[0] == errors[1]


def test_a_count_of_neighbours_among_more_than_256_cards_keeps_the_filter(tmp_path):
    """Cards numbered from 256 on do not fit a byte: the count stays the filter over a set."""
    line = board_game("line", 1, "spot", ["{n: 1}"], "s{n}", """\
board: {positions: spot, adjacent: "abs(a.n - b.n) == 1"}
zones:
  spots: {start: [spot]}
  a: {}
vars:
  at: card
flow: []
""").replace("    cards:\n      - {n: 1}\n", "    attributes: {n: 1..300}\n")
    r = load_text(tmp_path, line)
    S = r.new_game(1)
    text = "count(neighbors(at) where it in a + a)"
    fast, plain = _fast_and_plain(r, text)
    assert "translate" not in fast.source and "_NB_bytes" not in r.names.namespace, fast.source
    for at, a, n in (("s300", ["s299"], 1), ("s299", ["s298", "s300", "s5"], 2), ("s299", ["s297"], 0)):
        S.z["a"], S.v["at"] = [r.card_id(x) for x in a], r.card_id(at)
        assert fast.fn(S, None, None) == plain.fn(S, None, None) == n


def test_board_from_a_neighbors_attribute_is_symmetric(tmp_path):
    r = load_text(tmp_path, ROOMS)
    S = r.new_game(1)
    assert S.v["n"] == [2, 1, 2, 1]   # kitchen lists nothing but is the hall's neighbour


def test_board_errors_are_located(tmp_path):
    text = HEX.replace("adjacent: \"a.row", "adjacent: \"params.wide or a.row").replace(
        "components:", "params: {wide: false}\ncomponents:")
    line = next(n for n, s in enumerate(text.splitlines(), 1) if s.startswith("  adjacent:"))
    with pytest.raises(RulesetError) as e:
        load_text(tmp_path, text)
    assert "only the positions' attributes" in str(e.value) and f":{line}:13:" in str(e.value)   # at the rule
    with pytest.raises(RulesetError) as e:
        load_text(tmp_path, HEX.replace("positions: spot", "positions: spots"))
    assert "unknown component 'spots'" in str(e.value) and "did you mean 'spot'" in str(e.value)
    with pytest.raises(RulesetError) as e:   # neighbors() without a board
        load_text(tmp_path, HEX.replace("board:\n  positions: spot\n", "unused:\n  positions: spot\n"))
    assert "needs a board" in str(e.value) or "unknown key 'unused'" in str(e.value)
    with pytest.raises(RulesetError) as e:
        load_text(tmp_path, """
        game: rooms
        players: {min: 1, max: 1}
        components:
          room: {cards: [{name: hall, exits: [kitchn]}, {name: kitchen}], label: "{name}"}
        board: {positions: room, neighbors: exits}
        flow: []
        """)
    assert "neighbour 'kitchn' is not a position" in str(e.value)


# ---------------------------------------------------------------------- hidden pieces
HIDDEN = """
game: hidden
players: {min: 2, max: 2}
params: {skill: 0.5}
components:
  spot: {attributes: {n: 1..6}, label: "s{n}"}
zones:
  pool:   {visible: none, start: [spot]}
  traps:  {visible: none}
  shown:  {visible: all, sorted: true}
  gone:   {visible: all, sorted: true}
vars:
  done: bool
setup:
  - shuffle: pool
  - move: {from: pool, to: traps, count: 3}
flow:
  - turns:
      from: 0
      rounds: 1
      steps:
        - set: {done: false}
        - until: done
          steps:
            - attempt:
                target: {from: "traps + pool", as: spot, prompt: take}
                as: result
                outcomes:
                  trap:
                    chance: "1 if spot in traps else 0"
                    steps:
                      - move: {from: traps, to: shown, cards: "[spot]"}
                      - set: {done: true}
                  fine:
                    chance: rest
                    steps: [{move: {from: pool, to: gone, cards: "[spot]"}}]
"""


def test_hidden_pieces_options_sorted_and_reveal_is_public(tmp_path):
    r = load_text(tmp_path, HIDDEN)
    S = r.new_game(2, seed=3)
    assert S.prompt() == "take" and S.current_player() == 0
    # options in id order, whatever zone each is in: the order tells nothing
    assert S.legal_actions() == ["s1", "s2", "s3", "s4", "s5", "s6"]
    for seat in (0, 1):
        obs = S.observation(seat)
        assert obs["zones"]["traps"] == 3 and obs["zones"]["pool"] == 3   # counts only
    trap = r.card_labels[S.z["traps"][0]]
    safe = r.card_labels[S.z["pool"][0]]
    S.apply(safe)
    assert S.v["result"] == "fine" and S.current_player() == 0        # the turn goes on
    assert safe not in S.legal_actions()
    S.apply(trap)
    assert S.v["result"] == "trap"
    for seat in (0, 1):   # revealed: public, in every observation, and it stays
        obs = S.observation(seat)
        assert obs["zones"]["shown"] == [trap] and obs["zones"]["gone"] == [safe]
    assert S.current_player() == 1
    S.apply(r.card_labels[S.z["pool"][0]])
    assert all(S.observation(p)["zones"]["shown"] == [trap] for p in (0, 1))


# ---------------------------------------------------------------------- attempts
CHANCES = """
game: chances
players: {min: 1, max: 2}
params: {skill: 0.8, tries: 100}
counters:
  slips: 0
  wobbles: 0
  hits: 0
vars:
  result: str
flow:
  - repeat: params.tries
    steps:
      - attempt:
          who: 0
          as: result
          outcomes:
            slip:   "(1 - skill(me)) / 2"
            wobble: {chance: "0.1", steps: [{gain: {counter: wobbles}}]}
            hit:    {chance: rest, steps: [{gain: {counter: hits}}]}
      - if: "result == 'slip'"
        then: [{gain: {counter: slips}}]
"""


@pytest.mark.parametrize("skill", [0.8, 0.3])
def test_attempt_honours_the_declared_chances(tmp_path, skill):
    """20,000 seeded attempts: each outcome's frequency within 4 standard errors of its chance."""
    r = load_text(tmp_path, CHANCES)
    n = 20_000
    S = r.new_game(1, seed=11, options={"params": {"tries": n}, "skill": [skill]})
    counts = [S.c["slips"], S.c["wobbles"], S.c["hits"]]
    assert sum(counts) == n
    expected = [(1 - skill) / 2, 0.1, 1 - (1 - skill) / 2 - 0.1]
    for got, p in zip(counts, expected):
        se = math.sqrt(p * (1 - p) / n)
        assert abs(got / n - p) < 4 * se, (counts, expected)


def test_attempt_is_deterministic_by_seed(tmp_path):
    r = load_text(tmp_path, CHANCES)
    a, b, c = (r.new_game(1, seed=s).c for s in (5, 5, 6))
    assert a == b and a != c


def test_attempt_ask_mode_asks_the_actor_what_happened(tmp_path):
    r = load_text(tmp_path, CHANCES.replace("who: 0", "who: 1").replace(
        "wobble: {chance", "wobble: {if: \"skill(me) < 0.5\", chance"))
    S = r.new_game(2, seed=1, options={"resolve": "ask", "params": {"tries": 2}})
    assert S.current_player() == 1 and S.prompt() == "outcome"
    assert S.legal_actions() == ["slip", "hit"]        # wobble's if fails with skill 0.8
    S.apply("hit")
    assert S.v["result"] == "hit" and S.c["hits"] == 1
    S.apply("slip")
    assert S.is_terminal() and [S.c["slips"], S.c["wobbles"], S.c["hits"]] == [1, 0, 1]
    S2 = r.new_game(2, seed=1, options={"resolve": "ask", "params": {"tries": 1}, "skill": [0.9, 0.2]})
    assert S2.legal_actions() == ["slip", "wobble", "hit"]


def test_ask_mode_asks_the_target_first_then_the_outcome(tmp_path):
    r = load_text(tmp_path, HIDDEN)
    S = r.new_game(2, seed=3, options={"resolve": "ask"})
    assert S.prompt() == "take" and not SeatView(S, S.current_player()).reports   # a choice the seat makes
    S.apply("s4")
    assert S.prompt() == "outcome" and S.legal_actions() == ["trap", "fine"]
    assert SeatView(S, S.current_player()).reports    # what happened at the table: `--resolve ask` asks a person


def test_bad_chances_are_located_runtime_errors(tmp_path):
    r = load_text(tmp_path, CHANCES.replace('"0.1"', '"0.9"'))
    with pytest.raises(GameError) as e:
        r.new_game(1, seed=1, options={"skill": [0.0]})   # 0.5 + 0.9 > 1
    assert "add up to 1.4" in str(e.value) and "attempt" in str(e.value)
    r = load_text(tmp_path, CHANCES.replace('"0.1"', '"1.5"'))
    with pytest.raises(GameError) as e:
        r.new_game(1)
    assert "chance of outcome 'wobble' is 1.5" in str(e.value)
    with pytest.raises(RulesetError) as e:
        load_text(tmp_path, CHANCES.replace('chance: "0.1"', "chance: rest"))
    assert "only one outcome may have chance: rest" in str(e.value)


def test_without_a_rest_outcome_the_remainder_is_no_outcome(tmp_path):
    r = load_text(tmp_path, CHANCES.replace("chance: rest", 'chance: "0"'))
    S = r.new_game(1, seed=2, options={"params": {"tries": 2000}, "skill": [1.0]})
    assert S.c["slips"] == 0 and S.c["hits"] == 0
    assert 120 < S.c["wobbles"] < 280        # 0.1 of 2000; the rest: nothing happened


# ---------------------------------------------------------------------- skill
def test_skill_option_validation_and_default(tmp_path):
    r = load_text(tmp_path, CHANCES)
    assert r.new_game(2, options={"skill": "0.9, 0.6"}).o["skill"] == [0.9, 0.6]
    assert r.new_game(2, options={"skill": 0.7}).o["skill"] == [0.7, 0.7]
    assert r.new_game(2, options={"skill": "0.6"}).o["skill"] == [0.6, 0.6]
    with pytest.raises(UsageError, match="expected 2 values"):
        r.new_game(2, options={"skill": [0.9]})
    with pytest.raises(UsageError, match="skill of seat 1 must be between 0 and 1"):
        r.new_game(2, options={"skill": [0.9, 1.5]})
    with pytest.raises(UsageError, match="numbers separated by commas"):
        r.new_game(2, options={"skill": "0.9,high"})
    with pytest.raises(UsageError, match="resolve: expected one of random, ask"):
        r.new_game(2, options={"resolve": "guess"})
    # skill() reads the option, else params.skill
    r2 = load_text(tmp_path, CHANCES.replace("vars:\n", "vars:\n  s0: {type: num, start: 0}\n").replace(
        "flow:\n", "flow:\n  - set: {s0: \"skill(0)\"}\n"), name="t2.yaml")
    assert r2.new_game(1, options={"params": {"tries": 0}}).v["s0"] == 0.8
    assert r2.new_game(1, options={"params": {"tries": 0, "skill": 0.4}}).v["s0"] == 0.4
    assert r2.new_game(1, options={"params": {"tries": 0}, "skill": [0.25]}).v["s0"] == 0.25


def test_skill_of_a_plain_seat_is_read_in_place(tmp_path):
    """skill(me) in a roll's chance, and skill(0): the option's value for the seat, or params.skill
    where the option is not given (or given as none), read where the expression stands: no call of
    the helper, which a seat that may fail to be read (skill(first(...))) still calls."""
    from interpreter.mechanics.skill import _skill
    r = load_text(tmp_path, CHANCES.replace("vars:\n", "vars:\n  s0: {type: num, start: 0}\n").replace(
        "flow:\n", "flow:\n  - set: {s0: \"skill(0)\"}\n"))
    calls = []

    def profile(frame, event, arg):
        if event == "call" and frame.f_code is _skill.__code__:
            calls.append(frame)

    sys.setprofile(profile)
    try:
        default, nothing, given, params = (r.new_game(1, seed=4, options=o) for o in (
            None, {"skill": None}, {"skill": [0.3]}, {"params": {"skill": 0.3}}))
    finally:
        sys.setprofile(None)
    assert calls == []
    assert default.c == nothing.c and given.c == params.c and default.c != given.c
    assert (default.v["s0"], nothing.v["s0"], given.v["s0"], params.v["s0"]) == (0.8, 0.8, 0.3, 0.3)
    r2 = load_text(tmp_path, CHANCES.replace("(1 - skill(me))", "(1 - skill(first(players)))"), name="t2.yaml")
    sys.setprofile(profile)
    try:
        assert r2.new_game(1, seed=4, options={"skill": [0.3]}).c == given.c
    finally:
        sys.setprofile(None)
    assert len(calls) == 100   # (params.tries rolls)


def test_skill_of_a_seat_that_is_none(tmp_path):
    """skill(p) of a variable p that holds none: params.skill without the option, the language's
    error with it, as the helper gives them."""
    r = load_text(tmp_path, CHANCES.replace("vars:\n", "vars:\n  p: player\n  s0: {type: num, start: 0}\n").replace(
        "flow:\n", "flow:\n  - set: {s0: \"skill(p)\"}\n"))
    assert r.new_game(1, seed=4, options={"params": {"tries": 0}}).v["s0"] == 0.8
    with pytest.raises(GameError, match="none"):
        r.new_game(1, seed=4, options={"params": {"tries": 0}, "skill": [0.3]})


def test_a_roll_reads_the_game_options_without_a_call(tmp_path):
    """The roll (its step's function) tests the options it reads, resolve and a skill(me), by
    `in`: no dict.get call, some 300 instructions each; the options, given or not, still count."""
    r = load_text(tmp_path, CHANCES)
    roll = f"R{next(s for s in r.steps if s.kind == 'attempt').index}"
    calls = []

    def profile(frame, event, arg):
        if event == "c_call" and frame.f_code.co_name == roll:
            calls.append(arg.__qualname__)

    sys.setprofile(profile)
    try:
        games = [r.new_game(1, seed=4, options=o) for o in (None, {"resolve": "random"}, {"skill": [0.3]},
                                                           {"resolve": None, "skill": None})]
    finally:
        sys.setprofile(None)
    assert "dict.get" not in calls
    assert games[0].c == games[1].c == games[3].c != games[2].c


def test_the_options_a_roll_reads_still_count_after_a_save_and_a_load(tmp_path):
    """The roll tests the options' truth before it looks one up (most games give none): a skill
    per seat, alone or beside another option, and resolve: ask, are still read seat by seat once
    the state is saved and loaded again."""
    r = load_text(tmp_path, HIDDEN.replace('"1 if spot in traps else 0"', '"skill(me)"'))
    for options in ({"skill": [1.0, 0.0]}, {"skill": [1.0, 0.0], "resolve": "random"}):
        S = r.new_game(2, seed=3, options=options)
        S.apply(r.card_labels[S.z["traps"][0]])          # seat 0, skill 1: the trap springs
        assert S.v["result"] == "trap" and S.current_player() == 1
        T = r.state_from_json(S.to_json())
        assert T.o == options
        T.apply(r.card_labels[T.z["pool"][0]])           # seat 1, skill 0: never
        assert T.v["result"] == "fine" and T.z["shown"] == S.z["shown"] and len(T.z["gone"]) == 1
    S = r.new_game(2, seed=3, options={"resolve": "ask"})
    T = r.state_from_json(S.to_json())
    T.apply(r.card_labels[T.z["traps"][0]])
    assert T.prompt() == "outcome" and T.legal_actions() == ["trap", "fine"]


def test_skill_needs_a_declared_default(tmp_path):
    with pytest.raises(RulesetError) as e:
        load_text(tmp_path, CHANCES.replace("params: {skill: 0.8, tries: 100}", "params: {tries: 100}"))
    assert "declare params.skill" in str(e.value)


# ---------------------------------------------------------------------- tiles, row, steal, target
TILES = """
game: tiles
players: {min: 2, max: 4}
params:
  target: {by_players: {"2": 5, "3": 4, "4": 3}}
components:
  tile:
    cards:
      - {name: one, value: 1, slots: 1}
      - {name: two, value: 2, slots: 2}
      - {name: three, value: 3, slots: 3}
      - {name: big, value: 9, slots: 1}
    label: "{name}"
zones:
  deck: {visible: none, start: [tile]}
  row:  {visible: all}
  won:  {owner: player, visible: all}
counters:
  filled: {owner: card, start: 0}
vars:
  tile: card
  victim: player
setup:
  - move: {from: deck, to: row, count: 2}
flow:
  - turns:
      from: 0
      until: "count(deck) == 0 and count(row) == 0"
      steps:
        - choose: {options: "row where filled < slots", as: tile, prompt: place,
                   then: [{gain: {counter: "filled[tile]"}}]}
        - if: "filled[tile] >= tile.slots"
          then:
            - move: {from: row, to: won, cards: "[tile]"}
            - move: {from: deck, to: row, count: 1}
        - set: {victim: none}
        - choose: {options: "players where it != me and count(won) > 0 and tile.name == 'two' and tile in won[me]",
                   as: victim, prompt: steal_from}
        - pick: {who: "me if victim != none else none", from: "won[victim]", to: won, count: 1, prompt: steal}
end_when:
  - "any(players, by: sum(won, by: value) >= params.target)"
scoring:
  categories: {points: "sum(won, by: value)"}
"""


def test_tiles_slots_row_refill_steal_and_target_by_players(tmp_path):
    r = load_text(tmp_path, TILES)
    S = r.new_game(2, seed=0)
    # the deck is not shuffled: the top of a pile is its end, so 'big' and 'three' are face up
    assert S.observation(1)["zones"]["row"] == ["big", "three"] and S.observation(1)["zones"]["deck"] == 2
    S.apply("three")                       # p0: one of three slots
    assert S.c["filled"][r.card_id("three")] == 1 and S.current_player() == 1
    S.apply("three")                       # p1
    S.apply("three")                       # p0 completes it: won, and the row is refilled from the deck
    assert S.observation(1)["zones"]["won"][0] == ["three"]
    assert S.observation(0)["zones"]["row"] == ["big", "two"] and S.p["target"] == 5
    S.apply("two")                         # p1
    S.apply("two")                         # p0 completes 'two' and steals
    assert S.is_terminal() and S.scores() == [5, 0] and S.winners() == [0]   # 3 + 2 reaches 5: ends at once
    S3 = r.new_game(3, seed=0)
    assert S3.p["target"] == 4


def test_stealing_a_tile_from_another_player(tmp_path):
    r = load_text(tmp_path, TILES)
    S = r.new_game(2, seed=0, options={"params": {}})
    S.apply("big")                         # p0 takes big (9 >= 5: over at once)
    assert S.is_terminal() and S.winners() == [0]
    S = r.new_game(3, seed=0)
    for label in ("three", "three", "three"):   # p0, p1, p2: p2 completes three
        S.apply(label)
    assert S.observation(0)["zones"]["won"] == [[], [], ["three"]]
    S.apply("two")                          # p0
    S.apply("two")                          # p1 completes two: may steal from p2
    assert S.prompt() == "steal_from" and S.legal_actions() == ["p2"]
    S.apply("p2")
    assert S.prompt() == "steal" and S.legal_actions() == ["three"]
    S.apply("three")
    assert S.observation(2)["zones"]["won"] == [[], ["two", "three"], []]
    assert S.is_terminal() and S.winners() == [1]    # 2 + 3 >= 4 (3 players)


# ---------------------------------------------------------------------- turns that continue
def test_a_turn_continues_until_an_outcome_ends_it(tmp_path):
    r = load_text(tmp_path, HIDDEN)
    S = r.new_game(2, seed=8)
    fine = sorted(S.z["pool"])
    trap = S.z["traps"][0]
    for c in fine[:3]:                     # three clean takes: still seat 0
        S.apply(r.card_labels[c])
        assert S.current_player() == 0 and S.prompt() == "take"
    S.apply(r.card_labels[trap])           # the trap ends the turn
    assert S.current_player() == 1


def test_a_target_from_a_list_that_is_not_of_cards_is_a_located_error(tmp_path):
    """Found by fuzzing: `from: [hidden]` (a YAML list: the list of one text) loaded, and the
    target's option labels crashed."""
    from pathlib import Path
    text = Path(interpreter.ruleset_path("mister_diamond")).read_text()
    assert "from: hidden_pieces" in text
    path = tmp_path / "md.yaml"
    path.write_text(text.replace("from: hidden_pieces", "from: [hidden_pieces]", 1))
    with pytest.raises(RulesetError, match=r"md\.yaml:\d+:\d+: error\[type\]: target from: expected a list of cards, got list\[str\]"):
        interpreter.load(path)
