"""The game RNG: SplitMix64, whose stream must never change (saved games and seeds replay)."""
from interpreter.engine import rng


class _S:
    def __init__(self, state):
        self.rng = state


def test_splitmix64_reference_values():
    # SplitMix64 from state 0 (Vigna's reference implementation): the first three outputs
    state, out = 0, []
    for _ in range(3):
        value, state = rng.next64(state)
        out.append(value)
    assert out == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_below_is_the_next_output_scaled_to_the_range():
    S, state = _S(12345), 12345
    for n in (1, 2, 3, 10, 52, 10**9, 1 << 40, (1 << 63) - 25):   # (a large n reads every bit of the output)
        value, state = rng.next64(state)
        assert rng.below(S, n) == (value * n) >> 64
        assert S.rng == state


def test_shuffle_is_fisher_yates_drawing_with_below():
    items = list(range(60))
    S, ref = _S(rng.seed_state(7)), _S(rng.seed_state(7))
    expected = items[:]
    for i in range(len(expected) - 1, 0, -1):
        j = rng.below(ref, i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    rng.shuffle(S, items)
    assert items == expected and S.rng == ref.rng
    assert sorted(items) == list(range(60)) and items != list(range(60))


def test_shuffle_draws_as_below_for_every_length_and_state():
    # shuffle() mixes all its draws at once (lanes of one long integer): the same permutations
    # and the same final state as one below() after another, whatever the length and state
    import random
    r = random.Random(5)
    for n in [0, 1, 2, 3, 5, 60, 569, rng.BLOCK, rng.BLOCK + 1, rng.BLOCK + 2, 3 * rng.BLOCK + 7,
              *(r.randrange(800) for _ in range(40))]:
        for state in (0, rng.MASK, rng.MASK - 1, r.getrandbits(64)):
            S, ref = _S(state), _S(state)
            items, expected = list(range(n)), list(range(n))
            for i in range(n - 1, 0, -1):
                j = rng.below(ref, i + 1)
                expected[i], expected[j] = expected[j], expected[i]
            rng.shuffle(S, items)
            assert items == expected and S.rng == ref.rng


def test_a_long_shuffle_takes_linear_work():
    """Found by fuzzing: the lanes of 40,000 draws on one integer took more than 10 s to build;
    a long run is mixed in blocks. (A bound on operations, not on time: the draws of a block
    are cached by length, so two lengths cost two blocks' lanes.)"""
    rng._LANES.clear()
    rng.shuffle(_S(7), list(range(40_000)))
    assert max(rng._LANES) <= rng.BLOCK and len(rng._LANES) <= 2
