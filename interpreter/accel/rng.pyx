# cython: language_level=3
"""engine/rng.py's random stream with C arithmetic: the compiled tier builds this file as
``interpreter.engine.rng`` in place of that module (interpreter/accel, ``C_SOURCES``), and
loads it only while both files are the ones built.

The same SplitMix64 sequence, draw for draw: a state is a C ``uint64`` (wrapping is the
``& MASK`` of the Python module), ``below`` scales by the high word of a 64 x 64-bit product,
and ``shuffle`` draws its swaps one after another in C, where the Python module mixes them
all at once on one long integer. tests/test_accel.py compares long streams, shuffles and the
state after them against the Python module. A value outside what the C path takes (a
negative or huge ``n``, a state that is not an ``int``) is worked out as the Python module
does it, or raises the same kind of error.
"""
from cpython.long cimport PyLong_AsLongLongAndOverflow, PyLong_AsUnsignedLongLongMask

cdef extern from *:
    """
    #define RB_GOLDEN 0x9E3779B97F4A7C15ULL

    static CYTHON_INLINE unsigned long long rb_tail(unsigned long long z) {
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }

    static CYTHON_INLINE unsigned long long rb_mix(unsigned long long z) {
        return rb_tail((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL);
    }

    /* the high 64 bits of a * b, from 32-bit halves (no 128-bit type needed) */
    static CYTHON_INLINE unsigned long long rb_mulhi(unsigned long long a, unsigned long long b) {
        unsigned long long a0 = a & 0xFFFFFFFFULL, a1 = a >> 32, b0 = b & 0xFFFFFFFFULL, b1 = b >> 32;
        unsigned long long p01 = a0 * b1, p10 = a1 * b0;
        unsigned long long mid = ((a0 * b0) >> 32) + (p01 & 0xFFFFFFFFULL) + (p10 & 0xFFFFFFFFULL);
        return a1 * b1 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    }

    /* Fisher-Yates on a list's own array of items from state s: below(n), below(n - 1), ...
       below(2), each swap a swap of two pointers (no reference changes hands) */
    static void rb_shuffle_list(PyObject *list, Py_ssize_t n, unsigned long long s) {
        PyObject **item = ((PyListObject *)list)->ob_item;
        for (Py_ssize_t i = n - 1; i > 0; i--) {
            s += RB_GOLDEN;
            Py_ssize_t j = (Py_ssize_t)rb_mulhi(rb_mix(s), (unsigned long long)i + 1);
            PyObject *t = item[i];
            item[i] = item[j];
            item[j] = t;
        }
    }
    """
    unsigned long long RB_GOLDEN
    unsigned long long rb_tail(unsigned long long z) noexcept nogil
    unsigned long long rb_mix(unsigned long long z) noexcept nogil
    unsigned long long rb_mulhi(unsigned long long a, unsigned long long b) noexcept nogil
    void rb_shuffle_list(object items, Py_ssize_t n, unsigned long long s) noexcept

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def seed_state(seed) -> int:
    """Mix a user seed (any int) into a starting state."""
    return rb_mix(PyLong_AsUnsignedLongLongMask(int(seed)) * RB_GOLDEN + 0x632BE59BD9B4E019ULL)


def mix(z) -> int:
    if type(z) is int and 0 <= z <= MASK:
        return rb_mix(z)
    # (a value over 64 bits: its first step reads the bits above too, as in Python)
    return rb_tail(((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK)


def next64(state) -> tuple:
    """Return (random 64-bit value, new state)."""
    cdef unsigned long long s = PyLong_AsUnsignedLongLongMask(state) + RB_GOLDEN
    return rb_mix(s), s


def below(S, n) -> int:
    """A uniform integer in [0, n), drawn from and advancing ``S.rng``."""
    cdef unsigned long long z = PyLong_AsUnsignedLongLongMask(S.rng) + RB_GOLDEN
    cdef long long m
    cdef int overflow = 0
    S.rng = z
    z = rb_mix(z)
    if type(n) is int:
        m = PyLong_AsLongLongAndOverflow(n, &overflow)
        if not overflow and m >= 0:
            return rb_mulhi(z, <unsigned long long>m)
    return (z * n) >> 64   # (a negative or huge n, or another type: as Python works it out)


def uniform(S) -> float:
    """A float in [0, 1) with 53 random bits."""
    cdef unsigned long long z = PyLong_AsUnsignedLongLongMask(S.rng) + RB_GOLDEN
    S.rng = z
    return <double>(rb_mix(z) >> 11) * (1.0 / 9007199254740992.0)


def shuffle(S, items) -> None:
    """Fisher-Yates in place, drawing from the state's RNG: the draws of below(), one after
    another."""
    cdef Py_ssize_t n = len(items), i, j
    cdef unsigned long long s
    if n < 2:
        return
    s = PyLong_AsUnsignedLongLongMask(S.rng)
    if type(items) is list:
        rb_shuffle_list(items, n, s)
    else:   # (another mutable sequence: through its own item access)
        for i in range(n - 1, 0, -1):
            j = <Py_ssize_t>rb_mulhi(rb_mix(s + <unsigned long long>(n - i) * RB_GOLDEN), <unsigned long long>i + 1)
            items[i], items[j] = items[j], items[i]
    S.rng = s + <unsigned long long>(n - 1) * RB_GOLDEN


def derive(seed, index) -> int:
    """A per-game seed from a batch seed and the game's index (independent of workers)."""
    return rb_mix(PyLong_AsUnsignedLongLongMask(seed) * RB_GOLDEN
                  + PyLong_AsUnsignedLongLongMask(index) * 0xD1B54A32D192ED03ULL) & 0x7FFFFFFFFFFFFFFFULL
