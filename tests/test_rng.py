"""The game RNG: SplitMix64, whose stream must never change (saved games and seeds replay)."""
from helpers import module_from_file
from interpreter.accel import source_of
from interpreter.engine import rng

# engine/rng.py run as Python, whatever the tier: its blocks of lanes (BLOCK, _LANES) are the
# Python module's own (the compiled tier's stream, interpreter/accel/rng.pyx, draws in C)
pure = module_from_file("rulebook_pure_rng", source_of("engine.rng"))


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
    for n in [0, 1, 2, 3, 5, 60, 569, pure.BLOCK, pure.BLOCK + 1, pure.BLOCK + 2, 3 * pure.BLOCK + 7,
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
    pure._LANES.clear()
    pure.shuffle(_S(7), list(range(40_000)))
    assert max(pure._LANES) <= pure.BLOCK and len(pure._LANES) <= 2


def _shuffle_before(S, items):
    """The oracle: shuffle() as it was before its picks were scaled on the long integer (each
    draw mixed in a lane, then scaled one by one), kept whole here: a deliberate copy of the
    lanes' mixing in engine/rng.py, not an import of it, so that a change there is caught."""
    from array import array
    n = len(items)
    if n < 2:
        return
    s0, i, M = S.rng, n, rng.MASK
    draws = array("Q")
    for start in range(0, n - 1, pure.BLOCK):
        count, state = min(pure.BLOCK, n - 1 - start), (s0 + start * rng.GOLDEN) & M
        ones = ((1 << (128 * count)) - 1) // ((1 << 128) - 1)
        steps = 0
        for k in range(count, 0, -1):
            steps = (steps << 128) | (k * rng.GOLDEN)
        low = ones * M
        z = (state * ones + steps) & low
        z ^= (z >> 30) & low
        z = (z * 0xBF58476D1CE4E5B9) & low
        z ^= (z >> 27) & low
        z = (z * 0x94D049BB133111EB) & low
        z ^= (z >> 31) & low
        draws.extend(array("Q", z.to_bytes(16 * count, "little"))[::2])
    for z in draws:
        j = (z * i) >> 64
        i -= 1
        items[i], items[j] = items[j], items[i]
    S.rng = (s0 + (n - 1) * rng.GOLDEN) & M


def test_shuffle_gives_the_permutations_it_gave_before_on_many_seeds():
    import random
    r = random.Random(11)
    lengths = [2, 3, 4, 7, 10, 13, 40, 52, 60, 63, 64, 65, 127, 128, 129, 569, pure.BLOCK + 1, 2 * pure.BLOCK + 3]
    for n in lengths + [r.randrange(2, 200) for _ in range(30)]:
        for seed in range(40 if n < 200 else 4):
            state = rng.seed_state(seed * 7919 + n)
            S, old = _S(state), _S(state)
            items, before = list(range(n)), list(range(n))
            rng.shuffle(S, items)
            _shuffle_before(old, before)
            assert items == before and S.rng == old.rng, (n, seed)
