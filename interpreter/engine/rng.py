"""A small seeded RNG whose whole state is one integer, so it lives inside the game State.

SplitMix64 (Steele, Lea, Flood 2014): fast in pure Python, good statistical quality, and
the same stream on every machine and Python version. The state is cloned with the game.
"""
import sys
from array import array

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """Mix a user seed (any int) into a starting state."""
    return mix((int(seed) * GOLDEN + 0x632BE59BD9B4E019) & MASK)


def mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def next64(state: int) -> tuple[int, int]:
    """Return (random 64-bit value, new state)."""
    state = (state + GOLDEN) & MASK
    return mix(state), state


def below(S, n: int) -> int:
    """A uniform integer in [0, n), drawn from and advancing ``S.rng``."""
    S.rng = z = (S.rng + GOLDEN) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK     # mix(), inlined: this is the hot path
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return ((z ^ (z >> 31)) * n) >> 64


def uniform(S) -> float:
    """A float in [0, 1) with 53 random bits."""
    S.rng = z = (S.rng + GOLDEN) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK     # mix(), inlined: a roll draws one each
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return ((z ^ (z >> 31)) >> 11) * (1.0 / (1 << 53))


def shuffle(S, items: list) -> None:
    """Fisher-Yates in place, drawing from the state's RNG: the draws of below(), one after
    another, but computed all at once (``_picks``)."""
    n = len(items)
    if n < 2:
        return
    s0 = S.rng
    i = n
    for j in _picks(s0, n):
        i -= 1
        items[i], items[j] = items[j], items[i]
    S.rng = (s0 + (n - 1) * GOLDEN) & MASK


def _picks(state: int, n: int):
    """The places a Fisher-Yates shuffle of ``n`` items from ``state`` swaps with, in turn:
    below(i) for i = n, n - 1, ..., 2, as one below() after another would draw them. A long
    run is worked out in blocks of ``BLOCK`` draws, so the work stays linear in ``n``."""
    count = n - 1
    if count > BLOCK:
        out = array("Q")
        for start in range(0, count, BLOCK):
            out.extend(_block((state + start * GOLDEN) & MASK, min(BLOCK, count - start), n - start))
        return out
    return _block(state, count, n)


def _block(state: int, count: int, top: int):
    """below(top), below(top - 1), ... (``count`` draws) from ``state``.

    The states a run of draws goes through are known in advance (``state + k * GOLDEN``),
    so the mixing of all of them is done at once on one integer holding each in a lane of
    128 bits (the low 64 bits hold the value, the high ones room for a product): a dozen
    operations on one long integer instead of a dozen per draw. Each value is then scaled to
    its range on the same integer, lane k by ``top - k``, as a sum of the value shifted by each
    bit of the scale that is set (``_scales``: a mask of the lanes whose scale has that bit),
    so the pick, ``(value * scale) >> 64``, is each lane's high word: no multiplication of
    its own a draw."""
    lanes = _LANES.get(count)
    if lanes is None:
        lanes = _lanes(count)
    ones, steps, low = lanes
    z = (state * ones + steps) & low
    z ^= (z >> 30) & low
    z = (z * 0xBF58476D1CE4E5B9) & low
    z ^= (z >> 27) & low
    z = (z * 0x94D049BB133111EB) & low
    z ^= (z >> 31) & low
    scales = _SCALES.get((count, top))
    if scales is None:
        scales = _scales(count, top)
    p = 0
    for bit, lanes_set in scales:   # (a product stays under 128 bits: no lane spills into the next)
        p += (z & lanes_set) << bit
    words = array("Q", p.to_bytes(16 * count, "little"))
    if _BIG_ENDIAN:
        words.byteswap()
    return words[1::2]


def _scales(count: int, top: int) -> list:
    """(bit, the value mask of each lane k whose scale ``top - k`` has that bit) for ``count``
    lanes, the bits that some scale has."""
    out = []
    for bit in range(top.bit_length()):
        lanes_set = int.from_bytes(b"".join(_ON if (top - k) >> bit & 1 else _OFF for k in range(count)), "little")
        if lanes_set:
            out.append((bit, lanes_set))
    if len(_SCALES) >= 256:
        _SCALES.clear()
    _SCALES[count, top] = out
    return out


def _lanes(count: int) -> tuple:
    """(1 in each lane, k * GOLDEN in lane k - 1, MASK in each lane) for ``count`` lanes."""
    ones = ((1 << (128 * count)) - 1) // ((1 << 128) - 1)
    steps = 0
    for k in range(count, 0, -1):
        steps = (steps << 128) | (k * GOLDEN)
    lanes = (ones, steps, ones * MASK)
    if len(_LANES) >= 256:
        _LANES.clear()
    _LANES[count] = lanes
    return lanes


_LANES: dict = {}   # count -> _lanes(count): a game shuffles lists of a few lengths
_SCALES: dict = {}  # (count, top) -> _scales(count, top)
_ON, _OFF = MASK.to_bytes(16, "little"), bytes(16)   # a lane's value bits set, and none
BLOCK = 512         # the most draws mixed on one integer (building its lanes is quadratic)
_BIG_ENDIAN = sys.byteorder == "big"
assert array("Q").itemsize == 8


def derive(seed: int, index: int) -> int:
    """A per-game seed from a batch seed and the game's index (independent of workers)."""
    return mix((seed * GOLDEN + index * 0xD1B54A32D192ED03) & MASK) & ((1 << 63) - 1)
