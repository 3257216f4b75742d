"""The consumers' tensor encoders (adapters/tensors.py: the incremental one of large tensors, the
one keeping long blocks of small tensors) give the reference encoder's tensors, on
every bundled ruleset and example, for every seat, on states in play order, out of order
(clones revisited, two games interleaved), and a seat's tensor depends only on what it may
see: a determinization for that seat (the hidden cards dealt again) encodes the same."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (pip install '.[rl]') is not installed")

import interpreter  # noqa: E402
from interpreter.adapters.tensors import layout  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted(str(p) for p in [*(ROOT / "rulesets").glob("*.yaml"), *(ROOT / "docs" / "examples").glob("*.yaml")])


def _counts(rules):
    counts = rules.player_counts
    return sorted({counts[0], counts[-1], min(4, counts[-1]) if 4 >= counts[0] else counts[0]})


def _states(rules, players, seed, every):
    """States of a random game: every ``every``-th decision, cloned, and the last."""
    S, rnd, out = rules.new_game(players, seed), random.Random(seed), []
    while not S.over:
        if rnd.randrange(every) == 0:
            out.append(S.clone())
        S.apply_index(rnd.randrange(len(S.dec[1])))
    return out + [S]


KINDS = pytest.mark.parametrize("incremental", [True, False], ids=["incremental", "kept"])


@KINDS
@pytest.mark.parametrize("path", RULESETS, ids=[Path(p).stem for p in RULESETS])
def test_a_consumer_encoder_gives_the_reference_tensors(path, incremental):
    rules = interpreter.load(path)
    big = len(rules.card_labels) > 200
    for players in _counts(rules):
        L = layout(rules, players)
        encode = L.encoder(incremental=incremental)
        games = [_states(rules, players, seed, 4 if big else 1) for seed in range(1 if big else 3)]
        rnd = random.Random(players)
        checked = 0
        # in play order, each state for its mover and one other seat; then every seat
        for states in games:
            for S in states:
                seats = {S.current_player() if not S.over else 0, rnd.randrange(players)}
                for p in seats:
                    assert np.array_equal(encode(S, p), L.encode(S, p)), (path, players, p)
                    checked += 1
        # out of order: all the games' states shuffled together, every seat
        mixed = [S for states in games for S in states]
        rnd.shuffle(mixed)
        for S in mixed[:60]:
            for p in range(players):
                got = encode(S, p)
                assert got.dtype == np.float32 and got.shape == (L.size,)
                assert np.array_equal(got, L.encode(S, p)), (path, players, p)
                checked += 1
        assert checked > 20


@KINDS
@pytest.mark.parametrize("path", RULESETS, ids=[Path(p).stem for p in RULESETS])
def test_a_seat_tensor_is_the_same_on_its_determinizations(path, incremental):
    rules = interpreter.load(path)
    players = _counts(rules)[-1]
    L = layout(rules, players)
    encode = L.encoder(incremental=incremental)
    rng = random.Random(5)
    states = _states(rules, players, 2, 8 if len(rules.card_labels) > 200 else 3)
    checked = 0
    for S in states[:-1:max(1, len(states) // 12)]:     # (not the last: over, nothing hidden left)
        for p in range(players):
            mine = encode(S, p)
            for _ in range(2):
                D = S.determinize(p, rng)
                if D.dec is None or D.stack[-1][0] != S.stack[-1][0]:
                    continue     # (it asked again a question another seat answered in secret)
                assert np.array_equal(encode(D, p), mine), (path, p)
                assert np.array_equal(L.encode(D, p), mine), (path, p)
                checked += 1
            assert np.array_equal(encode(S, p), mine)    # and back: what it wrote for D is undone
    assert checked > 10


@KINDS
@pytest.mark.parametrize("path", RULESETS, ids=[Path(p).stem for p in RULESETS])
def test_a_live_game_and_its_clone_are_encoded_as_they_move_on(path, incremental):
    """What an env does: the same state encoded, moved on in place, encoded again, with a
    clone of it taken mid-game and played on otherwise (the two share their lists until one
    writes, State.own), the two encoded in turn by one encoder: every write of either seen."""
    rules = interpreter.load(path)
    players = _counts(rules)[-1]
    L = layout(rules, players)
    encode = L.encoder(incremental=incremental)
    checked, seed = 0, 4
    while checked <= 10:     # a game of a few decisions (a round of Liar's dice): the next seed too
        S, rnd = rules.new_game(players, seed), random.Random(seed)
        other = None
        while not S.over or (other is not None and not other.over):
            for T in (S, other):
                if T is None or T.over:
                    continue
                p = T.current_player()
                assert np.array_equal(encode(T, p), L.encode(T, p)), (path, p, T.steps)
                T.apply_index(rnd.randrange(len(T.dec[1])))
                checked += 1
            if other is None and S.steps >= 10 and not S.over:
                other = S.clone()
        for T in (S, other or S):
            assert np.array_equal(encode(T, 0), L.encode(T, 0))
        seed += 1


@KINDS
def test_the_returned_tensors_are_fresh_arrays(incremental):
    rules = interpreter.load("diamonds")
    L = layout(rules, 4)
    encode = L.encoder(incremental=incremental)
    S = rules.new_game(4, 1)
    for _ in range(12):
        a = encode(S, 0)
        a[:] = 7                                          # a consumer may write into it
        assert np.array_equal(encode(S, 0), L.encode(S, 0))   # ... and it is not kept
        S.apply_index(0)
        b = encode(S, 0)
        assert not np.shares_memory(a, b) and np.array_equal(b, L.encode(S, 0))


@KINDS
@pytest.mark.parametrize("players", [4, 6])
def test_team_owned_pieces_are_placed_relative_to_the_viewer_team(players, incremental):
    """Diamonds' teams variant (zones and counters owned by each team): each seat's encoder,
    written for its team, gives the reference's tensors in play order and out of order."""
    rules = interpreter.load("diamonds", variant="teams")
    L = layout(rules, players)
    encode = L.encoder(incremental=incremental)
    states = _states(rules, players, 4, 1)
    for S in states:
        p = S.current_player() if not S.over else 0
        assert np.array_equal(encode(S, p), L.encode(S, p)), p
    random.Random(1).shuffle(states)
    for S in states[:40]:
        for p in range(players):
            assert np.array_equal(encode(S, p), L.encode(S, p)), p


@KINDS
def test_a_number_past_float32s_range_is_encoded_as_infinity(tmp_path, incremental):
    """The small tensors are written through a memoryview, which refuses a finite number too
    large for float32: a `num` variable of 9e62 is inf, as a float32 array makes it."""
    path = tmp_path / "g.yaml"
    path.write_text(
        "game: g\nplayers: {min: 2, max: 2}\ncomponents:\n  c: {attributes: {n: 1..3}, label: 'c{n}'}\n"
        "zones:\n  deck: {start: [c]}\nvars:\n  big: num\n  small: num\nflow:\n"
        "  - set: {big: '9000000000000000000 / 0.00000000000000000000000000000000000000000001', small: '0.5 * 3'}\n"
        "  - choose: {who: 0, options: '[1, 2]', as: x}\n")
    rules = interpreter.load(path)
    L = layout(rules, 2)
    S = rules.new_game(2, 0)
    big, small = (dict((n, o) for n, o, _ in L.pieces)[f"var:{v}"] for v in ("big", "small"))
    for got in (L.encode(S, 0), L.encoder(incremental=incremental)(S, 0)):
        assert got[big] == np.inf and got[small] == 1.5


def test_a_kept_block_is_brought_up_to_date_by_what_came_or_went():
    """A long zone's kept block (adapters/seat_encoder.py ``_bring``): cards appended (a pile
    growing), one card gone (a card played from a hand), and anything else (a swap that keeps
    the length one short, a reorder, a new list) give the multi-hot of the new list."""
    from array import array
    from interpreter.adapters.seat_encoder import _bring
    pos = [9 - c for c in range(10)]            # card c -> slot 9 - c
    block = bytearray(40)
    w = [[], block, memoryview(block).cast("f"), 0, bytes(40)]   # (the list, its floats, their view, its sum, zeros)

    def hot(cards):
        return array("f", [1.0 if 9 - s in cards else 0.0 for s in range(10)]).tobytes()

    for h in ([1, 4, 7, 8], [1, 4, 7, 8, 2, 0], [1, 7, 8, 2, 0], [1, 7, 8, 2], [3, 7, 8],
              [8, 7, 3], [5, 6, 9, 0, 1], [5, 6, 9, 0, 1, 2, 3, 4, 7, 8], [5, 9, 0, 1, 2, 3, 4, 7, 8],
              [9, 5, 0, 1, 2, 3, 4, 7]):   # (the last: 8 gone and two swapped)
        _bring(w, h, pos)
        assert bytes(block) == hot(h) and w[0] == h and w[0] is not h, h


def test_a_kept_block_takes_one_card_put_anywhere_in_place():
    """``_bring``: one card come anywhere in a long zone (a sorted zone taking one; at the front,
    the middle, the end) is put in the kept list itself, not a copy; a list one longer that is
    not the kept one and a card (a card swapped too) is written again."""
    from array import array
    from interpreter.adapters.seat_encoder import _bring
    pos = [9 - c for c in range(10)]
    block = bytearray(40)
    w = [[], block, memoryview(block).cast("f"), 0, bytearray(40)]
    _bring(w, [2, 4, 6, 8], pos)
    kept = w[0]
    for h in ([2, 3, 4, 6, 8], [0, 2, 3, 4, 6, 8], [0, 2, 3, 4, 6, 8, 9]):
        _bring(w, h, pos)
        assert w[0] is kept and w[0] == h and w[0] is not h and w[3] == sum(h)
        assert bytes(block) == array("f", [1.0 if 9 - s in h else 0.0 for s in range(10)]).tobytes(), h
    for h in ([0, 2, 3, 4, 6, 9, 8, 1], [0, 2, 3, 4, 6, 9, 7, 1, 5]):   # (a swap and one come; the sums' difference in h)
        _bring(w, h, pos)
        assert w[0] == h and w[0] is not h and w[3] == sum(h)
        assert bytes(block) == array("f", [1.0 if 9 - s in h else 0.0 for s in range(10)]).tobytes(), h


def test_a_counter_owned_by_each_card_writes_the_values_that_changed():
    """``_recount``: the kept floats of a counter owned by each card hold the counter's values
    after each change: one value or a few changed are written one by one in the kept list itself;
    many changed, or a value that is not a whole number in 0..255 (negative, large, a num), the
    whole list again."""
    from array import array
    from interpreter.adapters.seat_encoder import FEW, _recount
    n = 40
    block = bytearray(4 * n)
    w = [None, block, memoryview(block).cast("f"), None]
    x = [0] * n
    _recount(w, x)
    kept = w[0]
    steps = [(0, 1), (39, 3), (17, 255), (17, 0), (5, True)]
    for i, v in steps:
        x = x[:]
        x[i] = v
        _recount(w, x)
        assert w[0] is kept and w[0] == x and w[0] is not x, (i, v)
        assert bytes(block) == array("f", x).tobytes(), (i, v)
    x = x[:]
    x[2], x[30] = 7, 9   # two at once
    _recount(w, x)
    assert w[0] is kept and bytes(block) == array("f", x).tobytes()
    for x in ([3] * (FEW + 1) + [0] * (n - FEW - 1), [1] * n, [-1] + [0] * (n - 1), [0] * (n - 1) + [256],
              [0.5] + [0] * (n - 1), [0] * n, [2] * n):
        _recount(w, x)
        assert w[0] == x and w[0] is not x and bytes(block) == array("f", x).tobytes(), x


def test_a_long_lists_changes_are_found_from_its_common_start():
    """The incremental encoder's diffs (adapters/shared_encoder.py): the first difference of two
    lists by bisection, the cards that went or came (a few, one at a time, or in one run, or
    else the sets' difference), the memo's list brought up to date in place, and a list of
    values brought up to date run by run, in place."""
    from array import array
    from interpreter.adapters.shared_encoder import RUN, _changed_cards, _first_difference, _sync_values
    rnd = random.Random(3)
    for n in (0, 1, 5, 17, 40, 150):
        old = rnd.sample(range(1000), n)
        for i in range(n + 1):
            new = old[:i] + [-1] + old[i:]
            assert _first_difference(new, old, 0, n) == i
            assert _first_difference(old, old, i, n) == n
    supply = rnd.sample(range(500), 150)
    cases = [supply[:40] + supply[41:],               # one taken from the middle
             supply[3:], supply[:-2],                  # taken from the front, the end
             supply + [900, 901], [900] + supply,      # put on the end, the front
             supply[:10] + [900, 901] + supply[10:],   # a run put in the middle
             supply[:5] + [supply[6], supply[5]] + supply[7:],   # two swapped: the sets
             supply[:20] + [900] + supply[22:],        # one replaced by another: the sets
             supply[1:],  [900] + supply[:-1],         # one gone (the front), one come, one gone
             supply[:30] + [supply[31], supply[30]] + supply[32:100] + supply[101:],   # swap + gone
             supply[:10] + [900] + supply[11:100] + supply[101:],   # one replaced early, one gone later
             supply[:60] + [900] + supply[60:120] + [supply[121], supply[120]] + supply[122:],   # come + swap
             supply[:7] + [900] + supply[7:50] + [901, 902] + supply[50:] + [903],   # a few come apart
             supply[:7] + supply[8:50] + supply[52:140] + supply[141:],   # a few gone apart
             supply[:3] + supply[4:] + [supply[3]],   # one moved: as many, not the same order
             supply[:9] + [900] + supply[10:70] + supply[71:] + [901]]   # one replaced, one gone, one come
    for new in cases:
        old = supply[:]
        assert set(_changed_cards(new, old)) == set(new) ^ set(supply)
        assert old == new and old is not new   # (the memo's list brought up to date in place)
    size = 3 * RUN + 5
    values = [rnd.randrange(3) for _ in range(size)]
    A = array("f", bytes(4 * (size + 10)))
    memo = [None, []]
    for new in (values, values[:7] + [5] + values[8:], [0] * size,
                [v + (i % 50 == 0) for i, v in enumerate(values)], values[:-1]):
        _sync_values(memoryview(A), 10, size, memo, new)
        assert list(A[10:10 + len(new)]) == new and memo[0] == new and memo[0] is not new
        assert sum(memo[1], []) == new and len(memo[1]) == -(-len(new) // RUN)


def test_a_seat_view_is_gathered_by_runs_of_consecutive_slots():
    """The incremental encoder's gather (adapters/shared_encoder.py ``_runs``): a seat's index map
    as runs of consecutive slots, a hidden stretch (the zero slot) as one run of the block of
    zeros, so the joined runs read exactly what the map names."""
    from interpreter.adapters.shared_encoder import _runs
    zero, zeros = 20, 30                    # slot 20 is "hidden"; the zeros block starts at 30
    g = [5, 6, 7, zero, zero, zero, 0, 1, 21, 12, 13, zero, 14, 8]
    runs = _runs(g, zero, zeros)
    assert runs == [[5, 8], [33, 36], [0, 2], [21, 22], [12, 14], [41, 42], [14, 15], [8, 9]]
    read = [x for a, b in runs for x in range(a, b)]
    assert [zero if x >= zeros else x for x in read] == g
    assert _runs(list(range(10)), zero, zeros) == [[0, 10]] and _runs([], zero, zeros) == []
