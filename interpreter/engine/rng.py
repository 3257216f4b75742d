"""A small seeded RNG whose whole state is one integer, so it lives inside the game State.

SplitMix64 (Steele, Lea, Flood 2014): fast in pure Python, good statistical quality, and
the same stream on every machine and Python version. The state is cloned with the game.
"""
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
    S.rng = state = (S.rng + GOLDEN) & MASK
    return (mix(state) >> 11) * (1.0 / (1 << 53))


def shuffle(S, items: list) -> None:
    """Fisher-Yates in place, drawing from the state's RNG (the draws of below(), inlined)."""
    z0 = S.rng
    for i in range(len(items) - 1, 0, -1):
        z0 = (z0 + GOLDEN) & MASK
        z = ((z0 ^ (z0 >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        j = ((z ^ (z >> 31)) * (i + 1)) >> 64
        items[i], items[j] = items[j], items[i]
    S.rng = z0


def derive(seed: int, index: int) -> int:
    """A per-game seed from a batch seed and the game's index (independent of workers)."""
    return mix((seed * GOLDEN + index * 0xD1B54A32D192ED03) & MASK) & ((1 << 63) - 1)
