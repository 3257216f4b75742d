"""The general mechanisms behind Diamonds Club, each on a tiny ruleset: a grid market laid out
from double-sided strips and priced by neighbours, tracks (with stacking), paying one unit at a
time with jokers, set exchanges, price tables, restricted placement spaces, races, end trigger."""
from __future__ import annotations


import pytest

import interpreter
from interpreter.errors import GameError, RulesetError
from interpreter.engine import loop as engine
from interpreter.mechanics.grid import PASS
from interpreter.mechanics.grid_shape import adjacency
from helpers import load_text


GRID = """
game: g
players: {min: 2, max: 2}
params: {by_coins: false}
components:
  strip: {attributes: {number: 1..3}, label: "strip{number}"}
  space: {attributes: {strip: 1..3, face: [A, B], pos: 1..2}, label: "{strip}{face}{pos}"}
zones:
  strips: {start: [strip]}
  layout: {}
  box: {start: [space], sorted: true}
  market: {}
counters:
  coins: {owner: player, start: 5}
  taken: {owner: card}
  got: {owner: player}
vars:
  side: str
flow:
  - shuffle: strips
  - move: {from: strips, to: layout, count: 2}
  - for_each:
      in: layout
      as: s
      do:
        - random: {var: side, from: "['A', 'B']"}
        - move: {from: box, to: market, cards: "box where strip == s.number and face == side"}
  - turns:
      rounds: 3
      steps:
        - grid:
            zone: market
            rows: 2
            where: "taken == 0"
            cost: "1 + (sum(neighbours, by: taken) if params.by_coins else count(neighbours where taken > 0))"
            pay: coins
            mark: taken
            as: bought
            then: [{gain: {counter: got, amount: space.pos}}]
variants:
  coins: {params: {by_coins: true}}
"""


def test_grid_is_laid_from_strips_one_face_each(tmp_path):
    r = load_text(tmp_path, GRID)
    for seed in range(5):
        S = r.new_game(2, seed=seed)
        market = S.z["market"]
        rows = [r.cards.rows[c] for c in market]
        assert len(market) == 4
        assert rows[0]["strip"] == rows[1]["strip"] and rows[2]["strip"] == rows[3]["strip"]
        assert rows[0]["face"] == rows[1]["face"] and [x["pos"] for x in rows] == [1, 2, 1, 2]


def test_grid_cost_counts_occupied_orthogonal_neighbours(tmp_path):
    r = load_text(tmp_path, GRID)
    S = r.new_game(2, seed=1)
    labels = S.legal_actions()
    assert [label.split(":")[0] for label in labels] == ["c1r1", "c1r2", "c2r1", "c2r2", "pass"]
    S.apply(labels[0])                      # c1r1: alone, 1 coin
    assert S.c["coins"] == [4, 5] and S.c["got"][0] == 1
    S.apply(S.legal_actions()[2])           # c2r2: neighbours c2r1, c1r2 free -> 1
    assert S.c["coins"] == [4, 4]
    S.apply(next(label for label in S.legal_actions() if label.startswith("c1r2")))   # next to c1r1 and c2r2: 3
    assert S.c["coins"] == [1, 4]
    assert [label.split(":")[0] for label in S.legal_actions()] == ["c2r1", "pass"]


def test_grid_cost_by_coins_variant_and_unaffordable_spaces(tmp_path):
    r = load_text(tmp_path, GRID, variant="coins")
    S = r.new_game(2, seed=1)
    S.apply(S.legal_actions()[0])           # c1r1 costs 1, holds 1 coin
    S.apply(S.legal_actions()[1])           # seat 1: c2r1 next to c1r1 -> 1 + 1 = 2
    assert S.c["coins"] == [4, 3]
    S.c["coins"][0] = 2                     # c1r2 would cost 1 + 1 + 0 = 2, c2r2 1 + 2 = 3
    from interpreter.engine import loop as engine
    engine.reask(S)
    assert [label.split(":")[0] for label in S.legal_actions()] == ["c1r2", "pass"]


def test_grid_passes_without_asking_when_nothing_is_affordable(tmp_path):
    r = load_text(tmp_path, GRID.replace("start: 5", "start: 0"))
    S = r.new_game(2, seed=1)
    assert S.is_terminal() and S.v["bought"] is None


def test_grid_neighbours_builtin(tmp_path):
    r = load_text(tmp_path, GRID.replace("  side: str\n", "  side: str\n  n: int\n")
             .replace("variants:", "  - set: {n: \"count(grid_neighbours(market, first(market), rows: 2))\"}\nvariants:"))
    S = r.new_game(2, seed=1)
    while not S.is_terminal():
        S.apply("pass")
    assert S.v["n"] == 2



def _full_prices(step, S):
    """The spaces on offer priced from scratch by the per-space functions (the reference)."""
    who = S.dec[0]
    grid, rows, have = step.zone(S, who, None), step.rows(S, who, None), step._have(S, who)
    shape = adjacency(len(grid), rows)
    return [c for i, c in enumerate(grid)
            if (step.where is None or step.where(S, who, None, c))
            and step.cost(S, who, {"neighbours": [grid[j] for j in shape[i]]}, c) <= have]


# the filter's local parts (taken, blocked: card counters; the cost does not read blocked) are
# remembered with the prices, the rest (the player's counter got) is asked at each decision
GRID_SPLIT = (GRID.replace("  got: {owner: player}\n", "  got: {owner: player}\n  blocked: {owner: card}\n")
              .replace('where: "taken == 0"', 'where: "taken == 0 and pos + got <= 6 and blocked == 0"')
              .replace("then: [{gain: {counter: got, amount: space.pos}}]",
                       'then: [{gain: {counter: got, amount: space.pos}}, {gain: {counter: "blocked[last(market)]"}}]'))

# a conjunct of the filter that reads the player's counter (asked at each decision) holds at
# once for the spaces whose attribute says so (pos == 1): only the others are asked
GRID_OR = GRID.replace('where: "taken == 0"', 'where: "taken == 0 and (pos == 1 or got < 2 + pos)"')

# halved costs (a fraction is refused at load: a counter pays whole numbers): each space's cost
# compared with a player's coins
GRID_HALF = GRID.replace('count(neighbours where taken > 0))"', 'count(neighbours where taken > 0) // 2)"')

# a cost, or a local part of the filter, that reads a card attribute: priced for the cards where they lie
GRID_POS = GRID.replace('cost: "1 + (', 'cost: "pos + (')
GRID_FACE = GRID.replace('where: "taken == 0"', "where: \"taken == 0 and face == 'A'\"")
GRIDS = {"grid": GRID, "grid_split": GRID_SPLIT, "grid_or": GRID_OR, "grid_half": GRID_HALF, "grid_pos": GRID_POS,
         "grid_face": GRID_FACE}


@pytest.mark.parametrize("ruleset", [*GRIDS, "diamonds_club"])
def test_remembered_grid_prices_equal_prices_from_scratch(tmp_path, ruleset):
    """A local cost (it reads only spaces, neighbours, card counters and parameters) is priced
    again only around changed counters, and so are the local parts of the filter; at every grid
    decision of random games (each game a new layout, Diamonds Club's each round), and across
    clones that go different ways, the offer equals pricing every space from scratch."""
    import random
    texts = GRIDS
    r = load_text(tmp_path, texts[ruleset]) if ruleset in texts else interpreter.load(interpreter.ruleset_path(ruleset))
    step = next(s for s in r.steps if s.kind == "grid")
    assert step.local is not None and step.local.counters
    # no card attribute read by the cost nor the filter's local part: prices kept by place
    assert step.local.anywhere is (ruleset not in ("grid_pos", "grid_face"))
    if ruleset == "grid_split":
        assert step.local.counters == ("taken", "blocked")
    # the spaces whose attributes alone pass the rest of the filter (animal == '-', pos == 1)
    assert (step.local.sure is not None) is (ruleset in ("grid_or", "diamonds_club"))
    rnd, checked = random.Random(7), 0
    for seed in range(20 if ruleset in texts else 2):
        S = r.new_game(r.max_players, seed=seed)
        branches = []
        while not S.is_terminal():
            if r.steps[S.stack[-1][0]] is step:
                assert [o for o in S.dec[1] if o != PASS] == _full_prices(step, S)
                checked += 1
                if rnd.random() < 0.2:
                    branches.append(S.clone())
            S.apply_index(rnd.randrange(len(S.dec[1])))
            if branches and rnd.random() < 0.05:
                S = branches.pop(rnd.randrange(len(branches)))   # jump back: other counter values
                engine.reask(S)
    assert checked > 20


@pytest.mark.parametrize("ruleset, by_place", [("diamonds_club", True), ("grid", True), ("grid_pos", False)])
def test_a_new_layout_is_priced_in_full_only_where_its_cards_matter(tmp_path, ruleset, by_place):
    """A cost and a local filter that read no card attribute give each layout of a grid's shape
    the prices first worked out for that shape (counters all 0: a new round's, a new game's):
    Diamonds Club's three games of nine rounds price a whole market once, where a cost that
    reads an attribute prices each layout met anew."""
    import random
    r = load_text(tmp_path, GRIDS[ruleset]) if ruleset in GRIDS else interpreter.load(interpreter.ruleset_path(ruleset))
    step = next(s for s in r.steps if s.kind == "grid")
    calls = []   # a layout priced with nothing to start from
    priced = step.local._priced
    step.local._priced = lambda S, grid, layout, entry, seen: (calls.append(grid[:]) if entry is None else None,
                                                                 priced(S, grid, layout, entry, seen))[1]
    rnd, layouts = random.Random(5), set()
    for seed in range(3 if ruleset == "diamonds_club" else 12):
        S = r.new_game(r.max_players, seed=seed)
        while not S.is_terminal():
            if r.steps[S.stack[-1][0]] is step:
                layouts.add(tuple(S.z["market"]))
            S.apply_index(rnd.randrange(len(S.dec[1])))
    assert len(layouts) >= 5 and len(calls) == (1 if by_place else len(layouts))


@pytest.mark.parametrize("where, sure", [
    ("taken == 0 and (pos == 1 or got < 2 + pos)", True),
    ("taken == 0 and (pos == 1 or pos == 2 or got < 2)", True),
    ("taken == 0 and (got < 2 + pos or pos == 1)", False),   # got is evaluated first: its errors too
    ("taken == 0 and got < 2 + pos", False),
])
def test_a_filter_is_passed_on_the_attributes_alone_only_by_its_leading_terms(tmp_path, where, sure):
    r = load_text(tmp_path, GRID.replace('where: "taken == 0"', f'where: "{where}"'))
    assert (next(s for s in r.steps if s.kind == "grid").local.sure is not None) is sure


def _labels_from_scratch(step, S, options):
    grid = step.zone(S, S.dec[0], None)
    rows = step.rows(S, None, None) or 1
    where = {c: i for i, c in enumerate(grid)}
    def position(i):
        return f"c{i // rows + 1}r{i % rows + 1}:"
    return ["pass" if v == PASS else position(where.get(v, -1)) + S.rules.card_labels[v] for v in options]


def test_kept_grid_labels_equal_labels_from_scratch():
    """A grid's labels come from a table kept while the grid is the same: at every grid
    decision of random Diamonds Club games, jumping back to earlier clones (another grid), the
    labels equal those written from the grid itself, and so do those of a card not in it."""
    import random
    r = interpreter.load(interpreter.ruleset_path("diamonds_club"))
    step = next(s for s in r.steps if s.kind == "grid")
    rnd, checked = random.Random(3), 0
    S, branches = r.new_game(4, seed=3), []
    while not S.is_terminal() and checked < 150:
        if r.steps[S.stack[-1][0]] is step:
            assert step.labels(S, S.dec[1]) == _labels_from_scratch(step, S, S.dec[1])
            stray = next(c for c in range(len(r.card_labels)) if c not in step.zone(S, S.dec[0], None))
            assert step.labels(S, (stray, PASS)) == _labels_from_scratch(step, S, (stray, PASS))
            checked += 1
            if rnd.random() < 0.2:
                branches.append(S.clone())
        S.apply_index(rnd.randrange(len(S.dec[1])))
        if branches and rnd.random() < 0.05:
            S = branches.pop(rnd.randrange(len(branches)))
    assert checked >= 100


def test_taking_a_space_pays_the_price_it_was_offered_at_also_after_a_json_round_trip():
    """The answer pays the price the space was offered at (only that space is priced again,
    from the remembered layout), and a state saved in the middle of the question (JSON) pays
    the same."""
    import random
    r = interpreter.load(interpreter.ruleset_path("diamonds_club"))
    step = next(s for s in r.steps if s.kind == "grid")
    S, rnd, checked = r.new_game(4, seed=3), random.Random(5), 0
    while not S.is_terminal() and checked < 30:
        if r.steps[S.stack[-1][0]] is step and len(S.dec[1]) > 1:
            who, i = S.dec[0], rnd.randrange(len(S.dec[1]) - 1)      # a space, not pass
            space = S.dec[1][i]
            grid = step.zone(S, who, None)
            n = adjacency(len(grid), 6)[grid.index(space)]
            price = step.cost(S, who, {"neighbours": [grid[j] for j in n]}, space)
            coins = S.c["coins"][who]
            T = r.state_from_json(S.to_json())
            S.apply_index(i)
            T.apply_index(i)
            assert S.c["coins"][who] == coins - price and S.c["coins_on"][space] == price
            assert T.to_json() == S.to_json()
            checked += 1
        else:
            S.apply_index(rnd.randrange(len(S.dec[1])))
    assert checked == 30


@pytest.mark.parametrize("cost, local", [
    ("1 + count(neighbours where face == 'S')", True),   # a string that reads "S" is no state
    ("1 + count(neighbours where face == side)", False),  # a variable
    ("num_players + count(neighbours where taken > 0)", False),   # the seats (a layout's memo is shared)
    ("1 + count(neighbours where taken > me)", False),    # the acting player
])
def test_a_grid_cost_is_local_by_what_it_reads(tmp_path, cost, local):
    r = load_text(tmp_path, GRID.replace(
        'cost: "1 + (sum(neighbours, by: taken) if params.by_coins else count(neighbours where taken > 0))"',
        f'cost: "{cost}"'))
    assert (next(s for s in r.steps if s.kind == "grid").local is not None) is local


def test_a_grid_cost_reading_more_than_its_neighbourhood_is_priced_in_full(tmp_path):
    r = load_text(tmp_path, GRID.replace('cost: "1 + (sum(', 'cost: "got + (sum('))   # the player's counter
    step = next(s for s in r.steps if s.kind == "grid")
    assert step.local is None
    S = r.new_game(2, seed=1)
    S.apply_index(0)
    assert S.c["coins"][0] == 5 and S.c["got"][0] > 0    # got 0 -> the first space was free
    assert [o for o in S.dec[1] if o != PASS] == _full_prices(step, S)

TRACKS = """
game: t
players: {min: 3, max: 3}
counters:
  level: {owner: player}
  pos: {owner: player}
  height: {owner: player}
vars:
  order: {type: "list[int]", start: "[]"}
params: {bonus: [0, 1, 3]}
flow:
  - advance: {counter: "level[0]", by: 5, max: 2}           # a step past the last space is lost
  - for_each: {in: "[2, 0, 1]", as: me, do: [{advance: {counter: pos, by: 2, max: 9, stack: height}}]}
  - turns: {sort_by: "pos * 100 + height", steps: [{set: {order: "order + [me]"}}]}
scoring:
  categories: {track: "params.bonus[level]"}
"""


def test_advance_stops_at_the_last_space_and_stacks_the_newest_on_top(tmp_path):
    S = load_text(tmp_path, TRACKS).new_game(3)
    assert S.c["level"] == [2, 0, 0] and S.scores() == [3, 0, 0]
    assert S.c["pos"] == [2, 2, 2]
    assert S.v["order"] == [1, 0, 2]        # moved last lies on top, so comes first


def test_advance_stack_needs_matching_owners(tmp_path):
    with pytest.raises(RulesetError, match="same owners"):
        load_text(tmp_path, TRACKS.replace("height: {owner: player}", "height: 0"))


PAY = """
game: p
players: {min: 2, max: 2}
counters:
  a: {owner: player, start: 1}
  b: {owner: player, start: 2}
  joker: {owner: player, start: 1}
vars:
  need_a: {type: int, start: 2}
flow:
  - pay: {who: 0, costs: {a: need_a}, any: 1, from: [a, b, joker], joker: joker}
"""


def test_pay_asks_only_real_choices_and_keeps_the_rest_payable(tmp_path):
    r = load_text(tmp_path, PAY)
    S = r.new_game(2)
    # the first unit of a: a or the joker both leave the rest payable
    assert S.prompt() == "pay" and S.legal_actions() == ["a", "joker"]
    S.apply("a")
    # the second unit can only be the joker, and the any unit only b: paid without asking
    assert S.is_terminal() and S.c["a"][0] == 0 and S.c["joker"][0] == 0 and S.c["b"][0] == 1


def test_pay_takes_a_team_counter_from_the_payers_team(tmp_path):
    """A joker owned by teams: seat 2 pays from team 0's (teams [0, 2] and [1, 3]), and the
    choice between its own counter and the team's joker is asked as for a player's."""
    r = load_text(tmp_path, PAY.replace("players: {min: 2, max: 2}", "players: {min: 4, max: 4}\nteams: {by_players: {'4': [[0, 2], [1, 3]]}}")
                  .replace("joker: {owner: player, start: 1}", "joker: {owner: team, start: 1}")
                  .replace("who: 0", "who: 2"))
    S = r.new_game(4)
    assert S.prompt() == "pay" and S.legal_actions() == ["a", "joker"]
    S.apply("a")
    assert S.is_terminal() and S.c["a"][2] == 0 and S.c["joker"] == [0, 1] and S.c["b"][2] == 1


def test_pay_offers_the_joker_or_the_counter(tmp_path):
    r = load_text(tmp_path, PAY.replace("start: 2}\n  joker", "start: 0}\n  joker").replace("joker: {owner: player, start: 1}",
                                                                                           "joker: {owner: player, start: 3}")
             .replace("{type: int, start: 2}", "{type: int, start: 1}"))
    S = r.new_game(2)
    assert S.prompt() == "pay" and S.legal_actions() == ["a", "joker"]
    S.apply("a")
    assert S.legal_actions() == [] or S.is_terminal()
    assert S.c["a"][0] == 0 and S.c["joker"][0] == 2


def test_pay_more_than_owned_is_a_located_runtime_error(tmp_path):
    r = load_text(tmp_path, PAY.replace("any: 1", "any: 5"))
    with pytest.raises(GameError, match="cannot pay"):
        r.new_game(2)



@pytest.mark.parametrize("froms", ["[a, b, joker]", "[joker, a, b]", "[joker, b]"])   # every unit (their sum), or some
def test_pay_an_any_unit_offers_what_the_unit_by_unit_check_offers(tmp_path, monkeypatch, froms):
    """Once the costs are paid, an `any` unit's choices are those the rest stays payable after
    (Pay._feasible of each counter, the reference), found by one sum: negative counters and
    units owed beyond what is held included."""
    from itertools import product

    from interpreter.mechanics.pay import ANY_LEFT, LEFT, PAYER, Pay
    r = load_text(tmp_path, PAY.replace("from: [a, b, joker]", f"from: {froms}"))
    S = r.new_game(2)
    step = next(s for s in r.steps if isinstance(s, Pay))
    assert step.from_all is (froms != "[joker, b]")
    reference = Pay._feasible
    asked: list = []
    monkeypatch.setattr(Pay, "_feasible", lambda *args: asked.append(args) or reference(*args))
    for a, b, joker, owed in product((-1, 0, 1, 2), (0, 2), (-1, 0, 3), (1, 2, 4, 6)):
        S.c["a"][0], S.c["b"][0], S.c["joker"][0] = a, b, joker
        frame = [step.index, 0, [0], owed]
        have = [{"a": a, "b": b, "joker": joker}[u] for u in step.units]
        expected = [step.units[u] for u in step.from_at if have[u] > 0 and reference(step, frame, have, None, u)]
        asked.clear()
        assert step._choices(S, frame) == (None, expected), (a, b, joker, owed)
        assert not asked or min(have) < 0   # (the unit-by-unit check only where a counter is negative)
    assert frame[PAYER] == 0 and frame[LEFT] == [0] and frame[ANY_LEFT] == 6   # (the frame as given)


SETS = """
game: s
players: {min: 1, max: 1}
components:
  part: {cards: [{name: m, value: 0}, {name: r, value: 3}, {name: r, value: 5}, {name: s, value: 4}], label: "{name}{value}"}
zones:
  mine: {owner: player}
  supply: {start: [part]}
  use: {owner: player}
  kept: {owner: player}
counters:
  out: {owner: player}
setup:
  - for_each: {in: players, as: me, do: [{move: {from: supply, to: mine}}]}
flow:
  - turns:
      steps:
        - while: "count(mine where name == 'm') > 0 and count(mine where name == 'r') > 0 and count(mine where name == 's') > 0"
          steps:
            - pick: {from: mine, to: use, where: "name == 'm'", count: 1}
            - pick: {from: mine, to: use, where: "name == 'r'", count: 1}
            - pick: {from: mine, to: use, where: "name == 's'", count: 1}
            - gain: {counter: out, amount: "min(first(use where name == 'r').value, first(use where name == 's').value)"}
            - move: {from: use, to: supply}
        - pick: {from: mine, to: kept, where: "name not in map(picked, to: name)", min: 0, max: 2}
        - move: {from: mine, to: supply}
        - move: {from: kept, to: mine}
"""


def test_sets_pairings_are_chosen_and_one_leftover_is_kept(tmp_path):
    r = load_text(tmp_path, SETS)
    S = r.new_game(1)
    S.apply("m0")
    assert S.legal_actions() == ["r3", "r5"]
    S.apply("r5")
    S.apply("s4")
    assert S.c["out"] == [4]
    assert S.legal_actions() == ["r3", "done"]
    S.apply("r3")
    assert S.is_terminal() and [r.card_labels[c] for c in S.z["mine"][0]] == ["r3"]


TABLES = """
game: pt
players: {min: 2, max: 2}
components:
  table: {cards: [{t: cheap, base: 1}, {t: dear, base: 2}], label: "{t}"}
  piece: {attributes: {seat: 0..1}, copies: 2, label: "piece{seat}"}
zones:
  tables: {start: [table]}
  box: {start: [piece]}
  pieces: {owner: player}
  on: {owner: card}
counters:
  gems: {owner: player, start: 5}
vars:
  pick: str
  tcard: card
setup:
  - for_each: {in: players, as: me, do: [{move: {from: box, to: pieces, cards: "box where seat == me"}}]}
flow:
  - turns:
      rounds: 2
      steps:
        - choose:
            options: "map(tables where count(pieces) > 0 and me not in map(on, to: seat) and gems >= base + count(on), to: t) + ['pass']"
            as: pick
        - if: "pick != 'pass'"
          then:
            - set: {tcard: "first(tables where t == pick)"}
            - lose: {counter: gems, amount: "tcard.base + count(tcard.on)"}
            - move: {from: pieces, to: "on[tcard]", count: 1}
"""


def test_price_tables_rise_with_opposing_pieces_and_serve_each_player_once(tmp_path):
    S = load_text(tmp_path, TABLES).new_game(2)
    assert S.legal_actions() == ["cheap", "dear", "pass"]
    S.apply("dear")                          # seat 0: 2
    S.apply("dear")                          # seat 1: 2 + 1 opposing piece
    assert S.c["gems"] == [3, 2]
    assert S.legal_actions() == ["cheap", "pass"]   # seat 0 used dear already
    S.apply("cheap")                         # seat 0: 1
    assert S.legal_actions() == ["cheap", "pass"]   # seat 1: cheap now costs 1 + 1
    S.apply("cheap")
    assert S.c["gems"] == [2, 0] and S.is_terminal()


PARK = """
game: pk
players: {min: 1, max: 1}
components:
  spot: {cards: [{area: light, req: "-", copies: 2}, {area: light, req: x}, {area: dark, req: "-"}], label: "{area}{req}"}
  tile: {attributes: {shape: [x, y]}, copies: 5, label: "{shape}"}
zones:
  box: {start: [spot]}
  park: {owner: player}
  supply: {start: [tile]}
  built: {owner: player}
counters:
  filled: {owner: card}
vars:
  what: str
  where_to: card
  ended: {type: bool, start: false}
setup:
  - for_each: {in: players, as: me, do: [{move: {from: box, to: park}}]}
flow:
  - until: ended
    steps:
      - choose:
          who: 0
          options: "['x', 'y'] where it == 'x' and count(park[0] where filled == 0 and (req == 'x' or req == '-') and (area == 'light' or count(park[0] where area == 'light' and filled == 0) == 0)) > 0 or it == 'y' and count(park[0] where filled == 0 and req == '-' and (area == 'light' or count(park[0] where area == 'light' and filled == 0) == 0)) > 0"
          as: what
      - choose:
          who: 0
          options: "park[0] where filled == 0 and (req == what or req == '-') and (area == 'light' or count(park[0] where area == 'light' and filled == 0) == 0)"
          as: where_to
          then:
            - gain: {counter: "filled[where_to]"}
            - move: {from: supply, to: built, cards: "[first(supply where shape == what)]"}
            - if: "count(park[0] where area == 'light' and filled == 0) == 0"
              then: [{set: {ended: true}}]
"""


def test_required_spaces_take_one_tile_and_dark_spaces_open_last(tmp_path):
    r = load_text(tmp_path, PARK)
    S = r.new_game(1)
    S.apply("y")
    assert S.legal_actions() == ["light-"]          # the required space takes only x
    S.apply("light-")
    S.apply("y")
    S.apply("light-")
    assert S.legal_actions() == ["x"]               # y fits nowhere now; dark is still closed
    S.apply("x")
    assert S.legal_actions() == ["lightx"]
    S.apply("lightx")                               # the last light space: the end is triggered
    assert S.is_terminal() and S.v["ended"]


RACE = """
game: r
players: {min: 2, max: 2}
components:
  card: {cards: [{vp: 5}, {vp: 3}], label: "bonus{vp}"}
zones:
  supply: {start: [card]}
  won: {owner: player}
counters:
  done: {owner: player}
effects:
  claim:
    - if: "done > count(won) and count(supply) > 0"
      then: [{move: {from: supply, to: won, cards: "[highest(supply, by: vp)]"}}]
flow:
  - for_each: {in: "[0, 0, 1, 1]", as: me, do: [{gain: {counter: done}}, claim]}
"""


def test_race_first_and_second_achievements_take_a_card_each(tmp_path):
    r = load_text(tmp_path, RACE)
    S = r.new_game(2)
    assert [[r.card_labels[c] for c in S.z["won"][p]] for p in (0, 1)] == [["bonus5", "bonus3"], []]


def test_end_trigger_lets_the_round_finish(tmp_path):
    r = load_text(tmp_path, """
    game: e
    players: {min: 3, max: 3}
    vars:
      triggered: {type: bool, start: false}
      turns_played: {type: int, start: 0}
    flow:
      - until: triggered
        steps:
          - turns:
              steps:
                - set: {turns_played: "turns_played + 1"}
                - if: "turns_played == 4"
                  then: [{set: {triggered: true}}]
    """)
    S = r.new_game(3)
    assert S.is_terminal() and S.v["turns_played"] == 6   # round 2 is played to its end


@pytest.mark.parametrize("key", ["pay", "mark"])
def test_a_grid_counter_that_is_not_a_name_is_a_located_error(tmp_path, key):
    """Found by fuzzing: `mark: []` was an internal TypeError (a list is not a dict key)."""
    with pytest.raises(RulesetError, match="expected the name of a counter, got"):
        load_text(tmp_path, GRID.replace(f"            {key}: ", f"            {key}: [] #"))


def test_pay_from_a_list_in_place_of_a_counter_name_is_a_located_error(tmp_path):
    """Found by fuzzing: `from: [gold, [1]]` was an internal TypeError."""
    with pytest.raises(RulesetError, match=r"expected the name of a counter, got \[1\]"):
        load_text(tmp_path, PAY.replace("from: [a, b, joker]", "from: [a, [1], joker]"))


def test_the_grid_pricing_is_listed_in_the_module_and_named_by_its_rules_lines(tmp_path):
    """The functions a grid's question and prices run are written into the ruleset's module
    under the lines of their rules (the step, its cost, its filter), and their code is named by
    those lines: a profile says which rule of the YAML costs what."""
    r = load_text(tmp_path, GRID)
    step = next(s for s in r.steps if s.kind == "grid")
    lines = GRID.splitlines()   # (the text starts with a newline: line 1 is empty)
    at = {key: 1 + next(i for i, line in enumerate(lines) if line.strip().startswith(f"{key}:"))
          for key in ("- grid", "where", "cost")}
    module = r.module_source
    for name, key in (("batch", "- grid"), ("pricing", "cost"), ("pricing_1", "cost"), ("pricing_2", "where")):
        assert f"# grid{step.index}_{name}: g.yaml:{at[key]}:" in module
        assert f"def grid{step.index}_{name}(" in module
    assert {fn.__code__.co_filename for fn in (step.batch, *step.pricing)} == {f"<g.yaml:{line}>" for line in at.values()}
    assert "<grid" not in module
