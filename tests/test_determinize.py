"""Determinization: a full state a seat cannot tell from the real one, built from the declared
visibility and what the seat knows, never from the hidden facts themselves."""
from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

import interpreter
from interpreter.engine.knowledge import seers

ROOT = Path(__file__).resolve().parent.parent
GAMES = [("diamonds", 4), ("diams", 3), ("mister_diamond", 3), ("diamonds_club", 3),
         (str(ROOT / "docs" / "examples" / "little_tricks.yaml"), 3),
         (str(ROOT / "docs" / "examples" / "sealed_bids.yaml"), 3)]   # secret choices held in a frame


def states(name, players, seeds=(1, 2), every=7, limit=120):
    """States met along seeded random games played with knowledge kept."""
    rules = interpreter.load(name)
    for seed in seeds:
        S = rules.new_game(players, seed, knowledge=True)
        rnd = random.Random(seed)
        k = 0
        while not S.is_terminal() and k < limit:
            if k % every == 0:
                yield S
            S.apply_index(rnd.randrange(len(S.dec[1])))
            k += 1


def instances(S, name):
    zone = S.z[name]
    kind = S.rules.zone_owner[name]
    if kind == "none":
        return [(None, zone)]
    if kind == "card":
        return sorted((o, z) for o, z in zone.items() if z)
    return list(enumerate(zone))


def every_card(S) -> Counter:
    """Every card of the state: in zones, and held aside by running steps (a pass face down)."""
    held = [c for f in S.stack for c in S.rules.steps[f[0]].hidden_cards(S, f, -1)]
    return Counter([c for n in S.z for _, z in instances(S, n) for c in z] + held)


def sizes(S):
    return {(name, o): len(z) for name in S.z for o, z in instances(S, name)}


@pytest.mark.parametrize("name,players", GAMES, ids=[Path(g).stem for g, _ in GAMES])
def test_a_determinization_is_a_legal_state_the_seat_cannot_tell_apart(name, players):
    checked = 0
    for S in states(name, players):
        seat = S.current_player()
        D = S.determinize(seat, random.Random(checked))
        assert sizes(D) == sizes(S)
        # (the counters and variables it sees: in its observation, below; the others are what it
        # may believe, tests/test_determinize_values.py)
        assert [f[0] for f in D.stack] == [f[0] for f in S.stack]
        assert D.current_player() == seat and D.legal_actions() == S.legal_actions()
        assert D.observation(seat) == S.observation(seat)
        assert every_card(D) == every_card(S)
        for n in S.z:                       # what the seat knows the place of stays put
            for o, z in instances(S, n):
                known = [c for c in z if (S.kn or {}).get(c, 0) >> seat & 1]
                there = dict(instances(D, n)).get(o, [])
                assert all(c in there for c in known)
        assert D.rng != S.rng
        D.clone()                           # and it plays on
        checked += 1
    assert checked > 3


def test_a_seat_not_asked_determinizes_to_a_world_where_the_asker_is_asked_the_same(monkeypatch):
    # Diam's forced sale: the seller chose the branch because it held a sale card, then is asked
    # which; a world where its hand holds none cannot ask that, and is dealt again (this state
    # raised a runtime error in the sale's effects); so the other seats' worlds all ask it
    from interpreter.errors import GameError
    rules = interpreter.load("diams")
    S, rnd, asked = rules.new_game(3, 0), random.Random(0), 0
    while not S.is_terminal():
        if S.prompt() in ("sale_card", "give"):
            for seat in range(3):
                if seat != S.current_player():
                    D = S.determinize(seat, random.Random(seat))
                    assert (D.current_player(), D.prompt()) == (S.current_player(), S.prompt())
                    assert D.observation(seat) == S.observation(seat) and D.legal_actions()
                    asked += 1
        S.apply_index(rnd.randrange(len(S.dec[1])))
    assert asked >= 4
    # no world at all (here: every question asked again fails): a clear error after the tries
    from interpreter.engine import knowledge

    def fails(D):
        raise GameError("a value is out of range for this operation")
    S = rules.new_game(3, 0)
    while S.prompt() != "sale_card":
        S.apply_index(rnd.randrange(len(S.dec[1])))
    monkeypatch.setattr(knowledge, "reask", fails)
    monkeypatch.setattr(knowledge, "TRIES", 5)
    with pytest.raises(GameError, match=r"cannot determinize for seat \d: no deal of the hidden cards in 5 lets "
                                        r"seat \d be asked 'sale_card' again"):
        S.determinize((S.current_player() + 1) % 3, random.Random(1))
    assert S.determinize(S.current_player(), random.Random(1)).prompt() == "sale_card"   # the asker's own: no question again


SWAP = [GAMES[0], GAMES[1], GAMES[2], GAMES[4]]


@pytest.mark.parametrize("name,players", SWAP, ids=[Path(g).stem for g, _ in SWAP])
def test_a_determinization_never_depends_on_hidden_facts(name, players):
    """Swap two cards the seat can neither see nor place: the determinization (same RNG) is
    the same state."""
    swapped = 0
    for S in states(name, players, every=11):
        seat = S.current_player()
        hidden = [(n, o, i) for n in S.z for o, z in instances(S, n) if not seers(S, n, o) >> seat & 1
                  for i, c in enumerate(z) if not (S.kn or {}).get(c, 0) >> seat & 1]
        pairs = [(a, b) for a in hidden for b in hidden if a[:2] != b[:2]]
        if not pairs:
            continue
        (n1, o1, i1), (n2, o2, i2) = random.Random(swapped).choice(pairs)
        T = S.clone().own_all()             # (written below: its own lists)
        z1, z2 = dict(instances(T, n1))[o1], dict(instances(T, n2))[o2]
        z1[i1], z2[i2] = z2[i2], z1[i1]
        T.rules.keep_sorted(T)
        assert T.digest() != S.digest()
        a, b = S.determinize(seat, random.Random(5)), T.determinize(seat, random.Random(5))
        assert a.digest() == b.digest()
        swapped += 1
    assert swapped >= 2


def test_a_passer_knows_where_its_cards_went_and_no_one_else_does():
    rules = interpreter.load("diamonds")
    S = rules.new_game(4, 3, knowledge=True)
    S.apply("1")                                   # the start player: pass one card
    while S.prompt() == "pass":
        S.apply_index(0)
    giver = 0
    receiver = 1                                   # to the left
    passed = [c for c in S.z["hand"][receiver] if S.kn.get(c, 0) >> giver & 1]
    assert len(passed) == 1
    for k in range(20):
        D = S.determinize(giver, random.Random(k))
        assert passed[0] in D.z["hand"][receiver]
    moved = sum(passed[0] not in S.determinize(2, random.Random(k)).z["hand"][receiver] for k in range(20))
    assert moved > 5                               # seat 2 does not know it


def test_hidden_cards_are_dealt_in_proportion_to_the_places_they_may_be():
    rules = interpreter.load("mister_diamond")
    S = rules.new_game(3, 1, knowledge=True)
    where = Counter()
    for k in range(400):
        D = S.determinize(0, random.Random(k))
        where["fake" if rules.card_id("d4") in D.z["fake_spots"] else "real"] += 1
    assert 0.28 < where["fake"] / 400 < 0.48          # 16 of the 42 positions hold fakes


def test_a_game_without_knowledge_still_determinizes_every_hidden_card():
    rules = interpreter.load("diams")
    S = rules.new_game(2, 4)
    assert S.kn is None
    D = S.determinize(0, random.Random(1))
    assert D.z["hand"][0] == S.z["hand"][0] and sizes(D) == sizes(S)


def test_a_game_without_hidden_cards_determinizes_to_itself_but_its_chance():
    for S in states("diamonds_club", 3, seeds=(1,), every=40):
        D = S.determinize(S.current_player(), random.Random(1))
        assert D.z == S.z and D.c == S.c and D.rng != S.rng


def test_a_card_where_its_zone_cannot_hold_it_is_a_clear_error():
    """A hidden card that no hidden zone may hold (holds:), in a patched state or a ruleset that
    moves it where it may not be, cannot be dealt again: a GameError naming the card."""
    from interpreter.errors import GameError
    rules = interpreter.load("diams")
    S = rules.new_game(3, seed=2).own_all()   # (written below: its own lists)
    closing = rules.card_labels.index("closing")
    for name, zone in S.z.items():
        for part in ([zone] if rules.zone_owner[name] == "none" else zone):
            if closing in part:
                part.remove(closing)
    S.z["discard"] += S.z["pile"]   # the pile in sight: the other hands are all that is hidden
    S.z["pile"].clear()
    S.z["hand"][1].append(closing)
    with pytest.raises(GameError, match="card 'closing' is hidden where no hidden zone's holds: lists it"):
        S.determinize(0, random.Random(1))


def test_the_order_of_a_hidden_zone_is_dealt_again_too(tmp_path):
    """Seat 1's hand holds both y cards (which only hands hold) and two x cards; the pile the
    other four x. Dealt again for seat 0, the y cards go first (the smaller set), the x cards
    fill the rest as one shuffled set cut in two: the hand, which took from both, is shuffled
    again (else its first card would be a y); the pile, a cut of one shuffled set, already is
    in a random order. Each card is first in its zone as often as any other that may be there."""
    path = tmp_path / "g.yaml"
    path.write_text(
        "game: g\nplayers: {min: 2, max: 2}\ncomponents:\n  x: {attributes: {n: 1..6}, label: 'x{n}'}\n"
        "  y: {attributes: {m: 1..2}, label: 'y{m}'}\nzones:\n  stock: {start: [x, y], visible: none}\n"
        "  pile: {visible: none, holds: [x]}\n  hand: {owner: player, visible: owner, holds: [x, y]}\nflow:\n"
        "  - move: {from: stock, to: 'hand[1]', cards: 'stock where m != none'}\n"
        "  - move: {from: stock, to: 'hand[1]', count: 2}\n  - move: {from: stock, to: pile}\n"
        "  - choose: {who: 0, options: '[1, 2]', as: v}\n")
    rules = interpreter.load(path)
    S = rules.new_game(2, 1, knowledge=True)
    assert [len(S.z["hand"][1]), len(S.z["pile"])] == [4, 4]
    first_in_hand, first_in_pile, rng, n = Counter(), Counter(), random.Random(2), 4000
    for _ in range(n):
        D = S.determinize(0, rng)
        first_in_hand[rules.card_labels[D.z["hand"][1][0]]] += 1
        first_in_pile[rules.card_labels[D.z["pile"][0]]] += 1
    assert abs((first_in_hand["y1"] + first_in_hand["y2"]) / n - 0.5) < 0.04
    assert all(abs(first_in_hand[f"x{k}"] / n - 1 / 12) < 0.025 for k in range(1, 7)), first_in_hand
    assert all(abs(first_in_pile[f"x{k}"] / n - 1 / 6) < 0.03 for k in range(1, 7)), first_in_pile


# ---------------------------------------------------------------- the deal of the hidden cards
# Cards 0..3 of components a, a, b, c; three places: one that holds anything (2 cards), one
# that holds a and b (1), one that holds only a (1). The sets of places each component fits
# nest ({2} in {1, 2} in {0, 1, 2}): the deal is uniform over the fitting deals.
KINDS = ["a", "a", "b", "c"]
NESTED = [([], 2, None), ([], 1, frozenset("ab")), ([], 1, frozenset("a"))]


def _fitting(pool, slots):
    """Every fitting deal, as a tuple of each place's sorted cards (by brute force)."""
    from itertools import permutations
    deals = set()
    for order in permutations(pool):
        out, at = [], 0
        for _, n, _holds in slots:
            out.append(tuple(sorted(order[at:at + n])))
            at += n
        if all(holds is None or KINDS[c] in holds for (_, _, holds), got in zip(slots, out) for c in got):
            deals.add(tuple(out))
    return deals


def test_a_deal_into_nested_holds_makes_every_fitting_deal_equally_likely():
    from interpreter.engine.dealing import deal as _deal
    fitting = _fitting([0, 1, 2, 3], NESTED)
    assert len(fitting) == 4          # a's other card and b share the first places, or b takes place 1
    rng = random.Random(7)
    seen = Counter(tuple(tuple(sorted(got)) for got in _deal([0, 1, 2, 3], NESTED, KINDS, None, rng)[0])
                   for _ in range(4000))
    assert set(seen) == fitting       # never a card where its place may not hold it
    assert all(850 < k < 1150 for k in seen.values()), seen   # 1000 each, give or take 5 sd


def test_a_deal_into_holds_that_overlap_without_nesting_still_fits():
    from interpreter.engine.dealing import deal as _deal
    kinds = ["a", "b", "c", "c"]
    slots = [([], 2, frozenset("ac")), ([], 2, frozenset("bc"))]   # {0} and {1}, c fits both, a-b apart
    rng = random.Random(3)
    for _ in range(200):
        (first, second), _ = _deal([0, 1, 2, 3], slots, kinds, None, rng)
        assert 0 in first and 1 in second and sorted(first + second) == [0, 1, 2, 3]
    slots = [([], 2, frozenset("ab")), ([], 2, frozenset("bc"))]   # {0}, {0, 1}, {1}: nested
    assert {tuple(sorted(x)) for _ in range(50) for x in _deal([0, 1, 2, 3], slots, kinds, None, rng)[0][:1]} \
        == {(0, 1)}


def test_more_cards_of_a_component_than_places_that_hold_it_is_a_clear_error():
    from interpreter.errors import GameError
    from interpreter.engine.dealing import deal as _deal
    kinds = ["c", "c", "a", "a"]   # two c cards; one place holds only c, the other anything
    with pytest.raises(GameError, match="do not fit the hidden zones' holds"):
        _deal([0, 1, 2, 3], [([], 1, frozenset("c")), ([], 3, frozenset("a"))], kinds, None, random.Random(1))
    (first, second), _ = _deal([0, 1, 2, 3], [([], 1, frozenset("c")), ([], 3, None)], kinds, None, random.Random(1))
    assert first in ([0], [1]) and sorted(first + second) == [0, 1, 2, 3]


@pytest.mark.parametrize("name,players", GAMES, ids=[Path(g).stem for g, _ in GAMES])
def test_a_determinization_keeps_no_seed_of_the_game(name, players):
    """The game's seed would deal the true hands again: a world gets a seed of its own, drawn
    from the searcher's generator (the same generator, the same world), that a saved state takes."""
    rules = interpreter.load(name)
    seed = 8765432123456789
    S = rules.new_game(players, seed, knowledge=True)
    rnd = random.Random(1)
    for _ in range(9):
        S.apply_index(rnd.randrange(len(S.dec[1])))
    D = S.determinize(S.current_player(), random.Random(3))
    assert D.seed != seed and str(seed) not in D.to_json() and D.rng != S.rng
    assert D.digest() == S.determinize(S.current_player(), random.Random(3)).digest()
    assert rules.state_from_json(D.to_json()).digest() == D.digest()
